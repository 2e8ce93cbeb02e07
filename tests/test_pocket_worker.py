"""The pocket app's engine (issue #29), as the phone's worker calls it: JSON in, JSON
out, every change answering the saved form the worker stores before it answers; bad
files and saved tables of another version said in words (darkcity.pocket.worker)."""

from __future__ import annotations

import json
from typing import Any

from darkcity.companion.record import replay_table
from darkcity.pocket import worker
from darkcity.pocket.worker import SCHEMA, call

SIX = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
GESTURES: tuple[dict[str, Any], ...] = (
    {"type": "drafted"}, {"type": "counted"},
    {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
    {"type": "gesture", "player": "Bia", "shows": "werewolf", "targets": ["Caio"]},
    {"type": "gesture", "player": "Caio", "shows": "priest"},
    {"type": "gesture", "player": "Duda", "shows": "zombie", "targets": ["Caio"]},
    {"type": "gesture", "player": "Enzo", "shows": "hunter", "targets": ["Ana", "Duda"]},
    {"type": "gesture", "player": "Fred", "shows": "vampire", "targets": ["Enzo"]},
    {"type": "revealed"}, {"type": "withdrawal", "player": "Caio", "withdrawal": True},
    {"type": "withdrawn"})


def ask(op: str, **args: Any) -> Any:
    answer = json.loads(call(op, json.dumps(args)))
    assert "error" not in answer, answer
    return answer["value"]


def refused(op: str, **args: Any) -> dict[str, Any]:
    answer = json.loads(call(op, json.dumps(args)))
    assert "error" in answer, answer
    out: dict[str, Any] = answer["error"]
    return out


def new_table(lang: str = "en") -> str:
    made = ask("create", body={"players": SIX, "deck": "basic", "lang": lang,
                               "free_xp": dict.fromkeys(SIX, "priest")}, lang=lang, now=1)
    assert made["record"]["schema"] == SCHEMA and made["record"]["version"] == 1
    code: str = made["code"]
    return code


def night(code: str) -> dict[str, Any]:
    for e in GESTURES:
        v = ask("enter", code=code, entry=e, reader="mayor", lang="en")["view"]
    return calls(code, v)


def calls(code: str, v: dict[str, Any]) -> dict[str, Any]:
    """The calls asked answered as shown (every card a basic one), to the journals."""
    while v["stage"] == "resolution":
        q = v["question"]
        v = ask("enter", code=code, reader="mayor", lang="en", entry={
            "type": "call", "step": q["step"],
            "cards": {p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}})["view"]
    out: dict[str, Any] = v
    return out


def test_a_night_entered_saved_exported_and_imported_back() -> None:
    code = new_table()
    v = night(code)
    assert v["stage"] in ("journals", "over") and v["result"]["number"] == 1
    # every change answers the saved form, one version more
    undone = ask("undo", code=code, what="entry", lang="en")
    assert undone["record"]["version"] == v["version"] + 1
    assert undone["view"]["stage"] == "resolution"
    night_after = ask("state", code=code, lang="en")
    q = night_after["question"]
    ask("enter", code=code, reader="mayor", lang="en", entry={
        "type": "call", "step": q["step"],
        "cards": {p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}})
    # a correction to the night's story, dry first: nothing changes
    gesture = {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]}
    before = ask("state", code=code, lang="en")
    dry = ask("correct", code=code, body={"entry": gesture, "dry": True}, lang="en")["answer"]
    assert ask("state", code=code, lang="en") == before
    done = ask("correct", code=code, body={"entry": gesture}, lang="en")
    assert done["view"]["dropped"] == dry["dropped"]
    assert done["view"]["stage"] == dry["stage"]
    assert done["record"]["version"] == before["version"] + 1
    v = calls(code, done["view"])
    assert v["stage"] in ("journals", "over")
    game = ask("export", code=code, night=None)
    assert game["name"] == f"darkcity-table-{code}.json"
    assert replay_table(game["doc"]).ok
    one = ask("export", code=code, night=1)
    assert one["doc"]["format"] == "darkcity-round/1"
    back = ask("import", text=json.dumps(game["doc"]), lang="en", now=2)
    assert back["code"] != code and back["view"]["nights"] == 1


def test_a_saved_table_opens_again_and_an_older_form_is_migrated() -> None:
    code = new_table()
    saved = ask("enter", code=code, entry={"type": "drafted"}, reader="mayor",
                lang="en")["record"]
    worker.op_forget(code)
    assert refused("state", code=code, lang="en")["code"] == "no-table"
    opened = ask("open", record=saved)
    assert opened["summary"]["stage"] == "count"
    # the first saved form had no schema: the server's row (code, version, lang, doc)
    old = {"code": "OLD123", "version": 4, "lang": "pt_BR", "doc": saved["table"]}
    migrated = ask("open", record=old)["record"]
    assert migrated["schema"] == SCHEMA and migrated["table"] == saved["table"]
    assert ask("state", code="OLD123", lang="pt_BR")["stage"] == "count"
    newer = refused("open", record={**saved, "schema": SCHEMA + 1})
    assert newer["code"] == "newer-saved" and "newer version" in newer["message"]
    damaged = refused("open", record={"schema": 1, "code": "X"})
    assert damaged["message"] == ("The saved table is damaged: version: missing or of the "
                                  "wrong kind")


