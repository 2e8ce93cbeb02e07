"""The screen stays on while a game is under way (js/wake.js, the Screen Wake Lock API):
a phone's auto-lock no longer dims the web table in the middle of a decision, nor the
Mayor's phone put down on the table for a night. Asked again when the page comes back
(the system drops the lock whenever it is hidden); not held in the lobby, nor after the
game. Headless Chromium has no screen to keep on, so the tests give it a wake lock that
counts what it is asked."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect

from darkcity.server.testing import create_room

from ..test_server_process import Server
from .test_companion_review import mayor_page, new_table
from .test_web_play import add_bots
from .test_web_review import phone

#: A wake lock that counts: window.wake = {asked, released, held}.
FAKE = """
window.wake = { asked: 0, released: 0, held: null };
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: (kind) => {
    if (kind !== "screen") return Promise.reject(new TypeError(kind));
    window.wake.asked += 1;
    const lock = new EventTarget();
    lock.release = () => { window.wake.released += 1; window.wake.held = null;
      lock.dispatchEvent(new Event("release")); return Promise.resolve(); };
    window.wake.held = lock;
    return Promise.resolve(lock);
  } } });
"""

#: What the system does when the page is hidden and shown again.
HIDE_AND_SHOW = """() => {
  const lock = window.wake.held;
  window.wake.held = null;
  lock.dispatchEvent(new Event("release"));  // dropped by the system, not released
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def wake(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        "() => ({ asked: window.wake.asked, released: window.wake.released,"
        " held: Boolean(window.wake.held) })")
    return out


def test_the_web_table_keeps_the_screen_on_during_a_game(browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4, decide_s=60, lang="en")
    page = phone(browser)
    page.add_init_script(FAKE)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(page.locator("[data-testid=copy-invite]")).to_be_visible()
    assert wake(page) == {"asked": 0, "released": 0, "held": False}  # the lobby: not yet
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page.wait_for_function("() => window.wake.held")
    assert wake(page)["asked"] == 1
    page.evaluate(HIDE_AND_SHOW)  # the phone locked by hand and opened again
    page.wait_for_function("() => window.wake.held && window.wake.asked === 2")
    page.context.close()


def test_the_mayors_screen_stays_on_through_the_night(browser: Any,
                                                      table_server: Server) -> None:
    t = new_table(table_server.base)
    page = mayor_page(browser)
    page.add_init_script(FAKE)
    page.goto(f"{table_server.base}/table/{t['code']}#mayor={t['token']}")
    page.get_by_test_id("panel-draft").wait_for()
    page.wait_for_function("() => window.wake.held")
    assert wake(page) == {"asked": 1, "released": 0, "held": True}
    page.evaluate(HIDE_AND_SHOW)
    page.wait_for_function("() => window.wake.held && window.wake.asked === 2")
    assert wake(page)["released"] == 0  # re-drawn every second: asked once, kept
    phone_page = mayor_page(browser)  # a player's phone only watches: no lock
    phone_page.add_init_script(FAKE)
    phone_page.goto(f"{table_server.base}/table/{t['code']}")
    phone_page.wait_for_function("() => document.getElementById('app').dataset.version")
    assert wake(phone_page)["asked"] == 0
    phone_page.context.close()
    page.context.close()


def test_the_screen_is_left_to_the_phone_once_the_game_is_over(browser: Any,
                                                               server: Server) -> None:
    # A whole game played by bots (Ana, the host, never opens the page: a bot plays her
    # seat after a second), watched from a phone: the lock is held while it is under
    # way and released at its end, as the end screen comes (the phone dims and locks
    # as its settings say again).
    room = create_room(server.base, "Ana", players=4, decide_s=60, beat_s=0.1, grace_s=1,
                       bot_delay_s=0.1, lang="en")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page = phone(browser)
    page.add_init_script(FAKE)
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_function("() => window.wake.held")
    assert wake(page)["released"] == 0
    page.get_by_test_id("victory").wait_for(timeout=120_000)
    page.wait_for_function("() => !window.wake.held")
    assert wake(page)["released"] == 1  # released by the page, once
    assert page.get_attribute("[data-testid=phase]", "data-phase") == "over"
    page.context.close()
