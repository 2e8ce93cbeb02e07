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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from darkcity.bots.base import Observation, card_of
from darkcity.cast import CAST, Effect, Gender, Role, effect, parse_role
from darkcity.game import Phase
from darkcity.night import Card, Gesture, NightResult, Withdrawal
from darkcity.views import GestureView, NightView

__all__ = [
    "DEVIL_PRIOR",
    "WIN",
    "Beliefs",
    "Facts",
    "distance",
    "effect_value",
    "gain",
    "monster_chance",
    "night_value",
    "potential",
    "read_facts",
    "withdrawal_propensity",
    "world_gesture",
]

#: Likelihood that a Devil shows one given role (a Devil has about eight).
DEVIL_PRIOR: Final = 0.125

_ROLES: Final = tuple(Role)
#: A Devil never shows these (R-20).
_NO_DISGUISE: Final = frozenset((Role.DEVIL, Role.NECROMANCER, Role.CREATURE, Role.DEATH))


def _role(key: str) -> Role:
    r = parse_role(key)
    assert r is not None
    return r


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
        removed_early=frozenset(removed))


class Beliefs:
    """Where the hidden cards can be, from the draft and the gestures."""

    def __init__(self, f: Facts, drafters: Mapping[Role, float] | None = None,
                 sharpness: float = 3.0) -> None:
        """``drafters``: per-role goal rates; when given, every other player is
        modelled as drafting toward its own journal (public), so the cards it
        would have liked are likelier in its hands."""
        self.facts = f
        self._pref: dict[tuple[str, Card], float] | None = None
        self._drafters = drafters
        self._sharpness = sharpness
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
        self.fixed: dict[str, Card] = {}
        if mine is not None:
            self.fixed[f.me] = mine
        if f.death is not None:
            self.fixed[f.death] = next(c for c in f.deck if c.role is Role.DEATH)
        self._marg: dict[str, dict[Role, float]] | None = None

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
        if c.role is Role.DEVIL and s not in _NO_DISGUISE:
            g = self.facts.gestures.get(p)
            if g is not None and len(g.targets) == 2 and g.targets[0] == g.targets[1]:
                return 0.0  # only a real advanced Hunter doubles its arrows
            return DEVIL_PRIOR
        return 0.0

    def marginals(self) -> dict[str, dict[Role, float]]:
        """Per other player, the probability of each real role (approximate)."""
        if self._marg is not None:
            return self._marg
        out: dict[str, dict[Role, float]] = {}
        for p, pool in self.pool.items():
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

    def sample(self, rng: random.Random, tries: int = 8) -> dict[str, Card]:
        """One deal of tonight's cards consistent with what this player knows."""
        f = self.facts
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


def distance(j: Mapping[Role, int]) -> int:
    """XP still missing for the nearest victory condition (0: met)."""
    rows = sorted((x for x in j.values() if x > 0), reverse=True)
    total = sum(rows)
    six = max(0, 6 - len(rows))
    eight = max(0, 8 - total)
    four = max(0, 4 - (rows[0] if rows else 0))
    deficits = [*sorted(max(0, 2 - x) for x in rows), 2, 2, 2]
    pairs = sum(deficits[:3])
    return min(six, eight, four, pairs)


def potential(j: Mapping[Role, int]) -> float:
    """A smooth distance to victory: the soft minimum of the four conditions'
    deficits (a journal near two conditions is nearer than one near one)."""
    rows = sorted((x for x in j.values() if x > 0), reverse=True)
    total = sum(rows)
    deficits = sorted(max(0, 2 - x) for x in rows)
    deficits += [2, 2, 2]
    ds = (max(0, 6 - len(rows)), max(0, 8 - total), max(0, 4 - (rows[0] if rows else 0)),
          sum(deficits[:3]))
    lo = min(ds)
    return lo - math.log(sum(math.exp(lo - d) for d in ds))


def gain(j: Mapping[Role, int], role: Role, xp: int = 1) -> float:
    """What ``xp`` more XP in ``role`` is worth on journal ``j``."""
    if xp <= 0:
        return 0.0
    after = dict(j)
    after[role] = after.get(role, 0) + xp
    won = distance(after) == 0
    return (potential(j) - potential(after)) + 0.1 * xp + (4.0 if won else 0.0)


WIN: Final = 10.0


def night_value(me: int, result: NightResult, before: Sequence[Mapping[Role, int]],
                deny: float = 0.6) -> float:
    """A resolved night's worth to seat ``me``: progress, less the others' progress."""
    winners = result.winners
    if winners:
        return WIN / len(winners) if me in winners else -WIN
    roles = [c.role for c in (result.night.cards[p] for p in result.night.players)]
    val = 0.0
    for i, x in enumerate(result.xp):
        if not x:
            continue
        g = gain(before[i], roles[i], x)
        if i == me:
            val += g
        else:
            val -= deny * g / max(1, len(before) - 1) * (2.0 if distance(before[i]) <= 2
                                                          else 1.0)
    return val


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
