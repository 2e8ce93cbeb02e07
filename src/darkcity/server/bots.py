"""Who decides for a seat that no person fills: a bot of a named level.

The bot registry (``darkcity.bots``) is being built; until it lands every
level decides with a uniformly random legal choice. :func:`bot_decision` is
the one place to swap in the registry.
"""

from __future__ import annotations

import random
from typing import Final

from darkcity.game import Decision, Game
from darkcity.i18n import _

__all__ = ["LEVELS", "LEVEL_NAMES", "bot_decision"]

#: The levels a host may choose, weakest first.
LEVELS: Final = ("random", "heuristic", "strong")
LEVEL_NAMES: Final = {"random": _("random"), "heuristic": _("heuristic"), "strong": _("strong")}


def bot_decision(game: Game, player: str, level: str, rng: random.Random) -> Decision:
    """The decision a bot of ``level`` takes for ``player`` now (one of ``game.legal``)."""
    choices = game.legal(player)
    return choices[rng.randrange(len(choices))]
