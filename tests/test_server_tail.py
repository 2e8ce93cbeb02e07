"""The server's latency tail (issue #33): what keeps long pauses off its event loop."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from darkcity.server import ServerConfig, create_app
from darkcity.server.app import GC_THRESHOLDS


def test_the_collector_is_set_for_short_pauses_once_started(tmp_path: Path) -> None:
    """Start-up objects are frozen, young collections are small, and the middle
    generation is collected with every other young one (a threshold of 20 let it pile
    up to 320,000 live objects: one collection held the loop for 200 ms;
    benchmarks/README.md, issue #33)."""
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        with TestClient(create_app(cfg)) as c:
            assert c.get("/api/meta").status_code == 200
            assert gc.get_threshold() == GC_THRESHOLDS
            young, middle, full = GC_THRESHOLDS
            assert 5000 <= young <= 20000 and middle <= 1 and full >= 1000
            assert gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
        if not frozen:
            gc.unfreeze()
