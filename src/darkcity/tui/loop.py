"""The terminal game loop: humans at the keyboard, bots for the other seats.

:class:`Session` drives a :class:`~darkcity.game.Game` to its end. A human's
decision is asked from that player's view only (:func:`darkcity.views.view`)
through the questions of :mod:`darkcity.tui.choices`; a bot's comes from
:func:`bot_decision` (the registry of :mod:`darkcity.bots`). In hot-seat
(more than one human) the terminal is cleared and the next player confirms
who they are before every secret screen, and cleared again after their
decision.

The record (``darkcity-game/1``, :func:`darkcity.record.write_record`) is
saved after every night, at the end of the game, on ``q``, on Ctrl-C and at
the end of the input. It carries a ``terminal`` section: who plays at the
keyboard, the bots' level, the language, and the log of every decision so far
(so a game interrupted mid-night resumes exactly where it stopped:
:func:`resume`). Each bot draws from its own ``bot_rng(seed, player)``; a
resumed game gets fresh bots (see :func:`make_bots`).

Every question is redrawn after ``?`` (the help, page after page) and ``j``
(the journals), so the options are on screen when the answer is typed. In
hot-seat each screen starts with the game's settings, and a player's decision
stays on screen until that player hides it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Final, TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from darkcity.bots import Bot, Observation
from darkcity.bots.family import STYLES
from darkcity.bots.levels import LEVELS, draw_level_style, level_key, make_level_bot
from darkcity.decisions import (
    Decision,
    IllegalDecision,
    Phase,
    decision_from_dict,
    decision_to_dict,
)
from darkcity.game import Game
from darkcity.i18n import Message, Translator, error_message, msg
from darkcity.narration import render_all
from darkcity.record import RecordError, replay, settings_from_record, write_record
from darkcity.settings import bot_rng
from darkcity.tui import screens
from darkcity.tui.choices import ENTER, Question, next_question, parse, refusal
from darkcity.tui.screens.seats import TableInfo
from darkcity.views import View, card_view, view

__all__ = [
    "BOT_LEVELS",
    "TERMINAL_FORMAT",
    "Quit",
    "ResumeError",
    "Session",
    "Terminal",
    "bot_decision",
    "bot_style",
    "make_bots",
    "resume",
    "table_info",
]

#: The bots' levels (:mod:`darkcity.bots.levels`: easy, medium, hard), easiest first.
BOT_LEVELS: Final = tuple(LEVELS)
TERMINAL_FORMAT: Final = "darkcity-terminal/1"

EXIT_OK: Final = 0
EXIT_INTERRUPTED: Final = 130


def bot_decision(game: Game, player: str, bot: Bot) -> Decision:
    """What the bot in ``player``'s seat decides now, from that player's
    observation only (its view and legal decisions); checked against the
    legal decisions, with a random legal one as the fallback of a faulty bot."""
    obs = Observation(game, player)
    d = bot.step(obs)
    if d in obs.legal:
        return d
    return obs.legal[bot.rng.randrange(len(obs.legal))]  # pragma: no cover


def make_bots(game: Game, humans: Sequence[str], level: str) -> dict[str, Bot]:
    """One bot per seat not at the keyboard, each with its own RNG from the seed.

    A resumed game gets fresh bots whose RNG also depends on the decision point
    where it resumes (they do not remember the nights before).
    """
    at = game.decision_point().id if game.log else 0
    return {p: make_level_bot(level, bot_rng(game.seed, f"{p}:{at}" if at else p),
                              style=bot_style(game, p, level))
            for p in game.players if p not in humans}


def bot_style(game: Game, player: str, level: str) -> str | None:
    """The style ``player``'s bot plays this game with (issue #32: a table of bots is
    not copies of one mind), drawn from the game's seed alone: a resumed game's bots
    play the same styles. None where ``level`` has none."""
    return draw_level_style(level, random.Random(f"{game.seed}:style:{player}"))


def table_info(game: Game, humans: Sequence[str], bots: str) -> TableInfo:
    """What the table agreed before the first night (the deck, the seed, the bots)."""
    deck = game.settings.deck
    styles = tuple((p, STYLES[style].description) for p in game.players if p not in humans
                   and (style := bot_style(game, p, bots)) is not None and style in STYLES)
    return TableInfo(deck.name, tuple(card_view(c) for c in deck.cards), str(game.seed), bots,
                     tuple(humans), styles)


class Quit(Exception):
    """The player typed ``q``: save and leave."""


class ResumeError(ValueError):
    """A record that cannot be resumed (the message says why)."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))


