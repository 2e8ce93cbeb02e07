"""The fence: the rooms' database shared by several processes, where a decision that
collides with a stored one (another process has taken the room over, its lease ran out
here) is refused and the room handed back to be read again (``docs/deploy.md``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from darkcity.room.ports import Superseded
from darkcity.server.config import ServerConfig
from darkcity.server.storage.rooms import Storage

__all__ = ["FencedStorage", "make_storage"]

log = logging.getLogger("darkcity.server.cluster")


class FencedStorage(Storage):
    """The rooms' database, where a decision that collides with a stored one (another
    process has taken the room over) has the room reconciled with the database."""

    on_conflict: Callable[[str], None] | None = None

    def append_decision(self, code: str, seq: int, doc: dict[str, Any], source: str,
                        deadline: tuple[float | None, int | None] | None = None,
                        status: str | None = None, replaces: int | None = None) -> None:
        try:
            super().append_decision(code, seq, doc, source, deadline, status, replaces)
        except IntegrityError as e:
            log.warning("room %s: decision %d is stored already (another process ran the "
                        "room); reconciling", code, seq)
            if self.on_conflict is not None:
                self.on_conflict(code)
            raise Superseded(code, seq) from e


def make_storage(config: ServerConfig) -> Storage:
    """The rooms' database: fenced when several processes share it."""
    kind = FencedStorage if config.redis_url else Storage
    return kind(config.database, config.pg_synchronous_commit)
