"""The command line: ``python -m darkcity adjudicate FILE|-`` (issue #2, "Clear errors").

Refusals: exit 2, nothing on stdout, exactly one line on stderr naming the field
and the player (and the line number in JSON Lines mode), never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from darkcity import adjudicate

from .helpers import rnd

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "darkcity", "adjudicate", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60,
                          encoding="utf-8")


def night(i: int = 0) -> dict[str, Any]:
    """A small valid night; ``i`` varies who withdraws."""
    w = {"Ana": True} if i % 3 == 1 else ({"Caio": True} if i % 3 == 2 else {})
    return rnd({"Ana": "vampire", "Bia": "werewolf", "Caio": "priest", "Duda": "zombie"},
               {"Ana": "Bia", "Bia": "Caio", "Duda": "Caio"}, withdrawals=w)


def assert_refused(p: subprocess.CompletedProcess[str], *words: str) -> str:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def _bad(mutate: str) -> dict[str, Any]:
    doc = night()
    if mutate == "unknown-role":
        doc["cards"]["Caio"]["role"] = "wizard"
    elif mutate == "targets":
        doc["gestures"]["Ana"]["targets"] = ["Bia", "Caio"]
    elif mutate == "zombie-across":
        doc["gestures"]["Duda"]["targets"] = ["Bia"]
    elif mutate == "three-vampires":
        doc["cards"]["Bia"]["role"] = "vampire"
        doc["cards"]["Caio"]["role"] = "vampire"
        doc["gestures"]["Caio"] = {"targets": ["Ana"]}
    elif mutate == "special-at-five":
        doc["players"].append("Enzo")
        doc["cards"]["Enzo"] = {"role": "reporter"}
        doc["gestures"]["Enzo"] = {"targets": ["Ana", "Bia"]}
    elif mutate == "missing-field":
        del doc["cards"]
    elif mutate == "creature-target-withdraws":
        doc = rnd({"Ana": "creature/f", "Bia": "vampire/m", "Caio": "priest", "Duda": "priest",
                   "Enzo": "mummy", "Fred": "demoniac"},
                  {"Ana": {"targets": ["Bia"], "seeks": "masculine"}, "Bia": "Enzo"},
                  withdrawals={"Bia": True})
    return doc


REFUSALS = [
    ("unknown-role", ("cards.Caio.role", "wizard")),
    ("targets", ("gestures.Ana.targets",)),
    ("zombie-across", ("gestures.Duda.targets",)),
    ("creature-target-withdraws", ("withdrawals.Bia", "Bia")),
    ("three-vampires", ("cards.Caio.role", "Caio")),
    ("special-at-five", ("cards.Enzo.role", "Enzo")),
    ("missing-field", ("cards",)),
]


@pytest.mark.parametrize(("mutate", "words"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusal_is_one_line_exit_2(tmp_path: Path, mutate: str, words: tuple[str, ...]) -> None:
    """Issue #2 "Clear errors"; spec: "refused with a message that names the field and the
    player concerned (exit 2, nothing on stdout)"."""
    f = tmp_path / "round.json"
    f.write_text(json.dumps(_bad(mutate)), encoding="utf-8")
    assert_refused(run(str(f)), *words)


def test_bad_json_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "round.json"
    f.write_text('{"players": ["Ana", }', encoding="utf-8")
    line = assert_refused(run(str(f)))
    assert "JSON" in line


def test_empty_input_is_refused() -> None:
    assert_refused(run("-", stdin=""))


def test_missing_file_is_refused(tmp_path: Path) -> None:
    assert_refused(run(str(tmp_path / "nope.json")), "nope.json")


def test_document_that_is_not_an_object_is_refused() -> None:
    assert_refused(run("-", stdin="[1, 2, 3]"))


def test_single_document_prints_the_result(tmp_path: Path) -> None:
    f = tmp_path / "round.json"
    doc = night()
    f.write_text(json.dumps(doc), encoding="utf-8")
    p = run(str(f))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == adjudicate(doc)


def test_stdin_dash_works() -> None:
    doc = night()
    p = run("-", stdin=json.dumps(doc, indent=2))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == adjudicate(doc)


def test_json_lines_one_result_per_line_in_order() -> None:
    """Bulk mode: one compact result line per input line, in order."""
    docs = [night(i) for i in range(7)]
    p = run("-", stdin="\n".join(json.dumps(d) for d in docs) + "\n")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == len(docs)
    for line, doc in zip(lines, docs, strict=True):
        assert json.loads(line) == adjudicate(doc)


def test_json_lines_error_names_the_line_number() -> None:
    """Issue #2: "In JSON Lines mode the line number is named too"."""
    docs = [json.dumps(night(i)) for i in range(4)]
    docs[2] = json.dumps(_bad("zombie-across"))
    p = run("-", stdin="\n".join(docs) + "\n")
    assert_refused(p, "line 3", "gestures.Duda.targets")


