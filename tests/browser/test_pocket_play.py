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
        "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
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
        page.wait_for_function("() => location.hash.length > 1")
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
        # each row says whose game: the person, the bots and their level, who won; the
        # record only where there is one (the game over)
        expect(page.get_by_test_id(f"who-{code}")).to_contain_text("Ana")
        expect(page.get_by_test_id(f"who-{code}")).to_contain_text(
            f"3 bots ({catalog('en')['levels']['medium']})")
        expect(page.get_by_test_id(f"where-{code}")).to_contain_text("Won by")
        expect(page.get_by_test_id(f"record-{code}")).to_have_count(1)
        expect(page.get_by_test_id(f"record-{again}")).to_have_count(0)
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
        page.wait_for_function("() => location.hash.length > 1")
        page.get_by_test_id("handover").wait_for(timeout=30_000)
        rng = random.Random(11)
        handed: list[str] = []
        covers = 0
        shot = False
        told: list[Any] = []
        read_together = False
        end = time.monotonic() + 240
        while time.monotonic() < end:
            view = page.evaluate(
                "async () => { const v = (await import(new URL('static/js/store.js', "
                "document.baseURI).href)).S.view; return v && [v.night, v.phase, v.viewer]; }")
            if page.get_by_test_id("hand-on").is_visible():
                # the night just told is the whole table's: its story on the page as
                # everyone sees it, no hand-over over it, until they say they have read it
                assert page.locator("[data-testid=handover]").count() == 0
                story = page.get_by_test_id("narration")
                expect(story).to_contain_text("Night 1")
                assert page.locator("[data-testid=events] li").count() > 0
                assert page.evaluate("async () => (await import(new URL('static/js/store.js', "
                                     "document.baseURI).href)).S.view.viewer") is None
                page.screenshot(path=str(artifacts / "pocket-play-story-en-375.png"))
                read_together = True
                page.get_by_test_id("hand-on").click()
                continue
            if view and (view[0] >= 2 or view[1] == "over") and read_together:
                told = view
                if view[2] is None and (view[1] == "over" or page.evaluate(COVERED)["named"]):
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
        assert read_together, "the night's story was not shown to the table"
        assert told[2] is None  # the table as everyone sees it, between private moments
        assert {"Ana", "Bia"} <= set(handed), handed
        assert covers >= 4  # a draft pick and a gesture each, at least
    finally:
        context.close()


# -- one game, one writer (issue #50) ---------------------------------------------------

SAVED = """async (code) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('darkcity-pocket', 2);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const g = await new Promise((ok) => { const r = db.transaction('games').objectStore('games')
    .get(code); r.onsuccess = () => ok(r.result); });
  db.close();
  return g ? { seqs: g.decisions.map((d) => d.seq), writer: g.writer,
               aside: (g.set_aside || []).map((s) => s.decisions.length) } : null;
}"""

DAMAGE = """async (code) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('darkcity-pocket', 2);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const t = db.transaction('games', 'readwrite');
  const s = t.objectStore('games');
  const g = await new Promise((ok) => { const r = s.get(code); r.onsuccess = () => ok(r.result); });
  // two tabs that each wrote on from the same place: [0 ... 7, 6, 7, 8 ...]
  g.decisions = [...g.decisions.slice(0, 8), ...g.decisions.slice(6)];
  s.put(g);
  await new Promise((ok) => { t.oncomplete = ok; });
  db.close();
  return g.decisions.length;
}"""


def _start(page: Any, players: int = 4) -> str:
    page.get_by_test_id("name").fill("Ana")
    page.get_by_test_id("players").fill(str(players))
    page.get_by_test_id("players").dispatch_event("change")
    page.get_by_test_id("pace").select_option("fast")
    page.get_by_test_id("create").click()
    page.wait_for_function("() => location.hash.length > 1")
    page.locator("[data-testid=phase]").wait_for(timeout=30_000)
    return code_of(page)


def _play_until(page: Any, code: str, decisions: int, rng: random.Random) -> list[int]:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        seqs = (page.evaluate(SAVED, code) or {}).get("seqs", [])
        if len(seqs) >= decisions:
            return list(seqs)
        click_something(page, rng)
        time.sleep(0.1)
    raise AssertionError(f"fewer than {decisions} decisions in time")


