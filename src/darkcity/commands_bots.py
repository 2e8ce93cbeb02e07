"""The ``bots`` and ``simulate`` commands (registered on :data:`darkcity.cli.app`).

Thin: they forward to :mod:`darkcity.bots` and :mod:`darkcity.sim`. A bad
option is one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from darkcity.cli import LangOption, app, fail, reader
from darkcity.deck import DeckError, presets_for
from darkcity.i18n import _, error_message, msg

__all__ = ["bots_command", "simulate"]


@app.command("bots", help=_("List the bots that can play (darkcity simulate --bots)."))
def bots_command(lang: LangOption = None) -> None:
    from rich.console import Console  # here, not at the top: other commands start faster
    from rich.table import Table

    from darkcity.bots import BOTS, bot_names

    t = reader(lang)
    table = Table(t(_("Bot")), t(_("Plays")))
    for name in bot_names():
        table.add_row(name, t(BOTS[name].description))
    Console().print(table)


@app.command("simulate", help=_("Play many games between bots and report win rates with 95% "
                                "intervals, XP per role, victory conditions and game length."))
def simulate(
    players: Annotated[int, typer.Option(help=_("Number of players, 4 to 8."))] = 6,
    bots: Annotated[str, typer.Option(
        help=_("Bots by seat, separated by commas; name*k repeats; a short list is "
               "completed with its last bot."))] = "random",
    games: Annotated[int, typer.Option(
        help=_("Number of games (rounded up to whole duplicate deals)."))] = 600,
    seed: Annotated[str, typer.Option(help=_("The seed (an integer or any text)."))] = "1",
    deck: Annotated[str, typer.Option(
        help=_("A preset (basic, advanced ...) or cards role:edition:gender separated "
               "by commas."))] = "basic",
    workers: Annotated[int, typer.Option(
        help=_("Worker processes (default: one per core)."))] = 0,
    out: Annotated[str, typer.Option(
        help=_("Folder for summary.json, report.html and report.png."))] = "darkcity-sim",
    progress: Annotated[bool, typer.Option(help=_("Show a progress bar."))] = True,
    lang: LangOption = None,
) -> None:
    # here, not at the top: the other darkcity commands start faster without them
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from darkcity.sim import SimConfig, default_workers, parse_bots, run, summarize, write_report

    t = reader(lang)
    if not 4 <= players <= 8:
        raise fail(t, msg("--players: 4 to 8, not {n}", n=players))
    if games < 1:
        raise fail(t, msg("--games: at least 1, not {n}", n=games))
    try:
        names = parse_bots(bots, players)
    except ValueError as e:
        raise fail(t, msg("--bots: {error}", error=str(e))) from None
    try:
        s: int | str = int(seed)
    except ValueError:
        s = seed
    try:
        cfg = SimConfig(players=players, bots=names, games=games, seed=s, deck=deck)
    except DeckError as e:
        raise fail(t, msg("--deck: {error} (presets for {n}: {presets})",
                          error=error_message(e),
                          n=players, presets=", ".join(presets_for(players)))) from None
    n_workers = workers if workers > 0 else default_workers()
    started = time.perf_counter()
    if progress and sys.stderr.isatty():
        columns = (TextColumn(t(_("games"))), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("", total=cfg.total_games)
            outcomes = run(cfg, workers=n_workers, progress=lambda k: bar.advance(task, k))
    else:
        outcomes = run(cfg, workers=n_workers)
    elapsed = time.perf_counter() - started
    summary = summarize(cfg, outcomes)
    try:
        files = write_report(summary, Path(out))
    except OSError as e:
        raise fail(t, msg("--out: {error}", error=e.strerror or str(e))) from None
    console = Console(width=None if sys.stdout.isatty() else 120)
    rate = f"{summary.games / elapsed:.0f}"
    table = Table(t(_("Bot")), t(_("Seats")), t(_("Win share")), t(_("95% CI")),
                  t(_("x fair share")), t(_("95% CI (x fair)")), t(_("XP/game")),
                  t(_("Goal rate")),
                  title=t.render(msg("{games} games, {deals} deals, {rate} games/s",
                                     games=summary.games, deals=summary.deals, rate=rate)))
    table.columns[0].no_wrap = True
    for b in summary.bots:
        table.add_row(b.bot, str(b.seats), f"{b.share:.4f}", f"{b.ci[0]:.4f}-{b.ci[1]:.4f}",
                      f"{b.ratio:.2f}", f"{b.ratio_ci[0]:.2f}-{b.ratio_ci[1]:.2f}",
                      f"{b.xp_per_game:.2f}", f"{b.goal_rate:.3f}")
    console.print(table)
    mean, median, p90 = (f"{summary.nights_mean:.2f}", f"{summary.nights_median:g}",
                         f"{summary.nights_p90:g}")
    lines = [
        t.render(msg("Nights per game: mean {mean}, median {median}, 90th percentile {p90}",
                     mean=mean, median=median, p90=p90)),
        t.render(msg("Victory conditions: {list}", list=json.dumps(
            {k: round(v, 3) for k, v in summary.conditions.items()}))),
        t.render(msg("Report: {files}", files=", ".join(str(f) for f in files))),
    ]
    console.print("\n".join(lines), highlight=False)
