"""A round-robin tournament between bots, on duplicate deals, with a rating table.

Every ordered pair of the population (A, B) plays a match: A holds one seat and
B the others, on the same duplicate deals for every match (each deal played once
per rotation of the seats; :mod:`darkcity.sim.runner`). Two figures come out:

* the *score matrix*: A's win share as the single seat against B, against the
  fair share, with its 95% interval over deals (:mod:`darkcity.sim.intervals`);
* the *ratings*: every game is a duel between A's seat and one of B's seats,
  the one the deal and the rotation designate (the higher win share wins, equal
  shares draw: between equals each side wins 1/n of the games, the rest are
  draws; A's seat against the mean of B's seats would have lost (n-1)/n of them
  between equals), rated with OpenSkill's Plackett-Luce model (``openskill``,
  the ``rl`` extra), the games taken deal by deal across the matches; a
  rating's interval is ``mu ± 1.96 sigma``.

The bars of issue #15 for the strong bot are checked on the matrix: at least
1.5x the fair share as the single seat against every other member, and no
member above 1.0x as the single seat against the strong bot's seats.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from darkcity.sim.runner import GameOutcome, SimConfig, run
from darkcity.sim.stats import summarize

__all__ = ["Match", "Rating", "TournamentResult", "play_tournament", "write_tournament"]


@dataclass(frozen=True, slots=True)
class Match:
    """``single`` in one seat against ``field`` in the others."""

    single: str
    field: str
    games: int
    share: float
    ci: tuple[float, float]
    ratio: float  # share / fair share
    ratio_ci: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Rating:
    bot: str
    mu: float
    sigma: float
    ci: tuple[float, float]  # mu ± 1.96 sigma
    ordinal: float  # mu - 3 sigma, OpenSkill's conservative rating


@dataclass(frozen=True, slots=True)
class TournamentResult:
    config: dict[str, Any]
    population: tuple[str, ...]
    matches: tuple[Match, ...]
    ratings: tuple[Rating, ...]  # best first
    checks: dict[str, Any] = field(default_factory=dict)

    def match(self, single: str, against: str) -> Match:
        for m in self.matches:
            if m.single == single and m.field == against:
                return m
        raise KeyError((single, against))

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["rating_model"] = ("openskill PlackettLuce, duels of A's seat and one "
                               "designated seat of B")
        out["interval"] = "95%, per deal (matrix); mu ± 1.96 sigma (ratings)"
        return out


def _duel(o: GameOutcome, players: int) -> tuple[int, int]:
    """Ranks (single, field) of one game: lower is better, equal a draw. The
    field is represented by one of its seats (bot index 1..n-1), designated by
    the deal and the rotation, so that the duel is fair between equals."""
    single = o.credit[0]
    other = o.credit[1 + (o.deal + o.rotation) % (players - 1)]
    if single > other + 1e-12:
        return (0, 1)
    if single < other - 1e-12:
        return (1, 0)
    return (0, 0)


def play_tournament(population: Sequence[str], *, players: int = 6, games: int = 60,
                    seed: int | str = 1, deck: str = "basic", workers: int = 1,
                    progress: Callable[[int], None] | None = None,
                    strong: str = "strong") -> TournamentResult:
    """Play every ordered pair of ``population`` (``games`` games each, rounded
    up to whole deals) and rate them."""
    from openskill.models import PlackettLuce

    pop = tuple(dict.fromkeys(population))
    if len(pop) < 2:
        raise ValueError("a tournament needs two bots at least")
    outcomes: dict[tuple[str, str], list[GameOutcome]] = {}
    matches = []
    for a in pop:
        for b in pop:
            if a == b:
                continue
            cfg = SimConfig(players=players, bots=(a,) + (b,) * (players - 1), games=games,
                            seed=seed, deck=deck)
            got = run(cfg, workers=workers, progress=progress)
            outcomes[(a, b)] = got
            s = summarize(cfg, got).bots[0]
            matches.append(Match(a, b, s.games, s.share, s.ci, s.ratio, s.ratio_ci))
    model = PlackettLuce()
    rating = {b: model.rating(name=b) for b in pop}
    deals = max(o.deal for got in outcomes.values() for o in got) + 1
    by_deal: dict[tuple[str, str], dict[int, list[GameOutcome]]] = {
        k: {} for k in outcomes}
    for k, got in outcomes.items():
        for o in got:
            by_deal[k].setdefault(o.deal, []).append(o)
    for d in range(deals):  # deal by deal across the matches: no match rated last
        for (a, b), per in by_deal.items():
            for o in per.get(d, ()):
                ra, rb = _duel(o, players)
                [[na], [nb]] = model.rate([[rating[a]], [rating[b]]], ranks=[ra, rb])
                rating[a], rating[b] = na, nb
    ratings = sorted((Rating(b, r.mu, r.sigma, (r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma),
                             r.ordinal()) for b, r in rating.items()),
                     key=lambda r: -r.mu)
    checks: dict[str, Any] = {}
    if strong in pop:
        as_single = {b: _match(matches, strong, b).ratio for b in pop if b != strong}
        against = {b: _match(matches, b, strong).ratio for b in pop if b != strong}
        checks = {
            "strong": strong,
            "single_ratio": as_single,
            "single_pass": all(x >= 1.5 for x in as_single.values()),
            "against_ratio": against,
            "against_pass": all(x <= 1.0 for x in against.values()),
        }
    return TournamentResult(
        config={"players": players, "games": games, "seed": seed, "deck": deck},
        population=pop, matches=tuple(matches), ratings=tuple(ratings), checks=checks)


def _match(matches: Sequence[Match], single: str, against: str) -> Match:
    return next(m for m in matches if m.single == single and m.field == against)


# ---------------------------------------------------------------------------
# Files


def write_tournament(result: TournamentResult, out: Path) -> list[Path]:
    """``tournament.json``, ``tournament.html`` and (matplotlib) ``tournament.png``."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "tournament.json"
    path.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    files = [path]
    png = _png(result, out / "tournament.png")
    if png is not None:
        files.append(png)
    files.append(_html(result, out / "tournament.html", png))
    return files


