"""A parameterised family of heuristic bots, and the styles a table of bots draws.

:class:`Style` holds the knobs of the heuristic that make minds differ: the draft
rates (multipliers on :data:`~darkcity.bots.heuristic.DEFAULT_RATES`; the free XP
goes on the row of the highest rate), how readily it withdraws, how often it
aims at the player nearest a victory, how often a Devil bluffs with a random
disguise and aim, and how sharply it picks among its gestures' scores. The
default style plays exactly as ``heuristic`` (tested: the same decisions on
seeded games).

The league (:mod:`darkcity.bots.league`, ``scripts/league.py``) searches this
family with CMA-ES for the best response to the strong bot (:meth:`Style.vector`,
:meth:`Style.from_vector`). The named :data:`STYLES` are what a table of bots
draws seat by seat (:func:`darkcity.bots.draw_style`, ``make_bot(level, rng, style=...)``): a
bold bot, a cautious one, a leader-hunter, a bluffer, a guardian-lover, each a
person's habit a human can read and answer.

Every choice is still one of the engine's legal decisions (``obs.legal``), from
the player's observation only; nothing here decides a rule.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from darkcity.bots.base import Observation, register_styles
from darkcity.bots.heuristic import (
    DEFAULT_RATES,
    HeuristicBot,
    draft_choice,
    gesture_scores,
    likely_world,
    own_gesture,
)
from darkcity.bots.knowledge import Beliefs, Facts, distance, night_value, read_facts
from darkcity.bots.strong import StrongBot, load_params
from darkcity.bots.world import World
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
from darkcity.night import Gesture

__all__ = ["SEARCHED_ROLES", "STRONG_STYLES", "STYLES", "FamilyBot", "Style", "style_names"]

#: The roles whose draft rates the league searches (every role of the basic decks).
SEARCHED_ROLES: Final = (Role.DEVIL, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE, Role.HUNTER,
                         Role.PRIEST)
#: The heuristic's own price of a full withdrawal (``heuristic.best_by_resolution``).
_WITHDRAW_COST: Final = 0.08


@dataclass(frozen=True, slots=True)
class Style:
    """One member of the family: the heuristic with these habits."""

    name: str = "plain"
    description: str = ""
    #: multipliers on the heuristic's draft rates, per role (absent: 1)
    rates: Mapping[Role, float] = field(default_factory=dict)
    #: added to a full withdrawal's value (positive: flees more readily)
    flee: float = 0.0
    #: the chance that a gesture aims at the player nearest a victory, when it can
    hunt_leader: float = 0.0
    #: the chance that a Devil shows a random disguise and aim (a bluff, not the lure)
    bluff: float = 0.0
    #: softmax temperature over the gestures' scores (0: the best, as the heuristic)
    temperature: float = 0.0

    def draft_rates(self) -> dict[Role, float]:
        return {r: x * self.rates.get(r, 1.0) for r, x in DEFAULT_RATES.items()}

    # -- the search space of the league ---------------------------------------

    def vector(self) -> list[float]:
        """The style as a point of the league's search space (see :meth:`from_vector`)."""
        return [*(math.log(max(1e-3, self.rates.get(r, 1.0))) for r in SEARCHED_ROLES),
                self.flee / 0.2, self.hunt_leader, self.bluff, self.temperature / 0.2]

    @classmethod
    def from_vector(cls, x: Sequence[float], name: str = "found") -> Style:
        """Log-multipliers of the searched roles' rates (clipped to [1/8, 8]), then
        the flee bias (x 0.2), the leader-hunting and bluff chances (clipped to
        [0, 1]) and the temperature (x 0.2, at least 0)."""
        k = len(SEARCHED_ROLES)
        if len(x) != k + 4:
            raise ValueError(f"a style vector has {k + 4} numbers, not {len(x)}")
        rates = {r: round(math.exp(min(2.08, max(-2.08, float(v)))), 4)
                 for r, v in zip(SEARCHED_ROLES, x[:k], strict=True)}
        return cls(name=name, rates=rates, flee=round(0.2 * float(x[k]), 4),
                   hunt_leader=round(min(1.0, max(0.0, float(x[k + 1]))), 4),
                   bluff=round(min(1.0, max(0.0, float(x[k + 2]))), 4),
                   temperature=round(max(0.0, 0.2 * float(x[k + 3])), 4))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rates": {r.key: x for r, x in self.rates.items()},
                "flee": self.flee, "hunt_leader": self.hunt_leader, "bluff": self.bluff,
                "temperature": self.temperature}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Style:
        rates: dict[Role, float] = {}
        for k, v in dict(doc.get("rates", {})).items():
            r = parse_role(str(k))
            if r is None:
                raise ValueError(f"style {doc.get('name')!r}: unknown role {k!r} in its rates")
            rates[r] = float(v)
        return cls(name=str(doc.get("name", "found")), description=str(doc.get("description", "")),
                   rates=rates, flee=float(doc.get("flee", 0.0)),
                   hunt_leader=float(doc.get("hunt_leader", 0.0)),
                   bluff=float(doc.get("bluff", 0.0)),
                   temperature=float(doc.get("temperature", 0.0)))


