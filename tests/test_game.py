"""The whole game: set-up, the draft, Phases 2-5, decisions (verify / can / do).

Rule references: PT "Preparação", "Fase 1" .. "Fase 5", "Nova rodada", "Fim de
jogo", "Morte"; rulings R-20, R-51, R-63, R-80, R-82, R-91, R-94, R-101,
R-103, R-110 .. R-113, K-1.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkcity.cast import CAST, Edition, Gender, Role
from darkcity.decisions import (
    DraftPick,
    FaceDownPick,
    FreeXp,
    GestureChoice,
    IllegalDecision,
    LookAtHand,
    Phase,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.deck import PRESETS, DeckError, preset
from darkcity.game import Game, play_randomly
from darkcity.night import Card, Fate, Gesture, proposal_immune, resolve
from darkcity.settings import Settings, bot_rng
from darkcity.validation import validate

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
CASES = [(name, n) for name, (_c, (lo, hi), _a) in PRESETS.items() for n in range(lo, hi + 1)]


def new_game(deck: str = "basic", n: int = 6, seed: int | str = 1, **kw: object) -> Game:
    return Game(Settings(players=NAMES[:n], deck=preset(deck, n), **kw), seed)  # type: ignore[arg-type]


def step(game: Game, rng: random.Random) -> None:
    """Answer every pending decision of the current point at random."""
    for p in game.pending:
        choices = game.legal(p)
        game.apply(choices[rng.randrange(len(choices))])


def drive(game: Game, rng: random.Random, until: Callable[[Game], bool],
          limit: int = 5000) -> bool:
    for _ in range(limit):
        if until(game):
            return True
        if game.over:
            return False
        step(game, rng)
    return False


def snapshot(game: Game) -> object:
    return (game.decision_point(), len(game.log), dict(game.gestures), dict(game.withdrawals),
            dict(game.cards), game.hand, game.face_down, [dict(j) for j in game.journals],
            len(game.nights))


# -- set-up ------------------------------------------------------------------


def test_free_xp_is_a_setup_decision_on_the_sheet() -> None:
    """PT "Preparação", R-103: one dot in one row of the player's choice; it counts."""
    g = new_game()
    dp = g.decision_point()
    assert dp.phase is Phase.SETUP and dp.required == NAMES[:6] and dp.simultaneous
    assert {d.role for d in g.legal("Ana") if isinstance(d, FreeXp)} == set(g.sheet)
    with pytest.raises(IllegalDecision, match="no row") as e:
        g.do(FreeXp("Ana", Role.ANGEL))
    assert e.value.code == "illegal"
    for i, p in enumerate(NAMES[:6]):
        g.do(FreeXp(p, g.sheet[i]))
    assert g.phase is Phase.DRAFT
    assert g.journals[2] == {g.sheet[2]: 1}


def test_free_xp_given_in_settings_skips_setup() -> None:
    g = new_game(free_xp={p: Role.VAMPIRE for p in NAMES[:6]})
    assert g.phase is Phase.DRAFT and g.night == 1
    with pytest.raises(DeckError):
        new_game(free_xp={"Ana": Role.ANGEL})


def test_settings_refuse_bad_tables() -> None:
    with pytest.raises(DeckError, match="same name"):
        Game(Settings(players=("A", "A", "B", "C"), deck=preset("basic", 4)))
    with pytest.raises(DeckError, match="mayor"):
        new_game(mayor="Zed")
    with pytest.raises(DeckError, match="6 or more"):
        Game(Settings(players=NAMES[:5], deck=preset("angel-alien-6", 6)))


# -- Phase 1 -----------------------------------------------------------------------


