"""The pocket app served by every darkcity server at ``/app/`` (issue #49).

The pocket app (``docs/pocket.md``) is a static site: the table companion, a game
against bots and the record viewer, run by the phone's own engine, offline once
opened. A phone that opens ``/app/`` on a darkcity server over HTTPS (or ``localhost``)
keeps it and may install it to its home screen; any deployment with HTTPS thus hands
the app to its players with nothing more to run.

The site is the one ``darkcity app build`` writes (the same build the project
publishes), either **given** (``DARKCITY_APP_DIR``: a folder built beforehand, as
``deploy/install.sh`` does) or **built at first need**: the first request for the app
or its status starts ``python -m darkcity app build`` in the background, at a low
priority, into a temporary folder of this process (about 2 s once the Pyodide runtime
is cached; fetching it needs npm once). Meanwhile ``/app/`` and the home page say the
app is being prepared; where it cannot be built (no npm, the registry out of reach),
they say why in words and point to the published address. The build runs as a command,
not an import: the server is one face and the pocket app another (``.importlinter``).

Its files are served with the server's security headers, the content security policy
widened only by what Pyodide needs: ``'wasm-unsafe-eval'`` (compiling WebAssembly),
workers from this origin, and a ``<base>`` of its own.

The project's addresses (``[project.urls]`` in ``pyproject.toml``, written there only)
are read by :func:`project_urls`: from the checkout's ``pyproject.toml`` when darkcity
runs from one, else from the installed package's metadata.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from html import escape
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from darkcity.i18n import Message, msg, translator
from darkcity.server.common import request_lang
from darkcity.server.config import ServerConfig
from darkcity.server.qr import qr_svg
from darkcity.server.share import share_base

__all__ = ["APP_CSP", "PocketApp", "pocket_app_router", "project_urls", "published_url"]

log = logging.getLogger("darkcity.server")

#: The server's policy (headers.py) with what Pyodide needs: WebAssembly compiled
#: ('wasm-unsafe-eval', not 'unsafe-eval'), the Web Worker from this origin, and the
#: pages' own <base href="./">.
APP_CSP: Final = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                  "worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                  "connect-src 'self'; font-src 'self'; manifest-src 'self'; "
                  "object-src 'none'; base-uri 'self'; form-action 'self'; "
                  "frame-ancestors 'none'")
_TYPES: Final = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm", ".png": "image/png", ".svg": "image/svg+xml",
    ".zip": "application/zip", ".whl": "application/zip",
}
#: A failed build is tried again by a request this long after (the network came back,
#: npm was installed).
RETRY_S: Final = 60.0
#: What a build may take (npm fetching the runtime over a slow line included).
BUILD_TIMEOUT_S: Final = 900.0


# -- the project's addresses ----------------------------------------------------------


def _label(name: str) -> str:
    """A project URL's label as PEP 753 compares them: lower case, letters and digits."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@functools.cache
def project_urls() -> dict[str, str]:
    """``[project.urls]``, by normalised label (``homepage``, ``source``, ``pocketapp``):
    the checkout's ``pyproject.toml`` where darkcity runs from one (its sources are the
    truth there), else the installed distribution's ``Project-URL`` metadata; ``{}``
    when neither says."""
    import darkcity

    pyproject = Path(darkcity.__file__).resolve().parents[2] / "pyproject.toml"
    with contextlib.suppress(OSError, tomllib.TOMLDecodeError):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "darkcity":
            return {_label(k): str(v) for k, v in project.get("urls", {}).items()}
    try:
        found = importlib.metadata.metadata("darkcity").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    urls: dict[str, str] = {}
    for entry in found:
        label, _sep, url = entry.partition(",")
        if url.strip():
            urls[_label(label)] = url.strip()
    return urls


def published_url() -> str | None:
    """The address the project publishes the pocket app at (``Pocket app``), or None."""
    return project_urls().get("pocketapp")


# -- the site: given, or built at first need ------------------------------------------


