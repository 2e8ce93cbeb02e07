"""Who decides for a seat that no person fills: a bot of a named level.

The levels are :mod:`darkcity.bots`' registry (``random``, ``heuristic``,
``strong``). A room keeps one bot per seat and level for a whole game (a bot
may remember what it saw); after a restart, fresh bots carry on from the views.
A bot decides from an :class:`~darkcity.bots.Observation` (its player's view and
legal decisions), never from the game itself.
"""

from __future__ import annotations

import random
from typing import Final

from darkcity.bots import Bot, Observation, bot_names, draw_style, make_bot
from darkcity.decisions import Decision
from darkcity.game import Game
from darkcity.i18n import Message, _

__all__ = ["LEVELS", "LEVEL_WORDS", "bot_decision", "level_word", "new_bot", "seat_style"]

#: The levels a host may choose, weakest first.
LEVELS: Final = bot_names()

#: Each level's word, marked for the catalogs (the web UI's ``WORDS["levels"]`` too).
LEVEL_WORDS: Final[dict[str, str]] = {
    "random": _("random"), "heuristic": _("heuristic"), "strong": _("strong")}


def level_word(level: str) -> Message:
    """A bot level's word (``heuristic`` -> "heurístico"), as a message parameter."""
    return Message(LEVEL_WORDS.get(level, level))


def new_bot(level: str, rng: random.Random, style: str | None = None) -> Bot:
    """A bot of ``level`` (in ``style``: None, the level's reference mind) with its own
    stream of chance."""
    return make_bot(level, rng, style=style)


def seat_style(seed: str, seat: int, level: str) -> str | None:
    """The style the bot in ``seat`` plays this game with (issue #32: a table of bots is
    not five copies of one mind), drawn from the game's seed, so a restart, a worker
    process and a replay all find the same one; None where ``level`` has no styles."""
    return draw_style(level, random.Random(f"{seed}:style:{seat}"))


def bot_decision(bot: Bot, game: Game, player: str) -> Decision:
    """The decision ``bot`` takes for ``player`` now (one of ``game.legal(player)``)."""
    d = bot.step(Observation(game, player))
    if d not in game.legal(player):  # a bot's mistake never blocks the table
        return game.legal(player)[0]
    return d
