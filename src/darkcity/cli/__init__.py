"""The ``darkcity`` command: thin Typer commands that forward to the library.

* :mod:`darkcity.cli.base` — the Typer :data:`~darkcity.cli.base.app` and what
  every command shares: ``fail`` (one line on stderr, exit 2), ``reader`` and
  ``LangOption`` (``--lang``), the translated help (``LocalizedCommand``);
* :mod:`darkcity.cli.adjudicate` — ``adjudicate``: a night's round document;
* :mod:`darkcity.cli.bots` — ``bots``, ``simulate``, ``tournament``;
* :mod:`darkcity.cli.game` — ``selfplay``, ``replay`` (game and table records);
* :mod:`darkcity.cli.play` — ``play``: a game in the terminal (:mod:`darkcity.tui`);
* :mod:`darkcity.cli.server` — ``serve``: the web app (:mod:`darkcity.server`);
* :mod:`darkcity.cli.table` — ``table``: the table companion in the terminal;
* :mod:`darkcity.cli.pocket` — ``app build``: the pocket app's static site.

Each command module imports :mod:`darkcity.cli.base` only (never this package)
and collects its commands in its own ``commands`` (a ``typer.Typer``), and its
groups of commands, if any, in ``groups``; this
package registers them on the app, in the order of :data:`COMMAND_MODULES`,
which is the order ``darkcity --help`` lists them in. **A new command module is
added to** :data:`COMMAND_MODULES` **below**, and nowhere else.
"""

from __future__ import annotations

from darkcity.cli import adjudicate, bots, game, play, pocket, server, table
from darkcity.cli.base import app

__all__ = ["COMMAND_MODULES", "app", "main"]

#: The command modules, in the order of ``darkcity --help``.
COMMAND_MODULES = (adjudicate, bots, game, play, server, table, pocket)

for _module in COMMAND_MODULES:
    app.registered_commands.extend(_module.commands.registered_commands)
    for _group in getattr(_module, "groups", ()):  # a group of commands: darkcity app build
        app.add_typer(_group)


def main() -> None:
    """Entry point of the console script."""
    app()
