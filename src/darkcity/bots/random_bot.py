"""``random``: uniform over the legal decisions (the baseline)."""

from __future__ import annotations

from darkcity.bots.base import Bot, Observation, register
from darkcity.game import Decision

__all__ = ["RandomBot"]


@register
class RandomBot(Bot):
    name = "random"
    description = "Uniform over the legal decisions."

    def step(self, obs: Observation) -> Decision:
        return self.rng.choice(obs.legal)  # (the same draw as randrange(len), fewer calls)
