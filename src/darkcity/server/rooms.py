"""Rooms: the lobby, the game, the Mayor's clock, and what each reader is sent.

A :class:`Room` is plain synchronous state driven by the event loop of the
server (one thread): the websocket handler and the clock call its methods,
and it hands messages to :class:`Conn` queues. Nothing here awaits, so a
room is never seen half-changed.

Every message about the game is built from :func:`darkcity.views.view` for
its reader (a seat's player, or ``None`` for a spectator); the lobby message
holds names, seats and flags only. Tokens and the seed never leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from darkcity.bots import Bot
from darkcity.decisions import (
    IllegalDecision,
    Phase,
    TakeDeath,
    decision_from_dict,
    decision_to_dict,
)
from darkcity.deck import Deck, DeckError, parse_card, preset
from darkcity.game import Game, restore
from darkcity.i18n import FieldError, Message, Translator, error_message, msg
from darkcity.narration import render
from darkcity.record import write_record
from darkcity.server.bots import LEVELS, bot_decision, new_bot
from darkcity.server.config import ServerConfig
from darkcity.server.conn import Conn
from darkcity.server.limits import BadName, clean_name, name_key
from darkcity.server.standing import standing
from darkcity.server.storage import Storage, Superseded
from darkcity.server.text import level_word
from darkcity.server.thinking import BotPool, Request
from darkcity.settings import Settings, bot_rng
from darkcity.views import View, view

__all__ = ["Member", "Refusal", "Room", "RoomConfig", "check_name"]

BEATS: Final = 4  # "1", "2", "3", "now!"
BOT_NAMES: Final = ("Ada", "Bento", "Clara", "Davi", "Eva", "Fausto", "Gaia", "Heitor",
                    "Iris", "Joca")
_COUNTED: Final = frozenset((Phase.GESTURE, Phase.WITHDRAWAL))
log = logging.getLogger("darkcity.server")
CHAT_KEEP: Final = 200  # chat lines stored with a room
CHAT_MAX: Final = 300  # characters in one line
CHAT_RATE: Final = (5, 10.0)  # at most 5 lines per 10 seconds and person


class Refusal(Exception):
    """A client request refused: ``code`` and a translatable message."""

    def __init__(self, code: str, message: Message) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_chat(text: str) -> str:
    """A chat line, cleaned: stripped, 1..300 characters, no control characters."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise Refusal("bad-chat", msg("Write something first."))
    if len(text) > CHAT_MAX:
        raise Refusal("bad-chat", msg("A chat line has at most {n} characters.", n=CHAT_MAX))
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise Refusal("bad-chat", msg("A chat line cannot hold control characters."))
    return text


def check_name(name: str) -> str:
    """A display name, cleaned (:func:`darkcity.server.limits.clean_name`: NFKC, 1..24
    characters, visible, no control or invisible characters)."""
    try:
        return clean_name(name)
    except BadName as e:
        raise Refusal("bad-name", e.message) from None


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
                   str(d["timeout_level"]), float(d["grace_s"]), float(d["bot_delay_s"]))

    def make_deck(self) -> Deck:
        if self.deck == "custom":
            return Deck.of([parse_card(k) for k in self.cards], self.players, "custom")
        return preset(self.deck, self.players)


