"""CPU-heavy requests in a worker process, off the rooms' event loop (issue #53).

A record viewer's step (``POST /api/replay``) replays a whole game record: 30 to 50 ms
of CPU for a 150 KB record here, more for a larger one. Run in a thread it held the
interpreter lock, and the loop that serves every room waited behind it: under a flood of
steps a seated player's ack p95 went from 18 to 562 ms. :class:`HeavyPool` runs such
requests in ``workers`` child processes (``nice`` +10: the loop goes first), each fed
one request at a time over its stdin and answering on its stdout, so the loop only
moves bytes: the body as it arrived (parsed, checked and replayed in the worker) and
the answer as JSON bytes, sent as they are.

Bounded: at most ``queue`` requests wait for a worker, beyond that a request is refused
at once (:class:`Busy`, an HTTP 503 in words); a request that runs past ``timeout_s``
has its worker killed (a new one starts) and is refused. A worker starts on the first
request (or when the record viewer's page is opened), ends when the server does (its
stdin closes, ``kill -9`` included), and is replaced past ``max_rss_mb`` of memory, so
that what a flood leaves behind goes with it.

It is a sibling of :class:`~darkcity.server.thinking.BotPool`, not that pool: a room's
bots are pinned to a worker that keeps their game between turns, while a replay holds
nothing between requests and must be refusable; a flood of replays then never delays a
bot's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, Final

from darkcity.i18n import Message, msg

__all__ = ["Busy", "HeavyPool", "job", "rss_mb", "yield_cpu"]

log = logging.getLogger("darkcity.server")

_HEAD: Final = struct.Struct(">I")
BUSY: Final = msg("The server is busy replaying other records; try again in a few seconds.")
TOO_LONG: Final = msg("This record took too long to replay; it was stopped.")
FAILED: Final = msg("The record could not be replayed; try again.")


class Busy(Exception):
    """A heavy request refused: the queue is full, it ran too long, or its worker died."""

    def __init__(self, message: Message, retry_s: int = 2) -> None:
        super().__init__(message.msgid)
        self.message = message
        self.retry_s = retry_s


# -- the worker's side -------------------------------------------------------------------


def _replay(body: bytes, lang: str) -> tuple[int, bytes]:
    """``POST /api/replay``'s work: the body parsed and checked, the record stepped."""
    from pydantic import ValidationError

    from darkcity import review
    from darkcity.i18n import translator
    from darkcity.record import RecordError
    from darkcity.server import protocol as p
    from darkcity.server.common import Refusal, refusal_body, validation_message

    t = translator(lang)
    try:
        asked = p.ReviewStep.model_validate_json(body or b"{}")
        found = review.step(asked.record, asked.night, asked.viewer, t)
    except ValidationError as e:
        return 422, _dumps(refusal_body(t, "invalid", validation_message(e)))
    except Refusal as e:
        return 400, _dumps(refusal_body(t, e.code, e.message))
    except RecordError as e:
        return 422, _dumps(refusal_body(t, "bad-record", msg(
            "This is not a game record that can be replayed: {why}", why=e.message)))
    return 200, _dumps(found)


def _sleep(body: bytes, lang: str) -> tuple[int, bytes]:  # (tests: a request that runs long)
    import time

    time.sleep(float(body or b"0"))
    return 200, b"{}"


#: The jobs a worker knows, by name.
JOBS: Final[dict[str, Callable[[bytes, str], tuple[int, bytes]]]] = {
    "replay": _replay, "sleep": _sleep}


def _dumps(doc: Any) -> bytes:
    try:
        import orjson
    except ImportError:  # pragma: no cover
        import json

        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    return orjson.dumps(doc)


def job(kind: str, body: bytes, lang: str) -> tuple[int, bytes]:
    """Run one job here (a worker, or the loop's own thread where there is no pool)."""
    try:
        return JOBS[kind](body, lang)
    except Exception:  # a bug must not take the worker down with it
        log.exception("a %s request failed", kind)
        from darkcity.i18n import translator
        from darkcity.server.common import refusal_body

        return 500, _dumps(refusal_body(translator(lang), "internal",
                                        msg("Something went wrong.")))


def yield_cpu() -> None:
    """Make this process (a worker) give way to the server's loop: ``nice`` +10, in a
    session of its own. Where the kernel shares the CPU between sessions first
    (``autogroup``), a worker in its server's session spends that session's share, and
    the loop, woken by a player, waits behind the machine's other sessions (a flood's
    ack p95 26 to 52 ms against 11 to 22 ms on the shared development machine); in a
    session of its own it takes a share of its own (a whole group's, not a tenth: at
    ``nice`` +10 there, replays starved whenever the machine was busy)."""
    with contextlib.suppress(OSError):
        os.nice(10)
    with contextlib.suppress(OSError):
        os.setsid()


