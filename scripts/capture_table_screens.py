#!/usr/bin/env python3
"""Screenshots of every step of the table companion at 375 px, and a few on a laptop
(1280x800), in English and Portuguese, into ``docs/screens/table/`` (issue #11).

    python3 scripts/capture_table_screens.py [--out docs/screens/table]

It starts ``darkcity serve`` on a free loopback port with a throw-away database,
drives Debian's Chromium with Playwright through a whole game (the same driver as
``tests/browser/test_companion_browser.py``: an engine game with Death and a Devil,
entered tap by tap as a Mayor would) and shoots the first night's steps, a player's
phone and the victory screen. At the reveal, the first call, the night's end and the
victory, the Mayor's page is also shot at 1280x800 (``16-laptop-*``): what a Mayor at
a laptop sees without scrolling.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ensure_chromium  # noqa: E402
from tests.browser.test_companion_browser import HEIGHT, WIDTH, Driver, table_game  # noqa: E402
from tests.test_server_process import Server, free_port  # noqa: E402

#: The phone's shots also taken at a laptop's size, and the names they get.
LAPTOP = {"06-reveal": "16-laptop-reveal", "11-journals": "18-laptop-night-end",
          "12-victory": "19-laptop-victory"}


class ScreenDriver(Driver):
    """The browser test's driver; some of its shots are taken again at 1280x800, and
    the first call with the night's story beside it (``17-laptop-call``)."""

    def tap(self, testid: str, *, sends: bool = False) -> None:
        if (testid == "call-next" and self.shots is not None
                and "17-laptop-call" not in " ".join(self.shot_names)
                and self.page.get_by_test_id("story").count()):
            self.laptop("17-laptop-call")
        super().tap(testid, sends=sends)

    def shot(self, name: str) -> None:
        super().shot(name)
        if self.shots is not None and name in LAPTOP:
            self.laptop(LAPTOP[name])

    def laptop(self, name: str) -> None:
        assert self.shots is not None
        page = self.page
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_timeout(150)
        suffix = ".pt" if self.lang == "pt_BR" else ""
        path = self.shots / f"{name}{suffix}.png"
        page.screenshot(path=str(path))
        self.shot_names.append(path.name)
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        page.wait_for_timeout(150)


def capture(out: Path, lang: str, browser: object) -> list[str]:
    game = table_game()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "screens.sqlite3", free_port())
        server.start()
        try:
            ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},  # type: ignore[attr-defined]
                                      locale="pt-BR" if lang == "pt_BR" else "en-US")
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            d = ScreenDriver(page, server.base, out, lang)
            d.set_up(game)
            phone_ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})  # type: ignore[attr-defined]
            phone = phone_ctx.new_page()
            phone.goto(f"{server.base}/table/{d.code}?lang={lang}")
            phone.get_by_test_id("iam-Ana").wait_for()
            suffix = ".pt" if lang == "pt_BR" else ""
            phone.screenshot(path=str(out / f"13-phone-who{suffix}.png"), full_page=True)
            phone.get_by_test_id("iam-Ana").click()
            phone.get_by_test_id("panel-phone").wait_for()
            # Ana says which card she drafted: its rules first, on her phone only
            phone.get_by_test_id("rules-role").select_option(
                game.nights[0].night.cards["Ana"].role.key)
            phone.get_by_test_id("rules-mine-change").wait_for()
            phone.screenshot(path=str(out / f"14-phone-journal-rules{suffix}.png"), full_page=True)
            for k, rec in enumerate(game.nights):
                last = k == len(game.nights) - 1
                d.shots = out if k == 0 else None
                if last:
                    d.play(rec)
                    d.shots = out
                    d.journals(True)
                else:
                    d.night(rec, last)
            phone.wait_for_timeout(1500)
            phone.screenshot(path=str(out / f"15-phone-end{suffix}.png"), full_page=True)
            ctx.close()
            phone_ctx.close()
            if errors:
                raise RuntimeError(f"the page failed ({lang}): {errors}")
        finally:
            server.stop()
    return d.shot_names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens" / "table")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = ensure_chromium()
    if chromium is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        for lang in ("en", "pt_BR"):
            names = capture(args.out, lang, browser)
            print(f"{lang}: {len(names) + 3} screens in {args.out}")
        browser.close()


if __name__ == "__main__":
    main()
