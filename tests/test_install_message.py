"""The install says it is compiling before the minute mypyc takes (issue 31): a build
that printed nothing for a minute looked stuck."""

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
    monkeypatch.delenv("DARKCITY_COMPILE", raising=False)
    assert setup._extensions() == []
    assert said and "compiling" in said[0] and "about a minute" in said[0], said
    assert "DARKCITY_COMPILE=0" in said[0]
