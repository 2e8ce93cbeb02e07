"""Basic cast: attacks, targets, simultaneity, Vampire, Werewolf, Priest.

Each test is one rule, its docstring cites the Portuguese manual (PT, the
authority) and the ruling id of ``shared/rulings.md``. Expected results were
derived by hand, step by step in initiative order (1+, 1, 2 ... 8).
"""

from __future__ import annotations

from .helpers import check, play


def test_forfeit_attack_on_withdrawn_priest_does_not_kill_vampire() -> None:
    """PT p. 17 sidebar ("perderá esse ataque ... não terá mais um alvo válido"); R-01, R-31.

    Phase 3: Priest Bia flees. 2: Ana's attack is forfeit: she did not "attack a
    Priest", lives, but kills nobody (0 XP).
    """
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "priest", "Duda": "devil"},
               {"Ana": "Bia", "Duda": {"shows": "priest"}}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 0), Bia=("withdrawn", 0), Caio=("alive", 1))


def test_hunter_with_one_arrow_withdrawn_is_still_a_valid_target() -> None:
    """PT "Fase 3" ("desistir de apenas um dos ataques ... continuará no confronto"); R-02, R-07.

    Bia drops arrow 0. 2: Ana kills Bia (still in the confrontation), credited.
    """
    res = play({"Ana": "vampire", "Bia": "hunter", "Caio": "priest", "Duda": "devil"},
               {"Ana": "Bia", "Bia": ["Caio", "Duda"], "Duda": {"shows": "priest"}},
               withdrawals={"Bia": [0]})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1))


def test_attack_on_target_removed_earlier_is_forfeit_and_earns_nothing() -> None:
    """PT p. 17 sidebar; R-01, R-06 (credit only for the kill made by that attack).

    2: Vampire Ana kills Zombie Duda (credited). 3: Werewolf Caio's attack on
    Duda is forfeit: 0 XP though Duda is dead.
    """
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "werewolf", "Duda": "zombie"},
               {"Ana": "Duda", "Caio": "Duda", "Duda": "Caio"})
    check(res, Ana=("alive", 1), Caio=("alive", 0), Duda=("killed", 0), Bia=("alive", 1))


def test_withdrawn_player_makes_no_attack_and_is_not_a_target() -> None:
    """PT "Fase 3" ("terão fugido do confronto e não estarão mais presentes"); R-07.

    Vampire Ana flees: no attack, Bia lives. Werewolf Caio's attack on Ana is
    forfeit. Ana: fate withdrawn, 0 XP.
    """
    res = play({"Ana": "vampire", "Bia": "zombie", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio", "Caio": "Ana"}, withdrawals={"Ana": True})
    check(res, Ana=("withdrawn", 0), Caio=("killed", 0), Bia=("alive", 1),
          Duda=("alive", 1))


def test_withdrawn_non_attacker_earns_nothing() -> None:
    """PT "Fase 3" ("Quem desiste completamente ... não ganha pontos"); R-07, R-105.

    A Priest who flees, unattacked, would have scored by surviving: 0 XP.
    """
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "hunter", "Duda": "priest"},
               {"Ana": "Caio", "Caio": ["Ana", "Duda"]}, withdrawals={"Bia": True})
    check(res, Bia=("withdrawn", 0))


