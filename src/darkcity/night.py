"""One night of Dark City: what happened at the table (Phases 1-3 and the
Zombies' last choice), whether it could have happened, and its resolution
(Phases 4 and 5).

The model mirrors the round notation (``docs/round-notation.md``): a
:class:`Night` holds the seating, the cards, the gestures, the withdrawals and
the journals. :func:`darkcity.validation.validate` checks it against the rules
and the spec and
raises :class:`RoundError` naming the field and the player
(:mod:`darkcity.validation`); :func:`resolve`
adjudicates a valid night and returns a :class:`NightResult`.

The resolution walks the initiative steps ``1+, 1, 2 ... 8`` (R-10): every
attack of a step is judged against the state at the step's beginning, and
everything it causes takes effect together at the step's end. Each step is
recorded as :class:`Event` values, which the narration renders.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple, TypeAlias

from darkcity.cast import (
    CAST,
    MAIN_CAST,
    SPECIAL_CAST,
    Edition,
    Effect,
    Gender,
    Reach,
    Role,
    effect,
)
from darkcity.i18n import FieldError, Message
from darkcity.journal import victory

__all__ = [
    "FULL",
    "Card",
    "Event",
    "Fate",
    "Gesture",
    "Mark",
    "Night",
    "NightResult",
    "RoundError",
    "Withdrawal",
    "aims",
    "default_journal_roles",
    "held_by",
    "neighbours",
    "possible_cast",
    "proposal_immune",
    "resolve",
]


class RoundError(FieldError):
    """A round that breaks the rules or the notation.

    ``field`` is the document path (``gestures.Bia.targets``) and ``player``
    the player concerned, when there is one. ``message`` is a
    :class:`~darkcity.i18n.Message` (its ``template`` and ``params``), which
    :meth:`render` translates; ``reason`` and ``str(error)`` are English,
    built only when asked for. A plain string is taken as English text.
    """

    def __init__(self, field: str, message: Message | str, player: str | None = None) -> None:
        super().__init__(field, message, player)
        self.player = player

    @property
    def template(self) -> str:
        """The message id (English, with ``{placeholders}``)."""
        return self.message.msgid

    @property
    def params(self) -> Mapping[str, object]:
        """The values of the template's placeholders."""
        return self.message.params


# ---------------------------------------------------------------------------
# The model


class Card(NamedTuple):
    """A card in front of a player (spec: ``cards``).

    Cards and gestures are named tuples: immutable values, and cheap to make
    by the hundred thousand in a simulation.
    """

    role: Role
    edition: Edition = Edition.BASIC
    gender: Gender | None = None  # None: the role's only identity, or not given

    @property
    def identity(self) -> Gender | None:
        """The gender drawn on the card (R-65), fixed for single-identity roles."""
        fixed = _FIXED_GENDER[self.role]
        return fixed if fixed is not None else self.gender


_FIXED_GENDER: Final = tuple(
    CAST[r].genders[0] if len(CAST[r].genders) == 1 else None for r in Role)


class Gesture(NamedTuple):
    """A Phase-2 gesture (spec: ``gestures``)."""

    targets: tuple[str, ...] = ()
    shows: Role | None = None  # a Devil's disguise; None: the card's own role
    kind: Role | None = None  # Alien, Voodooist
    seeks: Gender | None = None  # Creature
    names: str | None = None  # Death


#: A full withdrawal (spec: ``withdrawals``: ``true``).
FULL: Final = True
#: ``True`` for a full withdrawal, or the indices of the Hunter arrows dropped.
Withdrawal: TypeAlias = bool | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Night:
    """One round as it happened at the table, in the terms of the notation."""

    players: tuple[str, ...]
    cards: Mapping[str, Card]
    gestures: Mapping[str, Gesture] = field(default_factory=dict)
    withdrawals: Mapping[str, Withdrawal] = field(default_factory=dict)
    zombie_targets: Mapping[str, str] = field(default_factory=dict)
    journals: Mapping[str, Mapping[Role, int]] = field(default_factory=dict)
    journal_roles: tuple[Role, ...] | None = None  # None: the default sheet

    def card(self, player: str) -> Card:
        return self.cards[player]

    def shown(self, player: str) -> Role:
        """The role whose gesture ``player`` makes (R-08)."""
        g = self.gestures.get(player)
        if g is not None and g.shows is not None:
            return g.shows
        return self.cards[player].role

    def sheet(self) -> tuple[Role, ...]:
        """The roles of the journal sheet (R-104)."""
        if self.journal_roles is not None:
            return self.journal_roles
        return default_journal_roles(self)


class Fate(enum.StrEnum):
    """How a player ends the night (spec: result ``fate``)."""

    ALIVE = "alive"
    WITHDRAWN = "withdrawn"
    KILLED = "killed"
    DAMNED = "damned"
    ABDUCTED = "abducted"
    ABSENT = "absent"


class Mark(enum.StrEnum):
    """What a night leaves on a player besides the fate (spec: result ``marks``)."""

    WOUNDED = "wounded"
    AWAKENED = "awakened"
    EXORCISED = "exorcised"
    UNDEAD = "undead"


