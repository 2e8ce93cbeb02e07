"""The walk of one decision from the WebSocket to the engine and back, counted.

One ``decide`` message is handed to the WebSocket loop's message handler (``_handle``,
in ``server/ws.py``; ``server/app.py`` before the loop left it) for a room of four
people driven directly (no event loop: the room then broadcasts at once, so the whole
walk, the decider's state with its ``ack`` queued included, is one call stack). Every
Python frame is traced (``sys.settrace``) and given a file:

- a frame of a module of ``darkcity/server/`` or of the room it hosts, ``darkcity/room/``
  (``server/room/`` until the room moved below the faces), is its own file;
- the first frame of any other ``darkcity`` module (the engine, ``i18n``, ``views``...)
  is that module's file, and everything it calls is counted as that file (the engine is
  where the walk ends: its inside is not the server's walk);
- a frame of anything else (the standard library, pydantic, SQLAlchemy) is counted as
  the file of the frame that called it.

It prints the files crossed (distinct files), the descents (calls into another file),
the **climbs back up** (returns from a file into the different file that called it: control
going back up into a file already visited), the same counted once per calling frame and
file called (a loop over seats calling the engine 35 times is one trip), the **calls back
up** (a call into a file that is already on the call stack: a callback, where the walk
stops reading top-down) and, for each file, how many times control came back into it
after leaving it. Run it on a checkout's ``src`` with::

    PYTHONPATH=src python3 benchmarks/decision_walk.py [--files]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

#: The server's own modules and the room it hosts: each of their frames is its own file.
OWN = ("server/", "room/")


def _load(*names: str) -> Any:
    """The first of ``module:attr`` names that imports (the layout before or after)."""
    for name in names:
        mod, _, attr = name.partition(":")
        try:
            return getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError):
            continue
    raise ImportError(names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", action="store_true", help="print the walk file by file")
    args = parser.parse_args()

    import darkcity
    from darkcity.server.config import ServerConfig
    from darkcity.server.limits import Sockets
    from darkcity.server.protocol import CreateRoom
    from darkcity.views import view

    storage_cls = _load("darkcity.server.storage:Storage")
    manager_cls = _load("darkcity.server.manager:RoomManager", "darkcity.server.rooms:RoomManager")
    conn_cls = _load("darkcity.server.conn:Conn", "darkcity.server.rooms:Conn")
    handle = _load("darkcity.server.ws:_handle", "darkcity.server.app:_handle")
    session_cls = _load("darkcity.server.ws:_Session", "darkcity.server.app:_Session")

    root = Path(darkcity.__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/walk.sqlite3"
        cfg = ServerConfig(db_url=db, bot_workers=0)
        manager = manager_cls(storage_cls(db), cfg)
        room, host, _token = manager.create(CreateRoom(name="Ana", players=4, decide_s=30))
        for name in ("Bia", "Caio", "Duda"):
            room.add_member(name)
        conn = conn_cls("en", 0)
        room.connect(conn, room.members[host.id])
        room.start(host.id)
        v = view(room.game, "Ana")
        choice = dict(v.choices[0])
        choice.pop("player")
        import json
        text = json.dumps({"type": "decide", "at": v.decision_id, "decision": choice,
                           "ref": "r1"})
        session = session_cls("127.0.0.1", Sockets(64, 48, 8), cfg, greeted=True)

        def file_of(frame: FrameType) -> str | None:
            path = Path(frame.f_code.co_filename).resolve()
            try:
                return str(path.relative_to(root))
            except ValueError:
                return None

        stack: list[str] = []
        frames: list[set[str]] = []  # for each frame on the stack: the files it called
        walk: list[str] = []  # the file control is in, at each change
        descents = climbs = trips = 0
        callbacks: list[str] = []
        back_into: collections.Counter[str] = collections.Counter()

        def moved(to: str) -> None:
            if walk and to in walk and walk[-1] != to:
                back_into[to] += 1
            walk.append(to)

        def tracer(frame: FrameType, event: str, _arg: Any) -> Any:
            nonlocal descents, climbs
            if event != "call":
                return None
            parent = stack[-1] if stack else None
            own = file_of(frame)
            if parent is None:
                here = own or "?"
            elif own is None or not parent.startswith(OWN):
                here = parent  # outside darkcity, or inside the engine: the caller's
            else:
                here = own
            if here != parent:
                descents += 1
                if here in stack:
                    callbacks.append(f"{parent} -> {here}")
                moved(here)
            stack.append(here)
            frames.append(set())

            def local(_frame: FrameType, ev: str, _a: Any) -> Any:
                nonlocal climbs, trips
                if ev == "return":
                    gone = stack.pop()
                    frames.pop()
                    if stack and stack[-1] != gone:
                        climbs += 1
                        moved(stack[-1])
                        if gone not in frames[-1]:  # a loop's calls: one trip
                            frames[-1].add(gone)
                            trips += 1
                return local

            return local

        sys.settrace(tracer)
        try:
            handle(room, conn, text, session)
        finally:
            sys.settrace(None)
        sent = [m for m in conn.out if m is not None]
        assert any("ack" in m for m in sent), "the decision was not acknowledged"
        files = sorted(set(walk))
        print(f"files crossed: {len(files)}")
        print(f"descents into another file: {descents}")
        print(f"climbs back up (returns into the calling file): {climbs}")
        print(f"  of which distinct (one per calling frame and file called: a loop's "
              f"calls to one file count once): {trips}")
        print(f"calls back up (into a file already on the stack): {len(callbacks)}"
              + (f" ({', '.join(callbacks)})" if callbacks else ""))
        print("came back into (times): " + ", ".join(
            f"{f} {n}" for f, n in back_into.most_common()))
        print("files: " + ", ".join(files))
        if args.files:
            print(" -> ".join(walk))


if __name__ == "__main__":
    main()
