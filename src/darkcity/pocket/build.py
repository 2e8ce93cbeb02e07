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
    manifest.webmanifest    the web app manifest (name, icons, colours), for a home screen,
    manifest.pt_BR.webmanifest  in English and in Portuguese (the page links its reader's)
    sw.js                   the service worker: every file below kept for offline use, in
                            a cache named by the build's version (a first visit downloads
                            each once, its progress shown; an update takes the files that
                            did not change from the version before)
    version.json            the build's version and its files (the service worker's list)
    worker.js               the Web Worker: Pyodide, darkcity's wheel, the tables' IndexedDB
    meta/en.json ...        the set-up's texts and decks, drawn before the engine is ready
    meta/play.json          the decks, bot levels and paces a game is made with
    i18n/en.json ...        the online table's catalogs (darkcity.room.text)
    static/...              the pages: the companion's (server/static/table), the online
                            table's (server/static/js), what they import, their styles
    icons/...               the app's icons
    pyodide/...             the Pyodide runtime, at the pinned version, hash-checked, its
                            standard library trimmed to what darkcity and Pyodide import
                            (:func:`trim_stdlib`), its package lock to its header
    wheels/darkcity-*.whl   a pure-Python wheel of what the browser needs of darkcity

Every page carries a Content-Security-Policy (:data:`CSP`) as strict as the server's.

