"""One learning agent among bots, as a Gymnasium environment.

The agent sits in ``seat`` (or a random seat each episode with ``seat=None``);
the other seats are bots of :mod:`darkcity.bots` (``opponents``: one name for
all, or one per other seat), each deciding from its own
:class:`~darkcity.bots.Observation`. ``step(action)`` applies the agent's
decision, lets the bots play until the agent must decide again (or the game
ends), and returns the agent's observation (:mod:`darkcity.env.observation`)::

    from darkcity.env.single import DarkCitySingleAgentEnv
    env = DarkCitySingleAgentEnv(players=6, opponents="heuristic")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Rewards as in the multi-agent versions (the win share at the end, or XP each
night); an illegal action ends the episode with ``illegal_reward``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
from gymnasium import spaces

from darkcity.bots import Bot, Observation, make_bot
from darkcity.deck import Deck
from darkcity.env.table import Table

__all__ = ["DarkCitySingleAgentEnv"]


class DarkCitySingleAgentEnv(gymnasium.Env[dict[str, Any], Any]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(self, players: int = 6, deck: str | Deck = "basic", *,
                 opponents: str | Sequence[str] = "heuristic", seat: int | None = 0,
                 reward: str = "win", max_nights: int = 200, history: int = 8,
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        if reward not in ("win", "xp"):
            raise ValueError(f"reward is 'win' or 'xp', not {reward!r}")
        self.table = Table(players, deck, history=history)
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{len(names)} opponents for {players - 1} other seats")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat: 0 to {players - 1}, not {seat}")
        self.opponents = tuple(names)
        self.seat = seat
        self.reward_kind = reward
        self.max_nights = max_nights
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = self.table.encoder.space(self.table.codec.size)
        self.action_space = spaces.Discrete(self.table.codec.size)
        self.agent = self.table.names[seat or 0]
        self._bots: dict[str, Bot] = {}
        self._rng = random.Random()

    def action_to_string(self, action: int) -> str:
        return self.table.codec.action_to_string(action)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(f"darkcity:single:{seed}")
        self.table.reset(None if seed is None else seed)
        names = self.table.names
        seat = self.seat if self.seat is not None else self._rng.randrange(len(names))
        self.agent = names[seat]
        others = [p for p in names if p != self.agent]
        self._bots = {p: make_bot(b, random.Random(self._rng.getrandbits(64)))
                      for p, b in zip(others, self.opponents, strict=True)}
        self._play_bots()
        return self.table.observe(self.agent, wait=False), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        game = table.game
        d = table.decision(self.agent, int(action))
        if d is None:
            info = self._info()
            info["illegal_action"] = int(action)
            return table.observe(self.agent, wait=False), self.illegal_reward, True, False, info
        me = game.players.index(self.agent)
        xp_before = sum(game.journals[me].values())
        game.apply(d)
        self._play_bots()
        reward = 0.0
        if self.reward_kind == "xp":
            reward = float(sum(game.journals[me].values()) - xp_before)
        elif game.over and self.agent in game.winners:
            reward = 1 / len(game.winners)
        truncated = not game.over and game.night > self.max_nights
        return (table.observe(self.agent, wait=False), reward, game.over, truncated,
                self._info())

    def _play_bots(self) -> None:
        """The bots decide until the agent must (or the game ends)."""
        game = self.table.game
        while not game.over and game.night <= self.max_nights:
            pending = [p for p in game.pending if p != self.agent]
            if not pending:
                return
            for p in pending:
                game.apply(self._bots[p].step(Observation(game, p)))

    def _info(self) -> dict[str, Any]:
        g = self.table.game
        return {"phase": g.phase.value, "night": g.night, "seat": g.players.index(self.agent),
                "winners": g.winners}

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None


