"""Issue #12 in a real browser: joining from the link, a missing room, the rules at
hand, decisions with what they need, the face-down announcement, the narration before
the journals, the end with its condition and "Play again", journals that fit a phone,
and axe-core's accessibility check (no serious or critical violation).

Bots think for no time and the beat is short, so the whole file stays fast. The other
seats are bots of the room, or scripted WebSocket players (threads, loopback only)
when a test needs them to act in a known way.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect
from websockets.sync.client import connect

from darkcity.cast import PANEL, Effect, Role
from darkcity.room.text import catalog
from darkcity.server.testing import create_room, join_room, unfold

from ..test_server_process import Server, free_port

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
CLICKABLE = "[data-testid^=choice-]:not([disabled]), [data-testid^=shows-]"


def ws_url(server: Server, code: str) -> str:
    return server.base.replace("http://", "ws://") + f"/ws/{code}"


def add_bots(server: Server, code: str, token: str, seats: range, level: str = "heuristic",
             start: bool = False) -> None:
    """The host fills ``seats`` with bots over the protocol (and starts the game)."""
    with connect(ws_url(server, code)) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        for seat in seats:
            ws.send(json.dumps({"type": "add-bot", "seat": seat, "level": level}))
        if start:
            ws.send(json.dumps({"type": "start"}))
        end = time.monotonic() + 5
        want = "state" if start else None
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                m = json.loads(ws.recv(timeout=0.5))
                if want is None and m["type"] == "lobby" and all(
                        s["kind"] != "empty" for s in m["lobby"]["seats"][1:]):
                    return
                if m["type"] == want:
                    return


class Scripted(threading.Thread):
    """A seat played over the WebSocket by a rule of thumb: ``pick(view)`` returns the
    decision (from the view's legal choices) or None for a random one."""

    def __init__(self, url: str, token: str, pick: Callable[[dict[str, Any]], Any],
                 seed: int, limit_s: float = 90) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.pick = url, token, pick
        self.rng = random.Random(seed)
        self.limit = time.monotonic() + limit_s
        self.stop = threading.Event()

    def run(self) -> None:
        with contextlib.suppress(Exception), connect(self.url) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            done, v = -1, None
            while not self.stop.is_set() and time.monotonic() < self.limit:
                with contextlib.suppress(TimeoutError):
                    for m in unfold(json.loads(ws.recv(timeout=0.2))):  # (welcome: + state)
                        if m["type"] == "state":
                            v = m["view"]
                if v is None or v["phase"] == "over":
                    if v is not None:
                        return
                    continue
                if not v["choices"] or v["decision_id"] == done:
                    continue
                choice = self.pick(v)
                if choice is HOLD:
                    continue
                choice = {k: x for k, x in (choice or self.rng.choice(v["choices"])).items()
                          if k != "player"}
                done = v["decision_id"]
                ws.send(json.dumps({"type": "decide", "at": done, "decision": choice}))


HOLD: Any = object()  # a pick that waits (asked again a moment later)


def phase(page: Any) -> str | None:
    with contextlib.suppress(Exception):
        value: str | None = page.get_attribute("[data-testid=phase]", "data-phase", timeout=200)
        return value
    return None


def click_something(page: Any, rng: random.Random) -> None:
    buttons = page.locator(CLICKABLE)
    with contextlib.suppress(Exception):
        n = buttons.count()
        if n:
            buttons.nth(rng.randrange(n)).click(timeout=800)


def check_axe(page: Any, axe: str, where: str) -> None:
    """axe-core in the page (a context with ``bypass_csp``: the app allows no inline
    script): no serious or critical violation."""
    page.add_script_tag(content=axe)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
          .map((v) => ({id: v.id, impact: v.impact,
                        nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
    }""")
    assert not found, f"{where}: {found}"


def totals(page: Any) -> dict[str, str]:
    """The journals' XP column, by the player's name (as the row shows it)."""
    rows = page.locator("[data-testid=journals] tbody tr")
    return {r.get_attribute("data-name"): r.locator("td.total").inner_text() for r in rows.all()}


def no_horizontal_overflow(page: Any, width: int, where: str) -> None:
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width + 1, f"{where}: the page is {page_width}px wide"
    over = page.evaluate("""() => {
        const t = document.querySelector('[data-testid=journals] table');
        return [t.scrollWidth, t.closest('section').clientWidth]; }""")
    assert over[0] <= over[1], f"{where}: the journals are {over[0]}px in {over[1]}px"


# ---------------------------------------------------------------- 1. joining


def test_join_from_the_link_in_a_fresh_context(browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4)
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = ctx.new_page()
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_selector("[data-testid=join-panel]")
    # whose table it is (a name field under empty seats did not say)
    expect(page.get_by_test_id("invited-by")).to_have_text(
        "Ana convida você para uma mesa de Dark City")
    page.fill("[data-testid=link-name]", "__proto__")  # a name, not an object's key
    page.click("[data-testid=link-join]")
    page.wait_for_selector(".seat.me")
    assert page.inner_text(".seat.me .seatname") == "__proto__"
    assert page.locator("[data-testid=join-panel]").count() == 0
    page.wait_for_selector("[data-testid=seat-link]", state="attached")  # (behind "More")
    # the seat survives a reload: the token is kept on this device
    page.reload()
    page.wait_for_selector(".seat.me")
    assert page.inner_text(".seat.me .seatname") == "__proto__"
    watcher = ctx.browser.new_context(viewport=DESKTOP).new_page()
    watcher.goto(f"{server.base}/r/{room['code']}")
    watcher.click("[data-testid=link-watch]")
    watcher.wait_for_selector("[data-testid=join-panel]", state="detached")
    assert watcher.locator("[data-testid=seat-1] .seatname").inner_text() == "__proto__"
    watcher.context.close()
    ctx.close()


def test_a_missing_room_says_so_once_and_stops(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{server.base}/r/ZZZZZZ")
    page.wait_for_selector("[data-testid=fatal]")
    time.sleep(6)
    assert len(sockets) <= 2, sockets
    assert page.locator("[data-testid=fatal]").count() == 1
    assert "There is no room with that code." in page.inner_text("[data-testid=fatal]")
    assert page.locator("[data-testid=toast]").count() <= 1
    # no raw {"detail": "Not Found"} anywhere; a favicon
    for path in ("/nowhere", "/r/ZZZZZZ/x", "/static/nothing.js"):
        r = page.request.get(server.base + path)
        assert r.status == 404 and '"detail"' not in r.text(), (path, r.text()[:80])
    api = page.request.get(server.base + "/api/nothing")
    assert api.status == 404 and api.json()["message"] == "There is nothing at this address."
    page.goto(server.base + "/nowhere")
    page.wait_for_selector("[data-testid=not-found]")
    icon = page.request.get(server.base + "/favicon.ico")
    assert icon.status == 200 and "svg" in icon.headers["content-type"]
    ctx.close()


# ---------------------------------------------------------------- 2. the rules at hand


def test_help_panel_shows_this_deck_and_both_sides_of_the_combat_panel(
        browser: Any, server: Server, axe_source: str) -> None:
    room = create_room(server.base, "Ana", players=6, deck="reporter-death-6")
    add_bots(server, room["code"], room["token"], range(1, 6))
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=start]")
    check_axe(page, axe_source, "lobby")
    page.click("[data-testid=help-open]")
    page.wait_for_selector("[data-testid=help]")
    deck = ["devil", "vampire", "werewolf", "zombie", "hunter", "priest", "reporter", "death"]
    cat = catalog("en")
    heads = page.locator("[data-testid=combat-panel] thead th").all_inner_texts()[1:]
    assert heads == [cat["roles"][r] for r in deck]  # only the roles of this deck
    assert page.locator("[data-testid=help-card-angel]").count() == 0
    devil = page.locator("[data-testid=help-card-devil]")
    devil.locator("summary").click()
    suffered = devil.locator(".panels2 > div").nth(1).locator("li").all_inner_texts()
    by_key = {r.key: r for r in Role}
    effects = [(a, PANEL.get(by_key[a], {}).get(Role.DEVIL, Effect.NOTHING)) for a in deck]
    expected = [f"{cat['roles'][a]}: {cat['effects'][e.value]}" for a, e in effects
                if e is not Effect.NOTHING]
    assert suffered == expected and any("Werewolf" in x for x in suffered)
    text = page.inner_text("[data-testid=help]")
    assert "Phase 3: Withdrawal" in text and "4 XP in one row" in text and "Tiebreak" in text
    assert "Mayor" in page.inner_text("[data-testid=legend]")
    check_axe(page, axe_source, "help")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=help]", state="detached")
    page.keyboard.press("?")  # the terminal's key opens it too
    page.wait_for_selector("[data-testid=help]")
    ctx.close()


# ---------------------------------------------------------------- 3. decisions


#: What each gesture at the reader does to their card, by the catalog's combat panel.
IF_SHOWN = """async () => {
  const cat = await (await fetch('/api/i18n/en')).json();
  const key = Object.fromEntries(Object.entries(cat.roles).map(([k, v]) => [v, k]));
  const mine = document.querySelector('[data-testid=your-card] [data-role]').dataset.role;
  const rows = [...document.querySelectorAll('[data-testid=who-whom] tbody tr')].map((r) => {
    const [shows, whom] = [...r.querySelectorAll('td')].map((x) => x.innerText);
    return { who: r.querySelector('th').innerText.trim(), shows, whom: whom.split(', ') };
  });
  const effect = (a, b) => {
    const e = (cat.panel[a] || {})[b];
    return e && e !== 'nothing' ? cat.effects[e] : null;
  };
  const shown = new Map(rows.map((r) => [r.who, r.shows]));
  const ana = rows.find((r) => r.who === 'Ana');
  return [rows.filter((r) => r.whom.includes('Ana')).map((r) => effect(key[r.shows], mine))
    .map((e) => e && 'On you, if that is the card: ' + e),
  [...new Set(ana ? ana.whom : [])].filter((p) => shown.has(p)).map((p) => {
    const e = effect(mine, key[shown.get(p)]);
    return e && `On ${p}, if that is the card shown (${shown.get(p)}): ${e}`;
  })];
}"""


def test_withdrawal_names_who_aims_at_you_and_the_face_down_pick_is_announced(
        browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4, pace="fast", beat_s=0.05, decide_s=60)
    code = room["code"]
    seats = []
    for i, name in enumerate(("Bia", "Caio", "Duda")):
        token = join_room(server.base, code, name)["token"]

        def pick(v: dict[str, Any]) -> Any:
            for c in v["choices"]:  # the face-down card when offered; every arrow at Ana
                if c["type"] == "face-down-pick":
                    return c
            aims = [c for c in v["choices"]
                    if c["type"] == "gesture" and "Ana" in c.get("targets", ())]
            stay = [c for c in v["choices"] if c.get("withdrawal") is False]
            return (aims or stay or [None])[0]
        seats.append(Scripted(ws_url(server, code), token, pick, seed=i))
    for s in seats:
        s.start()
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{server.base}/r/{code}#token={room['token']}")
    page.wait_for_selector("[data-testid=start]")
    page.click("[data-testid=start]")
    rng = random.Random(3)
    announced = aimed = False
    effects = 0
    end = time.monotonic() + 60
    try:
        # on to a night that shows an effect too: a gesture at Ana that does nothing to
        # her card says nothing, and a slow machine may reach "aimed" on such a night
        while time.monotonic() < end and not (announced and aimed and effects):
            ph = phase(page)
            if ph == "draft" and page.locator("[data-testid=blind-pick]").count():
                with contextlib.suppress(Exception):  # (a read racing a redraw)
                    who = page.inner_text("[data-testid=blind-pick]", timeout=300)
                    assert who.endswith("took a face-down card.")
                    assert who.split()[0] in ("Bia", "Caio", "Duda")
            if ph == "gesture" and page.locator(".seat .badge.blind").count():
                # after the draft, a mark on the picker's seat, no line under the
                # question through the gestures and the withdrawal (issue 31)
                seat = page.locator(".seat:has(.badge.blind)").get_attribute("data-name")
                assert seat in ("Bia", "Caio", "Duda")
                assert page.locator("[data-testid=blind-pick]").count() == 0
                announced = True
            if ph == "withdrawal" and page.locator("[data-testid=choice-0]").count():
                table = page.locator("[data-testid=who-whom] tbody tr")
                at_me = sorted(r.locator("th").inner_text() for r in table.all()
                               if "Ana" in r.locator("td").nth(1).inner_text())
                listed = page.locator("[data-testid=aimers] li").all_inner_texts()
                assert sorted(x.split(",")[0] for x in listed) == at_me, (listed, at_me)
                assert all(", showing " in x for x in listed)
                # each says what it does to Ana's card if it is the card shown (the
                # combat panel, which her card's lists gave a screen below)
                said = sorted(page.locator("[data-testid=aimers] [data-testid=if-shown]")
                              .all_inner_texts())
                at_ana, by_ana = page.evaluate(IF_SHOWN)
                want = sorted(x for x in at_ana if x)
                assert said == want, (said, want)
                effects += len(said)
                # and Ana's own targets, what her card does to the role each shows
                mine = page.locator("[data-testid=decide] > [data-testid=if-shown]")
                assert sorted(mine.all_inner_texts()) == sorted(x for x in by_ana if x)
                lower = page.locator("button", has_text="Lower the bolt aimed at")
                for b in lower.all():  # the Hunter's arrows name their targets
                    assert b.inner_text().split(" at ")[1] in ("Bia", "Caio", "Duda", "Ana")
                aimed = aimed or bool(at_me)
            if ph == "over":
                break
            click_something(page, rng)
            time.sleep(0.05)
    finally:
        for s in seats:
            s.stop.set()
    assert announced and aimed and effects, (announced, aimed, effects)
    ctx.close()


# ---------------------------------------------------------------- 4-7. a whole game


def test_a_game_told_in_order_to_its_end_and_play_again(
        browser: Any, server: Server, axe_source: str) -> None:
    room = create_room(server.base, "Ana", players=4, pace="fast", beat_s=0.25, decide_s=60)
    code = room["code"]
    add_bots(server, code, room["token"], range(1, 4))
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/r/{code}#token={room['token']}")
    page.wait_for_selector("[data-testid=start]")
    page.click("[data-testid=start]")
    # each bot plays a style of its own this game, said on its badge (issue #32)
    page.wait_for_selector("[data-testid=phase]")
    styled = page.locator(".badge.bot[data-style]")
    expect(styled).to_have_count(3)
    assert all(styled.nth(i).get_attribute("title") for i in range(3))
    rng = random.Random(5)
    checked: set[str] = set()
    before: dict[str, str] = {}
    told_in_order = 0
    end = time.monotonic() + 150
    while time.monotonic() < end:
        ph = phase(page)
        # (the journals before a night, read once the last night's story is told: with
        # bots deciding at once, a loaded machine reached the next gestures while the
        # page still told the night before, its totals rising beat by beat)
        if ph == "gesture":
            told = not page.evaluate("async () => (await import('/static/js/story.js')).telling()")
            before = totals(page) if told else {}  # (a night skipped: not compared)
        if ph in ("draft", "over") and before:
            # the night is being told: a journal changes only once its XP line is told
            # (both read in one task of the page: the telling's next beat may come between
            # two reads, and then a total is ahead of the lines read before it)
            lines, now_totals = page.evaluate("""() => [
              [...document.querySelectorAll('[data-testid=events] li.ev-xp')]
                .map((li) => li.innerText),
              Object.fromEntries([...document.querySelectorAll('[data-testid=journals] tbody tr')]
                .map((r) => [r.dataset.name, r.querySelector('td.total').innerText]))]""")
            names = list(before)
            told = {n for n in names for x in lines if n + " " in x}
            for n in names:
                if n not in told:
                    assert now_totals[n] == before[n], (n, lines, now_totals, before)
            told_in_order += 1
            before = {}
        if ph == "draft" and "draft" not in checked and page.locator("[data-testid=hand]").count():
            page.locator("[data-testid=hand-card-0] summary").click()  # read before picking
            assert "Initiative" in page.inner_text("[data-testid=hand-card-0]")
            check_axe(page, axe_source, "draft")
            checked.add("draft")
        if ph == "withdrawal" and "reveal" not in checked:
            assert page.locator("[data-testid=arrows] path.arrow").count() >= 1
            assert page.locator("[data-testid=who-whom] tbody tr").count() == 4
            check_axe(page, axe_source, "reveal")
            checked.add("reveal")
        counting = page.evaluate("""() => { const c = document.querySelector('[data-testid=count]');
            const d = document.querySelector('[data-testid=countdown]');
            return c && ['1', '2', '3'].includes(c.textContent) ? d.textContent : null; }""")
        if counting is not None:  # the deadline is hidden while the Mayor counts
            assert counting == ""
            checked.add("count")
        if ph == "over" and page.locator("[data-testid=victory]").count():
            break
        click_something(page, rng)
        time.sleep(0.05)
    assert {"draft", "reveal", "count"} <= checked, checked
    assert told_in_order >= 1
    page.wait_for_selector("[data-testid=victory]")
    conditions = page.locator("[data-testid=conditions] li").all_inner_texts()
    # each names its condition, or the row and the card that won it ("4 XP as the
    # Priest": issue 31)
    words = list(catalog("en")["conditions"].values())
    assert conditions and all(any(w in c for w in words) or re.search(r"\d+ XP as the \w", c)
                              for c in conditions), conditions
    box = page.locator("[data-testid=victory]").bounding_box()
    assert box is not None and box["y"] + box["height"] <= DESKTOP["height"]  # no scrolling
    check_axe(page, axe_source, "end")
    assert "darkcity replay" in page.inner_text("[data-testid=record-about]")  # what it is
    assert (page.text_content("[data-testid=announce]") or "").startswith("Winners: ")
    page.locator("[data-testid=night-1] summary").click()  # every night stays at hand
    assert page.locator("[data-testid=events-1] li").count() >= 1
    # each line says its step in words, beside no number of the list's own ("1. 2 The ...")
    steps = page.evaluate("""() => [...document.querySelectorAll('[data-testid=events-1] li')]
        .map((li) => [li.querySelector('.step').textContent,
                      getComputedStyle(li).listStyleType])""")
    assert all((x.startswith("step ") or x == "end of the night") and style == "none"
               for x, style in steps), steps
    seats = list(totals(page))
    page.click("[data-testid=play-again]")
    page.wait_for_url(lambda url: f"/r/{code}" not in url, timeout=10000)
    page.wait_for_selector("[data-testid=start]")
    assert page.inner_text("[data-testid=seat-0] .seatname") == "Ana"
    names = [page.inner_text(f"[data-testid=seat-{i}] .seatname") for i in range(4)]
    assert seats == names
    assert page.locator(".seat.bot").count() == 3  # the bots are kept
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_journals_with_eight_roles_fit(browser: Any, server: Server,
                                       viewport: dict[str, int]) -> None:
    room = create_room(server.base, "Ana", players=8, deck="undead-7")
    add_bots(server, room["code"], room["token"], range(1, 8), start=True)
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=journals]")
    assert page.locator("[data-testid=journals] thead th.rolecol").count() == 8
    no_horizontal_overflow(page, viewport["width"], f"{viewport['width']}px")
    ctx.close()


# ---------------------------------------------------------------- 8-10. set-up, attention, pt


def test_room_set_up_chat_your_turn_and_the_room_language(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    home = ctx.new_page()
    home.goto(server.base + "/")
    assert home.input_value("[data-testid=timeout-level]") == "medium"
    home.fill("[data-testid=name]", "Ana")
    home.select_option("[data-testid=deck]", "custom")
    home.click("[data-testid=create]")  # no card chosen: refused, in plain words
    toast = home.wait_for_selector("[data-testid=toast]")
    assert "Choose the cards of the custom cast" in toast.inner_text()
    assert not any(f"R-{n}" in toast.inner_text() for n in range(200))
    ctx.close()

    room = create_room(server.base, "Ana", players=4, lang="pt_BR", pace="fast")
    code = room["code"]
    bia = join_room(server.base, code, "Bia")
    add_bots(server, code, room["token"], range(2, 4))
    pages = {}
    for who, token, locale in (("Ana", room["token"], "en-US"), ("Bia", bia["token"], "en-US"),
                               ("watcher", None, "fr-FR")):
        page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
        page.goto(f"{server.base}/r/{code}" + (f"#token={token}" if token else ""))
        pages[who] = page
    watcher = pages["watcher"]
    watcher.wait_for_selector("[data-testid=join-panel]")
    assert watcher.evaluate("document.documentElement.lang") == "pt-BR"  # the room's
    assert pages["Ana"].evaluate("document.documentElement.lang") == "en"  # the browser's
    watcher.click("[data-testid=link-watch]")
    pages["Ana"].fill("[data-testid=chat-input]", "<b>boa noite</b>")
    pages["Ana"].press("[data-testid=chat-input]", "Enter")
    for page in pages.values():
        line = page.wait_for_selector("[data-testid=chat-lines] li")
        assert line.inner_text() == "Ana: <b>boa noite</b>"  # text, never HTML
        assert page.locator("[data-testid=chat-lines] b").count() == 0
    assert not watcher.is_visible("[data-testid=chat-form]")  # spectators read only
    assert pages["Bia"].is_visible("[data-testid=chat-form]")
    pages["Ana"].click("[data-testid=start]")
    pages["Ana"].wait_for_selector("[data-testid^=choice-]")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and "Your turn" not in pages["Ana"].title():
        time.sleep(0.1)
    assert pages["Ana"].title().startswith("● Your turn"), pages["Ana"].title()
    assert "Your turn" not in watcher.title() and "Sua vez" not in watcher.title()
    pages["Ana"].click("[data-testid=choice-0]")
    pages["Ana"].wait_for_function("() => !document.title.includes('Your turn')", timeout=5000)
    for page in pages.values():
        page.context.close()


def test_a_seat_opened_in_a_second_window_does_not_ping_pong(browser: Any,
                                                              tmp_path: Path) -> None:
    server = Server(tmp_path / "one.sqlite3", free_port(), DARKCITY_MAX_SOCKETS_PER_MEMBER="1")
    server.start()
    try:
        one_window_per_seat(browser, server)
    finally:
        server.stop()


def one_window_per_seat(browser: Any, server: Server) -> None:
    """With one socket per seat, the older window is told and stays closed (it would
    otherwise take the seat back and be closed again, forever) until asked."""
    room = create_room(server.base, "Ana", players=4)
    link = f"{server.base}/r/{room['code']}#token={room['token']}"
    first = browser.new_context(viewport=DESKTOP).new_page()
    sockets: list[str] = []
    first.on("websocket", lambda ws: sockets.append(ws.url))
    first.goto(link)
    first.wait_for_selector(".seat.me")
    second = browser.new_context(viewport=DESKTOP).new_page()
    second.goto(link)
    second.wait_for_selector(".seat.me")
    first.wait_for_selector("[data-testid=take-back]")  # told, and it stops there
    time.sleep(3)
    assert len(sockets) == 1, sockets
    assert second.locator(".seat.me").count() == 1
    assert second.locator("[data-testid=fatal]").count() == 0
    first.click("[data-testid=take-back]")  # the player chooses where to play
    first.wait_for_selector(".seat.me")
    second.wait_for_selector("[data-testid=take-back]")
    first.context.close()
    second.context.close()


def test_a_sealed_decision_changed_before_the_count(browser: Any, server: Server) -> None:
    room = create_room(server.base, "Ana", players=4, pace="fast", beat_s=0.05, decide_s=60)
    code = room["code"]
    bia = join_room(server.base, code, "Bia")["token"]
    release = threading.Event()

    def pick(v: dict[str, Any]) -> Any:  # Bia holds her gesture until released
        return HOLD if v["phase"] == "gesture" and not release.is_set() else None
    bia_seat = Scripted(ws_url(server, code), bia, pick, seed=1)
    bia_seat.start()
    add_bots(server, code, room["token"], range(2, 4))
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{server.base}/r/{code}#token={room['token']}")
    page.click("[data-testid=start]")
    rng = random.Random(9)
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end:  # to a night where Ana has two gestures to choose from
            while time.monotonic() < end and phase(page) != "gesture":
                click_something(page, rng)
                time.sleep(0.05)
            # a gesture to choose, a role to show first (a Devil), or one sealed already
            open_or_sealed = "[data-testid=choice-0], [data-testid^=shows-], [data-testid=change]"
            page.wait_for_selector(open_or_sealed)
            if page.locator("[data-testid=change]").count():  # a stray click sealed one
                page.click("[data-testid=change]")
            page.wait_for_selector("[data-testid=choice-0], [data-testid^=shows-]")
            if page.locator("[data-testid^=shows-]").count() or \
                    page.locator("[data-testid^=choice-]").count() > 1:
                break
            page.click("[data-testid=choice-0]")  # a Priest prays: on to the next night
            release.set()
            while time.monotonic() < end and phase(page) == "gesture":
                time.sleep(0.05)
            release.clear()
        if page.locator("[data-testid^=shows-]").count():
            page.click("[data-testid=shows-0]")
        page.click("[data-testid=choice-0]")
        page.wait_for_selector("[data-testid=change]")
        before = page.inner_text("[data-testid=my-gesture]")
        page.click("[data-testid=change]")
        # the decision opens again: a role to show first (a Devil), or the gestures; read
        # once it is drawn (read at once, a Devil's "show" could still be on its way)
        page.wait_for_selector("[data-testid^=shows-], [data-testid^=choice-]")
        # (the last role button: the hint under them was 'shows-first' too, and this
        # clicked 'shows-5' of five buttons whenever Ana held the Devil)
        shows = page.locator("[data-testid^=shows-]").count()
        if shows:
            last = f"[data-testid=shows-{shows - 1}]"
            page.click(last)
            page.wait_for_selector(f"{last}[aria-pressed=true]")
            page.wait_for_selector("[data-testid^=choice-]")
        page.locator("[data-testid^=choice-]").last.click()
        page.wait_for_selector("[data-testid=change]")
        after = page.inner_text("[data-testid=my-gesture]")
        assert after != before, (before, after)
        release.set()  # Bia decides: the count, then the reveal shows the changed gesture
        page.wait_for_selector("[data-phase=withdrawal], [data-phase=zombie], [data-phase=draft]")
        assert page.locator("[data-testid=change]").count() == 0
        row = page.locator("[data-testid=who-whom] tbody tr").first
        if phase(page) == "withdrawal":
            shows = row.locator("td").nth(0).inner_text()
            whom = [x.strip() for x in row.locator("td").nth(1).inner_text().split(",")]
            assert shows in after, (shows, after)
            assert all(x in after for x in whom if x != "—"), (whom, after)
    finally:
        bia_seat.stop.set()
        release.set()
    page.context.close()