def test_two_tabs_of_one_game_one_writer_the_other_told(
        browser: Any, static: Static, artifacts: Path) -> None:  # noqa: F811
    """The game open in a second tab (the home-screen app beside a browser tab, a link
    tapped twice): the second is told it is open elsewhere and may take it over; then
    the first stops (its bots and timers) and says so; nothing is ever stored twice,
    and the game reopens whole."""
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-US")
    first = context.new_page()
    try:
        first.goto(f"{static.origin}/play.html")
        engine_ready(first)
        code = _start(first)
        rng = random.Random(3)
        _play_until(first, code, 4, rng)
        second = context.new_page()
        second.goto(f"{static.origin}/play.html#{code}")
        engine_ready(second)
        expect(second.get_by_test_id("fatal")).to_contain_text("open in another tab")
        second.screenshot(path=str(artifacts / "pocket-play-elsewhere-en-375.png"))
        # the first goes on meanwhile: it is still the game's writer
        before = _play_until(first, code, 6, rng)
        assert before == list(range(len(before)))
        second.get_by_test_id("take-back").click()  # "Play in this window"
        second.locator("[data-testid=phase]").wait_for(timeout=30_000)
        expect(first.get_by_test_id("fatal")).to_contain_text("opened in another tab",
                                                              timeout=15_000)
        # the first tab's room stopped: nothing more is written by it; the second goes on
        seqs = _play_until(second, code, len(before) + 4, rng)
        assert seqs == list(range(len(seqs))), seqs
        time.sleep(1.5)
        after = first.evaluate(SAVED, code)
        assert after["seqs"] == list(range(len(after["seqs"])))
        # and the game reopens whole, with nothing said about a damage
        second.reload()
        engine_ready(second)
        second.locator("[data-testid=phase]").wait_for(timeout=30_000)
        expect(second.get_by_test_id("fatal")).to_have_count(0)
        assert "damaged" not in second.inner_text("body")
        # taken back by the first tab: the second is told in turn
        first.get_by_test_id("take-back").click()
        first.locator("[data-testid=phase]").wait_for(timeout=30_000)
        expect(second.get_by_test_id("fatal")).to_be_visible(timeout=15_000)
        saved = first.evaluate(SAVED, code)
        assert saved["seqs"] == list(range(len(saved["seqs"]))) and saved["aside"] == []
    finally:
        context.close()


def test_a_damaged_save_opens_at_its_last_consistent_decision_and_the_list_names_players(
        browser: Any, static: Static, artifacts: Path) -> None:  # noqa: F811
    """A save damaged before this app kept one writer per game (decisions written twice
    by two tabs) opens at its last consistent decision, says so, keeps the rest aside;
    the list of games says whose game it is. A game's address with no game on this
    phone leads to the list, saying why. The phone's own engine imports every module
    it needs from the trimmed standard library."""
    levels = catalog("en")["levels"]
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{static.origin}/play.html")
        engine_ready(page)
        checked = page.evaluate("async () => (await import(new URL('engine.js', "
                                "document.baseURI).href)).rpc('selfcheck', {})")
        assert checked["missing"] == [] and checked["modules"] > 40, checked
        code = _start(page, players=5)
        _play_until(page, code, 12, random.Random(5))
        # the phone's compile of its Python, kept after its first start, is what the
        # next start reads: every module still there
        _wait_kept(page, "stdlib.zip", "the phone's compile")
        page.goto(f"{static.origin}/play.html")  # (the list: nothing holds the game)
        engine_ready(page)
        assert page.evaluate("window.__darkcityEngine.compiled") is True
        # the second start takes the picture of the engine's memory the next ones put back
        assert page.evaluate("window.__darkcityEngine.snapshot") == "made"
        _wait_kept(page, "snapshot.bin", "the engine's snapshot")
        checked = page.evaluate("async () => (await import(new URL('engine.js', "
                                "document.baseURI).href)).rpc('selfcheck', {})")
        assert checked["missing"] == [], checked
        page.goto(f"{static.origin}/play.html")
        engine_ready(page)
        assert page.evaluate("window.__darkcityEngine.snapshot") == "restored"
        checked = page.evaluate("async () => (await import(new URL('engine.js', "
                                "document.baseURI).href)).rpc('selfcheck', {})")
        assert checked["missing"] == [], checked  # (a module not in the picture: its file)
        who = page.get_by_test_id(f"who-{code}")
        expect(who).to_contain_text("Ana")
        expect(who).to_contain_text(f"4 bots ({levels['medium']})")
        expect(page.get_by_test_id(f"where-{code}")).to_contain_text("Night 1")
        expect(page.get_by_test_id(f"record-{code}")).to_have_count(0)  # not over: none
        page.screenshot(path=str(artifacts / "pocket-play-list-en-375.png"), full_page=True)
        total = page.evaluate(DAMAGE, code)
        page.goto(f"{static.origin}/play.html#{code}")
        engine_ready(page)
        page.locator("[data-testid=phase]").wait_for(timeout=30_000)
        said = page.get_by_test_id("toast").filter(has_text="damaged")
        expect(said).to_contain_text(f"The {total - 8} moves after it were set aside")
        saved = page.evaluate(SAVED, code)
        assert saved["seqs"][:8] == list(range(8))
        assert saved["seqs"] == list(range(len(saved["seqs"])))
        assert saved["aside"] == [total - 8]  # kept in the save, not lost
        page.goto(f"{static.origin}/play.html")
        engine_ready(page)
        expect(page.get_by_test_id(f"game-{code}")).to_contain_text("damaged")
        # a game's address with no game of that code here: the list, and why
        page.goto(f"{static.origin}/play.html#NOPE")
        engine_ready(page)
        expect(page.get_by_test_id("no-such-game")).to_contain_text("NOPE")
        assert page.evaluate("location.hash") == ""
        # a damaged picture: the engine starts from the compile, says the picture's end,
        # and never takes one again for this build; the game goes on
        page.evaluate(DAMAGE_SNAPSHOT)
        page.goto(f"{static.origin}/play.html#{code}")
        page.reload()  # (the address's fragment alone changed: a new start)
        engine_ready(page)
        assert page.evaluate("window.__darkcityEngine.snapshot") is None
        page.locator("[data-testid=phase]").wait_for(timeout=30_000)
        _wait_kept(page, "no-snapshot", "the word that the picture does not start")
        page.goto(f"{static.origin}/play.html")
        engine_ready(page)
        assert page.evaluate("window.__darkcityEngine.snapshot") is None
        assert page.evaluate("window.__darkcityEngine.compiled") is True
    finally:
        context.close()


