"""The levels a player picks for the bots at a table: easy, medium, hard.

A level is what a person chooses (in the web lobby, the pocket app's set-up, the
terminal's ``--bots``); behind it is a registered bot (:mod:`darkcity.bots`'s
registry, what the simulator and the tests name) whose seats each play a style drawn
from the game's seed (:func:`draw_level_style`), so a table of bots is a table of
different players, each with a plan of its own.

The levels' old names are still understood wherever one is typed or was saved (a
room, a terminal game, a command line): ``heuristic`` is read as ``medium``, ``strong``
as ``hard`` (the same bots), and ``random`` is still the random bot, a level no longer
offered (:data:`LEGACY`; :func:`level_key`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from darkcity.bots.base import Bot, BotError, draw_style, make_bot
from darkcity.i18n import _

__all__ = ["ALIASES", "DEFAULT_LEVEL", "LEGACY", "LEVELS", "Level", "draw_level_style", "level_bot",
           "level_key", "make_level_bot"]


@dataclass(frozen=True, slots=True)
class Level:
    key: str
    bot: str  # the registered bot that plays it
    word: str  # its name, marked for the catalogs
    line: str  # how it plays, in one line, marked for the catalogs


#: The levels, easiest first.
LEVELS: Final[Mapping[str, Level]] = {lv.key: lv for lv in (
    Level("easy", "novice", _("easy"),
          _("Plays by feel: keeps the cards it likes and often misses the best aim.")),
    Level("medium", "heuristic", _("medium"),
          _("A sensible player with a plan of its own: drafts toward it, aims where its "
            "card scores, withdraws when doomed.")),
    Level("hard", "strong", _("hard"),
          _("Reads the draft and the gestures, weighs each choice on many imagined "
            "nights, and mixes its plays so it cannot be read.")),
)}

#: Levels no longer offered but still played where a room, a game or a command names
#: them: the random bot (any legal decision).
LEGACY: Final[Mapping[str, Level]] = {"random": Level(
    "random", "random", _("random"), _("Any legal decision, at random."))}

#: The level a table gets unless the host chooses another.
DEFAULT_LEVEL: Final = "medium"

#: Old names of the levels (saved rooms and games, command lines), and the bots' own.
ALIASES: Final[Mapping[str, str]] = {"novice": "easy", "heuristic": "medium",
                                     "strong": "hard"}


def level_key(name: str) -> str | None:
    """The level ``name`` means (a level, a legacy one, or an old name of one); None if
    none."""
    if name in LEVELS or name in LEGACY:
        return name
    return ALIASES.get(name)


def level_bot(name: str) -> str:
    """The registered bot that plays level ``name`` (or an old name of one)."""
    key = level_key(name)
    if key is None:
        raise BotError(f"unknown bot level {name!r} (known: {', '.join(LEVELS)})")
    return (LEVELS.get(key) or LEGACY[key]).bot


def make_level_bot(name: str, rng: random.Random, *, style: str | None = None) -> Bot:
    """A bot of level ``name`` in ``style`` (None: the level's reference mind)."""
    return make_bot(level_bot(name), rng, style=style)


def draw_level_style(name: str, rng: random.Random) -> str | None:
    """A style for one seat of level ``name`` (None where its bot has none)."""
    return draw_style(level_bot(name), rng)
