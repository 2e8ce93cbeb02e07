"""Play online: rooms in the browser, the app is the Mayor (issue #6).

:func:`create_app` builds the FastAPI application (HTTP API, WebSocket
protocol, static web UI); ``darkcity serve`` runs it with uvicorn. Every
message to a client is built from that player's :func:`darkcity.views.view`;
every accepted decision is stored (event-sourced) before it is acknowledged.
See ``docs/server.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from darkcity.server.config import ServerConfig

if TYPE_CHECKING:
    from darkcity.server.app import create_app

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` is imported when asked for: a room (``darkcity.room``) is imported
    without FastAPI, as a phone's worker does, with no server at all."""
    if name == "create_app":
        from darkcity.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
