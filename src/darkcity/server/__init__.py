"""Play online: rooms in the browser, the app is the Mayor (issue #6).

:func:`create_app` builds the FastAPI application (HTTP API, WebSocket
protocol, static web UI); ``darkcity serve`` runs it with uvicorn. Every
message to a client is built from that player's :func:`darkcity.views.view`;
every accepted decision is stored (event-sourced) before it is acknowledged.
See ``docs/server.md``.
"""

from __future__ import annotations

from darkcity.server.app import create_app
from darkcity.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
