"""What the rooms, the HTTP routes (the rooms' and the table companion's) and the
WebSocket loop share: a refusal, a token's hash, the reader's language, a client's
address, a refused request's words.

Pure (no web framework at run time). The refusal and the token's hash are a room's
(:mod:`darkcity.room.common`), re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from darkcity.i18n import Message, Translator, msg, negotiate
from darkcity.room.common import Refusal, token_hash

if TYPE_CHECKING:
    from pydantic import ValidationError
    from starlette.requests import HTTPConnection

__all__ = ["CANNOT_SAVE", "NO_ROOM", "Refusal", "accepted_lang", "client_address", "refusal_body",
           "request_lang", "token_hash", "validation_message"]


def accepted_lang(asked: str, fallback: str = "en") -> str:
    """The first language of ``asked`` (an ``Accept-Language`` or ``?lang=`` value) the
    server speaks, else ``fallback``."""
    for part in asked.split(","):
        found = negotiate(part.split(";")[0].strip()) if part.strip() else None
        if found:
            return found
    return fallback


def request_lang(request: HTTPConnection, fallback: str = "en") -> str:
    """A request's language: its ``?lang=``, else its ``Accept-Language``."""
    return accepted_lang(request.query_params.get("lang")
                         or request.headers.get("accept-language", ""), fallback)


def refusal_body(t: Translator, code: str, message: Message) -> dict[str, Any]:
    """A refusal as the API answers it: its ``code``, its ``message`` in the reader's
    language, and the message's id and parameters (``msgid``, ``params``)."""
    return {"code": code, "message": t.render(message), **message.to_json()}


NO_ROOM = Refusal("no-room", msg("There is no room with that code."))
#: A request the database could not store (a full disk, a read-only database).
CANNOT_SAVE = Refusal("cannot-save", msg(
    "The server cannot save right now, so nothing was changed: try again in a moment."))


def client_address(client: HTTPConnection) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For there)."""
    return client.client.host if client.client else "-"


def validation_message(e: ValidationError) -> Message:
    errors = e.errors()
    if not errors:
        return msg("Invalid message: {field}: {problem}", field="-", problem="?")
    first = errors[0]
    where = ".".join(str(x) for x in first["loc"]) or "-"
    return msg("Invalid message: {field}: {problem}", field=where, problem=first["msg"])