class PocketApp:
    """The pocket app's folder for this process: ``given`` (built beforehand), or built
    at first need (:meth:`need`) into a temporary folder removed by :meth:`close`.

    :meth:`status` is ``(state, reason, detail)``: ``ready``; ``preparing``; ``idle``
    (nothing asked yet); ``failed`` with ``reason`` ``no-npm`` (the runtime is not
    cached and npm is not installed), ``build`` (the build said why: ``detail``, its
    last line) or ``missing`` (the given folder holds no built app).
    """

    def __init__(self, given: str = "") -> None:
        self._lock = threading.Lock()
        self._given = Path(given) if given else None
        self._folder: Path | None = None
        self._tmp: Path | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._state, self._reason, self._detail = "idle", "", ""
        self._failed_at = 0.0
        self._closed = False
        if self._given is not None:
            if (self._given / "version.json").is_file():
                self._folder, self._state = self._given, "ready"
            else:
                self._state, self._reason = "failed", "missing"
                self._detail = str(self._given)

    def status(self) -> tuple[str, str, str]:
        with self._lock:
            return self._state, self._reason, self._detail

    def folder(self) -> Path | None:
        """The built site's folder, once it is ready."""
        return self._folder

    def need(self) -> None:
        """Someone wants the app: start building it, unless it is there, under way, or
        failed less than :data:`RETRY_S` ago (or was given)."""
        with self._lock:
            if self._given is not None or self._closed or self._state in ("ready",
                                                                          "preparing"):
                return
            if self._state == "failed" and time.monotonic() - self._failed_at < RETRY_S:
                return
            self._state, self._reason, self._detail = "preparing", "", ""
        threading.Thread(target=self._build, name="darkcity-app-build", daemon=True).start()

    def _build(self) -> None:
        tmp = Path(tempfile.mkdtemp(prefix="darkcity-app-"))
        out = tmp / "site"
        command = [sys.executable, "-m", "darkcity", "app", "build", "--out", str(out),
                   "--lang", "en"]
        log.info("preparing the pocket app for /app/: %s", " ".join(command))
        try:
            with self._lock:
                if self._closed:
                    raise OSError("the server is stopping")
                self._proc = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                              text=True)
                proc = self._proc
            with contextlib.suppress(OSError, AttributeError):  # below the players' work
                os.setpriority(os.PRIO_PROCESS, proc.pid, 10)
            try:
                _out, err = proc.communicate(timeout=BUILD_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
                err = f"the build took more than {BUILD_TIMEOUT_S:g} s"
            ok = proc.returncode == 0 and (out / "version.json").is_file()
        except OSError as e:
            ok, err = False, str(e)
        with self._lock:
            self._proc = None
            if ok and not self._closed:
                self._folder, self._tmp, self._state = out, tmp, "ready"
                log.info("the pocket app is ready at /app/")
                return
            if not self._closed:
                lines = [x.strip() for x in (err or "").splitlines() if x.strip()]
                self._state, self._failed_at = "failed", time.monotonic()
                self._detail = re.sub(r"^darkcity: (the pocket app could not be built: )?", "",
                                      lines[-1]) if lines else ""
                self._reason = "no-npm" if shutil.which("npm") is None else "build"
                log.warning("the pocket app could not be built: %s", self._detail)
        shutil.rmtree(tmp, ignore_errors=True)  # (nothing of a failed build is kept)

    def close(self) -> None:
        """Stop a build under way and remove what this process built."""
        with self._lock:
            self._closed = True
            proc, tmp = self._proc, self._tmp
        if proc is not None and proc.poll() is None:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


# -- what the pages say ----------------------------------------------------------------


def _why(reason: str, detail: str) -> Message:
    if reason == "no-npm":
        return msg("npm is not installed on this server: the app needs it once, to fetch its "
                   "Python runtime (Debian: apt install npm).")
    if reason == "missing":
        return msg("the folder it was given ({path}) holds no built app.", path=detail)
    return msg("the build failed: {error}", error=detail or "?")


def install_url(request: Request, cfg: ServerConfig, app: PocketApp) -> tuple[str | None, bool]:
    """``(url, here)``: where another phone at the table gets an installable app. This
    server's ``/app/`` (``here``) when friends reach it over HTTPS and the app is (or
    will be) there; else the published address (a phone cannot install from plain
    HTTP), else None."""
    base, reachable = share_base(request, cfg)
    state = app.status()[0]
    if reachable and base.startswith("https://") and state != "failed":
        return f"{base}/app/", True
    return published_url(), False


def _status(request: Request, cfg: ServerConfig, app: PocketApp) -> dict[str, Any]:
    state, reason, detail = app.status()
    t = translator(request_lang(request))
    url, here = install_url(request, cfg, app)
    return {"state": state, "reason": reason or None,
            "why": t.render(_why(reason, detail)) if state == "failed" else None,
            "path": "/app/", "published": published_url(), "install_url": url,
            "install_here": here}


_PAGE: Final = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
{refresh}<title>Dark City</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<main class="home"><section class="card" data-testid="app-{state}">
<h1>Dark City</h1>
<p>{said}</p>
{more}<p><a class="button secondary" href="/">{home}</a></p>
</section></main>
</body>
</html>
"""


def _waiting_page(request: Request, cfg: ServerConfig, app: PocketApp) -> HTMLResponse:
    """``/app/`` before the app is there: being prepared (the page looks again every 3
    s), or why it cannot be, and where else to get it."""
    state, reason, detail = app.status()
    lang = request_lang(request)
    t = translator(lang)
    more = ""
    if state == "failed":
        said = t.render(msg("This server cannot prepare the pocket app: {why}",
                            why=_why(reason, detail)))
        if (published := published_url()) is not None:
            there = t.render(msg("The same app is published at"))
            link = escape(published)
            more = f'<p>{escape(there)} <a href="{link}">{link}</a></p>\n'  # i18n: not prose
    else:
        said = t.render(msg("Preparing the pocket app for phones (once, about a minute)…"))
    page = _PAGE.format(
        lang="pt-BR" if lang.startswith("pt") else "en", state=state,
        refresh='<meta http-equiv="refresh" content="3">\n' if state != "failed" else "",
        said=escape(said), more=more, home=escape(t.render(msg("Back to the home page"))))
    return HTMLResponse(page, status_code=503,
                        headers={"Cache-Control": "no-store", "Retry-After": "3"})


def _file(folder: Path, path: str) -> Path | None:
    """The site's file at ``path`` (``""``: the shell), never outside ``folder``."""
    root = folder.resolve()
    target = (root / (path or "index.html")).resolve()
    if not target.is_relative_to(root):
        return None
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


def pocket_app_router(cfg: ServerConfig, app: PocketApp) -> APIRouter:
    """``/app/`` (the site, or the page that says why it is not there yet), its status
    for the home page (``/api/app``) and the QR code of where other phones get it."""
    router = APIRouter()

    @router.get("/api/app", include_in_schema=False)
    async def status(request: Request) -> JSONResponse:
        app.need()
        return JSONResponse(_status(request, cfg, app), headers={"Cache-Control": "no-store"})

    @router.get("/api/app/qr.svg", include_in_schema=False)
    async def qr(request: Request) -> Response:
        url = install_url(request, cfg, app)[0]
        if url is None:
            return Response(status_code=404)
        return Response(qr_svg(url, url), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @router.get("/app", include_in_schema=False)
    async def bare() -> RedirectResponse:
        return RedirectResponse("/app/", status_code=308)

    @router.get("/app/{path:path}", include_in_schema=False)
    async def site(request: Request, path: str) -> Response:
        app.need()
        folder = app.folder()
        if folder is None:
            if path in ("", "index.html"):
                return _waiting_page(request, cfg, app)
            return Response(status_code=503, headers={"Retry-After": "3",
                                                      "Cache-Control": "no-store"})
        found = _file(folder, path)
        if found is None:
            return Response(status_code=404, headers={"Content-Security-Policy": APP_CSP})
        kind = _TYPES.get(found.suffix, "application/octet-stream")
        # no-cache: the service worker keeps the files; the browser's own cache must not
        # hand it an earlier build's copy when a new version installs
        return FileResponse(found, media_type=kind, headers={
            "Cache-Control": "no-cache", "Content-Security-Policy": APP_CSP})

    return router
