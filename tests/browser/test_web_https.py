"""Friends elsewhere (issue 31, docs/deploy.md): the web table reached at a public name
over HTTPS shares https:// links and plays over wss://, with neither of the lobby's
local-address hints. The app is served with TLS by uvicorn itself (a self-signed
certificate for play.example.org, which Chromium maps to 127.0.0.1): what Caddy does in
deploy/ is not tried here (Docker does not run on the development machine), what the
page does behind it is.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.sync_api import expect

from ..test_server_process import free_port

SITE = "play.example.org"
SERVE = """
import sys, uvicorn
from darkcity.server.app import create_app
from darkcity.server.config import ServerConfig
port, db, key, cert = sys.argv[1:5]
app = create_app(ServerConfig.from_env(db_url=f"sqlite:///{db}", bot_workers=0))
uvicorn.run(app, host="127.0.0.1", port=int(port), ssl_keyfile=key, ssl_certfile=cert,
            log_level="warning")
"""


@pytest.fixture
def https_site(tmp_path: Path) -> Iterator[str]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed (a certificate is made with it)")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", f"/CN={SITE}",
                    "-addext", f"subjectAltName=DNS:{SITE}"], check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(port), str(tmp_path / "tls.sqlite3"),
                             str(key), str(cert)], stderr=subprocess.PIPE)
    try:
        import ssl
        import urllib.request

        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False  # (127.0.0.1 is asked; the name is play.example.org)
        end = time.monotonic() + 30
        while True:  # until it answers
            try:
                urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=1,
                                       context=context)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "") \
                        from None
                time.sleep(0.2)
        yield f"https://{SITE}:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_table_reached_over_https_shares_https_links_and_plays_over_wss(
        chromium_path: str, https_site: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True, args=[
            "--no-sandbox", "--disable-dev-shm-usage",
            f"--host-resolver-rules=MAP {SITE} 127.0.0.1"])
        try:
            page: Any = browser.new_context(ignore_https_errors=True, locale="pt-BR",
                                            viewport={"width": 375, "height": 667},
                                            has_touch=True, is_mobile=True).new_page()
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(https_site + "/")
            page.wait_for_selector("[data-testid=create]")
            room = page.evaluate("""async () => (await fetch('/api/rooms', { method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ name: 'Tomé', players: 4, lang: 'pt_BR' }) })).json()""")
            page.goto(f"{https_site}/r/{room['code']}#token={room['token']}")
            expect(page.get_by_test_id("invite-link")).to_have_text(
                f"{https_site}/r/{room['code']}")
            page.wait_for_selector(".bar .dot.on")
            assert sockets and all(u.startswith(f"wss://{SITE}:") for u in sockets), sockets
            expect(page.get_by_test_id("unreachable")).to_have_count(0)
            expect(page.get_by_test_id("elsewhere")).to_have_count(0)
        finally:
            browser.close()
