"""Slow clients cut, and a refusal read before the connection closes (issue #53).

uvicorn waits for a request's head and body as long as the client likes: 150 clients
sending their headers (or their bodies) a byte at a time held 300 connections, each a
file descriptor, for as long as they cared to. :func:`protocol` gives ``darkcity serve``
uvicorn's own HTTP protocol (httptools', else h11's) with two deadlines:

- **the head**: a connection must send a request's whole head (its request line and
  headers) within ``head_s`` of opening, or of the first byte of its next request (a
  kept-alive connection waits for that first byte under uvicorn's own keep-alive
  timeout); else it is closed;
- **the body**: a request's body must arrive whole within ``body_s`` of its head; else
  the request is answered ``408`` (JSON, in words: what a page can show) and the
  connection closed, and the app sees the client gone.

It also **lingers** where uvicorn would reset: a request answered before its body was
read (a ``413`` for a body over the limit, a ``429`` or a ``503`` that did not need it)
closes its connection, and a close with unread bytes waiting makes the kernel send a
reset, which may reach the client before the answer does and hide it ("connection
reset" instead of "too big"). Here the answer goes out, then the end of our side of the
stream (``write_eof``), and what the client still sends is read and dropped, for at
most ``linger_s`` and ``LINGER_BYTES``, before the connection closes.

A WebSocket upgrade leaves this protocol (its socket has its own hello deadline,
:mod:`darkcity.server.ws`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import weakref
from typing import Any, Final

__all__ = ["BODY_S", "HEAD_S", "LINGER_BYTES", "HttpProtocol", "protocol"]

#: What a lingering connection reads and drops at most before it closes anyway.
LINGER_BYTES: Final = 4 * 2**20
#: The deadlines by default (ServerConfig's header_timeout_s, body_timeout_s).
HEAD_S: Final = 10.0
BODY_S: Final = 30.0


class _Transport:
    """The connection's transport as uvicorn holds it: the same, except that a close
    with a request body still coming lingers (see the module)."""

    def __init__(self, real: asyncio.Transport, owner: Any) -> None:
        self._real = real
        # (weak: a cycle protocol -> transport -> protocol would keep each connection,
        # its request and the body that came with it until a full collection, which
        # the server's collector makes rare: +160 MB kept after a flood)
        self._owner = weakref.ref(owner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def close(self) -> None:
        owner = self._owner()
        if owner is None:
            self._real.close()
        else:
            owner._closing()

    def is_closing(self) -> bool:
        owner = self._owner()
        return bool(self._real.is_closing() or (owner is not None and owner._lingering))


def _base() -> type[asyncio.Protocol]:
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    return AutoHTTPProtocol


def _seconds(name: str, default: float) -> float:
    value = os.environ.get(name)
    try:
        return float(value) if value else default
    except ValueError:
        return default


def _build(base: Any) -> type[asyncio.Protocol]:
    """uvicorn's protocol ``base`` with the deadlines and the lingering close. Its
    ``head_s`` / ``body_s`` are read from ``DARKCITY_HEADER_TIMEOUT_S`` and
    ``DARKCITY_BODY_TIMEOUT_S`` at its first connection unless set (:func:`protocol`):
    ``darkcity serve --workers N`` names the class (``HttpProtocol``) for uvicorn's
    worker processes, which import it again."""

    class Deadlines(base):  # type: ignore[misc]
        head_s: float | None = None
        body_s: float | None = None
        linger_s: float = 2.0
        _real: asyncio.Transport
        _timer: asyncio.TimerHandle | None
        _lingering: bool
        _lingered: int
        _seen: Any  # the request whose head was read last
        _waiting: str  # "head", "body" or "" (nothing due)

        def connection_made(self, transport: Any) -> None:
            cls = type(self)
            if cls.head_s is None or cls.body_s is None:
                cls.head_s = _seconds("DARKCITY_HEADER_TIMEOUT_S", HEAD_S)
                cls.body_s = _seconds("DARKCITY_BODY_TIMEOUT_S", BODY_S)
            self._real = transport
            self._timer = None
            self._lingering = False
            self._lingered = 0
            self._seen = None
            self._waiting = ""
            super().connection_made(_Transport(transport, self))
            self._wait("head")

        def _wait(self, what: str) -> None:
            self._stop()
            due = (self.head_s if what == "head" else self.body_s) or 0.0
            if due > 0:
                self._waiting = what
                late = self._head_late if what == "head" else self._body_late
                self._timer = self.loop.call_later(due, late)

        def _stop(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._waiting = ""

        def data_received(self, data: bytes) -> None:
            if self._lingering:  # read and dropped: the client reads our answer, no reset
                self._lingered += len(data)
                if self._lingered > LINGER_BYTES:
                    self._real.close()
                return
            super().data_received(data)
            self._track()

        def eof_received(self) -> bool | None:
            if self._lingering:
                self._real.close()
                return None
            result: bool | None = super().eof_received()
            return result

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            super().connection_lost(exc)

        def _track(self) -> None:
            """After bytes came in: which deadline runs now."""
            real = self._real
            if real.is_closing() or real.get_protocol() is not self:  # closed, or upgraded
                self._stop()
                return
            cycle = self.cycle
            if cycle is None:
                return  # the first head is still coming: its deadline runs
            if cycle is not self._seen:  # a new request's head is in
                self._seen = cycle
                if cycle.more_body and not cycle.response_complete:
                    self._wait("body")
                else:
                    self._stop()
            elif self._waiting == "body" and not cycle.more_body:
                self._stop()  # the body is in
            elif cycle.response_complete and self._waiting != "head":
                self._wait("head")  # the next request on a kept-alive connection began

        def _head_late(self) -> None:
            self._timer = None
            real = self._real
            if not real.is_closing() and real.get_protocol() is self:
                real.close()

        def _body_late(self) -> None:
            """The body did not come in time: 408 (if nothing was answered yet), closed,
            and the app told that the client is gone."""
            self._timer = None
            real, cycle = self._real, self.cycle
            if real.is_closing() or real.get_protocol() is not self or cycle is None:
                return
            if not cycle.response_started:
                real.write(_timeout_answer(cycle.scope))
            cycle.disconnected = True
            cycle.message_event.set()
            real.close()

        def _closing(self) -> None:
            """uvicorn closes the connection: at once, unless a request's body is still
            coming; then the answer leaves, our side ends, and we read a while."""
            real, cycle = self._real, self.cycle
            if real.is_closing() or self._lingering:
                return
            self._stop()
            still_sending = (real.get_protocol() is self and cycle is not None
                             and cycle.more_body and not cycle.disconnected)
            if not still_sending or self.linger_s <= 0 or not real.can_write_eof():
                real.close()
                return
            self._lingering = True
            with contextlib.suppress(Exception):
                real.write_eof()  # after the answer already written
                real.resume_reading()  # (uvicorn may have paused it: drain)
            self._timer = self.loop.call_later(self.linger_s, real.close)

    return Deadlines


#: uvicorn's own protocol (httptools', else h11's) with the deadlines, under a name
#: uvicorn can import (``http="darkcity.server.slow:HttpProtocol"``).
HttpProtocol = _build(_base())
HttpProtocol.__name__ = HttpProtocol.__qualname__ = "HttpProtocol"


def protocol(head_s: float, body_s: float, linger_s: float = 2.0) -> type[asyncio.Protocol]:
    """:data:`HttpProtocol` with these deadlines (``<= 0``: none) and this linger."""
    return type("HttpProtocol", (HttpProtocol,), {"head_s": head_s, "body_s": body_s,
                                                  "linger_s": linger_s})


def _timeout_answer(scope: dict[str, Any]) -> bytes:
    """``408`` in the reader's language, as the app's refusals are written."""
    from darkcity.i18n import msg, translator
    from darkcity.server.common import accepted_lang, refusal_body
    from darkcity.server.headers import SECURITY_HEADERS

    asked = dict(scope.get("headers") or ()).get(b"accept-language", b"")
    t = translator(accepted_lang(asked.decode("latin-1")))
    body = json.dumps(refusal_body(t, "timeout", msg(
        "The request's body came too slowly; send it again.")),
        ensure_ascii=False).encode()
    head = [b"HTTP/1.1 408 Request Timeout", b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(), b"connection: close",
            *(k + b": " + v for k, v in SECURITY_HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body
