"""The observations against a straightforward reference: the encoder keeps what did
not change (a seat's public face, a finished night) and reads the view field by
field (:class:`~darkcity.views.LazyView`); here is the encoder as first written,
everything from the whole view on every call, and every observation of random
games (each player and a spectator, at every decision point, over several games
with one encoder, as OpenSpiel shares it) must equal it, and so must the masks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from darkcity.decisions import Phase  # noqa: E402
from darkcity.deck import Deck  # noqa: E402
from darkcity.env.actions import card_index  # noqa: E402
from darkcity.env.observation import (  # noqa: E402
    _CARD_INDEX,
    _FATES,
    _NB,
    _NR,
    _PHASES,
    _ROLE_INDEX,
    _SEEKS,
    _fields,
    history_fields,
    seat_fields,
)
from darkcity.env.table import Table  # noqa: E402
from darkcity.night import Fate  # noqa: E402
from darkcity.views import CardView, GestureView, LazyView, NightView, View, view  # noqa: E402

# -- the reference: the encoder as first written, verbatim ----------------------------------


def _cv_index(cv: CardView) -> int:
    return _CARD_INDEX[(cv.role, cv.edition, cv.gender)]


class ReferenceEncoder:
    """The encoder as first written: everything from the whole :class:`View`, every call."""

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


# -- the comparison ------------------------------------------------------------------------


def _same(a: Any, b: Any) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a, b)


@pytest.mark.parametrize(("players", "deck"), [
    (4, "basic"), (6, "basic"), (6, "reporter-death-6"), (7, "creatures-7"),
    (8, "death-alien-7"), (8, "undead-7"),
])
def test_observations_equal_the_reference(players: int, deck: str) -> None:
    table = Table(players, deck, history=3)
    ref = ReferenceEncoder(players, table.deck, history=3)
    enc = table.encoder
    rng = random.Random(players)
    for game_no in range(3):
        table.reset(seed=game_no)
        ref.reset()
        g = table.game
        viewers: list[str | None] = [None, *g.players]
        decisions = 0
        while not g.over and decisions < 250:
            for viewer in viewers:
                full = view(g, viewer)
                want = ref.encode(full)
                _same(enc.encode(LazyView(g, viewer)), want)
                _same(enc.encode(full), want)
                if viewer is not None:
                    want_h = ref.history(full)
                    _same(enc.history(LazyView(g, viewer)), want_h)
                    _same(enc.history(full), want_h)
                    obs = table.observe(viewer, wait=True)
                    _same(obs["observation"], want)
                    _same(obs["history"], want_h)
                    legal = table.legal(viewer)
                    mask = np.zeros(table.codec.size, dtype=np.int8)
                    mask[list(legal)] = 1
                    if not legal and not g.over:
                        mask[0] = 1
                    _same(obs["action_mask"], mask)
                    assert set(legal.values()) == set(g.legal(viewer))
            p = g.pending[0]
            choices = g.legal(p)
            g.apply(choices[rng.randrange(len(choices))])
            decisions += 1
        # a game of the same table played without a reset of the encoder (OpenSpiel's
        # states share one): the same observations as a fresh reference's
    other = Table(players, deck, history=3)
    other.reset(seed=99)
    g = other.game
    fresh = ReferenceEncoder(players, other.deck, history=3)
    table.game = g
    for _ in range(120):
        if g.over:
            break
        p = g.pending[0]
        _same(enc.history(LazyView(g, p)), fresh.history(view(g, p)))
        _same(enc.encode(LazyView(g, p)), fresh.encode(view(g, p)))
        choices = g.legal(p)
        g.apply(choices[rng.randrange(len(choices))])


def test_an_observation_is_the_callers_to_change() -> None:
    """The arrays handed out are fresh (Gymnasium's rule): changing one changes no
    later observation."""
    table = Table(5, "basic")
    table.reset(seed=1)
    g = table.game
    rng = random.Random(1)
    while len(g.nights) < 2:
        p = g.pending[0]
        choices = g.legal(p)
        g.apply(choices[rng.randrange(len(choices))])
    p = g.pending[0]
    a = table.observe(p, wait=False)
    keep = {k: x.copy() for k, x in a.items()}
    for x in a.values():
        x.fill(7)
    b = table.observe(p, wait=False)
    for k, x in b.items():
        _same(x, keep[k])
