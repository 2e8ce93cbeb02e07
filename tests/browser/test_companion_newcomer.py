"""A group that owns the cards and has never used darkcity, on phones at 375x667 in
pt_BR: what a player's own phone tells a newcomer (how a game is won and how close
they are, in the engine's count).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from darkcity.cast import Role  # noqa: E402
from darkcity.companion.text import table_catalog  # noqa: E402
from darkcity.journal import progress  # noqa: E402

from ..test_server_process import Server  # noqa: E402

PLAYERS = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
FREE = dict(zip(PLAYERS, ("devil", "priest", "werewolf", "zombie", "hunter", "priest"),
                strict=True))


def phone(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()


def seed_setup(page: Any, players: list[str], *, deck: str = "reporter-death-6",
               free: dict[str, str] | None = None, once: bool = False) -> None:
    """The companion's saved set-up, put in the page's storage before it loads (on its
    first load only with ``once``: a reload then keeps what the page saved)."""
    saved = {"players": players, "deck": deck, "custom": False, "cards": [],
             "free": free or {}}
    put = f"localStorage.setItem('darkcity:table:setup', JSON.stringify({json.dumps(saved)}));"
    page.add_init_script(
        "if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); "
        f"{put} }}" if once else put)


def hold(page: Any, pattern: str, when: Any, *, first_only: bool = False) -> list[Any]:
    """Requests to ``pattern`` for which ``when(request)`` holds are held (the test lets
    them through, or answers them, when it chooses; with ``first_only``, only the first
    of them); the others go on."""
    held: list[Any] = []

    def route(r: Any) -> None:
        if when(r.request) and not (first_only and held):
            held.append(r)
        else:
            r.continue_()

    page.route(pattern, route)
    return held


def test_a_players_phone_says_how_to_win_and_how_close_they_are(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """Bia's phone lists the four victory conditions with her count towards each, the
    engine's (journal.progress: her free XP in Priest is 1 of 6 rows, 1 of 8 XP, 0 of 3
    pairs, 1 of 4 in Priest); it had her journal's numbers and nothing said what they
    were for, nor how a game is won."""
    base = table_server.base
    r = httpx.post(f"{base}/api/tables", json={"players": PLAYERS, "deck": "reporter-death-6",
                                               "lang": "pt_BR", "free_xp": FREE}, timeout=10)
    r.raise_for_status()
    code = r.json()["code"]
    page = phone(browser)
    try:
        page.goto(f"{base}/table/{code}?lang=pt_BR")
        page.get_by_test_id("iam-Bia").click()
        panel = page.get_by_test_id("phone-progress")
        panel.wait_for(timeout=10_000)
        cat = table_catalog("pt_BR")
        assert cat["ui"]["How to win"] == "Como vencer"
        expect(panel.locator("h2")).to_have_text("Como vencer")
        for key, have, need in progress({Role.PRIEST: 1}):
            item = page.get_by_test_id(f"progress-{key}")
            expect(item).to_contain_text(cat["conditions"][key])
            count = f"{have} / {need}" + (" em Sacerdote" if key == "four-in-one" else "")
            expect(item.locator("b")).to_have_text(count)
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "companion-newcomer-progress-pt.png"))
        box = panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    finally:
        page.context.close()


BASIC_NIGHT: tuple[dict[str, Any], ...] = (
    {"type": "drafted"}, {"type": "counted"},
    {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
    {"type": "gesture", "player": "Bia", "shows": "werewolf", "targets": ["Caio"]},
    {"type": "gesture", "player": "Caio", "shows": "priest"},
    {"type": "gesture", "player": "Duda", "shows": "zombie", "targets": ["Caio"]},
    {"type": "gesture", "player": "Enzo", "shows": "hunter", "targets": ["Ana", "Duda"]},
    {"type": "gesture", "player": "Fred", "shows": "vampire", "targets": ["Enzo"]},
    {"type": "revealed"}, {"type": "withdrawal", "player": "Caio", "withdrawal": True},
    {"type": "withdrawn"})


class Mayor:
    """A table created through the API, its entries sent with the Mayor's token (each
    must be taken, and answers the new view)."""

    def __init__(self, base: str, players: list[str] = PLAYERS, deck: str = "basic",
                 free: dict[str, str] = FREE) -> None:
        r = httpx.post(f"{base}/api/tables", json={"players": players, "deck": deck,
                                                   "lang": "pt_BR", "free_xp": free},
                       timeout=10)
        r.raise_for_status()
        self.base, self.code, self.token = base, r.json()["code"], r.json()["token"]

    def enter(self, entry: dict[str, Any]) -> dict[str, Any]:
        got = httpx.post(f"{self.base}/api/tables/{self.code}/entries?lang=pt_BR",
                         headers={"X-Table-Token": self.token}, json={"entry": entry},
                         timeout=10)
        assert got.status_code == 200, got.text
        doc: dict[str, Any] = got.json()
        return doc

    def call(self, v: dict[str, Any]) -> dict[str, Any]:
        """The call asked in ``v`` answered as shown (every card chosen a basic one)."""
        q = v["question"]
        return self.enter({"type": "call", "step": q["step"], "cards": {
            p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}})

    def basic_night(self) -> dict[str, Any]:
        """BASIC_NIGHT entered and its calls answered, to the night's journals."""
        for e in BASIC_NIGHT:
            v = self.enter(e)
        while v["stage"] == "resolution":
            v = self.call(v)
        return v


