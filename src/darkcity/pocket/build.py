"""The pocket app's static site: ``build_site(out)`` writes everything a phone needs
to run the table companion offline, for any static host (from a sub-path too).

What it writes (``docs/pocket.md``)::

    index.html, app.js      the app shell: the companion's page, its transport the worker
    shell.js                both pages' service worker and a new version's news
    play.html, play.js      a game against bots on the phone: the online table's page,
                            its room in the worker (darkcity.pocket.play)
    replay.html, replay.js  the record viewer: a game record stepped through by the worker
                            (both pages written from site/page.html)
    engine.js               both pages' worker: requests, the engine's progress
    manifest.webmanifest    the web app manifest (name, icons, colours), for a home screen
    sw.js                   the service worker: every file below kept for offline use, in
                            a cache named by the build's version
    version.json            the build's version and its files (the service worker's list)
    worker.js               the Web Worker: Pyodide, darkcity's wheel, the tables' IndexedDB
    meta/en.json ...        the set-up's texts and decks, drawn before the engine is ready
    meta/play.json          the decks, bot levels and paces a game is made with
    i18n/en.json ...        the online table's catalogs (darkcity.room.text)
    static/...              the pages: the companion's (server/static/table), the online
                            table's (server/static/js), what they import, their styles
    icons/...               the app's icons
    pyodide/...             the Pyodide runtime, at the pinned version, hash-checked
    wheels/darkcity-*.whl   a pure-Python wheel of what the browser needs of darkcity

The runtime is npm's ``pyodide`` package at :data:`PYODIDE_VERSION`, fetched with
``npm pack`` into a cache outside the repository (``$DARKCITY_CACHE``, else
``~/.cache/darkcity``) and checked against the sha256 hashes of
``pocket/pyodide.sha256``; the build fails with a :class:`BuildError` that says what
to do when npm is missing, the registry cannot be reached, or a hash differs.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

__all__ = ["PYODIDE_VERSION", "BuildError", "Site", "build_site", "build_wheel", "runtime"]

PYODIDE_VERSION: Final = "314.0.8"
#: The runtime's files the app loads (the npm package also has its docs and maps).
RUNTIME_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                        "python_stdlib.zip", "pyodide-lock.json")
HERE: Final = Path(__file__).resolve().parent
PACKAGE: Final = HERE.parent  # src/darkcity (or site-packages/darkcity)
#: The modules the worker imports (the companion's, and a game's room with its bots):
#: the wheel holds them and everything they import.
ENTRIES: Final = ("darkcity.pocket.worker", "darkcity.pocket.play")
LANGS: Final = ("en", "pt_BR")
#: Never in the phone's wheel, whatever imports them.
SERVER_ONLY: Final = ("darkcity.server", "darkcity.cli", "darkcity.tui", "darkcity.env",
                      "darkcity.sim", "darkcity.pocket.build")


class BuildError(Exception):
    """The site cannot be built: what is wrong, and what to do."""


@dataclass(frozen=True, slots=True)
class Site:
    """A built site: where, its version, and its files (path -> bytes raw)."""

    out: Path
    version: str
    files: dict[str, int]

    def sizes(self) -> list[tuple[str, int, int]]:
        """Every file with its size raw and gzip-compressed (level 9), largest first."""
        rows = [(p, n, len(gzip.compress((self.out / p).read_bytes(), 9)))
                for p, n in self.files.items()]
        return sorted(rows, key=lambda r: -r[1])


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pinned_hashes() -> dict[str, str]:
    """The runtime's files and their sha256, as ``pyodide.sha256`` keeps them."""
    out: dict[str, str] = {}
    for line in (HERE / "pyodide.sha256").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split()
            out[name] = digest
    return out


