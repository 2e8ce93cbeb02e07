"""Several server processes, one set of rooms: ownership leases and a bus over Redis.

The embedded default has no cluster at all: one process holds every room (SQLite, no
Redis) and the app runs as it always did. With ``--redis URL`` any number of processes
share one database and one Redis, and :class:`Cluster` (an ASGI middleware wrapped
around the app) makes them one server:

- **A room is run by exactly one process at a time**, the one that holds its lease
  (``darkcity:lease:{code}``, the owner's node id with a time to live of ``lease_s``,
  renewed every third of it while the room is in memory, by a thread of its own
  (:class:`_Renewer`): a loop busy with game work does not let leases run out, and a
  loop that has not run for ``4 × lease_s`` is taken for hung and stops renewing).
  A process takes a free lease with ``SET NX`` and only then loads the room from the
  database, so it starts from what is stored, never from a stale copy.
- **A client may connect to any process.** Every request about a room (its WebSocket,
  ``/api/rooms/{code}/...``) is run by the app *of the room's owner*: where that is
  another process, the one the client reached (its *edge*) tunnels the ASGI events
  over Redis pub/sub — the client's frames to the owner's channel
  (``darkcity:node:{node}``) as they came, the owner's frames back to the edge's
  channel, several frames to one node in one Redis message. The app does not know:
  its limits, its hello, its rooms run unchanged on the owner.
- **When the owner dies**, its lease expires; the next process to look (an edge whose
  tunnels led there, a client connecting, or the periodic scan of the games in play)
  takes the lease and reloads the room (every stored decision, the open point's
  deadline). Each socket is then tunnelled again to where the room now is, and the
  client's first ``hello`` is said again for it: the client keeps its seat and gets a
  fresh ``welcome`` (holding its ``state``) on the socket it never had to close.
- **Nothing acknowledged is lost, nothing is applied twice**: a decision is stored
  before its ``ack`` leaves, and the decisions table's key ``(room, seq)`` fences a
  process that lost its lease without knowing it (a long pause): its next decision
  collides with the new owner's and is refused, and the room is reloaded or let go
  (:class:`~darkcity.server.storage.FencedStorage`).
- Each process keeps ``darkcity:alive:{node}``; an owner ends the tunnels of an edge
  whose key expired (its clients become *away*, as after a disconnection).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import socket
import struct
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from darkcity.room import Room
from darkcity.server.config import ServerConfig
from darkcity.server.manager import CODE_ALPHABET, CODE_LENGTH, RoomManager
from darkcity.server.storage import FencedStorage

__all__ = ["Cluster", "Routes", "pack", "room_code", "unpack"]

log = logging.getLogger("darkcity.server.cluster")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LEASE: Final = "darkcity:lease:"
CHANNEL: Final = "darkcity:node:"
ALIVE: Final = "darkcity:alive:"
MAX_BUFFERED: Final = 64  # client frames held while a socket is tunnelled anew
MAX_OUT: Final = 1024  # frames for one client waiting to be written before it is dropped
MAX_BODY: Final = 1 << 16  # an HTTP body tunnelled to a room's owner
REDIS_CONNECTIONS: Final = 64  # one process's connections to Redis, at most

# Frames between processes: kind, an id (a socket's, or a request's), a payload.
OPEN: Final = 1  # edge -> owner: a socket opens (payload: its scope, orjson)
IN_TEXT: Final = 2  # edge -> owner: a client's text frame
IN_BYTES: Final = 3
IN_END: Final = 4  # edge -> owner: the client left
OUT_TEXT: Final = 5  # owner -> edge: a frame for the client
OUT_BYTES: Final = 6
OUT_CLOSE: Final = 7  # owner -> edge: close the socket (payload: code, reason)
MOVED: Final = 8  # owner -> edge: the room is not (or no longer) here: look again
HTTP: Final = 9  # edge -> owner: one request (payload: scope and body)
REPLY: Final = 10  # owner -> edge: its response (payload: status, headers, body)
_HEAD: Final = struct.Struct("!BHI")
_LEN: Final = struct.Struct("!I")

# Renew, release a lease only while this node holds it.
_RENEW: Final = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
                 "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end")
_RELEASE: Final = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
                   "return redis.call('del', KEYS[1]) else return 0 end")

_ROOM_PATH: Final = re.compile(r"^/(?:api/rooms|ws|r)/([A-Za-z0-9]{6})(?:/|$)")
_SCOPE_KEYS: Final = ("type", "asgi", "http_version", "scheme", "path", "raw_path",
                      "root_path", "query_string", "server", "client", "method",
                      "subprotocols")


def pack(frames: list[tuple[int, bytes, bytes]]) -> bytes:
    """Frames as one message: ``kind, len(id), len(payload)``, then the id and payload."""
    parts: list[bytes] = []
    for kind, fid, payload in frames:
        parts += (_HEAD.pack(kind, len(fid), len(payload)), fid, payload)
    return b"".join(parts)


def unpack(data: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """The frames of :func:`pack`, in order (``ValueError`` on a message cut short)."""
    i, end = 0, len(data)
    while i < end:
        if end - i < _HEAD.size:
            raise ValueError("a frame header is cut short")
        kind, n, m = _HEAD.unpack_from(data, i)
        i += _HEAD.size
        if end - i < n + m:
            raise ValueError("a frame is cut short")
        yield kind, data[i:i + n], data[i + n:i + n + m]
        i += n + m


def _two(head: Any, body: bytes) -> bytes:
    """A JSON head and a raw body in one payload."""
    encoded = orjson.dumps(head)
    return _LEN.pack(len(encoded)) + encoded + body


def _split(payload: bytes) -> tuple[Any, bytes]:
    (n,) = _LEN.unpack_from(payload)
    return orjson.loads(payload[_LEN.size:_LEN.size + n]), payload[_LEN.size + n:]


def room_code(path: str) -> str | None:
    """The room a request is about (``/ws/{code}``, ``/api/rooms/{code}/...``, the page
    ``/r/{code}``, whose link preview names the room), if any."""
    found = _ROOM_PATH.match(path)
    if found is None:
        return None
    code = found.group(1).upper()
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) \
        else None


def _scope_out(scope: Scope) -> dict[str, Any]:
    out = {k: scope[k] for k in _SCOPE_KEYS if k in scope}
    for k in ("raw_path", "query_string"):
        if isinstance(out.get(k), bytes):
            out[k] = out[k].decode("latin-1")
    out["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]]
    return out


def _scope_in(d: dict[str, Any]) -> Scope:
    scope: Scope = dict(d)
    for k in ("raw_path", "query_string"):
        if isinstance(scope.get(k), str):
            scope[k] = scope[k].encode("latin-1")
    scope["headers"] = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in d["headers"]]
    for k in ("client", "server"):
        if isinstance(scope.get(k), list):
            scope[k] = tuple(scope[k])
    scope["state"] = {}
    return scope


def _is_hello(event: Message) -> bool:
    text = event.get("text")
    if text is None:
        return False
    try:
        m = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(m, dict) and m.get("type") == "hello"


@dataclass(eq=False)
class _Tunnel:
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


class _Edge:
    """A client's real socket here, tunnelled to wherever its room runs."""

    def __init__(self, cluster: Cluster, code: str, scope: Scope, send: Send) -> None:
        self.cluster, self.code, self.scope, self.send = cluster, code, scope, send
        self.fid = cluster.new_id()
        self.hello: Message | None = None  # said again to a new owner
        self.buffered: list[Message] = []
        self.local: _Tunnel | None = None
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
        if self.hello is None and _is_hello(event):
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
        tunnel = _Tunnel(self.code, None, self.fid)
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
            {"scope": _scope_out(self.scope), "node": self.cluster.node}))
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