class Event(NamedTuple):
    """One thing the Mayor narrates. Seats index ``Night.players``.

    ``key`` names a message template of :mod:`darkcity.narration`; ``target``
    is a second seat (or -1), ``other`` a third seat or a role value (or -1),
    as that template says.
    """

    step: str
    key: str
    actor: int
    target: int = -1
    other: int = -1


def _event(step: str, key: str, actor: int, target: int = -1, other: int = -1) -> Event:
    # tuple.__new__ directly: a named tuple's own __new__ is a Python function,
    # a call the compiled resolver would make for every event
    return tuple.__new__(Event, (step, key, actor, target, other))


class NightResult(NamedTuple):
    """The adjudicated night: everything is indexed by seat.

    ``events`` ends with Phase 5, one line a player in seat order: the XP written
    (``xp``), or the rule's reason for none (a ``why-...`` key, R-100), decided by
    the role's goal function.

    A named tuple, like :class:`Event`: immutable, and cheap to make once per
    night in a simulation.
    """

    night: Night
    fates: tuple[Fate, ...]
    marks: tuple[frozenset[Mark], ...]
    xp: tuple[int, ...]
    journals: tuple[dict[Role, int], ...]
    winners: tuple[int, ...]
    events: tuple[Event, ...]

    def player(self, name: str) -> tuple[Fate, frozenset[Mark], int]:
        """(fate, marks, xp) of one player."""
        i = self.night.players.index(name)
        return self.fates[i], self.marks[i], self.xp[i]

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.night.players[i] for i in self.winners)

    def why(self, name: str) -> Event | None:
        """Why ``name`` scored nothing tonight: the night's ``why-...`` event of that
        player (its key names the rule's reason; :mod:`darkcity.narration` says it),
        or None (XP scored, or the night not finished)."""
        i = self.night.players.index(name)
        for e in self.events:
            if e.actor == i and e.key.startswith("why-"):
                return e
        return None


# ---------------------------------------------------------------------------
# Seats and aims


def neighbours(players: tuple[str, ...], cards: Mapping[str, Card], player: str) -> tuple[str, str]:
    """(left, right) neighbours of ``player``, skipping Death's seat (R-50, R-80).

    Left is the next name in the seating order (clockwise).
    """
    n = len(players)
    i = players.index(player)
    left = (i + 1) % n
    if cards[players[left]].role is Role.DEATH:
        left = (left + 1) % n
    right = (i - 1) % n
    if cards[players[right]].role is Role.DEATH:
        right = (right - 1) % n
    return players[left], players[right]


def default_journal_roles(night: Night) -> tuple[Role, ...]:
    """The six main-cast rows plus every special role in the cards or journals."""
    present = [False] * len(Role)
    for c in night.cards.values():
        present[c.role] = True
    for j in night.journals.values():
        for r in j:
            present[r] = True
    return MAIN_CAST + tuple([r for r in SPECIAL_CAST if present[r]])


def possible_cast(night: Night, sheet: tuple[Role, ...] | None = None) -> frozenset[Role]:
    """Main cast plus special roles in the cards or on the sheet (spec: ``kind``).

    ``sheet``: the night's journal sheet, when the caller has it already.
    """
    roles = set(MAIN_CAST)
    roles.update([c.role for c in night.cards.values()])
    roles.update(night.sheet() if sheet is None else sheet)
    return frozenset(roles)


def aims(night: Night, player: str) -> tuple[str, ...]:
    """The players ``player`` aimed at in Phase 2, by the shown role.

    This is what the Devil's withdrawal goals read (R-24, R-25, K-7): the
    Zombie's Phase-2 target, both neighbours of a Necromancer, every player
    of the named kind for an Alien; a Voodooist and Death aim at nobody.
    """
    shown = night.shown(player)
    reach = CAST[shown].gesture.reach
    if reach is Reach.BOTH_NEIGHBOURS:
        return neighbours(night.players, night.cards, player)
    if reach is Reach.KIND:
        if shown is not Role.ALIEN:
            return ()
        g = night.gestures.get(player)
        kind = g.kind if g is not None else None
        return tuple(p for p in night.players if p != player and night.cards[p].role is kind)
    if reach in (Reach.NOBODY, Reach.NAME):
        return ()
    g = night.gestures.get(player)
    return g.targets if g is not None else ()


def proposal_immune(night: Night, target: str, creature: str) -> bool:
    """Is ``target`` immune to the proposal of ``creature`` (R-62, K-1)?"""
    card = night.cards[target]
    if card.role in (Role.ANGEL, Role.DEVIL, Role.PRIEST, Role.ALIEN):
        return True
    g = night.gestures.get(target)
    if card.role is Role.REPORTER:
        return g is not None and creature in g.targets
    if card.role is Role.VOODOOIST:
        return g is not None and g.kind is Role.CREATURE
    return False



def held_by(night: Night, player: str) -> str | None:
    """The Creature whose proposal holds ``player`` in the confrontation, if any.

    The target of a Creature may not withdraw altogether (R-63) unless immune
    to that proposal (R-62, K-1). When both Creatures propose to one player,
    either one the player is not immune to holds them.
    """
    for q in night.players:
        if night.cards[q].role is Role.CREATURE:
            g = night.gestures.get(q)
            if (g is not None and g.targets and g.targets[0] == player
                    and not proposal_immune(night, player, q)):
                return q
    return None


