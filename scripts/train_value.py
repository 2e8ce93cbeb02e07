"""Check the strong bot's valuation of a night against games of the population:
what a step toward a victory is worth against a victory itself.

``knowledge.night_value`` scores a night as progress (``gain`` per XP, plus
``ahead x WIN`` for a player left one XP short) against ``WIN`` for a victory
tonight. In play a step toward a victory is worth the rise in the chance of
winning the game that it brings. This script plays tables of the population
(the heuristic and its variants), records every player's distance to its nearest
victory at each night's start and whether it went on to win the game, and
prints that chance per distance, ``V(d)`` (``V(1)`` is what ``ahead`` stands
for). It then compares, over every night in which a player came nearer without
winning, the model's value of that step with its worth by ``V`` (in the model's
units, where a win from one XP short, worth ``1 - V(1)`` of a game, is ``WIN``),
and prints the least-squares ratio of the two (1: the model weighs progress
against a victory as the games do).

    python3 scripts/train_value.py --games 60 --players 6
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from darkcity.bots import Observation, make_bot
from darkcity.bots.knowledge import WIN, distance, gain
from darkcity.bots.strong import load_params
from darkcity.cast import Role
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.sim.runner import NAMES

POPULATION = ("heuristic", "never-flee", "leader-hunter", "always-priest", "retuned", "skittish")

#: one step: (distance before, distance after, the model's value of it)
_Step = tuple[int, int, float]


def play(field: str, games: int, players: int, seed: str
         ) -> tuple[dict[int, list[int]], list[_Step]]:
    """Per distance at a night's start: [player-nights, of which the player won the
    game]; and every step nearer to a victory that did not win, with its value."""
    names = NAMES[:players]
    ahead = load_params().ahead
    table: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    steps: list[_Step] = []
    for g in range(games):
        game = Game(Settings(players=names, deck=preset("basic", players)), f"{seed}:{g}")
        bots = {p: make_bot(field, random.Random(f"{seed}:{g}:{i}"))
                for i, p in enumerate(names)}
        seen: list[tuple[str, int]] = []
        night = -1
        start: list[dict[Role, int]] = []
        while not game.over:
            if game.night != night:
                night = game.night
                seen += [(p, distance(game.journals[i])) for i, p in enumerate(names)
                         if game.journals[i]]
                start = [dict(j) for j in game.journals]
            for p in game.pending:
                game.apply(bots[p].step(Observation(game, p)))
            if game.night != night and not game.over:
                for i, before in enumerate(start):
                    after = game.journals[i]
                    d0, d1 = distance(before), distance(after)
                    if before and d1 < d0:
                        value = sum(gain(before, r, after.get(r, 0) - before.get(r, 0))
                                    for r in after if after.get(r, 0) > before.get(r, 0))
                        steps.append((d0, d1, value + (ahead * WIN if d1 == 1 else 0.0)))
        for p, d in seen:
            table[d][0] += 1
            table[d][1] += p in game.winners
    return table, steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per population member")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", default="value")
    args = ap.parse_args(argv)
    table: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    steps: list[_Step] = []
    for field in POPULATION:
        t, s = play(field, args.games, args.players, f"{args.seed}:{field}")
        for d, (n, won) in t.items():
            table[d][0] += n
            table[d][1] += won
        steps += s
    v = {d: won / n for d, (n, won) in sorted(table.items()) if n}
    v[0] = 1.0
    for d, x in sorted(v.items()):
        print(f"V({d}) = {x:.3f}" + (f"  ({table[d][0]} player-nights)" if d else ""))
    unit = WIN / (1.0 - v[1])  # the model's units: a win from one XP short is WIN
    worth = [(unit * (v[d1] - v[d0]), model) for d0, d1, model in steps
             if d0 in v and d1 in v]
    scale = sum(w * m for w, m in worth) / sum(m * m for _, m in worth)
    ahead = load_params().ahead
    print(f"ahead = {ahead:.2f} (V(1) = {v[1]:.3f}); {len(worth)} steps nearer a victory: "
          f"their worth by V / the model's value = {scale:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
