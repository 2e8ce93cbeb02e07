"""Whether a night could have happened: the notation page and the rules.

:func:`validate` raises :class:`~darkcity.night.RoundError` naming the field
(``gestures.Bia.targets``) and the player concerned. It checks the seating,
the cards in the box (R-90, J-6), the special cast at 6+ players (R-93),
every gesture's shape (R-20, R-116), withdrawals (R-07, R-63), the Zombies'
final targets (R-51) and the journals (K-10).
"""

from __future__ import annotations

from darkcity.cast import CAST, Edition, Gender, Reach, Role
from darkcity.night import (
    Night,
    RoundError,
    neighbours,
    possible_cast,
    proposal_immune,
)

__all__ = ["validate"]


def _err(field: str, message: str, player: str | None = None) -> RoundError:
    return RoundError(field, message, player)


def _name(role: Role) -> str:
    return role.key


def validate(night: Night) -> None:
    """Raise :class:`RoundError` unless the night could happen with the real cards.

    Checks the notation page and the rulings: seating, the cards in the box
    (R-90, J-6), the special cast at 6+ players (R-93), every gesture's shape
    (R-20, R-116), withdrawals (R-07, R-63), the Zombies' final targets (R-51)
    and the journals (K-10).
    """
    players = night.players
    n = len(players)
    if not 4 <= n <= 8:
        raise _err("players", f"a round has 4 to 8 players, not {n}")
    seen: set[str] = set()
    for p in players:
        if not p or not p.strip():
            raise _err("players", "a player's name is empty")
        if p in seen:
            raise _err("players", f"{p!r} sits twice", p)
        seen.add(p)

    cards = night.cards
    for p in cards:
        if p not in seen:
            raise _err(f"cards.{p}", f"{p!r} is not one of the players", p)
    for p in players:
        if p not in cards:
            raise _err(f"cards.{p}", f"{p} has no card", p)
    _validate_cards(night)
    sheet = night.sheet()
    _validate_sheet(night, sheet)
    cast = possible_cast(night)
    _validate_gestures(night, cast)
    _validate_withdrawals(night)
    _validate_zombie_targets(night)
    _validate_journals(night, sheet)


def _validate_cards(night: Night) -> None:
    players, cards = night.players, night.cards
    counts: dict[Role, int] = {}
    physical: set[tuple[Role, Edition, Gender | None]] = set()
    special = None
    for p in players:
        c = cards[p]
        spec = CAST[c.role]
        where = f"cards.{p}"
        if spec.special and c.edition is not Edition.BASIC:
            raise _err(f"{where}.edition", f"the {_name(c.role)} has no advanced edition", p)
        if c.gender is not None and len(spec.genders) == 1 and c.gender is not spec.genders[0]:
            raise _err(
                f"{where}.gender",
                f"the {_name(c.role)} card is {spec.genders[0].value}, not {c.gender.value}",
                p,
            )
        if c.gender is Gender.NEUTRAL and len(spec.genders) > 1:
            raise _err(f"{where}.gender", f"no {_name(c.role)} card is neutral", p)
        counts[c.role] = counts.get(c.role, 0) + 1
        if counts[c.role] > spec.max_cards:
            many = "two" if spec.max_cards == 2 else "one"
            raise _err(
                f"{where}.role",
                f"there are only {many} {_name(c.role)} card{'s' if spec.max_cards > 1 else ''}"
                f" in a round, and this would be card {counts[c.role]}",
                p,
            )
        if c.gender is not None and len(spec.genders) > 1:
            # Two cards of one role in one edition never share a gender (R-90, J-6).
            ed = c.edition if not spec.special else Edition.BASIC
            key = (c.role, ed, c.gender)
            if key in physical:
                raise _err(
                    f"{where}.gender",
                    f"the other {_name(c.role)} ({ed.value}) already has the "
                    f"{c.gender.value} card",
                    p,
                )
            physical.add(key)
        if spec.special and special is None:
            special = p
    if special is not None and len(players) < 6:
        role = _name(cards[special].role)
        raise _err(
            f"cards.{special}.role",
            f"the {role} is a special-cast card, for 6 to 8 players; this round has "
            f"{len(players)}",
            special,
        )


