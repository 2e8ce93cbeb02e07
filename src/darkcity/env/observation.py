"""What an agent observes, as tensors with a documented layout.

An observation is built from :func:`darkcity.views.view` for that agent and
from nothing else (what the view does not hold, the agent does not see). It is
a dict of three arrays:

``observation`` (float32, flat): the blocks of :attr:`ObservationEncoder.layout`,
in this order (``n`` players; seats are counted from the agent: row 0 is the
agent, row ``k`` the ``k``-th seat after it in seat order, and a target at
"offset ``k``" is that seat):

=================  ===========  =====================================================
block              size         content
=================  ===========  =====================================================
``phase``          6            one-hot: setup, draft, gesture, withdrawal, zombie, over
``night``          1            the night's number (capped at 255)
``deck``           34           the deck (public): how many of each ``BOX`` card
``sheet``          15           the journal sheet's rows (Role order)
``death_in_play``  1            1 when Death is in the deck
``own_card``       34           one-hot ``BOX`` index of the agent's card tonight
``own_role``       15           one-hot role of that card
``hand``           34           the hand the agent chooses from now (``BOX`` counts)
``received``       34           the hand(s) the agent received tonight (``BOX`` counts)
``own_name``       n            Death's name the agent wrote tonight (one-hot offset)
``own_zombie``     n            the agent's committed Zombie victim (offset one-hot)
``seats``          n x S        one row per seat, ``S = 57 + n`` (:data:`SEAT_FIELDS`)
=================  ===========  =====================================================

``SEAT_FIELDS``: mayor, active (the night's first drafter), required (asked at
this decision point), pending (not decided yet), death (took Death: face up),
blind (took a face-down card tonight), journal (XP per role, 15), and the
revealed gesture once Phase 2 is revealed: shows (the role shown, 15; a Devil's
disguise), targets (offsets, ``n``; a doubled arrow counts 2), kind (named, 15),
seeks (feminine, masculine), then the revealed withdrawal: withdrew, lowered
arrow 1, lowered arrow 2.

``history`` (float32, ``H x n x F``): the last ``H`` finished nights, the latest
first (rows of nights not played yet are zero), one row per seat counted from
the agent, fields :data:`HISTORY_FIELDS` (``F = 69 + 3 n``): present, active,
card (``BOX`` one-hot: role, edition, gender), shows (15), targets (``n``), kind
(15), seeks (2), name (Death's written name, offset one-hot, ``n``), withdrew,
lowered arrow 1, lowered arrow 2, zombie (the Zombie's victim, offset one-hot,
``n``), fate (alive, withdrawn, killed, damned, abducted, absent), XP earned,
winner.

``action_mask`` (int8, the codec's size): 1 for the legal actions
(:mod:`darkcity.env.actions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces

from darkcity.cast import Gender, Role
from darkcity.deck import BOX, Deck
from darkcity.env.actions import card_index
from darkcity.gametypes import Phase
from darkcity.night import Card, Fate
from darkcity.views import CardView, GestureView, NightView, View

__all__ = ["HISTORY_FIELDS", "SEAT_FIELDS", "ObservationEncoder"]

_NR: Final = len(Role)
_NB: Final = len(BOX)
_PHASES: Final = tuple(Phase)
_FATES: Final = tuple(Fate)
_SEEKS: Final = (Gender.FEMININE.value, Gender.MASCULINE.value)
_ROLE_INDEX: Final = {r.key: int(r) for r in Role}
_CARD_INDEX: Final = {(c.role.key, c.edition.value, c.identity.value if c.identity else ""): i
                      for i, c in enumerate(BOX)}


def _fields(spec: Sequence[tuple[str, int]]) -> dict[str, slice]:
    out = {}
    at = 0
    for name, size in spec:
        out[name] = slice(at, at + size)
        at += size
    return out


def seat_fields(n: int) -> dict[str, slice]:
    """The fields of a seat's row in ``observation["seats"]``."""
    return _fields([("mayor", 1), ("active", 1), ("required", 1), ("pending", 1),
                    ("death", 1), ("blind", 1), ("journal", _NR), ("shows", _NR),
                    ("targets", n), ("kind", _NR), ("seeks", 2), ("withdrew", 1),
                    ("lowered", 2)])


