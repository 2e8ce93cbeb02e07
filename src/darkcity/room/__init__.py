"""A room of the web app: the lobby, the game, the Mayor's clock, and what each reader is
sent, one concern per module over the fields they share.

- ``state.py``: :class:`RoomConfig`, :class:`Member` and every field of a room
  (:class:`~darkcity.room.state.RoomState`), declared together;
- ``lobby.py``: members, seats, bots, the host, the chat, the start;
- ``broadcast.py``: connections in and out, and what each reader is sent (a view per
  connection, from :func:`darkcity.views.view`; progress, notices, the lobby);
- ``driver.py``: a decision checked, stored and applied; the game moved on;
- ``clock.py``: the reveal, the bots' turns, time-outs and the grace;
- ``ports.py``: what a room needs from outside (a store, its readers, timers, bots'
  workers) as small interfaces the server implements: nothing here imports asyncio, a
  web framework, a database or a socket (``tests/test_server_room.py``);
- ``setup.py``: a room's settings from what a host asked, checked; ``restore.py``: a
  room read back from its store (the server after a restart, a phone's worker);
- ``local.py``: the ports with no server (a store in memory, a clock the caller moves,
  readers that collect what they are sent): a room hosted in one process, as a phone's
  Web Worker will host it (``tests/test_room_local.py``).

:class:`Room` is assembled from them, each concern a class over the one before
(``RoomState`` < ``Lobby`` < ``Broadcaster`` < ``Driver`` < ``RoomClock``): a concern
calls down that chain freely; the few calls up it (the lobby starts the game, the
driver asks the clock for the reveal) are declared where they are made.

Every message about the game is built from :func:`darkcity.views.view` for its reader
(a seat's player, or ``None`` for a spectator); the lobby message holds names, seats and
flags only. Tokens and the seed never leave.
"""

from __future__ import annotations

from darkcity.room.clock import RoomClock
from darkcity.room.lobby import check_name
from darkcity.room.state import BEATS, Member, RoomConfig

__all__ = ["BEATS", "Member", "Room", "RoomConfig", "check_name"]


class Room(RoomClock):
    """A room: its lobby, its game, its clock, its readers (see the package)."""

    __slots__ = ()
