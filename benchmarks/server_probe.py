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

Each **stall** of the loop over ``--stall-ms`` (20 ms) is attributed (``stalls`` in the
report, worst first): the main thread's own CPU time during it (``cpu_ms``: a stall
with little CPU is the process waiting for a core, the machine's load, not its own
work), the collections, storage calls and broadcasts that overlapped it (wall and CPU
each), and where the main thread was when a watchdog thread looked (``where``: the
innermost darkcity frames, sampled every 5 ms while the loop is late). Storage calls
are timed one by one (wall and CPU: a commit that waits for the disk shows a wall
far above its CPU). ``load`` is ``os.getloadavg()`` at the start and at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import gc
import json
import os
import resource
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import uvicorn

from darkcity.server import ServerConfig, create_app
from darkcity.server import manager as M
from darkcity.server import storage as S

try:
    from darkcity import room as R
except ImportError:  # before the rooms left the server package
    from darkcity.server import room as R  # type: ignore[no-redef]

TIMES: dict[str, list[float]] = collections.defaultdict(list)
CPUS: dict[str, list[float]] = collections.defaultdict(list)
HOT = [(R.Room, "_broadcast_now"), (R.Room, "tick"), (M.RoomManager, "tick"),
       (S.Storage, "append_decision"), (S.Storage, "save_room"), (R.Room, "_progress_now"),
       (R.Room, "send_state"), (R.Room, "decide"), (R.Room, "connect"), (R.Room, "_lobby_now"),
       (S.Storage, "create_room"), (S.Storage, "load_room"), (S.Storage, "code_taken"),
       (S.Storage, "decisions")]
#: (kind, start, end, CPU seconds) of what may block the loop: collections, storage
#: calls, broadcasts (every interval of the run: they are matched to the stalls)
SPANS: list[tuple[str, float, float, float]] = []
_SPANNED = ("Storage.", "Room._broadcast_now", "Room._progress_now", "RoomManager.tick")


def timed(cls: Any, name: str) -> None:
    f = getattr(cls, name)
    key = f"{cls.__name__}.{name}"
    spanned = key.startswith(_SPANNED)

    @functools.wraps(f)
    def wrapper(*a: Any, **kw: Any) -> Any:
        t, c = time.perf_counter(), time.thread_time()
        try:
            return f(*a, **kw)
        finally:
            end, cpu = time.perf_counter(), time.thread_time() - c
            TIMES[key].append(end - t)
            CPUS[key].append(cpu)
            if spanned and end - t > 0.002:
                SPANS.append((key, t, end, cpu))

    setattr(cls, name, wrapper)


PAUSES: list[tuple[int, float, float]] = []  # generation, wall, CPU
COLLECTED: collections.Counter[int] = collections.Counter()  # generation: objects freed
_started: dict[str, float] = {}
#: the older collections (generation 1 and 2): (seconds since start, generation,
#: objects it looked at, CPU ms)
OLDER: list[tuple[float, int, int, float]] = []
_scanned = {"n": 0}
T0 = time.perf_counter()


def on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        if info["generation"] > 0:  # rare: how many objects it is to look at
            _scanned["n"] = sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1))
        _started["wall"], _started["cpu"] = time.perf_counter(), time.thread_time()
    elif _started:
        end = time.perf_counter()
        wall, cpu = end - _started["wall"], time.thread_time() - _started["cpu"]
        PAUSES.append((info["generation"], wall, cpu))
        COLLECTED[info["generation"]] += info["collected"]
        if info["generation"] > 0:
            OLDER.append((round(end - T0, 1), info["generation"], _scanned["n"],
                          round(cpu * 1000, 1)))
        if wall > 0.002:
            SPANS.append((f"gc{info['generation']}", _started["wall"], end, cpu))


LAGS: list[float] = []
#: (start, end, main thread's CPU seconds) of each stall over the threshold
STALLS: list[tuple[float, float, float]] = []
STALL_S = 0.020
_beat = {"t": time.perf_counter()}
WHERE: list[tuple[float, str]] = []  # (when, the main thread's darkcity frames)


async def lag_probe() -> None:
    while True:
        t, c = time.perf_counter(), time.thread_time()
        _beat["t"] = t
        await asyncio.sleep(0.001)
        end = time.perf_counter()
        LAGS.append(end - t - 0.001)
        if end - t - 0.001 > STALL_S:
            STALLS.append((t, end, time.thread_time() - c))


def _frames(frame: Any) -> str:
    stack = traceback.extract_stack(frame)[::-1]  # innermost first
    out = [f"{Path(stack[0].filename).stem}.{stack[0].name}"] if stack else []
    for fs in stack[1:]:
        if "darkcity" in fs.filename and len(out) < 4:
            out.append(f"{Path(fs.filename).stem}.{fs.name}")
    return " < ".join(out)


def watchdog(main_id: int) -> None:
    """Look at the main thread while the loop is late (every 5 ms)."""
    while True:
        time.sleep(0.005)
        now = time.perf_counter()
        if now - _beat["t"] > 0.010:
            frame = sys._current_frames().get(main_id)
            if frame is not None:
                WHERE.append((now, _frames(frame)))