# ---------------------------------------------------------------------------
# Resolution (Phases 4 and 5)
#
# The resolver is the hot path of every simulation, so it works on seat
# indices and on tuples indexed by role value (an Enum's hash is a Python
# call); the rules themselves stay in the tables of :mod:`darkcity.cast`.

_DEVIL, _VAMPIRE, _WEREWOLF, _ZOMBIE, _HUNTER, _PRIEST = (
    Role.DEVIL, Role.VAMPIRE, Role.WEREWOLF, Role.ZOMBIE, Role.HUNTER, Role.PRIEST)
_ANGEL, _ALIEN, _NECRO, _CREATURE, _MUMMY, _DEMONIAC, _REPORTER, _VOODOO, _DEATH = (
    Role.ANGEL, Role.ALIEN, Role.NECROMANCER, Role.CREATURE, Role.MUMMY, Role.DEMONIAC,
    Role.REPORTER, Role.VOODOOIST, Role.DEATH)
_ROLES: Final = tuple(Role)
_TOUGH: Final = tuple(CAST[r].tough for r in _ROLES)
_MONSTER: Final = tuple(CAST[r].monster for r in _ROLES)
_UNRAISABLE: Final = tuple(r in (_DEVIL, _ALIEN, _ANGEL) for r in _ROLES)
_PROPOSAL_IMMUNE: Final = tuple(r in (_ANGEL, _DEVIL, _PRIEST, _ALIEN) for r in _ROLES)
_AIMS_AT_PLAYERS: Final = tuple(
    CAST[r].gesture.reach in (Reach.ANYONE, Reach.NEIGHBOUR, Reach.BOTH_NEIGHBOURS)
    for r in _ROLES)
_STEP_INDEX: Final = {"1+": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}
# The combat panels as rows indexed by target role (None: that role never attacks).
_PANEL_T: Final = tuple(
    tuple(effect(a, t) for t in _ROLES) if a in (
        _ANGEL, _DEVIL, _VAMPIRE, _WEREWOLF, _ZOMBIE, _HUNTER, _ALIEN) else None
    for a in _ROLES)
_NO_MARKS: Final[frozenset[Mark]] = frozenset()

_KILL, _KILL_NO_XP, _HIT, _MISS, _ABDUCT = (
    Effect.KILL, Effect.KILL_NO_XP, Effect.HIT, Effect.MISS, Effect.ABDUCT)
_KILLED, _ABDUCTED, _DAMNED = Fate.KILLED, Fate.ABDUCTED, Fate.DAMNED


class _Table:
    """The mutable state of one resolution; private to :func:`resolve`."""

    __slots__ = (
        "abducted_by", "attacked_hunter", "by_role", "credit", "damned_any", "dropped", "events",
        "exorcised", "hits", "kind", "left", "married", "n", "night", "penalty", "players",
        "removed", "right", "role", "seeks", "shown", "targets", "undead", "why", "withdrawn",
        "zombie_final",
    )

    def __init__(self, night: Night) -> None:
        players = night.players
        n = len(players)
        seat = {p: i for i, p in enumerate(players)}
        cards = night.cards
        role = [cards[p].role for p in players]
        by_role: dict[Role, list[int]] = {}  # seats by real role, in seat order
        for i, r in enumerate(role):
            seats = by_role.get(r)
            if seats is None:
                by_role[r] = [i]
            else:
                seats.append(i)
        self.by_role = by_role
        self.night = night
        self.players = players
        self.n = n
        self.role = role
        if _DEATH in role:
            left = [0] * n
            right = [0] * n
            for i in range(n):
                j = (i + 1) % n
                if role[j] is _DEATH:
                    j = (j + 1) % n
                left[i] = j
                j = (i - 1) % n
                if role[j] is _DEATH:
                    j = (j - 1) % n
                right[i] = j
        else:
            left = [*range(1, n), 0]
            right = [n - 1, *range(n - 1)]
        self.left = left
        self.right = right
        shown = list(role)
        targets: list[tuple[int, ...]] = [()] * n
        kind: list[Role | None] = [None] * n
        seeks: list[Gender | None] = [None] * n
        for p, g in night.gestures.items():
            i = seat[p]
            if g.shows is not None:
                shown[i] = g.shows
            if g.targets:
                targets[i] = tuple([seat[x] for x in g.targets])
            if g.kind is not None:
                kind[i] = g.kind
            if g.seeks is not None:
                seeks[i] = g.seeks
            if g.names is not None:
                targets[i] = (seat[g.names],)
        if _NECRO in shown:
            for i in range(n):
                if shown[i] is _NECRO:
                    targets[i] = (left[i], right[i])
        self.shown = shown
        self.targets = targets
        self.kind = kind
        self.seeks = seeks
        withdrawn = [False] * n
        dropped: list[tuple[int, ...]] = [()] * n
        for p, w in night.withdrawals.items():
            if w is True:
                withdrawn[seat[p]] = True
            elif w:
                if len(set(w)) >= 2:
                    withdrawn[seat[p]] = True
                else:
                    dropped[seat[p]] = tuple(w)
        self.withdrawn = withdrawn
        self.dropped = dropped
        zf = [-1] * n
        for p, x in night.zombie_targets.items():
            zf[seat[p]] = seat[x]
        self.zombie_final = zf
        self.removed: list[Fate | None] = [None] * n
        self.hits = [0] * n
        self.exorcised = [False] * n
        self.undead = [False] * n
        self.credit = [False] * n  # a credited kill, reflex or focus
        self.penalty = [False] * n  # a Hunter killed a guardian
        self.attacked_hunter = [-1] * n  # Werewolf -> the Hunter it attacked
        self.abducted_by = [0] * n  # Alien -> players abducted
        self.damned_any = [False] * n
        self.married = [-1] * n
        self.events: list[Event] = []
        self.why: list[Event | None] = [None] * n  # the reason for no XP (goals)

    # -- helpers ------------------------------------------------------------

    def valid(self, i: int) -> bool:
        """R-02: in play at the beginning of the current step."""
        return not self.withdrawn[i] and self.removed[i] is None and self.role[i] is not _DEATH

    def acting(self, role: Role, step: str) -> Iterator[int]:
        """Real-role actors of a step still in play (R-11), by seat.

        An actor removed at an earlier step is narrated in its seat's turn.
        """
        withdrawn, removed = self.withdrawn, self.removed
        for i in self.by_role[role]:
            if not withdrawn[i]:
                if removed[i] is not None:
                    self.events.append(_event(step, "out-no-action", i))
                else:
                    yield i

    def immune(self, attacker: int, target: int) -> str | None:
        """Immunity chosen by the target (R-71 flash, R-74 doll), or None."""
        tr = self.role[target]
        if tr is _REPORTER and attacker in self.targets[target]:
            return "flash"
        if tr is _VOODOO and self.kind[target] is self.role[attacker]:
            return "doll"
        return None

    def aims(self) -> list[tuple[int, ...]]:
        """Phase-2 aims by seat, by shown role (see :func:`aims`)."""
        out: list[tuple[int, ...]] = []
        role = self.role
        for i, s in enumerate(self.shown):
            if _AIMS_AT_PLAYERS[s]:
                out.append(self.targets[i])
            elif s is _ALIEN:
                k = self.kind[i]
                out.append(tuple([x for x, r in enumerate(role) if x != i and r is k]))
            else:
                out.append(())
        return out


