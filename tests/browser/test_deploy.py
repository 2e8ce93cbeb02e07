"""Friends elsewhere, tried here (issue #49): docs/deploy.md's path, each step that can
run on this machine.

1. ``deploy/install.sh`` into a temporary root (``--root``, ``--no-apt``,
   ``--no-systemd``: this machine runs no systemd): the virtual environment with
   darkcity installed from this checkout, the pocket app built, the settings, the
   systemd unit (checked by ``systemd-analyze verify`` against this machine's own units)
   and Caddy's configuration, as the installer leaves them.
2. Debian's ``caddy`` with that configuration (deploy/Caddyfile) in front of the
   installed ``darkcity serve`` on loopback, as the unit starts it: Caddy's internal
   certificate authority stands for Let's Encrypt (``DARKCITY_TLS=internal``), ports
   are free loopback ones, and ``play.example.org`` is mapped to 127.0.0.1 by Chromium's
   ``--host-resolver-rules``. The authority's root certificate is trusted by the test's
   Chromium (an NSS database in its own HOME, ``certutil``), not ignored: a page with a
   certificate error gets no service worker.
3. A host (a laptop) and a friend (a phone) play a night over ``wss://``; the friend's
   phone opens the home page, installs the app from ``/app/`` (its service worker in
   control), and, with Caddy stopped and the phone offline, opens it again.

Not tried here: systemd starting the units (``systemctl``), apt-get on a fresh server,
Let's Encrypt's certificate for a real name, a rented machine. Skipped, saying why,
where caddy or certutil cannot be installed or the pinned Pyodide cannot be had.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from darkcity.pocket.build import BuildError, cache_dir, runtime

from ..services import _apt_install, free_port
from .test_app_served import engine_ready, kept_offline
from .test_web_play import click_something, phase

pytestmark = [pytest.mark.services, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
SITE = "play.example.org"


@dataclass
class Installed:
    root: Path
    log: str

    def env_file(self, name: str) -> dict[str, str]:
        """An ``EnvironmentFile`` the installer wrote, as systemd reads it."""
        out = {}
        for line in (self.root / "etc" / "darkcity" / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, value = line.partition("=")
                out[key] = value
        return out


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        why = _apt_install(package)
        found = shutil.which(name)
        if found is None:
            pytest.skip(f"{name} is not installed and could not be ({why or 'no ' + name})")
    return found


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """``deploy/install.sh`` run into a temporary root, as far as no systemd allows."""
    try:
        runtime()
    except BuildError as e:
        pytest.skip(f"the pocket app cannot be built here: {e}")
    root = tmp_path_factory.mktemp("deploy-root")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["DARKCITY_CACHE"] = str(cache_dir().parent)  # the pinned Pyodide, fetched once
    done = subprocess.run(
        ["bash", str(ROOT / "deploy" / "install.sh"), SITE, "--root", str(root), "--no-apt",
         "--no-systemd"], env=env, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return Installed(root, done.stdout)


def test_the_installer_leaves_a_server_systemd_would_start(installed: Installed) -> None:
    root = installed.root
    venv, app = root / "opt/darkcity/venv", root / "opt/darkcity/app"
    version = subprocess.run([str(venv / "bin/python"), "-c",
                              "import darkcity, sys; print(darkcity.__file__)"],
                             capture_output=True, text=True, check=True, env={})
    assert str(venv) in version.stdout  # the installed package, not this checkout's
    assert (app / "version.json").is_file() and (app / "sw.js").is_file()
    serve = installed.env_file("darkcity.env")
    assert serve["DARKCITY_APP_DIR"] == "/opt/darkcity/app"
    assert serve["DARKCITY_DB"] == "sqlite:////var/lib/darkcity/darkcity.sqlite3"
    assert installed.env_file("caddy.env") == {"DARKCITY_SITE": SITE,
                                               "DARKCITY_UPSTREAM": "127.0.0.1:8000"}
    assert (root / "etc/caddy/Caddyfile").read_bytes() == \
        (ROOT / "deploy/Caddyfile").read_bytes()
    unit = (root / "etc/systemd/system/darkcity.service").read_text()
    for line in ("ExecStart=/opt/darkcity/venv/bin/darkcity serve --host 127.0.0.1 --port 8000",
                 "EnvironmentFile=/etc/darkcity/darkcity.env", "DynamicUser=yes",
                 "StateDirectory=darkcity", "Restart=on-failure",
                 "WantedBy=multi-user.target"):
        assert line in unit.splitlines(), line
    dropin = root / "etc/systemd/system/caddy.service.d/darkcity.conf"
    assert "EnvironmentFile=/etc/darkcity/caddy.env" in dropin.read_text()
    caddy = shutil.which("caddy")
    if caddy is not None:  # the limits for slow clients, as Caddy reads the file
        adapted = subprocess.run(
            [caddy, "adapt", "--config", str(root / "etc/caddy/Caddyfile")],
            env={**os.environ, **installed.env_file("caddy.env")}, capture_output=True,
            text=True, timeout=60, check=True)
        server = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]
        assert (server["read_header_timeout"], server["read_timeout"],
                server["idle_timeout"]) == (10 * 10**9, 30 * 10**9, 120 * 10**9)
        assert server["listen"] == [":443"]
        assert json.dumps(server["routes"]).count('"dial": "127.0.0.1:8000"') == 1
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the unit's syntax was not checked")
    # the root sees this machine's own units and programs (sysinit.target, bash ...)
    for name, target in (("usr", "/usr"), ("lib", "usr/lib"), ("bin", "usr/bin")):
        with contextlib.suppress(FileExistsError):
            (root / name).symlink_to(target)
    check = subprocess.run([analyze, "verify", "--man=no", f"--root={root}",
                            str(root / "etc/systemd/system/darkcity.service")],
                           capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


class Running:
    """A process of the deployment, its output in a file; stopped at the end (SIGTERM,
    then SIGKILL)."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> None:
        self.log = log
        with log.open("wb") as out:
            self.proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out,
                                         stderr=subprocess.STDOUT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def said(self) -> str:
        self.stop()
        return self.log.read_text(errors="replace")[-3000:]


