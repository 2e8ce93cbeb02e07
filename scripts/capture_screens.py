#!/usr/bin/env python3
"""Capture every kind of screen of ``darkcity play`` into ``docs/screens/``.

    python3 scripts/capture_screens.py            # English, SVG + text
    python3 scripts/capture_screens.py --lang pt  # Portuguese (files *.pt.*)

Each screen is rendered from a player's view exactly as the terminal game
draws it (``darkcity.tui.screens``), at a deterministic point of a seeded game
found by playing random legal decisions, and exported with Rich (``.svg`` to
look at, ``.txt`` to diff), 120 columns wide: each one fits a 120 x 40
terminal (``tests/test_tui_screens.py`` measures them through
:func:`captures`).
"""

from __future__ import annotations

import argparse
import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from darkcity.cast import Role
from darkcity.decisions import Phase
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.i18n import Translator, translator
from darkcity.narration import render_all
from darkcity.settings import Settings
from darkcity.tui import screens
from darkcity.tui.choices import ENTER, Question, next_question, refusal
from darkcity.tui.loop import table_info
from darkcity.tui.screens.seats import TableInfo
from darkcity.views import View, view

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screens"
NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
WIDTH, HEIGHT = screens.FIT


def find(deck: str, players: int, found: Callable[[Game, str], bool],
         seeds: int = 400) -> tuple[Game, str]:
    """The first decision point (seeds 0, 1 ...) where ``found(game, player)``."""
    for seed in range(seeds):
        game = Game(Settings(players=NAMES[:players], deck=preset(deck, players)), seed)
        rng = random.Random(seed)
        while not game.over and game.night < 30:
            for p in game.pending:
                if found(game, p):
                    return game, p
            p = game.pending[0]
            choices = game.legal(p)
            game.apply(choices[rng.randrange(len(choices))])
    raise LookupError(f"no such point in {deck}")


def card_is(role: Role) -> Callable[[Game, str], bool]:
    return lambda g, p: g.phase is Phase.GESTURE and g.cards[p].role is role


def questions(v: View, t: Translator, answers: list[int] | None = None) -> list[RenderableType]:
    """The questions of ``v``'s decision, answered with the given option indices."""
    out: list[RenderableType] = []
    picked: dict[str, Any] = {}
    answers = list(answers or [])
    while True:
        q = next_question(v.choices, picked, v.players)
        if not isinstance(q, Question):
            return out
        out.append(screens.question_screen(q, v, t, picked.get("first")))
        out.append(Text(screens.prompt_text(v.viewer, q.keys, t, q.default), style="bold"))
        i = answers.pop(0) if answers else 0
        picked[q.field] = q.options[min(i, len(q.options) - 1)].value


def decision(game: Game, p: str, t: Translator, answers: list[int] | None = None
             ) -> RenderableType:
    v = view(game, p)
    return Group(screens.decision_screen(v, t), *questions(v, t, answers))


def info(game: Game, humans: tuple[str, ...] = (NAMES[0],)) -> TableInfo:
    return table_info(game, humans, "heuristic")


