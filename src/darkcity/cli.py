"""The ``darkcity`` command: thin Typer commands that forward to the library.

Domain errors are caught here, at the edge, and shown as one line on stderr
(exit 2); nothing is printed on stdout then, and no traceback ever.

Everything it says is translated: ``--lang`` (en or pt) chooses the language
of a command's output and errors, and the locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``) when it is not given; help texts follow the locale
(or a ``--lang`` written before ``--help``).
"""

from __future__ import annotations

import copy
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from darkcity.i18n import Message, Translator, _, language_from_environment, msg, translator
from darkcity.night import RoundError

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


class _Group(typer.core.TyperGroup):
    """The app's group: its help, and every command's, in the reader's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in getattr(self, "commands", {}).values():
            if type(command) is typer.core.TyperCommand:
                command.__class__ = _Command  # the same object, with a localized help

    def format_help(self, ctx: Any, formatter: Any) -> None:
        typer.core.TyperGroup.format_help(_localized(self, _help_translator(ctx)), ctx, formatter)


class _Command(typer.core.TyperCommand):
    """A command whose help is in the reader's language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        typer.core.TyperCommand.format_help(_localized(self, _help_translator(ctx)), ctx,
                                            formatter)


app = typer.Typer(
    name="darkcity",
    cls=_Group,
    help=_("Dark City (Gustavo Barreto, 2018): adjudicate nights, replay and play games."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    # A group even with one command, so that ``darkcity adjudicate FILE`` parses.
    pass


def fail(t: Translator, message: Message) -> typer.Exit:
    """Write ``message`` in ``t``'s language on stderr; the ``Exit`` (status 2) to raise."""
    sys.stderr.write(f"darkcity: {t.render(message)}\n")  # i18n: not prose
    return typer.Exit(EXIT_INVALID)


_fail = fail


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


def _read_text(t: Translator, source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _fail(t, msg("{source}: no such file", source=source)) from None
    except IsADirectoryError:
        raise _fail(t, msg("{source}: is a directory, not a round document",
                           source=source)) from None
    except UnicodeDecodeError:
        raise _fail(t, msg("{source}: not UTF-8 text", source=source)) from None
    except OSError as e:
        raise _fail(t, msg("{source}: {error}", source=source,
                           error=e.strerror or str(e))) from None


def _documents(text: str) -> tuple[bool, list[tuple[int, Any]]]:
    """(is JSON Lines, [(line number, document)]).

    A text that parses as one JSON value is one document, parsed; otherwise
    each non-empty line is a document (JSON Lines, left as text) when the first
    one parses alone.
    """
    from darkcity.notation import bad_json

    if not text or text.isspace():
        raise RoundError("", msg("empty input: expected a darkcity-round/1 document"))
    try:
        return False, [(1, json.loads(text))]
    except RecursionError:
        raise RoundError("", msg("bad JSON: nested too deeply")) from None
    except json.JSONDecodeError as whole:
        # JSON Lines end lines with "\n" only: a name may hold U+2028, which
        # str.splitlines() would take for a line break.
        raw = text.split("\n")
        if not raw[-1]:
            raw.pop()  # after the newline that ends the last line
        lines = list(enumerate(raw, 1))
        if any(not line or line.isspace() for line in raw):  # blank lines are skipped
            lines = [(i, line) for i, line in lines if line and not line.isspace()]
        if len(lines) < 2:
            raise RoundError("", bad_json(whole)) from None
        try:
            json.loads(lines[0][1])
        except json.JSONDecodeError:
            raise RoundError("", bad_json(whole)) from None
    return True, lines


@app.command(
    help=_("Adjudicate a night (Phases 4 and 5) and print the darkcity-result/1 document."),
)
def adjudicate(
    file: Annotated[
        str | None,
        typer.Argument(help=_("A darkcity-round/1 document, or JSON Lines of them; "
                              "- for stdin.")),
    ] = None,
    example: Annotated[
        bool,
        typer.Option("--example", help=_("Adjudicate the example night shipped with darkcity.")),
    ] = False,
    narrate: Annotated[
        bool, typer.Option("--narrate", help=_("Print the Mayor's narration instead of JSON."))
    ] = False,
    lang: LangOption = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1,
                     help=_("Worker processes for JSON Lines (default: one per core).")),
    ] = None,
) -> None:
    """Adjudicate a night (Phases 4 and 5) and print the darkcity-result/1 document."""
    from darkcity.night import resolve
    from darkcity.notation import loads, read_round, result_document

    t = translate = reader(lang)
    if example:
        text = resources.files("darkcity").joinpath("examples/spec-example.json").read_text(
            encoding="utf-8")
        label = "example"
    elif file is None:
        raise _fail(t, msg("adjudicate: give a FILE, - for standard input, or --example"))
    else:
        text = _read_text(t, file)
        label = file
    try:
        bulk, docs = _documents(text)
    except RoundError as e:
        raise _fail(t, msg("{label}: {error}", label=label, error=_error(e))) from None
    if bulk and not narrate:
        from darkcity.bulk import BulkError, adjudicate_lines

        try:
            text_out = adjudicate_lines(docs, lang=t.lang, jobs=jobs)
        except BulkError as e:
            raise _fail(t, msg("{label}: line {line}: {error}", label=label, line=e.line,
                               error=_error(e.error))) from None
    else:
        out: list[bytes] = []
        for number, doc in docs:
            try:
                result = resolve(read_round(loads(doc) if bulk else doc))
            except RoundError as e:
                if bulk:
                    raise _fail(t, msg("{label}: line {line}: {error}", label=label,
                                       line=number, error=_error(e))) from None
                raise _fail(t, msg("{label}: {error}", label=label, error=_error(e))) from None
            if narrate:
                out.append(_narration(result, translate).encode("utf-8"))
            else:
                out.append(json.dumps(result_document(result, translate), ensure_ascii=False,
                                      indent=2).encode("utf-8"))
        text_out = b"\n".join(out) + b"\n"
    # Nothing is written before every night has been adjudicated (exit 2, empty stdout).
    sys.stdout.flush()
    sys.stdout.buffer.write(text_out)
    sys.stdout.buffer.flush()


def _error(e: RoundError) -> Message:
    """A :class:`RoundError` as a message: ``field: reason``."""
    if e.field:
        return msg("{field}: {reason}", field=e.field, reason=e.message)
    return e.message


def _narration(result: Any, translate: Translator) -> str:
    from darkcity.narration import render

    night = result.night
    lines = []
    step = None
    for e in result.events:
        if e.step != step:
            step = e.step
            if step == "end":
                lines.append(translate.render(msg("[end]")))
            else:
                lines.append(f"[{step}]")
        lines.append("  " + render(e, night, translate))
    if result.winners:
        lines.append(translate.render(msg("Winners: {names}",
                                          names=", ".join(result.winner_names))))
    return "\n".join(lines)


# The other commands live in their own modules, which register on ``app``.
from darkcity import (  # noqa: E402
    commands_bots,  # noqa: F401
    commands_game,  # noqa: F401
    commands_play,  # noqa: F401
    commands_server,  # noqa: F401
    commands_table,  # noqa: F401
)


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
