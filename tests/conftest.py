"""Shared fixtures: where the adjudicated scenarios live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(os.environ.get("DARKCITY_SCENARIOS", ROOT.parent / "shared" / "scenarios"))


@pytest.fixture
def scenarios_dir() -> Path:
    if not SCENARIOS.is_dir():
        pytest.skip(f"no scenarios folder at {SCENARIOS}")
    return SCENARIOS


BROWSER_DIR = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under ``tests/browser/`` carries the ``browser`` marker (the tiers)."""
    for item in items:
        if BROWSER_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)
