"""``POST /api/replay``, the record viewer's step, answered before the router (issue #53).

Under a flood most steps are refused, and a refusal must cost the rooms' loop next to
nothing: this pure ASGI middleware takes the route ahead of FastAPI's routing (which
matched some forty routes for each request) and answers it from prepared bytes:

1. ``429 rate-limited`` past the address's rate (``review_per_min``), ``503 busy`` past
   the whole server's (``review_total_per_min``) or when the workers' queue is full,
   each with ``Retry-After`` and ``Connection: close``, before a byte of the body is
   read (the connection lingers so that the client reads the answer, ``slow.py``);
2. ``413`` / ``415`` for a body over ``max_record_bytes`` or not JSON, as
   :class:`~darkcity.server.bodies.BodyGuard` answers every other route;
3. else the body, as it came, goes to a worker process (:class:`~darkcity.server.heavy.
   HeavyPool`: parsed, checked and replayed there) and its JSON answer is sent as it is.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from darkcity.i18n import Message, msg, translator
from darkcity.server.bodies import NOT_JSON, TOO_BIG
from darkcity.server.common import accepted_lang, refusal_body
from darkcity.server.headers import SECURITY_HEADERS
from darkcity.server.heavy import BUSY, Busy, HeavyPool, job
from darkcity.server.limits import PerAddress, TokenBucket

__all__ = ["PATH", "Replays"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PATH: Final = "/api/replay"
RATE: Final = msg("Too many requests from your address: try again in a minute.")
_JSON: Final = (b"content-type", b"application/json")


_SAID: dict[tuple[str, str, str], bytes] = {}


def _said(lang: str, code: str, message: Message) -> bytes:
    """A refusal's JSON in ``lang``, made once (the messages here have no parameters)."""
    key = (lang, code, message.msgid)
    found = _SAID.get(key)
    if found is None:
        found = _SAID[key] = json.dumps(refusal_body(translator(lang), code, message),
                                        ensure_ascii=False).encode()
    return found


class Replays:
    """Serves ``POST /api/replay`` (see the module); every other request goes to ``app``."""

    def __init__(self, app: ASGIApp, *, pool: HeavyPool | None, per_address: PerAddress,
                 total: TokenBucket, limit: int) -> None:
        self.app, self.pool, self.limit = app, pool, limit
        self.per_address, self.total = per_address, total

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") != PATH or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        lang = accepted_lang(headers.get(b"accept-language", b"").decode("latin-1"))
        client = scope.get("client")
        address = client[0] if client else "-"
        if not self.per_address.take(address):
            wait = self.per_address.wait_s(address)
            await _answer(send, 429, _said(lang, "rate-limited", RATE), retry_s=wait)
            return
        if (self.pool is not None and self.pool.full) or not self.total.take(time.monotonic()):
            await _answer(send, 503, _said(lang, "busy", BUSY), retry_s=2)
            return
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _answer(send, 413, _said(lang, "too-big", TOO_BIG), close=True)
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if kind != b"application/json":
            await _answer(send, 415, _said(lang, "not-json", NOT_JSON), close=True)
            return
        body = bytearray()
        while True:
            event = await receive()
            if event["type"] == "http.disconnect":
                return  # gone (or cut by slow.py): nobody to answer
            body += event.get("body", b"")
            if len(body) > self.limit:
                await _answer(send, 413, _said(lang, "too-big", TOO_BIG), close=True)
                return
            if not event.get("more_body", False):
                break
        if self.pool is None:
            status, answer = await run_in_threadpool(job, "replay", bytes(body), lang)
        else:
            try:
                status, answer = await self.pool.run("replay", bytes(body), lang)
            except Busy as e:
                await _answer(send, 503, _said(lang, "busy", e.message), retry_s=e.retry_s)
                return
        await _answer(send, status, answer)


async def _answer(send: Send, status: int, body: bytes, retry_s: float | None = None,
                  close: bool = False) -> None:
    headers = [_JSON, (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]
    if retry_s is not None:  # (refused before the body was read: not read at all)
        headers.append((b"retry-after", str(max(1, math.ceil(retry_s))).encode()))
        close = True
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
