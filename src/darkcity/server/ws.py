"""The WebSocket loop: ``/ws/{code}``, one client's messages in, its room's messages out.

A socket is counted against its address, says hello (a seat token, or none to watch),
and then each text frame is checked (size, rate), parsed (:mod:`darkcity.server.protocol`)
and handed to its :class:`~darkcity.room.Room`; what the room sends the reader
waits in its :class:`~darkcity.server.conn.Conn`'s queue until it is sent as a binary
frame of UTF-8 JSON: the answer to a message (a decider's acknowledgement) by the
reader's own task right after handling it, the rest by :func:`_writer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from darkcity.i18n import msg, negotiate, translator
from darkcity.room import Room
from darkcity.room.ports import CannotSave
from darkcity.server import protocol as p
from darkcity.server.common import (
    CANNOT_SAVE,
    NO_ROOM,
    Refusal,
    client_address,
    validation_message,
)
from darkcity.server.config import ServerConfig
from darkcity.server.conn import Conn, plain
from darkcity.server.limits import Probes, Sockets, TokenBucket
from darkcity.server.manager import RoomManager

__all__ = ["serve_socket"]

log = logging.getLogger("darkcity.server")


async def serve_socket(ws: WebSocket, code: str, manager: Callable[[], RoomManager],
                       sockets: Sockets, cfg: ServerConfig,
                       probes: Probes | None = None) -> None:
    """One client's socket to room ``code``, from its accept to its close (``probes``:
    the codes not found per address, shared with the HTTP routes)."""
    await ws.accept()
    lang = negotiate(ws.query_params.get("lang", "")) or "en"
    conn = Conn(lang, cfg.send_queue)
    writer = asyncio.create_task(_writer(ws, conn))
    session = _Session(client_address(ws), sockets, cfg)
    counted = sockets.opened(session.address)
    room: Room | None = None
    try:
        if not counted:
            conn.error("too-many-sockets", msg("Too many connections from your address: "
                                               "close some windows."))
            return
        if probes is not None and not probes.allowed(session.address):
            conn.error("rate-limited", msg("Too many room codes that do not exist from your "
                                           "address: try again in a minute."))
            return
        room = manager().get(code)
        if room is None:
            if probes is not None:
                probes.missed(session.address)
            conn.error("no-room", NO_ROOM.message)
            return
        await _serve(ws, room, conn, session)
    except Refusal as e:  # the server is full
        conn.error(e.code, e.message)
    finally:
        if counted:
            sockets.closed(session.address)
        if room is not None:
            room.disconnect(conn)
            if session.watching:
                sockets.unwatch(room.code, session.address)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()


@dataclass(slots=True)
class _Session:
    """One WebSocket's standing: its address, whether it said hello, what it counts as."""

    address: str
    sockets: Sockets
    cfg: ServerConfig
    greeted: bool = False
    watching: bool = False  # counted among the room's spectators
    close: bool = False  # refused: close after the error


try:
    import orjson

    def _dumps(item: dict[str, Any]) -> bytes:
        """UTF-8 JSON; a :class:`~darkcity.views.View` is serialized field by field, as
        ``View.to_dict`` would give it."""
        return orjson.dumps(item)
except ImportError:  # pragma: no cover
    def _dumps(item: dict[str, Any]) -> bytes:
        return json.dumps(plain(item), ensure_ascii=False, separators=(",", ":")).encode()


async def _writer(ws: WebSocket, conn: Conn) -> None:
    """Send what the rooms queue for ``conn`` as it comes."""
    with contextlib.suppress(Exception):
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            if not await _flush(ws, conn):
                return


async def _answer(ws: WebSocket, conn: Conn) -> bool:
    """After the reader handled a message: what that queued for its own socket is sent
    now, from the reader's task; if the writer is in the middle of a send (a paused
    transport), it is woken to send it after, in order. ``False`` once closed."""
    if not conn.out:
        return True
    if conn.sending.locked():
        conn.wake.set()
        return True
    try:
        return await _flush(ws, conn)
    except Exception:  # the socket is gone: its next receive says so
        conn.dropped = True
        return True


async def _flush(ws: WebSocket, conn: Conn) -> bool:
    """Send what waits in ``conn.out``, in order (taken and sent under ``conn.sending``,
    by the writer or by the reader); ``False`` once the socket is closed.

    Server messages leave as binary frames holding UTF-8 JSON: orjson's bytes as they
    are, with no decode to text and no re-encode on the wire (clients ``JSON.parse`` a
    ``TextDecoder``'s text, or parse the bytes)."""
    async with conn.sending:
        while conn.out:
            item = conn.out.popleft()
            if item is None:
                await ws.close()
                return False
            await ws.send_bytes(_dumps(item))
    return True


