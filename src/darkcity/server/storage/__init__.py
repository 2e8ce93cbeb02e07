"""What the server stores, in one place (SQLAlchemy: SQLite by default, PostgreSQL too).

- ``rooms.py``: the rooms (:class:`Storage`): a row per room, its decisions
  event-sourced, each stored before it is acknowledged;
- ``fence.py``: the same shared by several processes (:class:`FencedStorage`): a
  decision whose place another process took is refused (:class:`Superseded`), and
  :func:`make_storage`, which picks one of the two.
"""

from __future__ import annotations

from darkcity.server.room.ports import Superseded
from darkcity.server.storage.fence import FencedStorage, make_storage
from darkcity.server.storage.rooms import Storage, StoredDecision, StoredRoom

__all__ = ["FencedStorage", "Storage", "StoredDecision", "StoredRoom", "Superseded",
           "make_storage"]
