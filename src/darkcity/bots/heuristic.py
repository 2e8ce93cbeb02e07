"""``heuristic``: plays like a sensible human, fast (well under a millisecond).

* Set-up: the free XP on the row it expects to score most often.
* Draft: the card whose role best closes the distance to its nearest victory
  condition, weighted by how often that role meets its goal.
* Gestures: aims where its role scores by the combat panels and its beliefs
  from the draft (a Vampire keeps away from likely Priests, a Werewolf from
  likely Hunters, a Hunter from likely guardians). The Devil bluffs with the
  disguise and aim most likely to draw a withdrawal (or to damn, advanced).
* Withdrawal: after the reveal it resolves the night it thinks most likely
  (everyone what they showed) for each of its options, and withdraws when it
  would be removed for nothing (denying its killer), or lowers a Hunter arrow
  that would hit a guardian.
* Zombie: the neighbour whose death scores, by the same resolution.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from darkcity.bots.base import Bot, Observation, register
from darkcity.bots.knowledge import (
    Beliefs,
    Facts,
    effect_value,
    gain,
    monster_chance,
    night_value,
    read_facts,
    world_gesture,
)
from darkcity.bots.world import World, advanced
from darkcity.cast import CAST, Effect, Role, effect
from darkcity.decisions import (
    Decision,
    DraftPick,
    FaceDownPick,
    FreeXp,
    GestureChoice,
    LookAtHand,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.i18n import _
from darkcity.night import Card, Gesture, Night, possible_cast, proposal_immune

__all__ = ["DEFAULT_RATES", "HeuristicBot", "draft_choice", "gesture_scores"]

#: How often a role meets its goal in a night, roughly (6 players; the strong
#: bot ships trained figures, see ``scripts/train_strong.py``).
DEFAULT_RATES: Final[Mapping[Role, float]] = {
    Role.DEVIL: 0.35, Role.VAMPIRE: 0.45, Role.WEREWOLF: 0.4, Role.ZOMBIE: 0.35,
    Role.HUNTER: 0.35, Role.PRIEST: 0.7, Role.ANGEL: 0.35, Role.ALIEN: 0.3,
    Role.NECROMANCER: 0.2, Role.CREATURE: 0.25, Role.MUMMY: 0.3, Role.DEMONIAC: 0.3,
    Role.REPORTER: 0.4, Role.VOODOOIST: 0.6, Role.DEATH: 0.4,
}

_LETHAL: Final = frozenset((Effect.KILL, Effect.KILL_NO_XP, Effect.ABDUCT))
_DEVIL_LURE: Final = {Role.HUNTER: 0.35, Role.VAMPIRE: 0.2, Role.WEREWOLF: 0.15,
                      Role.PRIEST: 0.15, Role.ANGEL: 0.1}


def _noise(rng: random.Random) -> float:
    return rng.random() * 1e-3


def _card_value(j: Mapping[Role, int], role: Role, rates: Mapping[Role, float]) -> float:
    return rates.get(role, 0.3) * gain(j, role)


def draft_choice(f: Facts, legal: Sequence[Decision], rates: Mapping[Role, float],
                 rng: random.Random) -> Decision:
    """Set-up and draft decisions, by rates x progress to victory."""
    j = f.journals.get(f.me, {})
    first = legal[0]
    if isinstance(first, FreeXp):
        return max(legal, key=lambda d: rates.get(d.role, 0.3) + _noise(rng)
                   if isinstance(d, FreeXp) else -1.0)
    unseen = [c for c in f.deck if c.role is not Role.DEATH and c not in f.received]
    avg = (sum(_card_value(j, c.role, rates) for c in unseen) / len(unseen)) if unseen else 0.0
    if isinstance(first, TakeDeath | LookAtHand):
        death = _card_value(j, Role.DEATH, rates)
        # a hand of the last player holds two unseen cards: the better of two
        vals = sorted((_card_value(j, c.role, rates) for c in unseen), reverse=True)
        best_of_two = vals[len(vals) // 3] if vals else 0.0
        if death > best_of_two:
            names = [d for d in legal if isinstance(d, TakeDeath)]
            return _death_name(f, names, rng)
        return next(d for d in legal if isinstance(d, LookAtHand))
    best: Decision = first
    best_v = -1e9
    for d in legal:
        if isinstance(d, DraftPick):
            v = _card_value(j, d.card.role, rates)
        elif isinstance(d, FaceDownPick):
            v = avg * 0.9
        else:  # pragma: no cover
            continue
        v += _noise(rng)
        if v > best_v:
            best, best_v = d, v
    return best


def _death_name(f: Facts, names: Sequence[TakeDeath], rng: random.Random) -> TakeDeath:
    """Death chooses before looking at the hand, knowing nothing of tonight's
    cards: any player is as likely to be killed, so a random one."""
    return names[rng.randrange(len(names))]


# ---------------------------------------------------------------------------
# Gestures


def gesture_scores(f: Facts, beliefs: Beliefs, legal: Sequence[GestureChoice]
                   ) -> list[float]:
    """A quick score per candidate gesture from the draft beliefs."""
    assert f.card is not None
    card = f.card
    role = card.role
    marg = beliefs.marginals()
    prior: dict[Role, float] | None = None  # the deck's, for a player without beliefs

    def dist(p: str) -> Mapping[Role, float]:
        nonlocal prior
        m = marg.get(p)
        if m is None:
            if prior is None:
                prior = _deck_prior(f)
            return prior
        return m

    out: list[float] = []
    memo: dict[tuple[str, Role | None], float] = {}  # the Devil's sums per target
    for d in legal:
        g = d.gesture
        if role is Role.DEVIL:
            out.append(_devil_score(f, card, g, dist, memo))
        elif role is Role.HUNTER:
            ts = g.targets
            if len(ts) == 2 and ts[0] == ts[1]:
                m = dist(ts[0])
                tough = sum(p for r, p in m.items() if CAST[r].tough)
                out.append(1.2 * tough + (1 - tough) * effect_value(role, m))
            else:
                out.append(sum(effect_value(role, dist(t)) for t in ts))
        elif role is Role.ALIEN and g.kind is not None:
            k = g.kind
            n = sum(dist(p).get(k, 0.0) for p in f.players if p != f.me)
            out.append(min(2.0, n) * (1.0 if effect(role, k) in _LETHAL else 0.1))
        elif role is Role.VOODOOIST and g.kind is not None:
            k = g.kind
            harmful = (k in (Role.ANGEL, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE,
                             Role.HUNTER, Role.ALIEN)
                       and effect(k, role) in _LETHAL)
            out.append(sum(dist(p).get(k, 0.0) for p in f.players if p != f.me)
                       if harmful else 0.0)
        elif role is Role.REPORTER:
            out.append(min(1.0, sum(monster_chance(dist(t)) for t in g.targets)))
        elif role is Role.CREATURE and g.targets and g.seeks is not None:
            out.append(_proposal_chance(f, beliefs, card, g))
        elif role in (Role.ANGEL, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE):
            out.append(sum(effect_value(role, dist(t)) for t in g.targets))
        else:
            out.append(0.0)
    return out


def _deck_prior(f: Facts) -> dict[Role, float]:
    cards = [c for c in f.deck if c.role is not Role.DEATH and c != f.card]
    out: dict[Role, float] = {}
    for c in cards:
        out[c.role] = out.get(c.role, 0.0) + 1 / len(cards)
    return out


def _proposal_chance(f: Facts, beliefs: Beliefs, mine: Card, g: Gesture) -> float:
    t = g.targets[0]
    pool = beliefs.pool.get(t)
    if not pool:
        return 0.0
    good = 0
    for c in pool:
        night = Night(f.players, {t: c, f.me: mine})
        if c.identity is g.seeks and not proposal_immune(night, t, f.me):
            good += 1
    return good / len(pool)


def _devil_score(f: Facts, card: Card, g: Gesture,
                 dist: Callable[[str], Mapping[Role, float]],
                 memo: dict[tuple[str, Role | None], float] | None = None) -> float:
    """``memo`` keeps each target's sums for the other gestures of one decision
    (the same sums, so the same scores, at a fraction of the cost)."""
    shown = g.shows
    if shown is None:  # pragma: no cover - a Devil always shows a role
        return 0.0
    if memo is None:
        memo = {}
    score = _DEVIL_LURE.get(shown, 0.05)
    adv = advanced(card)
    for t in g.targets:
        # a target fearing for its life is the one who withdraws (W1, W4)
        if shown in (Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE, Role.HUNTER, Role.ANGEL):
            x = memo.get((t, shown))
            if x is None:
                x = memo[(t, shown)] = sum(p for r, p in dist(t).items()
                                           if effect(shown, r) in _LETHAL)
            score += 0.4 * x
        if adv:
            y = memo.get((t, None))
            if y is None:
                y = memo[(t, None)] = sum(p for r, p in dist(t).items()
                                          if r in (Role.ANGEL, Role.DEMONIAC))
            score += y
    return score


# ---------------------------------------------------------------------------
# Phase 3 and the Zombies: resolve the most likely night


def likely_world(f: Facts, beliefs: Beliefs, rng: random.Random) -> World:
    """Everybody is what they showed (cards drawn from the beliefs)."""
    cards = _truthful(beliefs, rng)
    cast = possible_cast(Night(f.players, cards, journal_roles=f.sheet))
    return World(f, cards, own_gesture(f), cast, rng)


def _truthful(beliefs: Beliefs, rng: random.Random) -> dict[str, Card]:
    f = beliefs.facts
    cards = dict(beliefs.fixed)
    used = set(cards.values())
    rest = [c for c in f.deck if c.role is not Role.DEATH]
    for p in f.players:
        if p in cards:
            continue
        s = f.shown.get(p)
        pool = [c for c in beliefs.pool.get(p, rest) if c not in used]
        cands = [c for c in pool if c.role is s] or [
            c for c in rest if c.role is s and c not in used] or pool or [
            c for c in rest if c not in used]
        c = cands[rng.randrange(len(cands))]
        cards[p] = c
        used.add(c)
    return cards


def best_by_resolution(f: Facts, world: World, legal: Sequence[Decision],
                       own: Gesture | None) -> Decision:
    me = f.players.index(f.me)
    before = [world.journals[p] for p in f.players]
    best: Decision = legal[0]
    best_v = -1e9
    for d in legal:
        if isinstance(d, WithdrawalChoice):
            ws = {f.me: d.withdrawal} if d.withdrawal is not False else {}
            v = night_value(me, world.resolve(gesture=own, withdrawals=ws), before)
            if d.withdrawal is True:
                v -= 0.08  # withdraw when doomed: it denies the killer
        else:
            assert isinstance(d, ZombieChoice)
            v = night_value(me, world.resolve(gesture=own, withdrawals=f.withdrawals,
                                              zombie_targets={f.me: d.target}), before)
        if v > best_v:
            best, best_v = d, v
    return best


def own_gesture(f: Facts) -> Gesture | None:
    gv = f.gestures.get(f.me)
    if gv is None or f.card is None:
        return None
    return world_gesture(gv, f.card)


@register
class HeuristicBot(Bot):
    name = "heuristic"
    level = 1
    description = _("Plays like a sensible human: drafts toward its nearest victory, aims "
                   "where its role scores, bluffs as the Devil, withdraws when doomed.")

    rates: Mapping[Role, float] = DEFAULT_RATES

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        f = read_facts(obs)
        first = legal[0]
        if isinstance(first, FreeXp | DraftPick | FaceDownPick | TakeDeath | LookAtHand):
            return draft_choice(f, legal, self.rates, self.rng)
        beliefs = Beliefs(f)
        if isinstance(first, GestureChoice):
            gs = [d for d in legal if isinstance(d, GestureChoice)]
            scores = gesture_scores(f, beliefs, gs)
            i = max(range(len(gs)), key=lambda k: scores[k] + _noise(self.rng))
            return gs[i]
        world = likely_world(f, beliefs, self.rng)
        return best_by_resolution(f, world, legal, own_gesture(f))
