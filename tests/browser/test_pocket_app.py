"""The pocket app in Chromium (issue #29): the table companion on one phone, offline,
with no server. The site is built (``darkcity.pocket.build``, the Pyodide runtime from
npm, hash-checked) and served by a plain static server on loopback; the phone opens
it once, goes offline (``context.set_offline(True)``), reloads, sets up six players,
plays a whole night with Death's secret name handed over, corrects the night's story,
reloads and finds the table, exports the game (``darkcity replay`` accepts it) and
imports it back, deletes a table (asked first). No request leaves the static server's
origin; once offline the static server is stopped. A rebuilt site is said ("a new
version is ready") and taken only when asked, never mixing two versions' files.
Skipped, saying why, where npm or its registry is not there.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from darkcity.cast import Role
from darkcity.game import Game
from darkcity.notation import adjudicate, result_document
from darkcity.pocket.build import BuildError, Site, build_site

from .test_companion_browser import HEIGHT, WIDTH, Driver, table_game


class Static:
    """A plain static server on loopback (python's http.server), counting requests."""

    def __init__(self, root: Path) -> None:
        self.paths: list[str] = []
        seen = self.paths

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                seen.append(self.path)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.httpd.server_close()
            self.thread.join()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    try:
        return build_site(tmp_path_factory.mktemp("pocket") / "site")
    except BuildError as e:
        pytest.skip(f"the pocket app cannot be built here: {e}")


@pytest.fixture
def static(site: Site) -> Iterator[Static]:
    s = Static(site.out)
    try:
        yield s
    finally:
        s.stop()


class PocketDriver(Driver):
    """The companion's Driver on the pocket app: an entry is done when the page shows
    the next version (no HTTP to wait on); the table as the page holds it."""

    def tap(self, testid: str, *, sends: bool = False) -> None:
        loc = self.page.get_by_test_id(testid)
        self.taps += 1
        if not sends:
            loc.click()
            return
        before = self.page.evaluate("Number(document.getElementById('app').dataset.version || 0)")
        loc.click()
        self.page.wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version || 0) > v", arg=before)

    def state(self) -> dict[str, Any]:
        view: dict[str, Any] = self.page.evaluate(
            "async () => (await import(new URL('static/table/main.js', document.baseURI)"
            ".href)).S.view")
        return view

    def draft(self, rec: Any, phone: Any | None = None) -> None:
        """Death's name on the one phone: handed over, the table hidden meanwhile."""
        night = rec.night
        death = next((p for p in night.players if night.cards[p].role is Role.DEATH), None)
        if death is None:
            super().draft(rec)
            return
        self.wait_stage("draft")
        expect(self.page.get_by_test_id("panel-draft")).not_to_contain_text("own phone")
        self.tap("took-death")
        self.page.get_by_test_id("panel-secret").wait_for()
        if self.shots is not None:
            self.page.screenshot(path=str(self.shots / "pocket-secret-en-375.png"))
        for hidden in ("table-code", "undo", "links", "players-change", "panel-draft"):
            expect(self.page.get_by_test_id(hidden)).to_have_count(0)
        self.tap(f"death-name-{night.gestures[death].names}", sends=True)
        self.hand_back()

    def set_up(self, game: Game) -> None:
        page = self.page
        page.goto(f"{self.base}/?lang={self.lang}")
        page.get_by_test_id("panel-setup").wait_for()
        players = game.players
        while page.get_by_test_id(f"seat-{len(players)}").count():
            page.get_by_test_id(f"del-{len(players)}").click()
        for i, p in enumerate(players):
            if not page.get_by_test_id(f"seat-{i}").count():
                page.get_by_test_id("add-player").click()
            seat = page.get_by_test_id(f"seat-{i}")
            seat.fill(p)
            seat.dispatch_event("change")
        page.get_by_test_id("deck").select_option(game.settings.deck.name)
        page.get_by_test_id("free-0").wait_for()  # the engine checked the deck
        for i, p in enumerate(players):
            page.get_by_test_id(f"free-{i}").select_option(game.free_xp[p].key)
        page.get_by_test_id("start").click()
        self.wait_stage("draft")
        self.code = self.page.evaluate(
            "async () => (await import(new URL('static/table/main.js', document.baseURI)"
            ".href)).S.code")


