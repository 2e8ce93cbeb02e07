"""The package's layering (``.importlinter``) holds, and has no import circle.

The engine (the package's root modules) imports no face; the command line sits over
the faces (server, terminal, simulator, environments, pocket app), which import none
of each other, over what they share (the companion's state machine, the bots). The
contract is import-linter's; the circles are looked for in grimp's graph of the same
imports (import-linter's own), leaving out imports made for type checking only.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

pytest.importorskip("importlinter", reason="import-linter (pip install -e '.[test]')")

PACKAGE = ROOT / "src" / "darkcity"
CONTRACT = ROOT / ".importlinter"


def _lint(cwd: Path, src: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
         " sys.exit(lint_imports_command())"],
        cwd=cwd, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})


def _contract() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(CONTRACT, encoding="utf-8")
    return config


def test_the_contracts_are_kept() -> None:
    run = _lint(ROOT, ROOT / "src")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_every_module_has_its_place_in_the_contract() -> None:
    """A new engine module or face is named in ``.importlinter``, or nothing checks it."""
    config = _contract()
    engine = set(config["importlinter:contract:engine"]["source_modules"].split())
    layers = config["importlinter:contract:faces"]["layers"]
    faces = {name.strip("() ") for line in layers.splitlines() for name in line.split("|")}
    faces.discard("")
    for path in sorted(PACKAGE.iterdir()):
        if path.name.startswith(("_", ".")) or path.name in ("locale", "examples", "py.typed"):
            continue
        if path.suffix in (".so", ".pyd", ".c", ".h") or path.name.endswith(".pyi"):
            continue
        module = f"darkcity.{path.stem}"
        if path.is_dir():
            if not (path / "__init__.py").exists():
                continue
            assert module in faces, f"{module} (a package) is in no layer of .importlinter"
        elif path.suffix == ".py":
            assert module in engine or module in faces, (
                f"{module} is neither an engine module nor a face in .importlinter")


def test_a_face_imported_by_the_engine_breaks_the_contract(tmp_path: Path) -> None:
    """The check fails when someone breaks the layering (here: the engine importing the
    server, and the companion importing the server)."""
    copy = tmp_path / "src" / "darkcity"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so",
                                                                 "locale", "static"))
    shutil.copy(CONTRACT, tmp_path / ".importlinter")
    night = copy / "night.py"
    night.write_text(night.read_text(encoding="utf-8") + "\nimport darkcity.server  # noqa\n",
                     encoding="utf-8")
    companion = copy / "companion" / "__init__.py"
    companion.write_text(companion.read_text(encoding="utf-8")
                         + "\nimport darkcity.server.share  # noqa\n", encoding="utf-8")
    run = _lint(tmp_path, tmp_path / "src")
    assert run.returncode != 0
    # both are named (the contracts inside the split packages break too: through the
    # engine's import of the server, every module of the package reaches every other)
    assert "darkcity.night -> darkcity.server" in run.stdout, run.stdout[-3000:]
    assert "darkcity.companion -> darkcity.server.share" in run.stdout, run.stdout[-3000:]


def test_no_import_circle() -> None:
    """No module imports, directly or through others, a module that imports it back
    (imports under ``if TYPE_CHECKING:`` do not run, and are left out)."""
    import grimp

    graph = grimp.build_graph("darkcity", exclude_type_checking_imports=True, cache_dir=None)
    circles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported == importer or imported.startswith(importer + "."):
                continue  # a package importing its own modules is no circle
            chain = graph.find_shortest_chain(importer=imported, imported=importer)
            if chain is not None:
                circles.append(" -> ".join((importer, *chain)))
    assert not circles, "import circles:\n" + "\n".join(circles[:20])
