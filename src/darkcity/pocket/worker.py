"""The pocket app's engine: what the phone's Web Worker asks of darkcity in Pyodide.

``static/pocket/worker.js`` loads Pyodide, installs darkcity's wheel, imports this
module and calls its functions with JSON text; each answers JSON text: the value,
or ``{"error": {"status", "code", "message"}}`` with the reason in the reader's
words (the server's words: the same functions of :mod:`darkcity.companion.setup`,
:mod:`~darkcity.companion.actions` and :mod:`~darkcity.companion.view`). Nothing
here stores anything: a change answers the table's saved form (``record``), which
the worker writes to IndexedDB before the page is told it is done, and
:func:`open_table` gives a saved table back to the engine.

The saved form (:func:`migrate`) carries ``schema``: a table saved by an earlier
version of the app is brought to this one when it is opened, and a table whose
last entries no longer replay under this version's bookkeeping keeps what does
(``set_aside``, said to the Mayor as the server says it).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from darkcity.companion import actions
from darkcity.companion.actions import Refused
from darkcity.companion.record import TABLE_FORMAT, replay_table, write_table_record
from darkcity.companion.setup import check as check_setup
from darkcity.companion.setup import meta as setup_meta
from darkcity.companion.setup import read_setup
from darkcity.companion.table import Companion
from darkcity.companion.view import view
from darkcity.i18n import FieldError, msg, negotiate, translator
from darkcity.notation import ROUND_FORMAT, write_round
from darkcity.record import GAME_FORMAT

__all__ = ["FORM", "MAX_RECORD_BYTES", "SCHEMA", "call", "compile_all", "migrate", "too_big"]

#: The largest game file the phone opens: the server's own limit for a record
#: (``ServerConfig.max_record_bytes``, 1 MiB), said in words when a file is larger.
MAX_RECORD_BYTES: Final = 1_048_576


def too_big(size: int) -> Refused | None:
    """A file of ``size`` bytes refused in words when it is over :data:`MAX_RECORD_BYTES`."""
    if size <= MAX_RECORD_BYTES:
        return None
    return Refused(413, "too-big", msg(
        "This file is {size} MB: a game's file may be 1 MB at most (1,048,576 bytes), here "
        "as on darkcity's server.", size=f"{size / 1_000_000:.1f}"))

#: The saved table's form, and its version (one more at every change of the form).
FORM: Final = "darkcity-pocket-table"
SCHEMA: Final = 1
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # the server's table codes


@dataclass(slots=True)
class Open:
    """A table the engine holds: its saved form, and the companion it replays to."""

    record: dict[str, Any]
    table: Companion
    set_aside: int = 0


_open: dict[str, Open] = {}


def _lang(lang: object) -> str:
    return negotiate(str(lang or "")) or "en"


def _view(o: Open, lang: str, reader: str | None = "mayor") -> dict[str, Any]:
    r = o.record
    return view(o.table, reader, translator(_lang(lang)), code=r["code"],
                version=r["version"], lang=r["lang"], set_aside=o.set_aside)


def migrate(record: object) -> dict[str, Any]:
    """A saved table in this version's form (``schema`` :data:`SCHEMA`), or a
    :class:`Refused` naming what is wrong. Schema 0, the first, had no ``schema``:
    the server's row (``code``, ``version``, ``lang``, ``doc``)."""
    if not isinstance(record, dict):
        raise Refused(400, "bad-saved", msg("The saved table is damaged: {why}",
                                            why=msg("must be an object")))
    r = dict(record)
    schema = r.get("schema", 0)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema > SCHEMA:
        raise Refused(400, "newer-saved", msg(
            "This table was saved by a newer version of the app: update the app to open it."))
    if schema == 0:  # the first form: the server's row
        r = {"form": FORM, "schema": 1, "code": r.get("code"), "version": r.get("version", 1),
             "lang": r.get("lang", "en"), "created": r.get("created", 0),
             "updated": r.get("updated", 0), "table": r.get("doc")}
    for key, kind in (("code", str), ("version", int), ("lang", str), ("table", dict)):
        if not isinstance(r.get(key), kind):
            wrong = msg("{field}: {reason}", field=key,
                        reason=msg("missing or of the wrong kind"))
            raise Refused(400, "bad-saved", msg("The saved table is damaged: {why}",
                                                why=wrong))
    return r


def _table(code: str) -> Open:
    found = _open.get(str(code))
    if found is None:
        raise Refused(404, "no-table", msg("There is no table with that code."))
    return found


def _changed(o: Open, lang: str, **more: Any) -> dict[str, Any]:
    """The table's new saved form and the Mayor's view of it, after a change."""
    o.record = {**o.record, "version": o.record["version"] + 1,
                "table": o.table.to_json()}
    o.set_aside = 0
    return {"record": o.record, "view": {**_view(o, lang), **more}}