class Routes:
    """The ASGI middleware (outermost) that sends each request about a room to the
    process that runs the room: ``app.add_middleware(Routes, cluster=cluster)``."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.cluster = cluster
        cluster.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.cluster.route(scope, receive, send)


class _Renewer(threading.Thread):
    """Renews this node's leases (and its liveness key) every third of the lease, from
    a thread with its own Redis connection, so that no amount of work queued on the
    event loop (many rooms revealing at once, a long collection) lets them run out
    while the process is alive. Python hands the GIL to a waiting thread every few
    milliseconds, so the thread is never starved by the loop's work.

    It renews only while the loop shows it runs (:attr:`Cluster.heartbeat`, moved on
    every tenth of a second by a task there): a loop stuck for ``stall_s`` is taken
    for a hung process, whose rooms are then left to expire and be taken over, as a
    dead one's would. A lease found lost is handed to the loop (:meth:`Cluster.drop`)."""

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name=f"darkcity-leases-{cluster.node}", daemon=True)
        import redis

        self.cluster, self.loop = cluster, loop
        lease_s = cluster.lease_ms / 1000
        self.beat_s = lease_s / 3
        self.stall_s = 4 * lease_s
        self.client: Any = redis.Redis.from_url(cluster.url, socket_timeout=self.beat_s,
                                                socket_connect_timeout=self.beat_s)
        self.renew = self.client.register_script(_RENEW)
        self.done = threading.Event()

    def run(self) -> None:
        cluster = self.cluster
        while not self.done.wait(self.beat_s):
            if time.monotonic() - cluster.heartbeat > self.stall_s:
                continue  # the loop is stuck: let the leases run out
            codes = list(cluster.owned)  # (a copy taken under the GIL, at once)
            try:
                pipe = self.client.pipeline(transaction=False)
                pipe.set(ALIVE + cluster.node, "1", px=cluster.lease_ms)
                for code in codes:
                    self.renew(keys=[LEASE + code], args=[cluster.node, cluster.lease_ms],
                               client=pipe)
                out = pipe.execute()
            except Exception:
                if not self.done.is_set():
                    log.exception("renewing the leases failed")
                continue
            lost = [code for code, ok in zip(codes, out[1:], strict=True) if not ok]
            if lost and not self.done.is_set():
                with contextlib.suppress(RuntimeError):  # (the loop has closed)
                    self.loop.call_soon_threadsafe(cluster.lost, lost)

    def stop(self) -> None:
        self.done.set()
        self.join(2 * self.beat_s + 1)
        with contextlib.suppress(Exception):
            self.client.close()


