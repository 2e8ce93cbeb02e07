"""The table companion at the table's pace (issue #28), at 375x667 with touch, in
pt_BR and en: what a group meets on the first screen (the names typed at the set-up,
a card's rules on a player's phone) and what keeps the night's rhythm (a count for the
withdrawals, the gestures beside the names, nothing covering the call).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from darkcity.deck import PRESETS  # noqa: E402

from ..test_server_process import Server  # noqa: E402

PLAYERS = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
FREE = dict(zip(PLAYERS, ("devil", "priest", "werewolf", "zombie", "hunter", "priest"),
                strict=True))
LANGS = [("pt_BR", "pt-BR"), ("en", "en-US")]


def phone(browser: Any, locale: str) -> Any:
    return browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                               locale=locale).new_page()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_six_names_typed_at_a_persons_pace_are_all_kept(
        browser: Any, table_server: Server, artifacts: Path, lang: str, locale: str) -> None:
    """The Mayor taps the first name's field, types 'Ana' a key at a time, taps the
    next field, types 'Bia', and so on to six: the set-up drew the page again when a
    field was left, and the field just tapped was a new one, unfocused (the phone's
    keyboard closed), so every other name was lost (Ana, —, Caio, —, Enzo, —). Tab
    from field to field did the same. All six are kept, the focus in the field tapped."""
    page = phone(browser, locale)
    try:
        page.goto(f"{table_server.base}/table?lang={lang}")
        expect(page.get_by_test_id("seat-5")).to_be_visible(timeout=10_000)
        page.wait_for_load_state("networkidle")
        for i, name in enumerate(PLAYERS[:3]):
            page.get_by_test_id(f"seat-{i}").tap()
            page.keyboard.type(name, delay=60)
        for i, name in enumerate(PLAYERS[3:], start=3):  # Tab, past the row's ↑ and ✕
            for _ in range(4):
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement?.dataset.testid") == f"seat-{i}":
                    break
            page.keyboard.type(name, delay=60)
        page.get_by_test_id("free-5").wait_for(timeout=10_000)
        kept = page.evaluate("[...document.querySelectorAll('[data-testid^=seat-]')]"
                             ".map((x) => x.value)")
        assert kept == PLAYERS, kept
        saved = page.evaluate("JSON.parse(localStorage.getItem('darkcity:table:setup'))")
        assert saved["players"] == PLAYERS, saved
        assert page.evaluate("document.activeElement.dataset.testid") == "seat-5"
        page.screenshot(path=str(artifacts / f"companion-pace-names-{lang}.png"))
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_every_cards_rules_on_a_players_phone_are_words(
        browser: Any, table_server: Server, lang: str, locale: str) -> None:
    """Every card of several decks opened in the rules on Bia's phone: the Hunter's or
    the Zombie's powers read '[object HTMLParagraphElement],[object
    HTMLParagraphElement]' (an array of paragraphs appended as a string). Words only."""
    base = table_server.base
    decks = ["basic", "advanced", "reporter-death-6", "angel-alien-6", "reporter-creature-6",
             "creature-mummy-6"]
    page = phone(browser, locale)
    try:
        for deck in decks:
            assert PRESETS[deck][1][0] <= 6 <= PRESETS[deck][1][1]
            sheet = httpx.post(f"{base}/api/tables/check", json={
                "players": PLAYERS, "deck": deck}, timeout=10).json()["sheet"]
            r = httpx.post(f"{base}/api/tables", json={
                "players": PLAYERS, "deck": deck, "lang": lang,
                "free_xp": dict.fromkeys(PLAYERS, sheet[0])}, timeout=10)
            r.raise_for_status()
            code = r.json()["code"]
            page.goto(f"{base}/table/{code}?lang={lang}")
            page.get_by_test_id("iam-Bia").tap()
            sel = page.get_by_test_id("rules-role")
            sel.wait_for(timeout=10_000)
            roles = [x for x in sel.locator("option").evaluate_all(
                "(os) => os.map((o) => o.value)") if x]
            assert roles
            for role in roles:
                page.get_by_test_id("rules-role").select_option(role)
                expect(page.get_by_test_id("rules-role")).to_have_value(role)
                text = page.get_by_test_id("rules").inner_text()
                assert "[object" not in text and "undefined" not in text, (deck, role, text)
                lines = page.get_by_test_id("rules").locator("p").all_inner_texts()
                assert len([x for x in lines if x.strip()]) >= 2, (deck, role, lines)
            page.get_by_test_id("not-me").tap()
            page.get_by_test_id("iam-Bia").wait_for(timeout=10_000)
    finally:
        page.context.close()




