"""What the Mayor enters at a real table, as plain values, and their JSON form.

An entry is one thing the Mayor (or a player's phone) tells the companion:
Death's written name, the end of the count, one revealed gesture, one
withdrawal, one initiative step called, the start of the next night. The
companion (:mod:`darkcity.companion.table`) is the replay of its entries, so
an entry is small, immutable and says only what happened at the table; it is
stored as JSON (:func:`entry_to_json`, :func:`entry_from_json`), in the
table's record too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from darkcity.cast import Edition, Gender, Role, parse_role
from darkcity.i18n import FieldError, Message, msg
from darkcity.night import Card, Withdrawal

__all__ = [
    "Call",
    "Counted",
    "Drafted",
    "Entry",
    "EntryError",
    "GestureEntry",
    "NextNight",
    "RevealDone",
    "WithdrawalEntry",
    "WithdrawalsDone",
    "card_from_json",
    "card_to_json",
    "entry_from_json",
    "entry_to_json",
]


class EntryError(FieldError):
    """An entry refused: malformed, out of turn, or impossible at this table.

    ``field`` says where (``targets``, ``cards.Bia``...), ``message`` why, in
    plain words (a :class:`~darkcity.i18n.Message`, rendered per reader);
    ``player`` is the player concerned, when there is one.
    """

    def __init__(self, field: str, message: Message | str, player: str | None = None) -> None:
        super().__init__(field, message, player)
        self.player = player


@dataclass(frozen=True, slots=True)
class Drafted:
    """Phase 1 is over. ``death_names``: the name the last drafter wrote when taking
    Death (R-82, R-112); None when Death was not taken (or is not in the deck)."""

    death_names: str | None = None


@dataclass(frozen=True, slots=True)
class Counted:
    """The Mayor counted "1, 2, 3, now!": the gestures are out."""


@dataclass(frozen=True, slots=True)
class GestureEntry:
    """What the table saw one player do in Phase 2: the role the gesture shows (a
    Devil's illusion is what it looks like) and where it points. Entering a
    player again corrects the earlier entry."""

    player: str
    shows: Role
    targets: tuple[str, ...] = ()
    kind: Role | None = None  # Alien, Voodooist
    seeks: Gender | None = None  # Creature


@dataclass(frozen=True, slots=True)
class RevealDone:
    """Every gesture is entered: on to the withdrawals."""


@dataclass(frozen=True, slots=True)
class WithdrawalEntry:
    """Phase 3: ``True`` fled, ``False`` stays (a correction), or the Hunter's lowered
    arrow(s) by index into the gesture's targets."""

    player: str
    withdrawal: Withdrawal


@dataclass(frozen=True, slots=True)
class WithdrawalsDone:
    """Everybody who fled is entered: on to the resolution."""


@dataclass(frozen=True, slots=True)
class Call:
    """One initiative step called (``"1+"`` ... ``"8"``, or ``"end"`` for the cards
    turned over after the last step): the cards turned over at the call, and each
    called Zombie's final victim (R-113)."""

    step: str
    cards: Mapping[str, Card] = field(default_factory=dict)
    zombies: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class NextNight:
    """The journals are written: the next night begins."""


Entry: TypeAlias = (Drafted | Counted | GestureEntry | RevealDone | WithdrawalEntry
                    | WithdrawalsDone | Call | NextNight)

_TYPES: Final[dict[type, str]] = {
    Drafted: "drafted", Counted: "counted", GestureEntry: "gesture", RevealDone: "revealed",
    WithdrawalEntry: "withdrawal", WithdrawalsDone: "withdrawn", Call: "call",
    NextNight: "next-night",
}
_BY_NAME: Final = {v: k for k, v in _TYPES.items()}
_STEPS: Final = frozenset(("1+", "1", "2", "3", "4", "5", "6", "7", "8", "end"))


def card_to_json(card: Card) -> dict[str, str]:
    """A card as the round notation writes it (``role``, ``edition``, ``gender``)."""
    doc = {"role": card.role.key, "edition": card.edition.value}
    if card.gender is not None:
        doc["gender"] = card.gender.value
    return doc


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The JSON form of an entry (``type`` names it)."""
    doc: dict[str, Any] = {"type": _TYPES[type(entry)]}
    if isinstance(entry, Drafted):
        doc["death_names"] = entry.death_names
    elif isinstance(entry, GestureEntry):
        doc["player"] = entry.player
        doc["shows"] = entry.shows.key
        if entry.targets:
            doc["targets"] = list(entry.targets)
        if entry.kind is not None:
            doc["kind"] = entry.kind.key
        if entry.seeks is not None:
            doc["seeks"] = entry.seeks.value
    elif isinstance(entry, WithdrawalEntry):
        doc["player"] = entry.player
        w = entry.withdrawal
        doc["withdrawal"] = w if isinstance(w, bool) else list(w)
    elif isinstance(entry, Call):
        doc["step"] = entry.step
        doc["cards"] = {p: card_to_json(c) for p, c in entry.cards.items()}
        if entry.zombies:
            doc["zombies"] = dict(entry.zombies)
    return doc


# ---------------------------------------------------------------------------
# Reading (anything from a client or a file: every field checked, named when wrong)


def _bad(where: str, what: Message) -> EntryError:
    return EntryError(where, what)


def _str(doc: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = doc.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise _bad(key, msg("must be a name (a non-empty string)"))
    return value


def _name(doc: Mapping[str, Any], key: str) -> str:
    value = _str(doc, key)
    assert value is not None
    return value


def _role(value: object, where: str) -> Role:
    role = parse_role(value) if isinstance(value, str) else None
    if role is None:
        raise _bad(where, msg("unknown role {name!r}", name=str(value)))
    return role


def card_from_json(value: object, where: str) -> Card:
    """A card from ``{"role", "edition"?, "gender"?}``."""
    if not isinstance(value, dict):
        raise _bad(where, msg("must be a card: role, edition, gender"))
    role = _role(value.get("role"), f"{where}.role")
    edition_text = value.get("edition", "basic")
    try:
        edition = Edition(edition_text)
    except ValueError:
        raise _bad(f"{where}.edition", msg("must be basic or advanced")) from None
    gender_text = value.get("gender")
    gender: Gender | None = None
    if gender_text is not None:
        try:
            gender = Gender(gender_text)
        except ValueError:
            raise _bad(f"{where}.gender", msg("must be feminine, masculine or neutral")) \
                from None
    return Card(role, edition, gender)


def _names(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(x, str) and x for x in value):
        raise _bad(where, msg("must be a list of names"))
    return tuple(value)


def entry_from_json(doc: object) -> Entry:
    """The entry a JSON object describes; :class:`EntryError` names the bad field."""
    if not isinstance(doc, dict):
        raise _bad("entry", msg("must be an object"))
    kind = _BY_NAME.get(doc.get("type", ""))
    if kind is None:
        raise _bad("type", msg("unknown entry {name!r} (known: {known})",
                               name=str(doc.get("type")), known=", ".join(_BY_NAME)))
    if kind is Drafted:
        return Drafted(_str(doc, "death_names", optional=True))
    if kind is GestureEntry:
        kind_value = doc.get("kind")
        seeks_value = doc.get("seeks")
        seeks: Gender | None = None
        if seeks_value is not None:
            if seeks_value not in ("feminine", "masculine"):
                raise _bad("seeks", msg("must be feminine or masculine"))
            seeks = Gender(seeks_value)
        return GestureEntry(_name(doc, "player"), _role(doc.get("shows"), "shows"),
                            _names(doc.get("targets"), "targets"),
                            None if kind_value is None else _role(kind_value, "kind"), seeks)
    if kind is WithdrawalEntry:
        w = doc.get("withdrawal")
        withdrawal: Withdrawal
        if isinstance(w, bool):
            withdrawal = w
        elif (isinstance(w, list) and len(w) <= 2
              and all(type(i) is int and i in (0, 1) for i in w)):
            withdrawal = tuple(sorted(set(w)))
        else:
            raise _bad("withdrawal", msg("must be true, false or the Hunter's arrows ([0], "
                                         "[1])"))
        return WithdrawalEntry(_name(doc, "player"), withdrawal)
    if kind is Call:
        step = doc.get("step")
        if step not in _STEPS:
            raise _bad("step", msg("unknown step {step!r}", step=str(step)))
        cards_doc = doc.get("cards", {})
        zombies_doc = doc.get("zombies", {})
        if not isinstance(cards_doc, dict):
            raise _bad("cards", msg("must be an object"))
        if not isinstance(zombies_doc, dict) or not all(
                isinstance(v, str) for v in zombies_doc.values()):
            raise _bad("zombies", msg("must map each Zombie to a name"))
        cards = {str(p): card_from_json(c, f"cards.{p}") for p, c in cards_doc.items()}
        return Call(str(step), cards, {str(k): v for k, v in zombies_doc.items()})
    return kind()  # type: ignore[no-any-return]
