"""Every screen of the terminal game as a Rich renderable, drawn from one view.

A screen function takes a :class:`~darkcity.views.View` (what one player, or
a spectator, may know: :func:`darkcity.views.view`) and a
:class:`~darkcity.i18n.Translator`, and returns something
``rich.console.Console.print`` draws. Nothing here reads the game itself, a
terminal or a clock: tests and ``scripts/capture_screens.py`` render screens
without a terminal.

The narration of a night comes with the view (``EventView.text``, in
English); another language passes the same events' texts rendered in its
language (``texts``), which the game loop makes from the same public events.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from darkcity.cast import CAST, PANEL, Class, Edition, Effect, Gender, Reach, Role, parse_role
from darkcity.i18n import Translator, _, msg
from darkcity.journal import conditions_met
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term
from darkcity.tui.choices import ENTER, Question, allowed
from darkcity.views import CardView, NightView, View

__all__ = [
    "card_table",
    "choice_label",
    "decision_screen",
    "handoff_screen",
    "journals_table",
    "night_screen",
    "prompt_text",
    "question_screen",
    "reveal_screen",
    "rules_screen",
    "seat_circle",
    "victory_screen",
    "zombie_narration",
]

# ---------------------------------------------------------------------------
# Vocabulary

#: The goals printed on each card (cast.RoleSpec.goals, marked for translation).
GOALS: Final[dict[Role, str]] = {r: CAST[r].goals for r in Role}  # cast.py marks them

EFFECTS: Final[dict[Effect, str]] = {
    Effect.KILL: _("kills"),
    Effect.KILL_NO_XP: _("kills, without XP"),
    Effect.HIT: _("one hit"),
    Effect.MISS: _("misses (an illusion)"),
    Effect.NOTHING: _("no effect"),
    Effect.EXORCISE: _("exorcises"),
    Effect.DAMN: _("drags to Hell"),
    Effect.ATTACKER_DIES: _("dies attacking"),
    Effect.REFLEX: _("is killed by silver"),
    Effect.ABDUCT: _("abducts"),
    Effect.CANNIBAL: _("cannibal rule"),
}

CLASSES: Final[dict[Class, str]] = {
    Class.MONSTER: _("monster"),
    Class.GUARDIAN: _("guardian"),
    Class.NEITHER: _("neither"),
}

PHASES: Final[dict[str, str]] = {
    "setup": _("Set-up: the free XP"),
    "draft": _("Phase 1: Draft"),
    "gesture": _("Phase 2: Gestures"),
    "withdrawal": _("Phase 3: Withdrawal"),
    "zombie": _("Phase 4: the Zombies choose"),
    "over": _("Game over"),
}

FATES: Final[dict[str, str]] = {
    "alive": _("alive"),
    "withdrawn": _("withdrawn"),
    "killed": _("killed"),
    "damned": _("damned"),
    "abducted": _("abducted"),
    "absent": _("absent (Death)"),
}

MARKS: Final[dict[str, str]] = {
    "wounded": _("wounded"),
    "awakened": _("awakened"),
    "exorcised": _("exorcised"),
    "undead": _("undead"),
}

CONDITIONS: Final[dict[str, str]] = {
    "six-roles": _("1 XP in six rows"),
    "eight-xp": _("8 XP in all"),
    "three-pairs": _("2 XP in three rows"),
    "four-in-one": _("4 XP in one row"),
}


def role(key: str | None) -> Role:
    r = parse_role(key) if key else None
    if r is None:
        raise ValueError(f"unknown role {key!r}")
    return r


def role_name(key: str | Role, t: Translator, form: str = "") -> str:
    r = key if isinstance(key, Role) else role(key)
    return t.term(role_term(r), form)


def gender_name(value: str, t: Translator) -> str:
    return t(GENDER_NAMES[Gender(value)]) if value else "?"


def card_label(c: CardView, t: Translator) -> str:
    """``Vampire (advanced, feminine)``."""
    return t.render(msg("{role} ({edition}, {gender})", role=role_name(c.role, t),
                        edition=t(EDITION_NAMES[Edition(c.edition)]),
                        gender=gender_name(c.gender, t)))


def gesture_shape(r: Role, t: Translator) -> str:
    shape = CAST[r].gesture
    reach = shape.reach
    if r is Role.DEVIL:
        return t(_("makes the gesture of another role (a disguise)"))
    if reach is Reach.NOBODY:
        return t(_("no gesture"))
    if reach is Reach.ANYONE:
        return t(_("points at one player")) if shape.targets == 1 else t(
            _("points at two players"))
    if reach is Reach.NEIGHBOUR:
        return t(_("points at a neighbour and chooses a gender")) if shape.seeks else t(
            _("points at a neighbour"))
    if reach is Reach.BOTH_NEIGHBOURS:
        return t(_("points at both neighbours"))
    if reach is Reach.KIND:
        return t(_("names a kind (a role)"))
    return t(_("writes a player's name at the draft"))


def initiative(r: Role) -> str:
    step = CAST[r].step
    return step if step is not None else "*"


def in_play(v: View) -> tuple[Role, ...]:
    """The roles of this game's deck: the journal sheet, and Death if in play."""
    roles = [role(k) for k in v.journal_roles]
    if v.death_in_play and Role.DEATH not in roles:
        roles.append(Role.DEATH)
    return tuple(roles)


