#!/usr/bin/env python3
"""Issue #32: the strong bot's answer to the Zombie stacker, before and after, on the
same duplicate deals (``docs/bots.md``, "The answer: the Zombie's worth and a spread
of free XP", has the tables this prints).

    python3 benchmarks/bench_stacker.py --members exploiter-0 --way in --deals 60 --seed eval32-b
    python3 benchmarks/bench_stacker.py --members heuristic --way out --deals 70 --seed 1
    python3 benchmarks/bench_stacker.py --deals 20 --seed eval32

``before`` is the strong bot as shipped until this answer (the draft's Zombie held to
its first aim, every free XP on the Priest); ``worlds`` the answer as shipped in stops
45-46 (each card of the hand tried on sampled worlds, ``strong.world_draft``); ``now`` is
``bots/data/strong.json`` (the draft by the goal rates at a table of strong bots).
``--way in`` puts each member as the single seat among five strong bots, ``out`` the
strong bot among five of the member, ``both`` does both. The members are the league's
(``docs/bots-league-calibrated.json``: ``plain``, ``exploiter-0`` the Zombie stacker,
``exploiter-1``, and its ``calibrated`` start) and any bot by name.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

from darkcity.bots.family import Style
from darkcity.bots.strong import load_params, world_draft
from darkcity.sim.league import register_strong, register_style, single_seat

LEAGUE = Path(__file__).resolve().parent.parent / "docs" / "bots-league-calibrated.json"
MEMBERS = ("exploiter-0", "always-priest", "exploiter-1", "calibrated", "plain",
           "leader-hunter", "never-flee", "heuristic")


def register_league(path: Path = LEAGUE) -> list[str]:
    """The league's population and its calibrated start, playable by name."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [register_style(m["name"], Style.from_json(m))
            for m in [*doc["population"], doc["start"]]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--members", default=",".join(MEMBERS))
    ap.add_argument("--way", choices=("in", "out", "both"), default="both")
    ap.add_argument("--deals", type=int, default=20, help="duplicate deals (6 games each)")
    ap.add_argument("--seed", default="eval32")
    ap.add_argument("--bots", default="worlds,now",
                    help="comma separated: before, worlds, now")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    register_league()
    shipped = load_params()
    worlds = world_draft(shipped)
    versions = {"before": register_strong("strong-before", replace(
                    worlds, zombie_switch=False, free_xp_mix=())),
                "worlds": register_strong("strong-worlds", worlds),
                "now": register_strong("strong-now", shipped)}
    labels = args.bots.split(",")
    unknown = [x for x in labels if x not in versions]
    if unknown:
        ap.error(f"--bots: unknown {', '.join(unknown)} (known: {', '.join(versions)})")
    kw = dict(players=6, deals=args.deals, seed=args.seed, workers=args.workers)
    for m in args.members.split(","):
        for label in labels:
            bot = versions[label]
            if args.way in ("in", "both"):
                start = time.perf_counter()
                print(f"{label}: {m} among five strong: {single_seat(m, bot, **kw)}"
                      f" ({time.perf_counter() - start:.0f} s)", flush=True)
            if args.way in ("out", "both"):
                start = time.perf_counter()
                print(f"{label}: strong among five {m}: {single_seat(bot, m, **kw)}"
                      f" ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