#: The styles a table of bots draws from, a person's habit each (the plain
#: heuristic is one of them). Each description is marked for the catalogs: a face
#: that shows it (the lobby's and the table's seat tooltip) translates it.
#: Tuned to the heuristic's strength: each as the single seat among five
#: heuristics takes 0.98x to 1.06x its fair share (600 games, docs/bots.md).
STYLES: Final[Mapping[str, Style]] = {s.name: s for s in (
    Style("plain", _("Drafts toward its nearest victory, aims where its role scores.")),
    Style("bold", _("Bold: drafts the fighting roles, seldom withdraws."),
          rates={Role.VAMPIRE: 1.2, Role.WEREWOLF: 1.2, Role.HUNTER: 1.2, Role.ZOMBIE: 1.15,
                 Role.PRIEST: 0.9}, flee=-0.03),
    Style("cautious", _("Cautious: drafts the Priest and withdraws at a threat."),
          rates={Role.PRIEST: 1.2, Role.DEVIL: 0.8}, flee=0.04),
    Style("leader-hunter", _("Leader-hunter: aims at whoever is closest to a victory."),
          hunt_leader=0.7),
    Style("bluffer", _("Bluffer: loves the Devil and its disguises, hard to read."),
          rates={Role.DEVIL: 1.4}, bluff=0.3, temperature=0.03),
    Style("guardian-lover", _("Guardian-lover: drafts the Priest whenever it can."),
          rates={Role.PRIEST: 1.5, Role.HUNTER: 0.9}),
)}


def style_names() -> tuple[str, ...]:
    """The styles a table of bots draws from."""
    return tuple(STYLES)


class FamilyBot(HeuristicBot):
    """The heuristic with a :class:`Style`'s habits (the default style: the heuristic).

    Not registered: it plays a ``heuristic`` seat in a style (``make_bot("heuristic",
    rng, style="bold")``), and the league registers its finds under names of their own."""

    def __init__(self, rng: random.Random, style: Style | None = None) -> None:
        super().__init__(rng)
        self.style_params = style if style is not None else STYLES["plain"]
        self.style = self.style_params.name
        self.rates = self.style_params.draft_rates()

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        f = read_facts(obs)
        first = legal[0]
        if isinstance(first, FreeXp | DraftPick | FaceDownPick | TakeDeath | LookAtHand):
            return draft_choice(f, legal, self.rates, self.rng)
        st = self.style_params
        beliefs = Beliefs(f)
        if isinstance(first, GestureChoice):
            gs = [d for d in legal if isinstance(d, GestureChoice)]
            if st.hunt_leader > 0 and self.rng.random() < st.hunt_leader:
                aimed = _at_leader(f, gs, self.rng)
                if aimed:
                    return aimed[self.rng.randrange(len(aimed))]
            if st.bluff > 0 and f.role is Role.DEVIL and self.rng.random() < st.bluff:
                return gs[self.rng.randrange(len(gs))]
            scores = gesture_scores(f, beliefs, gs)
            if st.temperature > 0:
                top = max(scores)
                ws = [math.exp((x - top) / st.temperature) for x in scores]
                return self.rng.choices(gs, ws)[0]
            i = max(range(len(gs)), key=lambda k: scores[k] + self.rng.random() * 1e-3)
            return gs[i]
        world = likely_world(f, beliefs, self.rng)
        return _by_resolution(f, world, legal, own_gesture(f), st.flee)


def _at_leader(f: Facts, legal: Sequence[GestureChoice], rng: random.Random
               ) -> list[GestureChoice]:
    others = [p for p in f.players if p != f.me and p != f.death]
    if not others:
        return []
    leader = min(others, key=lambda p: (distance(f.journals.get(p, {})), rng.random()))
    return [d for d in legal if leader in d.gesture.targets]


def _by_resolution(f: Facts, world: World, legal: Sequence[Decision], own: Gesture | None,
                   flee: float) -> Decision:
    """:func:`~darkcity.bots.heuristic.best_by_resolution`, a full withdrawal's
    price lowered by ``flee``."""
    me = f.players.index(f.me)
    before = [world.journals[p] for p in f.players]
    best: Decision = legal[0]
    best_v = -1e9
    for d in legal:
        if isinstance(d, WithdrawalChoice):
            ws = {f.me: d.withdrawal} if d.withdrawal is not False else {}
            v = night_value(me, world.resolve(gesture=own, withdrawals=ws), before)
            if d.withdrawal is True:
                v -= _WITHDRAW_COST - flee
        else:
            assert isinstance(d, ZombieChoice)
            v = night_value(me, world.resolve(gesture=own, withdrawals=f.withdrawals,
                                              zombie_targets={f.me: d.target}), before)
        if v > best_v:
            best, best_v = d, v
    return best


#: The strong bot's styles: the same search through sampled worlds, one habit each
#: (its knobs, :class:`~darkcity.bots.strong.StrongParams`), so it keeps its level.
STRONG_STYLES: Final[Mapping[str, Mapping[str, Any]]] = {
    "plain": {},
    "bold": {"withdraw_margin": 0.15},  # a full withdrawal must pay three times as much
    "cautious": {"withdraw_margin": 0.0},
    "leader-hunter": {"deny": 0.9},  # the others' progress, the leaders' doubly, weighs more
    "bluffer": {"mix_floor": 0.05},  # mixes among more of its near-equal gestures
    "guardian-lover": {"free_xp": ("priest",), "free_xp_mix": (),
                       "draft_taste": (("priest", 1.5), ("hunter", 0.9))},
}


def _heuristic_in(rng: random.Random, style: str) -> FamilyBot:
    bot = FamilyBot(rng, STYLES[style])
    bot.style_description = STYLES[style].description
    return bot


def _strong_in(rng: random.Random, style: str) -> StrongBot:
    bot = StrongBot(rng, replace(load_params(), **STRONG_STYLES[style]))
    bot.style = style
    bot.style_description = STYLES[style].description
    return bot


register_styles("heuristic", style_names(), _heuristic_in)
register_styles("strong", tuple(STRONG_STYLES), _strong_in)
