"""Variants of the heuristic: the population a tournament (and the strong bot's
training) plays against, so that no bot is measured only against the one
opponent it was built to read.

* ``retuned`` — the heuristic with other goal rates (Hunters, Zombies and
  Werewolves valued higher, Priests lower): it drafts differently, so a model
  that assumes the default heuristic's draft reads it wrong.
* ``never-flee`` — never withdraws nor lowers an arrow.
* ``leader-hunter`` — aims at the player closest to a victory whenever its
  role can touch them (the heuristic's aim otherwise).
* ``always-priest`` — drafts a Priest whenever one is offered.
* ``skittish`` — withdraws whenever a revealed gesture aims at it and its role
  could be removed by it, else plays as the heuristic.
* ``reader`` — the strong bot given the strong bot's own files and code: it takes
  the others to draft exactly as the strong bot does (its rates from ``strong.json``,
  its draft's temperature), so at a table of strong bots it reads their cards from
  the hands it passes and receives (issue #54's exploiter, a league member).

Each but the reader is the heuristic with one habit changed; every choice is still one of the
engine's legal decisions (``obs.legal``), and nothing here decides a rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from darkcity.bots.base import Observation, register
from darkcity.bots.heuristic import DEFAULT_RATES, HeuristicBot
from darkcity.bots.knowledge import distance, read_facts
from darkcity.bots.strong import StrongBot, StrongParams, load_params
from darkcity.cast import Effect, Role, effect
from darkcity.decisions import Decision, DraftPick, GestureChoice, WithdrawalChoice
from darkcity.i18n import _

__all__ = ["AlwaysPriestBot", "LeaderHunterBot", "NeverFleeBot", "ReaderBot", "RetunedBot",
           "SkittishBot", "reader_params"]

#: Re-tuned goal rates: fighting roles up, the Priest down.
RETUNED_RATES: Final[Mapping[Role, float]] = {
    **DEFAULT_RATES, Role.HUNTER: 0.55, Role.ZOMBIE: 0.5, Role.WEREWOLF: 0.5,
    Role.VAMPIRE: 0.5, Role.PRIEST: 0.45, Role.DEVIL: 0.3}
_LETHAL: Final = frozenset((Effect.KILL, Effect.KILL_NO_XP, Effect.ABDUCT, Effect.DAMN,
                            Effect.REFLEX))


@register
class RetunedBot(HeuristicBot):
    name = "retuned"
    level = 1
    variant = True
    description = _("The heuristic with re-tuned goal rates: fighting roles up, the Priest down.")
    rates = RETUNED_RATES


@register
class NeverFleeBot(HeuristicBot):
    name = "never-flee"
    level = 1
    variant = True
    description = _("The heuristic that never withdraws nor lowers an arrow.")

    def step(self, obs: Observation) -> Decision:
        stay = [d for d in obs.legal if isinstance(d, WithdrawalChoice) and d.withdrawal is False]
        if stay:
            return stay[0]
        return super().step(obs)


@register
class LeaderHunterBot(HeuristicBot):
    name = "leader-hunter"
    level = 1
    variant = True
    description = _("The heuristic that aims at the player closest to a victory when it can.")

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        if legal and isinstance(legal[0], GestureChoice) and len(legal) > 1:
            f = read_facts(obs)
            others = [p for p in f.players if p != f.me and p != f.death]
            if others:
                leader = min(others, key=lambda p: (distance(f.journals.get(p, {})),
                                                    self.rng.random()))
                aimed = [d for d in legal if isinstance(d, GestureChoice)
                         and leader in d.gesture.targets]
                if aimed:
                    return aimed[self.rng.randrange(len(aimed))]
        return super().step(obs)


@register
class AlwaysPriestBot(HeuristicBot):
    name = "always-priest"
    level = 1
    variant = True
    description = _("The heuristic that drafts a Priest whenever one is offered.")

    def step(self, obs: Observation) -> Decision:
        priests = [d for d in obs.legal if isinstance(d, DraftPick)
                   and d.card.role is Role.PRIEST]
        if priests:
            return priests[0]
        return super().step(obs)


@register
class SkittishBot(HeuristicBot):
    name = "skittish"
    level = 1
    variant = True
    description = _("The heuristic that withdraws whenever a revealed gesture could remove it.")

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        flee = [d for d in legal if isinstance(d, WithdrawalChoice) and d.withdrawal is True]
        if flee:
            f = read_facts(obs)
            mine = f.role
            if mine is not None and any(
                    f.me in g.targets and effect(f.shown.get(p, mine), mine) in _LETHAL
                    for p, g in f.gestures.items() if p != f.me):
                return flee[0]
        return super().step(obs)


def reader_params(params: StrongParams | None = None) -> StrongParams:
    """The strong bot (``params``: the shipped one) reading the others as drafting
    exactly as it does: its own rates and draft temperature, a pick off that model
    weighted 0.02 and never loosened."""
    p = params if params is not None else load_params()
    return replace(p, picker_model="self", picker_eps=0.02, eps_max=0.02)


@register
class ReaderBot(StrongBot):
    name = "reader"
    level = 2
    variant = True
    description = _("The strong bot that knows the strong bot's draft (its rates and "
                    "temperature) and reads the others' cards from it.")

    def __init__(self, rng: random.Random, params: StrongParams | None = None) -> None:
        super().__init__(rng, params if params is not None else reader_params())
