"""The package is typed (mypy --strict) and lint-clean (ruff): checked with every test run."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    run = _run("ruff", "check", "src", "tests", "benchmarks")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.slow  # a minute and more without mypy's cache (CI); `python3 -m mypy` in the loop
def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy")
    run = _run("mypy")
    assert run.returncode == 0, run.stdout + run.stderr
