"""The table's state: its set-up, the night in progress, and what the Mayor's screen reads.

:class:`TableSetup` (the seating, the deck, the Mayor, each player's free XP, checked as
an online game's), :class:`Stage` (where the table is), :class:`TableNight` (a finished
night), :class:`Tonight` (the night in progress), and :class:`TableState`: every field
of a :class:`~darkcity.companion.table.Companion`, declared together, with the queries
that read them (who drafts, who gestures, who may be aimed at) and the two checks every
entry starts with (the stage, the player's name).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from darkcity.cast import CAST, NO_DISGUISE, STEPS, Reach, Role, parse_role
from darkcity.companion.entries import Call, Entry, EntryError, GestureEntry
from darkcity.deck import Deck, DeckError, parse_card
from darkcity.i18n import Message, msg
from darkcity.night import (
    Card,
    Night,
    NightResult,
    Withdrawal,
    neighbours,
    possible_cast,
)
from darkcity.notation import write_round
from darkcity.settings import Settings

__all__ = [
    "STEP_ROLE",
    "Stage",
    "TableNight",
    "TableSetup",
    "TableState",
    "Tonight",
    "read_free_xp",
    "showable_roles",
    "stage_message",
]
#: The role each initiative step calls.
STEP_ROLE: Final = {s: next(r for r in Role if CAST[r].step == s) for s in STEPS}
_DEVIL, _DEATH = Role.DEVIL, Role.DEATH



class Stage(enum.StrEnum):
    """Where the table is: the rulebook's phases as the Mayor runs them."""

    DRAFT = "draft"  # Phase 1, with the real cards
    COUNT = "count"  # "1, 2, 3, now!"
    REVEAL = "reveal"  # Phase 2: the gestures are entered
    WITHDRAWAL = "withdrawal"  # Phase 3
    RESOLUTION = "resolution"  # Phase 4: the steps are called
    JOURNALS = "journals"  # Phase 5: journals written, the next night may start
    OVER = "over"  # somebody won


@dataclass(frozen=True, slots=True)
class TableSetup:
    """The seating (clockwise: each player's left neighbour is the next name), the
    deck, the Mayor (the first active player) and each player's free XP."""

    players: tuple[str, ...]
    deck: Deck
    free_xp: Mapping[str, Role]
    mayor: str

    @classmethod
    def of(cls, players: Sequence[str], deck: Deck, free_xp: Mapping[str, Role],
           mayor: str | None = None) -> TableSetup:
        """A checked set-up; :class:`~darkcity.deck.DeckError` says what is wrong, as
        for an online game (the same rules, the same words)."""
        names = tuple(players)
        settings = Settings(players=names, deck=deck, mayor=mayor, free_xp=dict(free_xp))
        for p in names:
            if p not in free_xp:
                raise DeckError(f"free_xp.{p}", msg("{player} has not chosen a row for the "
                                                    "free XP", player=p))
        return cls(names, settings.deck, dict(free_xp), mayor or names[0])

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "mayor": self.mayor,
                "deck": {"name": self.deck.name, "cards": self.deck.keys()},
                "journal_roles": [r.key for r in self.deck.journal_roles],
                "free_xp": {p: self.free_xp[p].key for p in self.players}}

    @classmethod
    def from_json(cls, doc: object) -> TableSetup:
        """The set-up :meth:`to_json` wrote; :class:`DeckError` names the bad field."""
        if not isinstance(doc, dict):
            raise DeckError("settings", msg("must be an object"))
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise DeckError("players", msg("must be a list of names"))
        deck_doc = doc.get("deck")
        if not isinstance(deck_doc, dict) or not isinstance(deck_doc.get("cards"), list):
            raise DeckError("deck", msg("must hold the deck's cards"))
        cards = [parse_card(str(c)) for c in deck_doc["cards"]]
        deck = Deck.of(cards, len(players), str(deck_doc.get("name", "custom")))
        free_xp = read_free_xp(doc.get("free_xp"))
        mayor = doc.get("mayor")
        return cls.of(players, deck, free_xp, mayor if isinstance(mayor, str) else None)