class _Step:
    """What one step causes, applied together at its end (R-10)."""

    __slots__ = ("deaths", "hits", "name", "removal", "tough_hitters")

    def __init__(self, name: str, removal: Fate = _KILLED) -> None:
        self.name = name
        self.removal = removal
        self.deaths: dict[int, Fate] = {}
        self.hits: dict[int, int] = {}
        self.tough_hitters: dict[int, list[int]] = {}


def _strike(t: _Table, st: _Step, a: int, target: int) -> None:
    """One harmful attack of ``a`` on ``target`` at step ``st`` (R-01..R-06)."""
    ev = t.events
    step = st.name
    if t.withdrawn[target]:
        ev.append(_event(step, "forfeit-withdrawn", a, target))
        return
    if t.removed[target] is not None:
        ev.append(_event(step, "forfeit-removed", a, target))
        return
    ra = t.role[a]
    rt = t.role[target]
    row = _PANEL_T[ra]
    assert row is not None
    eff = row[rt]
    if eff is _MISS:
        ev.append(_event(step, "miss-devil", a, target))
        return
    if rt is _REPORTER or rt is _VOODOO:
        why = t.immune(a, target)
        if why is not None:
            ev.append(_event(step, "immune-" + why, a, target))
            return
    if eff is _KILL:
        st.deaths[target] = st.removal
        t.credit[a] = True
        ev.append(_event(step, "kill", a, target))
    elif eff is _HIT:
        st.hits[target] = st.hits.get(target, 0) + 1
        st.tough_hitters.setdefault(target, []).append(a)
        ev.append(_event(step, "hit", a, target))
    elif eff is _ABDUCT:
        st.deaths[target] = st.removal
        t.credit[a] = True
        t.abducted_by[a] += 1
        ev.append(_event(step, "abduct", a, target))
    elif eff is _KILL_NO_XP:
        st.deaths[target] = st.removal
        t.penalty[a] = True
        ev.append(_event(step, "kill-guardian", a, target))
    elif eff is Effect.ATTACKER_DIES:
        st.deaths[a] = _KILLED
        ev.append(_event(step, "dies-on-priest", a, target))
    elif eff is Effect.REFLEX:
        t.attacked_hunter[a] = target
        ev.append(_event(step, "attacks-hunter", a, target))
    elif eff is Effect.EXORCISE:
        t.exorcised[target] = True
        ev.append(_event(step, "exorcise", a, target))
    elif eff is Effect.CANNIBAL:
        ev.append(_event(step, "attacks-zombie", a, target))
    else:
        ev.append(_event(step, "no-effect", a, target))


def _end_step(t: _Table, st: _Step, focus: tuple[int, ...] = ()) -> None:
    """Apply a step's hits and removals together (R-10, R-14)."""
    ev = t.events
    for target, h in st.hits.items():
        before = t.hits[target]
        t.hits[target] = before + h
        if before + h >= 2:
            fate = st.removal
            if target not in st.deaths:
                st.deaths[target] = fate
            for a in st.tough_hitters[target]:
                # credit only on a target already hit at an earlier step,
                # or an advanced Hunter's focused arrows
                if before >= 1 or a in focus:
                    t.credit[a] = True
                    if fate is _ABDUCTED:
                        t.abducted_by[a] += 1
            ev.append(_event(st.name, "tough-abducted" if fate is _ABDUCTED else "tough-killed",
                            target))
        else:
            ev.append(_event(st.name, "wounded" if t.role[target] is _CREATURE else "awakened",
                            target))
    removed = t.removed
    for i, fate in st.deaths.items():
        if removed[i] is None:
            removed[i] = fate


