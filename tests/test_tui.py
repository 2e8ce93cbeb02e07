"""The terminal game (issue #5) without a terminal: questions, keystrokes, screens
rendered from views, and whole sessions driven by scripted answers."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from darkcity.decisions import Phase
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.i18n import translator
from darkcity.record import replay
from darkcity.settings import Settings
from darkcity.tui import screens
from darkcity.tui.choices import ENTER, Question, allowed, next_question, parse, refusal
from darkcity.tui.loop import Session, Terminal, resume
from darkcity.tui.screens.cards import own_card
from darkcity.tui.screens.words import card_label
from darkcity.views import view

EN = translator("en")
PT = translator("pt")
PLAYERS = ("Ana", "Bia", "Caio", "Duda")


def g(targets: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "gesture", "player": "Ana", **kw}
    if targets:
        d["targets"] = targets
    return d


# ---------------------------------------------------------------------------
# Questions


def answer(choices: list[dict[str, Any]], *keys: str) -> Any:
    picked: dict[str, Any] = {}
    asked = []
    for k in keys:
        q = next_question(choices, picked, PLAYERS)
        assert isinstance(q, Question), q
        asked.append(q.field)
        picked[q.field] = q.option(k).value
    return next_question(choices, picked, PLAYERS), asked


def test_devil_picks_what_to_show_then_the_target_by_seat() -> None:
    choices = [g(["Bia"], shows="vampire"), g(["Caio"], shows="vampire"),
               g(shows="priest")]
    q = next_question(choices, {}, PLAYERS)
    assert isinstance(q, Question) and q.field == "shows"
    assert [o.value for o in q.options] == ["priest", "vampire"]
    done, asked = answer(choices, "2", "3")
    assert asked == ["shows", "first"]
    assert done == g(["Caio"], shows="vampire")
    done, asked = answer(choices, "1")
    assert done == g(shows="priest")


def test_two_targets_are_asked_one_seat_at_a_time_in_any_order() -> None:
    pairs = [("Bia", "Caio"), ("Bia", "Duda"), ("Caio", "Duda"), ("Caio", "Caio")]
    choices = [g(list(p)) for p in pairs]
    q = next_question(choices, {}, PLAYERS)
    assert isinstance(q, Question) and q.keys == ("2", "3", "4")  # seat numbers
    done, _ = answer(choices, "4", "2")  # Duda then Bia: the legal (Bia, Duda)
    assert done == g(["Bia", "Duda"])
    q = next_question(choices, {"first": "Caio"}, PLAYERS)
    assert isinstance(q, Question) and q.keys == ("2", "3", "4")  # the doubled aim too
    done, _ = answer(choices, "3", "3")
    assert done == g(["Caio", "Caio"])


def test_creature_target_then_gender_and_alien_kind() -> None:
    choices = [g([t], seeks=s) for t in ("Bia", "Duda") for s in ("feminine", "masculine")]
    done, asked = answer(choices, "4", "1")
    assert asked == ["first", "seeks"] and done == g(["Duda"], seeks="feminine")
    kinds = [g(kind=k) for k in ("devil", "hunter", "vampire")]
    done, asked = answer(kinds, "2")
    assert asked == ["kind"] and done == g(kind="hunter")


def test_a_single_choice_is_still_confirmed_by_enter_or_1() -> None:
    q = next_question([g()], {}, PLAYERS)
    assert isinstance(q, Question) and q.keys == (ENTER, "1") and q.default == "1"
    for key in (ENTER, "1"):
        done, _ = answer([g()], key)
        assert done == g()
    assert allowed(q.keys, EN, q.default).startswith("Enter/1 ·")


def test_other_decisions_are_one_menu_and_enter_stays() -> None:
    choices = [{"type": "withdrawal", "player": "Ana", "withdrawal": w} for w in (False, True)]
    q = next_question(choices, {}, PLAYERS)
    assert isinstance(q, Question) and q.field == "pick" and q.keys == (ENTER, "1", "2")
    assert q.option(ENTER).value["withdrawal"] is False  # Enter is "stay"
    assert "Enter = 1" in allowed(q.keys, EN, q.default)


def test_the_zombie_and_death_ask_for_seat_numbers() -> None:
    zombie = [{"type": "zombie", "player": "Ana", "target": x} for x in ("Bia", "Duda")]
    q = next_question(zombie, {}, PLAYERS)
    assert isinstance(q, Question) and q.field == "target" and q.keys == ("2", "4")
    done, _ = answer(zombie, "4")
    assert done == zombie[1]
    death = [{"type": "take-death", "player": "Duda", "names": x} for x in PLAYERS[:3]]
    death.append({"type": "look-at-hand", "player": "Duda"})
    done, asked = answer(death, "1", "3")
    assert asked == ["take", "names"] and done == death[2]  # seat 3: Caio
    q = next_question(death, {"take": True}, PLAYERS)
    assert isinstance(q, Question) and q.keys == ("1", "2", "3")
    done, _ = answer(death, "2")
    assert done == death[3]


# ---------------------------------------------------------------------------
# Keystrokes


def test_parse_keys_and_commands() -> None:
    keys = ("1", "2", "3")
    assert parse(" 2 ", keys).kind == "key"
    assert parse("02", keys).key == "2"
    assert parse("?", keys).kind == "rules"
    assert parse("J", keys).kind == "journals"
    assert parse("q", keys).kind == "quit"
    for bad in ("", "4", "x", "1 2", "\x1b[A", "-1", "२"):
        assert parse(bad, keys).kind == "bad"
    assert parse("", (ENTER,)).kind == "key"
    # arrow and editing keys that reached the line are ignored, backspaces applied
    assert parse("\x1b[A\x1b[D2", keys) == parse("2", keys)
    assert parse("1\x7f3", keys).key == "3"
    assert parse("\x1bOB", (ENTER,)).kind == "key"


def test_the_prompt_says_what_is_allowed() -> None:
    assert allowed(("1", "2", "3", "4"), EN).startswith("1-4 · ? rules")
    assert allowed(("2", "4"), EN).startswith("2, 4 ·")
    assert allowed((ENTER,), EN).startswith("Enter ·")
    text = refusal("x", ("1", "2"), EN)
    assert "Not allowed: 'x'" in text and "1, 2" in text and "q save and quit" in text
    assert "Permitido" in refusal("x", ("1", "2"), PT)


# ---------------------------------------------------------------------------
# Screens, rendered from views


def text_of(renderable: Any, width: int = 100) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def new_game(seed: int | str = 1, players: tuple[str, ...] = PLAYERS,
             deck: str = "basic") -> Game:
    return Game(Settings(players=players, deck=preset(deck, len(players))), seed)


def first_choice(game: Game) -> None:
    p = game.pending[0]
    game.apply(game.legal(p)[0])


@pytest.mark.parametrize("deck,players,t", [
    ("basic", 4, EN), ("basic", 4, PT), ("reporter-death-6", 6, EN),
    ("death-alien-7", 7, PT), ("creatures-7", 8, EN), ("mummy-voodoo-7", 7, PT)],
    ids=["basic-en", "basic-pt", "reporter-death-en", "death-alien-pt", "creatures-en",
         "mummy-voodoo-pt"])
def test_every_screen_renders_at_every_point(deck: str, players: int, t: Any) -> None:
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")[:players]
    game = new_game(5, names, deck)
    kinds: set[str] = set()
    while not game.over and game.night <= 2:
        p = game.pending[0]
        v = view(game, p)
        out = text_of(screens.decision_screen(v, t))
        kinds.add(v.phase)
        picked: dict[str, Any] = {}
        while True:
            q = next_question(v.choices, picked, v.players)
            if not isinstance(q, Question):
                break
            out += text_of(screens.question_screen(q, v, t))
            picked[q.field] = q.options[-1].value
        if game.phase is Phase.WITHDRAWAL:
            out += text_of(screens.reveal_screen(view(game, None), t))
        assert "Traceback" not in out
        done = len(game.nights)
        first_choice(game)
        if len(game.nights) > done:
            sv = view(game, None)
            text_of(screens.night_screen(sv.history[-1], sv, t))
    text_of(screens.rules_screen(view(game, None), t))
    assert {"setup", "draft", "gesture", "withdrawal"} <= kinds


def test_screens_show_only_the_viewers_secrets() -> None:
    game = new_game(3)
    while game.phase is not Phase.GESTURE:
        first_choice(game)
    ana = text_of(screens.decision_screen(view(game, "Ana"), EN))
    mine = card_label(own_card(view(game, "Ana")) or pytest.fail(), EN)
    assert mine.split(" (")[0] in ana
    assert "Your card" in ana
    # the hand and the other cards are not in the view, hence not on the screen
    assert view(game, "Ana").hand is None


def test_draft_screen_shows_initiative_goals_and_panel() -> None:
    game = new_game(1)
    while game.phase is not Phase.DRAFT:
        first_choice(game)
    v = view(game, game.pending[0])
    q = next_question(v.choices, {}, v.players)
    assert isinstance(q, Question)
    out = text_of(screens.decision_screen(v, EN), width=120) + text_of(
        screens.question_screen(q, v, EN), width=120)
    assert "Init." in out and "Goals" in out and "Survive" in out
    assert "The table" in out and "Draft order" in out
    assert "next seat" in out  # the legend is whole
    rules = text_of(screens.rules_screen(v, EN, page=1), width=120)
    assert "Combat panels" in rules and "kills" in rules


def test_victory_and_tiebreak_screen() -> None:
    game = new_game(7)
    while not game.over:
        first_choice(game)
    out = text_of(screens.victory_screen(view(game, None), EN))
    assert "Victory: " + ", ".join(game.winners) in out
    assert "Who met a victory condition" in out
    out_pt = text_of(screens.victory_screen(view(game, None), PT))
    assert "Vitória: " in out_pt and "Diários" in out_pt


def test_handoff_screen() -> None:
    assert "Pass the keyboard to Bia — press Enter when Bia is ready" in text_of(
        screens.handoff_screen("Bia", EN))
    assert "Passe o teclado para Bia" in text_of(screens.handoff_screen("Bia", PT))


# ---------------------------------------------------------------------------
# Sessions with scripted answers

PROMPT = re.compile(r"\[([^\[\]\n]*)\] > $")


class Scripted(Terminal):
    """Answers every prompt with its first allowed key; ``extra`` lines come first;
    stops (end of input) after ``limit`` prompts."""

    def __init__(self, extra: list[str] | None = None, limit: int = 5000) -> None:
        self.out = io.StringIO()
        super().__init__(Console(file=self.out, width=100, color_system=None), io.StringIO())
        self.extra = list(extra or [])
        self.limit = limit
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False)
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        if self.extra:
            line = self.extra.pop(0)
        else:
            m = PROMPT.search(prompt)
            assert m, prompt
            first = m.group(1).split(" · ")[0]
            line = "" if first.startswith("Enter") else first.split("-")[0].split(",")[0]
        self.console.print(line, markup=False)
        return line


def test_a_whole_session_against_bots(tmp_path: Path) -> None:
    game = new_game(11)
    term = Scripted(extra=["x", "?", "j", "99"])
    record = tmp_path / "g.json"
    code = Session(game, ("Ana",), "random", EN, term, record).run()
    out = term.out.getvalue()
    assert code == 0 and game.over
    assert "Not allowed: 'x'. Allowed: " in out and "Not allowed: '99'" in out
    assert "Rules of the cards in play" in out and "Journals" in out
    assert "1, 2, 3, now!" in out and "the Mayor narrates" in out
    assert "Victory: " in out and f"Game record saved to {record}" in out
    doc = json.loads(record.read_text(encoding="utf-8"))
    assert doc["over"] is True and doc["terminal"]["humans"] == ["Ana"]
    assert replay(doc).ok


def test_hotseat_hands_over_before_every_secret_screen(tmp_path: Path) -> None:
    game = new_game(12)
    term = Scripted()
    Session(game, ("Ana", "Caio"), "random", EN, term, tmp_path / "h.json").run()
    out = term.out.getvalue()
    assert game.over
    handoffs = out.count("Pass the keyboard to")
    secret = sum(1 for d in game.log if d.player in ("Ana", "Caio"))
    assert handoffs == secret  # one per secret decision of a human


def test_end_of_input_and_quit_save_and_resume_exactly(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    game = new_game(13)
    code = Session(game, ("Ana",), "random", EN, Scripted(limit=25), record).run()
    assert code == 0 and not game.over
    resumed = resume(record)
    assert resumed.humans == ("Ana",) and resumed.bots == "random"
    assert resumed.game.log == game.log and resumed.game.phase is game.phase
    term = Scripted(extra=["q"])
    assert Session(resumed.game, ("Ana",), "random", EN, term, record).run() == 0
    assert "darkcity play --resume" in term.out.getvalue()
    again = resume(record)
    Session(again.game, ("Ana",), "random", EN, Scripted(), record).run()
    assert again.game.over


def test_resume_refuses_bad_files(tmp_path: Path) -> None:
    from darkcity.tui.loop import ResumeError

    bad = tmp_path / "bad.json"
    for text in ("", "{", "[]", '{"format": "darkcity-game/1"}'):
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(ResumeError):
            resume(bad)
    with pytest.raises(ResumeError):
        resume(tmp_path / "missing.json")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_of_the_registry_take_the_other_seats(tmp_path: Path, level: str) -> None:
    from darkcity.tui.loop import BOT_LEVELS

    assert level in BOT_LEVELS
    game = new_game(14)
    Session(game, ("Ana",), level, EN, Scripted(limit=12), tmp_path / "b.json").run()
    assert game.night >= 2 and any(d.player != "Ana" for d in game.log)
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["terminal"][
        "bots"] == level


def test_a_table_of_bots_plays_styles_drawn_from_the_seed(tmp_path: Path) -> None:
    """Issue #32: the terminal's bots are not copies of one mind; each plays a style
    drawn from the game's seed (the same after a resume), said before the first night
    in the reader's language."""
    from darkcity.bots.family import STYLES
    from darkcity.tui.loop import bot_style, make_bots

    game = new_game(15)
    bots = make_bots(game, ("Ana",), "heuristic")
    styles = {p: b.style for p, b in bots.items()}
    assert set(styles) == {"Bia", "Caio", "Duda"} and set(styles.values()) <= set(STYLES)
    assert styles == {p: bot_style(game, p, "heuristic") for p in styles}
    assert make_bots(game, ("Ana",), "random") and bot_style(game, "Bia", "random") is None
    for lang, t, heading in (("en", EN, "The bots at this table:"),
                             ("pt", PT, "Os robôs desta mesa:")):
        term = Scripted(limit=3)
        Session(new_game(15), ("Ana",), "heuristic", t, term, tmp_path / f"{lang}.json").run()
        out = term.out.getvalue()
        assert heading in out, lang
        for p, style in styles.items():
            assert f"{p}: {t(STYLES[style].description)}" in out
    resumed = resume(tmp_path / "en.json")
    again = make_bots(resumed.game, ("Ana",), "heuristic")
    assert {p: b.style for p, b in again.items()} == styles


