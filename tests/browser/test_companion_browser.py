"""The table companion in Chromium (issue #11), at 375 px like a phone.

One test plays a whole game night by night with the special cast and Death: what
happens at the table is an engine game (``Game`` with random legal decisions), and
the test enters it through the Mayor's screen as a Mayor would, tap by tap. Every
exported night, adjudicated alone (``darkcity adjudicate``), must give the engine's
result; the 6-player reveals take at most 20 taps; the count's numbers come at a
steady beat (the intervals vary by less than 50 ms); Death's name is entered on the
last drafter's own phone. The other reloads the page mid-night and kills the server
(SIGKILL) between two entries, and goes on where it was.
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
from darkcity.deck import preset  # noqa: E402
from darkcity.game import Game, play_randomly  # noqa: E402
from darkcity.notation import adjudicate, result_document  # noqa: E402
from darkcity.settings import (  # noqa: E402
    NightRecord,
    Settings,
    bot_rng,
)

from ..test_server_process import Server  # noqa: E402

WIDTH, HEIGHT = 375, 760
ENTRY = re.compile(r"/api/tables/[A-Z0-9]+/(entries|undo)")


def table_game(deck: str = "reporter-death-6", n: int = 6, *, death: bool = True) -> Game:
    """The shortest engine game (of the first seeds) whose first night has a Devil in
    disguise and, with ``death``, Death taken."""
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")[:n]
    best: Game | None = None
    for seed in range(150):
        g = play_randomly(Game(Settings(players=names, deck=preset(deck, n)), seed),
                          bot_rng(seed))
        roles = {c.role for c in g.nights[0].night.cards.values()}
        if Role.DEVIL in roles and (Role.DEATH in roles or not death) and (
                best is None or len(g.nights) < len(best.nights)):
            best = g
    assert best is not None
    return best


class Driver:
    """Enters engine nights through the companion's pages, as a Mayor taps them."""

    def __init__(self, page: Any, base: str, shots: Path | None = None, lang: str = "en"
                 ) -> None:
        self.page = page
        self.base = base
        self.shots = shots
        self.lang = lang
        self.taps = 0
        self.code = ""
        self.token = ""
        self.shot_names: list[str] = []
        self.truth: dict[str, Any] = {}  # the real cards of the night being entered
        self.told: list[str] = []  # the cards the page said, another's answer telling them

    # -- helpers ------------------------------------------------------------------

    def tap(self, testid: str, *, sends: bool = False) -> None:
        loc = self.page.get_by_test_id(testid)
        self.taps += 1
        if sends:
            with self.page.expect_response(ENTRY) as r:
                loc.click()
            assert r.value.status == 200, r.value.text()
            self.drawn(r.value)
        else:
            loc.click()

    def drawn(self, response: Any) -> None:
        """Wait until the page shows the view an entry's answer carries: on a loaded
        machine the answer can reach the test before the page has drawn it, and the
        next tap would land on the old page."""
        version = response.json().get("version")
        self.page.wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version) >= v", arg=version)

    def shot(self, name: str) -> None:
        if self.shots is None:
            return
        suffix = ".pt" if self.lang == "pt_BR" else ""
        path = self.shots / f"{name}{suffix}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.shot_names.append(path.name)

    def state(self) -> dict[str, Any]:
        r = httpx.get(f"{self.base}/api/tables/{self.code}", headers={"X-Table-Token": self.token},
                      timeout=10)
        doc: dict[str, Any] = r.json()
        return doc

    def wait_stage(self, stage: str) -> None:
        self.page.get_by_test_id({"draft": "panel-draft", "count": "panel-count",
                                  "reveal": "panel-reveal", "withdrawal": "panel-withdrawal",
                                  "resolution": "panel-call", "journals": "panel-journals",
                                  "over": "panel-journals"}[stage]).wait_for()

    # -- set-up ---------------------------------------------------------------------

    def set_up(self, game: Game) -> None:
        page = self.page
        page.goto(f"{self.base}/table?lang={self.lang}")
        page.get_by_test_id("panel-setup").wait_for()
        players = game.players
        while page.get_by_test_id(f"seat-{len(players)}").count():
            page.get_by_test_id(f"del-{len(players)}").click()
        for _attempt in range(3):  # a deck check answered mid-typing redraws the page
            for i, p in enumerate(players):
                if not page.get_by_test_id(f"seat-{i}").count():
                    page.get_by_test_id("add-player").click()
                seat = page.get_by_test_id(f"seat-{i}")
                if seat.input_value() != p:
                    seat.fill(p)
                    seat.dispatch_event("change")
            page.wait_for_timeout(200)
            if all(page.get_by_test_id(f"seat-{i}").input_value() == p
                   for i, p in enumerate(players)):
                break
        page.get_by_test_id("deck").select_option(game.settings.deck.name)
        page.get_by_test_id("free-0").wait_for()
        for i, p in enumerate(players):
            page.get_by_test_id(f"free-{i}").select_option(game.free_xp[p].key)
        self.shot("01-setup")
        with page.expect_response(re.compile(r"/api/tables\?")) as r:
            page.get_by_test_id("start").click()
        doc = r.value.json()
        self.code, self.token = doc["code"], doc["token"]
        self.wait_stage("draft")

    # -- one night --------------------------------------------------------------------

    def draft(self, rec: NightRecord, phone: Any | None = None) -> None:
        night = rec.night
        self.wait_stage("draft")
        self.shot("02-draft")
        death = next((p for p in night.players if night.cards[p].role is Role.DEATH), None)
        if death is None:
            self.tap("drafted", sends=True)
            return
        names = night.gestures[death].names
        if phone is not None:  # the last drafter types it on their own phone
            phone.get_by_test_id(f"phone-death-{names}").wait_for()
            # the name is asked again before it is sent (one tap ended the Mayor's draft)
            phone.once("dialog", lambda d: d.accept())
            with phone.expect_response(ENTRY):
                phone.get_by_test_id(f"phone-death-{names}").click()
            return
        self.tap("took-death")
        self.shot("03-death-secret")
        self.tap(f"death-name-{names}", sends=True)
        self.hand_back()

    def hand_back(self) -> None:
        """The name written, the phone goes back to the Mayor: nothing of the table nor of
        the name shows until the Mayor taps to see it again."""
        self.page.get_by_test_id("panel-hand-back").wait_for()
        for hidden in ("table-code", "undo", "panel-count", "panel-draft"):
            expect(self.page.get_by_test_id(hidden)).to_have_count(0)
        self.tap("hand-back")

    def count(self) -> list[float]:
        self.wait_stage("count")
        self.shot("04-count")
        self.page.get_by_test_id("count-start").click()
        self.page.wait_for_function("() => (window.__darkcityCount || []).length >= 2")
        self.shot("05-count-beat")
        self.wait_stage("reveal")
        times = self.page.evaluate("() => window.__darkcityCount.map(x => x.at)")
        return [float(x) for x in times]

    def gesture(self, rec: NightRecord, *, shoot: bool = False) -> bool:
        """Enter the gesture of the player the page shows; False when nobody is left."""
        night = rec.night
        cur = self.page.get_by_test_id("reveal-current")
        if not cur.count():
            return False
        p = cur.inner_text().strip()
        g = night.gestures.get(p)
        shows = night.shown(p)
        if shoot:
            self.shot("06-reveal")
        alone = shows in (Role.PRIEST, Role.MUMMY, Role.DEMONIAC, Role.NECROMANCER)
        self.tap(f"role-{shows.key}", sends=alone)
        if shoot:
            self.shot("07-reveal-targets")
        if alone:
            return True
        assert g is not None
        if shows in (Role.ALIEN, Role.VOODOOIST):
            assert g.kind is not None
            self.tap(f"kind-{g.kind.key}", sends=True)
            return True
        if g.seeks is not None:
            self.tap(f"seeks-{g.seeks.value}")
        for i, t in enumerate(g.targets):
            self.tap(f"target-{t}", sends=i == len(g.targets) - 1)
            if i == 0 and len(g.targets) == 2:  # the first of two targets is said
                prompt = self.page.get_by_test_id("aim-prompt")
                prompt.wait_for()
                assert t in prompt.inner_text(), prompt.inner_text()
        return True

    def reveal(self, rec: NightRecord) -> int:
        """Enter every gesture left, then "done"; the taps it took."""
        self.wait_stage("reveal")
        start = self.taps
        first = True
        # until the last gesture is in, the greyed button says how many are left
        left = self.page.get_by_test_id("reveal-done").inner_text()
        assert any(ch.isdigit() for ch in left) or not self.page.get_by_test_id(
            "reveal-current").count(), left
        while self.gesture(rec, shoot=first):
            first = False
        self.shot("08-reveal-done")
        self.tap("reveal-done", sends=True)
        return self.taps - start

    def withdrawals(self, rec: NightRecord) -> None:
        night = rec.night
        self.wait_stage("withdrawal")
        for p, w in night.withdrawals.items():
            if w is True:
                self.tap(f"fled-{p}", sends=True)
                # a Hunter who fled is offered no single bolt to lower any more
                assert not self.page.get_by_test_id(f"arrow-{p}-0").count()
            else:
                assert isinstance(w, tuple)
                self.tap(f"arrow-{p}-{w[0]}", sends=True)
        self.shot("09-withdrawals")
        self.tap("withdrawals-done", sends=True)

    def calls(self, rec: NightRecord) -> None:
        night = rec.night
        shot = True
        while True:
            v = self.state()
            if v["stage"] != "resolution":
                return
            q = v["question"]
            self.page.get_by_test_id("call").wait_for()
            self.page.wait_for_function(
                "(s) => document.querySelector('[data-testid=panel-call] h2')"
                " && document.querySelector('[data-testid=panel-call] h2').textContent"
                ".includes(s)", arg=q["step"] if q["step"] != "end" else "")
            if shot:
                self.shot("10-call")
                shot = False
            role = q["role"]
            truth = {p for p in q["candidates"] if role and night.cards[p].role.key == role}
            if role in ("devil", "angel"):
                for p in q["candidates"]:
                    if (p in truth) != (p in q["chosen"]):
                        self.tap(f"holder-{p}")
            # in the page's order: the holders, then those asked; a card that another's
            # answer tells (the question's `follows`) is said, not asked
            tapped: set[str] = set()
            for p in [x for x in q["candidates"] if x in truth and x not in q["asked"]]:
                self._card(p, q, tapped, with_gender=False)
            for p in q["asked"]:
                self._card(p, q, tapped, with_gender=q["step"] == "8")
            for z, c in q["zombies"].items():
                want = night.zombie_targets.get(z, c["aimed"])
                if c["left"] != c["right"]:  # the question names what to ask the Zombie
                    ask = self.page.get_by_test_id(f"zombie-ask-{z}").inner_text()
                    assert z in ask and c["left"] in ask and c["right"] in ask, ask
                self.tap(f"zombie-{z}-{want}")
            self.tap("call-next", sends=True)

    def _card(self, p: str, q: dict[str, Any], tapped: set[str], *, with_gender: bool) -> None:
        """Tap the real card of ``p`` among the deck's, when more than one fits and no
        card tapped at this call tells it (then the page says it: ``follows-P``)."""
        options = q["options"].get(p, [])
        keys = {(o["role"], o["edition"], o["gender"] if with_gender else None) for o in options}
        if len(keys) <= 1:
            return
        card = self.truth[p]
        if any(f["from"] in tapped for f in q.get("follows", {}).get(p, [])):
            told = self.page.get_by_test_id(f"follows-{p}")
            told.wait_for()
            self.told.append(told.inner_text())
            return
        tapped.add(p)
        tid = f"card-{p}-{card.role.key}-{card.edition.value}"
        if with_gender and card.identity is not None:
            tid += f"-{card.identity.value}"
        self.tap(tid)

    def journals(self, last: bool) -> None:
        self.wait_stage("over" if last else "journals")
        # the whole night's story is titled with its number, not "so far"
        title = self.page.get_by_test_id("story-title")
        if title.count():
            assert str(self.state()["night"]) in title.inner_text(), title.inner_text()
        # nothing drawn as "null" (a panel that is not there appended as a text)
        assert "null" not in self.page.get_by_test_id("panel-journals").inner_text()
        self.shot("11-journals" if not last else "12-victory")
        if not last:
            self.tap("next-night", sends=True)

    def play(self, rec: NightRecord, phone: Any | None = None) -> dict[str, Any]:
        """Night ``rec`` entered, from the draft to the Mayor's last call."""
        self.truth = dict(rec.night.cards)
        self.draft(rec, phone)
        times = self.count()
        taps = self.reveal(rec)
        self.withdrawals(rec)
        self.calls(rec)
        return {"times": times, "taps": taps}

    def night(self, rec: NightRecord, last: bool, phone: Any | None = None) -> dict[str, Any]:
        got = self.play(rec, phone)
        self.journals(last)
        return got


