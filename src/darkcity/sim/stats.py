"""Statistics of a simulation: win shares against the fair share, goal rates per
bot and per role, seat shares, victory conditions, game length, and the figures
of a balance report.

Win share: a game won by ``k`` players gives each ``1/k``; the shares of a
game sum to one, so the fair share of a seat is ``1/players``.

Every share and rate comes with a 95% interval computed over *deals*, the
independent unit of a duplicate-deal simulation (:mod:`darkcity.sim.intervals`):
the rotations of one deal share its shuffles, and the seats one bot fills share
its wins. ``ci_naive`` keeps Wilson's interval on seat-games as if every
seat-game were independent, for comparison only: it is too wide for a bot
filling several seats (their shares are tied) and ignores the deals' pairing.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from darkcity.journal import VICTORY_CONDITIONS
from darkcity.sim.intervals import Interval, cluster_interval, wilson
from darkcity.sim.runner import GameOutcome, SimConfig

__all__ = ["BotStats", "RateStats", "Summary", "deal_interval", "summarize", "wilson"]


def deal_interval(means: Sequence[float]) -> tuple[float, float]:
    """The per-deal 95% interval on the mean of per-deal means (equal deal sizes)."""
    return cluster_interval(list(means), [1.0] * len(means)).ci


@dataclass(frozen=True, slots=True)
class RateStats:
    """A rate (goal met per night, win share per play...) with its per-deal interval."""

    n: int  # observations (nights played, seat-games...)
    rate: float
    ci: tuple[float, float]

    @classmethod
    def of(cls, iv: Interval, n: float) -> RateStats:
        return cls(round(n), iv.value, iv.ci)


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot name's results over all its seats."""

    bot: str
    seats: int  # how many seats of the table it held
    games: int  # seat-games played
    wins: float  # win shares
    share: float  # wins / games
    ci: tuple[float, float]  # 95%, per deal (the sound interval)
    ci_naive: tuple[float, float]  # Wilson on seat-games as if independent (comparison only)
    fair: float  # 1 / players
    ratio: float  # share / fair
    ratio_ci: tuple[float, float]  # ci / fair
    xp_per_game: float
    goal_rate: float  # nights with XP / nights played
    goal_ci: tuple[float, float]
    roles: dict[str, RateStats]  # role -> goal rate of this bot holding it


@dataclass(frozen=True, slots=True)
class Summary:
    config: dict[str, Any]
    games: int
    deals: int
    bots: tuple[BotStats, ...]
    seat_share: tuple[float, ...]  # win share by seat (Mayor = seat 0)
    seat_ci: tuple[tuple[float, float], ...]  # per deal, 95%
    nights_mean: float
    nights_median: float
    nights_p90: float
    nights_hist: dict[int, int]
    conditions: dict[str, float]  # fraction of games a winner met each condition
    roles: dict[str, dict[str, Any]]  # role -> played, goal_rate, goal_ci, xp_per_night
    role_wins: dict[str, RateStats]  # role held on the last night -> win share
    solo: dict[str, float]  # role -> fraction of games won by four XP in that row alone
    withdrawals_per_night: float

    def same_row(self, most: float = 0.5) -> tuple[str, float] | None:
        """The row that won more than ``most`` of the games alone (four XP in it and
        no other condition), with its share; None when no row did. A table whose
        bots win so (four Priests, game after game) is monotonous to play with."""
        if not self.solo:
            return None
        row = max(self.solo, key=lambda r: (self.solo[r], r))
        return (row, self.solo[row]) if self.solo[row] > most else None

    def same_row_note(self, most: float = 0.5) -> str:
        """:meth:`same_row` as a sentence for the reports ("" when no row did)."""
        got = self.same_row(most)
        if got is None:
            return ""
        row, share = got
        return (f"Bots won by four XP in the {row} row alone in {share:.0%} of the games: "
                "at this table one plan wins most games, and players who do not follow "
                "it rarely come close.")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["same_row"] = self.same_row()
        out["nights_hist"] = {str(k): v for k, v in sorted(self.nights_hist.items())}
        out["interval"] = ("95%, per deal: Wilson on the Kish effective sample size from "
                           "the cluster-robust variance over deals")
        return out


class _Deals:
    """Per-deal totals of one quantity: ``add(deal, successes, count)``."""

    __slots__ = ("count", "hits", "order")

    def __init__(self, order: dict[int, int]) -> None:
        self.order = order
        self.hits = [0.0] * len(order)
        self.count = [0.0] * len(order)

    def add(self, deal: int, hits: float, count: float) -> None:
        i = self.order[deal]
        self.hits[i] += hits
        self.count[i] += count

    def interval(self, cap: float | None = None) -> Interval:
        keep = [(h, c) for h, c in zip(self.hits, self.count, strict=True) if c > 0]
        return cluster_interval([h for h, _ in keep], [c for _, c in keep], cap=cap)

    @property
    def total(self) -> float:
        return sum(self.count)


