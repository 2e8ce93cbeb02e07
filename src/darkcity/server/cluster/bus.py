"""The bus between processes: frames out in one Redis message a node, frames in dispatched.

Each process listens on its channel (``darkcity:node:{node}``); frames for another
process are gathered and published together (:meth:`Bus.to_node`), and each frame that
comes in goes to the edge, the waiting request or the tunnel it is for; a socket
opened, or a request, from another edge is served by the routes (``routes.py``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from darkcity.server.cluster.leases import Leases
from darkcity.server.cluster.state import (
    CHANNEL,
)
from darkcity.server.cluster.wire import (
    HTTP,
    IN_BYTES,
    IN_END,
    IN_TEXT,
    MOVED,
    OPEN,
    OUT_BYTES,
    OUT_CLOSE,
    OUT_TEXT,
    REPLY,
    Message,
    pack,
    unpack,
)

__all__ = [
    "Bus",
]

log = logging.getLogger("darkcity.server.cluster")


class Bus(Leases):
    """Frames to other processes, and theirs to the sockets and requests here."""

    if TYPE_CHECKING:  # the routes' (routes.py): what another edge asks of a room here
        def _open_socket(self, edge: str, fid: bytes, payload: bytes) -> None: ...

        async def _serve_http(self, edge: str, fid: bytes, payload: bytes) -> None: ...

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

