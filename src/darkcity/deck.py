"""The cards in the box, the deck of a game and its rules, and named presets.

A physical card is a role, an edition and a gender identity (R-90): the box
holds, for each of the six main-cast roles, one feminine and one masculine
card in each edition (basic and advanced), and the ten special-cast cards
(Angel, Alien, Necromancer, the two Creatures, Mummy, Demoniac, Reporter,
Voodooist, Death). A :class:`Deck` is the set of cards a game is played with,
checked once at set-up against the box "Special Cast and Advanced Roles"
(PT "Elenco especial e papéis avançados — Regras e recomendações"; rulings
R-92, R-93, K-2, K-9); the adjudicator never sees the deck (J-6).

Cards are :class:`darkcity.night.Card` values with the gender always given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from darkcity.cast import CAST, MAIN_CAST, Edition, Gender, Role, parse_role
from darkcity.i18n import FieldError, Message, _, msg, msgn
from darkcity.night import Card
from darkcity.terms import EDITION_NAMES, GENDER_NAMES, role_term

__all__ = [
    "BOX",
    "MAX_DECK",
    "MAX_SHEET",
    "PRESETS",
    "Deck",
    "DeckError",
    "card_key",
    "card_label",
    "card_message",
    "check_deck",
    "deck_warning_messages",
    "deck_warnings",
    "journal_sheet",
    "main_cast_cards",
    "parse_card",
    "parse_deck",
    "preset",
    "presets_for",
    "special_card",
]

#: PT "A quantidade máxima de cartas no maço tem de ser catorze (14)" (R-92, K-2).
MAX_DECK: Final = 14
#: PT "O número máximo de papéis na folha de diário deve ser oito (8)" (R-92, R-104).
MAX_SHEET: Final = 8


class DeckError(FieldError):
    """A deck (or a card) that the box rules forbid; ``field`` says where.

    ``message`` is a :class:`~darkcity.i18n.Message`, which :meth:`render`
    translates; ``reason`` and ``str(error)`` (``field: reason``) are English,
    built only when asked for. A plain string is taken as English text.
    """


def _box() -> tuple[Card, ...]:
    cards: list[Card] = []
    for edition in (Edition.BASIC, Edition.ADVANCED):
        for role in MAIN_CAST:
            for gender in (Gender.FEMININE, Gender.MASCULINE):
                cards.append(Card(role, edition, gender))
    for role in Role:
        spec = CAST[role]
        if spec.special:
            for gender in spec.genders:  # the Creature: one card of each identity
                cards.append(Card(role, Edition.BASIC, gender))
    return tuple(cards)


#: Every physical card in the box (24 main-cast cards, 10 special-cast cards).
BOX: Final[tuple[Card, ...]] = _box()
_BOX_SET: Final = frozenset(BOX)


def card_key(card: Card) -> str:
    """A short stable name for a physical card: ``vampire:advanced:feminine``."""
    known = _BOX_KEYS.get(card)
    if known is not None:
        return known
    return _card_key(card)


def _card_key(card: Card) -> str:
    gender = card.identity
    return f"{card.role.key}:{card.edition.value}:{gender.value if gender else '?'}"


_BOX_KEYS: Final[dict[Card, str]] = {}


def card_label(card: Card) -> str:
    """A human label: ``Vampire (advanced, feminine)``."""
    name = card.role.key.capitalize()
    if CAST[card.role].special:
        return f"{name} ({card.identity.value if card.identity else '?'})"
    gender = card.identity.value if card.identity else "?"
    return f"{name} ({card.edition.value}, {gender})"


def card_message(card: Card) -> Message:
    """:func:`card_label` as a message: ``Vampiro (avançado, feminino)`` in Portuguese."""
    identity = card.identity
    gender: object = Message(GENDER_NAMES[identity]) if identity else "?"
    if CAST[card.role].special:
        return msg("{role} ({gender})", role=role_term(card.role), gender=gender)
    return msg("{role} ({edition}, {gender})", role=role_term(card.role),
               edition=Message(EDITION_NAMES[card.edition]), gender=gender)


_BOX_KEYS.update((c, _card_key(c)) for c in BOX)


def _physical(card: Card) -> Card:
    """The box card ``card`` denotes (gender filled in for single-identity roles)."""
    return Card(card.role, card.edition, card.identity)


def parse_card(text: str) -> Card:
    """A box card from ``role[:edition[:gender]]`` (``vampire:advanced:feminine``).

    A multi-identity role without a gender is refused: the deck needs the
    physical card (R-90).
    """
    parts = [p.strip() for p in text.split(":")]
    role = parse_role(parts[0]) if parts and parts[0] else None
    if role is None:
        raise DeckError("cards", msg("unknown role in {text!r}", text=text))
    edition = Edition.BASIC
    gender: Gender | None = None
    for part in parts[1:]:
        low = part.lower()
        if low in ("basic", "advanced"):
            edition = Edition(low)
        elif low in ("feminine", "masculine", "neutral"):
            gender = Gender(low)
        else:
            raise DeckError("cards", msg("{text!r}: {part!r} is neither an edition nor a gender",
                                         text=text, part=part))
    spec = CAST[role]
    if gender is None:
        if len(spec.genders) > 1:
            raise DeckError("cards", msg("{text!r}: say which {role} card, feminine or "
                                         "masculine", text=text, role=role_term(role)))
        gender = spec.genders[0]
    card = Card(role, edition, gender)
    if card not in _BOX_SET:
        raise DeckError("cards", msg("there is no {card} card in the box", card=card_key(card)))
    return card


def special_card(role: Role) -> tuple[Card, ...]:
    """The box cards of one special-cast role (two for the Creature)."""
    return tuple(c for c in BOX if c.role is role and CAST[role].special)


def main_cast_cards(
    edition: Edition | Mapping[Role, Edition] = Edition.BASIC,
    *,
    without: Iterable[Card | Role] = (),
) -> tuple[Card, ...]:
    """The twelve main-cast cards (one feminine, one masculine per role), in
    ``edition`` (or an edition per role), less the cards or roles in ``without``."""
    out = []
    drop = list(without)
    for role in MAIN_CAST:
        ed = edition if isinstance(edition, Edition) else edition.get(role, Edition.BASIC)
        for gender in (Gender.FEMININE, Gender.MASCULINE):
            card = Card(role, ed, gender)
            if role in drop or card in drop:
                continue
            out.append(card)
    return tuple(out)


def journal_sheet(cards: Iterable[Card]) -> tuple[Role, ...]:
    """The rows of the journal sheet for a deck (R-104, R-92).

    The six main-cast rows, the Priest row overwritten when both the Mummy and
    the Voodooist are in (both Priests are then out), plus one row per special
    role in the deck (Death included, R-83), in the order of :class:`Role`.
    """
    roles = {c.role for c in cards}
    rows = [r for r in MAIN_CAST
            if not (r is Role.PRIEST and Role.MUMMY in roles and Role.VOODOOIST in roles)]
    rows += [r for r in Role if CAST[r].special and r in roles]
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of a game (Death included when it is in play) and their sheet.

    Build one with :meth:`of` (which checks the box rules for a table size) or
    take a preset (:func:`preset`).
    """

    cards: tuple[Card, ...]
    name: str = "custom"

    @classmethod
    def of(cls, cards: Iterable[Card], players: int, name: str = "custom") -> Deck:
        """A deck checked against the box rules for ``players`` players."""
        deck = cls(tuple(_physical(c) for c in cards), name)
        check_deck(deck.cards, players)
        return deck

    @property
    def journal_roles(self) -> tuple[Role, ...]:
        """The rows of every player's journal sheet (R-104)."""
        return journal_sheet(self.cards)

    @property
    def death(self) -> bool:
        """Is Death in play (set aside face up every night, R-82)?"""
        return any(c.role is Role.DEATH for c in self.cards)

    @property
    def shuffled(self) -> tuple[Card, ...]:
        """The cards that are shuffled in Phase 1: all but Death."""
        return tuple(c for c in self.cards if c.role is not Role.DEATH)

    @property
    def special(self) -> bool:
        return any(CAST[c.role].special for c in self.cards)

    def keys(self) -> list[str]:
        """The cards as ``role:edition:gender`` names (the record's form)."""
        return [card_key(c) for c in self.cards]


