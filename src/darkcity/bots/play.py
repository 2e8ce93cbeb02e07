"""Driving a game with bots: the observation a bot decides from, and the loop.

Compiled with the engine (``[tool.darkcity] compiled``): a simulation spends
much of its time here, between the game's decision points. The bot interface
itself (:class:`~darkcity.bots.base.Bot`, the registry) is in
:mod:`darkcity.bots.base`, which re-exports these names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol, TypeVar, cast

from darkcity.decisions import Decision, Phase
from darkcity.game import Game
from darkcity.night import Card
from darkcity.views import View, view

__all__ = ["BotError", "Decider", "Observation", "choose", "play_game"]

_T = TypeVar("_T")


class BotError(ValueError):
    """An unknown bot name, or a bot that answered with an illegal decision."""


class Decider(Protocol):
    """What the loop asks of a seat: a :class:`~darkcity.bots.base.Bot`, or anything
    else that decides from an observation (this module stands below the bots)."""

    def step(self, obs: Observation) -> Decision: ...


class Observation:
    """What one player may know now: its view, its legal decisions, the deck.

    Built by whoever drives the game (the simulator, the environment, a
    server) for the player asked to decide. The view is built on first use
    (a random bot never pays for it).
    """

    __slots__ = ("_game", "_legal", "_view", "player")

    def __init__(self, game: Game, player: str) -> None:
        self._game = game
        self.player: Final = player
        self._view: View | None = None
        self._legal: tuple[Decision, ...] | None = None

    @property
    def legal(self) -> tuple[Decision, ...]:
        """The player's legal decisions now (empty when not asked to decide)."""
        if self._legal is None:
            self._legal = self._game.legal(self.player)
        return self._legal

    @property
    def view(self) -> View:
        """The player's view (:func:`darkcity.views.view`)."""
        if self._view is None:
            self._view = view(self._game, self.player)
        return self._view

    @property
    def phase(self) -> Phase:
        """The phase of the decision point (public)."""
        return self._game.phase

    @property
    def decision_id(self) -> int:
        return self._game.decision_point().id

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of the game, Death included (public: the table knows the deck)."""
        return self._game.settings.deck.cards


def play_game(
    game: Game,
    bots: Mapping[str, Decider],
    *,
    check: bool = True,
    max_nights: int = 1000,
    on_decision: Callable[[Observation, Decision], None] | None = None,
) -> Game:
    """Play ``game`` to its end, asking ``bots[player]`` at every decision point.

    Simultaneous phases are asked in seat order; no bot sees another's secret
    choice (the views hide it). With ``check`` every answer is verified
    (:meth:`Game.do`); a refused one raises :class:`BotError`.
    """
    while game.phase is not Phase.OVER:
        if game.night > max_nights:
            raise RuntimeError(f"no winner after {max_nights} nights")
        for p in game.pending:
            obs = Observation(game, p)
            # typed object: compiled code would turn a bot's wrong answer into a TypeError
            step: Callable[[Observation], object] = bots[p].step
            answer = step(obs)
            if check and not _is_legal(answer, obs.legal):
                raise BotError(f"{bots[p]!r} answered {answer!r}, not a legal decision of {p}")
            d = cast(Decision, answer)
            if on_decision is not None:
                on_decision(obs, d)
            game.apply(d)
    return game


def _is_legal(d: object, legal: tuple[Decision, ...]) -> bool:
    for x in legal:  # bots answer with one of the enumerated values: identity first
        if x is d:
            return True
    return d in legal


def choose(rng: random.Random, options: Sequence[_T]) -> _T:
    """``rng.choice(options)``: the same draw from the same stream, compiled.

    :meth:`random.Random.choice` draws ``getrandbits(n.bit_length())`` until the
    number is below ``n`` (CPython's ``_randbelow``); so does this, without two
    Python-level frames per draw, which were a fifth of a random bot's game.
    """
    n = len(options)
    if n == 0:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return options[r]
