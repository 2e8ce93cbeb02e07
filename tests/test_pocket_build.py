"""The pocket app's static site (issue #29): ``darkcity.pocket.build``. The runtime is
taken from a cache or npm and hash-checked, the build fails in words when it cannot
have it; the wheel holds what the browser needs of darkcity and nothing of the server;
the site works from any path and names its version."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from darkcity.pocket import build
from darkcity.pocket.build import RUNTIME_FILES, BuildError, build_site, build_wheel, runtime

#: A standard library in miniature: what imports what, at the top or in a function.
STDLIB = {
    "os.py": "import stat\n",
    "stat.py": '"""Constants."""\n# a comment\nX = 1  # said\n',
    "json/__init__.py": ('"""JSON."""\nfrom .decoder import JSONDecoder\n\n\n'
                         'def dumps():\n    """Text."""\n    from . import encoder\n'
                         "    import pickle\n    return encoder\n"),
    "json/decoder.py": "class JSONDecoder:\n    '''Reads.'''\n",
    "json/encoder.py": "E = 2\n",
    "pickle.py": "import json\n",
    "heapq.py": 'if __name__ == "__main__":\n    import doctest\n',
    "doctest.py": "X = 3\n",
    "multiprocessing/__init__.py": "Y = 4\n",
    "asyncio/__init__.py": "import multiprocessing\n",
    "_pyodide/__init__.py": '"""Pyodide\'s own: kept whole."""\n',
    "pyodide/__init__.py": "",
    "unused.py": "Z = 5\n",
}


def fake_runtime(folder: Path) -> dict[str, str]:
    """A runtime's files (not Pyodide's) in ``folder``, and their hashes: a standard
    library zip in miniature and a lock with its header."""
    folder.mkdir(parents=True, exist_ok=True)
    hashes = {}
    for name in RUNTIME_FILES:
        data = f"fake {name}".encode()
        if name == "python_stdlib.zip":
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as z:
                for path, text in STDLIB.items():
                    z.writestr(path, text)
            data = buf.getvalue()
        elif name == "pyodide-lock.json":
            data = json.dumps({"info": {"python": "3.14.2"}, "packages": {"numpy": {}}}).encode()
        (folder / name).write_bytes(data)
        hashes[name] = hashlib.sha256(data).hexdigest()
    return hashes


def test_the_pinned_hashes_name_every_runtime_file() -> None:
    hashes = build.pinned_hashes()
    assert set(hashes) == set(RUNTIME_FILES)
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes.values())