The runtime is npm's ``pyodide`` package at :data:`PYODIDE_VERSION`, fetched with
``npm pack`` into a cache outside the repository (``$DARKCITY_CACHE``, else
``~/.cache/darkcity``) and checked against the sha256 hashes of
``pocket/pyodide.sha256``; the build fails with a :class:`BuildError` that says what
to do when npm is missing, the registry cannot be reached, or a hash differs.
"""

from __future__ import annotations

import ast
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
import tokenize
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from darkcity.i18n import _, translator

__all__ = ["CSP", "PYODIDE_VERSION", "BuildError", "Site", "build_site", "build_wheel",
           "runtime", "trim_stdlib"]

PYODIDE_VERSION: Final = "314.0.8"
#: The runtime's files (the npm package also has its docs and maps), checked against
#: their hashes; the site ships the first four (the lock is given to ``loadPyodide``
#: trimmed, in ``worker.js``).
RUNTIME_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                        "python_stdlib.zip", "pyodide-lock.json")
#: The pages' Content-Security-Policy (a ``<meta>``), as strict as the server's
#: (``darkcity.server.headers.CSP``; ``tests/test_pocket_build.py`` compares them) but
#: for what a meta policy cannot say (``frame-ancestors``), the page's own ``<base>``
#: (``base-uri 'self'``) and WebAssembly for Pyodide (``'wasm-unsafe-eval'``).
CSP: Final = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
              "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
              "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'")
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


# -- the standard library, trimmed ---------------------------------------------------

#: What Pyodide itself imports as it starts and unpacks the wheel (sys.modules in the
#: worker, measured), beside what darkcity imports: the roots of the trim.
PYODIDE_ROOTS: Final = (
    "_pyodide", "_pyodide._base", "_pyodide._core_docs", "_pyodide._future_helper",
    "_pyodide._importhook", "_pyodide.docs_argspec", "_pyodide.docstring",
    "_pyodide.jsbind", "pyodide", "pyodide._package_loader", "pyodide._state",
    "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop", "site",
    "_sitebuiltins", "encodings", "encodings.aliases", "encodings.utf_8",
    "encodings.utf_8_sig", "encodings.ascii", "encodings.latin_1", "encodings.cp437",
    "encodings.raw_unicode_escape", "encodings.unicode_escape", "encodings.utf_16",
    "encodings.utf_32", "zipimport", "codecs", "io", "abc", "os", "stat", "posixpath",
    "genericpath", "_collections_abc", "warnings", "linecache", "traceback")
#: Never in a browser (Windows, other processes, subinterpreters; their packages' parts
#: too): the trim's scan cannot read a ``sys.platform`` test, nor tell a lazy import
#: of ``concurrent.futures`` for a process pool the phone cannot start.
NEVER: Final = ("asyncio.windows_events", "asyncio.windows_utils", "encodings._win_cp_codecs",
                "encodings.mbcs", "encodings.oem", "nturl2path", "_ios_support",
                "_android_support", "_osx_support", "multiprocessing",
                "concurrent.futures.process", "concurrent.futures.interpreter",
                "concurrent.interpreters", "pyodide._nodesock_transport",
                # the pure-Python twins of modules built into Pyodide's runtime (_datetime,
                # _abc, _decimal, _io): imported only where those are missing
                "_pydatetime", "_py_abc", "_pydecimal", "_pyio")
#: Not followed from a function's import: ``importlib``'s bootstrap asks for
#: ``importlib.metadata`` (and with it ``email``) only in ``find_distributions()``,
#: which nothing here calls (a module that imports it itself still brings it).
NOT_LAZILY: Final = ("importlib.metadata",)
#: Kept as they are (their docstrings are read at run time, or they are Pyodide's own).
WHOLE: Final = ("_pyodide", "pyodide")

_NEVER = tuple(x for n in NEVER for x in (n, n + "."))  # (a name, or a part of it)
_IMPORT_LINE = re.compile(
    r"^\s*(?:import\s+(?P<names>[\w., ]+?)\s*(?:#.*)?$"
    r"|from\s+(?P<dots>\.*)(?P<mod>[\w.]*)\s+import\s+\(?\s*(?P<what>[\w, ]*))")
_BLOCK = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s")


def _module_of(path: str) -> str | None:
    if not path.endswith(".py"):
        return None
    mod = path[:-3].replace("/", ".")
    return mod.removesuffix(".__init__")


def _resolve(mod: str, is_pkg: bool, dots: str, name: str) -> str:
    if not dots:
        return name
    parts = mod.split(".") if is_pkg else mod.split(".")[:-1]
    parts = parts[: len(parts) - (len(dots) - 1)]
    return ".".join([*parts, name] if name else parts)


def module_imports(text: str, mod: str, is_pkg: bool) -> set[str]:
    """What a module of the standard library imports as it is imported: every import at
    its top level (in ``try`` and ``if`` blocks too) and every import of its own package
    (``from . import x``, ``importlib`` importing ``importlib.readers``: a function's too,
    a package's parts call on one another), not another package's import inside a
    function or a class, nor under ``if __name__ == "__main__"`` (read line by line: the
    host's Python may be older than the runtime's and unable to parse it). A name may be
    a module or a module's attribute: both are tried."""
    found: set[str] = set()
    top = mod.split(".")[0]
    inside: int | None = None  # the indentation of the def/class being skipped
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if inside is not None and indent <= inside:
            inside = None
        if inside is None and (_BLOCK.match(line)
                               or (indent == 0 and stripped.startswith("if __name__"))):
            inside = indent
            continue
        m = _IMPORT_LINE.match(line)
        if not m:
            continue
        names: set[str] = set()
        if m.group("names"):
            names = {n.strip().split(" as ")[0].strip() for n in m.group("names").split(",")}
        else:
            base = _resolve(mod, is_pkg, m.group("dots"), m.group("mod"))
            names = {base}
            for what in m.group("what").split(","):
                what = what.strip().split(" as ")[0].strip()
                if what:
                    names.add(f"{base}.{what}")
        if inside is not None:  # (a function's: its own package's only)
            names = {n for n in names if n.split(".")[0] == top
                     and not n.startswith(NOT_LAZILY)}
        found.update(names)
    return found


def darkcity_imports(sources: dict[str, bytes]) -> set[str]:
    """Every module darkcity's wheel imports, wherever (a function's own import too)."""
    found: set[str] = set()
    for path, data in sources.items():
        if not path.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(data)):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in found if not m.startswith("darkcity")}


