"""What each reader of a room is sent: the welcome, the lobby, a view of the game per
connection (always from :func:`darkcity.views.view`), progress, notices; coalesced into
few messages, acknowledgements first.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Final

from darkcity.decisions import decision_to_dict
from darkcity.game import Game, restore
from darkcity.i18n import Message, Translator
from darkcity.narration import render_all
from darkcity.room.lobby import Lobby
from darkcity.room.ports import Reader
from darkcity.room.standing import standing
from darkcity.room.state import BEATS, Member
from darkcity.views import View, view

__all__ = ["Broadcaster"]


class Broadcaster(Lobby):
    """Connections in and out, and what each is sent."""

    __slots__ = ()

    def connect(self, conn: Reader, member: Member | None) -> None:
        conn.member = member.id if member else None
        self.conns.add(conn)
        if member is not None:
            self.away.pop(member.id, None)
        conn.nights_sent = 0
        conn.held = None  # its first state is whole
        self._reveal_ready.pop(conn, None)  # (one made for it before: it starts again)
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
            self._note_lobby()
        self.broadcast_lobby(held=conn, presence=True)  # the others soon

    def disconnect(self, conn: Reader) -> None:
        self.conns.discard(conn)
        mid = conn.member
        if mid is not None and mid in self.members and not any(
                c.member == mid for c in self.conns):
            self.away[mid] = self.clock()
        self.broadcast_lobby(presence=True)

    def welcome(self, conn: Reader) -> dict[str, Any]:
        m = self.members.get(conn.member) if conn.member is not None else None
        return {"type": "welcome", "room": self.code, "member": m.id if m else None,
                "name": m.name if m else None, "server_time": self.clock()}

    def notice(self, message: Message) -> None:
        """A public line for the whole table (timeouts, bots taking over)."""
        now = self.clock()
        self.notices = [*self.notices[-19:], {"message": message, "at": now}]
        for c in self.conns:
            c.send({"type": "notice", "message": c.t.render(message), **message.to_json(),
                    "server_time": now})

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
        timers = self.scheduler.timers()
        # A decider waits for its ack, which rides on its state: at once, in the call
        # that stored the decision (issue #33: a timer of 0 s cost a turn of the event
        # loop, and one already due for other changes held the ack up to ``coalesce_s``;
        # such a timer then finds nothing left to send). Else changes within the window
        # make one broadcast.
        if timers is None or self._urgent:  # (or no event loop: a test driving a room)
            self._broadcast_now()
            return
        if not self._broadcast_due:
            self._broadcast_due = True
            timers.call_later(self.server.coalesce_s, self._broadcast_now)

    def _broadcast_now(self) -> None:
        full, changed, point = self._full, self._changed or set(), self._point
        self._broadcast_due, self._full, self._changed, self._point = False, False, None, False
        self._urgent = False
        game = self.game
        if game is None or self.reveal_at is not None or not (full or changed):
            self._flush_acks()
            return
        self._fresh = set()  # readers whose state is built after this change
        # the deciders' first: their writers, woken in this order, send their acks first
        for c in sorted(self.conns, key=_unacked):
            if full or self.player_of(c.member) in changed:
                self.send_state(c)
                self._fresh.add(c)
        self._reveal_ready = {}  # (the reveal's, of readers gone since)
        self._flush_acks()
        if len(self._fresh) < len(self.conns):
            self._progress_soon(point)

    def _flush_acks(self) -> None:
        """Acknowledgements that no state or count carried go out on their own."""
        for c in self.conns:
            if c.acks:
                c.flush_acks()

    def _progress_soon(self, point: bool) -> None:
        """The others learn who has decided (never what) in a ``progress`` message: at
        most one per ``progress_s`` per room, carrying every change since the last.

        At a point where several players decide at once (setup, gesture, withdrawal)
        the news waits ``sealed_progress_s`` from the first change it carries, so one
        broadcast tells several decisions; the stage's last decision is told by the
        ``count`` (or the next state) instead, and a progress still due is dropped."""
        self._progress_point = self._progress_point or point
        timers = self.scheduler.timers()
        if timers is None:  # no event loop (a test driving a room directly): at once
            self._progress_now()
            return
        if not self._progress_due:
            self._progress_due = True
            game = self.game
            if game is not None and len(game.decision_point().required) > 1:
                delay = self.server.sealed_progress_s
            else:
                delay = max(0.0, self._progress_last + self.server.progress_s - timers.time())
            timers.call_later(delay, self._progress_now)

    def _progress_now(self) -> None:
        point, self._progress_point, self._progress_due = self._progress_point, False, False
        timers = self.scheduler.timers()
        if timers is not None:
            self._progress_last = timers.time()
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

    def _lobby_now_body(self) -> dict[str, Any]:
        if self._lobby_body is None:
            self._lobby_body = self.lobby_public()
        return self._lobby_body

    def _lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "lobby": self._lobby_now_body(), "server_time": self.clock()}

    def _carry_lobby(self, conn: Reader, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` (a state, progress or count), with the lobby riding on it when a
        lobby broadcast is due and ``conn`` does not hold the lobby as it is now: the
        reader then holds it, and the broadcast leaves it out (one message, not two)."""
        if self._lobby_due is None or conn in self._lobby_fresh:
            return message
        self._lobby_fresh.add(conn)
        return {**message, "lobby": self._lobby_now_body()}

    def broadcast_lobby(self, held: Reader | None = None, presence: bool = False) -> None:
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
        timers = self.scheduler.timers()
        if timers is None:  # no event loop (a test driving a room directly): at once
            self._lobby_now()
            return
        when = timers.time() + (self.server.presence_s if presence else self.server.coalesce_s)
        due = self._lobby_due
        if due is None or due.when() > when:  # a change of the table is not held back
            if due is not None:
                due.cancel()
            self._lobby_due = timers.call_at(when, self._lobby_now)

    def _lobby_now(self) -> None:
        if self._broadcast_due:  # the states about to leave carry it: after them
            timers = self.scheduler.timers()
            if timers is not None:
                self._lobby_due = timers.call_later(self.server.coalesce_s, self._lobby_now)
                return
        self._lobby_due = None
        readers = [c for c in self.conns if c not in self._lobby_fresh]
        self._lobby_fresh = set()
        if readers:
            body = self._lobby_message()
            for c in readers:
                c.send(body)

    def send_state(self, conn: Reader) -> None:
        """The reader's view of the game (while the Mayor counts, the old view holds);
        a lobby due soon rides on it."""
        state = self._ready_state(conn) if self._reveal_ready else None
        if state is None:
            state = self.state_message(conn)
        if state is not None:
            conn.send(self._carry_lobby(conn, state))

    def prepare_reveal(self) -> None:
        """Build the reveal's states while the Mayor counts (issue #33): nothing changes
        the game during the count (decisions wait for "now!"), so at "now!" the states
        only leave, stamped with the instant. Nothing of them is sent before then."""
        game = self.game
        if game is None or self.reveal_at is None:
            return
        ready = {}
        for c in self.conns:
            before = (c.nights_sent, c.held)
            ready[c] = (self.player_of(c.member), self._state_of(c, game), *before)
        self._reveal_ready = ready

    def _ready_state(self, conn: Reader) -> dict[str, Any] | None:
        """``conn``'s state built during the count, if the reveal is now and it still
        reads from the same seat (else what it held is put back: built again)."""
        ready = self._reveal_ready.pop(conn, None)
        if ready is None or self.reveal_at is not None:
            return None
        player, state, nights_sent, held = ready
        if player != self.player_of(conn.member) or self.game is None:
            conn.nights_sent, conn.held = nights_sent, held
            return None
        return {**state, "server_time": self.clock(), "counting": None}

    def state_message(self, conn: Reader) -> dict[str, Any] | None:
        """The ``state`` message of the reader's view (``None``: no game, or the Mayor is
        counting); the nights in it are counted as sent."""
        game = self.game
        if game is None or self.reveal_at is not None:
            return None
        return self._state_of(conn, game)

    def _counting_welcome(self, conn: Reader, welcome: dict[str, Any]) -> dict[str, Any] | None:
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

    def _state_of(self, conn: Reader, game: Game) -> dict[str, Any]:
        player = self.player_of(conn.member)
        seat = self.seat_of(conn.member)
        if player is None and seat is not None and self.players:
            player = None  # a seat now played by a bot: its former owner watches
        since = conn.nights_sent + 1
        v = _localize(view(game, player, since=since), game, conn.t)
        conn.nights_sent = len(game.nights)
        stand = standing(v, conn.t)
        message: dict[str, Any] = {
            "type": "state", "view": v, "deadline": self.deadline,
            "server_time": self.clock(), "counting": self.reveal_at, "seq": self.seq,
            "standing": stand}
        held, conn.held = conn.held, (v, stand)
        if conn.keeps and held is not None:
            _leave_out_held(message, v, stand, held)
        return message