class Terminal:
    """Where screens are drawn and lines are read (a console and a text input)."""

    def __init__(self, console: Console, stdin: TextIO) -> None:
        self.console = console
        self.stdin = stdin
        # A person typing: line editing and arrow keys through readline, where
        # Python has it (input() then uses it); a pipe is read line by line.
        self.editing = stdin is sys.stdin and stdin.isatty() and console.is_terminal
        if self.editing:
            with contextlib.suppress(ImportError):  # Windows has none
                import readline  # noqa: F401  (input() edits lines once it is loaded)

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) of the terminal."""
        w, h = self.console.size
        return w, h

    def show(self, *things: RenderableType) -> None:
        for thing in things:
            self.console.print(thing)

    def clear(self) -> None:
        """Clear the screen and the scrollback (hot-seat: nothing secret to scroll back to)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def ask(self, prompt: str) -> str:
        """One line typed after ``prompt``; ``EOFError`` at the end of the input."""
        if self.editing:
            # the prompt goes through input() so that the line editor knows where
            # the typed text begins; \x01 \x02 hide the bold from its count
            try:
                return input(f"\x01\x1b[1m\x02{prompt}\x01\x1b[0m\x02")
            except EOFError:
                self.console.print()
                raise
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        return line.rstrip("\r\n")


@dataclass
class Outcome:
    code: int
    message: Message


