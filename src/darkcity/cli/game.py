"""The ``selfplay`` and ``replay`` commands: whole games and their records.

Thin: they forward to :mod:`darkcity.game` and :mod:`darkcity.record`. A bad
option or an unreadable record is one line on stderr and exit 2; a record
that does not replay identically is reported on stdout with exit 1.
``replay`` also checks a table companion's ``darkcity-table/1`` record
(``darkcity table`` saves one). Everything they say follows ``--lang`` (or
the locale), like ``adjudicate``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from darkcity.cli.base import LangOption, fail, reader
from darkcity.i18n import Message, Translator, _, error_message, msg

__all__ = ["commands", "replay_command", "selfplay"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()

EXIT_DIVERGED = 1
EXIT_INVALID = 2
NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _located(field: str, message: Message) -> Message:
    """``field: message`` (the message alone without a field)."""
    return msg("{field}: {reason}", field=field, reason=message) if field else message


@commands.command("selfplay", help=_("Play a whole game with random legal decisions and write its "
                                     "record."))
def selfplay(
    players: Annotated[int, typer.Option(help=_("Number of players, 4 to 8."))] = 6,
    seed: Annotated[str, typer.Option(help=_("The seed (an integer or any text)."))] = "0",
    deck: Annotated[str, typer.Option(
        help=_("A preset (basic, advanced, angel-alien-6 ...) or cards "
               "role:edition:gender separated by commas."))] = "basic",
    names: Annotated[str | None, typer.Option(
        help=_("Player names in seating order, separated by commas."))] = None,
    out: Annotated[str, typer.Option(help=_("Where to write the darkcity-game/1 record; "
                                            "- for stdout."))] = "-",
    lang: LangOption = None,
) -> None:
    """Play a whole game with random legal decisions and write its record."""
    from darkcity.deck import DeckError, parse_deck, presets_for
    from darkcity.game import Game, play_randomly
    from darkcity.record import write_record
    from darkcity.settings import Settings, bot_rng

    t = reader(lang)
    seats = tuple(n.strip() for n in names.split(",")) if names else NAMES[:players]
    if names is None and not 4 <= players <= 8:
        raise fail(t, msg("--players: 4 to 8, not {n}", n=players))
    s = _seed(seed)
    try:
        d = parse_deck(deck, len(seats))
        game = Game(Settings(players=seats, deck=d), s)
    except DeckError as e:
        error = _located(e.field, e.message)
        if 4 <= len(seats) <= 8:
            raise fail(t, msg("{error} (presets for {n}: {presets})", error=error,
                              n=len(seats), presets=", ".join(presets_for(len(seats))))
                       ) from None
        raise fail(t, error) from None
    play_randomly(game, bot_rng(s))
    text = json.dumps(write_record(game), ensure_ascii=False, indent=1)
    if out == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        Path(out).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        raise fail(t, msg("{source}: {error}", source=out, error=e.strerror or str(e))) from None
    sys.stdout.write(t.render(msg("{out}: {n} nights; winners: {winners}", out=out,
                                  n=len(game.nights), winners=", ".join(game.winners))) + "\n")


def _load(t: Translator, source: str) -> Any:
    from darkcity.notation import bad_json

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise fail(t, msg("{source}: no such file", source=source)) from None
    except OSError as e:
        raise fail(t, msg("{source}: {error}", source=source,
                          error=e.strerror or str(e))) from None
    except UnicodeDecodeError:
        raise fail(t, msg("{source}: not UTF-8 text", source=source)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise fail(t, msg("{source}: {error}", source=source, error=bad_json(e))) from None
    except RecursionError:
        raise fail(t, msg("{source}: {error}", source=source,
                          error=msg("bad JSON: nested too deeply"))) from None


@commands.command("replay", help=_("Re-play a game record through the engine; report the first "
                                   "divergence."))
def replay_command(
    record: Annotated[str, typer.Argument(help=_("A darkcity-game/1 record; - for stdin."))],
    night: Annotated[int | None, typer.Option(
        "--night", help=_("Print the narration of this night (1-based)."))] = None,
    lang: LangOption = None,
) -> None:
    """Re-play a game record through the engine; report the first divergence."""
    from darkcity.record import RecordError, narration, replay

    t = reader(lang)
    doc = _load(t, record)
    if isinstance(doc, dict) and doc.get("format") == "darkcity-table/1":  # a table companion's
        _replay_table(t, record, doc, night)
        return
    try:
        result = replay(doc)
    except RecordError as e:
        raise fail(t, msg("{source}: {error}", source=record,
                          error=_located(e.field, e.message))) from None
    game = result.game
    diverged = (msg("diverged: {divergence}", divergence=result.divergence.to_message())
                if result.divergence is not None else None)
    if night is not None:
        if not 1 <= night <= len(game.nights):
            if diverged is not None:
                sys.stdout.write(t.render(diverged) + "\n")
                raise typer.Exit(EXIT_DIVERGED)
            raise fail(t, msg("--night: the record has nights 1 to {last}, not {night}",
                              last=len(game.nights), night=night))
        sys.stdout.write("\n".join(narration(game.nights[night - 1], t)) + "\n")
        if diverged is not None:
            sys.stderr.write(f"darkcity: {t.render(diverged)}\n")  # i18n: not prose
            raise typer.Exit(EXIT_DIVERGED)
        return
    if diverged is not None:
        sys.stdout.write(t.render(diverged) + "\n")
        raise typer.Exit(EXIT_DIVERGED)
    if game.over:
        done = msg("ok: {n} nights replayed identically; winners: {winners}",
                   n=len(game.nights), winners=", ".join(game.winners))
    else:
        done = msg("ok: {n} nights replayed identically; game not finished",
                   n=len(game.nights))
    sys.stdout.write(t.render(done) + "\n")


def _replay_table(t: Translator, source: str, doc: object, night: int | None) -> None:
    """``darkcity replay`` for a ``darkcity-table/1`` record: ok or the first
    divergence (exit 1); ``--night N`` prints that night's narration."""
    from darkcity.companion.record import describe, narration, replay_table
    from darkcity.record import RecordError

    try:
        replayed = replay_table(doc)
    except RecordError as e:
        raise fail(t, msg("{source}: {error}", source=source, error=error_message(e))) from None
    table = replayed.table
    if night is not None:
        if not 1 <= night <= len(table.nights):
            raise fail(t, msg("--night: the record has nights 1 to {last}, not {night}",
                              last=len(table.nights), night=night))
        sys.stdout.write("\n".join(narration(table.nights[night - 1], t)) + "\n")
    else:
        sys.stdout.write(t.render(describe(replayed)) + "\n")
    if replayed.divergence is not None:
        raise typer.Exit(1)
