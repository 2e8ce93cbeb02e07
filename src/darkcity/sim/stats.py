"""Statistics of a simulation: win shares with 95% intervals against the fair
share, XP and goal rates per role, victory conditions, game length.

Win share: a game won by ``k`` players gives each ``1/k``; the shares of a
game sum to one, so the fair share of a seat is ``1/players``. The interval
is Wilson's score interval at 95% on (share, games played by that bot);
:func:`deal_interval` gives a second, duplicate-aware interval from the
spread of per-deal means (a deal plays every rotation, so seat and deck luck
cancel inside it).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from darkcity.journal import VICTORY_CONDITIONS
from darkcity.sim.runner import GameOutcome, SimConfig

__all__ = ["BotStats", "Summary", "deal_interval", "summarize", "wilson"]

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (successes may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def deal_interval(means: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal interval on the mean of per-deal means."""
    if len(means) < 2:
        return (0.0, 1.0)
    m = statistics.fmean(means)
    se = statistics.stdev(means) / math.sqrt(len(means))
    return (max(0.0, m - z * se), min(1.0, m + z * se))


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot name's results over all its seats."""

    bot: str
    seats: int  # how many seats of the table it held
    games: int  # seat-games played
    wins: float  # win shares
    share: float  # wins / games
    ci: tuple[float, float]  # Wilson 95%
    ci_deals: tuple[float, float]  # per-deal means, 95%
    fair: float  # 1 / players
    ratio: float  # share / fair
    ratio_ci: tuple[float, float]
    xp_per_game: float
    goal_rate: float  # nights with XP / nights played


@dataclass(frozen=True, slots=True)
class Summary:
    config: dict[str, Any]
    games: int
    deals: int
    bots: tuple[BotStats, ...]
    seat_share: tuple[float, ...]  # win share by seat (Mayor = seat 0)
    nights_mean: float
    nights_median: float
    nights_p90: float
    nights_hist: dict[int, int]
    conditions: dict[str, float]  # fraction of games a winner met each condition
    roles: dict[str, dict[str, float]]  # role -> played, goal_rate, xp_per_night
    withdrawals_per_night: float

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["nights_hist"] = {str(k): v for k, v in sorted(self.nights_hist.items())}
        return out


def summarize(cfg: SimConfig, outcomes: Sequence[GameOutcome]) -> Summary:
    n = cfg.players
    games = len(outcomes)
    names = list(dict.fromkeys(cfg.bots))
    fair = 1 / n
    seat_of_bot = {b: [i for i, x in enumerate(cfg.bots) if x == b] for b in names}
    bots = []
    for b in names:
        idx = seat_of_bot[b]
        wins = sum(o.credit[i] for o in outcomes for i in idx)
        played = games * len(idx)
        share = wins / played if played else 0.0
        lo, hi = wilson(wins, played)
        per_deal: dict[int, list[float]] = {}
        for o in outcomes:
            per_deal.setdefault(o.deal, []).append(sum(o.credit[i] for i in idx) / len(idx))
        dl = deal_interval([statistics.fmean(v) for v in per_deal.values()])
        xp = sum(o.xp[i] for o in outcomes for i in idx)
        nights_played = sum(v[0] for o in outcomes for i in idx for v in o.bot_roles[i].values())
        met = sum(v[1] for o in outcomes for i in idx for v in o.bot_roles[i].values())
        bots.append(BotStats(
            b, len(idx), played, round(wins, 4), share, (lo, hi), dl, fair, share / fair,
            (lo / fair, hi / fair), xp / played if played else 0.0,
            met / nights_played if nights_played else 0.0))
    # seats: rotation r puts bot b in seat (b + r) % n
    seat_wins = [0.0] * n
    for o in outcomes:
        for k, c in enumerate(o.credit):
            seat_wins[(k + o.rotation) % n] += c
    nights = sorted(o.nights for o in outcomes)
    hist: dict[int, int] = {}
    for x in nights:
        hist[x] = hist.get(x, 0) + 1
    conds = {c: sum(1 for o in outcomes if c in o.conditions) / games
             for c in VICTORY_CONDITIONS} if games else {}
    roles: dict[str, list[int]] = {}
    for o in outcomes:
        for role, (played, met, got) in o.roles.items():
            row = roles.setdefault(role, [0, 0, 0])
            row[0] += played
            row[1] += met
            row[2] += got
    total_nights = sum(nights)
    return Summary(
        config={"players": n, "bots": list(cfg.bots), "games": cfg.total_games,
                "seed": cfg.seed, "deck": cfg.deck},
        games=games,
        deals=len({o.deal for o in outcomes}),
        bots=tuple(bots),
        seat_share=tuple(w / games for w in seat_wins) if games else (),
        nights_mean=statistics.fmean(nights) if nights else 0.0,
        nights_median=float(statistics.median(nights)) if nights else 0.0,
        nights_p90=float(nights[int(0.9 * (len(nights) - 1))]) if nights else 0.0,
        nights_hist=hist,
        conditions=conds,
        roles={r: {"played": v[0], "goal_rate": v[1] / v[0] if v[0] else 0.0,
                   "xp_per_night": v[2] / v[0] if v[0] else 0.0}
               for r, v in sorted(roles.items())},
        withdrawals_per_night=(sum(o.withdrawals for o in outcomes) / total_nights
                               if total_nights else 0.0),
    )
