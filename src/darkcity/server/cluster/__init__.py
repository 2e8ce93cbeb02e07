"""Several server processes, one set of rooms: ownership leases and a bus over Redis.

The embedded default has no cluster at all: one process holds every room (SQLite, no
Redis) and the app runs as it always did. With ``--redis URL`` any number of processes
share one database and one Redis, and :class:`Cluster` (an ASGI middleware wrapped
around the app) makes them one server:

- **A room is run by exactly one process at a time**, the one that holds its lease
  (``darkcity:lease:{code}``, the owner's node id with a time to live of ``lease_s``,
  renewed every third of it while the room is in memory, by a thread of its own
  (:class:`~darkcity.server.cluster.leases.Renewer`): a loop busy with game work does
  not let leases run out, and a loop that has not run for ``4 × lease_s`` is taken for
  hung and stops renewing).
  A process takes a free lease with ``SET NX`` and only then loads the room from the
  database, so it starts from what is stored, never from a stale copy.
- **A client may connect to any process.** Every request about a room (its WebSocket,
  ``/api/rooms/{code}/...``) is run by the app *of the room's owner*: where that is
  another process, the one the client reached (its *edge*) tunnels the ASGI events
  over Redis pub/sub — the client's frames to the owner's channel
  (``darkcity:node:{node}``) as they came, the owner's frames back to the edge's
  channel, several frames to one node in one Redis message. The app does not know:
  its limits, its hello, its rooms run unchanged on the owner.
- **When the owner dies**, its lease expires; the next process to look (an edge whose
  tunnels led there, a client connecting, or the periodic scan of the games in play)
  takes the lease and reloads the room (every stored decision, the open point's
  deadline). Each socket is then tunnelled again to where the room now is, and the
  client's first ``hello`` is said again for it: the client keeps its seat and gets a
  fresh ``welcome`` (holding its ``state``) on the socket it never had to close.
- **Nothing acknowledged is lost, nothing is applied twice**: a decision is stored
  before its ``ack`` leaves, and the decisions table's key ``(room, seq)`` fences a
  process that lost its lease without knowing it (a long pause): its next decision
  collides with the new owner's and is refused, and the room is reloaded or let go
  (:class:`~darkcity.server.storage.FencedStorage`).
- Each process keeps ``darkcity:alive:{node}``; an owner ends the tunnels of an edge
  whose key expired (its clients become *away*, as after a disconnection).

One concern per module: ``wire.py`` (what travels between processes: the frames, a
scope, a body), ``tunnel.py`` (one client's socket across processes: its tunnel, its
edge), and :class:`~darkcity.server.cluster.routes.Cluster`, assembled as a chain of
classes, each over the one before: ``state.py`` (every field: this process's id, its
Redis, the rooms and sockets it holds) < ``leases.py`` (who runs which room, and the
lease renewer's thread) < ``bus.py`` (frames out, frames in) < ``routes.py`` (each
request to the app of the room's owner; joining and leaving; the middleware).
"""

from __future__ import annotations

from darkcity.server.cluster.routes import Cluster, Routes

__all__ = ["Cluster", "Routes"]
