"""The record viewer on the server (``/replay``, issue #30): a game record opened from a
file and stepped through night by night, forwards and back (buttons and arrow keys),
with each night's arrows, story and journals as they were, from everyone's view or a
player's; a file that is not a record is said in words. The pocket app's viewer is
tested in ``test_pocket_play.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.sync_api import expect

from ..test_record import _record
from ..test_server_process import Server
from .test_web_play import PHONE


def test_a_record_opened_and_stepped_through_night_by_night(
        browser: Any, server: Server, tmp_path: Path, artifacts: Path) -> None:
    doc = _record()
    nights = len(doc["nights"])
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(doc))
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{server.base}/replay")
        page.get_by_test_id("record-file").set_input_files(str(junk))
        expect(page.get_by_test_id("review-error")).to_contain_text("not a game record")
        page.get_by_test_id("record-file").set_input_files(str(saved))
        night = page.get_by_test_id("review-night")
        expect(night).to_have_text(f"Night 1 of {nights}")
        expect(page.get_by_test_id("review-error")).to_have_count(0)
        # the night as it was: its arrows, its story, the journals after it
        assert page.locator("[data-testid=arrows] path.arrow").count() >= 1
        expect(page.get_by_test_id("events-1").locator("li").first).to_be_visible()
        expect(page.get_by_test_id("journals")).to_be_visible()
        page.screenshot(path=str(artifacts / "review-en-375.png"), full_page=True)
        page.get_by_test_id("review-next").click()
        expect(night).to_have_text(f"Night 2 of {nights}")
        expect(page.get_by_test_id("events-2")).to_be_visible()
        page.keyboard.press("ArrowLeft")
        expect(night).to_have_text(f"Night 1 of {nights}")
        expect(page.get_by_test_id("review-prev")).to_be_enabled()
        page.get_by_test_id("review-prev").click()
        expect(night).to_have_text("Before the first night")
        expect(page.get_by_test_id("review-prev")).to_be_disabled()
        # from a player's seat: theirs is marked
        player = doc["players"][0] if "players" in doc else None
        options = page.get_by_test_id("review-viewer").locator("option").all_inner_texts()
        player = player or options[1]
        page.get_by_test_id("review-viewer").select_option(player)
        expect(page.locator(".seat.me")).to_have_count(1)
        expect(page.locator(".seat.me")).to_have_attribute("data-name", player)
        # to the end: the winners
        # (pressed faster than the server's replay workers answer: each press counts, from
        # the night asked last, and the page ends on the last night, never an earlier one)
        for _ in range(nights):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(10)
        expect(night).to_have_text(f"Night {nights} of {nights}")
        expect(page.get_by_test_id("review-winners")).to_contain_text(", ".join(doc["winners"]))
        expect(page.get_by_test_id("review-next")).to_be_disabled()
    finally:
        context.close()
