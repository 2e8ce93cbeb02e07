"""Why nothing happened (issue #51): Phase 5 says, for every player who scores nothing,
the rule's reason in one line, in English and Portuguese.

The reason is decided by the role's goal function (``darkcity.night``: a ``why-...``
event, the ruling cited there) and said by ``darkcity.narration``; the result document
keeps its meaning (``events`` unchanged, an optional ``players[p].why``).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from darkcity import adjudicate, read_round, resolve
from darkcity.i18n import translator
from darkcity.narration import MESSAGES, WHY_KEYS, render

from .conftest import SCENARIOS
from .helpers import play, rnd
from .strategies import rounds

FILES = sorted(SCENARIOS.glob("*.json")) if SCENARIOS.is_dir() else []
EN, PT = translator("en"), translator("pt_BR")
PLACEHOLDER = re.compile(r"\{[a-z_]+(:[A-Za-z]+)?\}")


def _whys(doc: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    """player -> (reason key, English line, Portuguese line), for a round document."""
    night = read_round(copy.deepcopy(doc))
    res = resolve(night)
    out = {}
    for p in night.players:
        e = res.why(p)
        if e is not None:
            out[p] = (e.key, render(e, night, EN), render(e, night, PT))
    return out


def _said(line: str, lang: str) -> None:
    assert line and not PLACEHOLDER.search(line), (lang, line)


@pytest.mark.skipif(not FILES, reason="no ../shared/scenarios here")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_says_why_each_player_scored_nothing(path: Path) -> None:
    """Every adjudicated night: one reason for each player with 0 XP (the withdrawn and
    Death included), none for a player who scored; said in both languages."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    got = adjudicate(doc)
    whys = _whys(doc)
    for p, r in got["players"].items():
        if r["xp"]:
            assert p not in whys and "why" not in r, p
            continue
        key, en, pt = whys[p]
        assert key in WHY_KEYS
        assert en.startswith(f"{p} earns no XP: "), en
        assert pt.startswith(f"{p} não ganha XP: "), pt
        _said(en, "en")
        _said(pt, "pt_BR")
        assert r["why"]["event"] == key and r["why"]["text"] == en


def test_every_reason_is_translated() -> None:
    """Each ``why-...`` message has its Portuguese (not the English id) and one line."""
    for key in WHY_KEYS:
        msgid = MESSAGES[key]
        assert PT(msgid) != msgid, key
        assert "\n" not in msgid


def test_the_result_document_keeps_its_events() -> None:
    """The reasons never enter the document's ``events``: those are the night's steps
    and each player's XP, as before; ``why`` is a player's optional field."""
    res = play({"Ana": "hunter", "Bia": "priest", "Caio": "vampire", "Duda": "werewolf"},
               {"Ana": ["Bia", "Caio"], "Caio": "Duda", "Duda": "Bia"})
    assert not [e for e in res["events"] if e["event"].startswith("why-")]
    assert [e["event"] for e in res["events"] if e["step"] == "end"] == []
    assert res["players"]["Ana"]["why"] == {
        "event": "why-hunter-guardian", "target": "Bia",
        "text": "Ana earns no XP: the Hunter killed a guardian, the Priest (Bia)."}


