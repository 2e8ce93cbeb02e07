"""Friends in the same room scan the invite link off the host's phone: the lobby shows its
QR code on asking, drawn by the server, legible on the dark theme (dark on light, a
phone's width at most), and open through the lobby's redraws."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect

from darkcity.server.testing import create_room

from ..test_server_process import Server
from .test_web_play import add_bots
from .test_web_review import phone


def test_the_lobby_shows_the_invite_links_qr_code_on_a_phone(browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=5, decide_s=60, lang="pt_BR")
    page = phone(browser)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.select_option("[data-testid=lang]", "pt_BR")
    qr = page.locator("[data-testid=invite-qr]")
    expect(qr).to_contain_text("Amigos aí com você? Mostre um código QR")
    expect(qr).not_to_have_attribute("open", "")  # closed until asked for
    qr.locator("summary").tap()
    image = page.locator("[data-testid=invite-qr-image]")
    expect(image).to_be_visible()
    page.wait_for_function(
        "() => { const i = document.querySelector('[data-testid=invite-qr-image]');"
        " return i && i.complete && i.naturalWidth > 0; }")  # the server's SVG, loaded
    box = page.evaluate(
        "() => { const i = document.querySelector('[data-testid=invite-qr-image]');"
        " const r = i.getBoundingClientRect();"
        " return { x: r.left, right: r.right, w: r.width, h: r.height,"
        " src: i.getAttribute('src'), alt: i.alt, vw: innerWidth }; }")
    assert box["src"] == f"/r/{room['code']}/qr.svg"
    assert f"{server.base}/r/{room['code']}" in box["alt"]  # the room's link, never the token
    assert 200 <= box["w"] <= 240 and box["w"] == box["h"], box  # large enough to scan
    assert box["x"] >= 0 and box["right"] <= box["vw"], box  # all of it on the screen
    add_bots(server, room["code"], room["token"], range(1, 5))  # the lobby is drawn again
    expect(page.locator(".seat.bot")).to_have_count(4)
    expect(qr).to_have_attribute("open", "")  # still shown to the friends scanning it
    page.context.close()