def _unacked(conn: Reader) -> bool:
    """Sort key: readers waiting for an acknowledgement first."""
    return not conn.acks


#: The fields of a view a state may leave out when its reader holds them as they are:
#: all but ``history``, which is already only the nights the reader lacks.
_KEEPABLE: Final = tuple(f.name for f in fields(View) if f.name != "history")


def _leave_out_held(message: dict[str, Any], v: View, stand: Any,
                    held: tuple[View, Any]) -> None:
    """``message`` with only what changed since the reader's last state (issue #33: at a
    table most of a view repeats the last one, its seats and standing above all): the
    view's fields equal to the ones it holds, and the standing if equal, are left out and
    named in ``kept``. The reader holds exactly what it was last sent: its socket
    delivers in order, and a new connection starts again from a whole state."""
    old, old_stand = held
    kept = [name for name in _KEEPABLE
            if (a := getattr(v, name)) is (b := getattr(old, name)) or a == b]
    if not kept:
        return
    keep = set(kept)
    message["view"] = {name: getattr(v, name) for name in _FIELDS if name not in keep}
    if stand == old_stand:
        del message["standing"]
        kept.append("standing")
    message["kept"] = kept


_FIELDS: Final = tuple(f.name for f in fields(View))


def _localize(v: View, game: Game, t: Translator) -> View:
    """The view with the narration lines it holds re-rendered in the reader's language."""
    if t.lang == "en":
        return v
    history = tuple(
        replace(nv, events=tuple(
            replace(ev, text=text) for ev, text in zip(
                nv.events, render_all(rec.result.events, rec.night, t), strict=True)))
        for nv in v.history for rec in (game.nights[nv.number - 1],))
    narration = v.narration
    if narration and game.early is not None:
        early = game.early
        narration = tuple(replace(ev, text=text) for ev, text in zip(
            narration, render_all(early.events, early.night, t), strict=True))
    return replace(v, history=history, narration=narration)
