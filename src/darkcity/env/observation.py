"""What an agent observes, as tensors with a documented layout.

An observation is built from that agent's view (:func:`darkcity.views.view`,
or the same fields read one by one from a :class:`~darkcity.views.LazyView`)
and from nothing else (what the view does not hold, the agent does not see).
It is a dict of three arrays:

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
from typing import Any, Final, TypeAlias

import numpy as np
from gymnasium import spaces

from darkcity.cast import Gender, Role
from darkcity.deck import BOX, Deck
from darkcity.env.actions import card_index
from darkcity.gametypes import Phase
from darkcity.night import Card, Fate
from darkcity.views import CardView, LazyView, NightView, SeatView, View

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


_F32: Final = np.float32
_Vec: TypeAlias = np.ndarray[Any, np.dtype[np.float32]]


class _CardIndex:
    """``BOX`` and role indices of card views, looked up by identity: the views hand
    out one object per card (:func:`darkcity.views.card_view`), so a lookup is a
    dict probe, not a hash of three strings. The view is held, so its id stays its
    own."""

    __slots__ = ("_by_id",)

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[CardView, int, int]] = {}

    def __call__(self, cv: CardView) -> tuple[int, int]:
        got = self._by_id.get(id(cv))
        if got is None or got[0] is not cv:
            if len(self._by_id) > 4096:  # only other objects than the views' own
                self._by_id.clear()
            got = self._by_id[id(cv)] = (cv, _CARD_INDEX[(cv.role, cv.edition, cv.gender)],
                                         _ROLE_INDEX[cv.role])
        return got[1], got[2]


class ObservationEncoder:
    """Encodes views of a table of ``players`` seats playing ``deck``.

    Incremental where the views are: a seat's public face and a finished night are
    encoded once (seat order) and turned to start at each viewer by one
    precomputed permutation; only what is the viewer's own is written per call."""

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
        lay = self.layout
        self._static = np.zeros(self.size, dtype=_F32)
        for c in deck.cards:
            self._static[lay["deck"].start + card_index(c)] += 1
        for r in deck.journal_roles:
            self._static[lay["sheet"].start + int(r)] = 1
        self._static[lay["death_in_play"].start] = 1 if deck.death else 0
        self._phase_at = {ph.value: lay["phase"].start + k for k, ph in enumerate(_PHASES)}
        self._night_at = lay["night"].start
        self._own_card = lay["own_card"].start
        self._own_role = lay["own_role"].start
        self._hand = lay["hand"].start
        self._received = lay["received"].start
        self._own_name = lay["own_name"].start
        self._own_zombie = lay["own_zombie"].start
        self._base = lay["seats"].start
        sf = self.seat
        (self._f_mayor, self._f_active, self._f_required, self._f_pending, self._f_death,
         self._f_blind, self._f_journal, self._f_shows, self._f_targets, self._f_kind,
         self._f_seeks, self._f_withdrew, self._f_lowered) = (
            sf[k].start for k in ("mayor", "active", "required", "pending", "death", "blind",
                                  "journal", "shows", "targets", "kind", "seeks", "withdrew",
                                  "lowered"))
        self._card = _CardIndex()
        # seats block of viewer ``me``, flat: relative position -> seat-order position
        size = self.seat_size
        self._seat_perm = []
        for me in range(n):
            perm = np.empty(n * size, dtype=np.intp)
            for k in range(n):
                a = (me + k) % n
                cols = np.arange(size, dtype=np.intp)
                t = self._f_targets
                cols[t:t + n] = t + (me + np.arange(n)) % n
                perm[k * size:(k + 1) * size] = a * size + cols
            self._seat_perm.append(perm)
        # the public seats block, seat order: the seat views its rows were made from
        self._public = np.zeros(n * size, dtype=_F32)
        self._public_of: tuple[SeatView, ...] | None = None
        self._public_flags: tuple[str, str, str | None] | None = None
        self._public_rows: list[SeatView | None] = [None] * n
        self._counts: dict[int, tuple[tuple[CardView, ...], _Vec]] = {}
        self._seat_index: dict[tuple[str, ...], dict[str, int]] = {}
        # finished nights (seat order) by the view of the night; the stacked last
        # nights by those views; that stack turned to each viewer
        self._nights: dict[int, tuple[NightView, _Vec]] = {}
        self._stack_of: tuple[NightView, ...] = ()
        self._history_of: tuple[NightView, ...] | None = None
        self._stack = np.zeros((self.horizon, n, self.hist_size), dtype=_F32)
        self._turned: dict[int, _Vec] = {}
        self._turns = [self._turn(me) for me in range(n)]

    def space(self, actions: int) -> spaces.Dict:
        return spaces.Dict({
            "observation": spaces.Box(0, 255, (self.size,), dtype=np.float32),
            "history": spaces.Box(0, 255, (self.horizon, self.n, self.hist_size),
                                  dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })

    def _index(self, players: tuple[str, ...]) -> dict[str, int]:
        got = self._seat_index.get(players)
        if got is None:
            got = self._seat_index[players] = {p: i for i, p in enumerate(players)}
        return got

    # -- the flat part --------------------------------------------------------------

    def encode(self, v: View | LazyView) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``observation``: the view of its viewer (a spectator's from seat 0)."""
        x = self._static.copy()
        n = self.n
        seat = self._index(v.players)
        viewer = v.viewer
        me = seat[viewer] if viewer is not None else 0
        phase = v.phase
        x[self._phase_at[phase]] = 1
        x[self._night_at] = min(255, v.night)
        if isinstance(v, LazyView):
            public = v.public_seats
            own = v.own_seat
        else:
            public = v.seats
            own = public[me] if viewer is not None else None
        if own is not None:
            if own.card is not None:
                box, role = self._card(own.card)
                x[self._own_card + box] = 1
                x[self._own_role + role] = 1
            g = own.gesture
            if g is not None and g.names is not None:
                x[self._own_name + (seat[g.names] - me) % n] = 1
            if own.zombie_target is not None:
                x[self._own_zombie + (seat[own.zombie_target] - me) % n] = 1
        hand = v.hand
        if hand:
            at = self._hand
            for c in hand:
                x[at + self._card(c)[0]] += 1
        received = v.received
        if received:  # the views hand out one tuple per hand received: count it once
            got = self._counts.get(id(received))
            if got is None or got[0] is not received:
                counts = np.zeros(_NB, dtype=_F32)
                for c in received:
                    counts[self._card(c)[0]] += 1
                if len(self._counts) >= 256:
                    self._counts.clear()
                got = self._counts[id(received)] = (received, counts)
            x[self._received:self._received + _NB] = got[1]
        # the seats, from the viewer: the public block, then the viewer's own row
        flags = (v.mayor, v.active, v.blind_pick)
        block = self._block(public, flags, seat, own if public[me] is own else None, phase)
        base = self._base
        block.take(self._seat_perm[me], out=x[base:])
        if own is not None and own is not public[me]:
            pub = public[me]
            if own.journal != pub.journal or own.withdrawal != pub.withdrawal or (
                    phase != "gesture" and own.gesture != pub.gesture):
                x[base:base + self.seat_size] = 0
                rel = {p: (i - me) % n for p, i in seat.items()}
                self._row(x, base, own, flags, rel, gesture=phase != "gesture")
        return x

    def _block(self, seats: tuple[SeatView, ...], flags: tuple[str, str, str | None],
               seat: dict[str, int], own: SeatView | None, phase: str) -> _Vec:
        """The seats in seat order (targets by seat).

        The public seats (``own`` None) are kept in one block, and a row is written
        again only when its seat's view is another object: the views hand out the
        same object while a seat's public face stays the same. ``own``: the viewer's
        own seat in ``seats`` (a whole :class:`View`): a block made for the call."""
        size = self.seat_size
        if own is not None:
            out = np.zeros(self.n * size, dtype=_F32)
            for i, s in enumerate(seats):
                self._row(out, i * size, s, flags, seat,
                          gesture=s is not own or phase != "gesture")
            return out
        block = self._public
        if seats is self._public_of and flags == self._public_flags:
            return block
        if flags != self._public_flags:
            self._public_rows = [None] * self.n
            self._public_flags = flags
        rows = self._public_rows
        for i, s in enumerate(seats):
            if rows[i] is not s:
                at = i * size
                block[at:at + size] = 0
                self._row(block, at, s, flags, seat, gesture=True)
                rows[i] = s
        self._public_of = seats
        return block

    def _row(self, x: _Vec, at: int, s: SeatView, flags: tuple[str, str, str | None],
             seat: Mapping[str, int], *, gesture: bool) -> None:
        """Seat ``s``'s row at ``at`` (``flags``: the Mayor, the night's first drafter,
        who took a face-down card; ``seat``: where a named player sits)."""
        name = s.name
        mayor, active, blind = flags
        if name == mayor:
            x[at + self._f_mayor] = 1
        if name == active:
            x[at + self._f_active] = 1
        if s.decided is not None:
            x[at + self._f_required] = 1
            if s.decided is False:
                x[at + self._f_pending] = 1
        if s.death:
            x[at + self._f_death] = 1
        if name == blind:
            x[at + self._f_blind] = 1
        journal = at + self._f_journal
        for role, xp in s.journal:
            x[journal + _ROLE_INDEX[role]] = min(255, xp)
        g = s.gesture
        if g is not None and gesture:
            x[at + self._f_shows + _ROLE_INDEX[g.shows]] = 1
            for t in g.targets:
                x[at + self._f_targets + seat[t]] += 1
            if g.kind is not None:
                x[at + self._f_kind + _ROLE_INDEX[g.kind]] = 1
            if g.seeks is not None:
                x[at + self._f_seeks + _SEEKS.index(g.seeks)] = 1
        w = s.withdrawal
        if w is True:
            x[at + self._f_withdrew] = 1
        elif isinstance(w, tuple):
            for a in w:
                x[at + self._f_lowered + a] = 1

    # -- the history ------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the nights of the last game (call on every new game: memory only,
        what is kept is keyed by the views it encodes)."""
        self._nights.clear()
        self._public_of = None
        self._public_flags = None
        self._counts.clear()
        self._stack_of = ()
        self._history_of = None
        self._stack = np.zeros_like(self._stack)
        self._turned.clear()

    def history(self, v: View | LazyView) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``history``: the last nights, the latest first, seats from the viewer.

        A finished night is public and the same for everyone: it is encoded once,
        in seat order, and each viewer's array is that one with its seats (rows,
        and the columns naming seats) turned to start at the viewer: made once per
        viewer and night; each call returns a copy."""
        assert v.viewer is not None
        # the narration is not encoded: a LazyView's nights come without it
        nights = v.nights if isinstance(v, LazyView) else v.history
        if nights is not self._history_of:  # the views hand out one tuple per night
            self._restack(nights, v.players)
        me = self._index(v.players)[v.viewer]
        turned = self._turned.get(me)
        if turned is None:
            rows, cols = self._turns[me]
            turned = self._turned[me] = self._stack[:, rows][:, :, cols]
        return turned.copy()  # new data every call (Gymnasium's rule: users keep it)

    def _restack(self, nights: tuple[NightView, ...], players: tuple[str, ...]) -> None:
        """The stack of the last nights, from the encoded nights (each once)."""
        self._history_of = nights
        last = nights[-self.horizon:] if self.horizon else ()
        known = self._stack_of
        if len(last) != len(known) or any(a is not b for a, b in zip(last, known,
                                                                      strict=True)):
            stack = np.zeros((self.horizon, self.n, self.hist_size), dtype=_F32)
            for k, night in enumerate(reversed(last)):
                got = self._nights.get(id(night))
                if got is None or got[0] is not night:
                    if len(self._nights) >= 4 * max(self.horizon, 8):
                        self._nights.clear()
                    got = self._nights[id(night)] = (night, self._night(night, players))
                stack[k] = got[1]
            self._stack_of = tuple(last)
            self._stack = stack
            self._turned.clear()

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
            r[f["card"].start + self._card(cv)[0]] = 1
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

    def state(self, spectator: View | LazyView, cards: Mapping[str, Card]) -> np.ndarray[
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
