"""Bots that play Dark City: the interface, the registry and the levels.

>>> import random
>>> from darkcity.bots import bot_names, make_bot
>>> bot_names()
('random', 'heuristic', 'strong')
>>> bot_names(variants=True)[-3:]
('skittish', 'strong', 'reader')
>>> make_bot("random", random.Random(1)).name
'random'
"""

from darkcity.bots.base import (
    BOTS,
    Bot,
    BotError,
    Observation,
    bot_names,
    draw_style,
    make_bot,
    play_game,
    register,
    styles_of,
)
from darkcity.bots.family import FamilyBot, NoviceBot, Style
from darkcity.bots.heuristic import HeuristicBot
from darkcity.bots.random_bot import RandomBot
from darkcity.bots.strong import StrongBot
from darkcity.bots.variants import (
    AlwaysPriestBot,
    LeaderHunterBot,
    NeverFleeBot,
    ReaderBot,
    RetunedBot,
    SkittishBot,
)

__all__ = [
    "BOTS",
    "AlwaysPriestBot",
    "Bot",
    "BotError",
    "FamilyBot",
    "HeuristicBot",
    "LeaderHunterBot",
    "NeverFleeBot",
    "NoviceBot",
    "Observation",
    "RandomBot",
    "ReaderBot",
    "RetunedBot",
    "SkittishBot",
    "StrongBot",
    "Style",
    "bot_names",
    "draw_style",
    "make_bot",
    "play_game",
    "register",
    "styles_of",
]
