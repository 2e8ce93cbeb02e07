"""A room with no server: the online table's own room, hosted in one process, on a clock
the caller drives (issue #30: the way a phone's Web Worker runs it under Pyodide).

The server lends a room an asyncio loop's timers, sockets, a database and worker
processes (``room/ports.py``); here each port is a plain object:

- :class:`MemoryStore`, a :class:`~darkcity.room.ports.RoomStore` in memory: the lobby
  and every decision, in order, before it is acknowledged (the worker will keep the same
  rows in IndexedDB);
- :class:`LocalClock`, the room's clock and its timers: nothing runs by itself; the
  caller asks :meth:`LocalHost.due` when something is next due and calls
  :meth:`LocalHost.advance_to` then (a worker turns it into one ``setTimeout``);
- :class:`LocalReader`, one reader (a page's connection): it collects the messages a
  WebSocket client of the server receives, the same messages, as plain JSON data
  (views as dicts, an acknowledgement riding on the next state, count or progress);
- the bots think inline (no worker pool), on the room's own thread.

:meth:`LocalHost.handle` takes what a page sends a server's socket after its hello
(``decide``, ``sit``, ``add_bot``, ``start``, ``chat``...), checked here field by field:
a malformed message is answered with an ``error`` naming the field, never a crash.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import math
from collections.abc import Callable
from typing import Any, Final

from darkcity.i18n import Message, Translator, msg, translator
from darkcity.room import Member, Room, RoomConfig
from darkcity.room.common import Refusal
from darkcity.room.ports import RoomWindows, Superseded, Windows
from darkcity.room.restore import restore
from darkcity.views import View, fields_to_dict

__all__ = ["LocalClock", "LocalHost", "LocalReader", "MemoryStore", "plain"]

_CARRIES_ACK: Final = frozenset(("state", "count", "progress"))  # an ack rides on these
#: How many instants one :meth:`LocalHost.advance_to` may step through (a guard: a game
#: of eight bots to its end takes a few thousand).
MAX_STEPS: Final = 1_000_000


def plain(message: dict[str, Any]) -> dict[str, Any]:
    """A message as a client receives it: views as plain data (a welcome's nested
    ``state`` too), as the server's socket writes it."""
    v = message.get("view")
    if isinstance(v, View):
        message = {**message, "view": v.to_dict()}
    elif isinstance(v, dict) and "kept" in message:  # the fields a reader lacked
        message = {**message, "view": fields_to_dict(v)}
    state = message.get("state")
    if isinstance(state, dict):
        message = {**message, "state": plain(state)}
    return message


class MemoryStore:
    """What a room must not lose, in memory: per room, its row (status, lobby, seed, the
    next deadline) and its decisions in order (each with its source)."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.decisions: dict[str, list[dict[str, Any]]] = {}

    def _row(self, code: str) -> dict[str, Any]:
        return self.rows.setdefault(code, {"status": "lobby", "lobby": None, "seed": None,
                                           "deadline": None})

    def save_room(self, code: str, *, status: str | None = None,
                  lobby: dict[str, Any] | None = None, seed: str | None = None,
                  deadline: tuple[float | None, int | None] | None = None) -> None:
        row = self._row(code)
        for key, value in (("status", status), ("lobby", lobby), ("seed", seed),
                           ("deadline", deadline)):
            if value is not None:
                row[key] = copy.deepcopy(value)  # as it is now (the chat goes on)

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        deadline: tuple[float | None, int | None] | None = None,
                        status: str | None = None, replaces: int | None = None) -> None:
        """(``replaces`` is kept: a phone's games are short, and a replay reads the last
        change either way.)"""
        stored = self.decisions.setdefault(code, [])
        if seq != len(stored):  # a place taken (or a gap): nothing is stored
            raise Superseded(f"room {code}: decision {seq} after {len(stored)} stored")
        stored.append({"seq": seq, "decision": copy.deepcopy(doc), "source": source})
        self.save_room(code, status=status, deadline=deadline)


class _Call:
    """A call :class:`LocalClock` holds until its instant."""

    __slots__ = ("_when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self._when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def when(self) -> float:
        return self._when


class LocalClock:
    """The room's time and its timers (a :class:`~darkcity.room.ports.Scheduler` and its
    :class:`~darkcity.room.ports.Timers`): time stands still until the caller moves it."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self._calls: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def timers(self) -> LocalClock:
        return self

    def call_at(self, when: float, callback: Callable[[], object]) -> _Call:
        call = _Call(when, callback)
        heapq.heappush(self._calls, (when, next(self._order), call))
        return call

    def call_later(self, delay: float, callback: Callable[[], object]) -> _Call:
        return self.call_at(self.now + max(0.0, delay), callback)

    def call_soon(self, callback: Callable[[], object]) -> _Call:
        return self.call_at(self.now, callback)

    def call_precisely(self, delay: float, callback: Callable[[], object]) -> None:
        self.call_later(delay, callback)  # (its time is exact: it stands still)

    def next_call(self) -> float | None:
        """When the next call that still stands is due (``None``: none)."""
        while self._calls and self._calls[0][2].cancelled:
            heapq.heappop(self._calls)
        return self._calls[0][0] if self._calls else None

    def run_due(self) -> int:
        """Every call due by now, in order of their instants (a call may add more)."""
        ran = 0
        while (when := self.next_call()) is not None and when <= self.now:
            _, _, call = heapq.heappop(self._calls)
            call.callback()
            ran += 1
        return ran


