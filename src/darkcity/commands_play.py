"""The ``play`` command: a whole game in the terminal, against bots or hot-seat.

Thin: it reads the options, sets the table and hands over to
:class:`darkcity.tui.loop.Session`. A bad option is one line on stderr and
exit 2, like every command.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer

from darkcity.cli import LangOption, app, fail, reader
from darkcity.i18n import _, msg

__all__ = ["play"]

#: The bots' names, in seating order after the humans.
BOT_NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana", "Iara", "Juca",
             "Lia", "Malu", "Nina", "Otto", "Pedro")
DEFAULT_RECORD = "darkcity-game.json"


def _seed(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(10**6)
    try:
        return int(text)
    except ValueError:
        return text


@app.command(help=_("Play a game in the terminal: you against bots, or several players "
                    "hot-seat at one keyboard."))
def play(
    players: Annotated[int | None, typer.Option(help=_("Number of players, 4 to 8 "
                                                       "(default 6)."))] = None,
    bots: Annotated[str | None, typer.Option(help=_("The bots' level: random, heuristic or "
                                                    "strong (default heuristic)."))] = None,
    deck: Annotated[str, typer.Option(help=_("A preset (basic, advanced, angel-alien-6 ...) "
                                             "or cards role:edition:gender separated by "
                                             "commas."))] = "basic",
    seed: Annotated[str | None, typer.Option(help=_("The seed (an integer or any text); "
                                                    "random by default."))] = None,
    name: Annotated[str | None, typer.Option(help=_("Your name at the table."))] = None,
    humans: Annotated[str | None, typer.Option(help=_("Hot-seat: the names of the players "
                                                      "at the keyboard, separated by "
                                                      "commas."))] = None,
    resume_from: Annotated[str | None, typer.Option("--resume", help=_(
        "Go on with a saved game record."))] = None,
    record: Annotated[str | None, typer.Option(help=_(
        "Where the game record is saved (default: darkcity-game.json, or the resumed "
        "file)."))] = None,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal: you against bots, or several players hot-seat."""
    # Imported here: ``darkcity adjudicate`` should not pay for the terminal's start-up.
    from rich.console import Console

    from darkcity.deck import DeckError, parse_deck, presets_for
    from darkcity.game import Game, Settings
    from darkcity.tui.loop import BOT_LEVELS, ResumeError, Session, Terminal, resume

    t = reader(lang)
    if bots is not None and bots not in BOT_LEVELS:
        raise fail(t, msg("--bots: {level!r} is not a level ({levels})", level=bots,
                          levels=", ".join(BOT_LEVELS)))
    if resume_from is not None:
        try:
            r = resume(Path(resume_from))
        except ResumeError as e:
            raise fail(t, e.message) from None
        game = r.game
        if lang is None and r.lang:
            t = reader(r.lang)
        at_keyboard = r.humans or ((name,) if name in game.players else game.players[:1])
        level = bots or r.bots or "heuristic"
        path = Path(record or resume_from)
    else:
        if humans is not None:
            at_keyboard = tuple(h.strip() for h in humans.split(",") if h.strip())
        else:
            at_keyboard = ((name or t(_("Player"))).strip(),)
        if not at_keyboard or any(not h for h in at_keyboard):
            raise fail(t, msg("--humans: give the names of the players at the keyboard"))
        if len(set(at_keyboard)) != len(at_keyboard):
            raise fail(t, msg("--humans: two players have the same name"))
        n = players if players is not None else max(6, len(at_keyboard))
        if not 4 <= n <= 8:
            raise fail(t, msg("--players: 4 to 8, not {n}", n=n))
        if len(at_keyboard) > n:
            raise fail(t, msg("--humans: {k} players at the keyboard, but --players is {n}",
                              k=len(at_keyboard), n=n))
        others = [b for b in BOT_NAMES if b not in at_keyboard][: n - len(at_keyboard)]
        seats = (*at_keyboard, *others)
        s = _seed(seed)
        try:
            game = Game(Settings(players=seats, deck=parse_deck(deck, n)), s)
        except DeckError as e:
            hint = ", ".join(presets_for(n))
            raise fail(t, msg("{field}: {reason} (presets for {n}: {hint})", field=e.field,
                              reason=e.message, n=n, hint=hint)) from None
        level = bots or "heuristic"
        path = Path(record or DEFAULT_RECORD)
    console = Console(highlight=False)
    session = Session(game, at_keyboard, level, t, Terminal(console, sys.stdin), path)
    try:
        session.save()  # at once: a game that cannot be saved is refused before it starts
    except OSError as e:
        raise fail(t, msg("--record: {path}: {error}", path=str(path),
                          error=e.strerror or str(e))) from None
    raise typer.Exit(session.run())
