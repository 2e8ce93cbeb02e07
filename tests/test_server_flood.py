"""Issue #53: the record viewer flooded from 1, 3 and 50 loopback addresses while people
play; a seated player's ack p95 stays within 3x its quiet figure and under 100 ms, and
the server's memory comes back within tens of MB once the flood is over.

It runs ``benchmarks/bench_server_flood.py`` (bounded: 6 s phases) and reads its JSON.
The audit saw 18 -> 562 ms (1 address), 470 ms (3), 767 ms (50), and 83 -> 218 MB kept.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

#: A quiet p95 below this is read as this: on a loaded two-core machine one lost time
#: slice of the scheduler is 4 to 10 ms, whatever the server does.
FLOOR_MS = 10.0


def _run() -> dict[str, dict[str, Any]]:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_server_flood.py"), "--phase-s", "6",
         "--addresses", "1,3,50", "--settle-s", "12", "--json"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    phases = {p["phase"]: p for p in json.loads(run.stdout)}
    print(json.dumps(phases, indent=1))
    return phases


def _slow(phases: dict[str, dict[str, Any]]) -> list[tuple[str, float, float]]:
    """The floods whose ack p95 is past the bar: 3x the quiet figure (the worse of the
    quiet phases before and after the floods: both measure the machine as it is, at
    least FLOOR_MS) and 100 ms."""
    quiet = max(phases["quiet"]["ack_p95_ms"], phases["quiet after"]["ack_p95_ms"],
                FLOOR_MS)
    bound = min(100.0, 3 * quiet)
    return [(name, phases[name]["ack_p95_ms"], bound)
            for name in ("flood x1", "flood x3", "flood x50")
            if not phases[name]["ack_p95_ms"] <= bound]


def test_a_flood_of_replays_does_not_hold_the_table() -> None:
    phases = _run()
    if _slow(phases):  # a machine shared with other work: measured once more, then judged
        phases = _run()
    assert not _slow(phases), _slow(phases)
    quiet = phases["quiet"]
    assert quiet["acks"] >= 20, quiet
    for name in ("flood x1", "flood x3", "flood x50"):
        p = phases[name]
        assert p["acks"] >= 20, p  # the tables went on playing
        assert p["flood"].get("200", 0) > 0, p  # replays were served
    # (1 or 3 addresses may be served all along: each connection waits for its answer)
    refused = phases["flood x50"]["flood"]
    assert refused.get("429", 0) + refused.get("503", 0) > 0, refused  # the server's limit
    after = phases["quiet after"]
    assert after["rss_mb"] - quiet["rss_mb"] <= 40, (quiet["rss_mb"], after["rss_mb"])
