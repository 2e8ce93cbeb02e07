"""The game's plain values: phases, decisions, decision points, settings, records.

Frozen data, apart from :class:`~darkcity.game.Game` so that anything may build,
compare, copy or pickle them: a decision is made by a bot, parsed from a
client's message or read from a record before the game checks it, and a
malformed one must reach :meth:`~darkcity.game.Game.verify` to be refused with
a reason. :mod:`darkcity.game` re-exports every name.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from darkcity.cast import Edition, Gender, Role
from darkcity.deck import Deck, DeckError
from darkcity.i18n import Message, _, msg
from darkcity.night import Card, Gesture, Night, NightResult, Withdrawal
from darkcity.terms import role_term

__all__ = [
    "PHASE_OF",
    "Decision",
    "DecisionPoint",
    "DraftPick",
    "FaceDownPick",
    "FreeXp",
    "GestureChoice",
    "IllegalDecision",
    "LookAtHand",
    "NightRecord",
    "Phase",
    "Pick",
    "Settings",
    "TakeDeath",
    "WithdrawalChoice",
    "ZombieChoice",
    "bot_rng",
    "check_well_formed",
    "deck_rng",
    "phase_name",
]


class Phase(enum.Enum):
    """Where a game stands (PT "Organização da partida")."""

    __hash__ = object.__hash__  # members are singletons compared by identity

    SETUP = "setup"  # the free XP (PT "Preparação", R-103)
    DRAFT = "draft"  # Phase 1
    GESTURE = "gesture"  # Phase 2
    WITHDRAWAL = "withdrawal"  # Phase 3
    ZOMBIE = "zombie"  # Phase 4, the Zombies' live choice (R-113)
    OVER = "over"  # somebody won


# ---------------------------------------------------------------------------
# Decisions: frozen values. ``at`` is the id of the decision point the player
# answered; when given, a decision made against an older point is refused as
# stale. It takes no part in equality.


@dataclass(frozen=True, slots=True)
class FreeXp:
    """Set-up: the free XP in one row of the journal sheet (R-103)."""

    player: str
    role: Role
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class DraftPick:
    """Phase 1: keep ``card`` from the hand handed over (R-91)."""

    player: str
    card: Card
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class FaceDownPick:
    """Phase 1, the last player only: take one of the three face-down cards at
    random, blind, and keep it (R-91)."""

    player: str
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class TakeDeath:
    """Phase 1, the last player only, before looking at the hand: take Death and
    write down the name of another player (R-82, R-112)."""

    player: str
    names: str
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class LookAtHand:
    """Phase 1, the last player with Death in play: leave Death and look at the
    hand (R-82)."""

    player: str
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class GestureChoice:
    """Phase 2: the gesture (the Devil's disguise in ``gesture.shows``)."""

    player: str
    gesture: Gesture
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class WithdrawalChoice:
    """Phase 3: ``False`` (stay), ``True`` (withdraw altogether) or, for a Hunter,
    the indices of the arrows it lowers (R-07, R-63)."""

    player: str
    withdrawal: Withdrawal
    at: int | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class ZombieChoice:
    """Phase 4: the Zombie's final victim, its left or right neighbour (R-51)."""

    player: str
    target: str
    at: int | None = field(default=None, compare=False, kw_only=True)


Decision: TypeAlias = (
    FreeXp | DraftPick | FaceDownPick | TakeDeath | LookAtHand | GestureChoice
    | WithdrawalChoice | ZombieChoice
)

#: Each phase's name in a message (the words the web client shows).
_PHASE_NAMES: Final[dict[Phase, str]] = {
    Phase.SETUP: _("free XP"),
    Phase.DRAFT: _("draft"),
    Phase.GESTURE: _("gestures"),
    Phase.WITHDRAWAL: _("withdrawal"),
    Phase.ZOMBIE: _("the Zombies' choice"),
    Phase.OVER: _("over"),
}


def phase_name(phase: Phase) -> Message:
    """The phase's name in a message."""
    return Message(_PHASE_NAMES[phase])


#: The phase each kind of decision belongs to.
PHASE_OF: Final[dict[type, Phase]] = {
    FreeXp: Phase.SETUP,
    DraftPick: Phase.DRAFT,
    FaceDownPick: Phase.DRAFT,
    TakeDeath: Phase.DRAFT,
    LookAtHand: Phase.DRAFT,
    GestureChoice: Phase.GESTURE,
    WithdrawalChoice: Phase.WITHDRAWAL,
    ZombieChoice: Phase.ZOMBIE,
}


class IllegalDecision(ValueError):
    """A decision refused; nothing changed.

    ``code`` is one of ``game-over``, ``wrong-phase``, ``wrong-player``,
    ``already-decided``, ``stale``, ``malformed``, ``illegal``; ``field`` the
    round-notation path when validation refused it. ``message`` is a
    :class:`~darkcity.i18n.Message`, which :meth:`render` translates;
    ``reason`` (a sentence) and ``str(error)`` (``code: reason``) are English,
    built only when asked for. A plain string is taken as English text.
    """

    def __init__(self, code: str, reason: Message | str, player: str | None = None,
                 field: str = "") -> None:
        super().__init__(code, reason, player, field)
        self.code = code
        self.player = player
        self.field = field
        self.message = reason if isinstance(reason, Message) else Message(reason)

    @property
    def reason(self) -> str:
        """The reason in English (a sentence, without the code)."""
        return str(self.message)

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """The reason in ``translate``'s language (English if None), without the code."""
        return self.message.render(translate)

    def __str__(self) -> str:
        return f"{self.code}: {self.reason}"


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """Who must decide now. ``id`` grows by one at every new decision point
    (not at every submission of a simultaneous phase)."""

    id: int
    phase: Phase
    night: int  # 1-based; 0 during set-up
    required: tuple[str, ...]  # who decides at this point, in seat order
    pending: tuple[str, ...]  # who has not decided yet
    simultaneous: bool


_DP_SLOTS: Final = tuple(DecisionPoint.__dict__[f].__set__ for f in DecisionPoint.__slots__)


def new_decision_point(id: int, phase: Phase, night: int, required: tuple[str, ...],
                       pending: tuple[str, ...], simultaneous: bool) -> DecisionPoint:
    """``DecisionPoint(id, phase, ...)``: the same object, made by setting its slots
    directly (a frozen dataclass's ``__init__`` calls ``object.__setattr__`` once a
    field; the game makes one at every decision an environment or a server reads)."""
    dp = object.__new__(DecisionPoint)
    a, b, c, d, e, f = _DP_SLOTS
    a(dp, id)
    b(dp, phase)
    c(dp, night)
    d(dp, required)
    e(dp, pending)
    f(dp, simultaneous)
    return dp


# ---------------------------------------------------------------------------
# Settings and records


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """A game's table: players in seating order (each one's left neighbour is
    the next name), the deck, the Mayor (who is the first active player, R-94,
    R-95), and free XP already chosen (the others choose in ``SETUP``)."""

    players: tuple[str, ...]
    deck: Deck
    mayor: str | None = None  # default: the first seat
    free_xp: Mapping[str, Role] = field(default_factory=dict)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        if not 4 <= len(players) <= 8:
            raise DeckError("players", msg("Dark City is played by 4 to 8 players, not {n}",
                                           n=len(players)))
        if any(not isinstance(p, str) or not p.strip() for p in players):
            raise DeckError("players", msg("a player's name is empty"))
        if len(set(players)) != len(players):
            raise DeckError("players", msg("two players have the same name"))
        if self.mayor is not None and self.mayor not in players:
            raise DeckError("mayor", msg("{player!r} is not one of the players",
                                         player=self.mayor))
        Deck.of(self.deck.cards, len(players), self.deck.name)  # the box rules
        sheet = self.deck.journal_roles
        for p, r in self.free_xp.items():
            if p not in players:
                raise DeckError(f"free_xp.{p}", msg("{player!r} is not one of the players",
                                                    player=p))
            if r not in sheet:
                raise DeckError(f"free_xp.{p}", msg("{role:the} has no row on this sheet",
                                                    role=role_term(r)))
        object.__setattr__(self, "free_xp", dict(self.free_xp))

    @property
    def mayor_seat(self) -> int:
        return 0 if self.mayor is None else self.players.index(self.mayor)


@dataclass(frozen=True, slots=True)
class Pick:
    """One player's Phase-1 choice, for the record: the hand received (empty
    when Death was taken before looking), how the card was taken and the card."""

    player: str
    hand: tuple[Card, ...]
    took: Literal["hand", "face-down", "death"]
    card: Card
    names: str | None = None  # Death's written name


@dataclass(frozen=True, slots=True)
class NightRecord:
    """A finished night: its draft, the night as the engine read it, the result."""

    number: int  # 1-based
    active: str
    face_down: tuple[Card, ...]  # the three cards set aside face down
    picks: tuple[Pick, ...]
    night: Night
    result: NightResult


def deck_rng(seed: int | str, night: int) -> random.Random:
    """The draft's chance for night ``night`` (1-based)."""
    return random.Random(f"darkcity:{seed}:deck:{night}")


def bot_rng(seed: int | str, name: str = "") -> random.Random:
    """A bots' stream from the seed, separate from the deck (``name`` splits it)."""
    return random.Random(f"darkcity:{seed}:bots:{name}")


def check_well_formed(decision: object, players: Collection[str]) -> None:
    """Raise :class:`IllegalDecision` (``malformed``) unless ``decision`` is one of the
    decision types, its fields of their declared types and its names those of ``players``.

    Run before the game reads a single field, here in plain Python: a decision
    may come from anywhere (a client's message, a bot, a record), and the
    compiled game trusts the declared types.
    """
    kind = type(decision)
    if kind not in PHASE_OF:
        raise IllegalDecision("malformed", msg("not a decision: {decision!r}",
                                               decision=decision))
    d: Any = decision
    player = d.player
    if not isinstance(player, str) or player not in players:
        raise IllegalDecision("malformed", msg("{player!r} is not one of the players",
                                               player=player))
    at = d.at
    if at is not None and at.__class__ is not int:
        raise IllegalDecision("malformed", msg("a decision point is a whole number, not "
                                               "{at!r}", at=at), player)
    if kind is FreeXp:
        if not isinstance(d.role, Role):
            raise IllegalDecision("malformed", msg("{role!r} is not a role", role=d.role),
                                  player)
    elif kind is DraftPick:
        if not _well_formed_card(d.card):
            raise IllegalDecision("malformed", msg("{card!r} is not a card", card=d.card),
                                  player)
    elif kind is TakeDeath:
        if not isinstance(d.names, str) or d.names not in players:
            raise IllegalDecision("malformed", msg("Death names one of the players, not "
                                                   "{name!r}", name=d.names), player,
                                  f"gestures.{player}.names")
    elif kind is GestureChoice:
        if not _well_formed_gesture(d.gesture):
            raise IllegalDecision("malformed", msg("not a gesture: {gesture!r}",
                                                   gesture=d.gesture), player,
                                  f"gestures.{player}")
    elif kind is WithdrawalChoice:
        w = d.withdrawal
        if not (isinstance(w, bool) or (isinstance(w, tuple) and all(
                i.__class__ is int for i in w))):  # (a bool is not an index)
            raise IllegalDecision("malformed", msg("a withdrawal is true, false or a tuple of "
                                                   "arrow indices, not {withdrawal!r}",
                                                   withdrawal=w), player,
                                  f"withdrawals.{player}")
    elif kind is ZombieChoice and (not isinstance(d.target, str) or d.target not in players):
        raise IllegalDecision("malformed", msg("{player!r} is not one of the players",
                                               player=d.target), player,
                              f"zombie_targets.{player}")


def _well_formed_card(c: object) -> bool:
    return (isinstance(c, Card) and isinstance(c.role, Role)
            and isinstance(c.edition, Edition)
            and (c.gender is None or isinstance(c.gender, Gender)))


def _well_formed_gesture(g: object) -> bool:
    if not isinstance(g, Gesture):
        return False
    if not isinstance(g.targets, tuple) or not all(isinstance(t, str) for t in g.targets):
        return False
    return (
        (g.shows is None or isinstance(g.shows, Role))
        and (g.kind is None or isinstance(g.kind, Role))
        and (g.seeks is None or isinstance(g.seeks, Gender))
        and (g.names is None or isinstance(g.names, str))
    )
