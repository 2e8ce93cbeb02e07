"""The server's limits against hostile clients, in one place (issue #13).

Everything a client can make the server hold (sockets, rooms, messages) or
compute is bounded here; the numbers are :class:`~darkcity.server.config.
ServerConfig` fields (``DARKCITY_*`` variables, ``darkcity serve`` options) and
``docs/server.md`` ("Limits and abuse") lists each with what a client sees.

- :class:`TokenBucket` and :class:`PerAddress`: rates (messages of one socket,
  rooms created and people joined by one client address);
- :class:`Sockets`: open sockets per client address, and spectators per room
  and per address in a room (a seat token always gets in);
- :func:`clean_name` and :func:`name_key`: display names normalized (NFKC),
  refused when they draw nothing, and compared by a confusable-safe key (the
  Unicode confusables table, as ``confusable-homoglyphs`` ships it).
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Final

from darkcity.i18n import Message, msg

__all__ = [
    "BadName",
    "MaskingFormatter",
    "PerAddress",
    "Sockets",
    "TokenBucket",
    "clean_name",
    "draws_nothing",
    "mask_credentials_in_logs",
    "name_key",
    "safe_url",
]

NAME_MAX: Final = 24
#: Combining marks allowed on one base character (Vietnamese needs two; "Zalgo" 20+).
MARKS_PER_CHARACTER: Final = 2


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


# -- names -----------------------------------------------------------------------------


class BadName(ValueError):
    """A display name refused: :attr:`message` says why, in the reader's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.msgid)
        self.message = message


#: Characters that draw nothing though Unicode does not call them spaces: the default-
#: ignorable letters and marks (Hangul fillers, Khmer inherent vowels, the combining
#: grapheme joiner), the Braille blank, zero-width and invisible format characters, and
#: the musical symbols that only format (null note head, beams, ties, slurs, phrases).
_BLANK: Final = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f\u061c\u2061\u2062\u2063\u2064"
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179"
    "\U0001d17a\u200b\u200c\u200d\u2060\ufeff\u00ad")
_VARIATION: Final = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_SPACES: Final = re.compile(r"\s+")


def _visible(ch: str) -> bool:
    return ch not in _BLANK and unicodedata.category(ch)[0] in "LNPS"


def draws_nothing(name: str) -> bool:
    """Whether ``name`` would look blank on a page: no letter, digit, punctuation or
    symbol that has a glyph (spaces, marks, fillers and format characters only)."""
    return not any(_visible(ch) for ch in unicodedata.normalize("NFKC", name))


def clean_name(raw: str, max_length: int = NAME_MAX) -> str:
    """A display name as it will be shown: NFKC-normalized (fullwidth and compatibility
    forms become plain letters), spaces collapsed, 1..``max_length`` characters.

    Raises :class:`BadName` for a name that draws nothing, that holds control, format
    or line-separator characters, or that stacks more than two combining marks on a
    character.
    """
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    if not 1 <= len(name) <= max_length:
        raise BadName(msg("A name has 1 to {n} characters.", n=max_length))
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp") or \
                (ch in _BLANK and category[0] != "M"):
            raise BadName(msg("A name cannot hold control or invisible characters."))
        marks = marks + 1 if category[0] == "M" and not _VARIATION.match(ch) else 0
        if marks > MARKS_PER_CHARACTER:
            raise BadName(msg("A name cannot stack more than two accents on a letter."))
    if draws_nothing(name):
        raise BadName(msg("A name needs at least one visible letter, digit or symbol."))
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to one representative of its look-alike group
    (the lowest code point): the Unicode confusables data (UTS #39) of
    ``confusable-homoglyphs``, single characters only, groups closed transitively."""
    data = json.loads(resources.files("confusable_homoglyphs")
                      .joinpath("confusables.json").read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    for char, homoglyphs in data.items():
        if len(char) != 1:
            continue
        for h in homoglyphs:
            other = h["c"]
            if len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: root for ch in parent if (root := find(ch)) != ch}


def _skeleton(text: str) -> str:
    table = _prototypes()
    return "".join(table.get(ch, ch) for ch in text)


def name_key(name: str) -> str:
    """The key two names of one room are compared by: equal keys look alike.

    NFKC, variation selectors and invisible characters dropped, spaces collapsed,
    then every character replaced by its look-alike group's representative and the
    case folded (``Ana``, ``Аna`` in Cyrillic, ``Ａｎａ`` and ``ANA`` share a key;
    so do ``Il`` and ``ll``).
    """
    text = _VARIATION.sub("", unicodedata.normalize("NFKC", name))
    text = "".join(ch for ch in text if ch not in _BLANK)
    text = _SPACES.sub(" ", text).strip()
    return _skeleton(_skeleton(text).casefold())


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
