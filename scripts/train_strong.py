#!/usr/bin/env python3
"""Train the strong bot's parameters offline; writes ``src/darkcity/bots/data/strong.json``.

Fictitious play over a population of players. The pool starts with the
heuristic bot; every iteration

1. plays the current strong bot (one seat, through every rotation of
   duplicate deals) against opponents drawn from the pool, and averages the
   goal rate it reaches with each role into ``rates`` (what the draft uses
   when it cannot afford sampled deals, and the set-up's prior);
2. finds the best response for the free XP row: each candidate row is
   played for ``--games`` games and the row with the highest win share wins
   the iteration; the rows are ranked by how many iterations they won (then
   by their win share), the fictitious-play average of the best responses;
3. adds that iteration's strong bot to the pool.

    python3 scripts/train_strong.py --iterations 2 --games 96 --seed 1

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

from darkcity.bots import BOTS, Observation
from darkcity.bots.strong import StrongBot, StrongParams, load_params
from darkcity.cast import Role, parse_role
from darkcity.game import Decision
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
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--deck", default="basic")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rows", default="priest,vampire,werewolf,hunter,zombie",
                    help="free XP rows to try")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    params = replace(load_params(), free_xp=())
    rng = random.Random(f"train:{args.seed}")
    pool = ["heuristic"]
    won: dict[str, int] = dict.fromkeys(rows, 0)
    share_of: dict[str, float] = {}
    counts: dict[Role, list[int]] = {}
    log: list[dict[str, Any]] = []
    for it in range(args.iterations):
        started = time.perf_counter()
        name = f"strong-train-{it}"
        _register(name, params)
        cfg = SimConfig(players=args.players, bots=_table(name, pool, args.players, rng),
                        games=args.games, seed=f"{args.seed}:rates:{it}", deck=args.deck)
        for o in run(cfg, workers=args.workers):
            for role, (played, met) in o.bot_roles[0].items():
                r = parse_role(role)
                assert r is not None
                c = counts.setdefault(r, [0, 0])
                c[0] += played
                c[1] += met
        rates = {r: met / played for r, (played, met) in counts.items() if played >= 10}
        params = replace(params, rates={args.players: {**params.rates_for(args.players),
                                                       **rates}})
        shares: dict[str, float] = {}
        for row in rows:
            trial = f"{name}-{row}"
            _register(trial, replace(params, free_xp=(row,)))
            table = _table(trial, pool, args.players, random.Random(f"{args.seed}:{it}"))
            cfg = SimConfig(players=args.players, bots=table, games=args.games,
                            seed=f"{args.seed}:free:{it}", deck=args.deck)
            s = summarize(cfg, run(cfg, workers=args.workers))
            shares[row] = s.bots[0].share
        best = max(rows, key=lambda r: shares[r])
        won[best] += 1
        for r, x in shares.items():
            share_of[r] = (share_of.get(r, x) * it + x) / (it + 1)
        ranking = sorted(rows, key=lambda r: (-won[r], -share_of[r]))
        params = replace(params, free_xp=tuple(ranking))
        pool.append(f"{name}-{best}")
        entry = {"iteration": it, "rates": {r.key: round(x, 4) for r, x in rates.items()},
                 "free_xp_shares": {r: round(x, 4) for r, x in shares.items()},
                 "best": best, "seconds": round(time.perf_counter() - started, 1)}
        log.append(entry)
        print(json.dumps(entry), file=sys.stderr, flush=True)
    doc = params.to_json()
    doc["training"] = {"script": "scripts/train_strong.py", "iterations": args.iterations,
                       "games": args.games, "players": args.players, "deck": args.deck,
                       "seed": args.seed, "log": log}
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