class LocalReader:
    """One reader of a room (a page): what it is sent, collected in :attr:`outbox` as a
    server's WebSocket client receives it (:func:`plain` JSON data)."""

    def __init__(self, lang: str = "en", clock: Callable[[], float] = lambda: 0.0) -> None:
        self.member: int | None = None
        self.t: Translator = translator(lang)
        self.nights_sent = 0  # finished nights this reader already holds
        self.keeps = False  # sent whole states (a hello with ``kept``: what changed only)
        self.held: tuple[View, Any] | None = None  # the last state sent: view, standing
        self.acks: list[dict[str, Any]] = []  # its decisions stored, not yet acknowledged
        self.outbox: list[dict[str, Any]] = []
        self._clock = clock

    def ack(self, ref: str | None, at: int, seq: int) -> None:
        """A decision of this reader's is stored: its ``ack`` rides on the next state,
        count or progress (as on the server's socket)."""
        self.acks.append({"ref": ref, "at": at, "seq": seq})

    def flush_acks(self) -> None:
        while self.acks:
            self.send({"type": "ack", **self.acks[0], "server_time": self._clock()})

    def send(self, message: dict[str, Any]) -> None:
        if self.acks:
            kind = message.get("type")
            if kind == "ack":
                self.acks.pop(0)
            elif kind in _CARRIES_ACK:
                while len(self.acks) > 1:  # (two decisions at once: the older alone)
                    self.send({"type": "ack", **self.acks[0], "server_time": self._clock()})
                message = {**message, "ack": self.acks.pop()}
        self.outbox.append(plain(message))

    def error(self, code: str, message: Message, ref: str | None = None) -> None:
        self.send({"type": "error", "code": code, "message": self.t.render(message),
                   **message.to_json(), "ref": ref})

    def take(self) -> list[dict[str, Any]]:
        """The messages sent since the last take, oldest first."""
        out, self.outbox = self.outbox, []
        return out


def _field(message: dict[str, Any], name: str, kind: type) -> Any:
    value = message.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise Refusal("invalid", msg("Invalid message: {field}: {problem}", field=name,
                                     problem=f"expected {kind.__name__}"))
    return value


