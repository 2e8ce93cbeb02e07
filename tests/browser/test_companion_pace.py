"""The table companion at the table's pace (issue #28), at 375x667 with touch, in
pt_BR and en: what a group meets on the first screen (the names typed at the set-up,
a card's rules on a player's phone) and what keeps the night's rhythm (a count for the
withdrawals, the gestures beside the names, nothing covering the call).
"""

from __future__ import annotations

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
