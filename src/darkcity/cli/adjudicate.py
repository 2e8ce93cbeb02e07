"""The ``adjudicate`` command: one night (a darkcity-round/1 document) adjudicated.

Thin: it reads the document (a file, standard input or the shipped example;
JSON Lines in bulk, :mod:`darkcity.bulk`) and forwards to :mod:`darkcity.night`
and :mod:`darkcity.notation`. A bad document is one line on stderr naming the
field (and the line), exit 2, and nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from darkcity.cli.base import LangOption, fail, reader
from darkcity.i18n import Message, Translator, _, msg
from darkcity.night import RoundError

__all__ = ["adjudicate", "commands"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()


def _read_text(t: Translator, source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise fail(t, msg("{source}: no such file", source=source)) from None
    except IsADirectoryError:
        raise fail(t, msg("{source}: is a directory, not a round document",
                          source=source)) from None
    except UnicodeDecodeError:
        raise fail(t, msg("{source}: not UTF-8 text", source=source)) from None
    except OSError as e:
        raise fail(t, msg("{source}: {error}", source=source,
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


@commands.command(
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
        raise fail(t, msg("adjudicate: give a FILE, - for standard input, or --example"))
    else:
        text = _read_text(t, file)
        label = file
    try:
        bulk, docs = _documents(text)
    except RoundError as e:
        raise fail(t, msg("{label}: {error}", label=label, error=_error(e))) from None
    if bulk and not narrate:
        from darkcity.bulk import BulkError, adjudicate_lines

        try:
            text_out = adjudicate_lines(docs, lang=t.lang, jobs=jobs)
        except BulkError as e:
            raise fail(t, msg("{label}: line {line}: {error}", label=label, line=e.line,
                              error=_error(e.error))) from None
    else:
        out: list[bytes] = []
        for number, doc in docs:
            try:
                result = resolve(read_round(loads(doc) if bulk else doc))
            except RoundError as e:
                if bulk:
                    raise fail(t, msg("{label}: line {line}: {error}", label=label,
                                      line=number, error=_error(e))) from None
                raise fail(t, msg("{label}: {error}", label=label, error=_error(e))) from None
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
    from darkcity.narration import render_all

    night = result.night
    lines = []
    step = None
    for e, text in zip(result.events, render_all(result.events, night, translate), strict=True):
        if e.step != step:
            step = e.step
            if step == "end":
                lines.append(translate.render(msg("[end]")))
            else:
                lines.append(f"[{step}]")
        lines.append("  " + text)
    if result.winners:
        lines.append(translate.render(msg("Winners: {names}",
                                          names=", ".join(result.winner_names))))
    return "\n".join(lines)
