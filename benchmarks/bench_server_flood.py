"""The record viewer flooded while people play (issue #53): a seated player's ack and a
ping, quiet and under floods of ``POST /api/replay`` from 1, 3 and 50 loopback addresses.

It starts one ``darkcity serve`` on 127.0.0.1 (a temporary SQLite file) and, phase after
phase, keeps ``--rooms`` rooms of six simulated people playing from 127.0.0.1
(``ScriptedPlayer``: a random legal choice after 0.2 to 0.6 s, a new room when a game
ends) and one more person pinging ten times a second. A phase is quiet, or flooded:
a separate process (``nice`` +10 by default: on loopback the attacker shares this
machine's cores, which one on the network would not) sends replay steps of a real
record (~150 KB, the last night: ~40 ms of the engine each) as fast as the server
answers, over ``--conns`` kept-alive connections from each address
(127.0.0.2 ...). The last phase is quiet again, after the floods: the server's memory
there shows whether it came back down.

Printed side by side, per phase: the acknowledgements received and their p50 / p95 /
p99 (sending a decision to receiving its ack, which comes once it is stored), the ping's
p50 / p95, the flood's answers by status (200 replayed, 429 over the address's rate,
503 over the server's rate or the queue) and the server's memory (the main process,
and with its workers) at the phase's end.

    python3 benchmarks/bench_server_flood.py                  # 20 s phases
    python3 benchmarks/bench_server_flood.py --phase-s 8 --json
    DARKCITY_REPLAY_WORKERS=0 python3 benchmarks/bench_server_flood.py  # replays in a thread

Only loopback addresses are used; every loop is bounded by the phase's time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from darkcity.server.testing import ScriptedPlayer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server_load import SERVER_ENV, free_port, percentile, wait_up

ROOM = 6


def record(seed: int = 1) -> dict[str, Any]:
    """A whole game's record (random legal play, 8 players), as the viewer sends it."""
    from darkcity.deck import preset
    from darkcity.game import Game, play_randomly
    from darkcity.record import write_record
    from darkcity.settings import Settings, bot_rng

    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
    game = Game(Settings(players=names, deck=preset("basic", 8)), seed)
    play_randomly(game, bot_rng(seed))
    return write_record(game)


def rss_mb(pid: int) -> tuple[float, float]:
    """The resident memory of ``pid`` and of it with its children, in MB."""

    def one(p: int) -> float:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    children = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text()
            children += [int(c) for c in text.split()]
    main = one(pid)
    return main, main + sum(one(c) for c in children)


# -- the flood (a process of its own) ----------------------------------------------------


async def _flood_conn(port: int, address: str, request: bytes, end: float,
                      counts: Counter[str]) -> None:
    while time.monotonic() < end:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                          local_addr=(address, 0))
        except OSError:
            counts["connect-error"] += 1
            await asyncio.sleep(0.05)
            continue
        try:
            while time.monotonic() < end:
                writer.write(request)
                status = await _answer(reader)
                counts[status[0]] += 1
                if status[1]:  # closed by the server: a new connection
                    break
        except (OSError, asyncio.IncompleteReadError, ValueError):
            counts["reset"] += 1
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def _answer(reader: asyncio.StreamReader) -> tuple[str, bool]:
    line = await asyncio.wait_for(reader.readline(), 30)
    if not line:
        raise asyncio.IncompleteReadError(b"", None)
    status = line.split()[1].decode()
    length, close = 0, False
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "connection" and "close" in value.lower():
            close = True
    await reader.readexactly(length)
    return status, close


def _flood(port: int, addresses: list[str], conns: int, seconds: float, body: bytes,
           niceness: int, out: Any) -> None:
    with contextlib.suppress(OSError):
        os.nice(niceness)
    request = (f"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
               ).encode() + body
    counts: Counter[str] = Counter()

    async def main() -> None:
        end = time.monotonic() + seconds
        await asyncio.gather(*(_flood_conn(port, a, request, end, counts)
                               for a in addresses for _ in range(conns)))

    asyncio.run(main())
    out.put(dict(counts))


# -- the players -------------------------------------------------------------------------