def test_draft_three_face_down_and_hands_pass_left() -> None:
    """PT "Fase 1", R-91: three cards face down; the active player sees nine, keeps
    one and passes the rest to the left; each hand is one card smaller."""
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL), mayor="Caio")
    assert g.active_player == "Caio"  # the Mayor starts
    assert len(g.face_down) == 3 and len(g.hand) == 9
    order = []
    while g.phase is Phase.DRAFT:
        (p,) = g.pending
        order.append(p)
        size = len(g.hand)
        last = g.choosing_last
        has_face_down = any(isinstance(d, FaceDownPick) for d in g.legal(p))
        assert has_face_down == last
        card = g.hand[0]
        g.do(DraftPick(p, card))
        assert g.cards[p] == card
        if g.phase is Phase.DRAFT:
            assert len(g.hand) == size - 1
    assert order == ["Caio", "Duda", "Enzo", "Fred", "Ana", "Bia"]
    assert g.phase is Phase.GESTURE


def test_only_the_last_player_takes_a_face_down_card() -> None:
    """R-91: the last player may take one of the three face-down cards, blind."""
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    with pytest.raises(IllegalDecision, match="only the last player"):
        g.do(FaceDownPick("Ana"))
    for _ in range(5):
        (p,) = g.pending
        g.do(DraftPick(p, g.hand[0]))
    fd = g.face_down
    g.do(FaceDownPick("Fred"))
    assert g.cards["Fred"] in fd


def test_draft_refuses_a_card_not_in_hand() -> None:
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    missing = next(c for c in g.face_down)
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="holds no such card"):
        g.do(DraftPick("Ana", missing))
    assert snapshot(g) == before


def _death_game(seed: int = 3) -> Game:
    g = new_game("reporter-death-6", 6, seed, free_xp=dict.fromkeys(NAMES[:6], Role.DEATH))
    for _ in range(5):
        (p,) = g.pending
        g.do(DraftPick(p, g.hand[0]))
    return g


def test_death_is_offered_to_the_last_player_before_the_hand() -> None:
    """R-82: only the last chooser may take Death, before looking at the hand; the
    name is committed at once (R-112)."""
    g = _death_game()
    assert g.pending == ("Fred",) and not g.may_look
    legal = g.legal("Fred")
    assert LookAtHand("Fred") in legal
    assert {d.names for d in legal if isinstance(d, TakeDeath)} == set(NAMES[:5])
    with pytest.raises(IllegalDecision, match="another player"):
        g.do(TakeDeath("Fred", "Fred"))
    with pytest.raises(IllegalDecision, match="Death or look"):
        g.do(FaceDownPick("Fred"))
    g.do(TakeDeath("Fred", "Bia"))
    assert g.cards["Fred"].role is Role.DEATH and g.death == "Fred"
    assert g.gestures["Fred"] == Gesture(names="Bia")
    assert g.phase is Phase.GESTURE and "Fred" not in g.pending


def test_death_declined_then_hand_or_face_down() -> None:
    g = _death_game()
    g.do(LookAtHand("Fred"))
    assert g.may_look and g.pending == ("Fred",)
    assert not any(isinstance(d, TakeDeath) for d in g.legal("Fred"))
    with pytest.raises(IllegalDecision):
        g.do(TakeDeath("Fred", "Ana"))
    g.do(FaceDownPick("Fred"))
    assert g.death is None and g.phase is Phase.GESTURE


def test_only_the_last_player_may_take_death() -> None:
    g = new_game("reporter-death-6", 6, free_xp=dict.fromkeys(NAMES[:6], Role.DEATH))
    with pytest.raises(IllegalDecision, match="only the last player may take Death"):
        g.do(TakeDeath("Ana", "Bia"))


def test_active_player_moves_left_each_night() -> None:
    """R-94, PT "Nova rodada": the next night starts with the active player's left."""
    g = new_game(seed=11, free_xp=dict.fromkeys(NAMES[:6], Role.PRIEST), mayor="Enzo")
    rng = random.Random(0)
    seen = []
    while not g.over and len(seen) < 4:
        if g.phase is Phase.DRAFT and g.night > len(seen):
            seen.append(g.active_player)
        step(g, rng)
    assert seen[:3] == ["Enzo", "Fred", "Ana"][: len(seen[:3])]


# -- Phase 2 --------------------------------------------------------------------


def _to_phase(phase: Phase, deck: str = "basic", n: int = 6, seed: int = 1,
              cond: Callable[[Game], bool] = lambda g: True) -> Game:
    for s in range(200):
        g = new_game(deck, n, seed * 1000 + s)
        if drive(g, random.Random(s), lambda g: g.phase is phase and cond(g)):
            return g
    raise AssertionError("no such game found")


