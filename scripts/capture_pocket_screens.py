"""Screenshots of the pocket app's play and record pages on a 375 px phone, in English
and Portuguese: ``docs/screens/pocket/{screen}-{lang}-375.png`` for the set-up of a
game against bots, a gesture in a solo game, the games kept on the phone (whose game
each is), the same game opened in a second tab (told, and offered to take it over),
the hand-over of a phone passed from hand to hand, a night's story read by the whole
table before the phone is handed on, and a record stepped through (the companion's
screens are taken by ``tests/browser/test_pocket_app.py``).

    python3 scripts/capture_pocket_screens.py              # both languages
    python3 scripts/capture_pocket_screens.py --lang pt_BR --out /tmp/shots

It builds the site (``darkcity.pocket.build``: npm once, for the pinned Pyodide),
serves it on 127.0.0.1 and drives headless Chromium through it, choosing at random
where a person would choose. Needs Playwright and Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ensure_chromium  # noqa: E402
from tests.browser.test_pocket_app import Static  # noqa: E402
from tests.browser.test_web_play import click_something, phase  # noqa: E402
from tests.test_record import _record  # noqa: E402

from darkcity.pocket.build import build_site  # noqa: E402

PHONE = {"width": 375, "height": 812}
LOCALES = {"en": "en-US", "pt_BR": "pt-BR"}


def ready(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'",
                           timeout=120_000)


def shots(browser: Any, origin: str, lang: str, out: Path, record: Path) -> list[Path]:
    made: list[Path] = []
    context = browser.new_context(viewport=PHONE, has_touch=True, locale=LOCALES[lang])
    page = context.new_page()

    def shoot(name: str, full: bool = False) -> None:
        time.sleep(0.35)  # the arrows and the count settle
        path = out / f"{name}-{lang}-375.png"
        page.screenshot(path=str(path), full_page=full)
        made.append(path)

    try:
        # a game against bots: its set-up, then a gesture
        page.goto(f"{origin}/play.html")
        ready(page)
        page.get_by_test_id("name").fill("Ana")
        shoot("play-setup")
        page.get_by_test_id("players").fill("6")
        page.get_by_test_id("players").dispatch_event("change")
        page.get_by_test_id("create").click()
        page.wait_for_function("() => location.hash.length > 1")
        code = page.evaluate("location.hash.slice(1)")
        rng, end = random.Random(3), time.monotonic() + 120
        while time.monotonic() < end:
            if phase(page) == "gesture" and page.locator("[data-testid^=choice-]").count():
                shoot("play-gesture")
                break
            click_something(page, rng)
            time.sleep(0.05)
        # the same game in a second tab: told, and offered to take it over
        second = context.new_page()
        second.goto(f"{origin}/play.html#{code}")
        ready(second)
        second.get_by_test_id("fatal").wait_for(timeout=30_000)
        time.sleep(0.35)
        path = out / f"play-elsewhere-{lang}-375.png"
        second.screenshot(path=str(path))
        made.append(path)
        second.close()
        # the games on this phone, each saying whose game it is
        page.goto(f"{origin}/play.html")
        ready(page)
        page.get_by_test_id(f"who-{code}").wait_for(timeout=30_000)
        shoot("play-list")
        # a phone passed from hand to hand: the hand-over screen, then a night's story
        # read by the whole table before the phone is handed on
        page.get_by_test_id("name").fill("Ana")
        page.get_by_test_id("add-person").click()
        page.get_by_test_id("name-1").fill("Bia")
        page.get_by_test_id("players").fill("4")
        page.get_by_test_id("players").dispatch_event("change")
        page.get_by_test_id("pace").select_option("fast")
        page.get_by_test_id("create").click()
        page.get_by_test_id("handover-show").wait_for(timeout=60_000)
        shoot("handover")
        end = time.monotonic() + 240
        while time.monotonic() < end:
            if page.get_by_test_id("hand-on").is_visible():
                shoot("play-story")
                break
            if page.get_by_test_id("handover-show").is_visible():
                page.get_by_test_id("handover-show").click()
                time.sleep(0.2)
                continue
            click_something(page, rng)
            time.sleep(0.05)
        # a record stepped through
        page.goto(f"{origin}/replay.html")
        ready(page)
        page.get_by_test_id("record-file").set_input_files(str(record))
        page.get_by_test_id("review-night").wait_for(timeout=60_000)
        page.get_by_test_id("review-next").click()
        page.wait_for_timeout(500)
        shoot("review")
    finally:
        context.close()
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", choices=sorted(LOCALES), action="append")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screens" / "pocket")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = build_site(Path(tmp) / "site")
        record = Path(tmp) / "darkcity-game.json"
        record.write_text(json.dumps(_record()))
        static = Static(site.out)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=ensure_chromium())
                for lang in args.lang or sorted(LOCALES):
                    for path in shots(browser, static.origin, lang, args.out, record):
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                browser.close()
        finally:
            static.stop()


if __name__ == "__main__":
    main()
