"""The decisions players make, the points where they make them, and their JSON form.

A game (:class:`~darkcity.game.Game`) moves by decisions: the free XP, a card
kept in the draft, a gesture, a withdrawal, a Zombie's victim. Each is a frozen
value here, answered at a :class:`DecisionPoint` of a :class:`Phase`; a refusal
is an :class:`IllegalDecision` with a code and a reason.

A decision is made by a bot, parsed from a client's message
(:func:`decision_from_dict`) or read from a record before the game checks it,
so these values live apart from the compiled game and a malformed one is
refused in plain Python (:func:`check_well_formed`) before the game reads a
field. :func:`decision_to_dict` and :func:`decision_from_dict` are the one JSON
form of a decision, shared by the server, the terminal's saved games, the
records and the bots' worker processes.

(``from darkcity.game import GestureChoice``, and the rest, still works, as the
docs showed it before; new code imports the decisions from here.)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from darkcity.cast import Edition, Gender, Role, parse_role
from darkcity.i18n import Message, _, msg
from darkcity.night import Card, Gesture, Withdrawal
from darkcity.notation import gesture_document

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
    "Phase",
    "TakeDeath",
    "WithdrawalChoice",
    "ZombieChoice",
    "check_well_formed",
    "decision_from_dict",
    "decision_to_dict",
    "new_decision_point",
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


# ---------------------------------------------------------------------------
# The JSON form of a decision


def decision_to_dict(d: Decision) -> dict[str, Any]:
    """A decision as plain data (``{"type": "gesture", "player": ..., ...}``)."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(d)], "player": d.player}
    if isinstance(d, FreeXp):
        out["role"] = d.role.key
    elif isinstance(d, DraftPick):
        c, gender = d.card, d.card.identity  # what the card shows (views.card_view)
        out["card"] = {"role": c.role.key, "edition": c.edition.value,
                       "gender": gender.value if gender is not None else ""}
    elif isinstance(d, TakeDeath):
        out["names"] = d.names
    elif isinstance(d, GestureChoice):
        out.update(gesture_document(d.gesture))  # the notation's own form
    elif isinstance(d, WithdrawalChoice):
        w = d.withdrawal
        out["withdrawal"] = w if isinstance(w, bool) else list(w)
    elif isinstance(d, ZombieChoice):
        out["target"] = d.target
    if d.at is not None:
        out["at"] = d.at
    return out


_TYPE_NAMES: dict[type, str] = {
    FreeXp: "free-xp", DraftPick: "draft-pick", FaceDownPick: "face-down-pick",
    TakeDeath: "take-death", LookAtHand: "look-at-hand", GestureChoice: "gesture",
    WithdrawalChoice: "withdrawal", ZombieChoice: "zombie",
}


def decision_from_dict(doc: dict[str, Any]) -> Decision:
    """The inverse of :func:`decision_to_dict`.

    Bad data raises :class:`IllegalDecision` with the code
    ``malformed`` (a ``ValueError``, whose ``message`` translates).
    """
    def bad(message: Message) -> IllegalDecision:
        return IllegalDecision("malformed", message, p if isinstance(p, str) else None)

    def role(name: object) -> Role:
        r = parse_role(name) if isinstance(name, str) else None
        if r is None:
            raise bad(msg("unknown role {role!r}", role=name))
        return r

    t = doc.get("type")
    p = doc.get("player")
    at = doc.get("at")
    if not isinstance(p, str):
        raise bad(msg("a decision names its player"))
    if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
        raise bad(msg("at is a decision point id"))
    if t == "free-xp":
        return FreeXp(p, role(doc.get("role")), at=at)
    if t == "draft-pick":
        c = doc.get("card")
        if not isinstance(c, dict):
            raise bad(msg("draft-pick needs a card"))
        try:
            gender = Gender(c["gender"]) if c.get("gender") else None
            card = Card(role(c.get("role")), Edition(c.get("edition", "basic")), gender)
        except (KeyError, ValueError) as e:
            raise bad(msg("bad card {card!r}", card=c)) from e
        return DraftPick(p, card, at=at)
    if t == "face-down-pick":
        return FaceDownPick(p, at=at)
    if t == "look-at-hand":
        return LookAtHand(p, at=at)
    if t == "take-death":
        names = doc.get("names")
        if not isinstance(names, str):
            raise bad(msg("take-death names a player"))
        return TakeDeath(p, names, at=at)
    if t == "gesture":
        targets = doc.get("targets", [])
        if not isinstance(targets, list) or not all(isinstance(x, str) for x in targets):
            raise bad(msg("targets is a list of players"))
        seeks = doc.get("seeks")
        try:
            seeking = Gender(seeks) if isinstance(seeks, str) else None
        except ValueError:
            raise bad(msg("unknown gender {gender!r}", gender=seeks)) from None
        g = Gesture(tuple(targets),
                    role(doc["shows"]) if "shows" in doc else None,
                    role(doc["kind"]) if "kind" in doc else None,
                    seeking)
        return GestureChoice(p, g, at=at)
    if t == "withdrawal":
        w = doc.get("withdrawal", False)
        wd: Withdrawal
        if isinstance(w, bool):
            wd = w
        elif isinstance(w, list) and all(isinstance(i, int) and not isinstance(i, bool)
                                         for i in w):
            wd = tuple(w)
        else:
            raise bad(msg("withdrawal is true, false or a list of arrow indices"))
        return WithdrawalChoice(p, wd, at=at)
    if t == "zombie":
        target = doc.get("target")
        if not isinstance(target, str):
            raise bad(msg("zombie needs a target"))
        return ZombieChoice(p, target, at=at)
    raise bad(msg("unknown decision type {type!r}", type=t))