@dataclass(slots=True)
class Room:
    code: str
    config: RoomConfig
    storage: Storage
    server: ServerConfig
    members: dict[int, Member] = field(default_factory=dict)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> level
    host: int | None = None
    status: str = "lobby"
    players: tuple[str, ...] = ()  # names in seat order, fixed at the start
    seed: str | None = None
    game: Game | None = None
    seq: int = 0  # decisions stored
    deadline: float | None = None
    deadline_dp: int | None = None
    reveal_at: float | None = None  # the Mayor is counting until then
    shown_dp: int = -1  # the decision point readers have been shown
    bot_due: dict[str, float] = field(default_factory=dict)
    away: dict[int, float] = field(default_factory=dict)  # member -> gone since
    # member -> the nights of the decisions a bot made for them while away or out of
    # time with no page open (told once, in their next welcome: the page says what the
    # table did without them); read again from the decisions' sources after a restart,
    # from the member's ``away_told`` (the decisions stored when they were last told,
    # in a welcome or live, by ``played``) on
    played_away: dict[int, list[int]] = field(default_factory=dict)
    away_told: dict[int, int] = field(default_factory=dict)
    conns: set[Conn] = field(default_factory=set)
    notices: list[dict[str, Any]] = field(default_factory=list)
    robots: dict[tuple[str, str], Bot] = field(default_factory=dict)
    next_member: int = 1
    chat: list[dict[str, Any]] = field(default_factory=list)  # {name, text, at}
    said: dict[int, list[float]] = field(default_factory=dict)  # member -> recent lines
    next_code: str | None = None  # "play again": the room that follows this one
    clock: Callable[[], float] = time.time
    pool: BotPool | None = None  # bots think in worker processes (None: on the loop)
    thinking: dict[str, int] = field(default_factory=dict)  # player -> decision point
    history: list[dict[str, Any]] = field(default_factory=list)  # decisions stored
    stalled_until: float = 0.0  # after a failure, the clock leaves the room alone a while
    failure_logged: float = -math.inf

    # -- the lobby -------------------------------------------------------------

    def lobby_json(self) -> dict[str, Any]:
        """What the database keeps of the lobby (token hashes included: never sent)."""
        return {"members": [m.to_json() for m in self.members.values()],
                "bots": {str(k): v for k, v in self.bots.items()}, "host": self.host,
                "players": list(self.players), "next_member": self.next_member,
                "chat": self.chat, "next": self.next_code,
                "away_told": {str(k): v for k, v in self.away_told.items()}}

    def _save_lobby(self) -> None:
        self.storage.save_room(self.code, lobby=self.lobby_json())

    def seat_of(self, member_id: int | None) -> int | None:
        m = self.members.get(member_id) if member_id is not None else None
        return m.seat if m else None

    def seated(self) -> dict[int, Member]:
        return {m.seat: m for m in self.members.values() if m.seat is not None}

    def add_member(self, name: str) -> tuple[Member, str]:
        """A new person with a fresh token (returned once, stored hashed)."""
        if self.status != "lobby":
            raise Refusal("started", msg("The game has started; you can watch it."))
        name = check_name(name)
        taken = {name_key(m.name) for m in self.members.values()}
        if name_key(name) in taken or name_key(name) in {
                name_key(n) for n in self.bot_names().values()}:
            raise Refusal("name-taken", msg("Someone in this room is already called {name}.",
                                            name=name))
        if len(self.members) >= 32:
            raise Refusal("room-full", msg("This room is full."))
        token = secrets.token_urlsafe(24)
        m = Member(self.next_member, name, _hash(token))
        self.next_member += 1
        self.members[m.id] = m
        if self.host is None:
            self.host = m.id
        free = self.free_seats()
        if free:
            m.seat = free[0]
        self._save_lobby()
        self.broadcast_lobby()
        return m, token

    def member_by_token(self, token: str) -> Member | None:
        h = _hash(token)
        for m in self.members.values():
            if hmac.compare_digest(m.token_hash, h):
                return m
        return None

    def free_seats(self) -> list[int]:
        taken = set(self.seated()) | set(self.bots)
        return [i for i in range(self.config.players) if i not in taken]

    def bot_names(self) -> dict[int, str]:
        """seat -> the bot's name (lobby); after the start, the fixed names."""
        if self.players:
            return {s: self.players[s] for s in self.bots}
        humans = {name_key(m.name) for m in self.members.values()}
        names = [n for n in BOT_NAMES if name_key(n) not in humans]
        return {s: names[i % len(names)] for i, s in enumerate(sorted(self.bots))}

    def _require_host(self, member: int | None) -> None:
        if member is None or member != self.host:
            raise Refusal("not-host", msg("Only the host can do that."))

    def _require_not_over(self) -> None:
        """The table is fixed once the game is over (the record says who played)."""
        if self.status == "over":
            raise Refusal("game-over", msg("The game is over: the table can no longer "
                                           "change."))

    def _require_lobby(self) -> None:
        if self.status != "lobby":
            raise Refusal("started", msg("The game has already started."))

    def sit(self, member: int | None, seat: int) -> None:
        self._require_lobby()
        m = self.members.get(member) if member is not None else None
        if m is None:
            raise Refusal("not-member", msg("Join the room first."))
        if seat >= self.config.players or seat not in self.free_seats():
            raise Refusal("seat-taken", msg("That seat is not free."))
        m.seat = seat
        self._save_lobby()
        self.broadcast_lobby()

    def stand(self, member: int | None) -> None:
        self._require_lobby()
        m = self.members.get(member) if member is not None else None
        if m is None:
            raise Refusal("not-member", msg("Join the room first."))
        m.seat = None
        self._save_lobby()
        self.broadcast_lobby()

    def add_bot(self, member: int | None, seat: int, level: str) -> None:
        self._require_host(member)
        self._require_lobby()
        if level not in LEVELS:
            raise Refusal("bad-level", msg("Unknown bot level {level!r}.", level=level))
        if seat >= self.config.players or seat not in self.free_seats():
            raise Refusal("seat-taken", msg("That seat is not free."))
        self.bots[seat] = level
        self._save_lobby()
        self.broadcast_lobby()

    def remove(self, member: int | None, seat: int) -> None:
        """The host removes whoever sits at ``seat``: a bot leaves; a person is sent
        away (their token stops working). In a game, a bot of the room's timeout level
        takes the seat over."""
        self._require_host(member)
        self._require_not_over()
        if seat in self.bots and self.status == "lobby":
            del self.bots[seat]
        else:
            target = self.seated().get(seat)
            if target is None:
                raise Refusal("empty-seat", msg("Nobody sits there."))
            if target.id == self.host:
                raise Refusal("not-yourself", msg("Hand the host role over first."))
            del self.members[target.id]
            self.away.pop(target.id, None)
            # in a game, said as what happened: the seat goes on, played by a bot
            said = (msg("The host removed you from the table.") if self.status == "lobby" else
                    msg("The host gave your seat to a bot for the rest of the game: your "
                        "link no longer works. You can still watch from this page."))
            for c in list(self.conns):
                if c.member == target.id:
                    c.error("removed", said)
                    c.member = None
            if self.status != "lobby":
                self.bots[seat] = self.config.timeout_level
                self.notice(msg("{player} left the table; a bot plays for them.",
                                player=self.players[seat]))
                self._schedule_bots()
        self._save_lobby()
        self.broadcast_lobby()

    def say(self, member: int | None, text: str) -> None:
        """A line in the table chat: the people seated only; stored with the room."""
        m = self.members.get(member) if member is not None else None
        if m is None or m.seat is None:
            raise Refusal("not-at-table", msg("Only the people at the table can write in "
                                              "the chat."))
        text = check_chat(text)
        now = self.clock()
        lines, per = CHAT_RATE
        recent = [x for x in self.said.get(m.id, []) if now - x < per]
        if len(recent) >= lines:
            raise Refusal("chat-rate", msg("Too many chat lines: wait a few seconds."))
        self.said[m.id] = [*recent, now]
        line = {"name": m.name, "text": text, "at": now}
        self.chat = [*self.chat[-(CHAT_KEEP - 1):], line]
        self._save_lobby()
        for c in self.conns:
            c.send({"type": "chat", "line": line})

    def make_host(self, member: int | None, seat: int) -> None:
        self._require_host(member)
        self._require_not_over()
        target = self.seated().get(seat)
        if target is None:
            raise Refusal("empty-seat", msg("Nobody sits there."))
        self.host = target.id
        self._save_lobby()
        self.broadcast_lobby()

    def start(self, member: int | None) -> None:
        self._require_host(member)
        self._require_lobby()
        if self.free_seats():
            raise Refusal("seats-free", msg("Fill every seat (with people or bots) first."))
        seated = self.seated()
        bots = self.bot_names()
        players = tuple(seated[s].name if s in seated else bots[s]
                        for s in range(self.config.players))
        try:
            deck = self.config.make_deck()
            game = Game(Settings(players=players, deck=deck), 0)
        except DeckError as e:
            raise Refusal("bad-deck", msg("The deck cannot be played: {reason}",
                                          reason=_deck_reason(e))) from None
        self.seed = secrets.token_hex(16)
        self.players = players
        self.game = Game(game.settings, self.seed)
        self.status = "playing"
        self.storage.save_room(self.code, status="playing", lobby=self.lobby_json(),
                               seed=self.seed)
        self._advance()
        self.broadcast_lobby()  # it rides on the first states (due before it)

    # -- the game --------------------------------------------------------------

    def player_of(self, member: int | None) -> str | None:
        seat = self.seat_of(member)
        if seat is None or not self.players or seat in self.bots:
            return None
        return self.players[seat]

    def decide(self, member: int | None, at: int, doc: dict[str, Any],
               ack: Callable[[int], None] | None = None, change: bool = False) -> None:
        """A player's decision: checked, stored, applied (raises :class:`Refusal`).

        ``change``: it replaces the player's sealed gesture or withdrawal at this
        decision point, which is still open (nobody has seen it; the count has not
        begun). It is stored as a decision of source ``change``, and a replay drops the
        one it replaces."""
        game = self.game
        if game is None or self.status != "playing":
            raise Refusal("not-playing", msg("No game is being played in this room."))
        player = self.player_of(member)
        if player is None:
            raise Refusal("not-a-player", msg("Spectators cannot decide."))
        if self.reveal_at is not None:
            raise Refusal("counting", msg("Wait: the Mayor is counting."))
        if self.deadline is not None and self.clock() > self.deadline:
            raise Refusal("late", msg("Too late: time is up for this decision."))
        try:
            d = decision_from_dict({**doc, "player": player, "at": at})
        except (ValueError, KeyError, TypeError):
            raise Refusal("malformed", msg("That decision is not well formed.")) from None
        if change:
            self._change(player, d, ack)
            return
        try:
            game.verify(d)
        except IllegalDecision as e:
            raise Refusal(e.code, _REFUSALS.get(e.code, _ILLEGAL)) from None
        try:
            self._commit(d, "player", ack)
        except Superseded:  # the room ran elsewhere meanwhile: it is read again
            raise Refusal("stale", _REFUSALS["stale"]) from None

    def _change(self, player: str, d: Any, ack: Callable[[int], None] | None) -> None:
        """A sealed decision made again: the game without the first one, then this one."""
        game = self.game
        assert game is not None
        dp = game.decision_point()
        if dp.phase not in _COUNTED or player not in dp.required or player in dp.pending:
            raise Refusal("not-sealed", msg("Only a sealed gesture or withdrawal can be "
                                            "changed, before the count."))
        first = max(i for i, x in enumerate(game.log) if x.player == player)
        rebuilt = restore(game.settings, game.seed, game.log[:first] + game.log[first + 1:])
        try:
            rebuilt.verify(d)
        except IllegalDecision as e:
            raise Refusal(e.code, _REFUSALS.get(e.code, _ILLEGAL)) from None
        history = list(self.history)
        self.game = rebuilt
        del self.history[first]
        try:
            self._commit(d, "change", ack)
        except Exception as e:  # not stored: the first decision stands
            self.game, self.history = game, history
            if isinstance(e, Superseded):  # the room ran elsewhere meanwhile
                raise Refusal("stale", _REFUSALS["stale"]) from None
            raise

    def _commit(self, d: Any, source: str, ack: Callable[[int], None] | None = None) -> None:
        game = self.game
        assert game is not None
        doc = decision_to_dict(d)
        decided, night = len(game.log), game.night  # (0: before the first night)
        game.apply(d)  # in memory only, until stored: nobody is shown anything before
        try:  # the decision and the room's next deadline (or its end): one transaction
            self.storage.append_decision(self.code, self.seq, doc, source,
                                         **self._point_row(self.clock()))
        except Exception:
            self.game = restore(game.settings, game.seed, game.log[:decided])
            raise
        self.history.append(doc)
        self.seq += 1
        if source == "away":
            self.note_away(d.player, night, self.seq - 1)
        elif source == "timeout":
            self._timed_out(d.player, night)
        if ack is not None:  # stored first, then acknowledged with what is shown next
            ack(self.seq)
            self._urgent = True
        self.bot_due.pop(d.player, None)
        self._decider = d.player
        self._advance(stored=True)

    def note_away(self, player: str, night: int, seq: int) -> None:
        """The decision ``seq``, made by a bot on ``night`` for ``player``'s member while
        away, to tell them when they are back (unless told already: ``away_told``)."""
        if player not in self.players:
            return
        m = self.seated().get(self.players.index(player))
        if m is not None and seq >= self.away_told.get(m.id, 0):
            self.played_away.setdefault(m.id, []).append(night)

    def _timed_out(self, player: str, night: int) -> None:
        """Time was up for ``player``, and a bot decided: their member's pages are told
        (``played {night}``; a page whose tab was hidden says so when shown again, as
        after being away), or, with none open, their next welcome is."""
        if player not in self.players:
            return
        m = self.seated().get(self.players.index(player))
        if m is None:
            return
        mine = [c for c in self.conns if c.member == m.id]
        if not mine:  # (read again from the decision's source after a restart)
            self.note_away(player, night, self.seq - 1)
            return
        for c in mine:
            c.send({"type": "played", "night": night, "server_time": self.clock()})
        # told: a restart does not tell it again in their welcome
        self.away_told[m.id] = self.seq
        self._save_lobby()

    def _point_deadline(self, now: float) -> float | None:
        """The deadline of the decision point the game has just reached (``None``: the
        game is over); before :meth:`_advance` has moved the room on to it."""
        game = self.game
        assert game is not None
        if game.over:
            return None
        counted = self.shown_dp >= 0 and self._last_phase in _COUNTED
        start = now + BEATS * self.config.beat_s if counted else now
        extra = 0.0
        if game.nights and self._fresh_night():
            extra = len(game.nights[-1].result.events) * self.config.beat_s
        return start + self.config.decide_s + extra

    def _point_row(self, now: float) -> dict[str, Any]:
        """What the room's row gets with a decision: a new point's deadline, or the end."""
        game = self.game
        assert game is not None
        dp = game.decision_point()
        if dp.id == self.shown_dp:
            return {}
        if game.over:
            return {"status": "over", "deadline": (None, None)}
        return {"deadline": (self._point_deadline(now), dp.id)}

    def _advance(self, stored: bool = False) -> None:
        """After any change of the game: reveal, deadlines, bots, what readers see
        (``stored``: the room's row was written with the decision)."""
        game = self.game
        assert game is not None
        dp = game.decision_point()
        now = self.clock()
        if dp.id == self.shown_dp:  # someone decided; the point stays open
            self.broadcast_state(only=self._decider)
            return
        deadline = self._point_deadline(now)
        previous = self.shown_dp
        self.shown_dp = dp.id
        counted = previous >= 0 and self._last_phase in _COUNTED
        # One pick of the draft to the next: only the picker and the next chooser see
        # more than who decides now (Death taken lies face up: everybody's view changes).
        quiet = (previous >= 0 and self._last_phase is Phase.DRAFT and dp.phase is Phase.DRAFT
                 and game.night == self._last_night and bool(game.log)
                 and not isinstance(game.log[-1], TakeDeath))
        self._last_phase = dp.phase
        self._last_night = game.night
        start = now
        if counted:  # "1, 2, 3, now!" at the room's steady beat, then the reveal
            beat = self.config.beat_s
            self.reveal_at = now + BEATS * beat
            start = self.reveal_at
            self._schedule_reveal(self.reveal_at)
            count = {"type": "count", "start": now, "beat": beat, "beats": BEATS,
                     "server_time": now}
            for c in self.conns:
                c.send(self._carry_lobby(c, count))
        if game.over:
            self.status = "over"
            self._lobby_body = None  # (the lobby says so)
            self.deadline = None
            if not stored:
                self.storage.save_room(self.code, status="over", deadline=(None, None))
        else:
            self.deadline = deadline
            self.deadline_dp = dp.id
            if not stored:
                self.storage.save_room(self.code, deadline=(self.deadline, dp.id))
        self._schedule_bots(start)
        if self.reveal_at is None:
            if quiet and self._decider is not None:
                self.broadcast_state(only=self._decider, also=dp.pending, point=True)
            else:
                self.broadcast_state()

    _broadcast_due: bool = False
    _urgent: bool = False  # a decider waits for the state that carries its ack
    _full: bool = False
    _changed: set[str] | None = None
    _decider: str | None = None
    _point: bool = False

    def broadcast_state(self, only: str | None = None, also: tuple[str, ...] = (),
                        point: bool = False) -> None:
        """Send every reader its view, soon: acknowledgements go out first, and several
        changes within ``coalesce_s`` make one broadcast.

        ``only``: just that player decided (and the players in ``also`` are asked
        next); the others' views changed only in who decides: they get a
        ``progress`` message from the public view (with the new decision point and
        its deadline when ``point``), the others their whole view.
        """
        if only is None:
            self._full = True
        else:
            if self._changed is None:
                self._changed = set()
            self._changed.add(only)
            self._changed.update(also)
            self._point = self._point or point
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving a room directly)
            self._broadcast_now()
            return
        if not self._broadcast_due:
            self._broadcast_due = True
            # a decider waits for its ack (which rides on its state): at once; else
            # changes within the window make one broadcast
            loop.call_later(0.0 if self._urgent else self.server.coalesce_s,
                            self._broadcast_now)

    def _broadcast_now(self) -> None:
        full, changed, point = self._full, self._changed or set(), self._point
        self._broadcast_due, self._full, self._changed, self._point = False, False, None, False
        self._urgent = False
        game = self.game
        if game is None or self.reveal_at is not None or not (full or changed):
            self._flush_acks()
            return
        self._fresh = set()  # readers whose state is built after this change
        for c in self.conns:
            if full or self.player_of(c.member) in changed:
                self.send_state(c)
                self._fresh.add(c)
        self._flush_acks()
        if len(self._fresh) < len(self.conns):
            self._progress_soon(point)

    def _flush_acks(self) -> None:
        """Acknowledgements that no state or count carried go out on their own."""
        for c in self.conns:
            if c.acks:
                c.flush_acks()

    _fresh: set[Conn] = field(default_factory=set)  # readers whose state is current
    _progress_due: bool = False
    _progress_point: bool = False
    _progress_last: float = -math.inf

    def _progress_soon(self, point: bool) -> None:
        """The others learn who has decided (never what) in a ``progress`` message: at
        most one per ``progress_s`` per room, carrying every change since the last.

        At a point where several players decide at once (setup, gesture, withdrawal)
        the news waits ``sealed_progress_s`` from the first change it carries, so one
        broadcast tells several decisions; the stage's last decision is told by the
        ``count`` (or the next state) instead, and a progress still due is dropped."""
        self._progress_point = self._progress_point or point
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving a room directly): at once
            self._progress_now()
            return
        if not self._progress_due:
            self._progress_due = True
            game = self.game
            if game is not None and len(game.decision_point().required) > 1:
                delay = self.server.sealed_progress_s
            else:
                delay = max(0.0, self._progress_last + self.server.progress_s - loop.time())
            loop.call_later(delay, self._progress_now)

    def _progress_now(self) -> None:
        point, self._progress_point, self._progress_due = self._progress_point, False, False
        with contextlib.suppress(RuntimeError):
            self._progress_last = asyncio.get_running_loop().time()
        game = self.game
        if game is None or self.reveal_at is not None:
            return
        readers = [c for c in self.conns if c not in self._fresh]
        if not readers:
            return
        pv = view(game, None, since=len(game.nights) + 1)  # the spectator's view
        progress: dict[str, Any] = {"type": "progress", "decision_id": pv.decision_id,
                                    "required": pv.required, "pending": pv.pending,
                                    "server_time": self.clock()}
        if point:
            progress["deadline"] = self.deadline
        for c in readers:
            c.send(self._carry_lobby(c, progress))

    _last_phase: Phase | None = None
    _last_night: int = 0

    def _fresh_night(self) -> bool:
        game = self.game
        return game is not None and game.phase is Phase.DRAFT and not game.cards

    def _schedule_bots(self, start: float | None = None) -> None:
        game = self.game
        if game is None or game.over:
            return
        at = (start or self.clock()) + self.config.bot_delay_s
        seats = {p: i for i, p in enumerate(self.players)}
        for p in game.pending:
            if seats[p] in self.bots:
                self.bot_due.setdefault(p, at)

    def _schedule_reveal(self, at: float) -> None:
        """The reveal fires at its instant, on a timer of its own (not the next tick)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: a test drives the clock, and tick() reveals
            return
        loop.call_later(max(0.0, at - self.clock()), self._reveal_due, at)

    def _reveal_due(self, at: float) -> None:
        if self.reveal_at != at or self.clock() < at - 0.005:
            return  # revealed already, or a clock of its own (tests): the tick reveals
        self.reveal_at = min(at, self.clock())
        self.tick()

    def tick(self) -> None:
        """The Mayor's clock: end counts, let bots act, enforce deadlines and the grace."""
        game = self.game
        if game is None:
            return
        now = self.clock()
        if self.reveal_at is not None:
            if now < self.reveal_at:
                return
            self.reveal_at = None
            self.broadcast_state()
            self._broadcast_now()  # the reveal: at once, to everybody
        if self.status != "playing" or now < self.stalled_until:
            return
        if not self._due(now):  # most ticks of most rooms: nothing can act yet
            return
        for _round in range(64):  # bounded: a game of bots moves a few steps per tick
            if game.over or self.reveal_at is not None:
                return
            acted = False
            seats = {p: i for i, p in enumerate(self.players)}
            seated = self.seated()
            for p in game.pending:
                if p in self.thinking:  # a worker is deciding for them
                    continue
                seat = seats[p]
                due = self.bot_due.get(p)
                if seat in self.bots and due is not None and now >= due:
                    acted = self._bot(p, self.bots[seat], "bot")
                    if acted:
                        break
                    continue
                m = seated.get(seat)
                if m is not None and m.id in self.away and \
                        now - self.away[m.id] >= self.config.grace_s:
                    acted = self._bot(p, self.config.timeout_level, "away", msg(
                        "{player} is away; a bot decided for them.", player=p))
                    if acted:
                        break
            if acted:
                continue
            late = tuple(p for p in game.pending if p not in self.thinking)
            if self.deadline is not None and now >= self.deadline and \
                    self.deadline_dp == game.decision_point().id and late:
                self.notice(msg("Time is up for {players}; a bot of level {level} decided.",
                                players=", ".join(late),
                                level=level_word(self.config.timeout_level)))
                for p in late:
                    if game.decision_point().id != self.deadline_dp:
                        break
                    acted = self._bot(p, self.config.timeout_level, "timeout") or acted
                if acted:
                    continue
            return

    def _due(self, now: float) -> bool:
        """Whether the clock's loop may act now: a bot due, someone away past the grace,
        the deadline passed (more than the loop acts on, never less)."""
        if self.deadline is not None and now >= self.deadline:
            return True
        if any(now >= t for t in self.bot_due.values()):
            return True
        grace = self.config.grace_s
        return any(now - t >= grace for t in self.away.values())

    def _bot(self, player: str, level: str, source: str,
             notice: Message | None = None) -> bool:
        """A bot of ``level`` decides for ``player``: at once on the loop (True: the
        decision is applied), or in the room's worker pool (False: it lands later)."""
        game = self.game
        assert game is not None
        if self.pool is not None:
            self._think(player, level, source, notice)
            return False
        bot = self.robots.get((player, level))
        if bot is None:
            bot = self.robots[(player, level)] = new_bot(
                level, bot_rng(self.seed or "", f"{player}:{level}:{self.seq}"))
        if notice is not None:
            self.notice(notice)
        self._commit(bot_decision(bot, game, player), source)
        return True

    def _think(self, player: str, level: str, source: str, notice: Message | None) -> None:
        """Ask the worker pool; the answer is applied only if the game is still where it
        was asked (``verify``), else dropped and asked again at the next tick."""
        game, pool = self.game, self.pool
        assert game is not None and pool is not None
        dp = game.decision_point().id
        self.thinking[player] = dp
        req = Request(self.code, self.seed or "", self.players, self.config.deck,
                      self.config.cards, tuple(self.history), player, level)

        def landed(doc: dict[str, Any] | None) -> None:
            if self.thinking.get(player) != dp:
                return
            del self.thinking[player]
            g = self.game
            if doc is None:  # the worker failed (logged): not again for a second
                self.bot_due[player] = self.clock() + 1.0
                return
            if g is None or g.over or self.status != "playing" or self.reveal_at is not None:
                return
            try:
                d = decision_from_dict(doc)
                g.verify(d)
            except (IllegalDecision, ValueError, KeyError, TypeError):
                return  # stale: the table moved on; the clock asks again
            if notice is not None:
                self.notice(notice)
            try:
                self._commit(d, source)
            except Exception:  # like a failed tick: this room only, logged, paused 1 s
                now = self.clock()
                self.stalled_until = now + 1.0
                if now - self.failure_logged >= 60:
                    self.failure_logged = now
                    log.exception("room %s: a bot's decision could not be applied",
                                  self.code)

        pool.submit(req, landed)

    def notice(self, message: Message) -> None:
        """A public line for the whole table (timeouts, bots taking over)."""
        now = self.clock()
        self.notices = [*self.notices[-19:], {"message": message, "at": now}]
        for c in self.conns:
            c.send({"type": "notice", "message": c.t.render(message), **message.to_json(),
                    "server_time": now})

    # -- connections -------------------------------------------------------------

    def connect(self, conn: Conn, member: Member | None) -> None:
        conn.member = member.id if member else None
        self.conns.add(conn)
        if member is not None:
            self.away.pop(member.id, None)
        conn.nights_sent = 0
        # one message: who you are, the table as it is now (you included), the chat and,
        # in a game, your view of it (the ``state`` a connection's first message holds)
        welcome = {**self.welcome(conn), "lobby": self.lobby_public(),
                   "lines": self.chat[-50:]}
        told = member is not None and member.id in self.played_away
        if member is not None and told:
            welcome["played_away"] = self.played_away.pop(member.id)
            self.away_told[member.id] = self.seq
        state = self.state_message(conn)
        if state is None:
            state = self._counting_welcome(conn, welcome)
        if state is not None:
            welcome["state"] = state
        conn.send(welcome)
        if told:  # told once, a restart included
            self._save_lobby()
        self.broadcast_lobby(held=conn, presence=True)  # the others soon

    def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        mid = conn.member
        if mid is not None and mid in self.members and not any(
                c.member == mid for c in self.conns):
            self.away[mid] = self.clock()
        self.broadcast_lobby(presence=True)

    def welcome(self, conn: Conn) -> dict[str, Any]:
        m = self.members.get(conn.member) if conn.member is not None else None
        return {"type": "welcome", "room": self.code, "member": m.id if m else None,
                "name": m.name if m else None, "server_time": self.clock()}

    def lobby_public(self) -> dict[str, Any]:
        """Names, seats and flags: what anybody in the room may see (no tokens)."""
        online = {c.member for c in self.conns if c.member is not None}
        seated = self.seated()
        bots = self.bot_names()
        seats = []
        for s in range(self.config.players):
            m = seated.get(s)
            if s in self.bots:
                seats.append({"seat": s, "kind": "bot", "name": bots[s], "level": self.bots[s],
                              "member": None, "online": True, "host": False})
            elif m is not None:
                seats.append({"seat": s, "kind": "human", "name": m.name, "level": None,
                              "member": m.id, "online": m.id in online,
                              "host": m.id == self.host})
            else:
                seats.append({"seat": s, "kind": "empty", "name": None, "level": None,
                              "member": None, "online": False, "host": False})
        c = self.config
        watchers = [m.name for m in self.members.values() if m.seat is None]
        return {"code": self.code, "status": self.status, "seats": seats,
                "host": self.host, "watchers": watchers, "next": self.next_code,
                "spectators": sum(1 for x in self.conns if x.member is None),
                "config": {"players": c.players, "deck": c.deck, "cards": list(c.cards),
                           "pace": c.pace, "decide_s": c.decide_s, "beat_s": c.beat_s,
                           "lang": c.lang, "timeout_level": c.timeout_level,
                           "grace_s": c.grace_s, "roles": self._deck_roles()}}

    def _deck_roles(self) -> list[str]:
        """The roles of this room's deck (its journal sheet): the help panel's cards."""
        try:
            return [r.key for r in self.config.make_deck().journal_roles]
        except (DeckError, ValueError):
            return []

    _lobby_due: asyncio.TimerHandle | None = None
    _lobby_fresh: set[Conn] = field(default_factory=set)  # hold the lobby as it is now
    _lobby_body: dict[str, Any] | None = None  # lobby_public() as it is now, once built

    def _lobby_now_body(self) -> dict[str, Any]:
        if self._lobby_body is None:
            self._lobby_body = self.lobby_public()
        return self._lobby_body

    def _lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "lobby": self._lobby_now_body(), "server_time": self.clock()}

    def _carry_lobby(self, conn: Conn, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` (a state, progress or count), with the lobby riding on it when a
        lobby broadcast is due and ``conn`` does not hold the lobby as it is now: the
        reader then holds it, and the broadcast leaves it out (one message, not two)."""
        if self._lobby_due is None or conn in self._lobby_fresh:
            return message
        self._lobby_fresh.add(conn)
        return {**message, "lobby": self._lobby_now_body()}

    def broadcast_lobby(self, held: Conn | None = None, presence: bool = False) -> None:
        """Everybody's lobby, soon: changes within ``coalesce_s`` make one broadcast;
        a change of who is connected only (``presence``: a table's six hellos, everyone
        coming back after a restart) waits up to ``presence_s``, to share one.
        ``held``: a reader that holds the lobby as it is now, from its welcome. Until
        the broadcast leaves, a state, progress or count a reader gets carries it
        instead (:meth:`_carry_lobby`)."""
        self._lobby_fresh = {held} if held is not None else set()
        self._lobby_body = None
        if not self.conns:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving a room directly): at once
            self._lobby_now()
            return
        when = loop.time() + (self.server.presence_s if presence else self.server.coalesce_s)
        due = self._lobby_due
        if due is None or due.when() > when:  # a change of the table is not held back
            if due is not None:
                due.cancel()
            self._lobby_due = loop.call_at(when, self._lobby_now)

    def _lobby_now(self) -> None:
        if self._broadcast_due:  # the states about to leave carry it: after them
            self._lobby_due = asyncio.get_running_loop().call_later(self.server.coalesce_s,
                                                                    self._lobby_now)
            return
        self._lobby_due = None
        readers = [c for c in self.conns if c not in self._lobby_fresh]
        self._lobby_fresh = set()
        if readers:
            body = self._lobby_message()
            for c in readers:
                c.send(body)

    def send_state(self, conn: Conn) -> None:
        """The reader's view of the game (while the Mayor counts, the old view holds);
        a lobby due soon rides on it."""
        state = self.state_message(conn)
        if state is not None:
            conn.send(self._carry_lobby(conn, state))

    def state_message(self, conn: Conn) -> dict[str, Any] | None:
        """The ``state`` message of the reader's view (``None``: no game, or the Mayor is
        counting); the nights in it are counted as sent."""
        game = self.game
        if game is None or self.reveal_at is not None:
            return None
        return self._state_of(conn, game)

    def _counting_welcome(self, conn: Conn, welcome: dict[str, Any]) -> dict[str, Any] | None:
        """A reader who arrives while the Mayor counts (a reload during "1, 2, 3, now!")
        gets the table as it was before the count (the game without its last decision,
        which closed the sealed phase: nothing is revealed before "now!") and the beats
        left, in ``welcome``'s ``count``; the reveal then comes to them as to everybody.
        The last decider is told their own decision (``chose``). It saw 'Connecting...'
        until the reveal (up to four beats)."""
        game = self.game
        if game is None or self.reveal_at is None or not game.log:
            return None
        last = game.log[-1]
        before = restore(game.settings, game.seed, game.log[:-1])
        beat = self.config.beat_s
        welcome["count"] = {"type": "count", "start": self.reveal_at - BEATS * beat,
                            "beat": beat, "beats": BEATS, "server_time": self.clock()}
        if self.player_of(conn.member) == last.player:
            welcome["chose"] = decision_to_dict(last)
        return self._state_of(conn, before)

    def _state_of(self, conn: Conn, game: Game) -> dict[str, Any]:
        player = self.player_of(conn.member)
        seat = self.seat_of(conn.member)
        if player is None and seat is not None and self.players:
            player = None  # a seat now played by a bot: its former owner watches
        since = conn.nights_sent + 1
        v = _localize(view(game, player, since=since), game, conn.t)
        conn.nights_sent = len(game.nights)
        return {"type": "state", "view": v, "deadline": self.deadline,
                "server_time": self.clock(), "counting": self.reveal_at,
                "seq": self.seq, "standing": standing(v, conn.t)}

    def record(self) -> dict[str, Any]:
        """The darkcity-game/1 record (the referee's archive): only once the game is over."""
        if self.game is None or not self.game.over:
            raise Refusal("not-over", msg("The record is available when the game is over."))
        return write_record(self.game)


def _localize(v: View, game: Game, t: Translator) -> View:
    """The view with the narration lines it holds re-rendered in the reader's language."""
    if t.lang == "en":
        return v
    history = tuple(
        replace(nv, events=tuple(
            replace(ev, text=render(e, rec.night, t))
            for ev, e in zip(nv.events, rec.result.events, strict=True)))
        for nv in v.history for rec in (game.nights[nv.number - 1],))
    narration = v.narration
    if narration and game.early is not None:
        early = game.early
        narration = tuple(replace(ev, text=render(e, early.night, t))
                          for ev, e in zip(narration, early.events, strict=True))
    return replace(v, history=history, narration=narration)


def _deck_reason(e: Exception) -> Message:
    """Why a deck cannot be played, in plain words: the engine's reason without the
    document field it names (``cards[3]: ...``), which a player never typed."""
    return e.message if isinstance(e, FieldError) else error_message(e)


_ILLEGAL: Final = msg("That decision is not allowed now.")
_REFUSALS: Final[dict[str, Message]] = {
    "stale": msg("Too late: the table has moved on since you chose. Choose again."),
    "already-decided": msg("You have already decided."),
    "wrong-player": msg("It is not your turn to decide."),
    "wrong-phase": msg("That decision belongs to another phase."),
    "game-over": msg("The game is over."),
    "malformed": msg("That decision is not well formed."),
    "illegal": _ILLEGAL,
}