def engine_ready(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'",
                           timeout=120_000)


def test_a_night_on_one_phone_offline_saved_exported_and_imported(
        browser: Any, site: Site, static: Static, tmp_path: Path, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                  has_touch=True, locale="en-US", accept_downloads=True)
    asked: list[str] = []
    context.on("request", lambda r: asked.append(r.url))
    page = context.new_page()
    try:
        # once online: the page draws at once, the engine loads, every file is kept
        page.goto(f"{static.origin}/")
        page.get_by_test_id("panel-setup").wait_for()
        # drawn before the engine: what loads is said, with its progress
        expect(page.get_by_test_id("engine-progress")).to_have_count(1)
        engine_ready(page)
        page.wait_for_function(
            "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
            timeout=60_000)
        version = json.loads((site.out / "version.json").read_text())["version"]
        assert page.evaluate("caches.keys()") == [f"darkcity-pocket-{version}"]
        # offline from here, and the static server gone (the browser's own update check
        # of sw.js skips Chromium's offline emulation: it finds nobody)
        context.set_offline(True)
        static.stop()
        page.reload()
        page.get_by_test_id("panel-setup").wait_for()
        engine_ready(page)
        expect(page.get_by_test_id("engine")).to_be_hidden()
        page.screenshot(path=str(artifacts / "pocket-offline-setup-en-375.png"))

        game = table_game()
        rec = game.nights[0]
        assert Role.DEATH in {c.role for c in rec.night.cards.values()}
        d = PocketDriver(page, static.origin)
        d.shots = artifacts / "pocket"  # the night's screens, as the companion's Driver takes them
        d.shots.mkdir(exist_ok=True)
        d.set_up(game)
        expect(page.get_by_test_id("no-phones")).to_have_count(1)
        d.play(rec)  # Death's name entered on the Mayor's phone, handed over
        d.wait_stage("over" if len(game.nights) == 1 else "journals")
        before = d.state()
        assert before["result"]["number"] == 1
        page.screenshot(path=str(artifacts / "pocket-night-en-375.png"), full_page=True)

        # a correction to the night's story (a gesture entered again as it was)
        night = rec.night
        p = next(q for q in before["gesturing"] if night.shown(q) in (
            Role.PRIEST, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE, Role.HUNTER))
        d.tap("correct")
        page.get_by_test_id("panel-correct").wait_for()
        d.tap(f"who-{p}")
        shows, g = night.shown(p), night.gestures.get(p)
        taps = [f"role-{shows.key}"] + ([f"target-{x}" for x in g.targets] if g else [])
        for tid in taps[:-1]:
            d.tap(tid)
        d.tap(taps[-1], sends=True)
        expect(page.get_by_test_id("toast").last).to_contain_text(f"Corrected: {p}'s gesture")
        after = d.state()
        assert after["result"] == before["result"]

        # a reload (or a closed app) loses nothing: the table as it was
        page.reload()
        engine_ready(page)
        d.wait_stage("over" if len(game.nights) == 1 else "journals")
        assert d.state()["version"] == after["version"]
        page.goto(f"{static.origin}/")
        page.get_by_test_id(f"resume-{d.code}").wait_for()

        # the night exported (darkcity-round/1): adjudicated alone, the engine's result
        page.get_by_test_id(f"resume-{d.code}").click()
        page.get_by_test_id("export-night").wait_for()
        with page.expect_download() as one:
            page.get_by_test_id("export-night").click()
        round_doc = json.loads(Path(one.value.path()).read_text())
        assert adjudicate(round_doc) == result_document(rec.result)
        # the game exported, accepted by darkcity replay, and imported back
        with page.expect_download() as dl:
            page.get_by_test_id("export-record").click()
        saved = tmp_path / dl.value.suggested_filename
        dl.value.save_as(saved)
        assert saved.name == f"darkcity-table-{d.code}.json"
        replay = subprocess.run([sys.executable, "-m", "darkcity", "replay", str(saved)],
                                capture_output=True, text=True, timeout=120, check=False)
        assert replay.returncode == 0 and replay.stdout.startswith("ok"), replay
        page.goto(f"{static.origin}/")
        page.get_by_test_id("import-file").wait_for()
        # an alert with nothing to say draws nothing (it was an empty red box)
        expect(page.get_by_test_id("import-error")).to_be_hidden()
        page.get_by_test_id("import-file").set_input_files(str(saved))
        expect(page.get_by_test_id("toast").last).to_contain_text("Game imported")
        expect(page.locator("[data-testid^=resume-]")).to_have_count(2)
        # a foreign file: said, and nothing saved touched
        junk = tmp_path / "junk.json"
        junk.write_text('{"format": "darkcity-round/1"}')
        page.get_by_test_id("import-file").set_input_files(str(junk))
        expect(page.get_by_test_id("import-error")).to_contain_text("not a game")
        expect(page.get_by_test_id("import-error")).to_be_visible()
        expect(page.locator("[data-testid^=resume-]")).to_have_count(2)
        # a table deleted, asked first; refused once, kept
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.get_by_test_id(f"delete-{d.code}").click()
        expect(page.locator("[data-testid^=resume-]")).to_have_count(2)
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id(f"delete-{d.code}").click()
        expect(page.locator("[data-testid^=resume-]")).to_have_count(1)
        expect(page.get_by_test_id(f"resume-{d.code}")).to_have_count(0)

        outside = [u for u in asked if not u.startswith((static.origin, "blob:", "data:"))]
        assert outside == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_screens_of_the_app_loading_and_ready_on_a_phone_and_a_laptop(
        browser: Any, static: Static, artifacts: Path, lang: str) -> None:
    """The set-up drawn while the engine loads (its progress said in the phone's
    language), then ready, at 375 px and 1280 px: screenshots to look at
    (``pocket-*.png`` in the artifacts)."""
    locale = "pt-BR" if lang == "pt_BR" else "en-US"
    for width, height in ((375, 667), (1280, 800)):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale=locale, has_touch=width < 400)
        page = context.new_page()
        try:
            page.goto(f"{static.origin}/")
            page.get_by_test_id("panel-setup").wait_for()
            said = page.get_by_test_id("engine")
            if page.evaluate("document.documentElement.dataset.engine") != "ready":
                page.screenshot(path=str(artifacts / f"pocket-loading-{lang}-{width}.png"))
            engine_ready(page)
            expect(said).to_be_hidden()
            expect(page.locator("h1")).to_have_text(
                "Companheiro de mesa" if lang == "pt_BR" else "Table companion")
            page.screenshot(path=str(artifacts / f"pocket-setup-{lang}-{width}.png"),
                            full_page=True)
        finally:
            context.close()


