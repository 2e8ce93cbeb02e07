"""The companion as the replay of its entries: its JSON form, undo, and corrections.

A :class:`Companion` is the game as the Mayor sees it: the players are seated
and the deck chosen (:class:`~darkcity.companion.state.TableSetup`), and then, night
after night, the Mayor enters what happens at the table
(:mod:`darkcity.companion.entries`): whether Death was taken and the name written, the
end of the count, each revealed gesture (what it *looks like*: a Devil's illusion is
entered as the role it shows), the withdrawals, and, as each initiative step is called,
the cards turned over and the Zombies' last choice. The cards stay unknown until they
are called, so the companion reasons as a Mayor does (:mod:`darkcity.companion.cards`)
and asks the engine everything else: every entry is checked by building the night so
far and validating it (:func:`darkcity.validation.validate`), so a refusal is the
engine's reason in plain words; each step is narrated from
``resolve(night, through=step)``; the finished night is resolved, its journals written
and the victory checked by :func:`darkcity.night.resolve`, exactly as
``darkcity adjudicate`` does on the exported round document.

It is assembled from one concern per module, each a class over the one before:
``state.py`` (:class:`~darkcity.companion.state.TableState`: the fields and the screen's
queries) < ``reckoning.py`` (what the table knows of each card; the night so far, checked
by the engine) < ``calls.py`` (Phase 4: the calls) < ``phases.py`` (each entry to its
phase) < this module: the companion is the replay of its entries, so
:meth:`Companion.undo`, :meth:`Companion.undo_night` and :meth:`Companion.correct`
rebuild it from other entries, and its JSON form (:meth:`Companion.to_json`) is the
set-up and the entries. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from darkcity.companion.entries import (
    Call,
    Drafted,
    Entry,
    EntryError,
    GestureEntry,
    NextNight,
    WithdrawalEntry,
    WithdrawalsDone,
    entry_from_json,
    entry_to_json,
)
from darkcity.companion.phases import Phases
from darkcity.companion.state import TableSetup
from darkcity.i18n import msg

__all__ = ["Companion"]


class Companion(Phases):
    """One game at a real table, as the Mayor enters it (mutable).

    :meth:`enter` checks an entry and applies it, or raises
    :class:`~darkcity.companion.entries.EntryError` with the reason; the
    queries say what the Mayor's screen shows now.
    """
    def to_json(self) -> dict[str, Any]:
        """The set-up and the entries: :meth:`from_json` replays them."""
        return {"setup": self.setup.to_json(),
                "entries": [entry_to_json(e) for e in self.entries]}

    @classmethod
    def replayed(cls, setup: TableSetup, entries: Iterable[Entry]) -> Companion:
        """The companion reached from ``setup`` by ``entries``, each one checked."""
        c = cls(setup)
        for e in entries:
            c.enter(e)
        return c

    @classmethod
    def from_json(cls, doc: object) -> Companion:
        """The companion :meth:`to_json` wrote (:class:`EntryError`/:class:`DeckError`)."""
        c, refused = cls._replay(doc)
        if refused is not None:
            i, e = refused
            raise EntryError(f"entries[{i}].{e.field}", e.message, e.player)
        return c

    @classmethod
    def restore(cls, doc: object) -> tuple[Companion, int]:
        """A stored table, replayed as far as this version's rules take it, and how many
        of its entries were set aside: from the first one refused to the last (a table
        stored by an earlier version whose bookkeeping has changed since is not lost;
        the Mayor enters what was set aside again). The set-up must still hold."""
        c, refused = cls._replay(doc)
        if refused is None:
            return c, 0
        raw = doc.get("entries") if isinstance(doc, dict) else None
        return c, (len(raw) if isinstance(raw, list) else 0) - refused[0]

    @classmethod
    def _replay(cls, doc: object) -> tuple[Companion, tuple[int, EntryError] | None]:
        """The companion of ``doc``'s set-up with its entries entered up to the first
        refused (its index and refusal, or None)."""
        if not isinstance(doc, dict):
            raise EntryError("table", msg("must be an object"))
        setup = TableSetup.from_json(doc.get("setup"))
        raw = doc.get("entries", [])
        if not isinstance(raw, list):
            raise EntryError("entries", msg("must be a list"))
        c = cls(setup)
        for i, item in enumerate(raw):
            try:
                c.enter(entry_from_json(item))
            except EntryError as e:
                return c, (i, e)
        return c, None

    def undo(self) -> Entry | None:
        """Take the last entry back (a correction); returns it, or None if none."""
        if not self.entries:
            return None
        last = self.entries[-1]
        self._rebuild(self.entries[:-1])
        return last

    def _span(self, number: int) -> range:
        """The indexes of night ``number``'s entries, its Next night excluded."""
        starts = [0] + [i + 1 for i, e in enumerate(self.entries) if isinstance(e, NextNight)]
        if not 1 <= number <= len(starts):
            raise EntryError("night", msg("there is no night {n} to correct", n=number))
        end = starts[number] - 1 if number < len(starts) else len(self.entries)
        return range(starts[number - 1], end)

    def at(self, number: int, step: str | None = None) -> Companion:
        """The table as it stood at the end of night ``number`` (before Next night), or,
        given ``step``, just before that night's call of ``step``: the question a
        correction of that call answers again. :class:`EntryError` if it was not called."""
        span = self._span(number)
        end = span.stop
        if step is not None:
            end = self._call_at(span, step, number)
        return Companion.replayed(self.setup, self.entries[:end])

    def _call_at(self, span: range, step: str, number: int) -> int:
        for i in span:
            e = self.entries[i]
            if isinstance(e, Call) and e.step == step:
                return i
        raise EntryError("step", msg("step {step} was not called on night {n}", step=step,
                                     n=number))

    def correct(self, entry: GestureEntry | WithdrawalEntry | Call | Drafted,
                night: int | None = None) -> int:
        """Correct one answer of night ``night`` (tonight by default: the night in
        progress, or the one just resolved) without undoing what came after it: a gesture
        once the reveal is over ("wait, I showed the Werewolf"), a withdrawal once the
        withdrawals are over ("Bia did not flee"), or the cards turned over at a call and
        its Zombies' choices ("I tapped the wrong Vampire"), or the name Death wrote
        (a ``Drafted`` entry, when Death was taken). ``entry`` takes the place of
        the player's gesture (of their withdrawal, entered again just before the end of
        Phase 3; of that step's call), and the entries after it, the later nights'
        included, are entered again, each checked as the first time, up to the first
        that the correction makes wrong (a call that is no longer made, a night that now
        ends the game): that one and those after it are dropped, for the Mayor to enter
        again. Returns how many were dropped. :class:`EntryError` if that night has no
        such entry or the new one is refused; nothing changes then. While the
        withdrawals are still open, a withdrawal is simply entered, as is the call
        asked now."""
        number = self.number if night is None else night
        span = self._span(number)
        if isinstance(entry, Drafted):
            # the name Death wrote, tapped wrong; who took Death is the table's to see
            i = next((i for i in span if isinstance(self.entries[i], Drafted)), -1)
            old = self.entries[i] if i >= 0 else None
            if not isinstance(old, Drafted) or old.death_names is None:
                raise EntryError("death_names", msg("nobody took Death on night {n}",
                                                    n=number))
            if entry.death_names is None:
                raise EntryError("death_names", msg("Death names another player"))
            return self._reentered(self.entries[:i], entry, self.entries[i + 1:])
        if isinstance(entry, Call):
            q = self.question()
            if number == self.number and q is not None and q.step == entry.step:
                self.enter(entry)
                return 0
            i = self._call_at(span, entry.step, number)
            return self._reentered(self.entries[:i], entry, self.entries[i + 1:])
        if isinstance(entry, WithdrawalEntry):
            done = [i for i in span if isinstance(self.entries[i], WithdrawalsDone)]
            if not done:
                if number != self.number:
                    raise EntryError("night", msg("there is no night {n} to correct",
                                                  n=number))
                self.enter(entry)
                return 0
            # that night's withdrawals of that player give way to the new one (another
            # night's stay)
            before = [e for i, e in enumerate(self.entries[:done[0]])
                      if i not in span or not (isinstance(e, WithdrawalEntry)
                                               and e.player == entry.player)]
            later = self.entries[done[0]:]
            if entry.withdrawal is False or entry.withdrawal == ():
                return self._reentered(before, None, later)
            return self._reentered(before, entry, later)
        at = [i for i in span
              if isinstance(x := self.entries[i], GestureEntry) and x.player == entry.player]
        if not at:
            raise EntryError("player", msg("{player} has no gesture entered tonight",
                                           player=entry.player), entry.player)
        return self._reentered(self.entries[:at[-1]], entry, self.entries[at[-1] + 1:])

    def _reentered(self, before: Sequence[Entry], entry: Entry | None,
                   later: Sequence[Entry]) -> int:
        """The table again from ``before``, then ``entry`` (which must hold), then the
        entries of ``later`` that still hold; returns how many of them did not."""
        c = Companion.replayed(self.setup, before)
        fixed = [*before] if entry is None else [*before, entry]
        if entry is not None:
            c.enter(entry)
        kept = 0
        for e in later:
            try:
                c.enter(c._answering(e))
            except EntryError:
                # an entry refused may have been half applied: rebuild without it
                c = Companion.replayed(self.setup, [*fixed, *later[:kept]])
                break
            kept += 1
        self.__dict__.update(c.__dict__)
        return len(later) - kept

    def _answering(self, e: Entry) -> Entry:
        """A later entry entered again after a correction, as it answers the question now:
        a call's choice for a Zombie that is no longer asked (the correction put it out of
        the night before step 4) is moot and left out; a Zombie asked now and not then
        makes the call refused, to be asked again (its player never chose)."""
        q = self.question() if isinstance(e, Call) else None
        if not isinstance(e, Call) or q is None or q.step != e.step:
            return e
        new = [z for z in q.zombies if z not in e.zombies]
        if new:
            raise EntryError(f"zombies.{new[0]}", msg("{player} is a Zombie called now",
                                                      player=new[0]), new[0])
        zombies = {z: x for z, x in e.zombies.items() if z in q.zombies}
        return e if zombies == dict(e.zombies) else Call(e.step, e.cards, zombies)

    def undo_night(self) -> int | None:
        """Take the last finished night back, journals and all: the table is again at
        that night's draft. Returns its number, or None if no night is finished."""
        if not self.nights:
            return None
        number = self.nights[-1].number
        starts = [0] + [i + 1 for i, e in enumerate(self.entries) if isinstance(e, NextNight)]
        self._rebuild(self.entries[:starts[number - 1]])
        return number

    def _rebuild(self, entries: Sequence[Entry]) -> None:
        fresh = Companion.replayed(self.setup, entries)
        self.__dict__.update(fresh.__dict__)
