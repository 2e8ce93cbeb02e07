"""The pocket app's play page in Chromium (issue #30): a game against bots on one phone,
offline, with no server. The site is built and served by a plain static server on
loopback as in ``test_pocket_app.py``; the phone opens ``play.html`` once, goes offline
(the static server stopped), sets a game up, plays it through the online table's own
screens (the room in the phone's worker) to its victory, reloads mid-night and goes on
where it stopped, downloads the game record (``darkcity replay`` accepts it), plays
again, and finds its games listed, one deleted when asked. No request leaves the static
server's origin. Skipped, saying why, where npm or its registry is not there.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from darkcity.room.text import catalog

from .test_pocket_app import Static, engine_ready, site, static  # noqa: F401 - fixtures
from .test_web_play import PHONE, click_something, phase


def open_offline(page: Any, static: Static) -> None:  # noqa: F811
    """The play page opened once online (every file kept), then offline for good."""
    page.goto(f"{static.origin}/play.html")
    page.get_by_test_id("create-form").wait_for()
    expect(page.get_by_test_id("engine-progress")).to_have_count(1)  # drawn before the engine
    engine_ready(page)
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
        timeout=60_000)
    page.context.set_offline(True)
    static.stop()
    page.reload()
    page.get_by_test_id("create-form").wait_for()
    engine_ready(page)


def code_of(page: Any) -> str:
    code: str = page.evaluate("location.hash.slice(1)")
    return code


def test_a_solo_game_offline_to_its_victory_resumed_and_its_record_replayed(
        browser: Any, static: Static, tmp_path: Path, artifacts: Path) -> None:  # noqa: F811
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-US",
                                  accept_downloads=True)
    asked: list[str] = []
    context.on("request", lambda r: asked.append(r.url))
    page = context.new_page()
    try:
        open_offline(page, static)
        expect(page.get_by_test_id("games")).to_contain_text("No game yet")
        page.screenshot(path=str(artifacts / "pocket-play-setup-en-375.png"), full_page=True)
        page.get_by_test_id("name").fill("Ana")
        page.get_by_test_id("players").fill("4")
        page.get_by_test_id("players").dispatch_event("change")
        page.get_by_test_id("pace").select_option("fast")
        page.get_by_test_id("level").select_option("medium")
        page.get_by_test_id("create").click()
        page.wait_for_function("location.hash.length > 1")
        code = code_of(page)
        page.locator("[data-testid=phase]").wait_for(timeout=30_000)
        # nobody else can reach a phone's game: no invite link, no seat link
        expect(page.get_by_test_id("bar-invite")).to_have_count(0)
        expect(page.get_by_test_id("seat-link")).to_have_count(0)
        assert page.inner_text("[data-testid=room-code]") == code

        rng = random.Random(7)
        reloaded = False
        seen: set[str] = set()
        end = time.monotonic() + 240
        while time.monotonic() < end:
            ph = phase(page)
            if ph:
                seen.add(ph)
            if ph == "gesture" and not reloaded:
                # a reload mid-night (or the app closed): the game goes on where it stopped
                page.screenshot(path=str(artifacts / "pocket-play-gesture-en-375.png"))
                page.reload()
                engine_ready(page)
                page.locator("[data-testid=phase]").wait_for(timeout=30_000)
                assert code_of(page) == code
                reloaded = True
                continue
            if ph == "over" and page.locator("[data-testid=victory]").count():
                break
            click_something(page, rng)
            time.sleep(0.05)
        assert reloaded and {"draft", "gesture"} <= seen, seen
        page.get_by_test_id("victory").wait_for()
        page.screenshot(path=str(artifacts / "pocket-play-victory-en-375.png"), full_page=True)
        assert (page.text_content("[data-testid=announce]") or "").startswith("Winners: ")

        # the game record, made on the phone, accepted by darkcity replay
        with page.expect_download() as dl:
            page.get_by_test_id("record").click()
        saved = tmp_path / dl.value.suggested_filename
        dl.value.save_as(saved)
        assert saved.name == f"darkcity-{code}.json"
        assert json.loads(saved.read_text())["format"] == "darkcity-game/1"
        replay = subprocess.run([sys.executable, "-m", "darkcity", "replay", str(saved)],
                                capture_output=True, text=True, timeout=120, check=False)
        assert replay.returncode == 0 and replay.stdout.startswith("ok"), replay

        # the game stepped through night by night on the phone (replay.html#CODE)
        nights = len(json.loads(saved.read_text())["nights"])
        page.get_by_test_id("review-link").click()
        engine_ready(page)
        expect(page.get_by_test_id("review-night")).to_have_text(f"Night 1 of {nights}",
                                                                  timeout=30_000)
        expect(page.get_by_test_id("events-1")).to_be_visible()
        page.screenshot(path=str(artifacts / "pocket-review-en-375.png"), full_page=True)
        if nights > 1:
            page.get_by_test_id("review-next").click()
            expect(page.get_by_test_id("review-night")).to_have_text(f"Night 2 of {nights}")
        page.go_back()
        engine_ready(page)
        page.get_by_test_id("victory").wait_for(timeout=30_000)

        # play again: a new game with the same settings, under way at once
        with page.expect_event("load", timeout=60_000):  # (the new game's page, anew)
            page.get_by_test_id("play-again").click()
        again = code_of(page)
        assert again and again != code
        engine_ready(page)
        page.locator("[data-testid=phase]").wait_for(timeout=30_000)
        players = page.evaluate(
            "async () => (await import(new URL('static/js/store.js', document.baseURI).href))"
            ".S.view.players")
        assert len(players) == 4 and players[0] == "Ana"  # the same seats, a new deal

        # the games kept on this phone: both listed, one deleted when asked
        page.goto(f"{page.url.split('#')[0]}")
        engine_ready(page)
        expect(page.locator("[data-testid^=game-]")).to_have_count(2)
        expect(page.get_by_test_id(f"game-{code}")).to_contain_text("The game is over")
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.get_by_test_id(f"delete-{code}").click()
        expect(page.locator("[data-testid^=game-]")).to_have_count(2)
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id(f"delete-{code}").click()
        expect(page.locator("[data-testid^=game-]")).to_have_count(1)
        page.get_by_test_id(f"resume-{again}").click()
        page.locator("[data-testid=phase]").wait_for(timeout=30_000)
        assert code_of(page) == again

        outside = [u for u in asked if not u.startswith(("http://127.0.0.1", "blob:", "data:"))]
        assert outside == []
    finally:
        context.close()


def test_the_set_up_says_what_is_wrong_in_words_and_starts_nothing(
        browser: Any, static: Static) -> None:  # noqa: F811
    context = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(f"{static.origin}/play.html")
        engine_ready(page)
        page.get_by_test_id("name").fill("Ana")
        page.get_by_test_id("players").fill("5")
        page.get_by_test_id("players").dispatch_event("change")
        page.get_by_test_id("deck").select_option("custom")  # and no card ticked
        page.get_by_test_id("create").click()
        said = page.get_by_test_id("play-error")
        expect(said).not_to_be_empty()
        assert "Traceback" not in said.inner_text()
        assert page.evaluate("location.hash") == ""
        expect(page.get_by_test_id("games")).to_contain_text("Nenhuma partida ainda")
        assert page.get_attribute("html", "lang") == "pt-BR"
    finally:
        context.close()


COVERED = """() => {
  const app = document.getElementById('app');
  return { cover: !!app.querySelector('[data-testid=handover]'), kids: app.children.length,
           nodes: app.querySelectorAll('*').length, text: document.body.innerText,
           named: (app.querySelector('[data-testid=handover-show]') || {}).textContent || null };
}"""


def test_a_phone_passed_from_hand_to_hand_shows_nothing_of_one_to_the_other(
        browser: Any, static: Static, artifacts: Path) -> None:  # noqa: F811
    """Two people and two bots on one phone, a whole night: before each private moment a
    hand-over screen names who is next and shows nothing of anyone (the page's text and
    its DOM hold only the hand-over); the named person taps and sees their own question;
    once they decided it hides again. The public moments are everyone's."""
    roles = list(catalog("en")["roles"].values())
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-US")
    page = context.new_page()
    try:
        open_offline(page, static)
        page.get_by_test_id("name").fill("Ana")
        page.get_by_test_id("add-person").click()
        page.get_by_test_id("name-1").fill("Bia")
        page.get_by_test_id("players").fill("4")
        page.get_by_test_id("players").dispatch_event("change")
        page.get_by_test_id("create").click()
        page.wait_for_function("location.hash.length > 1")
        page.get_by_test_id("handover").wait_for(timeout=30_000)
        rng = random.Random(11)
        handed: list[str] = []
        covers = 0
        shot = False
        told: list[Any] = []
        end = time.monotonic() + 240
        while time.monotonic() < end:
            view = page.evaluate(
                "async () => { const v = (await import(new URL('static/js/store.js', "
                "document.baseURI).href)).S.view; return v && [v.night, v.phase, v.viewer]; }")
            if view and (view[0] >= 2 or view[1] == "over"):
                told = view
                if view[2] is None:
                    break
                # the store may hold the last reader's view for a moment after the night
                # turned (the page shows the hand-over meanwhile), or the next reader their own
                # question: go on until the table as everyone sees it
            seen = page.evaluate(COVERED)
            if seen["cover"] and seen["named"]:
                # nothing of anyone's on the page: the hand-over alone, no card named
                assert seen["kids"] == 1 and seen["nodes"] <= 8, seen
                assert not [r for r in roles if r in seen["text"]], seen["text"]
                covers += 1
                if not shot:
                    page.screenshot(path=str(artifacts / "pocket-play-handover-en-375.png"))
                    shot = True
                who = seen["named"].removeprefix("I am ").split(":")[0]
                page.get_by_test_id("handover-show").click()
                page.wait_for_function(
                    "async (who) => { const S = (await import(new URL('static/js/store.js', "
                    "document.baseURI).href)).S; return !!document.querySelector("
                    "'[data-testid=handover]') || (S.view && S.view.viewer === who); }",
                    arg=who)
                handed.append(who)
                continue
            click_something(page, rng)
            time.sleep(0.05)
        assert told, "the night was not told in time"
        assert told[2] is None  # the table as everyone sees it, between private moments
        assert {"Ana", "Bia"} <= set(handed), handed
        assert covers >= 4  # a draft pick and a gesture each, at least
    finally:
        context.close()
