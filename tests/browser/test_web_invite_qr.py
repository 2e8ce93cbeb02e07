"""Friends in the same room scan the invite link off the host's phone: the lobby shows its
QR code on asking, drawn by the server, legible on the dark theme (dark on light, a
phone's width at most), and open through the lobby's redraws. A host whose page is on
localhost shares the local network's address, or is told nobody else can open it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect

from darkcity.server.testing import create_room

from ..test_server_process import Server, free_port
from .test_web_play import add_bots
from .test_web_review import phone


def qr_image(page: Any, testid: str) -> dict[str, Any]:
    """The QR code's image once visible and loaded (the server's SVG): its box on the
    page, its ``src`` and ``alt``, and the viewport's width ``vw``."""
    expect(page.get_by_test_id(testid)).to_be_visible()
    page.wait_for_function(
        "(id) => { const i = document.querySelector(`[data-testid=${id}]`);"
        " return i && i.complete && i.naturalWidth > 0; }", arg=testid)
    box: dict[str, Any] = page.evaluate(
        "(id) => { const i = document.querySelector(`[data-testid=${id}]`);"
        " const r = i.getBoundingClientRect();"
        " return { x: r.left, right: r.right, w: r.width, h: r.height,"
        " src: i.getAttribute('src'), alt: i.alt, vw: innerWidth }; }", testid)
    return box


def test_the_lobby_shows_the_invite_links_qr_code_on_a_phone(browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=5, decide_s=60, lang="pt_BR")
    page = phone(browser)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.select_option("[data-testid=lang]", "pt_BR")
    qr = page.locator("[data-testid=invite-qr]")
    expect(qr).to_contain_text("Amigos aí com você? Mostre um código QR")
    expect(qr).not_to_have_attribute("open", "")  # closed until asked for
    qr.locator("summary").tap()
    box = qr_image(page, "invite-qr-image")
    assert box["src"] == f"/r/{room['code']}/qr.svg"
    assert f"{server.base}/r/{room['code']}" in box["alt"]  # the room's link, never the token
    assert 200 <= box["w"] <= 240 and box["w"] == box["h"], box  # large enough to scan
    assert box["x"] >= 0 and box["right"] <= box["vw"], box  # all of it on the screen
    add_bots(server, room["code"], room["token"], range(1, 5))  # the lobby is drawn again
    expect(page.locator(".seat.bot")).to_have_count(4)
    expect(qr).to_have_attribute("open", "")  # still shown to the friends scanning it
    page.context.close()


def test_a_host_on_localhost_shares_the_local_networks_address(browser: Any,
                                                               tmp_path: Path) -> None:
    """``darkcity serve --host 0.0.0.0`` found the laptop's address on the Wi-Fi: the host's
    page, opened on 127.0.0.1, shows and shares that one (a friend's phone cannot open
    127.0.0.1); a server on this computer only says so instead."""
    port = free_port()
    lan = f"http://192.0.2.10:{port}"  # what share.py found (a documentation address)
    with_lan = Server(tmp_path / "lan.sqlite3", port, DARKCITY_SHARE_URL=lan)
    with_lan.start()
    try:
        room = create_room(with_lan.base, "Ana", players=4, decide_s=60, lang="en")
        page = phone(browser)
        page.goto(f"{with_lan.base}/r/{room['code']}#token={room['token']}")
        expect(page.locator("[data-testid=invite-link]")).to_have_text(f"{lan}/r/{room['code']}")
        expect(page.locator("[data-testid=unreachable]")).to_have_count(0)
        page.locator("[data-testid=invite-qr] summary").tap()
        alt = page.locator("[data-testid=invite-qr-image]").get_attribute("alt") or ""
        assert alt.endswith(f"{lan}/r/{room['code']}"), alt
        page.context.close()
    finally:
        with_lan.stop()
    alone = Server(tmp_path / "alone.sqlite3", free_port())  # --host 127.0.0.1, as by default
    alone.start()
    try:
        room = create_room(alone.base, "Ana", players=4, decide_s=60, lang="en")
        page = phone(browser)
        page.goto(f"{alone.base}/r/{room['code']}#token={room['token']}")
        expect(page.locator("[data-testid=unreachable]")).to_contain_text(
            "darkcity serve --host 0.0.0.0")
        page.context.close()
    finally:
        alone.stop()