def _stripped(text: bytes) -> bytes:
    """A module without its docstrings and comments (as ``python -OO`` runs it), every
    line where it was (a traceback's line numbers hold); unchanged where the host's
    Python cannot parse it, or the result would not compile."""
    try:
        source = text.decode("utf-8")
        tree = ast.parse(source)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return text
    lines = source.splitlines(keepends=True)
    spans: list[tuple[int, int, int, int, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str) and first.end_lineno is not None
                    and first.end_col_offset is not None):
                alone = len(node.body) == 1 and not isinstance(node, ast.Module)
                spans.append((first.lineno, first.col_offset, first.end_lineno,
                              first.end_col_offset, alone))
    comments: list[tuple[int, int]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and not (
                    tok.start[0] <= 2 and re.match(r"#.*coding[:=]", tok.string)):
                comments.append(tok.start)  # (an encoding's line stays)
    except (tokenize.TokenError, SyntaxError):
        return text
    for row, col in sorted(comments, reverse=True):
        line = lines[row - 1]
        end = "\n" if line.endswith("\n") else ""
        lines[row - 1] = line[:col].rstrip() + end
    for a, ac, b, bc, alone in sorted(spans, reverse=True):
        head, tail = lines[a - 1][:ac], lines[b - 1][bc:]
        lines[a - 1:b] = [head + ("pass" if alone else "") + "\n" * (b - a) + tail]
    out = "".join(lines)
    try:
        compile(out, "<trimmed>", "exec", dont_inherit=True)
    except SyntaxError:
        return text
    return out.encode("utf-8")


def trim_stdlib(original: bytes, roots: set[str]) -> tuple[bytes, list[str]]:
    """Pyodide's ``python_stdlib.zip`` repacked with only the modules ``roots`` (and
    :data:`PYODIDE_ROOTS`) import, following each kept module's own imports, without
    docstrings and comments: the zip and the modules kept (sorted)."""
    with zipfile.ZipFile(io.BytesIO(original)) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}
    modules = {m: f for f in files if (m := _module_of(f)) is not None}
    keep: set[str] = set()
    todo = [*roots, *PYODIDE_ROOTS]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            mod = ".".join(parts[:i])
            if mod in keep or mod not in modules or mod.startswith(_NEVER):
                continue
            keep.add(mod)
            path = modules[mod]
            todo.extend(module_imports(files[path].decode("utf-8", "replace"), mod,
                                       path.endswith("__init__.py")))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for mod in sorted(keep):
            path = modules[mod]
            data = files[path]
            if mod.split(".")[0] not in WHOLE:
                data = _stripped(data)
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue(), sorted(keep)


def _lock_header(lock: bytes) -> dict[str, object]:
    """Pyodide's package lock without its packages (the app loads none)."""
    doc = json.loads(lock)
    return {"info": doc["info"], "packages": {}}


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


def _followed(entries: list[str], text_of: Callable[[str], str],
              imports: re.Pattern[str]) -> list[str]:
    """The modules ``entries`` import (``imports``, relative addresses), followed through
    their own imports, breadth first: the nearest first, each once, the entries not."""
    seen, order, todo = set(entries), [], list(entries)
    while todo:
        path = todo.pop(0)
        here = posixpath.dirname(path)
        for m in imports.findall(text_of(path)):
            dep = posixpath.normpath(posixpath.join(here, m))
            if dep not in seen:
                seen.add(dep)
                order.append(dep)
                todo.append(dep)
    return order


