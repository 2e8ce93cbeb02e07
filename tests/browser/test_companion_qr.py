"""The players at a table with the physical cards open their phones' view by scanning the
Mayor's screen: the *Links and language* panel shows the players' link as a QR code
(never the Mayor's link), and stays open through the page's re-draws while they scan."""

from __future__ import annotations

from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from ..test_server_process import Server  # noqa: E402
from .test_companion_review import mayor_page, new_table  # noqa: E402
from .test_web_invite_qr import qr_image  # noqa: E402


def test_the_mayors_screen_shows_the_players_link_as_a_qr_code(browser: Any,
                                                               table_server: Server) -> None:
    t = new_table(table_server.base)
    page = mayor_page(browser)
    page.goto(f"{table_server.base}/table/{t['code']}?lang=pt_BR#mayor={t['token']}")
    page.get_by_test_id("panel-draft").wait_for()
    links = page.get_by_test_id("links")
    # open at the first draft, while the phones join (test_companion_newcomer.py)
    expect(links).to_have_attribute("open", "")
    box = qr_image(page, "links-qr")
    assert box["src"] == f"/table/{t['code']}/qr.svg"
    assert box["alt"] == f"Código QR do link dos jogadores {table_server.base}/table/{t['code']}"
    assert t["token"] not in box["alt"]  # the players' link, never the Mayor's
    # the test's server listens on 127.0.0.1 only (the default): the Mayor is told
    expect(links.get_by_test_id("unreachable")).to_contain_text("darkcity serve --host 0.0.0.0")
    assert 180 <= box["w"] <= 200 and box["w"] == box["h"], box
    assert box["x"] >= 0 and box["right"] <= box["vw"], box
    version = page.evaluate("document.getElementById('app').dataset.version")
    httpx.post(f"{table_server.base}/api/tables/{t['code']}/seat", json={"player": "Ana"},
               timeout=10).raise_for_status()  # a phone takes a seat (the view changes)
    expect(page.get_by_test_id("links")).to_contain_text("Ana", timeout=10000)
    assert page.evaluate("document.getElementById('app').dataset.version") != version
    expect(page.get_by_test_id("links")).to_have_attribute("open", "")
    expect(page.get_by_test_id("links-qr")).to_be_visible()
    page.context.close()
