"""Hypothesis strategies for valid random nights.

The generator itself is plain Python (``benchmarks/nightgen.py``, shared with the
benchmarks); here Hypothesis drives its only source of randomness, so failing
nights shrink (toward the first choice of every decision).
"""

from __future__ import annotations

from typing import Any

from benchmarks.nightgen import CASTS, random_round
from hypothesis import strategies as st

__all__ = ["CASTS", "rounds"]


class _Draws:
    """A :class:`benchmarks.nightgen.Chooser` backed by Hypothesis draws."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def randint(self, a: int, b: int) -> int:
        return self._draw(st.integers(a, b))


@st.composite
def rounds(draw: st.DrawFn, min_players: int = 4, max_players: int = 8,
           casts: tuple[str, ...] = CASTS) -> dict[str, Any]:
    """A valid ``darkcity-round/1`` document: 4-8 players, any cast configuration."""
    n = draw(st.integers(min_players, max_players))
    cast = draw(st.sampled_from([c for c in casts if c != "special" or n >= 6] or ["basic"]))
    return random_round(_Draws(draw), players=n, cast=cast)
