"""Every entry taken or refused in words, every outcome explained (issue #51), in Chromium
at 375 px.

- The companion at "The Devil?": a player who lowered one bolt (a Hunter, D-7) was
  offered, pressed, and left out of the entry in silence; now the candidates are the
  companion's, and she is not offered.
- Why nothing happened: a night where a player's target was immune (the Reporter's
  flash, R-71) says the rule's reason for that player's 0 XP in the companion's story,
  on the web's record viewer (the online table's story panel), and in the pocket app's
  companion (skipped, saying why, where the pocket app cannot be built).
- The record viewer's winners say how each won, as the victory screen does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.sync_api import expect

from darkcity.cast import Role
from darkcity.deck import preset
from darkcity.game import Game, play_randomly
from darkcity.narration import render
from darkcity.record import write_record
from darkcity.settings import Settings, bot_rng

from ..test_server_process import Server
from .test_companion_browser import HEIGHT, WIDTH, Driver
from .test_pocket_app import PocketDriver, Static, engine_ready, site, static  # noqa: F401

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")


def first_game(deck: str, wanted: Any) -> Game:
    """The first engine game (seeds 0...) whose first night ``wanted`` accepts."""
    for seed in range(400):
        g = play_randomly(Game(Settings(players=NAMES, deck=preset(deck, 6)), seed),
                          bot_rng(seed))
        if wanted(g.nights[0]):
            return g
    raise AssertionError("no such night among the first seeds")


def _lowered_a_bolt(rec: Any) -> bool:
    n = rec.night
    return any(isinstance(w, tuple) for w in n.withdrawals.values()) and any(
        n.cards[p].role is Role.DEVIL and p not in n.withdrawals for p in n.players)


def _immune(rec: Any) -> bool:
    return any(e.key.startswith("why-immune") for e in rec.result.events)


def _why_line(rec: Any) -> str:
    e = next(e for e in rec.result.events if e.key.startswith("why-immune"))
    return render(e, rec.night)


def test_a_hunter_who_lowered_a_bolt_is_not_offered_at_the_devils_call(
        browser: Any, table_server: Server) -> None:
    game = first_game("basic", _lowered_a_bolt)
    rec = game.nights[0]
    hunter = next(p for p, w in rec.night.withdrawals.items() if isinstance(w, tuple))
    page = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}).new_page()
    try:
        d = Driver(page, table_server.base)
        d.set_up(game)
        d.truth = dict(rec.night.cards)
        d.draft(rec)
        d.count()
        d.reveal(rec)
        d.withdrawals(rec)
        expect(page.get_by_test_id("call")).to_contain_text("Devil")
        # the Devil's candidates, tapped by the Mayor: never the Hunter who lowered a bolt
        expect(page.locator("[data-testid^=holder-]").first).to_be_visible()
        expect(page.get_by_test_id(f"holder-{hunter}")).to_have_count(0)
        d.calls(rec)
        d.journals(last=len(game.nights) == 1)
        assert d.state()["nights"] == 1
    finally:
        page.context.close()


def test_an_immune_target_is_said_on_the_companion_and_the_record_viewer(
        browser: Any, table_server: Server, tmp_path: Path) -> None:
    game = first_game("reporter-death-6", _immune)
    rec = game.nights[0]
    line = _why_line(rec)
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="en-US")
    page = ctx.new_page()
    try:
        # the companion, the night entered with the real cards
        d = Driver(page, table_server.base)
        d.set_up(game)
        d.play(rec)
        d.wait_stage("over" if len(game.nights) == 1 else "journals")
        expect(page.get_by_test_id("story")).to_contain_text(line)
        # the record viewer of the web app: the night's story, from the record
        record = tmp_path / "game.json"
        record.write_text(json.dumps(write_record(game)))
        page.goto(f"{table_server.base}/replay")
        page.get_by_test_id("record-file").set_input_files(str(record))
        expect(page.get_by_test_id("events-1")).to_contain_text(line)
        # at the end, how each winner won ("Ada — 4 XP as the Priest")
        m = len(game.nights)
        for k in range(2, m + 1):
            page.get_by_test_id("review-next").click()
            expect(page.get_by_test_id("review-night")).to_have_text(f"Night {k} of {m}")
        winners = page.get_by_test_id("review-winners")
        expect(winners).to_contain_text(" — ")
        for w in game.winners:
            expect(winners).to_contain_text(w)
    finally:
        ctx.close()


def test_an_immune_target_is_said_on_the_pocket_app(browser: Any, static: Static) -> None:  # noqa: F811
    """The pocket app's companion (the engine in the phone's worker) tells the same line."""
    game = first_game("reporter-death-6", _immune)
    rec = game.nights[0]
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True,
                              locale="en-US")
    page = ctx.new_page()
    try:
        page.goto(f"{static.origin}/")
        page.get_by_test_id("panel-setup").wait_for()
        engine_ready(page)
        d = PocketDriver(page, static.origin)
        d.set_up(game)
        d.play(rec)
        d.wait_stage("over" if len(game.nights) == 1 else "journals")
        expect(page.get_by_test_id("story")).to_contain_text(_why_line(rec))
    finally:
        ctx.close()
