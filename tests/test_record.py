"""The game record ``darkcity-game/1``: written, read, replayed; divergences
found with their night and phase; the ``selfplay`` and ``replay`` commands."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from darkcity.cli import app
from darkcity.game import play_randomly
from darkcity.notation import adjudicate, write_round
from darkcity.record import GAME_FORMAT, RecordError, replay, write_record
from darkcity.settings import bot_rng

from .test_game import CASES, new_game

runner = CliRunner()


def _record(deck: str = "death-alien-7", n: int = 7, seed: int | str = 4) -> dict[str, Any]:
    g = new_game(deck, n, seed)
    play_randomly(g, bot_rng(seed))
    doc = json.loads(json.dumps(write_record(g)))
    assert isinstance(doc, dict)
    return doc


@pytest.mark.parametrize(("deck", "n"), CASES)
def test_records_replay_identically(deck: str, n: int) -> None:
    """Same seed, same decisions, same game, bit for bit."""
    doc = _record(deck, n, 17)
    r = replay(doc)
    assert r.ok, r.divergence
    assert json.loads(json.dumps(write_record(r.game))) == doc


def test_each_night_is_a_standalone_round_document() -> None:
    """Each round is what ``write_round`` writes, with the journals before the
    night and the sheet, so adjudicating it alone gives the recorded result."""
    g = new_game("mummy-voodoo-7", 8, 8)
    play_randomly(g, bot_rng(8))
    doc = write_record(g)
    assert doc["format"] == GAME_FORMAT
    for rec, nd in zip(g.nights, doc["nights"], strict=True):
        assert nd["round"] == write_round(rec.night)
        assert nd["round"]["journal_roles"] == [r.key for r in g.sheet]
        assert set(nd["round"]["journals"]) == set(g.players)
        assert adjudicate(nd["round"]) == nd["result"]


def test_draft_is_recorded() -> None:
    """Who received which hand and kept what; the three face-down cards."""
    doc = _record()
    for nd in doc["nights"]:
        picks = nd["draft"]["picks"]
        assert len(nd["draft"]["face_down"]) == 3
        assert picks[0]["player"] == nd["active"]
        for p in picks:
            assert p["took"] in ("hand", "face-down", "death")
            if p["took"] == "hand":
                assert p["card"] in p["hand"]
            if p["took"] == "face-down":
                assert p["card"] in nd["draft"]["face_down"]
            if p["took"] == "death":
                assert "hand" not in p and p["names"] != p["player"]
            assert nd["round"]["cards"][p["player"]]["role"] == p["card"].split(":")[0]


def _tamper(doc: dict[str, Any], night: int, fn: Any) -> dict[str, Any]:
    d = copy.deepcopy(doc)
    fn(d["nights"][night - 1])
    return d


def test_divergence_in_the_draft() -> None:
    doc = _record()
    bad = _tamper(doc, 2, lambda nd: nd["draft"]["picks"][0]["hand"].reverse())
    r = replay(bad)
    assert r.divergence is not None
    assert (r.divergence.night, r.divergence.phase) == (2, "draft")
    bad = _tamper(doc, 1, lambda nd: nd["draft"]["face_down"].reverse())
    assert replay(bad).divergence is not None
    assert str(replay(bad).divergence).startswith("night 1, draft")


def test_divergence_in_a_gesture() -> None:
    doc = _record()

    def point_at_self(nd: dict[str, Any]) -> None:
        rnd = nd["round"]
        p = next(p for p, g in rnd["gestures"].items() if g.get("targets"))
        rnd["gestures"][p]["targets"] = [p] * len(rnd["gestures"][p]["targets"])

    r = replay(_tamper(doc, 1, point_at_self))
    assert r.divergence is not None and r.divergence.night == 1
    assert r.divergence.phase == "gesture"


def test_divergence_in_the_result() -> None:
    doc = _record()
    bad = _tamper(doc, 3, lambda nd: nd["result"]["winners"].append("Ana"))
    r = replay(bad)
    assert r.divergence is not None
    assert (r.divergence.night, r.divergence.phase) == (3, "result")
    assert "winners" in r.divergence.message


def test_divergence_when_the_record_goes_on_or_stops_early() -> None:
    doc = _record()
    longer = copy.deepcopy(doc)
    longer["nights"].append(copy.deepcopy(doc["nights"][-1]))
    r = replay(longer)
    assert r.divergence is not None and r.divergence.phase == "end"
    shorter = copy.deepcopy(doc)
    shorter["nights"].pop()
    r = replay(shorter)
    assert r.divergence is not None and r.divergence.phase == "end"


def test_not_a_record() -> None:
    with pytest.raises(RecordError, match="format"):
        replay({"format": "darkcity-round/1"})
    with pytest.raises(RecordError, match="settings"):
        replay({"format": GAME_FORMAT, "settings": {"players": ["A", "B", "C", "D"],
                                                    "deck": {"cards": ["dragon"]}}, "seed": 1})


def test_cli_selfplay_then_replay(tmp_path: Path) -> None:
    """``darkcity selfplay --players 6 --seed 7 --out game.json`` then ``replay``."""
    out = tmp_path / "game.json"
    res = runner.invoke(app, ["selfplay", "--players", "6", "--seed", "7", "--out", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["seed"] == 7 and len(doc["settings"]["players"]) == 6
    res = runner.invoke(app, ["replay", str(out)])
    assert res.exit_code == 0 and res.output.startswith("ok:"), res.output
    res = runner.invoke(app, ["replay", str(out), "--night", "1"])
    assert res.exit_code == 0 and res.output.startswith("Night 1"), res.output
    res = runner.invoke(app, ["replay", str(out), "--night", "999"])
    assert res.exit_code == 2
    again = tmp_path / "again.json"
    runner.invoke(app, ["selfplay", "--players", "6", "--seed", "7", "--out", str(again)])
    assert again.read_bytes() == out.read_bytes()


def test_cli_replay_reports_divergence(tmp_path: Path) -> None:
    doc = _record()
    doc["nights"][1]["result"]["winners"] = ["Zed"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 1 and "night 2, result" in res.output


def test_cli_errors(tmp_path: Path) -> None:
    res = runner.invoke(app, ["selfplay", "--players", "5", "--deck", "angel-alien-6"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert res.exit_code == 2
    (tmp_path / "x.json").write_text("{", encoding="utf-8")
    assert runner.invoke(app, ["replay", str(tmp_path / "x.json")]).exit_code == 2
    res = runner.invoke(app, ["selfplay", "--players", "6", "--deck", "reporter-death-6",
                              "--seed", "abc"])
    assert res.exit_code == 0 and json.loads(res.stdout)["seed"] == "abc"
