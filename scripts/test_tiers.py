#!/usr/bin/env python3
"""Run the suite's fast tier and print its time, the whole suite's beside it on request,
and where the time goes (the slowest files and tests).

    python3 scripts/test_tiers.py                  # the fast tier
    python3 scripts/test_tiers.py --whole          # the fast tier, then the whole suite
    python3 scripts/test_tiers.py --tier browser   # another tier (fast, browser, compiled,
                                                   # services, slow, whole); repeatable
    python3 scripts/test_tiers.py --top 20 -- -n 0 # pytest's own options after --

Each run is ``python3 -m pytest -m <tier>`` from the repository's root (the suite's
``-n auto`` workers where pytest-xdist is installed; ``-- -n 0`` runs in one process).
Printed per run: the tests passed/failed, the wall time, the CPU time of pytest and
everything it waited for (its workers, servers, browsers: a figure the machine's other
load changes less than the wall time), and the load average before and after, then
the files and tests that took longest (each test's own time, summed per file: with
workers these add up to more than the wall time). Exit status: 1 when a run failed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The tiers as marker expressions (the markers are registered in pyproject.toml).
FAST = "not browser and not compiled and not services and not slow"
TIERS = {
    "fast": FAST,
    "browser": "browser",
    "compiled": "compiled",
    "services": "services",
    "slow": "slow and not browser and not compiled and not services",
    "whole": "",
}


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _test_times(junit: Path) -> list[tuple[str, str, float, str]]:
    """(file, test, seconds, outcome) of every test case in a JUnit XML report."""
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname", "")
        parts = module.split(".")
        path = module
        for i in range(len(parts), 0, -1):  # tests.test_x.TestClass -> tests/test_x.py
            candidate = "/".join(parts[:i]) + ".py"
            if (ROOT / candidate).exists():
                path = candidate
                break
        outcome = "passed"
        for tag in ("failure", "error", "skipped"):
            if case.find(tag) is not None:
                outcome = tag
        name = case.get("name", "").split("@")[0]  # (xdist's group, after the test's id)
        out.append((path, name, float(case.get("time", 0) or 0), outcome))
    return out


def run_tier(name: str, extra: list[str], top: int) -> tuple[bool, float]:
    expr = TIERS[name]
    with tempfile.TemporaryDirectory(prefix="darkcity-tiers-") as tmp:
        junit = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               f"--junitxml={junit}", *(["-m", expr] if expr else []), *extra]
        shown = " ".join(f'"{a}"' if " " in a else a for a in cmd[1:] if "junitxml" not in a)
        print(f"\n== {name}: python3 {shown}", flush=True)
        load0 = os.getloadavg()[0]
        cpu0, t0 = _cpu_children(), time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - t0, _cpu_children() - cpu0
        load1 = os.getloadavg()[0]
        lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
        summary = next((ln for ln in reversed(lines) if re.search(r"\d+ (passed|failed)", ln)),
                       lines[-1] if lines else "(no summary)")
        if done.returncode not in (0, 5):
            tail = "\n".join(done.stdout.splitlines()[-40:])
            print(tail + "\n" + done.stderr[-2000:])
        print(f"{name}: {summary.strip('= ')}")
        print(f"{name}: {wall:.0f} s wall, {cpu:.0f} s CPU (pytest and what it waited for), "
              f"load average {load0:.1f} before, {load1:.1f} after, {os.cpu_count()} CPUs")
        if junit.exists():
            times = _test_times(junit)
            per_file: dict[str, list[float]] = defaultdict(list)
            for path, _test, secs, _outcome in times:
                per_file[path].append(secs)
            print(f"{name}: slowest files (each test's own time, summed; tests)")
            for path, secs in sorted(per_file.items(), key=lambda kv: -sum(kv[1]))[:top]:
                print(f"  {sum(secs):7.1f} s  {len(secs):4d}  {path}")
            print(f"{name}: slowest tests")
            for path, test, secs, outcome in sorted(times, key=lambda t: -t[2])[:top]:
                said = "" if outcome == "passed" else f" ({outcome})"
                print(f"  {secs:7.1f} s  {path}::{test}{said}")
        return done.returncode in (0, 5), wall


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--whole", action="store_true", help="run the whole suite after")
    parser.add_argument("--tier", action="append", choices=sorted(TIERS),
                        help="a tier to run (default: fast); repeatable")
    parser.add_argument("--top", type=int, default=12, help="how many files and tests to list")
    opts = parser.parse_args(args)
    tiers = opts.tier or ["fast"]
    if opts.whole and "whole" not in tiers:
        tiers.append("whole")
    results = {name: run_tier(name, extra, opts.top) for name in tiers}
    print()
    for name, (ok, wall) in results.items():
        print(f"{name:>8}: {wall:6.0f} s  ({wall / 60:.1f} min)  {'ok' if ok else 'FAILED'}")
    return 0 if all(ok for ok, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
