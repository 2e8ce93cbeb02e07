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
