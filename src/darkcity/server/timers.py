"""A room's timers on the server's asyncio loop (:class:`~darkcity.room.ports.
Scheduler`): the reveal at its instant, the broadcasts' windows.

The loop's own timers keep whole milliseconds (uvloop's, libuv's: one fires up to a
millisecond early or late), which is coarser than the Mayor's "now!" should be. The
reveal's instant is kept by :class:`InstantClock`: a Linux ``timerfd`` the loop
watches wakes it a little before the instant, with no thread (``os.timerfd_create``
from Python 3.13, the C library's on 3.11 and 3.12), or the loop's own timer where
there is none; the rest is waited at the loop's turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import heapq
import itertools
import os
import sys
import time
import weakref
from collections.abc import Callable

from darkcity.room.ports import Timers

__all__ = ["InstantClock", "LoopScheduler"]


class LoopScheduler:
    """The running event loop's timers; none outside a loop (a test driving a room by
    hand, which then broadcasts at once and reveals at its tick)."""

    __slots__ = ("_instants",)

    def __init__(self) -> None:
        self._instants: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, InstantClock] \
            = weakref.WeakKeyDictionary()

    def timers(self) -> Timers | None:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def call_precisely(self, delay: float, callback: Callable[[], object]) -> None:
        """``callback`` on the running loop ``delay`` seconds from now, to a few
        microseconds where the kernel allows (else on the loop's own timer)."""
        loop = asyncio.get_running_loop()
        clock = self._instants.get(loop)
        if clock is None:
            clock = self._instants[loop] = InstantClock(loop)
        clock.call_later(delay, callback)


class InstantClock:
    """Callbacks at instants on one loop. One wake-up is armed, a little before the
    earliest instant: a ``timerfd`` the loop watches (waking a sleeping process takes
    0.1 to 0.2 ms: measured on a small VM), else the loop's own timer (whole
    milliseconds, early or late); the rest is waited at each turn of the loop, so a
    callback runs at the loop's first turn at or after its instant, never before."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop_ref = weakref.ref(loop)  # (the loop holds its clock, not the reverse)
        self._calls: list[tuple[float, int, Callable[[], object]]] = []
        self._order = itertools.count()
        self._armed: float | None = None  # when the wake-up is set for
        self._timer: asyncio.TimerHandle | None = None  # the wake-up, with no timerfd
        self._turning = False  # re-checking at each turn of the loop
        self._fd = _timerfd()
        self.lead_s = 0.0003 if self._fd is not None else 0.0015
        if self._fd is not None:
            loop.add_reader(self._fd, self._woken)
            weakref.finalize(self, _close, self._fd)

    @property
    def precise(self) -> bool:
        """Whether a timerfd wakes the loop (else the loop's millisecond timer)."""
        return self._fd is not None

    @property
    def _loop(self) -> asyncio.AbstractEventLoop:
        loop = self._loop_ref()
        if loop is None:  # (only ever called from the loop's own callbacks)
            raise RuntimeError("the event loop is gone")
        return loop

    def call_later(self, delay: float, callback: Callable[[], object]) -> None:
        when = time.monotonic() + max(0.0, delay)
        heapq.heappush(self._calls, (when, next(self._order), callback))
        if not self._turning and (self._armed is None or when < self._armed):
            self._arm(when - self.lead_s)

    def _arm(self, wake: float) -> None:
        self._armed = wake
        if self._fd is not None:
            _settime(self._fd, wake)  # (replaces the one set before)
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_later(max(0.0, wake - time.monotonic()), self._woken)

    def _woken(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(BlockingIOError, InterruptedError):
                os.read(self._fd, 8)
        self._armed = self._timer = None
        self._turn()

    def _turn(self) -> None:
        """Run what is due; wait for what is within the lead at the loop's next turn;
        arm the wake-up for the rest."""
        now = time.monotonic()
        while self._calls and self._calls[0][0] <= now:
            callback = heapq.heappop(self._calls)[2]
            try:  # at once (a handle of its own would cost a turn of the loop)
                callback()
            except Exception as e:  # one failing, alone: reported as the loop would
                self._loop.call_exception_handler({
                    "message": "an instant's callback failed", "exception": e})
        self._turning = bool(self._calls) and self._calls[0][0] - self.lead_s <= now
        if self._turning:
            self._loop.call_soon(self._turn)
        elif self._calls and self._armed is None:
            self._arm(self._calls[0][0] - self.lead_s)


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


# -- the kernel's timer ---------------------------------------------------------------

_CLOCK_MONOTONIC = 1  # (time.monotonic's clock on Linux)
_TFD_TIMER_ABSTIME = 1


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.timerfd_create.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.timerfd_settime.argtypes = [ctypes.c_int, ctypes.c_int,
                                         ctypes.POINTER(_Itimerspec), ctypes.c_void_p]
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = None if hasattr(os, "timerfd_create") else _libc()


def _timerfd() -> int | None:
    """A non-blocking timerfd on the monotonic clock, or ``None`` where there is none."""
    flags = os.O_NONBLOCK | os.O_CLOEXEC  # (TFD_NONBLOCK, TFD_CLOEXEC: the same bits)
    try:
        if hasattr(os, "timerfd_create"):  # Python 3.13+
            fd: int = os.timerfd_create(time.CLOCK_MONOTONIC, flags=flags)
            return fd
        if _LIBC is None:
            return None
        fd = _LIBC.timerfd_create(_CLOCK_MONOTONIC, flags)
        return fd if fd >= 0 else None
    except OSError:
        return None


def _settime(fd: int, when: float) -> None:
    """Arm ``fd`` once, at ``when`` on the monotonic clock (never 0: that disarms)."""
    when = max(when, 1e-9)
    if hasattr(os, "timerfd_settime"):  # Python 3.13+
        os.timerfd_settime(fd, flags=_TFD_TIMER_ABSTIME, initial=when)
        return
    assert _LIBC is not None
    sec = int(when)
    spec = _Itimerspec(_Timespec(0, 0), _Timespec(sec, max(1, int((when - sec) * 1e9))))
    if _LIBC.timerfd_settime(fd, _TFD_TIMER_ABSTIME, ctypes.byref(spec), None) != 0:
        raise OSError(ctypes.get_errno(), "timerfd_settime")
