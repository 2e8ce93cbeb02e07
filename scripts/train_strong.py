#!/usr/bin/env python3
"""Train the strong bot's parameters offline; writes ``src/darkcity/bots/data/strong.json``.

Fictitious play over a population of players. The pool starts with the
heuristic bot and its variants (:mod:`darkcity.bots.variants`: re-tuned rates,
never-flee, leader-hunter, always-priest, skittish); every iteration, at every
table size of ``--players``,

1. plays the current strong bot (one seat, through every rotation of
   duplicate deals) against opponents drawn from the pool, and averages the
   goal rate it reaches with each role into that size's ``rates`` (what the
   draft uses when it cannot afford sampled deals, and the set-up's prior);
2. finds the best response for the free XP row: each candidate row is
   played for ``--games`` games and the row with the highest win share
   (summed over the sizes) wins the iteration; the rows are ranked by how many
   iterations they won (then by their win share), the fictitious-play average
   of the best responses;
3. adds that iteration's strong bot to the pool (earlier versions of itself).

    python3 scripts/train_strong.py --iterations 2 --games 96 --players 4,6,8 --seed 1

``--figure`` also draws the log (goal rates per role and size, the free-XP
shares per iteration) as a PNG.

The result depends only on the options (every game is seeded).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from darkcity.bots import BOTS, Observation, bot_names
from darkcity.bots.strong import StrongBot, StrongParams, load_params
from darkcity.cast import Role, parse_role
from darkcity.decisions import Decision
from darkcity.sim import SimConfig, run, summarize

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "darkcity" / "bots" / "data" / "strong.json"


def _register(name: str, params: StrongParams) -> None:
    """A strong bot with fixed parameters, playable by name in the simulator."""

    class Frozen(StrongBot):
        level = 10

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, params)

        def step(self, obs: Observation) -> Decision:
            return super().step(obs)

    Frozen.name = name
    Frozen.__name__ = f"Strong_{name.replace('-', '_')}"
    BOTS[name] = Frozen


def _table(candidate: str, pool: list[str], players: int, rng: random.Random) -> tuple[str, ...]:
    return (candidate, *(rng.choice(pool) for _ in range(players - 1)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--games", type=int, default=96, help="games per measurement")
    ap.add_argument("--players", default="6", help="table sizes, e.g. 4,6,8")
    ap.add_argument("--deck", default="basic")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rows", default="priest,vampire,werewolf,hunter,zombie",
                    help="free XP rows to try")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--figure", type=Path, default=None, help="draw the log here (PNG)")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in str(args.players).split(",") if x.strip()]
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    params = replace(load_params(), free_xp=())
    rng = random.Random(f"train:{args.seed}")
    pool = ["heuristic", *(b for b in bot_names(variants=True)
                           if BOTS[b].variant)]
    won: dict[str, int] = dict.fromkeys(rows, 0)
    share_of: dict[str, float] = {}
    counts: dict[int, dict[Role, list[int]]] = {n: {} for n in sizes}
    log: list[dict[str, Any]] = []
    for it in range(args.iterations):
        started = time.perf_counter()
        name = f"strong-train-{it}"
        _register(name, params)
        all_rates: dict[int, dict[str, float]] = {}
        for n in sizes:
            cfg = SimConfig(players=n, bots=_table(name, pool, n, rng),
                            games=args.games, seed=f"{args.seed}:rates:{it}:{n}",
                            deck=args.deck)
            for o in run(cfg, workers=args.workers):
                for role, (played, met) in o.bot_roles[0].items():
                    known = parse_role(role)
                    assert known is not None
                    c = counts[n].setdefault(known, [0, 0])
                    c[0] += played
                    c[1] += met
            rates = {r: met / played for r, (played, met) in counts[n].items()
                     if played >= 10}
            params = replace(params, rates={**params.rates,
                                            n: {**params.rates_for(n), **rates}})
            all_rates[n] = {r.key: round(x, 4) for r, x in rates.items()}
        shares: dict[str, float] = dict.fromkeys(rows, 0.0)
        for row in rows:
            trial = f"{name}-{row}"
            # the row alone, not the shipped mix (which the written file keeps)
            _register(trial, replace(params, free_xp=(row,), free_xp_mix=()))
            for n in sizes:
                table = _table(trial, pool, n, random.Random(f"{args.seed}:{it}:{n}"))
                cfg = SimConfig(players=n, bots=table, games=args.games,
                                seed=f"{args.seed}:free:{it}:{n}", deck=args.deck)
                s = summarize(cfg, run(cfg, workers=args.workers))
                shares[row] += s.bots[0].ratio / len(sizes)  # x fair share, averaged
        best = max(rows, key=lambda r: shares[r])
        won[best] += 1
        for row, x in shares.items():
            share_of[row] = (share_of.get(row, x) * it + x) / (it + 1)
        ranking = sorted(rows, key=lambda r: (-won[r], -share_of[r]))
        params = replace(params, free_xp=tuple(ranking))
        pool.append(f"{name}-{best}")
        entry = {"iteration": it, "rates": all_rates,
                 "free_xp_ratio": {r: round(x, 4) for r, x in shares.items()},
                 "best": best, "pool": list(pool),
                 "seconds": round(time.perf_counter() - started, 1)}
        log.append(entry)
        print(json.dumps(entry), file=sys.stderr, flush=True)
    doc = params.to_json()
    doc["training"] = {"script": "scripts/train_strong.py", "iterations": args.iterations,
                       "games": args.games, "players": sizes, "deck": args.deck,
                       "seed": args.seed, "rows": rows, "log": log}
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    if args.figure is not None:
        _figure(log, args.figure)
        print(f"wrote {args.figure}", file=sys.stderr)
    return 0


def _figure(log: list[dict[str, Any]], path: Path) -> None:
    """Goal rates per role at each table size (last iteration) and the free-XP rows'
    win share x fair share per iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(14, 5))
    last = log[-1]["rates"]
    roles = sorted({r for t in last.values() for r in t})
    width = 0.8 / max(1, len(last))
    for k, (n, table) in enumerate(sorted(last.items())):
        ax.bar([i + k * width for i in range(len(roles))],
               [table.get(r, 0.0) for r in roles], width, label=f"{n} players")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(roles))], roles, rotation=45,
                  ha="right")
    ax.set_ylabel("goal met per night played")
    ax.set_title("Trained goal rates (last iteration)")
    ax.legend()
    for row in log[0]["free_xp_ratio"]:
        bx.plot([e["iteration"] for e in log], [e["free_xp_ratio"][row] for e in log],
                marker="o", label=row)
    bx.set_xticks([e["iteration"] for e in log])
    bx.axhline(1.0, color="#c44e52", linestyle="--")
    bx.set_xlabel("iteration")
    bx.set_ylabel("win share x fair share")
    bx.set_title("Free XP row: the best response per iteration")
    bx.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
