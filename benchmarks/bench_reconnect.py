"""A thousand pages reconnecting to a restarted server (issue #51, "Back at once").

Starts ``darkcity serve`` on 127.0.0.1 (a temporary SQLite file, its per-address limits
raised for one client address), opens ``--sockets`` WebSockets to one room as its
spectators (each says hello and takes its welcome), stops the server (SIGKILL, a crash,
or ``--term``), starts it again ``--down`` seconds later, and lets every socket try again
on the schedule of the page (``static/common/retry.js``, mirrored below as ``RETRY``):
capped exponential from 250 ms with full jitter, the cap 750 ms for the first 30 s of an
outage, then 10 s. ``--schedule old`` replays the earlier one (1, 2, 4, 8, 15 s, no
jitter) for comparison; ``--compare`` runs both, one after the other.

It prints, per schedule, the reconnect-rate curve (tries per 100 ms from the crash, the
moment the server answered marked), the peak and the total of tries, and how long after
the server answered each socket was back (its welcome received): p50 / p90 / p99 / max,
and the share back within 1 s. Only loopback addresses are used; every loop is bounded.

    python3 benchmarks/bench_reconnect.py                  # 1,000 sockets, 2.5 s down
    python3 benchmarks/bench_reconnect.py --compare --sockets 1000 --down 2.5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets

from darkcity.server.protocol import unfold

#: static/common/retry.js's RETRY (milliseconds): change both together.
RETRY = {"base": 250, "cap": 750, "longCap": 10_000, "longAfter": 30_000}
BUCKET_S = 0.1


def delay_new(attempt: int, down_ms: float, rng: random.Random) -> float:
    """retry.js's retryDelay, in seconds."""
    cap = RETRY["cap"] if down_ms < RETRY["longAfter"] else RETRY["longCap"]
    return rng.random() * min(cap, RETRY["base"] * 2 ** min(attempt, 16)) / 1000


def delay_old(attempt: int, down_ms: float, rng: random.Random) -> float:
    """The schedule before issue #51: 1 s, 2 s, 4 s, 8 s, then 15 s, no jitter."""
    return min(15_000, 1000 * 2 ** min(4, attempt)) / 1000


