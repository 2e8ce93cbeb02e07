"""What a player can infer from its observation, and how bots value a night.

* :class:`Facts` — the view read into engine types: own card, the hand
  received, the draft order, revealed gestures and withdrawals, journals.
* :class:`Beliefs` — where the hidden cards can be: the cards a player saw
  in the hand it received went on to the players after it (or face down);
  the others were taken before it (or set aside). After the reveal of
  Phase 2 a player's real role is its shown role, or it is a Devil in
  disguise. :meth:`Beliefs.marginals` gives per-player role probabilities;
  :meth:`Beliefs.sample` draws a full deal consistent with all of it.
* :func:`distance` / :func:`night_value` — how far a journal is from a
  victory condition and what a resolved night is worth to one player.

Nothing here decides a rule: outcomes come from :func:`darkcity.night.resolve`
and combat effects from :func:`darkcity.cast.effect` (the engine's tables).
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from darkcity.bots.base import Observation, card_of
from darkcity.cast import CAST, NO_DISGUISE, Effect, Gender, Reach, Role, effect, parse_role
from darkcity.decisions import Phase
from darkcity.night import Card, Gesture, NightResult, Withdrawal
from darkcity.views import GestureView, NightView

__all__ = [
    "DEVIL_PRIOR",
    "WIN",
    "Beliefs",
    "Facts",
    "distance",
    "draft_tastes",
    "effect_value",
    "gain",
    "leader_aims",
    "monster_chance",
    "night_value",
    "potential",
    "read_facts",
    "withdrawal_propensity",
    "withdrawal_rates",
    "world_gesture",
]

#: Likelihood that a Devil shows one given role (a Devil has about eight).
DEVIL_PRIOR: Final = 0.125

_ROLES: Final = tuple(Role)


def _role(key: str) -> Role:
    r = parse_role(key)
    assert r is not None
    return r


def _weighted(rng: random.Random, cands: Sequence[Card], ws: Sequence[float]) -> Card:
    """``rng.choices(cands, ws)[0]``: the same draw (CPython's cumulative weights
    and ``bisect`` on one ``random()``), without its generality; ``ws`` sum above 0."""
    cum = list(accumulate(ws))
    return cands[bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(cum) - 1)]


@dataclass(frozen=True, slots=True)
class Facts:
    """The observation read into engine types (all public or the player's own)."""

    me: str
    players: tuple[str, ...]
    phase: Phase
    night: int
    order: tuple[str, ...]  # tonight's draft order, active player first
    card: Card | None  # own card (None before the draft ends for me)
    received: tuple[Card, ...]  # the hand I received tonight
    hand: tuple[Card, ...]  # the hand I hold while choosing
    death: str | None  # who took Death tonight
    deck: tuple[Card, ...]
    sheet: tuple[Role, ...]
    journals: Mapping[str, Mapping[Role, int]]
    shown: Mapping[str, Role]  # revealed (or own) gestures: the role shown
    gestures: Mapping[str, GestureView]
    withdrawals: Mapping[str, Withdrawal]
    removed_early: frozenset[str]  # removed at steps 1+ to 3 (the Zombies' narration)
    blind: str | None = None  # who took a face-down card tonight (public)

    @property
    def role(self) -> Role | None:
        return self.card.role if self.card is not None else None


_REMOVING: Final = frozenset(("kill", "abduct", "damn", "kill-guardian", "dies-on-priest",
                              "tough-killed", "tough-abducted", "reflex", "cannibals"))


def read_facts(obs: Observation) -> Facts:
    v = obs.view
    me = obs.player
    players = v.players
    a = players.index(v.active)
    order = tuple(players[(a + i) % len(players)] for i in range(len(players)))
    card = None
    death = None
    shown: dict[str, Role] = {}
    gestures: dict[str, GestureView] = {}
    withdrawals: dict[str, Withdrawal] = {}
    journals: dict[str, dict[Role, int]] = {}
    for s in v.seats:
        journals[s.name] = {_role(k): x for k, x in s.journal}
        if s.death:
            death = s.name
        if s.name == me and s.card is not None:
            card = card_of(s.card)
        if s.gesture is not None:
            gestures[s.name] = s.gesture
            shown[s.name] = _role(s.gesture.shows)
        if s.withdrawal is not None:
            withdrawals[s.name] = s.withdrawal
    removed: set[str] = set()
    for e in v.narration:
        if e.event in _REMOVING:
            if e.event in ("dies-on-priest", "cannibals"):
                removed.add(e.player)
            if e.target is not None and e.event != "dies-on-priest":
                removed.add(e.target)
            if e.event == "tough-killed" or e.event == "tough-abducted":
                removed.add(e.player)
    return Facts(
        me=me, players=players, phase=obs.phase, night=v.night, order=order, card=card,
        received=tuple(card_of(c) for c in v.received),
        hand=tuple(card_of(c) for c in v.hand) if v.hand else (),
        death=death, deck=obs.deck, sheet=tuple(_role(k) for k in v.journal_roles),
        journals=journals, shown=shown, gestures=gestures, withdrawals=withdrawals,
        removed_early=frozenset(removed), blind=v.blind_pick)


class Beliefs:
    """Where the hidden cards can be, from the draft and the gestures."""

    def __init__(self, f: Facts, drafters: Mapping[Role, float] | None = None,
                 sharpness: float = 3.0, *, picker: Mapping[Role, float] | None = None,
                 eps: float = 0.05, rng: random.Random | None = None,
                 marginal_samples: int = 24,
                 tastes: Mapping[str, Mapping[Role, float]] | None = None,
                 temperature: float = 0.0,
                 alt: tuple[Mapping[Role, float], float, float, float] | None = None
                 ) -> None:
        """``drafters``: per-role goal rates; when given, every other player is
        modelled as drafting toward its own journal (public), so the cards it
        would have liked are likelier in its hands.

        ``picker``: the rates of a drafter that keeps the card of best
        ``rate x gain`` for its own journal (the heuristic bot's draft,
        :func:`darkcity.bots.heuristic.draft_choice`). When given, the deal is
        drawn pick by pick: a player before this one kept a card that beat
        every card this player received (and those kept between them), a
        player after it keeps the best of what is passed on; a pick the model
        would not make keeps weight ``eps``. :meth:`marginals` then counts
        ``marginal_samples`` deals drawn with ``rng``.

        ``tastes``: per player, multipliers on the ``picker``'s rates (a player
        seen to keep one role night after night: :func:`draft_tastes`).

        ``temperature``: the ``picker`` mixes its draft (a quantal response: each card
        kept with weight ``exp((value - best) / temperature)``, as the strong bot
        drafts since issue #54); a pick weighs its likelihood under that mixture, at
        least ``eps``. 0: the picker keeps the best card.

        ``alt``: a second model of the drafters, ``(rates, temperature, weight, eps)``:
        each pick weighs ``(1 - weight)`` its likelihood under ``picker`` plus ``weight``
        its likelihood under that one, a pick off it weighted its own ``eps`` (a mixture
        of the two, the weight its posterior)."""
        self.facts = f
        self._tastes = tastes or {}
        self._pref: dict[tuple[str, Card], float] | None = None
        self._drafters = drafters
        self._sharpness = sharpness
        self._picker = picker
        self._eps = eps
        self._temp = temperature
        self._alt = alt if alt is not None and alt[2] > 0 else None
        self._av: dict[str, dict[Card, float]] = {}
        self._alt_best = 0.0
        self._alt_sum = 0.0
        self._rng = rng
        self._msamples = marginal_samples
        self._pv: dict[str, dict[Card, float]] = {}
        #: the hands the others chose from, in the last deal drawn pick by pick
        self.hands: dict[str, tuple[Card, ...]] = {}
        shuffled = [c for c in f.deck if c.role is not Role.DEATH]
        mine = f.card
        seen = set(f.received)
        k = f.order.index(f.me)
        self.up = [p for p in f.order[:k] if p != f.death]
        self.down = [p for p in f.order[k + 1:] if p != f.death]
        down_pool = [c for c in f.received if c != mine]
        up_pool = [c for c in shuffled if c not in seen and c != mine]
        self.pool: dict[str, list[Card]] = {}
        for p in self.up:
            self.pool[p] = up_pool
        for p in self.down:
            self.pool[p] = down_pool
        # the last drafter reached for the face-down cards (the table saw it): its
        # card is one this player never saw; once the draft is over and nobody did,
        # it kept a card of the hand
        self._blind_known = f.phase is not Phase.DRAFT or f.blind is not None
        last = f.order[-1]
        if f.blind is not None and f.blind == last and last in self.pool:
            self.pool[last] = up_pool
        self.fixed: dict[str, Card] = {}
        if mine is not None:
            self.fixed[f.me] = mine
        if f.death is not None:
            self.fixed[f.death] = next(c for c in f.deck if c.role is Role.DEATH)
        self._marg: dict[str, dict[Role, float]] | None = None
        self._passed_sum = 0.0  # (a mixing picker) the weights of a hand passed on
        self._up_cards: list[Card] | None = None  # the cards a deal's upstream picks come from

    def _like(self, p: str, c: Card) -> float:
        rates = self._drafters
        if rates is None:
            return 1.0
        if self._pref is None:
            self._pref = {}
        key = (p, c)
        x = self._pref.get(key)
        if x is None:
            j = self.facts.journals.get(p, {})
            x = math.exp(self._sharpness * rates.get(c.role, 0.3) * gain(j, c.role))
            self._pref[key] = x
        return x

    def weight(self, p: str, c: Card) -> float:
        """Prior weight of ``p`` holding ``c`` given its journal and what it showed."""
        s = self.facts.shown.get(p)
        if s is None:
            return self._like(p, c)
        if c.role is s:
            return self._like(p, c)
        if c.role is Role.DEVIL and s not in NO_DISGUISE:
            g = self.facts.gestures.get(p)
            if g is not None and len(g.targets) == 2 and g.targets[0] == g.targets[1]:
                return 0.0  # only a real advanced Hunter doubles its arrows
            return DEVIL_PRIOR
        return 0.0

    def marginals(self) -> dict[str, dict[Role, float]]:
        """Per other player, the probability of each real role (approximate)."""
        if self._marg is not None:
            return self._marg
        if self._picker is not None and self.pool:
            rng = self._rng if self._rng is not None else random.Random(0)
            counts: dict[str, dict[Role, float]] = {p: {} for p in self.pool}
            m = max(1, self._msamples)
            for _ in range(m):
                deal = self.sample(rng)
                for p, row in counts.items():
                    r = deal[p].role
                    row[r] = row.get(r, 0.0) + 1.0 / m
            self._marg = counts
            return counts
        out: dict[str, dict[Role, float]] = {}
        plain = self._drafters is None and not self.facts.shown
        by_pool: dict[int, dict[Role, float]] = {}
        for p, pool in self.pool.items():
            if plain and pool:  # every card of a pool alike: one distribution per pool
                got = by_pool.get(id(pool))
                if got is None:
                    got = {}
                    for c in pool:
                        got[c.role] = got.get(c.role, 0.0) + 1.0
                    n = len(pool)
                    got = by_pool[id(pool)] = {r: x / n for r, x in got.items()}
                out[p] = got
                continue
            w: dict[Role, float] = {}
            for c in pool:
                x = self.weight(p, c)
                if x:
                    w[c.role] = w.get(c.role, 0.0) + x
            total = sum(w.values())
            if total <= 0:  # inconsistent pools (a face-down pick): trust the gesture
                s = self.facts.shown.get(p)
                w = {s: 1.0} if s is not None else {c.role: 1.0 for c in pool}
                total = sum(w.values()) or 1.0
            out[p] = {r: x / total for r, x in w.items()}
        self._marg = out
        return out

    def _shown_weight(self, p: str, c: Card) -> float:
        s = self.facts.shown.get(p)
        if s is None or c.role is s:
            return 1.0
        if c.role is Role.DEVIL and s not in NO_DISGUISE:
            g = self.facts.gestures.get(p)
            if g is not None and len(g.targets) == 2 and g.targets[0] == g.targets[1]:
                return 0.0
            return DEVIL_PRIOR
        return 0.0

    def _values(self, p: str, rates: Mapping[Role, float] | None = None,
                cache: dict[str, dict[Card, float]] | None = None) -> dict[Card, float]:
        """What the ``picker`` model's player ``p`` sees in each card (or the model of
        ``rates``, kept in ``cache``)."""
        if cache is None:
            cache = self._pv
        x = cache.get(p)
        if x is None:
            picker = rates if rates is not None else self._picker
            assert picker is not None
            j = self.facts.journals.get(p, {})
            taste = self._tastes.get(p, {})
            by_role: dict[Role, float] = {}
            x = {}
            for c in self.facts.deck:
                v = by_role.get(c.role)
                if v is None:
                    v = by_role[c.role] = (picker.get(c.role, 0.3) * taste.get(c.role, 1.0)
                                           * gain(j, c.role))
                x[c] = v
            cache[p] = x
        return x

    def _alt_values(self, p: str) -> dict[Card, float]:
        assert self._alt is not None
        return self._values(p, self._alt[0], self._av)

    def _up_weights(self, cands: Sequence[Card], best: float, vals: Mapping[Card, float],
                    t: float, rest: float, eps: float | None = None) -> list[float]:
        """Each candidate's weight as the card a player before this one kept, having
        passed on cards of value at most ``best`` (``rest``: their mixture's weight)."""
        if eps is None:
            eps = self._eps
        if t > 0:  # p kept c from what it passed on and c: its likelihood
            ws = []
            for c in cands:
                e = math.exp(min(0.0, vals[c] - best) / t) if vals[c] < best else 1.0
                x = e / (e + rest) if vals[c] < best else 1.0 / (1.0 + rest * math.exp(
                    (best - vals[c]) / t))
                ws.append(max(eps, x))
            return ws
        lo = best - 1e-3
        return [1.0 if vals[c] >= lo else eps for c in cands]

    def _down_weights(self, hand: Sequence[Card], best: float, vals: Mapping[Card, float],
                      t: float, eps: float | None = None) -> list[float]:
        """Each card's weight as the one a player after this one keeps from ``hand``."""
        if eps is None:
            eps = self._eps
        if t > 0 and best < 1e8:
            return [max(eps, math.exp((vals[c] - best) / t)) for c in hand]
        lo = best - 1e-3
        return [1.0 if vals[c] >= lo else eps for c in hand]

    def _pick(self, rng: random.Random, p: str, cands: Sequence[Card], best: float,
              ) -> Card | None:
        """One card for ``p`` among ``cands``: the model's pick (value at least
        ``best``) or, with weight ``eps``, another; times the reveal's weight."""
        ws = self._up_weights(cands, best, self._values(p), self._temp, self._passed_sum)
        if self._alt is not None:
            _r, t, a, e = self._alt
            wa = self._up_weights(cands, self._alt_best, self._alt_values(p), t, self._alt_sum,
                                  e)
            ws = [(1 - a) * x + a * y for x, y in zip(ws, wa, strict=True)]
        if p in self.facts.shown:
            ws = [x * self._shown_weight(p, c) for x, c in zip(ws, cands, strict=True)]
        if not any(ws):
            return None
        return _weighted(rng, cands, ws)

    def _sample_picks(self, rng: random.Random) -> dict[str, Card] | None:
        """A deal drawn pick by pick under the ``picker`` model (None: no
        consistent deal; the caller falls back). The hand each player chose
        from is left in :attr:`hands`."""
        f = self.facts
        hands: dict[str, tuple[Card, ...]] = {}
        self.hands = hands
        cards = dict(self.fixed)
        mine = f.card
        received = list(f.received)
        pool = self._up_cards
        if pool is None:  # the same for every deal drawn: made once
            pool = self._up_cards = [c for c in f.deck if c.role is not Role.DEATH
                                     and c not in received and c != mine]
        # before me, last first: p kept a card at least as good (for p) as every
        # card it passed on (what I received, and what the players between kept)
        passed = list(received)
        taken = set(cards.values())
        for p in reversed(self.up):
            vals = self._values(p)
            best = max([vals[c] for c in passed], default=-1e9)
            if self._temp > 0:  # the mixture's weight of what p passed on, best = 1
                self._passed_sum = sum(math.exp((vals[c] - best) / self._temp)
                                       for c in passed)
            if self._alt is not None:  # the same under the second model
                av = self._alt_values(p)
                self._alt_best = max([av[c] for c in passed], default=-1e9)
                at = self._alt[1]
                self._alt_sum = (sum(math.exp((av[c] - self._alt_best) / at) for c in passed)
                                 if at > 0 else 0.0)
            cands = [c for c in pool if c not in taken]
            c = self._pick(rng, p, cands, best)
            if c is None:
                return None
            cards[p] = c
            taken.add(c)
            hands[p] = (*passed, c)
            passed.append(c)
        face_down = [c for c in pool if c not in taken]
        hand = [c for c in received if c != mine]
        last = f.order[-1]
        for q in self.down:
            vals = self._values(q)
            best = max([vals[c] for c in hand], default=-1e9)
            fd_w = 0.0
            if q == last and face_down and f.blind == q:  # seen taking a face-down card
                fws = [self._shown_weight(q, c) for c in face_down]
                if not any(fws):
                    return None
                hands[q] = tuple(hand)
                cards[q] = _weighted(rng, face_down, fws)
                continue
            if q == last and face_down and not self._blind_known:
                unseen = [c for c in f.deck if c.role is not Role.DEATH and c not in hand]
                avg = sum(vals[c] for c in unseen) / max(1, len(unseen))
                fd = 0.9 * avg
                fd_w = (1.0 if fd > best else self._eps) * (
                    sum(self._shown_weight(q, c) for c in face_down) / len(face_down))
                if fd > best:
                    best = 1e9  # the model takes a face-down card: every hand pick is off-model
            ws = self._down_weights(hand, best, vals, self._temp)
            if self._alt is not None and hand:
                _r, t, a, e = self._alt
                av = self._alt_values(q)
                wa = self._down_weights(hand, max(av[c] for c in hand), av, t, e)
                ws = [(1 - a) * x + a * y for x, y in zip(ws, wa, strict=True)]
            if q in f.shown:
                ws = [x * self._shown_weight(q, c) for x, c in zip(ws, hand, strict=True)]
            total = sum(ws)
            if total + fd_w <= 0:
                return None
            hands[q] = tuple(hand)
            if fd_w and rng.random() * (total + fd_w) >= total:
                fws = [self._shown_weight(q, c) for c in face_down]
                c = _weighted(rng, face_down, fws)
                face_down.remove(c)
            else:
                c = _weighted(rng, hand, ws)
                hand.remove(c)
            cards[q] = c
        return {p: cards[p] for p in f.players}

    def sample(self, rng: random.Random, tries: int = 8) -> dict[str, Card]:
        """One deal of tonight's cards consistent with what this player knows."""
        f = self.facts
        if self._picker is not None and f.received:
            for _ in range(3):
                deal = self._sample_picks(rng)
                if deal is not None:
                    return deal
        self.hands = {}
        order = sorted(self.pool, key=lambda p: (f.shown.get(p) is None, rng.random()))
        for _ in range(tries):
            used = set(self.fixed.values())
            cards = dict(self.fixed)
            ok = True
            for p in order:
                cands = [c for c in self.pool[p] if c not in used]
                ws = [self.weight(p, c) for c in cands]
                if not any(ws):
                    # the last player took a face-down card, or a rarer case: any unseen
                    # card of the shown role (or any unused card) will do
                    rest = [c for c in f.deck if c not in used and c.role is not Role.DEATH]
                    cands = [c for c in rest if self.weight(p, c) > 0]
                    if not cands:
                        ok = False
                        break
                    ws = [self.weight(p, c) for c in cands]
                c = rng.choices(cands, ws)[0]
                used.add(c)
                cards[p] = c
            if ok:
                return {p: cards[p] for p in f.players}
        # nothing consistent found (rare): fill the gaps with any unused cards; the
        # worlds built on it replace the gestures that do not fit (World)
        used = set(self.fixed.values())
        cards = dict(self.fixed)
        rest = [c for c in f.deck if c.role is not Role.DEATH and c not in used]
        rng.shuffle(rest)
        for p in f.players:
            if p not in cards:
                fits = [c for c in rest if self.weight(p, c) > 0] or rest
                cards[p] = fits[0]
                rest.remove(fits[0])
        return {p: cards[p] for p in f.players}


def world_gesture(view_g: GestureView, card: Card) -> Gesture:
    """A revealed gesture as the engine's :class:`Gesture`, for a holder of ``card``."""
    shows = _role(view_g.shows)
    return Gesture(
        tuple(view_g.targets),
        shows if card.role is Role.DEVIL else None,
        _role(view_g.kind) if view_g.kind else None,
        _gender(view_g.seeks),
    )


def _gender(x: str | None) -> Gender | None:
    return Gender(x) if x else None


# ---------------------------------------------------------------------------
# Values


def _rows(j: Mapping[Role, int]) -> tuple[int, ...]:
    """The journal's scored rows, highest first (all the conditions read)."""
    return tuple(sorted((x for x in j.values() if x > 0), reverse=True))


_DISTANCE: dict[tuple[int, ...], int] = {}
_POTENTIAL: dict[tuple[int, ...], float] = {}
_GAIN: dict[tuple[tuple[int, ...], int, int], float] = {}


def _distance(rows: tuple[int, ...]) -> int:
    d = _DISTANCE.get(rows)
    if d is None:
        total = sum(rows)
        six = max(0, 6 - len(rows))
        eight = max(0, 8 - total)
        four = max(0, 4 - (rows[0] if rows else 0))
        deficits = [*sorted(max(0, 2 - x) for x in rows), 2, 2, 2]
        pairs = sum(deficits[:3])
        d = _DISTANCE[rows] = min(six, eight, four, pairs)
    return d


def _potential(rows: tuple[int, ...]) -> float:
    v = _POTENTIAL.get(rows)
    if v is None:
        total = sum(rows)
        deficits = sorted(max(0, 2 - x) for x in rows)
        deficits += [2, 2, 2]
        ds = (max(0, 6 - len(rows)), max(0, 8 - total), max(0, 4 - (rows[0] if rows else 0)),
              sum(deficits[:3]))
        lo = min(ds)
        v = _POTENTIAL[rows] = lo - math.log(sum(math.exp(lo - d) for d in ds))
    return v


def distance(j: Mapping[Role, int]) -> int:
    """XP still missing for the nearest victory condition (0: met)."""
    return _distance(_rows(j))


def potential(j: Mapping[Role, int]) -> float:
    """A smooth distance to victory: the soft minimum of the four conditions'
    deficits (a journal near two conditions is nearer than one near one)."""
    return _potential(_rows(j))


def gain(j: Mapping[Role, int], role: Role, xp: int = 1) -> float:
    """What ``xp`` more XP in ``role`` is worth on journal ``j``."""
    if xp <= 0:
        return 0.0
    rows = _rows(j)
    had = max(0, j.get(role, 0))
    key = (rows, had, xp)
    g = _GAIN.get(key)
    if g is None:
        after = list(rows)
        if had > 0:
            after.remove(had)
        after.append(had + xp)
        new = tuple(sorted(after, reverse=True))
        won = _distance(new) == 0
        g = _GAIN[key] = (_potential(rows) - _potential(new)) + 0.1 * xp + (
            4.0 if won else 0.0)
    return g


WIN: Final = 10.0


def night_value(me: int, result: NightResult, before: Sequence[Mapping[Role, int]],
                deny: float = 0.6, ahead: float = 0.0) -> float:
    """A resolved night's worth to seat ``me``: progress, less the others' progress.

    ``ahead`` looks one night further near a victory: a player this night leaves
    one XP short of a condition wins the next one with about that probability, so
    it is worth ``ahead x WIN`` to that player (for ``me``, or against it)."""
    winners = result.winners
    if winners:
        return WIN / len(winners) if me in winners else -WIN
    roles = [c.role for c in (result.night.cards[p] for p in result.night.players)]
    val = 0.0
    threat = 0.0
    for i, x in enumerate(result.xp):
        if not x:
            continue
        g = gain(before[i], roles[i], x)
        d = distance(before[i])
        if i == me:
            val += g
        else:
            val -= deny * g / max(1, len(before) - 1) * (2.0 if d <= 2 else 1.0)
        if ahead and x > 0 and d > 1:
            after = dict(before[i])
            after[roles[i]] = after.get(roles[i], 0) + x
            if distance(after) == 1:
                if i == me:
                    val += ahead * WIN
                else:
                    threat += ahead * WIN
    return val - min(WIN, threat)


_EFFECT_VALUE: Final = {
    Effect.KILL: 1.0, Effect.ABDUCT: 1.0, Effect.EXORCISE: 1.0, Effect.HIT: 0.15,
    Effect.KILL_NO_XP: -0.6, Effect.ATTACKER_DIES: -2.0, Effect.REFLEX: -2.0,
    Effect.MISS: -0.05, Effect.NOTHING: -0.05, Effect.CANNIBAL: -0.3, Effect.DAMN: 0.5,
}


def effect_value(attacker: Role, target: Mapping[Role, float]) -> float:
    """Expected worth of ``attacker``'s attack on a player with role distribution
    ``target`` (combat panels of :mod:`darkcity.cast`)."""
    total = 0.0
    for r, p in target.items():
        if r is Role.DEATH:
            continue
        total += p * _EFFECT_VALUE[effect(attacker, r)]
    return total


def monster_chance(target: Mapping[Role, float]) -> float:
    """Probability of a monster that is no Devil (a photo, an arrow worth shooting)."""
    return sum(p for r, p in target.items() if CAST[r].monster and r is not Role.DEVIL)


_LETHAL: Final = frozenset((Effect.KILL, Effect.KILL_NO_XP, Effect.ABDUCT))
_ATTACKERS: Final = frozenset((Role.ANGEL, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE,
                               Role.HUNTER, Role.ALIEN))


def withdrawal_propensity(history: Sequence[NightView], me: str, *, prior: float = 0.15,
                          weight: float = 6.0) -> float:
    """How often the other players withdrew when a shown attacker aimed at them
    with a lethal attack (public: every finished night is shown in full);
    a Beta prior of mean ``prior`` and strength ``weight``."""
    threatened = withdrew = 0
    for nv in history:
        roles = {p: _role(c.role) for p, c in nv.cards}
        shows = {p: g for p, g in nv.gestures}
        out = {p for p, w in nv.withdrawals if w is True}
        for p, r in roles.items():
            if p == me or r in (Role.DEATH, Role.DEVIL, Role.DEMONIAC):
                continue
            for q, g in shows.items():
                if q == p:
                    continue
                sq = _role(g.shows)
                if sq not in _ATTACKERS:
                    continue
                aimed = p in g.targets or (sq is Role.ALIEN and g.kind == r.key)
                if aimed and effect(sq, r) in _LETHAL:
                    threatened += 1
                    withdrew += p in out
                    break
    return (withdrew + prior * weight) / (threatened + weight)


def leader_aims(history: Sequence[NightView], me: str, *,
                journals: Mapping[str, Mapping[Role, int]] | None = None,
                prior: float = 0.15, hit: float = 0.85) -> dict[str, float]:
    """Per other player, the probability that it hunts the leader (aims at the
    player nearest a victory whenever it can), from the finished nights (public).

    A comparison of two models by their likelihood, aim by aim: a leader hunter
    hits a leader with probability ``hit`` (journals rebuilt from the nights may
    misplace a leader), anyone else as often as chance (its arrows among the
    rivals). ``prior``: the share of leader hunters expected at a table. Only
    gestures free to aim at anyone count (a Vampire's, a Hunter's...), and only
    where a leader stands out (while everyone is level an aim tells nothing).
    A measure of how much more often than chance a player aims at the leader
    would not do: a player who aims where its role scores (the heuristic) also
    hits the leader more often than chance, and would be read as a hunter.

    ``journals`` (the current public journals) gives the journals the first
    night started from (the free XP), the nights' XP subtracted."""
    rows: dict[str, dict[Role, int]] = {}
    if journals is not None:
        for p, j in journals.items():
            rows[p] = dict(j)
        for nv in history:
            for p, x in nv.xp:
                role = _role(dict(nv.cards)[p].role)
                if x > 0 and p in rows:
                    rows[p][role] = max(0, rows[p].get(role, 0) - x)
    logit: dict[str, float] = {}
    for nv in history:
        players = [p for p, _ in nv.cards]
        roles = {p: _role(c.role) for p, c in nv.cards}
        dist = {p: distance(rows.get(p, {})) for p in players}
        for q, g in nv.gestures:
            if q == me or g.names is not None or not g.targets:
                continue
            if CAST[_role(g.shows)].gesture.reach is not Reach.ANYONE:
                continue
            rivals = [x for x in players if x != q and roles[x] is not Role.DEATH]
            if len(rivals) < 2:
                continue
            best = min(dist[x] for x in rivals)
            leaders = {x for x in rivals if dist[x] == best}
            chance = min(1.0, len(g.targets) * len(leaders) / len(rivals))
            if chance >= hit:
                continue  # nothing to tell the models apart
            at = any(t in leaders for t in g.targets)
            logit[q] = logit.get(q, 0.0) + (math.log(hit / chance) if at
                                            else math.log((1 - hit) / (1 - chance)))
        for p, x in nv.xp:
            if x > 0:
                j = rows.setdefault(p, {})
                j[roles[p]] = j.get(roles[p], 0) + x
    z0 = math.log(prior / (1 - prior))
    return {q: 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z0 + lr))))
            for q, lr in logit.items()}


