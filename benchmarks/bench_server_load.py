"""Load benchmark of the web server (issues #6, #14): many simulated players on loopback.

By default it starts one ``darkcity serve`` on 127.0.0.1 (a temporary SQLite file);
``--processes N --redis URL --db URL`` starts N processes sharing their rooms over
Redis and PostgreSQL; ``--servers URL,URL...`` uses servers already running. Rooms of
six are created round-robin over the servers; each seat is one WebSocket client
(``darkcity.server.testing.ScriptedPlayer``) on its room's server (``--spread rooms``)
or on the next server after the previous seat's (``--spread players``: most sockets
then reach their room through another process, as behind a load balancer). Each
client answers its decision points with a random legal choice after a short
"thinking" pause, until its game is over or the time runs out; the whole run is
bounded by ``--duration`` and ``--clients``. Only loopback addresses are used.

It reports, measured on the clients:

- the **decision-to-ack** latency (sending a decision to receiving its ``ack``, which
  the server sends once the decision is stored), p50 / p90 / p99 / max;
- the **reveal** latency net of the count: receiving the reveal's ``state`` minus the
  instant the Mayor's "1, 2, 3, now!" ends (``count.start + beats × beat``; one clock,
  loopback), p50 / p90 / p99 / max;
- messages and bytes received per decision (and the messages by type);
- the servers' CPU time per decision (user + system, from ``psutil``: the processes it
  started, or those listening on the ``--servers`` ports), and the errors by code.

    python3 benchmarks/bench_server_load.py                 # 1,002 players, 60 s
    python3 benchmarks/bench_server_load.py --clients 120 --duration 20
    python3 benchmarks/bench_server_load.py --processes 3 --redis redis://127.0.0.1:6379/0 \\
        --db postgresql+psycopg://darkcity@127.0.0.1/darkcity --clients 2004
    python3 benchmarks/bench_server_load.py --servers http://127.0.0.1:8001,http://127.0.0.1:8002
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from darkcity.server.testing import ScriptedPlayer

ROOM = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


#: The started servers' settings: a load test from one address lifts the per-address
#: limits of #13 (benchmarks/server_probe.py uses the same).
SERVER_ENV = {"DARKCITY_BOT_DELAY_S": "0.1", "DARKCITY_MAX_ROOMS": "100000",
              "DARKCITY_MAX_SOCKETS_PER_ADDRESS": "100000",
              "DARKCITY_CREATE_PER_MIN": "1000000", "DARKCITY_CREATE_BURST": "100000",
              "DARKCITY_JOIN_PER_MIN": "1000000", "DARKCITY_JOIN_BURST": "100000",
              "DARKCITY_MIN_BEAT_S": "0.05"}


def start_server(db: str, port: int, redis: str | None = None) -> subprocess.Popen[bytes]:
    env = {**os.environ, **SERVER_ENV}
    profile = os.environ.get("DARKCITY_BENCH_PROFILE")  # a cProfile output file
    prefix = ["-m", "cProfile", "-o", f"{profile}.{port}"] if profile else []
    cmd = [sys.executable, *prefix, "-m", "darkcity", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", db]
    if redis:
        cmd += ["--redis", redis]
    logs = os.environ.get("DARKCITY_BENCH_LOGS")  # a folder for each server's stderr
    err = open(Path(logs) / f"server-{port}.log", "wb") if logs else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)


def wait_up(base: str, proc: subprocess.Popen[bytes] | None = None) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server at {base} exited ({proc.returncode})")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"the server at {base} did not start")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Cpu:
    """User + system CPU seconds of the server processes (psutil), if it can see them."""

    def __init__(self, pids: list[int]) -> None:
        try:
            import psutil
        except ImportError:
            self.procs: list[Any] = []
            return
        self.procs = []
        for pid in pids:
            with contextlib.suppress(psutil.Error):
                self.procs.append(psutil.Process(pid))

    def seconds(self) -> float | None:
        if not self.procs:
            return None
        total = 0.0
        for p in self.procs:
            with contextlib.suppress(Exception):
                t = p.cpu_times()
                total += t.user + t.system
                for child in p.children(recursive=True):  # bot workers
                    with contextlib.suppress(Exception):
                        c = child.cpu_times()
                        total += c.user + c.system
        return total


def listening_pids(bases: list[str]) -> list[int]:
    """The processes listening on the servers' loopback ports (psutil; root sees all)."""
    try:
        import psutil
    except ImportError:
        return []
    ports = {urlparse(b).port for b in bases}
    pids: set[int] = set()
    with contextlib.suppress(psutil.Error):
        for c in psutil.net_connections(kind="tcp"):
            if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port in ports and c.pid:
                pids.add(c.pid)
    return sorted(pids)


