"""The game's words on a terminal: roles, cards, gestures, goals, phases and fates.

The vocabulary every screen draws from, in the reader's language (a
:class:`~darkcity.i18n.Translator`): the names of the classes, phases, fates, marks,
victory conditions and bots' levels; a role, a card and a gender by name; a role's
gesture, initiative, goals and powers, only the lines that hold with the cards in play.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from darkcity.bots.levels import LEGACY, LEVELS
from darkcity.cast import (
    CAST,
    Class,
    Edition,
    Gender,
    Line,
    Reach,
    Role,
    parse_role,
)
from darkcity.i18n import Translator, _, msg
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term
from darkcity.views import CardView, View

__all__ = [
    "BOT_LEVEL_LINES",
    "BOT_LEVEL_NAMES",
    "CLASSES",
    "CONDITIONS",
    "FATES",
    "MARKS",
    "PHASES",
    "card_label",
    "gender_name",
    "gesture_shape",
    "goal_lines",
    "in_play",
    "initiative",
    "power_lines",
    "role",
    "role_name",
]


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