def test_a_new_version_is_said_and_taken_only_when_asked(
        browser: Any, site: Site, tmp_path: Path) -> None:
    """A site rebuilt while a phone has the app: the running version keeps serving its
    own files (never a mix), the page says "A new version of the app is ready", and
    Reload brings the new version with its cache alone."""
    import shutil

    root = tmp_path / "site"
    shutil.copytree(site.out, root)
    served = Static(root)
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                  locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{served.origin}/")
        engine_ready(page)
        page.wait_for_function(
            "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
            timeout=60_000)
        # the next build: another version, another set-up title
        new = "0" * 16
        for name in ("sw.js", "version.json"):
            f = root / name
            f.write_text(f.read_text().replace(site.version, new))
        shell = root / "index.html"
        shell.write_text(shell.read_text().replace("<title>", "<title>New · "))
        page.reload()
        engine_ready(page)
        banner = page.get_by_test_id("update")
        expect(banner).to_contain_text("A new version of the app is ready.", timeout=60_000)
        # until asked, the version running serves its own files
        assert not page.title().startswith("New")
        assert sorted(page.evaluate("caches.keys()")) == sorted(
            [f"darkcity-pocket-{site.version}", f"darkcity-pocket-{new}"])
        with page.expect_navigation():
            page.get_by_test_id("update-reload").click()
        engine_ready(page)
        assert page.title().startswith("New")
        page.wait_for_function(f"() => caches.keys().then((k) => k.length === 1 && k[0] === "
                               f"'darkcity-pocket-{new}')")
    finally:
        context.close()
        served.stop()


