"""The ``table`` command: the table companion in the terminal (issue #11).

Thin: it reads the seating, the deck and the free XP from the options (or a
``darkcity-table/1`` record with ``--resume``), and hands over to
:class:`darkcity.tui.table.TerminalTable`, which saves the table after every
entry. A bad option is one line on stderr naming it, and exit 2. ``darkcity
replay`` checks a saved table (:mod:`darkcity.cli.game`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from darkcity.cast import Role, parse_role
from darkcity.cli.base import LangOption, fail, reader
from darkcity.i18n import FieldError, _, error_message, msg
from darkcity.tui.table import BEAT_S, Quit, TerminalTable, ask_line, speaker

__all__ = ["commands", "table"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()


def _parse_free(text: str, players: Sequence[str]) -> dict[str, Role]:
    from darkcity.deck import DeckError

    out: dict[str, Role] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, _sep, role_name = part.partition("=")
        role = parse_role(role_name.strip())
        if role is None:
            raise DeckError(f"--free {name.strip()}", msg("unknown role {name!r}",
                                                          name=role_name.strip()))
        out[name.strip()] = role
    return out


@commands.command("table", help=_("The table companion: the Mayor's assistant for a game with "
                                  "the physical cards."))
def table(
    players: Annotated[str | None, typer.Option(
        help=_("Player names in clockwise order, separated by commas; the first is the "
               "Mayor."))] = None,
    deck: Annotated[str, typer.Option(
        help=_("A preset (basic, advanced, angel-alien-6 ...) or cards role:edition:gender "
               "separated by commas."))] = "basic",
    free: Annotated[str | None, typer.Option(
        help=_("Each player's free XP: Ana=devil,Bia=hunter,... (default: the journal's "
               "rows in turn)."))] = None,
    save: Annotated[str | None, typer.Option(
        help=_("Where the darkcity-table/1 record is saved after every entry."))] = None,
    resume: Annotated[str | None, typer.Option(
        help=_("Go on with a table saved by an earlier session."))] = None,
    beat: Annotated[float, typer.Option(help=_("Seconds between the numbers of the count."))
                    ] = BEAT_S,
    speech: Annotated[bool, typer.Option(help=_("Speak the count and the calls when a "
                                                "speech command exists."))] = True,
    lang: LangOption = None,
) -> None:
    """The table companion: the Mayor's assistant for a game with the physical cards."""
    from darkcity.companion import Companion, TableSetup, replay_table
    from darkcity.deck import parse_deck
    from darkcity.record import RecordError

    t = reader(lang)
    try:
        if resume is not None:
            doc = json.loads(Path(resume).read_text(encoding="utf-8"))
            replayed = replay_table(doc)
            if replayed.divergence is not None:
                raise fail(t, msg("{source}: {error}", source=resume,
                                  error=replayed.divergence.to_message()))
            companion = replayed.table
            path = Path(save or resume)
        else:
            if not players:
                raise fail(t, msg("--players: give the names, in clockwise order"))
            names = tuple(p.strip() for p in players.split(",") if p.strip())
            d = parse_deck(deck, len(names))
            free_xp = _parse_free(free, names) if free else {
                p: d.journal_roles[i % len(d.journal_roles)] for i, p in enumerate(names)}
            companion = Companion(TableSetup.of(names, d, free_xp))
            path = Path(save or datetime.now().strftime("darkcity-table-%Y%m%d-%H%M%S.json"))
    except (FieldError, RecordError) as e:
        raise fail(t, error_message(e)) from None
    except (OSError, ValueError) as e:
        raise fail(t, msg("{source}: {error}", source=str(resume), error=str(e))) from None
    console = Console(highlight=False)
    session = TerminalTable(companion, t, console, path, beat=beat,
                            speak=speaker(t.lang, speech), ask=ask_line)
    try:
        session.run()
    except (Quit, KeyboardInterrupt):
        session._save()
        sys.stdout.write(t.render(msg("Saved: {path} (darkcity table --resume {path})",
                                      path=str(path))) + "\n")
