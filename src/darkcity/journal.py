"""Journals, the four victory conditions and the tiebreak (PT "Fim de jogo",
"Desempate"; rulings R-100 .. R-105)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from darkcity.cast import Role

__all__ = ["VICTORY_CONDITIONS", "condition_rows", "conditions_met", "progress", "total",
           "victory"]

#: The four ways to win, checked after Phase 5 of every night (R-101).
VICTORY_CONDITIONS: Final = (
    "six-roles",  # at least 1 XP in six rows of the sheet
    "eight-xp",  # 8 XP in all
    "three-pairs",  # 2 XP in each of three rows
    "four-in-one",  # 4 XP in a single row
)
SIX_ROLES: Final = 6  # rows with at least 1 XP
EIGHT_XP: Final = 8  # XP in all
THREE_PAIRS: Final = 3  # rows with 2 XP or more
FOUR_IN_ONE: Final = 4  # XP in the fullest row


def total(journal: Mapping[Role, int]) -> int:
    """All the XP on a journal sheet, the free XP included (R-103)."""
    return sum(journal.values())


def _tally(journal: Mapping[Role, int]) -> tuple[int, int, int, int]:
    """(XP in all, rows with XP, rows with 2 XP or more, the fullest row)."""
    xp = rows = pairs = top = 0
    for x in journal.values():
        if x > 0:
            xp += x
            rows += 1
            if x >= 2:
                pairs += 1
            if x > top:
                top = x
    return xp, rows, pairs, top


def _met(xp: int, rows: int, pairs: int, top: int) -> tuple[str, ...]:
    met = []
    if rows >= SIX_ROLES:
        met.append("six-roles")
    if xp >= EIGHT_XP:
        met.append("eight-xp")
    if pairs >= THREE_PAIRS:
        met.append("three-pairs")
    if top >= FOUR_IN_ONE:
        met.append("four-in-one")
    return tuple(met)


def conditions_met(journal: Mapping[Role, int]) -> tuple[str, ...]:
    """The victory conditions this journal meets (R-101); no cap per row."""
    return _met(*_tally(journal))


#: The XP a row needs to count towards a condition that names rows (R-101).
_ROW_LEAST: Final = {"four-in-one": FOUR_IN_ONE, "three-pairs": 2, "six-roles": 1}


def condition_rows(journal: Mapping[Role, int], sheet: Sequence[Role]
                   ) -> dict[str, tuple[Role, ...]]:
    """The rows of the sheet that meet each condition met (R-101), in the sheet's order:
    how a victory is said ("4 XP as the Priest"). ``eight-xp`` counts every row, so it
    names none."""
    return {c: tuple(r for r in sheet if journal.get(r, 0) >= _ROW_LEAST[c])
            for c in conditions_met(journal) if c in _ROW_LEAST}


def progress(journal: Mapping[Role, int]) -> tuple[tuple[str, int, int], ...]:
    """How far this journal is towards each victory condition: ``(condition, count,
    count needed)`` in :data:`VICTORY_CONDITIONS` order (e.g. ``("four-in-one", 3, 4)``
    for 3 XP in the fullest row)."""
    xp, rows, pairs, top = _tally(journal)
    return (("six-roles", rows, SIX_ROLES), ("eight-xp", xp, EIGHT_XP),
            ("three-pairs", pairs, THREE_PAIRS), ("four-in-one", top, FOUR_IN_ONE))


def victory(journals: Sequence[Mapping[Role, int]]) -> tuple[int, ...]:
    """The seats that win after this night, after the tiebreak (R-102).

    Among the players who meet a condition only: most XP in all, then the most
    rows with XP; whoever is still tied shares the win. Empty if nobody meets a
    condition.
    """
    best: tuple[int, int] | None = None
    winners: list[int] = []
    for seat, j in enumerate(journals):
        if not j:
            continue
        xp, rows, pairs, top = _tally(j)
        if rows < SIX_ROLES and xp < EIGHT_XP and pairs < THREE_PAIRS and \
                top < FOUR_IN_ONE:  # no condition met
            continue
        rank = (xp, rows)
        if best is None or rank > best:
            best, winners = rank, [seat]
        elif rank == best:
            winners.append(seat)
    return tuple(winners)