async def run(bases: list[str], clients: int, duration: float, think: tuple[float, float],
              decide_s: float, beat_s: float, seed: int, spread: str,
              cpu: Cpu) -> dict[str, Any]:
    rooms = clients // ROOM
    rng = random.Random(seed)
    seats: list[tuple[int, str, str]] = []  # (server, code, token); a room's first hosts
    n = len(bases)
    http = [httpx.AsyncClient(base_url=b, timeout=30) for b in bases]
    try:
        for r in range(rooms):
            made = (await http[r % n].post("/api/rooms", json={
                "name": "P0", "players": ROOM, "pace": "fast", "decide_s": decide_s,
                "beat_s": beat_s})).json()
            seats.append((r % n, made["code"], made["token"]))
            for k in range(1, ROOM):
                joined = (await http[(r + k) % n].post(f"/api/rooms/{made['code']}/join",
                                                       json={"name": f"P{k}"})).json()
                seats.append(((r + k) % n if spread == "players" else r % n, made["code"],
                              joined["token"]))
            if r % 50 == 49:
                print(f"  {r + 1} rooms created", file=sys.stderr)
    finally:
        for h in http:
            await h.aclose()
    ws = [b.replace("http://", "ws://", 1).replace("https://", "wss://", 1) for b in bases]
    players = [ScriptedPlayer(ws[s], code, token, random.Random(rng.random()), think_s=think,
                              keep=False) for s, code, token in seats]
    stop = asyncio.Event()
    # The load client must not time itself: its collector's pauses (tens of ms with
    # 1,000 sockets' messages to parse) would land on every message being received
    # then, six at once at a reveal. Off while playing, its memory checked below.
    gc.collect()
    gc.disable()
    rss0 = _rss_mib()
    t0 = time.perf_counter()
    cpu0 = cpu.seconds()

    async def one(i: int, p: ScriptedPlayer) -> None:
        await asyncio.sleep((i // ROOM) * 0.02)  # ramp up: a room every 20 ms
        with contextlib.suppress(Exception):
            await p.play(stop=stop, deadline_s=duration, start=(i % ROOM == 0))

    tasks = [asyncio.create_task(one(i, p)) for i, p in enumerate(players)]
    await asyncio.wait(tasks, timeout=duration + 15)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - t0
    cpu1 = cpu.seconds()
    client_growth = _rss_mib() - rss0
    gc.enable()
    lat = [x for p in players for x in p.latencies]
    reveals = [x for p in players for x in p.reveals]
    received = sum(p.received for p in players)
    size = sum(p.bytes_received for p in players)
    kinds: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for p in players:
        kinds.update(p.kinds)
        errors.update(str(e.get("code")) for e in p.errors)
    decisions = len(lat)
    per = max(1, decisions)
    server_cpu = (cpu1 - cpu0) if cpu0 is not None and cpu1 is not None else None
    return {
        "servers": len(bases), "spread": spread,
        "clients": len(players), "rooms": rooms, "seconds": elapsed,
        "decisions": decisions, "games_over": sum(p.over for p in players) / ROOM,
        "p50_ms": percentile(lat, 0.50) * 1000, "p90_ms": percentile(lat, 0.90) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000, "max_ms": max(lat, default=0) * 1000,
        "mean_ms": (statistics.fmean(lat) if lat else 0) * 1000,
        "reveals": len(reveals),
        "reveal_p50_ms": percentile(reveals, 0.50) * 1000,
        "reveal_p90_ms": percentile(reveals, 0.90) * 1000,
        "reveal_p99_ms": percentile(reveals, 0.99) * 1000,
        "reveal_max_ms": max(reveals, default=0) * 1000,
        "messages": received, "messages_per_s": received / elapsed,
        "messages_per_decision": received / per, "bytes_per_decision": size / per,
        "by_type_per_decision": {k: round(v / per, 3) for k, v in kinds.most_common()},
        "decisions_per_s": decisions / elapsed,
        "server_cpu_s": server_cpu,
        "server_cpu_ms_per_decision": (server_cpu / per * 1000) if server_cpu is not None
        else None,
        "errors": sum(errors.values()), "errors_by_code": dict(errors),
        "client_rss_growth_mib": client_growth,
    }


def _rss_mib() -> float:
    """The load client's peak resident memory so far, MiB (Linux counts KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=1002, help="simulated players (rooms of 6)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play, at most")
    ap.add_argument("--think-min", type=float, default=0.5, help="seconds, at least")
    ap.add_argument("--think-max", type=float, default=2.5, help="seconds, at most")
    ap.add_argument("--decide-s", type=float, default=20.0, help="the rooms' deadline")
    ap.add_argument("--beat-s", type=float, default=0.1, help="the rooms' count beat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--servers", help="comma-separated base URLs of running servers "
                                      "(http://127.0.0.1:8001,...): nothing is started")
    ap.add_argument("--processes", type=int, default=1,
                    help="servers to start (more than one needs --redis and --db)")
    ap.add_argument("--redis", help="Redis URL for the started servers")
    ap.add_argument("--db", help="database URL for the started servers (default: a "
                                 "temporary SQLite file)")
    ap.add_argument("--spread", choices=("rooms", "players"), default="rooms",
                    help="rooms: a room's players on its server; players: seats round-robin "
                         "over the servers")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.clients < ROOM:
        raise SystemExit("--clients: at least one room of 6")
    if args.processes > 1 and not (args.redis and args.db):
        raise SystemExit("--processes N needs --redis URL and --db URL (PostgreSQL)")
    gc.freeze()
    gc.set_threshold(20000, 20, 20)
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    started: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.servers:
            bases = [b.strip().rstrip("/") for b in args.servers.split(",") if b.strip()]
            pids = listening_pids(bases)
        else:
            db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
            bases = []
            for _ in range(args.processes):
                port = free_port()
                started.append(start_server(db, port, args.redis))
                bases.append(f"http://127.0.0.1:{port}")
            pids = [p.pid for p in started]
        try:
            for i, b in enumerate(bases):
                wait_up(b, started[i] if started else None)
            out = asyncio.run(run(bases, args.clients, args.duration,
                                  (args.think_min, args.think_max), args.decide_s,
                                  args.beat_s, args.seed, args.spread, Cpu(pids)))
        finally:
            for server in started:
                server.send_signal(signal.SIGINT)
            for server in started:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(15)
                if server.poll() is None:
                    server.kill()
    if args.json:
        print(json.dumps(out, indent=1))
        return
    cpu = out["server_cpu_ms_per_decision"]
    print(f"clients {out['clients']} in {out['rooms']} rooms of {ROOM} on {out['servers']} "
          f"server(s) (spread: {out['spread']}), {out['seconds']:.1f} s, "
          f"{out['games_over']:.0f} games finished")
    print(f"decisions acknowledged {out['decisions']} ({out['decisions_per_s']:.0f}/s), "
          f"errors {out['errors']} {out['errors_by_code'] or ''}")
    print(f"decision-to-ack: p50 {out['p50_ms']:.1f} ms, p90 {out['p90_ms']:.1f} ms, "
          f"p99 {out['p99_ms']:.1f} ms, max {out['max_ms']:.1f} ms")
    print(f"reveal net of the count ({out['reveals']}): p50 {out['reveal_p50_ms']:.1f} ms, "
          f"p90 {out['reveal_p90_ms']:.1f} ms, p99 {out['reveal_p99_ms']:.1f} ms, "
          f"max {out['reveal_max_ms']:.1f} ms")
    print(f"per decision: {out['messages_per_decision']:.2f} messages, "
          f"{out['bytes_per_decision']:.0f} bytes, server CPU "
          + (f"{cpu:.2f} ms" if cpu is not None else "unknown (psutil)"))
    print(f"  messages by type per decision: {out['by_type_per_decision']}")
    print(f"messages received {out['messages']} ({out['messages_per_s']:.0f}/s); the load "
          f"client's peak memory grew {out['client_rss_growth_mib']:.0f} MiB (collector off)")


if __name__ == "__main__":
    main()
