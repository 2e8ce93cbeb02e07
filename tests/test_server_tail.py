"""The server's latency tail (issue #33): what keeps long pauses off its event loop."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from darkcity.room import names
from darkcity.server import ServerConfig, create_app
from darkcity.server.app import GC_THRESHOLDS


def test_the_collector_is_set_for_short_pauses_once_started(tmp_path: Path) -> None:
    """Start-up objects are frozen, young collections are small (a young generation
    of 10,000 took up to 22 ms a collection), the middle generation is kept to a few
    young collections' survivors (a threshold of 20 behind a young one of 10,000 let it
    pile up to 320,000 live objects: one collection held the loop for 200 ms; 10 behind
    1,000, 15 ms at 2,004 players), and the whole heap waits for thousands of middle
    collections (the default's 10 held the loop for 216 ms; benchmarks/README.md,
    issue #33)."""
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        names._prototypes.cache_clear()
        with TestClient(create_app(cfg)) as c:
            assert c.get("/api/meta").status_code == 200
            assert gc.get_threshold() == GC_THRESHOLDS
            young, middle, full = GC_THRESHOLDS
            assert 500 <= young <= 2000 and young * middle <= 2000 and full >= 10000
            assert gc.get_freeze_count() > 0
            # the look-alike table is built at start-up, not at a player's first name
            assert names._prototypes.cache_info().currsize == 1
    finally:
        gc.set_threshold(*before)
        if not frozen:
            gc.unfreeze()


def test_a_decision_on_sqlite_is_one_transaction_through_the_driver(tmp_path: Path) -> None:
    """``append_decision`` on SQLite writes through the driver's own connection (half
    SQLAlchemy's CPU on every decision's path): the same rows, one transaction, a
    repeated ``seq`` refused as IntegrityError with nothing of it kept, and the
    storage usable after it."""
    from sqlalchemy.exc import IntegrityError

    from darkcity.server.storage.rooms import Storage

    s = Storage(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    try:
        s.create_room("ROOMAB", {"players": 4}, {"seats": []})
        s.append_decision("ROOMAB", 0, {"type": "pick", "card": "V1"}, "player",
                          deadline=(123.5, 1))
        room = s.load_room("ROOMAB")
        assert room is not None and (room.deadline, room.deadline_dp) == (123.5, 1)
        assert room.status == "lobby"
        s.append_decision("ROOMAB", 1, {"type": "gesture"}, "bot", deadline=(None, None),
                          status="over")
        with pytest.raises(IntegrityError):
            s.append_decision("ROOMAB", 1, {"type": "again"}, "bot", status="playing")
        s.append_decision("ROOMAB", 2, {"type": "flee"}, "timeout", status="playing")
        room = s.load_room("ROOMAB")
        assert room is not None and room.status == "playing"
        assert (room.deadline, room.deadline_dp) == (None, None)
        assert [(d.seq, d.doc, d.source) for d in s.decisions("ROOMAB")] == [
            (0, {"type": "pick", "card": "V1"}, "player"), (1, {"type": "gesture"}, "bot"),
            (2, {"type": "flee"}, "timeout")]
        assert not s.conn.in_transaction()
    finally:
        s.close()
    again = Storage(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")  # what another process reads
    try:
        assert [d.seq for d in again.decisions("ROOMAB")] == [0, 1, 2]
    finally:
        again.close()


def test_the_reveal_never_fires_before_now() -> None:
    """A reveal timer that fires before the count's end (the loop's timers keep whole
    milliseconds, early or late) is checked again at the loop's next turn, and the room
    reveals only at or after "now!"."""
    from types import SimpleNamespace

    from darkcity.room.clock import RoomClock

    at = 100.0
    now = [at - 0.0004]
    again: list[object] = []
    ticks: list[float] = []

    class Timers:
        def call_soon(self, callback: object) -> None:
            again.append(callback)

    room = SimpleNamespace(reveal_at=at, clock=lambda: now[0],
                           scheduler=SimpleNamespace(timers=Timers),
                           tick=lambda: ticks.append(now[0]))
    room._reveal_due = lambda when: RoomClock._reveal_due(room, when)
    room._reveal_due(at)
    assert len(again) == 1 and ticks == []  # early: again at the next turn
    now[0] = at + 0.0001
    room._reveal_due(at)
    assert ticks == [at + 0.0001]  # at "now!" or after: revealed
    now[0] = at - 0.01  # a clock of its own (a test's): its tick reveals
    room._reveal_due(at)
    assert len(again) == 1 and len(ticks) == 1
    room.reveal_at = None  # revealed already
    now[0] = at
    room._reveal_due(at)
    assert len(ticks) == 1


@pytest.mark.parametrize("kernel", [True, False], ids=["timerfd", "loop-timer"])
def test_instants_run_in_order_never_before_their_time(kernel: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The reveal's clock (issue #33): callbacks at instants finer than the loop's
    millisecond run in the order of their instants, each at or after its own, on the
    loop; one that fails is reported and the others still run. With no timerfd (not
    Linux) the loop's own timer wakes it, and the same holds."""
    import asyncio
    import sys
    import time

    from darkcity.server import timers as T

    if kernel and T._timerfd() is None:
        pytest.skip("no timerfd on this system (" + sys.platform + ")")
    if not kernel:
        monkeypatch.setattr(T, "_timerfd", lambda: None)
    ran: list[tuple[str, float, float]] = []
    failures: list[dict[str, object]] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: failures.append(context))
        clock = T.InstantClock(loop)
        assert clock.precise is kernel
        start = time.monotonic()
        for name, delay in (("c", 0.030), ("a", 0.0101), ("b", 0.0102), ("now", 0.0)):
            when = start + delay
            clock.call_later(when - time.monotonic(),
                             lambda n=name, w=when: ran.append((n, w, time.monotonic())))
        clock.call_later(0.020, lambda: 1 / 0)
        await asyncio.sleep(0.06)

    asyncio.run(main())
    assert [name for name, _, _ in ran] == ["now", "a", "b", "c"]
    assert all(at >= when for _, when, at in ran)  # never before the instant
    assert len(failures) == 1 and isinstance(failures[0]["exception"], ZeroDivisionError)


def test_a_room_on_the_server_reveals_on_the_precise_clock() -> None:
    """The server's scheduler keeps one instant clock per loop, and a room's reveal
    goes through it (not the loop's millisecond timer)."""
    import asyncio

    from darkcity.server.timers import LoopScheduler

    scheduler = LoopScheduler()
    assert scheduler.timers() is None  # no loop: the room's tick reveals
    ran: list[str] = []

    async def main() -> None:
        scheduler.call_precisely(0.002, lambda: ran.append("one"))
        scheduler.call_precisely(0.001, lambda: ran.append("two"))
        assert len(scheduler._instants) == 1
        await asyncio.sleep(0.02)

    asyncio.run(main())
    assert ran == ["two", "one"]


def test_a_deciders_ack_leaves_in_the_call_that_stored_it() -> None:
    """A decider waits for its ack, which rides on its state: it goes out in the call
    that stored the decision, not on a later turn of the event loop, and not held up to
    the coalescing window by a broadcast already due for other changes (issue #33: a
    timer of 0 s cost a turn of the loop, ack p90 to p99 0.5 to 2.4 ms); that timer
    then finds nothing left to send."""
    from darkcity.room import RoomConfig
    from darkcity.room.local import LocalHost

    config = RoomConfig(4, "basic", (), "fast", 20.0, 0.5, "en", "random", 30.0, 0.8)
    host = LocalHost(config, code="ACKS", now=1000.0)
    members = [host.add_member(f"P{i}")[0] for i in range(4)]
    readers = [host.open(m) for m in members]
    host.handle(readers[0], {"type": "start"})
    host.advance_to(1001.0)  # (the start's states, after the window)
    mine = [m for m in readers[0].take() if m["type"] == "state" or "state" in m]
    view = (mine[-1].get("state") or mine[-1])["view"]
    assert "P0" in view["pending"] and view["choices"]
    room = host.room
    window = room.server.coalesce_s
    assert window > 0
    room.broadcast_state(only="P3")  # other changes: one broadcast within the window
    assert room._broadcast_due and host.clock.next_call() == pytest.approx(1001.0 + window)
    assert [m for m in readers[0].take() if m["type"] == "state"] == []
    choice = {k: v for k, v in view["choices"][0].items() if k != "player"}
    host.handle(readers[0], {"type": "decide", "ref": "r1", "at": view["decision_id"],
                             "decision": choice})
    got = readers[0].take()  # the clock has not moved
    states = [m for m in got if m["type"] == "state"]
    assert len(states) == 1 and states[0]["ack"]["ref"] == "r1", got
    assert not any(m["type"] == "error" for m in got), got
    host.advance_to(1001.0 + 2 * window)  # the due timer: nothing again
    assert [m for m in readers[0].take() if m["type"] == "state"] == []


def test_an_instant_clock_leaves_with_its_loop() -> None:
    """A loop that is closed and dropped takes its instant clock and the clock's
    timerfd with it (the test suite opens hundreds of loops)."""
    import asyncio
    import gc
    import os

    from darkcity.server.timers import LoopScheduler

    scheduler = LoopScheduler()
    fds: list[int | None] = []

    async def main() -> None:
        scheduler.call_precisely(0.0, lambda: None)
        (clock,) = scheduler._instants.values()
        fds.append(clock._fd)
        await asyncio.sleep(0.005)

    asyncio.run(main())
    gc.collect()
    assert len(scheduler._instants) == 0
    if fds[0] is not None:
        with pytest.raises(OSError):
            os.fstat(fds[0])  # closed


class _Socket:
    """A WebSocket as ``darkcity.server.ws`` uses it: frames in, bytes out; a send can
    be held (the transport not writable) until ``writable`` is set."""

    def __init__(self, frames: list[str]) -> None:
        import asyncio

        self.frames = frames
        self.sent: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed = False

    async def receive(self) -> dict[str, object]:
        if self.frames:
            return {"type": "websocket.receive", "text": self.frames.pop(0)}
        return {"type": "websocket.disconnect"}

    async def send_bytes(self, data: bytes) -> None:
        import json

        await self.writable.wait()
        self.sent.append(json.loads(data)["type"])

    async def close(self) -> None:
        self.closed = True


def test_the_answer_to_a_message_leaves_from_its_reader() -> None:
    """What a message's handling queues for its own socket (a decider's state with its
    ack, a pong, an error) is sent by the reader's task right after it, not by the
    writer's task at a later turn of the event loop (issue #33: that turn was 0.18 ms
    at the median and 0.9 ms at p90 of the ack's path at 2,004 players)."""
    import asyncio

    from darkcity.server import ws as W
    from darkcity.server.conn import Conn
    from darkcity.server.limits import Sockets

    async def main() -> tuple[list[str], bool]:
        cfg = ServerConfig()
        conn = Conn("en", 16)
        sock = _Socket(['{"type": "ping", "t": 1}', "not json"])
        session = W._Session("127.0.0.1", Sockets(0, 0, 0), cfg, greeted=True)
        await W._serve(sock, None, conn, session)  # type: ignore[arg-type]
        return sock.sent, conn.wake.is_set()  # (no writer task runs in this test)

    sent, woken = asyncio.run(main())
    assert sent == ["pong", "error"] and not woken


def test_messages_leave_in_order_when_the_writer_and_the_reader_both_send() -> None:
    """A socket that cannot take more (its transport paused) holds the writer in the
    middle of a send; the reader's answer then waits behind it, and nothing overtakes
    anything: one lock covers taking a message and sending it."""
    import asyncio

    from darkcity.server import ws as W
    from darkcity.server.conn import Conn

    async def main() -> list[str]:
        conn = Conn("en", 16)
        sock = _Socket([])
        sock.writable.clear()
        writer = asyncio.create_task(W._writer(sock, conn))  # type: ignore[arg-type]
        conn.send({"type": "state", "n": 1})
        conn.send({"type": "progress", "n": 2})
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the writer holds "state", waiting to write it
        assert conn.sending.locked()
        conn.answering = True  # the reader handles a message...
        conn.send({"type": "error", "n": 3})
        conn.answering = False
        assert await W._answer(sock, conn)  # type: ignore[arg-type]
        assert sock.sent == [] and conn.wake.is_set()  # handed to the writer
        sock.writable.set()
        conn.close()
        await asyncio.wait_for(writer, 1)
        return sock.sent

    assert asyncio.run(main()) == ["state", "progress", "error"]