def attribute() -> list[dict[str, Any]]:
    out = []
    for start, end, cpu in sorted(STALLS, key=lambda s: s[0] - s[1])[:40]:
        over = [(k, max(a, start), min(b, end), c) for k, a, b, c in SPANS if a < end and b > start]
        causes: dict[str, list[float]] = {}
        for k, a, b, c in over:
            w = causes.setdefault(k, [0.0, 0.0, 0])
            w[0] += (b - a) * 1000
            w[1] += c * 1000
            w[2] += 1
        where = collections.Counter(w for t, w in WHERE if start <= t <= end)
        out.append({"ms": round((end - start) * 1000, 1), "cpu_ms": round(cpu * 1000, 1),
                    "causes": {k: {"wall_ms": round(v[0], 1), "cpu_ms": round(v[1], 1),
                                   "n": v[2]} for k, v in causes.items()},
                    "where": dict(where.most_common(3))})
    return out


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
                             "cpu_s": sum(c for _w, c in mine), "collected": COLLECTED[g],
                             "cpu_ms_each": sorted(round(c * 1000, 1) for _w, c in mine)[-8:]}
    out["older_collections"] = OLDER
    objects = gc.get_objects()
    out["heap"] = {"tracked": len(objects), "frozen": gc.get_freeze_count(),
                   "by_generation": [len(gc.get_objects(g)) for g in (0, 1, 2)],
                   "types": collections.Counter(type(o).__name__ for o in objects)
                   .most_common(12)}
    out["per_room"] = per_room(objects)
    del objects
    # what a full collection frees now: the garbage in cycles that waited in the old
    # generation (it has none in play at the server's thresholds) and the young ones
    gc.callbacks.remove(on_gc)
    t = time.thread_time()
    out["full_collection_at_end"] = {"collected": gc.collect(),
                                     "cpu_ms": (time.thread_time() - t) * 1000}
    for key, xs in TIMES.items():
        cs = CPUS[key]
        out[key] = {"n": len(xs), "mean_ms": sum(xs) / len(xs) * 1000, "p99_ms": pct(xs, .99),
                    "max_ms": max(xs) * 1000, "total_s": sum(xs),
                    "cpu_mean_ms": sum(cs) / len(cs) * 1000, "cpu_p99_ms": pct(cs, .99),
                    "cpu_max_ms": max(cs) * 1000}
    decisions = len(TIMES.get("Storage.append_decision", []))
    young = sum(1 for g, _w, _c in PAUSES if g == 0)
    if decisions:
        # the collector's count is allocations minus deallocations of tracked objects:
        # each young collection is `threshold0` more of them kept alive since the last
        out["tracked_net_allocs_per_decision"] = young * gc.get_threshold()[0] / decisions
    stalls = STALLS
    out["stalls"] = {"n": len(stalls), "seconds": sum(b - a for a, b, _c in stalls),
                     "cpu_s": sum(c for _a, _b, c in stalls),
                     "n_mostly_cpu": sum(c > 0.5 * (b - a) for a, b, c in stalls),
                     "worst": attribute()}
    ru = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_ms_per_decision"] = (ru.ru_utime + ru.ru_stime) * 1000 / max(1, decisions)
    out["load"] = [LOAD_START, os.getloadavg()]
    out["rss_mib"] = _rss_mib()
    return out


def per_room(objects: list[Any]) -> dict[str, Any]:
    """The tracked objects (not frozen) each field of a room in play holds, its game's
    fields first: a walk of ``gc.get_referents`` from each field in turn (an object
    reached by an earlier field is counted there), averaged over at most 30 rooms."""
    mine = {id(o) for o in objects}
    rooms = [o for o in objects if isinstance(o, R.Room) and o.status == "playing"][:30]
    totals: collections.Counter[str] = collections.Counter()
    for room in rooms:
        seen: set[int] = {id(room)}
        names = [n for c in type(room).__mro__ for n in getattr(c, "__slots__", ())]
        game = getattr(room, "game", None)
        # the game's own fields first (a compiled Game has no __dict__: its annotations)
        names_of = (getattr(game, "__dict__", None)
                    or getattr(type(game), "__annotations__", {}))
        fields = [(n, getattr(game, n)) for n in names_of if hasattr(game, n)] \
            if game is not None else []
        memo = [(f"game.memo[{k!r}]", v) for k, v in getattr(room.game, "memo", {}).items()] \
            if fields else []  # the views' memo, by key
        for name, value in [*memo, *((f"game.{n}", v) for n, v in fields),
                            *((n, getattr(room, n)) for n in [*names, *getattr(
                                room, "__dict__", {})] if hasattr(room, n))]:
            stack, n = [value], 0
            while stack:
                o = stack.pop()
                if id(o) in seen or id(o) not in mine or isinstance(o, R.Room):
                    continue
                seen.add(id(o))
                n += 1
                stack.extend(gc.get_referents(o))
            totals[name] += n
    return {"rooms": len(rooms), "objects_per_room": {
        k: round(v / max(1, len(rooms))) for k, v in totals.most_common(14)}}


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


LOAD_START = os.getloadavg()


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
    ap.add_argument("--stall-ms", type=float, default=20.0,
                    help="a loop lag over this is a stall, attributed in the report")
    args = ap.parse_args()
    global STALL_S
    STALL_S = args.stall_ms / 1000
    threading.Thread(target=watchdog, args=(threading.get_ident(),), daemon=True).start()
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
