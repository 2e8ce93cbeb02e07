"""Every screen of the terminal game as a Rich renderable, drawn from one view.

A screen function takes a :class:`~darkcity.views.View` (what one player, or
a spectator, may know: :func:`darkcity.views.view`) and a
:class:`~darkcity.i18n.Translator`, and returns something
``rich.console.Console.print`` draws. Nothing here reads the game itself, a
terminal or a clock: tests and ``scripts/capture_screens.py`` render screens
without a terminal. What the table agreed before the first night (the deck,
the bots, the seed) comes as a :class:`TableInfo`.

Every screen fits a terminal of :data:`FIT` (120 columns, 40 rows): cards are
compact (one line each when choosing), their powers and the combat panels are
in the help (``?``, two pages), and a night is told in two screens (the
narration, then the journal).

The narration of a night comes with the view (``EventView.text``, in
English); another language passes the same events' texts rendered in its
language (``texts``), which the game loop makes from the same public events.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from darkcity.bots.levels import LEGACY, LEVELS, level_key
from darkcity.cast import (
    CAST,
    PANEL,
    Class,
    Edition,
    Effect,
    Gender,
    Line,
    Reach,
    Role,
    parse_role,
)
from darkcity.i18n import Translator, _, msg
from darkcity.journal import conditions_met
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term
from darkcity.tui.choices import Question, allowed
from darkcity.views import CardView, NightView, View

__all__ = [
    "FIT",
    "RULES_PAGES",
    "TableInfo",
    "bots_styles",
    "card_table",
    "choice_label",
    "decision_screen",
    "handoff_screen",
    "hide_screen",
    "journals_table",
    "night_journal_screen",
    "night_screen",
    "prompt_text",
    "question_screen",
    "recap_screen",
    "reveal_screen",
    "rules_screen",
    "seat_circle",
    "settings_line",
    "size_warning",
    "threats",
    "victory_screen",
    "zombie_narration",
]

#: The terminal every screen fits: (columns, rows).
FIT: Final = (120, 40)
#: The smallest terminal the game plays well in (narrower: tables wrap).
SMALLEST: Final = (100, 40)
#: How many pages ``?`` has (the cards, then the combat panels and the night).
RULES_PAGES: Final = 2

# ---------------------------------------------------------------------------
# Vocabulary

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

#: The bots' levels (darkcity.bots.levels), as the screens name them, and how each plays.
BOT_LEVEL_NAMES: Final[dict[str, str]] = {k: lv.word for k, lv in {**LEVELS, **LEGACY}.items()}
BOT_LEVEL_LINES: Final[dict[str, str]] = {k: lv.line for k, lv in {**LEVELS, **LEGACY}.items()}

@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the table agreed before the first night: public to everybody."""

    deck: str  # the preset's name, or "custom"
    cards: tuple[CardView, ...]  # the deck's cards (which roles, which editions)
    seed: str
    bots: str  # the bots' level
    humans: tuple[str, ...]  # the players at the keyboard
    #: each bot's style, as its description's message id (issue #32), seat order
    styles: tuple[tuple[str, str], ...] = ()


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


def _holds(line: Line, roles: Collection[Role], editions: Collection[str]) -> bool:
    """Is this line of a card true here (its edition among ``editions``, the role
    it needs among ``roles``)?"""
    if line.edition is not None and line.edition.value not in editions:
        return False
    return line.needs is None or line.needs in roles


def goal_lines(r: Role, roles: Collection[Role], editions: Collection[str], t: Translator
               ) -> list[str]:
    """The goals of ``r``'s card, only the lines that hold with these cards."""
    return [t(x.text) for x in CAST[r].goal_lines if _holds(x, roles, editions)]


def power_lines(r: Role, roles: Collection[Role], editions: Collection[str], t: Translator
                ) -> list[str]:
    """What ``r`` does besides its gesture and its combat panel."""
    out = [t(x.text) for x in CAST[r].powers if _holds(x, roles, editions)]
    if CAST[r].tough:
        out.insert(0, t(_("Two hits to kill it: the first one only marks it.")))
    return out


