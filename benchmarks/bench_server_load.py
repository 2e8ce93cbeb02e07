"""Load benchmark of the web server (issue #6): many simulated players on loopback.

Starts ``darkcity serve`` on 127.0.0.1 (a temporary SQLite file), creates rooms of
six, and connects one WebSocket client per seat (``darkcity.server.testing.
ScriptedPlayer``): each answers its decision points with a random legal choice
after a short "thinking" pause, as a quick player would. Every client stops when
its game is over or when the time runs out; the whole run is bounded by
``--duration`` and ``--clients``. Only loopback addresses are used.

Prints the number of clients, the decisions made, the commit-to-acknowledge
latency (client side: from sending a decision to receiving its ``ack``, which the
server sends only once the decision is stored) at p50 / p90 / p99 / max, and
the messages the clients received per second.

    python3 benchmarks/bench_server_load.py                 # 1,002 players, 60 s
    python3 benchmarks/bench_server_load.py --clients 120 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from darkcity.server.testing import ScriptedPlayer

ROOM = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DARKCITY_BOT_DELAY_S": "0.1", "DARKCITY_MAX_ROOMS": "100000"}
    profile = os.environ.get("DARKCITY_BENCH_PROFILE")  # a cProfile output file
    prefix = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen(
        [sys.executable, *prefix, "-m", "darkcity", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", f"sqlite:///{db}"], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def run(port: int, clients: int, duration: float, think: tuple[float, float],
              decide_s: float, beat_s: float, seed: int) -> dict[str, float]:
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    rooms = clients // ROOM
    rng = random.Random(seed)
    seats: list[tuple[str, str]] = []  # (code, token); the first of each room hosts
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for r in range(rooms):
            made = (await http.post("/api/rooms", json={
                "name": "P0", "players": ROOM, "pace": "fast", "decide_s": decide_s,
                "beat_s": beat_s})).json()
            seats.append((made["code"], made["token"]))
            for k in range(1, ROOM):
                joined = (await http.post(f"/api/rooms/{made['code']}/join",
                                          json={"name": f"P{k}"})).json()
                seats.append((made["code"], joined["token"]))
            if r % 50 == 49:
                print(f"  {r + 1} rooms created", file=sys.stderr)
    players = [ScriptedPlayer(ws, code, token, random.Random(rng.random()), think_s=think,
                              keep=False) for code, token in seats]
    stop = asyncio.Event()
    t0 = time.perf_counter()

    async def one(i: int, p: ScriptedPlayer) -> None:
        await asyncio.sleep((i // ROOM) * 0.02)  # ramp up: a room every 20 ms
        with contextlib.suppress(Exception):
            await p.play(stop=stop, deadline_s=duration, start=(i % ROOM == 0))

    tasks = [asyncio.create_task(one(i, p)) for i, p in enumerate(players)]
    await asyncio.wait(tasks, timeout=duration + 15)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - t0
    lat = [x for p in players for x in p.latencies]
    received = sum(p.received for p in players)
    return {
        "clients": len(players), "rooms": rooms, "seconds": elapsed,
        "decisions": len(lat), "games_over": sum(p.over for p in players) / ROOM,
        "p50_ms": percentile(lat, 0.50) * 1000, "p90_ms": percentile(lat, 0.90) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000, "max_ms": max(lat, default=0) * 1000,
        "mean_ms": (statistics.fmean(lat) if lat else 0) * 1000,
        "messages": received, "messages_per_s": received / elapsed,
        "decisions_per_s": len(lat) / elapsed,
        "errors": sum(len(p.errors) for p in players),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=1002, help="simulated players (rooms of 6)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play, at most")
    ap.add_argument("--think-min", type=float, default=0.5, help="seconds, at least")
    ap.add_argument("--think-max", type=float, default=2.5, help="seconds, at most")
    ap.add_argument("--decide-s", type=float, default=20.0, help="the rooms' deadline")
    ap.add_argument("--beat-s", type=float, default=0.1, help="the rooms' count beat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.clients < ROOM:
        raise SystemExit("--clients: at least one room of 6")
    gc.freeze()
    gc.set_threshold(20000, 20, 20)
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "load.sqlite3", port)
        try:
            out = asyncio.run(run(port, args.clients, args.duration,
                                  (args.think_min, args.think_max), args.decide_s,
                                  args.beat_s, args.seed))
        finally:
            server.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
            if server.poll() is None:
                server.kill()
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"clients {out['clients']} in {out['rooms']} rooms of {ROOM}, "
          f"{out['seconds']:.1f} s, {out['games_over']:.0f} games finished")
    print(f"decisions acknowledged {out['decisions']} ({out['decisions_per_s']:.0f}/s), "
          f"errors {out['errors']}")
    print(f"commit-to-ack latency: p50 {out['p50_ms']:.1f} ms, p90 {out['p90_ms']:.1f} ms, "
          f"p99 {out['p99_ms']:.1f} ms, max {out['max_ms']:.1f} ms")
    print(f"messages received {out['messages']} ({out['messages_per_s']:.0f}/s)")


if __name__ == "__main__":
    main()
