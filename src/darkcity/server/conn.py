"""One open WebSocket as a room sees it: its reader, and the queue of what it is sent.

A room calls :meth:`Conn.send` (never awaits); the messages wait in ``out`` until the
socket's writer (:mod:`darkcity.server.ws`) sends them, or the socket's reader, right
after the message it handled, when that message was answered. A decision's
acknowledgement rides on the next message that can carry it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any, Final

from darkcity.i18n import Message, Translator, translator
from darkcity.room.local import plain  # a message as the client receives it
from darkcity.server.protocol import unfold
from darkcity.views import View

__all__ = ["Conn", "plain"]

_CARRIES_ACK: Final = frozenset(("state", "count", "progress"))  # an ack rides on these


class Conn:
    """One open websocket: its reader and its outgoing queue."""

    def __init__(self, lang: str, queue_size: int) -> None:
        self.member: int | None = None
        self.t: Translator = translator(lang)
        self.out: deque[dict[str, Any] | None] = deque()  # to send, in order; None: close
        self.limit = queue_size  # more waiting than this: the client is dropped (0: none)
        self.wake = asyncio.Event()  # the writer's: something waits in ``out``
        self.sending = asyncio.Lock()  # held while taking from ``out`` and sending
        self.answering = False  # the reader is handling a message: it sends the answer
        self.nights_sent = 0  # finished nights this reader already holds
        self.keeps = False  # sent whole states (a hello with ``kept``: what changed only)
        self.held: tuple[View, Any] | None = None  # the last state sent: view, standing
        self.dropped = False
        self.opened = time.monotonic()
        self.sent: list[dict[str, Any]] | None = None  # tests: record every message
        self.acks: list[dict[str, Any]] = []  # decisions stored, not yet acknowledged

    def ack(self, ref: str | None, at: int, seq: int) -> None:
        """A decision of this reader's is stored: its ``ack {ref, at, seq}`` rides on the
        next ``state``, ``count`` or ``progress`` this reader gets (the room sends one
        at once; :meth:`flush_acks` sends any left on its own)."""
        self.acks.append({"ref": ref, "at": at, "seq": seq})

    def flush_acks(self) -> None:
        """Acknowledgements nothing carried: each in an ``ack`` message of its own."""
        while self.acks:
            self.send({"type": "ack", **self.acks[0], "server_time": time.time()})

    def send(self, message: dict[str, Any]) -> None:
        if self.dropped:
            return
        if self.acks:
            kind = message.get("type")
            if kind == "ack":
                self.acks.pop(0)
            elif kind in _CARRIES_ACK:
                while len(self.acks) > 1:  # (two decisions at once: the older alone)
                    self.send({"type": "ack", **self.acks[0], "server_time": time.time()})
                message = {**message, "ack": self.acks.pop()}
        if self.sent is not None:  # as the reader takes them (a welcome, then its state)
            self.sent.extend(unfold(plain(message)))
        if self.limit and len(self.out) >= self.limit:  # a client that cannot keep up
            self.dropped = True  # is dropped
            self.out.clear()
            self.close()
            return
        self.out.append(message)
        if not self.answering:
            self.wake.set()

    def close(self) -> None:
        """Close the socket once what waits before this has been sent."""
        self.out.append(None)
        self.wake.set()

    def error(self, code: str, message: Message, ref: str | None = None) -> None:
        self.send({"type": "error", "code": code, "message": self.t.render(message),
                   **message.to_json(), "ref": ref})