def check_deck(cards: Iterable[Card], players: int) -> None:
    """Raise :class:`DeckError` unless ``cards`` may be played by ``players`` players.

    The binding rules (R-92, R-93, K-2, K-9): 4 to 8 players, 6 to 8 with any
    special-cast card (Death included); each card a card of the box, at most
    once; at most 14 cards, Death counted; both Creatures or none; one Priest
    card out for each Mummy or Voodooist; a journal sheet of at most 8 rows;
    and enough cards for the draft: three face down and one for each player
    but the last, Death not counted (R-91, R-82).
    """
    cards = tuple(cards)
    if not 4 <= players <= 8:
        raise DeckError("players", msg("Dark City is played by 4 to 8 players, not {n}",
                                       n=players))
    seen: set[Card] = set()
    counts: dict[Role, int] = {}
    for i, raw in enumerate(cards):
        c = _physical(raw)
        where = f"cards[{i}]"
        if c not in _BOX_SET:
            raise DeckError(where, msg("there is no {card} card in the box", card=card_key(c)))
        if c in seen:
            raise DeckError(where, msg("the {card} card is in the deck twice",
                                       card=card_key(c)))
        seen.add(c)
        counts[c.role] = counts.get(c.role, 0) + 1
        if counts[c.role] > CAST[c.role].max_cards:
            raise DeckError(where, msgn("at most {n} {role} card in a deck",
                                        "at most {n} {role} cards in a deck",
                                        CAST[c.role].max_cards, role=role_term(c.role)))
    specials = sorted({c.role for c in seen if CAST[c.role].special})
    if specials and players < 6:
        raise DeckError("players", msg("the special cast ({roles}) needs 6 or more players, "
                                       "not {n}", roles=_roles(specials), n=players))
    if len(cards) > MAX_DECK:
        raise DeckError("cards", msg("a deck has at most {max} cards, Death included; "
                                     "this one has {n}", max=MAX_DECK,
                                     n=len(cards)))
    if counts.get(Role.CREATURE, 0) == 1:
        raise DeckError("cards", msg("both Creature cards enter the game, or neither"))
    out = counts.get(Role.MUMMY, 0) + counts.get(Role.VOODOOIST, 0)
    if counts.get(Role.PRIEST, 0) > 2 - out:
        raise DeckError("cards", msgn("one Priest card leaves the deck for each Mummy or "
                                      "Voodooist: at most {n} Priest card here, not {given}",
                                      "one Priest card leaves the deck for each Mummy or "
                                      "Voodooist: at most {n} Priest cards here, not {given}",
                                      2 - out, given=counts[Role.PRIEST]))
    sheet = journal_sheet(seen)
    if len(sheet) > MAX_SHEET:
        raise DeckError("cards", msg("the journal sheet would have {n} rows ({roles}); "
                                     "at most {max}", n=len(sheet),
                                     roles=_roles(sheet), max=MAX_SHEET))
    shuffled = sum(1 for c in seen if c.role is not Role.DEATH)
    if shuffled < players + 3:  # K-11
        raise DeckError("cards", msg("the draft needs {needed} cards besides Death for "
                                     "{n} players (three face down, and a hand of at least "
                                     "one card for the last drafter); this deck has {given}",
                                     needed=players + 3, n=players, given=shuffled))


