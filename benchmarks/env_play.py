"""The random play both environment benchmarks time: the engine alone, and the same
kind of random agent through the AEC and the Parallel environments
(``bench_bots.py --only env`` times them, ``env_instructions.py`` counts their
instructions). The engine plays the deals the environments get
(:meth:`darkcity.env.table.Table.reset`), so the ratios compare like with like;
the agents draw as ``play_randomly`` does (not with numpy's slower draw)."""

from __future__ import annotations

import random

import numpy as np

from darkcity.deck import preset
from darkcity.env import darkcity_v1
from darkcity.env.table import NAMES
from darkcity.game import Game, play_randomly
from darkcity.settings import Settings


def deal(g: int) -> int:
    """The seed of the game ``reset(seed=g)`` deals."""
    return random.Random(f"darkcity:env:{g}").getrandbits(63)


def engine_games(games: int, players: int = 6) -> int:
    """``games`` random games through the engine alone; returns their decisions."""
    decisions = 0
    for g in range(games):
        game = play_randomly(Game(Settings(players=NAMES[:players],
                                           deck=preset("basic", players)), deal(g)),
                             random.Random(g))
        decisions += len(game.log)
    return decisions


def aec_games(games: int, players: int = 6, seed: int = 0) -> int:
    """``games`` random games through the AEC environment, observing every decision;
    returns the steps."""
    rng = random.Random(seed)
    aec = darkcity_v1.raw_env(players=players)
    steps = 0
    for g in range(games):
        aec.reset(seed=g)
        while not any(aec.terminations.values()) and not any(aec.truncations.values()):
            legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
            aec.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def parallel_games(games: int, players: int = 6, seed: int = 0) -> int:
    """``games`` random games through the Parallel environment, every agent observed
    every step; returns the steps."""
    rng = random.Random(seed)
    par = darkcity_v1.parallel_env(players=players)
    steps = 0
    for g in range(games):
        obs, _ = par.reset(seed=g)
        while par.agents:
            acts = {}
            for p, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                acts[p] = int(legal[rng.randrange(len(legal))])
            obs, *_ = par.step(acts)
            steps += 1
    return steps