def test_the_zombies_choice_says_who_fled_or_fell() -> None:
    import random

    from darkcity.tui.screens.cards import gone_tonight, zombie_label

    found: set[str] = set()
    for seed in range(300):
        game = new_game(seed, ("Ana", "Bia", "Caio", "Duda", "Enzo"))
        rng = random.Random(seed)
        while not game.over and game.night < 6:
            if game.phase is Phase.ZOMBIE:
                p = game.pending[0]
                v = view(game, p)
                fled, fallen = gone_tonight(v)
                for c in v.choices:
                    label = zombie_label(c["target"], v, EN)
                    if c["target"] in fled:
                        assert "fled: the attack is lost" in label
                        found.add("fled")
                    elif c["target"] in fallen:
                        assert "already fallen" in label
                        found.add("fallen")
                    assert "neighbour" in label
                    mine = next(s.gesture for s in v.seats if s.name == p)
                    assert ("your target now" in label) == (
                        mine is not None and c["target"] in mine.targets)
            choices = game.legal(game.pending[0])
            game.apply(choices[rng.randrange(len(choices))])
        if found == {"fled", "fallen"}:
            break
    assert found == {"fled", "fallen"}


def test_no_rule_ids_in_the_terminals_texts() -> None:
    from pathlib import Path

    src = Path(screens.__file__).parents[1]
    texts = [f.read_text(encoding="utf-8") for f in sorted(src.rglob("*.py"))]
    texts.append((src.parent / "cli" / "play.py").read_text(encoding="utf-8"))
    ids = re.compile(r"""["'][^"'\n]*\b[RKD]-\d+\b[^"'\n]*["']""")
    for text in texts:
        assert not ids.search(text), ids.search(text)