def _other_gestures(g: Game, p: str) -> dict[str, Gesture]:
    out = {}
    for q in g.players:
        if q != p and q != g.death:
            first = g.legal(q)[0]
            assert isinstance(first, GestureChoice)
            out[q] = first.gesture
        elif q == g.death:
            out[q] = g.gestures[q]
    return out


@pytest.mark.parametrize(("deck", "n"), CASES)
def test_every_enumerated_gesture_is_valid(deck: str, n: int) -> None:
    """R-116: only legal aims are offered; validation accepts each enumerated gesture."""
    for seed in range(3):
        g = _to_phase(Phase.GESTURE, deck, n, seed)
        for p in g.pending:
            others = _other_gestures(g, p)
            for d in g.legal(p):
                assert isinstance(d, GestureChoice)
                night = g._night(gestures={**others, p: d.gesture})
                validate(night)


def _random_gesture(g: Game, p: str, r: random.Random) -> Gesture:
    fighters = [q for q in g.players if q != p]
    roles = list(Role)
    n_t = r.choice([0, 1, 1, 2, 2])
    targets = tuple(r.choice([*fighters, p]) for _ in range(n_t))
    return Gesture(
        targets,
        r.choice([None, None, *roles]),
        r.choice([None, None, *roles]),
        r.choice([None, None, Gender.FEMININE, Gender.MASCULINE, Gender.NEUTRAL]),
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 10_000))
def test_verify_agrees_with_the_enumerator(case: tuple[str, int], seed: int) -> None:
    """One rule, one place: a random gesture is accepted by ``verify`` iff it is
    enumerated (up to the order of two targets, the Necromancer's optional
    targets, and a non-Devil's ``shows`` naming its own role)."""
    deck, n = case
    g = new_game(deck, n, seed)
    if not drive(g, random.Random(seed), lambda g: g.phase is Phase.GESTURE):
        return
    r = random.Random(seed)
    for p in g.pending:
        legal = {d.gesture for d in g.legal(p) if isinstance(d, GestureChoice)}
        for _ in range(40):
            ges = _random_gesture(g, p, r)
            ok = g.can(GestureChoice(p, ges))
            # showing one's own role is the same gesture as not saying (spec: shows)
            shows = None if ges.shows is g.cards[p].role else ges.shows
            norm = Gesture(tuple(sorted(ges.targets, key=g.players.index)), shows,
                           ges.kind, ges.seeks)
            if g.cards[p].role is Role.NECROMANCER and ok:
                norm = Gesture()
            assert ok == (norm in legal), (p, g.cards[p], ges)
        for d in g.legal(p):
            assert g.can(d)


def test_devil_must_disguise_and_not_as_necromancer_or_creature() -> None:
    """R-20: a Devil shows another role; never Devil, Necromancer, Creature, Death."""
    g = _to_phase(Phase.GESTURE, "undead-7", 7,
                  cond=lambda g: any(c.role is Role.DEVIL for c in g.cards.values()))
    devil = next(p for p, c in g.cards.items() if c.role is Role.DEVIL)
    shown = {d.gesture.shows for d in g.legal(devil) if isinstance(d, GestureChoice)}
    assert None not in shown
    assert not shown & {Role.DEVIL, Role.NECROMANCER, Role.CREATURE, Role.DEATH}
    assert Role.DEMONIAC in shown and Role.HUNTER in shown
    with pytest.raises(IllegalDecision, match="must show"):
        g.do(GestureChoice(devil, Gesture(("Ana",) if devil != "Ana" else ("Bia",))))
    hunter_aims = [d.gesture.targets for d in g.legal(devil) if isinstance(d, GestureChoice)
                   and d.gesture.shows is Role.HUNTER]
    assert all(a != b for a, b in hunter_aims)  # no double aim for a Devil


