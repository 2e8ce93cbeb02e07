"""Zombies: adjacency, the switch at step 4, the cannibal rule, the kill list.

PT "Zumbi", "Zumbi — Painel", "Zumbi avançado", "Fase 4 — Zumbi", "Morte";
rulings R-50 .. R-55, R-51, R-113.
"""

from __future__ import annotations

from .helpers import check, play, rnd


def test_zombie_switches_after_target_killed() -> None:
    """PT "Fase 4 — Zumbi" ("decide se manterá o alvo ... ou se apontará outro"); R-51.

    Zombie Ana aimed at Bia (her left). 2: Vampire Caio kills Bia. 4: Ana switches
    to her right neighbour, Priest Duda, and kills her: credited.
    """
    res = play({"Ana": "zombie", "Bia": "werewolf", "Caio": "vampire", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio", "Caio": "Bia"}, zombie_targets={"Ana": "Duda"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1), Duda=("killed", 0))


def test_zombie_without_switch_keeps_its_phase_2_target() -> None:
    """R-51 ("default: Phase-2 target"), R-01: the target died at 2, the attack is forfeit.

    PT "Fase 4 — Zumbi".
    """
    res = play({"Ana": "zombie", "Bia": "werewolf", "Caio": "vampire", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio", "Caio": "Bia"})
    check(res, Ana=("alive", 0), Duda=("alive", 1))


def test_zombie_cannot_reach_past_a_withdrawn_neighbour() -> None:
    """R-54 ("No; it may switch to its other neighbour ..., otherwise forfeit"), R-50.

    PT "Zumbi".
    """
    res = play({"Ana": "zombie", "Bia": "priest", "Caio": "priest", "Duda": "vampire"},
               {"Ana": "Bia", "Duda": "Ana"}, withdrawals={"Bia": True, "Duda": True})
    check(res, Ana=("alive", 0), Caio=("alive", 1))


def test_adjacent_zombies_are_both_killed() -> None:
    """PT "Zumbi — Painel" ("os dois serão eliminados na Fase 4 ... independentemente de
    quem tenham atacado"); R-52.

    4: Ana and Bia sit side by side; both attack the Priests and kill them
    (credited), and both die: neither scores.
    """
    res = play({"Ana": "zombie/f", "Bia": "zombie/m", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Duda", "Bia": "Caio"})
    check(res, Ana=("killed", 0), Bia=("killed", 0), Caio=("killed", 0), Duda=("killed", 0))


def test_cannibal_rule_off_when_partner_was_killed_earlier() -> None:
    """PT "Zumbi — Painel" ("se nenhum deles tiver desistido ou sido eliminado antes
    disso"); R-52, R-11.

    2: Vampire Caio kills Zombie Bia. 4: Ana is safe; she kills Priest Duda.
    """
    res = play({"Ana": "zombie/f", "Bia": "zombie/m", "Caio": "vampire", "Duda": "priest"},
               {"Ana": "Duda", "Bia": "Ana", "Caio": "Bia"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1), Duda=("killed", 0))


def test_cannibal_rule_off_when_partner_withdrew() -> None:
    """R-52 ("If one withdrew ... the other is safe").

    PT "Zumbi — Painel".
    """
    res = play({"Ana": "zombie/f", "Bia": "zombie/m", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Duda", "Bia": "Caio"}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 1), Bia=("withdrawn", 0), Duda=("killed", 0), Caio=("alive", 1))


def test_zombies_not_adjacent_do_not_eat_each_other() -> None:
    """R-52 ("two real Zombies that are neighbours"), R-50.

    PT "Zumbi — Painel".
    """
    res = play({"Ana": "zombie/f", "Bia": "priest", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "vampire"},
               {"Ana": "Bia", "Caio": "Duda", "Enzo": "Bia"}, withdrawals={"Enzo": True})
    check(res, Ana=("alive", 1), Caio=("alive", 1), Bia=("killed", 0), Duda=("killed", 0))


def test_zombies_with_death_between_them_are_neighbours() -> None:
    """PT "Morte" ("esse jogador não está ali"); R-55, R-50, R-80."""
    res = play({"Ana": "zombie/f", "Bia": "death", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Fred", "Bia": {"names": "Duda"}, "Caio": "Duda"})
    check(res, Ana=("killed", 0), Caio=("killed", 0), Bia=("absent", 1),
          Duda=("killed", 0), Fred=("alive", 1, {"awakened"}))


def test_zombie_next_to_death_aims_past_it() -> None:
    """R-55 ("A Zombie next to Death aims past it"), R-50.

    PT "Morte" ("esse jogador não está ali").
    """
    res = play({"Ana": "zombie", "Bia": "death", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Caio", "Bia": {"names": "Fred"}})
    check(res, Ana=("alive", 1), Caio=("killed", 0), Bia=("absent", 0))


def test_zombie_cannot_harm_the_necromancer() -> None:
    """PT "Necromante" ("imune aos ataques desses monstros"); R-53, R-58, R-15 (any edition)."""
    res = play({"Ana": "zombie/advanced", "Bia": "necromancer", "Caio": "priest",
                "Duda": "priest", "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Bia"})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_zombie_attack_on_the_devil_misses() -> None:
    """PT "Fase 4 — Demônio"; R-53 ("Nothing happens to the Devil"), R-21."""
    res = play({"Ana": "zombie", "Bia": "devil", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": {"shows": "vampire", "targets": ["Caio"]}})
    check(res, Ana=("alive", 0), Bia=("alive", 0), Caio=("alive", 1))


def test_zombie_switching_onto_the_devil_misses() -> None:
    """R-21 ("also covers a Zombie that switches onto it at step 4").

    PT "Fase 4 — Demônio".
    """
    res = play({"Ana": "zombie", "Bia": "priest", "Caio": "priest", "Duda": "devil"},
               {"Ana": "Bia", "Duda": {"shows": "priest"}}, zombie_targets={"Ana": "Duda"})
    check(res, Ana=("alive", 0), Bia=("alive", 1), Duda=("alive", 0))


def test_zombie_kills_angel_and_is_credited() -> None:
    """PT "Zumbi avançado" ("um Anjo, Alienígena, Repórter ..."); R-53, R-15 (basic card)."""
    res = play({"Ana": "zombie", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Bia", "Bia": "Enzo"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Enzo=("alive", 1, {"awakened"}))


def test_zombie_switch_is_not_a_withdrawal_for_the_devil() -> None:
    """R-51 ("Not a withdrawal; it does not change Phase-2 aims (R-24)").

    PT "Fase 4 — Zumbi".
    """
    res = play({"Ana": "devil", "Bia": "zombie", "Caio": "priest", "Duda": "priest"},
               {"Ana": {"shows": "priest"}, "Bia": "Ana"}, zombie_targets={"Bia": "Caio"})
    check(res, Ana=("alive", 0), Bia=("alive", 1), Caio=("killed", 0))


def test_zombies_live_choice_sees_the_night_through_step_3() -> None:
    """R-113 ("The Zombie's choice is asked live after steps 1+…3 are narrated"), R-51:
    ``resolve(night, through="3")`` gives the state the Zombie is told about.

    PT "Fase 4 — Zumbi".
    """
    from darkcity import read_round, resolve

    doc = rnd({"Ana": "zombie", "Bia": "werewolf", "Caio": "vampire", "Duda": "priest"},
              {"Ana": "Bia", "Bia": "Caio", "Caio": "Bia"})
    partial = resolve(read_round(doc), through="3")
    assert partial.player("Bia")[0].value == "killed"
    assert partial.player("Duda")[0].value == "alive"
    assert all(x == 0 for x in partial.xp)
    assert partial.winners == ()
    assert {e.step for e in partial.events} <= {"1+", "1", "2", "3"}
