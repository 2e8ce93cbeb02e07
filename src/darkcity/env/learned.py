"""``learned``: a policy trained on the environment's observations, played with NumPy.

The policy is a small MLP over what the environment's encoder makes of the player's
own view (:mod:`darkcity.env.observation`: the flat observation and the last nights
of its history, ``log1p``-squashed), its logits masked with the legal decisions (the
engine's, through :mod:`darkcity.env.actions`), so it never tries an illegal one.
It is trained offline by ``scripts/train_learned.py`` (imitation of the strong bot;
DAgger rounds, the student playing and the strong bot saying what it would have done,
are in the script too) and shipped as ``bots-learned.npz`` in :mod:`darkcity.env`'s
data: its weights in float16, its table size and history depth. It plays its most
likely action (``greedy``, as measured; ``greedy=False`` samples its distribution).
Playing it needs NumPy (and the environment's Gymnasium spaces), never torch.

The bot decides from its :class:`~darkcity.bots.Observation` only (the view, the
legal decisions, the public deck), like every bot; one instance plays one seat of
one game (its encoder keeps that game's finished nights).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from darkcity.bots.base import Bot, Observation, register
from darkcity.cast import Role, parse_role
from darkcity.decisions import Decision, GestureChoice, ZombieChoice
from darkcity.deck import Deck
from darkcity.env.actions import ActionCodec, codec
from darkcity.env.observation import ObservationEncoder
from darkcity.i18n import _

__all__ = ["DATA", "LearnedBot", "Policy", "features", "legal_actions", "load_policy"]

DATA: Final = "bots-learned.npz"

_Vec = np.ndarray[Any, np.dtype[np.float32]]


class Policy:
    """An MLP: ``tanh`` hidden layers, then the logits of every action."""

    def __init__(self, layers: Sequence[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]],
                 *, players: int, history: int) -> None:
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.players = players
        self.history = history

    @classmethod
    def from_npz(cls, doc: Mapping[str, np.ndarray[Any, Any]]) -> Policy:
        n = int(doc["depth"])
        return cls([(doc[f"w{i}"], doc[f"b{i}"]) for i in range(n)],
                   players=int(doc["players"]), history=int(doc["history"]))

    def to_npz(self) -> dict[str, np.ndarray[Any, Any]]:
        out: dict[str, np.ndarray[Any, Any]] = {
            "depth": np.array(len(self.layers)), "players": np.array(self.players),
            "history": np.array(self.history)}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"] = w.astype(np.float16)
            out[f"b{i}"] = b.astype(np.float16)
        return out

    def logits(self, x: _Vec) -> _Vec:
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
        return h


_POLICY: Policy | None = None


def load_policy(path: str | Path | None = None) -> Policy:
    """The shipped policy (or the one at ``path``)."""
    global _POLICY
    if path is not None:
        with np.load(path) as doc:
            return Policy.from_npz(doc)
    if _POLICY is None:
        with resources.files("darkcity.env").joinpath("data", DATA).open("rb") as fh, \
                np.load(fh) as doc:
            _POLICY = Policy.from_npz(doc)
    return _POLICY


def features(encoder: ObservationEncoder, obs: Observation) -> _Vec:
    """The policy's input: the encoder's observation and history of the player's view."""
    v = obs.view
    x = np.concatenate([encoder.encode(v), encoder.history(v).ravel()])
    out: _Vec = np.log1p(x).astype(np.float32)
    return out


def legal_actions(cod: ActionCodec, obs: Observation) -> dict[int, Decision]:
    """The legal decisions by action index, as the environment numbers them (the own
    card's role for a gesture, the neighbours for a Zombie's choice, both from the
    player's view)."""
    legal = obs.legal
    v = obs.view
    players = tuple(v.players)
    role: Role | None = None
    nb: tuple[str, str] | None = None
    if isinstance(legal[0], GestureChoice):
        own = next((s.card for s in v.seats if s.name == obs.player), None)
        role = parse_role(own.role) if own is not None else None
    elif isinstance(legal[0], ZombieChoice):
        death = {s.name for s in v.seats if s.death}
        i = players.index(obs.player)
        n = len(players)
        left = (i + 1) % n
        if players[left] in death:
            left = (left + 1) % n
        right = (i - 1) % n
        if players[right] in death:
            right = (right - 1) % n
        nb = (players[left], players[right])
    return cod.legal_actions(legal, players, role, nb)


@register
class LearnedBot(Bot):
    name = "learned"
    level = 1
    variant = True
    description = _("A small neural network trained by imitating the strong bot "
                    "(scripts/train_learned.py), played with NumPy.")

    def __init__(self, rng: random.Random, policy: Policy | None = None, *,
                 greedy: bool = True) -> None:
        super().__init__(rng)
        self.policy = policy if policy is not None else load_policy()
        self.greedy = greedy
        self._encoder: ObservationEncoder | None = None
        self._codec: ActionCodec | None = None

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if self._encoder is None or self._codec is None:
            n = len(obs.view.players)
            if n != self.policy.players:
                raise ValueError(f"the learned policy plays {self.policy.players} seats, "
                                 f"not {n}")
            self._encoder = ObservationEncoder(n, Deck(tuple(obs.deck)),
                                               history=self.policy.history)
            self._codec = codec(n)
        acts = legal_actions(self._codec, obs)
        z = self.policy.logits(features(self._encoder, obs))
        idx = np.fromiter(acts, dtype=np.intp, count=len(acts))
        zl = z[idx].astype(np.float64)
        if self.greedy:
            return acts[int(idx[int(np.argmax(zl))])]
        p = np.exp(zl - zl.max())
        p /= p.sum()
        u = self.rng.random()
        k = int(np.searchsorted(np.cumsum(p), u * p.sum()))
        return acts[int(idx[min(k, len(idx) - 1)])]
