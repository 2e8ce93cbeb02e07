"""Request bodies at the edge (issue #13): JSON only, and never read past the limit.

:class:`BodyGuard` is a pure ASGI middleware in front of every route of the app
(the rooms' API, the table companion's, any added later), so that no handler
can read a body whole before its size is checked or parse a body another site
could send without asking:

- a declared ``Content-Length`` over the limit is refused at once (413), before
  a byte of the body is read;
- a body that arrives without a length (chunked) is counted as it is read, and
  refused (413) as soon as it passes the limit;
- a body that is not ``application/json`` is refused (415): a form or a
  ``text/plain`` request, which any web page may send to this server from its
  visitors' browsers, never reaches a handler.

Refusals are the app's JSON refusals (``code``, ``message`` in the reader's
language, ``msgid``, ``params``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse

from darkcity.i18n import Message, msg, translator
from darkcity.server.common import accepted_lang
from darkcity.server.headers import SECURITY_HEADERS

__all__ = ["BodyGuard"]

Scope = MutableMapping[str, Any]
Event = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Event]]
Send = Callable[[Event], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_WITHOUT_BODY: Final = frozenset(("GET", "HEAD", "OPTIONS"))
TOO_BIG: Final = msg("That message is too big.")
NOT_JSON: Final = msg("Send the request body as application/json.")


class _TooBig(Exception):
    """Raised from ``receive`` inside the app: the body passed the limit."""


class BodyGuard:
    """Refuses bodies over ``limit`` bytes (by length, or as they arrive) and bodies that
    are not JSON, for every HTTP route of ``app``."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app, self.limit = app, limit
        self.larger = larger or {}  # a path -> its own limit (a game record's route)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _WITHOUT_BODY:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        limit = self.larger.get(scope.get("path", ""), self.limit)
        declared = headers.get(b"content-length")
        chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(scope, receive, send, headers, 413, "too-big", TOO_BIG)
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        has_body = chunked or (declared is not None and int(declared) > 0)
        if (kind or has_body) and kind != b"application/json":
            await self._refuse(scope, receive, send, headers, 415, "not-json", NOT_JSON)
            return
        seen = 0
        started = False

        async def counted() -> Event:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > limit:
                    raise _TooBig
            return event

        async def watched(event: Event) -> None:
            nonlocal started
            started = started or event["type"] == "http.response.start"
            await send(event)

        try:
            await self.app(scope, counted, watched)
        except ClientDisconnect:  # gone while its body came (slow.py cut it): nobody to
            return  # answer, nothing to log
        except _TooBig:
            if started:  # pragma: no cover - a handler that answers while reading
                raise
            await self._refuse(scope, receive, send, headers, 413, "too-big", TOO_BIG)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send,
                      headers: dict[bytes, bytes], status: int, code: str,
                      message: Message) -> None:
        t = translator(accepted_lang(headers.get(b"accept-language", b"").decode("latin-1")))
        body = {"code": code, "message": t.render(message), **message.to_json()}
        extra = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
        # Connection: close, so the server does not read what the client still sends.
        await JSONResponse(body, status_code=status, headers={**extra, "Connection": "close"})(
            scope, receive, send)
