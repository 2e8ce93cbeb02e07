"""The room's game driver: a decision checked, stored, applied (``decide``, ``_commit``),
and the game moved on to its next decision point (``_advance``): the count, the
deadline, who is told what.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from darkcity.decisions import (
    IllegalDecision,
    Phase,
    TakeDeath,
    decision_from_dict,
    decision_to_dict,
)
from darkcity.game import restore
from darkcity.i18n import Message, msg
from darkcity.record import write_record
from darkcity.room.broadcast import Broadcaster
from darkcity.room.common import Refusal
from darkcity.room.ports import CannotSave, Superseded
from darkcity.room.state import BEATS

__all__ = ["Driver"]

_COUNTED: Final = frozenset((Phase.GESTURE, Phase.WITHDRAWAL))
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
#: The store could not write the decision (a full disk, a read-only database).
NOT_SAVED: Final = msg("The server cannot save right now, so your decision was not taken: "
                       "try again in a moment.")


class Driver(Broadcaster):
    """Decide, commit, advance."""

    __slots__ = ()

    if TYPE_CHECKING:  # the clock's (clock.py)
        def _schedule_reveal(self, at: float) -> None: ...

        def _schedule_bots(self, start: float | None = None) -> None: ...

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
            try:
                self._change(player, d, ack)
            except CannotSave:  # (the first decision stands)
                raise Refusal("cannot-save", NOT_SAVED) from None
            return
        try:
            game.verify(d)
        except IllegalDecision as e:
            raise Refusal(e.code, _REFUSALS.get(e.code, _ILLEGAL)) from None
        try:
            self._commit(d, "player", ack)
        except Superseded:  # the room ran elsewhere meanwhile: it is read again
            raise Refusal("stale", _REFUSALS["stale"]) from None
        except CannotSave:  # nothing stored: no bot takes this turn for them (clock.py)
            self.owed[player] = at
            raise Refusal("cannot-save", NOT_SAVED) from None

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
        # changed again at this point: the earlier change's row goes, in the same
        # transaction (a decision changed 14 times a second kept a row for each)
        earlier = self.changed.get(player)
        replaces = earlier[1] if earlier is not None and earlier[0] == dp.id else None
        try:
            self._commit(d, "change", ack, replaces=replaces)
        except Exception as e:  # not stored: the first decision stands
            self.game, self.history = game, history
            if isinstance(e, Superseded):  # the room ran elsewhere meanwhile
                raise Refusal("stale", _REFUSALS["stale"]) from None
            raise
        self.changed[player] = (dp.id, self.seq - 1)

    def _commit(self, d: Any, source: str, ack: Callable[[int], None] | None = None,
                replaces: int | None = None) -> None:
        game = self.game
        assert game is not None
        doc = decision_to_dict(d)
        decided, night = len(game.log), game.night  # (0: before the first night)
        game.apply(d)  # in memory only, until stored: nobody is shown anything before
        row = self._point_row(self.clock())
        if replaces is not None:  # (asked only when there is one: older stores lack it)
            row["replaces"] = replaces
        try:  # the decision and the room's next deadline (or its end): one transaction
            self.storage.append_decision(self.code, self.seq, doc, source, **row)
        except Exception:
            self.game = restore(game.settings, game.seed, game.log[:decided])
            raise
        self.history.append(doc)
        self.seq += 1
        self.owed.pop(d.player, None)
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
        self._note_lobby()

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
        self.owed.clear()  # (a point of the past: nobody is owed a turn there)
        if game.over:
            self.status = "over"
            self._lobby_body = None  # (the lobby says so)
            self.deadline = None
            if not stored:
                self._save_point(status="over", deadline=(None, None))
        else:
            self.deadline = deadline
            self.deadline_dp = dp.id
            if not stored:
                self._save_point(deadline=(self.deadline, dp.id))
        self._schedule_bots(start)
        if self.reveal_at is None:
            if quiet and self._decider is not None:
                self.broadcast_state(only=self._decider, also=dp.pending, point=True)
            else:
                self.broadcast_state()
        else:  # the reveal's states, made during the count, once the count has left
            timers = self.scheduler.timers()
            if timers is None:
                self.prepare_reveal()
            else:
                timers.call_later(0.0, self.prepare_reveal)

    def _save_point(self, **row: Any) -> None:
        """The room's row after a change that stored no decision (the start): the game
        itself is stored already; a row the database refuses is read back right after a
        restart anyway (``restore`` moves a deadline on), so the room goes on."""
        with contextlib.suppress(CannotSave):  # (the storage told the operator)
            self.storage.save_room(self.code, **row)

    def _fresh_night(self) -> bool:
        game = self.game
        return game is not None and game.phase is Phase.DRAFT and not game.cards

    def record(self) -> dict[str, Any]:
        """The darkcity-game/1 record (the referee's archive): only once the game is over."""
        if self.game is None or not self.game.over:
            raise Refusal("not-over", msg("The record is available when the game is over."))
        return write_record(self.game)
