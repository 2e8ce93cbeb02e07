"""``darkcity serve`` with probes, to see where a load test's latency tail comes from.

Runs the app as ``darkcity serve`` does (uvicorn, uvloop, the same WebSocket options;
the load benchmark's server settings) and, on SIGINT, prints to stderr as JSON: the
event loop's lag (a 1 ms sleeper: how late it wakes), each garbage collection's pause
(wall and CPU time, per generation), and the time spent in the rooms' hot functions.
Drive it with the load benchmark:

    python3 benchmarks/server_probe.py 8731 sqlite:////tmp/probe.sqlite3 &
    python3 benchmarks/bench_server_load.py --servers http://127.0.0.1:8731 --json
    kill -INT %1

``--gc 20000,20,20`` replaces the server's collector thresholds (a trial). The probes
cost a little CPU of their own; compare runs made with them, not against runs without.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import uvicorn

from darkcity import room as R
from darkcity.server import ServerConfig, create_app
from darkcity.server import manager as M
from darkcity.server import storage as S

TIMES: dict[str, list[float]] = collections.defaultdict(list)
HOT = [(R.Room, "_broadcast_now"), (R.Room, "tick"), (M.RoomManager, "tick"),
       (S.Storage, "append_decision"), (S.Storage, "save_room"), (R.Room, "_progress_now"),
       (R.Room, "send_state"), (R.Room, "decide"), (R.Room, "connect"), (R.Room, "_lobby_now")]


def timed(cls: Any, name: str) -> None:
    f = getattr(cls, name)
    key = f"{cls.__name__}.{name}"

    @functools.wraps(f)
    def wrapper(*a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return f(*a, **kw)
        finally:
            TIMES[key].append(time.perf_counter() - t)

    setattr(cls, name, wrapper)


PAUSES: list[tuple[int, float, float]] = []  # generation, wall, CPU
_started: dict[str, float] = {}


def on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started["wall"], _started["cpu"] = time.perf_counter(), time.thread_time()
    elif _started:
        PAUSES.append((info["generation"], time.perf_counter() - _started["wall"],
                       time.thread_time() - _started["cpu"]))


LAGS: list[float] = []


async def lag_probe() -> None:
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        LAGS.append(time.perf_counter() - t - 0.001)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else 0.0


def report() -> dict[str, Any]:
    out: dict[str, Any] = {"lag_ms": {
        "p50": pct(LAGS, .5), "p99": pct(LAGS, .99), "p999": pct(LAGS, .999),
        "max": max(LAGS, default=0) * 1000, "over_10ms": sum(x > .01 for x in LAGS),
        "seconds_over_10ms": sum(x for x in LAGS if x > .01)}}
    for g in (0, 1, 2):
        mine = [(w, c) for gg, w, c in PAUSES if gg == g]
        if mine:
            out[f"gc{g}"] = {"n": len(mine), "max_ms": max(w for w, _c in mine) * 1000,
                             "max_cpu_ms": max(c for _w, c in mine) * 1000,
                             "cpu_s": sum(c for _w, c in mine)}
    for key, xs in TIMES.items():
        out[key] = {"n": len(xs), "mean_ms": sum(xs) / len(xs) * 1000, "p99_ms": pct(xs, .99),
                    "max_ms": max(xs) * 1000, "total_s": sum(xs)}
    return out


async def serve(port: int, db: str) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_server_load import SERVER_ENV  # the load benchmark's server settings

    os.environ.update(SERVER_ENV)
    config = uvicorn.Config(create_app(ServerConfig.from_env(db_url=db)), host="127.0.0.1",
                            port=port, log_level="warning", ws_max_size=16384,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            ws_per_message_deflate=False)
    probe = asyncio.create_task(lag_probe())
    try:
        await uvicorn.Server(config).serve()
    finally:
        probe.cancel()
        print(json.dumps(report(), indent=1), file=sys.stderr, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", type=int)
    ap.add_argument("db", help="database URL (sqlite:///... or postgresql+psycopg://...)")
    ap.add_argument("--gc", help="collector thresholds to use instead of the server's")
    args = ap.parse_args()
    if args.gc:  # the app sets its own in its start-up: this one wins
        want = tuple(int(x) for x in args.gc.split(","))
        real = gc.set_threshold
        gc.set_threshold = lambda *_a: real(*want)
    for cls, name in HOT:
        timed(cls, name)
    gc.callbacks.append(on_gc)
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(args.port, args.db))
    else:
        uvloop.run(serve(args.port, args.db))


if __name__ == "__main__":
    main()
