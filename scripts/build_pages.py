#!/usr/bin/env python3
"""Build the pocket app's site for GitHub Pages: what the project publishes (issue #49).

    python3 scripts/build_pages.py --out _site

The one script both the workflow (``.github/workflows/pages.yml``) and the suite
(``tests/browser/test_publish.py``) run, so that the suite proves what the workflow will
publish. It runs the README's own command, ``darkcity app build --out DIR`` (with the
darkcity installed beside this Python; the workflow installs the checkout first), then
checks the site as a static host will serve it: every file the service worker keeps is
there, nothing is outside the folder, no file is over GitHub Pages' 100 MB, and no
hidden file (``upload-pages-artifact`` leaves them out). It prints the site's version,
its files and its size, raw and gzip-compressed, and where it will be published
(``[project.urls] "Pocket app"`` in ``pyproject.toml``). Exit status 1, with the reason,
when the build or a check fails.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: GitHub Pages refuses a file over 100 MB
MAX_FILE = 100 * 1024 * 1024


def published_address(pyproject: Path = ROOT / "pyproject.toml") -> str | None:
    """The pocket app's published address, as ``[project.urls]`` writes it."""
    urls = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"].get("urls", {})
    return next((v for k, v in urls.items() if k.lower().replace(" ", "") == "pocketapp"),
                None)


def check(out: Path) -> list[str]:
    """What is wrong with the site in ``out`` for a static host (nothing: ``[]``)."""
    problems = []
    try:
        listed = json.loads((out / "version.json").read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError) as e:
        return [f"version.json is missing or unreadable: {e}"]
    for name in listed:
        if name == "./":
            name = "index.html"
        if not (out / name).is_file():
            problems.append(f"{name} is listed for offline use and missing")
    for f in sorted(out.rglob("*")):
        rel = f.relative_to(out)
        if any(part.startswith(".") for part in rel.parts):
            problems.append(f"{rel} is hidden (upload-pages-artifact leaves it out)")
        elif f.is_symlink():
            problems.append(f"{rel} is a symbolic link")
        elif f.is_file() and f.stat().st_size > MAX_FILE:
            problems.append(f"{rel} is over GitHub Pages' 100 MB")
    for needed in ("index.html", "sw.js", "manifest.webmanifest", "worker.js"):
        if not (out / needed).is_file():
            problems.append(f"{needed} is missing")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("_site"),
                    help="the folder to write the site into (default: _site)")
    args = ap.parse_args(argv)
    out: Path = args.out
    command = [sys.executable, "-m", "darkcity", "app", "build", "--out", str(out),
               "--lang", "en"]
    print("$ darkcity app build --out", out, flush=True)
    if subprocess.run(command, check=False).returncode != 0:
        print("build_pages: the build failed (above)", file=sys.stderr)
        return 1
    problems = check(out)
    for p in problems:
        print(f"build_pages: {p}", file=sys.stderr)
    if problems:
        return 1
    files = [f for f in out.rglob("*") if f.is_file()]
    raw = sum(f.stat().st_size for f in files)
    packed = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)
    version = json.loads((out / "version.json").read_text(encoding="utf-8"))["version"]
    print(f"site {out}: version {version}, {len(files)} files, {raw / 1e6:.1f} MB raw, "
          f"{packed / 1e6:.1f} MB gzip (level 6)")
    print(f"published at {published_address() or '(no [project.urls] Pocket app)'} by "
          ".github/workflows/pages.yml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
