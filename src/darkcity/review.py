"""A game record stepped through night by night (issue #30): what a record viewer
shows at each step, computed by the engine from the record alone, the way a chess
site opens a PGN.

A step is the game as it stood once night ``night`` was told (0: the free XP
written): the record replayed to there (:func:`darkcity.record.replay_to`) and seen
through :func:`darkcity.views.view`, from one player's seat or a spectator's. A
finished night is public in full (R-114): its cards, gestures, withdrawals, fates and
story are the same from every seat; a player's step adds what that seat knew then (its
own seat marked, its lines of the story). The server's ``/replay`` and the pocket app's
worker call :func:`step`; neither replays anything itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from darkcity.i18n import msg
from darkcity.journal import condition_rows, conditions_met
from darkcity.record import RecordError, replay_to
from darkcity.views import view

__all__ = ["step"]


def step(doc: object, night: int, viewer: str | None = None,
         translate: Callable[[str], str] | None = None) -> dict[str, Any]:
    """Step ``night`` of the record ``doc`` from ``viewer``'s seat (None: a spectator),
    its texts in ``translate``'s language: ``{night, nights, players, viewer, over,
    winners, won, view}``, ``view`` as a page is sent it (:meth:`~darkcity.views.View.to_dict`),
    ``won`` each winner's conditions met and their rows (``met``, ``met_rows``: how the
    victory screen says it).

    Raises :class:`~darkcity.record.RecordError` naming what is wrong: not a record, a
    night it does not hold, a viewer who does not play, a replay that departs from it.
    """
    game = replay_to(doc, night)
    assert isinstance(doc, dict)  # (replay_to read it as a record)
    if viewer is not None and viewer not in game.players:
        raise RecordError("viewer", msg("{player} does not play in this game", player=viewer))
    nights = doc.get("nights")
    sheet = game.settings.deck.journal_roles
    won = []
    for p in game.winners:  # how each won: the conditions met and their rows
        j = game.journals[game.players.index(p)]
        won.append({"name": p, "met": list(conditions_met(j)),
                    "met_rows": {c: [r.key for r in rows]
                                 for c, rows in condition_rows(j, sheet).items()}})
    return {
        "night": night, "nights": len(nights) if isinstance(nights, list) else 0,
        "players": list(game.players), "viewer": viewer, "over": game.over,
        "winners": list(game.winners), "won": won,
        "view": view(game, viewer, translate=translate).to_dict(),
    }
