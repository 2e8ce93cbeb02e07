"""Dark City as a PettingZoo Parallel environment (``pip install darkcity[rl]``).

Every step, every live agent submits an action. The actions are the fixed
encoding of :mod:`darkcity.env.actions` (a draft action names a card, a gesture
action a role shown and the seats aimed at, whatever the deal); action ``0``
(``wait``) is the only legal action of an agent that does not decide at this
point (the draft is one player at a time; Death sits out Phases 2 and 3; only
Zombies choose in Phase 4). The deciding agents' decisions are applied in seat
order, each after the engine listed it (:meth:`darkcity.game.Game.legal`).

Observations are the tensors of :mod:`darkcity.env.observation` (from the
agent's own :func:`darkcity.views.view`, and nothing else). Rewards are the win
share at the end (``1/k`` to each of ``k`` winners), or, with ``reward="xp"``,
the XP each agent earns every night.

An illegal action (not in the agent's ``action_mask``, a waiting agent's
included) ends the episode at once, before anything is applied: its agent
gets ``illegal_reward`` (-1), the others 0, everybody is terminated and the
infos name the offence, as PettingZoo's classic games do.

``reset(seed=s)`` deals the game ``s`` (the same seed and actions give the same
episode); ``reset()`` deals the next game of that stream, or, never seeded, a
fresh one from the system's entropy.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from darkcity.decisions import Decision
from darkcity.deck import Deck
from darkcity.env.actions import WAIT
from darkcity.env.table import Table

__all__ = ["DarkCityParallelEnv", "parallel_env"]


class DarkCityParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Simultaneous-move Dark City for multi-agent learning."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "darkcity_v1", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 6, deck: str | Deck = "basic", *, reward: str = "win",
                 max_nights: int = 200, history: int = 8, illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        if reward not in ("win", "xp"):
            raise ValueError(f"reward is 'win' or 'xp', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.table = Table(players, deck, history=history)
        self.reward_kind = reward
        self.max_nights = max_nights
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(self.table.names)
        self.agents: list[str] = []
        self._obs_space = self.table.encoder.space(self.table.codec.size)
        self._act_space = spaces.Discrete(self.table.codec.size)
        self.state_space = spaces.Box(0, 255, (self.table.encoder.state_size(),),
                                      dtype=np.float32)

    @property
    def game(self) -> Any:
        """The engine's game (for inspection and tests; an agent sees its observation)."""
        return self.table.game

    # -- spaces ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space  # the same object every time (PettingZoo's seeding)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def action_to_string(self, action: int) -> str:
        """What ``action`` means (the same in every game at this table size)."""
        return self.table.codec.action_to_string(action)

    def legal_decisions(self, agent: str) -> dict[int, Decision]:
        """The engine's decisions behind ``agent``'s legal actions now."""
        return dict(self.table.legal(agent))

    # -- the API ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observe(), self._infos()

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        return self.table.state()

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, Any]]:
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        table = self.table
        game = table.game
        for p in actions:
            if p not in self.agents:
                raise ValueError(f"{p!r} is not a live agent")
        chosen: list[Decision] = []
        for p in self.agents:
            a = int(actions.get(p, WAIT))
            legal = table.legal(p)
            if not legal and a == WAIT:
                continue
            d = legal.get(a)
            if d is None:
                return self._illegal(p, a)
            chosen.append(d)
        xp = self.reward_kind == "xp"
        xp_before = [sum(j.values()) for j in game.journals] if xp else []
        nights = len(game.nights)
        for d in chosen:
            game.apply(d)
        rewards = dict.fromkeys(self.agents, 0.0)
        if xp and len(game.nights) > nights:
            for p, j, before in zip(game.players, game.journals, xp_before, strict=True):
                rewards[p] = float(sum(j.values()) - before)
        over = game.over
        truncated = not over and game.night > self.max_nights
        if over and self.reward_kind == "win":
            for w in game.winners:
                rewards[w] = 1 / len(game.winners)
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, truncated)
        obs = self._observe()
        infos = self._infos()
        if over or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _illegal(self, agent: str, action: int) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, Any]]:
        obs = self._observe()
        infos = self._infos()
        infos[agent]["illegal_action"] = action
        rewards = dict.fromkeys(self.agents, 0.0)
        rewards[agent] = self.illegal_reward
        terms = dict.fromkeys(self.agents, True)
        truncs = dict.fromkeys(self.agents, False)
        self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.render()

    def close(self) -> None:
        pass

    # -- encoding ------------------------------------------------------------------

    def _observe(self) -> dict[str, Any]:
        return {p: self.table.observe(p, wait=True) for p in self.agents}

    def _infos(self) -> dict[str, Any]:
        game = self.table.game
        phase = game.phase.value
        night = game.night
        legal = self.table.legal
        return {p: {"phase": phase, "night": night, "legal": len(legal(p))}
                for p in self.agents}


def parallel_env(**kwargs: Any) -> DarkCityParallelEnv:
    """PettingZoo's conventional constructor."""
    return DarkCityParallelEnv(**kwargs)
