"""The room's lobby: who is in the room (members and their tokens), who sits where (people
and bots), who hosts, the chat, and the start of the game.

:class:`Lobby` is the first of the room's concerns over :class:`~darkcity.room.
state.RoomState`; what it needs of the others (broadcasting the lobby, a notice, the
game's first step, the bots' turn) it calls on the assembled :class:`~darkcity.room.
Room`.
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from darkcity.deck import DeckError
from darkcity.game import Game
from darkcity.i18n import Message, msg
from darkcity.room.bots import canonical_level, seat_style
from darkcity.room.common import Refusal, token_hash
from darkcity.room.names import BadName, clean_name, name_key
from darkcity.room.ports import CannotSave, Reader
from darkcity.room.state import Member, RoomState, deck_reason
from darkcity.settings import Settings

__all__ = ["Lobby", "check_chat", "check_name"]

BOT_NAMES: Final = ("Ada", "Bento", "Clara", "Davi", "Eva", "Fausto", "Gaia", "Heitor",
                    "Iris", "Joca")
CHAT_KEEP: Final = 200  # chat lines stored with a room
CHAT_MAX: Final = 300  # characters in one line
CHAT_RATE: Final = (5, 10.0)  # at most 5 lines per 10 seconds and person


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
    """A display name, cleaned (:func:`darkcity.room.names.clean_name`: NFKC, 1..24
    characters, visible, no control or invisible characters)."""
    try:
        return clean_name(name)
    except BadName as e:
        raise Refusal("bad-name", e.message) from None


class Lobby(RoomState):
    """Members, seats, bots, the host, the chat; the start."""

    __slots__ = ()

    if TYPE_CHECKING:  # the other concerns' (broadcast.py, driver.py, clock.py)
        def broadcast_lobby(self, held: Reader | None = None, presence: bool = False) -> None:
            ...

        def notice(self, message: Message) -> None: ...

        def _advance(self, stored: bool = False) -> None: ...

        def _schedule_bots(self, start: float | None = None) -> None: ...

    def lobby_json(self) -> dict[str, Any]:
        """What the database keeps of the lobby (token hashes included: never sent)."""
        return {"members": [m.to_json() for m in self.members.values()],
                "bots": {str(k): v for k, v in self.bots.items()}, "host": self.host,
                "players": list(self.players), "next_member": self.next_member,
                "chat": self.chat, "next": self.next_code,
                "away_told": {str(k): v for k, v in self.away_told.items()}}

    def _save_lobby(self) -> None:
        self.storage.save_room(self.code, lobby=self.lobby_json())

    def _note_lobby(self) -> None:
        """The lobby stored where losing it costs only a repeat (who was told what a bot
        played for them): a store that refuses it is let be."""
        with contextlib.suppress(CannotSave):
            self._save_lobby()

    @contextlib.contextmanager
    def _stored_or_undone(self) -> Iterator[None]:
        """A change of the lobby and its storing: if the store refuses it
        (:class:`~darkcity.room.ports.CannotSave`), the room is as it was, so that
        nothing in memory differs from what is stored (a member nobody got the token
        of, a game started that a restart would not know)."""
        before = ({i: replace(m) for i, m in self.members.items()}, self.next_member,
                  self.host, dict(self.bots), list(self.chat), dict(self.said), self.status,
                  self.seed, self.players, self.game, self.next_code, dict(self.away),
                  self._lobby_body)
        try:
            yield
        except CannotSave:
            (self.members, self.next_member, self.host, self.bots, self.chat, self.said,
             self.status, self.seed, self.players, self.game, self.next_code, self.away,
             self._lobby_body) = before
            raise

    def seat_of(self, member_id: int | None) -> int | None:
        m = self.members.get(member_id) if member_id is not None else None
        return m.seat if m else None

    def seated(self) -> dict[int, Member]:
        return {m.seat: m for m in self.members.values() if m.seat is not None}

    def player_of(self, member: int | None) -> str | None:
        seat = self.seat_of(member)
        if seat is None or not self.players or seat in self.bots:
            return None
        return self.players[seat]

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
        m = Member(self.next_member, name, token_hash(token))
        with self._stored_or_undone():
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
        h = token_hash(token)
        for m in self.members.values():
            if hmac.compare_digest(m.token_hash, h):
                return m
        return None

    def free_seats(self) -> list[int]:
        taken = set(self.seated()) | set(self.bots)
        return [i for i in range(self.config.players) if i not in taken]

    def style_of(self, seat: int) -> str | None:
        """The style of the bot in ``seat`` this game (None before the start, or where
        its level has none): drawn from the seed, the same after a restart."""
        if not self.seed or seat not in self.bots:
            return None
        return seat_style(self.seed, seat, self.bots[seat])

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
        with self._stored_or_undone():
            m.seat = seat
            self._save_lobby()
        self.broadcast_lobby()

    def stand(self, member: int | None) -> None:
        self._require_lobby()
        m = self.members.get(member) if member is not None else None
        if m is None:
            raise Refusal("not-member", msg("Join the room first."))
        with self._stored_or_undone():
            m.seat = None
            self._save_lobby()
        self.broadcast_lobby()

    def add_bot(self, member: int | None, seat: int, level: str) -> None:
        self._require_host(member)
        self._require_lobby()
        key = canonical_level(level)  # an old name (``heuristic``) read as the new
        if key is None:
            raise Refusal("bad-level", msg("Unknown bot level {level!r}.", level=level))
        if seat >= self.config.players or seat not in self.free_seats():
            raise Refusal("seat-taken", msg("That seat is not free."))
        with self._stored_or_undone():
            self.bots[seat] = key
            self._save_lobby()
        self.broadcast_lobby()

    def remove(self, member: int | None, seat: int) -> None:
        """The host removes whoever sits at ``seat``: a bot leaves; a person is sent
        away (their token stops working). In a game, a bot of the room's timeout level
        takes the seat over."""
        self._require_host(member)
        self._require_not_over()
        target = None
        if not (seat in self.bots and self.status == "lobby"):
            target = self.seated().get(seat)
            if target is None:
                raise Refusal("empty-seat", msg("Nobody sits there."))
            if target.id == self.host:
                raise Refusal("not-yourself", msg("Hand the host role over first."))
        with self._stored_or_undone():  # stored before anybody is told
            if target is None:
                del self.bots[seat]
            else:
                del self.members[target.id]
                self.away.pop(target.id, None)
                if self.status != "lobby":
                    self.bots[seat] = self.config.timeout_level
            self._save_lobby()
        if target is not None:
            # in a game, said as what happened: the seat goes on, played by a bot
            said = (msg("The host removed you from the table.") if self.status == "lobby" else
                    msg("The host gave your seat to a bot for the rest of the game: your "
                        "link no longer works. You can still watch from this page."))
            for c in list(self.conns):
                if c.member == target.id:
                    c.error("removed", said)
                    c.member = None
            if self.status != "lobby":
                self.notice(msg("{player} left the table; a bot plays for them.",
                                player=self.players[seat]))
                self._schedule_bots()
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
        line = {"name": m.name, "text": text, "at": now}
        with self._stored_or_undone():
            self.said[m.id] = [*recent, now]
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
        with self._stored_or_undone():
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
                                          reason=deck_reason(e))) from None
        with self._stored_or_undone():
            self.seed = secrets.token_hex(16)
            self.players = players
            self.game = Game(game.settings, self.seed)
            self.status = "playing"
            self.storage.save_room(self.code, status="playing", lobby=self.lobby_json(),
                                   seed=self.seed)
        self._advance()
        self.broadcast_lobby()  # it rides on the first states (due before it)

    def lobby_public(self) -> dict[str, Any]:
        """Names, seats and flags: what anybody in the room may see (no tokens)."""
        online = {c.member for c in self.conns if c.member is not None}
        seated = self.seated()
        bots = self.bot_names()
        seats = []
        for s in range(self.config.players):
            m = seated.get(s)
            if s in self.bots:
                # (a room saved before the levels' names: ``heuristic`` said as ``medium``)
                level = canonical_level(self.bots[s]) or self.bots[s]
                seats.append({"seat": s, "kind": "bot", "name": bots[s], "level": level,
                              "style": self.style_of(s), "member": None, "online": True,
                              "host": False})
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