def test_advanced_hunter_may_double_aim() -> None:
    """R-38: only the advanced Hunter may aim both arrows at one player."""
    g = _to_phase(Phase.GESTURE, "advanced", 6,
                  cond=lambda g: any(c.role is Role.HUNTER for c in g.cards.values()))
    h = next(p for p, c in g.cards.items() if c.role is Role.HUNTER)
    assert g.cards[h].edition is Edition.ADVANCED
    assert any(isinstance(d, GestureChoice) and d.gesture.targets[0] == d.gesture.targets[1]
               for d in g.legal(h))


def test_gesture_order_of_two_targets_is_free() -> None:
    g = _to_phase(Phase.GESTURE, "basic", 6,
                  cond=lambda g: any(c.role is Role.HUNTER for c in g.cards.values()))
    h = next(p for p, c in g.cards.items() if c.role is Role.HUNTER)
    d = next(d for d in g.legal(h) if isinstance(d, GestureChoice))
    a, b = d.gesture.targets
    g.do(GestureChoice(h, Gesture((b, a))))
    assert g.gestures[h].targets == (b, a)


# -- refusals ----------------------------------------------------------------------


def test_illegal_decisions_are_refused_with_a_reason_and_change_nothing() -> None:
    """Wrong player, wrong phase, stale, malformed, already decided, game over."""
    g = _to_phase(Phase.GESTURE)
    p = g.pending[0]
    legal = g.legal(p)[0]
    assert isinstance(legal, GestureChoice)
    before = snapshot(g)
    cases: list[tuple[object, str]] = [
        (WithdrawalChoice(p, True), "wrong-phase"),
        (FreeXp(p, Role.DEVIL), "wrong-phase"),
        (GestureChoice("Nobody", Gesture()), "malformed"),
        (GestureChoice(p, "point at Bia"), "malformed"),  # type: ignore[arg-type]
        (GestureChoice(p, Gesture(("Nobody",))), "illegal"),
        (GestureChoice(p, legal.gesture, at=g.decision_point().id - 1), "stale"),
        ("not a decision", "malformed"),
    ]
    for d, code in cases:
        with pytest.raises(IllegalDecision) as e:
            g.verify(d)  # type: ignore[arg-type]
        assert e.value.code == code, (d, e.value)
        assert e.value.reason
        assert not g.can(d)  # type: ignore[arg-type]
        assert snapshot(g) == before
    g.do(GestureChoice(p, legal.gesture, at=g.decision_point().id))
    with pytest.raises(IllegalDecision) as e:
        g.do(legal)
    assert e.value.code == "already-decided"


def test_wrong_player_in_the_draft() -> None:
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    with pytest.raises(IllegalDecision) as e:
        g.do(DraftPick("Bia", g.hand[0]))
    assert e.value.code == "wrong-player" and "waiting for Ana" in e.value.reason


def test_game_over_refuses_everything() -> None:
    """R-101: the game ends after the round in which somebody meets a condition."""
    g = new_game(seed=5)
    play_randomly(g, bot_rng(5))
    assert g.over and g.winners
    assert g.nights[-1].result.winner_names == g.winners
    assert all(not r.result.winners for r in g.nights[:-1])
    with pytest.raises(IllegalDecision) as e:
        g.do(FreeXp("Ana", Role.DEVIL))
    assert e.value.code == "game-over"
    assert g.legal("Ana") == ()


# -- Phase 3 ------------------------------------------------------------------------


def test_withdrawals_offered_follow_r63() -> None:
    """R-63, K-1: a Creature's target cannot withdraw altogether unless immune;
    a Hunter may lower one arrow; Death is never asked (R-80)."""
    found = 0
    for seed in range(400):
        g = new_game("reporter-creature-6", 6, seed)
        if not drive(g, random.Random(seed), lambda g: g.phase is Phase.WITHDRAWAL):
            continue
        night = g._night()
        held = {gs.targets[0]: p for p, gs in night.gestures.items()
                if night.cards[p].role is Role.CREATURE}
        for p in g.pending:
            ws = {d.withdrawal for d in g.legal(p) if isinstance(d, WithdrawalChoice)}
            assert False in ws
            assert ((0,) in ws) == (g.cards[p].role is Role.HUNTER)
            # the validator is the judge (held by any Creature it is not immune to)
            accepted = {w for w in (True, (0,), (1,))
                        if g.can(WithdrawalChoice(p, w))}
            assert accepted == ws - {False}
            if p in held and not proposal_immune(night, p, held[p]):
                assert True not in ws
                found += 1
        if found >= 3:
            break
    assert found >= 3


