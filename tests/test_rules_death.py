"""Death: not there, its name, its XP, its journal row.

PT "Morte", "Morte — Resolução e experiência"; rulings R-80 .. R-84, R-105.
"""

from __future__ import annotations

import pytest

from .helpers import check, play

BASE = {"Ana": "death", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest",
        "Enzo": "mummy", "Fred": "demoniac"}


def test_death_is_absent_and_scores_when_the_named_player_is_killed() -> None:
    """PT "Morte — Resolução" ("tiver sido eliminado"); R-80 (fate absent), R-81, R-105.

    Death names Duda. 3: Werewolf Caio kills Priest Duda. Death: 1 XP in its row.
    """
    res = play(BASE, {"Ana": {"names": "Duda"}, "Bia": "Enzo", "Caio": "Duda"})
    check(res, Ana=("absent", 1), Duda=("killed", 0), Caio=("alive", 1))
    assert res["journals"]["Ana"] == {"death": 1}


def test_death_scores_when_the_named_player_is_abducted() -> None:
    """PT "Morte" ("eliminado ou mesmo abduzido"); R-81, R-04."""
    res = play({**BASE, "Bia": "alien"}, {"Ana": {"names": "Duda"}, "Bia": {"kind": "priest"},
                                         "Caio": "Enzo"})
    check(res, Ana=("absent", 1), Duda=("abducted", 0))


def test_death_earns_nothing_when_the_named_player_is_damned() -> None:
    """PT "Morte" ("mas não condenado ao Inferno"); R-81."""
    res = play({**BASE, "Bia": "devil"},
               {"Ana": {"names": "Fred"}, "Bia": {"shows": "vampire", "targets": ["Fred"]},
                "Caio": "Enzo"})
    check(res, Ana=("absent", 0), Fred=("damned", 0))


def test_death_earns_nothing_when_the_named_player_is_raised() -> None:
    """PT "Morte" ("nem transformado em servo do Necromante"); R-81, R-57."""
    res = play({"Ana": "death", "Bia": "priest", "Caio": "necromancer", "Duda": "werewolf",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"names": "Bia"}, "Duda": "Bia"})
    check(res, Ana=("absent", 0), Bia=("killed", 0, {"undead"}), Caio=("alive", 1))


@pytest.mark.parametrize("withdraw", [False, True])
def test_death_earns_nothing_when_the_named_player_lives_or_flees(withdraw: bool) -> None:
    """R-81 ("0 if alive (... an awakened Mummy), withdrawn").

    PT "Morte — Resolução e experiência".
    """
    res = play(BASE, {"Ana": {"names": "Enzo"}, "Bia": "Enzo", "Caio": "Duda"},
               withdrawals={"Enzo": True} if withdraw else None)
    check(res, Ana=("absent", 0))


def test_death_named_wounded_creature_earns_nothing() -> None:
    """R-81 ("0 if alive (a wounded Creature ...)"), R-60.

    PT "Morte — Resolução e experiência".
    """
    res = play({"Ana": "death", "Bia": "vampire", "Caio": "creature/f", "Duda": "priest/m",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"names": "Caio"}, "Bia": "Caio",
                "Caio": {"targets": ["Duda"], "seeks": "masculine"}})
    check(res, Ana=("absent", 0), Caio=("alive", 0, {"wounded"}))


def test_death_row_is_on_the_journal_sheet() -> None:
    """R-83 ("Death ... has a journal row (counted in the 8)"), R-104, R-105.

    Death earns its first XP in its own row, added to earlier XP.

    PT "Regras e recomendações".
    """
    res = play(BASE, {"Ana": {"names": "Duda"}, "Bia": "Enzo", "Caio": "Duda"},
               journals={"Ana": {"death": 2, "vampire": 1}})
    assert res["journals"]["Ana"] == {"vampire": 1, "death": 3}


def test_with_death_six_players_make_a_five_player_fight() -> None:
    """R-84 ("five fight; everything uses those five"), R-50: neighbours skip Death.

    Creature Bia (Death on her right) proposes to Fred, her right neighbour past
    Death's seat.

    PT "Morte".
    """
    res = play({"Ana": "death", "Bia": "creature/f", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"names": "Caio"}, "Bia": {"targets": ["Fred"], "seeks": "feminine"}})
    check(res, Bia=("alive", 1), Ana=("absent", 0))
