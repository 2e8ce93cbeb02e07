"""Throughput of the rules engine (issue #2, "Speed").

Generates N random valid 6-player nights with a seeded ``random.Random`` (mixed
casts: basic, advanced editions, special cast; see ``nightgen.py``) and measures:

(a) ``darkcity.night.resolve`` on pre-parsed ``Night`` values, one core
    (target: >= 20,000 nights/s);
(b) the bulk path: ``darkcity adjudicate nights.jsonl`` end to end in a subprocess,
    and the same loop in process (JSON text -> ``read_round`` -> ``resolve`` ->
    ``result_document`` -> ``json.dumps``) (target: >= 10,000 nights/s).

Run from the repository root::

    python benchmarks/bench_engine.py              # 20,000 nights, best of 3
    python benchmarks/bench_engine.py -n 50000 -r 5 --seed 7
    python benchmarks/bench_engine.py --quick      # a smoke run (2,000 nights)

Timing only: nothing here asserts (the unit tests never time anything).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nightgen import random_round

from darkcity import compiled
from darkcity.bulk import adjudicate_lines
from darkcity.night import resolve
from darkcity.notation import read_round, result_document

TARGET_RESOLVE = 20_000
TARGET_BULK = 10_000


def _all_cores() -> None:
    """In the CLI's child process: undo the benchmark's pinning (the CLI uses every core)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def default_jobs_all() -> int:
    return os.cpu_count() or 1


def _pin_one_core(cpu: int | None) -> str:
    """Run on one core where the OS allows it (Linux): ``cpu``, or the last allowed one."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        if cpu is None:
            cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def _best(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs, garbage collector off while timing."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        gc.enable()
    return min(times)


def _verdict(rate: float, target: int) -> str:
    return "ok" if rate >= target else "BELOW TARGET"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--nights", type=int, default=20_000)
    ap.add_argument("-r", "--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--quick", action="store_true", help="2,000 nights, 1 repeat")
    ap.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (Linux)")
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess measurement")
    ap.add_argument("--cli-repeat", type=int, default=1, help="runs of the CLI (best kept)")
    args = ap.parse_args(argv)
    if args.quick:
        args.nights, args.repeat = 2_000, 1

    pinned = _pin_one_core(args.cpu)
    rng = random.Random(args.seed)
    casts = ("basic", "advanced", "special")
    docs = [random_round(rng, players=args.players, cast=casts[i % 3])
            for i in range(args.nights)]
    lines = [json.dumps(d, ensure_ascii=False) for d in docs]
    nights = [read_round(d) for d in docs]
    n = len(nights)
    mix = Counter(casts[i % 3] for i in range(n))
    print(f"darkcity engine benchmark: {n:,} random valid {args.players}-player nights "
          f"(seed {args.seed}; {', '.join(f'{k} {v:,}' for k, v in mix.items())}), "
          f"best of {args.repeat}, {pinned}, Python {sys.version.split()[0]}, engine "
          f"{'compiled (mypyc)' if compiled() else 'pure Python (an editable install)'}")

    # (a) resolve() on pre-parsed nights
    def run_resolve() -> None:
        for night in nights:
            resolve(night)

    t = _best(run_resolve, args.repeat)
    rate_a = n / t
    print(f"(a) resolve(), pre-parsed Night        : {rate_a:>10,.0f} nights/s "
          f"({t * 1e6 / n:6.1f} us/night)  target {TARGET_RESOLVE:,}: "
          f"{_verdict(rate_a, TARGET_RESOLVE)}")

    # where the bulk time goes (one pass each, same nights)
    # the bulk path's JSON codec (orjson, a dependency)
    import orjson

    parsed = [orjson.loads(line) for line in lines]
    stages: list[tuple[str, Callable[[], object]]] = [
        ("orjson.loads", lambda: [orjson.loads(line) for line in lines]),
        ("read_round (parse + validate)", lambda: [read_round(d) for d in parsed]),
        ("resolve", lambda: [resolve(x) for x in nights]),
    ]
    results = [resolve(x) for x in nights]
    stages.append(("result_document (incl. narration)",
                   lambda: [result_document(r) for r in results]))
    rdocs = [result_document(r) for r in results]
    stages.append(("orjson.dumps", lambda: [orjson.dumps(r) for r in rdocs]))
    parts = []
    for name, fn in stages:
        t = _best(fn, args.repeat)
        parts.append(f"{name} {t * 1e6 / n:.0f}")
    print("    per-night stages (us): " + "; ".join(parts))

    # (b1) the CLI's bulk loop in process, on this one core: JSON text in, JSON text out
    numbered = list(enumerate(lines, 1))

    def run_bulk() -> None:
        adjudicate_lines(numbered, jobs=1)

    t = _best(run_bulk, args.repeat)
    rate_b1 = n / t
    print(f"(b) bulk loop in process, one core     : {rate_b1:>10,.0f} nights/s "
          f"({t * 1e6 / n:6.1f} us/night)  (the bar is the CLI's, below)")

    if not args.no_cli:
        with tempfile.TemporaryDirectory() as tmp:
            big = Path(tmp) / "nights.jsonl"
            big.write_text("\n".join(lines) + "\n", encoding="utf-8")
            one = Path(tmp) / "two.jsonl"
            one.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
            cmd = [sys.executable, "-m", "darkcity", "adjudicate"]

            def cli(path: Path) -> float:
                best = float("inf")
                for _ in range(args.cli_repeat):
                    t0 = time.perf_counter()
                    p = subprocess.run([*cmd, str(path)], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, check=False,
                                       preexec_fn=_all_cores)
                    best = min(best, time.perf_counter() - t0)
                    if p.returncode != 0:
                        raise SystemExit(f"darkcity adjudicate failed: {p.stderr.decode()}")
                return best

            t_big = cli(big)
            t_start = cli(one)
            rate_e2e = n / t_big
            rate_net = n / max(t_big - t_start, 1e-9)
            print(f"(b) CLI `darkcity adjudicate file.jsonl` ({default_jobs_all()} worker "
                  f"processes, every core):")
            print(f"                                         {rate_e2e:>10,.0f} nights/s "
                  f"end to end ({t_big:.2f} s incl. {t_start:.2f} s start-up); "
                  f"{rate_net:,.0f} nights/s net of start-up  target {TARGET_BULK:,}: "
                  f"{_verdict(rate_e2e, TARGET_BULK)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