def test_two_vampires_attacking_each_other_both_die() -> None:
    """PT p. 17 sidebar ("imaginem que os dois tenham sobrevivido tempo suficiente"); R-10, R-05.

    2: Ana and Bia attack each other; both attacks are judged on the state at
    the beginning of step 2: both die, neither scores (not alive).
    """
    res = play({"Ana": "vampire", "Bia": "vampire", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("killed", 0))


def test_two_vampires_on_one_target_are_both_credited() -> None:
    """PT p. 17 sidebar ("eliminada simultaneamente por ambos"); R-10, R-14.

    2: both Vampires kill the Werewolf: both credited, both survive.
    """
    res = play({"Ana": "vampire", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": "Caio", "Bia": "Caio", "Caio": "Duda"})
    check(res, Ana=("alive", 1), Bia=("alive", 1), Caio=("killed", 0), Duda=("alive", 1))


def test_vampire_kills_werewolf_before_it_acts() -> None:
    """PT p. 17 sidebar ("não estará mais vivo para eliminar o alvo escolhido"); R-11.

    2: Ana kills Werewolf Bia. 3: Bia is gone: her attack on Priest Caio never
    happens. Caio survives.
    """
    res = play({"Ana": "vampire", "Bia": "werewolf", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1), Duda=("alive", 1))


def test_victim_of_the_same_step_still_acts() -> None:
    """PT p. 17 sidebar; R-11 ("Removed at its own step: it still acts"), K-6.

    2: Vampire Ana bites Vampire Bia while Bia attacks Priest Caio. Bia is killed
    twice over (bite and faith); Ana is credited (K-6); Caio lives.
    """
    res = play({"Ana": "vampire", "Bia": "vampire", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1))


def test_vampire_dies_at_step_2_on_priest_so_later_attack_on_it_is_forfeit() -> None:
    """PT "Sacerdote" ("resolvida no momento em que é eliminado"); R-13, R-31.

    2: Ana attacks Priest Bia and dies. 3: Werewolf Caio's attack on Ana is
    forfeit: 0 XP.
    """
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "werewolf", "Duda": "priest"},
               {"Ana": "Bia", "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 0))


def test_vampire_attacking_priest_is_killed() -> None:
    """PT "Vampiro — Painel" ("eliminado ao atacar um Sacerdote"); R-31."""
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "priest", "Duda": "zombie"},
               {"Ana": "Bia", "Duda": "Caio"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("killed", 0), Duda=("alive", 1))


def test_vampire_already_killed_does_not_die_again_on_priest() -> None:
    """PT "Sacerdote"; R-31 ("Vampire removed before step 2: no attack"), R-11, R-12.

    1+: the Angel kills Vampire Ana; 2: Ana does not attack, Priest Bia untouched.
    """
    res = play({"Ana": "vampire", "Bia": "priest", "Caio": "angel", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Bia", "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 1))


def test_vampire_kill_list_excludes_the_priest_and_the_devil() -> None:
    """PT "Vampiro" (kill list: Vampiro, Lobisomem, Zumbi, Caçador); R-30, R-21.

    2: Ana attacks the Devil (shown as Hunter): miss; nobody credited.
    """
    res = play({"Ana": "vampire", "Bia": "devil", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": {"shows": "hunter", "targets": ["Caio", "Duda"]}})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_werewolf_kills_priest_and_is_credited() -> None:
    """PT "Lobisomem" (kill list: Demônio, Vampiro, Lobisomem, Zumbi ou Sacerdote); R-32."""
    res = play({"Ana": "werewolf", "Bia": "priest", "Caio": "priest", "Duda": "devil"},
               {"Ana": "Bia", "Duda": {"shows": "priest"}})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("alive", 1))


def test_werewolf_kills_werewolf_and_is_credited() -> None:
    """PT "Lobisomem"; R-32, R-10: the two Werewolves act together at 3."""
    res = play({"Ana": "werewolf", "Bia": "werewolf", "Caio": "priest", "Duda": "priest"},
               {"Ana": "Bia", "Bia": "Caio"})
    check(res, Ana=("alive", 1), Bia=("killed", 0), Caio=("killed", 0))


def test_priest_survives_and_scores() -> None:
    """PT "Sacerdote" ("Sobreviver"); R-39: 1 XP if not withdrawn and not removed."""
    res = play({"Ana": "zombie", "Bia": "priest", "Caio": "devil", "Duda": "priest"},
               {"Ana": "Duda", "Caio": {"shows": "priest"}})
    check(res, Bia=("alive", 1), Duda=("killed", 0), Ana=("alive", 1), Caio=("alive", 0))


def test_priest_ignores_the_angel() -> None:
    """PT "Sacerdote avançado" (imune ao Vampiro e ao Anjo); R-39, R-40."""
    res = play({"Ana": "angel", "Bia": "priest", "Caio": "priest", "Duda": "mummy",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": "Bia", "Fred": {"kind": "angel"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1))


def test_hit_is_only_a_harmful_attack() -> None:
    """PT "Múmia — Resolução" ("um – e apenas um – ataque"); R-03.

    The Reporter's photo and the Creature's proposal do not hit: the Mummy
    photographed and proposed to is neither awakened nor killed, and scores 0
    (no hit at all).
    """
    res = play({"Ana": "reporter", "Bia": "mummy", "Caio": "creature/f", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Ana": ["Bia", "Duda"], "Caio": {"targets": ["Bia"], "seeks": "masculine"}})
    check(res, Bia=("alive", 0), Caio=("alive", 1), Ana=("alive", 1))
