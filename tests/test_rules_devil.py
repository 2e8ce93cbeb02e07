"""The Devil: disguise, illusion, damnation, withdrawal goals (W1..W6), XP.

PT "Demônio", "Demônio avançado", "Fase 3" box, "Fase 4 — Demônio"; rulings
R-08, R-12, R-20 .. R-28, K-3, K-5, K-7, K-8. Hand derivations in each docstring.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import check, outcome, play

# --- the illusion ------------------------------------------------


def test_attacks_on_the_devil_miss_except_the_werewolfs() -> None:
    """PT "Fase 4 — Demônio" ("com exceção do Lobisomem, todos ... perdem esse ataque"); R-21.

    Devil Ana shows the Priest. 2: Vampire Bia misses (and lives: R-31 needs a
    real Priest). 3: Werewolf Duda kills Ana (credited). 5: Hunter Caio's arrow
    at Ana is forfeit (gone), the other kills Bia (credited).
    """
    res = play({"Ana": "devil", "Bia": "vampire", "Caio": "hunter", "Duda": "werewolf"},
               {"Ana": {"shows": "priest"}, "Bia": "Ana", "Caio": ["Ana", "Bia"],
                "Duda": "Ana"})
    check(res, Ana=("killed", 0), Bia=("killed", 0), Caio=("alive", 1), Duda=("alive", 1))


def test_hunter_arrow_at_devil_misses_only_that_arrow() -> None:
    """PT "Fase 4 — Demônio" ("perdem esse (e somente esse) ataque"); R-21.

    3: Werewolf Caio kills Priest Duda. 5: Bia's arrow at Devil Ana misses, the
    other kills Caio: credited, no penalty (the Devil is not a guardian).
    """
    res = play({"Ana": "devil", "Bia": "hunter", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": {"shows": "vampire", "targets": ["Duda"]}, "Bia": ["Ana", "Caio"],
                "Caio": "Duda"})
    check(res, Ana=("alive", 0), Bia=("alive", 1), Caio=("killed", 0), Duda=("killed", 0))


def test_vampire_attacking_devil_shown_as_priest_lives() -> None:
    """PT "Demônio" (reveals itself in Phase 4); R-08, R-21, R-31.

    2: Vampire Bia attacks the "Priest": it is the Devil, the attack misses and
    Bia does not die of faith.
    """
    res = play({"Ana": "devil", "Bia": "vampire", "Caio": "priest", "Duda": "priest"},
               {"Ana": {"shows": "priest"}, "Bia": "Ana"})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_werewolf_attacking_devil_shown_as_hunter_kills_it_and_lives() -> None:
    """PT "Fase 4 — Demônio"; R-08 (real roles in Phase 4), R-28 (no reflex), R-32.

    3: Werewolf Bia attacks the "Hunter": the real Devil, killed, credited. 5:
    the Devil is no Hunter: no reflex, Bia lives with 1 XP.
    """
    res = play({"Ana": "devil", "Bia": "werewolf", "Caio": "priest", "Duda": "priest"},
               {"Ana": {"shows": "hunter", "targets": ["Caio", "Duda"]}, "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 1), Duda=("alive", 1))


def test_devil_attack_never_kills_wounds_or_awakens() -> None:
    """PT "Demônio — Atributos" ("o ataque do Demônio é ilusório"); R-22, R-03.

    The Devil shown as Hunter aims at the Mummy and the Creature: no hit on either;
    the Mummy sleeps (0 XP: not hit once), the Creature is unwounded.
    """
    res = play({"Ana": "devil", "Bia": "mummy", "Caio": "creature/f", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Ana": {"shows": "hunter", "targets": ["Bia", "Caio"]},
                "Caio": {"targets": ["Bia"], "seeks": "feminine"}})
    check(res, Bia=("alive", 0), Ana=("alive", 0))
    assert outcome(res, "Caio")[1] == frozenset()


def test_devil_shown_as_zombie_triggers_no_cannibalism() -> None:
    """PT "Zumbi — Painel"; R-28, R-52 ("A Devil shown as Zombie never counts").

    Devil Ana (shown as Zombie) sits next to Zombie Bia. 4: Bia kills Priest Caio
    and survives: no cannibal rule. 1 XP.
    """
    res = play({"Ana": "devil", "Bia": "zombie", "Caio": "priest", "Duda": "priest"},
               {"Ana": {"shows": "zombie", "targets": ["Bia"]}, "Bia": "Caio"})
    check(res, Bia=("alive", 1), Caio=("killed", 0), Ana=("alive", 0))


def test_devil_shown_as_reporter_has_no_flash() -> None:
    """PT "Repórter" (immune to his targets); R-28 (the disguise gives no power), R-08.

    Devil Ana shows the Reporter aimed at Werewolf Bia and Priest Caio. 3: Bia
    kills Ana all the same (no flash), credited.
    """
    res = play({"Ana": "devil", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "reporter", "Fred": "mummy"},
               {"Ana": {"shows": "reporter", "targets": ["Bia", "Caio"]}, "Bia": "Ana",
                "Enzo": ["Caio", "Duda"]})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


def test_devil_shown_as_angel_does_not_exorcise_but_damns() -> None:
    """PT "Demônio avançado" (damns the Demoniac); R-28 (no exorcism), R-23.

    1: Devil Ana (shown as Angel) aims at Demoniac Bia: no exorcism, Bia is damned;
    the advanced Devil scores. Bia: damned, 0 XP.
    """
    res = play({"Ana": "devil/advanced", "Bia": "demoniac", "Caio": "priest",
                "Duda": "priest", "Enzo": "angel", "Fred": "mummy"},
               {"Ana": {"shows": "angel", "targets": ["Bia"]}, "Enzo": "Fred"})
    check(res, Ana=("alive", 1), Bia=("damned", 0))


def test_devil_shown_as_alien_abducts_nobody() -> None:
    """R-28 (the disguise gives no power), R-22: the "Alien" naming the Priest takes nobody.

    PT "Demônio" (the attack is "ilusório").
    """
    res = play({"Ana": "devil", "Bia": "priest", "Caio": "priest", "Duda": "alien",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "alien", "kind": "priest"}, "Duda": {"kind": "mummy"}})
    check(res, Bia=("alive", 1), Caio=("alive", 1), Enzo=("alive", 1, {"awakened"}),
          Duda=("alive", 0))


# --- damnation ---------------------------------------------------------


def test_angel_kills_devil_before_it_damns() -> None:
    """PT "Anjo" ("o Anjo eliminará o Demônio antes que este consiga condenar o Anjo"); R-12.

    1+: Angel Bia kills Devil Ana (credited). 1: Ana is gone: no damnation.
    """
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


def test_angel_kill_stands_when_the_angel_is_damned() -> None:
    """PT "Anjo"; R-12, R-42 ("An Angel attacking someone else acts ... its act stands").

    1+: Angel Bia kills Vampire Caio. 1: Devil Ana (shown as Werewolf) damns Bia.
    Caio stays dead; Bia damned, 0 XP; the advanced Devil scores.
    """
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "vampire", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "werewolf", "targets": ["Bia"]}, "Bia": "Caio",
                "Caio": "Duda"})
    check(res, Ana=("alive", 1), Bia=("damned", 0), Caio=("killed", 0), Duda=("alive", 1))


def test_exorcism_at_1_plus_protects_demoniac_from_damnation() -> None:
    """PT "Possuída" ("logo após o ataque do Anjo"); R-12, R-23, R-41.

    1+: Angel Enzo exorcises Demoniac Bia. 1: Devil Ana (shown as Vampire) aims at
    Bia: not damnable any more. Ana (advanced) damns nobody: 0. Bia alive,
    exorcised: 1 (extra goal). Enzo: 1 (exorcism goal).
    """
    res = play({"Ana": "devil/advanced", "Bia": "demoniac", "Caio": "priest",
                "Duda": "priest", "Enzo": "angel", "Fred": "mummy"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Enzo": "Bia"})
    check(res, Ana=("alive", 0), Bia=("alive", 1, {"exorcised"}), Enzo=("alive", 1))


def test_devil_shown_as_hunter_damns_two() -> None:
    """PT "Demônio avançado" ("arrastará seu alvo"); R-23 ("shown as Hunter ... can damn two")."""
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "demoniac",
                "Duda": "priest", "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"shows": "hunter", "targets": ["Bia", "Caio"]}, "Bia": "Fred"})
    check(res, Ana=("alive", 1), Bia=("damned", 0), Caio=("damned", 0),
          Fred=("alive", 1, {"awakened"}))


def test_devil_shown_as_alien_naming_angel_damns_it() -> None:
    """R-23 ("shown as Alien with kind angel/demoniac, that player"), R-25.

    PT "Demônio avançado".
    """
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "alien", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"shows": "alien", "kind": "angel"}, "Bia": "Fred",
                "Caio": {"kind": "mummy"}})
    check(res, Ana=("alive", 1), Bia=("damned", 0))


def test_two_devils_damn_the_same_angel() -> None:
    """R-23 ("Two Devils damning the same player both damn it"), R-10.

    PT "Demônio avançado".
    """
    res = play({"Ana": "devil/advanced/f", "Bia": "angel", "Caio": "devil/advanced/m",
                "Duda": "priest", "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Bia": "Fred",
                "Caio": {"shows": "werewolf", "targets": ["Bia"]}})
    check(res, Ana=("alive", 1), Caio=("alive", 1), Bia=("damned", 0))


def test_basic_devil_damns_but_earns_nothing_for_it() -> None:
    """PT "Demônio avançado" ("esta versão ... objetivos extraordinários"); R-15, R-27, K-3."""
    res = play({"Ana": "devil", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Bia": "Enzo"})
    check(res, Ana=("alive", 0), Bia=("damned", 0))


def test_devil_cannot_damn_a_withdrawn_angel() -> None:
    """R-23 ("who is then a valid target"), R-02: the Angel fled, nobody is damned.

    PT "Demônio avançado".
    """
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Bia": "Enzo"},
               withdrawals={"Bia": True})
    # W1 is met instead: the Devil showed the Vampire at Bia, who withdrew.
    check(res, Ana=("alive", 1), Bia=("withdrawn", 0), Enzo=("alive", 0))


# --- R-24 .. R-26: the withdrawal goal -----------------------------------------------

FOUR = {"Caio": "priest", "Duda": "priest"}
SIX = {"Caio": "priest", "Duda": "priest", "Enzo": "mummy"}


def _devil_xp(table: dict[str, str], gestures: dict[str, Any],
              withdrawals: dict[str, Any]) -> int:
    return outcome(play(table, gestures, withdrawals=withdrawals), "Ana")[2]


def test_w1_priest_fleeing_devil_shown_as_werewolf() -> None:
    """PT "Fase 4 — Demônio" (W1: "tomado como alvo pelo Demônio fingindo-se de ...
    Lobisomem"); R-24, R-26 (a fleeing non-attacker is a withdrawing party)."""
    assert _devil_xp({"Ana": "devil", "Bia": "priest", **FOUR, "Duda": "zombie"},
                     {"Ana": {"shows": "werewolf", "targets": ["Bia"]}, "Duda": "Caio"},
                     {"Bia": True}) == 1


def test_w1_target_of_devil_shown_as_zombie_withdraws() -> None:
    """PT "Fase 3" box (a Devil-Zombie scores on the player it pointed at); R-24 W1."""
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **FOUR},
                     {"Ana": {"shows": "zombie", "targets": ["Bia"]}, "Bia": "Caio"},
                     {"Bia": True}) == 1


