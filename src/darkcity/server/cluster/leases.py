"""Who runs which room: a lease taken, renewed, lost, let go; games nobody runs adopted.

A room is run by the one process that holds its lease (``darkcity:lease:{code}``, with a
time to live): a free lease is taken with ``SET NX`` and only then is the room loaded
from the database (:meth:`Leases.resolve`); a thread of its own (:class:`Renewer`)
renews them while the event loop shows it runs; a lease found lost lets the room go;
the periodic keeper lets go of the rooms that left memory, ends the tunnels of edges
that died, and takes over the games in play that nobody runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any, Final

from darkcity.room import Room
from darkcity.server.cluster.state import (
    ALIVE,
    LEASE,
    ClusterState,
)
from darkcity.server.cluster.wire import (
    MOVED,
)

__all__ = [
    "Leases",
    "Renewer",
]

log = logging.getLogger("darkcity.server.cluster")

# Renew a lease only while this node holds it.
_RENEW: Final = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
                 "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end")


class Renewer(threading.Thread):
    """Renews this node's leases (and its liveness key) every third of the lease, from
    a thread with its own Redis connection, so that no amount of work queued on the
    event loop (many rooms revealing at once, a long collection) lets them run out
    while the process is alive. Python hands the GIL to a waiting thread every few
    milliseconds, so the thread is never starved by the loop's work.

    It renews only while the loop shows it runs (:attr:`Cluster.heartbeat`, moved on
    every tenth of a second by a task there): a loop stuck for ``stall_s`` is taken
    for a hung process, whose rooms are then left to expire and be taken over, as a
    dead one's would. A lease found lost is handed to the loop (:meth:`Cluster.drop`)."""

    def __init__(self, cluster: Leases, loop: asyncio.AbstractEventLoop) -> None:
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



class Leases(ClusterState):
    """Where a room lives; the leases, the liveness, and the games nobody runs."""

    _renewer: Renewer | None = None  # started by Cluster.start

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