def _check_night(base: str, code: str, rec: NightRecord) -> None:
    r = httpx.get(f"{base}/api/tables/{code}/nights/{rec.number}", timeout=10)
    assert r.status_code == 200
    doc = r.json()
    assert adjudicate(json.loads(json.dumps(doc))) == result_document(rec.result), rec.number


def test_a_whole_game_with_the_special_cast_and_death(browser: Any, table_server: Server,
                                                      artifacts: Path) -> None:
    game = table_game()
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    d = Driver(page, table_server.base)
    d.set_up(game)
    # the last drafter of night 1 joins on their own phone
    phone_ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    phone = phone_ctx.new_page()
    phone.goto(f"{table_server.base}/table/{d.code}")
    last = game.players[(game.settings.mayor_seat - 1) % len(game.players)]
    phone.get_by_test_id(f"iam-{last}").click()
    phone.get_by_test_id("panel-phone").wait_for()
    measures: list[dict[str, Any]] = []
    try:
        for k, rec in enumerate(game.nights):
            final = k == len(game.nights) - 1
            got = d.night(rec, final, phone if k == 0 else None)
            measures.append({"night": rec.number, "reveal_taps": got["taps"],
                             "count_ms": [round(b - a, 1) for a, b in
                                          zip(got["times"], got["times"][1:], strict=False)]})
            _check_night(table_server.base, d.code, rec)
            gaps = [b - a for a, b in zip(got["times"], got["times"][1:], strict=False)]
            assert len(got["times"]) == 4 and max(gaps) - min(gaps) < 50, gaps
            gesturing = sum(1 for p in rec.night.players
                            if rec.night.cards[p].role is not Role.DEATH)
            if gesturing == 6:
                assert got["taps"] <= 20, got["taps"]
            assert got["taps"] <= 4 * gesturing
        assert d.state()["winners"] == list(game.winners)
        # the phone shows its own journal, who won and why, and its own last night
        phone.get_by_test_id("journals").wait_for()
        won = phone.get_by_test_id("phone-winners")
        won.wait_for()
        for p in game.winners:
            assert p in won.inner_text()
        fate = d.state()["result"]["players"][last]["fate"]
        mine = phone.get_by_test_id("phone-mine").inner_text()
        assert mine.startswith("You held ") and mine.split(": ")[1].startswith(fate), mine
        assert phone.locator("[data-testid=phone-result] li").count() > 0
        # the record replays
        record = httpx.get(f"{table_server.base}/api/tables/{d.code}/record", timeout=10).json()
        from darkcity.companion import replay_table

        assert replay_table(record).ok
        page.screenshot(path=str(artifacts / "companion-end.png"), full_page=True)
        (artifacts / "companion-measures.json").write_text(json.dumps(measures, indent=1))
    finally:
        ctx.close()
        phone_ctx.close()
    assert not errors, errors