def panel_text(r: Role, roles: Sequence[Role], t: Translator, sep: str = "\n") -> str:
    """The role's row of the combat panel, against the roles in play."""
    row = PANEL.get(r)
    if row is None:
        return t(_("does not attack"))
    groups: dict[Effect, list[str]] = {}
    for target in roles:
        if target is Role.DEATH:
            continue
        groups.setdefault(row[target], []).append(role_name(target, t))
    return sep.join(f"{t(EFFECTS[e])}: {', '.join(names)}" for e, names in groups.items())


def _seat_of(v: View, name: str) -> int:
    return v.players.index(name) + 1


def _seated(v: View, name: str) -> str:
    """``3 Caio``: a player as the questions name them, by seat."""
    return f"{_seat_of(v, name)} {name}"


def neighbours(v: View, name: str) -> tuple[str, str]:
    """(left, right) of ``name``: the next seats either way, Death's seat skipped."""
    n = len(v.players)
    i = v.players.index(name)
    out = []
    for step in (1, -1):
        j = (i + step) % n
        while v.seats[j].death and j != i:
            j = (j + step) % n
        out.append(v.players[j])
    return out[0], out[1]


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


def deck_name(info: TableInfo, t: Translator) -> str:
    if info.deck == "basic":
        return t(_("Deck: basic"))
    if info.deck == "advanced":
        return t(_("Deck: advanced"))
    return t.render(msg("Deck: {deck}", deck=info.deck))


def settings_line(info: TableInfo, players: Sequence[str], t: Translator) -> Text:
    """The game's settings in one line (kept on every hot-seat screen)."""
    bots = [p for p in players if p not in info.humans]
    key = level_key(info.bots) or info.bots
    level = t(BOT_LEVEL_NAMES.get(key, key))
    parts = [t.render(msg("At the keyboard: {humans}", humans=", ".join(info.humans))),
             t.render(msg("Bots ({level}): {bots}", level=level, bots=", ".join(bots) or "—")),
             deck_name(info, t),
             t.render(msg("Seed: {seed}", seed=info.seed))]
    return Text(" · ".join(parts), style="dim")


def bots_styles(info: TableInfo, t: Translator) -> Text | None:
    """Who each bot is at this table (its style, in the reader's language), said once
    before the first night; None when its level has no styles."""
    if not info.styles:
        return None
    text = Text(t.render(msg("The bots at this table:")), style="bold")
    key = level_key(info.bots) or info.bots
    if key in BOT_LEVEL_LINES:  # the level, and how it plays
        text.append(f"\n  {t(BOT_LEVEL_NAMES[key]).capitalize()}: ", style="bold")
        text.append(t(BOT_LEVEL_LINES[key]))
    for player, description in info.styles:
        text.append(f"\n  {player}: ", style="bold")
        text.append(t(description))
    return text


def size_warning(columns: int, rows: int, t: Translator) -> Text | None:
    """A warning when the terminal is smaller than the screens (None: big enough)."""
    want_c, want_r = SMALLEST
    if columns >= want_c and rows >= want_r:
        return None
    return Text(t.render(msg("This terminal is {columns}×{rows}: darkcity plays best in at "
                             "least {want_c}×{want_r} (screens will scroll). Enlarge the "
                             "window, or go on.", columns=columns, rows=rows, want_c=want_c,
                             want_r=want_r)), style="bold yellow")


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
                width: int = 76, hot: Collection[str] = ()) -> RenderableType:
    """The table seen from above: the seats clockwise (each one's left neighbour is
    the next seat), with a note under each name (``hot``: the notes to highlight,
    the arrows aimed at the viewer). At most ``width`` columns wide, narrower in a
    narrower terminal; ten lines high."""
    return _SeatCircle(v, t, dict(notes or {}), width, frozenset(hot))


