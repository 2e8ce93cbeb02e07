"""QR codes of the links a table shares, for the players sitting at the same table.

Friends in one room do not type a link: the host holds up a phone with the room's QR
code (``/r/CODE/qr.svg``, the invite link) and each friend scans it; at a table played
with the physical cards, the Mayor's screen shows the players' link the same way
(``/table/CODE/qr.svg``). The code is drawn by `segno <https://segno.readthedocs.io>`_
as an SVG, dark on light with its quiet zone, whatever the page's theme, so every
phone's camera reads it. Its link is absolute, on the address friends reach this server
at (``server/share.py``: the request's, or the local network's for a page opened on
localhost), and only ever one of this site's own pages for a well-formed code: these
routes encode nothing a client chooses. A room
that is not there still gets its code (the page it leads to says so); nothing here
reads a room, so any process of a cluster answers.
"""

from __future__ import annotations

import io
import re
from typing import Final

import segno
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from darkcity.server.config import ServerConfig
from darkcity.server.manager import CODE_ALPHABET, CODE_LENGTH
from darkcity.server.share import share_base

__all__ = ["qr_router", "qr_svg"]

_CODE: Final = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")  # the tables' codes too


def qr_svg(url: str, title: str) -> bytes:
    """``url`` as a QR code in SVG, scalable (a viewBox, no size), titled ``title``."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=4, omitsize=True,
                                   dark="#000", light="#fff", xmldecl=False,
                                   title=title)
    return out.getvalue()


def _link(request: Request, cfg: ServerConfig, folder: str, code: str) -> Response:
    code = code.upper()
    if not _CODE.fullmatch(code):
        raise HTTPException(404)
    url = f"{share_base(request, cfg)[0]}/{folder}/{code}"
    return Response(qr_svg(url, url), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=86400"})


def qr_router(cfg: ServerConfig) -> APIRouter:
    """The QR codes' routes: the invite link of a room, the players' link of a table."""
    router = APIRouter()

    @router.get("/r/{code}/qr.svg", include_in_schema=False)
    async def room_qr(request: Request, code: str) -> Response:
        return _link(request, cfg, "r", code)

    @router.get("/table/{code}/qr.svg", include_in_schema=False)
    async def table_qr(request: Request, code: str) -> Response:
        return _link(request, cfg, "table", code)

    return router