def cache_dir() -> Path:
    base = os.environ.get("DARKCITY_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "darkcity")
    return Path(base) / f"pyodide-{PYODIDE_VERSION}"


def _checked(folder: Path, hashes: dict[str, str]) -> list[str]:
    """The runtime files of ``folder`` missing or whose hash differs."""
    bad = []
    for name in RUNTIME_FILES:
        f = folder / name
        if not f.is_file() or _sha256(f.read_bytes()) != hashes.get(name):
            bad.append(name)
    return bad


def runtime(cache: Path | None = None) -> Path:
    """The folder holding the pinned Pyodide runtime, every file hash-checked: from
    the cache, else fetched with ``npm pack`` (a :class:`BuildError` says why not)."""
    hashes = pinned_hashes()
    missing = [n for n in RUNTIME_FILES if n not in hashes]
    if missing:
        raise BuildError(f"pocket/pyodide.sha256 has no hash for {', '.join(missing)}")
    folder = cache or cache_dir()
    if folder.is_dir() and not _checked(folder, hashes):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(
            f"the Pyodide runtime {PYODIDE_VERSION} is not in the cache ({folder}) and npm "
            "is not installed to fetch it: install npm (Debian: apt install npm), or copy "
            f"the files of npm's pyodide@{PYODIDE_VERSION} package ({', '.join(RUNTIME_FILES)}) "
            f"into {folder}")
    with tempfile.TemporaryDirectory(prefix="darkcity-pyodide-") as tmp:
        try:
            done = subprocess.run(
                [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp,
                 "--silent"], capture_output=True, text=True, timeout=600, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise BuildError(f"npm could not fetch pyodide@{PYODIDE_VERSION}: {e}") from None
        tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not tarballs:
            said = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise BuildError(
                f"npm could not fetch pyodide@{PYODIDE_VERSION} (is the npm registry "
                f"reachable?): {' / '.join(said) or f'exit status {done.returncode}'}")
        staged = Path(tmp) / "runtime"
        staged.mkdir()
        with tarfile.open(tarballs[0]) as tar:
            for name in RUNTIME_FILES:
                try:
                    member = tar.extractfile(f"package/{name}")
                except KeyError:
                    member = None
                if member is None:
                    raise BuildError(f"npm's pyodide@{PYODIDE_VERSION} has no {name}")
                (staged / name).write_bytes(member.read())
        bad = _checked(staged, hashes)
        if bad:
            raise BuildError(
                f"the Pyodide runtime fetched from npm does not match the hashes kept in "
                f"pocket/pyodide.sha256: {', '.join(bad)} differ. Nothing was installed; "
                "if the pinned version was changed on purpose, update its hashes")
        folder.mkdir(parents=True, exist_ok=True)
        for name in RUNTIME_FILES:
            shutil.copyfile(staged / name, folder / name)
    return folder


# -- the wheel ------------------------------------------------------------------------


def wheel_modules() -> list[str]:
    """The darkcity modules the worker imports (computed by importing them alone)."""
    code = (f"import sys, json, importlib; [importlib.import_module(m) for m in {ENTRIES!r}]; "
            "print(json.dumps(sorted(m for m in sys.modules "
            "if m == 'darkcity' or m.startswith('darkcity.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise BuildError(f"{', '.join(ENTRIES)} do not import: {done.stderr.strip()[-400:]}")
    mods: list[str] = json.loads(done.stdout)
    leaked = [m for m in mods if m.startswith(SERVER_ONLY)]
    if leaked:
        raise BuildError(f"the phone's engine imports what it must not: {', '.join(leaked)}")
    return mods


def _wheel_files() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for mod in wheel_modules():
        rel = mod.split(".")[1:]
        pkg = PACKAGE.joinpath(*rel)
        src = pkg / "__init__.py" if pkg.is_dir() else pkg.with_suffix(".py")
        files["/".join(["darkcity", *(src.relative_to(PACKAGE).parts)])] = src.read_bytes()
    locale = resources.files("darkcity").joinpath("locale")
    for lang in LANGS:
        mo = locale.joinpath(f"{lang}/LC_MESSAGES/darkcity.mo")
        if mo.is_file():
            files[f"darkcity/locale/{lang}/LC_MESSAGES/darkcity.mo"] = mo.read_bytes()
    files["darkcity/py.typed"] = b""
    # the data the modules read: the bots' weights, and the names' look-alikes computed
    # (the phone has no confusable-homoglyphs)
    from darkcity.room.names import prototypes_json

    files["darkcity/room/confusables.json"] = prototypes_json()
    data = PACKAGE / "bots" / "data"
    for f in sorted(data.glob("*.json")):
        files[f"darkcity/bots/data/{f.name}"] = f.read_bytes()
    return files


def build_wheel(dest: Path) -> Path:
    """A pure-Python wheel of what the browser needs of darkcity (no dependencies:
    nothing of the server), reproducible (fixed dates, sorted)."""
    from darkcity import __version__

    name = f"darkcity-{__version__}"
    dist = f"{name}.dist-info"
    files = _wheel_files()
    files[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: darkcity\nVersion: "
                                 f"{__version__}\nSummary: darkcity's engine and table "
                                 "companion, for the pocket app\n").encode()
    files[f"{dist}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: darkcity.pocket.build\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{dist}/top_level.txt"] = b"darkcity\n"
    record = [f"{p},sha256={_b64(hashlib.sha256(b).digest())},{len(b)}"
              for p, b in sorted(files.items())]
    files[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"{name}-py3-none-any.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p, b in sorted(files.items()):
            info = zipfile.ZipInfo(p, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, b)
    path.write_bytes(buf.getvalue())
    return path


def _b64(digest: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


# -- the page -------------------------------------------------------------------------

_IMPORT = re.compile(r"""(?:import|from)\s*(?:\(\s*)?["'](\.{1,2}/[^"']+\.js)["']""")


def _source(path: str) -> Path:
    """The file of the site's ``path``: ``static/...`` is the server's static folder,
    anything else the pocket's own ``site/``."""
    if path.startswith("static/"):
        return PACKAGE / "server" / "static" / path.removeprefix("static/")
    return HERE / "site" / path


def page_files() -> dict[str, bytes]:
    """The pages' modules: the shell's app.js (the companion's page, ``static/table/``)
    and play.js (the online table's page, ``static/js/``), everything they import
    (followed through the imports), and the styles."""
    found: dict[str, bytes] = {}
    todo = ["app.js", "static/table/main.js", "play.js", "replay.js"]
    while todo:
        path = posixpath.normpath(todo.pop())
        if path in found:
            continue
        if path.startswith("../") or path.startswith("/"):
            raise BuildError(f"a page imports {path}, outside the site")
        text = _source(path).read_text(encoding="utf-8")
        found[path] = text.encode()
        here = posixpath.dirname(path)
        todo.extend(posixpath.join(here, m) for m in _IMPORT.findall(text))
    for css in ("static/table/table.css", "static/style.css"):
        found[css] = _source(css).read_bytes()
    return found


def _meta(lang: str) -> bytes:
    from darkcity.companion.setup import meta

    return json.dumps(meta(lang), ensure_ascii=False, sort_keys=True).encode()


def _play_meta() -> bytes:
    """What the server's ``/api/meta`` tells the online table's page, for a game on the
    phone: the decks, the bots' levels, the paces and the box (no invite address)."""
    from darkcity.deck import BOX, PRESETS, card_key
    from darkcity.room.bots import LEVELS
    from darkcity.room.setup import PACES

    return json.dumps({
        "invite_base": None, "reachable": False, "local": True,
        "presets": [{"name": k, "min": v[1][0], "max": v[1][1]} for k, v in PRESETS.items()],
        "levels": list(LEVELS),
        "paces": {k: {"decide_s": v[0], "beat_s": v[1]} for k, v in PACES.items()},
        "languages": list(LANGS), "box": [card_key(c) for c in BOX],
    }, ensure_ascii=False, sort_keys=True).encode()


def _catalog(lang: str) -> bytes:
    from darkcity.room.text import catalog

    return json.dumps(catalog(lang), ensure_ascii=False, sort_keys=True).encode()


def _manifest(base: str, lang: str = "en") -> bytes:
    return json.dumps({
        "name": "Dark City · Table companion", "short_name": "Dark City",
        "description": "The Mayor's assistant for Dark City with the real cards, offline.",
        "start_url": base, "scope": base, "display": "standalone",
        "background_color": "#0b0b10", "theme_color": "#0b0b10", "lang": lang,
        "icons": [{"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png",
                   "purpose": "any maskable"},
                  {"src": "icons/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }, indent=1).encode()


def build_site(out: Path | str, *, base: str = "./", cache: Path | None = None) -> Site:
    """Write the pocket app's static site into ``out`` (emptied first when it holds a
    previous build), served from ``base`` (the default, relative, serves it from any
    path). Returns what was written, with the build's version."""
    out = Path(out)
    if not base.endswith("/"):
        raise BuildError(f"the base path must end with '/': {base!r}")
    rt = runtime(cache)
    site = HERE / "site"
    static = PACKAGE / "server" / "static"
    files: dict[str, bytes] = {}
    for name in RUNTIME_FILES:
        files[f"pyodide/{name}"] = (rt / name).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = build_wheel(Path(tmp))
        files[f"wheels/{wheel.name}"] = wheel.read_bytes()
    files.update(page_files())
    for lang in LANGS:
        files[f"meta/{lang}.json"] = _meta(lang)
        files[f"i18n/{lang}.json"] = _catalog(lang)
    files["meta/play.json"] = _play_meta()
    files["icons/icon-512.png"] = (static / "icon-512.png").read_bytes()
    files["icons/favicon.svg"] = (static / "favicon.svg").read_bytes()
    files["manifest.webmanifest"] = _manifest(base)
    files["worker.js"] = (site / "worker.js").read_text(encoding="utf-8").replace(
        "__WHEEL__", f"wheels/{wheel.name}").encode()
    shell = (site / "index.html").read_text(encoding="utf-8").replace("__BASE__", base)
    files["index.html"] = shell.encode()
    page = (site / "page.html").read_text(encoding="utf-8").replace("__BASE__", base)
    for name, script in (("play.html", "play.js"), ("replay.html", "replay.js")):
        files[name] = page.replace("__SCRIPT__", script).encode()
    # the version: a hash of every file, so that two builds of one checkout agree and
    # any change makes a new cache
    digest = hashlib.sha256()
    for p, b in sorted(files.items()):
        digest.update(p.encode() + b"\0" + _sha256(b).encode())
    version = digest.hexdigest()[:16]
    listed = sorted([*files, "./"])
    files["version.json"] = json.dumps({"version": version, "pyodide": PYODIDE_VERSION,
                                        "files": listed}, indent=1).encode()
    files["sw.js"] = (site / "sw.js").read_text(encoding="utf-8").replace(
        "__VERSION__", version).replace("__FILES__", json.dumps(listed)).encode()
    if out.exists():
        if not (out / "version.json").is_file() and any(out.iterdir()):
            raise BuildError(f"{out} is not empty and holds no earlier build: choose an "
                             "empty folder")
        shutil.rmtree(out)
    for p, b in files.items():
        f = out / p
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b)
    return Site(out, version, {p: len(b) for p, b in sorted(files.items())})
