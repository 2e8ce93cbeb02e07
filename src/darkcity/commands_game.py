"""The ``selfplay`` and ``replay`` commands (registered on :data:`darkcity.cli.app`).

Thin: they forward to :mod:`darkcity.game` and :mod:`darkcity.record`. A bad
option or an unreadable record is one line on stderr and exit 2; a record
that does not replay identically is reported on stdout with exit 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from darkcity.cli import app
from darkcity.deck import DeckError, parse_deck, presets_for
from darkcity.game import Game, Settings, bot_rng, play_randomly
from darkcity.record import RecordError, narration, replay, write_record

__all__ = ["replay_command", "selfplay"]

EXIT_DIVERGED = 1
EXIT_INVALID = 2
NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def _fail(message: str) -> typer.Exit:
    sys.stderr.write(f"darkcity: {message}\n")
    return typer.Exit(EXIT_INVALID)


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


@app.command("selfplay")
def selfplay(
    players: Annotated[int, typer.Option(help="Number of players, 4 to 8.")] = 6,
    seed: Annotated[str, typer.Option(help="The seed (an integer or any text).")] = "0",
    deck: Annotated[str, typer.Option(
        help="A preset (basic, advanced, angel-alien-6 ...) or cards "
             "role:edition:gender separated by commas.")] = "basic",
    names: Annotated[str | None, typer.Option(
        help="Player names in seating order, separated by commas.")] = None,
    out: Annotated[str, typer.Option(help="Where to write the darkcity-game/1 record; "
                                          "- for stdout.")] = "-",
) -> None:
    """Play a whole game with random legal decisions and write its record."""
    seats = tuple(n.strip() for n in names.split(",")) if names else NAMES[:players]
    if names is None and not 4 <= players <= 8:
        raise _fail(f"--players: 4 to 8, not {players}")
    s = _seed(seed)
    try:
        d = parse_deck(deck, len(seats))
        game = Game(Settings(players=seats, deck=d), s)
    except DeckError as e:
        hint = ", ".join(presets_for(len(seats))) if 4 <= len(seats) <= 8 else ""
        raise _fail(f"{e}" + (f" (presets for {len(seats)}: {hint})" if hint else "")) from None
    play_randomly(game, bot_rng(s))
    text = json.dumps(write_record(game), ensure_ascii=False, indent=1)
    if out == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        Path(out).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        raise _fail(f"{out}: {e.strerror or e}") from None
    sys.stdout.write(f"{out}: {len(game.nights)} nights; winners: "
                     f"{', '.join(game.winners)}\n")


def _load(source: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as e:
        raise _fail(f"{source}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise _fail(f"{source}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _fail(f"{source}: bad JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise _fail(f"{source}: bad JSON: nested too deeply") from None


@app.command("replay")
def replay_command(
    record: Annotated[str, typer.Argument(help="A darkcity-game/1 record; - for stdin.")],
    night: Annotated[int | None, typer.Option(
        "--night", help="Print the narration of this night (1-based).")] = None,
) -> None:
    """Re-play a game record through the engine; report the first divergence."""
    doc = _load(record)
    try:
        result = replay(doc)
    except RecordError as e:
        raise _fail(f"{record}: {e}") from None
    game = result.game
    if night is not None:
        if not 1 <= night <= len(game.nights):
            if result.divergence is not None:
                sys.stdout.write(f"diverged: {result.divergence}\n")
                raise typer.Exit(EXIT_DIVERGED)
            raise _fail(f"--night: the record has nights 1 to {len(game.nights)}, not {night}")
        sys.stdout.write("\n".join(narration(game.nights[night - 1])) + "\n")
        if result.divergence is not None:
            sys.stderr.write(f"darkcity: diverged: {result.divergence}\n")
            raise typer.Exit(EXIT_DIVERGED)
        return
    if result.divergence is not None:
        sys.stdout.write(f"diverged: {result.divergence}\n")
        raise typer.Exit(EXIT_DIVERGED)
    state = (f"winners: {', '.join(game.winners)}" if game.over else "game not finished")
    sys.stdout.write(f"ok: {len(game.nights)} nights replayed identically; {state}\n")