def test_json_lines_bad_json_names_the_line_number() -> None:
    docs = [json.dumps(night(i)) for i in range(3)]
    docs[1] = docs[1][:-5]
    p = run("-", stdin="\n".join(docs) + "\n")
    assert_refused(p, "line 2")


def test_json_lines_skips_blank_lines_but_counts_them() -> None:
    text = json.dumps(night(0)) + "\n\n" + json.dumps(_bad("unknown-role")) + "\n"
    assert_refused(run("-", stdin=text), "line 3", "cards.Caio.role")


def test_json_lines_are_split_at_newlines_only() -> None:
    """A JSON string may hold U+2028 and U+0085, which are not line breaks in JSON Lines;
    Windows line ends are fine too."""
    doc = night(0)
    renamed = json.loads(json.dumps(doc).replace("Ana", "An\u2028a\u0085"))
    text = "\r\n".join(json.dumps(d, ensure_ascii=False) for d in (renamed, night(1))) + "\r\n"
    p = run("-", stdin=text)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.split("\n")[:-1]
    assert [json.loads(x) for x in lines] == [adjudicate(renamed), adjudicate(night(1))]


def test_scenario_file_adjudicates(scenarios_dir: Path) -> None:
    f = sorted(scenarios_dir.glob("*.json"))[0]
    p = run(str(f))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == adjudicate(json.loads(f.read_text(encoding="utf-8")))


MALFORMED: list[Any] = [
    pytest.param(b'{"players": ["Ana"', id="truncated"),
    pytest.param(b"players: Ana, Bia", id="not-json"),
    pytest.param(b"\x00", id="nul-byte"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep-nesting"),
    pytest.param(b'{"players": ["\xff\xfe"]}', id="not-utf8"),
    pytest.param(b"42", id="number"),
    pytest.param(b'{"players": []}\n{"players": \n', id="lines-second-broken"),
]


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_input_is_refused_without_traceback(tmp_path: Path, data: bytes) -> None:
    """Issue #2: bad JSON is refused with one line, exit 2, nothing on stdout."""
    f = tmp_path / "round.json"
    f.write_bytes(data)
    assert_refused(run(str(f)))


def _imports_of(path: Path) -> set[str]:
    """The modules ``path`` imports (at the top or inside a function), as written."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "darkcity":  # from darkcity import cli
                found.update(f"darkcity.{a.name}" for a in node.names)
    return found


def test_the_command_modules_do_not_import_their_package_back() -> None:
    """Issue #27: ``darkcity.cli`` imports its command modules and registers them; a
    command module imports ``darkcity.cli.base`` only, so there is no import circle."""
    import darkcity.cli as cli

    package = Path(cli.__file__).parent
    modules = {m.__name__.rpartition(".")[2] for m in cli.COMMAND_MODULES}
    assert modules == {f.stem for f in package.glob("*.py")} - {"__init__", "base"}
    for name in sorted(modules):
        imported = _imports_of(package / f"{name}.py")
        assert "darkcity.cli" not in imported, name
        assert {m for m in imported if m.startswith("darkcity.cli.")} == {"darkcity.cli.base"}
    assert not {m for m in _imports_of(package / "base.py") if m.startswith("darkcity.cli")}


def test_version_is_written_once_and_printed() -> None:
    """``darkcity --version`` prints the package's one version, which pyproject.toml
    reads (``dynamic``) rather than repeats."""
    import tomllib

    from darkcity import __version__

    out = subprocess.run([sys.executable, "-m", "darkcity", "--version"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == f"darkcity {__version__}\n"
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]


def test_every_faces_first_page_is_told_the_version(tmp_path: Path) -> None:
    """The pages' footers read the one version from their meta: the web table's
    (``/api/meta``, with the changelog's address from ``[project.urls]``), the
    companion's (``/api/table/meta``, also the pocket app's ``meta/*.json``) and the
    pocket app's game on a phone (``meta/play.json``)."""
    import json

    from fastapi.testclient import TestClient

    from darkcity import __version__
    from darkcity.companion.setup import meta
    from darkcity.pocket.build import _play_meta
    from darkcity.server import ServerConfig, create_app

    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'v.sqlite3'}", bot_workers=0)
    with TestClient(create_app(cfg)) as c:
        web = c.get("/api/meta").json()
        table = c.get("/api/table/meta").json()
    assert web["version"] == table["version"] == __version__
    assert web["changelog"].endswith("/CHANGELOG.md")
    assert meta("pt_BR")["version"] == json.loads(_play_meta())["version"] == __version__
    assert f"## [{__version__}]" in (Path(__file__).parent.parent / "CHANGELOG.md").read_text()