def test_w1_not_met_by_zombie_the_devil_zombie_did_not_aim_at() -> None:
    """PT "Fase 3" box ("se ... tiver apontado o gesto do Zumbi para o jogador em
    questão"); R-24 ("a Zombie fleeing from a Devil-Zombie that aimed elsewhere")."""
    assert _devil_xp({"Ana": "devil", "Bia": "zombie", "Caio": "priest", "Duda": "priest"},
                     {"Ana": {"shows": "zombie", "targets": ["Duda"]}, "Bia": "Ana"},
                     {"Bia": True}) == 0


def test_w1_withdrawing_party_may_be_another_devil() -> None:
    """PT "Fase 4 — Demônio" ("o desistente pode ser também um Demônio"); R-24 W1."""
    assert _devil_xp({"Ana": "devil/f", "Bia": "devil/m", **FOUR},
                     {"Ana": {"shows": "vampire", "targets": ["Bia"]},
                      "Bia": {"shows": "priest"}}, {"Bia": True}) == 1


@pytest.mark.parametrize("real", ["vampire", "hunter"])
def test_w2_vampire_or_hunter_aiming_at_devil_shown_as_priest_withdraws(real: str) -> None:
    """PT "Fase 4 — Demônio" (W2: "o Vampiro ou Caçador que tomou como alvo o Demônio
    que se fazia passar pelo Sacerdote"); R-24 W2."""
    g: dict[str, Any] = {"Ana": {"shows": "priest"},
                         "Bia": "Ana" if real == "vampire" else ["Ana", "Caio"]}
    assert _devil_xp({"Ana": "devil", "Bia": real, **FOUR}, g, {"Bia": True}) == 1


