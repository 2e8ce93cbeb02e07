"""Hunter and Werewolf: arrows, guardian penalty, silver reflex, double aim.

PT "Caçador", "Caçador avançado", "Lobisomem", "Fase 4 — Caçador"; rulings
R-33 .. R-38, R-14.
"""

from __future__ import annotations

from .helpers import check, play


def test_werewolf_attacking_hunter_is_killed() -> None:
    """PT "Lobisomem — Painel" ("se atacar o Caçador, o Lobisomem será eliminado"); R-35.

    3: Werewolf Ana attacks Hunter Bia: nothing happens to Bia. 5: Bia's arrows
    hit nobody useful (Priest Caio withdrew, arrow forfeit; the other is on Hunter
    Duda: nothing), but her reflex kills Ana and meets her goal.
    """
    res = play({"Ana": "werewolf", "Bia": "hunter/f", "Caio": "priest", "Duda": "hunter/m"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"], "Duda": ["Bia", "Caio"]},
               withdrawals={"Caio": True})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Duda=("alive", 0))


def test_reflex_needs_the_werewolf_alive_when_the_hunter_is_called() -> None:
    """PT "Caçador" goal ("atacado por um Lobisomem que ainda estava vivo ao chegar a vez
    do Caçador"); R-35, R-36.

    3: Ana attacks Hunter Caio. 4: Zombie Bia kills Ana (credited). 5: Ana is gone:
    no reflex credit; Caio's arrows (Devil-free: Priest withdrew, Bia? no) score 0.
    """
    res = play({"Ana": "werewolf", "Bia": "zombie", "Caio": "hunter", "Duda": "priest"},
               {"Ana": "Caio", "Bia": "Ana", "Caio": ["Duda", "Bia"]},
               withdrawals={"Duda": True, "Caio": [1]})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 0))