def history_fields(n: int) -> dict[str, slice]:
    """The fields of a seat's row of a night in ``history``."""
    return _fields([("present", 1), ("active", 1), ("card", _NB), ("shows", _NR),
                    ("targets", n), ("kind", _NR), ("seeks", 2), ("name", n),
                    ("withdrew", 1), ("lowered", 2), ("zombie", n), ("fate", len(_FATES)),
                    ("xp", 1), ("winner", 1)])


SEAT_FIELDS: Final = tuple(seat_fields(4))
HISTORY_FIELDS: Final = tuple(history_fields(4))


def _cv_index(cv: CardView) -> int:
    return _CARD_INDEX[(cv.role, cv.edition, cv.gender)]


class ObservationEncoder:
    """Encodes views of a table of ``players`` seats playing ``deck``."""

    def __init__(self, players: int, deck: Deck, *, history: int = 8) -> None:
        n = self.n = players
        self.horizon = history
        self.seat = seat_fields(n)
        self.seat_size: int = int(self.seat["lowered"].stop)
        self.hist = history_fields(n)
        self.hist_size: int = int(self.hist["winner"].stop)
        self.layout = _fields([
            ("phase", len(_PHASES)), ("night", 1), ("deck", _NB), ("sheet", _NR),
            ("death_in_play", 1), ("own_card", _NB), ("own_role", _NR), ("hand", _NB),
            ("received", _NB), ("own_name", n), ("own_zombie", n),
            ("seats", n * self.seat_size)])
        self.size: int = int(self.layout["seats"].stop)
        self._static = np.zeros(self.size, dtype=np.float32)
        for c in deck.cards:
            self._static[self.layout["deck"].start + card_index(c)] += 1
        for r in deck.journal_roles:
            self._static[self.layout["sheet"].start + int(r)] = 1
        self._static[self.layout["death_in_play"].start] = 1 if deck.death else 0
        # finished nights in seat order, by number; the stacked last nights
        self._nights: dict[int, np.ndarray[Any, np.dtype[np.float32]]] = {}
        self._stack: dict[int, np.ndarray[Any, np.dtype[np.float32]]] = {}
        self._turns = [self._turn(me) for me in range(n)]

    def space(self, actions: int) -> spaces.Dict:
        return spaces.Dict({
            "observation": spaces.Box(0, 255, (self.size,), dtype=np.float32),
            "history": spaces.Box(0, 255, (self.horizon, self.n, self.hist_size),
                                  dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })

    # -- the flat part --------------------------------------------------------------

    def encode(self, v: View) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``observation``: the view of its viewer (a spectator's from seat 0)."""
        x = self._static.copy()
        lay = self.layout
        n = self.n
        players = v.players
        me = players.index(v.viewer) if v.viewer is not None else 0
        rel = {p: (i - me) % n for i, p in enumerate(players)}
        x[lay["phase"].start + _PHASES.index(Phase(v.phase))] = 1
        x[lay["night"].start] = min(255, v.night)
        own = v.seats[me]
        if own.card is not None and v.viewer is not None:
            x[lay["own_card"].start + _cv_index(own.card)] = 1
            x[lay["own_role"].start + _ROLE_INDEX[own.card.role]] = 1
        for c in v.hand or ():
            x[lay["hand"].start + _cv_index(c)] += 1
        for c in v.received:
            x[lay["received"].start + _cv_index(c)] += 1
        if own.gesture is not None and own.gesture.names is not None:
            x[lay["own_name"].start + rel[own.gesture.names]] = 1
        if own.zombie_target is not None:
            x[lay["own_zombie"].start + rel[own.zombie_target]] = 1
        base = lay["seats"].start
        sf = self.seat
        pending = set(v.pending)
        required = set(v.required)
        for s in v.seats:
            row = base + rel[s.name] * self.seat_size
            x[row + sf["mayor"].start] = s.name == v.mayor
            x[row + sf["active"].start] = s.name == v.active
            x[row + sf["required"].start] = s.name in required
            x[row + sf["pending"].start] = s.name in pending
            x[row + sf["death"].start] = s.death
            x[row + sf["blind"].start] = s.name == v.blind_pick
            for role, xp in s.journal:
                x[row + sf["journal"].start + _ROLE_INDEX[role]] = min(255, xp)
            if s.gesture is not None and (s.name != v.viewer or v.phase != "gesture"):
                self._gesture(x, row, sf, s.gesture, rel)
            w = s.withdrawal
            if w is True:
                x[row + sf["withdrew"].start] = 1
            elif isinstance(w, tuple):
                for a in w:
                    x[row + sf["lowered"].start + a] = 1
        return x

    @staticmethod
    def _gesture(x: np.ndarray[Any, np.dtype[np.float32]], row: int, f: Mapping[str, slice],
                 g: GestureView, rel: Mapping[str, int]) -> None:
        x[row + f["shows"].start + _ROLE_INDEX[g.shows]] = 1
        for t in g.targets:
            x[row + f["targets"].start + rel[t]] += 1
        if g.kind is not None:
            x[row + f["kind"].start + _ROLE_INDEX[g.kind]] = 1
        if g.seeks is not None:
            x[row + f["seeks"].start + _SEEKS.index(g.seeks)] = 1

    # -- the history ------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the nights of the last game (call on every new game)."""
        self._nights.clear()
        self._stack.clear()

    def history(self, v: View) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``history``: the last nights, the latest first, seats from the viewer.

        A finished night is public and the same for everyone: it is encoded once,
        in seat order, and each viewer's copy is that array with its seats (rows,
        and the columns naming seats) turned to start at the viewer."""
        assert v.viewer is not None
        done = len(v.history)
        stack = self._stack.get(done)
        if stack is None:
            stack = np.zeros((self.horizon, self.n, self.hist_size), dtype=np.float32)
            for k, night in enumerate(reversed(v.history[-self.horizon:])):
                got = self._nights.get(night.number)
                if got is None:
                    got = self._nights[night.number] = self._night(night, v.players)
                stack[k] = got
            self._stack.clear()
            self._stack[done] = stack
        me = v.players.index(v.viewer)
        rows, cols = self._turns[me]
        out: np.ndarray[Any, np.dtype[np.float32]] = stack[:, rows][:, :, cols]
        return out

    def _turn(self, me: int) -> tuple[np.ndarray[Any, np.dtype[np.intp]],
                                      np.ndarray[Any, np.dtype[np.intp]]]:
        """Row and column orders that put seat ``me`` first."""
        n = self.n
        rows = np.array([(me + i) % n for i in range(n)], dtype=np.intp)
        cols = np.arange(self.hist_size, dtype=np.intp)
        for name in ("targets", "name", "zombie"):
            start = self.hist[name].start
            cols[start:start + n] = start + rows
        return rows, cols

    def _night(self, night: NightView, players: Sequence[str]
               ) -> np.ndarray[Any, np.dtype[np.float32]]:
        out = np.zeros((self.n, self.hist_size), dtype=np.float32)
        seat = {p: i for i, p in enumerate(players)}
        f = self.hist
        for p, cv in night.cards:
            r = out[seat[p]]
            r[f["present"].start] = 1
            r[f["active"].start] = p == night.active
            r[f["card"].start + _cv_index(cv)] = 1
        for p, g in night.gestures:
            r = out[seat[p]]
            if g.names is not None:
                r[f["name"].start + seat[g.names]] = 1
                continue
            r[f["shows"].start + _ROLE_INDEX[g.shows]] = 1
            for t in g.targets:
                r[f["targets"].start + seat[t]] += 1
            if g.kind is not None:
                r[f["kind"].start + _ROLE_INDEX[g.kind]] = 1
            if g.seeks is not None:
                r[f["seeks"].start + _SEEKS.index(g.seeks)] = 1
        for p, w in night.withdrawals:
            r = out[seat[p]]
            if w is True:
                r[f["withdrew"].start] = 1
            elif isinstance(w, tuple):
                for a in w:
                    r[f["lowered"].start + a] = 1
        for p, t in night.zombie_targets:
            out[seat[p]][f["zombie"].start + seat[t]] = 1
        for p, fate in night.fates:
            out[seat[p]][f["fate"].start + _FATES.index(Fate(fate))] = 1
        for p, xp in night.xp:
            out[seat[p]][f["xp"].start] = xp
        for p in night.winners:
            out[seat[p]][f["winner"].start] = 1
        return out

    # -- the state ----------------------------------------------------------------------

    def state_size(self) -> int:
        return self.size + self.n * _NB

    def state(self, spectator: View, cards: Mapping[str, Card]) -> np.ndarray[
            Any, np.dtype[np.float32]]:
        """The global state (for a centralised critic): the public view from seat 0,
        and every player's card tonight (one-hot ``BOX`` rows in seat order)."""
        players = spectator.players
        x = np.zeros(self.state_size(), dtype=np.float32)
        x[:self.size] = self.encode(spectator)
        for i, p in enumerate(players):
            c = cards.get(p)
            if c is not None:
                x[self.size + i * _NB + card_index(c)] = 1
        return x
