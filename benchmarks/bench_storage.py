"""A decision stored, on the event loop's thread (issue #33: the ack's p50).

Every accepted decision is one transaction (the decision's row, the room's next
deadline) committed before its ack: ``Storage.append_decision``. On SQLite it goes
through the driver's own connection; this times that path against the same
transaction through SQLAlchemy Core (the path PostgreSQL takes), alternating blocks of
decisions on one file database in WAL mode, and prints the medians of the blocks' CPU
and wall time per decision.

    python3 benchmarks/bench_storage.py                 # 10 blocks of 2,000 each way
    python3 benchmarks/bench_storage.py --blocks 20 --decisions 5000

Timing only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from darkcity.server.storage.rooms import Storage

DOC = {"type": "gesture", "player": "Ana", "gesture": "vampire", "target": "Bia",
       "night": 3, "at": 12}


def block(s: Storage, *, driver: bool, start: int, n: int) -> tuple[float, float]:
    """CPU and wall seconds per decision over ``n`` decisions from seq ``start``."""
    s._sqlite = driver  # the driver's path, or SQLAlchemy Core's
    c0, w0 = time.process_time(), time.perf_counter()
    for seq in range(start, start + n):
        s.append_decision("BENCHX", seq, DOC, "player", deadline=(time.time() + 30, seq))
    return (time.process_time() - c0) / n, (time.perf_counter() - w0) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=10)
    ap.add_argument("--decisions", type=int, default=2000, help="per block")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        s = Storage(f"sqlite:///{Path(d) / 'rooms.sqlite3'}")
        s.create_room("BENCHX", {}, {})
        got: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        seq = 0
        block(s, driver=True, start=seq, n=a.decisions)  # warm both paths up
        seq += a.decisions
        block(s, driver=False, start=seq, n=a.decisions)
        seq += a.decisions
        for _ in range(a.blocks):
            for driver in (True, False):
                got[driver].append(block(s, driver=driver, start=seq, n=a.decisions))
                seq += a.decisions
            s.checkpoint()  # as the server does, off the loop: the log stays short
        s.close()
    for driver, label in ((True, "the driver's connection"), (False, "SQLAlchemy Core")):
        cpu = statistics.median(x[0] for x in got[driver]) * 1e6
        wall = statistics.median(x[1] for x in got[driver]) * 1e6
        print(f"{label:>24}: {cpu:5.1f} us CPU, {wall:5.1f} us wall a decision "
              f"(median of {a.blocks} blocks of {a.decisions})")


if __name__ == "__main__":
    main()