def _shown(cat: dict[str, Any], entry: dict[str, Any]) -> str:
    s = cat["roles"][entry["shows"]]
    return f"{s} → {', '.join(entry['targets'])}" if entry.get("targets") else s


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_withdrawals_are_counted_and_the_gestures_shown_beside_the_names(
        browser: Any, table_server: Server, artifacts: Path, lang: str, locale: str) -> None:
    """Both rulebooks have the Mayor ask "Who wants to withdraw?" and count "1, 2, 3,
    now!" again; the companion counted the gestures only. Phase 3 opens on that count
    (the question said, then the four beats at the gestures' 900 ms), then the taps.
    Beside each name, at the withdrawals and at each call, what that player showed and
    at whom (the list had names only: six gestures to remember)."""
    from darkcity.companion.text import table_catalog

    from .test_companion_newcomer import BASIC_NIGHT, Mayor

    cat = table_catalog(lang)
    mayor = Mayor(table_server.base)
    for e in BASIC_NIGHT[:9]:  # to the end of Phase 2
        mayor.enter(e)
    gestures = {e["player"]: e for e in BASIC_NIGHT if e["type"] == "gesture"}
    page = phone(browser, locale)
    try:
        page.goto(f"{table_server.base}/table/{mayor.code}?lang={lang}#mayor={mayor.token}")
        start = page.get_by_test_id("wd-count-start")
        expect(start).to_have_text(cat["ui"]["Who wants to withdraw? 1, 2, 3, now!"],
                                   timeout=10_000)
        expect(start).to_be_focused()
        for p, e in gestures.items():
            expect(page.get_by_test_id(f"fled-{p}").locator(".gest")).to_have_text(
                _shown(cat, e))
        page.screenshot(path=str(artifacts / f"companion-pace-withdrawals-{lang}.png"))
        start.tap()
        overlay = page.get_by_test_id("count")
        expect(overlay).to_have_text(cat["ui"]["Who wants to withdraw?"])
        page.wait_for_function("() => (window.__darkcityCount || []).length === 4",
                               timeout=10_000)
        expect(overlay).to_be_hidden(timeout=5_000)
        beats = page.evaluate("() => window.__darkcityCount")
        assert [b["text"] for b in beats] == [cat["ui"][x] for x in ("1", "2", "3", "Now!")]
        dues = [b["due"] for b in beats]
        assert [round(b - a) for a, b in pairwise(dues)] == [900] * 3
        lag = max(b["at"] - b["due"] for b in beats)
        print(f"withdrawal count: 4 beats 900 ms apart, the latest {lag:.0f} ms late")
        # the taps: the count done, the focus on the first name; the count can be run again
        expect(page.get_by_test_id("fled-Ana")).to_be_focused()
        expect(page.get_by_test_id("wd-count-start")).to_have_text(cat["ui"]["Count again"])
        # every name on screen above the Mayor's bar, the last one included
        fold = page.evaluate("""() => {
            const bar = document.querySelector('nav.bar').getBoundingClientRect().top;
            return [...document.querySelectorAll('[data-testid^=fled-]')].map(
                (b) => b.getBoundingClientRect().bottom <= bar); }""")
        page.screenshot(path=str(artifacts / f"companion-pace-withdrawals-counted-{lang}.png"))
        assert fold == [True] * 6, fold
        page.get_by_test_id("fled-Caio").tap()
        expect(page.get_by_test_id("fled-Caio").locator(".who")).to_have_text(
            cat["ui"]["{player} fled"].format(player="Caio"))
        page.get_by_test_id("arrow-Enzo-1").tap()
        expect(page.get_by_test_id("arrow-Enzo-1")).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("withdrawals-done").tap()
        # the Devil's call: every name with its gesture (and its withdrawal) beside it;
        # Enzo, who lowered a bolt, is a Hunter (D-7) and is not offered (issue #51)
        expect(page.get_by_test_id("call")).to_have_text(cat["calls"]["devil"],
                                                         timeout=10_000)
        expect(page.get_by_test_id("holder-Enzo")).to_have_count(0)
        for p, e in gestures.items():
            if p == "Enzo":
                continue
            want = _shown(cat, e)
            if p == "Caio":
                want += f" · {cat['ui']['fled']}"
            expect(page.get_by_test_id(f"holder-{p}").locator(".gest")).to_have_text(want)
        page.screenshot(path=str(artifacts / f"companion-pace-call-{lang}.png"))
        page.get_by_test_id("call-next").tap()  # nobody turns the Devil over
        expect(page.get_by_test_id("call")).not_to_have_text(cat["calls"]["devil"],
                                                             timeout=10_000)
        holders = page.locator("[data-testid=holders] [data-testid^=holder-]")
        assert holders.count() >= 1
        for i in range(holders.count()):
            p = holders.nth(i).get_attribute("data-testid").removeprefix("holder-")
            expect(holders.nth(i).locator(".gest")).to_contain_text(_shown(cat, gestures[p]))
    finally:
        page.context.close()


