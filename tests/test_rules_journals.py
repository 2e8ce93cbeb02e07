"""Experience, journals, victory, tiebreak, and the order of the narration.

PT "Fase 5", "Fim de jogo", "Desempate", "Preparação"; rulings R-100 .. R-105,
K-10, R-117.
"""

from __future__ import annotations

from .helpers import check, events, play

# A quiet 4-player night: 3: Werewolf Caio kills Priest Duda (1 XP); Ana (Priest)
# survives (1 XP); Bia (Vampire) bites Caio? No: Bia withdraws (0 XP).
QUIET = {"Ana": "priest", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest"}
QUIET_G = {"Bia": "Caio", "Caio": "Duda"}
QUIET_W = {"Bia": True}


def test_xp_is_added_to_the_journal_row_of_the_card() -> None:
    """PT "Fase 5" ("ganham 1 ponto"); R-100, R-104: journals after = before + xp."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Ana": {"priest": 1, "zombie": 2}, "Caio": {"hunter": 1}})
    check(res, Ana=("alive", 1), Bia=("withdrawn", 0), Caio=("alive", 1), Duda=("killed", 0))
    assert res["journals"] == {"Ana": {"zombie": 2, "priest": 2}, "Bia": {},
                               "Caio": {"werewolf": 1, "hunter": 1}, "Duda": {}}


def test_withdrawn_player_writes_nothing() -> None:
    """PT "Fase 3" ("Quem desiste completamente ... não ganha pontos"); R-105."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Bia": {"vampire": 3}})
    assert res["journals"]["Bia"] == {"vampire": 3}


def test_win_with_one_xp_in_six_rows() -> None:
    """PT "Fim de jogo" ("pelo menos 1 xp em seis (6) dos papéis"); R-101."""
    j = {"devil": 1, "vampire": 1, "werewolf": 1, "zombie": 1, "hunter": 1}
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Ana": j})
    assert res["winners"] == ["Ana"]


def test_win_with_eight_xp_in_total() -> None:
    """PT "Fim de jogo" ("acumular 8 xp no total"); R-101."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Caio": {"werewolf": 3, "hunter": 3, "devil": 1}})
    assert res["winners"] == ["Caio"]


def test_win_with_two_xp_in_three_rows() -> None:
    """PT "Fim de jogo" ("reunir 2 xp em cada um de três (3) papéis"); R-101."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Caio": {"werewolf": 1, "hunter": 2, "devil": 2}})
    assert res["winners"] == ["Caio"]


def test_win_with_four_xp_in_one_row() -> None:
    """PT "Fim de jogo" ("juntar 4 xp em um (1) só papel"); R-101 (no cap per row)."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Caio": {"werewolf": 3}})
    assert res["winners"] == ["Caio"]


def test_nobody_wins_without_a_condition() -> None:
    """R-101, R-102 ("A player without a condition never wins").

    PT "Fim de jogo".
    """
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Caio": {"werewolf": 2, "hunter": 2}, "Ana": {"priest": 1}})
    assert res["winners"] == []


def test_killed_player_can_win_with_earlier_xp() -> None:
    """R-101 ("a player killed tonight can still win with earlier XP").

    PT "Fim de jogo".
    """
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Duda": {"priest": 4}})
    assert res["winners"] == ["Duda"]


def test_free_xp_counts_toward_victory() -> None:
    """PT "Preparação" ("xp gratuito"); R-103: the free dot is one of six rows."""
    j = {"zombie": 1, "devil": 1, "vampire": 1, "werewolf": 1, "hunter": 1}
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Ana": j})
    assert res["winners"] == ["Ana"]


def test_tiebreak_total_xp_first() -> None:
    """PT "Desempate" ("maior total de pontos"); R-102: total beats number of rows."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Ana": {"priest": 5, "zombie": 2},
                         "Duda": {"devil": 1, "vampire": 1, "werewolf": 1, "zombie": 1,
                                  "hunter": 1, "priest": 1}})
    # Ana: 8 XP in 2 rows (eight-xp); Duda: 6 XP in 6 rows (six-roles).
    assert res["winners"] == ["Ana"]


