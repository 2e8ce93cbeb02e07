"""Whether a night could have happened: the notation page and the rules.

:func:`validate` raises :class:`~darkcity.night.RoundError` naming the field
(``gestures.Bia.targets``) and the player concerned. It checks the seating,
the cards in the box (R-90, J-6), the special cast at 6+ players (R-93),
every gesture's shape (R-20, R-116), withdrawals (R-07, R-63), the Zombies'
final targets (R-51) and the journals (K-10).
"""

from __future__ import annotations

from darkcity.cast import CAST, NO_DISGUISE, Edition, Gender, Reach, Role
from darkcity.i18n import Message, msg, msgn
from darkcity.night import (
    Night,
    RoundError,
    held_by,
    neighbours,
    possible_cast,
)
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term

__all__ = ["validate"]

_SPECS = tuple(CAST[r] for r in Role)  # indexed by role: no mapping-proxy lookup per card


def _err(field: str, message: Message, player: str | None = None) -> RoundError:
    return RoundError(field, message, player)


def _not_player(name: str) -> Message:
    return msg("{player!r} is not one of the players", player=name)


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
        raise _err("players", msg("a round has 4 to 8 players, not {n}", n=n))
    seen: set[str] = set()
    for p in players:
        if not p or not p.strip():
            raise _err("players", msg("a player's name is empty"))
        if p in seen:
            raise _err("players", msg("{player!r} sits twice", player=p), p)
        seen.add(p)

    cards = night.cards
    for p in cards:
        if p not in seen:
            raise _err(f"cards.{p}", _not_player(p), p)
    for p in players:
        if p not in cards:
            raise _err(f"cards.{p}", msg("{player} has no card", player=p), p)
    _validate_cards(night)
    sheet = night.sheet()
    _validate_sheet(night, sheet)
    cast = possible_cast(night, sheet)
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
        spec = _SPECS[c.role]
        where = f"cards.{p}"  # (cheap next to the checks; only errors read it)
        if spec.special and c.edition is not Edition.BASIC:
            raise _err(f"{where}.edition", msg("{role:the} has no advanced edition",
                                                 role=role_term(c.role)), p)
        if c.gender is not None and len(spec.genders) == 1 and c.gender is not spec.genders[0]:
            raise _err(
                f"{where}.gender",
                msg("the {role} card is {gender}, not {given}", role=role_term(c.role),
                    gender=Message(GENDER_NAMES[spec.genders[0]]),
                    given=Message(GENDER_NAMES[c.gender])),
                p,
            )
        if c.gender is Gender.NEUTRAL and len(spec.genders) > 1:
            raise _err(f"{where}.gender", msg("no {role} card is neutral",
                                               role=role_term(c.role)), p)
        counts[c.role] = counts.get(c.role, 0) + 1
        if counts[c.role] > spec.max_cards:
            raise _err(
                f"{where}.role",
                msgn("there is only {n} {role} card in a round, and this would be card {count}",
                     "there are only {n} {role} cards in a round, and this would be card {count}",
                     spec.max_cards, role=role_term(c.role), count=counts[c.role]),
                p,
            )
        if c.gender is not None and len(spec.genders) > 1:
            # Two cards of one role in one edition never share a gender (R-90, J-6).
            ed = c.edition if not spec.special else Edition.BASIC
            key = (c.role, ed, c.gender)
            if key in physical:
                raise _err(
                    f"{where}.gender",
                    msg("the other {role} ({edition}) already has the {gender} card",
                        role=role_term(c.role), edition=Message(EDITION_NAMES[ed]),
                        gender=Message(GENDER_NAMES[c.gender])),
                    p,
                )
            physical.add(key)
        if spec.special and special is None:
            special = p
    if special is not None and len(players) < 6:
        raise _err(
            f"cards.{special}.role",
            msg("{role:the} is a special-cast card, for 6 to 8 players; this round has {n}",
                role=role_term(cards[special].role), n=len(players)),
            special,
        )


def _validate_sheet(night: Night, sheet: tuple[Role, ...]) -> None:
    if night.journal_roles is None:
        if len(sheet) > 8:
            raise _err(
                "journal_roles",
                msg("the default journal sheet would hold {n} roles (at most 8): "
                    "give journal_roles", n=len(sheet)),
            )
        return
    if not 6 <= len(sheet) <= 8:
        raise _err("journal_roles", msg("a journal sheet has 6 to 8 roles, not {n}",
                                            n=len(sheet)))
    if len(set(sheet)) != len(sheet):
        raise _err("journal_roles", msg("a role appears twice"))
    for p in night.players:
        role = night.cards[p].role
        if role not in sheet:
            raise _err(
                f"cards.{p}.role",
                msg("{role:the} has no row on the journal sheet (journal_roles)",
                    role=role_term(role)),
                p,
            )