COVERED = """() => {
    // the messages: the toasts and the offline banner
    const toasts = [...document.querySelectorAll('[data-testid=toast], [data-testid=offline]')]
        .map((e) => e.getBoundingClientRect());
    const bar = document.querySelector('nav.bar');
    const H = window.innerHeight;
    const barTop = bar ? bar.getBoundingClientRect().top : H;
    const hits = [];
    const sel = 'h1, h2, .call, button, select, summary, a, input, [role=alert]';
    for (const e of document.querySelectorAll(sel)) {
        if (e.closest('#toasts, [data-testid=offline]')) continue;
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        // the part of it on screen: above the Mayor's bar, unless it is in the bar
        const top = Math.max(r.top, 0);
        const bottom = Math.min(r.bottom, e.closest('nav.bar') ? H : barTop);
        if (bottom <= top) continue;
        for (const t of toasts) {
            if (t.left < r.right && r.left < t.right && t.top < bottom && top < t.bottom) {
                hits.push(`${e.dataset.testid || e.tagName}: ${e.textContent.slice(0, 40)}`);
            }
        }
    }
    const call = document.querySelector('[data-testid=call]');
    const c = call && call.getBoundingClientRect();
    return { hits, n: toasts.length,
             inView: toasts.every((t) => t.top >= 0 && t.bottom <= H && t.height > 0),
             callSeen: !c || (c.top >= 0 && c.bottom <= barTop) };
}"""


