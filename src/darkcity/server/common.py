"""What the rooms, the HTTP routes and the WebSocket loop share: a refusal, a client's
address, a refused request's words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from darkcity.i18n import Message, msg

if TYPE_CHECKING:
    from pydantic import ValidationError
    from starlette.requests import HTTPConnection

__all__ = ["NO_ROOM", "Refusal", "client_address", "validation_message"]


class Refusal(Exception):
    """A client request refused: ``code`` and a translatable message."""

    def __init__(self, code: str, message: Message) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


NO_ROOM = Refusal("no-room", msg("There is no room with that code."))


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
