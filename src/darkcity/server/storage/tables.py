"""The table companion's tables: one row per table in ``darkcity_tables`` (the set-up and
the entries, the companion's own JSON, and the token hashes), on the rooms' database
(:class:`~darkcity.server.storage.rooms.Storage` makes the engine); in memory too, and
every change stored before it is answered (``server/companion.py``'s routes)."""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Final

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update

from darkcity.companion import Companion, TableSetup
from darkcity.companion.actions import Refused
from darkcity.i18n import msg
from darkcity.server.common import token_hash
from darkcity.server.storage.rooms import Storage

__all__ = ["StoredTable", "TableStore"]

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6
MAX_TABLES: Final = 2000  # held in memory at once (a table is a few kilobytes)

metadata = MetaData()
tables_table = Table(
    "darkcity_tables", metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),  # one more for every stored change
    Column("lang", String(8), nullable=False),
    Column("mayor", String(64), nullable=False),  # sha256 of the Mayor's token
    Column("seats", Text, nullable=False),  # JSON: player -> sha256 of their seat token
    Column("doc", Text, nullable=False),  # JSON: Companion.to_json()
)

_log = logging.getLogger("darkcity.server.companion")


@dataclass(slots=True)
class StoredTable:
    code: str
    lang: str
    mayor: str
    seats: dict[str, str]
    table: Companion
    version: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: entries of a table stored by an earlier version that no longer replay, set aside
    #: when it was loaded (Companion.restore); said to the Mayor until their next entry,
    #: undo or correction (the store keeps them until that change is stored)
    set_aside: int = 0


class TableStore:
    """The tables, in memory and in the database; every change stored before it is
    answered."""

    def __init__(self, url: str) -> None:
        self._storage = Storage(url)  # the engine, with the rooms' SQLite settings
        self.engine = self._storage.engine
        metadata.create_all(self.engine)
        self._tables: dict[str, StoredTable] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        self._storage.close()

    def create(self, setup: TableSetup, lang: str) -> tuple[StoredTable, str]:
        token = secrets.token_urlsafe(18)
        table = Companion(setup)
        now = time.time()
        with self._lock, self._storage.writing(), self.engine.begin() as c:
            for _ in range(50):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if c.execute(select(tables_table.c.code).where(
                        tables_table.c.code == code)).first() is None:
                    break
            else:  # pragma: no cover - 31**6 codes
                raise Refused(503, "busy", msg("No free table code; try again."))
            c.execute(insert(tables_table).values(
                code=code, created=now, updated=now, version=1, lang=lang, mayor=token_hash(token),
                seats="{}", doc=json.dumps(table.to_json())))
            stored = StoredTable(code, lang, token_hash(token), {}, table, 1)
            self._remember(stored)
        return stored, token

    def _remember(self, t: StoredTable) -> None:
        if len(self._tables) >= MAX_TABLES:
            self._tables.pop(next(iter(self._tables)))
        self._tables[t.code] = t

    def get(self, code: str) -> StoredTable | None:
        code = code.upper()
        found = self._tables.get(code)
        if found is not None:
            return found
        with self.engine.connect() as c:
            row = c.execute(select(tables_table).where(tables_table.c.code == code)).first()
        if row is None:
            return None
        table, set_aside = Companion.restore(json.loads(row.doc))
        if set_aside:
            _log.warning("table %s: %d stored entries no longer replay, set aside",
                         row.code, set_aside)
        stored = StoredTable(row.code, row.lang, row.mayor, json.loads(row.seats), table,
                             row.version, set_aside=set_aside)
        with self._lock:
            self._tables.setdefault(code, stored)
            return self._tables[code]

    def save(self, t: StoredTable) -> None:
        """Store the table (called with ``t.lock`` held). If the database cannot write
        (:class:`~darkcity.room.ports.CannotSave`), the table held in memory is dropped:
        the next request reads it again as it was stored, without the refused change."""
        t.version += 1
        try:
            with self._storage.writing(), self.engine.begin() as c:
                c.execute(update(tables_table).where(tables_table.c.code == t.code).values(
                    updated=time.time(), version=t.version, mayor=t.mayor,
                    seats=json.dumps(t.seats), doc=json.dumps(t.table.to_json())))
        except Exception:
            t.version -= 1
            with self._lock:
                if self._tables.get(t.code) is t:
                    del self._tables[t.code]
            raise
