"""The pocket app published by the project and served by every darkcity server (issue
#49), what can be checked without a browser:

- the project's addresses are written once (``[project.urls]``) and everything agrees
  with them: the README's first lines and their QR code, ``docs/deploy.md``'s ``git
  clone``, the installer's own line, what the server reads (its pages' "published at");
- the Pages workflow: its triggers, permissions, the script it runs, the deployment only
  from main and tags;
- the publishing script's checks of a site for a static host;
- ``/app/`` and ``/api/app``: a given folder served with the widened policy, a build that
  cannot be made said in words (no npm), the QR code of where other phones install it,
  nothing outside the folder;
- the Caddyfile's limits for slow clients.

The browser's half is ``tests/browser/test_publish.py`` (the published site offline) and
``tests/browser/test_app_served.py`` (``/app/`` offline, the home page's offer).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from darkcity.server import ServerConfig, create_app
from darkcity.server.headers import CSP
from darkcity.server.pocket_app import APP_CSP, PocketApp, project_urls

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import build_pages
import readme_qr

URLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
POCKET = URLS["Pocket app"]
SOURCE = URLS["Source"]


def test_the_addresses_are_written_once_and_everything_agrees() -> None:
    assert POCKET.startswith("https://") and POCKET.endswith("/")
    assert SOURCE.startswith("https://github.com/") and URLS["Homepage"] == SOURCE
    # GitHub Pages publishes <owner>.github.io/<repository>/ for github.com/<owner>/<repository>
    owner, repo = SOURCE.removeprefix("https://github.com/").split("/")
    assert f"https://{owner}.github.io/{repo}/" == POCKET
    # the README: its first lines say the address, with its QR code
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    first = "\n".join(readme[:12])
    assert f"On a phone, open <{POCKET}>" in first
    assert '<img src="docs/pocket-app-qr.svg"' in first and f"QR code of {POCKET}" in first
    assert readme_qr.main(["--check"]) == 0
    assert f"<title>The pocket app: {POCKET}</title>" in (
        ROOT / "docs" / "pocket-app-qr.svg").read_text(encoding="utf-8")
    # docs/deploy.md and the installer clone the project's repository
    deploy = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert f"git clone {SOURCE}" in deploy
    assert f"git clone {SOURCE}" in (ROOT / "deploy" / "install.sh").read_text(encoding="utf-8")
    clones = re.findall(r"git clone (\S+)", deploy)
    assert clones and set(clones) == {SOURCE}, clones
    # what the server and the scripts read
    assert project_urls() == {"homepage": SOURCE, "source": SOURCE, "pocketapp": POCKET,
                              "changelog": f"{SOURCE}/blob/main/CHANGELOG.md"}
    assert build_pages.published_address() == POCKET


def test_the_installed_metadata_carries_the_addresses(tmp_path: Path) -> None:
    """What ``project_urls`` reads where darkcity is installed (no checkout beside it):
    the metadata setuptools writes from ``[project.urls]``."""
    done = subprocess.run([sys.executable, "-c", (
        "from setuptools import setup; setup()"), "-q", "dist_info", "--output-dir",
        str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
        env={**os.environ, "DARKCITY_COMPILE": "0"})
    assert done.returncode == 0, done.stderr[-2000:]
    meta = next(tmp_path.glob("darkcity-*.dist-info")) / "METADATA"
    lines = meta.read_text(encoding="utf-8").splitlines()
    assert f"Project-URL: Pocket app, {POCKET}" in lines
    assert f"Project-URL: Source, {SOURCE}" in lines


def _workflow() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    doc: dict[str, Any] = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    return doc


def test_the_pages_workflow_builds_with_the_script_and_deploys_main_and_tags() -> None:
    wf = _workflow()
    on = wf.get("on", wf.get(True))  # (YAML 1.1 reads a bare `on` as true)
    assert on["push"]["branches"] == ["main"] and on["push"]["tags"]
    assert "pull_request" in on
    assert wf["permissions"] == {"contents": "read"}
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    runs = [s.get("run", "") for s in build["steps"]]
    uses = [s.get("uses", "") for s in build["steps"]]
    assert "python -m pip install ." in runs
    built = [r for r in runs if "scripts/build_pages.py" in r]
    assert built == ["python scripts/build_pages.py --out _site"]
    assert any(u.startswith("actions/setup-node@") for u in uses)  # npm, for Pyodide
    upload = next(s for s in build["steps"]
                  if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "./_site"
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
    # pull requests build only; main and tags deploy
    assert "pull_request" in deploy["if"] and "refs/heads/main" in deploy["if"]
    assert "refs/tags/" in deploy["if"]


def test_the_publishing_script_refuses_a_site_a_static_host_would_break(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    assert build_pages.check(site)[0].startswith("version.json is missing")
    (site / "version.json").write_text(json.dumps({"files": ["./", "sw.js", "gone.js"]}))
    for name in ("index.html", "sw.js", "manifest.webmanifest", "worker.js"):
        (site / name).write_text("x")
    assert build_pages.check(site) == ["gone.js is listed for offline use and missing"]
    (site / "gone.js").write_text("x")
    (site / ".nojekyll").write_text("")
    assert build_pages.check(site) == [".nojekyll is hidden (upload-pages-artifact leaves it out)"]


# -- /app/ and /api/app ---------------------------------------------------------------


def _site(folder: Path) -> Path:
    """A stand-in for a built site: what /app/ serves is the folder as it is."""
    (folder / "pyodide").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>shell</title>")
    (folder / "version.json").write_text('{"version": "0", "files": []}')
    (folder / "sw.js").write_text("// sw")
    (folder / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (folder / "manifest.webmanifest").write_text("{}")
    return folder


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'app.sqlite3'}", bot_workers=0,
                       app_dir=str(_site(tmp_path / "site")))
    with TestClient(create_app(cfg)) as c:
        yield c


def test_a_given_site_is_served_at_app_with_the_policy_pyodide_needs(
        served: TestClient) -> None:
    shell = served.get("/app/")
    assert shell.status_code == 200 and "shell" in shell.text
    assert shell.headers["content-type"].startswith("text/html")
    policy = shell.headers["content-security-policy"]
    assert policy == APP_CSP
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "worker-src 'self'" in policy
    # the rest as strict as the server's own policy; nothing else widened
    assert "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
    for part in ("object-src 'none'", "frame-ancestors 'none'", "connect-src 'self'"):
        assert part in policy and part in CSP
    assert shell.headers["x-frame-options"] == "DENY"
    assert shell.headers["x-content-type-options"] == "nosniff"
    assert shell.headers["cache-control"] == "no-cache"
    wasm = served.get("/app/pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm"
    assert served.get("/app/manifest.webmanifest").headers["content-type"] == \
        "application/manifest+json"
    assert served.get("/app", follow_redirects=False).headers["location"] == "/app/"
    for outside in ("/app/../pyproject.toml", "/app/%2e%2e/%2e%2e/etc/passwd",
                    "/app/..%2f..%2fetc%2fpasswd", "/app/nothing.js"):
        assert served.get(outside).status_code == 404, outside
    # the server's own pages keep the server's policy
    assert served.get("/").headers["content-security-policy"] == CSP


def test_the_home_page_is_told_where_phones_install_it(served: TestClient) -> None:
    # a page on localhost (no address for others): the other phones go to the published app
    s = served.get("/api/app").json()
    assert s["state"] == "ready" and s["path"] == "/app/"
    assert s["published"] == POCKET and s["install_url"] == POCKET and not s["install_here"]
    # reached over HTTPS (behind Caddy, uvicorn takes the scheme from X-Forwarded-Proto):
    # this server's own /app/
    s = served.get("https://play.example.org/api/app").json()
    assert s["install_url"] == "https://play.example.org/app/" and s["install_here"]
    qr = served.get("https://play.example.org/api/app/qr.svg")
    assert qr.headers["content-type"] == "image/svg+xml"
    assert "<title>https://play.example.org/app/</title>" in qr.text
    # plain HTTP on the local network: the published address, where phones can
    qr = served.get("/api/app/qr.svg", headers={"host": "192.168.1.10:8000"})
    assert f"<title>{POCKET}</title>" in qr.text


def test_a_folder_with_no_build_is_said(tmp_path: Path) -> None:
    app = PocketApp(str(tmp_path))
    assert app.status() == ("failed", "missing", str(tmp_path)) and app.folder() is None
    app.need()  # a given folder is never built
    assert app.status()[0] == "failed"


def test_without_npm_the_app_is_not_built_and_the_pages_say_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No cached runtime and no npm: ``/app/`` and the home page say why in words (in the
    reader's language) and where else the app is; nothing is left behind."""
    monkeypatch.setenv("DARKCITY_CACHE", str(tmp_path / "empty-cache"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(bin_dir))  # no npm on it
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'app.sqlite3'}", bot_workers=0)
    with TestClient(create_app(cfg)) as c:
        waiting = c.get("/app/", headers={"accept-language": "pt-BR"})
        assert waiting.status_code == 503 and 'data-testid="app-preparing"' in waiting.text
        assert "Preparando o aplicativo de bolso" in waiting.text
        assert 'http-equiv="refresh"' in waiting.text
        assert c.get("/app/sw.js").status_code == 503
        end = time.monotonic() + 120
        while (s := c.get("/api/app").json())["state"] == "preparing":
            assert time.monotonic() < end, "the build neither ended nor failed"
            time.sleep(0.2)
        assert s["state"] == "failed" and s["reason"] == "no-npm"
        assert "npm is not installed on this server" in s["why"]
        assert s["install_url"] == POCKET
        page = c.get("/app/", headers={"accept-language": "pt-BR"})
        assert page.status_code == 503 and 'data-testid="app-failed"' in page.text
        assert "o npm não está instalado neste servidor" in page.text
        assert f'<a href="{POCKET}">' in page.text and "refresh" not in page.text
        pt = c.get("/api/app", headers={"accept-language": "pt-BR"}).json()
        assert pt["why"].startswith("o npm não está instalado")


