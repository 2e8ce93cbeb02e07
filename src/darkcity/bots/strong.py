"""``strong``: beliefs, an opponent model learnt during the game, sampled worlds
through the engine, and mixed choices.

* Beliefs about the hidden cards come from the draft (which cards it saw
  went on to whom, who reached for a face-down card) and, after Phase 2, from
  the gestures (a player is what it showed, or a Devil in disguise:
  :class:`~darkcity.bots.knowledge.Beliefs`). Deals are drawn pick by pick, the
  others taken to draft like the heuristic (``picker``), a pick off that model
  weighted by an ``eps`` that grows as the others' picks stop fitting it, each
  player's rates scaled by its taste for the roles it keeps, learnt from the
  finished nights when ``learn_tastes`` is on (``draft_tastes``: a player stacking
  one row is expected to take that row's card, so keeping it from them counts in
  the draft; off by default: measured, it does not help, docs/bots.md).
* The others' withdrawals (threatened or not, a Hunter's lowered arrow) come
  from each player's own rates, learnt from the finished nights; their unseen
  aims from a population of models, one per world (the heuristic's, random
  aims shaped by the cast, aims at the leader).
* Each candidate decision is scored against those sampled worlds, the night
  resolved by :func:`darkcity.night.resolve`, the result valued for progress
  toward a victory condition less the opponents' progress, one night further
  for a player left one XP short (:func:`~darkcity.bots.knowledge.night_value`).
  Common random numbers: every candidate meets the same worlds.
* Gestures are drawn from the regret-matching+ average over the candidates,
  one world per iteration (near-equal choices mixed, so neither a disguise nor
  an aim can be read off the position).
* The draft is a quantal response over rate x progress toward a victory (near-equal
  cards mixed, as a good player varies: :func:`quantal_draft`), the rates being each
  role's goal rate at a table of strong bots (six seats: the mean of two of the
  league's calibrations, ``sim.league.calibrated_style``, fictitious play's average;
  four and eight: trained offline by fictitious play, ``scripts/train_strong.py``),
  shipped in ``bots/data/strong.json``. The free XP is drawn by those rates over the
  rows measured near the best, a Devil's disguise by its worth and the deck's cards
  (issue #54). Trying each card on sampled worlds (``draft_worlds``) is kept as an
  option: it lost to a heuristic drafting by those rates (issue #32, docs/bots.md).
* The others' draft is read as a mixture of the heuristic's and this bot's own, the
  second's weight its posterior from the next drafter's picks (``picker_model``).

A decision costs at most :attr:`StrongParams.budget` resolutions (about
100 microseconds each).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any, Final, TypeAlias

from darkcity.bots.base import Bot, Observation, card_of, register
from darkcity.bots.heuristic import (
    DEFAULT_RATES,
    draft_choice,
    gesture_scores,
    own_gesture,
)
from darkcity.bots.knowledge import (
    Beliefs,
    Facts,
    distance,
    draft_tastes,
    gain,
    leader_aims,
    night_value,
    read_facts,
    withdrawal_propensity,
    withdrawal_rates,
)
from darkcity.bots.world import World, all_gestures
from darkcity.cast import Role, parse_role
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
from darkcity.night import Card, Gesture, Night, Withdrawal, neighbours, possible_cast

__all__ = ["StrongBot", "StrongParams", "argmax_draft", "load_params", "quantal_draft",
           "regret_matching", "world_draft"]

DATA: Final = "strong.json"

#: the heuristic's gesture scores per (player, card, the hand it chose from)
_Plans: TypeAlias = dict[tuple[str, Card, frozenset[Card]], tuple[list[Gesture], list[float]]]


@dataclass(frozen=True, slots=True)
class StrongParams:
    """The strong bot's knobs; ``rates`` are trained (per table size)."""

    rates: Mapping[int, Mapping[Role, float]] = field(default_factory=dict)
    budget: int = 200  # resolutions per decision
    max_candidates: int = 16  # gestures kept after a quick pre-score
    min_worlds: int = 6
    max_worlds: int = 40
    withdraw_rate: float = 0.15  # the opponent model's prior: a threatened player withdraws
    withdraw_margin: float = 0.05  # a full withdrawal must pay by this much
    deny: float = 0.6  # weight of the opponents' progress
    #: resolutions for a draft pick scored on sampled worlds (0, as shipped: the pick
    #: of best rate x progress, ``heuristic.draft_choice``, on ``rates_for``; the worlds'
    #: draft lost to the heuristic drafting by the goal rates, issue #32, docs/bots.md)
    draft_worlds: int = 0
    face_down_tries: int = 4  # unseen cards tried for a face-down pick
    free_xp: tuple[str, ...] = ()  # trained preference for the free XP row, best first
    picker_eps: float = 0.05  # weight of a draft pick the heuristic's draft would not make
    model_picks: bool = True  # deals drawn pick by pick, the others drafting like the heuristic
    model_gestures: bool = True  # the others aim like the heuristic (with model_picks)
    ahead: float = 0.35  # a player left one XP short wins next night about this often
    learn_withdrawals: bool = True  # each player's own withdrawal rates, learnt this game
    mix_all: bool = True  # every gesture from the regret-matching average, not only bluffs
    mix_floor: float = 0.15  # candidates under this weight are dropped from the mixture
    aim_random: float = 0.25  # worlds where the others aim at random (shaped by the cast)
    aim_leader: float = 0.15  # worlds where the others aim at the player nearest a victory
    eps_max: float = 0.5  # picker_eps when nobody drafts like the heuristic
    learn_aims: bool = True  # who hunts the leader, learnt this game, does so in the worlds
    #: each player's taste for the roles it keeps, learnt this game, in the draft model
    #: (a player stacking one row is expected to take its card: ``draft_tastes``); off:
    #: measured, the Zombie stacker did no worse against it and the bot's margin over
    #: the heuristic fell (docs/bots.md, benchmarks/bench_tastes.py)
    learn_tastes: bool = False
    taste_weight: float = 6.0  # the tastes' prior, in nights of the table's own shares
    #: a style's taste (``bots.family.STRONG_STYLES``): (role key, multiplier) on that
    #: role's draft rate (``rates_for``), as a heuristic style's ``rates``
    draft_taste: tuple[tuple[str, float], ...] = ()
    #: a Zombie's worth in the draft counts its choice of victim at step 4 (the other
    #: neighbour, once steps 1-3 are known), as it plays it; without it the draft valued
    #: a Zombie stuck on its first aim and undervalued the card (issue #32)
    zombie_switch: bool = True
    #: the free XP drawn from these (row key, weight): a table of strong bots spread
    #: over rows, not five of them racing for two Priests while one stacker keeps the
    #: Zombies to itself (issue #32; empty: ``free_xp``'s first row on the sheet)
    free_xp_mix: tuple[tuple[str, float], ...] = ()
    #: the free XP drawn in proportion to the table's draft rates (``rates_for``: each
    #: row as often as its role meets its goal at a table of strong bots), over
    #: ``free_xp_mix`` (issue #54: a player who always writes one row is read at once)
    free_xp_by_rates: bool = False
    #: the rows ``free_xp_by_rates`` draws from (empty: every role of the deck): the rows
    #: whose plan was measured near the best (a free XP on the Devil, the Werewolf or
    #: the Vampire costs the bot over half its margin, docs/bots.md)
    free_xp_rows: tuple[str, ...] = ()
    #: the draft a quantal response over the cards' values (rate x gain): each card
    #: kept with weight exp((value - best) / temperature), so near-equal cards are
    #: mixed and a card that wins the game is still always kept (0: the best card,
    #: the draft until issue #54; the temperature was chosen by measurement,
    #: docs/bots.md)
    draft_temperature: float = 0.0
    #: the draft's temperature at a table size where the roles' rates spread otherwise
    #: (table size, temperature); ``draft_temperature`` elsewhere
    draft_temperatures: tuple[tuple[int, float], ...] = ()
    #: a Devil's disguise drawn with weight (the role's cards in the deck) x
    #: exp((its best gesture's value - the best) / temperature), the aim then from the
    #: regret-matching mixture within that disguise: a shown role says as little as
    #: the game's rates allow about whether it is a Devil (0: the mixture over every
    #: gesture, until issue #54)
    disguise_temperature: float = 0.0
    #: how the others are taken to draft in the beliefs: "heuristic" (the card of best
    #: rate x gain with the heuristic's rates), "self" (as this bot drafts: its own
    #: rates and draft temperature, a reader of the strong bot, issue #54), or
    #: "adaptive": a mixture of the two, each pick weighed by both, the second model's
    #: weight its posterior from the next drafter's picks checked this game (even odds
    #: at the start): at a table of strong bots it reads them as the reader does
    picker_model: str = "heuristic"

    def temperature_for(self, players: int) -> float:
        """The draft's temperature at a table of ``players``."""
        for n, t in self.draft_temperatures:
            if n == players:
                return t
        return self.draft_temperature

    def rates_for(self, players: int) -> Mapping[Role, float]:
        """The draft rates at a table of ``players`` (the six-seat table's when that
        size has none), times the style's ``draft_taste``."""
        table = self.rates.get(players) or self.rates.get(6) or DEFAULT_RATES
        if not self.draft_taste:
            return table
        taste = {parse_role(k): x for k, x in self.draft_taste}
        return {r: x * taste.get(r, 1.0) for r, x in table.items()}

    def to_json(self) -> dict[str, Any]:
        """The trained part (the knobs above keep their defaults unless a document
        sets them: :meth:`from_json` reads both)."""
        return {
            "rates": {str(n): {r.key: round(x, 4) for r, x in sorted(t.items())}
                      for n, t in sorted(self.rates.items())},
            "free_xp": list(self.free_xp),
            "free_xp_mix": {k: w for k, w in self.free_xp_mix},
            "deny": self.deny, "ahead": self.ahead, "withdraw_margin": self.withdraw_margin,
            "draft_worlds": self.draft_worlds,
            "free_xp_by_rates": self.free_xp_by_rates,
            "free_xp_rows": list(self.free_xp_rows),
            "draft_temperature": self.draft_temperature,
            "draft_temperatures": {str(n): t for n, t in self.draft_temperatures},
            "disguise_temperature": self.disguise_temperature,
            "picker_model": self.picker_model,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> StrongParams:
        rates: dict[int, dict[Role, float]] = {}
        for n, table in doc.get("rates", {}).items():
            row: dict[Role, float] = {}
            for k, x in table.items():
                r = parse_role(k)
                if r is not None:
                    row[r] = float(x)
            rates[int(n)] = row
        kw = {k: doc[k] for k in ("budget", "max_candidates", "min_worlds", "max_worlds",
                                   "withdraw_rate", "withdraw_margin", "deny", "draft_worlds",
                                   "face_down_tries",
                                   "picker_eps", "model_picks", "model_gestures", "ahead",
                                   "learn_withdrawals", "mix_all", "mix_floor", "aim_random",
                                   "aim_leader", "eps_max", "learn_aims", "learn_tastes",
                                   "taste_weight", "zombie_switch", "free_xp_by_rates",
                                   "draft_temperature", "disguise_temperature",
                                   "picker_model")
              if k in doc}
        free = tuple(str(x) for x in doc.get("free_xp", ()))
        if "draft_temperatures" in doc:
            kw["draft_temperatures"] = tuple(sorted(
                (int(n), float(t)) for n, t in doc["draft_temperatures"].items()))
        if "free_xp_rows" in doc:
            kw["free_xp_rows"] = tuple(str(x) for x in doc["free_xp_rows"])
        mix = tuple((str(k), float(w)) for k, w in doc.get("free_xp_mix", {}).items())
        return cls(rates=rates, free_xp=free, free_xp_mix=mix, **kw)


#: the six-seat rates trained for the worlds' draft (``strong.json`` until issue #32's
#: draft by the goal rates replaced them), kept to replay that bot: :func:`world_draft`
_WORLD_DRAFT_RATES_6: Final = {
    Role.DEVIL: 0.4583, Role.VAMPIRE: 0.6154, Role.WEREWOLF: 0.2619, Role.ZOMBIE: 0.6296,
    Role.HUNTER: 0.3902, Role.PRIEST: 0.75}


def world_draft(params: StrongParams) -> StrongParams:
    """``params`` drafting as the bot shipped until the draft by the goal rates: each
    card of the hand tried on 120 sampled worlds, with the six-seat rates trained for
    that draft (the tests' digests of earlier bots, ``benchmarks/bench_stacker.py``)."""
    six = {**params.rates.get(6, DEFAULT_RATES), **_WORLD_DRAFT_RATES_6}
    return replace(argmax_draft(params), draft_worlds=120, rates={**params.rates, 6: six})


_LOADED: StrongParams | None = None


def load_params() -> StrongParams:
    """The trained parameters shipped with the package (defaults if absent)."""
    global _LOADED
    if _LOADED is None:
        try:
            text = resources.files("darkcity.bots").joinpath("data", DATA).read_text("utf-8")
            _LOADED = StrongParams.from_json(json.loads(text))
        except (OSError, ValueError):  # pragma: no cover - a broken install
            _LOADED = StrongParams()
    return _LOADED


def regret_matching(utilities: Sequence[Sequence[float]]) -> list[float]:
    """Regret matching+ over candidates, one row of utilities per iteration;
    returns the linearly averaged strategy."""
    n = len(utilities[0])
    regret = [0.0] * n
    avg = [0.0] * n
    for t, u in enumerate(utilities, 1):
        pos = [max(0.0, r) for r in regret]
        s = sum(pos)
        sigma = [x / s for x in pos] if s > 0 else [1.0 / n] * n
        ev = sum(p * x for p, x in zip(sigma, u, strict=True))
        regret = [max(0.0, r + x - ev) for r, x in zip(regret, u, strict=True)]
        for i in range(n):
            avg[i] += t * sigma[i]
    # the last iterate's regrets say where the average is heading
    pos = [max(0.0, r) for r in regret]
    s = sum(pos)
    last = [x / s for x in pos] if s > 0 else [1.0 / n] * n
    total = sum(avg)
    return [0.5 * a / total + 0.5 * b for a, b in zip(avg, last, strict=True)]


@register
class StrongBot(Bot):
    name = "strong"
    level = 2
    description = _("Beliefs from the draft and the gestures, an opponent model learnt during "
                    "the game, choices scored on sampled worlds through the engine and mixed "
                    "by regret matching.")

    def __init__(self, rng: random.Random, params: StrongParams | None = None) -> None:
        super().__init__(rng)
        self.params = params if params is not None else load_params()
        self._rate = self.params.withdraw_rate
        self._rates: dict[str, tuple[float, float, float]] | None = None
        self._leaders: dict[str, float] = {}  # how much each hunts the leader
        self._rate_night = -1
        self._tastes: dict[str, dict[Role, float]] = {}
        self._taste_night = -1
        # how well the heuristic's draft explains the others' picks this game:
        # [picks checked, picks the model would not make]
        self._draft_fit = [0, 0]
        # log-likelihoods of the next drafter's picks: the heuristic's model, this bot's
        self._fit_ll = [0.0, 0.0]
        # the hand this bot passed on tonight: (night, to whom, the cards, their journal)
        self._passed: tuple[int, str, tuple[Card, ...], dict[Role, int]] | None = None

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        f = read_facts(obs)
        first = legal[0]
        rates = self.params.rates_for(len(f.players))
        self._check_pass(obs)
        if self.params.learn_tastes and self._taste_night != obs.view.night:
            self._tastes = draft_tastes(obs.view.history, f.me,
                                        weight=self.params.taste_weight)
            self._taste_night = obs.view.night
        if isinstance(first, FreeXp) and self.params.free_xp_by_rates:
            return _free_xp_by_rates(f, legal, rates, self.rng, self.params.free_xp_rows)
        if isinstance(first, FreeXp) and (self.params.free_xp_mix or self.params.free_xp):
            rows = {d.role.key: d for d in legal if isinstance(d, FreeXp)}
            mix = [(rows[k], w) for k, w in self.params.free_xp_mix if k in rows and w > 0]
            if mix:
                return mix[_sample([w for _d, w in mix], self.rng)][0]
            for key in self.params.free_xp:
                if key in rows:
                    return rows[key]
        if isinstance(first, DraftPick | FaceDownPick):
            choice = (self._draft(f, legal, rates) if self.params.draft_worlds
                      else quantal_draft(f, legal, rates, self.rng,
                                         self.params.temperature_for(len(f.players)))
                      if self.params.temperature_for(len(f.players)) > 0
                      else draft_choice(f, legal, rates, self.rng))
            self._remember_pass(f, choice)
            return choice
        if isinstance(first, FreeXp | TakeDeath | LookAtHand):
            return draft_choice(f, legal, rates, self.rng)
        beliefs = self._beliefs(f, rates)
        night = obs.view.night
        if self._rate_night != night:  # learnt from the finished nights, once a night
            self._rate = withdrawal_propensity(obs.view.history, f.me,
                                               prior=self.params.withdraw_rate)
            self._rates = (withdrawal_rates(obs.view.history, f.me, prior=self._rate)
                           if self.params.learn_withdrawals else None)
            self._leaders = (leader_aims(obs.view.history, f.me, journals=f.journals)
                             if self.params.learn_aims else {})
            self._rate_night = night
        if isinstance(first, GestureChoice):
            return self._gesture(f, beliefs, [d for d in legal if isinstance(d, GestureChoice)])
        return self._late(f, beliefs, legal)

    # -- helpers ------------------------------------------------------------

    def _beliefs(self, f: Facts, rates: Mapping[Role, float]) -> Beliefs:
        if self.params.model_picks:
            if self._reads_self():  # the others draft as this bot does
                return Beliefs(f, rates, picker=rates, eps=self.params.picker_eps,
                               rng=self.rng, marginal_samples=16, tastes=self._tastes,
                               temperature=self.params.temperature_for(len(f.players)))
            # its own model keeps its own floor: the heuristic's loosens as the others'
            # picks stop fitting it, which says nothing of this one
            alt = ((rates, self.params.temperature_for(len(f.players)), self._self_weight(),
                    self.params.picker_eps)
                   if self.params.picker_model == "adaptive" else None)
            return Beliefs(f, rates, picker=DEFAULT_RATES, eps=self._picker_eps(),
                           rng=self.rng, marginal_samples=16, tastes=self._tastes, alt=alt)
        return Beliefs(f, rates)

    # -- the opponent model, learnt this game ---------------------------------------

    def _reads_self(self) -> bool:
        """Are the others taken to draft as this bot does, and only so
        (``picker_model`` "self")?"""
        return self.params.picker_model == "self"

    def _self_weight(self) -> float:
        """(``picker_model`` "adaptive") The posterior that the others draft as this bot
        does rather than as the heuristic, from even odds and the likelihoods of the
        next drafter's picks checked this game."""
        d = self._fit_ll[0] - self._fit_ll[1]
        return 0.0 if d > 30 else 1.0 / (1.0 + math.exp(d))

    def _picker_eps(self) -> float:
        """The weight of a pick the heuristic's draft would not make: its floor while
        the others' picks fit that model, up to ``eps_max`` as they stop fitting
        (a Beta(1, 9) prior on the share of picks that do not)."""
        p = self.params
        checked, missed = self._draft_fit
        miss = (missed + 1) / (checked + 10)
        return p.picker_eps + (p.eps_max - p.picker_eps) * min(1.0, 2 * max(0.0, miss - 0.1))

    def _remember_pass(self, f: Facts, choice: Decision) -> None:
        """The hand passed on (what this bot received less what it kept) and to whom."""
        self._passed = None
        if not isinstance(choice, DraftPick):
            return
        k = f.order.index(f.me)
        after = [q for q in f.order[k + 1:] if q != f.death]
        if not after:
            return
        passed = list(f.received)
        passed.remove(choice.card)
        self._passed = (f.night, after[0], tuple(passed), dict(f.journals.get(after[0], {})))

    def _check_pass(self, obs: Observation) -> None:
        """Once the night of a remembered pass is over (all cards are shown), did the
        next drafter keep the card the heuristic's draft would have kept?"""
        if self._passed is None:
            return
        night, q, passed, journal = self._passed
        nv = next((h for h in reversed(obs.view.history) if h.number == night), None)
        if nv is None:
            return
        self._passed = None
        kept = next((card_of(cv) for p, cv in nv.cards if p == q), None)
        if kept is None or kept not in passed:
            return  # a face-down card: nothing to compare
        best = max(DEFAULT_RATES.get(c.role, 0.3) * gain(journal, c.role) for c in passed)
        mine = DEFAULT_RATES.get(kept.role, 0.3) * gain(journal, kept.role)
        self._draft_fit[0] += 1
        self._draft_fit[1] += mine < best - 1e-9
        if self.params.picker_model == "adaptive":
            rates = self.params.rates_for(len(obs.view.players))
            self._fit_ll[0] += math.log(_pick_chance(passed, kept, journal, DEFAULT_RATES, 0.0))
            t = self.params.temperature_for(len(obs.view.players))
            self._fit_ll[1] += math.log(_pick_chance(passed, kept, journal, rates, t))

    def _draft(self, f: Facts, legal: Sequence[Decision], rates: Mapping[Role, float]
               ) -> Decision:
        """The worlds' draft (``draft_worlds`` > 0): each card of the hand tried on
        sampled deals, its holder's best gesture by the heuristic's reading of the
        draft, the night resolved, valued."""
        cards: list[Card] = []
        for d in legal:
            if isinstance(d, DraftPick) and d.card not in cards:
                cards.append(d.card)
        me = f.players.index(f.me)
        k = max(4, _scaled(self.params.draft_worlds, len(f.players)) // max(1, len(cards)))
        base = self.rng.getrandbits(32)
        values: dict[Card, float] = {}
        cache: _Plans = {}
        for c in cards:
            fc = replace(f, card=c)
            bc = self._beliefs(fc, rates)
            values[c] = self._try_card(fc, bc, k, base, me, cache)
        best: Decision = legal[0]
        best_v = -1e9
        unseen_avg = 0.0
        if any(isinstance(d, FaceDownPick) for d in legal):
            # a face-down card: one of the cards this player never saw
            unseen = [c for c in f.deck if c.role is not Role.DEATH and c not in f.received]
            n = self.params.face_down_tries
            tries = unseen if len(unseen) <= n else self.rng.sample(unseen, n)
            unseen_avg = sum(self._try_card(replace(f, card=c),
                                            self._beliefs(replace(f, card=c), rates),
                                            max(2, k // 3), base, me, cache)
                             for c in tries) / len(tries)
        for d in legal:
            v = values[d.card] if isinstance(d, DraftPick) else unseen_avg
            v += self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = d, v
        return best

    def _try_card(self, fc: Facts, bc: Beliefs, k: int, base: int, me: int, cache: _Plans
                  ) -> float:
        assert fc.card is not None
        total = 0.0
        own: Gesture | None = None
        switch: str | None = None  # a Zombie's other neighbour ("": none)
        for i in range(k):
            rng = random.Random(base + i)
            cards = bc.sample(rng)
            cast = possible_cast(Night(fc.players, cards, journal_roles=fc.sheet))
            if own is None:
                options = all_gestures(fc.me, fc.card, fc.players, cards, cast)
                if len(options) == 1:
                    own = options[0]
                else:
                    choices = [GestureChoice(fc.me, g) for g in options]
                    scores = gesture_scores(fc, bc, choices)
                    own = options[max(range(len(options)), key=lambda j: scores[j])]
            w = World(fc, cards, own, cast, rng, self._planned(
                fc, bc, cards, cast, rng, cache, coarse=len(fc.players) > 6))
            coins = {p: rng.random() for p in fc.players}
            ws = self._withdrawals(w, coins, own, None)
            before = [w.journals[q] for q in fc.players]
            value = night_value(me, w.resolve(gesture=own, withdrawals=ws), before,
                                self.params.deny, self.params.ahead)
            if switch is None:
                switch = _switch_target(fc, own, cards) if self.params.zombie_switch else ""
            if switch:
                # a Zombie chooses its final victim at step 4, having seen steps 1-3
                value = max(value, night_value(
                    me, w.resolve(gesture=own, withdrawals=ws,
                                  zombie_targets={fc.me: switch}),
                    before, self.params.deny, self.params.ahead))
            total += value
        return total / k

    def _planned(self, f: Facts, beliefs: Beliefs, cards: Mapping[str, Card],
                 cast: frozenset[Role], rng: random.Random,
                 cache: _Plans, *, coarse: bool = False) -> dict[str, Gesture] | None:
        """The others' gestures as the heuristic would make them from the hand
        each chose from in this deal (its beliefs from the draft), when known.

        ``coarse`` (a draft pick at a large table, to keep the decision budget):
        one plan per player and card, from the first hand drawn for it."""
        hands = beliefs.hands
        if not hands or not self.params.model_gestures:
            return None
        out: dict[str, Gesture] = {}
        for q, hand in hands.items():
            if q in f.gestures or q == f.death:
                continue
            c = cards[q]
            key = (q, c, frozenset() if coarse else frozenset(hand))
            got = cache.get(key)
            if got is None:
                options = all_gestures(q, c, f.players, cards, cast)
                if len(options) <= 1:
                    got = (options, [0.0] * len(options))
                else:
                    fq = replace(f, me=q, card=c, received=hand, hand=(), shown={},
                                 gestures={}, withdrawals={})
                    got = (options, gesture_scores(fq, Beliefs(fq),
                                                   [GestureChoice(q, g) for g in options]))
                cache[key] = got
            options, scores = got
            if not options:
                continue
            top = max(scores)
            ties = [g for g, x in zip(options, scores, strict=True) if x >= top - 1e-3]
            out[q] = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        return out

    def _worlds(self, f: Facts, beliefs: Beliefs, k: int, own: Gesture | None
                ) -> list[tuple[World, dict[str, float]]]:
        """``k`` worlds; the others' unseen aims in each come from one member of a
        population of models: the heuristic's (most worlds), random aims shaped by
        the cast (``aim_random``), or aims at the player nearest a victory
        (``aim_leader``), so that a choice is scored against more than one kind
        of opponent."""
        rng = self.rng
        p = self.params
        out = []
        cast: frozenset[Role] | None = None
        cache: _Plans = {}
        for _world in range(k):
            cards: dict[str, Card] = beliefs.sample(rng)
            if cast is None:
                cast = possible_cast(Night(f.players, cards, journal_roles=f.sheet))
            u = rng.random()
            planned = (None if u < p.aim_random else
                       _leader_plan(f, cards, cast, rng) if u < p.aim_random + p.aim_leader
                       else self._planned(f, beliefs, cards, cast, rng, cache))
            if self._leaders:  # who has been seen to hunt the leader does so here too
                hunters = {q for q, x in self._leaders.items() if rng.random() < x}
                if hunters:
                    chased = _leader_plan(f, cards, cast, rng, only=hunters)
                    planned = {**(planned or {}), **chased}
            w = World(f, cards, own, cast, rng, planned)
            coins = {p: rng.random() for p in f.players}
            out.append((w, coins))
        return out

    def _withdrawals(self, w: World, coins: Mapping[str, float], gesture: Gesture | None,
                     known: Mapping[str, Withdrawal] | None) -> dict[str, Withdrawal]:
        if known is not None:
            return dict(known)
        return w.model_withdrawals(coins, skip=w.facts.me, gesture=gesture, rate=self._rate,
                                   rates=self._rates)

    def _gesture(self, f: Facts, beliefs: Beliefs, legal: list[GestureChoice]) -> Decision:
        p = self.params
        cands = legal
        spread = f.role is Role.DEVIL and p.disguise_temperature > 0
        if len(cands) > p.max_candidates:
            scores = gesture_scores(f, beliefs, cands)
            order = sorted(range(len(cands)), key=lambda i: -scores[i] - self.rng.random() * 1e-3)
            if spread:  # every disguise keeps its best aims among the candidates
                order = _per_disguise(cands, order, p.max_candidates)
            cands = [cands[i] for i in order[:p.max_candidates]]
        k = max(p.min_worlds, min(p.max_worlds, _scaled(p.budget, len(f.players)) // len(cands)))
        me = f.players.index(f.me)
        rows: list[list[float]] = []
        for w, coins in self._worlds(f, beliefs, k, None):
            before = [w.journals[q] for q in f.players]
            row = []
            for d in cands:
                ws = self._withdrawals(w, coins, d.gesture, None)
                res = w.resolve(gesture=d.gesture, withdrawals=ws)
                row.append(night_value(me, res, before, p.deny, p.ahead))
            rows.append(row)
        if spread:
            return cands[_disguised(f, cands, rows, p, self.rng)]
        if f.role is Role.DEVIL or p.mix_all:
            # mixed: regret matching over the candidates, the near-equal ones kept
            sigma = regret_matching(rows)
            top = max(sigma)
            sigma = [x if x >= p.mix_floor * top else 0.0 for x in sigma]
            return cands[_sample(sigma, self.rng)]
        totals = [sum(col) for col in zip(*rows, strict=True)]
        best = max(range(len(cands)), key=lambda i: totals[i] + self.rng.random() * 1e-6)
        return cands[best]

    def _late(self, f: Facts, beliefs: Beliefs, legal: Sequence[Decision]) -> Decision:
        p = self.params
        own = own_gesture(f)
        k = max(p.min_worlds, min(p.max_worlds, _scaled(p.budget, len(f.players)) // len(legal)))
        me = f.players.index(f.me)
        zombie = isinstance(legal[0], ZombieChoice)
        known = f.withdrawals if zombie else None
        totals = [0.0] * len(legal)
        for w, coins in self._worlds(f, beliefs, k, own):
            before = [w.journals[q] for q in f.players]
            base = self._withdrawals(w, coins, own, known)
            base.pop(f.me, None)
            for i, d in enumerate(legal):
                if isinstance(d, WithdrawalChoice):
                    ws = dict(base)
                    if d.withdrawal is not False:
                        ws[f.me] = d.withdrawal
                    res = w.resolve(gesture=own, withdrawals=ws)
                else:
                    assert isinstance(d, ZombieChoice)
                    res = w.resolve(gesture=own, withdrawals=base,
                                    zombie_targets={f.me: d.target})
                totals[i] += night_value(me, res, before, p.deny, p.ahead)
        for i, d in enumerate(legal):
            if isinstance(d, WithdrawalChoice) and d.withdrawal is True:
                totals[i] -= p.withdraw_margin * k
        best = max(range(len(legal)), key=lambda i: totals[i] + self.rng.random() * 1e-6)
        return legal[best]


def quantal_draft(f: Facts, legal: Sequence[Decision], rates: Mapping[Role, float],
                  rng: random.Random, temperature: float) -> Decision:
    """A draft pick by a quantal response over the cards' values (the heuristic's
    ``rate x gain`` for this player's journal; a face-down card 0.9 of an unseen
    card's mean): each role in hand kept with weight ``exp((value - best) /
    temperature)``, a card of that role then drawn. Near-equal roles are mixed; one
    far below the best is seldom kept, a card that wins the game nearly always."""
    j = f.journals.get(f.me, {})
    by_role: dict[Role | None, list[Decision]] = {}
    for d in legal:
        if isinstance(d, DraftPick):
            by_role.setdefault(d.card.role, []).append(d)
        elif isinstance(d, FaceDownPick):
            by_role.setdefault(None, []).append(d)
    keys = list(by_role)
    vals = []
    for r in keys:
        if r is None:
            unseen = [c for c in f.deck if c.role is not Role.DEATH and c not in f.received]
            avg = (sum(rates.get(c.role, 0.3) * gain(j, c.role) for c in unseen)
                   / len(unseen)) if unseen else 0.0
            vals.append(0.9 * avg)
        else:
            vals.append(rates.get(r, 0.3) * gain(j, r))
    top = max(vals)
    ws = [math.exp((v - top) / temperature) for v in vals]
    group = by_role[keys[_sample(ws, rng)]]
    return group[rng.randrange(len(group))] if len(group) > 1 else group[0]


def _pick_chance(hand: Sequence[Card], kept: Card, journal: Mapping[Role, int],
                 rates: Mapping[Role, float], temperature: float) -> float:
    """The chance a drafter keeps ``kept`` from ``hand`` by ``rates`` x gain for its
    ``journal``: a quantal response at ``temperature`` (0: the best role, with a tenth of
    the chance spread over the others), each role's cards alike."""
    values = {c.role: rates.get(c.role, 0.3) * gain(journal, c.role) for c in hand}
    top = max(values.values())
    if temperature > 0:
        ws = {r: math.exp((v - top) / temperature) for r, v in values.items()}
    else:
        best = [r for r, v in values.items() if v >= top - 1e-9]
        rest = len(values) - len(best)
        ws = {r: (0.9 / len(best) if r in best else 0.1 / rest) if rest else 1.0 / len(best)
              for r in values}
    p = ws[kept.role] / sum(ws.values())
    same = sum(1 for c in hand if c.role is kept.role)
    return max(1e-6, p / same)


def _free_xp_by_rates(f: Facts, legal: Sequence[Decision], rates: Mapping[Role, float],
                      rng: random.Random, only: Sequence[str] = ()) -> Decision:
    """The free XP on a row drawn in proportion to its role's draft rate at this table
    (the roles of the deck, of ``only`` when given; any row if none is)."""
    in_deck = {c.role for c in f.deck if c.role is not Role.DEATH}
    if only:
        in_deck = {r for r in in_deck if r.key in only}
    rows = [d for d in legal if isinstance(d, FreeXp)]
    ws = [rates.get(d.role, 0.0) if d.role in in_deck else 0.0 for d in rows]
    if not any(ws):
        return rows[rng.randrange(len(rows))]
    return rows[_sample(ws, rng)]


def _per_disguise(cands: Sequence[GestureChoice], order: Sequence[int], keep: int) -> list[int]:
    """``order`` (best first) with each disguise's best aims moved to the front, so that
    the ``keep`` first hold some of every disguise."""
    shows = {cands[i].gesture.shows for i in order}
    per = max(1, keep // max(1, len(shows)))
    seen: dict[Role | None, int] = {}
    front, back = [], []
    for i in order:
        r = cands[i].gesture.shows
        if seen.get(r, 0) < per:
            seen[r] = seen.get(r, 0) + 1
            front.append(i)
        else:
            back.append(i)
    return front + back


def _disguised(f: Facts, cands: Sequence[GestureChoice], rows: Sequence[Sequence[float]],
               p: StrongParams, rng: random.Random) -> int:
    """A Devil's gesture: the disguise first (weight: that role's cards in the deck x
    exp((its best candidate's mean value - the best) / ``disguise_temperature``)), then
    the aim from the regret-matching mixture over that disguise's candidates."""
    k = len(rows)
    means = [sum(col) / k for col in zip(*rows, strict=True)]
    best: dict[Role | None, float] = {}
    for d, m in zip(cands, means, strict=True):
        r = d.gesture.shows
        best[r] = max(best.get(r, -1e9), m)
    deck: dict[Role | None, int] = {}
    for c in f.deck:
        if c != f.card:
            deck[c.role] = deck.get(c.role, 0) + 1
    top = max(best.values())
    keys = list(best)
    ws = [max(1, deck.get(r, 0)) * math.exp((best[r] - top) / p.disguise_temperature)
          for r in keys]
    shown = keys[_sample(ws, rng)]
    idx = [i for i, d in enumerate(cands) if d.gesture.shows is shown]
    if len(idx) == 1:
        return idx[0]
    sigma = regret_matching([[row[i] for i in idx] for row in rows])
    hi = max(sigma)
    sigma = [x if x >= p.mix_floor * hi else 0.0 for x in sigma]
    return idx[_sample(sigma, rng)]


def argmax_draft(params: StrongParams) -> StrongParams:
    """``params`` as the strong bot played until issue #54: the best card in the draft,
    the free XP from ``free_xp_mix``, a Devil's gesture from the mixture over every
    candidate (the tests' digests of that bot, ``benchmarks/bench_variety.py``)."""
    return replace(params, draft_temperature=0.0, draft_temperatures=(), free_xp_by_rates=False,
                   disguise_temperature=0.0, picker_model="heuristic")


def _switch_target(f: Facts, own: Gesture, cards: Mapping[str, Card]) -> str:
    """The other neighbour a Zombie aiming ``own`` may switch to at step 4 ("": none)."""
    if f.card is None or f.card.role is not Role.ZOMBIE or len(own.targets) != 1:
        return ""
    sides = set(neighbours(f.players, cards, f.me)) - {f.me, own.targets[0]}
    return next(iter(sides), "")


def _scaled(budget: int, players: int) -> int:
    """A budget in resolutions, kept at 6 players and below, cut beyond (a world of
    8 players costs about (8/6)^2 as much: more cards to draw, more gestures)."""
    return budget if players <= 6 else budget * 36 // (players * players)


def _leader_plan(f: Facts, cards: Mapping[str, Card], cast: frozenset[Role],
                 rng: random.Random, only: set[str] | None = None) -> dict[str, Gesture]:
    """The others' (or ``only`` those players') unseen gestures aimed at the player
    nearest a victory (other than themselves) when their card can reach them."""
    out: dict[str, Gesture] = {}
    for q in f.players:
        if q == f.me or q in f.gestures or q == f.death or (only is not None and q not in only):
            continue
        rivals = [x for x in f.players if x != q and x != f.death]
        leader = min(rivals, key=lambda x: (distance(f.journals.get(x, {})), rng.random()))
        options = [g for g in all_gestures(q, cards[q], f.players, cards, cast)
                   if leader in g.targets]
        if options:
            out[q] = options[rng.randrange(len(options))]
    return out


def _sample(sigma: Sequence[float], rng: random.Random) -> int:
    x = rng.random() * sum(sigma)
    for i, s in enumerate(sigma):
        x -= s
        if x <= 0:
            return i
    return len(sigma) - 1