class LocalHost:
    """One room hosted in this process: its store, its clock, its readers.

    Nothing happens until the caller moves time: :meth:`due` says when something is next
    due (a bot's turn, the end of a count, a broadcast's window, a deadline), and
    :meth:`advance_to` runs everything due by then, in order."""

    def __init__(self, config: RoomConfig, *, code: str = "LOCAL", now: float = 0.0,
                 windows: Windows | None = None, store: MemoryStore | None = None) -> None:
        self.clock = LocalClock(now)
        self.store = store if store is not None else MemoryStore()
        self.room = Room(code, config, self.store, windows or RoomWindows(),
                         clock=self.clock.time, scheduler=self.clock)
        self._ticked = -math.inf  # the instant of the last tick
        self._touched = True  # a call from outside since then (due times may act now)
        self.store.save_room(code)
        self.store.rows[code]["config"] = config.to_json()

    @classmethod
    def resume(cls, code: str, row: dict[str, Any], decisions: list[dict[str, Any]], *,
               now: float, windows: Windows | None = None) -> LocalHost:
        """The room ``code`` read back from what a :class:`MemoryStore` kept of it (its
        ``rows[code]`` and ``decisions[code]``, as IndexedDB will give them back): the
        lobby, and the game replayed decision by decision, as the server reads a room
        after a restart (:func:`darkcity.room.restore.restore`). Nobody is connected:
        :meth:`open` a page for each person again."""
        store = MemoryStore()
        store.rows[code] = copy.deepcopy(row)
        store.decisions[code] = copy.deepcopy(decisions)
        host = cls(RoomConfig.from_json(row["config"]), code=code, now=now,
                   windows=windows, store=store)
        deadline = row.get("deadline") or (None, None)
        restore(host.room, row.get("lobby") or {}, status=str(row["status"]),
                seed=row.get("seed"),
                decisions=lambda: [(int(d["seq"]), dict(d["decision"]), str(d["source"]))
                                   for d in decisions],
                deadline=deadline[0], deadline_dp=deadline[1], least_decide_s=0.0)
        return host

    # -- people -------------------------------------------------------------------------

    def member(self, member_id: int) -> Member | None:
        return self.room.members.get(member_id)

    def add_member(self, name: str) -> tuple[Member, str]:
        """A person in the room (the first one hosts): the member and its token."""
        self._touched = True
        return self.room.add_member(name)

    def open(self, member: Member | None, lang: str | None = None) -> LocalReader:
        """A page opened for ``member`` (``None``: a spectator): its welcome is in the
        reader's outbox at once, as a socket's hello is answered."""
        reader = LocalReader(lang or self.room.config.lang, self.clock.time)
        self._touched = True
        self.room.connect(reader, member)
        return reader

    def close(self, reader: LocalReader) -> None:
        self._touched = True
        self.room.disconnect(reader)

    def handle(self, reader: LocalReader, message: dict[str, Any]) -> None:
        """A message a page sends after its hello, as the server's socket takes it; a
        refusal is answered to ``reader`` as an ``error`` (what is wrong, and where)."""
        self._touched = True
        ref = message.get("ref") if isinstance(message.get("ref"), str) else None
        try:
            self._handle(reader, message, ref)
        except Refusal as e:
            reader.error(e.code, e.message, ref)

    def _handle(self, reader: LocalReader, m: dict[str, Any], ref: str | None) -> None:
        room, who = self.room, reader.member
        kind = m.get("type")
        if kind == "ping":
            reader.send({"type": "pong", "t": m.get("t"), "server_time": self.clock.now})
        elif kind == "decide":
            at = _field(m, "at", int)
            doc = _field(m, "decision", dict)
            room.decide(who, at, doc, lambda seq: reader.ack(ref, at, seq),
                        change=m.get("change") is True)
        elif kind == "sit":
            room.sit(who, _field(m, "seat", int))
        elif kind == "stand":
            room.stand(who)
        elif kind == "add_bot":
            room.add_bot(who, _field(m, "seat", int), _field(m, "level", str))
        elif kind == "remove":
            room.remove(who, _field(m, "seat", int))
        elif kind == "make_host":
            room.make_host(who, _field(m, "seat", int))
        elif kind == "start":
            room.start(who)
        elif kind == "chat":
            room.say(who, _field(m, "text", str))
        else:
            raise Refusal("invalid", msg("Invalid message: {field}: {problem}", field="type",
                                         problem=f"unknown type {kind!r}"))

    # -- time ---------------------------------------------------------------------------

    def due(self) -> float | None:
        """When something is next due (``None``: nothing until someone acts): a timer
        (a broadcast's window, the reveal), a bot's turn, a deadline, the grace of a
        player away. An instant already past is due now."""
        room, now = self.room, self.clock.now
        times: list[float] = []  # the room's own instants
        if room.game is not None and room.status == "playing":
            times.extend(room.bot_due.values())
            if room.deadline is not None:
                times.append(room.deadline)
            times.extend(t + room.config.grace_s for t in room.away.values())
            if room.stalled_until > now:
                times.append(room.stalled_until)
        if room.reveal_at is not None:
            times.append(room.reveal_at)
        # an instant the clock ticked at (or after) acted then, or cannot act until
        # someone does something
        live = [max(t, now) for t in times if t > self._ticked or self._touched]
        if (call := self.clock.next_call()) is not None:
            live.append(max(call, now))
        return min(live) if live else None

    def advance_to(self, t: float) -> int:
        """Run everything due by ``t``, instant by instant (each timer at its own time,
        then the room's clock); the clock then reads ``t``. Returns the steps taken."""
        steps = 0
        while (when := self.due()) is not None and when <= t:
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError(f"room {self.room.code}: still busy after {MAX_STEPS} "
                                   f"steps at t={self.clock.now}")
            self.clock.now = max(self.clock.now, when)
            self.clock.run_due()
            self._touched = False
            self._ticked = self.clock.now
            self.room.tick()
        self.clock.now = max(self.clock.now, t)
        return steps