def _step_angel(t: _Table) -> None:
    st = _Step("1+")
    for a in t.acting(_ANGEL, "1+"):
        _strike(t, st, a, t.targets[a][0])
    _end_step(t, st)


def _step_devil(t: _Table) -> None:
    st = _Step("1", _DAMNED)
    aims: list[tuple[int, ...]] | None = None
    role = t.role
    for d in t.acting(_DEVIL, "1"):
        if aims is None:
            aims = t.aims()
        t.events.append(_event("1", "devil-reveals", d, -1, int(t.shown[d])))
        for x in aims[d]:
            rx = role[x]
            if (rx is _ANGEL or (rx is _DEMONIAC and not t.exorcised[x])) and t.valid(x):
                st.deaths[x] = _DAMNED
                t.damned_any[d] = True
                t.events.append(_event("1", "damn", d, x))
    _end_step(t, st)


def _step_vampire(t: _Table) -> None:
    st = _Step("2")
    for a in t.acting(_VAMPIRE, "2"):
        _strike(t, st, a, t.targets[a][0])
    _end_step(t, st)


def _step_werewolf(t: _Table) -> None:
    st = _Step("3")
    for a in t.acting(_WEREWOLF, "3"):
        _strike(t, st, a, t.targets[a][0])
    _end_step(t, st)


def _step_zombie(t: _Table) -> None:
    st = _Step("4")
    zombies: list[int] = []
    for a in t.acting(_ZOMBIE, "4"):
        zombies.append(a)
        first = t.targets[a][0]
        final = t.zombie_final[a]
        if final < 0:
            final = first
        elif final != first:
            t.events.append(_event("4", "zombie-switches", a, final, first))
        _strike(t, st, a, final)
    # The cannibal rule: neighbouring Zombies both in play both die.
    if len(zombies) == 2:
        a, b = zombies
        if b == t.left[a] or b == t.right[a]:
            st.deaths[a] = _KILLED
            st.deaths[b] = _KILLED
            t.events.append(_event("4", "cannibals", a, b))
    _end_step(t, st)


def _step_hunter(t: _Table) -> None:
    st = _Step("5")
    focus: list[int] = []
    hunters: list[int] = []
    for h in t.acting(_HUNTER, "5"):
        hunters.append(h)
        arrows = t.targets[h]
        dropped = t.dropped[h]
        if dropped:
            k = dropped[0]
            t.events.append(_event("5", "arrow-withdrawn", h, arrows[k]))
            _strike(t, st, h, arrows[1 - k])
        else:
            _strike(t, st, h, arrows[0])
            _strike(t, st, h, arrows[1])
            if arrows[0] == arrows[1] and _TOUGH[t.role[arrows[0]]]:
                focus.append(h)
    # The silver reflex: every Werewolf that attacked a Hunter in play.
    for w, h in enumerate(t.attacked_hunter):
        if h >= 0 and h in hunters and t.removed[w] is None:
            st.deaths[w] = _KILLED
            t.credit[h] = True
            t.events.append(_event("5", "reflex", h, w))
    _end_step(t, st, tuple(focus))


def _step_alien(t: _Table) -> None:
    st = _Step("6", _ABDUCTED)
    for a in t.acting(_ALIEN, "6"):
        kind = t.kind[a]
        took = False
        for x, r in enumerate(t.role):
            if r is kind and x != a and t.valid(x):
                took = True
                _strike(t, st, a, x)
        if not took:
            t.events.append(_event("6", "alien-finds-none", a, -1,
                                  int(kind) if kind is not None else -1))
    _end_step(t, st)


def _step_necromancer(t: _Table) -> None:
    for a in t.acting(_NECRO, "7"):
        for x in (t.left[a], t.right[a]):
            if t.removed[x] is not _KILLED or _UNRAISABLE[t.role[x]]:
                continue
            if t.immune(a, x) is not None:
                t.events.append(_event("7", "raise-resisted", a, x))
                continue
            t.undead[x] = True
            t.events.append(_event("7", "raise", a, x))


def _step_creature(t: _Table) -> None:
    cards = t.night.cards
    players = t.players
    for c in t.acting(_CREATURE, "8"):
        x = t.targets[c][0]
        if not t.valid(x):
            t.events.append(_event("8", "proposal-forfeit", c, x))
            continue
        if _PROPOSAL_IMMUNE[t.role[x]] or t.immune(c, x) is not None:
            t.events.append(_event("8", "proposal-ignored", c, x))
            continue
        # The target reveals the card; the wedding is announced after the
        # photos, but it is decided here, at the end of the initiative order.
        t.events.append(_event("8", "proposal", c, x))
        if cards[players[x]].identity is t.seeks[c]:
            t.married[c] = x