@pytest.mark.parametrize("size", [(375, 667), (1280, 800)])
@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_no_message_covers_a_title_or_a_control(
        browser: Any, table_server: Server, artifacts: Path, lang: str, locale: str,
        size: tuple[int, int]) -> None:
    """The messages popped up at the top of the screen, over the call's title ('O
    Demônio?') and the offline banner. They sit at the top of the Mayor's bar, the page
    moved up by their height, so they cover no title and no control: measured (every
    title, button, link, field and alert on screen against every message's box) on a
    phone and a laptop, after an undo at a call and with the server unreachable."""
    from darkcity.companion.text import table_catalog

    from .test_companion_newcomer import BASIC_NIGHT, Mayor

    cat = table_catalog(lang)
    mayor = Mayor(table_server.base)
    for e in BASIC_NIGHT:
        v = mayor.enter(e)
    mayor.call(v)  # step 1, the Devil's: nobody
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height},
                               has_touch=True, locale=locale).new_page()
    try:
        page.goto(f"{table_server.base}/table/{mayor.code}?lang={lang}#mayor={mayor.token}")
        expect(page.get_by_test_id("call")).not_to_have_text(cat["calls"]["devil"],
                                                             timeout=10_000)
        page.get_by_test_id("undo").tap()
        expect(page.get_by_test_id("call")).to_have_text(cat["calls"]["devil"],
                                                         timeout=10_000)
        toast = page.get_by_test_id("toast")
        expect(toast).to_have_text(cat["ui"]["Taken back: {what}"].format(
            what=cat["ui"]["step {step}"].format(step="1")))
        seen = page.evaluate(COVERED)
        assert seen["n"] == 1 and seen["inView"] and seen["callSeen"], seen
        assert seen["hits"] == [], seen
        page.screenshot(path=str(artifacts / f"companion-pace-toast-{lang}-{width}.png"))
        # the server gone: the banner, then an entry refused on the way
        page.route("**/api/tables/**", lambda route: route.abort())
        expect(page.get_by_test_id("offline")).to_be_visible(timeout=10_000)
        page.get_by_test_id("call-next").tap()
        expect(toast.last).to_contain_text(cat["ui"]["That entry was not saved: try again."],
                                           timeout=10_000)
        seen = page.evaluate(COVERED)
        assert seen["n"] >= 2 and seen["inView"] and seen["callSeen"], seen
        assert seen["hits"] == [], seen
        page.screenshot(path=str(artifacts / f"companion-pace-toast-offline-{lang}-{width}.png"))
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_players_phone_shows_everyones_journal_its_own_first(
        browser: Any, table_server: Server, lang: str, locale: str) -> None:
    """Journals are public in the game (the sheets lie on the table, R-118), but a
    player's phone showed its own row only. Bia's phone shows all six, hers first and
    marked, then the others clockwise from her, each with the table's numbers."""
    from darkcity.companion.text import table_catalog

    from .test_companion_newcomer import Mayor

    cat = table_catalog(lang)
    mayor = Mayor(table_server.base)
    v = mayor.basic_night()
    page = phone(browser, locale)
    try:
        page.goto(f"{table_server.base}/table/{mayor.code}?lang={lang}")
        page.get_by_test_id("iam-Bia").tap()
        box = page.get_by_test_id("phone-journals")
        expect(box.locator("h2")).to_have_text(cat["ui"]["The journals"], timeout=10_000)
        rows = box.locator("tbody tr")
        expect(rows).to_have_count(6)
        names = rows.evaluate_all("(rs) => rs.map((r) => r.dataset.name)")
        assert names == ["Bia", "Caio", "Duda", "Enzo", "Fred", "Ana"], names
        assert rows.first.get_attribute("class") == "mine"
        for p in names:
            row = box.locator(f"tr[data-name={p}]")
            for r in v["sheet"]:
                want = str(v["journals"][p].get(r) or "")
                expect(row.locator(f"td[data-role={r}]")).to_have_text(want)
            expect(row.locator("td.total")).to_have_text(str(v["totals"][p]))
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_smaller_things(browser: Any, table_server: Server, lang: str, locale: str) -> None:
    """The night's table said 'Repórter (masculino)' although no other card showed a
    gender: a gender is shown only in a deck with a Creature (its marriage is the one
    rule that reads it). Death's name on the last drafter's phone was sent on one tap
    and ended the Mayor's draft at once: it is asked first, and can be written again
    until the count. The ↑ of the set-up's first
    row did nothing: there is none."""
    from darkcity.companion.text import table_catalog

    from .test_companion_newcomer import Mayor

    cat = table_catalog(lang)
    genders = [cat["genders"]["feminine"], cat["genders"]["masculine"]]
    mayor = Mayor(table_server.base)  # the basic deck: no Creature
    mayor.basic_night()
    page = phone(browser, locale)
    try:
        page.goto(f"{table_server.base}/table/{mayor.code}?lang={lang}#mayor={mayor.token}")
        fates = page.get_by_test_id("fates")
        expect(fates.locator("tbody tr")).to_have_count(6, timeout=10_000)
        said = fates.inner_text()
        assert not any(g in said for g in genders), said
        # Death's name, asked before it is sent
        death = Mayor(table_server.base, deck="reporter-death-6")
        page.goto(f"{table_server.base}/table/{death.code}?lang={lang}")
        page.get_by_test_id("iam-Fred").tap()  # the last drafter (Ana drafts first)
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.get_by_test_id("phone-death-Bia").tap()
        expect(page.get_by_test_id("phone-death-Bia")).to_be_visible()
        assert asked and "Bia" in asked[0], asked
        state = httpx.get(f"{table_server.base}/api/tables/{death.code}",
                          headers={"X-Table-Token": death.token}, timeout=10).json()
        assert state["stage"] == "draft", state["stage"]
        page.once("dialog", lambda d: d.accept())
        page.get_by_test_id("phone-death-Bia").tap()
        expect(page.get_by_test_id("phone-stage")).to_contain_text(
            cat["ui"]["Phase 2: the gestures"], timeout=10_000)
        # and it can be written again until the count
        change = page.get_by_test_id("phone-death-change")
        expect(change).to_contain_text("Bia")
        page.once("dialog", lambda d: d.accept())
        page.get_by_test_id("phone-death-Caio").tap()
        expect(change).to_contain_text(
            cat["ui"]["You wrote {player} on Death's card."].format(player="Caio"),
            timeout=10_000)
        # the set-up: no ↑ on the first row
        page.goto(f"{table_server.base}/table?lang={lang}")
        expect(page.get_by_test_id("up-1")).to_be_visible(timeout=10_000)
        expect(page.get_by_test_id("up-0")).to_have_count(0)
    finally:
        page.context.close()


