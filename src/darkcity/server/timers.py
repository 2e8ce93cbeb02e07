"""A room's timers on the server's asyncio loop (:class:`~darkcity.room.ports.
Scheduler`): the reveal at its instant, the broadcasts' windows."""

from __future__ import annotations

import asyncio

from darkcity.room.ports import Timers

__all__ = ["LoopScheduler"]


class LoopScheduler:
    """The running event loop's timers; none outside a loop (a test driving a room by
    hand, which then broadcasts at once and reveals at its tick)."""

    __slots__ = ()

    def timers(self) -> Timers | None:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None