async def _table(base: str, ws: str, rng: random.Random, end: float,
                 acks: list[float], errors: Counter[str]) -> None:
    """Rooms of six played one after another until ``end``."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.call_later(max(0.0, end - time.monotonic()), stop.set)
    while not stop.is_set():
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            host = (await http.post("/api/rooms", json={
                "name": "P0", "players": ROOM, "beat_s": 0.1, "decide_s": 30,
                "bot_delay_s": 0.1})).json()
            tokens = [host["token"]]
            for i in range(1, ROOM):
                tokens.append((await http.post(f"/api/rooms/{host['code']}/join",
                                               json={"name": f"P{i}"})).json()["token"])
        players = [ScriptedPlayer(ws, host["code"], tok, rng=random.Random(rng.random()),
                                  think_s=(0.2, 0.6), keep=False) for tok in tokens]
        await asyncio.gather(*(p.play(stop=stop, deadline_s=3600, start=i == 0)
                               for i, p in enumerate(players)))
        for p in players:
            acks.extend(p.latencies)
            errors.update(str(e.get("code")) for e in p.errors)


async def _pinger(ws: str, code: str, end: float, rtts: list[float]) -> None:
    import websockets

    async with websockets.connect(f"{ws}/ws/{code}", proxy=None, compression=None) as sock:
        await sock.send(json.dumps({"type": "hello"}))
        i = 0
        while time.monotonic() < end:
            t0 = time.perf_counter()
            await sock.send(json.dumps({"type": "ping", "t": i}))
            while True:
                m = json.loads(await asyncio.wait_for(sock.recv(), 30))
                if m.get("type") == "pong" and m.get("t") == i:
                    break
            rtts.append(time.perf_counter() - t0)
            i += 1
            await asyncio.sleep(0.1)


async def _phase(base: str, ws: str, rooms: int, seconds: float, seed: int,
                 ) -> tuple[list[float], list[float], Counter[str]]:
    acks: list[float] = []
    rtts: list[float] = []
    errors: Counter[str] = Counter()
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        watched = (await http.post("/api/rooms", json={"name": "Pinger"})).json()["code"]
    rng = random.Random(seed)
    await asyncio.gather(_pinger(ws, watched, end, rtts),
                         *(_table(base, ws, rng, end, acks, errors) for _ in range(rooms)))
    return acks, rtts, errors


def _ms(x: float) -> float:
    return round(x * 1000, 1)


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    port = free_port()
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    doc = record()
    body = json.dumps({"record": doc, "night": len(doc["nights"])}).encode()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, **SERVER_ENV, "DARKCITY_BOT_WORKERS": "0"}
        profile = os.environ.get("DARKCITY_BENCH_PROFILE")  # a cProfile output file
        prefix = ["-m", "cProfile", "-o", profile] if profile else []
        proc = subprocess.Popen(
            [sys.executable, *prefix, "-m", "darkcity", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", f"sqlite:///{tmp}/flood.sqlite3"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_up(base, proc)
            # the replay worker started and a first replay made, as after a first visit
            httpx.get(f"{base}/replay", timeout=30)
            httpx.post(f"{base}/api/replay", content=body, timeout=60,
                       headers={"Content-Type": "application/json"})
            ctx = multiprocessing.get_context("spawn")
            for n, name in [(0, "quiet"), *((k, f"flood x{k}") for k in args.addresses),
                            (0, "quiet after")]:
                flood = None
                queue: Any = ctx.Queue()
                if n:
                    addresses = [f"127.0.0.{2 + i}" for i in range(n)]
                    flood = ctx.Process(target=_flood, args=(
                        port, addresses, args.conns, args.phase_s + 1, body, args.flood_nice,
                        queue))
                    flood.start()
                    time.sleep(1.0)  # the flood under way before measuring
                acks, rtts, errors = asyncio.run(_phase(base, ws, args.rooms, args.phase_s,
                                                        args.seed + len(results)))
                answers: dict[str, int] = {}
                if flood is not None:
                    answers = queue.get(timeout=60)
                    flood.join(30)
                if name == "quiet after":
                    time.sleep(args.settle_s)
                main, total = rss_mb(proc.pid)
                results.append({
                    "phase": name, "addresses": n, "acks": len(acks),
                    "ack_p50_ms": _ms(percentile(acks, 0.5)),
                    "ack_p95_ms": _ms(percentile(acks, 0.95)),
                    "ack_p99_ms": _ms(percentile(acks, 0.99)),
                    "ping_p50_ms": _ms(percentile(rtts, 0.5)),
                    "ping_p95_ms": _ms(percentile(rtts, 0.95)),
                    "flood": answers, "errors": dict(errors),
                    "rss_mb": round(main, 1), "rss_with_workers_mb": round(total, 1),
                    "load": round(os.getloadavg()[0], 2)})
                if not args.json:
                    _print_row(results[-1], first=len(results) == 1)
        finally:
            proc.send_signal(2)  # (as Ctrl-C: a profile is written)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(20)
            if proc.poll() is None:
                proc.kill()
    return results


def _print_row(r: dict[str, Any], first: bool) -> None:
    if first:
        print(f"{'phase':<12} {'acks':>5} {'ack p50':>8} {'p95':>7} {'p99':>7} "
              f"{'ping p50':>9} {'p95':>7} {'200':>5} {'429':>6} {'503':>5} {'other':>5} "
              f"{'RSS MB':>7} {'+workers':>9}")
    f = r["flood"]
    other = sum(v for k, v in f.items() if k not in ("200", "429", "503"))
    print(f"{r['phase']:<12} {r['acks']:>5} {r['ack_p50_ms']:>8} {r['ack_p95_ms']:>7} "
          f"{r['ack_p99_ms']:>7} {r['ping_p50_ms']:>9} {r['ping_p95_ms']:>7} "
          f"{f.get('200', 0):>5} {f.get('429', 0):>6} {f.get('503', 0):>5} {other:>5} "
          f"{r['rss_mb']:>7} {r['rss_with_workers_mb']:>9}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phase-s", type=float, default=20.0, help="seconds of each phase")
    ap.add_argument("--rooms", type=int, default=2, help="rooms of six playing at once")
    ap.add_argument("--addresses", type=lambda s: [int(x) for x in s.split(",")],
                    default=[1, 3, 50], help="the floods' numbers of addresses")
    ap.add_argument("--conns", type=int, default=2, help="connections per flooding address")
    ap.add_argument("--flood-nice", type=int, default=10, help="the flood's niceness")
    ap.add_argument("--settle-s", type=float, default=5.0,
                    help="seconds after the last phase before its memory is read")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    args = ap.parse_args()
    results = run(args)
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
