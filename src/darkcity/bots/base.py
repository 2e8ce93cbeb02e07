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
from collections.abc import Callable
from typing import ClassVar, Final, TypeVar

from darkcity.bots.play import BotError, Observation, play_game
from darkcity.cast import Edition, Gender, parse_role
from darkcity.decisions import Decision
from darkcity.night import Card
from darkcity.views import CardView

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "Observation",
    "bot_names",
    "card_of",
    "draw_style",
    "make_bot",
    "play_game",
    "register",
    "register_styles",
    "styles_of",
]


def card_of(cv: CardView) -> Card:
    """The card a :class:`~darkcity.views.CardView` shows."""
    role = parse_role(cv.role)
    if role is None:  # pragma: no cover - views only hold known roles
        raise BotError(f"unknown role {cv.role!r} in a view")
    return Card(role, Edition(cv.edition), Gender(cv.gender) if cv.gender else None)


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
    #: A variant for tournaments and training (:mod:`darkcity.bots.variants`), not a
    #: level offered to players: :func:`bot_names` leaves it out unless asked.
    variant: ClassVar[bool] = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        #: the style this seat drew (``make_bot(..., style=...)``; "" for the level's
        #: reference mind) and what it means, in English (``i18n._`` marks it)
        self.style = ""
        self.style_description = ""

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


def bot_names(*, variants: bool = False) -> tuple[str, ...]:
    """The registered levels' names, weaker first (with ``variants``, the variants
    too, after the level they vary)."""
    return tuple(sorted((n for n in BOTS if variants or not BOTS[n].variant),
                        key=lambda n: (BOTS[n].level, BOTS[n].variant, n)))


#: level -> (its style names, a factory of a bot of that level in a style)
_STYLED: Final[dict[str, tuple[tuple[str, ...], Callable[[random.Random, str], Bot]]]] = {}
#: level -> (the styles a table draws, their weights)
_DRAWN: Final[dict[str, tuple[tuple[str, ...], tuple[float, ...]]]] = {}


def register_styles(level: str, names: tuple[str, ...],
                    factory: Callable[[random.Random, str], Bot], *,
                    drawn: tuple[tuple[str, float], ...] = ()) -> None:
    """The styles a bot of ``level`` can play in (:mod:`darkcity.bots.family`), and those
    a table's seat draws with their weights (``drawn``; empty: every style alike)."""
    _STYLED[level] = (names, factory)
    if drawn:
        _DRAWN[level] = (tuple(k for k, _w in drawn), tuple(w for _k, w in drawn))
    else:
        _DRAWN.pop(level, None)


def styles_of(level: str) -> tuple[str, ...]:
    """The styles a seat of ``level`` draws from (none: one mind only)."""
    got = _STYLED.get(level)
    return got[0] if got else ()


def draw_style(level: str, rng: random.Random) -> str | None:
    """A style for one bot seat of ``level`` (None when the level has none): what a
    server or the terminal passes to :func:`make_bot`, so that a table of bots is
    not five copies of one mind."""
    got = _DRAWN.get(level)
    if got is not None:
        names, weights = got
        x = rng.random() * sum(weights)
        for k, w in zip(names, weights, strict=True):
            x -= w
            if x < 0:
                return k
        return names[-1]
    names = styles_of(level)
    return names[rng.randrange(len(names))] if names else None


def make_bot(name: str, rng: random.Random, *, style: str | None = None) -> Bot:
    """A new bot of the registered kind ``name`` (in ``style``, one of
    :func:`styles_of` ``(name)``; None: the level's reference mind, what the
    simulator and the tests measure)."""
    cls = BOTS.get(name)
    if cls is None:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")
    if style is None:
        return cls(rng)
    got = _STYLED.get(name)
    if got is None or style not in got[0]:
        known = ", ".join(got[0]) if got else "none"
        raise BotError(f"bot {name!r} has no style {style!r} (its styles: {known})")
    return got[1](rng, style)