def _validate_sheet(night: Night, sheet: tuple[Role, ...]) -> None:
    if night.journal_roles is None:
        if len(sheet) > 8:
            raise _err(
                "journal_roles",
                f"the default journal sheet would hold {len(sheet)} roles (at most 8): "
                "give journal_roles",
            )
        return
    if not 6 <= len(sheet) <= 8:
        raise _err("journal_roles", f"a journal sheet has 6 to 8 roles, not {len(sheet)}")
    if len(set(sheet)) != len(sheet):
        raise _err("journal_roles", "a role appears twice")
    for p in night.players:
        role = night.cards[p].role
        if role not in sheet:
            raise _err(
                f"cards.{p}.role",
                f"the {_name(role)} has no row on the journal sheet (journal_roles)",
                p,
            )


def _validate_gestures(night: Night, cast: frozenset[Role]) -> None:
    players, cards = night.players, night.cards
    for p in night.gestures:
        if p not in cards:
            raise _err(f"gestures.{p}", f"{p!r} is not one of the players", p)
    for p in players:
        card = cards[p]
        g = night.gestures.get(p)
        where = f"gestures.{p}"
        shown = card.role
        if g is not None and g.shows is not None:
            if card.role is not Role.DEVIL:
                raise _err(f"{where}.shows", f"only a Devil may show another role; "
                           f"{p} is the {_name(card.role)}", p)
            shown = g.shows
        if card.role is Role.DEVIL:
            if g is None or g.shows is None:
                raise _err(f"{where}.shows", f"{p} is a Devil and must show another role's "
                           "gesture", p)
            if shown in (Role.DEVIL, Role.NECROMANCER, Role.CREATURE, Role.DEATH):
                raise _err(f"{where}.shows", f"a Devil cannot show the {_name(shown)}", p)
            if shown not in cast:
                raise _err(f"{where}.shows", f"the {_name(shown)} is not in this round's cast", p)
        shape = CAST[shown].gesture
        reach = shape.reach
        if g is None:
            if reach in (Reach.NOBODY, Reach.BOTH_NEIGHBOURS):
                continue
            raise _err(where, f"{p} shows the {_name(shown)}, whose gesture must be given", p)
        # fields that belong to other roles
        if g.kind is not None and reach is not Reach.KIND:
            raise _err(f"{where}.kind", f"the {_name(shown)} does not name a kind", p)
        if g.seeks is not None and not shape.seeks:
            raise _err(f"{where}.seeks", f"the {_name(shown)} does not seek a gender", p)
        if g.names is not None and reach is not Reach.NAME:
            raise _err(f"{where}.names", f"only Death names a player; {p} shows the "
                       f"{_name(shown)}", p)
        for t in g.targets:
            if t not in cards:
                raise _err(f"{where}.targets", f"{t!r} is not one of the players", p)
            if t == p:
                raise _err(f"{where}.targets", f"{p} cannot point at themself", p)
            if cards[t].role is Role.DEATH:
                raise _err(f"{where}.targets", f"{t} is Death, who is not there tonight", p)
        if reach in (Reach.NOBODY, Reach.KIND, Reach.NAME) and g.targets:
            raise _err(f"{where}.targets", f"the {_name(shown)} points at nobody", p)
        if reach is Reach.KIND:
            if g.kind is None:
                raise _err(f"{where}.kind", f"the {_name(shown)} must name a kind", p)
            if g.kind is Role.DEATH or (shown is Role.ALIEN and g.kind is Role.ALIEN):
                raise _err(f"{where}.kind", f"the {_name(shown)} cannot name the "
                           f"{_name(g.kind)}", p)
            if g.kind not in cast:
                raise _err(f"{where}.kind", f"the {_name(g.kind)} is not in this round's cast", p)
        elif reach is Reach.NAME:
            if g.names is None:
                raise _err(f"{where}.names", "Death must name a player", p)
            if g.names not in cards:
                raise _err(f"{where}.names", f"{g.names!r} is not one of the players", p)
            if g.names == p:
                raise _err(f"{where}.names", "Death names another player", p)
        elif reach is Reach.ANYONE:
            if len(g.targets) != shape.targets:
                raise _err(
                    f"{where}.targets",
                    f"the {_name(shown)} points at exactly {shape.targets} player"
                    f"{'s' if shape.targets > 1 else ''}, not {len(g.targets)}",
                    p,
                )
            if shape.targets == 2 and g.targets[0] == g.targets[1]:
                doubled = (
                    card.role is Role.HUNTER
                    and shown is Role.HUNTER
                    and card.edition is Edition.ADVANCED
                )
                if not doubled:
                    who = "a Devil showing the Hunter" if card.role is Role.DEVIL else (
                        f"the {_name(shown)}" if shown is not Role.HUNTER else "a basic Hunter")
                    raise _err(f"{where}.targets", f"{who} points at two different players "
                               "(only an advanced Hunter may aim both at one)", p)
        elif reach is Reach.NEIGHBOUR:
            if len(g.targets) != 1:
                raise _err(f"{where}.targets", f"the {_name(shown)} points at exactly 1 "
                           f"player, not {len(g.targets)}", p)
            left, right = neighbours(night.players, cards, p)
            if g.targets[0] not in (left, right):
                raise _err(
                    f"{where}.targets",
                    f"the {_name(shown)} points at its left or right neighbour "
                    f"({left} or {right}), not {g.targets[0]}",
                    p,
                )
            if shape.seeks and g.seeks is None:
                raise _err(f"{where}.seeks", "the Creature must seek feminine or masculine", p)
            if shape.seeks and g.seeks is Gender.NEUTRAL:
                raise _err(f"{where}.seeks", "the Creature seeks feminine or masculine", p)
            if shape.seeks:
                t = g.targets[0]
                if cards[t].identity is None:
                    raise _err(f"cards.{t}.gender", f"the Creature ({p}) proposes to {t}, "
                               "whose card's gender must be given", t)
        elif reach is Reach.BOTH_NEIGHBOURS and g.targets:
            left, right = neighbours(night.players, cards, p)
            if sorted(g.targets) != sorted((left, right)):
                raise _err(f"{where}.targets", f"the Necromancer always points at both "
                           f"neighbours ({left} and {right})", p)