def _answers(port: int, ca: Path) -> bool:
    """Whether Caddy answers ``/healthz`` for the site on ``port`` with a certificate for
    its name that its authority signed (darkcity behind it)."""
    ctx = ssl.create_default_context(cafile=str(ca))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, \
                ctx.wrap_socket(raw, server_hostname=SITE) as tls:
            tls.sendall(f"GET /healthz HTTP/1.1\r\nHost: {SITE}\r\nConnection: close\r\n\r\n"
                        .encode())
            return tls.recv(64).startswith(b"HTTP/1.1 200")
    except (OSError, ssl.SSLError):
        return False


@dataclass
class Deployment:
    origin: str
    home: Path  # the browser's, its NSS database trusting Caddy's authority
    caddy: Running
    darkcity: Running
    ca: Path  # Caddy's authority's root certificate
    https_port: int


@pytest.fixture
def deployment(installed: Installed, tmp_path: Path) -> Iterator[Deployment]:
    caddy_bin = _tool("caddy", "caddy")
    certutil = _tool("certutil", "libnss3-tools")
    root = installed.root
    port, https_port, http_port, admin = free_port(), free_port(), free_port(), free_port()
    # darkcity serve as the unit starts it: its settings file, its state folder
    state = tmp_path / "state"
    state.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    serve_env = {**env, **installed.env_file("darkcity.env"),
                 "DARKCITY_APP_DIR": str(root / "opt/darkcity/app"),
                 "DARKCITY_DB": f"sqlite:///{state / 'darkcity.sqlite3'}",
                 "DARKCITY_BOT_DELAY_S": "0.05"}
    darkcity = Running([str(root / "opt/darkcity/venv/bin/darkcity"), "serve", "--host",
                        "127.0.0.1", "--port", str(port)], serve_env, state,
                       tmp_path / "darkcity.log")
    # Caddy with the installed configuration and its settings file; for the test: its
    # own authority, loopback and free ports, its data in the test's folder
    caddy_env = {**env, **installed.env_file("caddy.env"),
                 "DARKCITY_UPSTREAM": f"127.0.0.1:{port}", "DARKCITY_TLS": "internal",
                 "DARKCITY_BIND": "loopback", "DARKCITY_HTTPS_PORT": str(https_port),
                 "DARKCITY_HTTP_PORT": str(http_port),
                 "DARKCITY_CADDY_ADMIN": f"127.0.0.1:{admin}",
                 "XDG_DATA_HOME": str(tmp_path / "caddy-data"),
                 "XDG_CONFIG_HOME": str(tmp_path / "caddy-config"), "HOME": str(tmp_path)}
    caddy = Running([caddy_bin, "run", "--config", str(root / "etc/caddy/Caddyfile"),
                     "--adapter", "caddyfile"], caddy_env, tmp_path, tmp_path / "caddy.log")
    try:
        ca = tmp_path / "caddy-data/caddy/pki/authorities/local/root.crt"
        origin = f"https://{SITE}:{https_port}"
        end = time.monotonic() + 60
        while not (ca.is_file() and _answers(https_port, ca)):
            if caddy.proc.poll() is not None or darkcity.proc.poll() is not None or \
                    time.monotonic() > end:
                raise AssertionError("the deployment did not answer:\ncaddy: " + caddy.said()
                                     + "\ndarkcity: " + darkcity.said())
            time.sleep(0.3)
        home = tmp_path / "browser-home"
        nss = home / ".pki" / "nssdb"
        nss.mkdir(parents=True)
        subprocess.run([certutil, "-d", f"sql:{nss}", "-N", "--empty-password"], check=True,
                       capture_output=True)
        subprocess.run([certutil, "-d", f"sql:{nss}", "-A", "-t", "C,,", "-n",
                        "caddy-local-authority", "-i", str(ca)], check=True,
                       capture_output=True)
        yield Deployment(origin, home, caddy, darkcity, ca, https_port)
    finally:
        caddy.stop()
        darkcity.stop()


