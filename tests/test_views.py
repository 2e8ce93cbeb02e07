"""Per-player views: what a player or a spectator may know, and nothing more.

R-110 (secret simultaneous gestures), R-111 (withdrawals), R-113 (the Zombies'
narration), R-114 (reveals: all played cards at the end of the night; face-down
and unchosen cards never), R-118 (journals are public), R-82 (Death's draft).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from darkcity.cast import Role
from darkcity.decisions import (
    DraftPick,
    FaceDownPick,
    GestureChoice,
    LookAtHand,
    Phase,
    TakeDeath,
    WithdrawalChoice,
    decision_from_dict,
    decision_to_dict,
)
from darkcity.game import Game
from darkcity.night import Card
from darkcity.views import View, card_view, view

from .test_game import CASES, NAMES, drive, new_game, step

SEED = "s3cr3t-seed-7d1e"


def _card_dicts(x: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every object that looks like a card, with its path."""
    out = []
    if isinstance(x, dict):
        if set(x) >= {"role", "edition", "gender"}:
            out.append((path, x))
        for k, v in x.items():
            out += _card_dicts(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _card_dicts(v, f"{path}[{i}]")
    return out


def _cd(card: Card) -> dict[str, Any]:
    cv = card_view(card)
    return {"role": cv.role, "edition": cv.edition, "gender": cv.gender}


def check_no_leak(game: Game, viewer: str | None, since: int = 1) -> View:
    """The leak oracle: every card in a view is the viewer's own knowledge, Death's
    face-up card, or a card played in a finished night (in that night's entry)."""
    v = view(game, viewer, since=since)
    d = v.to_dict()
    text = json.dumps(d)
    assert SEED not in text and "face_down" not in text and "seed" not in text
    allowed: list[dict[str, Any]] = []
    if viewer is not None:
        if viewer in game.cards:
            allowed.append(_cd(game.cards[viewer]))
        allowed += [_cd(c) for c in game.received.get(viewer, ())]
    if game.death is not None:
        allowed.append(_cd(game.cards[game.death]))
    for path, c in _card_dicts(d):
        if path.startswith(".history"):
            k = int(path.split("[")[1].split("]")[0])
            rec = game.nights[v.history[k].number - 1]
            assert c in [_cd(x) for x in rec.night.cards.values()], path
            continue
        assert c in allowed, (viewer, path, c)
    in_night = game.phase in (Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE)
    for seat in v.seats:
        mine = seat.name == viewer
        if seat.card is not None:
            assert mine or seat.death
        if seat.gesture is not None:
            assert in_night
            assert mine or game.phase is not Phase.GESTURE
            assert mine or seat.gesture.names is None  # Death's name: its writer only
        if seat.withdrawal is not None:
            assert mine or game.phase is Phase.ZOMBIE
        if seat.zombie_target is not None:
            assert mine
    if v.hand is not None:
        assert viewer in game.pending and game.may_look
        assert list(v.hand) == [card_view(c) for c in game.hand]
    if viewer is None:
        assert v.hand is None and v.choices == () and v.received == ()
    if v.narration:
        assert game.phase is Phase.ZOMBIE
        assert {e.step for e in v.narration} <= {"1+", "1", "2", "3"}
    for nv in v.history:  # a finished night is public, its draft never
        rec = game.nights[nv.number - 1]
        assert dict(nv.cards) == {p: card_view(c) for p, c in rec.night.cards.items()}
    return v


@pytest.mark.parametrize(("deck", "n"), CASES)
def test_no_view_leaks_at_any_decision_point(deck: str, n: int) -> None:
    """Every view (each player, a spectator) after every decision of a random game."""
    g = new_game(deck, n, SEED)
    r = random.Random(f"{deck}{n}")
    viewers: list[str | None] = [None, *g.players]
    while not g.over and g.night <= 2:
        for p in g.pending:
            for viewer in viewers:
                check_no_leak(g, viewer, since=g.night - 1)
            choices = g.legal(p)
            g.apply(choices[r.randrange(len(choices))])
    for viewer in viewers:
        check_no_leak(g, viewer)


def test_views_of_whole_games_every_role() -> None:
    """Whole games over every preset: every role is seen at every phase."""
    seen: set[tuple[Role, str]] = set()
    biggest = {deck: n for deck, n in CASES}  # each preset at its largest table
    for i, (deck, n) in enumerate(biggest.items()):
        g = new_game(deck, n, f"{SEED}{i}")
        r = random.Random(i)
        while not g.over:
            if g.phase in (Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE):
                for p in g.players:
                    seen.add((g.cards[p].role, g.phase.value))
                    check_no_leak(g, p, since=g.night)
            step(g, r)
        check_no_leak(g, None)
    assert {r for r, _ in seen} == set(Role)
    assert {ph for _, ph in seen} == {"gesture", "withdrawal", "zombie"}


def _swap_hidden(game: Game, viewer: str) -> Game | None:
    """A copy of ``game`` in which two other players' cards (not yet revealed) are
    swapped and the face-down pile is reordered."""
    g2 = copy.deepcopy(game)
    others = [q for q in g2.cards if q != viewer and q != g2.death]
    if len(others) < 2:
        return None
    a, b = others[0], others[-1]
    if g2.phase is not Phase.DRAFT and (a in g2.gestures or b in g2.gestures):
        return None  # a committed gesture is tied to its card
    g2.cards[a], g2.cards[b] = g2.cards[b], g2.cards[a]
    g2._face_down.reverse()
    g2._set_aside = tuple(reversed(g2._set_aside))
    if g2.phase is Phase.DRAFT and viewer not in g2.pending:
        g2._hand.reverse()
    return g2


def test_views_ignore_hidden_state() -> None:
    """Differential: changing what a player may not know does not change their view."""
    checked = 0
    for seed in range(12):
        g = new_game("death-alien-7", 7, seed)
        r = random.Random(seed)
        while not g.over and g.night <= 2:
            if g.phase in (Phase.DRAFT, Phase.GESTURE):
                for viewer in [None, *g.players]:
                    if viewer is not None and g.phase is Phase.DRAFT and viewer in g.pending:
                        continue
                    g2 = _swap_hidden(g, viewer or "")
                    if g2 is not None:
                        assert view(g, viewer, since=g.night) == view(g2, viewer, since=g.night)
                        checked += 1
            step(g, r)
    assert checked > 200


def test_own_card_hand_and_choices() -> None:
    g = new_game("basic", 6, SEED)
    drive(g, random.Random(1), lambda g: g.phase is Phase.DRAFT and g.pending == ("Caio",))
    v = view(g, "Caio")
    assert v.hand is not None and len(v.hand) == 7
    assert [decision_from_dict(c) for c in v.choices] == list(g.legal("Caio"))
    assert view(g, "Duda").hand is None and view(g, "Duda").choices == ()
    assert view(g, "Ana").seats[0].card is not None  # own card, kept before
    assert view(g, "Ana").seats[1].card is None  # not Bia's
    assert len(view(g, "Ana").received) == 9


def test_death_face_up_and_hand_hidden_while_offered() -> None:
    """R-82: the last player decides on Death before looking at the hand."""
    g = new_game("reporter-death-6", 6, SEED)
    drive(g, random.Random(3), lambda g: g.phase is Phase.DRAFT and g.choosing_last)
    last = g.pending[0]
    v = view(g, last)
    assert v.death_in_play and v.hand is None and v.received == ()
    assert {c["type"] for c in v.choices} == {"take-death", "look-at-hand"}
    g.do(TakeDeath(last, g.players[0] if last != g.players[0] else g.players[1]))
    for viewer in [None, *g.players]:
        seat = next(s for s in view(g, viewer).seats if s.name == last)
        assert seat.death and seat.card is not None and seat.card.role == "death"
        assert (seat.gesture is not None and seat.gesture.names is not None) == (viewer == last)


def test_gestures_revealed_together_withdrawals_after() -> None:
    """R-110, R-111."""
    g = new_game("basic", 6, SEED)
    r = random.Random(2)
    drive(g, r, lambda g: g.phase is Phase.GESTURE)
    first = g.pending[0]
    g.do(g.legal(first)[0])
    assert view(g, first).seats[g.players.index(first)].gesture is not None
    assert all(s.gesture is None for s in view(g, None).seats)
    assert next(s for s in view(g, None).seats if s.name == first).decided is True
    step(g, r)
    assert g.phase is Phase.WITHDRAWAL
    assert all(s.gesture is not None for s in view(g, None).seats)
    p = g.pending[0]
    g.do(WithdrawalChoice(p, False))
    assert view(g, p).seats[g.players.index(p)].withdrawal is False
    assert view(g, None).seats[g.players.index(p)].withdrawal is None


def test_journals_public_after_setup_free_xp_secret_before() -> None:
    """R-118; the free XP is chosen simultaneously (R-103)."""
    g = new_game("basic", 4, SEED)
    g.do(g.legal("Ana")[2])
    assert view(g, "Ana").seats[0].journal != ()
    assert view(g, "Bia").seats[0].journal == ()
    for p in g.players[1:]:
        g.do(g.legal(p)[0])
    assert all(s.journal for s in view(g, None).seats)


def test_views_are_frozen_and_json() -> None:
    g = new_game("death-alien-7", 7, SEED)
    drive(g, random.Random(0), lambda g: g.night == 3)
    v = view(g, "Ana")
    json.dumps(v.to_dict())
    with pytest.raises(AttributeError):
        v.phase = "x"  # type: ignore[misc]
    assert v == view(g, "Ana")


def test_seats_and_decision_points_made_by_their_slots_are_the_dataclasses() -> None:
    # the views and the game make these two by setting their slots (faster than a
    # frozen dataclass's __init__): the objects must be exactly the dataclass's own
    from darkcity.decisions import DecisionPoint, new_decision_point
    from darkcity.views import SeatView, _seat_view

    args = ("Ana", (("priest", 2),), False, card_view(Card(Role.PRIEST)), None, (0,), "Bia",
            True)
    seat = _seat_view(*args)
    assert seat == SeatView(*args) and hash(seat) == hash(SeatView(*args))
    assert type(seat) is SeatView and repr(seat) == repr(SeatView(*args))
    with pytest.raises(AttributeError):
        seat.name = "x"  # type: ignore[misc]
    fields = (7, Phase.GESTURE, 2, ("Ana", "Bia"), ("Bia",), True)
    dp = new_decision_point(*fields)
    assert dp == DecisionPoint(*fields) and copy.deepcopy(dp) == dp
    with pytest.raises(AttributeError):
        dp.id = 8  # type: ignore[misc]


def test_decision_dicts_round_trip() -> None:
    g = new_game("basic", 6, SEED)
    r = random.Random(5)
    kinds = set()
    while not g.over and g.night < 6:
        for p in g.pending:
            for d in g.legal(p):
                assert decision_from_dict(decision_to_dict(d)) == d
                kinds.add(type(d).__name__)
        step(g, r)
    assert {"DraftPick", "FaceDownPick", "GestureChoice", "WithdrawalChoice"} <= kinds
    assert isinstance(decision_from_dict({"type": "look-at-hand", "player": "Ana"}), LookAtHand)
    death = TakeDeath("Ana", "Bia", at=4)
    assert decision_from_dict(decision_to_dict(death)) == death
    assert isinstance(decision_from_dict({"type": "face-down-pick", "player": "Ana", "at": 3}),
                      FaceDownPick)
    with pytest.raises(ValueError):
        decision_from_dict({"type": "gesture", "player": "Ana", "shows": "dragon"})
    assert isinstance(decision_from_dict({"type": "gesture", "player": "Ana"}), GestureChoice)


def test_spectator_and_unknown_viewer() -> None:
    g = new_game("basic", 5, SEED)
    assert view(g, None).viewer is None
    with pytest.raises(ValueError):
        view(g, "Zed")
    assert NAMES[0] in view(g, None).players


def test_a_blind_take_is_announced_to_the_table_never_the_card() -> None:
    """R-91: the last drafter may take a face-down card; everybody at a real table
    sees that happen, nobody sees which card. The view says who, for the night."""
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    for _ in range(5):
        (p,) = g.pending
        assert view(g, p).blind_pick is None
        g.do(DraftPick(p, g.hand[0]))
    assert view(g, None).blind_pick is None
    g.do(FaceDownPick("Fred"))
    for viewer in (None, *NAMES[:6]):
        v = view(g, viewer)
        assert v.blind_pick == "Fred"
        assert v.to_dict()["blind_pick"] == "Fred"
    other = view(g, "Ana").to_dict()
    assert all(s["card"] is None for s in other["seats"] if s["name"] == "Fred")


def test_no_blind_take_announced_when_the_last_drafter_keeps_a_card() -> None:
    g = new_game(free_xp=dict.fromkeys(NAMES[:6], Role.DEVIL))
    while g.phase is Phase.DRAFT:
        (p,) = g.pending
        g.do(DraftPick(p, g.hand[0]))
    assert view(g, "Ana").blind_pick is None


def test_fates_after_step_three_while_the_zombies_choose() -> None:
    """R-113: the Zombies choose knowing steps 1+ to 3; the view says everyone's fate
    after them (public: narrated, withdrawals revealed), and only in that phase."""
    seen = 0
    for seed in range(40):
        g = new_game("basic", 6, seed=seed)
        rng = random.Random(seed)
        assert view(g, None).fates_so_far == ()
        if not drive(g, rng, lambda x: x.phase is Phase.ZOMBIE):
            continue
        assert g.early is not None
        expected = tuple(zip(g.players, (f.value for f in g.early.fates), strict=True))
        for viewer in (None, *g.players):
            assert view(g, viewer).fates_so_far == expected
        step(g, rng)
        assert view(g, None).fates_so_far == ()
        seen += 1
    assert seen >= 5


def test_a_kind_named_devil_is_shown() -> None:
    """The Devil is role number 0, a false value: an Alien's gesture naming it showed no
    kind, in the seats and in the finished night (found by the compiled views, which
    read ``if g.kind`` as "is not None")."""
    for seed in range(40):
        g = new_game("death-alien-7", 7, f"kind-devil-{seed}")
        rng = random.Random(seed)
        alien = None
        while not g.over and g.night <= 6 and alien is None:
            for p in g.pending:
                choices = g.legal(p)
                devil = [d for d in choices if isinstance(d, GestureChoice)
                         and d.gesture.kind is Role.DEVIL]
                if devil:
                    alien = p
                g.apply(devil[0] if devil else choices[rng.randrange(len(choices))])
                if alien is not None:
                    break
        if alien is None:
            continue
        night = g.night
        drive(g, rng, lambda game: game.phase is not Phase.GESTURE)  # revealed
        if g.night == night and not g.over:
            gesture = {s.name: s for s in view(g, None).seats}[alien].gesture
            assert gesture is not None and gesture.kind == "devil"
        drive(g, rng, lambda game, n=night: game.night > n or game.over)
        done = dict(view(g, None).history[night - 1].gestures)
        assert done[alien].kind == "devil"
        return
    pytest.fail("no Alien named the Devil in 40 games")
