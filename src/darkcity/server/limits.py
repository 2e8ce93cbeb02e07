"""The server's limits against hostile clients, in one place (issue #13).

Everything a client can make the server hold (sockets, rooms, messages) or
compute is bounded here; the numbers are :class:`~darkcity.server.config.
ServerConfig` fields (``DARKCITY_*`` variables, ``darkcity serve`` options) and
``docs/server.md`` ("Limits and abuse") lists each with what a client sees.

- :class:`TokenBucket` and :class:`PerAddress`: rates (messages of one socket,
  rooms created and people joined by one client address);
- :class:`Sockets`: open sockets per client address, and spectators per room
  and per address in a room (a seat token always gets in);
- :func:`clean_name` and :func:`name_key` (:mod:`darkcity.room.names`, re-exported
  here): display names normalized (NFKC), refused when they draw nothing, and
  compared by a confusable-safe key (the Unicode confusables table).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from darkcity.i18n import Message, msg
from darkcity.room.names import NAME_MAX, BadName, clean_name, draws_nothing, name_key

__all__ = [
    "NAME_MAX",
    "BadName",
    "MaskingFormatter",
    "PerAddress",
    "Probes",
    "Sockets",
    "TokenBucket",
    "clean_name",
    "draws_nothing",
    "mask_credentials_in_logs",
    "name_key",
    "safe_url",
]



# -- rates -----------------------------------------------------------------------------


@dataclass(slots=True)
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; a request takes one."""

    rate: float
    burst: float
    tokens: float = -1.0  # -1: full at the first look
    stamp: float = 0.0

    def _refill(self, now: float) -> None:
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
            return
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        self._refill(now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait_s(self, now: float) -> float:
        """Seconds until the next token."""
        self._refill(now)
        return 0.0 if self.tokens >= 1 or self.rate <= 0 else (1 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


@dataclass(slots=True)
class PerAddress:
    """A :class:`TokenBucket` per client address, bounded in memory: a bucket that has
    refilled is forgotten (it would say the same as a new one). ``rate <= 0``: no limit."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    _swept: float = 0.0

    def take(self, address: str) -> bool:
        if self.rate <= 0:
            return True
        now = self.clock()
        if now - self._swept > 60 or len(self.buckets) > 100_000:
            self._swept = now
            self.buckets = {a: b for a, b in self.buckets.items() if not b.full(now)}
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.rate, float(self.burst))
        return bucket.take(now)

    def wait_s(self, address: str) -> float:
        bucket = self.buckets.get(address)
        return 0.0 if bucket is None else bucket.wait_s(self.clock())


@dataclass(slots=True)
class Probes:
    """Room (or table) codes asked for and not found, per address: a person mistypes a
    code now and then; one who tries them in a loop (170 a second, in the audit) is made
    to wait: past ``burst`` misses, then ``rate`` a second, every lookup of a code from
    that address is refused (429) until the allowance comes back."""

    misses: PerAddress

    @classmethod
    def per_minute(cls, per_min: float, burst: int) -> Probes:
        return cls(PerAddress(per_min / 60, max(1, burst)))

    def allowed(self, address: str) -> bool:
        return self.misses.wait_s(address) <= 0

    def missed(self, address: str) -> None:
        self.misses.take(address)

    def wait_s(self, address: str) -> float:
        return self.misses.wait_s(address)


# -- sockets ---------------------------------------------------------------------------


@dataclass(slots=True)
class Sockets:
    """Open WebSocket connections per client address (every kind, greeted or not), and
    the spectators (no seat token) per room and per address within a room.

    A member (a valid seat token) is never counted as a spectator, so a room's
    spectators can never keep its players out. ``0`` turns a limit off.
    """

    per_address: int
    spectators_per_room: int
    spectators_per_address: int
    open: dict[str, int] = field(default_factory=dict)
    watching: dict[str, dict[str, int]] = field(default_factory=dict)  # room -> address -> n

    def opened(self, address: str) -> bool:
        """Count one more socket of ``address``; False (nothing counted) when it has too many."""
        n = self.open.get(address, 0)
        if self.per_address and n >= self.per_address:
            return False
        self.open[address] = n + 1
        return True

    def closed(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def watch(self, room: str, address: str) -> Message | None:
        """Count one more spectator; the refusal's message when the share is used up."""
        by_address = self.watching.setdefault(room, {})
        if self.spectators_per_room and sum(by_address.values()) >= self.spectators_per_room:
            return msg("This room has as many spectators as it can take; try again later.")
        if self.spectators_per_address and \
                by_address.get(address, 0) >= self.spectators_per_address:
            return msg("You are already watching this room from too many windows.")
        by_address[address] = by_address.get(address, 0) + 1
        return None

    def unwatch(self, room: str, address: str) -> None:
        by_address = self.watching.get(room)
        if by_address is None:
            return
        n = by_address.get(address, 0) - 1
        if n > 0:
            by_address[address] = n
        else:
            by_address.pop(address, None)
        if not by_address:
            del self.watching[room]


# -- logs ------------------------------------------------------------------------------

_CREDENTIALS: Final = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<user>[^/@:\s]*)"
                                 r":[^/@\s]*@")


def safe_url(text: str) -> str:
    """``text`` with the password of every URL in it masked (``postgresql://u:***@h/db``)."""
    return _CREDENTIALS.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text)


class MaskingFormatter(logging.Formatter):
    """Wraps a handler's formatter: every line it writes has its URLs' passwords masked
    (tracebacks included)."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return safe_url(self.inner.format(record))


def mask_credentials_in_logs() -> None:
    """Every handler of the process (the root's, uvicorn's) masks credentials from now on."""
    loggers = [logging.getLogger(), *(logging.getLogger(n) for n in
                                      list(logging.root.manager.loggerDict))]
    for logger in loggers:
        for handler in getattr(logger, "handlers", ()):
            if not isinstance(handler.formatter, MaskingFormatter):
                handler.setFormatter(MaskingFormatter(handler.formatter))