@dataclass(frozen=True, slots=True)
class TableNight:
    """A finished night: its number, active player, the night and its result."""

    number: int
    active: str
    night: Night
    result: NightResult

    def round_document(self) -> dict[str, Any]:
        """The night in the round notation: ``darkcity adjudicate`` gives its result."""
        return write_round(self.night)



def showable_roles(deck: Deck) -> tuple[Role, ...]:
    """The roles a gesture may show at this table: the deck's, and every role a
    Devil may imitate (R-20) when a Devil is in the deck. Nobody shows the Devil."""
    roles = {c.role for c in deck.cards}
    if _DEVIL in roles:
        night = Night((), {}, journal_roles=deck.journal_roles)
        roles |= {r for r in possible_cast(night) if r not in NO_DISGUISE}
    return tuple(r for r in Role if r in roles and r is not _DEVIL and r is not _DEATH)


class Tonight:
    """The night in progress (mutable; private to a companion)."""

    def __init__(self, number: int, active: int) -> None:
        self.number = number
        self.active = active
        self.death: str | None = None  # who took Death
        self.death_names: str | None = None
        self.gestures: dict[str, GestureEntry] = {}
        self.withdrawals: dict[str, Withdrawal] = {}
        self.calls: list[Call] = []
        self.turned: dict[str, Card] = {}  # cards turned over at the calls
        self.zombies: dict[str, str] = {}
        self.narration: list[tuple[str, tuple[Message, ...]]] = []
        self.prefer: set[str] = set()  # players taken for Devils in the unknown cards



class TableState:
    """Every field of a companion, and the queries the Mayor's screen makes of them;
    the concerns over it (``reckoning.py``, ``calls.py``, ``phases.py``, ``table.py``)
    change them."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup: Final = setup
        self.players: Final = setup.players
        self.deck: Final = setup.deck
        self.sheet: Final = setup.deck.journal_roles
        self._cards: Final = setup.deck.cards
        self._n = len(self.players)
        self._seat = {p: i for i, p in enumerate(self.players)}
        self._showable = frozenset(showable_roles(setup.deck))
        self._deck_roles = frozenset(c.role for c in self._cards)
        self.entries: list[Entry] = []
        self.nights: list[TableNight] = []
        #: How many entries each finished night's table had, its last entry included.
        self.finished_at: list[int] = []
        self.journals: list[dict[Role, int]] = [{setup.free_xp[p]: 1} for p in self.players]
        self.winners: tuple[str, ...] = ()
        self.stage = Stage.DRAFT
        self._night = Tonight(1, self._seat[setup.mayor])

    # -- the state -------------------------------------------------------------

    @property
    def number(self) -> int:
        """The night in progress (or the last one, once the game is over)."""
        return self._night.number

    @property
    def active(self) -> str:
        """The active player: the draft starts with them (R-94)."""
        return self.players[self._night.active]

    @property
    def last_drafter(self) -> str:
        """The active player's right neighbour, who chooses last and alone may take
        Death (R-82)."""
        return self.players[(self._night.active - 1) % self._n]

    @property
    def draft_order(self) -> tuple[str, ...]:
        """Who chooses in Phase 1, in order: the hand passes to the left (clockwise)."""
        a = self._night.active
        return tuple(self.players[(a + i) % self._n] for i in range(self._n))

    @property
    def death_in_play(self) -> bool:
        return self.deck.death

    @property
    def death(self) -> str | None:
        """Who took Death tonight (public: the card lies face up, R-82)."""
        return self._night.death

    @property
    def death_names(self) -> str | None:
        """The name Death wrote (secret until the end of the night)."""
        return self._night.death_names

    @property
    def gesturing(self) -> tuple[str, ...]:
        """Everybody who gestures tonight, from the active player on (all but Death)."""
        return tuple(p for p in self.draft_order if p != self._night.death)

    @property
    def gestures(self) -> Mapping[str, GestureEntry]:
        return self._night.gestures

    @property
    def withdrawals(self) -> Mapping[str, Withdrawal]:
        return self._night.withdrawals

    @property
    def turned(self) -> Mapping[str, Card]:
        """The cards turned over at the calls so far."""
        return self._night.turned

    @property
    def calls(self) -> tuple[Call, ...]:
        """Tonight's calls so far, in order (the cards turned over, the Zombies)."""
        return tuple(self._night.calls)

    @property
    def zombie_choices(self) -> Mapping[str, str]:
        return self._night.zombies

    @property
    def narration(self) -> tuple[tuple[str, tuple[Message, ...]], ...]:
        """What the Mayor has narrated tonight: (step, sentences) for each call."""
        return tuple(self._night.narration)

    @property
    def showable(self) -> tuple[Role, ...]:
        """The roles a gesture may show at this table, in the order of the cast."""
        return tuple(r for r in Role if r in self._showable)

    def to_enter(self) -> tuple[str, ...]:
        """Players whose gesture is not entered yet, from the active player on."""
        return tuple(p for p in self.gesturing if p not in self._night.gestures)

    def neighbours(self, player: str) -> tuple[str, str]:
        """(left, right) of ``player`` tonight, Death's seat skipped (R-50, R-80)."""
        death = self._night.death
        seats = {q: Card(_DEATH) if q == death else Card(Role.PRIEST) for q in self.players}
        return neighbours(self.players, seats, player)

    def aim_options(self, player: str, shows: Role) -> tuple[str, ...]:
        """Whom ``player`` may point at when showing ``shows`` (R-116)."""
        reach = CAST[shows].gesture.reach
        if reach is Reach.ANYONE:
            return tuple(q for q in self.players if q != player and q != self._night.death)
        if reach is Reach.NEIGHBOUR:
            left, right = self.neighbours(player)
            return (left,) if left == right else (left, right)
        return ()

    def kind_options(self, shows: Role) -> tuple[Role, ...]:
        """The roles an Alien or a Voodooist may name at this table."""
        cast = possible_cast(Night((), {}, journal_roles=self.sheet))
        return tuple(r for r in Role if r in cast and r is not _DEATH
                     and not (shows is Role.ALIEN and r is Role.ALIEN))

    def _expect(self, stage: Stage) -> None:
        if self.stage is not stage:
            raise EntryError("entry", msg("not now: the table is at {stage}",
                                          stage=stage_message(self.stage)))

    def _player(self, name: str, where: str = "player") -> None:
        if name not in self._seat:
            raise EntryError(where, msg("{player!r} is not one of the players", player=name),
                             name)



