"""The ``bots``, ``simulate`` and ``tournament`` commands.

Thin: they forward to :mod:`darkcity.bots` and :mod:`darkcity.sim`. A bad
option is one line on stderr and exit 2.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from darkcity.cli.base import LangOption, fail, reader
from darkcity.deck import DeckError, presets_for
from darkcity.i18n import Translator, _, error_message, msg

if TYPE_CHECKING:
    from darkcity.sim import Summary

__all__ = ["bots_command", "commands", "simulate"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()


@commands.command("bots", help=_("List the bots that can play (darkcity simulate --bots)."))
def bots_command(lang: LangOption = None) -> None:
    from rich.console import Console  # here, not at the top: other commands start faster
    from rich.table import Table

    from darkcity.bots import BOTS, bot_names

    t = reader(lang)
    table = Table(t(_("Bot")), t(_("Plays")))
    for name in bot_names(variants=True):
        table.add_row(name, t(BOTS[name].description))
    Console().print(table)


@commands.command("simulate", help=_("Play many games between bots and report win rates with 95% "
                                     "intervals, XP per role, victory conditions and game length."))
def simulate(
    players: Annotated[int | None, typer.Option(
        help=_("Number of players, 4 to 8 (default 6; with --balance, every size)."),
        show_default=False)] = None,
    bots: Annotated[str, typer.Option(
        help=_("Bots by seat, separated by commas; name*k repeats; a short list is "
               "completed with its last bot."))] = "random",
    games: Annotated[int, typer.Option(
        help=_("Number of games (rounded up to whole duplicate deals)."))] = 600,
    seed: Annotated[str, typer.Option(help=_("The seed (an integer or any text)."))] = "1",
    deck: Annotated[str | None, typer.Option(
        help=_("A preset (basic, advanced ...) or cards role:edition:gender separated "
               "by commas (default basic; with --balance, every preset)."),
        show_default=False)] = None,
    workers: Annotated[int, typer.Option(
        help=_("Worker processes (default: one per core)."))] = 0,
    out: Annotated[str, typer.Option(
        help=_("Folder for summary.json, report.html and report.png."))] = "darkcity-sim",
    progress: Annotated[bool, typer.Option(help=_("Show a progress bar."))] = True,
    balance: Annotated[bool, typer.Option(
        "--balance", help=_("A balance report for designers: every preset deck (or "
                            "--deck) at every table size (or --players), each role's goal "
                            "and win rates, the victory conditions and the games won by "
                            "one role alone."))] = False,
    lang: LangOption = None,
) -> None:
    from darkcity.sim import SimConfig, default_workers, parse_bots, run, summarize, write_report

    t = reader(lang)
    if players is not None and not 4 <= players <= 8:
        raise fail(t, msg("--players: 4 to 8, not {n}", n=players))
    if games < 1:
        raise fail(t, msg("--games: at least 1, not {n}", n=games))
    try:
        s: int | str = int(seed)
    except ValueError:
        s = seed
    n_workers = workers if workers > 0 else default_workers()
    if balance:
        _balance(t, players, bots, games, s, deck, n_workers, Path(out), progress)
        return
    n = players if players is not None else 6
    try:
        names = parse_bots(bots, n)
    except ValueError as e:
        raise fail(t, msg("--bots: {error}", error=str(e))) from None
    try:
        cfg = SimConfig(players=n, bots=names, games=games, seed=s, deck=deck or "basic")
    except DeckError as e:
        raise fail(t, msg("--deck: {error} (presets for {n}: {presets})",
                          error=error_message(e),
                          n=n, presets=", ".join(presets_for(n)))) from None
    started = time.perf_counter()
    with _progress(t, cfg.total_games, progress) as tick:
        outcomes = run(cfg, workers=n_workers, progress=tick)
    elapsed = time.perf_counter() - started
    summary = summarize(cfg, outcomes)
    try:
        files = write_report(summary, Path(out))
    except OSError as e:
        raise fail(t, msg("--out: {error}", error=e.strerror or str(e))) from None
    _print_summary(t, summary, elapsed, files)


@contextlib.contextmanager
def _progress(t: Translator, total: int, wanted: bool
              ) -> Iterator[Callable[[int], None] | None]:
    """A live bar on a terminal, plain lines on stderr otherwise (a pipe, a log)."""
    if not wanted:
        yield None
        return
    if sys.stderr.isatty():
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn(t(_("games"))), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("", total=total)
            yield lambda k: bar.advance(task, k)
        return
    from darkcity.sim.progress import PlainProgress

    def line(done: int, of: int, rate: float, left: float) -> str:
        return t.render(msg("games {done}/{total} ({percent}%), {rate} games/s, {left} s left",
                            done=done, total=of, percent=f"{100 * done / of:.0f}",
                            rate=f"{rate:.1f}", left=f"{left:.0f}"))

    yield PlainProgress(total, sys.stderr, line=line)


def _ci(ci: tuple[float, float], digits: int) -> str:
    return f"{ci[0]:.{digits}f}-{ci[1]:.{digits}f}"


def _print_summary(t: Translator, summary: Summary, elapsed: float, files: list[Path]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 120)
    rate = f"{summary.games / elapsed:.0f}"
    table = Table(t(_("Bot")), t(_("Seats")), t(_("Win share")), t(_("95% CI")),
                  t(_("x fair share")), t(_("95% CI (x fair)")), t(_("XP/game")),
                  t(_("Goal rate")), t(_("95% CI")),
                  title=t.render(msg("{games} games, {deals} deals, {rate} games/s",
                                     games=summary.games, deals=summary.deals, rate=rate)),
                  caption=t(_("Intervals: 95%, over deals (a deal's rotations share its "
                              "shuffles; the seats of one bot share a table's win).")))
    table.columns[0].no_wrap = True
    for b in summary.bots:
        table.add_row(b.bot, str(b.seats), f"{b.share:.4f}", _ci(b.ci, 4),
                      f"{b.ratio:.2f}", _ci(b.ratio_ci, 2), f"{b.xp_per_game:.2f}",
                      f"{b.goal_rate:.3f}", _ci(b.goal_ci, 3))
    console.print(table)
    roles = Table(t(_("Bot")), *summary.roles, title=t(_("Goal rate per bot and role")))
    for b in summary.bots:
        roles.add_row(b.bot, *(f"{b.roles[r].rate:.2f} ({_ci(b.roles[r].ci, 2)})"
                               if r in b.roles else "" for r in summary.roles))
    console.print(roles)
    mean, median, p90 = (f"{summary.nights_mean:.2f}", f"{summary.nights_median:g}",
                         f"{summary.nights_p90:g}")
    seats = ", ".join(f"{i}: {x:.3f} ({_ci(summary.seat_ci[i], 3)})"
                      for i, x in enumerate(summary.seat_share))
    lines = [
        t.render(msg("Nights per game: mean {mean}, median {median}, 90th percentile {p90}",
                     mean=mean, median=median, p90=p90)),
        t.render(msg("Win share by seat (0 is the Mayor's): {list}", list=seats)),
        t.render(msg("Victory conditions: {list}", list=json.dumps(
            {k: round(v, 3) for k, v in summary.conditions.items()}))),
        t.render(msg("Report: {files}", files=", ".join(str(f) for f in files))),
    ]
    console.print("\n".join(lines), highlight=False)


def _balance(t: Translator, players: int | None, bots: str, games: int, seed: int | str,
             deck: str | None, workers: int, out: Path, progress: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    from darkcity.sim import parse_bots
    from darkcity.sim.balance import balance_configs, run_balance, write_balance

    sizes = [players] if players is not None else list(range(4, 9))
    decks = None if deck is None else [deck]
    pairs = balance_configs(sizes, decks)
    if not pairs:
        reason = t.render(msg("no preset {name!r} for these table sizes", name=deck))
        raise fail(t, msg("--deck: {error} (presets for {n}: {presets})", error=reason,
                          n=", ".join(map(str, sizes)),
                          presets=", ".join(sorted({d for n in sizes
                                                    for d in presets_for(n)}))))
    try:
        tables = {n: parse_bots(bots, n) for n in sizes}
    except ValueError as e:
        raise fail(t, msg("--bots: {error}", error=str(e))) from None
    total = sum(-(-games // n) * n for _, n in pairs)
    with _progress(t, total, progress) as tick:
        rows = run_balance(pairs, tables.__getitem__, games, seed, workers=workers,
                           progress=tick)
    try:
        files = write_balance(rows, out)
    except OSError as e:
        raise fail(t, msg("--out: {error}", error=e.strerror or str(e))) from None
    console = Console(width=None if sys.stdout.isatty() else 160)
    roles = sorted({r for row in rows for r in row.summary.roles})
    table = Table(t(_("Deck")), t(_("Players")), *roles, t(_("One role alone")),
                  title=t(_("Goal rate per role (95% CI over deals)")))
    for row in rows:
        sr = row.summary.roles
        table.add_row(row.deck, str(row.players),
                      *(f"{sr[r]['goal_rate']:.2f}" if r in sr else "" for r in roles),
                      f"{sum(row.summary.solo.values()):.3f}")
    console.print(table)
    console.print(t.render(msg("Report: {files}", files=", ".join(str(f) for f in files))),
                  highlight=False)


@commands.command("tournament", help=_("A round-robin between bots on duplicate deals: each bot as "
                                       "the single seat against every other, a rating table with "
                                       "intervals, written as JSON, HTML and a plot."))
def tournament(
    bots: Annotated[str, typer.Option(
        help=_("The population, separated by commas (default: every bot and variant)."),
        show_default=False)] = "",
    players: Annotated[int, typer.Option(help=_("Number of players, 4 to 8."))] = 6,
    games: Annotated[int, typer.Option(
        help=_("Games per match (rounded up to whole duplicate deals)."))] = 60,
    seed: Annotated[str, typer.Option(help=_("The seed (an integer or any text)."))] = "1",
    deck: Annotated[str, typer.Option(help=_("A preset or a list of cards."))] = "basic",
    workers: Annotated[int, typer.Option(
        help=_("Worker processes (default: one per core)."))] = 0,
    out: Annotated[str, typer.Option(
        help=_("Folder for tournament.json, tournament.html and tournament.png."))
    ] = "darkcity-tournament",
    progress: Annotated[bool, typer.Option(help=_("Show a progress bar."))] = True,
    lang: LangOption = None,
) -> None:
    from rich.console import Console
    from rich.table import Table

    from darkcity.bots import bot_names
    from darkcity.deck import parse_deck
    from darkcity.sim import default_workers

    t = reader(lang)
    if not 4 <= players <= 8:
        raise fail(t, msg("--players: 4 to 8, not {n}", n=players))
    if games < 1:
        raise fail(t, msg("--games: at least 1, not {n}", n=games))
    known = bot_names(variants=True)
    population = [b.strip() for b in bots.split(",") if b.strip()] or list(known)
    for b in population:
        if b not in known:
            raise fail(t, msg("--bots: {error}", error=f"unknown bot {b!r} "
                              f"(known: {', '.join(known)})"))
    if len(set(population)) < 2:
        reason = t.render(msg("a tournament needs two bots at least"))
        raise fail(t, msg("--bots: {error}", error=reason))
    try:
        parse_deck(deck, players)
    except DeckError as e:
        raise fail(t, msg("--deck: {error} (presets for {n}: {presets})",
                          error=error_message(e), n=players,
                          presets=", ".join(presets_for(players)))) from None
    try:
        import openskill  # noqa: F401

        from darkcity.sim.tournament import play_tournament, write_tournament
    except ImportError:
        raise fail(t, msg("the tournament needs openskill: pip install \"darkcity[rl]\""
                          )) from None
    try:
        s: int | str = int(seed)
    except ValueError:
        s = seed
    pop = list(dict.fromkeys(population))
    per_match = -(-games // players) * players
    started = time.perf_counter()
    with _progress(t, per_match * len(pop) * (len(pop) - 1), progress) as tick:
        result = play_tournament(pop, players=players, games=games, seed=s, deck=deck,
                                 workers=workers if workers > 0 else default_workers(),
                                 progress=tick)
    elapsed = time.perf_counter() - started
    try:
        files = write_tournament(result, Path(out))
    except OSError as e:
        raise fail(t, msg("--out: {error}", error=e.strerror or str(e))) from None
    console = Console(width=None if sys.stdout.isatty() else 160)
    ratings = Table("#", t(_("Bot")), "mu", t(_("95% CI")),
                    title=t.render(msg("Ratings: {games} games per match, {seconds} s",
                                       games=per_match, seconds=f"{elapsed:.0f}")))
    for i, r in enumerate(result.ratings, 1):
        ratings.add_row(str(i), r.bot, f"{r.mu:.2f}", _ci(r.ci, 2))
    console.print(ratings)
    matrix = Table(t(_("Single seat")), *pop,
                   title=t(_("Win share x fair share of the single seat against the field "
                             "(95% CI over deals)")))
    for a in pop:
        matrix.add_row(a, *("-" if a == b else
                            f"{result.match(a, b).ratio:.2f} "
                            f"({_ci(result.match(a, b).ratio_ci, 2)})" for b in pop))
    console.print(matrix)
    c = result.checks
    if c:
        for key, bar in (("single_pass", t(_("strong as the single seat >= 1.5x fair share "
                                               "against every member"))),
                         ("against_pass", t(_("no member above 1.0x fair share against "
                                              "the strong bot's seats")))):
            console.print(f"  {'PASS' if c[key] else 'FAIL'}  {bar}", highlight=False)
    console.print(t.render(msg("Report: {files}", files=", ".join(str(f) for f in files))),
                  highlight=False)
