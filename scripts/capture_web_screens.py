"""Screenshots of the web table, every phase, at 1280 px and 375 px, in English and
Portuguese: ``docs/screens/web/{lang}-{phase}-{desktop|phone}.png``.

    python3 scripts/capture_web_screens.py            # both languages
    python3 scripts/capture_web_screens.py --lang pt_BR --out /tmp/shots

It starts a server on 127.0.0.1 (a temporary database), creates a six-seat room
(two people in two browsers, four bots) and plays it to the end, the people
choosing at random; a phase a game does not reach (the Zombies' choice) is
missing from that run. Needs Playwright and Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ensure_chromium  # noqa: E402
from tests.browser.test_web_play import add_bots, phase  # noqa: E402
from tests.test_server_process import Server, free_port  # noqa: E402

from darkcity.server.testing import create_room, join_room  # noqa: E402

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}
CLICKABLE = "[data-testid^=choice-]:not([disabled]), [data-testid^=shows-]"
SEEDS = {"en": 26, "pt_BR": 26}


def shoot(page: Any, out: Path, name: str) -> None:
    time.sleep(0.35)  # let the arrows and the count settle
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    print(out / f"{name}.png")


def capture(browser: Any, server: Server, lang: str, out: Path, seed: int) -> None:
    rng = random.Random(seed)
    pages: dict[str, Any] = {}
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(viewport=viewport, locale="pt-BR" if lang == "pt_BR" else "en-US")
        pages[size] = ctx.new_page()
    home = pages["desktop"]
    for page, size in ((home, "desktop"), (pages["phone"], "phone")):
        page.goto(server.base + "/")
        page.wait_for_selector("[data-testid=create]")
        # the pocket app's offer, once the server has prepared the app (issue #49)
        with contextlib.suppress(Exception):
            page.get_by_test_id("install-here").wait_for(timeout=180_000)
        shoot(page, out, f"{lang}-home-{size}")
    names = ("Ana", "Bia") if lang == "en" else ("Júlia", "Tomé")
    room = create_room(server.base, names[0], players=6, deck="reporter-death-6", pace="fast",
                       decide_s=60, beat_s=0.3, bot_delay_s=0, lang=lang)
    code = room["code"]
    bia = join_room(server.base, code, names[1])
    pages["phone"].goto(f"{server.base}/r/{code}")  # a newcomer from the link
    pages["phone"].wait_for_selector("[data-testid=join-panel]")
    shoot(pages["phone"], out, f"{lang}-join-phone")
    pages["phone"].goto(f"{server.base}/r/{code}#token={bia['token']}")
    add_bots(server, code, room["token"], range(2, 6))
    home.goto(f"{server.base}/r/{code}#token={room['token']}")
    home.wait_for_selector("[data-testid=start]")
    pages["phone"].wait_for_selector("[data-testid=seat-5] .badge")
    shoot(home, out, f"{lang}-lobby-desktop")
    shoot(pages["phone"], out, f"{lang}-lobby-phone")
    home.click("[data-testid=start]")
    seen: dict[str, set[str]] = {"desktop": set(), "phone": set()}
    end = time.monotonic() + 240
    while time.monotonic() < end:
        for size, page in pages.items():
            ph = phase(page)
            if ph and ph not in seen[size]:
                time.sleep(0.35)  # let the arrows and the count settle; a phase that is
                if phase(page) != ph:  # over by then (the bots' Zombies) is shot another time
                    continue
                seen[size].add(ph)
                page.screenshot(path=str(out / f"{lang}-{ph}-{size}.png"), full_page=True)
                print(out / f"{lang}-{ph}-{size}.png")
                if ph == "gesture" and size == "desktop":
                    page.click("[data-testid=help-open]")
                    shoot(page, out, f"{lang}-help-desktop")
                    page.click("[data-testid=help-close]")
            # the next draft once a night is told: what happened to the reader above the
            # question, the fates on the seats for that night (issue 31)
            told = f"{lang}-night-told-{size}"
            if ph == "draft" and told not in seen[size] and page.locator(
                    "[data-testid=for-you]").count() and not page.locator(
                    "[data-testid=for-you] li", has_text="…").count():
                with contextlib.suppress(Exception):
                    text = page.inner_text("[data-testid=for-you]", timeout=300)
                    if "(" not in text.splitlines()[-1]:  # (not "still being told (...)")
                        seen[size].add(told)
                        shoot(page, out, told)
            if ph != "over":
                buttons = page.locator(CLICKABLE)
                with contextlib.suppress(Exception):
                    n = buttons.count()
                    if n:
                        buttons.nth(rng.randrange(n)).click(timeout=800)
        if all(phase(p) == "over" and p.locator("[data-testid=victory]").count()
               for p in pages.values()):
            for size, page in pages.items():
                shoot(page, out, f"{lang}-over-{size}")
            break
        time.sleep(0.05)
    for page in pages.values():
        page.context.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", choices=("en", "pt_BR"), action="append")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screens" / "web")
    ap.add_argument("--seed", type=int, help="the people's random choices (default: 26 for "
                    "en and pt_BR: games that reach the Zombies' choice)")
    args = ap.parse_args()
    chromium = ensure_chromium()
    if chromium is None:
        print("Chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        port = free_port()
        # as under `darkcity serve --host 0.0.0.0` at home: the links show a Wi-Fi address
        server = Server(Path(tmp) / "screens.sqlite3", port, DARKCITY_BOT_DELAY_S="0",
                        DARKCITY_SHARE_URL=f"http://192.168.1.23:{port}")
        server.start()
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            for lang in args.lang or ("en", "pt_BR"):
                seed = args.seed if args.seed is not None else SEEDS[lang]
                capture(browser, server, lang, args.out, seed)
        finally:
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
