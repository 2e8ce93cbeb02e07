"""``?``: the rules of the cards in play, their combat panels, the night's phases, victory.

Two pages (:data:`RULES_PAGES`): the cards in play in initiative order and what they do;
then each attacker's row of the combat panel against the roles in play, the phases of
a night, the equal initiatives, and how to win. A line that holds only with an edition
or another role is shown only when those cards are in the deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from darkcity.cast import (
    CAST,
    PANEL,
    Edition,
    Effect,
    Role,
)
from darkcity.i18n import Translator, _, msg
from darkcity.tui.screens.seats import (
    TableInfo,
)
from darkcity.tui.screens.words import (
    gesture_shape,
    goal_lines,
    in_play,
    initiative,
    power_lines,
    role,
    role_name,
)
from darkcity.views import View

__all__ = [
    "EFFECTS",
    "RULES_PAGES",
    "panel_text",
    "rules_screen",
]


#: How many pages ``?`` has (the cards, then the combat panels and the night).
RULES_PAGES: Final = 2


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


