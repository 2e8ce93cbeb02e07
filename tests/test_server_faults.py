"""Issue #53: the server under a full disk, a read-only database, changed decisions,
look-alike names, long viewers' names, probing and foreign ``Host`` names.

The room-level cases drive :class:`darkcity.room.Room` with a fake clock over a store
that refuses writes on demand (``test_server.py``'s table); the process-level ones run
``darkcity serve`` with its database on a 1 MiB tmpfs (in a mount namespace of its
own: ``unshare``), or, where no namespace can be made, under a file-size limit
(``prlimit``), and on a read-only file system.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
httpx = pytest.importorskip("httpx")

from darkcity.decisions import Phase  # noqa: E402
from darkcity.room.ports import CannotSave  # noqa: E402
from darkcity.server.common import Refusal  # noqa: E402
from darkcity.server.storage import Storage  # noqa: E402
from darkcity.views import view  # noqa: E402

from .test_server import Clock, Table, manager  # noqa: E402
from .test_server_process import free_port  # noqa: E402

# -- the room, over a store that refuses -------------------------------------------------


class Refusing:
    """A store that refuses every write while ``full`` (what a full disk does)."""

    def __init__(self, inner: Storage) -> None:
        self.inner, self.full = inner, False

    def save_room(self, code: str, **kw: Any) -> None:
        if self.full:
            raise CannotSave(code)
        self.inner.save_room(code, **kw)

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        **kw: Any) -> None:
        if self.full:
            raise CannotSave(code)
        self.inner.append_decision(code, seq, doc, source, **kw)


def _until_gesture(t: Table) -> None:
    """The table plays on until a night's gestures are asked of Ana."""
    game = t.room.game
    assert game is not None
    for _ in range(200):
        if game.phase is Phase.GESTURE and "Ana" in game.pending and t.room.reveal_at is None:
            return
        t.step()
    raise AssertionError("no gesture asked of Ana")


def _choice(t: Table, name: str, k: int = 0) -> tuple[int, dict[str, Any]]:
    game = t.room.game
    assert game is not None
    v = view(game, name)
    choice = dict(v.choices[k % len(v.choices)])
    choice.pop("player")
    return v.decision_id, choice


def test_a_decision_the_store_refuses_is_said_and_no_bot_takes_that_turn(
        db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=0)
    room = t.room
    room.start(t.members["Ana"])
    store = Refusing(room.storage)  # type: ignore[arg-type]
    room.storage = store
    game = room.game
    assert game is not None
    seq, point = room.seq, game.decision_point().id
    assert "Ana" in game.pending
    store.full = True
    at, choice = _choice(t, "Ana")
    with pytest.raises(Refusal) as e:
        room.decide(t.members["Ana"], at, choice)
    assert e.value.code == "cannot-save"
    assert "not taken" in e.value.message.render() and "try again" in e.value.message.render()
    assert room.seq == seq and "Ana" in room.game.pending  # nothing of it in memory
    assert room.owed == {"Ana": point}
    # past the deadline, the store still full: nobody plays Ana's turn
    assert room.deadline is not None
    clock.now = room.deadline + 1
    for _ in range(5):
        room.tick()
        clock.now += 1.1
    assert room.seq == seq and "Ana" in room.game.pending
    # the disk has room again: the point gets a whole decision time more, said to all
    store.full = False
    before = len(t.conns["Ana"].sent)
    room.tick()
    assert room.owed == {} and room.deadline == pytest.approx(clock.now + room.config.decide_s)
    assert room.seq == seq and "Ana" in room.game.pending
    room.tick()  # (the broadcast, with no loop: at once)
    told = [m for m in t.conns["Ana"].sent[before:] if m.get("type") == "state"]
    assert told and told[-1]["deadline"] == room.deadline
    room.decide(t.members["Ana"], at, choice)  # and now it is taken
    assert room.seq == seq + 1 and "Ana" not in room.game.pending
    # once that new deadline passes, time is up as ever (the others did not decide)
    clock.now = room.deadline + 0.5
    room.tick()
    assert room.seq > seq + 1


def test_a_lobby_change_the_store_refuses_is_undone(db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=1)
    room = t.room
    store = Refusing(room.storage)  # type: ignore[arg-type]
    room.storage = store
    store.full = True
    members = {i: (m.name, m.seat) for i, m in room.members.items()}
    with pytest.raises(CannotSave):
        room.add_member("Eve")
    with pytest.raises(CannotSave):
        room.stand(t.members["Bia"])
    with pytest.raises(CannotSave):
        room.start(t.members["Ana"])
    assert {i: (m.name, m.seat) for i, m in room.members.items()} == members
    assert room.status == "lobby" and room.game is None and room.seed is None
    store.full = False
    room.start(t.members["Ana"])
    assert room.status == "playing"


