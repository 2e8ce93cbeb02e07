"""Losing the table and finding it again, on a friend's phone (375x667, touch).

A friend whose connection drops while the game goes on comes back to the same seat, and
the page says that a bot played for them meanwhile and what it did each night (the
server's welcome lists the nights of those decisions, ``played_away``). A connection the
browser still calls open but that carries nothing (a phone out of its Wi-Fi, asleep) is
found by its unanswered ping when the network comes back, and said in the banner.

The other seats are bots of the room, thinking a short while so that the nights played
while Ana is away take a few seconds, not the whole game.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect
from websockets.sync.client import connect

from darkcity.server.testing import create_room, unfold

from ..test_server_process import Server
from .test_web_play import add_bots, phase, ws_url
from .test_web_review import Link, to_the_gestures


def phone(browser: Any, locale: str) -> Any:
    return browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                               is_mobile=True, locale=locale).new_page()


def spectators_view(server: Server, code: str) -> dict[str, Any]:
    """The game as a spectator's first state shows it (none while the Mayor counts)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        with connect(ws_url(server, code)) as ws:
            ws.send(json.dumps({"type": "hello"}))
            with contextlib.suppress(TimeoutError):
                for m in unfold(json.loads(ws.recv(timeout=5))):
                    if m["type"] == "state":
                        view: dict[str, Any] = m["view"]
                        return view
        time.sleep(0.3)
    raise AssertionError("no state")


def test_back_at_the_table_a_friend_is_told_what_a_bot_played_for_them(
        browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4, decide_s=120, grace_s=1, beat_s=0.2,
                       bot_delay_s=0.4, lang="pt")
    page = phone(browser, "pt-BR")
    link = Link(page)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=copy-invite]")  # in the lobby, then the game
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page.wait_for_selector("[data-testid=choice-0]")  # the free XP, Ana's to choose
    assert page.locator("[data-testid=back-panel]").count() == 0
    link.cut()  # the phone loses the network; a bot plays her seat after a second
    page.wait_for_selector("[data-testid=connection-lost]")
    end = time.monotonic() + 60
    while spectators_view(server, room["code"])["night"] < 2 and time.monotonic() < end:
        time.sleep(0.5)
    link.down = False
    # (a click in the page: the table plays on around it, redrawn as the bots decide)
    page.evaluate("() => document.querySelector('[data-testid=reconnect]')?.click()")
    page.wait_for_selector("[data-testid=connection-lost]", state="detached")
    back = page.get_by_test_id("back-panel")
    expect(back).to_contain_text("A partida continuou enquanto você estava fora")
    lines = back.locator("li").all_inner_texts()
    assert lines[0] == "Antes da primeira noite: seu XP grátis", lines
    # the night played for her: her card, her gesture and her fate, from the view
    assert lines[1].startswith("Noite 1 · carta: "), lines
    assert page.get_by_test_id("whoami").inner_text().startswith("Ana")  # the same seat
    # measured in one task of the page: the table plays on around the panel, and a
    # redraw between finding it and measuring it left a handle with no box
    box = page.evaluate("""() => {
        const r = document.querySelector('[data-testid=back-panel]').getBoundingClientRect();
        return {x: r.x, width: r.width}; }""")
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    page.evaluate("() => document.querySelector('[data-testid=back-ok]').click()")
    expect(back).to_have_count(0)
    page.reload()  # told once: a later connection says nothing more
    page.wait_for_selector("[data-testid=phase]")
    expect(page.get_by_test_id("whoami")).to_contain_text("Ana")
    assert page.locator("[data-testid=back-panel]").count() == 0
    page.context.close()


class Hole:
    """The page's WebSocket through Playwright's route, forwarded by hand both ways until
    it is made silent: the browser still calls it open while nothing goes through, as a
    phone's socket does when it walks out of its Wi-Fi."""

    def __init__(self, page: Any) -> None:
        self.silent: set[int] = set()
        self.open: list[Any] = []
        self.held = False  # while true, a new socket is closed at once (the server away)
        page.route_web_socket("**/ws/**", self.handle)

    def handle(self, ws: Any) -> None:
        if self.held:
            ws.close()
            return
        server = ws.connect_to_server()
        key = len(self.open)
        self.open.append(ws)
        ws.on_message(lambda m: None if key in self.silent else server.send(m))
        server.on_message(lambda m: None if key in self.silent else ws.send(m))

    def cut(self) -> None:
        self.silent |= set(range(len(self.open)))


def test_a_silent_connection_is_found_when_the_network_comes_back(
        browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4, decide_s=120, lang="en")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page = phone(browser, "en-US")
    hole = Hole(page)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=choice-0]")
    hole.cut()
    # (the page's new sockets are refused until the banner is seen: it tries again within
    # 250 ms, so a table found again at once would take the banner away between two looks)
    hole.held = True
    page.context.set_offline(True)
    page.context.set_offline(False)  # the network is back: the page asks at once
    # its ping is not answered: the connection is said lost within seconds (without the
    # check the page said "connected" until the socket's 15 s ping, and then did nothing)
    expect(page.get_by_test_id("connection-lost")).to_be_visible(timeout=10_000)
    hole.held = False
    # ... and the page finds the table again by itself, through a new socket
    expect(page.get_by_test_id("connection-lost")).to_have_count(0, timeout=10_000)
    expect(page.locator(".dot.on")).to_have_count(1)
    page.tap("[data-testid=choice-0]")
    expect(page.locator("[data-testid=decide] h2")).not_to_have_text(
        "Write your free XP in one row")
    page.context.close()


