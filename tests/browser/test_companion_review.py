"""What a first-time review of the table companion fixed, kept fixed (375 px, touch):
the decks by their names; the games in progress on this device found again from the
set-up page; a network failure said in the reader's words with nothing stored (never
the browser's "Failed to fetch"), and said for as long as it lasts; eight players'
journals inside a phone's width.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from darkcity.cast import Role  # noqa: E402
from darkcity.game import Game, play_randomly  # noqa: E402
from darkcity.notation import adjudicate, result_document  # noqa: E402
from darkcity.settings import Settings, bot_rng  # noqa: E402

from ..test_server_process import Server  # noqa: E402
from .test_companion_browser import ENTRY, HEIGHT, WIDTH, Driver, table_game  # noqa: E402

PLAYERS = ["Ana", "Bia", "Caio", "Duda"]


def mayor_page(browser: Any) -> Any:
    return browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True,
                               locale="en-US").new_page()


def new_table(base: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables", json={"players": PLAYERS, "deck": "basic", "lang": "en",
                                               "free_xp": dict.fromkeys(PLAYERS, "priest")},
                   timeout=10)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


def stage(base: str, code: str, token: str) -> str:
    r = httpx.get(f"{base}/api/tables/{code}", headers={"X-Table-Token": token}, timeout=10)
    value: str = r.json()["stage"]
    return value


def test_decks_by_name_and_a_game_in_progress_found_again(browser: Any,
                                                          table_server: Server) -> None:
    page = mayor_page(browser)
    page.goto(f"{table_server.base}/table")
    page.get_by_test_id("panel-setup").wait_for()
    labels = page.locator("[data-testid=deck] option").all_inner_texts()
    assert "Basic (12 cards)" in labels and "basic" not in labels, labels
    assert page.get_by_test_id("resume").count() == 0
    t = new_table(table_server.base)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"darkcity:table:{t['code']}", t["token"]])
    page.evaluate("localStorage.setItem('darkcity:table:GONE22', 'x')")  # a table not there
    page.reload()
    link = page.get_by_test_id(f"resume-{t['code']}")
    link.wait_for()
    assert "Ana, Bia, Caio, Duda" in page.get_by_test_id("resume").inner_text()
    assert page.evaluate("localStorage.getItem('darkcity:table:GONE22')") is None
    link.tap()
    page.get_by_test_id("panel-draft").wait_for()  # the Mayor's screen again
    page.context.close()


def test_a_network_failure_is_said_in_words_and_stores_nothing(browser: Any,
                                                               table_server: Server) -> None:
    t = new_table(table_server.base)
    page = mayor_page(browser)
    page.goto(f"{table_server.base}/table/{t['code']}#mayor={t['token']}")
    page.get_by_test_id("panel-draft").wait_for()
    page.route("**/api/tables/**", lambda route: route.abort())
    page.get_by_test_id("offline").wait_for()  # the next poll fails: said at once
    page.get_by_test_id("drafted").tap()
    toast = page.get_by_test_id("toast").last
    expect(toast).to_contain_text("That entry was not saved: try again.")
    assert "fetch" not in toast.inner_text().lower()
    assert stage(table_server.base, t["code"], t["token"]) == "draft"  # nothing stored
    page.unroute("**/api/tables/**")
    page.get_by_test_id("offline").wait_for(state="detached")
    page.get_by_test_id("drafted").tap()
    page.get_by_test_id("panel-count").wait_for()
    assert stage(table_server.base, t["code"], t["token"]) == "count"
    page.context.close()


def test_eight_players_journals_fit_a_phone(browser: Any, table_server: Server) -> None:
    game = table_game("death-alien-7", 8)
    page = mayor_page(browser)
    d = Driver(page, table_server.base)
    d.set_up(game)
    d.play(game.nights[0])
    d.wait_stage("over" if len(game.nights) == 1 else "journals")
    table, box, page_width = page.evaluate("""() => {
        const t = document.querySelector('[data-testid=journals]');
        return [t.scrollWidth, t.parentElement.clientWidth, document.documentElement.scrollWidth];
    }""")
    assert table <= box and page_width <= WIDTH, (table, box, page_width)
    assert page.locator("[data-testid=journals] tbody tr").count() == 8
    page.context.close()


def enter(base: str, code: str, token: str, entry: dict[str, Any]) -> None:
    r = httpx.post(f"{base}/api/tables/{code}/entries", headers={"X-Table-Token": token},
                   json={"entry": entry}, timeout=10)
    assert r.status_code == 200, r.text


def test_undo_says_what_it_takes_back_in_the_tables_words(browser: Any,
                                                          table_server: Server) -> None:
    """A second review (stop 22), the Mayor's phone in pt_BR: Undo's button names the
    entry it takes back (never Death's written name), a toast says what was taken
    back, and the small buttons are a finger's size (44 px)."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    page = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("panel-draft").wait_for()
    undo = page.get_by_test_id("undo")
    assert undo.is_disabled() and undo.inner_text() == "Desfazer"
    enter(base, code, token, {"type": "drafted"})
    enter(base, code, token, {"type": "counted"})
    page.get_by_test_id("panel-reveal").wait_for()
    expect(undo).to_have_text("Desfazer: a contagem")
    first = page.get_by_test_id("reveal-current").inner_text().strip()
    page.get_by_test_id("role-priest").tap()
    expect(undo).to_have_text(f"Desfazer: gesto de {first}")
    undo.tap()
    expect(page.get_by_test_id("toast").last).to_have_text(f"Desfeito: gesto de {first}")
    expect(undo).to_have_text("Desfazer: a contagem")
    assert page.get_by_test_id("reveal-current").inner_text().strip() == first
    for p in PLAYERS:
        enter(base, code, token, {"type": "gesture", "player": p, "shows": "priest"})
    enter(base, code, token, {"type": "revealed"})
    enter(base, code, token, {"type": "withdrawal", "player": "Bia", "withdrawal": True})
    page.get_by_test_id("panel-withdrawal").wait_for()
    expect(undo).to_have_text("Desfazer: Bia desistiu")  # the words of the button tapped
    heights = page.evaluate(
        "() => [...document.querySelectorAll('#app button')]"
        ".map(b => b.getBoundingClientRect().height)")
    assert min(heights) >= 44, heights
    # stop 23: the bar's labels take two lines at most (three made a 170 px bar)
    page.get_by_test_id("correct").wait_for()
    assert bar_lines(page) <= 2
    page.context.close()


def bar_lines(page: Any) -> int:
    """The most lines a button of the Mayor's bar takes."""
    lines: int = page.evaluate("""() => Math.max(
        ...[...document.querySelectorAll('nav.bar button')].map((b) => {
          const s = getComputedStyle(b);
          const inner = b.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
          return Math.round(inner / parseFloat(s.lineHeight)); }))""")
    return lines


class CallWatcher(Driver):
    """A Driver that, before each tap of *Next* in Phase 4, checks what the Mayor's
    phone shows without scrolling: the call, and the button when the panel fits."""

    checked = 0

    def tap(self, testid: str, *, sends: bool = False) -> None:
        if testid == "call-next":
            room, call, panel, button, label, chosen = self.page.evaluate("""() => {
                const box = (s) => document.querySelector(s).getBoundingClientRect();
                const bar = document.querySelector('nav.bar').offsetHeight;
                const b = box('[data-testid=call-next]');
                return [innerHeight - bar, box('[data-testid=call]'),
                        box('[data-testid=panel-call]'), b,
                        document.querySelector('[data-testid=call-next]').textContent,
                        document.querySelectorAll('[data-testid^=holder-][aria-pressed=true]').length];
            }""")
            assert call["top"] >= 0 and call["bottom"] <= room, (call, room)
            if panel["height"] <= room:
                assert button["top"] >= 0 and button["bottom"] <= room, (button, room)
            q = self.state()["question"]
            if q["role"] in ("devil", "angel") and q["candidates"]:
                assert (label == "Ninguém revela: próximo") == (chosen == 0), (label, chosen)
            self.checked += 1
        super().tap(testid, sends=sends)


def test_each_call_is_on_the_mayors_phone_without_scrolling(browser: Any,
                                                           table_server: Server) -> None:
    """Stop 22: the night's story grows above the call; at each call the page scrolls
    to it, on a 375x667 phone in pt_BR (a 7-player Creature deck, two nights)."""
    game = table_game("creatures-7", 7, death=False)
    page = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()
    d = CallWatcher(page, table_server.base, lang="pt_BR")
    d.set_up(game)
    for k, rec in enumerate(game.nights[:2]):
        d.night(rec, k == len(game.nights) - 1)
    assert d.checked >= 8
    page.context.close()


def test_axe_table_companion_mayor_and_phone_in_pt(browser: Any, table_server: Server,
                                                   axe_source: str) -> None:
    """axe-core on the companion (no serious or critical violation), 375 px, pt_BR:
    the set-up, the Mayor's draft, reveal, withdrawals, a call, and a player's phone."""
    from .test_web_play import check_axe

    ctx = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                              locale="pt-BR", bypass_csp=True)
    page = ctx.new_page()
    base = table_server.base
    page.goto(f"{base}/table?lang=pt_BR")
    page.get_by_test_id("panel-setup").wait_for()
    check_axe(page, axe_source, "set-up")
    t = new_table(base)
    code, token = t["code"], t["token"]
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("panel-draft").wait_for()
    check_axe(page, axe_source, "draft")
    enter(base, code, token, {"type": "drafted"})
    enter(base, code, token, {"type": "counted"})
    page.get_by_test_id("panel-reveal").wait_for()
    check_axe(page, axe_source, "reveal")
    for p in PLAYERS:
        enter(base, code, token, {"type": "gesture", "player": p, "shows": "priest"})
    enter(base, code, token, {"type": "revealed"})
    page.get_by_test_id("panel-withdrawal").wait_for()
    check_axe(page, axe_source, "withdrawals")
    enter(base, code, token, {"type": "withdrawn"})
    page.get_by_test_id("panel-call").wait_for()
    check_axe(page, axe_source, "call")
    phone_ctx = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                                    locale="pt-BR", bypass_csp=True)
    phone = phone_ctx.new_page()  # another device: the Mayor's link is not in its storage
    phone.goto(f"{base}/table/{code}?lang=pt_BR")
    phone.get_by_test_id("iam-Bia").tap()
    phone.get_by_test_id("panel-phone").wait_for()
    phone.get_by_test_id("journals").wait_for()
    check_axe(phone, axe_source, "phone")
    phone_ctx.close()
    ctx.close()


