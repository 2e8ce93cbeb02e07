#!/usr/bin/env python3
"""Bots, simulator and environment benchmark: decision times (6 and 8 players),
win rates against the fair share (95% intervals over deals), simulator
throughput, the research environment's speed against the engine's, and the
strong bot against every member of the tournament's population.

    python3 benchmarks/bench_bots.py                     # everything (long)
    python3 benchmarks/bench_bots.py --only speed        # decision times + games/s
    python3 benchmarks/bench_bots.py --only env          # env steps/s vs engine games/s
    python3 benchmarks/bench_bots.py --only population --pair-games 48
    python3 benchmarks/bench_bots.py --strong-games 600 --heuristic-games 600

Issue #15's bars, printed PASS or FAIL: strong decision p99 <= 100 ms at 8
players; the environment's time per random game <= 3x the engine's; the strong
bot >= 1.5x the fair share as the single seat against every population member,
and no member above 1.0x as the single seat against five strong bots.

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
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.sim import SimConfig, run, summarize

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
POPULATION = ("heuristic", "retuned", "never-flee", "leader-hunter", "always-priest",
              "skittish", "random")


def decision_times(kind: str, others: str, games: int, seed: str, players: int = 6
                   ) -> dict[str, float]:
    """Milliseconds per decision of ``kind`` (one seat, rotating) among ``others``:
    the process's CPU time (what the decision costs, whatever else shares the
    machine) and the wall-clock time."""
    times: list[float] = []
    walls: list[float] = []
    names = NAMES[:players]
    for g in range(games):
        game = Game(Settings(players=names, deck=preset("basic", players)), f"{seed}:{g}")
        bots = {p: make_bot(kind if i == g % players else others,
                            random.Random(f"{seed}:{g}:{i}")) for i, p in enumerate(names)}
        while not game.over:
            for p in game.pending:
                obs = Observation(game, p)
                bot = bots[p]
                t = time.perf_counter()
                c = time.process_time()
                d = bot.step(obs)
                dc = time.process_time() - c
                dt = time.perf_counter() - t
                if bot.name == kind:
                    times.append(dc * 1e3)
                    walls.append(dt * 1e3)
                game.apply(d)
    times.sort()
    walls.sort()
    return {"decisions": len(times), "median_ms": statistics.median(times),
            "p99_ms": times[int(0.99 * (len(times) - 1))], "max_ms": times[-1],
            "wall_median_ms": statistics.median(walls),
            "wall_p99_ms": walls[int(0.99 * (len(walls) - 1))]}


def env_speed(games: int, players: int = 6) -> dict[str, float]:
    """Seconds per random game: the engine alone (``play_randomly``), and through the
    AEC and Parallel environments (an observation built for every decision), on the
    same deals (``env_play.py``)."""
    from env_play import aec_games, engine_games, parallel_games

    t = time.perf_counter()
    decisions = engine_games(games, players)
    engine = (time.perf_counter() - t) / games
    t = time.perf_counter()
    steps = aec_games(games, players)
    aec_s = (time.perf_counter() - t) / games
    t = time.perf_counter()
    parallel_games(games, players)
    par_s = (time.perf_counter() - t) / games
    return {"games": games, "engine_s_per_game": engine, "engine_games_per_s": 1 / engine,
            "decisions_per_game": decisions / games, "aec_s_per_game": aec_s,
            "aec_steps_per_s": steps / (aec_s * games), "aec_ratio": aec_s / engine,
            "parallel_s_per_game": par_s, "parallel_ratio": par_s / engine}


def population(games: int, against_games: int, workers: int, seed: str
               ) -> dict[str, Any]:
    """The strong bot as the single seat against each member, and each member as the
    single seat against five strong bots (6 players, basic)."""
    out: dict[str, Any] = {}
    for m in POPULATION:
        for single, field, n in (("strong", m, games), (m, "strong", against_games)):
            cfg = SimConfig(players=6, bots=(single,) + (field,) * 5, games=n, seed=seed)
            t = time.perf_counter()
            b = summarize(cfg, run(cfg, workers=workers)).bots[0]
            out[f"{single} vs {field}*5"] = {
                "ratio": b.ratio, "ratio_ci": b.ratio_ci, "games": b.games,
                "seconds": time.perf_counter() - t,
                "command": f"darkcity simulate --players 6 --bots {single},{field}*5 "
                           f"--games {cfg.total_games} --seed {seed} --workers {workers}"}
    return out


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
    ap.add_argument("--only", choices=("speed", "quality", "env", "population", "tournament"),
                    default=None)
    ap.add_argument("--tournament-games", type=int, default=24,
                    help="games per match of the tournament (every bot and variant)")
    ap.add_argument("--env-games", type=int, default=20)
    ap.add_argument("--pair-games", type=int, default=48,
                    help="games of the strong bot as the single seat against each member")
    ap.add_argument("--against-games", type=int, default=24,
                    help="games of each member as the single seat against five strong bots")
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
        s8 = decision_times("strong", "heuristic", max(4, args.timing_games // 2), "t-s8", 8)
        g = games_per_second(args.random_games, 2, "speed")
        report.update(heuristic_time=h, strong_time=s, strong_time_8=s8, random_games=g)
        checks = [("heuristic median < 1 ms", h["median_ms"] < 1.0),
                  ("strong median <= 100 ms", s["median_ms"] <= 100.0),
                  ("strong p99 <= 100 ms at 8 players", s8["p99_ms"] <= 100.0),
                  (">= 500 random games/s on 2 cores", g["games_per_s"] >= 500)]
        print(f"heuristic decision: median {h['median_ms']:.3f} ms, p99 {h['p99_ms']:.3f} ms "
              f"({h['decisions']:.0f} decisions)")
        print(f"strong decision:    median {s['median_ms']:.1f} ms, p99 {s['p99_ms']:.1f} ms "
              f"({s['decisions']:.0f} decisions)")
        print(f"strong, 8 players:  median {s8['median_ms']:.1f} ms, p99 {s8['p99_ms']:.1f} ms "
              f"({s8['decisions']:.0f} decisions; CPU time; wall p99 "
              f"{s8['wall_p99_ms']:.1f} ms)")
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
    if args.only in (None, "env"):
        e = env_speed(args.env_games)
        report["env"] = e
        print(f"engine: {e['engine_games_per_s']:.0f} random games/s "
              f"({e['decisions_per_game']:.0f} decisions a game)")
        print(f"AEC env: {e['aec_steps_per_s']:.0f} steps/s, {e['aec_ratio']:.1f}x the engine's "
              f"time per game; Parallel: {e['parallel_ratio']:.1f}x")
        passed = e["aec_ratio"] <= 3.0
        print(f"  {'PASS' if passed else 'FAIL'}  env time per game <= 3x the engine's")
        ok &= passed
    if args.only in (None, "population"):
        pop = population(args.pair_games, args.against_games, args.workers, args.seed)
        report["population"] = pop
        for key, r in pop.items():
            print(f"{key:>28}: {r['ratio']:.2f}x fair [{r['ratio_ci'][0]:.2f}, "
                  f"{r['ratio_ci'][1]:.2f}], {r['games']} games, {r['seconds']:.0f} s")
        single = all(r["ratio"] >= 1.5 for k, r in pop.items() if k.startswith("strong vs"))
        against = all(r["ratio"] <= 1.0 for k, r in pop.items() if not k.startswith("strong"))
        for what, passed in (("strong >= 1.5x against every member", single),
                             ("no member above 1.0x against five strong bots", against)):
            print(f"  {'PASS' if passed else 'FAIL'}  {what}")
            ok &= passed
    if args.only == "tournament":  # long: every ordered pair of the population
        from darkcity.bots import bot_names
        from darkcity.sim.tournament import play_tournament

        pop = bot_names(variants=True)
        t = time.perf_counter()
        tr = play_tournament(pop, players=6, games=args.tournament_games, seed=args.seed,
                             workers=args.workers)
        report["tournament"] = tr.to_json()
        print(f"tournament ({time.perf_counter() - t:.0f} s): darkcity tournament --players 6 "
              f"--games {args.tournament_games} --seed {args.seed} --workers {args.workers}")
        for i, r in enumerate(tr.ratings, 1):
            print(f"  {i}. {r.bot:<14} mu {r.mu:6.2f} [{r.ci[0]:.2f}, {r.ci[1]:.2f}]")
        for key, what in (("single_pass", "strong >= 1.5x against every member"),
                          ("against_pass", "no member above 1.0x against five strong bots")):
            print(f"  {'PASS' if tr.checks[key] else 'FAIL'}  {what}")
            ok &= bool(tr.checks[key])
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