def test_a_damaged_or_foreign_file_is_refused_in_words() -> None:
    code = new_table()
    game = ask("export", code=code, night=None)["doc"]
    said = refused("import", text="{not json", lang="pt_BR", now=1)
    assert said["code"] == "bad-file" and said["status"] == 400
    assert "JSON" in said["message"]
    assert "(darkcity-table/1)" in refused("import", text="[]", lang="en", now=1)["message"]
    round_doc = {"format": "darkcity-round/1"}
    assert refused("import", text=json.dumps(round_doc), lang="en",
                   now=1)["code"] == "a-round"
    broken = {**game, "entries": [{"type": "counted"}]}
    said = refused("import", text=json.dumps(broken), lang="en", now=1)
    assert said["message"].startswith("This game's file is damaged: ")
    assert "entries[0]" in said["message"]


def test_a_refusal_is_in_the_readers_language_and_never_a_trace() -> None:
    code = new_table()
    said = refused("enter", code=code, entry={"type": "counted"}, reader="mayor",
                   lang="pt_BR")
    assert said["status"] == 400 and said["message"]
    assert refused("no-such-op")["code"] == "bad-op"
    phone = refused("enter", code=code, entry={"type": "drafted"}, reader="Ana", lang="en")
    assert phone == {"status": 403, "code": "not-mayor",
                     "message": "Only the Mayor enters that."}


def test_each_kind_of_file_is_said_where_it_opens_and_one_size_limit() -> None:
    """A played game's record brought to the companion, a companion's table or a night
    brought to the record viewer: each is refused saying where it opens; a file over the
    server's limit for a record (1 MiB) is refused with the limit in words, on both."""
    from darkcity.pocket import play
    from darkcity.server.config import ServerConfig

    assert ServerConfig().max_record_bytes == worker.MAX_RECORD_BYTES  # one limit
    said = refused("import", text=json.dumps({"format": "darkcity-game/1"}), lang="en", now=1)
    assert said["code"] == "a-game-record" and "Open a game record" in said["message"]
    big = json.dumps({"format": "darkcity-table/1", "pad": "x" * 1_100_000})
    said = refused("import", text=big, lang="pt_BR", now=1)
    assert said["code"] == "too-big" and "1 MB" in said["message"]

    def review(record: object) -> dict[str, Any]:
        got = json.loads(play.call("review", json.dumps({"record": record, "night": 1})))
        assert "error" in got, got
        return dict(got["error"])

    assert "companion" in review({"format": "darkcity-table/1"})["message"]
    assert review({"format": "darkcity-round/1"})["code"] == "a-round"
    assert review({"format": "darkcity-game/1", "pad": "x" * 1_100_000})["code"] == "too-big"


def test_the_phones_compile_of_its_python_is_bytecode_that_imports(tmp_path: Any) -> None:
    """``compile_all`` (run once on the phone, kept in its cache): the standard library
    zip with every module as unchecked hash-based bytecode, importable from the zip
    with no source; darkcity's modules' ``__pycache__`` files where Python looks."""
    import io
    import subprocess
    import sys
    import zipfile

    std = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(std, "w") as z:
        z.writestr("tinymod.py", "VALUE = 6 * 7\n")
        z.writestr("tinypkg/__init__.py", "from .part import X\n")
        z.writestr("tinypkg/part.py", "X = 'x'\n")
        z.writestr("tinypkg/data.txt", "kept as it is")
    site = tmp_path / "site"
    (site / "darkcity" / "room").mkdir(parents=True)
    (site / "darkcity" / "__init__.py").write_text("")
    (site / "darkcity" / "room" / "names.py").write_text("N = 1\n")
    stdlib, pycache = worker.compile_all(str(std), str(site))
    names = zipfile.ZipFile(io.BytesIO(stdlib)).namelist()
    assert sorted(names) == ["tinymod.pyc", "tinypkg/__init__.pyc", "tinypkg/data.txt",
                             "tinypkg/part.pyc"]
    (tmp_path / "compiled.zip").write_bytes(stdlib)
    tag = sys.implementation.cache_tag
    assert sorted(zipfile.ZipFile(io.BytesIO(pycache)).namelist()) == [
        f"darkcity/__pycache__/__init__.{tag}.pyc",
        f"darkcity/room/__pycache__/names.{tag}.pyc"]
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import tinymod, tinypkg; "
            "print(tinymod.VALUE, tinypkg.X, tinymod.__file__.endswith('.pyc'))")
    out = subprocess.run([sys.executable, "-I", "-c", code, str(tmp_path / "compiled.zip")],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["42", "x", "True"]
