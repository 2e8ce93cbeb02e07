"""A fixed action encoding for Dark City: every action index means the same
decision in every game of a table size, whatever the shuffle.

The catalogue of a table of ``n`` players (:class:`ActionCodec`), in this order:

======================  ==========  =================================================
section                 size        meaning
======================  ==========  =================================================
``wait``                1           the no-op of an agent not deciding now (Parallel)
``free_xp``             15          the free XP in the row of role ``r`` (Role order)
``draft``               34          keep the card ``BOX[i]`` (role, edition, gender)
``face_down``           1           the last drafter takes a face-down card, blind
``look``                1           the last drafter leaves Death and looks at the hand
``take_death``          n - 1       take Death and write the name of the player at
                                    offset ``k`` (k = 1 .. n - 1)
``gesture``             G(n)        show role ``r`` aimed at the seats at offsets
                                    ``o`` (sorted; a doubled arrow twice), naming
                                    ``kind``, seeking ``gender`` (a Devil's disguise
                                    is the role shown)
``withdrawal``          5           stay, withdraw, lower arrow 1, lower arrow 2,
                                    lower both
``zombie``              2           the Zombie's left or right neighbour
======================  ==========  =================================================

Seats are counted from the acting player (offset ``k``: the ``k``-th seat after
it in seat order), so a policy is the same in every seat. The gesture section
is the union of :func:`darkcity.game.gesture_options` for every card at every
position of Death, asked of the engine (no rule is restated here): 58 gestures
at 4 players, 83 at 6, 113 at 8.

The codec never decides what is legal: :meth:`ActionCodec.legal_actions` maps the
engine's :meth:`~darkcity.game.Game.legal` to indices, and
:meth:`ActionCodec.decode` maps an index back to one of those decisions (or
None: not legal now).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from darkcity.cast import Edition, Gender, Role
from darkcity.decisions import (
    Decision,
    DraftPick,
    FaceDownPick,
    FreeXp,
    GestureChoice,
    LookAtHand,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.deck import BOX
from darkcity.game import gesture_options
from darkcity.night import Card, Gesture, Withdrawal

__all__ = ["WAIT", "ActionCodec", "GestureKey", "card_index", "codec"]

#: The no-op (an agent that does not decide now, in the Parallel environment).
WAIT: Final = 0
#: (role shown, target offsets sorted, kind named, gender sought).
GestureKey: TypeAlias = tuple[Role, tuple[int, ...], Role | None, Gender | None]
_WITHDRAWALS: Final[tuple[Withdrawal, ...]] = (False, True, (0,), (1,), (0, 1))
_BOX_INDEX: Final = {c: i for i, c in enumerate(BOX)}


def card_index(card: Card) -> int:
    """The index of a card in :data:`darkcity.deck.BOX` (role, edition, gender)."""
    i = _BOX_INDEX.get(Card(card.role, card.edition, card.identity))
    if i is None:
        raise ValueError(f"{card} is not a card of the box")
    return i


def _gesture_catalogue(n: int) -> tuple[GestureKey, ...]:
    players = tuple(f"p{i}" for i in range(n))
    cards = {Card(r, e) for r in Role for e in Edition if r is not Role.DEATH}
    cards |= {c for c in BOX if c.role is not Role.DEATH}
    keys: set[GestureKey] = set()
    everyone = frozenset(Role)
    for c in cards:
        for death in (None, *players[1:]):
            for g in gesture_options(players, "p0", c, death, everyone):
                keys.add(_key_of(g, c.role, players.index, 0, n))
    return tuple(sorted(keys, key=lambda k: (int(k[0]), k[1], -1 if k[2] is None else int(k[2]),
                                             "" if k[3] is None else k[3].value)))


def _key_of(g: Gesture, role: Role, seat: Callable[[str], int], me: int, n: int
            ) -> GestureKey:
    offsets = tuple(sorted((seat(t) - me) % n for t in g.targets))
    return (g.shows or role, offsets, g.kind, g.seeks)


@dataclass(frozen=True, slots=True)
class _Sections:
    free_xp: int
    draft: int
    face_down: int
    look: int
    take_death: int
    gesture: int
    withdrawal: int
    zombie: int
    size: int


class ActionCodec:
    """The action catalogue of a table of ``players`` (see the module docstring)."""

    def __init__(self, players: int) -> None:
        if not 4 <= players <= 8:
            raise ValueError(f"4 to 8 players, not {players}")
        self.players = players
        self.gestures: tuple[GestureKey, ...] = _gesture_catalogue(players)
        self._gesture_index = {k: i for i, k in enumerate(self.gestures)}
        at = 1
        starts = []
        for size in (len(Role), len(BOX), 1, 1, players - 1, len(self.gestures),
                     len(_WITHDRAWALS), 2):
            starts.append(at)
            at += size
        (free_xp, draft, face_down, look, take_death, gesture, withdrawal, zombie) = starts
        self.sections = _Sections(free_xp, draft, face_down, look, take_death, gesture,
                                  withdrawal, zombie, at)

    @property
    def size(self) -> int:
        """How many actions there are (the ``Discrete`` space's ``n``)."""
        return self.sections.size

    # -- decisions <-> indices ------------------------------------------------------

    def encode(self, d: Decision, players: Sequence[str], role: Role | None = None,
               neighbours: tuple[str, str] | None = None) -> int:
        """The index of decision ``d`` at a table seated ``players``. ``role`` is the
        actor's card's role (for a gesture); ``neighbours`` its (left, right)
        tonight (for a Zombie's choice)."""
        s = self.sections
        n = self.players
        me = players.index(d.player)
        if isinstance(d, FreeXp):
            return s.free_xp + int(d.role)
        if isinstance(d, DraftPick):
            return s.draft + card_index(d.card)
        if isinstance(d, FaceDownPick):
            return s.face_down
        if isinstance(d, LookAtHand):
            return s.look
        if isinstance(d, TakeDeath):
            return s.take_death + (players.index(d.names) - me) % n - 1
        if isinstance(d, GestureChoice):
            if role is None:
                raise ValueError("a gesture's index needs the actor's role")
            key = _key_of(d.gesture, role, players.index, me, n)
            return s.gesture + self._gesture_index[key]
        if isinstance(d, WithdrawalChoice):
            w = d.withdrawal
            return s.withdrawal + _WITHDRAWALS.index(tuple(sorted(w)) if isinstance(w, tuple)
                                                    else w)
        if isinstance(d, ZombieChoice):
            if neighbours is None:
                raise ValueError("a Zombie's choice needs its neighbours")
            return s.zombie + (0 if d.target == neighbours[0] else 1)
        raise TypeError(f"not a decision: {d!r}")  # pragma: no cover

    def legal_actions(self, legal: Sequence[Decision], players: Sequence[str],
                      role: Role | None = None, neighbours: tuple[str, str] | None = None,
                      memo: dict[int, tuple[Decision, int]] | None = None
                      ) -> dict[int, Decision]:
        """The engine's legal decisions by index (sorted by index).

        ``memo`` (one per table: the same ``players``) keeps the index of each
        decision object whose index depends on nothing else (not a gesture, whose
        index depends on the card, nor a Zombie's choice, on the neighbours): the
        engine hands out the same draft picks, free XP and withdrawals again."""
        out: dict[int, Decision] = {}
        for d in legal:
            if memo is None or isinstance(d, GestureChoice | ZombieChoice):
                i = self.encode(d, players, role, neighbours)
            else:
                known = memo.get(id(d))
                if known is not None and known[0] is d:  # held: its id is its own
                    i = known[1]
                else:
                    i = self.encode(d, players, role, neighbours)
                    if len(memo) >= 8192:
                        memo.clear()
                    memo[id(d)] = (d, i)
            out.setdefault(i, d)  # two spellings of one decision share an index
        return dict(sorted(out.items()))

    # -- words ----------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """What ``action`` means, in words (stable: the same in every game)."""
        s = self.sections
        a = int(action)
        if a == WAIT:
            return "wait"
        if not 0 <= a < s.size:
            raise ValueError(f"action {a}: 0 to {s.size - 1}")
        if a < s.draft:
            return f"free XP: {Role(a - s.free_xp).key}"
        if a < s.face_down:
            c = BOX[a - s.draft]
            return (f"draft: {c.role.key} ({c.edition.value}, "
                    f"{c.identity.value if c.identity else '-'})")
        if a == s.face_down:
            return "draft: a face-down card"
        if a == s.look:
            return "draft: leave Death, look at the hand"
        if a < s.gesture:
            return f"draft: take Death, naming the player at +{a - s.take_death + 1}"
        if a < s.withdrawal:
            role, offsets, kind, seeks = self.gestures[a - s.gesture]
            parts = [f"gesture: {role.key}"]
            if offsets:
                parts.append("at +" + ", +".join(str(o) for o in offsets))
            if kind is not None:
                parts.append(f"naming {kind.key}")
            if seeks is not None:
                parts.append(f"seeking {seeks.value}")
            return " ".join(parts)
        if a < s.zombie:
            return ("withdrawal: stay", "withdrawal: withdraw", "withdrawal: lower arrow 1",
                    "withdrawal: lower arrow 2",
                    "withdrawal: lower both arrows")[a - s.withdrawal]
        return ("zombie: the left neighbour", "zombie: the right neighbour")[a - s.zombie]


@functools.lru_cache(maxsize=8)
def codec(players: int) -> ActionCodec:
    """The (shared, immutable) codec of a table of ``players``."""
    return ActionCodec(players)
