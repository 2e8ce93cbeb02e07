#!/usr/bin/env python3
"""A table of bots, as a room seats them: do they all win with one plan? (issue #54)

    python3 benchmarks/bench_table.py --level medium --players 6 --games 100 --seed 1
    python3 benchmarks/bench_table.py --level hard --players 6 --games 30 --seed 1

Plays ``--games`` games of ``--players`` bots of ``--level`` (easy, medium, hard), each
seat in the style a room draws for it from the game's seed
(``darkcity.room.bots.seat_style``, exactly as the online table, the pocket app and the
terminal do), and counts the plans that won: a winner with four XP in one row won by
that row's plan ("four in the priest row"), any other by the condition it met (six
rows, eight XP, three pairs). A game counts once per plan among its winners. The bar:
no single plan wins more than half the games. ``--styles plain`` seats the level's
reference mind in every seat instead (the table before issue #54's plans).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from darkcity.bots import play_game
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.journal import conditions_met
from darkcity.room.bots import new_bot, seat_style
from darkcity.settings import Settings

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def plans(game: Game) -> set[str]:
    """The plans that won ``game``."""
    out = set()
    for w in game.winners:
        j = game.journals[game.players.index(w)]
        met = conditions_met(j)
        if "four-in-one" in met:
            out.add(f"four in the {max(j, key=lambda r: j[r]).key} row")
        else:
            out.add(met[0] if met else "?")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="medium")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--styles", choices=("drawn", "plain"), default="drawn")
    args = ap.parse_args(argv)
    n = args.players
    names = NAMES[:n]
    won: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    start = time.perf_counter()
    for g in range(args.games):
        seed = f"table:{args.seed}:{g}"
        game = Game(Settings(players=names, deck=preset("basic", n)), seed)
        bots = {}
        for s, p in enumerate(names):
            style = seat_style(seed, s, args.level) if args.styles == "drawn" else None
            drawn[style or "reference"] += 1
            bots[p] = new_bot(args.level, random.Random(f"{seed}:{p}"), style)
        play_game(game, bots)
        won.update(plans(game))
    print(f"{args.games} games of {n} {args.level} bots ({args.styles} styles; seed "
          f"{args.seed}), {time.perf_counter() - start:.0f} s")
    print("styles drawn: " + ", ".join(f"{k} {v}" for k, v in drawn.most_common()))
    for plan, k in won.most_common():
        print(f"  {plan:28} {k:4} games ({k / args.games:.0%})")
    top, k = won.most_common(1)[0]
    print(f"no single plan wins more than half the games: "
          f"{'PASS' if k <= args.games / 2 else 'FAIL'} (most: {top}, {k / args.games:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