# ---------------------------------------------------------------------------
# Goals: one small function per role, each reading the finished night and
# returning the XP earned (the withdrawal rule is applied by the caller). A goal
# unmet returns :func:`_unmet`: 0, with the rule's reason recorded for the
# narration ("why-..." events, one per player who scores nothing; R-100).


def _unmet(t: _Table, i: int, key: str, target: int = -1, other: int = -1) -> int:
    """No XP for seat ``i``, for the reason ``key`` (a message of the narration)."""
    t.why[i] = _event("end", key, i, target, other)
    return 0


def _own(t: _Table, i: int, key: str) -> Event | None:
    """The first event ``key`` whose actor is seat ``i``."""
    for e in t.events:
        if e.actor == i and e.key == key:
            return e
    return None


def _gone(t: _Table, i: int) -> int:
    """A survival goal failed (R-04: killed, abducted or damned all fail it); a player
    out before its own step never acted (R-11)."""
    fate = t.removed[i]
    if _own(t, i, "out-no-action") is not None:
        return _unmet(t, i, "why-abducted-early" if fate is _ABDUCTED else "why-killed-early")
    return _unmet(t, i, "why-killed" if fate is _KILLED else
                  "why-abducted" if fate is _ABDUCTED else "why-damned")


#: What became of an attack (its event), as the reason it gives for no kill.
_MISSED: Final = {
    "forfeit-withdrawn": "why-target-fled",
    "forfeit-removed": "why-target-gone",  # someone got there first
    "miss-devil": "why-target-devil",
    "immune-flash": "why-immune-flash",
    "immune-doll": "why-immune-doll",
    "no-effect": "why-not-on-list",  # the kill lists
    "hit": "why-first-hit",  # a Mummy or Creature not hit before
    "attacks-hunter": "why-attacked-hunter",
}


def _missed(t: _Table, i: int) -> int:
    """An attacker in play at the end with no credited kill (R-06): the reason its
    attacks give, as their events tell; several attacks that fail differently (a
    Hunter's two bolts, an Alien's specimens) are said together."""
    found: tuple[str, int] | None = None
    for e in t.events:
        if e.actor != i:
            continue
        key = _MISSED.get(e.key)
        if key is None:
            continue
        x = e.target
        if key == "why-first-hit" and t.removed[x] is not None and any(
                f.key in ("tough-killed", "tough-abducted") and f.actor == x and f.step == e.step
                for f in t.events):
            key = "why-two-hits-at-once"  # both hits at one step, no credit
        if found is not None and found != (key, x):
            return _unmet(t, i, "why-no-bolt" if t.role[i] is _HUNTER else "why-no-kill-many")
        found = (key, x)
    if found is None:
        return _unmet(t, i, "why-no-kill")
    return _unmet(t, i, found[0], found[1])


def _goal_devil(t: _Table, d: int) -> int:
    """R-24..R-27: survive, and make someone withdraw (or, advanced, damn a soul)."""
    if t.removed[d] is not None:
        return _gone(t, d)
    if t.damned_any[d] and t.night.cards[t.players[d]].edition is Edition.ADVANCED:
        return 1
    if _devil_withdrawal_goal(t, d):
        return 1
    if t.damned_any[d]:  # only the advanced Devil scores for it
        return _unmet(t, d, "why-devil-basic-damn")
    nobody = not any(w or (t.role[p] is _HUNTER and t.dropped[p])
                     for p, w in enumerate(t.withdrawn) if p != d)
    if nobody:
        return _unmet(t, d, "why-devil-nobody-withdrew")
    return _unmet(t, d, "why-devil-not-fooled", -1, int(t.shown[d]))


def _devil_withdrawal_goal(t: _Table, d: int) -> bool:
    role = t.role
    withdrawn, dropped = t.withdrawn, t.dropped
    parties = [p for p in range(t.n)
               if p != d and (withdrawn[p] or (role[p] is _HUNTER and dropped[p]))]
    if not parties:
        return False  # nobody withdrew
    aims = t.aims()
    shown = t.shown[d]
    for p in parties:
        if p in aims[d] and shown in _W_AIMED:  # W1, W4
            return True
        if d in aims[p]:
            rp = role[p]
            if shown is _PRIEST and (rp is _VAMPIRE or rp is _HUNTER):  # W2
                return True
            if shown is _HUNTER and rp is _WEREWOLF:  # W3
                return True
            if shown is _MUMMY:  # W5
                return True
            if (shown is _REPORTER or shown is _DEMONIAC or shown is _VOODOO) and (
                    rp is _HUNTER):  # W6
                return True
    return False


_W_AIMED: Final = (_VAMPIRE, _WEREWOLF, _ZOMBIE, _HUNTER, _ANGEL, _ALIEN, _REPORTER)


def _goal_killer(t: _Table, i: int) -> int:
    """Vampire, Werewolf, Zombie (R-30..R-32, R-53): survive and a credited kill."""
    if t.removed[i] is None and t.credit[i]:
        return 1
    if _own(t, i, "out-no-action") is not None:
        return _gone(t, i)
    e = _own(t, i, "dies-on-priest")
    if e is not None:  # "you didn't attack a Priest"
        return _unmet(t, i, "why-attacked-priest", e.target)
    e = _own(t, i, "attacks-hunter")
    if e is not None:  # "you didn't attack a Hunter"
        return _unmet(t, i, "why-attacked-hunter", e.target)
    if t.removed[i] is not None:
        return _gone(t, i)
    return _missed(t, i)


