"""A game's set-up and what it keeps of each night, as plain values.

:class:`Settings` is the table a game is played at (the players in seating
order, the deck, the Mayor, free XP already chosen) and checks itself against
the box's rules; :func:`deck_rng` and :func:`bot_rng` are the game's seeded
chance; :class:`Pick` and :class:`NightRecord` are what the game keeps of each
finished night (its draft, the night as the engine read it, the result).

Frozen data outside the compiled :class:`~darkcity.game.Game`, like the
decisions of :mod:`darkcity.decisions`: anything may build, compare, copy or
pickle them. (``from darkcity.game import Settings`` still works, as the docs
showed it before; new code imports it from here.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from darkcity.cast import Role
from darkcity.deck import Deck, DeckError
from darkcity.i18n import msg
from darkcity.night import Card, Night, NightResult
from darkcity.terms import role_term

__all__ = ["NightRecord", "Pick", "Settings", "bot_rng", "deck_rng"]



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
