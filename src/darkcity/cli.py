"""The ``darkcity`` command: thin Typer commands that forward to the library.

Domain errors are caught here, at the edge, and shown as one line on stderr
(exit 2); nothing is printed on stdout then, and no traceback ever.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from darkcity.night import RoundError

app = typer.Typer(
    name="darkcity",
    help="Dark City (Gustavo Barreto, 2018): adjudicate nights, replay and play games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_INVALID = 2


def _fail(message: str) -> typer.Exit:
    sys.stderr.write(f"darkcity: {message}\n")
    return typer.Exit(EXIT_INVALID)


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _fail(f"{source}: no such file") from None
    except IsADirectoryError:
        raise _fail(f"{source}: is a directory, not a round document") from None
    except UnicodeDecodeError:
        raise _fail(f"{source}: not UTF-8 text") from None
    except OSError as e:
        raise _fail(f"{source}: {e.strerror or e}") from None


def _documents(text: str) -> tuple[bool, list[tuple[int, Any]]]:
    """(is JSON Lines, [(line number, parsed document)]).

    A text that parses as one JSON value is one document; otherwise each
    non-empty line is a document (JSON Lines) when the first one parses alone.
    """
    from darkcity.notation import loads

    stripped = text.strip()
    if not stripped:
        raise RoundError("", "empty input: expected a darkcity-round/1 document")
    try:
        return False, [(1, json.loads(stripped))]
    except json.JSONDecodeError as whole:
        lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise RoundError("", f"bad JSON at line {whole.lineno}, column {whole.colno}: "
                             f"{whole.msg}") from None
        try:
            json.loads(lines[0][1])
        except json.JSONDecodeError:
            raise RoundError("", f"bad JSON at line {whole.lineno}, column {whole.colno}: "
                             f"{whole.msg}") from None
    docs: list[tuple[int, Any]] = []
    for number, line in lines:
        try:
            docs.append((number, loads(line)))
        except RoundError as e:
            raise RoundError("", f"line {number}: {e.reason}") from None
    return True, docs


@app.command()
def adjudicate(
    file: Annotated[
        str | None,
        typer.Argument(help="A darkcity-round/1 document, or JSON Lines of them; - for stdin."),
    ] = None,
    example: Annotated[
        bool, typer.Option("--example", help="Adjudicate the example night shipped with darkcity.")
    ] = False,
    narrate: Annotated[
        bool, typer.Option("--narrate", help="Print the Mayor's narration instead of JSON.")
    ] = False,
    lang: Annotated[str, typer.Option(help="Language of the narration: en or pt.")] = "en",
) -> None:
    """Adjudicate a night (Phases 4 and 5) and print the darkcity-result/1 document."""
    from darkcity.night import resolve
    from darkcity.notation import read_round, result_document

    translate = _translator(lang)
    if example:
        text = resources.files("darkcity").joinpath("examples/spec-example.json").read_text(
            encoding="utf-8")
        label = "example"
    elif file is None:
        raise _fail("adjudicate: give a FILE, - for standard input, or --example")
    else:
        text = _read_text(file)
        label = file
    try:
        bulk, docs = _documents(text)
    except RoundError as e:
        raise _fail(f"{label}: {e}") from None
    out: list[str] = []
    for number, doc in docs:
        try:
            result = resolve(read_round(doc))
        except RoundError as e:
            where = f"{label}: line {number}: " if bulk else f"{label}: "
            raise _fail(f"{where}{e}") from None
        if narrate:
            out.append(_narration(result, translate))
        else:
            rd = result_document(result, translate)
            out.append(json.dumps(rd, ensure_ascii=False, separators=(",", ":")) if bulk
                       else json.dumps(rd, ensure_ascii=False, indent=2))
    sys.stdout.write("\n".join(out) + "\n")


def _translator(lang: str) -> Any:
    if lang not in ("en", "pt", "pt_BR", "pt-BR"):
        raise _fail(f"--lang: unknown language {lang!r} (en or pt)")
    try:
        from darkcity.i18n import translator
    except ImportError:
        return str
    return translator(lang)


def _narration(result: Any, translate: Any) -> str:
    from darkcity.narration import render

    night = result.night
    lines = []
    step = None
    for e in result.events:
        if e.step != step:
            step = e.step
            lines.append(f"[{step}]")
        lines.append("  " + render(e, night, translate))
    if result.winners:
        lines.append("Winners: " + ", ".join(result.winner_names))
    return "\n".join(lines)


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