def test_a_gesture_corrected_after_the_night_keeps_the_rest(browser: Any,
                                                            table_server: Server) -> None:
    """"Wait, I showed the Werewolf": once the night is resolved, the Mayor corrects one
    gesture; every entry after it that still holds is kept (here, all of them)."""
    game = table_game()
    page = mayor_page(browser)
    d = Driver(page, table_server.base)
    d.set_up(game)
    rec = game.nights[0]
    d.play(rec)
    d.wait_stage("over" if len(game.nights) == 1 else "journals")
    before = d.state()
    night = rec.night
    p = next(q for q in before["gesturing"] if night.shown(q) in (
        Role.PRIEST, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE, Role.HUNTER))
    d.tap("correct")
    page.get_by_test_id("panel-correct").wait_for()
    d.tap(f"who-{p}")
    assert page.get_by_test_id("reveal-current").inner_text().strip() == p
    shows, g = night.shown(p), night.gestures.get(p)
    taps = [f"role-{shows.key}"] + ([f"target-{x}" for x in g.targets] if g else [])
    for tid in taps[:-1]:
        d.tap(tid)
    with page.expect_response(re.compile(r"/api/tables/\w+/correct")) as r:
        page.get_by_test_id(taps[-1]).click()
    assert r.value.status == 200 and r.value.json()["dropped"] == 0, r.value.text()
    expect(page.get_by_test_id("toast").last).to_contain_text(
        f"Corrected: {p}'s gesture; everything entered after it still holds")
    after = d.state()
    assert after["stage"] == before["stage"] and after["result"] == before["result"]
    assert page.get_by_test_id("panel-correct").count() == 0
    # only a gesture can be corrected, and only by the Mayor
    bad = httpx.post(f"{table_server.base}/api/tables/{d.code}/correct",
                     json={"entry": {"type": "counted"}},
                     headers={"X-Table-Token": d.token}, timeout=10)
    assert bad.status_code == 400 and "Only a gesture" in bad.json()["message"]
    nobody = httpx.post(f"{table_server.base}/api/tables/{d.code}/correct",
                        json={"entry": {"type": "gesture", "player": p, "shows": "priest"}},
                        timeout=10)
    assert nobody.status_code == 403
    page.context.close()


