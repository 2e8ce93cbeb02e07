"""What travels between processes: ASGI's shapes, the frames, a scope and a body.

A frame is a kind, an id (a socket's, or a request's) and a payload; several frames to
one process go in one Redis message (:func:`pack`, :func:`unpack`). A request's scope
crosses as JSON (:func:`scope_out`, :func:`scope_in`), a JSON head and a raw body as one
payload (:func:`two`, :func:`split`); :func:`room_code` says which room a request is
about, :func:`is_hello` whether a client's frame is its ``hello``.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import Any, Final

import orjson

from darkcity.server.manager import CODE_ALPHABET, CODE_LENGTH

__all__ = [
    "HTTP",
    "IN_BYTES",
    "IN_END",
    "IN_TEXT",
    "MOVED",
    "OPEN",
    "OUT_BYTES",
    "OUT_CLOSE",
    "OUT_TEXT",
    "REPLY",
    "ASGIApp",
    "Message",
    "Receive",
    "Scope",
    "Send",
    "is_hello",
    "pack",
    "room_code",
    "scope_in",
    "scope_out",
    "split",
    "two",
    "unpack",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Frames between processes: kind, an id (a socket's, or a request's), a payload.
OPEN: Final = 1  # edge -> owner: a socket opens (payload: its scope, orjson)
IN_TEXT: Final = 2  # edge -> owner: a client's text frame
IN_BYTES: Final = 3
IN_END: Final = 4  # edge -> owner: the client left
OUT_TEXT: Final = 5  # owner -> edge: a frame for the client
OUT_BYTES: Final = 6
OUT_CLOSE: Final = 7  # owner -> edge: close the socket (payload: code, reason)
MOVED: Final = 8  # owner -> edge: the room is not (or no longer) here: look again
HTTP: Final = 9  # edge -> owner: one request (payload: scope and body)
REPLY: Final = 10  # owner -> edge: its response (payload: status, headers, body)
_HEAD: Final = struct.Struct("!BHI")
_LEN: Final = struct.Struct("!I")

_ROOM_PATH: Final = re.compile(r"^/(?:api/rooms|ws|r)/([A-Za-z0-9]{6})(?:/|$)")
_SCOPE_KEYS: Final = ("type", "asgi", "http_version", "scheme", "path", "raw_path",
                      "root_path", "query_string", "server", "client", "method",
                      "subprotocols")


def pack(frames: list[tuple[int, bytes, bytes]]) -> bytes:
    """Frames as one message: ``kind, len(id), len(payload)``, then the id and payload."""
    parts: list[bytes] = []
    for kind, fid, payload in frames:
        parts += (_HEAD.pack(kind, len(fid), len(payload)), fid, payload)
    return b"".join(parts)


def unpack(data: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """The frames of :func:`pack`, in order (``ValueError`` on a message cut short)."""
    i, end = 0, len(data)
    while i < end:
        if end - i < _HEAD.size:
            raise ValueError("a frame header is cut short")
        kind, n, m = _HEAD.unpack_from(data, i)
        i += _HEAD.size
        if end - i < n + m:
            raise ValueError("a frame is cut short")
        yield kind, data[i:i + n], data[i + n:i + n + m]
        i += n + m


def two(head: Any, body: bytes) -> bytes:
    """A JSON head and a raw body in one payload."""
    encoded = orjson.dumps(head)
    return _LEN.pack(len(encoded)) + encoded + body


def split(payload: bytes) -> tuple[Any, bytes]:
    (n,) = _LEN.unpack_from(payload)
    return orjson.loads(payload[_LEN.size:_LEN.size + n]), payload[_LEN.size + n:]


def room_code(path: str) -> str | None:
    """The room a request is about (``/ws/{code}``, ``/api/rooms/{code}/...``, the page
    ``/r/{code}``, whose link preview names the room), if any."""
    found = _ROOM_PATH.match(path)
    if found is None:
        return None
    code = found.group(1).upper()
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) \
        else None


def scope_out(scope: Scope) -> dict[str, Any]:
    out = {k: scope[k] for k in _SCOPE_KEYS if k in scope}
    for k in ("raw_path", "query_string"):
        if isinstance(out.get(k), bytes):
            out[k] = out[k].decode("latin-1")
    out["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]]
    return out


def scope_in(d: dict[str, Any]) -> Scope:
    scope: Scope = dict(d)
    for k in ("raw_path", "query_string"):
        if isinstance(scope.get(k), str):
            scope[k] = scope[k].encode("latin-1")
    scope["headers"] = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in d["headers"]]
    for k in ("client", "server"):
        if isinstance(scope.get(k), list):
            scope[k] = tuple(scope[k])
    scope["state"] = {}
    return scope


def is_hello(event: Message) -> bool:
    text = event.get("text")
    if text is None:
        return False
    try:
        m = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(m, dict) and m.get("type") == "hello"

