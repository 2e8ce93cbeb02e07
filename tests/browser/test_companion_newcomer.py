"""A group that owns the cards and has never used darkcity, on phones at 375x667 in
pt_BR: what a player's own phone tells a newcomer (how a game is won and how close
they are, in the engine's count).
"""

from __future__ import annotations

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
