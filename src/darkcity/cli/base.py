"""The ``darkcity`` command's Typer app and what every command module shares.

:data:`app` (the group, its help in the reader's language), :func:`fail` (one
line on stderr, exit 2), :func:`reader` and :data:`LangOption` (``--lang``), and
:class:`LocalizedCommand`, the class of a command whose help is translated. The
commands themselves live in the package's other modules, and
:mod:`darkcity.cli` (the package) registers them on :data:`app`; this module
imports none of them.

Domain errors are caught at the edge, in the commands, and shown as one line on
stderr (exit 2); nothing is printed on stdout then, and no traceback ever.

Everything a command says is translated: ``--lang`` (en or pt) chooses the
language of its output and errors, and the locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``) when it is not given; help texts follow the locale
(or a ``--lang`` written before ``--help``).
"""

from __future__ import annotations

import copy
import sys
from typing import Annotated, Any

import typer
import typer.core

from darkcity.i18n import Message, Translator, _, language_from_environment, msg, translator

__all__ = ["EXIT_INVALID", "LangOption", "LocalizedCommand", "LocalizedGroup", "app", "fail",
           "reader"]

EXIT_INVALID = 2

#: Where an eager ``--lang`` leaves its language for the help of its command.
_LANG_KEY = "darkcity.lang"


def _help_translator(ctx: Any) -> Translator:
    lang = ctx.meta.get(_LANG_KEY)
    try:
        return translator(lang) if lang else translator(language_from_environment())
    except LookupError:
        return translator(language_from_environment())


def _localized(command: Any, t: Translator) -> Any:
    """A copy of a click command whose help texts are in ``t``'s language.

    (Typer has vendored click in some versions, so the types stay ``Any``.)
    """
    c = copy.copy(command)
    if c.help:
        c.help = t(c.help)
    if c.short_help:
        c.short_help = t(c.short_help)
    params = []
    for p in c.params:
        text = getattr(p, "help", None)
        if text:
            p = copy.copy(p)
            p.help = t(text)
        params.append(p)
    c.params = params
    commands = getattr(c, "commands", None)
    if isinstance(commands, dict):
        c.commands = {k: _localized(v, t) for k, v in commands.items()}
    return c


class LocalizedGroup(typer.core.TyperGroup):
    """The app's group: its help, and every command's, in the reader's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in getattr(self, "commands", {}).values():
            if type(command) is typer.core.TyperCommand:
                command.__class__ = LocalizedCommand  # the same object, with a localized help

    def format_help(self, ctx: Any, formatter: Any) -> None:
        typer.core.TyperGroup.format_help(_localized(self, _help_translator(ctx)), ctx, formatter)


class LocalizedCommand(typer.core.TyperCommand):
    """A command whose help is in the reader's language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        typer.core.TyperCommand.format_help(_localized(self, _help_translator(ctx)), ctx,
                                            formatter)


app = typer.Typer(
    name="darkcity",
    cls=LocalizedGroup,
    help=_("Dark City (Gustavo Barreto, 2018): adjudicate nights, replay and play games."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from darkcity import __version__

        sys.stdout.write(f"darkcity {__version__}\n")  # i18n: not prose
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help=_("Print darkcity's version and exit."))] = False,
) -> None:
    # A group even with one command, so that ``darkcity adjudicate FILE`` parses.
    pass


def fail(t: Translator, message: Message) -> typer.Exit:
    """Write ``message`` in ``t``'s language on stderr; the ``Exit`` (status 2) to raise."""
    sys.stderr.write(f"darkcity: {t.render(message)}\n")  # i18n: not prose
    return typer.Exit(EXIT_INVALID)



def _remember_lang(ctx: typer.Context, value: str | None) -> str | None:
    if value:
        ctx.meta[_LANG_KEY] = value
    return value


#: The ``--lang`` option of a command: ``lang: LangOption = None``, then
#: ``t = reader(lang)`` gives the translator of its output and errors.
LangOption = Annotated[
    str | None,
    typer.Option("--lang", help=_("Language of the output and the messages: en or pt "
                                  "(default: the locale)."),
                 is_eager=True, callback=_remember_lang),
]


def reader(lang: str | None) -> Translator:
    """The translator for ``--lang`` (any spelling), or the locale's when it is None.

    An unknown language is refused like any bad option (exit 2).
    """
    if lang is None:
        return translator(language_from_environment())
    try:
        return translator(lang)
    except LookupError:
        raise fail(translator(language_from_environment()),
                   msg("--lang: unknown language {lang!r} (en or pt)", lang=lang)) from None
