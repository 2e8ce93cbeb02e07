"""The compiled install (``DARKCITY_COMPILE=1``) says it is compiling before the minutes
mypyc takes (issue 31): a build that printed nothing that long looked stuck. A regular
install builds the pure package and asks for no compiler (issue #49: the README's first
command reaches a page in under a minute)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _setup_module() -> Any:
    spec = importlib.util.spec_from_file_location("darkcity_setup", ROOT / "setup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_compiling_build_says_so_before_mypyc_starts(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mypyc")
    setup = _setup_module()
    said: list[str] = []

    def compile_(paths: list[str]) -> list[Any]:  # (what mypyc would take a minute over)
        said.append(capsys.readouterr().err)
        return []

    monkeypatch.setattr(setup, "mypyc_extensions", compile_)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("DARKCITY_COMPILE", "1")
    assert setup._extensions() == []
    assert said and "compiling" in said[0] and "a few minutes" in said[0], said


def test_a_regular_install_builds_the_pure_package_and_needs_no_mypyc(
        monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.delenv("DARKCITY_COMPILE", raising=False)
    assert setup._extensions() == [] and not setup.compile_asked()
    monkeypatch.setenv("DARKCITY_COMPILE", "0")
    assert setup._extensions() == []
    # the compiled build's mypy is the one the tests build with (tests/test_compiled.py)
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert setup.MYPYC in config["project"]["optional-dependencies"]["test"]
    assert not any(r.startswith("mypy") for r in config["build-system"]["requires"])
