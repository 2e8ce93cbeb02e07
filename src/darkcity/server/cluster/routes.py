"""Every request about a room, run by the app of the process that runs the room.

:class:`Routes` is the ASGI middleware (outermost) and :class:`Cluster` this process's
part in the cluster, assembled from one concern per module, each a class over the one
before (``state.py`` < ``leases.py`` < ``bus.py`` < this module): here, a request about
a room is served by the app here when the room runs here, else tunnelled to its owner
(a socket through an :class:`~darkcity.server.cluster.tunnel.Edge`, an HTTP request as
one call); what other edges tunnel here is served by the app here; and a process joins
the cluster (:meth:`Cluster.start`) and hands every room back when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

import orjson

from darkcity.server.cluster.bus import Bus
from darkcity.server.cluster.leases import Renewer
from darkcity.server.cluster.state import (
    ALIVE,
    LEASE,
)
from darkcity.server.cluster.tunnel import Edge, Tunnel
from darkcity.server.cluster.wire import (
    HTTP,
    MOVED,
    OUT_BYTES,
    OUT_CLOSE,
    OUT_TEXT,
    REPLY,
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    room_code,
    scope_in,
    scope_out,
    split,
    two,
)
from darkcity.server.config import ServerConfig
from darkcity.server.manager import RoomManager
from darkcity.server.storage import FencedStorage

__all__ = [
    "Cluster",
    "Routes",
]

log = logging.getLogger("darkcity.server.cluster")

MAX_BODY: Final = 1 << 16  # an HTTP body tunnelled to a room's owner


class Cluster(Bus):
    """This process's part in a server that shares its rooms with other processes."""

    # -- life ------------------------------------------------------------------------

    async def start(self, manager: RoomManager) -> None:
        """Join: rooms are loaded by ``manager`` only once their lease is ours."""
        self.manager = manager
        self.config: ServerConfig = manager.config
        manager.lazy = False
        if isinstance(manager.storage, FencedStorage):
            manager.storage.on_conflict = self.reconcile
        await self.redis.ping()
        await self.redis.set(ALIVE + self.node, "1", px=self.lease_ms)
        for loop in (self._receiver(), self._sender(), self._keeper(), self._beat()):
            self._spawn(loop)
        self._renewer = Renewer(self, asyncio.get_running_loop())
        self._renewer.start()
        await asyncio.wait_for(self._ready.wait(), 10)
        log.info("node %s joined the cluster at %s", self.node, self.url)

    async def stop(self) -> None:
        """Hand every room back at once: the rooms stop here, their leases are let go,
        and then the sockets other processes tunnelled here are told to look again, so
        those processes take the rooms over without waiting for a lease to run out."""
        self.stopping = True
        if self._renewer is not None:  # no renewal may follow the release below
            await asyncio.to_thread(self._renewer.stop)
        codes = sorted(self.owned)
        for code in codes:
            self._retire(self.rooms.rooms.pop(code, None))
        self.owned.clear()
        with contextlib.suppress(Exception):
            pipe = self.redis.pipeline(transaction=False)
            for code in codes:
                await self._release(keys=[LEASE + code], args=[self.node], client=pipe)
            pipe.delete(ALIVE + self.node)
            await pipe.execute()
        for tunnels in list(self.here.values()):
            for tunnel in list(tunnels):
                tunnel.end(moving=tunnel.edge is not None)  # here: the socket closes
        await asyncio.sleep(0.05)  # their handlers end and queue their MOVED frames
        with contextlib.suppress(Exception):
            await self._flush()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._flush()
            await self.redis.aclose()


    # -- ASGI --------------------------------------------------------------------------

    async def route(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        code = room_code(scope.get("path", "")) if kind in ("http", "websocket") else None
        if code is None:
            await self.app(scope, receive, send)
            if kind == "http" and scope.get("method") == "POST":
                await self.claim_new()  # a room made here is run here
            return
        if kind == "websocket":
            await Edge(self, code, scope, send).run(receive)
            return
        await self._http(code, scope, receive, send)

    async def _http(self, code: str, scope: Scope, receive: Receive, send: Send) -> None:
        target = await self.resolve(code)
        if not isinstance(target, str):  # here, or nowhere (the app says so)
            await self.app(scope, receive, send)
            await self.claim_new()
            return
        body = bytearray()
        while True:
            m = await receive()
            if m["type"] != "http.request":
                return
            body += m.get("body", b"")
            if len(body) > MAX_BODY:
                await _respond(send, 413, b'{"code":"too-big"}')
                return
            if not m.get("more_body"):
                break
        sent = bytes(body)
        payload = two({"scope": scope_out(scope)}, sent)
        for _attempt in range(4):
            if not isinstance(target, str):
                break
            reply = await self._call(target, payload)
            if reply is not None:
                status_headers, out = split(reply)
                await send({"type": "http.response.start", "status": status_headers[0],
                            "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                                        for k, v in status_headers[1]]})
                await send({"type": "http.response.body", "body": out})
                return
            target = await self.resolve(code)

        async def replay() -> Message:
            return {"type": "http.request", "body": sent, "more_body": False}

        await self.app(scope, replay, send)  # here now, or nowhere
        await self.claim_new()

    async def _call(self, owner: str, payload: bytes) -> bytes | None:
        fid = self.new_id()
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self.calls[fid] = future
        self.to_node(owner, HTTP, fid, payload)
        try:
            return await asyncio.wait_for(future, self.lease_ms / 1000)
        except TimeoutError:  # the owner is gone: its lease runs out, then ask again
            return None
        finally:
            self.calls.pop(fid, None)

    async def _serve_http(self, edge: str, fid: bytes, payload: bytes) -> None:
        head, body = split(payload)
        scope = scope_in(head["scope"])
        code = room_code(scope.get("path", ""))
        if code is None or code not in self.owned or code not in self.rooms.rooms:
            self.to_node(edge, MOVED, fid, b"")
            return
        started: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def receive() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                started["status"] = message["status"]
                started["headers"] = [[k.decode("latin-1"), v.decode("latin-1")]
                                      for k, v in message.get("headers", ())]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        await self.claim_new()
        self.to_node(edge, REPLY, fid, two([started.get("status", 500),
                                             started.get("headers", [])], b"".join(chunks)))

    def _open_socket(self, edge: str, fid: bytes, payload: bytes) -> None:
        """A socket of another edge, on a room run here: the app serves it as any other
        (registered at once: the client's first frames may come in the same message)."""
        head = orjson.loads(payload)
        scope = scope_in(head["scope"])
        code = room_code(scope.get("path", ""))
        if code is None or code not in self.owned or code not in self.rooms.rooms:
            self.to_node(edge, MOVED, fid, b"")
            return
        old = self.tunnels.pop(fid, None)
        if old is not None:
            old.end(moving=False)
        tunnel = Tunnel(code, edge, fid)
        tunnel.push({"type": "websocket.connect"})
        self.tunnels[fid] = tunnel
        self.here.setdefault(code, set()).add(tunnel)
        self._spawn(self._serve_socket(tunnel, scope))

    async def _serve_socket(self, tunnel: Tunnel, scope: Scope) -> None:
        edge, fid = tunnel.edge or "", tunnel.fid

        async def send(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send":
                text = message.get("text")
                if text is not None:
                    self.to_node(edge, OUT_TEXT, fid, text.encode())
                else:
                    self.to_node(edge, OUT_BYTES, fid, bytes(message.get("bytes") or b""))
            elif kind == "websocket.close" and not tunnel.moving:
                self.to_node(edge, OUT_CLOSE, fid, orjson.dumps(
                    {"code": message.get("code", 1000), "reason": message.get("reason")}))

        try:
            await self.app(scope, tunnel.receive, send)
        finally:
            if tunnel.moving:
                self.to_node(edge, MOVED, fid, b"")
            self.forget(tunnel)



class Routes:
    """The ASGI middleware (outermost) that sends each request about a room to the
    process that runs the room: ``app.add_middleware(Routes, cluster=cluster)``."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.cluster = cluster
        cluster.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.cluster.route(scope, receive, send)



async def _respond(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
