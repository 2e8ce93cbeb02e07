"""The OpenSpiel game ``python_darkcity`` (``darkcity[rl]`` brings open_spiel):
OpenSpiel's own conformance simulation with serialization, chance, returns,
information states."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import darkcity.env.openspiel  # noqa: E402, F401  (registers python_darkcity)


def test_random_sim_test_with_serialization() -> None:
    game = pyspiel.load_game("python_darkcity", {"players": 4, "deck": "basic"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _play(state: object, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])  # type: ignore[attr-defined]
        else:
            state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


def test_a_game_to_its_end_and_back_from_its_serialization() -> None:
    game = pyspiel.load_game("python_darkcity", {"players": 5, "deals": 16})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    rng = random.Random(1)
    _play(state, rng, 120)
    text = state.serialize()
    again = game.deserialize_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    p = state.current_player()
    assert again.information_state_string(p) == state.information_state_string(p)
    others = {state.information_state_string(q) for q in range(5)}
    assert len(others) == 5  # each player knows its own card and choices
    t = np.asarray(state.information_state_tensor(p))
    assert t.shape == (game.information_state_tensor_size(),) and t.any()
    _play(state, rng, 100_000)
    assert state.is_terminal()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.action_to_string(0, 0) == "wait"
