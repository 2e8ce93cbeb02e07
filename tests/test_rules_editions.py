"""Basic and advanced editions of the main cast; card genders.

PT "Elenco especial e papéis avançados", "Vampiro e Lobisomem avançados",
"Caçador avançado", "Demônio avançado", "Papéis"; rulings R-15, R-90, K-9.
"""

from __future__ import annotations

import pytest

from darkcity import RoundError, adjudicate

from .helpers import check, play, rnd


def test_basic_vampire_killing_the_angel_scores() -> None:
    """R-15.2 ("a basic Vampire killing the Angel scores").

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "vampire/basic", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Bia", "Bia": "Enzo"})
    check(res, Ana=("alive", 1), Bia=("killed", 0))


def test_basic_hunter_killing_the_alien_scores() -> None:
    """R-15.2 ("a basic Hunter killing the Alien scores"), R-33.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "hunter", "Bia": "alien", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Enzo"], "Bia": {"kind": "mummy"}}, withdrawals={"Ana": [1]})
    check(res, Ana=("alive", 1), Bia=("killed", 0))


def test_basic_hunter_killing_the_reporter_earns_nothing() -> None:
    """R-15.1 ("any Hunter killing a Demoniac/Reporter/Voodooist loses its XP"), R-34.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "hunter", "Bia": "reporter", "Caio": "vampire", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": ["Bia", "Caio"], "Bia": ["Duda", "Enzo"], "Caio": "Enzo"})
    check(res, Ana=("alive", 0), Bia=("killed", 0), Caio=("killed", 0))


def test_basic_devil_is_killed_by_the_angel() -> None:
    """R-15.1 ("A basic Devil is killed by the Angel"), R-12.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "devil/basic", "Bia": "angel", "Caio": "priest", "Duda": "priest",
                "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"shows": "priest"}, "Bia": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1))


def test_basic_zombie_cannot_harm_the_necromancer() -> None:
    """R-15.1 ("no Zombie harms the Necromancer"), R-53.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "zombie/basic", "Bia": "necromancer", "Caio": "priest",
                "Duda": "priest", "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": "Bia"})
    check(res, Ana=("alive", 0), Bia=("alive", 0))


def test_basic_devil_disguised_as_reporter_scores_on_hunter_withdrawal() -> None:
    """R-15.2 ("a basic Devil disguised as the Reporter scores when the Hunter aiming at
    it withdraws"), R-25 W6.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "devil/basic", "Bia": "hunter", "Caio": "priest", "Duda": "priest",
                "Enzo": "reporter", "Fred": "mummy"},
               {"Ana": {"shows": "reporter", "targets": ["Caio", "Duda"]},
                "Bia": ["Ana", "Fred"], "Enzo": ["Caio", "Duda"]}, withdrawals={"Bia": True})
    check(res, Ana=("alive", 1), Bia=("withdrawn", 0))


def test_advanced_vampire_dies_on_the_priest_like_the_basic_one() -> None:
    """PT "Vampiro e Lobisomem avançados" ("As versões básica e avançada ... são
    idênticas"); R-15.1, R-31."""
    res = play({"Ana": "vampire/advanced", "Bia": "priest/advanced", "Caio": "priest",
                "Duda": "werewolf/advanced"},
               {"Ana": "Bia", "Duda": "Ana"})
    check(res, Ana=("killed", 0), Bia=("alive", 1), Duda=("alive", 0))


def test_advanced_main_cast_at_four_players_is_fine() -> None:
    """K-9 ("Advanced main-cast cards may be used at any table size (4–8)"), R-93.

    PT "Elenco especial e papéis avançados".
    """
    res = play({"Ana": "vampire/advanced", "Bia": "hunter/advanced", "Caio": "devil/advanced",
                "Duda": "priest/advanced"},
               {"Ana": "Bia", "Bia": ["Caio", "Caio"], "Caio": {"shows": "priest"}})
    check(res, Ana=("alive", 1), Bia=("killed", 0))


def test_only_the_advanced_hunter_may_aim_both_arrows_at_one_player() -> None:
    """PT "Caçador avançado" ("agora é capaz de apontar seus dois ataques para um mesmo
    alvo"); R-15.3, R-38."""
    doc = rnd({"Ana": "hunter/basic", "Bia": "zombie", "Caio": "priest", "Duda": "priest"},
              {"Ana": ["Bia", "Bia"], "Bia": "Caio"})
    with pytest.raises(RoundError) as e:
        adjudicate(doc)
    assert e.value.field == "gestures.Ana.targets"
    assert e.value.player == "Ana"


def test_two_cards_of_one_role_and_edition_never_share_a_gender() -> None:
    """PT "Papéis" (gender identity of the card); R-90, J-6."""
    doc = rnd({"Ana": "vampire/f", "Bia": "vampire/f", "Caio": "priest", "Duda": "priest"},
              {"Ana": "Caio", "Bia": "Duda"})
    with pytest.raises(RoundError) as e:
        adjudicate(doc)
    assert e.value.field == "cards.Bia.gender"
    assert e.value.player == "Bia"


def test_two_cards_of_one_role_in_different_editions_may_share_a_gender() -> None:
    """R-90 (one card of each gender per role *per edition*; mixing is guidance), J-6.

    PT "Papéis".
    """
    res = play({"Ana": "vampire/basic/f", "Bia": "vampire/advanced/f", "Caio": "priest",
                "Duda": "zombie"},
               {"Ana": "Duda", "Bia": "Duda", "Duda": "Caio"})
    check(res, Ana=("alive", 1), Bia=("alive", 1), Duda=("killed", 0))


def test_the_players_own_gender_never_matters_only_the_cards() -> None:
    """PT "Criatura" ("não é a do jogador, e sim a do papel"); R-90, R-65: an
    advanced masculine Werewolf card is married by a Creature seeking masculine."""
    res = play({"Ana": "creature/f", "Bia": "werewolf/advanced/m", "Caio": "priest",
                "Duda": "priest", "Enzo": "mummy", "Fred": "demoniac"},
               {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Enzo"})
    check(res, Ana=("alive", 1))