#: A file of the phone's compile (worker.js) kept in the browser's cache.
KEPT = """(name) => caches.keys().then((ks) => Promise.all(ks.filter((k) => k.startsWith(
  'darkcity-compiled-')).map((k) => caches.open(k).then((c) => c.keys())
  .then((r) => r.some((x) => x.url.endsWith(name)))))).then((hits) => hits.some(Boolean))"""

#: The engine's snapshot overwritten with bytes that are not one (its header kept whole
#: but its build named wrong, as a phone's disk or a half-written file could leave it).
DAMAGE_SNAPSHOT = """async () => {
  for (const k of await caches.keys()) {
    if (!k.startsWith('darkcity-compiled-')) continue;
    const c = await caches.open(k);
    for (const rq of await c.keys()) {
      if (!rq.url.endsWith('snapshot.bin')) continue;
      const bytes = new Uint8Array(await (await c.match(rq)).arrayBuffer());
      bytes.fill(7, 16, 48);
      await c.put(rq, new Response(bytes));
    }
  }
}"""


def _wait_kept(page: Any, name: str, what: str) -> None:
    end = time.monotonic() + 120
    while not page.evaluate(KEPT, name):
        assert time.monotonic() < end, f"{what} was not kept"
        time.sleep(0.5)


def test_the_record_viewer_fits_long_names_and_says_what_it_refuses(
        browser: Any, static: Static, tmp_path: Path) -> None:  # noqa: F811
    """A record from elsewhere with a 28-character name does not widen the phone's page;
    a file over the server's size limit, a companion's table and a single night are
    refused saying where they open (the limit in words)."""
    from darkcity.deck import preset
    from darkcity.game import Game, play_randomly
    from darkcity.record import write_record
    from darkcity.settings import Settings

    players = ("Maria Eduarda Albuquerque Sá", "Bia", "Caio", "Duda", "Enzo")
    game = Game(Settings(players=players, deck=preset("basic", 5)), 3)
    play_randomly(game, random.Random(3))
    record = tmp_path / "long.json"
    record.write_text(json.dumps(write_record(game)))
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"format": "darkcity-table/1", "nights": []}))
    big = tmp_path / "big.json"
    doc = write_record(game)
    doc["padding"] = "x" * 1_200_000
    big.write_text(json.dumps(doc))
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{static.origin}/replay.html")
        engine_ready(page)
        page.get_by_test_id("record-file").set_input_files(str(record))
        page.get_by_test_id("review-night").wait_for(timeout=60_000)
        page.get_by_test_id("review-viewer").select_option(players[0])
        expect(page.get_by_test_id("review-night")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide"
        page.get_by_test_id("record-file").set_input_files(str(big))
        expect(page.locator("body")).to_contain_text("1 MB at most", timeout=30_000)
        page.get_by_test_id("record-file").set_input_files(str(table))
        expect(page.locator("body")).to_contain_text("open the companion", timeout=30_000)
    finally:
        context.close()