def test_the_caddyfile_bounds_slow_clients_and_serves_one_or_three_servers() -> None:
    caddy = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    timeouts = re.search(r"timeouts \{([^}]*)\}", caddy)
    assert timeouts is not None
    limits = dict(line.split() for line in timeouts.group(1).strip().splitlines())
    assert limits == {"read_header": "10s", "read_body": "30s", "idle": "2m"}
    assert "import upstreams_{$DARKCITY_UPSTREAMS:local}" in caddy
    assert "reverse_proxy {$DARKCITY_UPSTREAM:127.0.0.1:8000}" in caddy


def test_the_installer_refuses_what_it_cannot_do_in_words() -> None:
    """``deploy/install.sh``'s arguments (its run: ``tests/browser/test_deploy.py``)."""
    script = str(ROOT / "deploy" / "install.sh")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", script, *args], capture_output=True, text=True,
                              timeout=60, check=False)

    assert run("--help").returncode == 0 and "--no-systemd" in run("--help").stdout
    for args, said in ((("",), "give the server's public name"),
                       (("bad name!",), "is not a host name"),
                       (("play.example.org", "--port", "80x"), "is not a number"),
                       (("play.example.org", "--frobnicate"), "unknown option"),
                       (("a.example.org", "b.example.org"), "one name only")):
        done = run(*[a for a in args if a])
        assert done.returncode == 1 and said in done.stderr, (args, done.stderr)