def test_reload_mid_night_and_a_server_killed_between_two_entries(
        browser: Any, table_server: Server, artifacts: Path) -> None:
    game = table_game("basic", 6, death=False)
    rec = game.nights[0]
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = ctx.new_page()
    d = Driver(page, table_server.base)
    d.truth = dict(rec.night.cards)
    try:
        d.set_up(game)
        d.draft(rec)
        d.count()
        # two gestures, then a reload: the page comes back at the same player
        start = d.taps
        assert d.gesture(rec) and d.gesture(rec)
        before = d.state()
        page.reload()
        page.get_by_test_id("panel-reveal").wait_for()
        assert d.state()["gestures"] == before["gestures"]
        # the server dies (kill -9) between two entries, and comes back
        table_server.kill9()
        table_server.start()
        page.reload()
        page.get_by_test_id("panel-reveal").wait_for()
        assert d.state()["gestures"] == before["gestures"]
        d.reveal(rec)
        taps = d.taps - start  # the whole 6-player reveal, "done" included
        assert len(rec.night.players) == 6 and Role.DEATH not in {
            c.role for c in rec.night.cards.values()}
        assert taps <= 20, taps
        (artifacts / "companion-reveal-6.json").write_text(json.dumps({"taps": taps}))
        table_server.kill9()
        table_server.start()
        page.reload()
        d.withdrawals(rec)
        d.calls(rec)
        d.journals(len(game.nights) == 1)
        _check_night(table_server.base, d.code, rec)
    finally:
        ctx.close()


