"""The ``play`` command: a whole game in the terminal, against bots or hot-seat.

Thin: it reads the options, sets the table and hands over to
:class:`darkcity.tui.loop.Session`. A bad option, including the ones the
command-line parser itself refuses (a bare ``--seed``, an unknown option), is
one line on stderr naming the option and the value, and exit 2, like every
command.

A new game is saved to a file of its own (``darkcity-game-<date>-<time>.json``),
so it never overwrites another; ``--record`` to an existing file asks first.
``--resume`` without a file goes on with the latest unfinished game of the
folder (:mod:`darkcity.tui.records`).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from darkcity.cli.base import LangOption, LocalizedCommand, fail, reader
from darkcity.i18n import Message, Translator, _, msg

try:  # Typer vendors click (its own copy of the exceptions) in recent versions
    from typer._click import exceptions as _click_errors
except ImportError:  # pragma: no cover - a Typer on the real click
    import click.exceptions as _click_errors  # type: ignore[no-redef]

__all__ = ["commands", "play"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()

#: The bots' names, in seating order after the humans.
BOT_NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana", "Iara", "Juca",
             "Lia", "Malu", "Nina", "Otto", "Pedro")
MAX_PLAYERS = 8
MIN_PLAYERS = 4


def _seed(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(10**6)
    try:
        return int(text)
    except ValueError:
        return text


def _lang_of(args: Sequence[str]) -> str | None:
    """The ``--lang`` among raw arguments (for a parser error, before any is read)."""
    for i, a in enumerate(args):
        if a.startswith("--lang="):
            return a.split("=", 1)[1]
        if a == "--lang" and i + 1 < len(args):
            return args[i + 1]
    return None


def _usage_message(e: Any) -> Message:
    """A parser's refusal as one line naming the option (and the value)."""
    if isinstance(e, _click_errors.NoSuchOption):
        close = ", ".join(e.possibilities or ())
        if close:
            return msg("{option}: no such option (did you mean {close}?)",
                       option=e.option_name, close=close)
        return msg("{option}: no such option", option=e.option_name)
    if isinstance(e, _click_errors.BadOptionUsage):
        return msg("{option}: needs a value", option=e.option_name)
    if isinstance(e, _click_errors.BadParameter) and e.param is not None:
        names = getattr(e.param, "opts", None) or [e.param.name]
        return msg("{option}: {error}", option=names[0], error=e.message)
    return msg("{error}", error=e.format_message())


