"""What a room holds: its settings (:class:`RoomConfig`), its people (:class:`Member`) and
every field of a room (:class:`RoomState`), declared together, grouped by the concern
that keeps it (``lobby.py``, ``driver.py``, ``clock.py``, ``broadcast.py``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from darkcity.bots import Bot
from darkcity.decisions import Phase
from darkcity.deck import Deck, parse_card, preset
from darkcity.game import Game
from darkcity.i18n import FieldError, Message, error_message
from darkcity.room.bots import canonical_level
from darkcity.room.ports import (
    NO_TIMERS,
    Reader,
    RoomStore,
    Scheduler,
    Thinker,
    Timer,
    Windows,
)

__all__ = ["BEATS", "Member", "RoomConfig", "RoomState", "deck_reason"]

BEATS: Final = 4  # "1", "2", "3", "now!"


@dataclass(slots=True)
class Member:
    """A person in the room (they hold a token); seated or watching."""

    id: int
    name: str
    token_hash: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "token_hash": self.token_hash,
                "seat": self.seat}


@dataclass(slots=True)
class RoomConfig:
    players: int
    deck: str  # a preset name, or "custom"
    cards: tuple[str, ...]  # the custom cast (card keys), empty for a preset
    pace: str
    decide_s: float
    beat_s: float
    lang: str
    timeout_level: str
    grace_s: float
    bot_delay_s: float

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "deck": self.deck, "cards": list(self.cards),
                "pace": self.pace, "decide_s": self.decide_s, "beat_s": self.beat_s,
                "lang": self.lang, "timeout_level": self.timeout_level,
                "grace_s": self.grace_s, "bot_delay_s": self.bot_delay_s}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RoomConfig:
        return cls(int(d["players"]), str(d["deck"]), tuple(d.get("cards", ())), str(d["pace"]),
                   float(d["decide_s"]), float(d["beat_s"]), str(d["lang"]),
                   # an old level's name (``heuristic``) read as the new one (``medium``)
                   canonical_level(str(d["timeout_level"])) or str(d["timeout_level"]),
                   float(d["grace_s"]), float(d["bot_delay_s"]))

    def make_deck(self) -> Deck:
        if self.deck == "custom":
            return Deck.of([parse_card(k) for k in self.cards], self.players, "custom")
        return preset(self.deck, self.players)


def deck_reason(e: Exception) -> Message:
    """Why a deck cannot be played, in plain words: the engine's reason without the
    document field it names (``cards[3]: ...``), which a player never typed."""
    return e.message if isinstance(e, FieldError) else error_message(e)


@dataclass(slots=True)
class RoomState:
    """Every field of a room. Plain synchronous state driven by one thread (the server's
    event loop): nothing awaits, so a room is never seen half-changed."""

    # -- what the room is, and what the server lends it (ports.py) ----------------------
    code: str
    config: RoomConfig
    storage: RoomStore  # the lobby and each decision stored (a decision before its ack)
    server: Windows  # the broadcasts' windows (the server's config; ports.RoomWindows)
    clock: Callable[[], float] = time.time  # the server's clock (epoch seconds)
    pool: Thinker | None = None  # bots think in worker processes (None: on the loop)
    scheduler: Scheduler = NO_TIMERS  # timers (NO_TIMERS: broadcasts at once, tick reveals)

    # -- the lobby (lobby.py) -----------------------------------------------------------
    status: str = "lobby"  # lobby, playing, over ("moved": another process runs it)
    members: dict[int, Member] = field(default_factory=dict)
    next_member: int = 1  # the next member's id
    host: int | None = None  # a member's id
    bots: dict[int, str] = field(default_factory=dict)  # seat -> level
    players: tuple[str, ...] = ()  # names in seat order, fixed at the start
    chat: list[dict[str, Any]] = field(default_factory=list)  # {name, text, at}
    said: dict[int, list[float]] = field(default_factory=dict)  # member -> recent lines
    next_code: str | None = None  # "play again": the room that follows this one

    # -- the game (driver.py) -----------------------------------------------------------
    seed: str | None = None
    game: Game | None = None
    seq: int = 0  # decisions stored
    history: list[dict[str, Any]] = field(default_factory=list)  # decisions stored
    shown_dp: int = -1  # the decision point readers have been shown
    _last_phase: Phase | None = None  # the phase of the point shown
    _last_night: int = 0  # its night
    _decider: str | None = None  # the player whose decision was stored last
    # member -> the nights of the decisions a bot made for them while away or out of
    # time with no page open (told once, in their next welcome: the page says what the
    # table did without them); read again from the decisions' sources after a restart,
    # from the member's ``away_told`` (the decisions stored when they were last told,
    # in a welcome or live, by ``played``) on
    played_away: dict[int, list[int]] = field(default_factory=dict)
    away_told: dict[int, int] = field(default_factory=dict)
    # player -> (decision point, seq) of their last change stored at that point: a new
    # change there replaces it (two rows per decision at most, however often it changes)
    changed: dict[str, tuple[int, int]] = field(default_factory=dict)
    # player -> the decision point where their decision could not be stored (a full
    # disk): no bot takes that turn until the store writes again (clock.py)
    owed: dict[str, int] = field(default_factory=dict)

    # -- the clock (clock.py) -----------------------------------------------------------
    deadline: float | None = None
    deadline_dp: int | None = None  # the decision point the deadline belongs to
    reveal_at: float | None = None  # the Mayor is counting until then
    bot_due: dict[str, float] = field(default_factory=dict)  # player -> when a bot plays
    away: dict[int, float] = field(default_factory=dict)  # member -> gone since
    thinking: dict[str, int] = field(default_factory=dict)  # player -> decision point
    robots: dict[tuple[str, str], Bot] = field(default_factory=dict)  # (player, level)
    stalled_until: float = 0.0  # after a failure, the clock leaves the room alone a while
    failure_logged: float = -math.inf

    # -- broadcasting (broadcast.py) ----------------------------------------------------
    conns: set[Reader] = field(default_factory=set)  # every open connection, seated or not
    notices: list[dict[str, Any]] = field(default_factory=list)  # the last 20
    # the state: due, changed for whom, and how soon
    _broadcast_due: bool = False
    _urgent: bool = False  # a decider waits for the state that carries its ack
    _full: bool = False  # every reader gets a whole view
    _changed: set[str] | None = None  # else only these players do (the others: progress)
    _point: bool = False  # the progress carries the new point's deadline
    _fresh: set[Reader] = field(default_factory=set)  # readers whose state is current
    # the reveal's states, built while the Mayor counts: reader -> (its player, the
    # state, what it held before: nights sent, last state)
    _reveal_ready: dict[Reader, tuple[str | None, dict[str, Any], int, Any]] = field(
        default_factory=dict)
    # who has decided (never what): at most one progress per progress_s
    _progress_due: bool = False
    _progress_point: bool = False
    _progress_last: float = -math.inf
    # the lobby: due, and who holds it as it is now
    _lobby_due: Timer | None = None
    _lobby_fresh: set[Reader] = field(default_factory=set)  # hold the lobby as it is now
    _lobby_body: dict[str, Any] | None = None  # lobby_public() as it is now, once built
