"""Dark City as a PettingZoo AEC environment: one agent acts at a time.

``agent_selection`` is the first player who must still decide: the draft is one
drafter at a time, and the simultaneous phases (the free XP, the gestures, the
withdrawals, the Zombies' choice) are asked in seat order, their decisions kept
sealed by the engine until all are in (an agent's observation never shows what
another committed at the same point). Actions are the fixed encoding of
:mod:`darkcity.env.actions`; observations the tensors of
:mod:`darkcity.env.observation`.

Rewards: ``reward="win"`` gives each of the ``k`` winners ``1/k`` at the end;
``reward="xp"`` gives every agent the XP it earns, each night. An illegal action
ends the game: the agent that made it gets ``illegal_reward`` (-1), the others
0, as PettingZoo's classic games do (:func:`env` wraps the raw environment in
``TerminateIllegalWrapper``; the raw one refuses an illegal action with
``ValueError`` naming it).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from darkcity.deck import Deck
from darkcity.env.table import Table

__all__ = ["DarkCityAECEnv", "env", "raw_env"]


class DarkCityAECEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (use :func:`env` for the standard wrappers)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "darkcity_v1", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 6, deck: str | Deck = "basic", *, reward: str = "win",
                 max_nights: int = 200, history: int = 8,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in ("win", "xp"):
            raise ValueError(f"reward is 'win' or 'xp', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.table = Table(players, deck, history=history)
        self.reward_kind = reward
        self.max_nights = max_nights
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(self.table.names)
        self._obs_space = self.table.encoder.space(self.table.codec.size)
        self._act_space = spaces.Discrete(self.table.codec.size)
        self.state_space = spaces.Box(0, 255, (self.table.encoder.state_size(),),
                                      dtype=np.float32)
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def action_to_string(self, action: int) -> str:
        """What ``action`` means (the same in every game at this table size)."""
        return self.table.codec.action_to_string(action)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False  # self.rewards holds a non-zero reward
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(agent, wait=False)

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        return self.table.state()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        game = table.game
        decision = table.decision(agent, -1 if action is None else int(action))
        if decision is None:
            raise ValueError(f"{agent}: action {action} is not legal now "
                             f"(legal: {sorted(table.legal(agent))})")
        self._cumulative_rewards[agent] = 0.0
        xp = self.reward_kind == "xp"
        xp_before = [sum(j.values()) for j in game.journals] if xp else []
        nights = len(game.nights)
        game.apply(decision)
        if self._rewarded:  # most steps reward nobody: keep the zeros until one does
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if xp and len(game.nights) > nights:
            for p, j, before in zip(game.players, game.journals, xp_before, strict=True):
                self.rewards[p] = float(sum(j.values()) - before)
            self._rewarded = True
        if game.over:
            if self.reward_kind == "win":
                for w in game.winners:
                    self.rewards[w] = 1 / len(game.winners)
                self._rewarded = True
            self.terminations = dict.fromkeys(self.agents, True)
        elif game.night > self.max_nights:
            self.truncations = dict.fromkeys(self.agents, True)
        if self._rewarded:
            self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        # the decision point's pending (the observation that follows reads the same)
        pending = self.table.game.decision_point().pending
        # every agent ends together (here, or by TerminateIllegalWrapper)
        first = pending[0] if pending else None
        if first is not None and not (self.terminations.get(first, True) or
                                      self.truncations.get(first, True)):
            self.agent_selection = first
        else:  # the end: every agent takes its last (dead) step in seat order
            live = [a for a in self.agents
                    if self.terminations.get(a) or self.truncations.get(a)]
            if live:
                self.agent_selection = live[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.render()

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> DarkCityAECEnv:
    """The AEC environment without wrappers."""
    return DarkCityAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's classic wrappers: an illegal action
    ends the game with -1 to its agent; out-of-range actions are asserted; the
    order of calls is enforced."""
    e: AECEnv = DarkCityAECEnv(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
