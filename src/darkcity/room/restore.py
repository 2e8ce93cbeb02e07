"""A room read back from what its store kept: the lobby, and the game replayed from its
decisions (the server after a restart; the phone's worker from IndexedDB).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from darkcity.decisions import decision_from_dict
from darkcity.game import Game
from darkcity.room import Member, Room
from darkcity.room.bots import canonical_level
from darkcity.settings import Settings

__all__ = ["restore"]

#: One stored decision: its place, its plain form, its source (player, bot, change...).
Stored = tuple[int, dict[str, Any], str]


def restore(room: Room, lobby: Mapping[str, Any], *, status: str, seed: str | None,
            decisions: Callable[[], Iterable[Stored]], deadline: float | None,
            deadline_dp: int | None, least_decide_s: float) -> None:
    """Fill a new ``room`` from its stored lobby and, once started, its decisions (read
    only then); a deadline that passed while nobody ran the room is moved on, everyone is
    away (the grace starts again), the bots' turns are scheduled."""
    for m in lobby.get("members", []):
        room.members[int(m["id"])] = Member(int(m["id"]), str(m["name"]),
                                            str(m["token_hash"]), m.get("seat"))
    # a level saved under its old name (``heuristic``) is read as the new one (``medium``)
    room.bots = {int(k): canonical_level(str(v)) or str(v)
                 for k, v in lobby.get("bots", {}).items()}
    room.host = lobby.get("host")
    room.players = tuple(lobby.get("players", ()))
    room.next_member = int(lobby.get("next_member", len(room.members) + 1))
    room.chat = [dict(x) for x in lobby.get("chat", ())]
    room.next_code = lobby.get("next")
    room.away_told = {int(k): int(v) for k, v in lobby.get("away_told", {}).items()}
    room.status = status
    room.seed = seed
    if status == "lobby" or seed is None:
        return
    deck = room.config.make_deck()
    game = Game(Settings(players=room.players, deck=deck), seed)
    stored_as: list[tuple[int, str]] = []  # each decision's seq and source
    changes: dict[str, tuple[int, int]] = {}  # player -> (point, seq) of a change
    for seq, doc, source in decisions():
        if source == "change":  # replaces its player's last decision
            player = doc.get("player")
            last = max(i for i, x in enumerate(room.history) if x.get("player") == player)
            del room.history[last]
            del stored_as[last]
            if isinstance(player, str) and isinstance(doc.get("at"), int):
                changes[player] = (doc["at"], seq)
        room.history.append(doc)
        stored_as.append((seq, source))
        room.seq = seq + 1  # (the next place: a replaced change leaves a gap)
    for doc, (seq, source) in zip(room.history, stored_as, strict=True):
        night = game.night
        game.do(decision_from_dict(doc))
        # (nothing a bot played for a member is forgotten: away past the grace,
        # or out of time with no page open; what a page was told live is
        # before its member's ``away_told``)
        if source in ("away", "timeout"):
            room.note_away(str(doc.get("player")), night, seq)
    room.game = game
    dp = game.decision_point()
    room.changed = {p: c for p, c in changes.items() if c[0] == dp.id}  # (still open)
    room.shown_dp = dp.id
    room._last_phase = dp.phase
    room._last_night = game.night
    now = room.clock()
    # After a restart the players get the grace period again to come back: a
    # deadline that passed while the room was not run is moved on.
    grace = now + max(room.config.grace_s, least_decide_s)
    if deadline_dp == dp.id and deadline is not None:
        room.deadline, room.deadline_dp = max(deadline, grace), dp.id
    elif not game.over:
        room.deadline, room.deadline_dp = max(now + room.config.decide_s, grace), dp.id
    if room.deadline is not None and room.deadline != deadline:
        room._save_point(deadline=(room.deadline, dp.id))
    for mid in room.members:  # nobody is connected after a restart
        room.away[mid] = now
    room._schedule_bots()
