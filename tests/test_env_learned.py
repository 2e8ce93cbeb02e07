"""The learned bot (issue #54): a small policy shipped as NumPy weights, played from its
own view, always legally; torch is not needed to play it."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from darkcity.bots import make_bot, play_game
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings


def test_the_shipped_policy_is_small_and_plays_legal_games() -> None:
    from importlib import resources

    from darkcity.env.learned import DATA, LearnedBot, load_policy

    size = resources.files("darkcity.env").joinpath("data", DATA).read_bytes()
    assert len(size) < 400_000  # a few hundred KB at most
    pol = load_policy()
    assert pol.players == 6 and pol.history >= 1
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")
    for seed in (1, 2):
        game = Game(Settings(players=names, deck=preset("basic", 6)), seed)
        bots = {p: (LearnedBot(random.Random(p)) if p in ("Ana", "Duda")
                    else make_bot("heuristic", random.Random(p))) for p in names}
        play_game(game, bots)  # check=True: an illegal decision would raise
        assert game.over


def test_the_learned_bot_refuses_a_table_it_was_not_trained_for() -> None:
    from darkcity.env.learned import LearnedBot

    names = ("Ana", "Bia", "Caio", "Duda")
    game = Game(Settings(players=names, deck=preset("basic", 4)), 1)
    bots = {p: LearnedBot(random.Random(p)) for p in names}
    with pytest.raises(ValueError, match="plays 6 seats, not 4"):
        play_game(game, bots)
