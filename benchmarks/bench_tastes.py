#!/usr/bin/env python3
"""Issue #32: the strong bot with its draft tastes on and off, on the same duplicate
deals (``docs/bots.md``, "The calibrated run", has the table this prints).

    python3 benchmarks/bench_tastes.py --mode stacker --deals 60 --seed eval32-b
    python3 benchmarks/bench_tastes.py --mode both-ways --deals 20 --seed eval32
    python3 benchmarks/bench_tastes.py --mode heuristic --deals 70 --seed 1

The league's members come from ``docs/bots-league-calibrated.json``; ``exploiter-0``
is its Zombie stacker. Each figure is ``sim.league.single_seat``: a bot as the single
seat at a table of six, its share of the wins over the fair share, with a per-deal
95% interval.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from bench_stacker import register_league

from darkcity.bots.strong import load_params
from darkcity.sim.league import register_strong, single_seat


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=("stacker", "both-ways", "heuristic"), default="stacker")
    ap.add_argument("--deals", type=int, default=60, help="duplicate deals (6 games each)")
    ap.add_argument("--seed", default="eval32-b")
    ap.add_argument("--member", default="exploiter-0")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    register_league()
    shipped = load_params()
    for label, on in (("tastes off (shipped)", False), ("tastes on", True)):
        bot = register_strong(f"strong-tastes-{'on' if on else 'off'}",
                              replace(shipped, learn_tastes=on))
        start = time.perf_counter()
        kw = dict(players=6, deals=args.deals, seed=args.seed, workers=args.workers)
        if args.mode in ("stacker", "both-ways"):
            print(f"{label}: {args.member} among five strong: "
                  f"{single_seat(args.member, bot, **kw)}", flush=True)
        if args.mode == "both-ways":
            print(f"{label}: strong among five {args.member}: "
                  f"{single_seat(bot, args.member, **kw)}", flush=True)
        if args.mode == "heuristic":
            print(f"{label}: strong among five heuristic: "
                  f"{single_seat(bot, 'heuristic', **kw)}", flush=True)
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
