"""The table every screen shows: the title line, the settings, the seats, the journals.

What the table agreed before the first night (:class:`TableInfo`), the terminal the
screens fit (:data:`FIT`, and a warning below :data:`SMALLEST`), the title line, the
settings and the bots' styles, the circle of seats seen from above (each one's left
neighbour is the next seat), who has decided, the last drafter's blind take, and
everyone's journal.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from darkcity.bots.levels import level_key
from darkcity.i18n import Translator, _, msg
from darkcity.journal import conditions_met
from darkcity.tui.screens.words import (
    BOT_LEVEL_LINES,
    BOT_LEVEL_NAMES,
    CONDITIONS,
    PHASES,
    role,
    role_name,
)
from darkcity.views import CardView, View

__all__ = [
    "FIT",
    "SMALLEST",
    "TableInfo",
    "blind_line",
    "bots_styles",
    "decided_notes",
    "deck_name",
    "journals_table",
    "neighbours",
    "seat_circle",
    "seat_of",
    "seated",
    "settings_line",
    "size_warning",
    "title",
]


#: The terminal every screen fits: (columns, rows).
FIT: Final = (120, 40)
#: The smallest terminal the game plays well in (narrower: tables wrap).
SMALLEST: Final = (100, 40)


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


def seat_of(v: View, name: str) -> int:
    return v.players.index(name) + 1


def seated(v: View, name: str) -> str:
    """``3 Caio``: a player as the questions name them, by seat."""
    return f"{seat_of(v, name)} {name}"


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



def blind_line(v: View, t: Translator) -> Text | None:
    """The last drafter's blind take, announced to the table (never the card)."""
    if v.blind_pick is None:
        return None
    if v.blind_pick == v.viewer:
        return Text(t(_("You took a face-down card: nobody knows which.")), style="magenta")
    return Text(t.render(msg("{player} took a face-down card (nobody knows which).",
                             player=v.blind_pick)), style="magenta")


