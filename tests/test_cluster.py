"""Issue #14: three ``darkcity serve`` processes share their rooms over a real Redis and
a real PostgreSQL (``tests/services.py`` starts both, installing them when missing).

A game whose players are connected to different processes plays to the end; then the
process that runs a room is killed with SIGKILL in the middle of a night, another one
takes the room over from the database, and the game goes on with every acknowledged
decision, its players keeping their seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from darkcity.server.cluster.wire import pack, room_code, unpack  # noqa: E402
from darkcity.server.testing import ScriptedPlayer, create_room, join_room  # noqa: E402

from . import services  # noqa: E402
from .services import Postgres, Redis, free_port  # noqa: E402

postgres, redis_server = services.postgres, services.redis_server  # the fixtures

# the tests that ask for postgres or redis_server are marked `services` by tests/conftest.py

LEASE_S = 1.5  # a dead owner's rooms are taken over within about this


class Node:
    """One ``darkcity serve --redis --db postgresql+psycopg://`` process."""

    def __init__(self, db: str, redis_url: str) -> None:
        self.db, self.redis_url = db, redis_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        # its log: a file, not a pipe nobody reads (a full pipe would block the server)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - as long as the node

    def start(self) -> None:
        env = {**os.environ, "DARKCITY_BOT_DELAY_S": "0.05", "DARKCITY_MIN_BOT_DELAY_S": "0.05",
               "DARKCITY_MIN_DECIDE_S": "1", "DARKCITY_MIN_BEAT_S": "0.02",
               "DARKCITY_LEASE_S": str(LEASE_S), "DARKCITY_BOT_WORKERS": "0"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "darkcity", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", self.db, "--redis", self.redis_url],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log)

    def wait(self) -> None:
        assert self.proc is not None
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                self.log.seek(0)
                err = self.log.read().decode(errors="replace")
                raise RuntimeError(f"darkcity serve exited: {err[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("darkcity serve did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture(scope="module")
def cluster(postgres: Postgres, redis_server: Redis) -> Iterator[tuple[list[Node], str]]:
    redis_server.flush()
    db = postgres.new_database()
    three = [Node(db, redis_server.url) for _ in range(3)]
    for n in three:
        n.start()
    try:
        for n in three:
            n.wait()
        yield three, db
    finally:
        for n in three:
            n.stop()


@pytest.fixture
def nodes(cluster: tuple[list[Node], str]) -> Iterator[tuple[list[Node], str]]:
    """The three processes, all running (one a test stopped is started again after)."""
    yield cluster
    for n in cluster[0]:
        if n.proc is None or n.proc.poll() is not None:
            n.start()
            n.wait()


def _owner(redis_server: Redis, code: str) -> str | None:
    import redis

    with redis.Redis(port=redis_server.port) as r:
        v = r.get(f"darkcity:lease:{code}")
    return v.decode() if v is not None else None


def _table(base: str, joins: list[str]) -> tuple[str, list[str]]:
    """A room of six made on ``base``: four people (joined through ``joins``) and two
    bots; returns its code and the people's tokens."""
    host = create_room(base, "Ana", players=6, pace="fast", decide_s=30, beat_s=0.05,
                       bot_delay_s=0.05)
    code = host["code"]
    tokens = [host["token"]] + [join_room(via, code, name)["token"]
                                for via, name in zip(joins, ("Bia", "Caio", "Duda"),
                                                     strict=True)]
    return code, tokens


async def _add_bots(ws_base: str, code: str, token: str) -> None:
    import websockets

    async with websockets.connect(f"{ws_base}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        for seat in (4, 5):
            await ws.send(json.dumps({"type": "add-bot", "seat": seat, "level": "random"}))
        for _ in range(50):
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if m["type"] == "lobby" and sum(s["kind"] == "bot"
                                            for s in m["lobby"]["seats"]) == 2:
                return
    raise AssertionError("the bots did not sit")


async def _play_on(p: ScriptedPlayer, bases: list[str], *, start: bool = False,
                   deadline_s: float = 90) -> None:
    """Play to the end, connecting again (to the next process) whenever the socket drops."""
    end = time.monotonic() + deadline_s
    for attempt in range(8):
        p.ws_base = bases[attempt % len(bases)]
        with contextlib.suppress(OSError, TimeoutError, asyncio.TimeoutError):
            await p.play(start=start and attempt == 0, deadline_s=max(1, end - time.monotonic()))
        if p.over or time.monotonic() >= end:
            return
        await asyncio.sleep(0.2)


def test_frames_pack_and_unpack() -> None:
    frames = [(5, b"node-1#7", b'{"type":"ack"}'), (8, b"", b""), (2, b"x" * 300, b"\xff" * 70000)]
    assert list(unpack(pack(frames))) == frames
    with pytest.raises(ValueError):
        list(unpack(pack(frames)[:-1]))
    assert room_code("/ws/abcdef") == "ABCDEF" and room_code("/api/rooms/ABCDEF/join") == "ABCDEF"
    assert room_code("/r/ABCDEF") == "ABCDEF"  # the page: its link preview names the room
    assert room_code("/api/rooms") is None and room_code("/ws/ABCDE1") is None  # 1: not a code


def test_a_game_across_three_processes_plays_to_the_end(
        nodes: tuple[list[Node], str], redis_server: Redis) -> None:
    three, _db = nodes
    a, b, c = three
    code, tokens = _table(a.base, [b.base, c.base, b.base])  # joins through the others
    owner = _owner(redis_server, code)
    assert owner is not None
    lobby = httpx.get(f"{c.base}/api/rooms/{code}", timeout=10).json()  # read elsewhere
    assert [s["name"] for s in lobby["seats"][:4]] == ["Ana", "Bia", "Caio", "Duda"]
    for n in three:  # the invite link's page, wherever it is asked, previews the room
        page = httpx.get(f"{n.base}/r/{code}", timeout=10).text
        assert 'content="Ana invites you to a table of Dark City"' in page, n.base
    asyncio.run(_add_bots(b.ws, code, tokens[0]))
    players = [ScriptedPlayer(n.ws, code, t, random.Random(i), think_s=(0.0, 0.05))
               for i, (n, t) in enumerate(zip((a, b, c, b), tokens, strict=True))]

    async def play() -> None:
        await asyncio.gather(*(p.play(start=(i == 0), deadline_s=60)
                               for i, p in enumerate(players)))

    asyncio.run(play())
    assert all(p.over for p in players), [p.view and p.view["phase"] for p in players]
    assert not [e for p in players for e in p.errors if e["code"] not in ("counting", "late")]
    winners = [p.view["winners"] for p in players if p.view]
    assert winners[0] and all(w == winners[0] for w in winners)
    record = httpx.get(f"{b.base}/api/rooms/{code}/record", timeout=10)
    assert record.status_code == 200 and record.json()["winners"] == winners[0]
    assert _owner(redis_server, code) == owner  # one process ran it all along
    # every process reached a player: they all sent something of the room's own
    assert all(any(m["type"] == "state" for m in p.messages) for p in players)


def test_kill_9_of_the_owner_mid_night_the_game_goes_on(
        nodes: tuple[list[Node], str], redis_server: Redis) -> None:
    from sqlalchemy import create_engine, text

    three, db = nodes
    a, b, c = three
    code, tokens = _table(a.base, [a.base, b.base, c.base])
    asyncio.run(_add_bots(a.ws, code, tokens[0]))
    owner = _owner(redis_server, code)
    assert owner is not None
    homes = [a, b, c, a]  # two players on the owner, the others elsewhere
    players = [ScriptedPlayer(n.ws, code, t, random.Random(20 + i), think_s=(0.02, 0.15))
               for i, (n, t) in enumerate(zip(homes, tokens, strict=True))]
    killed: dict[str, Any] = {}

    async def killer() -> None:
        """SIGKILL the owner once the second night's gestures are being made."""
        for _ in range(3000):
            await asyncio.sleep(0.01)
            v = players[1].view
            if v and v["night"] >= 2 and v["phase"] == "gesture" and v["pending"]:
                killed["acks"] = [(i, m if m["type"] == "ack" else m["ack"])
                                  for i, p in enumerate(players) for m in p.messages
                                  if m["type"] == "ack" or "ack" in m]
                killed["view"] = v
                a.kill9()
                killed["at"] = time.monotonic()
                return

    async def play() -> None:
        task = asyncio.create_task(killer())
        await asyncio.gather(*(_play_on(p, [n.ws, b.ws, c.ws], start=(i == 0))
                               for i, (p, n) in enumerate(zip(players, homes, strict=True))))
        await task

    asyncio.run(play())
    assert "at" in killed, "the game ended before the second night"
    assert all(p.over for p in players), [p.view and p.view["phase"] for p in players]
    new_owner = _owner(redis_server, code)
    assert new_owner is not None and new_owner != owner
    # nobody was sent away: every person kept a seat through the takeover
    refused = [e["code"] for p in players for e in p.errors]
    assert not {"bad-token", "removed", "not-a-player", "internal"} & set(refused), refused
    for p, name in zip(players, ("Ana", "Bia", "Caio", "Duda"), strict=True):
        welcomes = [m for m in p.messages if m["type"] == "welcome"]
        assert len(welcomes) >= 2 and all(w["name"] == name for w in welcomes)
    # every decision acknowledged before the kill is stored, once, where its ack said
    engine = create_engine(db)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT seq, doc FROM darkcity_decisions WHERE room = :r "
                                 "ORDER BY seq"), {"r": code}).all()
    engine.dispose()
    docs = [json.loads(doc) for _seq, doc in rows]
    assert [seq for seq, _doc in rows] == list(range(len(rows)))
    names = ("Ana", "Bia", "Caio", "Duda")
    assert killed["acks"]
    for i, ack in killed["acks"]:
        stored = docs[ack["seq"] - 1]
        assert stored["player"] == names[i] and stored.get("at", ack["at"]) == ack["at"]
    # no decision applied twice: a person decides a point once (bots' carry no point)
    points = [(d["player"], d["at"]) for d in docs if "at" in d]
    assert len(points) == len(set(points))
    winners = players[0].view["winners"] if players[0].view else []
    record = httpx.get(f"{c.base}/api/rooms/{code}/record", timeout=10).json()
    assert record["winners"] == winners and winners


def test_the_compose_file_runs_three_servers_behind_a_proxy() -> None:
    """deploy/compose.yaml (Docker does not run here: its shape is checked)."""
    yaml = pytest.importorskip("yaml")
    from .conftest import ROOT

    doc = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = doc["services"]
    servers = [k for k in services if k.startswith("darkcity-")]
    assert len(servers) == 3 and {"postgres", "redis", "caddy"} <= set(services)
    for name in servers:
        env = services[name]["environment"]
        assert env["DARKCITY_DB"].startswith("postgresql+psycopg://")
        assert env["DARKCITY_REDIS"].startswith("redis://redis:")
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    assert all(f"{name}:8000" in caddy for name in servers)
    assert any(v.endswith("/etc/caddy/Caddyfile:ro") for v in services["caddy"]["volumes"])
    docker = (ROOT / "deploy" / "Dockerfile").read_text()
    assert '".[scale]"' in docker and "darkcity\", \"serve\"" in docker


def test_workers_need_redis() -> None:
    run = subprocess.run([sys.executable, "-m", "darkcity", "serve", "--workers", "2"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--redis" in run.stderr


def test_a_decision_stored_twice_is_refused_and_the_room_reconciled(tmp_path: Any) -> None:
    """The fence: two processes that both believe they run a room write the same
    ``seq``; the second is refused by the key, the room is left as it was (its game
    rolled back, nothing acknowledged) and handed to the cluster to read again; the
    player is told the table moved on (``stale``: choose again), not of an error."""
    from darkcity.server.common import Refusal
    from darkcity.server.config import ServerConfig
    from darkcity.server.manager import RoomManager
    from darkcity.server.protocol import CreateRoom
    from darkcity.server.storage import FencedStorage
    from darkcity.views import view

    db = f"sqlite:///{tmp_path / 'fence.sqlite3'}"
    cfg = ServerConfig(db_url=db, bot_workers=0)
    here, there = FencedStorage(db), FencedStorage(db)
    conflicts: list[str] = []
    here.on_conflict = conflicts.append
    mine = RoomManager(here, cfg)
    room, host, _token = mine.create(CreateRoom(name="Ana", players=4, decide_s=30))
    for name in ("Bia", "Caio", "Duda"):
        room.add_member(name)
    room.start(host.id)
    stale = RoomManager(there, cfg).load(room.code)  # a second owner, from the database
    assert stale is not None and stale.game is not None and room.game is not None
    v = view(room.game, "Ana")
    choice = dict(v.choices[0])
    choice.pop("player")
    acks: list[int] = []
    stale.decide(host.id, v.decision_id, dict(choice))  # the other process stores seq 0
    log_before = list(room.game.log)
    with pytest.raises(Refusal) as refused:
        room.decide(host.id, v.decision_id, dict(choice), acks.append)
    assert refused.value.code == "stale"
    assert conflicts == [room.code] and acks == [] and room.seq == 0
    assert room.game.log == log_before  # rolled back: nothing applied here
    assert [d.seq for d in here.decisions(room.code)] == [0]


def test_a_stopped_owner_hands_its_rooms_over_and_sockets_elsewhere_stay_open(
        nodes: tuple[list[Node], str], redis_server: Redis) -> None:
    """SIGTERM (a rolling restart): the owner lets its leases go and tells the other
    processes, whose players keep their sockets and their seats."""
    three, _db = nodes
    a, b, c = three
    code, tokens = _table(a.base, [b.base, c.base, b.base])
    asyncio.run(_add_bots(b.ws, code, tokens[0]))
    owner = _owner(redis_server, code)
    homes = [b, c, b, c]  # nobody on the owner itself
    players = [ScriptedPlayer(n.ws, code, t, random.Random(40 + i), think_s=(0.02, 0.1))
               for i, (n, t) in enumerate(zip(homes, tokens, strict=True))]
    stopped: dict[str, float] = {}

    async def stopper() -> None:
        for _ in range(3000):
            await asyncio.sleep(0.01)
            v = players[0].view
            if v and v["phase"] == "gesture" and v["pending"]:
                assert a.proc is not None
                a.proc.terminate()
                stopped["at"] = time.monotonic()
                return

    async def play() -> None:
        task = asyncio.create_task(stopper())
        await asyncio.gather(*(p.play(start=(i == 0), deadline_s=60)
                               for i, p in enumerate(players)))
        await task

    asyncio.run(play())
    # uvicorn shuts down gracefully, then re-raises the signal it caught
    assert "at" in stopped and a.proc is not None and a.proc.wait(15) in (0, -signal.SIGTERM)
    assert all(p.over for p in players), [p.view and p.view["phase"] for p in players]
    assert _owner(redis_server, code) not in (None, owner)
    refused = {e["code"] for p in players for e in p.errors}
    assert refused <= {"counting", "late", "stale", "already-decided"}, refused
    for p in players:  # one socket all along: a second welcome, the same seat
        welcomes = [m for m in p.messages if m["type"] == "welcome"]
        assert len(welcomes) >= 2 and len({w["member"] for w in welcomes}) == 1
