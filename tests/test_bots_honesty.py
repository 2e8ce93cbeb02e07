"""Bots decide from what their player may know, and from nothing else.

At sampled decision points the game is copied and its hidden information
perturbed: two other players' cards are swapped, or a card of another player
with a face-down card. When the deciding player's view is unchanged, a fair bot
(the same random stream) must make the same decision in both games. A control
bot that peeks at the cards must be caught.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from darkcity.bots import Bot, Observation, make_bot, styles_of
from darkcity.decisions import Decision, Phase
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.views import view

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")


class Peeker(Bot):
    """Aims by the true cards (a cheat): reads the game behind its observation."""

    name = "peeker"

    def step(self, obs: Observation) -> Decision:
        game: Game = obs._game
        roles = sorted(int(c.role) for p, c in game.cards.items() if p != obs.player)
        return obs.legal[sum(roles) % len(obs.legal)]


def _perturbations(game: Game, me: str, rng: random.Random) -> Iterator[Game]:
    """Copies of ``game`` with hidden cards moved, the view of ``me`` unchanged."""
    hidden = [p for p in game.cards if p != me and p != game.death]
    for _ in range(3):
        other = copy.deepcopy(game)
        if len(hidden) >= 2 and rng.random() < 0.7:
            a, b = rng.sample(hidden, 2)
            other.cards[a], other.cards[b] = other.cards[b], other.cards[a]
        elif hidden and other._face_down:
            a = rng.choice(hidden)
            i = rng.randrange(len(other._face_down))
            other.cards[a], other._face_down[i] = (
                other._face_down[i], other.cards[a])
        else:
            continue
        if view(other, me) == view(game, me):
            yield other


def _check(kind: str, players: int, deck: str, seed: int, points: int,
           style: str | None = None) -> tuple[int, int]:
    """(comparisons, changed decisions) over ``points`` sampled decision points."""
    names = NAMES[:players]
    game = Game(Settings(players=names, deck=preset(deck, players)), seed)
    rng = random.Random(seed)
    bots: dict[str, Bot] = {p: (Peeker(random.Random(i)) if kind == "peeker"
                                else make_bot(kind, random.Random(f"{seed}:{i}"), style=style))
                            for i, p in enumerate(names)}
    compared = changed = 0
    while not game.over and compared < points:
        for p in game.pending:
            bot = bots[p]
            legal = game.legal(p)
            if len(legal) > 1 and game.phase in (Phase.DRAFT, Phase.GESTURE,
                                                  Phase.WITHDRAWAL, Phase.ZOMBIE) \
                    and rng.random() < 0.5:
                want = copy.deepcopy(bot).step(Observation(game, p))
                for other in _perturbations(game, p, rng):
                    got = copy.deepcopy(bot).step(Observation(other, p))
                    compared += 1
                    changed += got != want
            game.apply(bot.step(Observation(game, p)))
    return compared, changed


@pytest.mark.parametrize("kind", ["random", "heuristic", "retuned", "leader-hunter",
                                  "skittish", "strong"])
def test_bots_do_not_peek(kind: str) -> None:
    points = 20 if kind == "strong" else 60
    compared, changed = _check(kind, 6, "basic", 5, points)
    assert compared >= points // 2
    assert changed == 0, f"{kind} changed {changed} of {compared} decisions"


def test_the_perturbation_catches_a_peeking_bot() -> None:
    compared, changed = _check("peeker", 6, "basic", 5, 40)
    assert compared >= 20 and changed >= 3


@pytest.mark.parametrize(("level", "style"), [(lv, st) for lv in ("heuristic", "strong")
                                              for st in styles_of(lv)])
def test_every_style_does_not_peek(level: str, style: str) -> None:
    """A table of bots draws a style per seat (issue #32): each one's decisions
    come from the player's view alone, as its level's."""
    points = 12 if level == "strong" else 40
    compared, changed = _check(level, 6, "basic", 7, points, style=style)
    assert compared >= points // 2
    assert changed == 0, f"{level} in style {style} changed {changed} of {compared} decisions"
