"""What the server stores, in one place (SQLAlchemy: SQLite by default, PostgreSQL too).

- ``rooms.py``: the rooms (:class:`Storage`): a row per room, its decisions
  event-sourced, each stored before it is acknowledged;
- ``fence.py``: the same shared by several processes (:class:`FencedStorage`): a
  decision whose place another process took is refused (:class:`Superseded`), and
  :func:`make_storage`, which picks one of the two;
- ``tables.py``: the table companion's tables (:class:`TableStore`), on the same
  database.
"""

from __future__ import annotations

from darkcity.room.ports import Superseded
from darkcity.server.storage.fence import FencedStorage, make_storage
from darkcity.server.storage.rooms import Storage, StoredDecision, StoredRoom
from darkcity.server.storage.tables import StoredTable, TableStore

__all__ = ["FencedStorage", "Storage", "StoredDecision", "StoredRoom", "StoredTable",
           "Superseded", "TableStore", "make_storage"]
