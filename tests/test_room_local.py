"""The online table's room hosted with no server (``darkcity.room.local``, issue #30):
a whole solo game against bots through it, with asyncio, the web framework, the
database and sockets blocked, the way a phone's Web Worker will run it; the person's
page gets what a server's WebSocket client gets, message for message.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from typing import Any

import pytest

from darkcity.i18n import Message
from darkcity.room import RoomConfig
from darkcity.room.local import LocalClock, LocalHost, LocalReader, MemoryStore
from darkcity.room.ports import Superseded

from .conftest import ROOT
from .room_solo import Solo, go_on, play_solo

BLOCKED = ("asyncio", "fastapi", "starlette", "sqlalchemy", "uvicorn", "socket",
           "pydantic", "orjson")

_SCRIPT = f"""
import runpy, sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # import asyncio -> ImportError
runpy.run_path({str(ROOT / "tests" / "room_solo.py")!r}, run_name="__main__")
"""


def _client_kinds() -> set[str]:
    """The message types the online table's page handles (net.js's switch)."""
    js = (ROOT / "src" / "darkcity" / "server" / "static" / "js" / "net.js").read_text()
    return set(re.findall(r'^\s*case "([a-z-]+)":', js, re.M))


def test_a_solo_game_against_five_bots_runs_to_its_victory_with_no_server() -> None:
    """One person and five heuristic bots, to the end: every decision stored before it
    is acknowledged, every one of the person's acknowledged, a winner shown in the last
    view; nothing of asyncio, FastAPI, SQLAlchemy, sockets, pydantic or the server."""
    run = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                         timeout=300, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["status"] == "over" and out["winners"], out
    assert out["last_winners"] == out["winners"]
    assert out["stored"] == out["log"] > 0
    assert out["decided"] == out["acks"] > 0 and not out["errors"]
    assert out["server"] == []
    kinds = set(out["kinds"])
    assert {"welcome", "state", "count", "progress"} <= kinds, kinds
    assert kinds <= _client_kinds(), kinds - _client_kinds()


def test_the_blocking_is_real() -> None:
    """The same blocking stops the server's room manager from importing."""
    code = (f"import sys\nfor n in {BLOCKED!r}: sys.modules[n] = None\n"
            "import darkcity.server.manager\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode != 0 and ("None in sys.modules" in run.stderr
                                    or "is not a package" in run.stderr), run.stderr[-2000:]


def _same(m: dict[str, Any]) -> dict[str, Any]:
    """A message without the instants only (a socket's ack alone is stamped with the
    wall clock, the local one with the room's)."""
    return {k: v for k, v in m.items() if k != "server_time"}


def test_the_page_gets_what_a_websocket_client_gets() -> None:
    """The server's own connection (``Conn``, whose messages go to a WebSocket) opened
    beside the local reader for the same person gets the same messages in the same
    order, acknowledgements riding on the same ones."""
    from darkcity.server.conn import Conn
    from darkcity.server.protocol import unfold

    conn = Conn("en", 100_000)
    conn.sent = []

    class Both(LocalReader):
        def ack(self, ref: str | None, at: int, seq: int) -> None:
            super().ack(ref, at, seq)
            conn.ack(ref, at, seq)

        def flush_acks(self) -> None:
            super().flush_acks()
            conn.flush_acks()

    page = Both("en")
    solo = play_solo(reader=page, beside=conn)
    local = [x for m in solo.messages[solo.beside_from:] for x in unfold(m)]
    served = conn.sent[1:]  # after its welcome (the lobby's, before the start)
    assert conn.sent[0]["type"] == "welcome" and len(served) > 20
    assert [_same(m) for m in local] == [_same(m) for m in served]


