"""Issue #6, the HTTP API and the WebSocket protocol: validation, limits, errors, i18n."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from darkcity.room.text import UI, catalog
from darkcity.server import ServerConfig, create_app

from .conftest import ROOT

APP_JS = ROOT / "src" / "darkcity" / "server" / "static" / "app.js"
# The web table's modules: app.js, js/*.js and what it shares with the companion,
# common/*.js (static/table/ is the companion's own page), and the pocket app's play
# page, which draws it with its room on the phone.
WEB_JS = (APP_JS, APP_JS.parent / "replay.js", *sorted((APP_JS.parent / "js").glob("*.js")),
          *sorted((APP_JS.parent / "common").glob("*.js")),
          *(ROOT / "src" / "darkcity" / "pocket" / "site" / f
            for f in ("play.js", "replay.js", "engine.js")))


def _web_js() -> str:
    return "\n".join(f.read_text(encoding="utf-8") for f in WEB_JS)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'ws.sqlite3'}", rate_per_s=5,
                       rate_burst=10, max_message_bytes=2048)
    with TestClient(create_app(cfg)) as c:
        yield c


@pytest.fixture
def fast_client(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'game.sqlite3'}", rate_per_s=1000,
                       rate_burst=1000)
    with TestClient(create_app(cfg)) as c:
        yield c


def _room(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/rooms", json={"name": "Ana", "players": 4, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _until(ws: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json(mode="binary")
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def _until_ack(ws: Any, limit: int = 50) -> tuple[dict[str, Any], dict[str, Any]]:
    """The next acknowledgement, and the message that carried it: a state, count or
    progress (or an ``ack`` alone)."""
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json(mode="binary")
        if m["type"] == "ack":
            return m, m
        if "ack" in m:
            assert m["type"] in ("state", "count", "progress"), m
            ack: dict[str, Any] = m["ack"]
            return ack, m
    raise AssertionError("no ack")


def test_http_api(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["levels"] == ["easy", "medium", "hard"]
    assert "basic" in [p["name"] for p in meta["presets"]]
    room = _room(client)
    assert re.fullmatch(r"[A-Z2-9]{6}", room["code"]) and len(room["token"]) >= 32
    lobby = client.get(f"/api/rooms/{room['code'].lower()}").json()
    assert lobby["seats"][0]["name"] == "Ana" and "token" not in json.dumps(lobby)
    joined = client.post(f"/api/rooms/{room['code']}/join", json={"name": "Bia"})
    assert joined.status_code == 201
    again = client.post(f"/api/rooms/{room['code']}/join", json={"name": "Bia"},
                        headers={"Accept-Language": "pt-BR"})
    assert again.status_code == 400 and again.json()["code"] == "name-taken"
    assert again.json()["message"] == "Alguém nesta sala já se chama Bia."
    assert client.get("/api/rooms/ZZZZZZ").status_code == 404
    assert client.get(f"/api/rooms/{room['code']}/record").status_code == 409
    bad = client.post("/api/rooms", json={"name": "Ana", "players": 9})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid"
    assert "players" in bad.json()["message"]
    deck = client.post("/api/rooms", json={"name": "Ana", "players": 4, "deck": "undead-7"})
    assert deck.status_code == 400 and deck.json()["code"] == "bad-deck"
    extra = client.post("/api/rooms", json={"name": "Ana", "sneaky": 1})
    assert extra.status_code == 422
    big = client.post("/api/rooms", content=b'{"name": "' + b"x" * 5000 + b'"}',
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and big.json()["code"] == "too-big"  # issue #13
    page = client.get(f"/r/{room['code']}")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/common/dom.js").status_code == 200  # shared with /table


def test_every_ui_text_is_in_both_catalogs() -> None:
    used = {x.replace('\\"', '"')  # a JS string's \" is the text's "
            for x in re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', _web_js())}
    assert used <= set(UI), sorted(used - set(UI))
    en, pt = catalog("en"), catalog("pt_BR")
    assert en["ui"]["Now!"] == "Now!" and pt["ui"]["Now!"] == "Já!"
    assert pt["roles"]["demoniac"] == "Possuída"
    untranslated = [k for k, v in pt["ui"].items() if v == k and not k.isdigit()
                    and k not in ("XP", "{n} XP")]
    assert not untranslated
    for group in ("goals", "gestures", "effects", "phases", "fates", "marks", "presets"):
        assert pt[group].keys() == en[group].keys()
        assert any(pt[group][k] != en[group][k] for k in en[group])
    assert len(WEB_JS) > 1 and "innerHTML" not in _web_js()  # names stay text


def test_protocol_validation_errors(client: TestClient) -> None:
    room = _room(client)
    with client.websocket_connect(f"/ws/{room['code']}?lang=pt") as ws:
        ws.send_text(json.dumps({"type": "ping", "t": 1}))
        e = _until(ws, "error")
        assert e["code"] == "hello-first" and e["message"] == "Apresente-se primeiro."
        ws.send_text("not json")
        assert _until(ws, "error")["code"] == "invalid"
        ws.send_text(json.dumps({"type": "hello", "token": "forged", "lang": "en"}))
        e = _until(ws, "error")
        assert e["code"] == "bad-token"
        welcome = _until(ws, "welcome")
        assert welcome["member"] is None  # a spectator
        ws.send_text(json.dumps({"type": "hello"}))
        assert _until(ws, "error")["code"] == "hello-twice"
        ws.send_text(json.dumps({"type": "launch-missiles"}))
        e = _until(ws, "error")
        assert e["code"] == "invalid" and e["msgid"].startswith("Invalid message")
        ws.send_text(json.dumps({"type": "sit", "seat": 99}))
        assert "seat" in _until(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "start", "extra": True}))
        assert _until(ws, "error")["code"] == "invalid"
        ws.send_text(json.dumps({"type": "start"}))
        assert _until(ws, "error")["code"] == "not-host"
        ws.send_text("x" * 3000)
        assert _until(ws, "error")["code"] == "too-big"
        ws.send_bytes(b"\x00\x01")
        assert _until(ws, "error")["code"] == "binary"
        ws.send_text(json.dumps({"type": "decide", "at": 1, "decision": {}}))
        assert _until(ws, "error")["code"] == "not-playing"
        for _ in range(30):
            ws.send_text(json.dumps({"type": "ping", "t": 0}))
        codes = []
        for _ in range(60):
            m = ws.receive_json(mode="binary")
            if m["type"] == "error":
                codes.append(m["code"])
                break
        assert "rate-limited" in codes


@pytest.mark.slow  # a whole game over the socket: 23-27 s on the loaded 2-core machine
def test_a_short_game_over_the_socket_with_acks(fast_client: TestClient) -> None:
    client = fast_client
    room = _room(client, decide_s=30, beat_s=0, bot_delay_s=0)
    code, token = room["code"], room["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert _until(ws, "welcome")["member"] == 1
        for seat in (1, 2, 3):
            ws.send_text(json.dumps({"type": "add-bot", "seat": seat, "level": "random"}))
        ws.send_text(json.dumps({"type": "start"}))
        decided = 0
        seen_over = False
        carrier: dict[str, Any] | None = None  # the message an ack came on: read it too
        for _ in range(20000):
            m = carrier or ws.receive_json(mode="binary")
            carrier = None
            assert m["type"] != "error" or m["code"] in ("counting", "late", "stale"), m
            if m["type"] != "state":
                continue
            v = m["view"]
            assert v["viewer"] == "Ana"
            if v["phase"] == "over":
                seen_over = True
                break
            if v["choices"]:
                c = dict(v["choices"][0])
                c.pop("player")
                ws.send_text(json.dumps({"type": "decide", "at": v["decision_id"],
                                         "decision": c, "ref": f"r{decided}"}))
                ack, carrier = _until_ack(ws)
                assert ack["ref"] == f"r{decided}" and ack["at"] == v["decision_id"]
                assert carrier["type"] in ("state", "count"), carrier  # folded, not alone
                decided += 1
        assert seen_over and decided > 3
        record = client.get(f"/api/rooms/{code}/record")
        assert record.status_code == 200 and record.json()["format"] == "darkcity-game/1"


def test_the_start_rides_on_the_first_state_and_a_welcome_holds_the_state(
        fast_client: TestClient) -> None:
    """Issue #14: the lobby a game's start changes reaches the host on its first state
    (no lobby message of its own), and a connection to a game in progress gets its
    view inside its welcome (one message, not two)."""
    client = fast_client
    room = _room(client, decide_s=30, bot_delay_s=5)
    code, token = room["code"], room["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        welcome = _until(ws, "welcome")
        assert "state" not in welcome and welcome["lobby"]["status"] == "lobby"
        for seat in (1, 2, 3):
            ws.send_text(json.dumps({"type": "add-bot", "seat": seat, "level": "random"}))
        assert _until(ws, "lobby")["lobby"]["seats"][3]["kind"] == "bot"
        ws.send_text(json.dumps({"type": "start"}))
        seen: list[dict[str, Any]] = []
        for _ in range(20):
            m: dict[str, Any] = ws.receive_json(mode="binary")
            seen.append(m)
            if m["type"] == "state":
                break
        first = seen[-1]
        assert first["type"] == "state" and first["lobby"]["status"] == "playing", seen
        assert not [m for m in seen if m["type"] == "lobby"], seen  # it rode on the state
        with client.websocket_connect(f"/ws/{code}") as watcher:
            watcher.send_text(json.dumps({"type": "hello"}))
            held = _until(watcher, "welcome")
            assert held["member"] is None and held["lobby"]["status"] == "playing"
            state = held["state"]
            assert state["type"] == "state" and state["view"]["viewer"] is None
            assert state["view"]["decision_id"] == first["view"]["decision_id"]
