"""One player's decision, in secret: the question, its options, the prompt, the hand-overs.

The secret screen before a decision (the phase, the viewer's card, the table, and what
the phase needs: the draft order, the reveal's notes, the Zombies' narration), each
question with its numbered or seat-numbered options (the draft's is the hand itself),
the prompt line, and the hot-seat's screens: the keyboard passed on, a decision hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from darkcity.i18n import Translator, _, msg
from darkcity.tui.choices import Question, allowed
from darkcity.tui.screens.cards import (
    card_table,
    choice_label,
    option_label,
    own_card,
    own_card_panel,
)
from darkcity.tui.screens.night import zombie_narration
from darkcity.tui.screens.reveal import reveal_notes, threats
from darkcity.tui.screens.seats import (
    blind_line,
    decided_notes,
    seat_circle,
    title,
)
from darkcity.views import CardView, View

__all__ = [
    "decision_screen",
    "handoff_screen",
    "hide_screen",
    "prompt_text",
    "question_screen",
]


_QUESTIONS: Final[dict[str, str]] = {
    "setup": _("Where do you write your free XP?"),
    "draft": _("Which card do you keep?"),
    "take": _("Death is offered to you: take it (and write a name) or look at the hand?"),
    "names": _("Which name does Death write? Type a seat number"),
    "gesture": _("Your gesture: press Enter to confirm"),
    "withdrawal": _("Do you withdraw?"),
    "target": _("Your Zombie's final victim? Type a seat number"),
    "shows": _("Which role does your Devil show?"),
    "first": _("Point at whom? Type a seat number"),
    "second": _("And the second target? Type a seat number"),
    "kind": _("Which kind do you name?"),
    "seeks": _("Which gender do you seek?"),
}


def _question_key(q: Question) -> str:
    if q.field != "pick":
        return q.field
    head = q.options[0].value
    kind = head.get("type") if isinstance(head, dict) else None
    return {"free-xp": "setup", "draft-pick": "draft", "face-down-pick": "draft"}.get(
        str(kind), str(kind))


def question_screen(q: Question, v: View, t: Translator, first: str | None = None
                    ) -> RenderableType:
    """One question with its numbered (or seat-numbered) options (``first``: the
    first target already chosen, when asking for the second). The draft's
    question is the hand itself, one card a line."""
    key = _question_key(q)
    heading = t(_QUESTIONS.get(key, _("Choose")))
    if key == "draft":
        return _draft_question(q, v, t, heading)
    text = Text()
    for i, o in enumerate(q.options):
        text.append(f" {o.key:>5} ", style="bold yellow")
        text.append(option_label(q, o.value, v, t, i, first))
        if q.default is not None and o.key == q.default and len(q.options) > 1:
            text.append("  ← " + t(_("Enter")), style="dim")
        if i < len(q.options) - 1:
            text.append("\n")
    if key == "withdrawal":
        text = Text.assemble(threats(v, t), "\n", text)
    return Panel(text, title=heading, title_align="left", border_style="yellow")


def _draft_question(q: Question, v: View, t: Translator, heading: str) -> RenderableType:
    cards = [o for o in q.options if o.value.get("type") == "draft-pick"]
    table = card_table([CardView(o.value["card"]["role"], o.value["card"]["edition"],
                                 o.value["card"]["gender"]) for o in cards], v, t,
                       keys=[o.key for o in cards], heading=heading)
    rest = [o for o in q.options if o.value.get("type") != "draft-pick"]
    if not rest:
        return table
    more = Text()
    for o in rest:
        more.append(f" {o.key:>3} ", style="bold yellow")
        more.append(choice_label(o.value, v, t))
    return Group(table, more)


def prompt_text(player: str | None, keys: Sequence[str], t: Translator,
                default: str | None = None) -> str:
    """The prompt line: who answers and what is allowed."""
    who = f"{player} " if player else ""
    return f"{who}[{allowed(keys, t, default)}] > "



def decision_screen(v: View, t: Translator, texts: Sequence[str] | None = None
                    ) -> RenderableType:
    """The secret screen of ``v.viewer`` before a decision: the phase, their card,
    the table, and what the phase needs to show (the gestures, the narration...).
    The draft's hand is the question itself (:func:`question_screen`).
    ``texts``: the narration so far in ``t``'s language (the Zombies' choice)."""
    parts: list[RenderableType] = [title(v, t)]
    me = own_card(v)
    if v.phase == "setup":
        parts.append(Text(t(_("Before the first night each player writes 1 XP in one row of "
                              "the journal sheet (free XP)."))))
        return Group(*parts)
    notes = decided_notes(v, t)
    hot: set[str] = set()
    if v.phase in ("withdrawal", "zombie"):
        notes, hot = reveal_notes(v, t)
    parts.append(seat_circle(v, t, notes, hot=hot))
    blind = blind_line(v, t)
    if blind is not None:
        parts.append(blind)
    if v.phase == "draft":
        order = " → ".join(v.players[(v.players.index(v.active) + i) % len(v.players)]
                           for i in range(len(v.players)))
        parts.append(Text(t.render(msg("Draft order: {order}", order=order)), style="dim"))
        if v.hand is None:
            parts.append(Text(t(_("You choose last and Death is in play: you may take Death "
                                  "before looking at the hand."))))
        return Group(*parts)
    if me is not None:
        parts.append(own_card_panel(me, v, t))
    if v.phase == "withdrawal" and v.choices and not any(
            c.get("withdrawal") is True for c in v.choices):
        parts.append(Text(t(_("A Creature proposes to you: you may not withdraw.")),
                          style="bold magenta"))
    if v.phase == "zombie":
        parts.append(zombie_narration(v, t, texts))
    return Group(*parts)



def handoff_screen(name: str, t: Translator) -> RenderableType:
    """Hot-seat: the screen shown before a secret screen."""
    return Panel(Text(t.render(msg("Pass the keyboard to {name} — press Enter when {name} "
                                   "is ready", name=name)), style="bold"),
                 border_style="magenta", expand=False)


def hide_screen(label: str, t: Translator) -> RenderableType:
    """Hot-seat: a player's decision, kept on screen until they hide it."""
    return Group(Text("→ " + label, style="bold green"),
                 Text(t(_("Press Enter to hide your screen before the keyboard moves on.")),
                      style="magenta"))
