"""Write a simulation's report: ``summary.json``, ``report.html`` and, when
matplotlib is installed (``pip install darkcity[report]``), ``report.png``.

The HTML page stands alone: its charts are inline SVG (or the PNG, inlined,
when there is one), so it works from a plain ``pip install``.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from darkcity.sim.stats import Summary

__all__ = ["write_html", "write_json", "write_png", "write_report"]


def write_json(summary: Summary, path: Path) -> Path:
    path.write_text(json.dumps(summary.to_json(), indent=1) + "\n", encoding="utf-8")
    return path


def write_png(summary: Summary, path: Path) -> Path | None:
    """Six panels: win share vs fair share, goal rate per role, victory conditions,
    game length, win share by seat, goal rate per bot (intervals: 95% over deals).
    None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, axes = plt.subplots(2, 3, figsize=(17, 8))
    ax = axes[0][0]
    names = [b.bot for b in summary.bots]
    shares = [b.share for b in summary.bots]
    err = [[max(0.0, b.share - b.ci[0]) for b in summary.bots],
           [max(0.0, b.ci[1] - b.share) for b in summary.bots]]
    ax.bar(names, shares, yerr=err, capsize=6, color="#4c72b0")
    fair = summary.bots[0].fair if summary.bots else 0.0
    ax.axhline(fair, color="#c44e52", linestyle="--", label="fair share")
    ax.axhline(1.5 * fair, color="#dd8452", linestyle=":", label="1.5x fair share")
    ax.set_title("Win share per bot (95% CI over deals)")
    ax.legend()
    ax = axes[0][1]
    roles = list(summary.roles)
    rates = [summary.roles[r]["goal_rate"] for r in roles]
    cis = [summary.roles[r]["goal_ci"] for r in roles]
    ax.barh(roles, rates, color="#55a868", capsize=3,
            xerr=[[max(0.0, x - c[0]) for x, c in zip(rates, cis, strict=True)],
                  [max(0.0, c[1] - x) for x, c in zip(rates, cis, strict=True)]])
    ax.set_title("Goal met per night played, by role (95% CI over deals)")
    ax.set_xlim(0, 1)
    ax = axes[1][0]
    conds = list(summary.conditions)
    ax.bar(conds, [summary.conditions[c] for c in conds], color="#8172b3")
    ax.set_title("Games ended by each victory condition")
    ax.set_ylim(0, 1)
    ax = axes[1][1]
    ks = sorted(summary.nights_hist)
    ax.bar(ks, [summary.nights_hist[k] for k in ks], color="#937860")
    ax.set_title(f"Game length (nights; mean {summary.nights_mean:.1f})")
    ax = axes[0][2]
    seats = [str(i) for i in range(len(summary.seat_share))]
    ax.bar(seats, summary.seat_share, color="#64b5cd",
           yerr=[[max(0.0, x - lo) for x, (lo, _) in
                  zip(summary.seat_share, summary.seat_ci, strict=True)],
                 [max(0.0, hi - x) for x, (_, hi) in
                  zip(summary.seat_share, summary.seat_ci, strict=True)]], capsize=4)
    ax.axhline(fair, color="#c44e52", linestyle="--")
    ax.set_title("Win share by seat (0: the Mayor's; 95% CI over deals)")
    ax = axes[1][2]
    ax.bar(names, [b.goal_rate for b in summary.bots], color="#55a868",
           yerr=[[max(0.0, b.goal_rate - b.goal_ci[0]) for b in summary.bots],
                 [max(0.0, b.goal_ci[1] - b.goal_rate) for b in summary.bots]], capsize=6)
    ax.set_ylim(0, 1)
    ax.set_title("Goal met per night played, by bot (95% CI over deals)")
    fig.suptitle(f"darkcity simulate: {summary.games} games, "
                 f"{', '.join(summary.config['bots'])}, deck {summary.config['deck']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _svg_bars(labels: Sequence[str], values: Sequence[float], *, vmax: float,
              marks: Sequence[float] = (), intervals: Sequence[tuple[float, float]] = ()
              ) -> str:
    w, row = 520, 22
    h = row * len(labels) + 10
    left = 120
    scale = (w - left - 20) / (vmax or 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             'font-family="sans-serif" font-size="12">']
    for i, (lab, v) in enumerate(zip(labels, values, strict=True)):
        y = 5 + i * row
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">'
                     f'{html.escape(lab)}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{max(0.0, v * scale):.1f}" '
                     f'height="{row - 8}" fill="#4c72b0"/>')
        if intervals:
            lo, hi = intervals[i]
            parts.append(f'<line x1="{left + lo * scale:.1f}" x2="{left + hi * scale:.1f}" '
                         f'y1="{y + row / 2:.1f}" y2="{y + row / 2:.1f}" stroke="black" '
                         'stroke-width="2"/>')
        parts.append(f'<text x="{left + v * scale + 4:.1f}" y="{y + 14}">{v:.3f}</text>')
    for m in marks:
        parts.append(f'<line x1="{left + m * scale:.1f}" x2="{left + m * scale:.1f}" y1="0" '
                     f'y2="{h}" stroke="#c44e52" stroke-dasharray="4"/>')
    parts.append("</svg>")
    return "".join(parts)


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _ci(ci: Sequence[float], digits: int) -> str:
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def write_html(summary: Summary, path: Path, png: Path | None = None) -> Path:
    s = summary
    fair = s.bots[0].fair if s.bots else 0.0
    bots = _table(
        ["bot", "seats", "seat-games", "win share", "95% CI", "x fair share", "95% CI (x fair)",
         "XP/game", "goal rate", "95% CI"],
        [[b.bot, b.seats, b.games, f"{b.share:.4f}", _ci(b.ci, 4), f"{b.ratio:.2f}",
          _ci(b.ratio_ci, 2), f"{b.xp_per_game:.2f}", f"{b.goal_rate:.3f}", _ci(b.goal_ci, 3)]
         for b in s.bots])
    bot_roles = _table(
        ["bot", *s.roles],
        [[b.bot, *(f"{b.roles[r].rate:.3f} {_ci(b.roles[r].ci, 3)} n={b.roles[r].n}"
                   if r in b.roles else "" for r in s.roles)] for b in s.bots])
    roles = _table(["role", "nights played", "goal rate", "95% CI", "XP per night",
                    "win share on the last night", "95% CI"],
                   [[r, v["played"], f"{v['goal_rate']:.3f}", _ci(v["goal_ci"], 3),
                     f"{v['xp_per_night']:.3f}",
                     f"{s.role_wins[r].rate:.3f}" if r in s.role_wins else "",
                     _ci(s.role_wins[r].ci, 3) if r in s.role_wins else ""]
                    for r, v in s.roles.items()])
    conds = _table(["condition", "share of games"],
                   [[c, f"{x:.3f}"] for c, x in s.conditions.items()])
    seats = _table(["seat", "win share", "95% CI"],
                   [[i, f"{x:.4f}", _ci(s.seat_ci[i], 4)] for i, x in enumerate(s.seat_share)])
    if png is not None:
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        charts = f'<img alt="charts" src="data:image/png;base64,{data}">'
    else:
        charts = (
            "<h3>Win share (95% CI over deals; dashed: fair share)</h3>"
            + _svg_bars([b.bot for b in s.bots], [b.share for b in s.bots],
                        vmax=max([b.ci[1] for b in s.bots] + [fair * 1.6]), marks=[fair],
                        intervals=[b.ci for b in s.bots])
            + "<h3>Goal rate per role</h3>"
            + _svg_bars(list(s.roles), [v["goal_rate"] for v in s.roles.values()], vmax=1.0)
            + "<h3>Victory conditions</h3>"
            + _svg_bars(list(s.conditions), list(s.conditions.values()), vmax=1.0))
    cfg = html.escape(json.dumps(s.config))
    note = (f'<p class="same-row"><strong>{html.escape(s.same_row_note())}</strong></p>'
            if s.same_row() else "")
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>darkcity simulation</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}</style></head><body>
<h1>darkcity simulation</h1>
<p>{cfg}</p>
<p>{s.games} games in {s.deals} duplicate deals (every deal played once per seat rotation).
Fair share {fair:.4f}. Nights per game: mean {s.nights_mean:.2f}, median {s.nights_median:g},
90th percentile {s.nights_p90:g}. Full withdrawals per night: {s.withdrawals_per_night:.3f}.</p>
<p>Intervals are 95% over deals (the independent unit: a deal's rotations share its
shuffles, and the seats of one bot share a table's win).</p>
{note}<h2>Bots</h2>{bots}
<h2>Goal rate per bot and role (95% CI over deals)</h2>{bot_roles}
<h2>Charts</h2>{charts}
<h2>Roles</h2>{roles}
<h2>Victory conditions (share of games a winner met each)</h2>{conds}
<h2>Seats (seat 0 is the Mayor's)</h2>{seats}
</body></html>
"""
    path.write_text(page, encoding="utf-8")
    return path


def write_report(summary: Summary, out: Path) -> list[Path]:
    """Write the report into the folder ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files = [write_json(summary, out / "summary.json")]
    png = write_png(summary, out / "report.png")
    if png is not None:
        files.append(png)
    files.append(write_html(summary, out / "report.html", png))
    return files