def _roles(roles: Iterable[Role]) -> Message:
    """Role names separated by commas, in the reader's language."""
    names = {f"r{i}": role_term(r) for i, r in enumerate(roles)}
    return Message(", ".join(f"{{{k}}}" for k in names), names)  # i18n: not prose


_GUARDIANS: Final = frozenset(r for r in Role if CAST[r].guardian and CAST[r].special)


def deck_warnings(cards: Iterable[Card], players: int) -> tuple[str, ...]:
    """The box's recommendations a legal deck does not follow (R-92: guidance only)."""
    return tuple(str(m) for m in deck_warning_messages(cards, players))


def deck_warning_messages(cards: Iterable[Card], players: int) -> tuple[Message, ...]:
    """:func:`deck_warnings` as messages, for a reader in any language."""
    cards = tuple(_physical(c) for c in cards)
    roles = [c.role for c in cards]
    out: list[Message] = []
    guardians = sorted({r for r in roles if r in _GUARDIANS})
    if len(guardians) >= 2:
        out.append(msg("two special-cast guardians at once are not recommended: {roles}",
                       roles=_roles(guardians)))
    main = sum(1 for r in roles if not CAST[r].special)
    if any(CAST[r].special for r in roles):
        if players == 6 and main >= 12:
            out.append(msg("with 6 players, special roles should replace main-cast ones"))
        if players >= 7 and main < 12 and Role.MUMMY not in roles and Role.VOODOOIST not in roles:
            out.append(msg("with 7 or 8 players, special roles should be added to the main "
                           "cast"))
    by_role: dict[tuple[Role, Gender | None], int] = {}
    for c in cards:
        if not CAST[c.role].special:
            key = (c.role, c.identity)
            by_role[key] = by_role.get(key, 0) + 1
    for (role, gender), k in sorted(by_role.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        if k > 1 and gender is not None:
            out.append(msg("two {gender} {role} cards (basic and advanced): a deck should keep "
                           "one card of each gender per role",
                           gender=Message(GENDER_NAMES[gender]), role=role_term(role)))
    return tuple(out)


# ---------------------------------------------------------------------------
# Presets


@dataclass(frozen=True, slots=True)
class _Preset:
    cards: tuple[Card, ...]
    players: tuple[int, int]  # min, max
    about: str  # a message id (shown translated)


def _sp(*roles: Role) -> tuple[Card, ...]:
    return tuple(c for r in roles for c in special_card(r))


_A = Edition.ADVANCED
_PRESETS: dict[str, _Preset] = {
    "basic": _Preset(main_cast_cards(), (4, 8),
                     _("The twelve basic main-cast cards (the first games).")),
    "advanced": _Preset(main_cast_cards(_A), (4, 8),
                        _("The twelve advanced main-cast cards (any table size).")),
    "angel-alien-6": _Preset(
        main_cast_cards(_A, without=[Role.ZOMBIE]) + _sp(Role.ANGEL, Role.ALIEN), (6, 6),
        _("Six players: the Angel and the Alien replace the Zombies.")),
    "reporter-death-6": _Preset(
        main_cast_cards(without=[Role.WEREWOLF]) + _sp(Role.REPORTER, Role.DEATH), (6, 6),
        _("Six players: the Reporter and Death replace the Werewolves.")),
    "undead-7": _Preset(
        main_cast_cards(_A) + _sp(Role.NECROMANCER, Role.DEMONIAC), (7, 8),
        _("Seven or eight: the Necromancer and the Demoniac join the advanced cast.")),
    "creatures-7": _Preset(
        main_cast_cards(_A) + _sp(Role.CREATURE), (7, 8),
        _("Seven or eight: both Creatures join the advanced cast.")),
    "mummy-voodoo-7": _Preset(
        main_cast_cards(_A, without=[Role.PRIEST]) + _sp(Role.MUMMY, Role.VOODOOIST, Role.ALIEN),
        (7, 8),
        _("Seven or eight: the Mummy and the Voodooist replace both Priests (their rows "
          "overwrite the Priest's), and the Alien fills the last row.")),
    "death-alien-7": _Preset(
        main_cast_cards(_A) + _sp(Role.DEATH, Role.ALIEN), (7, 8),
        _("Seven or eight: Death and the Alien join the advanced cast (14 cards).")),
    "reporter-creature-6": _Preset(
        main_cast_cards(_A, without=[Role.WEREWOLF]) + _sp(Role.CREATURE, Role.REPORTER), (6, 8),
        _("Six to eight: the Creatures and the Reporter replace the Werewolves.")),
    "creature-mummy-6": _Preset(
        main_cast_cards(_A, without=[Role.PRIEST, Role.DEVIL])
        + _sp(Role.CREATURE, Role.MUMMY, Role.VOODOOIST), (6, 8),
        _("Six to eight: the Creatures, the Mummy and the Voodooist; no Priest, no Devil.")),
}
#: Named decks: name -> (cards, (min players, max players), description); the
#: description is a message id, which a translator translates.
PRESETS: Final = MappingProxyType(
    {k: (v.cards, v.players, v.about) for k, v in _PRESETS.items()})


def preset(name: str, players: int) -> Deck:
    """The preset deck ``name`` for ``players`` players (checked)."""
    p = _PRESETS.get(name)
    if p is None:
        raise DeckError("deck", msg("unknown preset {name!r} (known: {known})", name=name,
                                    known=", ".join(_PRESETS)))
    lo, hi = p.players
    if not lo <= players <= hi:
        if lo == hi:
            raise DeckError("deck", msg("the {name!r} deck is for {lo} players, not {n}",
                                        name=name, lo=lo, n=players))
        raise DeckError("deck", msg("the {name!r} deck is for {lo} to {hi} players, not {n}",
                                    name=name, lo=lo, hi=hi, n=players))
    return Deck.of(p.cards, players, name)


def presets_for(players: int) -> tuple[str, ...]:
    """The names of the presets made for ``players`` players."""
    return tuple(k for k, p in _PRESETS.items() if p.players[0] <= players <= p.players[1])


def parse_deck(text: str, players: int) -> Deck:
    """A deck from a preset name or a comma-separated list of cards
    (``role[:edition[:gender]]``), checked for ``players`` players."""
    text = text.strip()
    if "," not in text and ":" not in text and text in _PRESETS:
        return preset(text, players)
    if not text:
        raise DeckError("deck", msg("empty deck"))
    return Deck.of((parse_card(t) for t in text.split(",") if t.strip()), players)
