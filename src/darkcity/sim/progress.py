"""Progress of a long run as plain lines, for a log or a pipe (no terminal).

A terminal gets a live bar (Rich) from the commands; anything else gets one
line every ``every`` percent, flushed at once, so a piped or logged run shows
where it is::

    games 120/600 (20%), 41 games/s, 12 s left
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["PlainProgress"]


class PlainProgress:
    """Call with the number of games just done; writes a line at each step.

    ``line(done, total, games_per_second, seconds_left)`` words it (the
    commands pass a translated one)."""

    def __init__(self, total: int, stream: TextIO, *,
                 line: Callable[[int, int, float, float], str] | None = None,
                 every: float = 0.1, clock: Callable[[], float] = time.perf_counter) -> None:
        self.total = max(1, total)
        self.stream = stream
        self.line = line or _english
        self.step = max(1, int(self.total * every))
        self.clock = clock
        self.started = clock()
        self.done = 0
        self._next = self.step

    def __call__(self, k: int) -> None:
        self.done += k
        if self.done < self._next and self.done < self.total:
            return
        while self._next <= self.done:
            self._next += self.step
        elapsed = max(1e-9, self.clock() - self.started)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        self.stream.write(self.line(self.done, self.total, rate, left) + "\n")
        self.stream.flush()


def _english(done: int, total: int, rate: float, left: float) -> str:
    return (f"games {done}/{total} ({100 * done / total:.0f}%), {rate:.1f} games/s, "
            f"{left:.0f} s left")
