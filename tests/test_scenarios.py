"""Every adjudicated night of ``../shared/scenarios`` (when present) passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from darkcity import adjudicate

from .conftest import SCENARIOS

FILES = sorted(SCENARIOS.glob("*.json")) if SCENARIOS.is_dir() else []


def _check(doc: dict[str, Any]) -> None:
    expect = doc["expect"]
    got = adjudicate(doc)
    for player, want in expect["players"].items():
        have = got["players"][player]
        assert (have["fate"], sorted(have["marks"]), have["xp"]) == (
            want["fate"], sorted(want.get("marks", [])), want["xp"]
        ), player
    if "winners" in expect:
        assert sorted(got["winners"]) == sorted(expect["winners"])


@pytest.mark.skipif(not FILES, reason="no ../shared/scenarios here")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    _check(json.loads(path.read_text(encoding="utf-8")))