def _validate_gestures(night: Night, cast: frozenset[Role]) -> None:
    players, cards = night.players, night.cards
    for p in night.gestures:
        if p not in cards:
            raise _err(f"gestures.{p}", _not_player(p), p)
    for p in players:
        card = cards[p]
        g = night.gestures.get(p)
        where = f"gestures.{p}"
        shown = card.role
        if g is not None and g.shows is not None and g.shows is not card.role:
            if card.role is not Role.DEVIL:
                raise _err(f"{where}.shows", msg("only a Devil may show another role; "
                                                 "{player} is {role:the}", player=p,
                                                 role=role_term(card.role)), p)
            shown = g.shows
        if card.role is Role.DEVIL:
            if g is None or g.shows is None:
                raise _err(f"{where}.shows", msg("{player} is a Devil and must show another "
                                                 "role's gesture", player=p), p)
            if shown in NO_DISGUISE:
                raise _err(f"{where}.shows", msg("a Devil cannot show {role:the}",
                                                 role=role_term(shown)), p)
            if shown not in cast:
                raise _err(f"{where}.shows", _not_in_cast(shown), p)
        shape = _SPECS[shown].gesture
        reach = shape.reach
        if g is None:
            if reach in (Reach.NOBODY, Reach.BOTH_NEIGHBOURS):
                continue
            raise _err(where, msg("{player} shows {role:the}, whose gesture must be given",
                                 player=p, role=role_term(shown)), p)
        # fields that belong to other roles
        if g.kind is not None and reach is not Reach.KIND:
            raise _err(f"{where}.kind", msg("{role:the} does not name a kind",
                                            role=role_term(shown)), p)
        if g.seeks is not None and not shape.seeks:
            raise _err(f"{where}.seeks", msg("{role:the} does not seek a gender",
                                             role=role_term(shown)), p)
        if g.names is not None and reach is not Reach.NAME:
            raise _err(f"{where}.names", msg("only Death names a player; {player} shows "
                                             "{role:the}", player=p, role=role_term(shown)), p)
        for t in g.targets:
            if t not in cards:
                raise _err(f"{where}.targets", _not_player(t), p)
            if t == p:
                raise _err(f"{where}.targets", msg("{player} cannot point at themself",
                                                  player=p), p)
            if cards[t].role is Role.DEATH:
                raise _err(f"{where}.targets", msg("{target} is Death, who is not there "
                                                  "tonight", target=t), p)
        if reach in (Reach.NOBODY, Reach.KIND, Reach.NAME) and g.targets:
            raise _err(f"{where}.targets", msg("{role:the} points at nobody",
                                              role=role_term(shown)), p)
        if reach is Reach.KIND:
            if g.kind is None:
                raise _err(f"{where}.kind", msg("{role:the} must name a kind",
                                                role=role_term(shown)), p)
            if g.kind is Role.DEATH or (shown is Role.ALIEN and g.kind is Role.ALIEN):
                raise _err(f"{where}.kind", msg("{role:the} cannot name {kind:the}",
                                                role=role_term(shown),
                                                kind=role_term(g.kind)), p)
            if g.kind not in cast:
                raise _err(f"{where}.kind", _not_in_cast(g.kind), p)
        elif reach is Reach.NAME:
            if g.names is None:
                raise _err(f"{where}.names", msg("Death must name a player"), p)
            if g.names not in cards:
                raise _err(f"{where}.names", _not_player(g.names), p)
            if g.names == p:
                raise _err(f"{where}.names", msg("Death names another player"), p)
        elif reach is Reach.ANYONE:
            if len(g.targets) != shape.targets:
                raise _err(
                    f"{where}.targets",
                    _exactly(shown, shape.targets, len(g.targets)),
                    p,
                )
            if shape.targets == 2 and g.targets[0] == g.targets[1]:
                doubled = (
                    card.role is Role.HUNTER
                    and shown is Role.HUNTER
                    and card.edition is Edition.ADVANCED
                )
                if not doubled:
                    if card.role is Role.DEVIL:
                        why = msg("a Devil showing the Hunter points at two different players "
                                  "(only an advanced Hunter may aim both at one)")
                    elif shown is Role.HUNTER:
                        why = msg("a basic Hunter points at two different players "
                                  "(only an advanced Hunter may aim both at one)")
                    else:
                        why = msg("{role:the} points at two different players (only an "
                                  "advanced Hunter may aim both at one)", role=role_term(shown))
                    raise _err(f"{where}.targets", why, p)
        elif reach is Reach.NEIGHBOUR:
            if len(g.targets) != 1:
                raise _err(f"{where}.targets", _exactly(shown, 1, len(g.targets)), p)
            left, right = neighbours(night.players, cards, p)
            if g.targets[0] not in (left, right):
                raise _err(
                    f"{where}.targets",
                    msg("{role:the} points at its left or right neighbour ({left} or {right}), "
                        "not {target}", role=role_term(shown), left=left, right=right,
                        target=g.targets[0]),
                    p,
                )
            if shape.seeks and g.seeks is None:
                raise _err(f"{where}.seeks", msg("the Creature must seek feminine or "
                                                 "masculine"), p)
            if shape.seeks and g.seeks is Gender.NEUTRAL:
                raise _err(f"{where}.seeks", msg("the Creature seeks feminine or masculine"),
                           p)
            if shape.seeks:
                t = g.targets[0]
                if cards[t].identity is None:
                    raise _err(f"cards.{t}.gender", msg("the Creature ({player}) proposes to "
                                                        "{target}, whose card's gender must "
                                                        "be given", player=p, target=t), t)
        elif reach is Reach.BOTH_NEIGHBOURS and g.targets:
            left, right = neighbours(night.players, cards, p)
            if sorted(g.targets) != sorted((left, right)):
                raise _err(f"{where}.targets", msg("the Necromancer always points at both "
                                                   "neighbours ({left} and {right})",
                                                   left=left, right=right), p)