def panel_text(r: Role, roles: Sequence[Role], t: Translator) -> str:
    """The role's row of the combat panel, against the roles in play."""
    row = PANEL.get(r)
    if row is None:
        return t(_("does not attack"))
    groups: dict[Effect, list[str]] = {}
    for target in roles:
        if target is Role.DEATH:
            continue
        groups.setdefault(row[target], []).append(role_name(target, t))
    return "\n".join(f"{t(EFFECTS[e])}: {', '.join(names)}" for e, names in groups.items())


# ---------------------------------------------------------------------------
# Pieces


def title(v: View, t: Translator) -> Text:
    text = Text()
    text.append("DARK CITY", style="bold red")
    if v.night:
        text.append("  ·  ")
        text.append(t.render(msg("Night {n}", n=v.night)), style="bold")
    text.append("  ·  ")
    text.append(t(PHASES[v.phase]), style="bold cyan")
    text.append("  ·  ")
    text.append(t.render(msg("Mayor: {name}", name=v.mayor)))
    if v.night:
        text.append("  ·  ")
        text.append(t.render(msg("Active player: {name}", name=v.active)))
    return text


def _seat_label(v: View, i: int, name: str) -> str:
    marks = ""
    if name == v.viewer:
        marks += "★"
    if name == v.active and v.night:
        marks += "◆"
    if v.seats[i].death:
        marks += "☠"
    return f"{i + 1} {name}{(' ' + marks) if marks else ''}"


def seat_circle(v: View, t: Translator, notes: Mapping[str, str] | None = None,
                width: int = 66) -> RenderableType:
    """The table seen from above: the seats clockwise (each one's left neighbour is
    the next seat), with a note under each name. At most ``width`` columns wide,
    narrower in a narrower terminal."""
    return _SeatCircle(v, t, dict(notes or {}), width)