def withdrawal_rates(history: Sequence[NightView], me: str, *, prior: float = 0.15,
                     calm: float = 0.02, lower: float = 0.5, weight: float = 4.0
                     ) -> dict[str, tuple[float, float, float]]:
    """Per other player, from the finished nights (public): how often it withdrew
    (fully) when threatened and when not, and, holding a Hunter, how often it
    lowered an arrow aimed at a player who showed a guardian (whose death would
    cost the Hunter its XP). Beta priors of means ``prior`` (the table's
    propensity is a good one), ``calm`` and ``lower``, of strength ``weight``.
    Devils and Demoniacs count like everybody (they may flee too); Death never
    withdraws."""
    seen: dict[str, list[int]] = {}
    for nv in history:
        roles = {p: _role(c.role) for p, c in nv.cards}
        shows = dict(nv.gestures)
        out = {p for p, w in nv.withdrawals if w is True}
        lowered = {p: w for p, w in nv.withdrawals if isinstance(w, tuple)}
        for p, r in roles.items():
            if p == me or r is Role.DEATH:
                continue
            row = seen.setdefault(p, [0, 0, 0, 0, 0, 0])
            g = shows.get(p)
            if r is Role.HUNTER and g is not None:
                for i, t in enumerate(g.targets):
                    tg = shows.get(t)
                    if tg is not None and tg.names is None and CAST[_role(tg.shows)].guardian:
                        row[4] += 1
                        row[5] += i in lowered.get(p, ())
            hit = False
            for q, g in shows.items():
                sq = _role(g.shows) if q != p and g.names is None else None
                if sq is None or sq not in _ATTACKERS:
                    continue
                aimed = p in g.targets or (sq is Role.ALIEN and g.kind == r.key)
                if aimed and effect(sq, r) in _LETHAL:
                    hit = True
                    break
            # threatened, fled; calm, fled; arrows at shown guardians, lowered
            k = 0 if hit else 2
            row[k] += 1
            row[k + 1] += p in out
    return {p: ((row[1] + prior * weight) / (row[0] + weight),
                (row[3] + calm * weight) / (row[2] + weight),
                (row[5] + lower * weight) / (row[4] + weight)) for p, row in seen.items()}


