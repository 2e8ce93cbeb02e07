"""Bots that play Dark City: the interface, the registry and the levels.

>>> import random
>>> from darkcity.bots import bot_names, make_bot
>>> bot_names()
('random', 'heuristic', 'strong')
>>> make_bot("random", random.Random(1)).name
'random'
"""

from darkcity.bots.base import (
    BOTS,
    Bot,
    BotError,
    Observation,
    bot_names,
    make_bot,
    play_game,
    register,
)
from darkcity.bots.heuristic import HeuristicBot
from darkcity.bots.random_bot import RandomBot
from darkcity.bots.strong import StrongBot

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "HeuristicBot",
    "Observation",
    "RandomBot",
    "StrongBot",
    "bot_names",
    "make_bot",
    "play_game",
    "register",
]
