"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

If Chromium is missing, it is installed from the system packages
(``apt-get install -y chromium``, after ``apt-get update`` when the package
lists are empty); Playwright is pointed at it with ``executable_path``.
Screenshots go to ``tests/browser/artifacts/`` (``DARKCITY_ARTIFACTS`` overrides).

One Chromium per worker: the ``browser`` fixture hands every module the same one, started
at the first test that asks for it and closed as soon as the next test of this process
does not ask for it (Playwright's sync API runs an event loop in this thread while it
is open, and other tests call ``asyncio.run()`` themselves); each test's contexts are
closed when it ends. ``server`` and ``table_server`` are one ``darkcity serve`` each a
module (each test makes its own rooms and tables; one a test left stopped is started
again). apt-get and npm run under a lock of the machine, so the parallel workers never
install at once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..services import machine_lock
from ..test_server_process import Server, free_port

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium")


def _find() -> str | None:
    for c in CANDIDATES:
        if os.access(c, os.X_OK):
            return c
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _apt(*args: str) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        return subprocess.run(["apt-get", *args], env=env, capture_output=True,
                              timeout=1200).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def ensure_chromium() -> str | None:
    """Chromium's path, installing Debian's package first if it is missing."""
    found = _find()
    if found or not shutil.which("apt-get") or os.geteuid() != 0:
        return found
    with machine_lock("apt"):
        found = _find()  # installed by another worker meanwhile
        if found:
            return found
        lists = Path("/var/lib/apt/lists")
        if not any(lists.glob("*Packages*")):
            _apt("update")
        if not _apt("install", "-y", "-q", "chromium"):
            _apt("update")
            _apt("install", "-y", "-q", "chromium")
    return _find()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    pytest.importorskip("playwright")
    path = ensure_chromium()
    if path is None:
        pytest.skip("Chromium is not installed and could not be installed (apt-get chromium)")
    return path


class _Chromium:
    """This process's Chromium under Playwright, kept between the tests that use it."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self, path: str) -> Any:
        if self.browser is not None and not self.browser.is_connected():
            self.close()
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            try:
                self.browser = self.playwright.chromium.launch(
                    executable_path=path, headless=True,
                    args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
            except BaseException:
                self.close()
                raise
        return self.browser

    def close(self) -> None:
        browser, playwright = self.browser, self.playwright
        self.browser = self.playwright = None
        try:
            if browser is not None:
                with contextlib.suppress(Exception):
                    browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


_CHROMIUM = _Chromium()


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    """The worker's Chromium (see the module's opening); the module's contexts, and the
    pages in them, are closed when the module is done."""
    b = _CHROMIUM.get(chromium_path)
    try:
        yield b
    finally:
        if _CHROMIUM.browser is b:
            for context in list(b.contexts):
                with contextlib.suppress(Exception):
                    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's fixtures are torn down: Chromium stops unless the next test of
    this process uses it too."""
    yield
    if _CHROMIUM.browser is not None and (
            nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ())):
        _CHROMIUM.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    where = Path(os.environ.get("DARKCITY_ARTIFACTS", Path(__file__).parent / "artifacts"))
    where.mkdir(parents=True, exist_ok=True)
    return where


AXE_DIR = Path(__file__).parent / ".node"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's ``axe.min.js`` (npm, into ``tests/browser/.node/``, gitignored), to be
    injected into a page; the test skips, saying why, when npm cannot get it."""
    found = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not found.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("axe-core is not installed and npm is missing (npm install axe-core)")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        with machine_lock("npm"), contextlib.suppress(OSError, subprocess.TimeoutExpired):
            if not found.exists():  # installed by another worker meanwhile
                subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit",
                                "--no-fund", "--silent", "axe-core@4"], capture_output=True,
                               timeout=300, check=False)
        if not found.exists():
            pytest.skip("npm could not install axe-core (offline?)")
    return found.read_text(encoding="utf-8")


#: A server its module's tests share lets one address create and join rooms without
#: the limits against hostile clients (tests/test_server_abuse.py checks those).
SHARED = {f"DARKCITY_{name}": "100000" for name in (
    "CREATE_PER_MIN", "CREATE_BURST", "JOIN_PER_MIN", "JOIN_BURST", "REVIEW_PER_MIN")}


@contextlib.contextmanager
def _running(s: Server) -> Iterator[Server]:
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _alive(s: Server) -> Server:
    """``s``, started again on its port and database if a test left it stopped."""
    if s.proc is None or s.proc.poll() is not None:
        s.start()
    return s


@pytest.fixture(scope="module")
def _web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("web") / "web.sqlite3"
    with _running(Server(where, free_port(), DARKCITY_BOT_DELAY_S="0", **SHARED)) as s:
        yield s


@pytest.fixture(scope="module")
def _table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("table") / "table.sqlite3"
    with _running(Server(where, free_port(), **SHARED)) as s:
        yield s


@pytest.fixture
def server(_web_server: Server) -> Server:
    """The web app on a free loopback port, its bots deciding at once, shared by the
    module's tests (each makes its own rooms; a module that wants the bots paced as in
    play, or a server of its own, defines its own)."""
    return _alive(_web_server)


@pytest.fixture
def table_server(_table_server: Server) -> Server:
    """The app serving the table companion, on a free loopback port, shared by the
    module's tests (each makes its own tables)."""
    return _alive(_table_server)


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser contexts (and pages, and their sockets) a test opened are closed
    when it ends: the next test of the module starts from a browser with none."""
    yield
    if "browser" in request.fixturenames and _CHROMIUM.browser is not None:
        for context in list(_CHROMIUM.browser.contexts):
            with contextlib.suppress(Exception):
                context.close()


@pytest.fixture(scope="session")
def published_site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The pocket app as the project publishes it (issue #49): built once a session by
    ``scripts/build_pages.py``, the script the Pages workflow runs. A
    ``darkcity.pocket.build.Site``; skipped, saying why, where the pinned Pyodide cannot
    be had (no npm, no registry)."""
    import json
    import sys

    from darkcity.pocket.build import BuildError, Site, runtime

    try:
        runtime()
    except BuildError as e:
        pytest.skip(f"the pocket app cannot be built here: {e}")
    out = tmp_path_factory.mktemp("published") / "site"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "scripts" / "build_pages.py"), "--out",
                           str(out)], capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    version = json.loads((out / "version.json").read_text(encoding="utf-8"))["version"]
    files = {str(f.relative_to(out)): f.stat().st_size for f in out.rglob("*") if f.is_file()}
    return Site(out, version, files)
