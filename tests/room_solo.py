"""A solo game against bots through :class:`darkcity.room.local.LocalHost`: one person
(answering from their view's legal choices, at random) and bots in every other seat, to
the victory, with time moved only when nothing is left to do now.

Imports nothing but the room (``tests/test_room_local.py`` runs it as a script with
asyncio, the web framework, the database and sockets blocked, as a phone's worker has
none of them).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from darkcity.room import RoomConfig
from darkcity.room.local import LocalHost, LocalReader
from darkcity.room.ports import Reader

__all__ = ["Solo", "go_on", "play_solo"]


@dataclass
class Solo:
    host: LocalHost
    reader: LocalReader
    messages: list[dict[str, Any]] = field(default_factory=list)  # all the person got
    decided: int = 0  # the person's decisions sent
    errors: list[dict[str, Any]] = field(default_factory=list)
    last_view: dict[str, Any] | None = None
    beside_from: int = 0  # the first of messages sent after ``beside`` was opened


def _views(m: dict[str, Any]) -> list[dict[str, Any]]:
    out = [m] if m.get("type") == "state" else []
    state = m.get("state")
    if isinstance(state, dict) and state.get("type") == "state":
        out.append(state)
    return [x["view"] for x in out if isinstance(x.get("view"), dict)]


def play_solo(seats: int = 6, level: str = "heuristic", seed: int = 7,
              lang: str = "en", reader: LocalReader | None = None,
              beside: Reader | None = None, stop_after: int | None = None) -> Solo:
    """Play a whole game; ``reader``: the person's page (a new one by default);
    ``beside``: a second connection of the same person, opened after the page;
    ``stop_after``: stop once that many decisions are stored (:func:`go_on` goes on)."""
    config = RoomConfig(seats, "basic", (), "normal", 120.0, 0.5, lang, "random", 30.0, 0.8)
    host = LocalHost(config, code="SOLO", now=1000.0)
    ana, _token = host.add_member("Ana")
    page = reader if reader is not None else host.open(ana)
    if reader is not None:
        host.room.connect(reader, ana)
    solo = Solo(host, page)
    if beside is not None:
        solo.messages.extend(page.take())
        solo.beside_from = len(solo.messages)
        host.room.connect(beside, ana)
    for seat in range(1, seats):
        host.handle(page, {"type": "add_bot", "seat": seat, "level": level})
    host.handle(page, {"type": "start"})
    return go_on(solo, random.Random(seed), stop_after)


def go_on(solo: Solo, rng: random.Random, stop_after: int | None = None) -> Solo:
    """Play ``solo`` on, the person answering at random, to the end (or ``stop_after``
    decisions stored)."""
    host, page = solo.host, solo.reader
    answered = -1
    for _ in range(100_000):
        for m in page.take():
            json.dumps(m)  # plain JSON data, as a socket carries it
            solo.messages.append(m)
            if m["type"] == "error":
                solo.errors.append(m)
            for seen in _views(m):
                solo.last_view = seen
        room = host.room
        if room.game is not None and room.game.over and host.due() is None:
            return solo
        if stop_after is not None and room.seq >= stop_after:
            return solo
        v = solo.last_view
        if v is not None and v["choices"] and "Ana" in v["pending"] and \
                v["decision_id"] != answered and room.reveal_at is None:
            choice = dict(rng.choice(v["choices"]))
            choice.pop("player", None)
            answered = v["decision_id"]
            host.handle(page, {"type": "decide", "at": v["decision_id"], "decision": choice,
                               "ref": f"r{solo.decided}"})
            solo.decided += 1
            continue
        due = host.due()
        if due is None:
            raise AssertionError(f"stuck: nothing due, game over={room.game and room.game.over}")
        host.advance_to(due)
    raise AssertionError("the game did not end")


if __name__ == "__main__":
    import sys

    solo = play_solo()
    game = solo.host.room.game
    assert game is not None and game.over
    print(json.dumps({
        "kinds": sorted({m["type"] for m in solo.messages}),
        "acks": sum(1 for m in solo.messages if "ack" in m or m["type"] == "ack"),
        "decided": solo.decided, "errors": solo.errors,
        "stored": len(solo.host.store.decisions["SOLO"]), "log": len(game.log),
        "winners": list(game.winners), "status": solo.host.room.status,
        "last_winners": solo.last_view["winners"] if solo.last_view else None,
        "nights": game.night,
        "server": sorted(n for n in sys.modules if n.startswith("darkcity.server")),
    }))
