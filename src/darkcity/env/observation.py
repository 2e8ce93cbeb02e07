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
from darkcity.decisions import DecisionPoint, Phase
from darkcity.deck import BOX, Deck
from darkcity.env.actions import card_index
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
        self._phase_of = {ph: lay["phase"].start + k for k, ph in enumerate(_PHASES)}
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
        size = self.seat_size
        # a row's cells: the flags (the decision point's) and the face (the seat's)
        self._flag_cells = np.array(
            [i * size + f for i in range(n) for f in (
                self._f_mayor, self._f_active, self._f_required, self._f_pending,
                self._f_blind)], dtype=np.intp)
        # seats block of viewer ``me``, flat: relative position -> seat-order position
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
        # the public seats block, seat order: the faces its rows were made from, and
        # the flags (Mayor, first drafter, blind taker, asked, pending) written in it
        self._public = np.zeros(n * size, dtype=_F32)
        self._faces_of: tuple[SeatView, ...] | None = None
        self._face_rows: list[SeatView | None] = [None] * n
        self._dp_of: DecisionPoint | None = None
        self._players_of: tuple[str, ...] | None = None
        self._seat_of: dict[str, int] = {}
        # where each player sits from each viewer (for the viewer's own face)
        self._rel: list[dict[str, int]] = []
        self._counts: dict[int, tuple[tuple[CardView, ...], _Vec]] = {}
        self._seat_index: dict[tuple[str, ...], dict[str, int]] = {}
        # finished nights (seat order) by the view of the night; the stacked last
        # nights by those views; that stack turned to each viewer (flat orders)
        self._nights: dict[int, tuple[NightView, _Vec]] = {}
        self._stack_of: tuple[NightView, ...] = ()
        self._history_of: tuple[NightView, ...] | None = None
        self._stack = np.zeros((self.horizon, n, self.hist_size), dtype=_F32)
        self._turned: list[_Vec | None] = [None] * n
        # a night's cells turned to each viewer, and a whole stack's
        self._night_turns = [self._turn(me) for me in range(n)]
        self._turns = [np.stack([t + k * n * self.hist_size for k in range(history)])
                       if history else np.zeros((0, n, self.hist_size), dtype=np.intp)
                       for t in self._night_turns]

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
        if not isinstance(v, LazyView):
            return self._encode_whole(v)
        players = v.players
        if players is not self._players_of:
            self._players_of = players
            self._seat_of = self._index(players)
            self._rel = [{p: (i - me) % self.n for p, i in self._seat_of.items()}
                         for me in range(self.n)]
        seat = self._seat_of
        viewer = v.viewer
        me = seat[viewer] if viewer is not None else 0
        dp = v.point
        x = self._static.copy()
        phase = dp.phase
        x[self._phase_of[phase]] = 1
        night = dp.night
        x[self._night_at] = night if night < 255 else 255
        base = self._base
        self._public_block(v, dp, seat).take(self._seat_perm[me], out=x[base:])
        if viewer is None:
            return x
        own = v.own_seat
        assert own is not None
        self._own(x, me, own, seat)
        self._hands(x, v, phase is Phase.DRAFT)
        # the viewer's own face, where it shows more than the public one
        pub = self._faces_of[me]  # type: ignore[index]
        gesture = phase is not Phase.GESTURE
        if (own.journal is not pub.journal and own.journal != pub.journal) or \
                own.withdrawal != pub.withdrawal or (
                    gesture and own.gesture is not pub.gesture and own.gesture != pub.gesture):
            self._clear_face(x, base)
            self._face(x, base, own, self._rel[me], gesture=gesture)
        return x

    def _own(self, x: _Vec, me: int, own: SeatView, seat: dict[str, int]) -> None:
        """The viewer's own card, Death's name it wrote, its Zombie's victim."""
        n = self.n
        if own.card is not None:
            box, role = self._card(own.card)
            x[self._own_card + box] = 1
            x[self._own_role + role] = 1
        g = own.gesture
        if g is not None and g.names is not None:
            x[self._own_name + (seat[g.names] - me) % n] = 1
        if own.zombie_target is not None:
            x[self._own_zombie + (seat[own.zombie_target] - me) % n] = 1

    def _hands(self, x: _Vec, v: View | LazyView, drafting: bool = True) -> None:
        """The hand the viewer chooses from (only while ``drafting``), and the hands
        it received tonight."""
        hand = v.hand if drafting else None
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

    def _encode_whole(self, v: View) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``observation`` from a whole :class:`View` (a block made for the call)."""
        x = self._static.copy()
        seat = self._index(v.players)
        viewer = v.viewer
        me = seat[viewer] if viewer is not None else 0
        x[self._phase_at[v.phase]] = 1
        x[self._night_at] = min(255, v.night)
        own = v.seats[me] if viewer is not None else None
        if own is not None:
            self._own(x, me, own, seat)
        self._hands(x, v)
        block = self._whole_block(v, seat, own, v.phase)
        block.take(self._seat_perm[me], out=x[self._base:])
        return x

    def _public_block(self, v: LazyView, dp: DecisionPoint, seat: dict[str, int]) -> _Vec:
        """The public seats in seat order (targets by seat), kept in one block: a
        row's face is written again only when its seat's face is another object (the
        views hand out the same face while it stays the same), and the flags when the
        decision point moves on (only the pending flags while its players decide)."""
        block = self._public
        old = self._dp_of
        if dp is old:  # the same state: the block is made
            return block
        size = self.seat_size
        faces = v.public_faces
        if faces is not self._faces_of:
            rows = self._face_rows
            for i, f in enumerate(faces):
                if rows[i] is not f:
                    at = i * size
                    self._clear_face(block, at)
                    self._face(block, at, f, seat, gesture=True)
                    rows[i] = f
            self._faces_of = faces
        pending = dp.pending
        if old is not None and old.id == dp.id and old.required is dp.required and \
                dp.required:  # the same point of the same game: some players decided
            for p in old.pending:
                if p not in pending:
                    block[seat[p] * size + self._f_pending] = 0
        else:
            block[self._flag_cells] = 0
            block[seat[v.mayor] * size + self._f_mayor] = 1
            block[seat[v.active] * size + self._f_active] = 1
            blind = v.blind_pick
            if blind is not None:
                block[seat[blind] * size + self._f_blind] = 1
            for p in dp.required:
                block[seat[p] * size + self._f_required] = 1
            for p in pending:
                block[seat[p] * size + self._f_pending] = 1
        self._dp_of = dp
        return block

    def _whole_block(self, v: View, seat: dict[str, int], own: SeatView | None,
                     phase: str) -> _Vec:
        """The seats of a whole :class:`View` (its viewer's own seat in place): a
        block made for the call."""
        size = self.seat_size
        out = np.zeros(self.n * size, dtype=_F32)
        flags = (v.mayor, v.active, v.blind_pick)
        for i, s in enumerate(v.seats):
            self._row(out, i * size, s, flags, seat,
                      gesture=s is not own or phase != "gesture")
        return out

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
        if name == blind:
            x[at + self._f_blind] = 1
        self._face(x, at, s, seat, gesture=gesture)

    def _clear_face(self, x: _Vec, at: int) -> None:
        """Zero the face's cells of the row at ``at`` (all but the flags)."""
        x[at + self._f_death] = 0
        x[at + self._f_journal:at + self.seat_size] = 0

    def _face(self, x: _Vec, at: int, s: SeatView, seat: Mapping[str, int], *,
              gesture: bool) -> None:
        """The face of seat ``s`` (Death, journal, gesture, withdrawal) in the row at
        ``at``, whose face cells are zero."""
        if s.death:
            x[at + self._f_death] = 1
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
        self._faces_of = None
        self._face_rows = [None] * self.n
        self._dp_of = None
        self._counts.clear()
        self._stack_of = ()
        self._history_of = None
        self._stack = np.zeros_like(self._stack)
        self._turned = [None] * self.n

    def history(self, v: View | LazyView) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``history``: the last nights, the latest first, seats from the viewer.

        A finished night is public and the same for everyone: it is encoded once,
        in seat order, and turned to start at each viewer (its rows, and the columns
        naming seats) once per viewer; a viewer's stack moves down by one night when
        a night ends. Each call returns a copy."""
        assert v.viewer is not None
        # the narration is not encoded: a LazyView's nights come without it
        nights = v.nights if isinstance(v, LazyView) else v.history
        if nights is not self._history_of:  # the views hand out one tuple per night
            self._restack(nights, v.players)
        me = self._index(v.players)[v.viewer]
        turned = self._turned[me]
        if turned is None:
            turned = self._turned[me] = self._stack.take(self._turns[me])
        return turned.copy()  # new data every call (Gymnasium's rule: users keep it)

    def _restack(self, nights: tuple[NightView, ...], players: tuple[str, ...]) -> None:
        """The stack of the last nights, from the encoded nights (each once); the
        viewers' stacks moved down when one night was added."""
        self._history_of = nights
        last = nights[-self.horizon:] if self.horizon else ()
        known = self._stack_of
        if len(last) == len(known) and all(a is b for a, b in zip(last, known, strict=True)):
            return
        # one night more (its previous latest is now the second latest): move down
        if len(known) >= 1 and len(last) >= 2 and last[-2] is known[-1] and (
                len(last) == len(known) + 1 or len(last) == len(known) == self.horizon):
            # (into new arrays: shifting in place overlaps, which NumPy copies twice)
            new = self._encoded_night(last[-1], players)
            self._stack = self._shifted(self._stack, new)
            self._turned = [None if t is None else
                            self._shifted(t, new.take(self._night_turns[me]))
                            for me, t in enumerate(self._turned)]
        else:
            stack = np.zeros((self.horizon, self.n, self.hist_size), dtype=_F32)
            for k, night in enumerate(reversed(last)):
                stack[k] = self._encoded_night(night, players)
            self._stack = stack
            self._turned = [None] * self.n
        self._stack_of = tuple(last)

    @staticmethod
    def _shifted(stack: _Vec, latest: _Vec) -> _Vec:
        """``stack`` moved down one night, ``latest`` on top."""
        out = np.empty_like(stack)
        out[1:] = stack[:-1]
        out[0] = latest
        return out

    def _encoded_night(self, night: NightView, players: tuple[str, ...]) -> _Vec:
        got = self._nights.get(id(night))
        if got is None or got[0] is not night:
            if len(self._nights) >= 4 * max(self.horizon, 8):
                self._nights.clear()
            got = self._nights[id(night)] = (night, self._night(night, players))
        return got[1]

    def _turn(self, me: int) -> np.ndarray[Any, np.dtype[np.intp]]:
        """The order of a night's cells that puts seat ``me`` first (its rows, and
        the columns that name seats): an index array of a night's shape."""
        n = self.n
        rows = np.array([(me + i) % n for i in range(n)], dtype=np.intp)
        cols = np.arange(self.hist_size, dtype=np.intp)
        for name in ("targets", "name", "zombie"):
            start = self.hist[name].start
            cols[start:start + n] = start + rows
        flat = np.arange(n * self.hist_size, dtype=np.intp).reshape(n, self.hist_size)
        out: np.ndarray[Any, np.dtype[np.intp]] = flat[rows][:, cols]
        return out

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