def test_tiebreak_number_of_rows_second() -> None:
    """PT "Desempate" ("maior número de papéis diferentes"); R-102."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Ana": {"priest": 3, "zombie": 2, "devil": 2},
                         "Duda": {"priest": 4, "hunter": 3}})
    # after: Ana 8 XP in 3 rows; Duda 7 XP... Duda is killed: 7 in 2 rows.
    assert res["winners"] == ["Ana"]
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Ana": {"priest": 3, "zombie": 2, "devil": 2},
                         "Duda": {"priest": 5, "hunter": 3}})
    # Ana 8 XP / 3 rows, Duda 8 XP / 2 rows.
    assert res["winners"] == ["Ana"]


def test_tiebreak_shared_when_still_tied() -> None:
    """PT "Desempate" ("dividir os louros"); R-102."""
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W,
               journals={"Ana": {"priest": 3, "zombie": 1},
                         "Caio": {"werewolf": 3, "hunter": 1}})
    assert sorted(res["winners"]) == ["Ana", "Caio"]


def test_only_the_alien_earns_two() -> None:
    """PT "Fase 5" (1 XP cap; Alien up to 2); R-100, R-47 (journal row gets 2)."""
    res = play({"Ana": "alien", "Bia": "vampire/f", "Caio": "vampire/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"kind": "vampire"}, "Bia": "Fred", "Caio": "Fred"},
               journals={"Ana": {"alien": 3}})
    assert res["journals"]["Ana"] == {"alien": 5}
    assert res["winners"] == ["Ana"]


def test_special_roles_in_journals_extend_the_default_sheet() -> None:
    """R-104, spec ``journal_roles`` default (main cast + special roles in cards or
    journals), K-10.

    PT "Elenco especial" (folha de diário).
    """
    res = play(QUIET, QUIET_G, withdrawals=QUIET_W, journals={"Ana": {"angel": 1}})
    assert res["journals"]["Ana"] == {"priest": 1, "angel": 1}


# ---------------------------------------------------------------- narration R-117

STEP_ORDER = ["1+", "1", "2", "3", "4", "5", "6", "7", "8", "end"]


def _busy_night() -> dict[str, object]:
    return play({"Ana": "angel", "Bia": "devil/advanced", "Caio": "vampire",
                 "Duda": "zombie", "Enzo": "hunter", "Fred": "alien",
                 "Gil": "necromancer", "Hugo": "reporter"},
                {"Ana": "Caio", "Bia": {"shows": "werewolf", "targets": ["Ana"]},
                 "Caio": "Duda", "Duda": "Enzo", "Enzo": ["Duda", "Fred"],
                 "Fred": {"kind": "reporter"}, "Hugo": ["Gil", "Duda"]},
                journal_roles=["devil", "vampire", "zombie", "hunter", "angel", "alien",
                               "necromancer", "reporter"])


def test_narration_follows_initiative_order() -> None:
    """PT "Fase 4" (the Mayor calls 1+, 1, 2 ... 8); R-117, R-10, spec ``events``."""
    res = _busy_night()
    steps = [e[0] for e in events(res)]
    assert steps, "a night with actors narrates something"
    idx = [STEP_ORDER.index(s) for s in steps]
    assert idx == sorted(idx)
    assert {"1+", "1", "4", "5", "6", "end"} <= set(steps)


def test_narration_inside_a_step_goes_by_seat() -> None:
    """R-117 ("inside a step by seat from the active player"): two Vampires at step 2.

    PT "Fase 4" (the Mayor calls each initiative).
    """
    res = play({"Ana": "vampire/f", "Bia": "priest", "Caio": "vampire/m", "Duda": "zombie"},
               {"Ana": "Duda", "Caio": "Bia", "Duda": "Caio"})
    step2 = [e for e in events(res) if e[0] == "2" and e[2] in ("Ana", "Caio")]
    assert [e[2] for e in step2] == ["Ana", "Caio"]


def test_narration_of_an_actor_already_out_keeps_seat_order() -> None:
    """R-117 ("inside a step by seat"), R-11.

    1+: the Angel kills Vampire Caio. 2: Vampire Ana (seat 0) acts; Caio (seat 2)
    is out. Seat order: Ana's attack is narrated before Caio's absence.

    PT "Fase 4" (the Mayor calls each initiative).
    """
    res = play({"Ana": "vampire/f", "Bia": "angel", "Caio": "vampire/m", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Enzo", "Bia": "Caio", "Caio": "Duda"})
    step2 = [e[2] for e in events(res) if e[0] == "2" and e[2] in ("Ana", "Caio")]
    assert "Caio" in step2
    assert step2 == sorted(step2, key=["Ana", "Caio"].index)


def test_end_of_night_narration_photos_then_mummy_demoniac_then_death() -> None:
    """R-117 ("then photos, marriages, the Mummy and Demoniac outcomes, Death's name").

    Death sits in seat 0, the Demoniac in seat 1, the Reporter in seat 5: the
    photos come first, then the Mummy/Demoniac, then Death's name.

    PT "Fase 4" (the Mayor calls each initiative).
    """
    res = play({"Ana": "death", "Bia": "demoniac", "Caio": "werewolf", "Duda": "mummy",
                "Enzo": "priest", "Fred": "reporter"},
               {"Ana": {"names": "Bia"}, "Caio": "Bia", "Fred": ["Caio", "Duda"]})
    end = [e[1] for e in events(res) if e[0] == "end" and e[1] != "xp"]
    order = {"photo": 0, "photo-worthless": 0, "mummy-awake": 1, "mummy-sleeps": 1,
             "demoniac-freed": 1, "demoniac-dies-exorcised": 1, "death-harvests": 2,
             "death-empty": 2}
    ranks = [order[k] for k in end]
    assert ranks == sorted(ranks)
    assert set(ranks) == {0, 1, 2}