SCHEDULES = {"new": delay_new, "old": delay_old}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, port: int, db: Path, sockets: int) -> None:
        self.port, self.db = port, db
        self.base = f"http://127.0.0.1:{port}"
        self.env = {**os.environ, "DARKCITY_MAX_SOCKETS_PER_ADDRESS": str(sockets * 2),
                    "DARKCITY_MAX_SPECTATORS_PER_ROOM": str(sockets * 2),
                    "DARKCITY_MAX_SPECTATORS_PER_ADDRESS": str(sockets * 2),
                    "DARKCITY_BOT_WORKERS": "0"}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> float:
        """Start it; the monotonic time it first answered /healthz."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "darkcity", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", f"sqlite:///{self.db}"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return time.monotonic()
            time.sleep(0.02)
        raise RuntimeError("the server did not start")

    def stop(self, term: bool) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM if term else signal.SIGKILL)
            self.proc.wait(20)


async def welcome(url: str) -> websockets.ClientConnection | None:
    """A socket that said hello and got its welcome, or None."""
    try:
        ws = await websockets.connect(url, open_timeout=5, max_size=None)
    except (TimeoutError, OSError, websockets.WebSocketException):
        return None
    try:
        await ws.send(json.dumps({"type": "hello"}))
        end = time.monotonic() + 10
        while time.monotonic() < end:
            raw = await asyncio.wait_for(ws.recv(), 10)
            text = raw.decode() if isinstance(raw, bytes) else raw
            if any(m.get("type") == "welcome" for m in unfold(json.loads(text))):
                return ws
    except (TimeoutError, OSError, websockets.WebSocketException, ValueError):
        pass
    with contextlib.suppress(Exception):
        await ws.close()
    return None


async def page(url: str, schedule: str, seed: int, crashed: asyncio.Event,
               tries: list[float], back: list[float], deadline: float,
               ready: list[int]) -> None:
    """One page: connected, then, once the server is gone, trying again on ``schedule``."""
    rng = random.Random(seed)
    ws = None
    for _ in range(100):  # the first connection: a loaded server may turn some away
        ws = await welcome(url)
        if ws is not None:
            break
        await asyncio.sleep(0.2 + rng.random())
    if ws is None:
        raise RuntimeError("a socket could not connect before the crash")
    ready.append(1)
    with contextlib.suppress(websockets.WebSocketException, OSError):
        await ws.wait_closed()
    await crashed.wait()
    down = time.monotonic()
    attempt = 0
    while time.monotonic() < deadline:
        await asyncio.sleep(SCHEDULES[schedule](attempt, (time.monotonic() - down) * 1000, rng))
        attempt += 1
        tries.append(time.monotonic())
        ws = await welcome(url)
        if ws is not None:
            back.append(time.monotonic())
            await ws.close()
            return


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


async def run(schedule: str, sockets: int, down_s: float, term: bool, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(free_port(), Path(tmp) / "bench.sqlite3", sockets)
        server.start()
        try:
            r = httpx.post(f"{server.base}/api/rooms", json={"name": "Ana", "players": 4},
                           timeout=10)
            r.raise_for_status()
            url = f"ws://127.0.0.1:{server.port}/ws/{r.json()['code']}"
            crashed = asyncio.Event()
            tries: list[float] = []
            back: list[float] = []
            deadline = time.monotonic() + 240
            tasks = []
            ready: list[int] = []
            t_open = time.monotonic()
            for i in range(sockets):
                tasks.append(asyncio.create_task(
                    page(url, schedule, seed * 100_003 + i, crashed, tries, back, deadline,
                         ready)))
                if i % 20 == 19:
                    await asyncio.sleep(0.1)  # (the first connections, not a storm)
            end = time.monotonic() + 120
            while len(ready) < sockets and time.monotonic() < end:
                await asyncio.sleep(0.2)
            print(f"{len(ready)} sockets connected in {time.monotonic() - t_open:.1f} s "
                  "(opened 200 a second: the server's welcome throughput bounds the return)",
                  flush=True)
            await asyncio.sleep(1)
            t_crash = time.monotonic()
            await asyncio.to_thread(server.stop, term)
            crashed.set()
            await asyncio.sleep(down_s)
            t_answer = await asyncio.to_thread(server.start)
            await asyncio.wait_for(asyncio.gather(*tasks), 250)
        finally:
            server.stop(True)
    after = [b - t_answer for b in back]
    buckets = Counter(int((x - t_crash) / BUCKET_S) for x in tries)
    last = max(buckets) if buckets else 0
    print(f"\n== schedule {schedule!r}: {sockets} sockets, server down {down_s:.1f} s "
          f"({'SIGTERM' if term else 'SIGKILL'}), answered {t_answer - t_crash:.2f} s after "
          "the crash")
    print(f"tries: {len(tries)} in all; peak {max(buckets.values(), default=0)} per "
          f"{BUCKET_S * 1000:.0f} ms")
    answered = int((t_answer - t_crash) / BUCKET_S)
    outage = [x for x in tries if x < t_answer]
    print(f"while down: {len(outage) / max(1e-9, t_answer - t_crash):.0f} tries/s on average "
          f"({len(outage) / sockets / max(1e-9, t_answer - t_crash):.2f} a socket a second)")
    first = max(0, answered - int(1.0 / BUCKET_S))
    print(f"tries per 100 ms, from {first * BUCKET_S:.1f} s after the crash (# = 10 tries; "
          "> the server answered):")
    for b in range(first, last + 1):
        n = buckets.get(b, 0)
        mark = ">" if b == answered else " "
        print(f"  {b * BUCKET_S:5.1f} s {mark} {n:5d} {'#' * ((n + 9) // 10)}")
    if after:
        print(f"back after the server answered: p50 {pct(after, 50):.2f} s, "
              f"p90 {pct(after, 90):.2f} s, p99 {pct(after, 99):.2f} s, "
              f"max {max(after):.2f} s; within 1 s: "
              f"{sum(1 for x in after if x <= 1.0) / len(after):.1%} of {len(after)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=1000)
    ap.add_argument("--down", type=float, default=2.5, help="seconds the server stays down")
    ap.add_argument("--schedule", choices=sorted(SCHEDULES), default="new")
    ap.add_argument("--compare", action="store_true", help="the old schedule, then the new")
    ap.add_argument("--term", action="store_true", help="SIGTERM instead of SIGKILL")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    for schedule in (["old", "new"] if a.compare else [a.schedule]):
        asyncio.run(run(schedule, a.sockets, a.down, a.term, a.seed))


if __name__ == "__main__":
    main()
