#!/usr/bin/env python3
"""Bots and simulator benchmark: decision times, win rates against the fair
share (95% Wilson intervals), and simulator throughput.

    python3 benchmarks/bench_bots.py                     # everything (minutes)
    python3 benchmarks/bench_bots.py --only speed        # decision times + games/s
    python3 benchmarks/bench_bots.py --strong-games 600 --heuristic-games 600

Quality bars (issue #4), each printed PASS or FAIL:

* 6 players: ``heuristic`` vs five ``random``, and ``strong`` vs five
  ``heuristic``: win share >= 1.5x the fair share, and the lower end of the
  95% interval > 1.2x the fair share;
* decision time on one core: ``heuristic`` median < 1 ms, ``strong`` median
  <= 100 ms (the 99th percentiles are reported);
* the simulator: >= 500 whole 6-player games per second with ``random`` bots
  on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from darkcity import compiled
from darkcity.bots import Observation, make_bot
from darkcity.deck import preset
from darkcity.game import Game, Settings
from darkcity.sim import SimConfig, run, summarize

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")


def decision_times(kind: str, others: str, games: int, seed: str) -> dict[str, float]:
    """Milliseconds per decision of ``kind`` (one seat, rotating) among ``others``."""
    times: list[float] = []
    for g in range(games):
        game = Game(Settings(players=NAMES, deck=preset("basic", 6)), f"{seed}:{g}")
        bots = {p: make_bot(kind if i == g % 6 else others, random.Random(f"{seed}:{g}:{i}"))
                for i, p in enumerate(NAMES)}
        while not game.over:
            for p in game.pending:
                obs = Observation(game, p)
                bot = bots[p]
                t = time.perf_counter()
                d = bot.step(obs)
                dt = time.perf_counter() - t
                if bot.name == kind:
                    times.append(dt * 1e3)
                game.apply(d)
    times.sort()
    return {"decisions": len(times), "median_ms": statistics.median(times),
            "p99_ms": times[int(0.99 * (len(times) - 1))], "max_ms": times[-1]}


def games_per_second(games: int, workers: int, seed: str) -> dict[str, float]:
    cfg = SimConfig(players=6, bots=("random",) * 6, games=games, seed=seed)
    t = time.perf_counter()
    out = run(cfg, workers=workers)
    dt = time.perf_counter() - t
    return {"games": len(out), "workers": workers, "seconds": dt, "games_per_s": len(out) / dt}


def win_rate(bots: tuple[str, ...], games: int, workers: int, seed: str) -> dict[str, Any]:
    cfg = SimConfig(players=6, bots=bots, games=games, seed=seed)
    t = time.perf_counter()
    s = summarize(cfg, run(cfg, workers=workers))
    b = s.bots[0]
    ok = b.ratio >= 1.5 and b.ratio_ci[0] > 1.2
    return {"command": f"darkcity simulate --players 6 --bots {bots[0]},{bots[1]}*5 "
                       f"--games {cfg.total_games} --seed {seed} --workers {workers}",
            "games": s.games, "bot": b.bot, "share": b.share, "ci": b.ci, "fair": b.fair,
            "ratio": b.ratio, "ratio_ci": b.ratio_ci, "ci_naive": b.ci_naive,
            "seconds": time.perf_counter() - t, "pass": ok}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="darkcity bots benchmark")
    ap.add_argument("--only", choices=("speed", "quality"), default=None)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--heuristic-games", type=int, default=600)
    ap.add_argument("--strong-games", type=int, default=480)
    ap.add_argument("--random-games", type=int, default=3000)
    ap.add_argument("--timing-games", type=int, default=12)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {}
    ok = True
    engine = "compiled (mypyc)" if compiled() else "pure Python (an editable install)"
    print(f"darkcity bots benchmark: Python {sys.version.split()[0]}, engine {engine}")
    report["engine"] = engine
    if args.only in (None, "speed"):
        h = decision_times("heuristic", "heuristic", args.timing_games, "t-h")
        s = decision_times("strong", "heuristic", args.timing_games, "t-s")
        g = games_per_second(args.random_games, 2, "speed")
        report.update(heuristic_time=h, strong_time=s, random_games=g)
        checks = [("heuristic median < 1 ms", h["median_ms"] < 1.0),
                  ("strong median <= 100 ms", s["median_ms"] <= 100.0),
                  (">= 500 random games/s on 2 cores", g["games_per_s"] >= 500)]
        print(f"heuristic decision: median {h['median_ms']:.3f} ms, p99 {h['p99_ms']:.3f} ms "
              f"({h['decisions']:.0f} decisions)")
        print(f"strong decision:    median {s['median_ms']:.1f} ms, p99 {s['p99_ms']:.1f} ms "
              f"({s['decisions']:.0f} decisions)")
        print(f"simulator (random): {g['games_per_s']:.0f} games/s on 2 workers "
              f"({g['games']:.0f} games in {g['seconds']:.1f} s)")
        for what, passed in checks:
            print(f"  {'PASS' if passed else 'FAIL'}  {what}")
            ok &= passed
    if args.only in (None, "quality"):
        for key, bots, games in (
                ("heuristic_vs_random", ("heuristic",) + ("random",) * 5, args.heuristic_games),
                ("strong_vs_heuristic", ("strong",) + ("heuristic",) * 5, args.strong_games)):
            r = win_rate(bots, games, args.workers, args.seed)
            report[key] = r
            print(f"{key}: share {r['share']:.4f} [{r['ci'][0]:.4f}, {r['ci'][1]:.4f}] = "
                  f"{r['ratio']:.2f}x fair [{r['ratio_ci'][0]:.2f}, {r['ratio_ci'][1]:.2f}] "
                  f"in {r['games']} games, {r['seconds']:.0f} s")
            print(f"  {'PASS' if r['pass'] else 'FAIL'}  >= 1.5x, lower end > 1.2x  "
                  f"({r['command']})")
            ok &= r["pass"]
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