@pytest.mark.parametrize("real", ["werewolf", "zombie"])
def test_w2_not_met_by_werewolf_or_zombie_aiming_at_devil_shown_as_priest(real: str) -> None:
    """R-24 ("Nothing else counts (a Werewolf or Zombie aiming at a Devil-Priest)").

    PT "Fase 4 — Demônio".
    """
    assert _devil_xp({"Ana": "devil", "Bia": real, **FOUR},
                     {"Ana": {"shows": "priest"}, "Bia": "Ana"}, {"Bia": True}) == 0


def test_w3_werewolf_aiming_at_devil_shown_as_hunter_withdraws() -> None:
    """PT "Fase 4 — Demônio" (W3: "o Lobisomem que tomou como alvo o Demônio que se
    fazia passar pelo Caçador"); R-24 W3."""
    assert _devil_xp({"Ana": "devil", "Bia": "werewolf", **FOUR},
                     {"Ana": {"shows": "hunter", "targets": ["Caio", "Duda"]}, "Bia": "Ana"},
                     {"Bia": True}) == 1


def test_w3_not_met_by_vampire_aiming_at_devil_shown_as_hunter() -> None:
    """R-24 (W3 names the Werewolf only; real roles, R-26).

    PT "Fase 4 — Demônio".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **FOUR},
                     {"Ana": {"shows": "hunter", "targets": ["Caio", "Duda"]}, "Bia": "Ana"},
                     {"Bia": True}) == 0


def test_hunter_withdrawing_the_arrow_at_devil_satisfies_w2() -> None:
    """PT "Fase 3" box ("desistir apenas desse ataque, e não do outro ... cumprirá seu
    objetivo"); R-26."""
    assert _devil_xp({"Ana": "devil", "Bia": "hunter", **FOUR},
                     {"Ana": {"shows": "priest"}, "Bia": ["Ana", "Caio"]}, {"Bia": [0]}) == 1


def test_hunter_withdrawing_the_other_arrow_still_satisfies_the_devil() -> None:
    """R-26 ("whichever arrow"), K-5, K-8: the arrow at the Priest is dropped, the one at
    the Devil-Priest kept (and missed): the Devil scores; Caio lives.

    PT "Fase 3" box.
    """
    res = play({"Ana": "devil", "Bia": "hunter", **FOUR},
               {"Ana": {"shows": "priest"}, "Bia": ["Ana", "Caio"]}, withdrawals={"Bia": [1]})
    check(res, Ana=("alive", 1), Bia=("alive", 0), Caio=("alive", 1))


def test_w4_target_of_devil_shown_as_angel_withdraws() -> None:
    """PT "Fase 4: Demônio avançado" (W4: "fingindo-se de Anjo"); R-25 W4, R-15."""
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **SIX, "Fred": "angel"},
                     {"Ana": {"shows": "angel", "targets": ["Bia"]}, "Bia": "Caio",
                      "Fred": "Enzo"}, {"Bia": True}) == 1


