"""Sampled worlds: a full night built from a deal a player believes possible,
with a model of the choices the player cannot see, resolved by the engine.

The opponent model is a behaviour model, not a rule: gestures are shaped by
the cast's tables (:data:`darkcity.cast.CAST`) and the engine's
:func:`~darkcity.night.neighbours`; what they cause is decided by
:func:`~darkcity.night.resolve` alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final

from darkcity.bots.knowledge import Facts, world_gesture
from darkcity.cast import CAST, NO_DISGUISE, Edition, Effect, Gender, Reach, Role, effect
from darkcity.game import gesture_options
from darkcity.night import Card, Gesture, Night, NightResult, Withdrawal, neighbours, resolve

__all__ = ["World", "advanced", "all_gestures", "model_gesture", "threatened"]

_LETHAL: Final = frozenset((Effect.KILL, Effect.KILL_NO_XP, Effect.ABDUCT))
_PANEL_ROLES: Final = frozenset((Role.ANGEL, Role.DEVIL, Role.VAMPIRE, Role.WEREWOLF,
                                 Role.ZOMBIE, Role.HUNTER, Role.ALIEN))
_SEEK: Final = (Gender.FEMININE, Gender.MASCULINE)


def _shaped(p: str, shown: Role, shows: Role | None, players: tuple[str, ...],
            cards: Mapping[str, Card], cast: frozenset[Role], rng: random.Random) -> Gesture:
    shape = CAST[shown].gesture
    reach = shape.reach
    others = [q for q in players if q != p and cards[q].role is not Role.DEATH]
    if reach is Reach.ANYONE:
        if shape.targets == 1:
            return Gesture((rng.choice(others),), shows)
        a, b = rng.sample(others, 2)
        return Gesture((a, b), shows)
    if reach is Reach.NEIGHBOUR:
        t = rng.choice(neighbours(players, cards, p))
        if shape.seeks:
            return Gesture((t,), shows, seeks=rng.choice(_SEEK))
        return Gesture((t,), shows)
    if reach is Reach.KIND:
        kinds = sorted(k for k in cast if k is not Role.DEATH
                       and not (shown is Role.ALIEN and k is Role.ALIEN))
        return Gesture(shows=shows, kind=rng.choice(kinds))
    return Gesture(shows=shows)


def all_gestures(p: str, card: Card, players: tuple[str, ...], cards: Mapping[str, Card],
                 cast: frozenset[Role]) -> list[Gesture]:
    """Every gesture ``p`` could make holding ``card`` at a table dealt ``cards``
    (for a card not held yet): the game's own :func:`~darkcity.game.gesture_options`,
    and Death's written names."""
    if card.role is Role.DEATH:
        return [Gesture(names=q) for q in players if q != p]
    death = next((q for q in players if cards[q].role is Role.DEATH), None)
    return list(gesture_options(players, p, card, death, cast))


def model_gesture(p: str, players: tuple[str, ...], cards: Mapping[str, Card],
                  cast: frozenset[Role], rng: random.Random) -> Gesture:
    """A plausible gesture of ``p`` holding ``cards[p]`` (random aim; a Devil
    shows a random role of the cast)."""
    role = cards[p].role
    if role is Role.DEATH:
        return Gesture(names=rng.choice([q for q in players if q != p]))
    if role is Role.DEVIL:
        shown = rng.choice(sorted(r for r in cast if r not in NO_DISGUISE))
        return _shaped(p, shown, shown, players, cards, cast, rng)
    return _shaped(p, role, None, players, cards, cast, rng)


def threatened(p: str, night: Night, shown: Mapping[str, Role]) -> bool:
    """Does a player aim at ``p`` with a shown role whose attack would remove
    ``p``'s real role (what makes a player think of withdrawing)?"""
    r = night.cards[p].role
    for q, g in night.gestures.items():
        if q == p:
            continue
        s = shown.get(q, night.cards[q].role)
        if s not in _PANEL_ROLES or s is Role.DEVIL:
            continue
        hit = p in g.targets or (g.kind is r and s is Role.ALIEN)
        if hit and effect(s, r) in _LETHAL:
            return True
    return False


def _fits(card: Card, shows: str) -> bool:
    """Could the holder of ``card`` have made a gesture showing ``shows``?"""
    return card.role is Role.DEVIL or card.role.key == shows