async def _serve(ws: WebSocket, room: Room, conn: Conn, session: _Session) -> None:
    cfg = session.cfg
    bucket = TokenBucket(cfg.rate_per_s, float(cfg.rate_burst))
    strikes = 0
    hello_by = time.monotonic() + cfg.hello_timeout_s
    while True:
        try:
            if session.greeted or cfg.hello_timeout_s <= 0:
                event = await ws.receive()
            else:
                event = await asyncio.wait_for(ws.receive(), hello_by - time.monotonic())
        except TimeoutError:
            seconds = format(cfg.hello_timeout_s, "g")
            conn.error("hello-timeout", msg("Say hello within {n} seconds of connecting.",
                                            n=seconds))
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if event["type"] == "websocket.disconnect":
            return
        text = event.get("text")
        if text is None:
            conn.error("binary", msg("Send text (JSON) messages only."))
            continue
        if len(text) > cfg.max_message_bytes or len(text.encode()) > cfg.max_message_bytes:
            conn.error("too-big", msg("That message is too big."))
            strikes += 1
        elif not bucket.take(time.monotonic()):
            conn.error("rate-limited", msg("Too many messages: slow down."))
            strikes += 1
        else:
            conn.answering = True  # the answer (a decider's ack) leaves from here, with
            try:  # no turn of the event loop before its writer would run (issue #33)
                _handle(room, conn, text, session)
            finally:
                conn.answering = False
            if not await _answer(ws, conn) or session.close:
                return
            continue
        if strikes > 50:
            conn.error("closed", msg("Too many refused messages: disconnected."))
            return


def _handle(room: Room, conn: Conn, text: str, session: _Session) -> None:
    """One client message."""
    ref: str | None = None
    try:
        try:
            m = p.parse_client_message(text)
        except ValidationError as e:
            raise Refusal("invalid", validation_message(e)) from None
        except ValueError:
            raise Refusal("invalid", msg("That message is not JSON.")) from None
        if isinstance(m, p.Hello):
            if session.greeted:
                raise Refusal("hello-twice", msg("You have already said hello."))
            if m.lang:
                conn.t = translator(negotiate(m.lang) or "en")
            conn.keeps = m.kept
            member = room.member_by_token(m.token) if m.token else None
            if m.token and member is None:
                conn.error("bad-token", msg("That seat link is not valid here; you are "
                                            "watching."))
            if member is None:  # spectators have their share; a seat token always gets in
                full = session.sockets.watch(room.code, session.address)
                if full is not None:
                    session.close = True
                    raise Refusal("room-busy", full)
                session.watching = True
            else:
                _make_way(room, member.id, session.cfg.max_sockets_per_member)
            room.connect(conn, member)
            session.greeted = True
            return
        if not session.greeted:
            raise Refusal("hello-first", msg("Say hello first."))
        if isinstance(m, p.Ping):
            conn.send({"type": "pong", "t": m.t, "server_time": time.time()})
        elif isinstance(m, p.Decide):
            ref = m.ref
            # stored, the room acknowledges it to conn itself: the ack rides on the next
            # state or count conn gets (no call comes back up into this module)
            ack = functools.partial(conn.ack, ref, m.at)
            room.decide(conn.member, m.at, m.decision, ack, change=m.change)
        elif isinstance(m, p.Sit):
            room.sit(conn.member, m.seat)
        elif isinstance(m, p.Stand):
            room.stand(conn.member)
        elif isinstance(m, p.AddBot):
            room.add_bot(conn.member, m.seat, m.level)
        elif isinstance(m, p.Remove):
            room.remove(conn.member, m.seat)
        elif isinstance(m, p.MakeHost):
            room.make_host(conn.member, m.seat)
        elif isinstance(m, p.Start):
            room.start(conn.member)
        elif isinstance(m, p.Chat):
            room.say(conn.member, m.text)
    except Refusal as e:
        conn.error(e.code, e.message, ref)
    except CannotSave:  # the database refused (the storage logged it for the operator)
        conn.error(CANNOT_SAVE.code, CANNOT_SAVE.message, ref)
    except Exception:  # a bug must not cost the player the connection, nor leak a trace
        log.exception("message refused by an internal error")
        conn.error("internal", msg("Something went wrong."), ref)


def _make_way(room: Room, member: int, most: int) -> None:
    """Before one more socket of ``member`` joins: close its oldest beyond ``most - 1``."""
    mine = sorted((c for c in room.conns if isinstance(c, Conn) and c.member == member),
                  key=lambda c: c.opened)
    for old in mine[:max(0, len(mine) - most + 1)] if most > 0 else ():
        old.error("replaced", msg("This seat was opened in another window; this one "
                                  "closes."))
        old.member = None
        room.conns.discard(old)
        old.dropped = True
        old.close()
