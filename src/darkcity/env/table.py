"""The game behind the environments: one :class:`~darkcity.game.Game`, its fixed
action encoding (:mod:`darkcity.env.actions`) and its observations
(:mod:`darkcity.env.observation`).

The engine decides everything: the legal actions are
:meth:`~darkcity.game.Game.legal` mapped to indices, an action is applied with
:meth:`~darkcity.game.Game.apply` after the engine listed it, and what an agent
observes comes from :func:`darkcity.views.view` for that agent.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from darkcity.deck import Deck, parse_deck
from darkcity.env.actions import WAIT, ActionCodec, codec
from darkcity.env.observation import ObservationEncoder
from darkcity.game import Decision, Game, Phase, Settings
from darkcity.views import view

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
        self._legal: dict[str, dict[int, Decision]] = {}
        self._legal_at = -1
        # id(legal tuple) -> (that tuple, kept alive so the id is not reused; its actions)
        self._encoded: dict[int, tuple[tuple[Decision, ...], dict[int, Decision]]] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(f"darkcity:env:{seed}")
        self.game = Game(Settings(players=self.names, deck=self.deck),
                         self._seeder.getrandbits(63))
        self.encoder.reset()
        self._legal_at = -1

    # -- actions ----------------------------------------------------------------------

    def legal(self, player: str) -> dict[int, Decision]:
        """The legal actions of ``player`` now, by index (empty: not deciding)."""
        game = self.game
        dp = game.decision_point().id
        if dp != self._legal_at:
            self._legal = {}
            self._legal_at = dp
        got = self._legal.get(player)
        if got is None:
            decisions = game.legal(player)
            if not decisions:
                got = {}
            else:
                # the engine hands out the same tuple for the same choices (a card's
                # gestures in a seat, the plain withdrawals): encode it once
                known = self._encoded.get(id(decisions))
                if known is not None and known[0] is decisions:
                    got = known[1]
                else:
                    phase = game.phase
                    role = game.cards[player].role if phase is Phase.GESTURE else None
                    nb = game.neighbours(player) if phase is Phase.ZOMBIE else None
                    got = self.codec.legal_actions(decisions, self.names, role, nb)
                    if len(self._encoded) > 4096:
                        self._encoded.clear()
                    self._encoded[id(decisions)] = (decisions, got)
            self._legal[player] = got
        return got

    def mask(self, player: str, *, wait: bool) -> np.ndarray[Any, np.dtype[np.int8]]:
        """``action_mask``: the legal actions; with ``wait``, the no-op of an agent
        not deciding now."""
        m = np.zeros(self.codec.size, dtype=np.int8)
        legal = self.legal(player)
        if legal:
            m[list(legal)] = 1
        elif wait and not self.game.over:
            m[WAIT] = 1
        return m

    def decision(self, player: str, action: int) -> Decision | None:
        """The decision ``action`` means for ``player`` now, or None if not legal."""
        return self.legal(player).get(int(action))

    # -- observations ---------------------------------------------------------------------

    def observe(self, player: str, *, wait: bool) -> dict[str, Any]:
        v = view(self.game, player)
        return {"observation": self.encoder.encode(v), "history": self.encoder.history(v),
                "action_mask": self.mask(player, wait=wait)}

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state: the public view and every card in play tonight."""
        return self.encoder.state(view(self.game, None), self.game.cards)

    def render(self) -> str:
        g = self.game
        journals = {p: sum(j.values()) for p, j in zip(g.players, g.journals, strict=True)}
        return (f"night {g.night}, {g.phase.value}, pending {', '.join(g.pending) or '-'}; "
                f"XP {journals}" + (f"; winners {', '.join(g.winners)}" if g.winners else ""))
