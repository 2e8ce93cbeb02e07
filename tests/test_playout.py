"""Random-playout conformance: whole games with random legal decisions over every
preset and table size. No exception, every game ends, every night is valid
(``validate``), every record replays identically through the checked path
(``Game.do``), the same seed gives the same record, and no view leaks.

``DARKCITY_PLAYOUT_GAMES`` sets the number of games (default 1000), played in ten
blocks: the first in the fast tier, the other nine marked ``slow`` (the whole run
plays them all, each block on whichever worker is free).
"""

from __future__ import annotations

import json
import os
import random
import time

import pytest

from darkcity.decisions import Phase
from darkcity.deck import Deck
from darkcity.game import Game
from darkcity.night import Fate
from darkcity.record import replay, write_record
from darkcity.settings import Settings, bot_rng
from darkcity.validation import validate

from .test_game import CASES, NAMES, new_game
from .test_views import check_no_leak

GAMES = int(os.environ.get("DARKCITY_PLAYOUT_GAMES", "1000"))
BLOCKS = 10
MAX_NIGHTS = 400


def _play(game: Game, rng: random.Random) -> None:
    """Random legal decisions, checking the decision points' invariants."""
    while not game.over:
        assert game.night <= MAX_NIGHTS, "the game does not end"
        dp = game.decision_point()
        assert dp.pending and set(dp.pending) <= set(dp.required)
        if dp.phase is Phase.DRAFT:
            assert len(dp.pending) == 1
        elif dp.phase in (Phase.GESTURE, Phase.WITHDRAWAL):
            assert game.death not in dp.required
            assert len(dp.required) == len(game.players) - (game.death is not None)
        elif dp.phase is Phase.ZOMBIE:
            assert game.early is not None
            for p in dp.pending:
                assert game.cards[p].role.key == "zombie"
                assert game.early.fates[game.players.index(p)] is Fate.ALIVE
        for p in game.pending:
            choices = game.legal(p)
            assert choices, (dp, p)
            game.apply(choices[rng.randrange(len(choices))])


@pytest.mark.parametrize("block", [0, *(pytest.param(b, marks=pytest.mark.slow)
                                         for b in range(1, BLOCKS))])
def test_random_playouts_conform(block: int) -> None:
    started = time.perf_counter()
    nights = 0
    winners = 0
    size = -(-GAMES // BLOCKS)
    games = range(block * size, min(GAMES, (block + 1) * size))
    for i in games:
        deck, n = CASES[i % len(CASES)]
        seed = f"playout-{i}"
        game = Game(Settings(players=NAMES[:n], deck=_deck(deck, n),
                             mayor=NAMES[i % n]), seed)
        _play(game, bot_rng(seed))
        assert game.over and game.winners
        nights += len(game.nights)
        winners += len(game.winners)
        for rec in game.nights:
            validate(rec.night)
            assert set(rec.night.cards.values()) <= set(game.settings.deck.cards)
        doc = write_record(game)
        if i % 10 == 0:  # the record is plain JSON
            doc = json.loads(json.dumps(doc))
        result = replay(doc)
        assert result.ok, (deck, n, seed, result.divergence)
        if i % 25 == 0:
            for viewer in [None, *game.players]:
                check_no_leak(game, viewer)
    elapsed = time.perf_counter() - started
    assert nights >= len(games) and winners >= len(games)
    print(f"{len(games)} games, {nights} nights in {elapsed:.1f} s")


def test_same_seed_same_record() -> None:
    for i in range(0, len(CASES), 3):
        deck, n = CASES[i]
        docs = []
        for _ in range(2):
            g = new_game(deck, n, f"twice-{i}")
            _play(g, bot_rng(f"twice-{i}"))
            docs.append(json.dumps(write_record(g)))
        assert docs[0] == docs[1]


def _deck(name: str, n: int) -> Deck:
    from darkcity.deck import preset

    return preset(name, n)
