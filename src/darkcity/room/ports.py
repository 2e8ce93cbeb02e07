"""What a room needs from outside, as small typed interfaces the server implements.

A room is plain synchronous state; it never imports an event loop, a web framework, a
database or a socket. The server lends it:

- a :class:`RoomStore` that stores its lobby and each decision *before* the decision
  is acknowledged (:class:`darkcity.server.storage.Storage`; a decision whose place is
  taken raises :class:`Superseded`);
- a :class:`Reader` per connection, which it hands messages to
  (:class:`darkcity.server.conn.Conn`);
- a :class:`Scheduler` for the timers: the reveal at its instant, the broadcasts'
  windows (:class:`darkcity.server.timers.LoopScheduler`, on the running asyncio loop);
- a :class:`Thinker` where bots think off the room's thread
  (:class:`darkcity.server.thinking.BotPool`, worker processes), given a
  :class:`Request`;
- the time, a ``Callable[[], float]`` (epoch seconds; ``time.time`` by default);
- its broadcasts' :class:`Windows` (the server's
  :class:`~darkcity.server.config.ServerConfig` is one; :class:`RoomWindows` the
  defaults, for a room with no server).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from darkcity.i18n import Message, Translator
from darkcity.views import View

__all__ = ["NO_TIMERS", "CannotSave", "Reader", "Request", "RoomStore", "RoomWindows",
           "Scheduler", "Superseded", "Thinker", "Timer", "Timers", "Windows"]


class Windows(Protocol):
    """How long a room lets changes gather before it tells its readers (seconds)."""

    @property
    def coalesce_s(self) -> float:
        """Changes within this window make one broadcast (acks go first)."""

    @property
    def progress_s(self) -> float:
        """"Who has decided" goes to the others at most this often."""

    @property
    def presence_s(self) -> float:
        """Who is connected (the lobby's "online") goes out this often."""

    @property
    def sealed_progress_s(self) -> float:
        """... and this long after the first news, when several decide at once."""


@dataclass(frozen=True, slots=True)
class RoomWindows:
    """The server's windows by default (:class:`~darkcity.server.config.ServerConfig`'s
    numbers), for a room that runs with no server."""

    coalesce_s: float = 0.01
    progress_s: float = 0.5
    presence_s: float = 1.0
    sealed_progress_s: float = 2.0


class Superseded(Exception):
    """A decision's place in its room's history is taken: another process has run the
    room meanwhile (its lease ran out here). Nothing was stored; the room is read
    again from the database, and the decision may be made again there."""


class CannotSave(Exception):
    """The store cannot write now (its disk is full, its database is read-only or out of
    reach): nothing was stored. The room refuses what needed it, in words, and changes
    nothing in memory; the operator's log says which file, why and what to do."""


class RoomStore(Protocol):
    """Where a room keeps what it must not lose (a decision is stored before it is
    acknowledged, in one transaction with the room's next deadline or its end)."""

    def save_room(self, code: str, *, status: str | None = None,
                  lobby: dict[str, Any] | None = None, seed: str | None = None,
                  deadline: tuple[float | None, int | None] | None = None) -> None: ...

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        deadline: tuple[float | None, int | None] | None = None,
                        status: str | None = None, replaces: int | None = None) -> None:
        """Store one decision (raises :class:`Superseded` when ``seq`` is taken,
        :class:`CannotSave` when nothing can be written). ``replaces``: the ``seq`` of a
        decision this one makes void (a changed decision's earlier change), deleted in
        the same transaction; a store may keep it (a replay ignores it either way)."""


class Reader(Protocol):
    """One connection to a room: who reads (a member's id, or ``None``: a spectator), in
    which language, and where its messages go."""

    member: int | None
    t: Translator
    nights_sent: int  # finished nights this reader already holds
    acks: list[dict[str, Any]]  # its decisions stored, not yet acknowledged
    #: the reader asked for states that leave out what it holds (``hello``'s ``kept``)
    keeps: bool
    #: the last state it was sent, as it holds it: (its view, its standing)
    held: tuple[View, Any] | None

    def send(self, message: dict[str, Any]) -> None:
        """Hand the reader a message (an acknowledgement due rides on it)."""

    def error(self, code: str, message: Message, ref: str | None = None) -> None: ...

    def flush_acks(self) -> None:
        """Acknowledgements nothing carried: each in a message of its own."""


class Timer(Protocol):
    """A call scheduled by :class:`Timers`."""

    def cancel(self) -> None: ...

    def when(self) -> float: ...


class Timers(Protocol):
    """A running loop's timers, on its own monotonic clock (``time()``)."""

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer: ...

    def call_soon(self, callback: Callable[[], object]) -> object: ...


class Scheduler(Protocol):
    """Where a room's timers run."""

    def timers(self) -> Timers | None:
        """The running loop's timers; ``None`` when nothing runs them (a test driving a
        room by hand): the room then broadcasts at once, and its tick reveals."""

    def call_precisely(self, delay: float, callback: Callable[[], object]) -> None:
        """``callback`` on the loop ``delay`` seconds from now, as near the instant as
        the scheduler can (the reveal: the loop's own timers keep whole milliseconds).
        Only called while :meth:`timers` gives a loop."""


class _NoTimers:
    """No loop: every broadcast at once, the reveal at the next tick."""

    __slots__ = ()

    def timers(self) -> Timers | None:
        return None

    def call_precisely(self, delay: float, callback: Callable[[], object]) -> None:
        raise RuntimeError("no loop runs this room's timers")


NO_TIMERS: Scheduler = _NoTimers()


@dataclass(frozen=True, slots=True)
class Request:
    """What a worker needs to decide for ``player`` at ``level`` in room ``code``."""

    code: str
    seed: str
    players: tuple[str, ...]
    deck: str  # a preset name, or "custom"
    cards: tuple[str, ...]
    decisions: tuple[dict[str, Any], ...]  # every decision stored, in order
    player: str
    level: str
    style: str | None = None  # a seated bot's style (room.bots.seat_style); None: a timeout's


class Thinker(Protocol):
    """Bots that think off the room's thread (worker processes)."""

    def submit(self, req: Request, done: Callable[[dict[str, Any] | None], None]) -> None:
        """Think; ``done`` is called on the room's thread with the decision's plain data,
        or ``None`` if the thinking failed."""
