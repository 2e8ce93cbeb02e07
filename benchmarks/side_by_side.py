"""darkcity and boardgame.io side by side (issue #33's recipe): alternating runs of the
same load, pair after pair, and the median of the pairs' ratios for each figure.

Each pair: ``bench_server_load.py`` (darkcity: one process, SQLite, started by it) then
boardgame.io 0.50.2 (``bgio/server.js``, in memory or ``--storage flatfile``, and its
load client ``bgio/load.js``), with the same players, thinking pause and duration; the
load average is printed at every start (a quiet machine reads under 1). Loopback only.

    cd benchmarks/bgio && npm install && cd ../..
    python3 benchmarks/side_by_side.py --clients 1002 --pairs 3 --duration 30
    python3 benchmarks/side_by_side.py --clients 2004 --pairs 3 --duration 30 \
        --python /tmp/compiled/bin/python   # darkcity from a compiled install

A ratio is darkcity's figure over boardgame.io's: at or below 1.0 darkcity is ahead.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIGURES = ("p50_ms", "p90_ms", "p99_ms", "max_ms", "reveal_p50_ms", "reveal_p99_ms",
           "messages_per_decision", "bytes_per_decision", "server_cpu_ms_per_decision")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def last_json(text: str) -> dict[str, Any]:
    """The JSON object a run prints last (its figures)."""
    start = text.rfind("\n{")
    start = 0 if start < 0 and text.startswith("{") else start + 1
    try:
        out: dict[str, Any] = json.loads(text[start:])
    except ValueError:
        raise SystemExit(f"a run printed no figures:\n{text[-2000:]}") from None
    return out


def run_darkcity(python: str, clients: int, duration: float, timeout: float) -> dict[str, Any]:
    cmd = [python, str(HERE / "bench_server_load.py"), "--clients", str(clients),
           "--duration", str(duration), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise SystemExit(f"darkcity's run failed:\n{done.stderr[-2000:]}")
    return last_json(done.stdout)


def run_bgio(clients: int, duration: float, storage: str, timeout: float) -> dict[str, Any]:
    if not (HERE / "bgio" / "node_modules" / "boardgame.io").is_dir():
        raise SystemExit("boardgame.io is not installed: cd benchmarks/bgio && npm install")
    port = free_port()
    server = subprocess.Popen(["node", "server.js", "--port", str(port), "--storage", storage],
                              cwd=HERE / "bgio", stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(100):  # up within 10 s
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        done = subprocess.run(
            ["node", "load.js", "--server", f"http://127.0.0.1:{port}", "--clients",
             str(clients), "--duration", str(duration), "--pid", str(server.pid)],
            cwd=HERE / "bgio", capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise SystemExit(f"boardgame.io's run failed:\n{done.stderr[-2000:]}")
        return last_json(done.stdout)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def settle(below: float, most_s: float = 180.0) -> float:
    """The 1-minute load average, once it is below ``below`` (or after ``most_s``)."""
    end = time.monotonic() + most_s
    load = os.getloadavg()[0]
    while below > 0 and load >= below and time.monotonic() < end:
        time.sleep(5)
        load = os.getloadavg()[0]
    return load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=1002)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play a run")
    ap.add_argument("--storage", choices=("memory", "flatfile"), default="memory",
                    help="boardgame.io's store (flatfile: its durable one)")
    ap.add_argument("--python", default=sys.executable,
                    help="the interpreter of darkcity's runs (a compiled install's)")
    ap.add_argument("--out", help="write every run's figures and the ratios as JSON")
    ap.add_argument("--settle", type=float, default=1.0, metavar="LOAD",
                    help="before each run, wait (up to 3 minutes) for the 1-minute load "
                         "average to fall below this: the previous run's own load lingers "
                         "in it (0: do not wait)")
    args = ap.parse_args()
    timeout = args.duration + 600
    runs: list[dict[str, Any]] = []
    for pair in range(args.pairs):
        for name in ("darkcity", "boardgame.io"):
            load = settle(args.settle)
            print(f"pair {pair + 1}, {name}: load average {load:.2f} at the start",
                  file=sys.stderr, flush=True)
            out = (run_darkcity(args.python, args.clients, args.duration, timeout)
                   if name == "darkcity" else
                   run_bgio(args.clients, args.duration, args.storage, timeout))
            runs.append({**out, "pair": pair + 1, "server": name, "load_start": load})
            time.sleep(2)
    ratios: dict[str, list[float]] = {f: [] for f in FIGURES}
    print(f"| {args.clients:,} players | pair | " + " | ".join(FIGURES) + " | errors | load |")
    print("|---|---|" + "---|" * (len(FIGURES) + 2))
    for pair in range(1, args.pairs + 1):
        dc, bg = (next(r for r in runs if r["pair"] == pair and r["server"] == s)
                  for s in ("darkcity", "boardgame.io"))
        for r in (dc, bg):
            errors = r.get("errors")
            errors = sum(errors.values()) if isinstance(errors, dict) else errors
            print(f"| {r['server']} | {pair} | "
                  + " | ".join(f"{r.get(f) or 0:.2f}" for f in FIGURES)
                  + f" | {errors} | {r['load_start']:.2f} |")
        for f in FIGURES:
            a, b = dc.get(f), bg.get(f)
            if a is not None and b:
                ratios[f].append(a / b)
    print("| ratio (median of the pairs) | | " + " | ".join(
        f"{statistics.median(ratios[f]):.2f}" if ratios[f] else "–" for f in FIGURES)
        + " | | |")
    if args.out:
        Path(args.out).write_text(json.dumps({"args": vars(args), "runs": runs, "ratios": ratios},
                                             indent=1))


if __name__ == "__main__":
    main()