class Session:
    """One terminal game: the game, who plays at the keyboard, the bots, the record."""

    def __init__(self, game: Game, humans: Sequence[str], bots: str, t: Translator,
                 terminal: Terminal, record: Path, *, resumed: bool = False) -> None:
        if not humans or any(h not in game.players for h in humans):
            raise ValueError("the humans must be players of the game")
        self.game = game
        self.humans = tuple(humans)
        self.bots = bots
        self.t = t
        self.term = terminal
        self.record = record
        self.info = table_info(game, self.humans, bots)
        self.resumed = resumed or bool(game.log)  # the intro tells the story so far
        self._bots = make_bots(game, self.humans, bots)
        self._revealed = -1  # the night whose gestures were last shown
        self._early = -1  # the night whose steps 1+..3 were last shown

    @property
    def hotseat(self) -> bool:
        return len(self.humans) > 1

    # -- the record ---------------------------------------------------------

    def document(self) -> dict[str, Any]:
        doc = write_record(self.game)
        doc["terminal"] = {
            "format": TERMINAL_FORMAT,
            "humans": list(self.humans),
            "bots": self.bots,
            "lang": self.t.lang,
            "log": [decision_to_dict(d) for d in self.game.log],
        }
        return doc

    def save(self) -> None:
        text = json.dumps(self.document(), ensure_ascii=False, indent=1) + "\n"
        tmp = self.record.with_name(self.record.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.record)

    def autosave(self) -> None:
        """Save, or say on screen why not (the game goes on)."""
        try:
            self.save()
        except OSError as e:
            self.term.show(Text(self.t.render(msg(
                "Could not save the game to {path}: {error}", path=str(self.record),
                error=e.strerror or str(e))), style="bold red"))

    # -- running -------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or until interrupted); the exit status."""
        t = self.t
        try:
            self._intro()
            self._play()
            outcome = Outcome(EXIT_OK, msg("Game record saved to {path}", path=str(self.record)))
        except Quit:
            outcome = Outcome(EXIT_OK, msg("Game saved to {path}. Go on with: darkcity play "
                                           "--resume {path}", path=str(self.record)))
        except EOFError:
            outcome = Outcome(EXIT_OK, msg("End of input. Game saved to {path}. Go on with: "
                                           "darkcity play --resume {path}",
                                           path=str(self.record)))
        except KeyboardInterrupt:
            outcome = Outcome(EXIT_INTERRUPTED, msg("Interrupted. Game saved to {path}. Go on "
                                                    "with: darkcity play --resume {path}",
                                                    path=str(self.record)))
        try:
            self.save()
        except OSError as e:
            self.term.show(Text(t.render(msg("Could not save the game to {path}: {error}",
                                             path=str(self.record),
                                             error=e.strerror or str(e))), style="bold red"))
            return 1
        self.term.show(Text(t.render(outcome.message), style="bold"))
        return outcome.code

    def _public_view(self) -> View:
        """What the table may see together: the one human's view, or a spectator's."""
        return view(self.game, None if self.hotseat else self.humans[0])

    def _intro(self) -> None:
        t, g = self.t, self.game
        v = self._public_view()
        self._header()
        w, h = self.term.size
        warning = screens.size_warning(w, h, t)
        if warning is not None:
            self.term.show(warning)
        if g.over:
            self.term.show(screens.victory_screen(v, t))
            return
        if self.resumed or g.nights:
            self.term.show(screens.recap_screen(v, t))
            self._ask(None, (ENTER,), v)
            return
        styles = screens.bots_styles(self.info, t)
        if styles is not None:
            self.term.show(styles)

    def _header(self) -> None:
        """The game's settings in one line (after every clear in hot-seat)."""
        self.term.show(screens.settings_line(self.info, self.game.players, self.t))

    def _clear(self) -> None:
        self.term.clear()
        self._header()

    def _play(self) -> None:
        g = self.game
        while not g.over:
            phase = g.phase
            done = len(g.nights)
            if phase is Phase.WITHDRAWAL and self._revealed != g.night:
                self._revealed = g.night
                self._public(screens.reveal_screen(self._public_view(), self.t))
            if phase is Phase.ZOMBIE and self._early != g.night and self.hotseat and any(
                    p in self.humans for p in g.pending):
                # the table hears steps 1+ to 3 before a Zombie at the keyboard chooses;
                # with only bots as Zombies the night's narration tells it all at once
                self._early = g.night
                v = self._public_view()
                self._public(screens.title(v, self.t), screens.gestures_list(v, self.t),
                             screens.zombie_narration(v, self.t, self._early_texts()))
            for p in g.pending:
                self._decide(p)
                if g.phase is not phase or len(g.nights) != done:
                    break
            if len(g.nights) != done:
                self._after_night()

    def _public(self, *things: RenderableType) -> None:
        if self.hotseat:
            self._clear()
        self.term.show(*things)
        self._ask(None, (ENTER,), self._public_view(), lambda: self.term.show(*things))

    def _after_night(self) -> None:
        g, t = self.game, self.t
        v = self._public_view()
        rec = g.nights[-1]
        texts = render_all(rec.result.events, rec.night, t)
        self.autosave()
        self._public(screens.night_screen(v.history[-1], v, t, texts))
        if g.over:
            if self.hotseat:
                self._clear()
            self.term.show(screens.victory_screen(v, t))
            return
        self._public(screens.night_journal_screen(v.history[-1], v, t))

    def _early_texts(self) -> list[str] | None:
        early = self.game.early
        if early is None:
            return None
        return render_all(early.events, early.night, self.t)

    # -- one decision ----------------------------------------------------------

    def _decide(self, player: str) -> None:
        g = self.game
        if player not in self.humans:
            g.apply(bot_decision(g, player, self._bots[player]))
            return
        t = self.t
        if self.hotseat:
            self._clear()
            self.term.show(screens.handoff_screen(player, t))
            self._ask(player, (ENTER,), None)
            self._clear()
        v = view(g, player)
        screen = screens.decision_screen(
            v, t, self._early_texts() if g.phase is Phase.ZOMBIE else None)
        self.term.show(screen)
        picked: dict[str, Any] = {}
        while True:
            q = next_question(v.choices, picked, v.players)
            if not isinstance(q, Question):
                choice = dict(q)
                break
            shown = screens.question_screen(q, v, t, picked.get("first"))
            self.term.show(shown)
            key = self._ask(player, q.keys, v, partial(self.term.show, screen, shown),
                            q.default)
            picked[q.field] = q.option(key).value
        choice["at"] = v.decision_id
        try:
            g.do(decision_from_dict(choice))
        except (IllegalDecision, ValueError) as e:  # never expected: only legal choices
            self.term.show(Text(self.t.render(error_message(e)), style="red"))
            return
        bare = {k: x for k, x in choice.items() if k != "at"}
        index = next((i for i, c in enumerate(v.choices) if c == bare), 0)
        label = screens.choice_label(bare, v, t, index)
        if self.hotseat:
            # the decision stays on screen until its player hides it
            self.term.show(screens.hide_screen(label, t))
            self._ask(player, (ENTER,), v)
            self._clear()
        else:
            self.term.show(Text("→ " + label, style="green"))

    def _ask(self, player: str | None, keys: Sequence[str], v: View | None,
             redraw: Callable[[], None] | None = None, default: str | None = None) -> str:
        """Ask until an allowed key is typed. ``?`` (page after page) and ``j`` show
        help on the way, then ``redraw`` draws the question again."""
        t = self.t
        page = 0
        while True:
            line = self.term.ask(screens.prompt_text(player, keys, t, default))
            a = parse(line, keys)
            if a.kind == "key":
                return a.key
            if a.kind == "quit":
                raise Quit
            shown = v or self._public_view()
            if a.kind == "bad":
                self.term.show(Text(refusal(a.key, keys, t, default), style="red"))
                continue
            if a.kind == "rules":
                self.term.show(screens.rules_screen(shown, t, self.info, page))
                page = (page + 1) % screens.RULES_PAGES
            else:
                self.term.show(screens.seat_circle(shown, t), screens.journals_table(shown, t))
            if redraw is not None:
                redraw()