class World:
    """One sampled deal of tonight, and the night built on it."""

    __slots__ = ("cards", "facts", "gestures", "journals", "players", "shown")

    def __init__(self, f: Facts, cards: dict[str, Card], own: Gesture | None,
                 cast: frozenset[Role], rng: random.Random,
                 planned: Mapping[str, Gesture] | None = None) -> None:
        """``planned``: the others' unrevealed gestures by a finer model (the
        rest are drawn by :func:`model_gesture`)."""
        self.facts = f
        self.players = f.players
        self.cards = cards
        self.journals = {p: dict(f.journals.get(p, {})) for p in f.players}
        gestures: dict[str, Gesture] = {}
        shown: dict[str, Role] = {}
        for p in f.players:
            c = cards[p]
            if p == f.me and own is not None:
                g = own
            elif p in f.gestures and p != f.me and _fits(c, f.gestures[p].shows):
                g = world_gesture(f.gestures[p], c)
            elif planned is not None and p in planned:
                g = planned[p]
            else:
                g = model_gesture(p, f.players, cards, cast, rng)
            if g.names is not None or g.targets or g.shows is not None or g.kind is not None:
                gestures[p] = g
            shown[p] = g.shows or c.role
        self.gestures = gestures
        self.shown = shown

    def night(self, *, gesture: Gesture | None = None,
              withdrawals: Mapping[str, Withdrawal] | None = None,
              zombie_targets: Mapping[str, str] | None = None) -> Night:
        f = self.facts
        gestures = self.gestures
        if gesture is not None:
            gestures = dict(gestures)
            if gesture.targets or gesture.shows is not None or gesture.kind is not None:
                gestures[f.me] = gesture
            else:
                gestures.pop(f.me, None)
        return Night(f.players, self.cards, gestures,
                     dict(withdrawals) if withdrawals is not None else {},
                     dict(zombie_targets) if zombie_targets is not None else {},
                     self.journals, f.sheet)

    def resolve(self, *, gesture: Gesture | None = None,
                withdrawals: Mapping[str, Withdrawal] | None = None,
                zombie_targets: Mapping[str, str] | None = None) -> NightResult:
        return resolve(self.night(gesture=gesture, withdrawals=withdrawals,
                                  zombie_targets=zombie_targets))

    def model_withdrawals(self, coins: Mapping[str, float], *, skip: str,
                          gesture: Gesture | None = None, rate: float = 0.5,
                          rates: Mapping[str, tuple[float, float, float]] | None = None
                          ) -> dict[str, Withdrawal]:
        """Others' withdrawals by the model: a threatened player (not a Devil, a
        Demoniac or Death) withdraws when its coin falls under ``rate``.

        With ``rates`` (per player: when threatened, when not, and a Hunter's
        lowering an arrow aimed at a shown guardian; learnt from what each showed
        this game, :func:`~darkcity.bots.knowledge.withdrawal_rates`) every player
        but Death may withdraw, threatened or not, at its own rate, and a Hunter
        that stays may lower such an arrow."""
        if rates is not None:
            return self._learnt_withdrawals(coins, skip, gesture, rate, rates)
        night = self.night(gesture=gesture)
        shown = self.shown
        if gesture is not None:
            shown = dict(shown)
            shown[self.facts.me] = gesture.shows or self.cards[self.facts.me].role
        out: dict[str, Withdrawal] = {}
        for p in self.players:
            r = self.cards[p].role
            if p == skip or r in (Role.DEATH, Role.DEVIL, Role.DEMONIAC):
                continue
            if coins[p] < rate and threatened(p, night, shown):
                out[p] = True
        return out


    def _learnt_withdrawals(self, coins: Mapping[str, float], skip: str,
                            gesture: Gesture | None, rate: float,
                            rates: Mapping[str, tuple[float, float, float]]
                            ) -> dict[str, Withdrawal]:
        night = self.night(gesture=gesture)
        shown = self.shown
        if gesture is not None:
            shown = dict(shown)
            shown[self.facts.me] = gesture.shows or self.cards[self.facts.me].role
        out: dict[str, Withdrawal] = {}
        for p in self.players:
            if p == skip or self.cards[p].role is Role.DEATH:
                continue
            t, calm, lower = rates.get(p, (rate, 0.02, 0.5))
            coin = coins[p]
            if coin < (t if threatened(p, night, shown) else calm):
                out[p] = True
            elif self.cards[p].role is Role.HUNTER:
                g = night.gestures.get(p)
                second = (coin * 7919.0) % 1.0  # a second draw from the same coin
                arrows = tuple(i for i, q in enumerate(g.targets if g is not None else ())
                               if CAST[shown.get(q, self.cards[q].role)].guardian
                               and second < lower)
                if arrows and g is not None and len(g.targets) == 2:
                    out[p] = arrows[:1]  # one arrow lowered (the engine's choices)
        return out


def advanced(card: Card | None) -> bool:
    return card is not None and card.edition is Edition.ADVANCED