def _validate_withdrawals(night: Night) -> None:
    cards = night.cards
    for p, w in night.withdrawals.items():
        where = f"withdrawals.{p}"
        if p not in cards:
            raise _err(where, _not_player(p), p)
        role = cards[p].role
        if role is Role.DEATH and w is not False and w != ():
            raise _err(where, msg("Death never withdraws"), p)
        full = w is True
        if isinstance(w, tuple):
            if role is not Role.HUNTER:
                raise _err(where, msg("only a Hunter may withdraw single attacks; {player} is "
                                      "{role:the} (use true)", player=p,
                                      role=role_term(role)), p)
            for i in w:
                if i not in (0, 1):
                    raise _err(where, msg("a Hunter's attacks are 0 and 1, not {index}",
                                          index=i), p)
            if len(set(w)) != len(w):
                raise _err(where, msg("an attack is withdrawn twice"), p)
            full = len(w) == 2
        if full:
            creature = held_by(night, p)
            if creature is not None:
                raise _err(where, msg("{player} is held by the Creature ({creature}) and "
                                      "cannot withdraw altogether", player=p,
                                      creature=creature), p)


def _validate_zombie_targets(night: Night) -> None:
    cards = night.cards
    for p, t in night.zombie_targets.items():
        where = f"zombie_targets.{p}"
        if p not in cards:
            raise _err(where, _not_player(p), p)
        if cards[p].role is not Role.ZOMBIE:
            raise _err(where, msg("{player} is {role:the}, not a Zombie", player=p,
                                  role=role_term(cards[p].role)), p)
        left, right = neighbours(night.players, cards, p)
        if t not in (left, right):
            raise _err(where, msg("a Zombie attacks its left or right neighbour ({left} or "
                                  "{right}), not {target}", left=left, right=right, target=t),
                       p)


def _validate_journals(night: Night, sheet: tuple[Role, ...]) -> None:
    for p, j in night.journals.items():
        if p not in night.cards:
            raise _err(f"journals.{p}", _not_player(p), p)
        for role, xp in j.items():
            if role not in sheet:
                raise _err(f"journals.{p}.{role.key}", msg("{role:the} has no row on the "
                                                           "journal sheet",
                                                           role=role_term(role)), p)
            if xp < 0:
                raise _err(f"journals.{p}.{role.key}", msg("XP cannot be negative ({xp})",
                                                          xp=xp), p)


def _not_in_cast(role: Role) -> Message:
    return msg("{role:the} is not in this round's cast", role=role_term(role))


def _exactly(role: Role, n: int, given: int) -> Message:
    return msgn("{role:the} points at exactly {n} player, not {given}",
                "{role:the} points at exactly {n} players, not {given}",
                n, role=role_term(role), given=given)
