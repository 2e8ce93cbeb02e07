"""Dark City as an OpenSpiel game, registered with pyspiel as ``python_darkcity``
(``pip install darkcity[rl]``, which brings ``open_spiel``)::

    import pyspiel
    import darkcity.env.openspiel  # registers the game
    game = pyspiel.load_game("python_darkcity", {"players": 6, "deck": "basic"})
    state = game.new_initial_state()

* Sequential, imperfect information, explicit chance. The first node is chance:
  it draws the deal (one of ``deals`` equally likely seeds, which fix every
  night's shuffle of the draft and the face-down cards). Then the player to move
  is the first who must still decide: the draft is one drafter at a time, and the
  simultaneous phases (free XP, gestures, withdrawals, the Zombies' choice) are
  asked in seat order, their decisions sealed by the engine until all are in.
* Actions are the fixed encoding of :mod:`darkcity.env.actions` (``wait`` is
  never legal here); the legal ones are :meth:`darkcity.game.Game.legal`'s.
* Returns: the win share at the end (``1/k`` to each of ``k`` winners); a game
  cut at ``max_nights`` returns zeros (general-sum).
* Observations: strings and tensors from the player's own
  :func:`darkcity.views.view` (:mod:`darkcity.env.observation`: the flat
  observation, then the history of the last nights). The information state adds
  what the player saw and did itself earlier (the hands it received each night,
  its own decisions), which no later view repeats: perfect recall.
* ``serialize()``/``deserialize`` replay the action history (OpenSpiel's default
  for Python games), which the engine reproduces exactly.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from darkcity.decisions import Phase
from darkcity.deck import parse_deck
from darkcity.env.actions import WAIT
from darkcity.env.table import Table
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.views import view

__all__ = ["DarkCityGame", "DarkCityState"]

_DEFAULTS: dict[str, Any] = {"players": 6, "deck": "basic", "max_nights": 100,
                             "deals": 1024, "history": 4}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_darkcity",
    long_name="Python Dark City",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class DarkCityGame(pyspiel.Game):  # type: ignore[misc]
    """The game; parameters: players (4-8), deck (a preset or cards), max_nights,
    deals (chance outcomes of the first node), history (nights in the tensors)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        n = int(p["players"])
        key = (n, str(p["deck"]), int(p["history"]))
        table = _table(*key)
        max_nights = int(p["max_nights"])
        deals = int(p["deals"])
        # a night asks each player at most: a draft pick (two with Death), a
        # gesture, a withdrawal and a Zombie's choice; the set-up asks n
        info = pyspiel.GameInfo(
            num_distinct_actions=table.codec.size,
            max_chance_outcomes=deals,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=n + (max_nights + 1) * 5 * n)
        super().__init__(_GAME_TYPE, info, p)  # first: pybind11 keeps what follows
        self.table = table
        self.key = key
        self.max_nights = max_nights
        self.deals = deals

    def new_initial_state(self) -> DarkCityState:
        return DarkCityState(self, self.key, self.max_nights, self.deals)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None
                         ) -> DarkCityObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect = iig_obs_type is None or iig_obs_type.perfect_recall
        return DarkCityObserver(self, perfect_recall=bool(perfect))


_TABLES: dict[tuple[int, str, int], Table] = {}


def _table(players: int, deck: str, history: int) -> Table:
    """The codec and encoder of a table, shared by its states (a state holds plain
    values only: OpenSpiel clones a Python state by copying its attributes)."""
    key = (players, deck, history)
    got = _TABLES.get(key)
    if got is None:
        got = _TABLES[key] = Table(players, parse_deck(deck, players), history=history)
    return got


class DarkCityState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: DarkCityGame, key: tuple[int, str, int], max_nights: int,
                 deals: int) -> None:
        super().__init__(game)
        self._key = key
        self.max_nights = max_nights
        self.deals = deals
        self.game_: Game | None = None  # dealt at the chance node
        # per player: what it saw and did that no later view repeats
        self.memory: list[list[str]] = [[] for _ in range(key[0])]

    @property
    def table(self) -> Table:
        return _table(*self._key)

    # -- the pyspiel API --------------------------------------------------------------

    def current_player(self) -> int:
        g = self.game_
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return g.players.index(g.pending[0])

    def _over(self) -> bool:
        g = self.game_
        return g is not None and (g.over or g.night > self.max_nights)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        k = self.deals
        return [(i, 1.0 / k) for i in range(k)]

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game_
        if g is None or self._over():
            return []
        self.table.game = g
        return sorted(self.table.legal(g.players[player]))

    def _apply_action(self, action: int) -> None:
        g = self.game_
        if g is None:
            self.game_ = Game(Settings(players=self.table.names, deck=self.table.deck),
                              f"openspiel:{int(action)}")
            return
        self.table.game = g
        p = g.pending[0]
        d = self.table.decision(p, int(action))
        if d is None or int(action) == WAIT:
            raise ValueError(f"{p}: action {action} is not legal now")
        before = g.phase
        self.memory[g.players.index(p)].append(
            f"night {g.night} I chose: {self.table.codec.action_to_string(int(action))}")
        g.apply(d)
        if before is Phase.DRAFT and g.phase is not Phase.DRAFT:
            for i, q in enumerate(g.players):  # the hands received tonight
                received = view(g, q).received
                self.memory[i].append(f"night {g.night} I received: " + ", ".join(
                    f"{c.role}:{c.edition}:{c.gender}" for c in received))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal {action}"
        return self.table.codec.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        n = self.table.n
        g = self.game_
        out = [0.0] * n
        if g is not None and g.over:
            for w in g.winners:
                out[g.players.index(w)] = 1 / len(g.winners)
        return out

    def __str__(self) -> str:
        g = self.game_
        if g is None:
            return "chance: the deal"
        self.table.game = g
        return self.table.render()


class DarkCityObserver:
    """OpenSpiel's PyObserver: ``tensor`` (the flat observation, then the history),
    ``dict`` (named views of it), ``set_from`` and ``string_from``."""

    def __init__(self, game: DarkCityGame, *, perfect_recall: bool) -> None:
        enc = game.table.encoder
        self.table = game.table
        self.perfect_recall = perfect_recall
        size = enc.size + enc.horizon * enc.n * enc.hist_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:enc.size],
                     "history": self.tensor[enc.size:].reshape(enc.horizon, enc.n,
                                                               enc.hist_size)}

    def set_from(self, state: DarkCityState, player: int) -> None:
        self.tensor.fill(0)
        g = state.game_
        if g is None:
            return
        v = view(g, g.players[player])
        enc = self.table.encoder
        self.dict["observation"][:] = enc.encode(v)
        self.dict["history"][:] = enc.history(v)

    def string_from(self, state: DarkCityState, player: int) -> str:
        g = state.game_
        if g is None:
            return f"player {player}: before the deal"
        doc = view(g, g.players[player]).to_dict()
        doc.pop("choices", None)  # the legal actions are the game's, not the observation
        doc.pop("decision_id", None)
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            return "\n".join([*state.memory[player], text])
        return text


pyspiel.register_game(_GAME_TYPE, DarkCityGame)
