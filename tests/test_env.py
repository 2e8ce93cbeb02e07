"""The research environments (``darkcity[rl]``): PettingZoo's API and seed tests on
the Parallel and AEC versions, the fixed action encoding, the observations'
contents, illegal actions, determinism, and resets that vary without a seed."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test  # noqa: E402

from darkcity.cast import Role  # noqa: E402
from darkcity.decisions import DraftPick, GestureChoice  # noqa: E402
from darkcity.deck import BOX  # noqa: E402
from darkcity.env import WAIT, DarkCityParallelEnv, codec, darkcity_v1  # noqa: E402
from darkcity.env.observation import history_fields, seat_fields  # noqa: E402


@pytest.mark.parametrize(("players", "deck"), [
    (6, "basic"), (4, "advanced"), (6, "reporter-death-6"), (8, "death-alien-7"),
])
def test_parallel_api(players: int, deck: str) -> None:
    parallel_api_test(DarkCityParallelEnv(players, deck), num_cycles=1500)


@pytest.mark.parametrize(("players", "deck"), [(6, "basic"), (7, "creatures-7")])
def test_parallel_seed(players: int, deck: str) -> None:
    parallel_seed_test(lambda: darkcity_v1.parallel_env(players=players, deck=deck),
                       num_cycles=300)


@pytest.mark.parametrize(("players", "deck"), [(5, "basic"), (8, "undead-7")])
def test_aec_api(players: int, deck: str) -> None:
    api_test(darkcity_v1.env(players=players, deck=deck), num_cycles=1500)


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
                      {p: o["observation"].tobytes() + o["history"].tobytes()
                       for p, o in obs.items()},
                      sorted(rew.items()), sorted(term.items()), sorted(trunc.items())))
    return trace


def test_same_seed_same_episodes_over_many_steps() -> None:
    a = _episode(5)
    assert a == _episode(5)
    assert a != _episode(6)


def test_reset_without_a_seed_deals_a_new_game() -> None:
    def first_hand(env: DarkCityParallelEnv) -> bytes:
        obs, _ = env.reset()
        while not env.game.hand:  # past the free XP
            obs, *_ = env.step(_masked(obs, random.Random(0)))
        p = env.game.pending[0]
        return bytes(obs[p]["observation"].tobytes())

    hands = {first_hand(DarkCityParallelEnv(6, "basic")) for _ in range(6)}
    assert len(hands) > 1
    env = DarkCityParallelEnv(6, "basic")
    env.reset(seed=3)
    a = env.game.seed
    env.reset()
    assert env.game.seed != a  # the next game of the seeded stream
    env.reset(seed=3)
    assert env.game.seed == a


def test_draft_actions_name_a_card_not_a_place() -> None:
    env = DarkCityParallelEnv(6, "basic")
    obs, _ = env.reset(seed=11)
    rng = random.Random(1)
    seen = 0
    while env.agents and seen < 30:
        game = env.game
        for p in game.pending:
            for a, d in env.legal_decisions(p).items():
                if isinstance(d, DraftPick):
                    assert BOX[a - env.table.codec.sections.draft] == d.card
                    s = env.action_to_string(a)
                    assert d.card.role.key in s and d.card.edition.value in s
                    seen += 1
                if isinstance(d, GestureChoice):
                    shown = d.gesture.shows or game.cards[p].role
                    assert env.action_to_string(a).startswith(f"gesture: {shown.key}")
        obs, *_ = env.step(_masked(obs, rng))
    assert seen >= 10


def test_every_legal_decision_has_its_own_index() -> None:
    """Over random games at every table size, the engine's legal decisions map to
    distinct indices, and every index decodes to one of them."""
    for n, deck in ((4, "basic"), (6, "reporter-death-6"), (8, "death-alien-7"),
                    (8, "creatures-7")):
        env = DarkCityParallelEnv(n, deck)
        obs, _ = env.reset(seed=n)
        rng = random.Random(n)
        for _ in range(400):
            if not env.agents:
                obs, _ = env.reset()
            game = env.game
            for p in game.pending:
                legal = env.legal_decisions(p)
                assert len(legal) == len(set(game.legal(p)))
                assert set(legal.values()) == set(game.legal(p))
                assert obs[p]["action_mask"].sum() == len(legal)
            obs, *_ = env.step(_masked(obs, rng))
    c = codec(6)
    assert c.action_to_string(WAIT) == "wait"
    assert len({c.action_to_string(a) for a in range(c.size)}) == c.size
    with pytest.raises(ValueError, match="0 to"):
        c.action_to_string(c.size)


def test_observations_hold_the_revealed_gestures_and_targets() -> None:
    env = DarkCityParallelEnv(6, "basic")
    obs, _ = env.reset(seed=4)
    rng = random.Random(4)
    lay = env.table.encoder.layout
    sf = seat_fields(6)
    size = env.table.encoder.seat_size
    while env.agents and env.game.phase.value != "withdrawal":
        obs, *_ = env.step(_masked(obs, rng))
    game = env.game
    me = game.players[0]
    x = obs[me]["observation"]
    for i, p in enumerate(game.players):
        row = lay["seats"].start + i * size
        g = game.gestures.get(p)
        if p == game.death or g is None:
            continue
        shown = g.shows or game.cards[p].role
        assert x[row + sf["shows"].start + int(shown)] == 1
        for t in g.targets:  # offsets from the viewer (seat 0 here)
            assert x[row + sf["targets"].start + game.players.index(t)] >= 1
    # the own card, and no other card
    assert x[lay["own_card"].start:lay["own_card"].stop].sum() == 1
    assert x[lay["own_role"].start + int(game.cards[me].role)] == 1


def test_history_holds_the_finished_nights() -> None:
    env = DarkCityParallelEnv(5, "basic", history=3)
    obs, _ = env.reset(seed=8)
    rng = random.Random(8)
    while env.agents and len(env.game.nights) < 2:
        obs, *_ = env.step(_masked(obs, rng))
    game = env.game
    hf = history_fields(5)
    me = game.players[2]
    h = obs[me]["history"]
    assert h.shape == (3, 5, hf["winner"].stop)
    last = game.nights[-1]
    for i, p in enumerate(game.players):
        row = h[0][(i - 2) % 5]  # the latest night first, seats from the viewer
        assert row[hf["present"].start] == 1
        card = last.night.cards[p]
        assert row[hf["card"].start + BOX.index(card._replace(gender=card.identity))] == 1
        assert row[hf["xp"].start] == last.result.xp[i]
    assert h[2].sum() == 0  # a third night not played yet


def test_state_knows_every_card() -> None:
    env = DarkCityParallelEnv(6, "basic")
    obs, _ = env.reset(seed=1)
    rng = random.Random(1)
    while env.agents and env.game.phase.value != "gesture":
        obs, *_ = env.step(_masked(obs, rng))
    s = env.state()
    assert env.state_space.contains(s)
    cards = s[env.table.encoder.size:].reshape(6, len(BOX))
    assert (cards.sum(axis=1) == 1).all()


def test_an_illegal_action_ends_the_game_with_a_penalty() -> None:
    env = DarkCityParallelEnv(4, "basic")
    obs, _ = env.reset(seed=2)
    p = env.game.pending[0]
    actions = dict.fromkeys(obs, WAIT)  # the deciding player may not wait
    _, rew, term, _, infos = env.step(actions)
    assert rew[p] == -1 and sum(rew.values()) == -1 and all(term.values())
    assert infos[p]["illegal_action"] == WAIT and env.agents == []
    # a waiting agent that acts is refused too
    obs, _ = env.reset(seed=2)
    while len(env.game.pending) == len(env.agents):  # past the free XP
        obs, *_ = env.step(_masked(obs, random.Random(0)))
    waiting = next(a for a in env.agents if a not in env.game.pending)
    actions = _masked(obs, random.Random(0))
    actions[waiting] = codec(4).sections.free_xp + int(Role.PRIEST)
    _, rew, term, _, _ = env.step(actions)
    assert rew[waiting] == -1 and all(term.values())


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


def test_aec_raw_env_refuses_an_illegal_action_with_its_name() -> None:
    raw = darkcity_v1.raw_env(players=4)
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="not legal now"):
        raw.step(WAIT)
    e = darkcity_v1.env(players=4)
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(WAIT)  # the wrapper: the game ends, -1 to the agent that made it
    assert e.rewards[agent] == -1 and all(e.terminations.values())


def test_single_agent_wrapper() -> None:
    from gymnasium.utils.env_checker import check_env

    from darkcity.env.single import DarkCitySingleAgentEnv

    env = DarkCitySingleAgentEnv(players=5, opponents="heuristic", seat=None)
    check_env(env, skip_render_check=True)
    total = 0.0
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        while True:
            assert obs["action_mask"].any()
            obs, reward, terminated, truncated, info = env.step(
                env.action_space.sample(mask=obs["action_mask"]))
            total += reward
            if terminated or truncated:
                break
        assert info["phase"] == "over"
    assert 0.0 <= total <= 3.0
    obs, _ = env.reset(seed=9)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1 and terminated and info["illegal_action"] == illegal
    with pytest.raises(ValueError, match="3 opponents for 4"):
        DarkCitySingleAgentEnv(players=5, opponents=["random"] * 3)
