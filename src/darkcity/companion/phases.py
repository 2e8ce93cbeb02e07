"""An entry checked and applied at its stage: the draft, the count, the reveal, the withdrawals.

:meth:`Phases.enter` takes each entry to its phase, or refuses it with the reason
(:class:`~darkcity.companion.entries.EntryError`): Phase 1 (who took Death, the name it
wrote), the end of the count, Phase 2 (each revealed gesture, as it *looks*: a Devil's
illusion is entered as the role it shows), Phase 3 (the withdrawals), Phase 4's calls
(``calls.py``) and the next night. A gesture or a withdrawal is kept only if the night so
far still holds with it (``reckoning.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from darkcity.cast import Role
from darkcity.companion.calls import Calls
from darkcity.companion.entries import (
    Call,
    Counted,
    Drafted,
    Entry,
    EntryError,
    GestureEntry,
    RevealDone,
    WithdrawalEntry,
    WithdrawalsDone,
)
from darkcity.companion.state import Stage, Tonight
from darkcity.i18n import msg
from darkcity.terms import role_term

V = TypeVar("V")

__all__ = ["Phases"]

_DEVIL, _HUNTER = Role.DEVIL, Role.HUNTER


class Phases(Calls):
    """Each entry to its phase: the stage checked, the entry checked and applied."""

    if TYPE_CHECKING:  # the companion's (table.py): the name Death wrote, corrected
        def correct(self, entry: GestureEntry | WithdrawalEntry | Call | Drafted,
                    night: int | None = None) -> int: ...
    def enter(self, entry: Entry) -> None:
        """Check ``entry`` and apply it; :class:`EntryError` says why not."""
        stage = self.stage
        if stage is Stage.OVER:
            raise EntryError("entry", msg("the game is over"))
        if isinstance(entry, Drafted):
            if (stage is Stage.COUNT and entry.death_names is not None
                    and self.death_names is not None):
                # Death's name written again before the count (its writer's phone: one
                # tap had ended the draft for good): the draft's entry is corrected in
                # its place, nothing else having been entered since
                self.correct(entry)
                return
            self._expect(Stage.DRAFT)
            self._drafted(entry)
        elif isinstance(entry, Counted):
            self._expect(Stage.COUNT)
            self.stage = Stage.REVEAL
        elif isinstance(entry, GestureEntry):
            self._expect(Stage.REVEAL)
            self._gesture(entry)
        elif isinstance(entry, RevealDone):
            self._expect(Stage.REVEAL)
            missing = self.to_enter()
            if missing:
                raise EntryError("gestures", msg("the gesture of {player} is not entered yet",
                                                 player=missing[0]), missing[0])
            self.stage = Stage.WITHDRAWAL
        elif isinstance(entry, WithdrawalEntry):
            self._expect(Stage.WITHDRAWAL)
            self._withdrawal(entry)
        elif isinstance(entry, WithdrawalsDone):
            self._expect(Stage.WITHDRAWAL)
            self.stage = Stage.RESOLUTION
            self._after_call()
        elif isinstance(entry, Call):
            self._expect(Stage.RESOLUTION)
            self._call(entry)
        else:
            self._expect(Stage.JOURNALS)
            n = self._night
            self._night = Tonight(n.number + 1, (n.active + 1) % self._n)
            self.stage = Stage.DRAFT
        self.entries.append(entry)


    # -- Phase 1 -------------------------------------------------------------------

    def _drafted(self, e: Drafted) -> None:
        names = e.death_names
        if names is not None:
            if not self.death_in_play:
                raise EntryError("death_names", msg("Death is not in this deck"))
            self._player(names, "death_names")
            if names == self.last_drafter:
                raise EntryError("death_names", msg("Death names another player"),
                                 self.last_drafter)
            self._night.death = self.last_drafter
            self._night.death_names = names
        self.stage = Stage.COUNT

    # -- Phase 2 -------------------------------------------------------------------

    def _gesture(self, e: GestureEntry) -> None:
        p = e.player
        self._player(p)
        if p == self._night.death:
            raise EntryError("player", msg("{player} holds Death and makes no gesture tonight",
                                           player=p), p)
        if e.shows is _DEVIL:
            raise EntryError("shows", msg("nobody shows the Devil: a Devil makes another "
                                          "role's gesture until it is called"), p)
        if e.shows not in self._showable:
            raise EntryError("shows", msg("{role:the} is not in this deck, and no Devil could "
                                          "imitate it", role=role_term(e.shows)), p)
        for t in e.targets:
            self._player(t, "targets")
        self._tried(self._night.gestures, p, e)
        # a correction after the withdrawals began is not possible (stage checked)

    def _tried(self, entries: dict[str, V], p: str, value: V) -> None:
        """``entries[p] = value``, kept only if the night still holds (``_check``); else
        ``entries`` is as it was and the refusal goes on to the Mayor."""
        before = entries.get(p)
        entries[p] = value
        try:
            self._check(prefer={p})
        except EntryError:
            if before is None:
                del entries[p]
            else:
                entries[p] = before
            raise

    # -- Phase 3 -------------------------------------------------------------------

    def _withdrawal(self, e: WithdrawalEntry) -> None:
        p, w = e.player, e.withdrawal
        self._player(p)
        if p == self._night.death:
            raise EntryError("player", msg("Death never withdraws"), p)
        if isinstance(w, tuple) and w and self._night.gestures[p].shows is not _HUNTER:
            raise EntryError("withdrawal", msg("only the Hunter lowers a single arrow; {player} "
                                               "shows {role:the}", player=p,
                                               role=role_term(self._night.gestures[p].shows)),
                             p)
        if w is False or w == ():
            self._night.withdrawals.pop(p, None)
            return
        self._tried(self._night.withdrawals, p, w)