def test_a_players_phone_keeps_last_nights_outcome_through_the_next_night(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """The Mayor reads night 1's story aloud and taps Next night at once; Bia, who then
    looks at her phone, still finds what happened to her ('Sua carta: Lobisomem — ...')
    and the night's story, through night 2's draft and reveal. Once Next night was
    tapped her phone said nothing of night 1 but her journal's numbers."""
    base = table_server.base
    mayor = Mayor(base)
    code, enter = mayor.code, mayor.enter

    v = mayor.basic_night()
    assert v["stage"] == "journals"
    cat = table_catalog("pt_BR")
    fate = cat["fates"][v["result"]["players"]["Bia"]["fate"]]
    mine = cat["ui"]["You held {card}: {fate}"].format(card="Lobisomem", fate=fate)
    page = phone(browser)
    try:
        page.goto(f"{base}/table/{code}?lang=pt_BR")
        page.get_by_test_id("iam-Bia").click()
        expect(page.get_by_test_id("phone-mine")).to_contain_text(mine, timeout=10_000)
        story = page.locator("[data-testid=phone-result] li").all_inner_texts()
        assert story
        enter({"type": "next-night"})
        expect(page.get_by_test_id("phone-stage")).to_contain_text("Noite 2", timeout=10_000)
        expect(page.get_by_test_id("phone-active")).to_have_text("Bia começa a escolha")
        expect(page.get_by_test_id("phone-mine")).to_contain_text(mine)
        expect(page.get_by_test_id("phone-result").locator("h2")).to_have_text(
            "Fase 5: noite 1")
        assert page.locator("[data-testid=phone-result] li").all_inner_texts() == story
        enter({"type": "drafted"})
        enter({"type": "counted"})
        expect(page.get_by_test_id("phone-stage")).to_contain_text("Fase 2", timeout=10_000)
        # who drafts first is said at the draft only ('Bia começa a escolha' at the
        # gestures told a newcomer the draft was on)
        expect(page.get_by_test_id("phone-active")).to_have_count(0)
        expect(page.get_by_test_id("panel-phone")).not_to_contain_text("começa a escolha")
        expect(page.get_by_test_id("phone-mine")).to_contain_text(mine)
        page.screenshot(path=str(artifacts / "companion-newcomer-last-night-pt.png"),
                        full_page=True)
    finally:
        page.context.close()


def test_the_players_link_is_open_at_the_first_draft(browser: Any, table_server: Server,
                                                     artifacts: Path) -> None:
    """The Mayor of a group new to darkcity starts the game: the first draft shows the
    players' link and its QR code (it sat folded under 'Links e idioma', and the draft's
    'pelo link da mesa' pointed at nothing on screen), open while the phones join;
    folded by the Mayor, it stays folded; from the count on it is folded."""
    base = table_server.base
    r = httpx.post(f"{base}/api/tables", json={"players": PLAYERS, "deck": "reporter-death-6",
                                               "lang": "pt_BR", "free_xp": FREE}, timeout=10)
    r.raise_for_status()
    code, token = r.json()["code"], r.json()["token"]
    page = phone(browser)
    try:
        page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
        page.get_by_test_id("panel-draft").wait_for(timeout=10_000)
        links = page.get_by_test_id("links")
        expect(links).to_have_attribute("open", "")
        expect(links).to_contain_text(f"Celulares dos jogadores: {base}/table/{code}")
        qr = page.get_by_test_id("links-qr")
        qr.scroll_into_view_if_needed()
        expect(qr).to_be_visible()
        page.screenshot(path=str(artifacts / "companion-newcomer-links-pt.png"))
        httpx.post(f"{base}/api/tables/{code}/seat", json={"player": "Bia"},
                   timeout=10).raise_for_status()  # a phone joins: the page is drawn again
        expect(links).to_contain_text("Bia", timeout=10_000)
        expect(links).to_have_attribute("open", "")
        links.locator("summary").tap()  # the Mayor folds it
        expect(links).not_to_have_attribute("open", "")
        httpx.post(f"{base}/api/tables/{code}/seat", json={"player": "Caio"},
                   timeout=10).raise_for_status()
        expect(links).to_contain_text("Caio", timeout=10_000)
        expect(links).not_to_have_attribute("open", "")
        page.reload()  # a fresh page at the count: folded
        httpx.post(f"{base}/api/tables/{code}/entries", headers={"X-Table-Token": token},
                   json={"entry": {"type": "drafted"}}, timeout=10).raise_for_status()
        page.get_by_test_id("panel-count").wait_for(timeout=10_000)
        expect(page.get_by_test_id("links")).not_to_have_attribute("open", "")
    finally:
        page.context.close()


def test_the_first_draft_comes_up_from_its_top_after_the_set_up(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """The Mayor fills the set-up (six players, a deck, six free XP), scrolls down to
    'Começar a partida' and taps it: the first draft comes up from its top, who drafts
    first on screen. It kept the set-up's scroll, and with the players' link open below
    the draft the Mayor landed on the QR code, 'Ana começa a escolha' above the screen."""
    base = table_server.base
    page = phone(browser)
    seed_setup(page, PLAYERS, free=FREE)
    try:
        page.goto(f"{base}/table?lang=pt_BR")
        start = page.get_by_test_id("start")
        expect(start).to_be_enabled(timeout=10_000)
        # the set-up is drawn again as its lists arrive (the presets, the games on this
        # device): scrolled to in one task of the page, never through a handle that a
        # redraw has just detached
        page.wait_for_load_state("networkidle")
        page.wait_for_function("""() => {
            const b = document.querySelector('[data-testid=start]');
            if (!b || b.disabled) return false;
            b.scrollIntoView({block: 'center'});
            return window.scrollY > 300; }""", timeout=10_000)
        start.tap()
        active = page.get_by_test_id("active")
        expect(active).to_have_text("Ana começa a escolha", timeout=10_000)
        expect(page.get_by_test_id("links")).to_have_attribute("open", "")
        page.wait_for_function("window.scrollY === 0", timeout=5_000)
        box = active.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 667, box
        page.screenshot(path=str(artifacts / "companion-newcomer-first-draft-pt.png"))
    finally:
        page.context.close()


def test_a_deck_for_six_is_not_an_error_while_the_names_are_typed(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """The Mayor chose 'Repórter e Morte (6 jogadores)' and types the names one by one:
    with one name typed, the set-up said in red "the 'reporter-death-6' deck is for 6
    players, not 1", the deck's id, for a state still being typed. It says quietly, by
    the deck's title, what to do; with every name typed, the free XP come. A row added
    (7 seats) leaves the deck the list shows chosen, not the 6-player one it no longer
    offers."""
    base = table_server.base
    page = phone(browser)
    seed_setup(page, [""] * 6, once=True)
    try:
        page.goto(f"{base}/table?lang=pt_BR")
        expect(page.get_by_test_id("deck")).to_have_value("reporter-death-6", timeout=10_000)
        seat = page.get_by_test_id("seat-0")
        seat.fill("Ana")
        seat.dispatch_event("change")
        hint = page.get_by_test_id("setup-hint")
        expect(hint).to_have_text("“Repórter e Morte (6 jogadores)” não é um maço para 1 jogador:"
                                  " digite o nome de cada jogador ou escolha outro maço.",
                                  timeout=10_000)
        said = page.evaluate("""() => ({
            red: document.querySelectorAll('.error, [role=alert]').length,
            text: document.querySelector('[data-testid=panel-setup]').innerText })""")
        assert said["red"] == 0 and "reporter-death-6" not in said["text"], said
        page.screenshot(path=str(artifacts / "companion-newcomer-setup-typing-pt.png"))
        for i, p in enumerate(PLAYERS[1:], start=1):
            page.get_by_test_id(f"seat-{i}").fill(p)
            page.get_by_test_id(f"seat-{i}").dispatch_event("change")
            # each name kept before the next is typed, as a person sees theirs stay
            expect(page.get_by_test_id(f"seat-{i}")).to_have_value(p, timeout=10_000)
        page.get_by_test_id("free-5").wait_for(timeout=30_000)
        expect(hint).to_have_count(0)
        expect(page.get_by_test_id("setup-error")).to_have_count(0)
        page.get_by_test_id("add-player").tap()  # a seventh row, left empty
        page.wait_for_function("""() => {
            const s = JSON.parse(localStorage.getItem('darkcity:table:setup'));
            const d = document.querySelector('[data-testid=deck]');
            return s.players.length === 7 && d && s.deck === d.value && d.value === 'basic'; }""",
                               timeout=10_000)
    finally:
        page.context.close()


def test_a_late_answer_for_five_names_does_not_undo_the_sixth(
        browser: Any, table_server: Server) -> None:
    """The names typed one after another each sent the deck to be checked. In CI the
    answer for five names ("not a deck for 5 players") came after the one for six: it
    was kept, the free XP rows went away and the set-up stayed refused with six names
    typed. Here the answer for five is held until the one for six has come; it is then
    dropped, as being about a set-up that no longer stands."""
    base = table_server.base
    page = phone(browser)
    seed_setup(page, ["Ana"] + [""] * 5, once=True)
    try:
        held = hold(page, "**/api/tables/check*",
                    lambda r: len(json.loads(r.post_data or "{}").get("players", [])) == 5,
                    first_only=True)
        page.goto(f"{base}/table?lang=pt_BR")
        expect(page.get_by_test_id("deck")).to_have_value("reporter-death-6", timeout=10_000)
        for i, p in enumerate(PLAYERS[1:], start=1):
            page.get_by_test_id(f"seat-{i}").fill(p)
            page.get_by_test_id(f"seat-{i}").dispatch_event("change")
            expect(page.get_by_test_id(f"seat-{i}")).to_have_value(p, timeout=10_000)
        page.get_by_test_id("free-5").wait_for(timeout=10_000)
        assert held, "the check for five names was never asked"
        with page.expect_response(lambda r: "/api/tables/check" in r.url):
            held[0].continue_()
        page.wait_for_timeout(300)  # the late answer handled, and any render after it
        expect(page.get_by_test_id("free-5")).to_be_visible()
        expect(page.get_by_test_id("setup-error")).to_have_count(0)
        expect(page.get_by_test_id("setup-hint")).to_have_count(0)
    finally:
        page.context.close()


def test_start_tapped_twice_makes_one_table_and_its_refusal_stays_said(
        browser: Any, table_server: Server) -> None:
    """On a slow phone the Mayor tapped "Start the game" again while the first tap was
    being answered: two tables were asked for. And a refusal was said for one drawing
    of the page only: the next re-draw, for anything, took it away before it was read
    (CI saw the pocket app's "storage is full" come and go). One tap makes one request,
    the button saying it is starting; the refusal stays until the set-up changes."""
    base = table_server.base
    page = phone(browser)
    seed_setup(page, PLAYERS, free=FREE)
    try:
        held = hold(page, "**/api/tables?*", lambda r: r.method == "POST")
        page.goto(f"{base}/table?lang=en")
        start = page.get_by_test_id("start")
        expect(start).to_be_enabled(timeout=10_000)
        start.click()
        expect(start).to_be_disabled(timeout=5_000)
        expect(start).to_have_text("Starting…")
        start.dispatch_event("click")  # a second tap, on the button as it is drawn
        page.wait_for_timeout(300)
        assert len(held) == 1, f"{len(held)} tables asked for"
        held[0].fulfill(status=507, content_type="application/json",
                        body=json.dumps({"message": "No room for one more table."}))
        said = page.get_by_test_id("start-error")
        expect(said).to_have_text("No room for one more table.", timeout=5_000)
        expect(start).to_be_enabled()
        page.evaluate("async () => (await import('/static/table/main.js')).S.render()")
        expect(said).to_have_text("No room for one more table.")  # a re-draw keeps it
        page.get_by_test_id("free-0").select_option("priest")  # the set-up changed
        expect(said).to_have_count(0)
    finally:
        page.context.close()


def test_a_players_phone_puts_their_own_card_first(browser: Any, table_server: Server,
                                                   artifacts: Path) -> None:
    """The rules on a player's phone began at the Devil whatever they held. Bia, whose
    card the table does not know yet, is asked which one she drafted (kept on her phone
    only, through a reload) and reads its rules under 'Sua carta: Sacerdote', above her
    journal; Fred, who took Death (public: the card lies face up), finds Death's rules
    first without asking."""
    base = table_server.base
    mayor = Mayor(base, deck="reporter-death-6")
    code = mayor.code
    cat = table_catalog("pt_BR")
    read = """() => {
        const box = document.querySelector('[data-testid=rules]');
        const panels = [...document.querySelectorAll('[data-testid=panel-phone] > .panel')];
        const sel = box && box.querySelector('select');
        return box && {
            title: box.querySelector('h2').textContent, value: sel.value,
            first: sel.options[0].textContent, top: box.getBoundingClientRect().top,
            beforeJournal: panels.indexOf(box) < panels.findIndex(
                (p) => p.dataset.testid === 'phone-journals'),
            text: box.innerText };
    }"""
    bia, fred = phone(browser), phone(browser)
    try:
        bia.goto(f"{base}/table/{code}?lang=pt_BR")
        bia.get_by_test_id("iam-Bia").tap()
        expect(bia.get_by_test_id("rules-private")).to_be_visible(timeout=10_000)
        seen = bia.evaluate(read)
        assert seen["title"] == "As regras de uma carta" and seen["value"] == "", seen
        assert seen["first"] == "Qual carta você escolheu?" and seen["beforeJournal"], seen
        bia.get_by_test_id("rules-role").select_option("priest")
        expect(bia.get_by_test_id("rules").locator("h2")).to_have_text("Sua carta: Sacerdote")
        bia.reload()
        expect(bia.get_by_test_id("rules").locator("h2")).to_have_text("Sua carta: Sacerdote",
                                                                      timeout=10_000)
        seen = bia.evaluate(read)
        assert seen["value"] == "priest" and seen["first"] == "Sacerdote — sua carta", seen
        assert cat["goals"]["priest"] in seen["text"] and seen["top"] < 667, seen
        bia.screenshot(path=str(artifacts / "companion-newcomer-own-card-pt.png"))
        fred.goto(f"{base}/table/{code}?lang=pt_BR")
        fred.get_by_test_id("iam-Fred").tap()
        fred.get_by_test_id("rules").wait_for(timeout=10_000)
        mayor.enter({"type": "drafted", "death_names": "Ana"})
        expect(fred.get_by_test_id("rules").locator("h2")).to_have_text("Sua carta: Morte",
                                                                       timeout=10_000)
        seen = fred.evaluate(read)
        assert seen["value"] == "death" and seen["first"] == "Morte — sua carta", seen
        assert cat["goals"]["death"] in seen["text"] and seen["beforeJournal"], seen
        expect(fred.get_by_test_id("rules-mine-change")).to_have_count(0)
        # Bia's phone said nothing of Fred's card but what the table sees
        expect(bia.get_by_test_id("rules").locator("h2")).to_have_text("Sua carta: Sacerdote")
    finally:
        bia.context.close()
        fred.context.close()


def test_a_players_phone_follows_the_calls(browser: Any, table_server: Server,
                                           artifacts: Path) -> None:
    """While the Mayor calls the roles and reads each step aloud, Bia's phone said
    'Fase 4: a resolução' and nothing of the night. It shows the night so far as
    narrated (the line that names her in bold) and the call being made now."""
    base = table_server.base
    mayor = Mayor(base)
    code, enter = mayor.code, mayor.enter

    for e in BASIC_NIGHT:
        v = enter(e)
    cat = table_catalog("pt_BR")
    page = phone(browser)
    try:
        page.goto(f"{base}/table/{code}?lang=pt_BR")
        page.get_by_test_id("iam-Bia").tap()
        expect(page.get_by_test_id("phone-call")).to_have_text(cat["calls"]["devil"],
                                                               timeout=10_000)
        while v["question"]["role"] != "werewolf":  # the Devil's call, the Vampires'
            v = mayor.call(v)
        expect(page.get_by_test_id("phone-call")).to_have_text(cat["calls"]["werewolf"],
                                                               timeout=10_000)
        seen = page.evaluate("""() => {
            const box = document.querySelector('[data-testid=phone-calls]');
            return { title: box.querySelector('h2').textContent,
                     mine: [...box.querySelectorAll('.story p.mine')].map((p) => p.textContent),
                     lines: [...box.querySelectorAll('.story p')].map((p) => p.textContent),
                     top: box.getBoundingClientRect().top }; }""")
        assert seen["title"] == "A noite até agora" and seen["top"] < 667, seen
        said = [line for block in v["narration"] for line in block["lines"]]
        assert said and all(line in seen["lines"] for line in said), seen
        assert seen["mine"] == [x for x in said if "(Bia)" in x] and seen["mine"], seen
        page.screenshot(path=str(artifacts / "companion-newcomer-calls-pt.png"), full_page=True)
    finally:
        page.context.close()


SMALL = """() => [...document.querySelectorAll('button, select, summary, a')].flatMap((e) => {
    const r = e.getBoundingClientRect();
    return r.width && r.height && (r.width < 44 || r.height < 44)
        ? [`${e.dataset.testid || e.tagName}: ${Math.round(r.width)}x${Math.round(r.height)}`]
        : [];
})"""


def test_every_tap_target_of_the_mayor_is_44_px_each_way(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """Measured at 375x667 in pt_BR: the set-up's ↑ and ✕ beside each of eight names
    were 35 px wide (a ✕ takes a typed name away), a short name's chip in the reveal
    ('Gil') 42, the folded panels' titles ('Links e idioma') and the night's exports'
    links 24 px tall. Every button, select, title and link is now 44 px each way."""
    base = table_server.base
    eight = [*PLAYERS, "Gil", "Ivo"]
    page = phone(browser)
    seed_setup(page, eight, deck="basic")
    try:
        page.goto(f"{base}/table?lang=pt_BR")
        page.get_by_test_id("free-7").wait_for(timeout=10_000)
        assert page.evaluate(SMALL) == []
        at_eight = Mayor(base, eight, free={p: "priest" for p in eight})
        for e in BASIC_NIGHT[:2]:  # drafted, counted
            at_eight.enter(e)
        page.goto(f"{base}/table/{at_eight.code}?lang=pt_BR#mayor={at_eight.token}")
        page.get_by_test_id("who-Gil").wait_for(timeout=10_000)
        assert page.evaluate(SMALL) == []
        mayor = Mayor(base)
        mayor.basic_night()
        page.goto(f"{base}/table/{mayor.code}?lang=pt_BR#mayor={mayor.token}")
        page.get_by_test_id("export-record").wait_for(timeout=10_000)
        assert page.evaluate(SMALL) == []
        page.screenshot(path=str(artifacts / "companion-newcomer-targets-pt.png"), full_page=True)
    finally:
        page.context.close()


def test_a_players_phone_shows_what_was_entered_for_them(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    """The Mayor tapped Enzo's gesture wrong; Enzo, who knew what he did, never saw what
    was entered for him (only the Mayor's screen said it). His phone says it while it
    can be corrected ('Registrado para você: Caçador → Ana, Duda · baixa a seta em Duda'),
    and follows the Mayor's correction; at the night's end the line is gone (the night
    told says what happened)."""
    base = table_server.base
    mayor = Mayor(base)
    code, enter = mayor.code, mayor.enter

    page = phone(browser)
    try:
        page.goto(f"{base}/table/{code}?lang=pt_BR")
        page.get_by_test_id("iam-Enzo").tap()
        page.get_by_test_id("phone-stage").wait_for(timeout=10_000)
        line = page.get_by_test_id("phone-entered")
        for e in BASIC_NIGHT[:7]:  # up to Enzo's gesture (a Hunter's, at Ana and Duda)
            enter(e)
        expect(line).to_contain_text("Registrado para você: Caçador → Ana, Duda",
                                     timeout=10_000)
        expect(line).to_contain_text("Não foi o que você fez? Avise o Burgomestre")
        for e in BASIC_NIGHT[7:10]:
            enter(e)
        enter({"type": "withdrawal", "player": "Enzo", "withdrawal": [1]})
        expect(line).to_contain_text("Caçador → Ana, Duda · baixa a seta em Duda",
                                     timeout=10_000)
        page.screenshot(path=str(artifacts / "companion-newcomer-entered-pt.png"))
        enter({"type": "withdrawal", "player": "Enzo", "withdrawal": False})  # taken back
        page.wait_for_function("""() => {
            const p = document.querySelector('[data-testid=phone-entered]');
            return p && p.textContent.includes('Ana, Duda')
                && !p.textContent.includes('seta'); }""",
                               timeout=10_000)
        v = enter({"type": "withdrawn"})
        while v["stage"] == "resolution":
            v = mayor.call(v)
        page.get_by_test_id("phone-result").wait_for(timeout=10_000)
        expect(line).to_have_count(0)
    finally:
        page.context.close()
