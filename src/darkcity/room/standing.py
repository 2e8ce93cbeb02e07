"""Where each player stands towards victory, read from a view's public journals.

Everything here asks :mod:`darkcity.journal` (the four conditions, their
thresholds, the tiebreak's order is the engine's ``victory``); the browser only
shows the result. Sent with every ``state`` message beside the view it is built
from, so it holds nothing the reader's view does not.
"""

from __future__ import annotations

import functools
from typing import Any

from darkcity.cast import Role, parse_role
from darkcity.i18n import Translator, msg
from darkcity.journal import condition_rows, conditions_met, progress, total
from darkcity.views import SeatView, View

__all__ = ["standing"]


Journal = tuple[tuple[str, int], ...]  # a seat's rows: (role, XP), sheet order


def _journal(journal: Journal) -> dict[Role, int]:
    out: dict[Role, int] = {}
    for key, xp in journal:
        r = parse_role(key)
        if r is not None:
            out[r] = xp
    return out


def _sheet(journal_roles: tuple[str, ...]) -> tuple[Role, ...]:
    return tuple(r for k in journal_roles if (r := parse_role(k)) is not None)


def _seat(name: str, journal: Journal, sheet: tuple[Role, ...]) -> dict[str, Any]:
    j = _journal(journal)
    met = conditions_met(j)
    near: list[str] = []
    if not met:  # one XP more in which row would meet a condition
        for r in sheet:
            if conditions_met({**j, r: j.get(r, 0) + 1}):
                near.append(r.key)
    top = max(j.items(), key=lambda kv: kv[1], default=None)
    # the rows that meet each condition met: the end names them ("Ada: 4 XP as the
    # Priest"), where "4 XP in one row" left a table asking which
    rows_of = {c: [r.key for r in rows] for c, rows in condition_rows(j, sheet).items()}
    return {
        "name": name,
        "xp": total(j),
        "rows": sum(1 for x in j.values() if x > 0),
        "progress": [{"condition": c, "have": have, "need": need,
                      "row": top[0].key if c == "four-in-one" and top and have else None}
                     for c, have, need in progress(j)],
        "met": list(met),
        "met_rows": rows_of,
        "near": near,
    }


def _tiebreak(v: View, seats: list[dict[str, Any]], t: Translator) -> str | None:
    """The tiebreak in plain words, when more than one player met a condition."""
    candidates = [s for s in seats if s["met"]]
    if len(candidates) < 2 or not v.winners:
        return None
    winners = [s for s in candidates if s["name"] in v.winners]
    others = [s for s in candidates if s["name"] not in v.winners]
    names = ", ".join(s["name"] for s in winners)
    if not others:
        return t.render(msg("{names} met a victory condition with the same XP ({xp}) and the "
                            "same number of rows ({rows}): they share the victory.",
                            names=names, xp=winners[0]["xp"], rows=winners[0]["rows"]))
    best = max(others, key=lambda s: (s["xp"], s["rows"]))
    w = winners[0]
    if w["xp"] > best["xp"]:
        return t.render(msg("{others} also met a condition, but the tiebreak goes to the most "
                            "XP: {xp} against {other_xp}.",
                            others=", ".join(s["name"] for s in others), xp=w["xp"],
                            other_xp=best["xp"]))
    return t.render(msg("{others} also met a condition with as much XP ({xp}); the tiebreak "
                        "then goes to the most rows with XP: {rows} against {other_rows}.",
                        others=", ".join(s["name"] for s in others), xp=w["xp"],
                        rows=w["rows"], other_rows=best["rows"]))


@functools.lru_cache(maxsize=4096)
def _seats(journals: tuple[tuple[str, Journal], ...],
           journal_roles: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every seat's standing from the seats' names and journals: one computation for
    all the readers and messages that show the same journals (shared: not to be
    changed)."""
    sheet = _sheet(journal_roles)
    return [_seat(name, journal, sheet) for name, journal in journals]


def _key(seat: SeatView) -> tuple[str, Journal]:
    return seat.name, seat.journal


def standing(v: View, t: Translator) -> dict[str, Any]:
    """Per seat: XP, rows, progress towards each condition, conditions met, the rows
    one XP from a win; and once there are winners, the tiebreak explained. The seats'
    part depends on their journals only, so it is computed once for equal journals."""
    seats = _seats(tuple(map(_key, v.seats)), v.journal_roles)
    return {"seats": seats, "tiebreak": _tiebreak(v, seats, t)}