def page_files() -> dict[str, bytes]:
    """The pages' modules: the shell's app.js (the companion's page, ``static/table/``)
    and play.js (the online table's page, ``static/js/``), everything they import
    (followed through the imports, those made when needed too), and the styles."""
    found: dict[str, bytes] = {}

    def text_of(path: str) -> str:
        if path.startswith("../") or path.startswith("/"):
            raise BuildError(f"a page imports {path}, outside the site")
        found[path] = _source(path).read_bytes()
        return found[path].decode("utf-8")

    _followed(["app.js", "static/table/main.js", "play.js", "replay.js"], text_of, _IMPORT)
    for css in ("static/table/table.css", "static/style.css"):
        found[css] = _source(css).read_bytes()
    return found


#: A module's static imports (``import … from "./x.js"``, ``import "./x.js"``), not its
#: ``import("./x.js")`` made when needed.
_STATIC_IMPORT = re.compile(r"""(?:^|[\s;}])(?:import|from)\s*["'](\.{1,2}/[^"']+\.js)["']""",
                            re.M)


def preloaded(html: str, entries: list[str], files: dict[str, bytes]) -> str:
    """``html`` with a ``<link rel="modulepreload">`` for every module its scripts
    (``entries``) import, followed through their imports: the browser asks for them all
    at once instead of one level of imports after another (on a slow phone, each level a
    trip through the service worker), and the engine's worker starts sooner."""
    order = _followed(entries, lambda p: files[p].decode("utf-8"), _STATIC_IMPORT)
    links = "".join(f'<link rel="modulepreload" href="{p}">\n' for p in order)
    return html.replace("</head>", links + "</head>", 1)


def _meta(lang: str) -> bytes:
    from darkcity.companion.setup import meta

    return json.dumps(meta(lang), ensure_ascii=False, sort_keys=True).encode()


def _play_meta() -> bytes:
    """What the server's ``/api/meta`` tells the online table's page, for a game on the
    phone: the decks, the bots' levels, the paces and the box (no invite address)."""
    from darkcity import __version__
    from darkcity.deck import BOX, PRESETS, card_key
    from darkcity.room.bots import LEVELS
    from darkcity.room.setup import PACES

    return json.dumps({
        "invite_base": None, "reachable": False, "local": True,
        "presets": [{"name": k, "min": v[1][0], "max": v[1][1]} for k, v in PRESETS.items()],
        "levels": list(LEVELS),
        "paces": {k: {"decide_s": v[0], "beat_s": v[1]} for k, v in PACES.items()},
        "languages": list(LANGS), "box": [card_key(c) for c in BOX],
        "version": __version__,  # the set-up's footer
    }, ensure_ascii=False, sort_keys=True).encode()


def _catalog(lang: str) -> bytes:
    from darkcity.room.text import catalog

    return json.dumps(catalog(lang), ensure_ascii=False, sort_keys=True).encode()


#: The app's name and description on a home screen, per language.
MANIFEST_NAME: Final = _("Dark City: the Mayor on your phone")
MANIFEST_ABOUT: Final = _("Dark City on one phone, offline: the table companion for a game "
                          "with the real cards, a game against bots, the game records.")


