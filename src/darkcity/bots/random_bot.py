"""``random``: uniform over the legal decisions (the baseline)."""

from __future__ import annotations

from darkcity.bots.base import Bot, Observation, register
from darkcity.bots.play import choose
from darkcity.decisions import Decision
from darkcity.i18n import _

__all__ = ["RandomBot"]


@register
class RandomBot(Bot):
    name = "random"
    description = _("Uniform over the legal decisions.")

    def step(self, obs: Observation) -> Decision:
        return choose(self.rng, obs.legal)  # as rng.choice, compiled