def draft_tastes(history: Sequence[NightView], me: str, *, weight: float = 6.0,
                 least: int = 2) -> dict[str, dict[Role, float]]:
    """Per other player, how much more readily than the table it keeps each role
    (public: every finished night shows every card): the share of its nights it held
    the role, under a prior of the table's own share worth ``weight`` nights, over
    the table's share. A player who keeps the Zombie night after night reads about
    above 2 there and at most 1 elsewhere; with fewer than ``least`` nights seen, nobody
    has a taste (an empty answer: everyone drafts like the model).

    The strong bot's draft model (:class:`Beliefs` ``tastes``) multiplies the
    picker's rates by these, so a player stacking one row is expected to take its
    card when it is passed on, and the card's denial is valued in the sampled
    nights."""
    if len(history) < least:
        return {}
    held: dict[str, dict[Role, int]] = {}
    table: dict[Role, int] = {}
    for nv in history:
        for p, c in nv.cards:
            r = _role(c.role)
            if r is Role.DEATH:
                continue
            table[r] = table.get(r, 0) + 1
            if p != me:
                row = held.setdefault(p, {})
                row[r] = row.get(r, 0) + 1
    total = sum(table.values())
    if not total:
        return {}
    out: dict[str, dict[Role, float]] = {}
    for p, row in held.items():
        nights = sum(row.values())
        out[p] = {r: (row.get(r, 0) + weight * n / total) / (nights + weight) / (n / total)
                  for r, n in table.items()}
    return out
