"""Confidence intervals for shares measured on duplicate deals.

The games of a simulation are not independent draws. A deal plays the same
shuffles once per rotation of the bots through the seats, and a bot that
fills several seats of a table holds shares that are tied to each other (they
sum, with the other bots' shares, to one win a game). The unit that *is*
independent is the deal, so every share is treated as a ratio estimator over
deals, with the cluster-robust (per-deal) variance:

    p = sum(y_d) / sum(m_d)
    var(p) = G / (G - 1) * sum((y_d - p * m_d) ** 2) / sum(m_d) ** 2

where deal ``d`` holds ``m_d`` observations (seat-games, nights played...)
whose successes sum to ``y_d`` and ``G`` is the number of deals (Cochran,
*Sampling Techniques*, 3rd ed., 6.11; the sandwich estimator of a cluster
sample).

The interval is Wilson's score interval on the Kish *effective sample size*
``n_eff = p (1 - p) / var(p)``, capped by the number of observations. This is
the design-effect-adjusted Wilson interval of survey statistics (Korn and
Graubard 1998; Kish 1965): it equals the cluster-robust normal interval away
from the bounds, stays inside [0, 1], and never collapses to a point when a
share happens to be the same in every deal (then the variance carries no
information and the interval is Wilson's on the observations).

A bot that fills ``k`` seats is measured on its *table credit* per game (the sum
of its seats' shares, a proportion in [0, 1]: one observation a game), and the
interval divided by ``k``: its seats' shares are tied, and counting each
seat-game as an observation would make the interval both wrong and wider
(:mod:`darkcity.sim.stats`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Z95", "Interval", "cluster_interval", "wilson"]

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (successes and ``n`` may be
    fractional: an effective sample size)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # the bounds hold p exactly (rounding could leave p = 1 just outside)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True, slots=True)
class Interval:
    """A share with its per-deal (cluster) 95% interval."""

    value: float  # the share: sum of successes / sum of observations
    low: float
    high: float
    se: float  # cluster-robust standard error of ``value``
    n_eff: float  # the effective sample size the interval was computed on
    clusters: int  # deals

    @property
    def ci(self) -> tuple[float, float]:
        return (self.low, self.high)

    def scaled(self, k: float) -> tuple[float, float, float]:
        """``(value, low, high)`` times ``k`` (e.g. 1 / fair share)."""
        return (self.value * k, self.low * k, self.high * k)


def cluster_interval(successes: Sequence[float], sizes: Sequence[float], *,
                     cap: float | None = None, z: float = Z95) -> Interval:
    """The share ``sum(successes) / sum(sizes)`` over clusters (deals), with the
    design-effect-adjusted Wilson interval described in the module's docstring.

    ``successes[d]`` and ``sizes[d]`` are deal ``d``'s total and count;
    ``cap`` bounds the effective sample size (default: the total count).
    """
    if len(successes) != len(sizes):
        raise ValueError(f"{len(successes)} totals for {len(sizes)} cluster sizes")
    g = len(sizes)
    m = float(sum(sizes))
    if g == 0 or m <= 0:
        return Interval(0.0, 0.0, 1.0, math.inf, 0.0, g)
    y = float(sum(successes))
    p = y / m
    limit = m if cap is None else min(m, float(cap))
    if g < 2:  # no spread between deals to measure: Wilson on the cap
        lo, hi = wilson(p * limit, limit, z)
        return Interval(p, lo, hi, math.sqrt(p * (1 - p) / limit) if limit else math.inf,
                        limit, g)
    resid = sum((yd - p * md) ** 2 for yd, md in zip(successes, sizes, strict=True))
    var = g / (g - 1) * resid / (m * m)
    bern = p * (1 - p)
    n_eff = limit if var <= 0 or bern <= 0 else min(limit, bern / var)
    lo, hi = wilson(p * n_eff, n_eff, z)
    return Interval(p, lo, hi, math.sqrt(var), n_eff, g)