def summarize(cfg: SimConfig, outcomes: Sequence[GameOutcome]) -> Summary:
    n = cfg.players
    games = len(outcomes)
    order = {d: i for i, d in enumerate(dict.fromkeys(o.deal for o in outcomes))}
    names = list(dict.fromkeys(cfg.bots))
    fair = 1 / n
    bots = [_bot_stats(b, [i for i, x in enumerate(cfg.bots) if x == b], outcomes, order,
                       fair, games) for b in names]
    # seats: rotation r puts bot b in seat (b + r) % n
    seat = [_Deals(order) for _ in range(n)]
    for o in outcomes:
        for k, c in enumerate(o.credit):
            seat[(k + o.rotation) % n].add(o.deal, c, 1)
    seat_iv = [s.interval() for s in seat]
    nights = sorted(o.nights for o in outcomes)
    hist: dict[int, int] = {}
    for x in nights:
        hist[x] = hist.get(x, 0) + 1
    conds = {c: sum(1 for o in outcomes if c in o.conditions) / games
             for c in VICTORY_CONDITIONS} if games else {}
    goal: dict[str, _Deals] = {}
    xp: dict[str, int] = {}
    wins: dict[str, _Deals] = {}
    solo: dict[str, int] = {}
    for o in outcomes:
        for role, (played, met, got) in o.roles.items():
            goal.setdefault(role, _Deals(order)).add(o.deal, met, played)
            xp[role] = xp.get(role, 0) + got
        for role, credit in o.final_roles:
            wins.setdefault(role, _Deals(order)).add(o.deal, credit, 1)
        for role in set(o.solo):
            solo[role] = solo.get(role, 0) + 1
    roles: dict[str, dict[str, Any]] = {}
    for r in sorted(goal):
        iv = goal[r].interval()
        count = goal[r].total
        roles[r] = {"played": int(count), "goal_rate": iv.value, "goal_ci": iv.ci,
                    "xp_per_night": xp[r] / count if count else 0.0}
    total_nights = sum(nights)
    return Summary(
        config={"players": n, "bots": list(cfg.bots), "games": cfg.total_games,
                "seed": cfg.seed, "deck": cfg.deck},
        games=games,
        deals=len(order),
        bots=tuple(bots),
        seat_share=tuple(iv.value for iv in seat_iv) if games else (),
        seat_ci=tuple(iv.ci for iv in seat_iv) if games else (),
        nights_mean=statistics.fmean(nights) if nights else 0.0,
        nights_median=float(statistics.median(nights)) if nights else 0.0,
        nights_p90=float(nights[int(0.9 * (len(nights) - 1))]) if nights else 0.0,
        nights_hist=hist,
        conditions=conds,
        roles=roles,
        role_wins={r: RateStats.of(wins[r].interval(), wins[r].total) for r in sorted(wins)},
        solo={r: solo[r] / games for r in sorted(solo)} if games else {},
        withdrawals_per_night=(sum(o.withdrawals for o in outcomes) / total_nights
                               if total_nights else 0.0),
    )


def _bot_stats(b: str, idx: Sequence[int], outcomes: Iterable[GameOutcome],
               order: dict[int, int], fair: float, games: int) -> BotStats:
    share = _Deals(order)
    goal = _Deals(order)
    per_role: dict[str, _Deals] = {}
    xp = 0
    for o in outcomes:
        share.add(o.deal, sum(o.credit[i] for i in idx), 1)  # the table credit: 1 a game
        for i in idx:
            xp += o.xp[i]
            for role, (played, met) in o.bot_roles[i].items():
                goal.add(o.deal, met, played)
                per_role.setdefault(role, _Deals(order)).add(o.deal, met, played)
    k = len(idx)
    seat_games = share.total * k
    # the seats of one bot share a table's win: the interval is on its table credit
    # per game (a proportion), then shared among its k seats
    table = share.interval()
    p, lo, hi = table.scaled(1 / k)
    wins = table.value * share.total
    g = goal.interval()
    return BotStats(
        bot=b, seats=k, games=int(seat_games), wins=round(wins, 4), share=p,
        ci=(lo, hi), ci_naive=wilson(wins, int(seat_games)), fair=fair, ratio=p / fair,
        ratio_ci=(lo / fair, hi / fair),
        xp_per_game=xp / seat_games if seat_games else 0.0, goal_rate=g.value, goal_ci=g.ci,
        roles={r: RateStats.of(d.interval(), d.total) for r, d in sorted(per_role.items())})