def test_a_reload_during_the_count_keeps_the_table_and_the_count(
        browser: Any, server: Server) -> None:
    """A phone reloaded during '1, 2, 3, now!' (the friend's thumb, a tab brought back)
    said 'Conectando…' until the reveal, up to four beats: the server held every state
    back while it counted. Now the table comes back as it was before the count, with the
    beats left and the reader's own gesture sealed, then the reveal as everybody's."""
    room = create_room(server.base, "Ana", players=4, decide_s=120, beat_s=3, bot_delay_s=0.3,
                       lang="pt")
    page = phone(browser, "pt-BR")
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=copy-invite]")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    to_the_gestures(page)
    count = page.locator("#count.on")
    sealed = page.locator("[data-testid=sealed]")
    seen: list[str] = []
    for _ in range(3):  # a count; where a loaded machine's reload outlasts it, the next
        ph = phase(page)
        end = time.monotonic() + 30
        while not count.count() and time.monotonic() < end:  # Ana decides, then the count
            with contextlib.suppress(Exception):
                if page.locator("[data-testid^=shows-]").count() and not page.locator(
                        "[data-testid^=shows-][aria-pressed=true]").count():
                    page.get_by_test_id("shows-0").tap(timeout=500)  # a Devil's role first
                else:
                    page.locator("[data-testid^=choice-]:not([disabled])").first.tap(
                        timeout=500)
            time.sleep(0.1)
        expect(count).to_be_visible(timeout=10_000)
        page.reload(wait_until="commit")
        # within the count (four beats of 3 s): the table, the beats, the sealed choice
        with contextlib.suppress(AssertionError):
            expect(sealed).to_be_visible(timeout=8000)
        if not sealed.count() or not count.count():
            continue  # the reveal came first (this machine loaded): try the next count
        seen.append(sealed.inner_text())
        expect(page.locator("[data-testid=table]")).to_be_visible()
        assert page.get_by_text("Conectando…").count() == 0
        if ph == "gesture":
            assert page.locator("[data-testid=arrows]").count() == 0  # nothing revealed yet
            expect(page.locator("[data-testid=arrows]")).to_have_count(1, timeout=15_000)
        break
    assert seen and seen[0].startswith(("Seu gesto: ", "Sua escolha: ")), seen
    page.context.close()


HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true,
    get: () => (hidden ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_time_up_while_the_tab_was_hidden_is_said_on_return(
        browser: Any, server: Server) -> None:
    """A friend who switched to the group's chat (the tab hidden, its socket still open)
    while their time ran out came back to a table that had moved on, a bot's free XP or
    card theirs, and nothing said so: only a connection lost was summarised. The server
    tells the seat's pages (``played``); a hidden one says it on return, as after being
    away. On screen, the question itself says it: no panel then."""
    room = create_room(server.base, "Ana", players=4, decide_s=5, bot_delay_s=0.3,
                       lang="pt")
    page = phone(browser, "pt-BR")
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=copy-invite]")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page.wait_for_selector("[data-testid=choice-0]")  # the free XP, Ana's to choose
    page.evaluate(HIDE, True)  # to the chat app; time runs out (5 s)
    page.wait_for_function("() => document.querySelector('[data-testid=phase]')"
                           "?.dataset.phase === 'draft'", timeout=20_000)
    page.evaluate(HIDE, False)
    back = page.get_by_test_id("back-panel")
    expect(back).to_contain_text("A partida continuou enquanto você estava fora")
    assert back.locator("li").all_inner_texts() == ["Antes da primeira noite: seu XP grátis"]
    page.get_by_test_id("back-ok").tap()
    expect(back).to_have_count(0)
    # the draft's time runs out on screen: the page says it where the question was
    expect(page.get_by_test_id("phase")).not_to_have_attribute("data-phase", "draft",
                                                               timeout=20_000)
    assert page.locator("[data-testid=back-panel]").count() == 0
    page.context.close()


WATCH = """async () => {
  const { S } = await import('/static/js/store.js');
  window.__back = null;
  window.__down = false;
  setInterval(() => {
    if (!S.online) window.__down = true;
    else if (window.__down && window.__back === null) window.__back = performance.now();
  }, 10);
}"""


def test_back_within_a_second_of_a_restarted_server_answering(
        browser: Any, server: Server) -> None:
    """After a restart the pages came back 8.7-10.4 s later although the server answered
    at 2.5 s (retries at 1, 3, 7, 15 s). Now the page tries again at a random moment of a
    short pause (common/retry.js): it is back, its welcome taken, within a second of the
    server answering its first request."""
    room = create_room(server.base, "Ana", players=4, decide_s=120, lang="pt")
    page = phone(browser, "pt-BR")
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=copy-invite]")
    page.wait_for_selector(".bar .dot.on")
    page.evaluate(WATCH)
    server.stop()
    page.wait_for_function("() => window.__down === true")
    time.sleep(2.5)  # down a while: several tries have failed
    server.start()  # returns once the server answers (/healthz, polled every 0.1 s)
    answered = page.evaluate("performance.now()")
    page.wait_for_function("() => window.__back !== null", timeout=10_000)
    back = page.evaluate("window.__back") - answered
    page.wait_for_selector("[data-testid=connection-lost]", state="detached")
    assert back < 1000, f"back {back:.0f} ms after the server answered"
    page.context.close()