class _SeatCircle:
    """Laid out when drawn, for the width the console offers."""

    def __init__(self, v: View, t: Translator, notes: dict[str, str], width: int,
                 hot: frozenset[str]) -> None:
        self.v, self.t, self.notes, self.width, self.hot = v, t, notes, width, hot

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = max(self.width, len(self.legend()) + 8)  # the legend under the frame
        yield self.panel(max(24, min(wide, options.max_width - 4)))

    def legend(self) -> str:
        return self.t(_("★ you · ◆ active player (drafts first) · ☠ Death · left neighbour "
                        "= next seat"))

    def panel(self, width: int) -> Panel:
        v, t, notes = self.v, self.t, self.notes
        n = len(v.players)
        height = 8
        cx, cy, rx, ry = width // 2, 3, max(4, width // 2 - 9), 3
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
                put(y + 1, x - len(note) // 2, note, "bold red" if name in self.hot else "dim")
        centre = t.render(msg("Night {n}", n=v.night)) if v.night else "·"
        put(cy, cx - len(centre) // 2, centre, "dim")
        lines = []
        for r, row in enumerate(grid):
            line = Text("".join(row))  # full width: the frame holds the legend
            for rr, a0, a1, st in styles:
                if rr == r:
                    line.stylize(st, a0, a1)
            lines.append(line)
        return Panel(Group(*lines), title=t(_("The table")), subtitle=self.legend(),
                     subtitle_align="left", expand=False)


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
    """Everyone's journal (public), the totals and the victory conditions met."""
    table = Table(title=t(_("Journals")), box=box.SIMPLE_HEAD, show_edge=False)
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


def _card_name(c: CardView, t: Translator, physical: bool = True) -> Text:
    r = role(c.role)
    name = Text(role_name(r, t), style="bold")
    extra = [t(CLASSES[CAST[r].cls])]
    if physical:
        extra += [t(EDITION_NAMES[Edition(c.edition)]), gender_name(c.gender, t)]
    name.append(" " + ", ".join(extra), style="dim")
    return name


def card_table(cards: Sequence[CardView], v: View, t: Translator, *,
               keys: Sequence[str] | None = None, heading: str = "",
               powers: bool = False) -> RenderableType:
    """Cards, one line each where it fits: what matters when choosing one (the
    initiative, the gesture, the goals of this card; ``powers``: and what it does
    besides). ``keys``: the keys that choose them, as a first column. The combat
    panels are in the help (``?``)."""
    roles = in_play(v)
    table = Table(title=heading or None, title_justify="left", box=box.SIMPLE_HEAD,
                  show_edge=False, expand=True, padding=(0, 1))
    if keys is not None:
        table.add_column("#", justify="right", style="bold yellow", no_wrap=True)
    table.add_column(t(_("Card")), no_wrap=True)
    table.add_column(t(_("Init.")), justify="center", no_wrap=True)
    table.add_column(t(_("Gesture")), ratio=2)
    table.add_column(t(_("Goals")), ratio=4)
    first_of: dict[tuple[str, str], int] = {}
    for i, c in enumerate(cards):
        r = role(c.role)
        row: list[RenderableType] = [keys[i]] if keys is not None else []
        same = (c.role, c.edition)
        if keys is not None and same in first_of:  # the same card again: say it once
            like = Text(t.render(msg("as card {n}", n=keys[first_of[same]])), style="dim")
            row += [_card_name(c, t), initiative(r), like, like]
        else:
            first_of[same] = i
            lines = goal_lines(r, roles, (c.edition,), t)
            if powers:
                lines += [f"• {p}" for p in power_lines(r, roles, (c.edition,), t)]
            row += [_card_name(c, t), initiative(r), gesture_shape(r, t), "\n".join(lines)]
        table.add_row(*row)
    return table


def own_card_panel(c: CardView, v: View, t: Translator) -> RenderableType:
    """The viewer's card: what it is, its initiative and gesture, its goals and powers."""
    r = role(c.role)
    roles = in_play(v)
    head = _card_name(c, t)
    head.append("  ·  " + t.render(msg("initiative {step}", step=initiative(r))))
    head.append("  ·  " + gesture_shape(r, t))
    body = Text("\n".join([*goal_lines(r, roles, (c.edition,), t),
                           *(f"• {p}" for p in power_lines(r, roles, (c.edition,), t))]))
    return Panel(Group(head, body), title=t(_("Your card")), title_align="left",
                 border_style="cyan")


def own_card(v: View) -> CardView | None:
    for s in v.seats:
        if s.name == v.viewer:
            return s.card
    return None


def gesture_text(g: Mapping[str, Any], v: View, t: Translator) -> str:
    """A gesture: the role shown, at whom, the kind, the gender."""
    me = own_card(v)
    shown = str(g.get("shows") or (me.role if me else ""))
    parts = [role_name(shown, t)] if shown else []
    targets = g.get("targets") or []
    if targets:
        parts.append("→ " + ", ".join(_seated(v, str(x)) for x in targets))
    elif g.get("kind"):
        parts.append("→ " + role_name(str(g["kind"]), t))
    elif shown:
        parts.append("— " + gesture_shape(role(shown), t))
    if g.get("seeks"):
        parts.append(f"({gender_name(str(g['seeks']), t)})")
    return " ".join(parts)


def gone_tonight(v: View) -> tuple[set[str], set[str]]:
    """(fled, fallen): who withdrew, and who is out of the night after the steps
    narrated so far (the engine's fates after step 3, in the view)."""
    fled = {s.name for s in v.seats if s.withdrawal is True}
    fallen = {p for p, fate in v.fates_so_far if fate not in ("alive", "withdrawn")}
    return fled, fallen


def zombie_label(target: str, v: View, t: Translator) -> str:
    """A neighbour the Zombie may attack: which side, whether it is the target of
    its gesture, whether it fled or fell."""
    me = v.viewer or ""
    left, _right = neighbours(v, me)
    side = t(_("left neighbour")) if target == left else t(_("right neighbour"))
    notes = [side]
    mine = next((s.gesture for s in v.seats if s.name == me), None)
    if mine is not None and target in mine.targets:
        notes.append(t(_("your target now")))
    fled, fallen = gone_tonight(v)
    if target in fled:
        notes.append(t(_("fled: the attack is lost")))
    elif target in fallen:
        notes.append(t(_("already fallen: the attack is lost")))
    return t.render(msg("attack {player} ({notes})", player=target, notes="; ".join(notes)))


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
        return zombie_label(str(c["target"]), v, t)
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
    if q.field == "take":
        return t(_("take Death, then write a name")) if value else t(
            _("leave Death and look at the hand"))
    if q.field == "target":
        return zombie_label(str(value), v, t)
    if q.field == "second" and value == first:
        return t.render(msg("{player} (both bolts)", player=value))
    if q.field in ("first", "second") and v.viewer is not None:
        left, right = neighbours(v, v.viewer)
        if value == left:
            return f"{value} ({t(_('left neighbour'))})"
        if value == right:
            return f"{value} ({t(_('right neighbour'))})"
    return str(value)  # a player, by seat


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


def blind_line(v: View, t: Translator) -> Text | None:
    """The last drafter's blind take, announced to the table (never the card)."""
    if v.blind_pick is None:
        return None
    if v.blind_pick == v.viewer:
        return Text(t(_("You took a face-down card: nobody knows which.")), style="magenta")
    return Text(t.render(msg("{player} took a face-down card (nobody knows which).",
                             player=v.blind_pick)), style="magenta")


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


def _aims_at(v: View, i: int, name: str) -> bool:
    """Does the gesture of seat ``i`` aim at ``name`` (a player, or the kind of their
    card, or both neighbours)?"""
    s = v.seats[i]
    g = s.gesture
    if g is None or s.name == name:
        return False
    if name in g.targets:
        return True
    me = own_card(v) if name == v.viewer else None
    if g.kind and me is not None and g.kind == me.role:
        return True
    if not g.targets and CAST[role(g.shows)].gesture.reach is Reach.BOTH_NEIGHBOURS:
        return name in neighbours(v, s.name)
    return False


def reveal_notes(v: View, t: Translator) -> tuple[dict[str, str], set[str]]:
    """The note of each seat after the reveal (the role shown, the seats it points
    at), and the seats whose gesture aims at the viewer."""
    out = {}
    hot = set()
    for i, s in enumerate(v.seats):
        if s.death:
            out[s.name] = role_name(Role.DEATH, t)
        elif s.gesture is not None:
            g = s.gesture
            note = role_name(g.shows, t)
            if g.targets:
                note += "→" + ",".join("★" if x == v.viewer else str(_seat_of(v, x))
                                       for x in g.targets)
            elif g.kind:
                note += "→" + role_name(g.kind, t)
            if v.viewer is not None and _aims_at(v, i, v.viewer):
                hot.add(s.name)
                if "★" not in note:
                    note += " ★"
            out[s.name] = note
    return out, hot


def threats(v: View, t: Translator) -> Text:
    """Who points at the viewer, and with which role shown."""
    if v.viewer is None:
        return Text()
    who = [f"{_seated(v, s.name)} ({role_name(s.gesture.shows, t)})"
           for i, s in enumerate(v.seats) if s.gesture is not None and _aims_at(v, i, v.viewer)]
    if not who:
        return Text(t(_("Nobody points at you.")), style="green")
    return Text(t.render(msg("Aimed at you: {players}", players=", ".join(who))),
                style="bold red")


def gestures_list(v: View, t: Translator) -> RenderableType:
    """Who shows what and points at whom (after the reveal)."""
    table = Table(title=t(_("1, 2, 3, now! The gestures")), box=box.SIMPLE_HEAD,
                  show_edge=False, expand=False)
    table.add_column(t(_("Player")))
    table.add_column(t(_("Shows")), style="bold")
    table.add_column(t(_("Points at")))
    for i, s in enumerate(v.seats):
        if s.death:
            table.add_row(_seated(v, s.name), role_name(Role.DEATH, t),
                          t(_("(a name, secret until the end)")))
            continue
        g = s.gesture
        if g is None:
            continue
        r = role(g.shows)
        if g.targets:
            aim = ", ".join(_seated(v, x) + (" ★" if x == v.viewer else "") for x in g.targets)
        elif g.kind:
            aim = t.render(msg("the kind: {role}", role=role_name(g.kind, t)))
        elif CAST[r].gesture.reach is Reach.BOTH_NEIGHBOURS:
            aim = t(_("both neighbours"))
        else:
            aim = "—"
        if g.seeks:
            aim += f" ({gender_name(g.seeks, t)})"
        if s.withdrawal is True:
            aim += "  ⇠ " + t(_("withdrew"))
        elif isinstance(s.withdrawal, tuple) and s.withdrawal:
            aim += "  ⇠ " + t(_("lowered a bolt"))
        style = "bold red" if v.viewer is not None and _aims_at(v, i, v.viewer) else ""
        table.add_row(_seated(v, s.name), role_name(r, t), Text(aim, style=style))
    return table


def reveal_screen(v: View, t: Translator) -> RenderableType:
    """Phase 2 revealed: "1, 2, 3, now!" — every gesture at once; the arrows aimed
    at the viewer marked."""
    notes, hot = reveal_notes(v, t)
    parts: list[RenderableType] = [
        title(v, t), Text(t(_("The Mayor counts: 1, 2, 3, now!")), style="bold red"),
        seat_circle(v, t, notes, hot=hot)]
    blind = blind_line(v, t)
    if blind is not None:
        parts.append(blind)
    parts.append(gestures_list(v, t))
    if v.viewer is not None:
        parts.append(threats(v, t))
    return Group(*parts)


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


def _deck_roles(v: View, info: TableInfo | None) -> tuple[list[Role], dict[Role, set[str]],
                                                          dict[Role, int]]:
    """The roles in play in initiative order, the editions of each, how many cards."""
    roles = sorted(in_play(v), key=lambda r: (CAST[r].step is None,
                                              CAST[r].step or "", r.value))
    editions: dict[Role, set[str]] = {r: set() for r in roles}
    counts: dict[Role, int] = dict.fromkeys(roles, 1)
    if info is not None:
        counts = dict.fromkeys(roles, 0)
        for c in info.cards:
            r = role(c.role)
            editions.setdefault(r, set()).add(c.edition)
            counts[r] = counts.get(r, 0) + 1
    else:
        for r in roles:
            editions[r] = {e.value for e in Edition}
    return roles, editions, counts


def _same_step(roles: Sequence[Role], counts: Mapping[Role, int], t: Translator) -> str | None:
    """The cards in play that share an initiative, or None."""
    by_step: dict[str, list[str]] = {}
    for r in roles:
        step = CAST[r].step
        if step is None:
            continue
        k = max(1, counts.get(r, 1))
        by_step.setdefault(step, []).append(role_name(r, t) + (f" ×{k}" if k > 1 else ""))
    shared = [" + ".join(names) for step, names in by_step.items()
              if len(names) > 1 or "×" in names[0]]
    if not shared:
        return None
    return t.render(msg("Equal initiatives act at once ({cards}): every attack of a step is "
                        "judged as the step begins, so two attackers can kill each other.",
                        cards=", ".join(shared)))


def rules_screen(v: View, t: Translator, info: TableInfo | None = None, page: int = 0
                 ) -> RenderableType:
    """``?``: the cards in play and what they do (page 0); their combat panels, the
    night's phases and how to win (page 1). Lines that hold only with an edition or
    another role are shown only when those cards are in the deck (``info``)."""
    roles, editions, counts = _deck_roles(v, info)
    head = Text(t.render(msg("Rules of the cards in play ({page}/{pages})", page=page + 1,
                             pages=RULES_PAGES)), style="bold")
    if page % RULES_PAGES == 0:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, expand=True, padding=(0, 1))
        table.add_column(t(_("Card")), no_wrap=True, style="bold")
        table.add_column(t(_("Init.")), justify="center", no_wrap=True)
        table.add_column(t(_("Gesture")), ratio=2)
        table.add_column(t(_("Goals; what it does")), ratio=5)
        for r in roles:
            lines = goal_lines(r, roles, editions[r], t)
            lines += [f"• {p}" for p in power_lines(r, roles, editions[r], t)]
            table.add_row(role_name(r, t), initiative(r), gesture_shape(r, t), "\n".join(lines))
        more = Text(t(_("? again: the combat panels, the phases of a night, how to win.")),
                    style="dim")
        return Group(head, table, more)
    table = Table(title=t(_("Combat panels: what an attack does, by the target's real role")),
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, expand=True)
    table.add_column(t(_("Attacker")), no_wrap=True, style="bold")
    table.add_column(t(_("Effect on each role in play")))
    for r in roles:
        if r in PANEL:
            table.add_row(role_name(r, t), panel_text(r, roles, t, sep="; "))
    phases = Text()
    night = [_("Phase 1: Draft — keep one card of the hand handed to you, pass the rest "
               "to your left."),
             _("Phase 2: Gestures — on the Mayor's \"1, 2, 3, now!\" everybody shows their "
               "gesture at once."),
             _("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP); the "
               "target of a Creature may not."),
             _("Phase 4: Resolution — in initiative order (1+, 1, 2 … 8); * never acts."),
             _("Phase 5: Journal — XP for the goals met; then the next active player."),
             _("Victory: 1 XP in six rows, 8 XP in all, 2 XP in three rows, or 4 XP in "
               "one row; tiebreak: most XP, then most rows.")]
    lines = [t(x) for x in night]
    if Role.CREATURE not in roles:
        lines[2] = t(_("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP)."))
    same = _same_step(roles, counts, t)
    if same:
        lines.insert(4, same)
    for x in lines:
        phases.append("• " + x + "\n")
    phases.rstrip()
    return Group(head, table, phases)


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
