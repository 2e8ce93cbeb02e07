"""Phase 2 revealed: every gesture at once, and the arrows aimed at the viewer marked.

The note under each seat after the reveal (the role shown, the seats it points at),
who points at the viewer (a target, the kind of their card, or both neighbours), the
list of gestures with the withdrawals, and the reveal's screen.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from darkcity.cast import (
    CAST,
    Reach,
    Role,
)
from darkcity.i18n import Translator, _, msg
from darkcity.tui.screens.cards import (
    own_card,
)
from darkcity.tui.screens.seats import (
    blind_line,
    neighbours,
    seat_circle,
    seat_of,
    seated,
    title,
)
from darkcity.tui.screens.words import (
    gender_name,
    role,
    role_name,
)
from darkcity.views import View

__all__ = [
    "gestures_list",
    "reveal_notes",
    "reveal_screen",
    "threats",
]


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
                note += "→" + ",".join("★" if x == v.viewer else str(seat_of(v, x))
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
    who = [f"{seated(v, s.name)} ({role_name(s.gesture.shows, t)})"
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
            table.add_row(seated(v, s.name), role_name(Role.DEATH, t),
                          t(_("(a name, secret until the end)")))
            continue
        g = s.gesture
        if g is None:
            continue
        r = role(g.shows)
        if g.targets:
            aim = ", ".join(seated(v, x) + (" ★" if x == v.viewer else "") for x in g.targets)
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
        table.add_row(seated(v, s.name), role_name(r, t), Text(aim, style=style))
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


