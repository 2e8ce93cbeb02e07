"""The table companion: the Mayor's assistant for a game with the physical cards.

The pure model (no I/O): :mod:`~darkcity.companion.entries` (what the Mayor
enters), :mod:`~darkcity.companion.cards` (which card each player may hold),
:mod:`~darkcity.companion.table` (the state machine), and
:mod:`~darkcity.companion.record` (the ``darkcity-table/1`` record). What a
reader asks and is sent, free of any web framework: :mod:`~darkcity.companion.setup`
(the set-up's checks), :mod:`~darkcity.companion.actions` (an entry, an undo, a
correction, and the refusals in words) and :mod:`~darkcity.companion.view` (the
table as a reader sees it). The web face is :mod:`darkcity.server.companion`, the
phone's offline face :mod:`darkcity.pocket`, the terminal face
:mod:`darkcity.tui.table`; see ``docs/companion.md`` and ``docs/pocket.md``.
"""

from __future__ import annotations

from darkcity.companion.calls import CallQuestion
from darkcity.companion.entries import (
    Call,
    Counted,
    Drafted,
    Entry,
    EntryError,
    GestureEntry,
    NextNight,
    RevealDone,
    WithdrawalEntry,
    WithdrawalsDone,
    entry_from_json,
    entry_to_json,
)
from darkcity.companion.record import TABLE_FORMAT, replay_table, write_table_record
from darkcity.companion.state import Stage, TableNight, TableSetup
from darkcity.companion.table import Companion

__all__ = [
    "TABLE_FORMAT",
    "Call",
    "CallQuestion",
    "Companion",
    "Counted",
    "Drafted",
    "Entry",
    "EntryError",
    "GestureEntry",
    "NextNight",
    "RevealDone",
    "Stage",
    "TableNight",
    "TableSetup",
    "WithdrawalEntry",
    "WithdrawalsDone",
    "entry_from_json",
    "entry_to_json",
    "replay_table",
    "write_table_record",
]