def _html(r: TournamentResult, path: Path, png: Path | None) -> Path:
    pop = r.population
    head = "".join(f"<th>{html.escape(b)}</th>" for b in pop)
    rows = []
    for a in pop:
        cells = []
        for b in pop:
            if a == b:
                cells.append("<td>-</td>")
                continue
            m = r.match(a, b)
            cells.append(f"<td>{m.ratio:.2f}<br><small>[{m.ratio_ci[0]:.2f}, "
                         f"{m.ratio_ci[1]:.2f}]</small></td>")
        rows.append(f"<tr><th>{html.escape(a)}</th>{''.join(cells)}</tr>")
    ratings = "".join(
        f"<tr><td>{i + 1}</td><td>{html.escape(x.bot)}</td><td>{x.mu:.2f}</td>"
        f"<td>[{x.ci[0]:.2f}, {x.ci[1]:.2f}]</td><td>{x.ordinal:.2f}</td></tr>"
        for i, x in enumerate(r.ratings))
    checks = html.escape(json.dumps(r.checks, indent=1)) if r.checks else ""
    img = f'<img alt="tournament" src="{html.escape(png.name)}">' if png else ""
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>darkcity tournament</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}</style></head><body>
<h1>darkcity tournament</h1>
<p>{html.escape(json.dumps(r.config))}: every ordered pair on the same duplicate deals.</p>
<h2>Ratings (OpenSkill Plackett-Luce; mu &plusmn; 1.96 sigma)</h2>
<table><tr><th>#</th><th>bot</th><th>mu</th><th>95%</th><th>ordinal</th></tr>{ratings}</table>
<h2>Single seat (row) against the field (column): win share x fair share, 95% CI over
deals</h2>
<table><tr><th></th>{head}</tr>{''.join(rows)}</table>
{img}
<h2>Checks</h2><pre>{checks}</pre>
</body></html>
"""
    path.write_text(page, encoding="utf-8")
    return path


def _png(r: TournamentResult, path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    pop = r.population
    grid = [[float("nan") if a == b else r.match(a, b).ratio for b in pop] for a in pop]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(15, 6))
    im = ax.imshow(grid, cmap="RdBu_r", vmin=0, vmax=2)
    ax.set_xticks(range(len(pop)), pop, rotation=45, ha="right")
    ax.set_yticks(range(len(pop)), pop)
    for i, row in enumerate(grid):
        for j, x in enumerate(row):
            if x == x:  # not NaN
                ax.text(j, i, f"{x:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("the field (every other seat)")
    ax.set_ylabel("the single seat")
    ax.set_title("Win share x fair share of the single seat")
    fig.colorbar(im, ax=ax)
    names = [x.bot for x in r.ratings][::-1]
    mus = [x.mu for x in r.ratings][::-1]
    err = [1.96 * x.sigma for x in r.ratings][::-1]
    bx.errorbar(mus, range(len(names)), xerr=err, fmt="o", capsize=4)
    bx.set_yticks(range(len(names)), names)
    bx.set_title("OpenSkill rating (mu ± 1.96 sigma)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
