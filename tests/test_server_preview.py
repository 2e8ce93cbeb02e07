"""The invite link's preview: the page ``/r/CODE`` carries, for a chat app that shows a
pasted link, who invites to what and what to do with it, in the room's language; a
name is escaped; a room that is not there gets the general description."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from darkcity.server.app import create_app
from darkcity.server.config import ServerConfig


class _Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if tag == "meta" and (key := a.get("property") or a.get("name")):
            self.meta[key] = a.get("content") or ""


def meta(client: TestClient, path: str) -> tuple[int, dict[str, str], int]:
    r = client.get(path)
    assert r.headers["content-type"].startswith("text/html")
    parser = _Meta()
    parser.feed(r.text)
    return r.status_code, parser.meta, parser.scripts


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'preview.sqlite3'}")
    with TestClient(create_app(cfg)) as c:
        yield c


def test_the_invite_link_says_who_invites_to_what(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"name": "Ana", "players": 6,
                                           "deck": "reporter-death-6"}).json()
    status, m, _ = meta(client, f"/r/{room['code']}")
    assert status == 200
    assert m["og:title"] == "Ana invites you to a table of Dark City"
    assert m["og:description"] == m["description"] == m["twitter:description"]
    assert m["og:description"].startswith("6 players · deck: Reporter and Death (6 players).")
    assert "type your name and take a seat" in m["og:description"]
    assert m["og:site_name"] == "Dark City" and m["og:locale"] == "en_US"
    lower = meta(client, f"/r/{room['code'].lower()}")[1]  # a code typed in lower case
    assert lower["og:title"] == m["og:title"]


def test_the_preview_speaks_the_rooms_language_and_follows_the_game(
        client: TestClient) -> None:
    room = client.post("/api/rooms", json={"name": "Bia", "players": 4,
                                           "lang": "pt_BR"}).json()
    m = meta(client, f"/r/{room['code']}")[1]
    assert m["og:title"] == "Bia convida você para uma mesa de Dark City"
    assert m["og:locale"] == "pt_BR"
    assert m["og:description"].startswith("4 jogadores")
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        ws.send_json({"type": "hello", "token": room["token"]})
        for seat in (1, 2, 3):
            ws.send_json({"type": "add-bot", "seat": seat, "level": "random"})
        ws.send_json({"type": "start"})
        while ws.receive_json(mode="binary")["type"] != "state":
            pass
    m = meta(client, f"/r/{room['code']}")[1]
    assert "partida em andamento" in m["og:description"], m


def test_a_name_is_escaped_and_a_missing_room_gets_the_general_preview(
        client: TestClient) -> None:
    name = '"><script>x()'  # a name is at most 24 characters
    made = client.post("/api/rooms", json={"name": name, "players": 4})
    assert made.status_code == 201, made.text
    status, m, scripts = meta(client, f"/r/{made.json()['code']}")
    assert status == 200 and scripts == 1  # the app's own script only
    assert m["og:title"] == f"{name} invites you to a table of Dark City"  # as text
    for path in ("/r/ZZZZZZ", "/"):
        status, m, _ = meta(client, path)
        assert status == 200
        assert m["og:title"] == "Dark City"
        assert m["og:description"].startswith("The party game of monsters and guardians")
    assert meta(client, "/no/such/page")[0] == 404


def test_the_preview_has_the_games_icon_at_an_absolute_address(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"name": "Bia", "players": 4,
                                           "lang": "pt_BR"}).json()
    m = meta(client, f"/r/{room['code']}")[1]
    # a crawler needs the whole URL: the address the request came to
    assert m["og:image"] == m["twitter:image"] == "http://testserver/static/icon-512.png"
    assert m["og:image:alt"] == "Dark City: uma lua crescente sobre uma cidade"
    png = client.get("/static/icon-512.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    body = png.content
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
    assert (width, height) == (int(m["og:image:width"]), int(m["og:image:height"])) == (512, 512)
    forwarded = client.get("/", headers={"host": "darkcity.example:8443"})
    assert 'content="http://darkcity.example:8443/static/icon-512.png"' in forwarded.text


def test_the_shared_links_come_as_qr_codes_of_this_sites_own_pages(client: TestClient) -> None:
    from darkcity.server.qr import qr_svg

    room = client.post("/api/rooms", json={"name": "Bia", "players": 4}).json()
    code = room["code"]
    for folder in ("r", "table"):
        url = f"http://testserver/{folder}/{code}"
        r = client.get(f"/{folder}/{code.lower()}/qr.svg")  # a code typed in lower case
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        assert r.content == qr_svg(url, url)  # segno's code of exactly that link
        svg = r.text
        assert svg.startswith("<svg") and "viewBox" in svg and f"<title>{url}</title>" in svg
        assert 'stroke="#000"' in svg  # dark modules on a light ground, whatever the theme
    for bad in ("/r/ABC/qr.svg", "/r/ABCDE1/qr.svg", "/table/IIIIII/qr.svg"):
        assert client.get(bad).status_code == 404, bad  # only well-formed codes
