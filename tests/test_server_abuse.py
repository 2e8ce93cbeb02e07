"""Issue #13: the server holds under hostile clients.

Each test starts a real ``darkcity serve`` process on loopback and repeats one
attack of the audit (bounded in count and time), then checks it now fails. The
attackers use other loopback addresses (127.0.0.2 ...) than the people they try
to lock out, as different machines would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from darkcity.server.testing import unfold  # noqa: E402

from .test_server_process import free_port  # noqa: E402


class Server:
    """``darkcity serve`` on 127.0.0.1 (it answers every 127.0.0.0/8 address)."""

    def __init__(self, db: Path, *args: str, **env: str) -> None:
        self.db, self.args, self.port = db, args, free_port()
        self.env = {**os.environ, "DARKCITY_BOT_WORKERS": "1", **env}
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "darkcity", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", f"sqlite:///{self.db}", *self.args],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().decode() if self.proc.stderr else "")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def rss_kib(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def fds(self) -> int:
        assert self.proc is not None
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def rooms_in_memory(self) -> int:
        n: int = httpx.get(f"{self.base}/healthz", timeout=5).json()["rooms"]
        return n


@contextlib.contextmanager
def serving(tmp_path: Path, *args: str, **env: str) -> Iterator[Server]:
    s = Server(tmp_path / "abuse.sqlite3", *args, **env)
    s.start()
    try:
        yield s
    finally:
        s.stop()


def http(address: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client whose requests come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def create(server: Server, name: str = "Ana", address: str = "127.0.0.1",
           **options: Any) -> dict[str, Any]:
    with http(address) as c:
        r = c.post(f"{server.base}/api/rooms", json={"name": name, **options})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(server: Server, code: str, name: str, address: str = "127.0.0.1") -> httpx.Response:
    with http(address) as c:
        return c.post(f"{server.base}/api/rooms/{code}/join", json={"name": name})


async def connect(server: Server, code: str, address: str = "127.0.0.1") -> Any:
    return await websockets.connect(f"{server.ws}/ws/{code}", open_timeout=10, proxy=None,
                                    local_addr=(address, 0), compression=None)


async def first(ws: Any, *kinds: str, timeout: float = 10) -> dict[str, Any]:
    """The first message of one of ``kinds`` (or an error)."""
    end = time.monotonic() + timeout
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(),
                                                                  end - time.monotonic()))
        for m in unfold(frame):  # (a welcome holds the first state)
            if m["type"] in kinds or m["type"] == "error":
                return m


async def hello(server: Server, code: str, token: str | None = None,
                address: str = "127.0.0.1") -> tuple[Any, dict[str, Any]]:
    """A socket that said hello, and the server's answer (welcome or error)."""
    ws = await connect(server, code, address)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws, await first(ws, "welcome")


async def state(server: Server, code: str) -> dict[str, Any]:
    """A spectator's first ``state`` message."""
    ws, welcome = await hello(server, code, address="127.0.0.200")
    try:
        held: dict[str, Any] | None = welcome.get("state")  # a game's first state
        return held if held is not None else await first(ws, "state")
    finally:
        await ws.close()


async def table_of_bots(server: Server, code: str, token: str, players: int,
                        level: str) -> None:
    """The host fills the other seats with bots, starts, and leaves."""
    ws, welcome = await hello(server, code, token)
    assert welcome["type"] == "welcome", welcome
    for seat in range(1, players):
        await ws.send(json.dumps({"type": "add-bot", "seat": seat, "level": level}))
    await ws.send(json.dumps({"type": "start"}))
    await first(ws, "state")
    await ws.close()


# -- 1. spectators cannot lock the players out -----------------------------------------


