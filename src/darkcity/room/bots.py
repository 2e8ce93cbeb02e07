"""Who decides for a seat that no person fills: a bot of a named level.

The levels are :mod:`darkcity.bots.levels`' (``easy``, ``medium``, ``hard``, each a
registered bot: ``novice``, ``heuristic``, ``strong``); their old names (``heuristic``,
``strong``) are read as the new ones (:func:`canonical_level`), and ``random`` is still
the random bot (no longer offered), so a room saved before the renaming plays on. A
room keeps one bot per seat and level for a whole game (a bot may remember what it
saw); after a restart, fresh bots carry on from the views. A bot decides from an
:class:`~darkcity.bots.Observation` (its player's view and legal decisions), never from
the game itself.
"""

from __future__ import annotations

import random
from typing import Final

from darkcity.bots import Bot, Observation
from darkcity.bots.levels import (
    DEFAULT_LEVEL,
    LEGACY,
    draw_level_style,
    level_key,
    make_level_bot,
)
from darkcity.bots.levels import (
    LEVELS as _LEVELS,
)
from darkcity.decisions import Decision
from darkcity.game import Game
from darkcity.i18n import Message

__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_LINES", "LEVEL_WORDS", "bot_decision",
           "canonical_level", "level_word", "new_bot", "seat_style"]

#: The levels a host may choose, easiest first.
LEVELS: Final = tuple(_LEVELS)

#: Each level's word, marked for the catalogs (the web UI's ``WORDS["levels"]`` too).
LEVEL_WORDS: Final[dict[str, str]] = {k: lv.word for k, lv in {**_LEVELS, **LEGACY}.items()}
#: How each level plays, in one line (the web UI's ``WORDS["level_lines"]``).
LEVEL_LINES: Final[dict[str, str]] = {k: lv.line for k, lv in {**_LEVELS, **LEGACY}.items()}


def canonical_level(level: str) -> str | None:
    """The level ``level`` names (an old name read as the new one); None if none."""
    return level_key(level)


def level_word(level: str) -> Message:
    """A bot level's word (``medium`` -> "médio"), as a message parameter."""
    key = level_key(level) or level
    return Message(LEVEL_WORDS.get(key, key))


def new_bot(level: str, rng: random.Random, style: str | None = None) -> Bot:
    """A bot of ``level`` (in ``style``: None, the level's reference mind) with its own
    stream of chance."""
    return make_level_bot(level, rng, style=style)


def seat_style(seed: str, seat: int, level: str) -> str | None:
    """The style the bot in ``seat`` plays this game with (a table of bots is not five
    copies of one mind: each seat its own habit and plan), drawn from the game's seed, so
    a restart, a worker process and a replay all find the same one; None where
    ``level`` has no styles."""
    return draw_level_style(level, random.Random(f"{seed}:style:{seat}"))


def bot_decision(bot: Bot, game: Game, player: str) -> Decision:
    """The decision ``bot`` takes for ``player`` now (one of ``game.legal(player)``)."""
    d = bot.step(Observation(game, player))
    if d not in game.legal(player):  # a bot's mistake never blocks the table
        return game.legal(player)[0]
    return d
