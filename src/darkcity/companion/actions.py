"""What a reader asks of a table, checked: an entry, an undo, a correction, a past
night, and the refusal each may get, in words.

Free of any web framework and of storage: the server's routes
(:mod:`darkcity.server.companion`) and the phone's own engine in the pocket app
(:mod:`darkcity.pocket.worker`) call these on a :class:`Companion` and store the
table themselves, so both refuse the same things with the same words. A refusal
is a :class:`Refused` (an HTTP-like status, a code and a message for the reader);
:func:`refusal` turns any error of the companion's model into one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from darkcity.companion.entries import (
    Call,
    Drafted,
    EntryError,
    GestureEntry,
    WithdrawalEntry,
    entry_from_json,
)
from darkcity.companion.table import Companion
from darkcity.deck import DeckError
from darkcity.i18n import FieldError, Message, Translator, error_message, msg

__all__ = ["Correction", "Refused", "correct", "enter", "read_correction", "refusal", "undo"]


class Refused(Exception):
    """A request refused: an HTTP status, a code and a message for the reader."""

    def __init__(self, status: int, code: str, message: Message) -> None:
        super().__init__(code)
        self.status, self.code, self.message = status, code, message


def refusal(error: Exception, t: Translator) -> tuple[int, dict[str, str]] | None:
    """The status and ``{"code", "message"}`` a reader is answered for ``error``, in
    ``t``'s language; None for an error that is not the companion's to explain."""
    if isinstance(error, Refused):
        return error.status, {"code": error.code, "message": t.render(error.message)}
    if isinstance(error, EntryError):  # the reason in plain words, and whose entry it was
        why = (msg("{player}: {reason}", player=error.player, reason=error.message)
               if error.player else error.message)
        return 400, {"code": "refused", "message": t.render(why)}
    if isinstance(error, DeckError):  # the set-up's rule in words: no field name ("cards:")
        text = t.render(error.message)
        return 400, {"code": "refused", "message": text[:1].upper() + text[1:]}
    if isinstance(error, FieldError):
        return 400, {"code": "refused", "message": t.render(error_message(error))}
    return None


def enter(table: Companion, reader: str | None, raw: object) -> None:
    """Enter ``raw`` (an entry's JSON form) for ``reader``: the Mayor enters
    everything; a phone enters one thing, Death's name, by the player who took Death."""
    entry = entry_from_json(raw)
    secret = (isinstance(entry, Drafted) and entry.death_names is not None
              and reader == table.last_drafter)
    if reader != "mayor" and not secret:
        raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
    table.enter(entry)


def undo(table: Companion, what: object) -> None:
    """Take back the last entry, or the last finished night (``what == "night"``)."""
    done = table.undo_night() if what == "night" else table.undo()
    if done is None:
        raise Refused(409, "nothing", msg("There is nothing to undo."))


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction asked for: the entry as it should have been, of tonight or of an
    earlier ``night``; ``dry``: only say what it would take back."""

    entry: GestureEntry | WithdrawalEntry | Call | Drafted
    night: int | None
    dry: bool


def read_correction(body: Mapping[str, Any]) -> Correction:
    """A correction's ``entry``, ``night`` and ``dry`` from a request's body."""
    entry = entry_from_json(body.get("entry"))
    if not isinstance(entry, GestureEntry | WithdrawalEntry | Call | Drafted):
        raise Refused(400, "not-a-gesture",
                      msg("Only a gesture, a withdrawal, a call or the name Death wrote can be "
                          "corrected."))
    night = body.get("night")
    if night is not None and (not isinstance(night, int) or isinstance(night, bool)):
        raise Refused(400, "bad-night", msg("there is no night {n} to correct", n=str(night)))
    return Correction(entry, night, body.get("dry") is True)


def correct(table: Companion, c: Correction) -> dict[str, Any] | int:
    """Make the correction and say how many later entries it took back; a dry one
    changes nothing and says ``{"dropped", "night", "stage"}``: what it would take
    back and where the table would be."""
    if c.dry:  # what it would take back, said before it is done
        trial = copy.deepcopy(table)
        dropped = trial.correct(c.entry, c.night)
        return {"dropped": dropped, "night": trial.number, "stage": trial.stage.value}
    return table.correct(c.entry, c.night)
