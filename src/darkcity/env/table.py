"""The game behind the environments: one :class:`~darkcity.game.Game`, its fixed
action encoding (:mod:`darkcity.env.actions`) and its observations
(:mod:`darkcity.env.observation`).

The engine decides everything: the legal actions are
:meth:`~darkcity.game.Game.legal` mapped to indices, an action is applied with
:meth:`~darkcity.game.Game.apply` after the engine listed it, and what an agent
observes comes from that agent's view (:class:`darkcity.views.LazyView`: the
fields of :func:`darkcity.views.view`, each made when the encoder reads it).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from darkcity.decisions import Decision, Phase
from darkcity.deck import Deck, parse_deck
from darkcity.env.actions import WAIT, ActionCodec, codec
from darkcity.env.observation import ObservationEncoder
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.views import LazyView

__all__ = ["NAMES", "Table"]

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


class Table:
    """A game with its codec and encoder; ``reset`` deals a new one."""

    def __init__(self, players: int, deck: str | Deck, *, history: int = 8) -> None:
        if not 4 <= players <= 8:
            raise ValueError(f"players: 4 to 8, not {players}")
        self.n = players
        self.names: tuple[str, ...] = NAMES[:players]
        self.deck = deck if isinstance(deck, Deck) else parse_deck(deck, players)
        self.codec: ActionCodec = codec(players)
        self.encoder = ObservationEncoder(players, self.deck, history=history)
        # no seed: a fresh deal every reset, from the system's entropy
        self._seeder = random.Random()
        self.game: Game = Game(Settings(players=self.names, deck=self.deck), 0)
        # id(legal tuple) -> (that tuple, kept alive so the id is not reused; its actions,
        # their mask): the engine hands out one tuple per player and decision point
        # (and the same tuple for the same choices: a card's gestures in a seat, the
        # plain withdrawals), so each is encoded once
        self._encoded: dict[int, tuple[tuple[Decision, ...], dict[int, Decision],
                                       np.ndarray[Any, np.dtype[np.int8]]]] = {}
        self._index: dict[int, tuple[Decision, int]] = {}  # see ActionCodec.legal_actions
        self._none = np.zeros(self.codec.size, dtype=np.int8)
        self._wait = self._none.copy()
        self._wait[WAIT] = 1

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(f"darkcity:env:{seed}")
        self.game = Game(Settings(players=self.names, deck=self.deck),
                         self._seeder.getrandbits(63))
        self.encoder.reset()

    # -- actions ----------------------------------------------------------------------

    def _actions(self, player: str) -> tuple[dict[int, Decision],
                                             np.ndarray[Any, np.dtype[np.int8]]] | None:
        game = self.game
        decisions = game.legal(player)
        if not decisions:
            return None
        known = self._encoded.get(id(decisions))
        if known is not None and known[0] is decisions:
            return known[1], known[2]
        phase = game.phase
        role = game.cards[player].role if phase is Phase.GESTURE else None
        nb = game.neighbours(player) if phase is Phase.ZOMBIE else None
        got = self.codec.legal_actions(decisions, self.names, role, nb, self._index)
        mask = self._none.copy()
        mask[list(got)] = 1
        if len(self._encoded) >= 4096:
            self._encoded.clear()
        self._encoded[id(decisions)] = (decisions, got, mask)
        return got, mask

    def legal(self, player: str) -> dict[int, Decision]:
        """The legal actions of ``player`` now, by index (empty: not deciding).
        Shared: read it, do not change it."""
        got = self._actions(player)
        return got[0] if got is not None else {}

    def mask(self, player: str, *, wait: bool) -> np.ndarray[Any, np.dtype[np.int8]]:
        """``action_mask``: the legal actions; with ``wait``, the no-op of an agent
        not deciding now."""
        got = self._actions(player)
        if got is not None:
            return got[1].copy()
        return (self._wait if wait and not self.game.over else self._none).copy()

    def decision(self, player: str, action: int) -> Decision | None:
        """The decision ``action`` means for ``player`` now, or None if not legal."""
        got = self._actions(player)
        return got[0].get(int(action)) if got is not None else None

    # -- observations ---------------------------------------------------------------------

    def observe(self, player: str, *, wait: bool) -> dict[str, Any]:
        """What ``player`` observes now: its view's fields, read as the encoder needs
        them (:class:`~darkcity.views.LazyView`), and its action mask."""
        v = LazyView(self.game, player)
        return {"observation": self.encoder.encode(v), "history": self.encoder.history(v),
                "action_mask": self.mask(player, wait=wait)}

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state: the public view and every card in play tonight."""
        return self.encoder.state(LazyView(self.game, None), self.game.cards)

    def render(self) -> str:
        g = self.game
        journals = {p: sum(j.values()) for p, j in zip(g.players, g.journals, strict=True)}
        return (f"night {g.night}, {g.phase.value}, pending {', '.join(g.pending) or '-'}; "
                f"XP {journals}" + (f"; winners {', '.join(g.winners)}" if g.winners else ""))