_STAGE_NAMES: Final = {
    Stage.DRAFT: msg("the draft"),
    Stage.COUNT: msg("the count"),
    Stage.REVEAL: msg("the gestures"),
    Stage.WITHDRAWAL: msg("the withdrawals"),
    Stage.RESOLUTION: msg("the resolution"),
    Stage.JOURNALS: msg("the journals"),
    Stage.OVER: msg("the end of the game"),
}


def stage_message(stage: Stage) -> Message:
    """The name of a stage, for a reader."""
    return _STAGE_NAMES[stage]


def read_free_xp(value: object) -> dict[str, Role]:
    """Each player's free XP row from its plain form (``{"Ana": "priest"}``), or a
    :class:`DeckError` naming the entry that is wrong.

    The message says what is missing and what to send, in words that stand alone: a
    set-up sent without its free XP was refused with "Must be an object" (the refusal
    leaves the field's name out), which named neither the field nor what to do. A row
    left empty (``""``, the set-up's "—") is a row not chosen yet, said by name in
    :meth:`TableSetup.of`."""
    if value is None:
        raise DeckError("free_xp", msg(
            "The free XP are missing: each player writes one XP in a row of their journal "
            "before the first night (free_xp: each player's name and a row, such as "
            "“priest”)."))
    if not isinstance(value, dict):
        raise DeckError("free_xp", msg(
            "The free XP (free_xp) give each player's name a row of their journal, such "
            "as “priest”."))
    out: dict[str, Role] = {}
    for p, r in value.items():
        if r == "" or r is None:
            continue
        role = parse_role(r) if isinstance(r, str) else None
        if role is None:
            raise DeckError(f"free_xp.{p}", msg(
                "{player}'s free XP: {name!r} is not a role; choose a row of their journal, "
                "such as “priest”.", player=str(p), name=str(r)))
        out[str(p)] = role
    return out