def _validate_withdrawals(night: Night) -> None:
    cards = night.cards
    held: dict[str, str] = {}
    for p in night.players:
        if cards[p].role is Role.CREATURE:
            g = night.gestures.get(p)
            if g is not None and g.targets:
                held.setdefault(g.targets[0], p)
    for p, w in night.withdrawals.items():
        where = f"withdrawals.{p}"
        if p not in cards:
            raise _err(where, f"{p!r} is not one of the players", p)
        role = cards[p].role
        if role is Role.DEATH and w is not False and w != ():
            raise _err(where, "Death never withdraws", p)
        full = w is True
        if isinstance(w, tuple) and w:
            if role is not Role.HUNTER:
                raise _err(where, f"only a Hunter may withdraw single attacks; {p} is the "
                           f"{_name(role)} (use true)", p)
            for i in w:
                if i not in (0, 1):
                    raise _err(where, f"a Hunter's attacks are 0 and 1, not {i}", p)
            if len(set(w)) != len(w):
                raise _err(where, "an attack is withdrawn twice", p)
            full = len(w) == 2
        if full and p in held:
            creature = held[p]
            if not proposal_immune(night, p, creature):
                raise _err(where, f"{p} is held by the Creature ({creature}) and cannot "
                           "withdraw altogether", p)


def _validate_zombie_targets(night: Night) -> None:
    cards = night.cards
    for p, t in night.zombie_targets.items():
        where = f"zombie_targets.{p}"
        if p not in cards:
            raise _err(where, f"{p!r} is not one of the players", p)
        if cards[p].role is not Role.ZOMBIE:
            raise _err(where, f"{p} is the {_name(cards[p].role)}, not a Zombie", p)
        left, right = neighbours(night.players, cards, p)
        if t not in (left, right):
            raise _err(where, f"a Zombie attacks its left or right neighbour ({left} or "
                       f"{right}), not {t}", p)


def _validate_journals(night: Night, sheet: tuple[Role, ...]) -> None:
    for p, j in night.journals.items():
        if p not in night.cards:
            raise _err(f"journals.{p}", f"{p!r} is not one of the players", p)
        for role, xp in j.items():
            if role not in sheet:
                raise _err(f"journals.{p}.{role.key}", f"the {role.key} has no row on the "
                           "journal sheet", p)
            if xp < 0:
                raise _err(f"journals.{p}.{role.key}", f"XP cannot be negative ({xp})", p)