def test_a_game_resumes_from_what_the_store_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped mid-game (a closed app), the room is read back from its store's row and
    decisions alone (as the worker will from IndexedDB): the person's page opens on the
    same decision point with the same view, and the game goes on to its victory."""
    # the deal pinned: a room draws its seed at random, and one game in a few ended
    # before its 60th decision (CI, stop 38; the seed moved when the table's styles got
    # plans of their own, issue #54: that deal's game ended on its third night)
    monkeypatch.setattr("darkcity.room.lobby.secrets.token_hex", lambda n=16: "5eee" * 8)
    first = play_solo(stop_after=60)
    room = first.host.room
    assert room.game is not None and not room.game.over and room.seq >= 60
    row = json.loads(json.dumps(first.host.store.rows["SOLO"]))  # through JSON, as stored
    decisions = json.loads(json.dumps(first.host.store.decisions["SOLO"]))
    again = LocalHost.resume("SOLO", row, decisions, now=first.host.clock.now + 3600)
    back = again.room
    assert back.game is not None and back.game.log == room.game.log
    assert back.players == room.players and back.bots == room.bots
    ana = again.member(1)
    assert ana is not None and ana.name == "Ana"
    page = again.open(ana)
    (welcome,) = page.outbox
    assert welcome["type"] == "welcome" and welcome["member"] == 1
    view = welcome["state"]["view"]
    assert view["decision_id"] == room.game.decision_point().id
    solo = go_on(Solo(again, page), random.Random(5))
    assert back.game.over and back.status == "over" and not solo.errors
    assert len(again.store.decisions["SOLO"]) == len(back.game.log)


def test_a_malformed_message_is_answered_with_the_field_that_is_wrong() -> None:
    host = LocalHost(RoomConfig(4, "basic", (), "normal", 60.0, 0.5, "en", "random", 30.0,
                                0.8))
    ana, _ = host.add_member("Ana")
    page = host.open(ana)
    page.take()
    for message, field in (({"type": "add_bot", "seat": "one", "level": "random"}, "seat"),
                           ({"type": "add_bot", "seat": True, "level": "random"}, "seat"),
                           ({"type": "decide", "at": 0, "decision": []}, "decision"),
                           ({"type": "dance"}, "type")):
        host.handle(page, message)
        (error,) = page.take()
        assert error["type"] == "error" and error["code"] == "invalid", error
        assert error["params"]["field"] == field, error
    host.handle(page, {"type": "decide", "at": 0, "decision": {"type": "gesture"}})
    (error,) = page.take()
    assert error["code"] == "not-playing"


def test_time_moves_only_when_the_caller_moves_it() -> None:
    """In the lobby nothing is due; after the start the first bots' turns are, at their
    delay; ``advance_to`` runs what is due by then and leaves the clock there."""
    host = LocalHost(RoomConfig(4, "basic", (), "normal", 60.0, 0.5, "en", "random", 30.0,
                                0.8), now=50.0)
    ana, _ = host.add_member("Ana")
    page = host.open(ana)
    host.advance_to(60.0)
    assert host.due() is None and host.clock.now == 60.0
    for seat in (1, 2, 3):
        host.handle(page, {"type": "add_bot", "seat": seat, "level": "random"})
    host.handle(page, {"type": "start"})
    due = host.due()
    assert due is not None and due >= 60.0
    assert host.room.game is not None and len(host.room.game.log) == 0
    host.advance_to(60.0 + 0.8)
    assert len(host.room.game.log) >= 3  # the three bots' free XP, at their delay
    assert host.clock.now == 60.8


def test_the_store_keeps_decisions_in_order_and_refuses_a_place_taken() -> None:
    store = MemoryStore()
    store.save_room("R", status="playing", seed="s")
    store.append_decision("R", 0, {"type": "x"}, "player", deadline=(5.0, 1))
    try:
        store.append_decision("R", 0, {"type": "y"}, "bot")
    except Superseded:
        pass
    else:
        raise AssertionError("a place taken was stored")
    assert store.decisions["R"] == [{"seq": 0, "decision": {"type": "x"}, "source": "player"}]
    assert store.rows["R"]["deadline"] == (5.0, 1) and store.rows["R"]["seed"] == "s"


def test_the_clock_runs_calls_in_order_and_skips_cancelled_ones() -> None:
    clock, ran = LocalClock(10.0), []
    clock.call_later(2.0, lambda: ran.append("b"))
    clock.call_at(11.0, lambda: ran.append("a"))
    clock.call_later(1.5, lambda: ran.append("no")).cancel()
    assert clock.next_call() == 11.0
    clock.now = 12.0
    assert clock.run_due() == 2 and ran == ["a", "b"] and clock.next_call() is None


def test_a_local_error_names_its_message() -> None:
    page = LocalReader("pt_BR")
    page.error("x", Message("Spectators cannot decide."), "r1")
    (m,) = page.take()
    assert m["ref"] == "r1" and m["message"] == "Espectadores não decidem."  # the reader's
    assert m["msgid"] == "Spectators cannot decide."  # and the message's own id


def test_each_bot_seat_plays_a_style_drawn_from_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of bots is not five copies of one mind (issue #32): each bot seat draws a
    style from the game's seed, shown in the lobby (the seat's tooltip), the same after
    the room is read back; none before the start."""
    from darkcity.bots import styles_of

    monkeypatch.setattr("darkcity.room.lobby.secrets.token_hex", lambda n=16: "5eed" * 8)
    solo = play_solo(stop_after=10)
    seats = solo.host.room.lobby_public()["seats"]
    styles = [s["style"] for s in seats if s["kind"] == "bot"]
    assert len(styles) == 5 and set(styles) <= set(styles_of("heuristic"))
    assert len(set(styles)) > 1, styles
    assert all(s.get("style") is None for s in seats if s["kind"] != "bot")
    row = json.loads(json.dumps(solo.host.store.rows["SOLO"]))
    decisions = json.loads(json.dumps(solo.host.store.decisions["SOLO"]))
    again = LocalHost.resume("SOLO", row, decisions, now=solo.host.clock.now + 5)
    assert [s.get("style") for s in again.room.lobby_public()["seats"]] == \
        [s.get("style") for s in seats]
    fresh = LocalHost(RoomConfig(4, "basic", (), "normal", 120.0, 0.5, "en", "random",
                                 30.0, 0.8), code="NEW", now=0.0)
    ana, _token = fresh.add_member("Ana")
    page = fresh.open(ana)
    fresh.handle(page, {"type": "add_bot", "seat": 1, "level": "heuristic"})
    assert fresh.room.lobby_public()["seats"][1]["style"] is None  # (drawn at the start)