class Cluster:
    """This process's part in a server that shares its rooms with other processes."""

    def __init__(self, url: str, *, lease_s: float = 5.0, node: str | None = None) -> None:
        import redis.asyncio

        self.app: ASGIApp = _no_app
        self.manager: RoomManager | None = None
        self.url = url
        self.lease_ms = max(300, int(lease_s * 1000))
        # A burst of connections (a whole site's players coming back) waits for a free
        # Redis connection instead of failing past the pool's size (redis-py's default
        # pool raises "Too many connections" at once).
        self.redis: Any = redis.asyncio.Redis.from_pool(
            redis.asyncio.BlockingConnectionPool.from_url(
                url, max_connections=REDIS_CONNECTIONS, timeout=self.lease_ms / 1000))
        self.node = node or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.owned: set[str] = set()
        self.here: dict[str, set[_Tunnel]] = {}  # room -> sockets whose app runs here
        self.tunnels: dict[bytes, _Tunnel] = {}  # sockets of other edges, by id
        self.edges: dict[bytes, _Edge] = {}  # sockets here tunnelled elsewhere, by id
        self.calls: dict[bytes, asyncio.Future[bytes | None]] = {}
        self._frames: dict[str, list[tuple[int, bytes, bytes]]] = {}
        self._wake = asyncio.Event()
        self._ready = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._next = 0
        self.stopping = False
        self.heartbeat = time.monotonic()  # moved on by the loop; read by the renewer
        self._renewer: _Renewer | None = None
        self._release = self.redis.register_script(_RELEASE)

    @property
    def rooms(self) -> RoomManager:
        if self.manager is None:
            raise RuntimeError("the cluster has not started (Cluster.start)")
        return self.manager

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
        self._renewer = _Renewer(self, asyncio.get_running_loop())
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

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def new_id(self) -> bytes:
        self._next += 1
        return f"{self.node}#{self._next}".encode()

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
            await _Edge(self, code, scope, send).run(receive)
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
        payload = _two({"scope": _scope_out(scope)}, sent)
        for _attempt in range(4):
            if not isinstance(target, str):
                break
            reply = await self._call(target, payload)
            if reply is not None:
                status_headers, out = _split(reply)
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
        head, body = _split(payload)
        scope = _scope_in(head["scope"])
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
        self.to_node(edge, REPLY, fid, _two([started.get("status", 500),
                                             started.get("headers", [])], b"".join(chunks)))

    def _open_socket(self, edge: str, fid: bytes, payload: bytes) -> None:
        """A socket of another edge, on a room run here: the app serves it as any other
        (registered at once: the client's first frames may come in the same message)."""
        head = orjson.loads(payload)
        scope = _scope_in(head["scope"])
        code = room_code(scope.get("path", ""))
        if code is None or code not in self.owned or code not in self.rooms.rooms:
            self.to_node(edge, MOVED, fid, b"")
            return
        old = self.tunnels.pop(fid, None)
        if old is not None:
            old.end(moving=False)
        tunnel = _Tunnel(code, edge, fid)
        tunnel.push({"type": "websocket.connect"})
        self.tunnels[fid] = tunnel
        self.here.setdefault(code, set()).add(tunnel)
        self._spawn(self._serve_socket(tunnel, scope))

    async def _serve_socket(self, tunnel: _Tunnel, scope: Scope) -> None:
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

    def forget(self, tunnel: _Tunnel) -> None:
        group = self.here.get(tunnel.code)
        if group is not None:
            group.discard(tunnel)
            if not group:
                del self.here[tunnel.code]
        if self.tunnels.get(tunnel.fid) is tunnel:
            del self.tunnels[tunnel.fid]

    # -- where a room lives ------------------------------------------------------------

    async def _acquire(self, code: str) -> Room | None:
        """Take the free lease of ``code`` and load the room; ``None`` if another took
        the lease, or there is no such room (the lease is then let go)."""
        if self.stopping or not await self.redis.set(LEASE + code, self.node, nx=True,
                                                      px=self.lease_ms):
            return None
        self._leave(code, moving=True)
        room = self.rooms.load(code)
        if room is None:
            await self._release(keys=[LEASE + code], args=[self.node])
            return None
        self.owned.add(code)
        log.info("node %s took room %s (%d decisions replayed)", self.node, code, room.seq)
        return room

    async def resolve(self, code: str) -> Room | str | None:
        """The room (its lease is ours), its owner's node id, or ``None`` (no such room)."""
        for _attempt in range(10):
            owner = await self.redis.get(LEASE + code)
            if owner is None:
                room = await self._acquire(code)
                if room is not None:
                    return room
                if await self.redis.get(LEASE + code) is None:
                    return None  # no such room
                continue  # another process took it just now
            name: str = owner.decode()
            if name != self.node:
                return name
            room = self.rooms.rooms.get(code)
            if room is None:  # ours, but it left memory: load it again
                room = self.rooms.load(code)
                if room is None:
                    return None
            self.owned.add(code)
            return room
        return None

    async def claim_new(self) -> None:
        """Rooms created here (``POST /api/rooms``, "play again") get their leases."""
        fresh = [c for c in self.rooms.rooms if c not in self.owned]
        for code in fresh:
            if await self.redis.set(LEASE + code, self.node, nx=True, px=self.lease_ms):
                self.owned.add(code)
            else:  # held elsewhere: that process runs it
                self._leave(code, moving=True)

    @staticmethod
    def _retire(room: Room | None) -> None:
        """A room object no longer run here: no reveal, no decision, no tick (a message
        still on its way to it is refused, never stored)."""
        if room is not None:
            room.reveal_at = None
            room.status = "moved"

    def _leave(self, code: str, moving: bool) -> None:
        """Stop running room ``code`` here: its clock stops, its sockets look again."""
        self._retire(self.rooms.rooms.pop(code, None))
        for tunnel in list(self.here.get(code, ())):
            tunnel.end(moving=moving)

    def drop(self, code: str) -> None:
        """The lease of ``code`` was lost."""
        self.owned.discard(code)
        if code in self.rooms.rooms:
            log.warning("node %s lost the lease of room %s", self.node, code)
        self._leave(code, moving=True)

    def lost(self, codes: list[str]) -> None:
        """Leases the renewer found lost (on the loop): those still owned are dropped."""
        for code in codes:
            if code in self.owned:
                self.drop(code)

    def reconcile(self, code: str) -> None:
        """A decision collided with a stored one: the room is read from the database again
        if its lease is still ours, else let go."""

        async def again() -> None:
            owner = await self.redis.get(LEASE + code)
            self._leave(code, moving=True)
            if owner is None or owner.decode() != self.node:
                self.owned.discard(code)

        self._spawn(again())

    # -- the bus -------------------------------------------------------------------------

    def to_node(self, node: str, kind: int, fid: bytes, payload: bytes) -> None:
        self._frames.setdefault(node, []).append((kind, fid, payload))
        self._wake.set()

    def forward(self, owner: str, fid: bytes, event: Message) -> None:
        kind = event["type"]
        if kind == "websocket.receive":
            text = event.get("text")
            if text is not None:
                self.to_node(owner, IN_TEXT, fid, text.encode())
            else:
                self.to_node(owner, IN_BYTES, fid, bytes(event.get("bytes") or b""))
        elif kind == "websocket.disconnect":
            self.to_node(owner, IN_END, fid, b"")

    async def _flush(self) -> None:
        frames, self._frames = self._frames, {}
        if not frames:
            return
        pipe = self.redis.pipeline(transaction=False)
        for node, items in frames.items():
            pipe.publish(CHANNEL + node, pack(items))
        await pipe.execute()

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
            except Exception:
                log.exception("publishing to the cluster failed")
                await asyncio.sleep(0.1)

    async def _receiver(self) -> None:
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as ps:
                    await ps.subscribe(CHANNEL + self.node)
                    self._ready.set()
                    async for m in ps.listen():
                        if m.get("type") == "message":
                            self._received(m["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster's channel failed; subscribing again")
                await asyncio.sleep(0.5)

    def _received(self, data: bytes) -> None:
        try:
            frames = list(unpack(data))
        except ValueError:
            log.error("a malformed message on the cluster's channel")
            return
        for kind, fid, payload in frames:
            try:
                self._frame(kind, fid, payload)
            except Exception:  # one bad frame must not stop the channel
                log.exception("a cluster frame failed")

    def _frame(self, kind: int, fid: bytes, payload: bytes) -> None:
        if kind in (OUT_TEXT, OUT_BYTES, OUT_CLOSE, MOVED):
            edge = self.edges.get(fid)
            if edge is not None:
                edge.receive_out(kind, payload)
            elif kind == MOVED and fid in self.calls:
                self._answered(fid, None)
            return
        if kind == REPLY:
            self._answered(fid, payload)
            return
        sender = fid.decode().rpartition("#")[0]
        if kind == OPEN:
            self._open_socket(sender, fid, payload)
        elif kind == HTTP:
            self._spawn(self._serve_http(sender, fid, payload))
        else:
            tunnel = self.tunnels.get(fid)
            if tunnel is None:
                return
            if kind == IN_TEXT:
                tunnel.push({"type": "websocket.receive", "text": payload.decode()})
            elif kind == IN_BYTES:
                tunnel.push({"type": "websocket.receive", "bytes": payload})
            elif kind == IN_END:
                tunnel.end(moving=False)

    def _answered(self, fid: bytes, payload: bytes | None) -> None:
        future = self.calls.get(fid)
        if future is not None and not future.done():
            future.set_result(payload)

    # -- leases, liveness, and games nobody runs ----------------------------------------

    async def _keeper(self) -> None:
        beat = self.lease_ms / 3000
        rounds = 0
        while True:
            await asyncio.sleep(beat)
            try:
                await self._keep()
                rounds += 1
                if rounds % 3 == 1:
                    await self._adopt()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("keeping the leases failed")

    async def _keep(self) -> None:
        for code in [c for c in self.owned if c not in self.rooms.rooms]:
            self.owned.discard(code)  # it left memory (over and idle): its lease goes too
            await self._release(keys=[LEASE + code], args=[self.node])
        # (the leases themselves are renewed by the renewer's thread)
        edges = sorted({t.edge for t in self.tunnels.values() if t.edge is not None})
        relayed = sorted({e.code for e in self.edges.values() if e.owner is not None})
        if not edges and not relayed:
            return
        pipe = self.redis.pipeline(transaction=False)
        for edge in edges:
            pipe.exists(ALIVE + edge)
        for code in relayed:
            pipe.get(LEASE + code)
        out = await pipe.execute()
        i = 0
        for edge in edges:
            if not out[i]:  # that process is gone: its clients are away
                for tunnel in [t for t in self.tunnels.values() if t.edge == edge]:
                    tunnel.end(moving=False)
            i += 1
        owners: dict[str, str | None] = {}
        for code in relayed:
            owners[code] = out[i].decode() if out[i] is not None else None
            i += 1
        for edge_socket in list(self.edges.values()):
            if edge_socket.owner is not None and \
                    owners.get(edge_socket.code, edge_socket.owner) != edge_socket.owner:
                edge_socket.receive_out(MOVED, b"")  # its owner is gone or changed

    async def _beat(self) -> None:
        """The loop's heartbeat, for the renewer: it runs, so its leases are renewed."""
        while True:
            self.heartbeat = time.monotonic()
            await asyncio.sleep(0.1)

    async def _adopt(self) -> None:
        """Games in play that nobody runs (their owner died) are taken over, so their
        clocks run with nobody connected."""
        codes = [c for c in self.rooms.storage.active_codes() if c not in self.owned]
        if not codes:
            return
        owners = await self.redis.mget([LEASE + c for c in codes])
        for code, owner in zip(codes, owners, strict=True):
            if owner is None and len(self.rooms.rooms) < self.config.max_rooms:
                await self._acquire(code)


async def _no_app(scope: Scope, receive: Receive, send: Send) -> None:
    raise RuntimeError("the cluster's middleware is not installed (Routes)")


async def _respond(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