def test_w4_player_of_the_kind_named_by_devil_shown_as_alien_withdraws() -> None:
    """PT "Fase 4: Demônio avançado" (W4: "Alienígena"); R-25 W4 (real role of the kind)."""
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **SIX, "Fred": "alien"},
                     {"Ana": {"shows": "alien", "kind": "vampire"}, "Bia": "Caio",
                      "Fred": {"kind": "mummy"}}, {"Bia": True}) == 1


def test_w4_target_of_devil_shown_as_reporter_withdraws() -> None:
    """PT "Fase 4: Demônio avançado" (W4: "Repórter"); R-25 W4."""
    assert _devil_xp({"Ana": "devil", "Bia": "werewolf", **SIX, "Fred": "reporter"},
                     {"Ana": {"shows": "reporter", "targets": ["Bia", "Caio"]}, "Bia": "Caio",
                      "Fred": ["Caio", "Duda"]}, {"Bia": True}) == 1


def test_w5_any_role_aiming_at_devil_shown_as_mummy_withdraws() -> None:
    """PT "Fase 4: Demônio avançado" (W5: "um monstro ou guardião que tomou como alvo
    o Demônio que se fazia passar pela Múmia"); R-25 W5."""
    assert _devil_xp({"Ana": "devil", "Bia": "zombie", **SIX, "Fred": "demoniac"},
                     {"Ana": {"shows": "mummy"}, "Bia": "Ana"}, {"Bia": True}) == 1


