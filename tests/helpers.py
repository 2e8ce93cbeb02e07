"""Compact builders for round documents and checks on result documents.

A table is written as ``{"Ana": "vampire", "Bia": "hunter/advanced/f"}``: the
card's role, then optionally ``/advanced`` (or ``/basic``) and a gender
(``/f``, ``/m``, ``/n`` or the full word), in seating order (clockwise, so each
player's left neighbour is the next name). Gestures may be compact:

* ``"Bia"``: ``{"targets": ["Bia"]}``;
* ``["Bia", "Caio"]``: ``{"targets": ["Bia", "Caio"]}``;
* a dict: the gesture as written in the notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from darkcity import adjudicate

__all__ = ["MAIN", "card", "check", "events", "needed_sheet", "outcome", "play", "rnd"]

_GENDERS = {"f": "feminine", "m": "masculine", "n": "neutral",
            "feminine": "feminine", "masculine": "masculine", "neutral": "neutral"}


def card(spec: str) -> dict[str, str]:
    """``"hunter/advanced/f"`` -> ``{"role": "hunter", "edition": "advanced", ...}``."""
    role, *rest = spec.split("/")
    out = {"role": role}
    for part in rest:
        if part in ("basic", "advanced", "adv"):
            out["edition"] = "advanced" if part == "adv" else part
        else:
            out["gender"] = _GENDERS[part]
    return out


def _gesture(g: str | list[str] | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(g, str):
        return {"targets": [g]}
    if isinstance(g, list):
        return {"targets": list(g)}
    return dict(g)


def rnd(
    table: Mapping[str, str],
    gestures: Mapping[str, str | list[str] | Mapping[str, Any]] | None = None,
    withdrawals: Mapping[str, bool | list[int]] | None = None,
    zombie_targets: Mapping[str, str] | None = None,
    journals: Mapping[str, Mapping[str, int]] | None = None,
    journal_roles: list[str] | None = None,
) -> dict[str, Any]:
    """A ``darkcity-round/1`` document from compact arguments."""
    doc: dict[str, Any] = {
        "format": "darkcity-round/1",
        "players": list(table),
        "cards": {p: card(s) for p, s in table.items()},
    }
    if gestures:
        doc["gestures"] = {p: _gesture(g) for p, g in gestures.items()}
    if withdrawals:
        doc["withdrawals"] = dict(withdrawals)
    if zombie_targets:
        doc["zombie_targets"] = dict(zombie_targets)
    if journals:
        doc["journals"] = {p: dict(j) for p, j in journals.items()}
    if journal_roles is not None:
        doc["journal_roles"] = list(journal_roles)
    else:
        sheet = needed_sheet(doc)
        if sheet is not None:
            doc["journal_roles"] = sheet
    return doc


MAIN = ("devil", "vampire", "werewolf", "zombie", "hunter", "priest")


def needed_sheet(doc: Mapping[str, Any]) -> list[str] | None:
    """journal_roles for a document whose default sheet would exceed 8 rows
    (spec J-1): the roles of the cards, padded with main-cast rows up to 8; None
    when the default sheet is fine."""
    roles: list[str] = []
    for c in doc["cards"].values():
        if c["role"] not in roles:
            roles.append(c["role"])
    for j in doc.get("journals", {}).values():
        for r in j:
            if r not in roles:
                roles.append(r)
    special = [r for r in roles if r not in MAIN]
    if len(MAIN) + len(special) <= 8:
        return None
    sheet = list(roles)
    for r in MAIN:
        if len(sheet) >= 8:
            break
        if r not in sheet:
            sheet.append(r)
    return sheet


def play(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """Adjudicate ``rnd(*args, **kwargs)``: the result document."""
    return adjudicate(rnd(*args, **kwargs))


def outcome(result: Mapping[str, Any], player: str) -> tuple[str, frozenset[str], int]:
    """(fate, marks, xp) of one player in a result document."""
    p = result["players"][player]
    return p["fate"], frozenset(p["marks"]), p["xp"]


def check(result: Mapping[str, Any], **want: tuple[Any, ...] | str) -> None:
    """Assert outcomes: ``Ana=("killed", 0)``, ``Bia=("alive", 1, {"awakened"})``,
    or just a fate string ``Caio="damned"`` (then only the fate is checked).

    Marks default to none when a tuple is given.
    """
    for player, w in want.items():
        fate, marks, xp = outcome(result, player)
        if isinstance(w, str):
            assert fate == w, f"{player}: fate {fate}, expected {w}"
            continue
        exp_marks = frozenset(w[2]) if len(w) > 2 else frozenset()
        assert (fate, xp, marks) == (w[0], w[1], exp_marks), (
            f"{player}: got fate={fate} xp={xp} marks={sorted(marks)}, "
            f"expected fate={w[0]} xp={w[1]} marks={sorted(exp_marks)}"
        )


def events(result: Mapping[str, Any]) -> list[tuple[str, str, str, str | None]]:
    """(step, event key, player, target) of every narrated event."""
    return [(e["step"], e.get("event", ""), e["player"], e.get("target"))
            for e in result["events"]]