def test_no_npm_and_no_cache_is_said_with_what_to_do(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    fake_runtime(tmp_path / "cache")  # files there, but not the pinned ones
    with pytest.raises(BuildError) as e:
        runtime(tmp_path / "cache")
    said = str(e.value)
    assert "npm is not installed" in said and "apt install npm" in said
    assert str(tmp_path / "cache") in said


def _fake_npm(bindir: Path, tarball: Path | None, fail: str = "") -> None:
    """An ``npm`` that packs ``tarball`` (or fails saying ``fail``)."""
    bindir.mkdir(parents=True, exist_ok=True)
    npm = bindir / "npm"
    if fail:
        npm.write_text(f"#!/bin/sh\necho '{fail}' >&2\nexit 1\n")
    else:
        npm.write_text(f'#!/bin/sh\ncp "{tarball}" "$4/pyodide-{build.PYODIDE_VERSION}.tgz"\n')
    npm.chmod(0o755)


def _tarball(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_a_runtime_whose_hash_differs_is_refused_and_nothing_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {n: f"tampered {n}".encode() for n in RUNTIME_FILES}
    _fake_npm(tmp_path / "bin", _tarball(tmp_path / "p.tgz", files))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin")
    with pytest.raises(BuildError) as e:
        runtime(tmp_path / "cache")
    assert "does not match the hashes kept in pocket/pyodide.sha256" in str(e.value)
    assert "pyodide.asm.wasm" in str(e.value)
    assert not (tmp_path / "cache").exists()


def test_a_registry_out_of_reach_is_said(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_npm(tmp_path / "bin", None, fail="npm error code EAI_AGAIN")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin")
    with pytest.raises(BuildError) as e:
        runtime(tmp_path / "cache")
    assert "is the npm registry reachable?" in str(e.value) and "EAI_AGAIN" in str(e.value)


def test_a_runtime_fetched_with_npm_is_checked_and_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashes = fake_runtime(tmp_path / "src")
    monkeypatch.setattr(build, "pinned_hashes", lambda: hashes)
    files = {n: (tmp_path / "src" / n).read_bytes() for n in RUNTIME_FILES}
    _fake_npm(tmp_path / "bin", _tarball(tmp_path / "p.tgz", files))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin")
    got = runtime(tmp_path / "cache")
    assert sorted(p.name for p in got.iterdir()) == sorted(RUNTIME_FILES)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # the cache serves, without npm
    assert runtime(tmp_path / "cache") == got


def test_the_wheel_holds_the_engine_and_companion_and_nothing_of_the_server(
        tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    assert wheel.name == "darkcity-0.1.0-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("darkcity/night.py", "darkcity/companion/view.py",
                   "darkcity/companion/record.py", "darkcity/pocket/worker.py",
                   "darkcity/locale/pt_BR/LC_MESSAGES/darkcity.mo",
                   "darkcity-0.1.0.dist-info/RECORD", "darkcity-0.1.0.dist-info/WHEEL"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("darkcity/server", "darkcity/cli",
                                                  "darkcity/tui", "darkcity/pocket/build"))]
    # reproducible: the same checkout gives the same bytes (the site's version)
    assert build_wheel(tmp_path / "again").read_bytes() == wheel.read_bytes()
    # unpacked alone, as Pyodide does, it answers the worker's first question
    zipfile.ZipFile(wheel).extractall(tmp_path / "site-packages")
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); "
            "from darkcity.pocket.worker import call; import darkcity; "
            "assert darkcity.__file__.startswith(sys.argv[1]), darkcity.__file__; "
            "v = json.loads(call('meta', json.dumps({'lang': 'pt_BR'})))['value']; "
            "print(v['lang'], sorted(m for m in sys.modules if m.split('.')[0] in "
            "('fastapi', 'sqlalchemy', 'starlette', 'pydantic', 'typer', 'rich')))")
    out = subprocess.run([sys.executable, "-I", "-c", code, str(tmp_path / "site-packages")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "pt_BR []"


def test_the_site_works_from_any_path_and_names_its_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashes = fake_runtime(tmp_path / "cache")
    monkeypatch.setattr(build, "pinned_hashes", lambda: hashes)
    site = build_site(tmp_path / "out", cache=tmp_path / "cache")
    out = tmp_path / "out"
    for f in ("index.html", "manifest.webmanifest", "sw.js", "worker.js", "app.js",
              "version.json", "meta/en.json", "meta/pt_BR.json", "static/table/main.js",
              "static/table/transport.js", "static/js/wake.js", "icons/icon-512.png",
              "pyodide/pyodide.asm.wasm"):
        assert (out / f).is_file(), f
    listed = json.loads((out / "version.json").read_text())
    assert listed["version"] == site.version and "./" in listed["files"]
    assert set(listed["files"]) - {"./"} == set(site.files) - {"version.json", "sw.js"}
    sw = (out / "sw.js").read_text()
    assert f'const VERSION = "{site.version}";' in sw and "__FILES__" not in sw
    # relative addresses only: served from https://example.org/darkcity/ as from /
    shell = (out / "index.html").read_text()
    assert not re.findall(r'(?:src|href)="/', shell), shell
    # each page's modules asked for at once, every one of them a file of the site
    for page in ("index.html", "play.html", "replay.html"):
        preloads = re.findall(r'rel="modulepreload" href="([^"]+)"', (out / page).read_text())
        assert len(preloads) > 10 and all((out / p).is_file() for p in preloads), page
    manifest = json.loads((out / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["icons"]
    assert json.loads((out / "meta/pt_BR.json").read_text())["lang"] == "pt_BR"
    # the same checkout, the same version; a changed file, another
    assert build_site(tmp_path / "out", cache=tmp_path / "cache").version == site.version
    with pytest.raises(BuildError):
        build_site(tmp_path / "out", base="/darkcity", cache=tmp_path / "cache")
    other = build_site(tmp_path / "sub", base="/darkcity/", cache=tmp_path / "cache")
    assert other.version != site.version
    assert json.loads((tmp_path / "sub/manifest.webmanifest").read_text())["scope"] == \
        "/darkcity/"


def test_each_page_preloads_every_module_its_scripts_import_and_no_other() -> None:
    """The browser asks for a page's modules all at once (``<link rel=modulepreload>``)
    instead of one level of imports after another: those imported where they are
    written, followed through their imports; not one imported only when needed, nor
    the page's own scripts."""
    files = {
        "main.js": b'import { a } from "./lib/a.js";\nimport "./side.js";\n',
        "lib/a.js": b'export { b } from "./b.js";\nconst later = () => import("../late.js");\n',
        "lib/b.js": b'import { a } from "./a.js";\nexport const b = 1;\n',
        "side.js": b"export const side = 1;\n",
        "late.js": b"export const late = 1;\n",
    }
    html = build.preloaded("<html><head><title>t</title></head><body></body></html>",
                           ["main.js"], files)
    hrefs = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert hrefs == ["lib/a.js", "side.js", "lib/b.js"]
    assert html.index("modulepreload") < html.index("</head>")


def test_a_folder_that_is_not_a_build_is_never_emptied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashes = fake_runtime(tmp_path / "cache")
    monkeypatch.setattr(build, "pinned_hashes", lambda: hashes)
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thesis.txt").write_text("precious")
    with pytest.raises(BuildError) as e:
        build_site(tmp_path / "home", cache=tmp_path / "cache")
    assert "not empty" in str(e.value)
    assert (tmp_path / "home" / "thesis.txt").read_text() == "precious"


def test_the_standard_library_is_trimmed_to_what_darkcity_and_pyodide_import() -> None:
    """The runtime's standard library repacked with what the roots import, following each
    module's own imports (at its top; its own package's in a function too), never a
    ``__main__`` block's nor a module a browser cannot run; docstrings and comments gone,
    every line where it was."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path, text in STDLIB.items():
            z.writestr(path, text)
    trimmed, kept = build.trim_stdlib(buf.getvalue(), {"json", "os", "heapq", "asyncio"})
    assert set(kept) >= {"json", "json.decoder", "json.encoder", "os", "stat", "heapq",
                         "asyncio", "_pyodide", "pyodide"}
    # pickle: imported inside a function of another package; doctest: under __main__;
    # multiprocessing: no process in a browser; unused: nobody's
    assert not {"pickle", "doctest", "multiprocessing", "unused"} & set(kept)
    z = zipfile.ZipFile(io.BytesIO(trimmed))
    stat = z.read("stat.py").decode()
    assert "Constants" not in stat and "comment" not in stat and "said" not in stat
    assert stat.splitlines()[2] == "X = 1"  # (line 3 still)
    dumps = z.read("json/__init__.py").decode()
    assert "Text." not in dumps and dumps.count("\n") == STDLIB["json/__init__.py"].count("\n")
    compile(dumps, "json", "exec")
    assert z.read("_pyodide/__init__.py").decode() == STDLIB["_pyodide/__init__.py"]
    decoder = z.read("json/decoder.py").decode()
    assert "Reads" not in decoder and "pass" in decoder  # (a class of a docstring only)


def test_every_page_has_a_policy_as_strict_as_the_servers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The static site sends no headers of its own: each page carries the server's
    Content-Security-Policy as a meta element, but for what a meta policy cannot say
    (frame-ancestors), its own <base> ('self') and Pyodide's WebAssembly."""
    from darkcity.server.headers import CSP as SERVER

    def directives(policy: str) -> dict[str, set[str]]:
        return {d.split()[0]: set(d.split()[1:]) for d in policy.split(";") if d.strip()}

    ours, theirs = directives(build.CSP), directives(SERVER)
    assert set(ours) == set(theirs) - {"frame-ancestors"}
    for name, sources in ours.items():
        if name == "base-uri":
            assert theirs[name] == {"'none'"} and sources == {"'self'"}
            continue
        extra = {"'wasm-unsafe-eval'"} if name == "script-src" else set()
        assert sources == theirs[name] | extra, name
    hashes = fake_runtime(tmp_path / "cache")
    monkeypatch.setattr(build, "pinned_hashes", lambda: hashes)
    build_site(tmp_path / "out", cache=tmp_path / "cache")
    for page in ("index.html", "play.html", "replay.html"):
        html = (tmp_path / "out" / page).read_text()
        assert f'<meta http-equiv="Content-Security-Policy" content="{build.CSP}">' in html
        assert html.index("Content-Security-Policy") < html.index("<script")
    # the runtime's lock is given to loadPyodide trimmed to its header, not shipped
    worker = (tmp_path / "out" / "worker.js").read_text()
    assert '"packages": {}' in worker and "numpy" not in worker
    assert not (tmp_path / "out" / "pyodide" / "pyodide-lock.json").exists()


def test_the_manifest_speaks_each_language_with_its_icons(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashes = fake_runtime(tmp_path / "cache")
    monkeypatch.setattr(build, "pinned_hashes", lambda: hashes)
    build_site(tmp_path / "out", cache=tmp_path / "cache")
    en = json.loads((tmp_path / "out" / "manifest.webmanifest").read_text())
    pt = json.loads((tmp_path / "out" / "manifest.pt_BR.webmanifest").read_text())
    assert en["lang"] == "en" and pt["lang"] == "pt-BR" and en["name"] != pt["name"]
    assert "Burgomestre" in pt["name"] and "companion" not in en["name"].lower()
    icons = {(i["sizes"], i.get("purpose")) for i in en["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= icons
    assert all(i.get("purpose") != "any maskable" for i in en["icons"])
    for icon in en["icons"]:
        assert (tmp_path / "out" / icon["src"]).is_file(), icon
