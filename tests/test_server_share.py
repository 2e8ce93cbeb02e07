"""The links a table shares point where friends reach the server (server/share.py): a
page opened on localhost shares the local network's address that ``darkcity serve
--host 0.0.0.0`` found, or says that nobody else can open it; any other page shares its
own address. The invite link, its QR code, the preview's picture and ``/api/meta`` all
follow that one rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from darkcity.server.app import create_app
from darkcity.server.config import ServerConfig
from darkcity.server.qr import qr_svg
from darkcity.server.share import is_loopback, lan_address, serve_share_url

LAN = "http://192.168.1.23:8000"


def test_loopback_names_and_addresses() -> None:
    for host in ("localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.8.9.1", "::1",
                 "[::1]"):
        assert is_loopback(host), host
    for host in ("192.168.1.23", "10.0.0.5", "darkcity.example", "0.0.0.0", "", "::"):
        assert not is_loopback(host), host
    found = lan_address()  # this machine's, or None without a network
    assert found is None or not is_loopback(found)


def test_what_darkcity_serve_tells_its_pages_to_share() -> None:
    assert serve_share_url("0.0.0.0", 8000, "192.168.1.23") == LAN
    assert serve_share_url("::", 8080, "10.0.0.5") == "http://10.0.0.5:8080"
    assert serve_share_url("0.0.0.0", 8000, None) == ""  # no network found: nothing to say
    assert serve_share_url("127.0.0.1", 8000, "192.168.1.23") == ""  # nobody else gets in
    assert serve_share_url("localhost", 8000, "192.168.1.23") == ""
    assert serve_share_url("192.168.1.40", 8000, "192.168.1.23") == "http://192.168.1.40:8000"
    assert serve_share_url("fe80::1", 8000, None) == "http://[fe80::1]:8000"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers: one that found the local network (``--host 0.0.0.0``), one that
    listens on this computer only."""
    with TestClient(create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'a.sqlite3'}",
                                            share_url=LAN))) as lan, \
            TestClient(create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'b.sqlite3'}"))
                       ) as alone:
        yield lan, alone


def test_a_page_on_localhost_shares_the_local_networks_address(
        app: tuple[TestClient, TestClient]) -> None:
    lan, _ = app
    local = {"host": "localhost:8000"}
    assert lan.get("/api/meta", headers=local).json()["invite_base"] == LAN
    assert lan.get("/api/meta", headers=local).json()["reachable"] is True
    code = lan.post("/api/rooms", json={"name": "Ana", "players": 4}).json()["code"]
    qr = lan.get(f"/r/{code}/qr.svg", headers={"host": "127.0.0.1:8000"})
    assert qr.content == qr_svg(f"{LAN}/r/{code}", f"{LAN}/r/{code}")
    page = lan.get(f"/r/{code}", headers=local).text
    assert f'property="og:image" content="{LAN}/static/icon-512.png"' in page
    # a page opened from elsewhere shares its own address, as a deployment's proxy gives it
    other = {"host": "darkcity.example"}
    assert lan.get("/api/meta", headers=other).json()["invite_base"] == "http://darkcity.example"
    qr = lan.get(f"/table/{code}/qr.svg", headers=other)
    assert qr.content == qr_svg(f"http://darkcity.example/table/{code}",
                                f"http://darkcity.example/table/{code}")


def test_a_server_on_this_computer_only_says_nobody_else_can_open_its_links(
        app: tuple[TestClient, TestClient]) -> None:
    _, alone = app
    meta = alone.get("/api/meta", headers={"host": "127.0.0.1:8000"}).json()
    assert meta == {**meta, "invite_base": "http://127.0.0.1:8000", "reachable": False}
    assert alone.get("/api/meta", headers={"host": "192.168.1.23:8000"}).json()["reachable"]


def test_darkcity_serve_sets_the_share_url_for_every_worker(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """``serve`` hands ``ServerConfig`` the address ``share.py`` worked out (and its
    workers the variable); a ``DARKCITY_SHARE_URL`` of the deployment wins."""
    import darkcity.cli.server as cs
    import darkcity.server as server
    import darkcity.server.share as share

    seen: dict[str, object] = {}

    def run(app: object, **options: object) -> None:
        seen["config"] = app

    monkeypatch.setattr(share, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setattr("uvicorn.run", run)
    monkeypatch.setattr(server, "create_app", lambda cfg: cfg)  # the config, not an app
    monkeypatch.delenv("DARKCITY_SHARE_URL", raising=False)
    cs.serve(host="0.0.0.0", port=8000, db="sqlite://", keep_days=None, redis=None,
             workers=1, lang="en")
    assert seen["config"].share_url == LAN  # type: ignore[attr-defined]
    cs.serve(host="127.0.0.1", port=8000, db="sqlite://", keep_days=None, redis=None,
             workers=1, lang="en")
    assert seen["config"].share_url == ""  # type: ignore[attr-defined]
    monkeypatch.setenv("DARKCITY_SHARE_URL", "https://darkcity.example")
    cs.serve(host="0.0.0.0", port=8000, db="sqlite://", keep_days=None, redis=None,
             workers=1, lang="en")
    assert seen["config"].share_url == "https://darkcity.example"  # type: ignore[attr-defined]