class _SeatCircle:
    """Laid out when drawn, for the width the console offers."""

    def __init__(self, v: View, t: Translator, notes: dict[str, str], width: int) -> None:
        self.v, self.t, self.notes, self.width = v, t, notes, width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.panel(max(24, min(self.width, options.max_width - 4)))

    def panel(self, width: int) -> Panel:
        v, t, notes = self.v, self.t, self.notes
        n = len(v.players)
        height = 13
        cx, cy, rx, ry = width // 2, 6, max(4, width // 2 - 9), 5
        grid = [[" "] * width for _ in range(height)]
        styles: list[tuple[int, int, int, str]] = []

        def put(row: int, col: int, s: str, style: str = "") -> None:
            col = max(0, min(col, width - len(s)))
            for k, ch in enumerate(s[: width - col]):
                grid[row][col + k] = ch
            if style:
                styles.append((row, col, col + len(s), style))

        for i, name in enumerate(v.players):
            a = 2 * math.pi * i / n
            x = round(cx + rx * math.sin(a))
            y = round(cy - ry * math.cos(a))
            label = _seat_label(v, i, name)
            style = "bold yellow" if name == v.viewer else (
                "bold" if name in v.winners else "")
            put(y, x - len(label) // 2, label, style)
            note = notes.get(name)
            if note and y + 1 < height:
                put(y + 1, x - len(note) // 2, note, "dim")
        centre = t.render(msg("Night {n}", n=v.night)) if v.night else "·"
        put(cy, cx - len(centre) // 2, centre, "dim")
        lines = []
        for r, row in enumerate(grid):
            line = Text("".join(row).rstrip())
            for rr, a0, a1, st in styles:
                if rr == r:
                    line.stylize(st, a0, a1)
            lines.append(line)
        legend = Text(t(_("★ you · ◆ active player (drafts first) · ☠ Death · left neighbour "
                          "= next seat")), style="dim")
        return Panel(Group(*lines, legend), title=t(_("The table")), expand=False)


def decided_notes(v: View, t: Translator) -> dict[str, str]:
    """Who has decided at this point (never what)."""
    out = {}
    for s in v.seats:
        if s.decided is True:
            out[s.name] = "✓ " + t(_("decided"))
        elif s.decided is False:
            out[s.name] = "… " + t(_("deciding"))
    return out


def journals_table(v: View, t: Translator) -> RenderableType:
    """Everyone's journal (public, R-118), the totals and the victory conditions met."""
    table = Table(title=t(_("Journals")), show_lines=False, pad_edge=False)
    table.add_column(t(_("Player")))
    for key in v.journal_roles:
        table.add_column(role_name(key, t), justify="center")
    table.add_column(t(_("XP")), justify="right", style="bold")
    table.add_column(t(_("Victory")))
    for i, s in enumerate(v.seats):
        j = dict(s.journal)
        name = f"{i + 1} {s.name}" + (" ★" if s.name == v.viewer else "")
        met = conditions_met({role(k): x for k, x in j.items()})
        table.add_row(name, *[str(j[k]) if j.get(k) else "·" for k in v.journal_roles],
                      str(sum(j.values())), ", ".join(t(CONDITIONS[c]) for c in met))
    return table


def card_table(cards: Sequence[CardView], v: View, t: Translator, *,
               numbered: bool = True, heading: str = "", physical: bool = True
               ) -> RenderableType:
    """Cards with what matters when choosing one: initiative, gesture, goals, panel."""
    roles = in_play(v)
    table = Table(title=heading or None, show_lines=True, expand=True)
    if numbered:
        table.add_column("#", justify="right", style="bold yellow", no_wrap=True)
    table.add_column(t(_("Card")), ratio=2)
    table.add_column(t(_("Init.")), justify="center", no_wrap=True)
    table.add_column(t(_("Gesture")), ratio=2)
    table.add_column(t(_("Goals")), ratio=3)
    table.add_column(t(_("Combat panel")), ratio=4)
    first_of: dict[Role, int] = {}
    for i, c in enumerate(cards):
        r = role(c.role)
        name = Text(role_name(r, t), style="bold")
        name.append(f"\n{t(CLASSES[CAST[r].cls])}", style="dim")
        if physical:
            name.append(f", {t(EDITION_NAMES[Edition(c.edition)])}, "
                        f"{gender_name(c.gender, t)}", style="dim")
        row: list[RenderableType] = [str(i + 1)] if numbered else []
        if numbered and r in first_of:  # the same role again: say it once
            same = Text(t.render(msg("as card {n}", n=first_of[r] + 1)), style="dim")
            row += [name, initiative(r), same, same, same]
        else:
            first_of[r] = i
            row += [name, initiative(r), gesture_shape(r, t), t(GOALS[r]),
                    Text(panel_text(r, roles, t))]
        table.add_row(*row)
    return table


def own_card(v: View) -> CardView | None:
    for s in v.seats:
        if s.name == v.viewer:
            return s.card
    return None


def _seat_of(v: View, name: str) -> int:
    return v.players.index(name) + 1


def gesture_text(g: Mapping[str, Any], v: View, t: Translator) -> str:
    """A gesture: the role shown, at whom, the kind, the gender."""
    me = own_card(v)
    shown = str(g.get("shows") or (me.role if me else ""))
    parts = [role_name(shown, t)] if shown else []
    targets = g.get("targets") or []
    if targets:
        parts.append("→ " + ", ".join(f"{_seat_of(v, str(x))} {x}" for x in targets))
    elif g.get("kind"):
        parts.append("→ " + role_name(str(g["kind"]), t))
    elif shown:
        parts.append("— " + gesture_shape(role(shown), t))
    if g.get("seeks"):
        parts.append(f"({gender_name(str(g['seeks']), t)})")
    return " ".join(parts)


def choice_label(c: Mapping[str, Any], v: View, t: Translator, index: int = 0) -> str:
    """A legal choice (``View.choices``), in words."""
    kind = c.get("type")
    if kind == "free-xp":
        return t.render(msg("1 XP in the {role} row", role=role_term(role(str(c["role"])))))
    if kind == "draft-pick":
        cd = c["card"]
        return card_label(CardView(cd["role"], cd["edition"], cd["gender"]), t)
    if kind == "face-down-pick":
        return t(_("take one of the three face-down cards, blind"))
    if kind == "take-death":
        return t.render(msg("take Death and write the name {player}", player=c["names"]))
    if kind == "look-at-hand":
        return t(_("leave Death and look at the hand"))
    if kind == "withdrawal":
        w = c["withdrawal"]
        if w is False:
            return t(_("stay"))
        if w is True:
            return t(_("withdraw from the night"))
        mine = next((s.gesture for s in v.seats if s.name == v.viewer), None)
        aimed = mine.targets[w[0]] if mine and len(mine.targets) > w[0] else "?"
        return t.render(msg("lower the bolt aimed at {player}", player=aimed))
    if kind == "zombie":
        side = t(_("left")) if index == 0 else t(_("right"))
        return t.render(msg("attack {player} ({side} neighbour)", player=c["target"],
                            side=side))
    if kind == "gesture":
        return gesture_text(c, v, t)
    return str(c)


def option_label(q: Question, value: Any, v: View, t: Translator, index: int,
                 first: str | None = None) -> str:
    if q.field == "pick":
        return choice_label(value, v, t, index)
    if q.field == "shows":
        r = role(value)
        return f"{role_name(r, t)} — {gesture_shape(r, t)}"
    if q.field == "kind":
        return role_name(str(value), t)
    if q.field == "seeks":
        return gender_name(str(value), t)
    if q.field == "second" and value == first:
        return t.render(msg("{player} (both bolts)", player=value))
    return str(value)  # a player, by seat


_QUESTIONS: Final[dict[str, str]] = {
    "setup": _("Where do you write your free XP?"),
    "draft": _("Which card do you keep?"),
    "death": _("Death is offered to you: take it (and write a name) or look at the hand?"),
    "gesture": _("Your gesture: press Enter to confirm"),
    "withdrawal": _("Do you withdraw?"),
    "zombie": _("Your Zombie's final victim?"),
    "shows": _("Which role does your Devil show?"),
    "first": _("Point at whom? Type a seat number"),
    "second": _("And the second target? Type a seat number"),
    "kind": _("Which kind do you name?"),
    "seeks": _("Which gender do you seek?"),
}


def question_screen(q: Question, v: View, t: Translator, first: str | None = None
                    ) -> RenderableType:
    """One question with its numbered (or seat-numbered) options (``first``: the
    first target already chosen, when asking for the second)."""
    if q.field == "pick":
        head = q.options[0].value
        kind = head.get("type") if isinstance(head, dict) else None
        key = {"free-xp": "setup", "draft-pick": "draft", "face-down-pick": "draft",
               "take-death": "death", "look-at-hand": "death"}.get(str(kind), str(kind))
    else:
        key = q.field
    text = Text()
    for i, o in enumerate(q.options):
        shown = t(_("Enter")) if o.key == ENTER else o.key
        text.append(f" {shown:>5} ", style="bold yellow")
        text.append(option_label(q, o.value, v, t, i, first))
        if i < len(q.options) - 1:
            text.append("\n")
    return Panel(text, title=t(_QUESTIONS.get(key, _("Choose"))), title_align="left",
                 border_style="yellow")


def prompt_text(player: str | None, keys: Sequence[str], t: Translator) -> str:
    """The prompt line: who answers and what is allowed."""
    who = f"{player} " if player else ""
    return f"{who}[{allowed(keys, t)}] > "


def decision_screen(v: View, t: Translator, texts: Sequence[str] | None = None
                    ) -> RenderableType:
    """The secret screen of ``v.viewer`` before a decision: the phase, their card,
    the table, and what the phase needs to show (the hand, the gestures...).
    ``texts``: the narration so far in ``t``'s language (the Zombies' choice)."""
    parts: list[RenderableType] = [title(v, t)]
    me = own_card(v)
    if v.phase == "setup":
        parts.append(Text(t(_("Before the first night each player writes 1 XP in one row of "
                              "the journal sheet (free XP)."))))
        parts.append(journals_table(v, t))
        return Group(*parts)
    notes = decided_notes(v, t)
    if v.phase in ("withdrawal", "zombie"):
        notes = reveal_notes(v, t)
    parts.append(seat_circle(v, t, notes))
    if v.phase == "draft":
        order = " → ".join(v.players[(v.players.index(v.active) + i) % len(v.players)]
                           for i in range(len(v.players)))
        parts.append(Text(t.render(msg("Draft order: {order}", order=order)), style="dim"))
        if v.hand is not None:
            parts.append(card_table(v.hand, v, t, heading=t.render(
                msg("The hand handed to you ({n} cards)", n=len(v.hand)))))
        else:
            parts.append(Text(t(_("You choose last and Death is in play: you may take Death "
                                  "before looking at the hand (R-82)."))))
        return Group(*parts)
    if me is not None:
        parts.append(card_table([me], v, t, numbered=False, heading=t(_("Your card"))))
    if v.phase in ("withdrawal", "zombie"):
        parts.append(gestures_list(v, t))
    if v.phase == "withdrawal" and v.choices and not any(
            c.get("withdrawal") is True for c in v.choices):
        parts.append(Text(t(_("A Creature proposes to you: you may not withdraw (R-63).")),
                          style="bold magenta"))
    if v.phase == "zombie":
        parts.append(zombie_narration(v, t, texts))
    return Group(*parts)


def reveal_notes(v: View, t: Translator) -> dict[str, str]:
    out = {}
    for s in v.seats:
        if s.death:
            out[s.name] = role_name(Role.DEATH, t)
        elif s.gesture is not None:
            g = s.gesture
            note = role_name(g.shows, t)
            if g.targets:
                note += "→" + ",".join(str(_seat_of(v, x)) for x in g.targets)
            elif g.kind:
                note += "→" + role_name(g.kind, t)
            out[s.name] = note
    return out


def gestures_list(v: View, t: Translator) -> RenderableType:
    """Who shows what and points at whom (after the reveal)."""
    table = Table(title=t(_("1, 2, 3, now! The gestures")), show_header=True, expand=False)
    table.add_column(t(_("Player")))
    table.add_column(t(_("Shows")), style="bold")
    table.add_column(t(_("Points at")))
    for i, s in enumerate(v.seats):
        if s.death:
            table.add_row(f"{i + 1} {s.name}", role_name(Role.DEATH, t),
                          t(_("(a name, secret until the end)")))
            continue
        g = s.gesture
        if g is None:
            continue
        r = role(g.shows)
        if g.targets:
            aim = ", ".join(f"{_seat_of(v, x)} {x}" for x in g.targets)
        elif g.kind:
            aim = t.render(msg("the kind: {role}", role=role_name(g.kind, t)))
        elif CAST[r].gesture.reach is Reach.BOTH_NEIGHBOURS:
            aim = t(_("both neighbours"))
        else:
            aim = "—"
        if g.seeks:
            aim += f" ({gender_name(g.seeks, t)})"
        withdrew = ""
        if s.withdrawal is True:
            withdrew = "  ⇠ " + t(_("withdrew"))
        elif isinstance(s.withdrawal, tuple) and s.withdrawal:
            withdrew = "  ⇠ " + t(_("lowered a bolt"))
        table.add_row(f"{i + 1} {s.name}", role_name(r, t), aim + withdrew)
    return table


def reveal_screen(v: View, t: Translator) -> RenderableType:
    """Phase 2 revealed: "1, 2, 3, now!" — every gesture at once."""
    return Group(title(v, t), Text(t(_("The Mayor counts: 1, 2, 3, now!")), style="bold red"),
                 seat_circle(v, t, reveal_notes(v, t)), gestures_list(v, t))


def zombie_narration(v: View, t: Translator, texts: Sequence[str] | None = None
                     ) -> RenderableType:
    """Steps 1+ to 3 narrated before the Zombies choose (R-113)."""
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
    return text


def night_screen(n: NightView, v: View, t: Translator, texts: Sequence[str] | None = None
                 ) -> RenderableType:
    """A finished night: withdrawals, the narration step by step, fates, XP."""
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
    table = Table(title=t(_("Phase 5: Journal")), expand=False)
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
    parts.append(table)
    parts.append(journals_table(v, t))
    return Group(*parts)


def victory_screen(v: View, t: Translator) -> RenderableType:
    """The winners, the conditions they met, and the tiebreak (R-101, R-102)."""
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
    table = Table(title=t(_("Who met a victory condition")), expand=False)
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


def rules_screen(v: View, t: Translator) -> RenderableType:
    """``?``: the rules of the cards in play, the night's phases, how to win."""
    roles = sorted(in_play(v), key=lambda r: (CAST[r].step is None,
                                              CAST[r].step or "", r.value))
    cards = [CardView(r.key, "basic", "") for r in roles]
    table = card_table(cards, v, t, numbered=False, heading=t(_("The cards in play")),
                       physical=False)
    phases = Text()
    for key in (_("Phase 1: Draft — keep one card of the hand handed to you, pass the rest "
                  "to your left."),
                _("Phase 2: Gestures — on the Mayor's \"1, 2, 3, now!\" everybody shows their "
                  "gesture at once."),
                _("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP); the "
                  "target of a Creature may not."),
                _("Phase 4: Resolution — in initiative order (1+, 1, 2 … 8); * never acts."),
                _("Phase 5: Journal — XP for the goals met; then the next active player."),
                _("Victory: 1 XP in six rows, 8 XP in all, 2 XP in three rows, or 4 XP in "
                  "one row; tiebreak: most XP, then most rows.")):
        phases.append("• " + t(key) + "\n")
    return Group(Text(t(_("Rules of the cards in play")), style="bold"), table, phases)


def handoff_screen(name: str, t: Translator) -> RenderableType:
    """Hot-seat: the screen shown before a secret screen."""
    return Panel(Text(t.render(msg("Pass the keyboard to {name} — press Enter when {name} "
                                   "is ready", name=name)), style="bold"),
                 border_style="magenta", expand=False)