def _new(table: Companion, lang: str, now: float) -> dict[str, Any]:
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
    while code in _open:  # pragma: no cover - 31**6 codes
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
    record = {"form": FORM, "schema": SCHEMA, "code": code, "version": 1, "lang": _lang(lang),
              "created": now, "updated": now, "table": table.to_json()}
    o = _open[code] = Open(record, table)
    return {"record": record, "view": _view(o, lang), "code": code}


# -- what the worker asks ----------------------------------------------------------


def op_meta(lang: str) -> dict[str, Any]:
    return setup_meta(_lang(lang))


def op_check(body: dict[str, Any], lang: str) -> dict[str, Any]:
    return check_setup(body, translator(_lang(lang)))


def op_create(body: dict[str, Any], lang: str, now: float) -> dict[str, Any]:
    setup = read_setup(body, translator(_lang(lang)))
    return _new(Companion(setup), _lang(body.get("lang") or lang), now)


def op_open(record: object) -> dict[str, Any]:
    """A saved table given to the engine (migrated): its saved form and summary."""
    r = migrate(record)
    try:
        table, set_aside = Companion.restore(r["table"])
    except FieldError as e:
        raise Refused(400, "bad-saved", msg("The saved table is damaged: {why}",
                                            why=msg("{field}: {reason}", field=e.field,
                                                    reason=e.message))) from None
    o = _open[r["code"]] = Open(r, table, set_aside)
    return {"record": r, "summary": summary(o)}


def summary(o: Open) -> dict[str, Any]:
    """A saved table as the list of tables says it."""
    c = o.table
    return {"code": o.record["code"], "night": c.number, "players": list(c.players),
            "stage": c.stage.value, "updated": o.record.get("updated", 0)}


def op_forget(code: str) -> None:
    _open.pop(str(code), None)


def op_state(code: str, lang: str) -> dict[str, Any]:
    return _view(_table(code), lang)


def op_enter(code: str, entry: object, reader: str, lang: str) -> dict[str, Any]:
    o = _table(code)
    actions.enter(o.table, reader, entry)
    return _changed(o, lang)


def op_undo(code: str, what: object, lang: str) -> dict[str, Any]:
    o = _table(code)
    actions.undo(o.table, what)
    return _changed(o, lang)


def op_correct(code: str, body: dict[str, Any], lang: str) -> dict[str, Any]:
    o = _table(code)
    asked = actions.read_correction(body)
    if asked.dry:
        return {"answer": actions.correct(o.table, asked)}
    dropped = actions.correct(o.table, asked)
    return _changed(o, lang, dropped=dropped)


def op_past(code: str, night: int, step: str | None, lang: str) -> dict[str, Any]:
    o = _table(code)
    then = Open(o.record, o.table.at(int(night), step))
    return _view(then, lang)


def op_export(code: str, night: int | None) -> dict[str, Any]:
    """The game (``darkcity-table/1``, the finished nights) or one finished night
    (``darkcity-round/1``), and the file's name."""
    o = _table(code)
    if night is None:
        return {"doc": write_table_record(o.table, finished_only=True),
                "name": f"darkcity-table-{code}.json"}
    nights = o.table.nights
    if not 1 <= int(night) <= len(nights):
        raise Refused(404, "no-night", msg("That night is not finished."))
    return {"doc": write_round(nights[int(night) - 1].night),
            "name": f"darkcity-{code}-night-{int(night)}.json"}


def op_import(text: str, lang: str, now: float) -> dict[str, Any]:
    """A game's file (``darkcity-table/1``) as a new table on this phone, every entry
    checked; a damaged or foreign file is refused with what is wrong in it."""
    big = too_big(len(str(text).encode("utf-8")))
    if big is not None:
        raise big
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise Refused(400, "bad-file", msg("This file is not JSON (line {line}).",
                                           line=getattr(e, "lineno", 1))) from None
    form = doc.get("format") if isinstance(doc, dict) else None
    if form == ROUND_FORMAT:
        raise Refused(400, "a-round", msg(
            "This file is one night (darkcity-round/1), not a game: import the game's file "
            "(darkcity-table/1)."))
    if form == GAME_FORMAT:
        raise Refused(400, "a-game-record", msg(
            "This file is the record of a game played on screens, against bots or online "
            "(darkcity-game/1), not a game with the real cards: open it with \"Open a game "
            "record\" on the play page (replay.html), which steps through it night by "
            "night."))
    if form != TABLE_FORMAT:
        raise Refused(400, "bad-file", msg(
            "This file is not a game of darkcity (darkcity-table/1)."))
    try:
        replayed = replay_table(doc)
    except FieldError as e:
        raise Refused(400, "bad-file", msg("This game's file is damaged: {why}",
                                           why=msg("{field}: {reason}", field=e.field,
                                                   reason=e.message))) from None
    if replayed.divergence is not None:
        raise Refused(400, "bad-file", msg("This game's file is damaged: {why}",
                                           why=replayed.divergence.to_message()))
    return _new(replayed.table, lang, now)


