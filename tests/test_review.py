"""A game record stepped through night by night (``darkcity.review``, issue #30): each
step is the game as it stood once that night was told, the same from every seat for
the finished nights (R-114), and a bad record, night or viewer is refused in words."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from darkcity.i18n import translator
from darkcity.record import RecordError, replay, replay_to
from darkcity.review import step
from darkcity.views import view

from .test_record import _record


def test_each_step_is_the_game_once_that_night_was_told() -> None:
    doc = _record()
    nights = len(doc["nights"])
    assert nights >= 2
    whole = replay(doc).game
    for k in range(nights + 1):
        s = step(doc, k)
        v = s["view"]
        assert s["night"] == k and s["nights"] == nights
        assert [n["number"] for n in v["history"]] == list(range(1, k + 1))
        assert v["viewer"] is None and v["hand"] is None
        # the finished nights as the whole game tells them, step by step
        assert v["history"] == view(whole).to_dict()["history"][:k]
    last = step(doc, nights)
    assert last["over"] and last["winners"] == doc["winners"]


def test_a_players_step_is_theirs_and_the_nights_are_the_same_from_every_seat() -> None:
    doc = _record()
    seen: list[dict[str, Any]] = []
    for p in replay_to(doc, 1).players:
        s = step(doc, 1, p, translator("pt_BR"))
        assert s["view"]["viewer"] == p
        seen.append(s["view"]["history"])
    assert all(h == seen[0] for h in seen)  # public in full
    assert seen[0][0]["events"] and all(e["text"] for e in seen[0][0]["events"])


def test_a_bad_record_night_or_viewer_is_refused_in_words() -> None:
    doc = _record()
    with pytest.raises(RecordError, match="night"):
        step(doc, len(doc["nights"]) + 1)
    with pytest.raises(RecordError, match="night"):
        step(doc, -1)
    with pytest.raises(RecordError, match="viewer"):
        step(doc, 1, "Nobody")
    with pytest.raises(RecordError):
        step({"format": "darkcity-round/1"}, 0)
    broken = copy.deepcopy(doc)
    broken["nights"][0]["draft"]["face_down"] = ["nonsense"]
    with pytest.raises(RecordError, match="night 1"):
        step(broken, 1)
    assert step(broken, 0)["night"] == 0  # the steps before it stay readable


def test_the_server_steps_a_record_sent_to_it_and_refuses_a_bad_one(tmp_path: Any) -> None:
    """``POST /api/replay``: a record larger than any other body (the one route allowed
    ``max_record_bytes``), stepped by the engine; a bad one refused in the reader's
    language; ``/replay`` is the viewer's page."""
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from darkcity.server import ServerConfig, create_app

    doc = _record()
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(create_app(cfg)) as c:
        assert len(json.dumps(doc)) > cfg.max_body_bytes  # (only this route takes it)
        r = c.post("/api/replay", json={"record": doc, "night": 2, "viewer": None})
        assert r.status_code == 200, r.text
        assert [n["number"] for n in r.json()["view"]["history"]] == [1, 2]
        r = c.post("/api/replay", json={"record": doc, "night": 99},
                   headers={"Accept-Language": "pt-BR"})
        assert r.status_code == 422 and "noites 0 a" in r.json()["message"]
        r = c.post("/api/replay", json={"record": {"format": "nope"}, "night": 0})
        assert r.status_code == 422 and r.json()["code"] == "bad-record"
        r = c.post("/api/replay", json={"record": doc, "night": "two"})
        assert r.status_code == 422 and "night" in r.json()["message"]
        big = {"record": {**doc, "padding": "x" * (cfg.max_record_bytes + 1)}, "night": 0}
        assert c.post("/api/replay", json=big).status_code == 413
        page = c.get("/replay")
        assert page.status_code == 200 and "/static/replay.js" in page.text
