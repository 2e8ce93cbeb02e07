#!/usr/bin/env python3
"""Can a bot that reads the strong bot's files plan around it? (issue #54)

    python3 benchmarks/bench_reader.py --members reader --way in --players 4,6,8 \\
        --deals 120,80,60 --seed read54 --workers 1
    python3 benchmarks/bench_reader.py --members heuristic --way out --players 4,6,8 \\
        --deals 105,70,53 --seed 1

Each member as the single seat among ``players - 1`` strong bots (``--way in``), or the
strong bot as the single seat among ``players - 1`` of the member (``out``), on
duplicate deals (``--deals``: one number, or one per table size; ``players`` games a
deal), with the share of the wins over the fair share and its 95% interval over deals
(``sim.league.single_seat``). The members: ``reader`` (the strong bot that drafts and
plays as the strong bot does and takes the others to draft exactly so, from
``strong.json``: ``bots.variants.ReaderBot``), ``strong-argmax`` (the strong bot before
issue #54: the best card in the draft, the free XP on the Priest or the Zombie), the
league's members (``exploiter-0`` the Zombie stacker, ``exploiter-1``, ``calibrated``,
``plain``: ``docs/bots-league-calibrated.json``) and any bot by name.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from darkcity.bots.strong import argmax_draft, load_params
from darkcity.sim.league import Score, register_strong, single_seat
from darkcity.sim.runner import GameOutcome, SimConfig, play_deal
from darkcity.sim.stats import summarize


def seat(bot: str, others: str, *, players: int, deals: int, seed: str, workers: int) -> Score:
    """``sim.league.single_seat``; with one worker, a running figure every ten deals on
    stderr (the same games, the same result)."""
    if workers > 1:
        return single_seat(bot, others, players=players, deals=deals, seed=seed,
                           workers=workers)
    cfg = SimConfig(players=players, bots=(bot, *[others] * (players - 1)),
                    games=deals * players, seed=seed)
    outs: list[GameOutcome] = []
    for d in range(deals):
        outs += play_deal(cfg, d)
        if (d + 1) % 10 == 0 and d + 1 < deals:
            s = summarize(cfg, outs).bots[0]
            print(f"  ... {len(outs)} games: {s.ratio:.2f}x [{s.ratio_ci[0]:.2f}, "
                  f"{s.ratio_ci[1]:.2f}]", file=sys.stderr, flush=True)
    s = summarize(cfg, outs).bots[0]
    return Score(s.ratio, s.ratio_ci[0], s.ratio_ci[1], cfg.total_games)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--members", default="reader")
    ap.add_argument("--way", choices=("in", "out", "both"), default="in")
    ap.add_argument("--players", default="6")
    ap.add_argument("--deals", default="20")
    ap.add_argument("--seed", default="read54")
    ap.add_argument("--strong", default="strong", help="the strong bot measured")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_stacker import register_league  # the league's members, by name

    register_league()
    register_strong("strong-argmax", argmax_draft(load_params()))
    sizes = [int(x) for x in args.players.split(",")]
    deals = [int(x) for x in args.deals.split(",")]
    if len(deals) == 1:
        deals = deals * len(sizes)
    if len(deals) != len(sizes):
        ap.error("--deals: one number, or one per table size")
    for m in args.members.split(","):
        for n, d in zip(sizes, deals, strict=True):
            kw = dict(players=n, deals=d, seed=f"{args.seed}:{n}", workers=args.workers)
            if args.way in ("in", "both"):
                start = time.perf_counter()
                s = seat(m, args.strong, **kw)  # type: ignore[arg-type]
                print(f"{n} seats: {m} among {n - 1} {args.strong}: {s} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
            if args.way in ("out", "both"):
                start = time.perf_counter()
                s = seat(args.strong, m, **kw)  # type: ignore[arg-type]
                print(f"{n} seats: {args.strong} among {n - 1} {m}: {s} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