def test_a_decision_changed_again_and_again_keeps_two_rows(db: str, clock: Clock) -> None:
    """The audit changed one decision 14 times a second: 269 rows a room in 20 s."""
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    _until_gesture(t)
    code = room.code
    assert room.game is not None
    v = view(room.game, "Ana")  # (the choices a sealed decision is changed among)
    at, choices = v.decision_id, [{k: x for k, x in c.items() if k != "player"}
                                  for c in v.choices]
    room.decide(t.members["Ana"], at, choices[0])
    for k in range(1, 21):
        room.decide(t.members["Ana"], at, choices[k % len(choices)], change=True)
    rows = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT source FROM darkcity_decisions WHERE room = ? AND doc LIKE ? AND "
        "doc LIKE ?", (code, '%"player": "Ana"%', f'%"at": {at}%')).fetchall()
    assert sorted(r[0] for r in rows) == ["change", "player"]
    # read back by a fresh server: the same game, and a change there replaces the row
    again = manager(db, clock).load(code)
    assert again is not None and again.game is not None and room.game is not None
    assert again.game.log == room.game.log and again.seq == room.seq
    assert again.changed == room.changed
    again.decide(t.members["Ana"], at, choices[3 % len(choices)], change=True)
    rows = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT count(*) FROM darkcity_decisions WHERE room = ? AND doc LIKE ? AND doc "
        "LIKE ?", (code, '%"player": "Ana"%', f'%"at": {at}%')).fetchone()
    assert rows == (2,)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


@pytest.fixture
def clock() -> Clock:
    return Clock()


# -- what the operator is told ------------------------------------------------------------


def test_the_operator_is_told_which_file_why_and_what_to_do() -> None:
    from darkcity.server.storage.rooms import cannot_save

    def sqlite_error(text: str, name: str) -> sqlite3.Error:
        e = sqlite3.OperationalError(text)
        e.sqlite_errorname = name  # type: ignore[attr-defined]
        return e

    full = cannot_save(sqlite_error("database or disk is full", "SQLITE_FULL"), "/srv/x.db")
    assert "/srv/x.db" in full.explain() and "full" in full.explain()
    assert "--db" in full.explain() and "disco" in full.explain("pt_BR")
    ro = cannot_save(sqlite_error("attempt to write a readonly database",
                                  "SQLITE_READONLY_DBMOVED"), "/srv/x.db")
    assert "read-only" in ro.explain() and "chmod" in ro.explain()
    io = cannot_save(sqlite_error("disk I/O error", "SQLITE_IOERR_WRITE"), "/srv/x.db")
    assert "disk" in io.explain()

    class PgError(Exception):
        sqlstate = "53100"

    assert "full" in cannot_save(PgError("could not extend file"), "postgresql://u:***@h/d"
                                 ).explain()
    PgError.sqlstate = "25006"
    assert "read-only" in cannot_save(PgError("read-only transaction"), "pg").explain()


# -- a real server on a disk that fills ----------------------------------------------------


def _can_mount() -> bool:
    if not shutil.which("unshare"):
        return False
    run = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs "
                          "/mnt"], capture_output=True, timeout=10)
    return run.returncode == 0