def _manifest(base: str, lang: str = "en") -> bytes:
    """The web app manifest in ``lang``: its name and description, the icons at 192 and
    512 px and a separate maskable one (drawn inside the safe zone a launcher may crop
    to a circle)."""
    t = translator(lang)
    return json.dumps({
        "name": t(MANIFEST_NAME), "short_name": "Dark City", "description": t(MANIFEST_ABOUT),
        "start_url": base, "scope": base, "id": base, "display": "standalone",
        "background_color": "#0b0b10", "theme_color": "#0b0b10",
        "lang": "pt-BR" if lang == "pt_BR" else "en",
        "icons": [{"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png",
                   "purpose": "any"},
                  {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png",
                   "purpose": "any"},
                  {"src": "icons/icon-maskable-512.png", "sizes": "512x512",
                   "type": "image/png", "purpose": "maskable"},
                  {"src": "icons/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }, indent=1, ensure_ascii=False).encode()


def build_site(out: Path | str, *, base: str = "./", cache: Path | None = None) -> Site:
    """Write the pocket app's static site into ``out`` (emptied first when it holds a
    previous build), served from ``base`` (the default, relative, serves it from any
    path). Returns what was written, with the build's version."""
    out = Path(out)
    if not base.endswith("/"):
        raise BuildError(f"the base path must end with '/': {base!r}")
    rt = runtime(cache)  # (every file checked against its pinned hash first)
    site = HERE / "site"
    static = PACKAGE / "server" / "static"
    files: dict[str, bytes] = {}
    for name in RUNTIME_FILES[:3]:
        files[f"pyodide/{name}"] = (rt / name).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = build_wheel(Path(tmp))
        files[f"wheels/{wheel.name}"] = wheel.read_bytes()
    with zipfile.ZipFile(io.BytesIO(files[f"wheels/{wheel.name}"])) as z:
        used = darkcity_imports({n: z.read(n) for n in z.namelist() if n.endswith(".py")})
    files["pyodide/python_stdlib.zip"], _kept = trim_stdlib(
        (rt / "python_stdlib.zip").read_bytes(), used)
    lock = json.dumps(_lock_header((rt / "pyodide-lock.json").read_bytes()), sort_keys=True)
    files.update(page_files())
    for lang in LANGS:
        files[f"meta/{lang}.json"] = _meta(lang)
        files[f"i18n/{lang}.json"] = _catalog(lang)
    files["meta/play.json"] = _play_meta()
    files["icons/icon-512.png"] = (static / "icon-512.png").read_bytes()
    for icon in ("icon-192.png", "icon-maskable-512.png"):
        files[f"icons/{icon}"] = (site / "icons" / icon).read_bytes()
    files["icons/favicon.svg"] = (static / "favicon.svg").read_bytes()
    files["manifest.webmanifest"] = _manifest(base)
    files["manifest.pt_BR.webmanifest"] = _manifest(base, "pt_BR")
    # the phone's own compile of its Python is kept under a name of what it compiles
    compiled = _sha256(files["pyodide/python_stdlib.zip"] + files[f"wheels/{wheel.name}"]
                       + PYODIDE_VERSION.encode())[:16]
    files["worker.js"] = (site / "worker.js").read_text(encoding="utf-8").replace(
        "__WHEEL__", f"wheels/{wheel.name}").replace("__LOCK__", lock).replace(
        "__COMPILED__", compiled).encode()
    shell = (site / "index.html").read_text(encoding="utf-8").replace(
        "__BASE__", base).replace("__CSP__", CSP)
    files["index.html"] = preloaded(shell, ["static/table/main.js", "app.js"], files).encode()
    page = (site / "page.html").read_text(encoding="utf-8").replace(
        "__BASE__", base).replace("__CSP__", CSP)
    for name, script in (("play.html", "play.js"), ("replay.html", "replay.js")):
        files[name] = preloaded(page.replace("__SCRIPT__", script), [script], files).encode()
    # the version: a hash of every file, so that two builds of one checkout agree and
    # any change makes a new cache
    digest = hashlib.sha256()
    for p, b in sorted(files.items()):
        digest.update(p.encode() + b"\0" + _sha256(b).encode())
    version = digest.hexdigest()[:16]
    listed = sorted([*files, "./"])
    # each file's hash: an update keeps the files that did not change (sw.js); "./" is
    # index.html
    hashes = {p: _sha256(files["index.html" if p == "./" else p])[:16] for p in listed}
    sizes = {p: len(files["index.html" if p == "./" else p]) for p in listed}
    files["version.json"] = json.dumps({"version": version, "pyodide": PYODIDE_VERSION,
                                        "files": listed, "hashes": hashes}, indent=1).encode()
    files["sw.js"] = (site / "sw.js").read_text(encoding="utf-8").replace(
        "__VERSION__", version).replace("__FILES__", json.dumps(listed)).replace(
        "__HASHES__", json.dumps(hashes)).replace("__SIZES__", json.dumps(sizes)).encode()
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
