"""Every cell of the rulings' interaction matrix (rulings.md, Appendix), one night each.

Each cell seats the attacker ``Atk`` and its target ``Tgt`` side by side (``Tgt``
is ``Atk``'s left neighbour) at a 6-player table whose other four players are
passive: ``F1`` (a sleeping Mummy, where ``Tgt`` dumps its own attack) and three
fillers that attack nobody. ``Tgt``'s own gesture never touches ``Atk``. The
Devil attacker is advanced (so a damnation scores), the Hunter attacker is basic
and withdraws its second arrow (R-07: it stays, its one arrow is on ``Tgt``).
For the Necromancer a Vampire/Werewolf kills ``Tgt`` first (two hits for the
Mummy and Creature), for the Creature ``Tgt``'s card has the sought gender.
"""

from __future__ import annotations

from typing import Any

import pytest

from darkcity import adjudicate

from .helpers import check, needed_sheet, outcome

ROLES = ["devil", "vampire", "werewolf", "zombie", "hunter", "priest", "angel", "alien",
         "necromancer", "creature", "mummy", "demoniac", "reporter", "voodooist"]

# Copied from rulings.md, Appendix (attacker -> real role of the target).
MATRIX_TEXT = """
angel       | K | K | K | K | – | – | · | K | K | H | H | X | – | –
devil       | – | – | – | – | – | – | D | – | – | – | – | D | – | –
vampire     | – | K | K | K | K | † | K | K | K | H | H | K | K | K
werewolf    | K | K | K | K | R | K | K | K | K | H | H | K | K | K
zombie      | – | K | K | C | K | K | K | K | – | H | H | K | K | K
hunter      | – | K | K | K | – | K0 | – | K | K | H | H | K0 | K0 | K0
alien       | – | Ab | Ab | Ab | Ab | Ab | – | · | Ab | H | H | Ab | Ab | Ab
necromancer | – | raise | raise | raise | raise | raise | – | – | · | raise | raise | raise | raise | raise
creature    | – | marry | marry | marry | marry | – | – | – | marry | marry | marry | marry | marry | marry
"""  # noqa: E501

MATRIX: dict[tuple[str, str], str] = {}
for _line in MATRIX_TEXT.strip().splitlines():
    _atk, *_cells = (c.strip() for c in _line.split("|"))
    assert len(_cells) == len(ROLES)
    for _t, _c in zip(ROLES, _cells, strict=True):
        if _c != "·":
            MATRIX[(_atk, _t)] = _c

SEATS = ["Atk", "Tgt", "F1", "F2", "F3", "F4"]
DUAL = {"devil", "vampire", "werewolf", "zombie", "hunter", "priest", "creature"}
CAPS = {"priest": 2, "devil": 2, "vampire": 2, "werewolf": 2}


def _cell_night(a: str, t: str) -> dict[str, Any]:
    cards: dict[str, dict[str, str]] = {}
    gestures: dict[str, dict[str, Any]] = {}
    withdrawals: dict[str, Any] = {}
    cards["Atk"] = {"role": a}
    cards["Tgt"] = {"role": t}
    dump = "demoniac" if t == "mummy" else "mummy"
    cards["F1"] = {"role": dump}
    # killers for the Necromancer's row (R-56): Tgt must be killed before step 7
    killers: dict[str, tuple[str, str]] = {}
    if a == "necromancer":
        if t in ("mummy", "creature"):
            killers = {"F2": ("vampire", "Tgt"), "F3": ("werewolf", "Tgt")}
        elif t in ("hunter", "werewolf"):
            killers = {"F3": ("vampire", "Tgt")}
        else:
            killers = {"F3": ("werewolf", "Tgt")}
    used = [a, t, dump] + [r for r, _ in killers.values()]
    pool = ["priest", "priest", "demoniac", "voodooist", "devil", "necromancer"]
    fill = []
    for r in pool:
        if r in (a, t, dump) or used.count(r) >= CAPS.get(r, 1):
            continue
        fill.append(r)
        used.append(r)
    free = [s for s in ("F2", "F3", "F4") if s not in killers]
    for s in free:
        cards[s] = {"role": fill.pop(0)}
    for s, (r, target) in killers.items():
        cards[s] = {"role": r}
        gestures[s] = {"targets": [target]}
    for s in free:
        r = cards[s]["role"]
        if r == "voodooist":
            gestures[s] = {"kind": "voodooist"}
        elif r == "devil":
            gestures[s] = {"shows": "priest"}

    # Tgt's own gesture: at the Mummy F1 (its left neighbour), never at Atk.
    own: dict[str, dict[str, Any]] = {
        "vampire": {"targets": ["F1"]}, "werewolf": {"targets": ["F1"]},
        "zombie": {"targets": ["F1"]}, "angel": {"targets": ["F1"]},
        "hunter": {"targets": ["F1", "F2"]}, "reporter": {"targets": ["F1", "F2"]},
        "alien": {"kind": "mummy"}, "voodooist": {"kind": "mummy"},
        "creature": {"targets": ["F1"], "seeks": "masculine"},
        "devil": {"shows": "priest"},
    }
    tg = own.get(t)
    if tg is not None:
        gestures["Tgt"] = tg
    if t == "hunter" and a != "devil":
        withdrawals["Tgt"] = [1]  # one arrow only: Tgt stays in the confrontation
    # Atk's gesture at Tgt.
    if a == "devil":
        cards["Atk"] |= {"edition": "advanced", "gender": "feminine"}
        if t == "devil":
            cards["Tgt"]["gender"] = "masculine"
        gestures["Atk"] = {"shows": "vampire", "targets": ["Tgt"]}
    elif a == "hunter":
        gestures["Atk"] = {"targets": ["Tgt", "F2"]}
        withdrawals["Atk"] = [1]
    elif a == "alien":
        gestures["Atk"] = {"kind": t}
    elif a == "necromancer":
        pass
    elif a == "creature":
        cards["Atk"]["gender"] = "masculine"
        if t in DUAL:
            cards["Tgt"]["gender"] = "feminine"
        seeks = "masculine" if t in ("necromancer", "mummy", "reporter") else "feminine"
        gestures["Atk"] = {"targets": ["Tgt"], "seeks": seeks}
    else:
        gestures["Atk"] = {"targets": ["Tgt"]}
    doc: dict[str, Any] = {"format": "darkcity-round/1", "players": SEATS, "cards": cards,
                           "gestures": gestures, "withdrawals": withdrawals}
    sheet = needed_sheet(doc)
    if sheet is not None:
        doc["journal_roles"] = sheet
    return doc