# ---------------------------------------------------------------------------
# Resuming


@dataclass(frozen=True)
class Resumed:
    game: Game
    humans: tuple[str, ...]
    bots: str | None
    lang: str | None


def resume(path: Path, read: Callable[[Path], str] | None = None) -> Resumed:
    """The game of a saved record, brought to where it stopped.

    A record written by the terminal replays its decision log (mid-night
    included); any other ``darkcity-game/1`` record (``darkcity selfplay``)
    goes on from its last finished night. Raises :class:`ResumeError`.
    """
    try:
        text = read(path) if read else path.read_text(encoding="utf-8")
    except OSError as e:
        raise ResumeError(msg("{path}: {error}", path=str(path),
                              error=e.strerror or str(e))) from None
    except UnicodeDecodeError:
        raise ResumeError(msg("{path}: not UTF-8 text", path=str(path))) from None
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ResumeError(msg("{path}: not a JSON game record", path=str(path))) from None
    try:
        settings, seed = settings_from_record(doc)
    except RecordError as e:
        raise ResumeError(msg("{path}: {error}", path=str(path),
                              error=error_message(e))) from None
    term = doc.get("terminal") if isinstance(doc, dict) else None
    humans: tuple[str, ...] = ()
    bots = lang = None
    if isinstance(term, dict) and isinstance(term.get("log"), list):
        game = Game(settings, seed)
        for i, d in enumerate(term["log"]):
            try:
                game.do(decision_from_dict(d))
            except (IllegalDecision, ValueError, TypeError) as e:
                raise ResumeError(msg("{path}: decision {n} of the log: {error}",
                                      path=str(path), n=i + 1,
                                      error=error_message(e))) from None
        h = term.get("humans")
        if isinstance(h, list) and all(isinstance(x, str) and x in game.players for x in h):
            humans = tuple(h)
        # a level saved under its old name (``heuristic``) is read as the new one
        saved = term.get("bots")
        bots = level_key(saved) if isinstance(saved, str) else None
        lang = term.get("lang") if isinstance(term.get("lang"), str) else None
    else:
        r = replay(doc)
        if r.divergence is not None:
            raise ResumeError(msg("{path}: the record does not replay: {error}",
                                  path=str(path), error=str(r.divergence)))
        game = r.game
    return Resumed(game, humans, bots, lang)