def test_a_full_storage_is_said_and_nothing_is_shown_done(browser: Any, static: Static) -> None:
    """The phone's storage full (the origin's quota cut to a few bytes through CDP's
    Storage.overrideQuotaForOrigin): the table is not started, and the page says why in
    words; nothing is shown as done that was not saved."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{static.origin}/")
        engine_ready(page)
        cdp = context.new_cdp_session(page)
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": static.origin, "quotaSize": 1})
        d = PocketDriver(page, static.origin)
        game = table_game()
        page.get_by_test_id("panel-setup").wait_for()
        for i, p in enumerate(game.players):
            if not page.get_by_test_id(f"seat-{i}").count():
                page.get_by_test_id("add-player").click()
            page.get_by_test_id(f"seat-{i}").fill(p)
            page.get_by_test_id(f"seat-{i}").dispatch_event("change")
        page.get_by_test_id("deck").select_option(game.settings.deck.name)
        page.get_by_test_id("free-0").wait_for()
        for i, p in enumerate(game.players):
            page.get_by_test_id(f"free-{i}").select_option(game.free_xp[p].key)
        said = page.get_by_test_id("start-error")
        # one tap: the refusal stays said through any re-draw (it came and went, in CI)
        page.get_by_test_id("start").click()
        expect(said).to_contain_text("The phone's storage is full: this entry was not saved",
                                     timeout=20_000)
        expect(page.get_by_test_id("panel-draft")).to_have_count(0)
        assert d.state() is None
    finally:
        context.close()


API = """async ([op, args]) => {
  const { api } = await import(new URL('static/table/api.js', document.baseURI).href);
  try { return await api[op](...args); } catch (e) {
    return { refused: e.message, status: e.status }; }
}"""


def test_two_tabs_of_one_table_one_writer(browser: Any, static: Static) -> None:
    """The companion's table open in a second tab: told it is open elsewhere, with the
    tap that takes it over; then the first tab says so and its entries are refused,
    never written over the second's (issue #50)."""
    players = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="en-US")
    first = context.new_page()
    try:
        first.goto(f"{static.origin}/")
        engine_ready(first)
        body = {"players": players, "deck": "basic", "lang": "en",
                "free_xp": dict.fromkeys(players, "priest")}
        code = first.evaluate(API, ["create", [body]])["code"]
        first.goto(f"{static.origin}/?table={code}")
        engine_ready(first)
        first.get_by_test_id("panel-draft").wait_for(timeout=30_000)
        second = context.new_page()
        second.goto(f"{static.origin}/?table={code}")
        engine_ready(second)
        expect(second.get_by_test_id("elsewhere")).to_contain_text("open in another tab",
                                                                   timeout=15_000)
        second.get_by_test_id("take-over").click()
        second.get_by_test_id("panel-draft").wait_for(timeout=30_000)
        expect(first.get_by_test_id("elsewhere")).to_contain_text("opened in another tab",
                                                                  timeout=15_000)
        # the first tab's entry is refused, never written over the second's
        said = first.evaluate(API, ["enter", [code, "local", {"type": "drafted"}]])
        assert said.get("status") == 409, said
        v = second.evaluate(API, ["enter", [code, "local", {"type": "drafted"}]])
        assert "refused" not in v, v
        second.reload()
        engine_ready(second)
        second.get_by_test_id("panel-count").wait_for(timeout=30_000)
    finally:
        context.close()
