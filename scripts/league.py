#!/usr/bin/env python3
"""Search the heuristic family for the strong bot's exploiters, and answer them.

    python3 scripts/league.py --rounds 1 --generations 3 --popsize 6 --deals 2 \\
        --out league.json [--standings 2]

Needs the ``cma`` package (``pip install -e ".[league]"``). Resumable: run it
again with the same ``--out`` and options (more ``--rounds`` carry on). See
:mod:`darkcity.sim.league` for what a round does, and ``docs/bots.md`` for the
figures of the shipped run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from darkcity.bots.family import STYLES
from darkcity.sim.league import LeagueConfig, league, standings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--generations", type=int, default=3)
    ap.add_argument("--popsize", type=int, default=6)
    ap.add_argument("--deals", type=int, default=2, help="duplicate deals per candidate")
    ap.add_argument("--check-deals", type=int, default=4)
    ap.add_argument("--answer-deals", type=int, default=2)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--start", choices=("plain", "calibrated"), default="plain",
                    help="where the search starts: the heuristic, or the heuristic with its "
                         "draft rates set to the roles' goal rates at a table of strong bots")
    ap.add_argument("--answer", choices=("choice", "search"), default="choice",
                    help="how the strong bot answers a grown population: the best of four "
                         "settings, or CMA-ES over its knobs scored both ways")
    ap.add_argument("--answer-generations", type=int, default=3)
    ap.add_argument("--answer-popsize", type=int, default=6)
    ap.add_argument("--calibrate-deals", type=int, default=10,
                    help="deals of strong bots that measure the goal rates (--start calibrated)")
    ap.add_argument("--out", type=Path, default=Path("league.json"))
    ap.add_argument("--standings", type=int, default=0, metavar="DEALS",
                    help="then play the final strong bot against every member, both ways")
    ap.add_argument("--compare-shipped", action="store_true",
                    help="with --standings: the shipped strong bot's standings too, on the "
                         "same deals")
    ap.add_argument("--also", default="", help="bots by name added to the standings")
    ap.add_argument("--population", default="plain",
                    help="the styles the population starts with (comma separated; "
                         f"of {', '.join(STYLES)})")
    a = ap.parse_args(argv)
    for k in ("rounds", "generations", "popsize", "deals", "check_deals", "answer_deals",
              "workers", "calibrate_deals", "answer_generations", "answer_popsize"):
        if getattr(a, k) < 1:
            ap.error(f"--{k.replace('_', '-')} must be at least 1, not {getattr(a, k)}")
    if not 4 <= a.players <= 8:
        ap.error(f"--players must be 4 to 8, not {a.players}")
    if not a.out.parent.is_dir():
        ap.error(f"--out: the folder {a.out.parent} does not exist")
    try:
        import cma  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        print("league.py needs the cma package: pip install -e \".[league]\"", file=sys.stderr)
        return 2
    start = [x.strip() for x in a.population.split(",") if x.strip()]
    for x in start:
        if x not in STYLES:
            ap.error(f"--population: unknown style {x!r} (known: {', '.join(STYLES)})")
    cfg = LeagueConfig(players=a.players, rounds=a.rounds, generations=a.generations,
                       popsize=a.popsize, deals=a.deals, check_deals=a.check_deals,
                       answer_deals=a.answer_deals, sigma=a.sigma, seed=a.seed,
                       workers=a.workers, start=a.start,
                       calibrate_deals=a.calibrate_deals, answer=a.answer,
                       answer_generations=a.answer_generations,
                       answer_popsize=a.answer_popsize)
    t0 = time.perf_counter()

    def log(line: str) -> None:
        print(f"[{time.perf_counter() - t0:7.0f} s] {line}", flush=True)

    try:
        state = league(cfg, a.out, log=log, population=[STYLES[x] for x in start])
    except ValueError as e:
        print(f"league.py: {e}", file=sys.stderr)
        return 2
    if a.standings:
        extra = [x.strip() for x in a.also.split(",") if x.strip()]
        for key, shipped in (("standings", False), ("standings_shipped", True)):
            if shipped and not a.compare_shipped:
                continue
            log("the shipped strong bot's standings" if shipped else "the standings")
            state[key] = standings(state, players=a.players, deals=a.standings,
                                   seed=a.seed, workers=a.workers, log=log, extra=extra,
                                   shipped=shipped, kept=state.get(key))
            a.out.write_text(json.dumps(state, indent=1) + "\n", "utf-8")
    log(f"done: {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
