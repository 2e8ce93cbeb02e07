"""A night told: the Mayor's narration, the journal, the story so far, the victory.

Steps 1+ to 3 before the Zombies choose; a finished night in two screens (the
withdrawals and the narration step by step, then every card, the fates, the XP and the
journals); a resumed game's recap, a night a line; the winners, the conditions they
met and the tiebreak.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from darkcity.i18n import Translator, _, msg
from darkcity.journal import conditions_met
from darkcity.tui.screens.seats import (
    journals_table,
    title,
)
from darkcity.tui.screens.words import (
    CONDITIONS,
    FATES,
    MARKS,
    PHASES,
    card_label,
    role,
    role_name,
)
from darkcity.views import NightView, View

__all__ = [
    "night_journal_screen",
    "night_screen",
    "night_summary",
    "recap_screen",
    "victory_screen",
    "zombie_narration",
]


def zombie_narration(v: View, t: Translator, texts: Sequence[str] | None = None
                     ) -> RenderableType:
    """Steps 1+ to 3 narrated before the Zombies choose."""
    lines = _narrated([(e.step, (texts[i] if texts else e.text))
                       for i, e in enumerate(v.narration)], t)
    return Panel(lines, title=t(_("The Mayor narrates steps 1+ to 3")), title_align="left")


def _narrated(events: Sequence[tuple[str, str]], t: Translator) -> Text:
    text = Text()
    step = None
    for s, line in events:
        if s != step:
            step = s
            head = t(_("End of the night")) if s == "end" else t.render(
                msg("Step {step}", step=s))
            text.append(f"{head}\n", style="bold cyan")
        text.append(f"  {line}\n")
    if not events:
        text.append(t(_("Nothing happens.")) + "\n")
    text.rstrip()
    return text


def night_screen(n: NightView, v: View, t: Translator, texts: Sequence[str] | None = None
                 ) -> RenderableType:
    """A finished night, first screen: the withdrawals and the narration step by
    step (the journal is :func:`night_journal_screen`)."""
    parts: list[RenderableType] = [Text(t.render(msg("Night {n}: the Mayor narrates",
                                                     n=n.number)), style="bold red")]
    withdrew = [p for p, w in n.withdrawals if w is True]
    lowered = [p for p, w in n.withdrawals if isinstance(w, tuple) and w]
    line = t.render(msg("Phase 3: Withdrawal — withdrew: {names}",
                        names=", ".join(withdrew) or "—"))
    if lowered:
        line += "; " + t.render(msg("lowered a bolt: {names}", names=", ".join(lowered)))
    parts.append(Text(line))
    parts.append(Panel(_narrated([(e.step, (texts[i] if texts else e.text))
                                  for i, e in enumerate(n.events)], t),
                       title=t(_("Phase 4: Resolution")), title_align="left"))
    return Group(*parts)


def night_journal_screen(n: NightView, v: View, t: Translator) -> RenderableType:
    """A finished night, second screen: every card, the fates, the XP, the journals."""
    table = Table(title=t.render(msg("Night {n} — Phase 5: Journal", n=n.number)),
                  box=box.SIMPLE_HEAD, show_edge=False, expand=False)
    table.add_column(t(_("Player")))
    table.add_column(t(_("Card")))
    table.add_column(t(_("Shown")))
    table.add_column(t(_("Fate")))
    table.add_column(t(_("XP tonight")), justify="right")
    cards = dict(n.cards)
    gestures = dict(n.gestures)
    fates = dict(n.fates)
    marks = dict(n.marks)
    xp = dict(n.xp)
    for i, p in enumerate(v.players):
        c = cards[p]
        shown = gestures[p].shows if p in gestures else c.role
        fate = t(FATES[fates[p]])
        if marks.get(p):
            fate += " (" + ", ".join(t(MARKS[m]) for m in marks[p]) + ")"
        table.add_row(f"{i + 1} {p}", card_label(c, t),
                      role_name(shown, t) if shown != c.role else "",
                      fate, str(xp[p]) if xp[p] else "·")
    return Group(table, Text(), journals_table(v, t))


def night_summary(n: NightView, t: Translator) -> str:
    """One line for a finished night: who fell, who fled, who earned XP."""
    fates = dict(n.fates)
    out = [p for p, f in n.fates if f in ("killed", "damned", "abducted")]
    fled = [p for p, f in fates.items() if f == "withdrawn"]
    xp = [f"{p} +{x}" for p, x in n.xp if x]
    return t.render(msg("Night {n}: out: {out}; withdrew: {fled}; XP: {xp}", n=n.number,
                        out=", ".join(out) or "—", fled=", ".join(fled) or "—",
                        xp=", ".join(xp) or "—"))


def recap_screen(v: View, t: Translator) -> RenderableType:
    """A resumed game: where it stands, the nights so far in a line each, the journals."""
    text = Text(t.render(msg("Resuming: night {n}, {phase}.", n=v.night,
                             phase=t(PHASES[v.phase]))), style="bold")
    lines: list[RenderableType] = [text]
    for n in v.history[-8:]:
        lines.append(Text("  " + night_summary(n, t)))
    if v.phase == "gesture" or v.phase == "draft":
        decided = [s.name for s in v.seats if s.decided is True]
        if decided:
            lines.append(Text("  " + t.render(msg("Decided tonight: {names}",
                                                  names=", ".join(decided)))))
    lines.append(journals_table(v, t))
    return Panel(Group(*lines), title=t(_("The story so far")), title_align="left")


def victory_screen(v: View, t: Translator) -> RenderableType:
    """The winners, the conditions they met, and the tiebreak."""
    candidates = []
    for s in v.seats:
        j = {role(k): x for k, x in s.journal}
        met = conditions_met(j)
        if met:
            candidates.append((s.name, sum(j.values()), sum(1 for x in j.values() if x > 0),
                               met))
    text = Text()
    text.append(t.render(msg("Victory: {names}", names=", ".join(v.winners))) + "\n",
                style="bold green")
    if len(v.winners) > 1:
        text.append(t(_("A shared victory: still tied after the tiebreak.")) + "\n")
    text.rstrip()
    table = Table(title=t(_("Who met a victory condition")), box=box.SIMPLE_HEAD,
                  show_edge=False, expand=False)
    table.add_column(t(_("Player")))
    table.add_column(t(_("XP")), justify="right")
    table.add_column(t(_("Rows")), justify="right")
    table.add_column(t(_("Conditions")))
    for name, total, rows, met in sorted(candidates, key=lambda c: (-c[1], -c[2])):
        mark = " ♛" if name in v.winners else ""
        table.add_row(name + mark, str(total), str(rows),
                      ", ".join(t(CONDITIONS[c]) for c in met))
    parts: list[RenderableType] = [title(v, t), Panel(text, border_style="green"), table]
    if len(candidates) > 1:
        parts.append(Text(t(_("Tiebreak: the most XP in all wins, then the most rows with XP; "
                              "players still tied share the victory.")), style="dim"))
    parts.append(journals_table(v, t))
    return Group(*parts)


