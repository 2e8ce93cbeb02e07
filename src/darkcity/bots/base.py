"""The bot interface, the observation a bot decides from, and the registry.

The shape is OpenSpiel's (``Bot.step(state)``) and python-chess's engines'
(a named player answering a position): a bot is built with an injected
:class:`random.Random` and answers a decision point with one legal decision::

    bot = make_bot("heuristic", random.Random(7))
    decision = bot.step(Observation(game, "Ana"))
    game.do(decision)

A bot never sees the :class:`~darkcity.game.Game`. It sees an
:class:`Observation`: the player's view (:func:`darkcity.views.view`), that
player's legal decisions (:meth:`Game.legal`, the one enumerator; the same
choices the view lists as plain data, here as typed values) and the cards of
the deck (public at the table). Nothing else.

Adding a bot: subclass :class:`Bot`, give it a ``name`` and a ``description``
and decorate the class with :func:`register`; import its module from
:mod:`darkcity.bots` so that ``darkcity bots`` lists it.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Mapping
from typing import ClassVar, Final, TypeVar

from darkcity.cast import Edition, Gender, parse_role
from darkcity.game import Decision, Game, Phase
from darkcity.night import Card
from darkcity.views import CardView, View, view

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "Observation",
    "bot_names",
    "card_of",
    "make_bot",
    "play_game",
    "register",
]


class BotError(ValueError):
    """An unknown bot name, or a bot that answered with an illegal decision."""


def card_of(cv: CardView) -> Card:
    """The card a :class:`~darkcity.views.CardView` shows."""
    role = parse_role(cv.role)
    if role is None:  # pragma: no cover - views only hold known roles
        raise BotError(f"unknown role {cv.role!r} in a view")
    return Card(role, Edition(cv.edition), Gender(cv.gender) if cv.gender else None)


class Observation:
    """What one player may know now: its view, its legal decisions, the deck.

    Built by whoever drives the game (the simulator, the environment, a
    server) for the player asked to decide. The view is built on first use
    (a random bot never pays for it).
    """

    __slots__ = ("__game", "_legal", "_view", "player")

    def __init__(self, game: Game, player: str) -> None:
        self.__game = game
        self.player: Final = player
        self._view: View | None = None
        self._legal: tuple[Decision, ...] | None = None

    @property
    def legal(self) -> tuple[Decision, ...]:
        """The player's legal decisions now (empty when not asked to decide)."""
        if self._legal is None:
            self._legal = self.__game.legal(self.player)
        return self._legal

    @property
    def view(self) -> View:
        """The player's view (:func:`darkcity.views.view`)."""
        if self._view is None:
            self._view = view(self.__game, self.player)
        return self._view

    @property
    def phase(self) -> Phase:
        """The phase of the decision point (public)."""
        return self.__game.phase

    @property
    def decision_id(self) -> int:
        return self.__game.decision_point().id

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of the game, Death included (public: the table knows the deck)."""
        return self.__game.settings.deck.cards


class Bot(abc.ABC):
    """A player that answers decision points from its observation only.

    ``rng`` is the bot's only source of chance (injected: a run is
    reproducible from its seeds). One instance plays one seat of one game;
    it may remember what it saw earlier in that game.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: Orders the listing (``darkcity bots``): weaker first.
    level: ClassVar[int] = 0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @abc.abstractmethod
    def step(self, obs: Observation) -> Decision:
        """One of ``obs.legal``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


_B = TypeVar("_B", bound=type[Bot])

#: name -> bot class (see :func:`register`).
BOTS: Final[dict[str, type[Bot]]] = {}


def register(cls: _B) -> _B:
    """Class decorator: list a bot under its ``name``."""
    if not cls.name:
        raise BotError(f"{cls.__name__} has no name")
    if cls.name in BOTS and BOTS[cls.name] is not cls:
        raise BotError(f"two bots are named {cls.name!r}")
    BOTS[cls.name] = cls
    return cls


def bot_names() -> tuple[str, ...]:
    """The registered bots' names, weaker first."""
    return tuple(sorted(BOTS, key=lambda n: (BOTS[n].level, n)))


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of the registered kind ``name``."""
    cls = BOTS.get(name)
    if cls is None:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")
    return cls(rng)


def play_game(
    game: Game,
    bots: Mapping[str, Bot],
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
            d = bots[p].step(obs)
            if on_decision is not None:
                on_decision(obs, d)
            if check and not _is_legal(d, obs.legal):
                raise BotError(f"{bots[p]!r} answered {d!r}, not a legal decision of {p}")
            game.apply(d)
    return game


def _is_legal(d: Decision, legal: tuple[Decision, ...]) -> bool:
    for x in legal:  # bots answer with one of the enumerated values: identity first
        if x is d:
            return True
    return d in legal
