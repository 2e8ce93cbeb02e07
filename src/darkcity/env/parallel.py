"""Dark City as a PettingZoo Parallel environment (``pip install darkcity[rl]``).

Every step, every live agent submits an action; the game is driven by
:meth:`darkcity.game.Game.legal`, the one enumerator:

* action ``0`` is the no-op, the only legal action of an agent that does not
  decide at this point (the draft is one player at a time; Death sits out
  Phases 2 and 3; only Zombies choose in Phase 4);
* action ``i >= 1`` is the ``i``-th legal decision (``game.legal(agent)[i - 1]``).

Observations are dicts: ``observation`` (an ``int8`` vector built from the
agent's own view, :func:`darkcity.views.view`, and nothing else) and
``action_mask`` (``int8``, 1 for legal actions). Rewards are the win share
at the end (``1/k`` to each of ``k`` winners), or, with ``reward="xp"``,
the XP each agent earns every night. ``reset(seed=...)`` seeds the deal;
the same seed and the same actions give the same episode.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from darkcity.cast import Role, parse_role
from darkcity.deck import Deck, parse_deck
from darkcity.game import Decision, Game, Phase, Settings
from darkcity.views import View, view

__all__ = ["MAX_ACTIONS", "DarkCityParallelEnv", "parallel_env"]

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
#: Room for the most legal decisions a player can have, plus the no-op (the
#: most seen in random play over every preset at 8 players is 59: a Devil's
#: gestures).
MAX_ACTIONS = 128
_NR = len(Role)
_PHASES = tuple(Phase)


def _role_index(key: str) -> int:
    r = parse_role(key)
    return int(r) if r is not None else 0


class DarkCityParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Simultaneous-move Dark City for multi-agent learning."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "darkcity_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 6, deck: str | Deck = "basic", *,
                 reward: str = "win", max_nights: int = 200,
                 render_mode: str | None = None) -> None:
        if reward not in ("win", "xp"):
            raise ValueError(f"reward is 'win' or 'xp', not {reward!r}")
        self.n = players
        self.deck = deck if isinstance(deck, Deck) else parse_deck(deck, players)
        self.reward_kind = reward
        self.max_nights = max_nights
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(NAMES[:players])
        self.agents: list[str] = []
        self.game: Game | None = None
        self._seeder = random.Random(0)
        n = players
        # own card (15) + phase (6) + seat/active/pending flags (3n) + journals (n x 15)
        # + shown roles (n x 15) + withdrawals (n) + hand (15) + received (15) + night
        self._size = _NR + len(_PHASES) + 3 * n + 2 * n * _NR + n + 2 * _NR + 1
        self._obs_space: spaces.Space[Any] = spaces.Dict({
            "observation": spaces.Box(0, 127, (self._size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), dtype=np.int8),
        })
        self._act_space: spaces.Space[Any] = spaces.Discrete(MAX_ACTIONS)

    # -- spaces ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space  # the same object every time (PettingZoo's seeding)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # -- the API ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seeder = random.Random(f"darkcity:env:{seed}")
        game_seed = self._seeder.getrandbits(63)
        self.game = Game(Settings(players=tuple(self.possible_agents), deck=self.deck),
                         game_seed)
        self.agents = list(self.possible_agents)
        return self._observe(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, Any]]:
        game = self.game
        if game is None or not self.agents:
            raise RuntimeError("call reset() first")
        for p in actions:
            if p not in self.agents:
                raise ValueError(f"{p!r} is not a live agent")
        journals_before = [sum(j.values()) for j in game.journals]
        nights_before = len(game.nights)
        for p in game.pending:
            legal = game.legal(p)
            a = int(actions.get(p, 0))
            if not 1 <= a <= len(legal):
                raise ValueError(f"{p}: action {a} is not legal now (1..{len(legal)})")
            game.apply(legal[a - 1])
        rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_kind == "xp" and len(game.nights) > nights_before:
            for i, p in enumerate(game.players):
                rewards[p] = float(sum(game.journals[i].values()) - journals_before[i])
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

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        return (f"night {g.night}, {g.phase.value}, pending {', '.join(g.pending)}; "
                f"journals {[sum(j.values()) for j in g.journals]}")

    def close(self) -> None:
        self.game = None

    # -- encoding ------------------------------------------------------------------

    def legal_decisions(self, agent: str) -> tuple[Decision, ...]:
        """What actions ``1..`` of ``agent`` mean now."""
        return self.game.legal(agent) if self.game is not None else ()

    def _observe(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        out = {}
        for p in self.agents:
            mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
            legal = game.legal(p)
            if legal:
                if len(legal) >= MAX_ACTIONS:  # pragma: no cover - see MAX_ACTIONS
                    raise RuntimeError(f"{len(legal)} legal decisions exceed MAX_ACTIONS")
                mask[1:len(legal) + 1] = 1
            else:
                mask[0] = 1
            out[p] = {"observation": self._encode(view(game, p)), "action_mask": mask}
        return out

    def _infos(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        return {p: {"phase": game.phase.value, "night": game.night,
                    "legal": len(game.legal(p))} for p in self.agents}

    def _encode(self, v: View) -> np.ndarray[Any, np.dtype[np.int8]]:
        x = np.zeros(self._size, dtype=np.int8)
        n = self.n
        me = v.players.index(v.viewer) if v.viewer is not None else 0
        k = 0
        for s in v.seats:
            if s.name == v.viewer and s.card is not None:
                x[k + _role_index(s.card.role)] = 1
        k += _NR
        x[k + _PHASES.index(Phase(v.phase))] = 1
        k += len(_PHASES)
        pending = set(v.pending)
        for i in range(n):  # seats relative to the viewer
            s = v.seats[(me + i) % n]
            x[k + i] = 1 if s.name == v.active else 0
            x[k + n + i] = 1 if s.name in pending else 0
            x[k + 2 * n + i] = 1 if s.death else 0
        k += 3 * n
        for i in range(n):
            s = v.seats[(me + i) % n]
            for role, xp in s.journal:
                x[k + i * _NR + _role_index(role)] = min(127, xp)
            if s.gesture is not None:
                x[k + n * _NR + i * _NR + _role_index(s.gesture.shows)] = 1
            if s.withdrawal is not None and s.withdrawal is not False:
                x[k + 2 * n * _NR + i] = 1
        k += 2 * n * _NR + n
        for c in v.hand or ():
            x[k + _role_index(c.role)] += 1
        k += _NR
        for c in v.received:
            x[k + _role_index(c.role)] += 1
        k += _NR
        x[k] = min(127, v.night)
        return x


def parallel_env(**kwargs: Any) -> DarkCityParallelEnv:
    """PettingZoo's conventional constructor."""
    return DarkCityParallelEnv(**kwargs)