def test_reflex_with_one_arrow_withdrawn_still_kills() -> None:
    """R-35 ("a single withdrawn arrow does not matter"), K-8.

    PT "Lobisomem — Painel", "Caçador — Painel".
    """
    res = play({"Ana": "werewolf", "Bia": "hunter", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"]}, withdrawals={"Bia": [0]})
    # arrow 1 at Priest Duda is kept: Duda killed, penalty: no XP for Bia.
    check(res, Ana=("killed", 0), Bia=("alive", 0), Duda=("killed", 0), Caio=("alive", 1))


def test_werewolf_attack_on_withdrawn_hunter_is_forfeit() -> None:
    """R-36 ("Hunter fully withdrew ...: the Werewolf's attack is forfeit — it lives").

    PT "Fase 4 — Caçador".
    """
    res = play({"Ana": "werewolf", "Bia": "hunter", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"]}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 0), Bia=("withdrawn", 0), Caio=("alive", 1))


def test_werewolf_attack_on_hunter_killed_before_step_3_is_forfeit() -> None:
    """R-36 ("killed before step 3: the Werewolf's attack is forfeit"), R-01.

    2: Vampire Caio kills Hunter Bia (credited). 3: Ana's attack on Bia is
    forfeit: she lives, 0 XP; no reflex at 5.

    PT "Fase 4 — Caçador".
    """
    res = play({"Ana": "werewolf", "Bia": "hunter", "Caio": "vampire", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"], "Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("alive", 1), Duda=("alive", 1))


def test_hunter_killed_by_zombie_at_step_4_gives_no_reflex() -> None:
    """R-36 ("Hunter killed at step 4 (Zombie): no reflex; the Werewolf lives with 0 XP").

    3: Werewolf Ana attacks Hunter Bia. 4: Zombie Caio (Bia's neighbour) kills Bia.
    5: no Hunter: Ana lives (0 XP: her only attack killed nobody).

    PT "Fase 4 — Caçador".
    """
    res = play({"Ana": "werewolf", "Bia": "hunter", "Caio": "zombie", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"], "Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("alive", 1), Duda=("alive", 1))


def test_hunter_shooting_the_werewolf_that_attacked_her_is_credited_once() -> None:
    """R-36 ("A Hunter that also shoots the Werewolf: one death, credited once"), R-33.

    PT "Fase 4 — Caçador".
    """
    res = play({"Ana": "werewolf", "Bia": "hunter", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Ana", "Caio"]}, withdrawals={"Bia": [1]})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


def test_hunter_kills_monster_and_scores() -> None:
    """PT "Caçador" ("com pelo menos um de seus ataques, tiver atingido ... um Vampiro,
    Lobisomem ou Zumbi ainda vivo"); R-33."""
    res = play({"Ana": "hunter", "Bia": "zombie", "Caio": "vampire", "Duda": "priest"},
               {"Ana": ["Bia", "Caio"], "Bia": "Caio", "Caio": "Bia"})
    # 2: Caio kills Bia (credited). 4: Bia gone. 5: Ana's arrow at Bia forfeit, the
    # other kills Caio: Ana 1.
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("killed", 0))


def test_hunter_gets_no_extra_xp_for_two_monsters() -> None:
    """PT "Caçador" ("não ganhará xp adicional por eliminar dois monstros"); R-33."""
    # Priest Caio flees: Vampire Bia's and Zombie Duda's attacks are forfeit. 5: Ana
    # kills both: 1 XP, not 2.
    res = play({"Ana": "hunter", "Bia": "vampire", "Caio": "priest", "Duda": "zombie"},
               {"Ana": ["Bia", "Duda"], "Bia": "Caio", "Duda": "Caio"},
               withdrawals={"Caio": True})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Duda=("killed", 0))


def test_hunter_that_kills_priest_earns_nothing() -> None:
    """PT "Caçador" ("não ganhará ... xp ... se também tiver eliminado o Sacerdote"); R-34."""
    res = play({"Ana": "hunter", "Bia": "vampire", "Caio": "priest", "Duda": "werewolf"},
               {"Ana": ["Bia", "Caio"], "Bia": "Duda", "Duda": "Bia"})
    # 2: Bia kills Duda. 3: Duda gone. 5: Ana kills Bia (monster) and Caio (Priest): 0.
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("killed", 0))


def test_hunter_aiming_at_withdrawn_priest_is_not_penalised() -> None:
    """R-34 ("Aiming at a guardian who withdrew ... costs nothing").

    PT "Caçador", "Caçador avançado".
    """
    res = play({"Ana": "hunter", "Bia": "vampire", "Caio": "priest", "Duda": "werewolf"},
               {"Ana": ["Bia", "Caio"], "Bia": "Duda", "Duda": "Bia"},
               withdrawals={"Caio": True})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("withdrawn", 0))


def test_hunter_arrow_at_dead_priest_is_forfeit_and_costs_nothing() -> None:
    """PT p. 17 sidebar; R-34 ("... or is already dead costs nothing"), R-01.

    3: Werewolf Duda kills Priest Caio. 5: Ana's arrow at Caio is forfeit, the
    other kills Duda: 1 XP.
    """
    res = play({"Ana": "hunter", "Bia": "priest", "Caio": "priest", "Duda": "werewolf"},
               {"Ana": ["Duda", "Caio"], "Duda": "Caio"})
    check(res, Ana=("alive", 1), Caio=("killed", 0), Duda=("killed", 0), Bia=("alive", 1))


def test_two_hunters_killing_one_priest_are_both_penalised() -> None:
    """R-34 ("Two Hunters killing one Priest are both penalised"), R-10.

    PT "Caçador", "Caçador avançado".
    """
    res = play({"Ana": "hunter/f", "Bia": "hunter/m", "Caio": "priest", "Duda": "zombie"},
               {"Ana": ["Caio", "Duda"], "Bia": ["Caio", "Duda"], "Duda": "Ana"},
               withdrawals={"Duda": True})
    check(res, Ana=("alive", 0), Bia=("alive", 0), Caio=("killed", 0))


def test_hunters_targeting_each_other_are_not_killed() -> None:
    """PT "Caçador" ("Caçadores que tenham tomado um ao outro como alvos não são
    eliminados"); R-37."""
    res = play({"Ana": "hunter/f", "Bia": "hunter/m", "Caio": "vampire", "Duda": "priest"},
               {"Ana": ["Bia", "Caio"], "Bia": ["Ana", "Caio"], "Caio": "Duda"})
    # 2: Caio dies on the Priest. 5: both arrows at Caio forfeit; Hunters untouched.
    check(res, Ana=("alive", 0), Bia=("alive", 0), Caio=("killed", 0), Duda=("alive", 1))


def test_hunter_arrow_at_the_angel_does_nothing() -> None:
    """PT "Caçador avançado" ("O Anjo é ... imune aos ataques do Caçador"); R-37, R-40."""
    res = play({"Ana": "hunter", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Enzo"], "Bia": "Fred"}, withdrawals={"Ana": [1]})
    # 1+: Angel Bia exorcises Fred (her goal). 5: Ana's arrow at Bia does nothing.
    check(res, Ana=("alive", 0), Bia=("alive", 1), Fred=("alive", 1, {"exorcised"}))


def test_two_hunters_share_a_werewolf() -> None:
    """R-14 ("every attacker of the step whose attack reached it is credited"), R-33.

    PT p. 17 sidebar; "Caçador avançado".
    """
    res = play({"Ana": "hunter/f", "Bia": "hunter/m", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": ["Caio", "Bia"], "Bia": ["Caio", "Ana"], "Caio": "Duda"})
    check(res, Ana=("alive", 1), Bia=("alive", 1), Caio=("killed", 0), Duda=("killed", 0))


def test_advanced_hunter_double_shot_kills_intact_mummy_with_credit() -> None:
    """PT "Caçador avançado" ("tiver dirigido seus dois ataques para ... a Múmia ou a
    Criatura ainda viva"); R-38, R-14.

    5: both arrows on the sleeping Mummy: two hits in one step, killed (awakened
    mark stays), credited by the focus clause.
    """
    res = play({"Ana": "hunter/advanced", "Bia": "mummy", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": ["Bia", "Bia"], "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"awakened"}))


def test_advanced_hunter_double_shot_with_one_arrow_withdrawn_is_one_hit() -> None:
    """R-38 ("One of the two arrows withdrawn: one hit only (awakens/wounds, no credit)").

    PT "Caçador avançado".
    """
    res = play({"Ana": "hunter/advanced", "Bia": "creature/f", "Caio": "priest/f",
                "Duda": "priest", "Enzo": "demoniac", "Fred": "mummy"},
               {"Ana": ["Bia", "Bia"], "Bia": {"targets": ["Caio"], "seeks": "feminine"}},
               withdrawals={"Ana": [0]})
    check(res, Ana=("alive", 0), Bia=("alive", 0, {"wounded"}))


def test_advanced_hunter_double_shot_on_ordinary_target_is_one_kill() -> None:
    """R-38 ("Ordinary target: one kill").

    PT "Caçador avançado".
    """
    res = play({"Ana": "hunter/advanced", "Bia": "vampire", "Caio": "priest", "Duda": "priest"},
               {"Ana": ["Bia", "Bia"], "Bia": "Ana"})
    # 2: Bia kills Ana first! Ana never shoots.
    check(res, Ana=("killed", 0), Bia=("alive", 1))
    res = play({"Ana": "hunter/advanced", "Bia": "zombie", "Caio": "priest", "Duda": "priest"},
               {"Ana": ["Bia", "Bia"], "Bia": "Caio"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("killed", 0))


def test_advanced_hunter_double_shot_on_priest_kills_it_without_xp() -> None:
    """R-38 ("Priest: killed, no XP"), R-34.

    PT "Caçador avançado".
    """
    res = play({"Ana": "hunter/advanced", "Bia": "priest", "Caio": "priest", "Duda": "zombie"},
               {"Ana": ["Bia", "Bia"], "Duda": "Caio"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("killed", 0), Duda=("alive", 1))


def test_advanced_hunter_double_shot_on_devil_misses() -> None:
    """R-38 ("Devil: both miss"), R-21.

    PT "Caçador avançado".
    """
    res = play({"Ana": "hunter/advanced", "Bia": "devil", "Caio": "priest", "Duda": "priest"},
               {"Ana": ["Bia", "Bia"], "Bia": {"shows": "priest"}})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_basic_hunter_single_hit_on_awakened_mummy_kills_with_credit() -> None:
    """PT "Caçador avançado" kill list ("a Múmia já desperta"); R-33, R-14, R-15.

    2: Vampire Caio awakens Mummy Bia (no credit). 5: basic Hunter Ana's arrow is
    the second hit: killed, credited to Ana.
    """
    res = play({"Ana": "hunter", "Bia": "mummy", "Caio": "vampire", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Ana": ["Bia", "Fred"], "Caio": "Bia"}, withdrawals={"Ana": [1]})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"awakened"}), Caio=("alive", 0))


def test_werewolf_survival_fails_when_it_attacked_a_hunter() -> None:
    """PT "Lobisomem" survival ("não tiver atacado um Caçador"); R-35, R-10: two
    Werewolves; the one that attacked the Hunter dies by reflex at 5."""
    res = play({"Ana": "werewolf/f", "Bia": "hunter", "Caio": "werewolf/m", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Duda", "Caio"], "Caio": "Duda"},
               withdrawals={"Bia": [0]})
    # 3: Ana attacks Bia; Caio kills Duda. 5: Bia's kept arrow kills Caio; reflex kills Ana.
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("killed", 0), Duda=("killed", 0))


def test_reflex_kills_every_werewolf_that_attacked_the_hunter() -> None:
    """R-35 ("applies to every Werewolf that attacked this Hunter"), R-10: one reflex
    credit, both Werewolves die at 5.

    PT "Lobisomem — Painel", "Caçador — Painel".
    """
    res = play({"Ana": "werewolf/f", "Bia": "hunter", "Caio": "werewolf/m", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Duda", "Caio"], "Caio": "Bia"},
               withdrawals={"Bia": [0]})
    check(res, Ana=("killed", 0), Caio=("killed", 0), Bia=("alive", 1), Duda=("alive", 1))


def test_no_reflex_for_a_werewolf_killed_at_step_3() -> None:
    """R-36 ("Werewolf removed at step 3 or 4: no reflex credit for the Hunter; whoever
    killed it is credited normally").

    3: Werewolf Ana attacks Hunter Bia while Werewolf Caio kills Ana (credited). 5: Ana
    is gone: no reflex; Bia's kept arrow is on the fled Priest: 0 XP.

    PT "Fase 4 — Caçador".
    """
    res = play({"Ana": "werewolf/f", "Bia": "hunter", "Caio": "werewolf/m", "Duda": "priest"},
               {"Ana": "Bia", "Bia": ["Duda", "Caio"], "Caio": "Ana"},
               withdrawals={"Bia": [1], "Duda": True})
    check(res, Ana=("killed", 0), Caio=("alive", 1), Bia=("alive", 0))


def test_advanced_hunter_double_shot_on_wounded_creature_kills_with_credit() -> None:
    """R-38 ("Already awakened/wounded: killed, credited"), R-14.

    2: Vampire Bia wounds Creature Caio (no credit). 5: both arrows: killed, credited.

    PT "Caçador avançado".
    """
    res = play({"Ana": "hunter/advanced", "Bia": "vampire", "Caio": "creature/f",
                "Duda": "priest/m", "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Caio", "Caio"], "Bia": "Caio",
                "Caio": {"targets": ["Duda"], "seeks": "masculine"}})
    check(res, Ana=("alive", 1), Bia=("alive", 0), Caio=("killed", 0))
