"""The Mayor's clock: the reveal at its instant, bots at their delay, time-outs at the
deadline, players away past the grace; bots think in worker processes.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from darkcity.decisions import IllegalDecision, decision_from_dict
from darkcity.i18n import Message, msg
from darkcity.room.bots import bot_decision, level_word, new_bot
from darkcity.room.driver import Driver
from darkcity.room.ports import CannotSave, Request
from darkcity.settings import bot_rng

__all__ = ["RoomClock"]

log = logging.getLogger("darkcity.server")


class RoomClock(Driver):
    """Tick, the reveal, the bots' turns."""

    __slots__ = ()

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
        """The reveal fires at its instant, on a timer of its own (not the next tick),
        finer than the loop's millisecond where the scheduler can."""
        if self.scheduler.timers() is None:  # no event loop: a test drives the clock,
            return  # and tick() reveals
        self.scheduler.call_precisely(max(0.0, at - self.clock()),
                                      functools.partial(self._reveal_due, at))

    def _reveal_due(self, at: float) -> None:
        if self.reveal_at != at:
            return  # revealed already
        early = at - self.clock()
        if early > 0.005:
            return  # a clock of its own (tests): the tick reveals
        if early > 0:  # a timer a little early (the loop's keeps whole milliseconds):
            timers = self.scheduler.timers()  # again at the loop's next turn, never
            if timers is not None:  # before "now!"
                timers.call_soon(functools.partial(self._reveal_due, at))
                return
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
        try:
            self._act(now)
        except CannotSave:  # a bot's decision not stored (a full disk; the storage said
            self.stalled_until = now + 1.0  # it): nobody is shown it; again in a second

    def _act(self, now: float) -> None:
        """Bots, players away past the grace, the deadline: what is due now."""
        game = self.game
        assert game is not None
        for _round in range(64):  # bounded: a game of bots moves a few steps per tick
            if game.over or self.reveal_at is not None:
                return
            acted = False
            seats = {p: i for i, p in enumerate(self.players)}
            seated = self.seated()
            point = game.decision_point().id
            for p in game.pending:
                if p in self.thinking:  # a worker is deciding for them
                    continue
                seat = seats[p]
                due = self.bot_due.get(p)
                if seat in self.bots and due is not None and now >= due:
                    acted = self._bot(p, self.bots[seat], "bot", style=self.style_of(seat))
                    if acted:
                        break
                    continue
                m = seated.get(seat)
                if m is not None and m.id in self.away and self.owed.get(p) != point and \
                        now - self.away[m.id] >= self.config.grace_s:
                    acted = self._bot(p, self.config.timeout_level, "away", msg(
                        "{player} is away; a bot decided for them.", player=p))
                    if acted:
                        break
            if acted:
                continue
            late = tuple(p for p in game.pending if p not in self.thinking)
            if self.deadline is not None and now >= self.deadline and \
                    self.deadline_dp == point and late:
                if any(self.owed.get(p) == point for p in late):
                    self._time_owed(now, point)
                    return
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

    def _time_owed(self, now: float, point: int) -> None:
        """The deadline came while a person's decision at this point was refused because
        the store could not write it (a full disk): no bot takes their turn. Once the
        store writes again (this deadline, stored, is the test) the point gets a whole
        decision time more, for everybody still to decide; until then the room waits,
        trying again each second."""
        deadline = now + self.config.decide_s
        try:
            self.storage.save_room(self.code, deadline=(deadline, point))
        except CannotSave:
            self.stalled_until = now + 1.0
            return
        self.owed.clear()
        self.deadline = deadline
        self.broadcast_state()  # (every state carries the new deadline)

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
             notice: Message | None = None, style: str | None = None) -> bool:
        """A bot of ``level`` (in ``style``: a seated bot's) decides for ``player``: at
        once on the loop (True: the decision is applied), or in the room's worker pool
        (False: it lands later)."""
        game = self.game
        assert game is not None
        if self.pool is not None:
            self._think(player, level, source, notice, style)
            return False
        bot = self.robots.get((player, level))
        if bot is None:
            bot = self.robots[(player, level)] = new_bot(
                level, bot_rng(self.seed or "", f"{player}:{level}:{self.seq}"), style)
        if notice is not None:
            self.notice(notice)
        self._commit(bot_decision(bot, game, player), source)
        return True

    def _think(self, player: str, level: str, source: str, notice: Message | None,
               style: str | None = None) -> None:
        """Ask the worker pool; the answer is applied only if the game is still where it
        was asked (``verify``), else dropped and asked again at the next tick."""
        game, pool = self.game, self.pool
        assert game is not None and pool is not None
        dp = game.decision_point().id
        self.thinking[player] = dp
        req = Request(self.code, self.seed or "", self.players, self.config.deck,
                      self.config.cards, tuple(self.history), player, level, style)

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
            except CannotSave:  # not stored (the storage told the operator): again soon
                self.stalled_until = self.clock() + 1.0
            except Exception:  # like a failed tick: this room only, logged, paused 1 s
                now = self.clock()
                self.stalled_until = now + 1.0
                if now - self.failure_logged >= 60:
                    self.failure_logged = now
                    log.exception("room %s: a bot's decision could not be applied",
                                  self.code)

        pool.submit(req, landed)