def test_journal_tables_keep_their_padding() -> None:
    game = new_game(2)
    while game.phase is not Phase.DRAFT:
        first_choice(game)
    out = text_of(screens.journals_table(view(game, "Ana"), EN))
    assert re.search(r"^ 1 Ana ★ ", out, re.M), out


def test_portuguese_words_of_issue_16() -> None:
    from darkcity.tui.loop import table_info

    game = new_game(1)
    info = table_info(game, ("Ana",), "heuristic")
    line = screens.settings_line(info, game.players, PT).plain
    assert "Robôs (médio): Bia, Caio, Duda" in line and "Baralho: básico" in line
    assert "Deck: basic" in screens.settings_line(info, game.players, EN).plain
    handoff = text_of(screens.handoff_screen("Ana", PT))
    assert "quando Ana estiver com o teclado" in handoff and "pront" not in handoff
    while game.phase is not Phase.DRAFT:
        first_choice(game)
    v = view(game, game.pending[0])
    q = next_question(v.choices, {}, v.players)
    assert isinstance(q, Question)
    assert "Com que carta você fica?" in text_of(screens.question_screen(q, v, PT), 120)


def test_records_never_collide_and_the_latest_unfinished_is_found(tmp_path: Path) -> None:
    import os
    from datetime import datetime

    from darkcity.tui.records import (
        RecordKept,
        confirm_overwrite,
        latest_unfinished,
        new_record_path,
        summary,
    )

    now = datetime(2026, 12, 1, 9, 30, 0)
    first = new_record_path(tmp_path, now)
    assert first.name == "darkcity-game-20261201-093000.json"
    first.write_text("{}", encoding="utf-8")
    assert new_record_path(tmp_path, now).name == "darkcity-game-20261201-093000-2.json"

    unfinished = new_game(21)
    Session(unfinished, ("Ana",), "random", EN, Scripted(limit=5), first).run()
    finished = tmp_path / "darkcity-game-old.json"
    Session(new_game(22), ("Ana",), "random", EN, Scripted(), finished).run()
    (tmp_path / "darkcity-game-broken.json").write_text("{", encoding="utf-8")
    os.utime(finished, (2e9, 2e9))  # the newest file, but its game is over
    assert latest_unfinished(tmp_path) == first
    assert "holds an unfinished game (night " in str(summary(first))
    assert "finished game" in str(summary(finished))
    assert latest_unfinished(tmp_path / "nowhere") is None

    console = Console(file=io.StringIO())
    confirm_overwrite(tmp_path / "new.json", EN, console, io.StringIO())  # nothing there
    with pytest.raises(RecordKept) as kept:
        confirm_overwrite(first, EN, console, io.StringIO("y\n"))  # nobody to ask
    assert "--resume" in str(kept.value.message)
