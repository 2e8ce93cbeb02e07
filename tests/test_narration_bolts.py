"""A Hunter's two bolts at one player are two attacks (R-33), told as a Mayor would: the
first's outcome, then "the second bolt too", never the same sentence twice. The
result's events keep both attacks; only their words differ."""

from __future__ import annotations

from typing import Any

from darkcity.i18n import translator
from darkcity.narration import messages, render_all
from darkcity.night import resolve
from darkcity.notation import adjudicate, parse_round


def _night(bia_targets: list[str]) -> dict[str, Any]:
    return {
        "format": "darkcity-round/1",
        "players": ["Ana", "Bia", "Caio", "Duda"],
        "cards": {"Ana": {"role": "werewolf"},
                  "Bia": {"role": "hunter", "gender": "feminine", "edition": "advanced"},
                  "Caio": {"role": "devil"}, "Duda": {"role": "priest"}},
        "gestures": {"Ana": {"targets": ["Caio"]}, "Bia": {"targets": bia_targets},
                     "Caio": {"shows": "vampire", "targets": ["Duda"]}, "Duda": {}},
    }


def test_two_bolts_at_one_werewolf_are_two_attacks_told_once_each() -> None:
    doc = adjudicate(_night(["Ana", "Ana"]))
    bolts = [e for e in doc["events"] if e["step"] == "5" and e["player"] == "Bia"]
    assert [e["event"] for e in bolts] == ["kill", "kill"]  # (two attacks: R-33)
    assert bolts[0]["text"] == "The Hunter (Bia) kills the Werewolf (Ana)."
    assert bolts[1]["text"] == "The Hunter (Bia) looses the second bolt at Ana too."
    assert doc["players"]["Ana"]["fate"] == "killed" and doc["players"]["Bia"]["xp"] == 1
    pt = adjudicate(_night(["Ana", "Ana"]), translator("pt_BR"))
    said = [e["text"] for e in pt["events"] if e["step"] == "5" and e["player"] == "Bia"]
    assert said[1] == "O Caçador (Bia) dispara também a segunda seta contra Ana."


def test_every_face_says_the_same_words() -> None:
    """The faces tell a night through render_all (the result, the views, the terminal,
    the records) or messages (the companion): one sentence each, the same."""
    doc = _night(["Caio", "Caio"])  # two bolts at the Devil: two misses
    doc["gestures"]["Ana"] = {"targets": ["Duda"]}  # (the Werewolf, then, spares the Devil)
    night = parse_round(doc)
    events = resolve(night).events
    for lang in ("en", "pt_BR"):
        t = translator(lang)
        assert render_all(events, night, t) == [t.render(m) for m in messages(events, night)]
    texts = render_all(events, night)
    misses = [x for e, x in zip(events, texts, strict=True) if e.key == "miss-devil"]
    assert misses == ["The Hunter (Bia) attacks the Devil (Caio) and misses: it was an "
                      "illusion.", "The Hunter (Bia) looses the second bolt at Caio too."]


def test_bolts_at_two_players_are_told_each_in_full() -> None:
    doc = adjudicate(_night(["Ana", "Caio"]))
    said = [e["text"] for e in doc["events"] if e["step"] == "5" and e["player"] == "Bia"]
    assert "second bolt" not in " ".join(said) and len(said) == 2