def test_spectators_never_lock_a_seated_player_out(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        room = create(server, "Ana")
        code = room["code"]

        async def attack() -> None:
            held, refused = [], 0
            for i in range(64):  # the audit's 64 anonymous sockets, from 8 addresses
                ws, answer = await hello(server, code, address=f"127.0.0.{10 + i % 8}")
                if answer["type"] == "welcome":
                    held.append(ws)
                else:
                    assert answer["code"] == "room-busy", answer
                    refused += 1
                    await ws.close()
            assert len(held) == 48 and refused == 16  # the room's spectator share
            ws, answer = await hello(server, code, address="127.0.0.10")
            assert answer["code"] == "room-busy"  # and an address's share in it
            await ws.close()
            # Ana's own reconnection, from an address the attacker uses too: in
            tabs = []
            for _ in range(5):
                ws, answer = await hello(server, code, room["token"], address="127.0.0.10")
                assert answer["type"] == "welcome" and answer["member"] == room["member"]
                tabs.append(ws)
            # her fifth tab closed the oldest (four at most per person)
            assert (await first(tabs[0], "never"))["code"] == "replaced"
            await asyncio.gather(*(ws.close() for ws in held + tabs))  # they never read

        asyncio.run(attack())


# -- 2. rooms created in a loop --------------------------------------------------------


def test_room_creation_is_limited_per_address_and_idle_rooms_leave(tmp_path: Path) -> None:
    with serving(tmp_path, DARKCITY_IDLE_ROOM_S="1") as server:
        answers = []
        with http("127.0.0.2") as c:
            for _ in range(30):  # bounded: the audit made 5,000
                answers.append(c.post(f"{server.base}/api/rooms", json={"name": "Eve"}))
        made = [r for r in answers if r.status_code == 201]
        assert len(made) == 20  # the burst
        late = answers[-1]
        assert late.status_code == 429 and late.json()["code"] == "rate-limited"
        assert int(late.headers["Retry-After"]) >= 1
        create(server, "Ana", address="127.0.0.3")  # somebody else still can
        # lobbies nobody is connected to leave memory, and come back from the database
        end = time.monotonic() + 10
        while server.rooms_in_memory() and time.monotonic() < end:
            time.sleep(0.3)
        assert server.rooms_in_memory() == 0
        code = made[0].json()["code"]
        assert httpx.get(f"{server.base}/api/rooms/{code}").status_code == 200


def test_old_lobbies_and_finished_games_are_pruned(tmp_path: Path) -> None:
    server = Server(tmp_path / "abuse.sqlite3")
    server.start()
    try:
        codes = [create(server, f"P{i}", address=f"127.0.0.{20 + i}")["code"]
                 for i in range(3)]
    finally:
        server.stop()
    with sqlite3.connect(server.db) as db:  # two of them untouched for 40 days
        db.execute("UPDATE darkcity_rooms SET updated = updated - 40 * 86400 "
                   "WHERE code IN (?, ?)", codes[:2])
    again = Server(server.db, "--keep-days", "30")
    again.start()
    try:
        end = time.monotonic() + 10
        left: list[str] = codes
        while time.monotonic() < end:
            with sqlite3.connect(server.db) as db:
                left = [r[0] for r in db.execute("SELECT code FROM darkcity_rooms")]
            if len(left) == 1:
                break
            time.sleep(0.2)
        assert left == codes[2:]
        assert httpx.get(f"{again.base}/api/rooms/{codes[0]}").status_code == 404
    finally:
        again.stop()


# -- 3. bodies are refused before they are read whole ------------------------------------


def _raw_post(server: Server, head: bytes, body_chunks: Iterator[bytes]) -> bytes:
    """Send a request by hand, a chunk at a time until the server answers; its answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(head)
        with contextlib.suppress(OSError):  # a broken pipe: it stopped reading
            for chunk in body_chunks:
                if select.select([s], [], [], 0)[0]:
                    break  # it has answered
                s.sendall(chunk)
        with contextlib.suppress(OSError):
            return s.recv(65536)
    return b""


def test_a_huge_body_is_refused_by_its_length_and_never_read_whole(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        before = server.rss_kib()
        declared = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\n"
                    b"Content-Length: 209715200\r\n\r\n")
        answer = _raw_post(server, declared, iter([b"x" * 65536] * 16))
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        chunked = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   b"Content-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n")
        piece = b"10000\r\n" + b"x" * 65536 + b"\r\n"
        answer = _raw_post(server, chunked, iter([piece] * 3200))  # 200 MiB at most
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        for path in (b"/api/tables", b"/api/rooms/ABCDEF/join"):  # every route, by length
            head = declared.replace(b"/api/rooms", path, 1)
            answer = _raw_post(server, head, iter([b"x" * 65536] * 16))
            assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
        assert server.rss_kib() - before < 30 * 1024  # the audit saw +354 MiB


# -- 4. all-bot rooms cannot starve the loop ---------------------------------------------


@pytest.mark.slow  # a load test: rooms of strong bots
def test_rooms_of_strong_bots_do_not_slow_a_human_down(tmp_path: Path) -> None:
    with serving(tmp_path, DARKCITY_BOT_WORKERS="2") as server:
        codes = []
        for i in range(10):
            room = create(server, "Host", address=f"127.0.0.{30 + i}", players=8,
                          bot_delay_s=0, beat_s=0, grace_s=0, timeout_level="strong")
            asyncio.run(table_of_bots(server, room["code"], room["token"], 8, "strong"))
            codes.append(room["code"])
        lobby = httpx.get(f"{server.base}/api/rooms/{codes[0]}").json()
        assert lobby["config"]["beat_s"] == 0.1  # the floor: asked 0
        alone = create(server, "Ana", address="127.0.0.50")

        async def pings() -> list[float]:
            ws, welcome = await hello(server, alone["code"], alone["token"], "127.0.0.50")
            assert welcome["type"] == "welcome"
            rtts = []
            for i in range(120):  # ~8 s of pings (under the rate limit) while 80 bots play
                t0 = time.perf_counter()
                await ws.send(json.dumps({"type": "ping", "t": i}))
                m = await first(ws, "pong")
                assert m["type"] == "pong", m
                rtts.append(time.perf_counter() - t0)
                await asyncio.sleep(0.07)
            await ws.close()
            return rtts

        rtts = asyncio.run(pings())
        progressed = sum(asyncio.run(state(server, c))["seq"] > 0 for c in codes)
        cuts = statistics.quantiles(rtts, n=100)
        p50, p90, p99 = (statistics.median(rtts) * 1000, cuts[89] * 1000, cuts[98] * 1000)
        assert progressed == 10  # the bots did play
        figures = f"ping p50 {p50:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms"
        print(figures)  # before the worker pool: p50 ~1,000 ms, p99 ~5,800 ms here
        # The body of the distribution shows whether the loop was held (it was: p50 about
        # a second). The tail of 120 pings on two cores, shared by the server, two bot
        # workers and this client, is the scheduler's: one time slice lost reads ~100 ms
        # (CI: p50 0.7, p90 3.8, p99 98.4 ms). A held loop still fails the bound on it by
        # far; the tail's figure itself is a benchmark's (benchmarks/bench_server_load.py).
        assert p50 < 10 and p90 < 50, figures
        assert p99 < 250, figures


# -- 5. silent sockets -----------------------------------------------------------------


def test_silent_sockets_are_closed_and_capped_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, DARKCITY_HELLO_TIMEOUT_S="3") as server:
        code = create(server)["code"]
        before = server.fds()

        async def attack() -> None:
            silent = [await connect(server, code, "127.0.0.60") for _ in range(64)]
            extra = await connect(server, code, "127.0.0.60")  # one too many
            assert (await first(extra, "never"))["code"] == "too-many-sockets"
            ws, answer = await hello(server, code, address="127.0.0.61")  # another address
            assert answer["type"] == "welcome"
            assert server.fds() > before + 60
            async def told(s: Any) -> None:  # each is told, then closed, at the deadline
                assert (await first(s, "never", timeout=10))["code"] == "hello-timeout"
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(s.recv(), 5)

            await asyncio.gather(*(told(s) for s in silent))
            await asyncio.gather(ws.close(), extra.close())

        asyncio.run(attack())
        end = time.monotonic() + 5
        while server.fds() > before + 2 and time.monotonic() < end:
            time.sleep(0.1)
        assert server.fds() <= before + 2  # the audit saw 17 -> 517


# -- 6. max_rooms counts the rooms loaded from the database -----------------------------


def test_max_rooms_holds_for_rooms_loaded_from_the_database(tmp_path: Path) -> None:
    server = Server(tmp_path / "abuse.sqlite3", DARKCITY_MAX_ROOMS="5")
    server.start()
    try:
        codes = [create(server, address=f"127.0.0.{70 + i}")["code"] for i in range(8)]
        assert server.rooms_in_memory() <= 5  # idle lobbies made way
    finally:
        server.stop()
    server.start()
    try:
        for code in codes:  # the audit's GETs of old codes after a restart
            assert httpx.get(f"{server.base}/api/rooms/{code}").status_code == 200
            assert server.rooms_in_memory() <= 5

        async def hold_five() -> None:
            held = [(await hello(server, code))[0] for code in codes[:5]]
            busy = httpx.get(f"{server.base}/api/rooms/{codes[6]}")
            assert busy.status_code == 503 and busy.json()["code"] == "busy"
            await asyncio.gather(*(ws.close() for ws in held))

        asyncio.run(hold_five())
    finally:
        server.stop()


# -- 7. no password in the logs ------------------------------------------------------------


def test_the_database_password_is_never_printed(tmp_path: Path) -> None:
    url = "postgresql+psycopg://bob:s3cr3t-pw@127.0.0.1:9/darkcity"
    run = subprocess.run(
        [sys.executable, "-m", "darkcity", "serve", "--port", str(free_port()), "--db", url],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "DARKCITY_BOT_WORKERS": "0"})
    out = run.stdout + run.stderr
    assert "bob:***@127.0.0.1:9" in out  # the start-up line, masked
    assert "s3cr3t-pw" not in out


def test_log_lines_mask_credentials() -> None:
    import logging

    from darkcity.server.limits import MaskingFormatter, safe_url

    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "cannot reach %s", (
        "postgresql://bob:pw@db/x",), None)
    assert MaskingFormatter(None).format(record) == "cannot reach postgresql://bob:***@db/x"
    assert safe_url("redis://:pw@h:6379/0 and sqlite:///a.db") == \
        "redis://:***@h:6379/0 and sqlite:///a.db"


# -- 8. look-alike and blank names -------------------------------------------------------


def test_look_alike_and_blank_names_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        code = create(server, "Ana")["code"]
        for twin in ("\u0410na", "\uff21\uff4e\uff41", "Ana\ufe0f", "ANA", " Ana ", "Aná",
                     "Ana\u0301", "ÁNA"):
            r = join(server, code, twin)
            assert r.status_code == 400 and r.json()["code"] == "name-taken", (twin, r.text)
        for blank in ("\u3164", "\u2800", "a" + "\u0301" * 23, "\u0301" * 23, "\u2028",
                      "\u200b", "Ana\u202e"):
            r = join(server, code, blank)
            assert r.status_code in (400, 422), (blank, r.text)
            assert r.json()["code"] in ("bad-name", "invalid"), (blank, r.text)
        ok = join(server, code, "\uff22\uff49\uff41")  # fullwidth: shown as plain "Bia"
        assert ok.status_code == 201
        seats = httpx.get(f"{server.base}/api/rooms/{code}").json()["seats"]
        assert [s["name"] for s in seats if s["name"]] == ["Ana", "Bia"]
        assert join(server, code, "Ada").status_code == 201  # a bot's name, freed


# -- 9. cross-site requests ------------------------------------------------------------


def test_only_json_bodies_and_pages_that_no_site_may_frame(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        body = json.dumps({"name": "Ana"})
        for kind in ("text/plain", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x"):
            r = httpx.post(f"{server.base}/api/rooms", content=body,
                           headers={"Content-Type": kind})
            assert r.status_code == 415 and r.json()["code"] == "not-json", kind
        code = create(server)["code"]
        r = httpx.post(f"{server.base}/api/rooms/{code}/join", content='{"name": "Bia"}',
                       headers={"Content-Type": "text/plain"})
        assert r.status_code == 415
        r = httpx.post(f"{server.base}/api/tables", content='{"players": []}',  # the companion
                       headers={"Content-Type": "text/plain"})
        assert r.status_code == 415 and r.json()["code"] == "not-json"
        for path in ("/", f"/r/{code}", "/api/meta", "/static/app.js"):
            h = httpx.get(f"{server.base}{path}").headers
            assert "frame-ancestors 'none'" in h["content-security-policy"], path
            assert "script-src 'self'" in h["content-security-policy"]
            assert h["x-content-type-options"] == "nosniff"
            assert h["x-frame-options"] == "DENY"


# -- 10. a deadline that passed while the server was down --------------------------------


def test_after_a_restart_the_players_get_the_grace_period_again(tmp_path: Path) -> None:
    server = Server(tmp_path / "abuse.sqlite3")
    server.start()
    try:
        room = create(server, "Ana", players=4, decide_s=5, grace_s=3)
        code = room["code"]
        assert join(server, code, "Bia").status_code == 201

        async def start() -> None:
            ws, _w = await hello(server, code, room["token"])
            for seat in (2, 3):
                await ws.send(json.dumps({"type": "add-bot", "seat": seat,
                                          "level": "random"}))
            await ws.send(json.dumps({"type": "start"}))
            await first(ws, "state")
            await ws.close()

        asyncio.run(start())
        snap: dict[str, Any] = {}
        for _ in range(100):  # until only the people are asked
            snap = asyncio.run(state(server, code))
            if set(snap["view"]["pending"]) <= {"Ana", "Bia"} and snap["view"]["pending"]:
                break
            time.sleep(0.1)
        assert set(snap["view"]["pending"]) <= {"Ana", "Bia"}
    finally:
        server.stop(kill=True)
    time.sleep(max(0.0, snap["deadline"] - time.time()) + 0.5)  # it passed while down
    server.start()
    try:
        after = asyncio.run(state(server, code))
        assert after["seq"] == snap["seq"]  # nobody was replaced by a bot
        assert after["view"]["pending"] == snap["view"]["pending"]
        assert after["deadline"] - after["server_time"] > 3  # the grace again
    finally:
        server.stop()


# -- 11. the table is fixed after the game -------------------------------------------------


def test_host_actions_are_refused_after_the_game(tmp_path: Path) -> None:
    from darkcity.server.testing import ScriptedPlayer

    with serving(tmp_path, DARKCITY_MIN_BOT_DELAY_S="0", DARKCITY_MIN_BEAT_S="0") as server:
        room = create(server, "Ana", players=4, bot_delay_s=0, beat_s=0, decide_s=30)
        code = room["code"]

        async def play() -> None:
            ws, _w = await hello(server, code, room["token"])
            for seat in (1, 2, 3):
                await ws.send(json.dumps({"type": "add-bot", "seat": seat,
                                          "level": "random"}))
            await first(ws, "lobby")
            await ws.close()
            ana = ScriptedPlayer(server.ws, code, room["token"])
            await ana.play(start=True, deadline_s=90)
            assert ana.over
            ws, _w = await hello(server, code, room["token"])
            for kind in ("remove", "make-host"):
                await ws.send(json.dumps({"type": kind, "seat": 1}))
                assert (await first(ws, "never"))["code"] == "game-over"
            await ws.close()

        asyncio.run(play())
        seats = httpx.get(f"{server.base}/api/rooms/{code}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]


# -- 13. one room's failure does not stop the others' clocks -------------------------------


def test_one_failing_room_does_not_stop_the_other_rooms_clocks(tmp_path: Path) -> None:
    with serving(tmp_path, DARKCITY_MIN_DECIDE_S="1") as server:
        rooms = []
        for name in ("A", "B"):  # A is older: the clock reaches it first
            room = create(server, f"{name}na", players=4, decide_s=2, grace_s=600)
            for other in ("Bia", "Caio", "Duda"):
                assert join(server, room["code"], other).status_code == 201
            rooms.append(room)

        async def start(room: dict[str, Any]) -> None:
            ws, _w = await hello(server, room["code"], room["token"])
            await ws.send(json.dumps({"type": "start"}))
            await first(ws, "state")
            await ws.close()

        for room in rooms:
            asyncio.run(start(room))
        # Room A's next decision cannot be stored (a row is in its place): every
        # attempt of its clock fails.
        with sqlite3.connect(server.db) as db:
            db.execute("INSERT INTO darkcity_decisions VALUES (?, 0, '{}', 'player', 0)",
                       (rooms[0]["code"],))
        end = time.monotonic() + 15
        seq_b = 0
        while time.monotonic() < end and not seq_b:
            time.sleep(0.5)
            seq_b = asyncio.run(state(server, rooms[1]["code"]))["seq"]
        assert seq_b > 0  # B's deadline passed and its time-outs were played
        assert asyncio.run(state(server, rooms[0]["code"]))["seq"] == 0
        assert httpx.get(f"{server.base}/healthz").status_code == 200


def test_the_manager_ticks_every_room_when_one_raises(tmp_path: Path) -> None:
    from unittest import mock

    from darkcity.room import Room
    from darkcity.server.config import ServerConfig
    from darkcity.server.manager import RoomManager
    from darkcity.server.protocol import CreateRoom
    from darkcity.server.storage import Storage

    db = f"sqlite:///{tmp_path / 'tick.sqlite3'}"
    manager = RoomManager(Storage(db), ServerConfig(db_url=db))
    rooms = [manager.create(CreateRoom(name=name))[0] for name in ("Ana", "Bia")]
    for room in rooms:
        room.status = "playing"
    ticked: list[str] = []

    def tick(self: Room) -> None:
        if self is rooms[0]:
            raise ZeroDivisionError
        ticked.append(self.code)

    with mock.patch.object(Room, "tick", tick):
        manager.tick()
        manager.tick()
    assert ticked == [rooms[1].code] * 2


# -- the limits' pieces, without a server ----------------------------------------------


def test_names_keys_and_blank_detection() -> None:
    from darkcity.server.limits import BadName, clean_name, draws_nothing, name_key

    assert {name_key(n) for n in ("Ana", "\u0410na", "\uff21\uff4e\uff41", "Ana\ufe0f",
                                  "ANA", "A\u200bna")} == {name_key("ana")}
    assert name_key("Il") == name_key("ll") and name_key("Ana") != name_key("Ada")
    # issue #53: names that differ only by an accent are one name at a table, composed
    # (NFC) or not (NFD); other scripts' marks stay
    assert name_key("José") == name_key("Jose") == name_key("Jose\u0301")
    assert name_key("Aná") == name_key("Ana") == name_key("A\u0301na")
    assert name_key("कि") != name_key("क")
    assert clean_name("  \uff2a\uff4f\uff41\uff4f   da  Silva ") == "Joao da Silva"
    assert clean_name("Ana \u2764\ufe0f") == "Ana \u2764\ufe0f"
    assert clean_name("Nguy\u1ec5n") == "Nguy\u1ec5n"  # two marks on one letter are fine
    for blank in ("\u3164", "\u2800", "\u115f\u1160", "\u0301", "\u200d", " \u3000 "):
        assert draws_nothing(blank)
        with pytest.raises(BadName):
            clean_name(blank)
    with pytest.raises(BadName):
        clean_name("x" * 25)
    assert clean_name("e\u0301\u0302\u0303") == "\u00e9\u0302\u0303"  # NFC first: two left
    with pytest.raises(BadName):
        clean_name("e\u0301\u0302\u0303\u0304")


def test_buckets_and_socket_counts() -> None:
    from darkcity.server.limits import PerAddress, Sockets

    now = [0.0]
    per = PerAddress(rate=1.0, burst=2, clock=lambda: now[0])
    assert per.take("a") and per.take("a") and not per.take("a") and per.take("b")
    assert per.wait_s("a") == pytest.approx(1.0)
    now[0] = 1.0
    assert per.take("a") and not per.take("a")
    sockets = Sockets(per_address=2, spectators_per_room=3, spectators_per_address=2)
    assert sockets.opened("a") and sockets.opened("a") and not sockets.opened("a")
    sockets.closed("a")
    assert sockets.opened("a")
    assert sockets.watch("R", "a") is None and sockets.watch("R", "a") is None
    assert sockets.watch("R", "a") is not None  # the address's share
    assert sockets.watch("R", "b") is None
    assert sockets.watch("R", "c") is not None  # the room's share
    sockets.unwatch("R", "a")
    assert sockets.watch("R", "c") is None


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(x) for x in out.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(
        f"/proc/{pid}/stat").read_text().split()[2]


@pytest.mark.parametrize("kill", [False, True], ids=["stopped", "kill-9"])
def test_the_bot_workers_end_with_the_server(tmp_path: Path, kill: bool) -> None:
    server = Server(tmp_path / "abuse.sqlite3", DARKCITY_BOT_WORKERS="2")
    server.start()
    assert server.proc is not None
    workers = [p for p in _children(server.proc.pid)
               if "multiprocessing" in Path(f"/proc/{p}/cmdline").read_text()]
    assert len(workers) >= 2
    server.stop(kill=kill)
    end = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers)  # no orphan keeps its memory
