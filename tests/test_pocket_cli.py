"""``darkcity app build``: the pocket app's site from the command line.

The build itself (the runtime's hashes, npm missing, the wheel, the site's files) is
tested in ``tests/test_pocket_build.py``; here the command around it: what it says, in
both languages, and that a failed build is one line on stderr and exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from darkcity.cli import app
from darkcity.pocket import build as pocket_build


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_build_says_where_and_how_big(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    out = tmp_path / "site"

    def fake_build(target: Path, *, base: str = "./") -> pocket_build.Site:
        assert base == "/darkcity/"
        target.mkdir()
        (target / "index.html").write_text("<!doctype html>" * 100)
        return pocket_build.Site(target, "v1", {"index.html": 1500})

    monkeypatch.setattr(pocket_build, "build_site", fake_build)
    code, stdout, stderr = _invoke("app", "build", "--out", str(out), "--base", "/darkcity/",
                                   "--lang", "en")
    assert code == 0, stderr
    assert f"Built the pocket app in {out} (version v1): 1 files" in stdout
    assert "HTTPS" in stdout and "docs/pocket.md" in stdout
    code, stdout, _ = _invoke("app", "build", "--out", str(tmp_path / "other"), "--base",
                              "/darkcity/", "--lang", "pt")
    assert code == 0
    assert "Aplicativo de bolso" in stdout or "aplicativo de bolso" in stdout


def test_a_failed_build_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    def no_npm(target: Path, *, base: str = "./") -> pocket_build.Site:
        raise pocket_build.BuildError("npm is not installed")

    monkeypatch.setattr(pocket_build, "build_site", no_npm)
    code, stdout, stderr = _invoke("app", "build", "--out", str(tmp_path), "--lang", "en")
    assert code == 2
    assert stdout == ""
    assert stderr.strip().splitlines() == [
        "darkcity: the pocket app could not be built: npm is not installed"]


def test_a_base_path_without_its_slash_is_refused(tmp_path: Path) -> None:
    code, stdout, stderr = _invoke("app", "build", "--out", str(tmp_path / "s"), "--base",
                                   "/darkcity", "--lang", "en")
    assert code == 2
    assert stdout == ""
    assert "/darkcity" in stderr and "'/'" in stderr
    assert not (tmp_path / "s").exists()


def test_app_build_needs_its_folder() -> None:
    code, _, stderr = _invoke("app", "build")
    assert code == 2
    assert "--out" in stderr
