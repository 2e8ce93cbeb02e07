"""The table companion in the terminal (``darkcity table``, issue #11): one session.

:class:`TerminalTable` draws the same flow as the web companion with Rich,
from the same pure model (:class:`darkcity.companion.Companion`), for a Mayor
with a laptop and the physical cards: night after night the draft (Death's name
typed hidden), the count printed at a steady beat and spoken where a speech
command exists (:func:`speaker`: ``espeak-ng``, ``spd-say``, ``say``), the
gestures typed one line each (``vampire Bia``, ``hunter Bia Caio``, ``alien
zombie``, ``creature feminine Caio``), the withdrawals, the calls in initiative
order and the journals. ``undo`` takes the last entry back, ``undo night`` the
last night; ``correct`` enters one answer again and keeps what came after it
while it holds (``correct Bia vampire Caio``, ``correct Bia fled``, ``correct
step 4``, ``correct night 1 Bia stayed``); ``quit`` stops (:class:`Quit`). The
table is saved as a ``darkcity-table/1`` record after every entry.

The command that reads the options and starts a session is
:mod:`darkcity.cli.table`.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.table import Table

from darkcity.cast import CAST, Edition, Gender, Reach, Role, parse_role
from darkcity.i18n import Message, Translator, msg
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term

__all__ = ["BEAT_S", "SPEECH_COMMANDS", "Quit", "TerminalTable", "ask_line", "speaker"]

#: Seconds between two numbers of "1, 2, 3, now!" (the web page's beat too).
BEAT_S: Final = 0.9
SPEECH_COMMANDS: Final = ("espeak-ng", "spd-say", "say")


class Quit(Exception):
    """The Mayor typed ``quit``."""


class _Correct(Exception):
    """The Mayor typed ``correct ...``: the words after it."""

    def __init__(self, words: list[str]) -> None:
        super().__init__("correct")
        self.words = words


#: The words of a correction, in English and Portuguese.
_CORRECT: Final = ("correct", "corrigir")
_NIGHT: Final = ("night", "noite")
_STEP: Final = ("step", "passo")
_FLED: Final = ("fled", "fugiu", "desistiu")
_STAYED: Final = ("stayed", "ficou")
_DEATH_WORDS: Final = ("death", "morte")


class _Undo(Exception):
    """The Mayor typed ``undo`` (``night``: ``undo night``)."""

    def __init__(self, night: bool) -> None:
        super().__init__("undo")
        self.night = night


def speaker(lang: str, enabled: bool) -> Callable[[str], None]:
    """A function that speaks a word without waiting, or does nothing."""
    if not enabled:
        return lambda _text: None
    for name in SPEECH_COMMANDS:
        path = shutil.which(name)
        if path is None:
            continue
        voice = "pt-br" if lang == "pt_BR" else "en"
        args: list[str]
        if name == "espeak-ng":
            args = [path, "-v", voice]
        elif name == "spd-say":
            args = [path, "-l", voice[:2]]
        else:
            args = [path]

        def speak(text: str, args: list[str] = args) -> None:
            with contextlib.suppress(OSError):
                subprocess.Popen([*args, text], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)

        return speak
    return lambda _text: None


class TerminalTable:
    """One companion session in the terminal."""

    def __init__(self, companion: Any, t: Translator, console: Console, save: Path,
                 *, beat: float, speak: Callable[[str], None],
                 ask: Callable[[str, bool], str]) -> None:
        self.c = companion
        self.t = t
        self.out = console
        self.save_path = save
        self.beat = beat
        self.speak = speak
        self._ask = ask
        self._asked = 0  # questions asked so far (a call that asks nothing pauses)

    # -- input -----------------------------------------------------------------

    def say(self, message: Message | str, style: str = "") -> None:
        text = self.t.render(message) if isinstance(message, Message) else message
        self.out.print(text, style=style or None, highlight=False, markup=False)

    def ask(self, message: Message, *, secret: bool = False) -> str:
        self._asked += 1
        answer = self._ask(self.t.render(message) + " ", secret).strip()
        words = answer.lower().split()
        if words in (["quit"], ["sair"]):
            raise Quit
        if words in (["undo"], ["desfazer"]):
            raise _Undo(night=False)
        if words in (["undo", "night"], ["desfazer", "noite"]):
            raise _Undo(night=True)
        if words and words[0] in _CORRECT:
            raise _Correct(answer.split()[1:])
        return answer

    def enter(self, entry: Any) -> bool:
        """Apply an entry; a refusal is printed (and False returned)."""
        from darkcity.companion import EntryError, write_table_record

        try:
            self.c.enter(entry)
        except EntryError as e:
            why = (msg("{player}: {reason}", player=e.player, reason=e.message)
                   if e.player else e.message)
            self.say(msg("Refused: {reason}", reason=why), "bold red")
            return False
        tmp = self.save_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(write_table_record(self.c), ensure_ascii=False, indent=1)
                       + "\n", encoding="utf-8")
        os.replace(tmp, self.save_path)
        return True

    def player(self, word: str) -> str | None:
        players = self.c.players
        if word.isdigit() and 1 <= int(word) <= len(players):
            return str(players[int(word) - 1])
        for p in players:
            if p.lower() == word.lower():
                return str(p)
        return None

    # -- the flow ----------------------------------------------------------------

    def run(self) -> None:
        from darkcity.companion import Stage

        while True:
            try:
                stage = self.c.stage
                if stage is Stage.OVER:
                    self.journals()
                    # a mistake noticed at the game's end is still corrected (or undone)
                    self.ask(msg("Enter to finish (correct ...: one answer entered wrong; "
                                 "undo night: take this one back)."))
                    return
                {Stage.DRAFT: self.draft, Stage.COUNT: self.count, Stage.REVEAL: self.reveal,
                 Stage.WITHDRAWAL: self.withdrawals, Stage.RESOLUTION: self.call,
                 Stage.JOURNALS: self.journals}[stage]()
            except _Undo as u:
                done = self.c.undo_night() if u.night else self.c.undo()
                if done is None:
                    self.say(msg("There is nothing to undo."), "yellow")
                elif u.night:
                    self.say(msg("Night {n} is taken back; the journals are as before it.",
                                 n=done), "yellow")
                else:
                    self.say(msg("The last entry is taken back."), "yellow")
                self._save()
            except _Correct as fix:
                self.correct(fix.words)

    def _save(self) -> None:
        from darkcity.companion import write_table_record

        self.save_path.write_text(json.dumps(write_table_record(self.c), ensure_ascii=False,
                                             indent=1) + "\n", encoding="utf-8")

    def draft(self) -> None:
        from darkcity.companion import Drafted

        c = self.c
        self.out.rule(self.t.render(msg("Night {n}", n=c.number)))
        if c.number == 1 and not c.entries:
            # each player's free XP, as it is written in their journal (it was assigned
            # without being shown)
            self.say(msg("Free XP: {rows}", rows=", ".join(
                f"{p} {self._role(c.setup.free_xp[p])}" for p in c.players)))
        self.say(msg("Phase 1: the draft. {player} is the active player.", player=c.active),
                 "bold")
        self.say(msg("The hand passes to the left (clockwise): {order}",
                     order=" → ".join(c.draft_order)))
        if not c.death_in_play:
            self.ask(msg("Press Enter when everyone has a card."))
            self.enter(Drafted())
            return
        last = c.last_drafter
        answer = self.ask(msg("Did {player} take Death? (y/n)", player=last)).lower()
        if answer[:1] not in ("y", "s"):
            self.enter(Drafted())
            return
        others = [p for p in c.players if p != last]
        self.say(msg("Hand the keyboard to {player}.", player=last), "bold yellow")
        listing = ", ".join(f"{i + 1} {p}" for i, p in enumerate(c.players))
        while True:
            name = self.ask(msg("{player}, the name you wrote ({players}; hidden):",
                                player=last, players=listing), secret=True)
            who = self.player(name)
            if who is not None and who in others and self.enter(Drafted(who)):
                self.out.print("\n" * 3)
                self.say(msg("Death's name is entered. Hand the keyboard back to the Mayor."))
                return
            if who is None:
                self.say(msg("Refused: {reason}", reason=msg("{name!r} is not one of the "
                                                             "players", name=name)), "red")

    def count(self) -> None:
        from darkcity.companion import Counted

        self.say(msg("Phase 2: everyone ready? Press Enter to count."), "bold")
        self.ask(msg("Enter:"))
        self._count()
        self.enter(Counted())

    def _count(self, ask: str | None = None) -> None:
        """"1, 2, 3, now!" at the steady beat (after ``ask``, two beats ahead: Phase 3's
        "Who wants to withdraw?", as the web companion says it)."""
        words = [self.t("1"), self.t("2"), self.t("3"), self.t("Now!")]
        if ask is not None:
            words = [ask, "", *words]
        start = time.monotonic() + 0.2
        for i, w in enumerate(words):
            delay = start + i * self.beat - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if w:
                self.speak(w)
                self.out.print(w, style="bold yellow", highlight=False)

    def _shows_help(self) -> str:
        return ", ".join(self.t(role_term(r).name) for r in self.c.showable)

    def reveal(self) -> None:
        from darkcity.companion import RevealDone

        c = self.c
        todo = c.to_enter()
        if not todo:
            self.enter(RevealDone())
            return
        p = todo[0]
        line = self.ask(msg("{player} shows ({roles}):", player=p, roles=self._shows_help()))
        entry = self._gesture(p, line)
        if entry is not None:
            self.enter(entry)

    def _gesture(self, p: str, line: str) -> Any:
        from darkcity.companion import GestureEntry

        words = line.split()
        if not words:
            return None
        shows = parse_role(words[0])
        if shows is None:
            self.say(msg("Refused: {reason}", reason=msg("unknown role {name!r}",
                                                         name=words[0])), "red")
            return None
        targets: list[str] = []
        kind: Role | None = None
        seeks: Gender | None = None
        for w in words[1:]:
            low = w.lower()
            if low in ("feminine", "feminino", "f"):
                seeks = Gender.FEMININE
            elif low in ("masculine", "masculino", "m"):
                seeks = Gender.MASCULINE
            elif CAST[shows].gesture.reach is Reach.KIND and parse_role(w) is not None:
                kind = parse_role(w)
            else:
                who = self.player(w)
                if who is None:
                    self.say(msg("Refused: {reason}", reason=msg(
                        "{name!r} is not one of the players", name=w)), "red")
                    return None
                targets.append(who)
        return GestureEntry(p, shows, tuple(targets), kind, seeks)

    def withdrawals(self) -> None:
        from darkcity.companion import WithdrawalEntry, WithdrawalsDone

        c = self.c
        # the gestures read back before the withdrawals, as the table sees them
        self.say(msg("Phase 2, entered:"), "bold")
        for p in c.gesturing:
            self.say(f"  {p}: {self._shown(c.gestures[p])}")  # i18n: not prose
        # Phase 3 counted as at a real table: "Who wants to withdraw? 1, 2, 3, now!"
        self._count(self.t("Who wants to withdraw?"))
        # each Hunter's arrow by tonight's Hunters (it named only the first of two)
        hunters = [p for p in c.gesturing if c.gestures[p].shows is Role.HUNTER
                   and len(c.gestures[p].targets) == 2]
        arrows = "; ".join(self.t.render(msg("{player}:1 for {player}'s arrow at {target} alone",
                                             player=h, target=c.gestures[h].targets[0]))
                           for h in hunters)
        line = self.ask(msg("Phase 3: who fled? (names; Enter for nobody)") if not hunters
                        else msg("Phase 3: who fled? (names; {arrows}; Enter for nobody)",
                                 arrows=arrows))
        for word in line.replace(",", " ").split():
            name, _sep, arrow = word.partition(":")
            who = self.player(name)
            if who is None:
                self.say(msg("Refused: {reason}", reason=msg(
                    "{name!r} is not one of the players", name=name)), "red")
                return
            w: bool | tuple[int, ...] = True
            if arrow:
                if arrow not in ("1", "2"):
                    self.say(msg("Refused: {reason}", reason=msg(
                        "the arrow is 1 or 2, not {arrow}", arrow=arrow)), "red")
                    return
                w = (int(arrow) - 1,)
            if not self.enter(WithdrawalEntry(who, w)):
                return
        self.enter(WithdrawalsDone())

    def _role(self, role: Role) -> str:
        return self.t(role_term(role).name)

    def _shown(self, g: Any) -> str:
        """A gesture, compact: "Vampire → Bia"."""
        text = self._role(g.shows)
        if g.targets:
            text += " → " + ", ".join(g.targets)
        if g.kind is not None:
            text += " → " + self._role(g.kind)
        if g.seeks is not None:
            text += f" ({self.t(GENDER_NAMES[g.seeks])})"
        return text

    def _card_choice(self, p: str, options: Sequence[Any], with_gender: bool) -> Any:
        from darkcity.night import Card

        seen: dict[tuple[Role, Edition, Gender | None], Any] = {}
        for card in options:
            key = (card.role, card.edition, card.identity if with_gender else None)
            seen.setdefault(key, Card(card.role, card.edition,
                                      card.identity if with_gender else None))
        choices = list(seen.values())
        if len(choices) == 1:
            return choices[0]
        listing = ", ".join(f"{i + 1} {self._card_label(x)}" for i, x in enumerate(choices))
        while True:
            answer = self.ask(msg("{player}'s card ({cards}):", player=p, cards=listing))
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                return choices[int(answer) - 1]

    def _card_label(self, card: Any) -> str:
        bits = []
        # the edition where the deck holds both of this role ("(basic)" on every card of
        # an all-basic deck doubled each row and told nothing)
        editions = {x.edition for x in self.c.deck.cards if x.role is card.role}
        if not CAST[card.role].special and len(editions) > 1:
            bits.append(self.t(EDITION_NAMES[card.edition]))
        if card.gender is not None:
            bits.append(self.t(GENDER_NAMES[card.gender]))
        name = self.t(role_term(card.role).name)
        return f"{name} ({', '.join(bits)})" if bits else name

    def call(self) -> None:
        q = self.c.question()
        assert q is not None
        asked = self._asked
        answer = self._answer_call(q)
        if answer is None:
            return
        if self._asked == asked:
            # nothing to ask: the call, a pause to turn the card over, then the step (the
            # calls that asked nothing printed all at once)
            time.sleep(3 * self.beat)
        before = len(self.c.narration)
        if self.enter(answer):
            self._narrate(before)

    def _narrate(self, before: int) -> None:
        """The steps narrated since ``before``."""
        for step, words in self.c.narration[before:]:
            label = msg("End of the night") if step == "end" else msg("Step {step}", step=step)
            self.say(label, "bold")
            for m in words:
                self.say("  " + self.t.render(m))
            if not words:
                self.say(msg("  Nothing happens."), "dim")

    def _answer_call(self, q: Any, old: Any = None) -> Any:
        """The Mayor's answer to the call ``q`` (a Call), or None when refused; ``old``,
        the answer entered before (a correction), is what Enter keeps."""
        from darkcity.companion import Call

        if q.role is None:
            self.say(msg("Turn over the cards still unknown."), "bold")
        else:
            self.say(msg("{role:The}?", role=role_term(q.role)), "bold yellow")
            self.speak(self.t.render(msg("{role:The}?", role=role_term(q.role))))
        holders = list(q.chosen) if old is None else [p for p in q.candidates
                                                       if p in old.cards]
        if q.role in (Role.DEVIL, Role.ANGEL) and q.candidates:
            pre = ", ".join(holders)
            answer = self.ask(msg("Who turns it over? ({players}; Enter: {chosen})",
                                  players=", ".join(q.candidates), chosen=pre or "-"))
            if answer:
                holders = []
                for w in answer.replace(",", " ").split():
                    who = self.player(w)
                    if who is None or who not in q.candidates:
                        self.say(msg("Refused: {reason}", reason=msg(
                            "{name!r} may not turn it over", name=w)), "red")
                        return None
                    holders.append(who)
        cards: dict[str, Any] = {}
        entered: dict[str, Any] = {}  # the answers asked: another's card may follow
        for p in [*(h for h in holders if h not in q.asked), *q.asked]:
            told = q.followed(p, entered)
            if told is not None:
                cards[p] = told
                self.say(msg("{player}: the other card, {card}", player=p,
                             card=self._card_label(told)), "dim")
                continue
            cards[p] = self._card_choice(p, q.options.get(p, ()), q.gendered(p))
            if len(q.answers(p)) > 1:
                entered[p] = cards[p]
        zombies: dict[str, str] = {}
        for z, (left, right, aimed) in q.zombies.items():
            kept = old.zombies.get(z, aimed) if old is not None else aimed
            answer = self.ask(msg("{player}, the Zombie, attacks {left} or {right}? "
                                  "(Enter: {aimed})", player=z, left=left, right=right,
                                  aimed=kept))
            zombies[z] = self.player(answer) or kept if answer else kept
        return Call(q.step, cards, zombies)

    # -- corrections ------------------------------------------------------------------

    def correct(self, words: list[str]) -> None:
        """``correct [night N] NAME GESTURE``, ``correct [night N] NAME fled|stayed|NAME:1``,
        ``correct [night N] step S`` or ``correct [night N] death NAME``: one answer
        entered again, what came after it kept while it holds (Companion.correct)."""
        from darkcity.companion import Drafted, EntryError, Stage, WithdrawalEntry

        c = self.c
        # from the reveal on, tonight's (a gesture entered one player ago); before it, at
        # the draft and the count, the night just finished
        tonight = c.stage in (Stage.REVEAL, Stage.WITHDRAWAL, Stage.RESOLUTION,
                              Stage.JOURNALS, Stage.OVER)
        night = c.number if tonight else len(c.nights)
        low = [w.lower() for w in words]
        if len(low) >= 2 and low[0] in _NIGHT and low[1].isdigit():
            night, words, low = int(low[1]), words[2:], low[2:]
        usage = msg("To correct: 'correct Bia vampire Caio' (a gesture), 'correct Bia fled', "
                    "'stayed' or 'Bia:1' (a withdrawal), 'correct step 4' (a call), 'correct "
                    "death Bia' (the name Death wrote); 'correct night 1 ...' for an earlier "
                    "night.")
        if not words or night < 1:
            self.say(usage, "yellow")
            return
        try:
            if low[0] in _DEATH_WORDS and len(low) == 2:
                named = self.player(words[1])
                if named is None:
                    self.say(msg("Refused: {reason}", reason=msg(
                        "{name!r} is not one of the players", name=words[1])), "red")
                    return
                entry: Any = Drafted(named)
            elif low[0] in _STEP and len(low) == 2:
                past = c.at(night, low[1])
                q = past.question()
                old = next((x for x in c.at(night).calls if x.step == low[1]), None)
                entry = self._answer_call(q, old)
                if entry is None:
                    return
            else:
                name, _sep, bolt = words[0].partition(":")
                who = self.player(name)
                if who is None:
                    self.say(msg("Refused: {reason}", reason=msg(
                        "{name!r} is not one of the players", name=name)), "red")
                    return
                rest = low[1:]
                if bolt in ("1", "2") and not rest:
                    entry = WithdrawalEntry(who, (int(bolt) - 1,))
                elif rest in ([w] for w in _FLED):
                    entry = WithdrawalEntry(who, True)
                elif rest in ([w] for w in _STAYED):
                    entry = WithdrawalEntry(who, False)
                else:
                    entry = self._gesture(who, " ".join(words[1:]))
                    if entry is None:
                        self.say(usage, "yellow")
                        return
            # what it takes back is said before it is done, as on the web page
            trial = copy.deepcopy(c)
            dropped = trial.correct(entry, night)
            if dropped:
                what = msg("1 entry") if dropped == 1 else msg("{n} entries", n=dropped)
                ask = (msg("This correction takes back what was entered after it ({what}), "
                           "back to night {night}: you enter it again. Correct anyway?",
                           what=what, night=trial.number) if trial.number < c.number else
                       msg("This correction takes back what was entered after it ({what}): "
                           "you enter it again. Correct anyway?", what=what))
                if self.ask(msg("{question} (y/n)", question=ask)).lower()[:1] not in (
                        "y", "s"):
                    self.say(msg("Nothing changed."), "yellow")
                    return
            dropped = c.correct(entry, night)
        except EntryError as e:
            why = (msg("{player}: {reason}", player=e.player, reason=e.message)
                   if e.player else e.message)
            self.say(msg("Refused: {reason}", reason=why), "bold red")
            return
        self._save()
        if dropped:
            what = msg("1 entry") if dropped == 1 else msg("{n} entries", n=dropped)
            self.say(msg("Corrected. What was entered after it and no longer holds was taken "
                         "back ({what}): enter it again.", what=what), "yellow")
        else:
            self.say(msg("Corrected; everything entered after it still holds."), "green")

    def journals(self) -> None:
        from darkcity.companion import NextNight, Stage
        from darkcity.journal import conditions_met

        c = self.c
        last = c.nights[-1]
        # two tables, each whole at 120 columns: the night (fate, XP, card), then the
        # journals (one narrow column a row of the sheet, its name never cut: at 120
        # columns one table split "Sacerdot|e" and cut "sobreviv…")
        night = Table(title=self.t.render(msg("Night {n}", n=last.number)))
        night.add_column(self.t.render(msg("Player")), no_wrap=True)
        night.add_column(self.t.render(msg("Fate")), no_wrap=True)
        night.add_column("XP", no_wrap=True)
        night.add_column(self.t.render(msg("Card")), no_wrap=True)
        from darkcity.companion.text import FATES

        gendered = any(x.role is Role.CREATURE for x in c.deck.cards)
        for i, p in enumerate(c.players):
            card = last.night.cards[p]
            night.add_row(p, self.t(FATES[last.result.fates[i]]), f"+{last.result.xp[i]}",
                          self._card_label(card if gendered else card._replace(gender=None)))
        self.out.print(night)
        journals = Table(title=self.t.render(msg("Journals")), padding=(0, 1))
        journals.add_column(self.t.render(msg("Player")), no_wrap=True)
        for r in c.sheet:  # whole names (cut to four letters they read Devi, Vamp, Were)
            name = self._role(r)
            journals.add_column(name, no_wrap=True, min_width=len(name), justify="center")
        journals.add_column("XP", no_wrap=True, justify="right")
        for i, p in enumerate(c.players):
            journals.add_row(p, *[str(c.journals[i].get(r, "")) for r in c.sheet],
                             str(sum(c.journals[i].values())))
        self.out.print(journals)
        if c.stage is Stage.OVER:
            from darkcity.companion.text import CONDITIONS

            for p in c.winners:
                met = ", ".join(self.t(CONDITIONS[k])
                                for k in conditions_met(c.journals[c.players.index(p)]))
                self.say(msg("Winner: {player} ({conditions})", player=p, conditions=met),
                         "bold green")
            self.say(msg("The record is in {path}.", path=str(self.save_path)))
            return
        self.ask(msg("Enter for the next night (correct ...: one answer entered wrong; "
                     "undo night: take this one back)."))
        self.enter(NextNight())


def ask_line(prompt: str, secret: bool) -> str:
    if secret:
        import getpass

        return getpass.getpass(prompt)
    try:
        return input(prompt)
    except EOFError:
        raise Quit from None