def compile_all(stdlib: str, packages: str) -> tuple[bytes, bytes]:
    """The phone's own compile of its Python, made once after a first start and kept by
    the worker in the browser's cache, so that later starts read bytecode instead of
    compiling some 200 modules again (``worker.js``): the standard library zip ``stdlib``
    with each module as a ``.pyc`` in place of its source, and a zip of the
    ``__pycache__`` files of darkcity's modules under ``packages`` (the wheel, unpacked).
    Both are unchecked hash-based bytecode (PEP 552): tied to this build by the cache's
    name, never to a file's date."""
    import importlib.util
    import io
    import os
    import zipfile
    from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]

    def pyc(source: bytes, name: str) -> bytes:
        code = compile(source, name, "exec", dont_inherit=True)
        data: bytes = _code_to_hash_pyc(code, importlib.util.source_hash(source), False)
        return data

    std = io.BytesIO()
    with zipfile.ZipFile(stdlib) as z, zipfile.ZipFile(std, "w", zipfile.ZIP_STORED) as out:
        for info in z.infolist():
            data = z.read(info)
            if info.filename.endswith(".py"):
                out.writestr(info.filename + "c", pyc(data, f"{stdlib}/{info.filename}"))
            else:
                out.writestr(info, data)
    site = io.BytesIO()
    with zipfile.ZipFile(site, "w", zipfile.ZIP_STORED) as out:
        for folder, _dirs, names in os.walk(os.path.join(packages, "darkcity")):
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    data = f.read()
                cached = importlib.util.cache_from_source(path)
                out.writestr(os.path.relpath(cached, packages), pyc(data, path))
    return std.getvalue(), site.getvalue()


def op_selfcheck() -> dict[str, Any]:
    """Every module of darkcity on this phone imported, and every module of the standard
    library darkcity imports anywhere (a function's own import too), which the build
    trimmed the runtime's to (``darkcity.pocket.build.trim_stdlib``): what is missing, by
    name (``tests/browser/test_pocket_app.py``)."""
    import ast
    import importlib
    import os

    import darkcity

    root = os.path.dirname(darkcity.__file__)
    mine: list[str] = []
    wanted: set[str] = set()
    for folder, _dirs, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), os.path.dirname(root))
            mod = rel[:-3].replace(os.sep, ".").removesuffix(".__init__")
            mine.append(mod)
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    wanted.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    wanted.update(f"{node.module}.{a.name}" for a in node.names)
    missing: list[str] = []
    for mod in sorted(mine):
        try:
            importlib.import_module(mod)
        except ImportError as e:
            missing.append(f"{mod}: {e}")
    for name in sorted(n for n in wanted if not n.startswith("darkcity")):
        try:
            importlib.import_module(name)
        except ImportError:
            parent, _, attr = name.rpartition(".")
            try:
                if not parent or not hasattr(importlib.import_module(parent), attr):
                    missing.append(name)
            except ImportError:
                missing.append(name)
    return {"modules": len(mine), "stdlib": len(wanted), "missing": missing}


OPS: Final[dict[str, Callable[..., Any]]] = {
    "selfcheck": op_selfcheck, "meta": op_meta, "check": op_check, "create": op_create,
    "open": op_open, "forget": op_forget, "state": op_state, "enter": op_enter, "undo": op_undo,
    "correct": op_correct, "past": op_past, "export": op_export, "import": op_import,
}


def call(op: str, args_json: str) -> str:
    """Run ``op`` with the arguments ``args_json`` (a JSON list) and answer JSON text:
    ``{"value": ...}``, or ``{"error": {"status", "code", "message"}}`` in the
    language of the last argument named ``lang`` (English without one)."""
    args = json.loads(args_json)
    fn = OPS.get(op)
    lang = "en"
    if isinstance(args, dict):
        lang = _lang(args.get("lang"))
    try:
        if fn is None or not isinstance(args, dict):
            raise Refused(400, "bad-op", msg("unknown request {name!r}", name=op))
        return json.dumps({"value": fn(**args)})
    except Exception as e:
        t = translator(lang)
        answer = actions.refusal(e, t)
        if answer is None:  # a fault of the app, said in words, never a trace
            answer = (500, {"code": "fault", "message": t.render(msg(
                "Something went wrong.")) + f" ({type(e).__name__}: {e})"})
        return json.dumps({"error": {"status": answer[0], **answer[1]}})
