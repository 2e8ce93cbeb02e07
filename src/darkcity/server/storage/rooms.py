"""Durable rooms with SQLAlchemy: SQLite by default, any SQLAlchemy URL (PostgreSQL) too.

Event-sourced: a room row holds its settings, lobby, seed and current deadline;
the ``decisions`` table holds every accepted decision in order. Replaying the
decisions through :class:`darkcity.game.Game` from the seed rebuilds the game
exactly. A decision is committed before the server acknowledges it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import sqlite3
import time
from collections.abc import Collection, Iterator
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
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from darkcity.i18n import Message, msg, translator
from darkcity.room.ports import CannotSave, Superseded

__all__ = ["CannotSave", "Storage", "StoredDecision", "StoredRoom", "Superseded",
           "cannot_save"]

log = logging.getLogger("darkcity.server")

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
_DELETE_DECISION = f"DELETE FROM {decisions_table.name} WHERE room = ? AND seq = ?"


class DatabaseFault(CannotSave):
    """The database refused a write: ``where`` (its file, or its URL without password),
    ``why`` and ``fix`` (what the operator can do), as messages."""

    def __init__(self, where: str, why: Message, fix: Message) -> None:
        super().__init__(f"{where}: {why.msgid}")
        self.where, self.why, self.fix = where, why, fix
        #: one line for the operator: which file, why, what to do
        self.message = msg("darkcity cannot write to its database {where}: {why}. {fix}",
                           where=where, why=why, fix=fix)

    def explain(self, lang: str = "en") -> str:
        return translator(lang).render(self.message)


_FULL = (msg("the disk that holds it is full"),
         msg("Free some space on that disk (or move the database with --db); the players "
             "are asked to try again meanwhile, and nothing they were told was saved is "
             "lost."))
_READ_ONLY = (msg("it is read-only: the server's user may not write to the file, to its "
                  "folder (where SQLite keeps its -wal and -shm files), or to its file "
                  "system"),
              msg("Give the server's user write access to the file and its folder (chown, "
                  "chmod), remount the file system read-write, or choose another file "
                  "with --db."))
_IO = (msg("the disk reported an error (full, failing or gone)"),
       msg("Check that disk (df -h, dmesg) and the file, or move the database with --db; "
           "the players are asked to try again meanwhile."))
_LOCKED = (msg("another program holds it locked"),
           msg("Stop the other program that writes to it: one darkcity serve per SQLite "
               "file (several processes need --redis and PostgreSQL)."))
_UNREACHABLE = (msg("it cannot be reached ({error})"),
                msg("Check that the database server runs and that --db is right."))
#: SQLite's primary result codes and PostgreSQL's SQLSTATE classes -> (why, fix)
_SQLITE = {"SQLITE_FULL": _FULL, "SQLITE_READONLY": _READ_ONLY, "SQLITE_CANTOPEN": _READ_ONLY,
           "SQLITE_PERM": _READ_ONLY, "SQLITE_IOERR": _IO, "SQLITE_BUSY": _LOCKED,
           "SQLITE_LOCKED": _LOCKED}
_POSTGRES = {"53100": _FULL, "25006": _READ_ONLY, "42501": _READ_ONLY, "58030": _IO,
             "53": _FULL, "08": _UNREACHABLE, "57P": _UNREACHABLE}


def cannot_save(e: BaseException, where: str) -> DatabaseFault:
    """The fault a database error means, in words (``where``: the file or the URL)."""
    inner: BaseException = getattr(e, "orig", None) or e
    name = str(getattr(inner, "sqlite_errorname", "") or "")
    found = _SQLITE.get(name) or _SQLITE.get("_".join(name.split("_")[:2]))
    state = str(getattr(inner, "sqlstate", None) or getattr(inner, "pgcode", None) or "")
    if found is None and state:
        found = _POSTGRES.get(state) or _POSTGRES.get(state[:3]) or _POSTGRES.get(state[:2])
    text = str(inner).lower()
    if found is None:
        if "full" in text:
            found = _FULL
        elif "read-only" in text or "readonly" in text or "unable to open" in text:
            found = _READ_ONLY
        elif isinstance(inner, OSError) or "i/o" in text:
            found = _IO
        else:
            found = _UNREACHABLE
    why, fix = found
    if found is _UNREACHABLE:
        from darkcity.server.limits import safe_url

        why = msg("it cannot be reached ({error})", error=safe_url(str(inner).strip()[:200]))
    return DatabaseFault(where, why, fix)


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
        self.failing_since: float | None = None  # writes refused since (logged)
        self._logged = -math.inf
        for attempt in range(5):  # several processes may start on one new database
            try:
                metadata.create_all(self.engine)
                break
            except DBAPIError as e:
                if attempt == 4:
                    raise cannot_save(e, self.where) from e
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
    def where(self) -> str:
        """The database as the operator knows it: its file, or its URL (no password)."""
        from darkcity.server.limits import safe_url

        if self._sqlite and self.engine.url.database:
            return str(self.engine.url.database)
        return safe_url(self.url)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """A write: a database that refuses it raises :class:`DatabaseFault` (a
        :class:`~darkcity.room.ports.CannotSave`), logged for the operator once a minute
        (which file, why, what to do); the first write that works again is logged too.
        A decision whose place is taken still raises ``IntegrityError`` (the fence)."""
        try:
            yield
        except (IntegrityError, sqlite3.IntegrityError, CannotSave):
            raise
        except (sqlite3.Error, SQLAlchemyError, OSError) as e:
            raise self._fault(e) from e
        if self.failing_since is not None:
            self._recovered()

    def _fault(self, e: BaseException) -> DatabaseFault:
        """The fault ``e`` means; the operator told (once a minute)."""
        fault = cannot_save(e, self.where)
        now = time.monotonic()
        if self.failing_since is None:
            self.failing_since = now
        if now - self._logged >= 60:
            self._logged = now
            log.error("%s (nothing was stored; the database said: %s)", fault.explain(),
                      str(getattr(e, "orig", None) or e).strip()[:300])
        return fault

    def _recovered(self) -> None:
        if self.failing_since is not None:
            log.warning("the database %s takes writes again (after %.0f s)", self.where,
                        time.monotonic() - self.failing_since)
        self.failing_since = None
        self._logged = -math.inf

    def check_writable(self) -> None:
        """A write tried and taken back (at start-up): raises :class:`DatabaseFault` when
        the database cannot be written (a read-only file, folder or file system)."""
        with self.writing(), self.engine.connect() as c, c.begin() as tx:
            c.execute(insert(rooms_table).values(
                code="~probe", created=0.0, updated=0.0, status="probe", config="{}",
                lobby="{}"))
            tx.rollback()

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
        with self.writing(), self._tx():
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
        with self.writing(), self._tx():
            self.conn.execute(update(rooms_table).where(rooms_table.c.code == code)
                              .values(**values))

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        deadline: tuple[float | None, int | None] | None = None,
                        status: str | None = None, replaces: int | None = None) -> None:
        """Store one accepted decision (and the next deadline, or the room's new status)
        in one transaction; ``replaces``: the decision (a changed decision's earlier
        change) deleted in it, so a decision changed again and again keeps two rows
        (its first and its last change). A ``seq`` stored already raises
        ``IntegrityError``; a database that cannot write, :class:`DatabaseFault`."""
        try:
            if self._sqlite:
                self._append_sqlite(code, seq, doc, source, deadline, status, replaces)
            else:
                self._append(code, seq, doc, source, deadline, status, replaces)
        except (IntegrityError, CannotSave):
            raise
        except (sqlite3.Error, SQLAlchemyError, OSError) as e:
            raise self._fault(e) from e
        if self.failing_since is not None:
            self._recovered()

    def _append(self, code: str, seq: int, doc: dict[str, Any], source: str,
                deadline: tuple[float | None, int | None] | None, status: str | None,
                replaces: int | None) -> None:
        now = time.time()
        with self._tx():
            c = self.conn
            if replaces is not None:
                c.execute(delete(decisions_table).where(decisions_table.c.room == code,
                                                        decisions_table.c.seq == replaces))
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
                       status: str | None, replaces: int | None) -> None:
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
            if replaces is not None:
                raw.execute(_DELETE_DECISION, (code, replaces))
            raw.execute(_INSERT_DECISION, (code, seq, json.dumps(doc), source, now))
            if deadline is not None:
                raw.execute(_POINT, (now, deadline[0], deadline[1], status, code))
            elif status is not None:
                raw.execute(_STATUS, (now, status, code))
            raw.commit()
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
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