class _PlayCommand(LocalizedCommand):
    """``play``'s command: a bare ``--resume`` means the latest unfinished game, and
    the parser's own errors are one line like every other refusal."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = ["--resume=" if a == "--resume" and (i + 1 == len(args) or
                                                    args[i + 1].startswith("-")) else a
                for i, a in enumerate(args)]
        try:
            return super().parse_args(ctx, args)
        except _click_errors.UsageError as e:
            t = _reader_or_default(_lang_of(args))
            raise fail(t, _usage_message(e)) from None


def _warn(t: Translator, message: Message) -> None:
    sys.stderr.write(f"darkcity: {t.render(message)}\n")  # i18n: not prose


def _may_write(path: Path, t: Translator, console: Any) -> None:
    """Refuse (exit 2) unless ``path`` is new or its overwriting was confirmed."""
    from darkcity.tui.records import RecordKept, confirm_overwrite

    try:
        confirm_overwrite(path, t, console, sys.stdin)
    except RecordKept as e:
        raise fail(t, e.message) from None


def _reader_or_default(lang: str | None) -> Translator:
    try:
        return reader(lang)
    except typer.Exit:  # a bad --lang as well: said in the locale's language
        return reader(None)


def _count(text: str | None, t: Translator) -> int | None:
    if text is None:
        return None
    try:
        n = int(text)
    except ValueError:
        raise fail(t, msg("--players: {value!r} is not a number of players ({low} to {high})",
                          value=text, low=MIN_PLAYERS, high=MAX_PLAYERS)) from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise fail(t, msg("--players: {low} to {high}, not {n}", low=MIN_PLAYERS,
                          high=MAX_PLAYERS, n=n))
    return n


def _names(humans: str | None, name: str | None, t: Translator) -> tuple[str, ...]:
    """The players at the keyboard, from ``--humans`` or ``--name``."""
    if humans is not None and name is not None:
        raise fail(t, msg("--name: not with --humans (the players at the keyboard are "
                          "named by --humans)"))
    if humans is None:
        if name is None:
            return (t(_("Player")),)
        if not name.strip():
            raise fail(t, msg("--name: {value!r} is blank: give a name", value=name))
        return (name.strip(),)
    names = tuple(h.strip() for h in humans.split(","))
    if not any(names):
        raise fail(t, msg("--humans: {value!r}: give the names of the players at the "
                          "keyboard, separated by commas", value=humans))
    if any(not h for h in names):
        raise fail(t, msg("--humans: {value!r} has an empty name", value=humans))
    if len(set(names)) != len(names):
        raise fail(t, msg("--humans: two players have the same name"))
    if len(names) > MAX_PLAYERS:
        raise fail(t, msg("--humans: {k} names, but a table seats {high} at most",
                          k=len(names), high=MAX_PLAYERS))
    return names


@commands.command(cls=_PlayCommand,
                  help=_("Play a game in the terminal: you against bots, or several players "
                         "hot-seat at one keyboard."))
def play(
    players: Annotated[str | None, typer.Option(help=_("Number of players, 4 to 8 "
                                                       "(default 6)."))] = None,
    bots: Annotated[str | None, typer.Option(help=_(
        "The bots' level: easy (plays by feel, often misses the best aim), medium (a "
        "sensible player with a plan of its own) or hard (reads the draft and the gestures, "
        "mixes its plays); default medium. The old names heuristic and strong still "
        "work, and random plays at random."))] = None,
    deck: Annotated[str | None, typer.Option(help=_(
        "A preset (basic, advanced, angel-alien-6 ...) or cards role:edition:gender "
        "separated by commas (default basic)."))] = None,
    seed: Annotated[str | None, typer.Option(help=_("The seed (an integer or any text); "
                                                    "random by default."))] = None,
    name: Annotated[str | None, typer.Option(help=_("Your name at the table."))] = None,
    humans: Annotated[str | None, typer.Option(help=_("Hot-seat: the names of the players "
                                                      "at the keyboard, separated by "
                                                      "commas."))] = None,
    resume_from: Annotated[str | None, typer.Option("--resume", help=_(
        "Go on with a saved game record; without a file, the latest unfinished game "
        "here."))] = None,
    record: Annotated[str | None, typer.Option(help=_(
        "Where the game record is saved (default: a new darkcity-game-<date>-<time>.json, "
        "or the resumed file)."))] = None,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal: you against bots, or several players hot-seat."""
    # Imported here: ``darkcity adjudicate`` should not pay for the terminal's start-up.
    from rich.console import Console

    from darkcity.bots.levels import level_key
    from darkcity.deck import DeckError, parse_deck, presets_for
    from darkcity.game import Game
    from darkcity.settings import Settings
    from darkcity.tui import records
    from darkcity.tui.loop import BOT_LEVELS, ResumeError, Session, Terminal, resume

    t = reader(lang)
    if bots is not None:
        if level_key(bots) is None:
            raise fail(t, msg("--bots: {level!r} is not a level ({levels})", level=bots,
                              levels=", ".join(BOT_LEVELS)))
        bots = level_key(bots)
    console = Console(highlight=False)
    if resume_from is not None:
        ignored = [o for o, v in (("--players", players), ("--deck", deck), ("--seed", seed),
                                  ("--humans", humans)) if v is not None]
        if resume_from == "":
            found = records.latest_unfinished(Path.cwd())
            if found is None:
                raise fail(t, msg("--resume: no unfinished game in this folder ({pattern}); "
                                  "give the record's file", pattern=records.PATTERN))
            resume_from = str(found.name if found.parent == Path.cwd() else found)
        try:
            r = resume(Path(resume_from))
        except ResumeError as e:
            raise fail(t, e.message) from None
        game = r.game
        if lang is None and r.lang:
            t = reader(r.lang)
        if name is not None and name not in game.players:
            raise fail(t, msg("--name: {name!r} is not a player of {path} ({players})",
                              name=name, path=resume_from, players=", ".join(game.players)))
        if ignored:
            _warn(t, msg("{options}: ignored with --resume (the resumed game keeps its "
                         "settings)", options=", ".join(ignored)))
        at_keyboard = r.humans or ((name,) if name is not None else game.players[:1])
        level = bots or r.bots or "medium"
        path = Path(record or resume_from)
        if record is not None and Path(record).resolve() != Path(resume_from).resolve():
            _may_write(path, t, console)
    else:
        at_keyboard = _names(humans, name, t)
        n = _count(players, t)
        if n is None:
            n = max(6, len(at_keyboard))
        if len(at_keyboard) > n:
            raise fail(t, msg("--humans: {k} players at the keyboard, but --players is {n}",
                              k=len(at_keyboard), n=n))
        others = [b for b in BOT_NAMES if b not in at_keyboard][: n - len(at_keyboard)]
        seats = (*at_keyboard, *others)
        s = _seed(seed)
        try:
            game = Game(Settings(players=seats, deck=parse_deck(deck or "basic", n)), s)
        except DeckError as e:
            hint = ", ".join(presets_for(n))
            raise fail(t, msg("--deck: {value!r}: {reason} (presets for {n}: {hint})",
                              value=deck or "basic", reason=e.message, n=n,
                              hint=hint)) from None
        level = bots or "medium"
        if record is None:
            path = records.new_record_path(Path())
        else:
            path = Path(record)
            _may_write(path, t, console)
    session = Session(game, at_keyboard, level, t, Terminal(console, sys.stdin), path,
                      resumed=resume_from is not None)
    try:
        session.save()  # at once: a game that cannot be saved is refused before it starts
    except OSError as e:
        raise fail(t, msg("--record: {path}: {error}", path=str(path),
                          error=e.strerror or str(e))) from None
    raise typer.Exit(session.run())
