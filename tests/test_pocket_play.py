"""The pocket app's play (``darkcity.pocket.play``, issue #30): the worker's side of a
solo game, called with JSON text and answering JSON text as ``worker.js`` will, with
nothing of the server, asyncio, the web framework, the database or sockets.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

from darkcity.pocket import play

from .conftest import ROOT

BLOCKED = ("asyncio", "fastapi", "starlette", "sqlalchemy", "uvicorn", "socket",
           "pydantic", "orjson")

#: The worker's loop: hand the page's decision in, or move time to the next instant due.
_GAME = """
import json, random, sys
for name in BLOCKED:
    sys.modules[name] = None
from darkcity.pocket.play import call


def ask(op, **args):
    answer = json.loads(call(op, json.dumps(args)))
    assert "value" in answer, answer
    return answer["value"]


now = 1000.0
got = ask("create", body={"name": "Ana", "players": 6, "level": "heuristic"},
          lang="pt_BR", now=now)
code, kinds, stored, sent, acks = got["code"], set(), [], 0, 0
rng, view, answered = random.Random(3), None, -1
while True:
    for m in got["messages"]:
        kinds.add(m["type"])
        if m["type"] == "error":  # the Mayor was counting: asked again after the reveal
            assert m["code"] == "counting", m
            answered = -1
        acks += "ack" in m or m["type"] == "ack"
        for s in (m, m.get("state")):
            if isinstance(s, dict) and s.get("type") == "state":
                view = s["view"]
    stored += got["stored"]
    if got["status"] == "over" and got["due"] is None:
        break
    if view and view["choices"] and "Ana" in view["pending"] and \\
            view["decision_id"] != answered:
        choice = dict(rng.choice(view["choices"]))
        choice.pop("player")
        answered = view["decision_id"]
        got = ask("send", code=code, message={"type": "decide", "at": answered,
                                               "decision": choice}, now=now)
        sent += 1
        continue
    assert got["due"] is not None, "stuck"
    now = max(now, got["due"])
    got = ask("advance", code=code, now=now)
record = ask("record", code=code)
from darkcity.record import replay
replayed = replay(record)  # as `darkcity replay` reads it
assert replayed.ok, replayed.divergence
print(json.dumps({"kinds": sorted(kinds), "stored": [s["seq"] for s in stored],
                  "sent": sent, "acks": acks, "winners": view["winners"],
                  "record": record["format"], "record_winners": record["winners"],
                  "replayed": list(replayed.game.winners), "nights": len(record["nights"]),
                  "server": sorted(n for n in sys.modules if n.startswith("darkcity.server"))}))
