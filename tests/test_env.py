"""The PettingZoo Parallel environment (``darkcity[rl]``): the PettingZoo API
test, masks and the no-op, and determinism over many steps."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test  # noqa: E402

from darkcity.env import MAX_ACTIONS, DarkCityParallelEnv  # noqa: E402


@pytest.mark.parametrize(("players", "deck"), [
    (6, "basic"), (4, "advanced"), (6, "reporter-death-6"), (8, "death-alien-7"),
])
def test_parallel_api(players: int, deck: str) -> None:
    parallel_api_test(DarkCityParallelEnv(players, deck), num_cycles=3000)


def _masked(obs: dict[str, Any], rng: random.Random) -> dict[str, int]:
    out = {}
    for p, o in obs.items():
        legal = np.flatnonzero(o["action_mask"])
        out[p] = int(legal[rng.randrange(len(legal))])
    return out


def _episode(seed: int, steps: int = 400) -> list[Any]:
    env = DarkCityParallelEnv(6, "basic", reward="xp")
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    trace: list[Any] = []
    for _ in range(steps):
        if not env.agents:
            obs, _ = env.reset()
        actions = _masked(obs, rng)
        obs, rew, term, trunc, _ = env.step(actions)
        trace.append((sorted(actions.items()),
                      {p: o["observation"].tobytes() for p, o in obs.items()},
                      sorted(rew.items()), sorted(term.items()), sorted(trunc.items())))
    return trace


def test_same_seed_same_episodes_over_many_steps() -> None:
    a = _episode(5)
    assert a == _episode(5)
    assert a != _episode(6)


def test_masks_and_the_no_op() -> None:
    env = DarkCityParallelEnv(5, "basic")
    obs, infos = env.reset(seed=1)
    space = env.observation_space("Ana")
    assert space is env.observation_space("Ana")
    assert env.action_space("Ana").n == MAX_ACTIONS
    for _ in range(60):
        game = env.game
        assert game is not None
        for p, o in obs.items():
            mask = o["action_mask"]
            assert mask.dtype == np.int8 and o["observation"].dtype == np.int8
            assert space.contains(o)
            if p in game.pending:
                assert mask[0] == 0 and mask.sum() == len(game.legal(p)) == infos[p]["legal"]
            else:
                assert mask[0] == 1 and mask.sum() == 1  # only the no-op
        obs, _, _, _, infos = env.step(_masked(obs, random.Random(0)))
        if not env.agents:
            break


def test_an_illegal_action_is_refused() -> None:
    env = DarkCityParallelEnv(4, "basic")
    obs, _ = env.reset(seed=2)
    game = env.game
    assert game is not None
    p = game.pending[0]
    actions = dict.fromkeys(obs, 0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(actions)  # the deciding player may not pass
    actions[p] = MAX_ACTIONS - 1
    with pytest.raises(ValueError, match="not legal"):
        env.step(actions)


def test_win_rewards_sum_to_one() -> None:
    env = DarkCityParallelEnv(4, "basic")
    obs, _ = env.reset(seed=3)
    rng = random.Random(3)
    total = 0.0
    while env.agents:
        obs, rew, term, _, _ = env.step(_masked(obs, rng))
        total += sum(rew.values())
    assert total == pytest.approx(1.0)
    assert all(term.values())
