"""A room (``darkcity.room``) runs with no server around it: no asyncio, no web
framework, no database, no socket (issue #27, for issue #30: the same room in a phone's
Web Worker under Pyodide). What it needs comes through ``room/ports.py``'s interfaces;
here a dict keeps what it stores, a list what a reader is sent.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from .conftest import ROOT

BLOCKED = ("asyncio", "fastapi", "starlette", "sqlalchemy", "uvicorn", "socket")

_GAME = """
import random, sys
for name in {blocked!r}:
    sys.modules[name] = None  # import asyncio -> ImportError

import darkcity.room as room_package
from darkcity.room import Room, RoomConfig
from darkcity.room import broadcast, clock, driver, lobby, ports, state
from darkcity.i18n import translator
from darkcity.views import view


class Store:
    def __init__(self):
        self.rows, self.decisions = {{}}, {{}}

    def save_room(self, code, *, status=None, lobby=None, seed=None, deadline=None):
        self.rows.setdefault(code, {{}}).update(status=status, deadline=deadline)

    def append_decision(self, code, seq, doc, source, deadline=None, status=None):
        if (code, seq) in self.decisions:
            raise ports.Superseded(code, seq)
        self.decisions[(code, seq)] = (doc, source)


class Reader:
    def __init__(self):
        self.member, self.t, self.nights_sent, self.acks = None, translator("pt_BR"), 0, []
        self.keeps, self.held = False, None
        self.sent = []

    def send(self, message):
        if self.acks and message.get("type") in ("state", "count", "progress"):
            message = {{**message, "ack": self.acks.pop()}}
        self.sent.append(message)

    def error(self, code, message, ref=None):
        self.sent.append({{"type": "error", "code": code}})

    def flush_acks(self):
        while self.acks:
            self.sent.append({{"type": "ack", **self.acks.pop(0)}})


now = [1000.0]
store = Store()
config = RoomConfig(4, "basic", (), "fast", 20.0, 0.5, "pt_BR", "random", 10.0, 0.2)
room = Room("ABCDEF", config, store, ports.RoomWindows(), clock=lambda: now[0])
host, _token = room.add_member("Ana")
for seat in (1, 2, 3):
    room.add_bot(host.id, seat, "random")
reader = Reader()
room.connect(reader, host)
room.start(host.id)
rng = random.Random(4)
acked = 0
while not room.game.over:
    if "Ana" in room.game.pending and room.reveal_at is None:
        v = view(room.game, "Ana")
        choice = dict(rng.choice(v.choices))
        choice.pop("player")
        room.decide(host.id, v.decision_id, choice, lambda seq: reader.acks.append(
            {{"ref": None, "at": 0, "seq": seq}}))
        acked += 1
    now[0] += 1.0
    room.tick()
now[0] += 5
room.tick()
kinds = {{m["type"] for m in reader.sent}}
assert {{"welcome", "lobby", "state", "count"}} <= kinds, kinds
assert sum(1 for m in reader.sent if "ack" in m or m["type"] == "ack") == acked > 0
assert len(store.decisions) == room.seq == len(room.game.log)
blocked = [n for n in {blocked!r} if sys.modules.get(n) is not None]
assert not blocked, blocked
server = sorted(n for n in sys.modules if n.startswith("darkcity.server"))
assert not server, server  # the room is below the server: the phone's wheel has none of it
print("over", room.status, room.seq)
"""


def test_a_room_runs_without_asyncio_a_web_framework_or_a_database() -> None:
    """Blocked from import (``sys.modules[name] = None``), asyncio, FastAPI, Starlette,
    SQLAlchemy, uvicorn and sockets are not needed to import the room's modules and
    play a whole game in a room: one person and three bots, to the end; and nothing of
    ``darkcity.server`` is imported on the way."""
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(_GAME.format(
        blocked=BLOCKED))], capture_output=True, text=True, timeout=120,
        cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("over over"), run.stdout


def test_the_blocking_is_real() -> None:
    """The same blocking makes the server's app fail to import (the test above would
    catch a room that needs any of them)."""
    code = f"import sys\nfor n in {BLOCKED!r}: sys.modules[n] = None\nimport darkcity.server.app\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode != 0 and "None in sys.modules" in run.stderr, run.stderr[-2000:]
