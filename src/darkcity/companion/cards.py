"""Which deck card each player may hold, from what the table has seen so far.

At a real table the cards stay face down until the Mayor calls them, so the
companion reasons the way a Mayor does: only a Devil shows another role's
gesture (R-08), so a player who is not a Devil holds the card of the role they
showed; a card turned over at a call is known; every card is one card of the
deck, and no card is held twice. :func:`assign` finds one assignment of deck
cards to players that fits all of that (a bipartite matching), which the
companion uses to validate an entry with the engine and to resolve the steps
called so far; it fails with the player that no card fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from darkcity.cast import CAST, NO_DISGUISE, Edition, Gender, Role
from darkcity.night import Card

__all__ = ["Knowledge", "assign", "candidates", "could_be_devil", "determined", "fits"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What is known of one player's card.

    ``revealed``: the card turned over (role, edition; the gender when seen), or
    None. ``roles``: the roles the card may have (empty: any). ``advanced``: the
    player pointed both arrows at one player, which only a real advanced Hunter
    does.
    """

    revealed: Card | None = None
    roles: frozenset[Role] = frozenset()
    advanced: bool = False


def fits(card: Card, known: Card) -> bool:
    """Is the deck card ``card`` the card ``known`` describes (gender when given)?"""
    if card.role is not known.role:
        return False
    if not CAST[card.role].special and card.edition is not known.edition:
        return False
    return known.gender is None or card.identity is known.identity


def candidates(deck: Sequence[Card], k: Knowledge) -> list[int]:
    """Indices of the deck cards that fit ``k``, the most likely first (the shown
    role before a Devil)."""
    out: list[int] = []
    later: list[int] = []
    for i, c in enumerate(deck):
        if k.revealed is not None:
            if fits(c, k.revealed):
                out.append(i)
            continue
        if k.roles and c.role not in k.roles:
            continue
        if k.advanced and (c.role is not Role.HUNTER or c.edition is not Edition.ADVANCED):
            continue
        (later if c.role is Role.DEVIL else out).append(i)
    return out + later


def assign(deck: Sequence[Card], known: Mapping[str, Knowledge], order: Sequence[str]
           ) -> dict[str, Card] | str:
    """One deck card per player of ``order`` fitting what is ``known``, no card twice;
    or the first player no card fits (a name: the caller says why)."""
    options = {p: candidates(deck, known.get(p, Knowledge())) for p in order}
    owner: dict[int, str] = {}

    def augment(p: str, seen: set[int]) -> bool:
        for i in options[p]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = p
                return True
        return False

    # the most constrained players first, so a failure names one of them
    for p in sorted(order, key=lambda q: len(options[q])):
        if not augment(p, set()):
            return p
    held = {p: i for i, p in owner.items()}
    return {p: deck[held[p]] for p in order}


def could_be_devil(shown: Role, deck: Sequence[Card]) -> bool:
    """May a player showing ``shown`` be a Devil in disguise with this deck?"""
    return shown not in NO_DISGUISE and any(c.role is Role.DEVIL for c in deck)


def determined(deck: Sequence[Card], role: Role, edition: Edition | None,
               taken: Sequence[Card]) -> tuple[Edition | None, Gender | None]:
    """The edition and the gender shared by every deck card of ``role`` (of
    ``edition``, when known) that nobody else turned over: each None where two
    such cards differ."""
    pool = [c for c in deck if c.role is role and (edition is None or c.edition is edition)
            and c not in taken]
    if not pool:
        return edition, None
    editions = {c.edition for c in pool}
    genders = {c.identity for c in pool}
    return (pool[0].edition if len(editions) == 1 else None,
            pool[0].identity if len(genders) == 1 else None)