def test_set_up_reorders_and_refuses_a_deck_in_the_rules_words(browser: Any,
                                                               table_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = ctx.new_page()
    try:
        page.goto(f"{table_server.base}/table?lang=pt_BR")
        page.get_by_test_id("panel-setup").wait_for()
        names = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
        for i, p in enumerate(names):
            seat = page.get_by_test_id(f"seat-{i}")
            seat.fill(p)
            seat.dispatch_event("change")
        page.get_by_test_id("up-1").click()  # Bia moves before Ana: Bia is the Mayor
        page.wait_for_timeout(100)
        assert page.get_by_test_id("seat-0").input_value() == "Bia"
        assert page.get_by_test_id("seat-1").input_value() == "Ana"
        page.get_by_test_id("deck").select_option("")  # custom cards
        # the box in three groups (basic, advanced, special), a card by role and gender
        groups = page.get_by_test_id("custom-cards").locator("h3").all_inner_texts()
        assert groups == ["Cartas básicas", "Cartas avançadas", "Elenco especial"], groups
        label = page.get_by_test_id("card-vampire:advanced:masculine").inner_text()
        assert "avan" not in label and "Vampiro" in label, label
        page.get_by_test_id("card-vampire:basic:feminine").click()
        # one card: '1 carta escolhida' ('1 cartas escolhidas' before)
        expect(page.get_by_test_id("cards-chosen")).to_have_text("1 carta escolhida")
        for key in ("vampire:basic:masculine", "priest:basic:feminine"):
            page.get_by_test_id(f"card-{key}").click()
        expect(page.get_by_test_id("cards-chosen")).to_have_text("3 cartas escolhidas")
        # the deck rule, in the table's language: how many cards a deck still being built
        # needs, in amber; it was a red alert from the first card tapped
        hint = page.get_by_test_id("setup-hint")
        expect(hint).to_contain_text("este maço tem 3")
        seen = page.evaluate("""() => ({
            red: document.querySelectorAll('.error, [role=alert]').length,
            amber: document.querySelector('[data-testid=setup-hint]').className })""")
        assert seen == {"red": 0, "amber": "warn"}, seen
        assert page.get_by_test_id("start").is_disabled()
    finally:
        ctx.close()