SPEECH = """window.__said = [];
if (window.speechSynthesis) {
    window.speechSynthesis.speak = (u) => { window.__said.push(u.text); };
}"""


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_spoken_calls_run_the_night_from_a_phone_on_the_table(
        browser: Any, table_server: Server, lang: str, locale: str) -> None:
    """A Mayor who plays too leaves the phone on the table: with 'Spoken calls' (a setting,
    off by default, kept on that device) each call is said aloud, with a pause to turn
    the card over, and a call that asks nothing goes on by itself; the Devil's call and a
    Zombie's choice wait for a tap."""
    from darkcity.companion.text import table_catalog

    from .test_companion_newcomer import BASIC_NIGHT, Mayor

    cat = table_catalog(lang)
    mayor = Mayor(table_server.base)
    for e in BASIC_NIGHT[:1]:  # to the count
        mayor.enter(e)
    page = phone(browser, locale)
    page.add_init_script(SPEECH)
    try:
        url = f"{table_server.base}/table/{mayor.code}?lang={lang}#mayor={mayor.token}"
        page.goto(url)
        toggle = page.get_by_test_id("pref-calls")
        expect(toggle).to_have_attribute("aria-pressed", "false", timeout=10_000)  # off
        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_test_id("calls-on")).to_be_visible()
        prefs = page.evaluate("JSON.parse(localStorage.getItem('darkcity:table:prefs'))")
        assert prefs["calls"] is True, prefs
        for e in BASIC_NIGHT[1:]:  # the count, the gestures, the withdrawals
            mayor.enter(e)
        page.reload()  # kept on this device
        expect(page.get_by_test_id("call")).to_have_text(cat["calls"]["devil"],
                                                         timeout=10_000)
        expect(page.get_by_test_id("call-auto")).to_have_count(0)  # it asks: it waits
        page.get_by_test_id("call-next").tap()
        # the Vampires' and the Werewolf's calls go on by themselves; the Zombie's asks
        expect(page.get_by_test_id("zombie-ask-Duda")).to_be_visible(timeout=30_000)
        page.get_by_test_id("call-next").tap()
        expect(page.get_by_test_id("next-night")).to_be_visible(timeout=30_000)
        said = page.evaluate("window.__said")
        for role in ("devil", "vampire", "werewolf", "zombie"):
            assert cat["calls"][role] in said, (role, said)
        state = httpx.get(f"{table_server.base}/api/tables/{mayor.code}",
                          headers={"X-Table-Token": mayor.token}, timeout=10).json()
        assert state["stage"] == "journals", state["stage"]
    finally:
        page.context.close()
