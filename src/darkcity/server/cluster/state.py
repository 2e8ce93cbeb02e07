"""This process's part in the cluster: its id, its Redis, the rooms and sockets it holds.

Every field of a :class:`~darkcity.server.cluster.routes.Cluster`, declared together
(:class:`ClusterState`), with the Redis keys a process uses (a room's lease, a node's
channel, a node's liveness) and the sockets' bookkeeping: those whose app runs here
(``here``), those of other edges (``tunnels``), those here tunnelled elsewhere
(``edges``), the requests waiting on another process (``calls``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import Awaitable
from typing import Any, Final

from darkcity.server.cluster.tunnel import Edge, Tunnel
from darkcity.server.cluster.wire import (
    ASGIApp,
    Receive,
    Scope,
    Send,
)
from darkcity.server.config import ServerConfig
from darkcity.server.manager import RoomManager

__all__ = [
    "ALIVE",
    "CHANNEL",
    "LEASE",
    "REDIS_CONNECTIONS",
    "ClusterState",
]

LEASE: Final = "darkcity:lease:"
CHANNEL: Final = "darkcity:node:"
ALIVE: Final = "darkcity:alive:"
REDIS_CONNECTIONS: Final = 64  # one process's connections to Redis, at most

# Release a lease only while this node holds it.
_RELEASE: Final = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
                   "return redis.call('del', KEYS[1]) else return 0 end")


class ClusterState:
    """Every field of this process's part in the cluster; the concerns over it
    (``leases.py``, ``bus.py``, ``routes.py``) keep them."""

    config: ServerConfig  # the manager's, once started

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
        self.here: dict[str, set[Tunnel]] = {}  # room -> sockets whose app runs here
        self.tunnels: dict[bytes, Tunnel] = {}  # sockets of other edges, by id
        self.edges: dict[bytes, Edge] = {}  # sockets here tunnelled elsewhere, by id
        self.calls: dict[bytes, asyncio.Future[bytes | None]] = {}
        self._frames: dict[str, list[tuple[int, bytes, bytes]]] = {}
        self._wake = asyncio.Event()
        self._ready = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._next = 0
        self.stopping = False
        self.heartbeat = time.monotonic()  # moved on by the loop; read by the renewer
        self._release = self.redis.register_script(_RELEASE)

    @property
    def rooms(self) -> RoomManager:
        if self.manager is None:
            raise RuntimeError("the cluster has not started (Cluster.start)")
        return self.manager

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def new_id(self) -> bytes:
        self._next += 1
        return f"{self.node}#{self._next}".encode()

    def forget(self, tunnel: Tunnel) -> None:
        group = self.here.get(tunnel.code)
        if group is not None:
            group.discard(tunnel)
            if not group:
                del self.here[tunnel.code]
        if self.tunnels.get(tunnel.fid) is tunnel:
            del self.tunnels[tunnel.fid]


async def _no_app(scope: Scope, receive: Receive, send: Send) -> None:
    raise RuntimeError("the cluster's middleware is not installed (Routes)")
