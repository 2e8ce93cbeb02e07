"""What a room and the server's routes share: a refusal, a token's hash.

Pure: a room refuses with :class:`Refusal` wherever it runs (on the server, in a
phone's worker); the server's :mod:`darkcity.server.common` re-exports both.
"""

from __future__ import annotations

import hashlib

from darkcity.companion.actions import Refused
from darkcity.i18n import Message

__all__ = ["Refusal", "token_hash"]


class Refusal(Refused):
    """A client request refused: ``code`` and a translatable message (its HTTP status
    400 unless the answer says otherwise).

    The companion's :class:`~darkcity.companion.actions.Refused` (which the phone's own
    engine raises too, with no server) is its base: every refusal the server makes,
    a room's or a table's, is a ``Refused``, answered the same way."""

    def __init__(self, code: str, message: Message, status: int = 400) -> None:
        super().__init__(status, code, message)


def token_hash(token: str) -> str:
    """A seat's or a Mayor's token as it is stored (SHA-256): the token never is."""
    return hashlib.sha256(token.encode()).hexdigest()