def _goal_hunter(t: _Table, i: int) -> int:
    """R-33..R-38: survive, a credited kill (arrow, reflex or focus), no guardian killed."""
    if t.removed[i] is None and t.credit[i] and not t.penalty[i]:
        return 1
    if t.removed[i] is not None:
        return _gone(t, i)
    e = _own(t, i, "kill-guardian")
    if e is not None:
        return _unmet(t, i, "why-hunter-guardian", e.target)
    return _missed(t, i)


def _goal_survive(t: _Table, i: int) -> int:
    """Priest, Voodooist (R-39, R-74)."""
    return 1 if t.removed[i] is None else _gone(t, i)


def _goal_angel(t: _Table, i: int) -> int:
    """R-43: survive, and kill a monster or exorcise the Demoniac."""
    if t.removed[i] is not None:
        return _gone(t, i)
    if t.credit[i] or t.exorcised[t.targets[i][0]]:
        return 1
    return _missed(t, i)


def _goal_alien(t: _Table, i: int) -> int:
    """R-47: 1 XP per player abducted, at most 2."""
    if t.removed[i] is not None:
        return _gone(t, i)
    if t.abducted_by[i]:
        return min(2, t.abducted_by[i])
    e = _own(t, i, "alien-finds-none")
    if e is not None:  # no specimen in play when it is called
        return _unmet(t, i, "why-alien-none", -1, e.other)
    return _missed(t, i)


def _goal_necromancer(t: _Table, i: int) -> int:
    """R-58: survive and raise a servant."""
    if t.removed[i] is not None:
        return _gone(t, i)
    if t.undead[t.left[i]] or t.undead[t.right[i]]:
        return 1
    e = _own(t, i, "raise-resisted")
    if e is not None:  # a Voodooist's doll, a Reporter's flash
        return _unmet(t, i, "why-raise-resisted", e.target)
    return _unmet(t, i, "why-no-corpse")


def _goal_creature(t: _Table, i: int) -> int:
    """R-61: survive (wounded is fine) and marry."""
    if t.removed[i] is not None:
        return _gone(t, i)
    if t.married[i] >= 0:
        return 1
    x = t.targets[i][0]
    if _own(t, i, "proposal-forfeit") is not None:  # a player not there
        return _unmet(t, i, "why-proposal-gone", x)
    if _own(t, i, "proposal-ignored") is not None:
        return _unmet(t, i, "why-proposal-immune", x)
    return _unmet(t, i, "why-wrong-gender", x)


def _goal_mummy(t: _Table, i: int) -> int:
    """R-66: one hit, and only one."""
    if t.hits[i] == 1 and t.removed[i] is None:
        return 1
    if t.removed[i] is _ABDUCTED:
        return _gone(t, i)
    return _unmet(t, i, "why-mummy-sleeps" if t.hits[i] == 0 else "why-mummy-two-hits")


def _goal_demoniac(t: _Table, i: int) -> int:
    """R-67: killed (or abducted) unexorcised; or exorcised and alive."""
    fate = t.removed[i]
    if t.exorcised[i]:
        # once exorcised, she scores only by surviving
        return 1 if fate is None else _unmet(t, i, "why-demoniac-exorcised")
    if fate is _KILLED or fate is _ABDUCTED:
        return 1
    if fate is _DAMNED:
        return _unmet(t, i, "why-demoniac-damned")
    return _unmet(t, i, "why-demoniac-lived")


def _goal_reporter(t: _Table, i: int) -> int:
    """R-70: survive and a photo of a living monster (not the Devil) or a servant."""
    if t.removed[i] is not None:
        return _gone(t, i)
    if any(_photo_counts(t, x) for x in t.targets[i]):
        return 1
    return _unmet(t, i, "why-photo-worthless")


def _photo_counts(t: _Table, x: int) -> bool:
    if t.withdrawn[x]:
        return False
    if t.undead[x]:
        return True
    r = t.role[x]
    return _MONSTER[r] and r is not _DEVIL and t.removed[x] is None


def _death_harvests(t: _Table, i: int) -> bool:
    x = t.targets[i][0]
    fate = t.removed[x]
    return (fate is _KILLED and not t.undead[x]) or fate is _ABDUCTED


def _goal_death(t: _Table, i: int) -> int:
    """R-81: the named player killed (not raised) or abducted."""
    if _death_harvests(t, i):
        return 1
    x = t.targets[i][0]
    fate = t.removed[x]
    return _unmet(t, i, "why-death-fled" if t.withdrawn[x] else
                  "why-death-damned" if fate is _DAMNED else
                  "why-death-raised" if fate is _KILLED else "why-death-spared", x)


_GOALS: Final[tuple[Callable[[_Table, int], int], ...]] = tuple({
    Role.DEVIL: _goal_devil,
    Role.VAMPIRE: _goal_killer,
    Role.WEREWOLF: _goal_killer,
    Role.ZOMBIE: _goal_killer,
    Role.HUNTER: _goal_hunter,
    Role.PRIEST: _goal_survive,
    Role.ANGEL: _goal_angel,
    Role.ALIEN: _goal_alien,
    Role.NECROMANCER: _goal_necromancer,
    Role.CREATURE: _goal_creature,
    Role.MUMMY: _goal_mummy,
    Role.DEMONIAC: _goal_demoniac,
    Role.REPORTER: _goal_reporter,
    Role.VOODOOIST: _goal_survive,
    Role.DEATH: _goal_death,
}[r] for r in _ROLES)

