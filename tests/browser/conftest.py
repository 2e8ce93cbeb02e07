"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

If Chromium is missing, it is installed from the system packages
(``apt-get install -y chromium``, after ``apt-get update`` when the package
lists are empty); Playwright is pointed at it with ``executable_path``.
Screenshots go to ``tests/browser/artifacts/`` (``DARKCITY_ARTIFACTS`` overrides).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    # Module scope: Playwright's sync API runs an event loop in this thread until it
    # stops, and later tests of the session call asyncio.run() themselves.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True,
                              args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    where = Path(os.environ.get("DARKCITY_ARTIFACTS", Path(__file__).parent / "artifacts"))
    where.mkdir(parents=True, exist_ok=True)
    return where


import contextlib  # noqa: E402 - appended below the fixtures above (append-only file)

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
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund",
                            "--silent", "axe-core@4"], capture_output=True, timeout=300,
                           check=False)
        if not found.exists():
            pytest.skip("npm could not install axe-core (offline?)")
    return found.read_text(encoding="utf-8")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The web app on a free loopback port, its bots deciding at once (a module that
    wants them paced as in play defines its own)."""
    s = Server(tmp_path / "web.sqlite3", free_port(), DARKCITY_BOT_DELAY_S="0")
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[Server]:
    """The app serving the table companion, on a free loopback port."""
    s = Server(tmp_path / "table.sqlite3", free_port())
    s.start()
    try:
        yield s
    finally:
        s.stop()


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