# ---------------------------------------------------------------------------- stop 23

def on_screen(page: Any, testid: str) -> bool:
    """Whether the control is wholly in the viewport and nothing covers its middle."""
    seen: bool = page.evaluate("""(id) => {
        const b = document.querySelector(`[data-testid="${id}"]`);
        if (!b) return false;
        const r = b.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return Boolean(hit && b.contains(hit));
    }""", testid)
    return seen


class EndWatcher(Driver):
    """A Driver that, at each night's end, checks that the next step is on screen
    without scrolling, and counts the Mayor's taps per night."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.per_night: list[int] = []
        self._start = 0

    def play(self, rec: Any, phone: Any | None = None) -> dict[str, Any]:
        self._start = self.taps
        return super().play(rec, phone)

    def count(self) -> list[float]:
        self.taps += 1  # the count's one tap (Driver.count clicks it directly)
        return super().count()

    def withdrawals(self, rec: Any) -> None:
        # stop 24: the end of the withdrawals is in the Mayor's bar, on screen however
        # long the list (eight players, Hunters' bolts)
        self.wait_stage("withdrawal")
        assert on_screen(self.page, "withdrawals-done")
        super().withdrawals(rec)

    def journals(self, last: bool) -> None:
        self.wait_stage("over" if last else "journals")
        step = "new-game" if last else "next-night"
        self.page.get_by_test_id(step).wait_for()
        assert on_screen(self.page, step), step
        assert bar_lines(self.page) <= 2
        if last:  # the winners are brought on screen, above the bar
            self.page.wait_for_timeout(100)
            assert on_screen(self.page, "winners")
        self.per_night.append(self.taps - self._start + (0 if last else 1))
        super().journals(last)


def table_of(base: str, game: Any, lang: str) -> tuple[str, str]:
    """A table for an engine game's players, deck (by its name) and free XP."""
    players = list(game.players)
    r = httpx.post(f"{base}/api/tables", json={
        "players": players, "deck": game.settings.deck.name, "lang": lang,
        "free_xp": {p: game.free_xp[p].key for p in players}}, timeout=10)
    r.raise_for_status()
    return r.json()["code"], r.json()["token"]


