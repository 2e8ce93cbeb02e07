"""The balance report for designers: ``darkcity simulate --balance``.

For every deck and table size asked for, the same bots play duplicate deals,
and the report gives, per (deck, players):

* each role's goal rate (nights its goal was met per night played) and its win
  share when held on a game's last night (the night that decides), with 95%
  intervals over deals;
* how often each victory condition is met by a winner;
* how often a game is won by one role alone: a winner meeting no condition but
  four XP in a single row (bots have won real games with four Priests); when one
  row wins most games so, the report says it in a sentence
  (:meth:`~darkcity.sim.stats.Summary.same_row`).

Written as ``balance.json``, ``balance.html`` and, with matplotlib,
``balance.png`` (goal rate per role and deck).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from darkcity.deck import presets_for
from darkcity.sim.runner import SimConfig, run
from darkcity.sim.stats import Summary, summarize

__all__ = ["BalanceRow", "balance_configs", "run_balance", "write_balance"]


@dataclass(frozen=True, slots=True)
class BalanceRow:
    deck: str
    players: int
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        return {
            "deck": self.deck, "players": self.players, "games": s.games, "deals": s.deals,
            "bots": s.config["bots"], "nights_mean": s.nights_mean,
            "roles": {r: {"played": v["played"], "goal_rate": v["goal_rate"],
                          "goal_ci": v["goal_ci"],
                          "win_share_last_night": s.role_wins[r].rate
                          if r in s.role_wins else None,
                          "win_ci": s.role_wins[r].ci if r in s.role_wins else None}
                      for r, v in s.roles.items()},
            "conditions": s.conditions,
            "one_role_alone": sum(s.solo.values()),
            "one_role_alone_by_role": s.solo,
            "same_row": s.same_row(),
            "seat_share": s.seat_share, "seat_ci": s.seat_ci,
        }


def balance_configs(players: Sequence[int], decks: Sequence[str] | None
                    ) -> list[tuple[str, int]]:
    """(deck, players) pairs: ``decks`` (all presets when None) at every size they fit."""
    out = []
    for n in players:
        for d in presets_for(n):
            if decks is None or d in decks:
                out.append((d, n))
    return out


def run_balance(pairs: Sequence[tuple[str, int]], bots: Callable[[int], tuple[str, ...]],
                games: int, seed: int | str, *, workers: int = 1,
                progress: Callable[[int], None] | None = None) -> list[BalanceRow]:
    """Simulate every (deck, players) pair; ``bots(n)`` gives the table of ``n``."""
    rows = []
    for deck, n in pairs:
        cfg = SimConfig(players=n, bots=bots(n), games=games, seed=seed, deck=deck)
        rows.append(BalanceRow(deck, n, summarize(cfg, run(cfg, workers=workers,
                                                           progress=progress))))
    return rows


def write_balance(rows: Sequence[BalanceRow], out: Path) -> list[Path]:
    """``balance.json``, ``balance.html`` and (matplotlib) ``balance.png`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    doc = {"interval": "95%, per deal", "rows": [r.to_json() for r in rows]}
    path = out / "balance.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    files.append(path)
    png = _png(rows, out / "balance.png")
    if png is not None:
        files.append(png)
    files.append(_html(rows, out / "balance.html", png))
    return files


def _ci(ci: Sequence[float] | None) -> str:
    return "" if ci is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _html(rows: Sequence[BalanceRow], path: Path, png: Path | None) -> Path:
    parts = ["<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<title>darkcity balance</title><style>body{font-family:sans-serif;margin:2em}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
             "padding:3px 8px;text-align:right}</style></head><body>"
             "<h1>darkcity balance report</h1><p>Per deck and table size: each role's "
             "goal rate and win share when held on the deciding night, the victory "
             "conditions, and the games won by four XP in one row alone. Intervals: 95% "
             "over duplicate deals.</p>"]
    if png is not None:
        parts.append(f'<img alt="goal rates" src="{html.escape(png.name)}">')
    for r in rows:
        d = r.to_json()
        solo = {k: round(v, 3) for k, v in d["one_role_alone_by_role"].items()}
        parts.append(f"<h2>{html.escape(r.deck)}, {r.players} players</h2>"
                     f"<p>{d['games']} games ({d['deals']} deals) of "
                     f"{html.escape(', '.join(d['bots']))}; nights per game "
                     f"{d['nights_mean']:.2f}; won by one role alone "
                     f"{d['one_role_alone']:.3f} of the games "
                     f"{html.escape(json.dumps(solo))}</p>")
        if r.summary.same_row():
            parts.append(f'<p class="same-row"><strong>'
                         f'{html.escape(r.summary.same_row_note())}</strong></p>')
        parts.append("<table><tr><th>role</th><th>nights</th><th>goal rate</th><th>95% CI</th>"
                     "<th>win share, last night</th><th>95% CI</th></tr>")
        for role, v in d["roles"].items():
            win = v["win_share_last_night"]
            parts.append(f"<tr><td>{html.escape(role)}</td><td>{v['played']}</td>"
                         f"<td>{v['goal_rate']:.3f}</td><td>{_ci(v['goal_ci'])}</td>"
                         f"<td>{'' if win is None else f'{win:.3f}'}</td>"
                         f"<td>{_ci(v['win_ci'])}</td></tr>")
        parts.append("</table><table><tr><th>condition</th><th>share of games</th></tr>")
        for c, x in d["conditions"].items():
            parts.append(f"<tr><td>{html.escape(c)}</td><td>{x:.3f}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    path.write_text("".join(parts), encoding="utf-8")
    return path


def _png(rows: Sequence[BalanceRow], path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    if not rows:
        return None
    roles = sorted({role for r in rows for role in r.summary.roles})
    fig, ax = plt.subplots(figsize=(max(8, len(roles) * 0.9), 0.45 * len(rows) + 2))
    grid = [[r.summary.roles[role]["goal_rate"] if role in r.summary.roles else float("nan")
             for role in roles] for r in rows]
    im = ax.imshow(grid, aspect="auto", cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(roles)), roles, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), [f"{r.deck} ({r.players})" for r in rows])
    for i, row in enumerate(grid):
        for j, x in enumerate(row):
            if x == x:  # not NaN
                ax.text(j, i, f"{x:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if x < 0.5 else "black")
    fig.colorbar(im, ax=ax, label="goal met per night played")
    ax.set_title("Goal rate per role, by deck and table size")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
