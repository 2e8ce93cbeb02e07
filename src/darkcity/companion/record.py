"""The table record, ``darkcity-table/1``: a game played with the physical cards.

A game at a real table has no seed and an unseen draft, so it cannot be a
``darkcity-game/1`` record. Its record (``docs/companion.md``) holds the set-up
(players, Mayor, deck, free XP), the Mayor's entries in order, and each
finished night as a ``darkcity-round/1`` document with its
``darkcity-result/1`` result. :func:`replay_table` checks it the way
``darkcity replay`` checks a game: it replays the entries through the
companion, each one checked, and compares every night it produces (round and
result) with the record; and it adjudicates every recorded round alone, which
must give the recorded result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from darkcity.companion.entries import EntryError, entry_from_json
from darkcity.companion.state import TableNight, TableSetup
from darkcity.companion.table import Companion
from darkcity.deck import DeckError
from darkcity.i18n import Message, as_translator, msg
from darkcity.narration import render_all
from darkcity.night import RoundError
from darkcity.notation import adjudicate, result_document, write_round
from darkcity.record import Divergence, RecordError

__all__ = ["TABLE_FORMAT", "TableReplay", "narration", "replay_table", "write_table_record"]

TABLE_FORMAT: Final = "darkcity-table/1"


def _night_doc(n: TableNight) -> dict[str, Any]:
    return {"number": n.number, "active": n.active, "round": write_round(n.night),
            "result": result_document(n.result)}


def write_table_record(c: Companion, *, finished_only: bool = False) -> dict[str, Any]:
    """The ``darkcity-table/1`` record of a table (finished or not).

    ``finished_only``: without the entries of a night still in progress (for a
    reader who may not know Death's name yet); the record then ends where the
    last finished night ended, and replays identically all the same.
    """
    doc = c.to_json()
    entries = doc["entries"]
    if finished_only:
        entries = entries[:c.finished_at[-1]] if c.finished_at else []
    return {
        "format": TABLE_FORMAT,
        "settings": doc["setup"],
        "entries": entries,
        "nights": [_night_doc(n) for n in c.nights],
        "over": bool(c.winners),
        "winners": list(c.winners),
    }


@dataclass(frozen=True, slots=True)
class TableReplay:
    """The table replayed from its entries, and the first divergence (None: none)."""

    table: Companion
    divergence: Divergence | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def _first_difference(a: object, b: object, path: str = "") -> str | None:
    if type(a) is not type(b):
        return path or "-"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}".lstrip(".")
            found = _first_difference(a[k], b[k], f"{path}.{k}")
            if found is not None:
                return found.lstrip(".")
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length)".lstrip(".")
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if a == b else (path.lstrip(".") or "-")


def replay_table(doc: object) -> TableReplay:
    """Replay a ``darkcity-table/1`` record; :class:`RecordError` if it is not one."""
    if not isinstance(doc, dict) or doc.get("format") != TABLE_FORMAT:
        raise RecordError("format", msg("expected {expected!r}", expected=TABLE_FORMAT))
    try:
        setup = TableSetup.from_json(doc.get("settings"))
    except DeckError as e:
        raise RecordError(f"settings.{e.field}", e.message) from None
    entries = doc.get("entries")
    nights = doc.get("nights")
    if not isinstance(entries, list):
        raise RecordError("entries", msg("must be a list"))
    if not isinstance(nights, list):
        raise RecordError("nights", msg("must be a list"))
    table = Companion(setup)
    for i, item in enumerate(entries):
        try:
            table.enter(entry_from_json(item))
        except EntryError as e:
            night = table.number
            where = f"entries[{i}].{e.field}" if e.field else f"entries[{i}]"
            return TableReplay(table, Divergence.of(night, "entry", msg(
                "{field}: {reason}", field=where, reason=e.message)))
    return TableReplay(table, _compare(table, nights, doc))


def _compare(table: Companion, nights: list[Any], doc: dict[str, Any]) -> Divergence | None:
    for k, nd in enumerate(nights, start=1):
        if not isinstance(nd, dict):
            return Divergence.of(k, "result", msg("nights[{i}] must be an object", i=k - 1))
        try:
            alone = adjudicate(nd.get("round"))
        except RoundError as e:
            return Divergence.of(k, "result", msg("round: {field}: {reason}", field=e.field,
                                                  reason=e.message))
        where = _first_difference(alone, nd.get("result"))
        if where is not None:
            return Divergence.of(k, "result", msg(
                "result.{field}: the round adjudicated alone gives another result",
                field=where))
        if k > len(table.nights):
            return Divergence.of(k, "end", msg("the entries stop before this night ends"))
        mine = _night_doc(table.nights[k - 1])
        for key in ("active", "round", "result"):
            where = _first_difference(mine[key], nd.get(key))
            if where is not None:
                return Divergence.of(k, "result", msg(
                    "{key}.{field}: the entries give another night than the record",
                    key=key, field=where))
    if len(table.nights) > len(nights):
        return Divergence.of(len(nights) + 1, "end", msg("the record stops before the "
                                                         "entries do"))
    if list(table.winners) != doc.get("winners", []):
        return Divergence.of(len(nights), "end", msg("the winners differ: {names}",
                                                     names=", ".join(table.winners)))
    return None


def narration(n: TableNight, translate: Callable[[str], str] = str) -> list[str]:
    """The Mayor's narration of a finished table night, step by step."""
    t = as_translator(translate)
    lines = [t.render(msg("Night {number} (active player: {player})", number=n.number,
                          player=n.active))]
    step = None
    for e, text in zip(n.result.events, render_all(n.result.events, n.night, t), strict=True):
        if e.step != step:
            step = e.step
            lines.append(t.render(msg("[end]")) if step == "end" else f"[{step}]")
        lines.append("  " + text)
    if n.result.winners:
        lines.append(t.render(msg("Winners: {names}", names=", ".join(n.result.winner_names))))
    return lines


def describe(replayed: TableReplay) -> Message:
    """``ok: ...`` or ``diverged: ...`` for ``darkcity replay``."""
    if replayed.divergence is not None:
        return msg("diverged: {divergence}", divergence=replayed.divergence.to_message())
    table = replayed.table
    if table.winners:
        return msg("ok: {n} nights replayed identically; winners: {winners}",
                   n=len(table.nights), winners=", ".join(table.winners))
    return msg("ok: {n} nights replayed identically; game not finished", n=len(table.nights))