def test_w5_necromancer_next_to_devil_shown_as_mummy_withdraws() -> None:
    """R-25 ("'Aimed at the Devil' includes a Necromancer next to it").

    PT "Fase 4: Demônio avançado".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "necromancer", **SIX, "Fred": "demoniac"},
                     {"Ana": {"shows": "mummy"}}, {"Bia": True}) == 1


def test_w5_alien_naming_devil_withdraws() -> None:
    """R-25 ("includes ... an Alien naming devil").

    PT "Fase 4: Demônio avançado".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "alien", **SIX, "Fred": "demoniac"},
                     {"Ana": {"shows": "mummy"}, "Bia": {"kind": "devil"}}, {"Bia": True}) == 1


def test_w5_not_met_by_alien_naming_the_role_the_devil_shows() -> None:
    """R-25 ("it does not include an Alien or Voodooist naming the role the Devil
    shows"), R-08: the Alien naming `mummy` aims at the real Mummy Enzo.

    PT "Fase 4: Demônio avançado".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "alien", **SIX, "Fred": "demoniac"},
                     {"Ana": {"shows": "mummy"}, "Bia": {"kind": "mummy"}}, {"Bia": True}) == 0


def test_w5_not_met_by_voodooist_naming_devil() -> None:
    """K-7 ("a Voodooist naming devil aims at nobody and does not count").

    PT "Fase 4: Demônio avançado".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "voodooist", **SIX, "Fred": "demoniac"},
                     {"Ana": {"shows": "mummy"}, "Bia": {"kind": "devil"}}, {"Bia": True}) == 0


def test_w5_met_by_other_devil_whose_disguised_aim_points_at_this_devil() -> None:
    """K-7 ("another Devil whose disguised aim points at this Devil does count").

    PT "Fase 4: Demônio avançado".
    """
    res = play({"Ana": "devil/f", "Bia": "devil/m", **SIX, "Fred": "demoniac"},
               {"Ana": {"shows": "mummy"}, "Bia": {"shows": "vampire", "targets": ["Ana"]}},
               withdrawals={"Bia": True})
    check(res, Ana=("alive", 1), Bia=("withdrawn", 0))


@pytest.mark.parametrize("shown", ["reporter", "demoniac", "voodooist"])
def test_w6_hunter_aiming_at_devil_shown_as_guardian_withdraws(shown: str) -> None:
    """PT "Fase 4: Demônio avançado" (W6: "o Caçador que tomou como alvo o Demônio que
    se fazia passar por Repórter, Possuída ou Voduísta"); R-25 W6."""
    gesture: dict[str, Any] = {"shows": shown}
    if shown == "reporter":
        gesture["targets"] = ["Caio", "Duda"]
    elif shown == "voodooist":
        gesture["kind"] = "vampire"
    table = {"Ana": "devil", "Bia": "hunter", **SIX, "Fred": shown}
    g: dict[str, Any] = {"Ana": gesture, "Bia": ["Ana", "Caio"]}
    if shown == "reporter":
        g["Fred"] = ["Caio", "Duda"]
    elif shown == "voodooist":
        g["Fred"] = {"kind": "vampire"}
    assert _devil_xp(table, g, {"Bia": [1]}) == 1