def _tough_mark(t: str) -> set[str]:
    return {"wounded"} if t == "creature" else {"awakened"}


@pytest.mark.parametrize(("attacker", "target"), sorted(MATRIX), ids=lambda x: str(x))
def test_interaction_matrix_cell(attacker: str, target: str) -> None:
    """rulings.md Appendix, one cell; PT "Painel de Combate" of each role; R-15 (any edition).

    K: killed, credited; K0: killed, the Hunter earns nothing (R-34); –: nothing;
    H: one hit (R-03, R-14); X: exorcised (R-41); D: damned (R-23); †: the
    Vampire dies on the Priest (R-31); R: the reflex at step 5 (R-35); Ab:
    abducted (R-45); C: the cannibal rule (R-52); raise (R-56); marry (R-61).
    """
    code = MATRIX[(attacker, target)]
    doc = _cell_night(attacker, target)
    res = adjudicate(doc)
    a, t = attacker, target
    killed_marks = {"awakened"} if t == "mummy" else set()
    if code == "K":
        check(res, Atk=("alive", 1), Tgt=("killed", 0 if t != "demoniac" else 1, killed_marks))
    elif code == "K0":
        check(res, Atk=("alive", 0), Tgt=("killed", 1 if t == "demoniac" else 0))
    elif code == "–":
        if a == "necromancer":
            check(res, Atk=("alive", 0), Tgt="killed")
            assert "undead" not in outcome(res, "Tgt")[1]
        else:
            fate, marks, _ = outcome(res, "Tgt")
            assert (fate, marks) == ("alive", frozenset())
            assert outcome(res, "Atk")[:3:2] == ("alive", 0)
    elif code == "H":
        fate, marks, _ = outcome(res, "Tgt")
        assert (fate, marks) == ("alive", frozenset(_tough_mark(t)))
        assert outcome(res, "Atk")[:3:2] == ("alive", 0)
    elif code == "X":
        check(res, Atk=("alive", 1), Tgt=("alive", 1, {"exorcised"}))
    elif code == "D":
        check(res, Atk=("alive", 1), Tgt=("damned", 0))
    elif code in ("†", "R"):
        check(res, Atk=("killed", 0), Tgt=("alive", 1))
    elif code == "Ab":
        check(res, Atk=("alive", 1), Tgt="abducted")
    elif code == "C":
        check(res, Atk=("killed", 0), Tgt=("killed", 0))
    elif code == "raise":
        fate, marks, _ = outcome(res, "Tgt")
        assert (fate, marks) == ("killed", frozenset({"undead"} | killed_marks))
        assert outcome(res, "Atk")[:3:2] == ("alive", 1)
    elif code == "marry":
        assert outcome(res, "Atk")[:3:2] == ("alive", 1)
        assert outcome(res, "Tgt")[0] == "alive"
    else:  # pragma: no cover
        raise AssertionError(code)


def test_matrix_covers_every_possible_pair() -> None:
    """The appendix lists 9 attackers x 14 targets; '·' marks the 3 impossible pairs."""
    assert len(MATRIX) == 9 * 14 - 3
