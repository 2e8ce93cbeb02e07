"""Every terminal screen fits a 120 x 40 terminal (issue #16): the captures in
``docs/screens/``, the screens the capture script draws, and every decision
screen with its question at every decision point of seeded games at the
largest tables, in English and Portuguese."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from rich.console import Console, Group, RenderableType
from rich.text import Text

from darkcity.decisions import Phase
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.i18n import Translator, translator
from darkcity.narration import render_all
from darkcity.settings import Settings
from darkcity.tui import screens
from darkcity.tui.choices import Question, next_question
from darkcity.tui.loop import table_info
from darkcity.views import view

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = screens.FIT
NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def lines_of(thing: RenderableType) -> list[str]:
    console = Console(width=COLUMNS, record=True, file=io.StringIO(), color_system=None)
    console.print(thing)
    return console.export_text().rstrip("\n").split("\n")


def fits(lines: list[str], what: str, rows: int = ROWS) -> None:
    assert len(lines) <= rows, f"{what}: {len(lines)} lines"
    wide = max(len(x.rstrip()) for x in lines)
    assert wide <= COLUMNS, f"{what}: {wide} columns"


def capture_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("capture_screens",
                                                  ROOT / "scripts" / "capture_screens.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("capture_screens", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_every_capture_fits_120_by_40(lang: str) -> None:
    names = []
    for name, thing in capture_script().captures(translator(lang)):
        fits(lines_of(thing), f"{name} ({lang})")
        names.append(name)
    assert len(names) >= 20


def test_the_committed_captures_fit_and_are_current() -> None:
    txt = sorted((ROOT / "docs" / "screens").glob("*.txt"))
    assert len(txt) >= 40
    for path in txt:
        fits(path.read_text(encoding="utf-8").rstrip("\n").split("\n"), path.name)
    script = capture_script()
    for name, thing in script.captures(translator("en")):
        drawn = script.render(thing).export_text(clear=False)
        assert (ROOT / "docs" / "screens" / f"{name}.txt").read_text(encoding="utf-8") == \
            drawn, f"docs/screens/{name}.txt is stale: python3 scripts/capture_screens.py"


def question_screens(v: Any, t: Translator) -> list[RenderableType]:
    """The decision's questions, each answered with its last option."""
    out: list[RenderableType] = []
    picked: dict[str, Any] = {}
    while True:
        q = next_question(v.choices, picked, v.players)
        if not isinstance(q, Question):
            return out
        out.append(screens.question_screen(q, v, t, picked.get("first")))
        picked[q.field] = q.options[-1].value


@pytest.mark.parametrize("deck,players,lang", [
    ("basic", 8, "en"), ("basic", 8, "pt"), ("advanced", 8, "pt"),
    ("death-alien-7", 8, "en"), ("creatures-7", 8, "pt"), ("mummy-voodoo-7", 8, "en"),
    ("reporter-death-6", 6, "pt"), ("angel-alien-6", 6, "en")])
def test_every_decision_screen_fits_120_by_40(deck: str, players: int, lang: str) -> None:
    """The secret screen, one question under it and the prompt: at most 40 lines."""
    t = translator(lang)
    prompt = Text("Ana [1-9 · ? rules · j journals · q save and quit] > ")
    for seed in range(3):
        game = Game(Settings(players=NAMES[:players], deck=preset(deck, players)), seed)
        info = table_info(game, NAMES[:2], "heuristic")
        worst = 0
        while not game.over and game.night <= 4:
            p = game.pending[0]
            v = view(game, p)
            early = game.early
            texts = render_all(early.events, early.night, t) \
                if game.phase is Phase.ZOMBIE and early is not None else None
            screen = screens.decision_screen(v, t, texts)
            for q in question_screens(v, t):
                lines = lines_of(Group(screen, q, prompt))
                fits(lines, f"{deck} seed {seed} night {game.night} {v.phase} {p}")
                worst = max(worst, len(lines))
            if game.phase is Phase.WITHDRAWAL:
                public = view(game, None)
                fits(lines_of(Group(screens.settings_line(info, game.players, t),
                                    screens.reveal_screen(public, t), prompt)), "reveal")
            done = len(game.nights)
            game.apply(game.legal(p)[seed % len(game.legal(p))])
            if len(game.nights) > done:
                sv = view(game, None)
                n = sv.history[-1]
                fits(lines_of(Group(screens.night_screen(n, sv, t), prompt)), "narration")
                fits(lines_of(Group(screens.night_journal_screen(n, sv, t), prompt)),
                     "journal")
        for page in range(screens.RULES_PAGES):
            fits(lines_of(Group(screens.rules_screen(view(game, NAMES[0]), t, info, page),
                                prompt)), f"rules page {page + 1}")
        assert worst > 10


def test_a_small_terminal_is_warned_about() -> None:
    en = translator("en")
    assert screens.size_warning(120, 40, en) is None
    warning = screens.size_warning(80, 24, en)
    assert warning is not None and "80×24" in warning.plain and "100×40" in warning.plain
