"""One client's socket across processes: the tunnel its room's app reads, the edge it is at.

A :class:`Tunnel` is a socket as the room's app reads it, here, for a client here or on
another process (its *edge*); an :class:`Edge` holds a client's real socket here and
follows its room wherever it runs: into a tunnel here, or over the bus to the owner,
saying the client's ``hello`` again at each new place. What an edge asks of this
process is :class:`Process` (:class:`~darkcity.server.cluster.routes.Cluster` is one).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Final, Protocol

import orjson

from darkcity.room import Room
from darkcity.server.cluster.wire import (
    IN_END,
    MOVED,
    OPEN,
    OUT_BYTES,
    OUT_CLOSE,
    OUT_TEXT,
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    is_hello,
    scope_out,
)

__all__ = [
    "MAX_BUFFERED",
    "MAX_OUT",
    "Edge",
    "Process",
    "Tunnel",
]

MAX_BUFFERED: Final = 64  # client frames held while a socket is tunnelled anew
MAX_OUT: Final = 1024  # frames for one client waiting to be written before it is dropped


@dataclass(eq=False)
class Tunnel:
    """One socket whose app runs here, for a client here (``edge is None``) or on an edge."""

    code: str
    edge: str | None
    fid: bytes
    inbox: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)
    moving: bool = False  # the room is leaving: the end is not a close
    closing: bool = False  # its end is on the way: frames go to the next tunnel
    ended: bool = False
    carried: list[Message] = field(default_factory=list)  # unread when the room left

    def push(self, event: Message) -> None:
        if not self.closing:
            self.inbox.put_nowait(event)

    def end(self, moving: bool) -> None:
        self.moving = self.moving or moving
        if self.closing:
            return
        if moving:  # what the app has not read yet goes to the room's next place
            while not self.inbox.empty():
                event = self.inbox.get_nowait()
                if event["type"] == "websocket.receive":
                    self.carried.append(event)
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1012})
        self.closing = True

    async def receive(self) -> Message:
        if self.ended:
            return {"type": "websocket.disconnect", "code": 1012}
        event = await self.inbox.get()
        if event["type"] == "websocket.disconnect":
            self.ended = True
        return event


class Edge:
    """A client's real socket here, tunnelled to wherever its room runs."""

    def __init__(self, cluster: Process, code: str, scope: Scope, send: Send) -> None:
        self.cluster, self.code, self.scope, self.send = cluster, code, scope, send
        self.fid = cluster.new_id()
        self.hello: Message | None = None  # said again to a new owner
        self.buffered: list[Message] = []
        self.local: Tunnel | None = None
        self.owner: str | None = None  # the remote owner tunnelled to
        self.out: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue()
        self.gone = False  # the client left
        self.closed = False  # the app closed the socket

    def deliver(self, event: Message) -> None:
        """A client frame to the room's app, where it runs now (held while between)."""
        if event["type"] == "websocket.disconnect":
            self.gone = True
        local = self.local if self.local is not None and not self.local.closing else None
        if local is None and self.owner is None:
            if len(self.buffered) < MAX_BUFFERED:
                self.buffered.append(event)
            return
        if self.hello is None and is_hello(event):
            self.hello = event
        if local is not None:
            local.push(event)
        elif self.owner is not None:
            self.cluster.forward(self.owner, self.fid, event)

    def _replay(self) -> None:
        """To a new tunnel: the hello said first (again), then what waited meanwhile."""
        pending, self.buffered = self.buffered, []
        hello = self.hello
        if hello is not None:
            self.hello = None
            self.deliver(hello)
        for event in pending:
            if event is not hello:  # a hello the last place never read is said once
                self.deliver(event)

    async def run(self, receive: Receive) -> None:
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        await self.send({"type": "websocket.accept"})
        reader = asyncio.create_task(self._read(receive))
        try:
            while not (self.gone or self.closed):
                target = await self.cluster.resolve(self.code)
                if isinstance(target, Room) or target is None:
                    await self._run_here()
                    if target is None:
                        return  # the app said there is no such room
                else:
                    await self._run_there(target)
        finally:
            reader.cancel()
            self.cluster.edges.pop(self.fid, None)
            if self.owner is not None:
                self.cluster.to_node(self.owner, IN_END, self.fid, b"")

    async def _read(self, receive: Receive) -> None:
        while True:
            event = await receive()
            self.deliver(event)
            if event["type"] == "websocket.disconnect":
                self.out.put_nowait((IN_END, b""))  # wakes a tunnel waiting on its owner
                return

    async def _run_here(self) -> None:
        tunnel = Tunnel(self.code, None, self.fid)
        tunnel.push({"type": "websocket.connect"})
        self.local = tunnel
        self.cluster.here.setdefault(self.code, set()).add(tunnel)
        self._replay()

        async def send(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send":
                await self.send(message)
            elif kind == "websocket.close" and not tunnel.moving:
                self.closed = True
                await self.send(message)

        try:
            await self.cluster.app(self.scope, tunnel.receive, send)
        finally:
            self.local = None
            self.buffered[:0] = tunnel.carried  # before what came while it ended
            self.cluster.forget(tunnel)

    async def _run_there(self, owner: str) -> None:
        self.owner = owner
        self.cluster.edges[self.fid] = self
        self.cluster.to_node(owner, OPEN, self.fid, orjson.dumps(
            {"scope": scope_out(self.scope), "node": self.cluster.node}))
        self._replay()
        try:
            while True:
                kind, payload = await self.out.get()
                if kind == OUT_TEXT:
                    await self.send({"type": "websocket.send", "text": payload.decode()})
                elif kind == OUT_BYTES:
                    await self.send({"type": "websocket.send", "bytes": payload})
                elif kind == OUT_CLOSE:
                    head = orjson.loads(payload)
                    self.closed = True
                    await self.send({"type": "websocket.close", "code": head.get("code", 1000),
                                     "reason": head.get("reason") or ""})
                    return
                elif kind == IN_END:
                    return  # the client left
                elif kind == MOVED:
                    return  # look for the room again
        finally:
            self.cluster.to_node(owner, IN_END, self.fid, b"")
            self.owner = None
            self.cluster.edges.pop(self.fid, None)

    def receive_out(self, kind: int, payload: bytes) -> None:
        if self.out.qsize() >= MAX_OUT:  # a client that cannot keep up is dropped
            self.out = asyncio.Queue()
            self.out.put_nowait((OUT_CLOSE, orjson.dumps({"code": 1008, "reason": "slow"})))
            return
        self.out.put_nowait((kind, payload))


class Process(Protocol):
    """What an edge asks of this process's part in the cluster: its id and app, the
    sockets it holds, where a room runs, and the bus to the others."""

    node: str
    app: ASGIApp
    here: dict[str, set[Tunnel]]
    edges: dict[bytes, Edge]

    def new_id(self) -> bytes: ...

    async def resolve(self, code: str) -> Room | str | None: ...

    def to_node(self, node: str, kind: int, fid: bytes, payload: bytes) -> None: ...

    def forward(self, owner: str, fid: bytes, event: Message) -> None: ...

    def forget(self, tunnel: Tunnel) -> None: ...
