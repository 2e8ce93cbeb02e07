"""Journals, the four victory conditions and the tiebreak (PT "Fim de jogo",
"Desempate"; rulings R-100 .. R-105)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from darkcity.cast import Role

__all__ = ["VICTORY_CONDITIONS", "conditions_met", "total", "victory"]

#: The four ways to win, checked after Phase 5 of every night (R-101).
VICTORY_CONDITIONS: Final = (
    "six-roles",  # at least 1 XP in six rows of the sheet
    "eight-xp",  # 8 XP in all
    "three-pairs",  # 2 XP in each of three rows
    "four-in-one",  # 4 XP in a single row
)


def total(journal: Mapping[Role, int]) -> int:
    """All the XP on a journal sheet, the free XP included (R-103)."""
    return sum(journal.values())


def conditions_met(journal: Mapping[Role, int]) -> tuple[str, ...]:
    """The victory conditions this journal meets (R-101); no cap per row."""
    rows = [x for x in journal.values() if x > 0]
    met = []
    if len(rows) >= 6:
        met.append("six-roles")
    if sum(rows) >= 8:
        met.append("eight-xp")
    if sum(1 for x in rows if x >= 2) >= 3:
        met.append("three-pairs")
    if any(x >= 4 for x in rows):
        met.append("four-in-one")
    return tuple(met)


def victory(journals: Sequence[Mapping[Role, int]]) -> tuple[int, ...]:
    """The seats that win after this night, after the tiebreak (R-102).

    Among the players who meet a condition only: most XP in all, then the most
    rows with XP; whoever is still tied shares the win. Empty if nobody meets a
    condition.
    """
    best: tuple[int, int] | None = None
    winners: list[int] = []
    for seat, j in enumerate(journals):
        xp = sum(j.values()) if j else 0
        if xp < 4 or not conditions_met(j):  # every condition needs 4 XP or more
            continue
        rank = (xp, sum(1 for x in j.values() if x > 0))
        if best is None or rank > best:
            best, winners = rank, [seat]
        elif rank == best:
            winners.append(seat)
    return tuple(winners)
