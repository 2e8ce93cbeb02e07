"""Every room of this server: created, loaded from the database (replayed), ticked,
and let go of memory when nobody is connected."""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from darkcity.i18n import msg
from darkcity.room import Member, Room, RoomConfig, check_name
from darkcity.room.ports import Superseded
from darkcity.room.restore import restore
from darkcity.room.setup import PACES, room_config
from darkcity.server.common import Refusal
from darkcity.server.config import ServerConfig
from darkcity.server.storage import Storage
from darkcity.server.thinking import BotPool
from darkcity.server.timers import LoopScheduler

log = logging.getLogger("darkcity.server")

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "PACES", "RoomManager"]

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6


class RoomManager:
    """Every room of this server: created, loaded from the database, ticked."""

    def __init__(self, storage: Storage, config: ServerConfig,
                 clock: Callable[[], float] = time.time, pool: BotPool | None = None) -> None:
        self.storage = storage
        self.config = config
        self.clock = clock
        self.pool = pool  # the bots' worker processes (None: bots think on the loop)
        self.scheduler = LoopScheduler()  # the rooms' timers, on the running loop
        self.rooms: dict[str, Room] = {}
        self.lazy = True  # get() loads a stored room; a cluster loads only with the lease
        self.quiet: dict[str, float] = {}  # code -> since when nobody is connected
        self.failing: dict[str, float] = {}  # code -> when its clock last failed (logged)
        self._swept = 0.0

    def _make_room(self) -> None:
        """Room in memory for one more: the room nobody has been connected to longest
        (not a game in progress, whose clock runs) leaves memory if the server is full;
        it stays in the database. Raises ``busy`` when every room is in use."""
        if len(self.rooms) < self.config.max_rooms:
            return
        now = self.clock()
        idle = [(self.quiet.get(code, now), code) for code, room in self.rooms.items()
                if not room.conns and room.status != "playing"]
        if not idle:
            raise Refusal("busy", msg("The server holds too many rooms; try later."))
        self._evict(min(idle)[1])

    def _evict(self, code: str) -> None:
        self.rooms.pop(code, None)
        self.quiet.pop(code, None)
        self.failing.pop(code, None)

    def create(self, body: Any) -> tuple[Room, Member, str]:
        """A new room from a :class:`~darkcity.server.protocol.CreateRoom`; its host."""
        self._make_room()
        name = check_name(body.name)
        c = self.config
        config = room_config(
            players=body.players, deck=body.deck, cards=body.cards, pace=body.pace,
            lang=body.lang, timeout_level=body.timeout_level, decide_s=body.decide_s,
            beat_s=body.beat_s,
            bot_delay_s=body.bot_delay_s if body.bot_delay_s is not None else c.bot_delay_s,
            grace_s=body.grace_s if body.grace_s is not None else c.grace_s,
            floors=(c.min_decide_s, c.min_beat_s, c.min_bot_delay_s))
        room = self._new_room(config)
        member, token = room.add_member(name)
        return room, member, token

    def _new_room(self, config: RoomConfig) -> Room:
        self._make_room()
        for _try in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not self.storage.code_taken(code):
                break
        room = Room(code, config, self.storage, self.config, clock=self.clock, pool=self.pool,
                    scheduler=self.scheduler)
        self.storage.create_room(code, config.to_json(), room.lobby_json())
        self.rooms[code] = room
        return room

    def again(self, room: Room, member: int | None) -> Room:
        """"Play again" (the host, once the game is over): a new room with the same
        settings, the same people in the same seats (their seat links keep working
        there) and the same bots. Everyone in the old room is pointed at it."""
        room._require_host(member)
        if room.status != "over":
            raise Refusal("not-over", msg("The game is not over yet."))
        if room.next_code is not None:
            found = self.get(room.next_code)
            if found is not None:
                return found
        new = self._new_room(replace(room.config))
        new.members = {i: replace(m) for i, m in room.members.items()}
        new.bots = dict(room.bots)
        new.host = room.host
        new.next_member = room.next_member
        new._save_lobby()
        room.next_code = new.code
        room._save_lobby()
        room.broadcast_lobby()
        return new

    def get(self, code: str) -> Room | None:
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is None and self.lazy and len(code) == CODE_LENGTH and \
                all(ch in CODE_ALPHABET for ch in code):
            room = self.load(code)
        return room

    def load(self, code: str) -> Room | None:
        """A room from the database: its lobby, and its game replayed from the decisions."""
        stored = self.storage.load_room(code)
        if stored is None:
            return None
        self._make_room()
        room = Room(code, RoomConfig.from_json(stored.config), self.storage, self.config,
                    clock=self.clock, pool=self.pool,
                    scheduler=self.scheduler)
        restore(room, stored.lobby, status=stored.status, seed=stored.seed,
                decisions=lambda: [(d.seq, d.doc, d.source)
                                   for d in self.storage.decisions(code)],
                deadline=stored.deadline, deadline_dp=stored.deadline_dp,
                least_decide_s=self.config.min_decide_s)
        self.rooms[code] = room
        return room

    def load_active(self) -> int:
        """Load every room with a game in progress (at start-up), so its clock runs."""
        codes = self.storage.active_codes()
        for code in codes:
            if code not in self.rooms:
                try:
                    self.load(code)
                except Refusal:
                    log.error("max_rooms (%d) reached: %d games in progress were not "
                              "resumed", self.config.max_rooms, len(codes) - len(self.rooms))
                    break
                except Exception:  # one unreadable room must not keep the others down
                    log.exception("room %s could not be resumed", code)
        return len(codes)

    def tick(self) -> None:
        """Every room's clock; a room whose tick fails is logged and the others go on."""
        now = self.clock()
        for room in list(self.rooms.values()):
            if room.status == "playing" or room.reveal_at is not None:
                try:
                    room.tick()
                except Superseded:  # another process ran it meanwhile (logged): let go
                    continue
                except Exception:
                    if now - self.failing.get(room.code, -math.inf) >= 60:  # once a minute
                        self.failing[room.code] = now
                        log.exception("room %s: its clock failed", room.code)
        if now - self._swept >= 1.0:
            self._swept = now
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Rooms nobody has been connected to for ``idle_room_s`` leave memory (not games
        in progress: their clock runs); the database keeps them."""
        for code, room in list(self.rooms.items()):
            if room.conns:
                self.quiet.pop(code, None)
                continue
            since = self.quiet.setdefault(code, now)
            if room.status != "playing" and now - since >= self.config.idle_room_s:
                self._evict(code)