"""


def test_a_solo_game_through_the_workers_calls_with_nothing_of_the_server() -> None:
    code = f"BLOCKED = {BLOCKED!r}\n" + _GAME
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["winners"] and out["server"] == []
    assert {"welcome", "state", "count"} <= set(out["kinds"])
    # every stored decision handed on once, in order, for IndexedDB; the record holds them
    assert out["stored"] == list(range(len(out["stored"]))) and out["stored"]
    assert out["record"] == "darkcity-game/1" and out["nights"] > 0
    assert out["record_winners"] == out["replayed"] == out["winners"]
    assert out["sent"] == out["acks"] > 0


def _call(op: str, **args: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(play.call(op, json.dumps(args)))
    return answer


def test_bad_requests_are_answered_with_what_is_wrong() -> None:
    e = _call("create", body={"players": 5}, lang="en", now=0)["error"]
    assert e["code"] == "invalid" and "name" in e["message"]
    e = _call("create", body={"name": "Ana", "players": "six"}, lang="pt_BR", now=0)["error"]
    assert e["code"] == "invalid" and "players" in e["message"]
    e = _call("create", body={"name": "Ana", "players": 5, "level": "genius"}, lang="en",
              now=0)["error"]
    assert e["code"] == "bad-level" and "genius" in e["message"]
    e = _call("create", body={"name": "Ana", "players": 5, "cards": []}, lang="en",
              now=0)["error"]
    assert e["code"] == "bad-deck"
    e = _call("create", body={"name": "Ana", "players": 5, "pace": "slow"}, lang="en",
              now=0)["error"]
    assert e["code"] == "bad-pace"
    e = _call("advance", code="NOPE", now=0)["error"]
    assert e["status"] == 404 and e["code"] == "no-room"
    e = _call("advance", code="NOPE")["error"]
    assert e["code"] == "invalid" and "now" in e["message"]
    e = _call("dance")["error"]
    assert e["code"] == "bad-op"
    e = json.loads(play.call("advance", "{not json"))["error"]
    assert e["code"] == "invalid"


def test_a_game_resumes_from_what_the_worker_saved() -> None:
    """The rows and decisions each answer handed on (what IndexedDB keeps) give the game
    back after a reload: the person's page opens on the same decision point, and a
    damaged save is refused in words."""
    got = _call("create", body={"name": "Ana", "players": 5, "level": "random"}, lang="en",
                now=100)["value"]
    code, row, stored, now = got["code"], got["row"], list(got["stored"]), 100.0
    while len(stored) < 30:
        now = max(now, got["due"])
        got = _call("advance", code=code, now=now)["value"]
        stored += got["stored"]
        row = got["row"]
    assert [d["seq"] for d in stored] == list(range(len(stored)))
    game = play._games[code].host.room.game
    assert game is not None
    point = game.decision_point().id
    _call("forget", code=code)
    back = _call("resume", code=code, row=row, decisions=stored, now=now + 60)["value"]
    welcome = back["messages"][0]
    assert welcome["type"] == "welcome" and welcome["member"] == back["member"] == 1
    assert back["stored"] == [] and back["status"] == "playing"
    assert welcome["state"]["view"]["decision_id"] == point
    e = _call("resume", code=code, row={"config": {}}, decisions=[], now=0)["error"]
    assert e["code"] == "bad-saved"
    e = _call("resume", code=code, row=row, decisions="all", now=0)["error"]
    assert e["code"] == "invalid" and "decisions" in e["message"]


def _played(n: int) -> tuple[str, dict[str, Any], list[dict[str, Any]], float]:
    """A solo game against random bots to its ``n``-th stored decision: its code, its
    row and the decisions as the worker saved them, and the time then."""
    got = _call("create", body={"name": "Ana", "players": 5, "level": "random"}, lang="en",
                now=100)["value"]
    code, row, stored, now = got["code"], got["row"], list(got["stored"]), 100.0
    while len(stored) < n:
        now = max(now, got["due"])
        got = _call("advance", code=code, now=now)["value"]
        stored += got["stored"]
        row = got["row"]
    _call("forget", code=code)
    return code, row, stored, now


def test_a_damaged_save_opens_at_its_last_consistent_decision_the_rest_named() -> None:
    """Two tabs that wrote one game left ``[0, 1 ... 9, 9, 10 ...]`` (issue #50): it
    opens at decision 10, says in words that the rest was set aside (and how many), and
    goes on from there; a decision the game refuses is cut the same way."""
    code, row, stored, now = _played(30)
    other = [dict(d) for d in stored[9:]]  # the second tab's, from the same place
    damaged = stored[:10] + other
    back = _call("resume", code=code, row=row, decisions=damaged, now=now, lang="pt_BR")
    value = back["value"]
    assert value["repaired"] == {"kept": 10, "set_aside": len(damaged) - 10,
                                 "night": value["repaired"]["night"]}
    notice = value["messages"][0]
    assert notice["type"] == "notice" and str(len(damaged) - 10) in notice["message"]
    assert "aside" not in notice["message"]  # (in the reader's language)
    assert value["messages"][1]["type"] == "welcome"
    game = play._games[code].host.room.game
    assert game is not None and len(game.log) == 10
    # it goes on: the next decision stored takes place 10
    later = _call("advance", code=code, now=now + 5)["value"]
    assert [d["seq"] for d in later["stored"]][:1] in ([], [10])
    _call("forget", code=code)
    # a decision the game refuses (a pick of a card nobody holds): cut before it
    bad = [dict(d) for d in stored]
    bad[12] = {**bad[12], "decision": {"type": "nonsense", "player": "Ana"}}
    value = _call("resume", code=code, row=row, decisions=bad, now=now)["value"]
    assert value["repaired"]["kept"] == 12 and value["repaired"]["set_aside"] == len(bad) - 12
    _call("forget", code=code)
    # an intact save opens whole, with nothing said
    value = _call("resume", code=code, row=row, decisions=stored, now=now)["value"]
    assert value["repaired"] is None and value["messages"][0]["type"] == "welcome"
    _call("forget", code=code)


def test_the_list_of_games_names_whose_game_it_is() -> None:
    """Each answer carries the game's summary (the people, the bots and their levels,
    the night, who leads); a saved game is read without being taken (``saved``)."""
    got = _call("create", body={"names": ["Ana", "Bia"], "players": 5, "level": "random"},
                lang="en", now=0)["value"]
    s = got["summary"]
    assert s["people"] == ["Ana", "Bia"] and len(s["bots"]) == 3
    assert {b["level"] for b in s["bots"]} == {"random"} and all(b["name"] for b in s["bots"])
    assert s["record"] is False and s["over"] is False
    _call("forget", code=got["code"])
    code, row, stored, now = _played(40)
    read = _call("saved", code=code, row=row, decisions=stored, now=now)["value"]
    assert read["summary"]["people"] == ["Ana"] and read["summary"]["night"] >= 1
    assert code not in play._games  # nothing kept
    e = _call("saved", code=code, row=row, decisions=stored, now=now, record=True)["error"]
    assert e["code"] == "not-over"  # a record only once the game is over


def test_a_refused_move_comes_back_as_the_sockets_error_message() -> None:
    got = _call("create", body={"name": "Ana", "players": 4, "level": "random",
                                "start": False}, lang="en", now=0)["value"]
    assert got["messages"][0]["type"] == "welcome"
    assert got["status"] == "lobby" and got["due"] is not None  # the lobby's broadcast
    sent = _call("send", code=got["code"], message={"type": "decide", "at": 0,
                                                    "decision": {"type": "free-xp"}},
                 now=1)["value"]
    errors = [m for m in sent["messages"] if m["type"] == "error"]
    assert errors and errors[0]["code"] == "not-playing"
    _call("forget", code=got["code"])
    assert _call("advance", code=got["code"], now=2)["error"]["code"] == "no-room"


def _views(got: dict[str, Any]) -> list[dict[str, Any]]:
    """The views in one answer's messages (a state, or a welcome's state)."""
    found = []
    for m in got["messages"]:
        for s in (m, m.get("state")):
            if isinstance(s, dict) and s.get("type") == "state":
                found.append(s["view"])
    return found


def test_a_phone_passed_from_hand_to_hand_shows_each_person_only_their_own() -> None:
    """Two people and two bots on one phone: the page is the table as everyone sees it
    (no hand, no choices) until one person asks for theirs; after their decision it is
    everyone's again. Nobody is played by a bot for being away, and a night is told."""
    now = 1000.0
    got = _call("create", body={"names": ["Ana", "Bia"], "players": 4, "level": "heuristic",
                                "pace": "fast"}, lang="en", now=now)["value"]
    code = got["code"]
    assert got["member"] is None  # the table as everyone sees it
    members = {s["name"]: s["member"] for s in next(
        m["lobby"] for m in got["messages"] if m.get("lobby"))["seats"] if s["kind"] == "human"}
    assert set(members) == {"Ana", "Bia"}
    rng, view, shown, stored = random.Random(5), None, [], list(got["stored"])
    for _step in range(2000):
        for v in _views(got):
            assert v["viewer"] is None and v["hand"] is None and v["choices"] == []
            view = v
        if (view and view["night"] >= 2) or got["status"] == "over":
            break
        waiting = [n for n in ("Ana", "Bia") if view and n in view["pending"]]
        if waiting:
            name = waiting[0]
            mine = _call("view", code=code, member=members[name], now=now)["value"]
            assert mine["member"] == members[name]
            v = _views(mine)[-1]
            assert v["viewer"] == name and v["choices"]
            choice = dict(rng.choice(v["choices"]))
            choice.pop("player")
            sent = _call("send", code=code, message={"type": "decide", "at": v["decision_id"],
                                                     "decision": choice}, now=now)["value"]
            shown.append(name)
            got = _call("view", code=code, member=None, now=now)["value"]
            stored += mine["stored"] + sent["stored"] + got["stored"]
            continue
        assert got["due"] is not None, "stuck"
        now = max(now, got["due"])
        got = _call("advance", code=code, now=now)["value"]
        stored += got["stored"]
    assert view is not None and (view["night"] >= 2 or got["status"] == "over")
    assert {"Ana", "Bia"} <= set(shown)
    # every decision of theirs is their own: none was played by a bot for being away
    assert {d["source"] for d in stored} <= {"player", "bot"}, {d["source"] for d in stored}
    assert stored and [d["seq"] for d in stored] == list(range(len(stored)))
    # one person alone cannot ask for another's view; a solo game has no views to switch
    e = _call("view", code=code, member=99, now=now)["error"]
    assert e["code"] == "invalid" and "member" in e["message"]
    solo = _call("create", body={"name": "Ana", "players": 4}, lang="en", now=now)["value"]
    e = _call("view", code=solo["code"], member=None, now=now)["error"]
    assert e["code"] == "invalid"
    # the same name twice is refused in words
    e = _call("create", body={"names": ["Ana", "ana"], "players": 4}, lang="en", now=now)
    assert e["error"]["code"] == "name-taken"
