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

from darkcity.bots.base import Observation, register, register_styles
from darkcity.bots.heuristic import (
    DEFAULT_RATES,
    HeuristicBot,
    draft_choice,
    gesture_scores,
    likely_world,
    own_gesture,
)
from darkcity.bots.knowledge import Beliefs, Facts, distance, night_value, read_facts
from darkcity.bots.strong import StrongBot, load_params, quantal_draft
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

__all__ = ["SEARCHED_ROLES", "STRONG_STYLES", "STYLES", "FamilyBot", "NoviceBot", "Style",
           "style_names"]

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
    #: a quantal response in the draft (``strong.quantal_draft``; 0: the best card)
    draft_temperature: float = 0.0

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
        out = {"name": self.name, "rates": {r.key: x for r, x in self.rates.items()},
               "flee": self.flee, "hunt_leader": self.hunt_leader, "bluff": self.bluff,
               "temperature": self.temperature}
        if self.draft_temperature:
            out["draft_temperature"] = self.draft_temperature
        return out

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
                   temperature=float(doc.get("temperature", 0.0)),
                   draft_temperature=float(doc.get("draft_temperature", 0.0)))


#: The styles a table of bots draws from, a person's habit and plan each (the plain
#: heuristic is one of them). Each description is marked for the catalogs: a face
#: that shows it (the lobby's and the table's seat tooltip) translates it. A plan is a
#: role drafted far more readily than the plain heuristic does, its row the one the
#: free XP goes on (the row of the highest draft rate): a table draws its plans seat by
#: seat, so its bots do not all race for the Priest (issue #54; the figures of each
#: style, and of a table, are in docs/bots.md).
STYLES: Final[Mapping[str, Style]] = {s.name: s for s in (
    Style("plain", _("Drafts toward its nearest victory, aims where its role scores.")),
    Style("bold", _("Bold: drafts the Werewolf and the fighting roles, seldom withdraws."),
          rates={Role.WEREWOLF: 1.9, Role.VAMPIRE: 1.3, Role.HUNTER: 1.2, Role.ZOMBIE: 1.15,
                 Role.PRIEST: 0.9}, flee=-0.03, hunt_leader=0.4),
    Style("cautious", _("Cautious: drafts the Devil, whom most attacks miss; withdraws when "
                        "threatened."),
          rates={Role.DEVIL: 2.1, Role.PRIEST: 0.9}, flee=0.04),
    Style("leader-hunter", _("Leader-hunter: drafts the Hunter and aims at whoever is "
                             "closest to a victory."),
          rates={Role.HUNTER: 2.1}, hunt_leader=0.7),
    Style("bluffer", _("Bluffer: loves the Devil and its disguises, hard to read."),
          rates={Role.DEVIL: 2.1}, bluff=0.3, temperature=0.03, hunt_leader=0.3),
    Style("guardian-lover", _("Guardian-lover: drafts the Priest whenever it can."),
          rates={Role.PRIEST: 1.5, Role.HUNTER: 0.9}, flee=-0.05),
    Style("zombie-lover", _("Zombie lover: drafts the Zombie and fills its row."),
          rates={Role.ZOMBIE: 2.2}, hunt_leader=0.4),
)}

#: The easy level's looseness: a quantal draft and a softmax over its gestures, each
#: far wider than a careful player's (``novice``).
NOVICE_DRAFT: Final = 0.2
NOVICE_GESTURES: Final = 0.3


def style_names() -> tuple[str, ...]:
    """The styles of the heuristic family (the plain one is the level's reference mind)."""
    return tuple(STYLES)


#: The styles a table's seat draws, and their weights: every style with a plan of its
#: own (the plain heuristic, a Priest's plan, is left out), the guardian-lover's Priest,
#: the plan that wins most where it is played, half as often as the others: a table of
#: them wins by four Priests in under half of its games (issue #54, docs/bots.md).
TABLE_STYLES: Final = (("bold", 1.0), ("cautious", 1.0), ("leader-hunter", 1.0),
                       ("bluffer", 1.0), ("guardian-lover", 0.5), ("zombie-lover", 1.0))


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
        st = self.style_params
        if st.draft_temperature > 0 and isinstance(first, DraftPick | FaceDownPick):
            return quantal_draft(f, legal, self.rates, self.rng, st.draft_temperature)
        if isinstance(first, FreeXp | DraftPick | FaceDownPick | TakeDeath | LookAtHand):
            return draft_choice(f, legal, self.rates, self.rng)
        beliefs = Beliefs(f)
        if isinstance(first, GestureChoice):
            gs = [d for d in legal if isinstance(d, GestureChoice)]
            if st.hunt_leader > 0 and (self.rng.random() < st.hunt_leader or _near_win(f)):
                aimed = _at_leader(f, gs, self.rng)
                if aimed:  # only an attack its card expects to hurt (a Vampire spares a Priest)
                    worth = gesture_scores(f, beliefs, aimed)
                    aimed = [d for d, x in zip(aimed, worth, strict=True) if x > 0]
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


def _near_win(f: Facts) -> bool:
    """Another player is one XP short of a victory (the table's near-win mark)."""
    return any(distance(f.journals.get(p, {})) <= 1 for p in f.players
               if p != f.me and p != f.death)


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
    # a full withdrawal must pay three times as much; the Werewolf drafted more readily
    "bold": {"withdraw_margin": 0.15, "draft_taste": (("werewolf", 1.5),)},
    "cautious": {"withdraw_margin": 0.0, "draft_taste": (("devil", 1.5),)},
    # the others' progress, the leaders' doubly, weighs more
    "leader-hunter": {"deny": 0.9, "draft_taste": (("hunter", 1.5),)},
    # mixes among more of its near-equal gestures, and of its disguises
    "bluffer": {"mix_floor": 0.05, "disguise_temperature": 0.6,
                "draft_taste": (("devil", 1.3),)},
    "guardian-lover": {"free_xp": ("priest",), "free_xp_mix": (), "free_xp_by_rates": False,
                       "draft_taste": (("priest", 1.5), ("hunter", 0.9))},
    "zombie-lover": {"free_xp": ("zombie",), "free_xp_mix": (), "free_xp_by_rates": False,
                     "draft_taste": (("zombie", 1.5),)},
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


@register
class NoviceBot(FamilyBot):
    """The easy level: the heuristic playing by feel (a wide quantal draft, a softmax
    over its gestures' scores), in a style like the heuristic's seats."""

    name = "novice"
    level = 1
    variant = True
    description = _("Plays by feel: keeps the cards it likes and often misses the best aim.")

    def __init__(self, rng: random.Random, style: Style | None = None) -> None:
        st = style if style is not None else STYLES["plain"]
        super().__init__(rng, replace(st, draft_temperature=NOVICE_DRAFT,
                                      temperature=max(st.temperature, NOVICE_GESTURES)))


def _novice_in(rng: random.Random, style: str) -> NoviceBot:
    bot = NoviceBot(rng, STYLES[style])
    bot.style_description = STYLES[style].description
    return bot


register_styles("heuristic", style_names(), _heuristic_in, drawn=TABLE_STYLES)
register_styles("novice", style_names(), _novice_in, drawn=TABLE_STYLES)
register_styles("strong", tuple(STRONG_STYLES), _strong_in, drawn=TABLE_STYLES)
