"""Special cast (6+ players): Angel, Alien, Necromancer, Creature, Mummy, Demoniac,
Reporter, Voodooist.

PT "Elenco especial" and each role's section; rulings R-40 .. R-75, R-14, K-1, K-4.
Every table has 6 players (R-93). Hand derivations in the docstrings.
"""

from __future__ import annotations

from .helpers import check, outcome, play

# ---------------------------------------------------------------- Angel R-40..R-43


def test_angel_exorcism_mark_stays_when_the_demoniac_dies_later() -> None:
    """PT "Anjo"/"Possuída"; R-41 ("mark exorcised, kept even if she dies later"), R-67.

    1+: Angel Ana exorcises Bia (Angel's extra goal). 2: Vampire Caio kills Bia
    (credited). Bia: killed after exorcism, 0 XP.
    """
    res = play({"Ana": "angel", "Bia": "demoniac", "Caio": "vampire", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Bia", "Caio": "Bia"})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"exorcised"}), Caio=("alive", 1))


def test_angel_exorcising_a_withdrawn_demoniac_does_nothing() -> None:
    """PT "Anjo" goal ("um jogador não desistente representando esse papel"); R-41, R-43."""
    res = play({"Ana": "angel", "Bia": "demoniac", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "voodooist"},
               {"Ana": "Bia", "Fred": {"kind": "voodooist"}}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 0), Bia=("withdrawn", 0))


def test_angel_kill_stands_when_the_angel_is_killed_later() -> None:
    """R-42 ("Yes. Its own XP needs it to survive").

    1+: Angel Ana kills Vampire Bia. 3: Werewolf Caio kills Ana (credited).

    PT "Anjo".
    """
    res = play({"Ana": "angel", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Bia", "Bia": "Caio", "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("killed", 0), Caio=("alive", 1))


def test_angel_first_hit_on_a_mummy_is_not_a_kill() -> None:
    """PT "Anjo" ("Sobreviver e eliminar um monstro"); R-43, R-06, R-66: the Mummy
    awakens (1 XP), the Angel scores nothing."""
    res = play({"Ana": "angel", "Bia": "mummy", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": "Bia", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1, {"awakened"}))


def test_only_vampire_werewolf_zombie_can_kill_the_angel() -> None:
    """PT "Anjo" ("imune aos poderes do Necromante e do Alienígena"); R-40.

    Hunter Bia's arrow and the Alien naming `angel` do nothing to Angel Ana.
    """
    res = play({"Ana": "angel", "Bia": "hunter", "Caio": "alien", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Fred", "Bia": ["Ana", "Duda"], "Caio": {"kind": "angel"}},
               withdrawals={"Bia": [1]})
    check(res, Ana=("alive", 0, ()), Bia=("alive", 0), Caio=("alive", 0),
          Fred=("alive", 1, {"awakened"}))


# ---------------------------------------------------------------- Alien R-44..R-47


def test_alien_abducts_two_vampires_for_two_xp() -> None:
    """PT "Alienígena" ("recebe 1 XP para cada espécime eliminado por abdução ... até 2
    XP"); R-47, R-45."""
    res = play({"Ana": "alien", "Bia": "vampire/f", "Caio": "vampire/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"kind": "vampire"}, "Bia": "Fred", "Caio": "Fred"})
    check(res, Ana=("alive", 2), Bia=("abducted", 0), Caio=("abducted", 0),
          Fred=("killed", 0, {"awakened"}))


def test_alien_naming_a_role_nobody_plays_takes_nobody() -> None:
    """R-44 ("a role nobody plays, is legal and takes nobody").

    PT "Alienígena".
    """
    res = play({"Ana": "alien", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "werewolf"}, "Bia": "Enzo"})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_alien_does_not_take_withdrawn_or_dead_specimens() -> None:
    """PT "Alienígena — Resolução" ("no momento em que for chamado ... não desistente
    ... ainda vivo"); R-45.

    Priest Caio fled; Priest Duda is killed by Werewolf Bia at 3. 6: no Priest in
    play: nobody taken, 0 XP.
    """
    res = play({"Ana": "alien", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "priest"}, "Bia": "Duda"}, withdrawals={"Caio": True})
    check(res, Ana=("alive", 0), Caio=("withdrawn", 0), Duda=("killed", 0))


def test_alien_awakens_a_sleeping_mummy_instead_of_taking_it() -> None:
    """R-46, K-4 ("it awakens a sleeping Mummy and wounds an unwounded Creature").

    PT "Criatura", "Múmia — Painel".
    """
    res = play({"Ana": "alien", "Bia": "mummy", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": {"kind": "mummy"}, "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1, {"awakened"}))


def test_alien_abducts_an_already_awakened_mummy_and_scores() -> None:
    """R-46 ("an awakened Mummy ... is abducted (and counts for XP)"), R-14.

    PT "Criatura", "Múmia — Painel".
    """
    res = play({"Ana": "alien", "Bia": "mummy", "Caio": "vampire", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": {"kind": "mummy"}, "Caio": "Bia", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 1), Bia=("abducted", 0, {"awakened"}), Caio=("alive", 0))


def test_alien_naming_creature_wounds_both_creatures() -> None:
    """R-64 ("an Alien naming creature hits both"), R-46: two wounds, no XP.

    PT "Criatura".
    """
    res = play({"Ana": "alien", "Bia": "creature/f", "Caio": "creature/m", "Duda": "priest/f",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"kind": "creature"}, "Bia": {"targets": ["Ana"], "seeks": "feminine"},
                "Caio": {"targets": ["Duda"], "seeks": "masculine"}})
    check(res, Ana=("alive", 0), Bia=("alive", 0, {"wounded"}),
          Caio=("alive", 0, {"wounded"}))


def test_alien_killed_before_acting_abducts_nobody() -> None:
    """R-47, R-11: 3: Werewolf Bia kills the Alien; 6: no abduction.

    PT "Alienígena".
    """
    res = play({"Ana": "alien", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "priest"}, "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Caio=("alive", 1), Duda=("alive", 1))


def test_reporter_aiming_at_the_alien_is_not_abducted() -> None:
    """R-45 ("Immune: ... a Reporter aiming at the Alien"), R-71.

    PT "Alienígena — Resolução".
    """
    res = play({"Ana": "alien", "Bia": "reporter", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "reporter"}, "Bia": ["Ana", "Caio"]})
    # Bia's photo of the Alien (a living monster) counts.
    check(res, Ana=("alive", 0), Bia=("alive", 1))


def test_voodooist_naming_alien_is_not_abducted() -> None:
    """R-45, R-74 ("Every attack on her by a player whose real role is that kind fails").

    PT "Alienígena — Resolução".
    """
    res = play({"Ana": "alien", "Bia": "voodooist", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "voodooist"}, "Bia": {"kind": "alien"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1))


# ---------------------------------------------------------------- Necromancer R-56..R-58


def test_necromancer_raises_priest_victim_and_reflex_victim() -> None:
    """PT "Necromante" ("um alvo que ... já tenha sido eliminado por alguém"); R-56
    (any cause: faith, reflex).

    Seats: Bia | Ana (Necromancer) | Caio. 2: Vampire Bia attacks Priest Enzo and
    dies. 3: Werewolf Caio attacks Hunter Duda. 5: reflex kills Caio. 7: Ana raises
    both neighbours: 1 XP.
    """
    res = play({"Bia": "vampire", "Ana": "necromancer", "Caio": "werewolf", "Duda": "hunter",
                "Enzo": "priest", "Fred": "mummy"},
               {"Bia": "Enzo", "Caio": "Duda", "Duda": ["Fred", "Enzo"]},
               withdrawals={"Duda": [1]})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"undead"}),
          Caio=("killed", 0, {"undead"}), Duda=("alive", 1))


def test_necromancer_raises_cannibal_zombie() -> None:
    """R-56 ("by any cause (... cannibalism)"), R-52.

    PT "Necromante".
    """
    res = play({"Ana": "necromancer", "Bia": "zombie/f", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Bia": "Caio", "Caio": "Duda"})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"undead"}), Caio=("killed", 0),
          Duda=("killed", 0))


def test_necromancer_cannot_raise_the_abducted() -> None:
    """PT "Necromante" ("mas não condenado ... nem abduzido"); R-56, R-04."""
    res = play({"Ana": "necromancer", "Bia": "priest", "Caio": "alien", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Caio": {"kind": "priest"}})
    check(res, Ana=("alive", 0), Bia=("abducted", 0), Caio=("alive", 2))


def test_necromancer_cannot_raise_the_damned() -> None:
    """PT "Necromante" ("não condenado ao Inferno"); R-56, R-23."""
    res = play({"Ana": "necromancer", "Bia": "demoniac", "Caio": "devil", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Caio": {"shows": "vampire", "targets": ["Bia"]}})
    check(res, Ana=("alive", 0), Bia=("damned", 0))


def test_necromancer_cannot_raise_a_living_awakened_mummy() -> None:
    """PT "Múmia" ("Enquanto estiver desperta, a Múmia não poderá ser controlada"); R-56."""
    res = play({"Ana": "necromancer", "Bia": "mummy", "Caio": "vampire", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("alive", 1, {"awakened"}))


def test_dead_necromancer_raises_nobody() -> None:
    """R-56 ("A dead Necromancer raises nobody"), R-11.

    PT "Necromante".
    """
    res = play({"Ana": "necromancer", "Bia": "priest", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "vampire", "Fred": "mummy"},
               {"Caio": "Bia", "Enzo": "Ana"})
    check(res, Ana=("killed", 0), Bia=("killed", 0), Caio=("alive", 1), Enzo=("alive", 1))


def test_voodooist_naming_necromancer_resists_the_raising() -> None:
    """R-56 ("Immune: a Voodooist naming necromancer"), R-74.

    PT "Necromante".
    """
    res = play({"Ana": "necromancer", "Bia": "voodooist", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Bia": {"kind": "necromancer"}, "Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("alive", 1))


def test_reporter_aiming_at_necromancer_resists_the_raising() -> None:
    """R-56 ("Immune: ... a Reporter aiming at the Necromancer"), R-71.

    PT "Necromante".
    """
    res = play({"Ana": "necromancer", "Bia": "reporter", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Bia": ["Ana", "Duda"], "Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("alive", 1))


def test_raised_demoniac_still_scores() -> None:
    """R-57 ("killed by a monster and raised, she still scores"), R-67, R-04.

    PT "Morte", "Repórter".
    """
    res = play({"Ana": "necromancer", "Bia": "demoniac", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Caio": "Bia"})
    check(res, Ana=("alive", 1), Bia=("killed", 1, {"undead"}), Caio=("alive", 1))


def test_necromancer_killed_by_vampire() -> None:
    """PT "Necromante"; R-58 ("Vampire, Werewolf, Hunter, Angel, Alien can")."""
    res = play({"Ana": "necromancer", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


# ---------------------------------------------------------------- Creature R-60..R-65


def test_creature_second_hit_at_a_later_step_kills_it_with_credit() -> None:
    """PT "Criatura" ("só será eliminada se e quando sofrer um segundo ataque"); R-60, R-14.

    2: Vampire Bia wounds Creature Ana. 3: Werewolf Caio's hit kills her: credited.
    """
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "werewolf", "Duda": "priest/m",
                "Enzo": "priest/f", "Fred": "mummy"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Ana",
                "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 0), Caio=("alive", 1))


def test_creature_two_hits_in_one_step_kill_without_credit() -> None:
    """R-14 ("Two hits on an intact Mummy/Creature in one step kill it without credit").

    PT p. 17 sidebar; "Caçador avançado".
    """
    res = play({"Ana": "creature/f", "Bia": "vampire/f", "Caio": "vampire/m",
                "Duda": "priest", "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Ana",
                "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 0), Caio=("alive", 0))


def test_wounded_creature_marries_and_scores() -> None:
    """PT "Criatura — Resolução"; R-60 ("wounded is fine"), R-61.

    2: Vampire Bia wounds Creature Ana. 8: Ana proposes to her neighbour Fred, the
    Demoniac (feminine card): married, 1 XP, marked wounded.
    """
    res = play({"Ana": "creature/m", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Fred"], "seeks": "feminine"}, "Bia": "Ana"})
    check(res, Ana=("alive", 1, {"wounded"}), Fred=("alive", 0))


def test_creature_marriage_needs_the_sought_gender_of_the_card() -> None:
    """PT "Criatura" ("A identidade de gênero que conta ... não é a do jogador, e sim a
    do papel"); R-61, R-65."""
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "feminine"}, "Bia": "Enzo"})
    check(res, Ana=("alive", 0))
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Enzo"})
    check(res, Ana=("alive", 1), Bia=("alive", 0))


def test_creature_cannot_marry_a_target_killed_before_the_end() -> None:
    """PT "Criatura — Resolução" ("tenha chegado vivo ao fim da sequência de
    iniciativa"); R-61."""
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Enzo",
                "Caio": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("alive", 1))


def test_creature_cannot_marry_a_raised_servant() -> None:
    """R-61 ("killed, raised, damned, abducted: no").

    PT "Criatura — Resolução".
    """
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "necromancer",
                "Duda": "werewolf", "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Enzo",
                "Duda": "Bia"})
    check(res, Ana=("alive", 0), Bia=("killed", 0, {"undead"}), Caio=("alive", 1))


def test_reporter_aiming_at_the_creature_ignores_its_proposal() -> None:
    """PT "Repórter" ("imune aos ataques de seus próprios alvos"); R-62, K-1."""
    res = play({"Ana": "creature/f", "Bia": "reporter", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": ["Ana", "Caio"]})
    check(res, Ana=("alive", 0), Bia=("alive", 1))


def test_reporter_not_aiming_at_the_creature_marries_it() -> None:
    """R-62 (only a Reporter aiming at *that* Creature is immune), R-65 (masculine card).

    PT "Criatura — Painel".
    """
    res = play({"Ana": "creature/f", "Bia": "reporter", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": ["Enzo", "Caio"]})
    check(res, Ana=("alive", 1), Bia=("alive", 1))


def test_voodooist_naming_creature_ignores_its_proposal() -> None:
    """PT "Voduísta" ("imune ao ataque do alvo escolhido por ela"); R-62, K-1."""
    res = play({"Ana": "creature/m", "Bia": "voodooist", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "feminine"}, "Bia": {"kind": "creature"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1))


def test_two_creatures_marry_each_other() -> None:
    """PT "Criatura" ("as duas cartas ... entrarão na partida"); R-64."""
    res = play({"Ana": "creature/f", "Bia": "creature/m", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"},
                "Bia": {"targets": ["Ana"], "seeks": "feminine"}})
    check(res, Ana=("alive", 1), Bia=("alive", 1))


def test_creature_proposal_to_a_damned_demoniac_fails() -> None:
    """R-61 ("damned ...: no"), R-23.

    PT "Criatura — Resolução".
    """
    res = play({"Ana": "creature/m", "Bia": "demoniac", "Caio": "devil", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"targets": ["Bia"], "seeks": "feminine"},
                "Caio": {"shows": "vampire", "targets": ["Bia"]}})
    check(res, Ana=("alive", 0), Bia=("damned", 0))


# ---------------------------------------------------------------- Mummy


def test_mummy_awakened_by_one_hit_scores() -> None:
    """PT "Múmia" ("tiver recebido um – e apenas um – ataque"); R-66."""
    res = play({"Ana": "mummy", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Bia": "Ana", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 1, {"awakened"}), Bia=("alive", 0))


def test_sleeping_mummy_scores_nothing() -> None:
    """PT "Múmia" (needs one hit); R-66."""
    res = play({"Ana": "mummy", "Bia": "priest", "Caio": "priest", "Duda": "demoniac",
                "Enzo": "zombie", "Fred": "voodooist"},
               {"Enzo": "Duda", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 0))


def test_mummy_killed_by_second_hit_keeps_awakened_mark() -> None:
    """PT "Múmia" ("se sofrer um novo ataque depois de despertar ... eliminada"); R-66,
    J-5 (awakened stays), R-14 (credit to the second step's attacker)."""
    res = play({"Ana": "mummy", "Bia": "vampire", "Caio": "zombie", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Bia": "Ana", "Caio": "Bia"}, zombie_targets={"Caio": "Duda"})
    check(res, Ana=("alive", 1, {"awakened"}), Caio=("alive", 1), Duda=("killed", 0))
    res = play({"Ana": "mummy", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Bia": "Ana", "Caio": "Ana"})
    check(res, Ana=("killed", 0, {"awakened"}), Bia=("alive", 0), Caio=("alive", 1))


def test_two_vampires_kill_an_intact_mummy_without_credit() -> None:
    """R-14 ("Two hits on an intact Mummy ... kill it without credit").

    PT p. 17 sidebar; "Caçador avançado".
    """
    res = play({"Ana": "mummy", "Bia": "vampire/f", "Caio": "vampire/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "demoniac"},
               {"Bia": "Ana", "Caio": "Ana"})
    check(res, Ana=("killed", 0, {"awakened"}), Bia=("alive", 0), Caio=("alive", 0))


def test_withdrawn_mummy_scores_nothing() -> None:
    """R-66 ("1 XP if exactly one hit and not withdrawn"), R-07.

    PT "Múmia".
    """
    res = play({"Ana": "mummy", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Bia": "Ana", "Fred": {"kind": "voodooist"}}, withdrawals={"Ana": True})
    check(res, Ana=("withdrawn", 0), Bia=("alive", 0))


# ---------------------------------------------------------------- Demoniac


def test_demoniac_killed_by_a_monster_scores() -> None:
    """PT "Possuída — Resolução" ("tiver sido eliminada por ataques de monstros ou
    Caçadores"); R-67, R-68."""
    res = play({"Ana": "demoniac", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "voodooist"},
               {"Bia": "Ana", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("killed", 1), Bia=("alive", 1))


def test_demoniac_killed_by_hunter_scores_and_hunter_does_not() -> None:
    """R-68 ("a Hunter (penalised, R-34)"), R-34.

    PT "Possuída — Resolução".
    """
    res = play({"Ana": "demoniac", "Bia": "hunter", "Caio": "vampire", "Duda": "priest",
                "Enzo": "mummy", "Fred": "voodooist"},
               {"Bia": ["Ana", "Caio"], "Caio": "Enzo", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("killed", 1), Bia=("alive", 0), Caio=("killed", 0))


def test_demoniac_abducted_scores() -> None:
    """R-67 ("killed or abducted"), R-04, R-68.

    PT "Possuída — Resolução".
    """
    res = play({"Ana": "demoniac", "Bia": "alien", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "voodooist"},
               {"Bia": {"kind": "demoniac"}, "Fred": {"kind": "voodooist"}})
    check(res, Ana=("abducted", 1), Bia=("alive", 1))


def test_demoniac_alive_and_not_exorcised_scores_nothing() -> None:
    """R-67 (core needs her death; extra needs the exorcism).

    PT "Possuída — Resolução".
    """
    res = play({"Ana": "demoniac", "Bia": "priest", "Caio": "priest", "Duda": "mummy",
                "Enzo": "vampire", "Fred": "voodooist"},
               {"Enzo": "Duda", "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 0))


def test_withdrawn_demoniac_scores_nothing() -> None:
    """R-67 ("1 XP if not withdrawn"), R-07.

    PT "Possuída — Resolução".
    """
    res = play({"Ana": "demoniac", "Bia": "priest", "Caio": "priest", "Duda": "mummy",
                "Enzo": "vampire", "Fred": "voodooist"},
               {"Enzo": "Ana", "Fred": {"kind": "voodooist"}}, withdrawals={"Ana": True})
    check(res, Ana=("withdrawn", 0), Enzo=("alive", 0))


# ---------------------------------------------------------------- Reporter R-70..R-72


def test_reporter_photo_of_a_living_monster_scores() -> None:
    """PT "Repórter" ("um monstro ainda vivo (exceto o Demônio)"); R-70."""
    res = play({"Ana": "reporter", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": "Fred"})
    check(res, Ana=("alive", 1), Bia=("alive", 1), Fred=("killed", 1))


def test_reporter_photo_of_a_monster_that_dies_is_worthless() -> None:
    """PT "Repórter" ("muito menos com a foto do cadáver ... de um monstro eliminado"); R-70.

    2: Vampire Bia attacks Priest Caio and dies. End: photos of a corpse and of a
    guardian: 0.
    """
    res = play({"Ana": "reporter", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": "Caio"})
    check(res, Ana=("alive", 0), Bia=("killed", 0))


def test_reporter_photo_of_an_undead_servant_scores() -> None:
    """PT "Repórter" ("ou um servo morto-vivo do Necromante"); R-70, R-57 (even a former
    guardian)."""
    res = play({"Ana": "reporter", "Bia": "priest", "Caio": "necromancer", "Duda": "werewolf",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": ["Bia", "Enzo"], "Duda": "Bia"})
    check(res, Ana=("alive", 1), Bia=("killed", 0, {"undead"}), Caio=("alive", 1))


def test_reporter_photo_of_a_withdrawn_monster_is_worthless() -> None:
    """R-70 ("if its subject did not withdraw").

    PT "Repórter".
    """
    res = play({"Ana": "reporter", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": "Fred"}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 0), Bia=("withdrawn", 0))


def test_reporter_photo_of_a_sleeping_mummy_counts() -> None:
    """R-70 ("sleeping/awakened Mummy and wounded Creature included").

    PT "Repórter".
    """
    res = play({"Ana": "reporter", "Bia": "mummy", "Caio": "priest", "Duda": "priest",
                "Enzo": "demoniac", "Fred": "voodooist"},
               {"Ana": ["Bia", "Caio"], "Fred": {"kind": "voodooist"}})
    check(res, Ana=("alive", 1), Bia=("alive", 0))


def test_reporter_photo_of_the_devil_never_counts() -> None:
    """PT "Repórter" ("Nem o Repórter nem sua leal câmera ... enxergam o verdadeiro
    Demônio"); R-72, R-08."""
    res = play({"Ana": "reporter", "Bia": "devil", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": {"shows": "vampire", "targets": ["Caio"]}})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_reporter_is_immune_to_his_own_targets() -> None:
    """PT "Repórter" ("imune aos ataques de seus próprios alvos"); R-71.

    2: Vampire Bia (photographed) attacks Ana: the flash stops her: no kill, no
    credit. End: the photo of the living Vampire counts.
    """
    res = play({"Ana": "reporter", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": "Ana"})
    check(res, Ana=("alive", 1), Bia=("alive", 0))


def test_reporter_is_killed_by_a_monster_he_does_not_photograph() -> None:
    """R-71 ("Others kill him normally"), R-30.

    PT "Repórter".
    """
    res = play({"Ana": "reporter", "Bia": "vampire", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Duda"], "Bia": "Enzo", "Caio": "Ana"})
    check(res, Ana=("killed", 0), Caio=("alive", 1))


def test_hunter_arrows_at_reporter_who_photographs_him_fail_without_penalty() -> None:
    """R-71 ("both Hunter arrows ... Failed attacks give no credit and no Hunter penalty"),
    R-34.

    PT "Repórter".
    """
    res = play({"Ana": "reporter", "Bia": "hunter", "Caio": "vampire", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Duda"], "Bia": ["Ana", "Caio"], "Caio": "Enzo"})
    # 2: Caio awakens Enzo. 5: arrow at Ana fails (flash); Caio killed: Bia 1 XP.
    check(res, Ana=("alive", 0), Bia=("alive", 1), Caio=("killed", 0))


# ---------------------------------------------------------------- Voodooist


def test_voodooist_doll_stops_the_named_kind() -> None:
    """PT "Voduísta" ("imune ao ataque do alvo escolhido por ela"); R-74: the attacker is
    not harmed, gets no credit."""
    res = play({"Ana": "voodooist", "Bia": "werewolf", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "werewolf"}, "Bia": "Ana"})
    check(res, Ana=("alive", 1), Bia=("alive", 0))


def test_voodooist_doll_does_not_stop_another_kind() -> None:
    """R-74 (only the named kind), R-30.

    PT "Voduísta".
    """
    res = play({"Ana": "voodooist", "Bia": "vampire", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "werewolf"}, "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


def test_voodooist_naming_hunter_stops_arrow_without_penalty() -> None:
    """R-74 ("kill, both arrows ...; no credit, no penalty"), R-34.

    PT "Voduísta".
    """
    res = play({"Ana": "voodooist", "Bia": "hunter", "Caio": "zombie", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "hunter"}, "Bia": ["Ana", "Caio"], "Caio": "Duda"})
    check(res, Ana=("alive", 1), Bia=("alive", 1), Caio=("killed", 0))


def test_voodooist_doll_does_not_stop_a_devil_disguised_as_the_kind() -> None:
    """PT "Voduísta" ("As artes enganadoras do Demônio iludem até mesmo a Voduísta");
    R-75, R-08: the Devil's illusion harms nobody anyway; the real Werewolf's attack
    is what counts, and it is not stopped by a doll naming the Vampire."""
    res = play({"Ana": "voodooist", "Bia": "devil", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "vampire"}, "Bia": {"shows": "vampire", "targets": ["Ana"]},
                "Caio": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 0), Caio=("alive", 1))


def test_voodooist_naming_devil_changes_nothing() -> None:
    """R-75 ("No effect either way").

    PT "Voduísta".
    """
    res = play({"Ana": "voodooist", "Bia": "devil", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "devil"}, "Bia": {"shows": "vampire", "targets": ["Ana"]}})
    check(res, Ana=("alive", 1), Bia=("alive", 0))


def test_wounded_creature_mark_only_when_alive_with_one_hit() -> None:
    """J-5 ("wounded is given only to a Creature alive with exactly one hit"), R-60.

    PT "Múmia", "Criatura".
    """
    res = play({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "werewolf", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Ana",
                "Caio": "Ana"})
    assert outcome(res, "Ana")[:2] == ("killed", frozenset())


def test_angel_wound_then_vampire_kills_creature_with_credit() -> None:
    """R-14 ("credit goes only to attackers of a step that began with the target already
    ... wounded"), R-40 (the Angel's hit), R-30 ("the Creature already wounded").

    1+: the Angel wounds Creature Caio (no credit). 2: Vampire Bia kills her, credited.

    PT p. 17 sidebar; "Caçador avançado".
    """
    res = play({"Ana": "angel", "Bia": "vampire", "Caio": "creature/f", "Duda": "priest/m",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Caio", "Bia": "Caio", "Caio": {"targets": ["Duda"],
                                                      "seeks": "masculine"}})
    check(res, Ana=("alive", 0), Bia=("alive", 1), Caio=("killed", 0))


def test_creature_may_marry_a_hunter_who_withdrew_one_arrow() -> None:
    """K-8 (a Hunter with one arrow withdrawn is "a possible bride"), R-63, R-61.

    PT "Fase 3" box.
    """
    res = play({"Ana": "creature/f", "Bia": "hunter/m", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": ["Enzo", "Caio"]},
               withdrawals={"Bia": [1]})
    check(res, Ana=("alive", 1), Bia=("alive", 0), Enzo=("alive", 1, {"awakened"}))


def test_alien_finds_no_zombies_after_the_cannibals_ate_each_other() -> None:
    """R-45 (specimens removed at 1+…5 are not taken), R-52.

    PT "Alienígena — Resolução".
    """
    res = play({"Ana": "alien", "Bia": "zombie/f", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"kind": "zombie"}, "Bia": "Ana", "Caio": "Duda"})
    # 4: Bia kills the Alien? Bia's right neighbour is Ana: yes, Ana (Alien) is killed.
    check(res, Ana=("killed", 0), Bia=("killed", 0), Caio=("killed", 0), Duda=("killed", 0))
    res = play({"Ana": "alien", "Bia": "zombie/f", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": {"kind": "zombie"}, "Bia": "Caio", "Caio": "Duda"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("killed", 0))


def test_voodooist_doll_stops_a_zombie_that_switches_onto_her() -> None:
    """R-74 (every attack by the named kind fails), R-51 (the switch at step 4).

    PT "Voduísta".
    """
    res = play({"Ana": "voodooist", "Bia": "zombie", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"kind": "zombie"}, "Bia": "Caio"}, zombie_targets={"Bia": "Ana"})
    check(res, Ana=("alive", 1), Bia=("alive", 0), Caio=("alive", 1))


def test_necromancer_raises_a_cannibal_zombie() -> None:
    """R-56 (cannibalism is a kill; both neighbours are looked at), R-58, R-52, R-53.

    PT "Necromante".
    """
    res = play({"Ana": "zombie/f", "Bia": "necromancer", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Fred", "Caio": "Duda"})
    # Ana and Caio are not neighbours (Bia sits between): no cannibal rule. Ana's hit
    # only awakens the Mummy (no kill); Caio kills Priest Duda.
    check(res, Ana=("alive", 0), Caio=("alive", 1), Bia=("alive", 0),
          Fred=("alive", 1, {"awakened"}), Duda=("killed", 0))
    res = play({"Bia": "necromancer", "Ana": "zombie/f", "Caio": "zombie/m", "Duda": "priest",
                "Enzo": "priest", "Fred": "mummy"},
               {"Ana": "Bia", "Caio": "Duda"})
    # Seats Bia | Ana | Caio: the Zombies are neighbours and both die at 4; Ana's attack
    # on the Necromancer does nothing. 7: Bia's neighbours are Fred and Ana: Ana raised.
    check(res, Bia=("alive", 1), Ana=("killed", 0, {"undead"}), Caio=("killed", 0),
          Duda=("killed", 0))