class Disk:
    """``darkcity serve`` whose SQLite file the test makes unwritable and writable again:

    - ``tmpfs``: the file on a 1 MiB tmpfs in the server's own mount namespace
      (``unshare``), filled by the test: a real "No space left on device" (SQLite's
      write-ahead log refuses once it must grow);
    - else a file-size limit on the server process (``prlimit``: every write of a file
      refused, SQLite's "disk I/O error"), deterministic and unprivileged.
    """

    def __init__(self, tmp: Path, tmpfs: bool) -> None:
        self.dir = tmp / "disk"
        self.dir.mkdir()
        self.port = free_port()
        self.base, self.ws = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
        self.tmpfs = tmpfs
        self.db = self.dir / "rooms.sqlite3"
        self.lines: list[str] = []
        serve = [sys.executable, "-m", "darkcity", "serve", "--host", "127.0.0.1", "--port",
                 str(self.port), "--db", f"sqlite:///{self.db}"]
        env = {**os.environ, "DARKCITY_BOT_WORKERS": "0", "DARKCITY_MIN_DECIDE_S": "1",
               "DARKCITY_MIN_BOT_DELAY_S": "0", "DARKCITY_MIN_BEAT_S": "0",
               "DARKCITY_CREATE_BURST": "1000"}
        cmd = (["unshare", "-rm", "sh", "-c", f'mount -t tmpfs -o size=1m tmpfs "{self.dir}"'
                ' && exec "$@"', "sh", *serve] if tmpfs else serve)
        # (a pipe, not a file: the file-size limit would refuse the log's writes too)
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        import threading

        threading.Thread(target=self._drain, daemon=True).start()
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log)
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    @property
    def seen(self) -> Path:
        """The disk's folder as the server sees it (its own mount namespace)."""
        return Path(f"/proc/{self.proc.pid}/root") / str(self.dir).lstrip("/") \
            if self.tmpfs else self.dir

    def fill(self) -> None:
        if not self.tmpfs:
            resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (1, resource.RLIM_INFINITY))
            return
        with contextlib.suppress(OSError), open(self.seen / "filler", "wb") as f:
            for _ in range(1024):  # (1 MiB at most)
                f.write(b"\0" * 1024)
                f.flush()

    def empty(self) -> None:
        if not self.tmpfs:
            resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE,
                             (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            return
        (self.seen / "filler").unlink()

    def rows(self, sql: str, *args: Any) -> list[Any]:
        """What the server's database holds: its file and write-ahead log copied from
        where the server sees them (SQLite would resolve ``/proc/PID/root`` to our own
        root), and read there (nothing writes meanwhile)."""
        copy = self.dir.parent / "copy"
        shutil.rmtree(copy, ignore_errors=True)
        copy.mkdir()
        for suffix in ("", "-wal"):
            with contextlib.suppress(FileNotFoundError):
                shutil.copyfile(self.seen / f"{self.db.name}{suffix}",
                                copy / f"{self.db.name}{suffix}")
        with contextlib.closing(sqlite3.connect(copy / self.db.name)) as c:
            return c.execute(sql, args).fetchall()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def _recv(ws: Any, want: Any, timeout: float = 10) -> dict[str, Any]:
    """The first message (or a welcome's state) for which ``want`` is true."""
    from darkcity.server.testing import unfold

    end = time.monotonic() + timeout
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
        for m in unfold(frame):
            if want(m):
                return m


def test_a_full_disk_refuses_the_decision_in_words_and_no_bot_takes_the_turn(
        tmp_path: Path) -> None:
    """The audit: "Something went wrong." and a time-out bot took the turn."""
    import websockets

    disk = Disk(tmp_path, tmpfs=False)  # (deterministic: every write refused)
    try:
        room = httpx.post(f"{disk.base}/api/rooms", json={
            "name": "Ana", "players": 4, "decide_s": 2, "grace_s": 600, "bot_delay_s": 0.05,
            "beat_s": 0.05}).json()
        code, token = room["code"], room["token"]
        acked: list[int] = []

        async def play() -> None:
            async with websockets.connect(f"{disk.ws}/ws/{code}", proxy=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await _recv(ws, lambda m: m["type"] == "welcome")
                for seat in (1, 2, 3):
                    await ws.send(json.dumps({"type": "add-bot", "seat": seat,
                                              "level": "random"}))
                await ws.send(json.dumps({"type": "start"}))
                state = await _recv(ws, lambda m: m["type"] == "state"
                                    and m["view"]["choices"])
                # one decision taken and acknowledged before the disk fills
                first = dict(state["view"]["choices"][0])
                first.pop("player", None)
                await ws.send(json.dumps({"type": "decide", "decision": first, "ref": "a",
                                          "at": state["view"]["decision_id"]}))
                m = await _recv(ws, lambda m: (m.get("ack") or {}).get("ref") == "a"
                                or m["type"] == "error")
                assert m["type"] != "error", m
                acked.append(m["ack"]["at"])
                state = await _recv(ws, lambda m: m["type"] == "state"
                                    and m["view"]["choices"]
                                    and m["view"]["decision_id"] != acked[-1], timeout=20)
                point = state["view"]["decision_id"]
                disk.fill()
                choice = dict(state["view"]["choices"][0])
                choice.pop("player", None)
                await ws.send(json.dumps({"type": "decide", "at": point, "decision": choice,
                                          "ref": "b"}))
                refused = await _recv(ws, lambda m: m["type"] == "error")
                assert refused["code"] == "cannot-save" and refused["ref"] == "b"
                assert "not taken" in refused["message"], refused
                # the room's other requests are refused in words too, as JSON
                await ws.send(json.dumps({"type": "chat", "text": "hello?"}))
                said = await _recv(ws, lambda m: m["type"] == "error")
                assert said["code"] == "cannot-save"
                made = httpx.post(f"{disk.base}/api/rooms", json={"name": "Bia"})
                assert made.status_code == 503 and made.json()["code"] == "cannot-save"
                assert "nothing was changed" in made.json()["message"]
                pt = httpx.post(f"{disk.base}/api/rooms", json={"name": "Bia"},
                                headers={"Accept-Language": "pt-BR"})
                assert pt.status_code == 503 and "salvar" in pt.json()["message"], pt.text
                await asyncio.sleep(3.5)  # past the deadline (2 s), the disk still full
                disk.empty()
                # the disk takes writes: the point gets a whole decision time more, and
                # Ana is still asked (no bot took her turn)
                renewed = await _recv(ws, lambda m: m["type"] == "state"
                                      and m["view"]["decision_id"] == point
                                      and m["deadline"] - m["server_time"] > 1.2, timeout=15)
                assert "Ana" in renewed["view"]["pending"]
                await ws.send(json.dumps({"type": "decide", "at": point, "decision": choice,
                                          "ref": "c"}))
                m = await _recv(ws, lambda m: (m.get("ack") or {}).get("ref") == "c"
                                or m["type"] == "error")
                assert m["type"] != "error", m
                acked.append(m["ack"]["at"])

        asyncio.run(play())
        rows = [json.loads(doc) | {"source": source} for doc, source in disk.rows(
            "SELECT doc, source FROM darkcity_decisions WHERE room = ?", code)]
    finally:
        disk.stop()
    ana = [r for r in rows if r["player"] == "Ana"]
    assert {r["at"] for r in ana} >= set(acked)  # nothing acknowledged lost
    assert not any(r["source"] in ("timeout", "away") for r in ana)
    log = disk.log
    assert str(disk.db) in log and "--db" in log and "disk" in log, log
    assert "takes writes again" in log and "Traceback" not in log, log


def test_a_tmpfs_that_fills_refuses_in_words_and_keeps_all_it_acknowledged(
        tmp_path: Path) -> None:
    """A real "No space left on device": rooms are made until the disk refuses one (503
    in words), then the disk is emptied; every room acknowledged (201) is stored, and
    the refused one is not half there."""
    if not _can_mount():
        pytest.skip("no mount namespace here (unshare -rm): the file-size limit's test "
                    "covers the refusal")
    disk = Disk(tmp_path, tmpfs=True)
    try:
        disk.fill()
        made, refused = [], None
        for i in range(400):  # bounded: the write-ahead log must grow within a few
            r = httpx.post(f"{disk.base}/api/rooms", json={"name": f"P{i}"})
            if r.status_code != 201:
                refused = r
                break
            made.append(r.json()["code"])
        assert refused is not None, "the full disk never refused a write"
        assert refused.status_code == 503 and refused.json()["code"] == "cannot-save"
        assert "full" in disk.log and str(disk.db) in disk.log, disk.log
        disk.empty()
        after = httpx.post(f"{disk.base}/api/rooms", json={"name": "Late"})
        assert after.status_code == 201
        made.append(after.json()["code"])
        stored = {r[0] for r in disk.rows("SELECT code FROM darkcity_rooms")}
        assert set(made) <= stored
        for code in made:  # each with its host: no room whose lobby was lost
            lobby = json.loads(disk.rows("SELECT lobby FROM darkcity_rooms WHERE code = ?",
                                         code)[0][0])
            assert len(lobby["members"]) == 1, (code, lobby)
    finally:
        disk.stop()


# -- a read-only database at start ------------------------------------------------------------


def test_a_read_only_database_stops_the_start_in_words(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "rooms.sqlite3"
    Storage(f"sqlite:///{db}").close()  # a database made, then made read-only
    serve = [sys.executable, "-m", "darkcity", "serve", "--port", str(free_port()), "--db",
             f"sqlite:///{db}"]
    env = {**os.environ, "DARKCITY_BOT_WORKERS": "0"}
    if os.geteuid() != 0:
        db.chmod(0o444)
        folder.chmod(0o555)
        cmd = serve
    elif _can_mount():  # root writes any file: a read-only file system instead
        cmd = ["unshare", "-rm", "sh", "-c", f'mount --bind "{folder}" "{folder}" && mount -o '
               f'remount,bind,ro "{folder}" && exec "$@"', "sh", *serve]
    else:
        pytest.skip("root, and no mount namespace: nothing here is read-only to root")
    try:
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    finally:
        folder.chmod(0o755)
    assert run.returncode == 2, run.stderr
    assert str(db) in run.stderr and "read-only" in run.stderr, run.stderr
    assert "--db" in run.stderr and "Traceback" not in run.stderr, run.stderr