def render(thing: RenderableType) -> Console:
    """``thing`` drawn at the captures' width, recorded."""
    console = Console(width=WIDTH, record=True, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor")
    console.print(thing)
    return console


def save(name: str, thing: RenderableType, lang: str) -> None:
    console = render(thing)
    suffix = "" if lang == "en" else f".{lang}"
    (OUT / f"{name}{suffix}.txt").write_text(console.export_text(clear=False),
                                             encoding="utf-8")
    console.save_svg(str(OUT / f"{name}{suffix}.svg"), title=f"darkcity play — {name}")
    print(f"docs/screens/{name}{suffix}.svg")  # i18n: not prose


def captures(t: Translator) -> Iterator[tuple[str, RenderableType]]:
    """Every capture: (file name, screen)."""
    g, p = find("basic", 6, lambda g, p: g.phase is Phase.SETUP)
    yield "01-setup-free-xp", decision(g, p, t)
    g, p = find("basic", 8, lambda g, p: g.phase is Phase.DRAFT and g.night == 1
                and len(g.hand) == 9)
    yield "02-draft-hand", decision(g, p, t)
    g, p = find("reporter-death-6", 6, lambda g, p: g.phase is Phase.DRAFT and not g.may_look)
    yield "03-draft-death-offered", decision(g, p, t, [0, 2])
    g, p = find("basic", 6, card_is(Role.DEVIL))
    yield "04-gesture-devil", decision(g, p, t, [3, 2])
    g, p = find("advanced", 6, card_is(Role.HUNTER))
    yield "05-gesture-hunter-two-targets", decision(g, p, t, [1, 0])
    g, p = find("creatures-7", 7, card_is(Role.CREATURE))
    yield "06-gesture-creature-gender", decision(g, p, t, [0, 1])
    g, p = find("death-alien-7", 7, card_is(Role.ALIEN))
    yield "07-gesture-alien-kind", decision(g, p, t, [2])
    g, p = find("mummy-voodoo-7", 7, card_is(Role.VOODOOIST))
    yield "08-gesture-voodooist-kind", decision(g, p, t, [1])
    g, p = find("basic", 6, lambda g, p: g.phase is Phase.WITHDRAWAL and g.night > 1
                and any(p in x.targets for x in g.gestures.values()))
    yield "09-reveal-1-2-3-now", screens.reveal_screen(view(g, p), t)
    yield "10-withdrawal", decision(g, p, t)
    g, p = find("basic", 6, lambda g, p: g.phase is Phase.ZOMBIE and len(g.early.events) > 2
                if g.early else False)
    early = g.early
    assert early is not None
    texts = render_all(early.events, early.night, t)
    v = view(g, p)
    yield "11-zombie-choice", Group(screens.decision_screen(v, t, texts), *questions(v, t))
    g, p = find("death-alien-7", 7, lambda g, p: len(g.nights) >= 3
                and len(g.nights[-1].result.events) > 8)
    rec = g.nights[-1]
    v = view(g, NAMES[0])
    yield "12-night-narration", screens.night_screen(
        v.history[-1], v, t, render_all(rec.result.events, rec.night, t))
    yield "12-night-journal", screens.night_journal_screen(v.history[-1], v, t)
    game = Game(Settings(players=NAMES[:6], deck=preset("basic", 6)), 4)
    rng = random.Random(4)
    while not game.over:
        q = game.pending[0]
        choices = game.legal(q)
        game.apply(choices[rng.randrange(len(choices))])
    yield "13-victory", screens.victory_screen(view(game, NAMES[0]), t)
    g, p = find("death-alien-7", 7, lambda g, p: g.phase is Phase.GESTURE)
    v = view(g, p)
    yield "14-rules-help", screens.rules_screen(v, t, info(g))
    yield "14-rules-help-2", screens.rules_screen(v, t, info(g), page=1)
    yield "15-journals-and-table", Group(screens.seat_circle(v, t), screens.journals_table(v, t))
    hot = info(g, NAMES[:3])
    yield "16-hotseat-handoff", Group(screens.settings_line(hot, g.players, t),
                                      screens.handoff_screen("Bia", t),
                                      Text(screens.prompt_text("Bia", (ENTER,), t),
                                           style="bold"))
    g, p = find("basic", 6, card_is(Role.VAMPIRE))
    v = view(g, p)
    choice = v.choices[0]
    yield "16-hotseat-hide", Group(
        screens.settings_line(info(g, (p, NAMES[(NAMES.index(p) + 1) % 6])), g.players, t),
        screens.decision_screen(v, t), screens.hide_screen(screens.choice_label(choice, v, t),
                                                           t),
        Text(screens.prompt_text(p, (ENTER,), t), style="bold"))
    prompt = screens.prompt_text("Ana", ("1", "2", "3"), t)
    yield "17-bad-keystroke", Group(Text(prompt + "x", style="bold"),
                                    Text(refusal("x", ("1", "2", "3"), t), style="red"),
                                    Text(prompt, style="bold"))
    g, p = find("basic", 6, lambda g, p: g.phase is Phase.GESTURE and g.night == 3)
    v = view(g, None)
    yield "18-resume-recap", Group(screens.settings_line(info(g), g.players, t),
                                   screens.recap_screen(v, t),
                                   Text(screens.prompt_text(None, (ENTER,), t), style="bold"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lang", default="en")
    lang = ap.parse_args().lang
    t = translator(lang)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, thing in captures(t):
        save(name, thing, lang)


if __name__ == "__main__":
    main()