def test_friends_elsewhere_play_over_wss_and_install_the_app_from_app(
        chromium_path: str, deployment: Deployment, artifacts: Path) -> None:
    from playwright.sync_api import sync_playwright

    origin = deployment.origin
    # a client that sends its request's headers slower than Caddy's read_header (10 s)
    # is cut (the body's and idle limits: test_caddy_s_limits_are_the_caddyfile_s)
    ctx = ssl.create_default_context(cafile=str(deployment.ca))
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", deployment.https_port), 30) as raw, \
            ctx.wrap_socket(raw, server_hostname=SITE) as tls:
        tls.sendall(f"GET /healthz HTTP/1.1\r\nHost: {SITE}\r\n".encode())  # (never ends)
        with contextlib.suppress(OSError):
            assert tls.recv(100) == b""
    assert 9 < time.monotonic() - started < 20
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path, headless=True,
            env={**os.environ, "HOME": str(deployment.home)},
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                  f"--host-resolver-rules=MAP {SITE} 127.0.0.1"])
        try:
            host_ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                                           locale="en-US")
            friend_ctx = browser.new_context(viewport={"width": 375, "height": 667},
                                             locale="pt-BR", has_touch=True, is_mobile=True)
            host, friend = host_ctx.new_page(), friend_ctx.new_page()
            sockets: list[str] = []
            for page in (host, friend):
                page.on("websocket", lambda ws: sockets.append(ws.url))
            # the host creates a room at the public name (its certificate trusted)
            host.goto(origin + "/")
            host.get_by_test_id("name").fill("Ana")
            host.get_by_test_id("players").fill("4")
            host.get_by_test_id("pace").select_option("fast")
            host.get_by_test_id("create").click()
            host.wait_for_url(f"{origin}/r/*")
            code = host.url.rsplit("/", 1)[1]
            invite = host.get_by_test_id("invite-link")
            expect(invite).to_have_text(f"{origin}/r/{code}")
            expect(host.get_by_test_id("elsewhere")).to_have_count(0)
            # the friend opens the invite link on a phone and joins
            friend.goto(f"{origin}/r/{code}")
            friend.get_by_test_id("link-name").fill("Bia")
            friend.get_by_test_id("link-join").click()
            friend.wait_for_selector(".seat.me")
            for seat in (2, 3):
                host.get_by_test_id(f"add-bot-{seat}").click()
                expect(host.get_by_test_id(f"add-bot-{seat}")).to_have_count(0)
            host.get_by_test_id("start").click()
            # a night: both decide whatever is offered, until it is told (the next
            # night's draft, or the end)
            rng = random.Random(49)
            end = time.monotonic() + 240
            revealed, told = False, False
            while time.monotonic() < end and not told:
                ph = phase(host)
                revealed = revealed or ph == "withdrawal"
                told = revealed and ph in ("draft", "over")
                click_something(host, rng)
                click_something(friend, rng)
                time.sleep(0.05)
            assert told, f"the night was not told (phase {phase(host)})"
            assert sockets and all(u.startswith(f"wss://{SITE}:") for u in sockets), sockets
            host.screenshot(path=str(artifacts / "deploy-host-1280.png"))
            # the friend's phone: the home page offers the app; it installs from /app/
            friend.goto(origin + "/")
            install = friend.get_by_test_id("install-here")
            expect(install).to_be_visible(timeout=30_000)
            friend.get_by_test_id("app-qr").locator("summary").click()
            expect(friend.get_by_test_id("app-qr-url")).to_have_text(f"{origin}/app/")
            friend.screenshot(path=str(artifacts / "deploy-friend-home-pt_BR-375.png"),
                              full_page=True)
            install.click()
            friend.wait_for_url(f"{origin}/app/")
            friend.get_by_test_id("panel-setup").wait_for()
            engine_ready(friend)
            kept_offline(friend)
            # the server gone (Caddy stopped) and the phone offline: the app opens
            deployment.caddy.stop()
            friend_ctx.set_offline(True)
            friend.reload()
            friend.get_by_test_id("panel-setup").wait_for()
            engine_ready(friend)
            expect(friend.locator("h1")).to_have_text("Companheiro de mesa")
            friend.screenshot(path=str(artifacts / "deploy-friend-offline-pt_BR-375.png"))
        finally:
            browser.close()
