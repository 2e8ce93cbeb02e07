"""Cards and choices in words: the hand, the viewer's card, a gesture, a legal choice.

A card table (one line a card where it fits: the initiative, the gesture, the goals),
the viewer's own card, a gesture (the role shown, at whom), who is out of the night so
far, the Zombie's neighbours, and every legal choice of a view (``View.choices``) and
option of a question (:class:`~darkcity.tui.choices.Question`) as a line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from darkcity.cast import (
    CAST,
    Edition,
)
from darkcity.i18n import Translator, _, msg
from darkcity.terms import EDITION_NAMES, role_term
from darkcity.tui.choices import Question
from darkcity.tui.screens.seats import (
    neighbours,
    seated,
)
from darkcity.tui.screens.words import (
    CLASSES,
    card_label,
    gender_name,
    gesture_shape,
    goal_lines,
    in_play,
    initiative,
    power_lines,
    role,
    role_name,
)
from darkcity.views import CardView, View

__all__ = [
    "card_table",
    "choice_label",
    "gesture_text",
    "gone_tonight",
    "option_label",
    "own_card",
    "own_card_panel",
    "zombie_label",
]


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
        parts.append("→ " + ", ".join(seated(v, str(x)) for x in targets))
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


