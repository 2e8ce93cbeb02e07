"""Bots: the interface and registry, legality and determinism over whole games,
what a bot may see, and the reasoning pieces (beliefs, values, regret matching).

Statistical strength is measured in ``benchmarks/bench_bots.py``, not here.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from darkcity.bots import (
    BOTS,
    Bot,
    BotError,
    Observation,
    bot_names,
    make_bot,
    play_game,
    register,
)
from darkcity.bots.heuristic import DEFAULT_RATES, gesture_scores
from darkcity.bots.knowledge import (
    Beliefs,
    distance,
    effect_value,
    gain,
    potential,
    read_facts,
    withdrawal_propensity,
)
from darkcity.bots.strong import StrongBot, StrongParams, load_params, regret_matching
from darkcity.cast import Role
from darkcity.decisions import Decision, GestureChoice, Phase
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.record import write_record
from darkcity.settings import Settings

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
#: A cheap strong bot for the tests (the shipped budget is for play).
FAST = StrongParams(budget=24, min_worlds=2, max_worlds=6, draft_worlds=12,
                    max_candidates=6)


def _bot(kind: str, rng: random.Random) -> Bot:
    if kind == "strong":
        return StrongBot(rng, FAST)
    return make_bot(kind, rng)


def _game(deck: str, n: int, seed: str, kinds: tuple[str, ...]) -> tuple[Game, dict[str, Bot]]:
    names = NAMES[:n]
    game = Game(Settings(players=names, deck=preset(deck, n)), seed)
    bots = {p: _bot(kinds[i % len(kinds)], random.Random(f"{seed}:{p}"))
            for i, p in enumerate(names)}
    return game, bots


# ---------------------------------------------------------------------------
# Interface and registry


def test_registry_lists_the_three_levels_weaker_first() -> None:
    assert bot_names()[:3] == ("random", "heuristic", "strong")
    for name in bot_names():
        assert BOTS[name].description
        assert make_bot(name, random.Random(0)).name == name


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(BotError, match="unknown bot 'nobody'"):
        make_bot("nobody", random.Random(0))


def test_register_refuses_a_second_bot_of_the_same_name() -> None:
    class Impostor(Bot):
        name = "random"

        def step(self, obs: Observation) -> Decision:
            return obs.legal[0]

    with pytest.raises(BotError, match="two bots"):
        register(Impostor)
    assert BOTS["random"] is not Impostor


def test_a_new_bot_registers_and_plays() -> None:
    @register
    class First(Bot):
        name = "test-first"
        level = 9

        def step(self, obs: Observation) -> Decision:
            return obs.legal[0]

    try:
        assert "test-first" in bot_names()
        game, _ = _game("basic", 4, "first", ("random",))
        play_game(game, {p: make_bot("test-first", random.Random(0)) for p in game.players})
        assert game.over
    finally:
        del BOTS["test-first"]


def test_an_illegal_answer_is_caught() -> None:
    class Cheat(Bot):
        name = "cheat"

        def step(self, obs: Observation) -> Decision:
            legal = obs.legal
            return replace(legal[0], player="nobody")  # type: ignore[type-var]

    game, _ = _game("basic", 4, "cheat", ("random",))
    with pytest.raises(BotError, match="not a legal decision"):
        play_game(game, {p: Cheat(random.Random(0)) for p in game.players})


def test_the_observation_shows_the_view_and_nothing_else() -> None:
    game, _ = _game("basic", 5, "obs", ("random",))
    p = game.pending[0]
    obs = Observation(game, p)
    public = {a for a in dir(obs) if not a.startswith("_")}
    assert public == {"legal", "view", "phase", "decision_id", "deck", "player"}
    assert obs.legal == game.legal(p)
    assert obs.view.viewer == p
    assert obs.deck == game.settings.deck.cards
    assert not hasattr(obs, "game")


# ---------------------------------------------------------------------------
# Whole games: legal, finished, reproducible


@pytest.mark.parametrize(("deck", "n", "kinds"), [
    ("basic", 4, ("heuristic", "random")),
    ("basic", 6, ("strong", "heuristic", "random")),
    ("advanced", 5, ("heuristic",)),
    ("reporter-death-6", 6, ("heuristic", "strong")),
    ("angel-alien-6", 6, ("heuristic", "random", "strong")),
    ("undead-7", 8, ("heuristic",)),
    ("creatures-7", 7, ("strong", "heuristic")),
    ("mummy-voodoo-7", 8, ("heuristic", "random")),
    ("death-alien-7", 8, ("heuristic", "strong")),
    ("creature-mummy-6", 6, ("heuristic", "random")),
])
def test_bots_play_whole_games_legally(deck: str, n: int, kinds: tuple[str, ...]) -> None:
    game, bots = _game(deck, n, f"legal-{deck}-{n}", kinds)
    play_game(game, bots, check=True, max_nights=300)
    assert game.over and game.winners


@pytest.mark.parametrize("kind", ["random", "heuristic", "strong"])
def test_same_seeds_same_game(kind: str) -> None:
    docs = []
    for _ in range(2):
        game, bots = _game("basic", 6, f"twice-{kind}", (kind,))
        play_game(game, bots)
        docs.append(json.dumps(write_record(game)))
    assert docs[0] == docs[1]


def test_heuristic_beats_random_in_a_handful_of_games() -> None:
    wins = 0.0
    for i in range(12):
        names = NAMES[:6]
        game = Game(Settings(players=names, deck=preset("basic", 6)), f"h-{i}")
        bots = {p: make_bot("heuristic" if j == i % 6 else "random", random.Random(i * 10 + j))
                for j, p in enumerate(names)}
        play_game(game, bots)
        wins += sum(1 / len(game.winners) for w in game.winners
                    if bots[w].name == "heuristic")
    assert wins >= 6  # the fair share is 2


# ---------------------------------------------------------------------------
# Reasoning pieces


def test_distance_and_potential() -> None:
    assert distance({}) == 4
    assert distance({Role.PRIEST: 4}) == 0
    assert distance({Role.PRIEST: 2, Role.VAMPIRE: 2, Role.HUNTER: 1}) == 1
    assert potential({Role.PRIEST: 3}) < potential({Role.PRIEST: 1})
    # concentrating on a row is worth more than opening a new one, early on
    assert gain({Role.PRIEST: 1}, Role.PRIEST) > gain({Role.PRIEST: 1}, Role.VAMPIRE) > 0
    assert gain({Role.PRIEST: 3}, Role.PRIEST) > 4  # the winning XP


def test_a_vampire_scores_priests_as_suicidal() -> None:
    assert effect_value(Role.VAMPIRE, {Role.PRIEST: 1.0}) < 0
    assert effect_value(Role.VAMPIRE, {Role.WEREWOLF: 1.0}) > 0.5
    assert effect_value(Role.WEREWOLF, {Role.HUNTER: 1.0}) < 0  # the silver reflex


def _at_gesture(seed: str) -> Game:
    game = Game(Settings(players=NAMES[:6], deck=preset("basic", 6)), seed)
    rng = random.Random(seed)
    while game.phase is not Phase.GESTURE:
        for p in game.pending:
            legal = game.legal(p)
            game.apply(legal[rng.randrange(len(legal))])
    return game


def test_beliefs_follow_the_draft() -> None:
    game = _at_gesture("beliefs")
    for p in game.players:
        f = read_facts(Observation(game, p))
        assert f.card == game.cards[p]
        b = Beliefs(f)
        rng = random.Random(1)
        for _ in range(20):
            deal = b.sample(rng)
            assert deal[p] == game.cards[p]
            assert len(set(deal.values())) == len(deal)
            assert set(deal.values()) <= set(game.settings.deck.cards)
            # the players after me hold cards of the hand I passed on
            k = f.order.index(p)
            for q in f.order[k + 1:-1]:
                assert deal[q] in f.received
        marg = b.marginals()
        for q, dist in marg.items():
            assert abs(sum(dist.values()) - 1) < 1e-9
            assert dist.get(game.cards[q].role, 0) > 0  # the truth is possible


def _drafted_by_heuristics(seed: str) -> Game:
    game = Game(Settings(players=NAMES[:6], deck=preset("basic", 6)), seed)
    bots = {p: make_bot("heuristic", random.Random(f"{seed}:{p}")) for p in game.players}
    while game.phase is not Phase.GESTURE:
        for p in game.pending:
            game.apply(bots[p].step(Observation(game, p)))
    return game


def test_pick_by_pick_beliefs_read_a_heuristic_draft() -> None:
    """Against drafters that keep the best card for their journal, drawing the
    deal pick by pick puts more weight on the truth than the pools alone."""
    picked = plain = 0.0
    for seed in ("picks-1", "picks-2", "picks-3"):
        game = _drafted_by_heuristics(seed)
        for p in game.players:
            f = read_facts(Observation(game, p))
            b = Beliefs(f, picker=DEFAULT_RATES, rng=random.Random(1))
            rng = random.Random(2)
            for _ in range(10):
                deal = b.sample(rng)
                assert deal[p] == game.cards[p]
                assert len(set(deal.values())) == len(deal)
                k = f.order.index(p)
                for q in f.order[k + 1:-1]:
                    assert deal[q] in f.received
                assert set(b.hands) == set(game.players) - {p}
            marg = b.marginals()
            assert marg == Beliefs(f, picker=DEFAULT_RATES, rng=random.Random(1)).marginals()
            base = Beliefs(f).marginals()
            for q in marg:
                assert abs(sum(marg[q].values()) - 1) < 1e-9
                picked += marg[q].get(game.cards[q].role, 0.0)
                plain += base[q].get(game.cards[q].role, 0.0)
    assert picked > plain * 1.3


def test_beliefs_after_the_reveal_trust_gestures_but_suspect_a_devil() -> None:
    game = _at_gesture("reveal")
    rng = random.Random(3)
    for p in game.pending:
        legal = game.legal(p)
        game.apply(legal[rng.randrange(len(legal))])
    assert game.phase is Phase.WITHDRAWAL
    p = game.players[0]
    f = read_facts(Observation(game, p))
    b = Beliefs(f)
    for q, dist in b.marginals().items():
        shown = f.shown[q]
        assert set(dist) <= {shown, Role.DEVIL}
        assert dist.get(game.cards[q].role, 0) > 0


def test_the_heuristic_aims_away_from_a_known_priest() -> None:
    game = _at_gesture("aim")
    vamp = next((p for p in game.pending if game.cards[p].role is Role.VAMPIRE), None)
    if vamp is None:
        pytest.skip("no Vampire in this deal")
    obs = Observation(game, vamp)
    f = read_facts(obs)
    b = Beliefs(f)
    target = next(q for q in game.players if q != vamp)
    b._marg = {q: ({Role.PRIEST: 1.0} if q == target else {Role.WEREWOLF: 1.0})
               for q in game.players if q != vamp}
    legal = [d for d in obs.legal if isinstance(d, GestureChoice)]
    scores = gesture_scores(f, b, legal)
    best = legal[max(range(len(legal)), key=lambda i: scores[i])]
    assert best.gesture.targets != (target,)


def test_withdrawal_propensity_starts_at_its_prior() -> None:
    assert withdrawal_propensity((), "Ana", prior=0.2) == pytest.approx(0.2)


def test_regret_matching_mixes_ties_and_drops_dominated_choices() -> None:
    tied = regret_matching([[1.0, 1.0, 0.0]] * 50)
    assert tied[0] == pytest.approx(tied[1]) and tied[2] < 0.1
    noisy = regret_matching([[1.0 + (i % 3 == 0), 1.0 + (i % 3 == 1), 0.0] for i in range(60)])
    assert noisy[0] > 0.2 and noisy[1] > 0.2 and noisy[2] < 0.1
    assert sum(noisy) == pytest.approx(1.0)


def test_trained_parameters_ship_with_the_package() -> None:
    params = load_params()
    assert params.budget > 0
    assert params.to_json() == StrongParams.from_json(params.to_json()).to_json()


def test_choose_draws_exactly_as_random_choice() -> None:
    """The random bot's compiled draw keeps Random.choice's stream (seeded runs replay)."""
    from darkcity.bots.play import choose

    for seed in range(50):
        a, b = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 8, 9, 31, 64, 100, 1000):
            options = list(range(n))
            assert [choose(a, options) for _ in range(20)] == [b.choice(options)
                                                                for _ in range(20)]
    with pytest.raises(IndexError):
        choose(random.Random(0), [])


def test_the_levels_are_named_as_players_would_and_the_old_names_still_work() -> None:
    """easy, medium, hard (issue #54), each a registered bot with a line on how it
    plays; the old names are read as the new ones wherever they are typed or saved, and
    ``random`` is still the random bot."""
    from darkcity.bots.levels import LEVELS, level_bot, level_key, make_level_bot
    from darkcity.room.bots import LEVELS as ROOM_LEVELS
    from darkcity.room.bots import canonical_level, level_word, seat_style

    assert tuple(LEVELS) == ROOM_LEVELS == ("easy", "medium", "hard")
    assert [level_bot(k) for k in LEVELS] == ["novice", "heuristic", "strong"]
    assert all(lv.line and lv.word for lv in LEVELS.values())
    assert [level_key(k) for k in ("heuristic", "strong", "novice", "random", "genius")] == [
        "medium", "hard", "easy", "random", None]
    assert canonical_level("strong") == "hard" and str(level_word("heuristic")) == "medium"
    assert make_level_bot("medium", random.Random(1)).name == "heuristic"
    assert make_level_bot("random", random.Random(1)).name == "random"
    assert make_level_bot("easy", random.Random(1), style="bold").style == "bold"
    # a room saved under the old name draws the same style for a seat
    assert seat_style("s", 2, "heuristic") == seat_style("s", 2, "medium") is not None
    with pytest.raises(BotError, match="unknown bot level 'genius'"):
        level_bot("genius")


def test_a_room_reads_an_old_level_as_the_new_one() -> None:
    from darkcity.room.local import LocalHost
    from darkcity.room.state import RoomConfig

    host = LocalHost(RoomConfig(4, "basic", (), "normal", 120.0, 0.5, "en", "strong", 30.0,
                                0.8), code="OLD", now=0.0)
    assert host.room.config.timeout_level == "strong"  # as given to the constructor...
    doc = host.room.config.to_json()
    assert RoomConfig.from_json(doc).timeout_level == "hard"  # ...and as read back
    ana, _token = host.add_member("Ana")
    page = host.open(ana)
    host.handle(page, {"type": "add_bot", "seat": 1, "level": "heuristic"})
    host.handle(page, {"type": "add_bot", "seat": 2, "level": "random"})
    seats = host.room.lobby_public()["seats"]
    assert (seats[1]["level"], seats[2]["level"]) == ("medium", "random")


def test_the_easy_level_plays_every_game_to_its_end_in_a_style() -> None:
    """The novice (easy) plays legal decisions in each table style; it mixes its draft."""
    from darkcity.bots.family import TABLE_STYLES

    names = ("Ana", "Bia", "Caio", "Duda", "Enzo")
    game = Game(Settings(players=names, deck=preset("basic", 5)), 4)
    styles = [k for k, _w in TABLE_STYLES]
    bots = {p: make_bot("novice", random.Random(p), style=styles[i % len(styles)])
            for i, p in enumerate(names)}
    play_game(game, bots)
    assert game.over and game.winners