def test_w6_not_met_by_vampire_aiming_at_devil_shown_as_reporter() -> None:
    """R-25 W6 (a real Hunter only).

    PT "Fase 4: Demônio avançado".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **SIX, "Fred": "reporter"},
                     {"Ana": {"shows": "reporter", "targets": ["Caio", "Duda"]}, "Bia": "Ana",
                      "Fred": ["Caio", "Duda"]}, {"Bia": True}) == 0


def test_devil_near_a_fleeing_player_it_did_not_aim_at_scores_nothing() -> None:
    """R-24 ("Nothing else counts (... anyone near a Devil showing the Priest)"): the
    Vampire who flees aimed at Caio, not at the Devil-Priest.

    PT "Fase 4 — Demônio".
    """
    assert _devil_xp({"Ana": "devil", "Bia": "vampire", **FOUR},
                     {"Ana": {"shows": "priest"}, "Bia": "Caio"}, {"Bia": True}) == 0


# --- survival and XP --------------------------------------------------------------


def test_devil_goal_met_but_killed_by_werewolf_scores_nothing() -> None:
    """PT "Demônio" survival ("não tiver sido eliminado pelo ataque de um Lobisomem"); R-27.

    Phase 3: Priest Bia flees from the Devil-Vampire (W1). 3: Werewolf Caio kills
    Ana: no XP.
    """
    res = play({"Ana": "devil", "Bia": "priest", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Caio": "Ana"},
               withdrawals={"Bia": True})
    check(res, Ana=("killed", 0), Caio=("alive", 1))


def test_withdrawn_devil_scores_nothing() -> None:
    """PT "Fase 3"; R-27 ("if the Devil did not withdraw"), R-07."""
    res = play({"Ana": "devil", "Bia": "priest", "Caio": "priest", "Duda": "vampire"},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Duda": "Ana"},
               withdrawals={"Ana": True, "Bia": True})
    check(res, Ana=("withdrawn", 0), Duda=("alive", 0))


def test_advanced_devil_with_both_goals_gets_one_xp() -> None:
    """PT "Demônio avançado" ("só vai receber 1 XP"); R-27 ("Never 2")."""
    res = play({"Ana": "devil/advanced", "Bia": "angel", "Caio": "vampire", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "hunter", "targets": ["Bia", "Caio"]}, "Bia": "Enzo",
                "Caio": "Duda"}, withdrawals={"Caio": True})
    check(res, Ana=("alive", 1), Bia=("damned", 0))


def test_werewolf_aiming_at_devil_killed_by_angel_scores_nothing() -> None:
    """R-21 ("If the Angel killed the Devil at 1+, every other attack on it is forfeit").

    PT "Fase 4 — Demônio".
    """
    res = play({"Ana": "devil", "Bia": "angel", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "priest"}, "Bia": "Ana", "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 0))


def test_w1_hunter_aimed_at_by_devil_withdrawing_one_arrow_counts() -> None:
    """K-8 ("A Hunter who withdrew one arrow is a withdrawing party for the Devil's goal"),
    R-26, R-24 W1: the Devil (shown as Vampire) aimed at Hunter Bia, who drops one arrow
    and stays.

    PT "Fase 3" box.
    """
    res = play({"Ana": "devil", "Bia": "hunter", **FOUR},
               {"Ana": {"shows": "vampire", "targets": ["Bia"]}, "Bia": ["Caio", "Duda"]},
               withdrawals={"Bia": [0]})
    # 5: Bia's kept arrow kills Priest Duda: no XP. Ana scores (W1).
    check(res, Ana=("alive", 1), Bia=("alive", 0), Duda=("killed", 0), Caio=("alive", 1))


def test_devil_reveals_itself_at_step_1() -> None:
    """PT "Demônio" ("O Demônio só irá se revelar na Fase 4"); R-114 (the Devil is revealed
    at step 1), R-117."""
    from .helpers import events

    res = play({"Ana": "devil", "Bia": "priest", "Caio": "priest", "Duda": "zombie"},
               {"Ana": {"shows": "hunter", "targets": ["Bia", "Caio"]}, "Duda": "Caio"})
    reveals = [e for e in events(res) if e[1] == "devil-reveals"]
    assert reveals == [("1", "devil-reveals", "Ana", None)]