_STEPS: Final = (
    ("1+", _ANGEL, _step_angel),
    ("1", _DEVIL, _step_devil),
    ("2", _VAMPIRE, _step_vampire),
    ("3", _WEREWOLF, _step_werewolf),
    ("4", _ZOMBIE, _step_zombie),
    ("5", _HUNTER, _step_hunter),
    ("6", _ALIEN, _step_alien),
    ("7", _NECRO, _step_necromancer),
    ("8", _CREATURE, _step_creature),
)


def _end_of_night(t: _Table) -> None:
    """Photos, marriages, the Mummy and Demoniac outcomes, Death's name (R-117)."""
    ev = t.events
    role, removed, withdrawn = t.role, t.removed, t.withdrawn
    for i, r in enumerate(role):
        if r is _REPORTER and removed[i] is None and not withdrawn[i]:
            for x in t.targets[i]:
                ev.append(_event("end", "photo" if _photo_counts(t, x) else "photo-worthless",
                                i, x))
    for i, r in enumerate(role):
        if r is _CREATURE and removed[i] is None and not withdrawn[i]:
            x = t.targets[i][0]
            if t.married[i] >= 0:
                ev.append(_event("end", "marry", i, x))
            elif any(e.key == "proposal" and e.actor == i for e in ev):
                ev.append(_event("end", "proposal-wrong-gender", i, x))
    for i, r in enumerate(role):
        if r is _MUMMY:
            if removed[i] is None and not withdrawn[i]:
                ev.append(_event("end", "mummy-awake" if t.hits[i] else "mummy-sleeps", i))
        elif r is _DEMONIAC and (removed[i] is _KILLED or removed[i] is _ABDUCTED):
            ev.append(_event("end", "demoniac-dies-exorcised" if t.exorcised[i]
                            else "demoniac-freed", i))
    for i, r in enumerate(role):
        if r is _DEATH:
            ev.append(_event("end", "death-harvests" if _death_harvests(t, i) else "death-empty",
                            i, t.targets[i][0]))


def resolve(night: Night, *, through: str | None = None) -> NightResult:
    """Adjudicate a valid night (see :func:`darkcity.validation.validate`).

    Phases 4 and 5: the initiative steps, the end of the night, XP, the
    journals and the victory check. With ``through`` (a step, ``"3"`` say),
    stop after that step: the fates and marks are those of that moment, the
    events those narrated so far, no XP is written and nobody wins. A game
    uses ``through="3"`` to tell the Zombies what happened before they are
    called (R-113).
    """
    if through is not None and through not in _STEP_INDEX:
        raise ValueError(f"unknown step {through!r}")
    t = _Table(night)
    present = t.by_role
    for step, r, fn in _STEPS:
        if r in present:
            fn(t)
        if step == through:
            return _outcome(t, night, final=False)
    _end_of_night(t)
    return _outcome(t, night, final=True)


def _outcome(t: _Table, night: Night, *, final: bool) -> NightResult:
    role = t.role
    withdrawn, removed, hits, exorcised, undead = (
        t.withdrawn, t.removed, t.hits, t.exorcised, t.undead)
    alive, gone = Fate.ALIVE, Fate.WITHDRAWN
    fates = [gone if withdrawn[i] else (f or alive) for i, f in enumerate(removed)]
    marks = [_NO_MARKS] * t.n
    xp = [0] * t.n
    why = t.why
    for i, r in enumerate(role):
        if r is _DEATH:
            fates[i] = Fate.ABSENT
        if hits[i] or exorcised[i] or undead[i]:
            marks[i] = _marks(r, hits[i], removed[i], exorcised[i], undead[i])
        if final:
            if withdrawn[i]:
                why[i] = _event("end", "why-withdrew", i)
            else:
                xp[i] = _GOALS[r](t, i)
    journals: list[dict[Role, int]] = []
    njournals = night.journals
    events = t.events
    for i, p in enumerate(night.players):
        j = njournals.get(p)
        j = {} if j is None else dict(j)
        x = xp[i]
        if x:
            r = role[i]
            j[r] = j.get(r, 0) + x
            events.append(_event("end", "xp", i, -1, x))
        elif final:
            # each player's line of Phase 5: the XP written, or why none
            w = why[i]
            assert w is not None  # every goal function says why it is unmet
            events.append(w)
        journals.append(j)
    winners = victory(journals) if final and njournals else ()
    return tuple.__new__(NightResult, (night, tuple(fates), tuple(marks), tuple(xp),
                                       tuple(journals), winners, tuple(events)))


def _marks(r: Role, hits: int, fate: Fate | None, exorcised: bool, undead: bool
           ) -> frozenset[Mark]:
    m: list[Mark] = []
    if r is _CREATURE and hits == 1 and fate is None:
        m.append(Mark.WOUNDED)
    if r is _MUMMY and hits:
        m.append(Mark.AWAKENED)
    if exorcised:
        m.append(Mark.EXORCISED)
    if undead:
        m.append(Mark.UNDEAD)
    return frozenset(m)
