"""A friend who came from the invite link and waits in the lobby is told the game in one
minute (what a night is, how one wins, where every card's rules are), on a phone, in
Brazilian Portuguese; closed, it stays closed while the table fills."""

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


def test_a_friend_from_the_invite_link_is_told_the_game_in_one_minute(
        browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=5, decide_s=60, lang="pt_BR")
    page = phone(browser)
    page.goto(f"{server.base}/r/{room['code']}")  # the invite link: no seat yet
    page.select_option("[data-testid=lang]", "pt_BR")
    primer = page.locator("[data-testid=primer]")
    expect(primer).to_have_attribute("open", "")
    expect(primer).to_contain_text("Primeira vez em Dark City?")
    expect(primer).to_contain_text("1, 2, 3, já!")
    expect(primer.locator("li")).to_have_count(4)  # the four victory conditions
    expect(primer).to_contain_text("4 XP numa linha")
    primer.locator("[data-testid=primer-cards]").tap()
    expect(page.locator("[data-testid=help]")).to_be_visible()
    page.locator("[data-testid=help-close]").tap()
    primer.locator("summary").tap()  # read: closed
    expect(primer).not_to_have_attribute("open", "")
    add_bots(server, room["code"], room["token"], range(1, 5))  # the lobby is drawn again
    expect(page.locator(".seat.bot")).to_have_count(4)
    expect(primer).not_to_have_attribute("open", "")
    expect(page.locator(".badge", has_text="você")).to_have_count(0)  # watching: no seat
    page.context.close()


def test_the_invite_link_goes_to_the_share_sheet_where_the_device_has_one(
        browser: Any, server: Server) -> None:
    """A phone opens its share sheet (a chat app, a message); without one the link is
    copied, as before. The bar's link does the same (it only copied)."""
    room = create_room(server.base, "Ana", players=4, decide_s=60, lang="en")
    page = phone(browser)
    page.add_init_script(
        "navigator.share = (d) => { window.shared = d; return Promise.resolve(); };")
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    button = page.locator("[data-testid=copy-invite]")
    expect(button).to_have_text("Share the invite link")
    expect(page.locator(".seat.me .badge", has_text="you")).to_have_count(1)  # as in a game
    button.tap()
    page.wait_for_function("() => window.shared")
    shared = page.evaluate("() => window.shared")
    assert shared["url"] == f"{server.base}/r/{room['code']}"  # never the seat's token
    assert shared["text"] == "Join my table of Dark City"
    # the bar's link (behind "More" on a phone) is the same invite, shared the same way
    page.evaluate("() => { window.shared = null; }")
    page.locator("[data-testid=bar-more]").tap()
    bar = page.locator("[data-testid=bar-invite]")
    expect(bar).to_have_text("Share the invite link")
    bar.tap()
    page.wait_for_function("() => window.shared")
    assert page.evaluate("() => window.shared.url") == f"{server.base}/r/{room['code']}"
    page.context.close()
    plain = phone(browser)
    plain.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(plain.locator("[data-testid=copy-invite]")).to_have_text("Copy the invite link")
    expect(plain.locator("[data-testid=bar-invite]")).to_have_text("Copy the invite link")
    plain.context.close()