def rss_mb() -> float:
    """This process's resident memory in MB (0 where /proc cannot say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return 0.0


def _read(stream: BinaryIO, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(max_rss_mb: float) -> None:
    """The worker: requests from stdin, answers to stdout, until stdin closes (the server
    ended) or its memory passed ``max_rss_mb`` (it ends; the server starts another)."""
    yield_cpu()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # (a stray print goes to the log, never into an answer)
    from darkcity import review  # noqa: F401  (imported before the first request)
    from darkcity.server import protocol  # noqa: F401

    stdin = sys.stdin.buffer
    out.write(_HEAD.pack(0))  # ready
    out.flush()
    while True:
        head = _read(stdin, _HEAD.size)
        if head is None:
            return
        data = _read(stdin, _HEAD.unpack(head)[0])
        if data is None:
            return
        kind, body, lang = pickle.loads(data)
        status, answer = job(kind, body, lang)
        done = rss_mb() > max_rss_mb
        frame = pickle.dumps((status, answer, done))
        out.write(_HEAD.pack(len(frame)) + frame)
        out.flush()
        if done:
            return


# -- the server's side -------------------------------------------------------------------


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, max_rss_mb: float) -> _Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c",
            f"from darkcity.server.heavy import serve; serve({float(max_rss_mb)!r})",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        w = cls(proc)
        assert proc.stdout is not None
        await proc.stdout.readexactly(_HEAD.size)  # ready: the engine is imported
        return w

    async def call(self, kind: str, body: bytes, lang: str) -> tuple[int, bytes, bool]:
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        frame = pickle.dumps((kind, body, lang))
        proc.stdin.write(_HEAD.pack(len(frame)) + frame)
        await proc.stdin.drain()
        (n,) = _HEAD.unpack(await proc.stdout.readexactly(_HEAD.size))
        status, answer, done = pickle.loads(await proc.stdout.readexactly(n))
        return int(status), bytes(answer), bool(done)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def close(self) -> None:
        """Let it end (its stdin closes), then make sure."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 2)
        except TimeoutError:
            self.kill()
            await self.proc.wait()


class HeavyPool:
    """``workers`` worker processes; at most ``queue`` requests wait for one."""

    def __init__(self, workers: int = 1, queue: int = 16, timeout_s: float = 10.0,
                 max_rss_mb: float = 400.0) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.timeout_s = timeout_s
        self.max_rss_mb = max_rss_mb
        self.admitted = 0  # running or waiting
        self._idle: asyncio.Queue[_Worker | None] | None = None
        self._all: set[_Worker] = set()
        self._closed = False

    def _slots(self) -> asyncio.Queue[_Worker | None]:
        """The free workers (``None``: a slot whose worker is not started yet)."""
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                self._idle.put_nowait(None)
        return self._idle

    def warm(self) -> None:
        """Start the workers now, in the background (the record viewer was opened)."""
        slots = self._slots()
        for _ in range(slots.qsize()):
            w = slots.get_nowait()
            if w is not None:
                slots.put_nowait(w)
                continue
            asyncio.get_running_loop().create_task(self._warm_one())

    async def _warm_one(self) -> None:
        try:
            w: _Worker | None = await self._start()
        except Exception:
            log.exception("the replay worker could not start")
            w = None
        self._slots().put_nowait(w)

    async def _start(self) -> _Worker:
        w = await _Worker.start(self.max_rss_mb)
        self._all.add(w)
        return w

    @property
    def full(self) -> bool:
        return self.admitted >= self.workers + self.queue

    async def run(self, kind: str, body: bytes, lang: str) -> tuple[int, bytes]:
        """Run ``kind`` in a worker: its HTTP status and JSON answer. Raises :class:`Busy`."""
        if self._closed or self.full:
            raise Busy(BUSY)
        self.admitted += 1
        slots = self._slots()
        try:
            w = await slots.get()
            try:
                if w is None:
                    w = await self._start()
                status, answer, done = await asyncio.wait_for(
                    w.call(kind, body, lang), self.timeout_s)
            except TimeoutError:
                log.warning("a %s request ran past %g s: its worker is replaced", kind,
                            self.timeout_s)
                self._drop(w)
                w = None
                raise Busy(TOO_LONG, retry_s=10) from None
            except (OSError, asyncio.IncompleteReadError, EOFError, pickle.PickleError):
                log.error("the %s worker died; a new one starts", kind)
                self._drop(w)
                w = None
                raise Busy(FAILED) from None
            except BaseException:  # cancelled: the answer would come for nobody
                self._drop(w)
                w = None
                raise
            if done:  # past its memory: it has ended, a new one starts at the next request
                self._drop(w, wait=True)
                w = None
            return status, answer
        finally:
            self.admitted -= 1
            slots.put_nowait(w)

    def _drop(self, w: _Worker | None, wait: bool = False) -> None:
        if w is None:
            return
        self._all.discard(w)
        if not wait:
            w.kill()
        asyncio.get_running_loop().create_task(w.close())  # (reaped)

    async def close(self) -> None:
        self._closed = True
        workers, self._all = list(self._all), set()
        await asyncio.gather(*(w.close() for w in workers), return_exceptions=True)