def test_the_next_step_is_on_the_mayors_phone_at_each_nights_end(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """Stop 23: *Next night* was 1,200-1,400 px down, under the story, the fates and
    the journals; it is in the Mayor's bar, on screen at every night's end (375x667,
    pt_BR), and the game's end offers a new game with the same players. A whole
    8-player game on a special deck (Death and the Alien, two of each main role); the
    Mayor's taps per night are written to the artifacts."""
    game = table_game("death-alien-7", 8)
    page = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    d = EndWatcher(page, table_server.base, lang="pt_BR")
    d.code, d.token = table_of(table_server.base, game, "pt_BR")
    page.goto(f"{table_server.base}/table/{d.code}?lang=pt_BR#mayor={d.token}")
    for k, rec in enumerate(game.nights):
        d.night(rec, k == len(game.nights) - 1)
    assert d.state()["winners"] == list(game.winners)
    assert len(d.per_night) == len(game.nights)
    (artifacts / "companion-8-players-taps.json").write_text(json.dumps(d.per_night))
    # a new game: the set-up again, with the same players in the same order and deck
    d.tap("new-game")
    page.get_by_test_id("panel-setup").wait_for()
    seats = [page.get_by_test_id(f"seat-{i}").input_value() for i in range(len(game.players))]
    assert seats == list(game.players), seats
    assert page.get_by_test_id("deck").input_value() == "death-alien-7"
    assert not errors, errors
    page.context.close()


def beside(page: Any, testid: str) -> bool:
    """Whether the panel stands to the right of the night's story (a wide screen)."""
    right: bool = page.evaluate("""(id) => {
        const s = document.querySelector('[data-testid=story]');
        const p = document.querySelector(`[data-testid="${id}"]`);
        return Boolean(s && p && p.getBoundingClientRect().left > s.getBoundingClientRect().right);
    }""", testid)
    return right


class KeyboardDriver(Driver):
    """Enters a night as a Mayor at a laptop with the keyboard alone: Tab (or
    Shift+Tab) to the control, then Enter or Space. Before each key the focus is on a
    control of the page (never lost to the body by a re-draw), and at each new call it
    is already in the call's panel."""

    presses = 0
    calls_focused = 0
    side_by_side = 0
    _key = 0

    def _focused(self) -> str | None:
        found: str | None = self.page.evaluate(
            "() => document.activeElement && document.activeElement !== document.body"
            " ? (document.activeElement.getAttribute('data-testid') || '?') : null")
        return found

    def tap(self, testid: str, *, sends: bool = False) -> None:
        page = self.page
        page.get_by_test_id(testid).wait_for()
        now = self._focused()
        assert now is not None, f"the focus was lost before {testid}"
        if testid.startswith(("holder-", "card-", "zombie-", "call-next")) and now.startswith(
                ("holder-", "card-", "zombie-", "call-next")):
            self.calls_focused += 1
        if testid == "call-next" and beside(page, "panel-call"):
            self.side_by_side += 1
        for _ in range(60):
            if self._focused() == testid:
                break
            back = page.evaluate("""(id) => {
                const f = [...document.querySelectorAll(
                  'button:not([disabled]), a[href], select, input, summary')];
                const at = f.indexOf(document.activeElement);
                return f.findIndex((e) => e.getAttribute('data-testid') === id) < at;
            }""", testid)
            page.keyboard.press("Shift+Tab" if back else "Tab")
            self.presses += 1
        assert self._focused() == testid, testid
        self.taps += 1
        self._key += 1
        key = "Enter" if self._key % 2 else "Space"  # both work on a button
        if sends:
            with page.expect_response(ENTRY) as r:
                page.keyboard.press(key)
            assert r.value.status == 200, r.value.text()
            self.drawn(r.value)
        else:
            page.keyboard.press(key)

    def count(self) -> list[float]:
        self.wait_stage("count")
        self.tap("count-start")
        self.wait_stage("reveal")
        return []


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_a_night_on_a_laptop_with_the_keyboard_alone(browser: Any, table_server: Server,
                                                     lang: str, artifacts: Path) -> None:
    """Stop 23: a Mayor at a laptop (1280x800) enters a whole night with Tab, Enter and
    Space; the focus survives every re-draw of the page and moves to each new
    question (the next player, the next call, *Next night*). The story and the call
    sit side by side on the wide screen."""
    game = table_game()
    rec = game.nights[0]
    page = browser.new_context(viewport={"width": 1280, "height": 800},
                               locale="pt-BR" if lang == "pt_BR" else "en-US").new_page()
    d = KeyboardDriver(page, table_server.base, lang=lang)
    d.code, d.token = table_of(table_server.base, game, lang)
    page.goto(f"{table_server.base}/table/{d.code}?lang={lang}#mayor={d.token}")
    d.wait_stage("draft")
    page.get_by_test_id("panel-draft").locator("[data-focus]").wait_for()
    page.keyboard.press("Tab")  # a fresh page: the first Tab reaches the page
    d.truth = dict(rec.night.cards)
    d.draft(rec)
    d.count()
    d.reveal(rec)
    d.withdrawals(rec)
    d.calls(rec)
    d.wait_stage("over" if len(game.nights) == 1 else "journals")
    assert d.calls_focused >= 3, d.calls_focused
    assert d.side_by_side >= 2, d.side_by_side
    assert beside(page, "panel-journals")
    if len(game.nights) > 1:
        assert d._focused() == "next-night"  # the next step has the focus
        assert on_screen(page, "next-night")
    # a night of about 20 entries: the Tab presses stay a small multiple of them
    assert d.presses <= 8 * d.taps, (d.presses, d.taps)
    (artifacts / f"companion-keyboard-{lang}.json").write_text(json.dumps(
        {"entries": d.taps, "tab_presses": d.presses, "calls_focused": d.calls_focused}))
    page.context.close()


# ---------------------------------------------------------------------------- stop 24

def _told_at_calls(game: Any) -> list[int]:
    """How many cards another's answer tells at the calls of each night of ``game``,
    entered in the model as the page enters them."""
    from darkcity.companion import Companion, TableSetup

    from ..test_companion import transcribe

    c = Companion(TableSetup.of(game.players, game.settings.deck, dict(game.free_xp)))
    told = [0] * len(game.nights)
    original = c.enter

    def enter(e: Any) -> None:
        q = c.question()
        if q is not None:
            entered: dict[str, Any] = {}
            for p in [x for x in q.candidates if x in e.cards and x not in q.asked] + [
                    x for x in q.asked]:
                if q.followed(p, entered) is not None:
                    told[c.number - 1] += 1
                elif len(q.answers(p)) > 1:
                    entered[p] = e.cards[p]
        original(e)

    c.enter = enter  # type: ignore[method-assign]
    for k, rec in enumerate(game.nights):
        transcribe(c, rec, last=k == len(game.nights) - 1)
    return told


def test_two_editions_at_one_call_are_asked_once_on_the_page(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """Stop 24: a Devil, a Vampire, a Hunter and a Priest of each edition. When both
    cards of one role turn over at one call, the Mayor taps the first one's card and
    the page says the other's ("Bia: the other card, Vampire (advanced)"); the buttons
    for it are gone. Every night is still the engine's (375x667, pt_BR)."""
    from darkcity.deck import parse_deck

    from ..test_companion import MIXED, NAMES

    deck = parse_deck(MIXED, 6)
    game = next(g for seed in range(60) if (g := play_randomly(Game(Settings(
        players=NAMES[:6], deck=deck), seed), bot_rng(seed))) and _told_at_calls(g)[0])
    rec = game.nights[0]
    page = browser.new_context(viewport={"width": WIDTH, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players = list(game.players)
    r = httpx.post(f"{table_server.base}/api/tables", json={
        "players": players, "cards": deck.keys(), "lang": "pt_BR",
        "free_xp": {p: game.free_xp[p].key for p in players}}, timeout=10)
    r.raise_for_status()
    d = Driver(page, table_server.base, lang="pt_BR")
    d.code, d.token = r.json()["code"], r.json()["token"]
    page.goto(f"{table_server.base}/table/{d.code}?lang=pt_BR#mayor={d.token}")
    d.play(rec)  # the first night, whose calls tell a card
    d.wait_stage("over" if len(game.nights) == 1 else "journals")
    got = httpx.get(f"{table_server.base}/api/tables/{d.code}/nights/1", timeout=10).json()
    assert adjudicate(got) == result_document(rec.result)
    assert len(d.told) == _told_at_calls(game)[0] > 0
    assert all(": a outra carta, " in x for x in d.told), d.told
    (artifacts / "companion-cards-told.json").write_text(json.dumps(
        {"told": d.told, "taps": d.taps}, ensure_ascii=False))
    assert not errors, errors
    page.context.close()