# -- Phase 4: the Zombies --------------------------------------------------------


def test_zombie_choice_asked_only_of_zombies_in_play_after_step_3() -> None:
    """R-113, R-51: real Zombies still in play after steps 1+..3 choose left or right."""
    asked = skipped = 0
    for seed in range(300):
        g = new_game("advanced", 6, seed)
        r = random.Random(seed)
        if not drive(g, r, lambda g: g.phase is Phase.WITHDRAWAL):
            continue
        step(g, r)
        if g.phase is not Phase.ZOMBIE:  # the night ended: read it from its record
            night = g.nights[-1].night
            zombies = [p for p, c in night.cards.items()
                       if c.role is Role.ZOMBIE and p not in night.withdrawals]
            early = resolve(night, through="3")
            assert all(early.fates[g.players.index(p)] is not Fate.ALIVE for p in zombies)
            assert not night.zombie_targets
            if zombies:
                skipped += 1
            continue
        zombies = [p for p, c in g.cards.items()
                   if c.role is Role.ZOMBIE and p not in g.withdrawals]
        if g.phase is Phase.ZOMBIE:
            early = resolve(g._night(), through="3")
            alive = [p for p in zombies if early.fates[g.players.index(p)] is Fate.ALIVE]
            assert list(g.pending) == alive
            for p in g.pending:
                assert {d.target for d in g.legal(p) if isinstance(d, ZombieChoice)} == \
                    set(g.neighbours(p))
                bad = next(q for q in g.players if q not in g.neighbours(p) and q != p)
                with pytest.raises(IllegalDecision, match="left or right"):
                    g.do(ZombieChoice(p, bad))
            asked += 1
    assert asked > 10 and skipped >= 1


# -- determinism ----------------------------------------------------------------------


def test_same_seed_same_game_different_seed_different_game() -> None:
    """All chance comes from the seed; the bots have their own stream."""
    def run(seed: int | str) -> list[object]:
        g = new_game("death-alien-7", 7, seed)
        play_randomly(g, bot_rng(seed))
        return [(r.face_down, r.picks, r.result.events) for r in g.nights]

    assert run(42) == run(42)
    assert run("42") == run(42)  # the seed's text is what counts
    assert run(42) != run(43)


def test_decisions_do_not_move_the_deck_stream() -> None:
    """The draft of night k depends on the seed and k only, never on decisions."""
    a = new_game(seed=9, free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    b = new_game(seed=9, free_xp=dict.fromkeys(NAMES[:6], Role.HUNTER))
    assert a.face_down == b.face_down and a.hand == b.hand
    ra, rb = random.Random(1), random.Random(2)
    drive(a, ra, lambda g: g.night == 2)
    drive(b, rb, lambda g: g.night == 2)
    if a.night == 2 and b.night == 2:
        assert a.face_down == b.face_down


def test_cards_of_a_night_are_physical_cards() -> None:
    g = _to_phase(Phase.GESTURE, "advanced", 8)
    assert len(set(g.cards.values())) == 8
    for c in g.cards.values():
        assert isinstance(c, Card) and c.gender in CAST[c.role].genders


def test_restore_from_a_decision_log() -> None:
    """A server that stores the decisions rebuilds the same game (checked path)."""
    from darkcity.game import restore

    g = new_game("death-alien-7", 7, "log")
    play_randomly(g, bot_rng("log"))
    again = restore(g.settings, g.seed, g.log)
    assert again.winners == g.winners
    assert [r.result.events for r in again.nights] == [r.result.events for r in g.nights]
    with pytest.raises(IllegalDecision):
        restore(g.settings, g.seed, g.log[1:] if len(g.log) > 1 else [FreeXp("Zed", Role.DEVIL)])
