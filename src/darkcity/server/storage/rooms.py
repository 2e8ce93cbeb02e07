"""Durable rooms with SQLAlchemy: SQLite by default, any SQLAlchemy URL (PostgreSQL) too.

Event-sourced: a room row holds its settings, lobby, seed and current deadline;
the ``decisions`` table holds every accepted decision in order. Replaying the
decisions through :class:`darkcity.game.Game` from the seed rebuilds the game
exactly. A decision is committed before the server acknowledges it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from darkcity.room.ports import Superseded

__all__ = ["Storage", "StoredDecision", "StoredRoom", "Superseded"]

#: PostgreSQL's values of ``synchronous_commit`` (checked: it is written into a SET).
_SYNCHRONOUS_COMMIT = ("off", "local", "remote_write", "remote_apply", "on")


metadata = MetaData()

rooms_table = Table(
    "darkcity_rooms", metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),  # lobby, playing, over
    Column("config", Text, nullable=False),  # JSON: the room's settings
    Column("lobby", Text, nullable=False),  # JSON: members (token hashes), bots, host
    Column("seed", String(64), nullable=True),  # set at the start; never sent to a client
    Column("deadline", Float, nullable=True),  # server clock (epoch seconds)
    Column("deadline_dp", Integer, nullable=True),  # the decision point it belongs to
)

decisions_table = Table(
    "darkcity_decisions", metadata,
    Column("room", String(16), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("doc", Text, nullable=False),  # decisions.decision_to_dict
    Column("source", String(16), nullable=False),  # player, bot, timeout, away
    Column("at", Float, nullable=False),
)

# append_decision's statements on SQLite (the driver's own, ``?`` parameters)
_INSERT_DECISION = (f"INSERT INTO {decisions_table.name} (room, seq, doc, source, at) "
                    "VALUES (?, ?, ?, ?, ?)")
_POINT = (f"UPDATE {rooms_table.name} SET updated = ?, deadline = ?, deadline_dp = ?, "
          "status = coalesce(?, status) WHERE code = ?")
_STATUS = f"UPDATE {rooms_table.name} SET updated = ?, status = ? WHERE code = ?"


@dataclass(frozen=True, slots=True)
class StoredDecision:
    seq: int
    doc: dict[str, Any]
    source: str


@dataclass(frozen=True, slots=True)
class StoredRoom:
    code: str
    status: str
    config: dict[str, Any]
    lobby: dict[str, Any]
    seed: str | None
    deadline: float | None
    deadline_dp: int | None


class Storage:
    """The rooms' database (synchronous, short transactions).

    ``synchronous_commit`` (PostgreSQL): ``"off"`` by default, the durability of the
    embedded SQLite default (WAL mode, ``synchronous=NORMAL``): a commit is in the
    database at once, for every other session, and survives the darkcity process
    being killed; only a crash of PostgreSQL itself (or its machine) may lose the last
    commits (up to three ``wal_writer_delay``, 0.6 s by default), never the database's
    consistency. The event loop then does not wait for the disk's flush (about 4 ms
    a commit here) at every decision. ``"on"``: every commit waits for the flush
    (``DARKCITY_PG_SYNCHRONOUS_COMMIT=on``, docs/deploy.md)."""

    def __init__(self, url: str, synchronous_commit: str = "off") -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        self._sqlite = sqlite
        self.engine: Engine = create_engine(
            url, future=True,
            connect_args={"check_same_thread": False} if sqlite else {},
        )
        if sqlite:
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")  # survives kill -9; readers never wait
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                # checkpoints run off the event loop (checkpoint()), not inside a commit
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.close()
        elif url.startswith("postgresql"):
            if synchronous_commit not in _SYNCHRONOUS_COMMIT:
                raise ValueError(f"synchronous_commit={synchronous_commit!r}: one of "
                                 f"{', '.join(_SYNCHRONOUS_COMMIT)}")

            @event.listens_for(self.engine, "connect")
            def _session(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute(f"SET synchronous_commit TO {synchronous_commit}")
                cur.close()
                conn.commit()
        for attempt in range(5):  # several processes may start on one new database
            try:
                metadata.create_all(self.engine)
                break
            except DBAPIError:
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))
        self._conn: Connection | None = None
        # a decision's statements, built once (each call only binds its values)
        self._insert_decision = insert(decisions_table)
        self._point = update(rooms_table).where(rooms_table.c.code == bindparam("room")) \
            .values(updated=bindparam("now"), deadline=bindparam("deadline"),
                    deadline_dp=bindparam("deadline_dp"))
        self._end = update(rooms_table).where(rooms_table.c.code == bindparam("room")) \
            .values(updated=bindparam("now"), status=bindparam("status"),
                    deadline=bindparam("deadline"), deadline_dp=bindparam("deadline_dp"))

    @property
    def conn(self) -> Connection:
        """One connection held for the server's thread (its short transactions cost
        a tenth of a pooled connection's)."""
        if self._conn is None or self._conn.closed:
            self._conn = self.engine.connect()
        return self._conn

    def _tx(self) -> Any:
        c = self.conn
        if c.in_transaction():  # pragma: no cover - a failed statement left one open
            c.rollback()
        return c.begin()

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database (from another thread: it
        waits for the disk, the event loop does not)."""
        if not self.url.startswith("sqlite"):
            return
        with self.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self.engine.dispose()

    def create_room(self, code: str, config: dict[str, Any], lobby: dict[str, Any]) -> None:
        now = time.time()
        with self._tx():
            self.conn.execute(insert(rooms_table).values(
                code=code, created=now, updated=now, status="lobby",
                config=json.dumps(config), lobby=json.dumps(lobby)))

    def code_taken(self, code: str) -> bool:
        with self._tx():
            return self.conn.execute(select(rooms_table.c.code).where(
                rooms_table.c.code == code)).first() is not None

    def save_room(self, code: str, *, status: str | None = None,
                  lobby: dict[str, Any] | None = None, seed: str | None = None,
                  deadline: tuple[float | None, int | None] | None = None) -> None:
        values: dict[str, Any] = {"updated": time.time()}
        if status is not None:
            values["status"] = status
        if lobby is not None:
            values["lobby"] = json.dumps(lobby)
        if seed is not None:
            values["seed"] = seed
        if deadline is not None:
            values["deadline"], values["deadline_dp"] = deadline
        with self._tx():
            self.conn.execute(update(rooms_table).where(rooms_table.c.code == code)
                              .values(**values))

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        deadline: tuple[float | None, int | None] | None = None,
                        status: str | None = None) -> None:
        """Store one accepted decision (and the next deadline, or the room's new status)
        in one transaction. A ``seq`` stored already raises ``IntegrityError``."""
        if self._sqlite:
            self._append_sqlite(code, seq, doc, source, deadline, status)
            return
        now = time.time()
        with self._tx():
            c = self.conn
            c.execute(self._insert_decision, {"room": code, "seq": seq, "doc": json.dumps(doc),
                                              "source": source, "at": now})
            if deadline is None:
                if status is not None:
                    c.execute(update(rooms_table).where(rooms_table.c.code == code).values(
                        updated=now, status=status))
                return
            row = {"room": code, "now": now, "deadline": deadline[0], "deadline_dp": deadline[1]}
            if status is None:
                c.execute(self._point, row)
            else:
                c.execute(self._end, {**row, "status": status})

    def _append_sqlite(self, code: str, seq: int, doc: dict[str, Any], source: str,
                       deadline: tuple[float | None, int | None] | None,
                       status: str | None) -> None:
        """``append_decision`` on SQLite, every decision's path: the same transaction
        through the driver's own connection: half the CPU of SQLAlchemy Core's on the
        event loop's thread (19 against 41 us a decision, ``benchmarks/bench_storage.py``)."""
        c = self.conn
        if c.in_transaction():  # pragma: no cover - a failed statement left one open
            c.rollback()
        raw = c.connection.dbapi_connection
        assert raw is not None
        now = time.time()
        try:
            raw.execute(_INSERT_DECISION, (code, seq, json.dumps(doc), source, now))
            if deadline is not None:
                raw.execute(_POINT, (now, deadline[0], deadline[1], status, code))
            elif status is not None:
                raw.execute(_STATUS, (now, status, code))
            raw.commit()
        except sqlite3.Error as e:
            raw.rollback()
            if isinstance(e, sqlite3.IntegrityError):
                raise IntegrityError(_INSERT_DECISION, (code, seq), e) from e
            raise

    def load_room(self, code: str) -> StoredRoom | None:
        with self._tx():
            row = self.conn.execute(select(rooms_table).where(rooms_table.c.code == code)).first()
        return None if row is None else _room(row)

    def active_codes(self) -> list[str]:
        with self._tx():
            return [r[0] for r in self.conn.execute(select(rooms_table.c.code).where(
                rooms_table.c.status == "playing"))]

    def prune(self, before: float, keep: Collection[str] = (), batch: int = 200) -> int:
        """Delete the lobbies and finished games not changed since ``before`` (epoch
        seconds), with their decisions, except the codes in ``keep``; returns how many
        rooms went. Its own connection and short transactions of ``batch`` rooms: it
        runs in a thread beside the server's (``darkcity serve --keep-days``)."""
        gone = 0
        while True:
            with self.engine.begin() as c:
                codes = [r[0] for r in c.execute(
                    select(rooms_table.c.code).where(
                        rooms_table.c.status.in_(("lobby", "over")),
                        rooms_table.c.updated < before).limit(batch + len(keep)))]
                codes = [code for code in codes if code not in keep][:batch]
                if not codes:
                    return gone
                c.execute(delete(decisions_table).where(decisions_table.c.room.in_(codes)))
                c.execute(delete(rooms_table).where(rooms_table.c.code.in_(codes)))
            gone += len(codes)

    def decisions(self, code: str) -> list[StoredDecision]:
        with self._tx():
            rows = self.conn.execute(select(decisions_table).where(
                decisions_table.c.room == code).order_by(decisions_table.c.seq))
            return [StoredDecision(r.seq, json.loads(r.doc), r.source) for r in rows]


def _room(row: Any) -> StoredRoom:
    return StoredRoom(row.code, row.status, json.loads(row.config), json.loads(row.lobby),
                      row.seed, row.deadline, row.deadline_dp)
