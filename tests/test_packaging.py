"""What a regular install ships: every data file of the package is named by
``[tool.setuptools.package-data]``.

The README's first command is a regular (not editable) install, so a web module, a
catalog or a bot's parameters left out of package-data would break ``darkcity serve``
for a newcomer while every editable test run passes. setuptools expands each pattern
as a glob relative to the package folder, as ``Path.glob`` does here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "darkcity"
GENERATED = {".pyc", ".so", ".pot"}


def _data_files() -> set[Path]:
    return {f for f in PACKAGE.rglob("*")
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in GENERATED
            and f.suffix != ".py" and not f.name.startswith(".")}


def test_every_data_file_is_shipped() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["darkcity"]
    shipped = {f for pattern in patterns for f in PACKAGE.glob(pattern) if f.is_file()}
    missing = sorted(str(f.relative_to(PACKAGE)) for f in _data_files() - shipped)
    assert not missing, f"left out of a regular install (pyproject package-data): {missing}"
