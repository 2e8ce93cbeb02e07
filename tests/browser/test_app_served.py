"""The pocket app served by ``darkcity serve`` at ``/app/`` (issue #49), in Chromium.

The server is started with nothing more than the README's command (``darkcity serve``):
its home page offers the app and says it is being prepared while the server builds it
(the first need), then "Install on this phone"; the app opens on ``localhost``, its
service worker keeps it, and it opens again offline with the server stopped. Opened over
plain HTTP at a name of the local network (Chromium maps ``party.lan`` to 127.0.0.1, and
a page there is no secure context, as on a Wi-Fi address), the home page says why a
phone cannot install it there and where it can. Screens of the offer at 375 and 1280 px,
in English and Brazilian Portuguese, go to the artifacts (``home-app-*.png``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from darkcity import __version__
from darkcity.pocket.build import BuildError, runtime
from darkcity.server.pocket_app import published_url

from ..test_server_process import Server, free_port

pytestmark = [pytest.mark.services, pytest.mark.slow]  # (npm fetches Pyodide once)
LAN = "party.lan"


# The pages under /app/ run with the server's policy, which allows no eval: what is
# awaited in them is a function (Playwright evaluates a bare expression with eval).
def engine_ready(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'",
                           timeout=120_000)


def kept_offline(page: Any) -> None:
    """The service worker registered and in control: the app is kept for offline use."""
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
        timeout=60_000)


@pytest.fixture(scope="module")
def lan_browser(chromium_path: str) -> Iterator[Any]:
    """Chromium that finds ``party.lan`` at 127.0.0.1: a page there is plain HTTP on a
    name that is not this machine's own, as a phone on the Wi-Fi sees the laptop."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True, args=[
            "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            f"--host-resolver-rules=MAP {LAN} 127.0.0.1"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``darkcity serve`` as the README starts it: the app built at first need."""
    try:
        runtime()  # (the pinned Pyodide, from the cache or npm: the build needs it)
    except BuildError as e:
        pytest.skip(f"the pocket app cannot be built here: {e}")
    s = Server(tmp_path_factory.mktemp("served") / "app.sqlite3", free_port(),
               DARKCITY_APP_DIR="")
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_the_home_page_offers_the_app_and_it_opens_offline_with_the_server_stopped(
        lan_browser: Any, serve: Server, artifacts: Path) -> None:
    context = lan_browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                                      locale="en-US")
    page = context.new_page()
    refused: list[str] = []  # what the policy refused (Pyodide needs nothing more)
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{serve.base}/")
        card = page.get_by_test_id("install-app")
        expect(card).to_contain_text("The app on your phone")
        # the footer: the one version (darkcity.__version__), with what each changed
        expect(page.get_by_test_id("version")).to_contain_text(f"darkcity {__version__}")
        # the first need: prepared in the background, said meanwhile, offered when ready
        install = page.get_by_test_id("install-here")
        if not install.count():
            expect(page.get_by_test_id("app-preparing")).to_contain_text("Preparing the app")
        expect(install).to_be_visible(timeout=180_000)
        # the other phones at the table: this page is on localhost, so the code leads to
        # the published address (the Wi-Fi address is plain HTTP)
        page.get_by_test_id("app-qr").locator("summary").click()
        expect(page.get_by_test_id("app-qr-url")).to_have_text(published_url() or "")
        page.wait_for_function("() => document.querySelector('[data-testid=app-qr-image]')"
                               ".naturalWidth > 0")
        page.screenshot(path=str(artifacts / "home-app-en-375.png"), full_page=True)
        install.click()
        page.wait_for_url(f"{serve.base}/app/")
        page.get_by_test_id("panel-setup").wait_for()
        engine_ready(page)
        kept_offline(page)
        assert page.evaluate("caches.keys()")
        # the server gone and the phone offline: the app opens as it was kept
        serve.stop()
        context.set_offline(True)
        page.reload()
        page.get_by_test_id("panel-setup").wait_for()
        engine_ready(page)
        expect(page.get_by_test_id("engine")).to_be_hidden()
        assert refused == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_plain_http_on_the_local_network_says_why_and_where(
        lan_browser: Any, tmp_path: Path, artifacts: Path, lang: str) -> None:
    # a LAN name the server is told it has (an address would do by itself: the Host check)
    s = Server(tmp_path / "lan.sqlite3", free_port(), DARKCITY_APP_DIR=str(tmp_path),
               DARKCITY_ALLOWED_HOSTS=LAN)
    s.start()  # (a folder with no app: this page never gets as far as /app/)
    locale = "pt-BR" if lang == "pt_BR" else "en-US"
    try:
        for width, height in ((375, 667), (1280, 800)):
            context = lan_browser.new_context(viewport={"width": width, "height": height},
                                              locale=locale, has_touch=width < 400)
            page = context.new_page()
            try:
                page.goto(f"http://{LAN}:{s.port}/")
                assert page.evaluate("window.isSecureContext") is False
                said = page.get_by_test_id("app-insecure")
                expect(said).to_contain_text(
                    "HTTP simples" if lang == "pt_BR" else "plain HTTP")
                expect(page.get_by_test_id("app-published")).to_have_attribute(
                    "href", published_url() or "")
                expect(page.get_by_test_id("install-here")).to_have_count(0)
                width_now = page.evaluate("document.documentElement.scrollWidth")
                assert width_now <= width + 1, f"the page is {width_now}px wide"
                page.screenshot(path=str(artifacts / f"home-app-lan-{lang}-{width}.png"),
                                full_page=width < 400)
            finally:
                context.close()
    finally:
        s.stop()
