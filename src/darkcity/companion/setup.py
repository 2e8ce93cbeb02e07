"""A table's set-up as the companion's page sends it: the players' names, the deck
(a preset or cards chosen one by one) and the free XP, checked with the engine's
words before the table is made.

Free of any web framework: the server's routes (:mod:`darkcity.server.companion`)
and the phone's own engine in the pocket app (:mod:`darkcity.pocket.worker`) call
the same functions, so a set-up is refused with the same words by either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from darkcity import __version__
from darkcity.cast import CAST
from darkcity.companion.state import TableSetup, read_free_xp
from darkcity.companion.text import table_catalog
from darkcity.companion.view import card_json
from darkcity.deck import (
    BOX,
    PRESETS,
    Deck,
    DeckError,
    deck_warning_messages,
    parse_card,
    preset,
    presets_for,
)
from darkcity.i18n import Translator, _, msg, msgn, translator

__all__ = ["PRESET_TITLES", "check", "meta", "read_deck", "read_players", "read_setup"]

#: The decks' names, as the set-up's list and the web table write them.
PRESET_TITLES: Final = {
    "basic": _("Basic (12 cards)"),
    "advanced": _("Advanced (12 cards)"),
    "angel-alien-6": _("Angel and Alien (6 players)"),
    "reporter-death-6": _("Reporter and Death (6 players)"),
    "undead-7": _("Necromancer and Demoniac (7-8)"),
    "creatures-7": _("Creatures (7-8)"),
    "mummy-voodoo-7": _("Mummy, Voodooist and Alien (7-8)"),
    "death-alien-7": _("Death and Alien (7-8)"),
    "reporter-creature-6": _("Reporter and Creatures (6-8)"),
    "creature-mummy-6": _("Creatures, Mummy and Voodooist (6-8)"),
}


def meta(lang: str) -> dict[str, Any]:
    """What the set-up page needs before any table: the texts in ``lang``, the
    presets with their titles and advice, and the box's cards."""
    t = translator(lang)
    return {
        "lang": t.lang, "catalog": table_catalog(t.lang),
        "presets": [{"name": k, "min": v[1][0], "max": v[1][1],
                     "title": t(PRESET_TITLES.get(k, k)), "about": t(v[2])}
                    for k, v in PRESETS.items()],
        # grouped on the set-up page: the basic, the advanced and the special cast
        "box": [{**card_json(c), "special": CAST[c.role].special} for c in BOX],
        "version": __version__,  # the set-up page's footer
    }


def read_players(body: Mapping[str, Any]) -> tuple[str, ...]:
    """The players' names of a set-up (spaces tidied), or a :class:`DeckError`."""
    raw = body.get("players")
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise DeckError("players", msg("must be a list of names"))
    names = tuple(" ".join(p.split()) for p in raw)
    for p in names:
        if len(p) > 24:
            raise DeckError("players", msg("A name has 1 to 24 characters."))
    return names


def read_deck(body: Mapping[str, Any], players: int, t: Translator) -> Deck:
    """The deck of a set-up (``cards`` chosen one by one, else the preset ``deck``)
    for ``players``, or a :class:`DeckError` with the deck rule it breaks."""
    name = body.get("deck")
    cards = body.get("cards")
    if isinstance(cards, list) and cards:
        return Deck.of((parse_card(str(c)) for c in cards), players)
    if isinstance(name, str):
        lo, hi = PRESETS[name][1] if name in PRESETS else (players, players)
        if not lo <= players <= hi:
            # the deck by the title the set-up's list shows, and what to do: the engine's
            # words named its id ('reporter-death-6') while the names were being typed
            raise DeckError("deck", msgn(
                "“{deck}” is not a deck for {n} player: type every player's name, or "
                "choose another deck.",
                "“{deck}” is not a deck for {n} players: type every player's name, or "
                "choose another deck.", players, deck=t(PRESET_TITLES.get(name, name))))
        return preset(name, players)
    raise DeckError("deck", msg("choose a preset or the cards"))


def check(body: Mapping[str, Any], t: Translator) -> dict[str, Any]:
    """The deck for these players: its journal sheet and the box's advice, or the
    deck rule it breaks (the same words as for an online game)."""
    players = read_players(body)
    deck = read_deck(body, len(players), t)
    return {
        "sheet": [r.key for r in deck.journal_roles], "cards": deck.keys(),
        "warnings": [t.render(m) for m in deck_warning_messages(deck.cards, len(players))],
        "presets": list(presets_for(len(players))) if 4 <= len(players) <= 8 else [],
    }


def read_setup(body: Mapping[str, Any], t: Translator) -> TableSetup:
    """The table a set-up makes: its players, deck and free XP, each checked."""
    players = read_players(body)
    deck = read_deck(body, len(players), t)
    return TableSetup.of(players, deck, read_free_xp(body.get("free_xp")))