# One night a reason: what the rulebooks say, in the Mayor's words (the cases).
CASES: list[tuple[str, dict[str, str], dict[str, Any], dict[str, Any], str, str]] = [
    # Bia's Hunter killed Bento, who was showing the Priest (the night)
    ("why-hunter-guardian", {"Bia": "hunter", "Bento": "priest", "Caio": "vampire",
                             "Duda": "zombie"},
     {"Bia": ["Bento", "Caio"], "Caio": "Duda", "Duda": "Caio"}, {}, "Bia",
     "Bia não ganha XP: o Caçador eliminou um guardião, o Sacerdote (Bento)."),
    #
    ("why-withdrew", {"Ana": "vampire", "Bia": "werewolf", "Caio": "priest", "Duda": "zombie"},
     {"Ana": "Bia", "Bia": "Caio", "Duda": "Caio"}, {"withdrawals": {"Ana": True}}, "Ana",
     "Ana não ganha XP: quem desiste não ganha pontos de experiência."),
    # the target fled
    ("why-target-fled", {"Ana": "vampire", "Bia": "werewolf", "Caio": "priest", "Duda": "zombie"},
     {"Ana": "Bia", "Bia": "Caio", "Duda": "Caio"}, {"withdrawals": {"Bia": True}}, "Ana",
     "Ana não ganha XP: Bia desistiu, e o ataque se perdeu."),
    # someone got there first
    ("why-target-gone", {"Ana": "vampire", "Bia": "werewolf", "Caio": "zombie", "Duda": "priest"},
     {"Ana": "Bia", "Bia": "Duda", "Caio": "Bia"}, {}, "Caio",
     "Caio não ganha XP: Bia já estava fora de combate; alguém chegou antes."),
    # killed before its turn came
    ("why-killed-early", {"Ana": "vampire", "Bia": "werewolf", "Caio": "priest",
                          "Duda": "zombie"},
     {"Ana": "Bia", "Bia": "Caio", "Duda": "Caio"}, {}, "Bia",
     "Bia não ganha XP: a eliminação veio antes da vez do Lobisomem."),
    # only the Werewolf or the Angel kills the Devil
    ("why-target-devil", {"Ana": "devil", "Bia": "vampire", "Caio": "priest", "Duda": "zombie"},
     {"Ana": {"shows": "priest"}, "Bia": "Ana", "Duda": "Caio"}, {}, "Bia",
     "Bia não ganha XP: Ana era o Demônio, que só o Lobisomem ou o Anjo conseguem eliminar."),
    # nobody withdrew
    ("why-devil-nobody-withdrew", {"Ana": "devil", "Bia": "vampire", "Caio": "priest",
                                   "Duda": "zombie"},
     {"Ana": {"shows": "vampire", "targets": ["Caio"]}, "Bia": "Caio", "Duda": "Caio"}, {},
     "Ana", "Ana não ganha XP: ninguém desistiu, e o Demônio só ganha XP quando alguém que "
     "ele enganou foge."),
    # the Reporter's flash
    ("why-immune-flash", {"Ana": "reporter", "Bia": "vampire", "Caio": "werewolf",
                          "Duda": "priest", "Enzo": "zombie", "Fred": "hunter"},
     {"Ana": ["Bia", "Caio"], "Bia": "Ana", "Caio": "Duda", "Enzo": "Fred",
      "Fred": ["Caio", "Enzo"]}, {}, "Bia",
     "Bia não ganha XP: o Repórter (Ana) apontava para o Vampiro, e é imune aos ataques "
     "de seus próprios alvos."),
    # the Voodooist's doll
    ("why-immune-doll", {"Ana": "voodooist", "Bia": "vampire", "Caio": "werewolf",
                         "Duda": "priest", "Enzo": "zombie", "Fred": "hunter"},
     {"Ana": {"kind": "vampire"}, "Bia": "Ana", "Caio": "Duda", "Enzo": "Fred",
      "Fred": ["Caio", "Enzo"]}, {}, "Bia",
     "Bia não ganha XP: a Voduísta (Ana) escolheu a boneca do Vampiro, e é imune ao seu "
     "ataque."),
    #
    ("why-attacked-priest", {"Ana": "vampire", "Bia": "werewolf", "Caio": "priest",
                             "Duda": "zombie"},
     {"Ana": "Caio", "Bia": "Duda", "Duda": "Ana"}, {}, "Ana",
     "Ana não ganha XP: o Vampiro atacou um Sacerdote (Caio)."),
    #
    ("why-demoniac-lived", {"Ana": "demoniac", "Bia": "vampire", "Caio": "werewolf",
                            "Duda": "priest", "Enzo": "zombie", "Fred": "hunter"},
     {"Bia": "Caio", "Caio": "Duda", "Enzo": "Fred", "Fred": ["Caio", "Enzo"]}, {}, "Ana",
     "Ana não ganha XP: a Possuída ansiava pela morte, e sobreviveu."),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_reason_as_the_rules_put_it(
        case: tuple[str, dict[str, str], dict[str, Any], dict[str, Any], str, str]) -> None:
    key, table, gestures, extra, who, pt = case
    res = play(table, gestures, **extra)
    why = res["players"][who]["why"]
    assert (res["players"][who]["xp"], why["event"]) == (0, key)
    in_pt = adjudicate(rnd(table, gestures, **extra), PT)
    assert in_pt["players"][who]["why"]["text"] == pt


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_every_generated_night_says_why(doc: dict[str, Any]) -> None:
    """Over random valid nights: exactly one Phase-5 line a player (its XP, or its
    reason), in seat order, after every other event."""
    night = read_round(copy.deepcopy(doc))
    res = resolve(night)
    tail = [e for e in res.events if e.key == "xp" or e.key in WHY_KEYS]
    assert [e.actor for e in tail] == list(range(len(night.players)))
    assert list(res.events[-len(tail):]) == tail
    for e in tail:
        assert (e.key == "xp") == (res.xp[e.actor] > 0)
        _said(render(e, night, PT), "pt_BR")
