"""The views against a straightforward reference: :func:`darkcity.views.view` caches
and shares what did not change (seats, cards, choices, finished nights); here is the
view as it was built before, field by field, from the game alone, and every view of
random games in every preset (each player and a spectator, at every decision point,
in English and Portuguese, asked twice) must equal it, and so must its JSON."""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from darkcity.cast import Role
from darkcity.decisions import (
    Decision,
    DraftPick,
    FaceDownPick,
    FreeXp,
    GestureChoice,
    LookAtHand,
    Phase,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.game import Game
from darkcity.i18n import Translator, as_translator, translator
from darkcity.narration import messages
from darkcity.night import Card, Event, Gesture, Night
from darkcity.notation import gesture_document
from darkcity.settings import NightRecord
from darkcity.views import (
    CardView,
    EventView,
    GestureView,
    LazyView,
    NightView,
    SeatView,
    View,
    view,
)

from .test_game import CASES, new_game

# -- the reference: the view as first written (no caches), verbatim ---------------------


def _ref_plain(x: object) -> Any:
    if is_dataclass(x) and not isinstance(x, type):
        return {f.name: _ref_plain(getattr(x, f.name)) for f in fields(x)}
    if isinstance(x, tuple | list):
        return [_ref_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _ref_plain(v) for k, v in x.items()}
    if isinstance(x, enum.Enum):
        return x.value
    return x



def _card_view(card: Card) -> CardView:
    gender = card.identity
    return CardView(card.role.key, card.edition.value, gender.value if gender else "")


def _gesture_view(g: Gesture | None, role: Role, *, names: bool) -> GestureView:
    if g is None:
        return GestureView(role.key)
    return GestureView(
        (g.shows or role).key,
        g.targets,
        g.kind.key if g.kind is not None else None,
        g.seeks.value if g.seeks is not None else None,
        g.names if names else None,
    )


def _event_views(events: tuple[Event, ...], night: Night, t: Translator
                 ) -> tuple[EventView, ...]:
    # (the slow path: each event's message rendered alone, as the views did before
    # render_all; a Hunter's second bolt on the first's player is told as such)
    players = night.players
    return tuple(EventView(e.step, e.key, players[e.actor],
                           players[e.target] if e.target >= 0 else None, t.render(m))
                 for e, m in zip(events, messages(events, night), strict=True))


def _night_view(rec: NightRecord, t: Translator) -> NightView:
    night, res = rec.night, rec.result
    players = night.players
    return NightView(
        rec.number,
        rec.active,
        tuple((p, _card_view(night.cards[p])) for p in players),
        tuple((p, _gesture_view(night.gestures.get(p), night.cards[p].role, names=True))
              for p in players),
        tuple((p, w) for p in players if (w := night.withdrawals.get(p)) is not None),
        tuple((p, night.zombie_targets[p]) for p in players if p in night.zombie_targets),
        tuple((p, res.fates[i].value) for i, p in enumerate(players)),
        tuple((p, tuple(sorted(m.value for m in res.marks[i]))) for i, p in enumerate(players)),
        tuple((p, res.xp[i]) for i, p in enumerate(players)),
        _event_views(res.events, night, t),
        res.winner_names,
    )


def _decision_to_dict(d: Decision) -> dict[str, Any]:
    """A decision as plain data (``{"type": "gesture", "player": ..., ...}``)."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(d)], "player": d.player}
    if isinstance(d, FreeXp):
        out["role"] = d.role.key
    elif isinstance(d, DraftPick):
        out["card"] = _ref_plain(_card_view(d.card))
    elif isinstance(d, TakeDeath):
        out["names"] = d.names
    elif isinstance(d, GestureChoice):
        out.update(gesture_document(d.gesture))  # the notation's own form
    elif isinstance(d, WithdrawalChoice):
        w = d.withdrawal
        out["withdrawal"] = w if isinstance(w, bool) else list(w)
    elif isinstance(d, ZombieChoice):
        out["target"] = d.target
    if d.at is not None:
        out["at"] = d.at
    return out


_TYPE_NAMES: dict[type, str] = {
    FreeXp: "free-xp", DraftPick: "draft-pick", FaceDownPick: "face-down-pick",
    TakeDeath: "take-death", LookAtHand: "look-at-hand", GestureChoice: "gesture",
    WithdrawalChoice: "withdrawal", ZombieChoice: "zombie",
}



def reference_view(game: Game, player: str | None = None, *, since: int = 1,
                   translate: Callable[[str], str] | None = None) -> View:
    """What ``player`` (None: a spectator) may know about ``game`` right now.

    ``history`` holds the finished nights numbered ``since`` and later (all of
    them by default; a server that already sent the earlier ones asks for less).
    The narration texts (``EventView.text``) are in ``translate``'s language (a
    :class:`~darkcity.i18n.Translator`, e.g. ``translator("pt")``; English by
    default).
    """
    t = as_translator(translate)
    if player is not None and player not in game.players:
        raise ValueError(f"{player!r} is not one of the players")
    phase = game.phase
    players = game.players
    dp = game.decision_point()
    pending = set(dp.pending)
    required = set(dp.required)
    setup_done = phase is not Phase.SETUP
    in_night = phase in (Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE)
    gestures_out = phase in (Phase.WITHDRAWAL, Phase.ZOMBIE)  # revealed together
    withdrawals_out = phase is Phase.ZOMBIE  # revealed together
    sheet = game.sheet

    seats = []
    for i, p in enumerate(players):
        mine = p == player
        if setup_done:
            j = game.journals[i]
            journal = tuple((r.key, j[r]) for r in sheet if j.get(r))
        elif mine and p in game.free_xp:
            journal = ((game.free_xp[p].key, 1),)
        else:
            journal = ()
        card = None
        is_death = game.death == p and phase is not Phase.OVER
        if (mine or is_death) and p in game.cards and phase is not Phase.OVER:
            card = _card_view(game.cards[p])
        gesture = None
        if in_night and p in game.gestures and (mine or (gestures_out and not is_death)):
            g = game.gestures[p]
            gesture = _gesture_view(g, game.cards[p].role, names=mine)
        withdrawal: bool | tuple[int, ...] | None = None
        if p != game.death and (withdrawals_out or (
                mine and phase is Phase.WITHDRAWAL and p not in pending)):
            withdrawal = game.withdrawals.get(p, False)
        zombie = game.zombie_targets.get(p) if (mine and phase is Phase.ZOMBIE) else None
        decided = None if p not in required else p not in pending
        seats.append(SeatView(p, journal, decided, card, gesture, withdrawal, zombie, is_death))

    hand = None
    received: tuple[CardView, ...] = ()
    choices: tuple[dict[str, Any], ...] = ()
    if player is not None:
        if phase is Phase.DRAFT and player in pending and game.may_look:
            hand = tuple(_card_view(c) for c in game.hand)
        if phase in (Phase.DRAFT, Phase.GESTURE, Phase.WITHDRAWAL, Phase.ZOMBIE) and \
                player in game.received:
            received = tuple(_card_view(c) for c in game.received[player])
        choices = tuple(_decision_to_dict(d) for d in game.legal(player))

    narration: tuple[EventView, ...] = ()
    fates_so_far: tuple[tuple[str, str], ...] = ()
    if phase is Phase.ZOMBIE and game.early is not None:
        night = game.early.night
        narration = _event_views(game.early.events, night, t)
        fates_so_far = tuple((p, f.value) for p, f in zip(night.players, game.early.fates,
                                                          strict=True))

    return View(
        viewer=player,
        players=players,
        mayor=players[game.settings.mayor_seat],
        night=game.night,
        phase=phase.value,
        active=game.active_player,
        decision_id=dp.id,
        required=dp.required,
        pending=dp.pending,
        journal_roles=tuple(r.key for r in sheet),
        death_in_play=game.death_in_play,
        blind_pick=game.blind_pick,
        seats=tuple(seats),
        hand=hand,
        received=received,
        choices=choices,
        narration=narration,
        fates_so_far=fates_so_far,
        history=tuple(_night_view(rec, t) for rec in game.nights[max(since, 1) - 1:]),
        winners=game.winners,
    )


# -- the comparison ------------------------------------------------------------------------


def _check(game: Game, viewers: list[str | None], since: int, t: Translator | None) -> None:
    for viewer in viewers:
        ref = reference_view(game, viewer, since=since, translate=t)
        got = view(game, viewer, since=since, translate=t)
        assert got == ref, (viewer, game.phase, game.night)
        assert got.to_dict() == _ref_plain(ref), (viewer, game.phase, game.night)
        assert view(game, viewer, since=since, translate=t) == ref  # asked again
        lazy = LazyView(game, viewer, since=since, translate=t)
        for f in fields(View):  # field by field, each read first
            assert getattr(LazyView(game, viewer, since=since, translate=t), f.name) == \
                getattr(ref, f.name), f.name
            assert getattr(lazy, f.name) == getattr(ref, f.name), f.name
        assert lazy.public_seats == reference_view(game, None).seats
        assert lazy.nights == tuple(replace(n, events=()) for n in ref.history)


@pytest.mark.parametrize(("deck", "n"), [  # one case in two in the fast tier
    pytest.param(deck, n, marks=[pytest.mark.slow] if i % 2 else [])
    for i, (deck, n) in enumerate(CASES[::3])])
def test_views_equal_the_reference_at_every_decision_point(deck: str, n: int) -> None:
    pt = translator("pt")
    for seed in range(2):
        g = new_game(deck, n, f"ref-{deck}-{seed}")
        rng = random.Random(f"{deck}{n}{seed}")
        viewers: list[str | None] = [None, *g.players]
        while not g.over and g.night <= 4:
            for p in g.pending:
                _check(g, viewers, 1, None)
                if g.phase in (Phase.ZOMBIE, Phase.WITHDRAWAL):
                    _check(g, viewers, g.night, pt)
                choices = g.legal(p)
                g.apply(choices[rng.randrange(len(choices))])
        _check(g, viewers, 1, None)
        _check(g, viewers, 2, pt)


BIGGEST = list({deck: n for deck, n in CASES}.items())


@pytest.mark.parametrize(("i", "deck", "n"), [
    pytest.param(i, deck, n, marks=[pytest.mark.slow] if i % 5 else [])
    for i, (deck, n) in enumerate(BIGGEST)])
def test_whole_games_equal_the_reference(i: int, deck: str, n: int) -> None:
    """Whole games (to their last night and the end), every preset at its largest table:
    every role at every phase, the views of a game over, a plain function as
    the translation (nothing cached for it). One preset in five in the fast tier, the
    others marked ``slow`` (together over a minute)."""
    g = new_game(deck, n, f"ref-whole-{i}")
    rng = random.Random(i)
    viewers: list[str | None] = [None, *g.players]
    while not g.over:
        _check(g, viewers, g.night - 1, None)
        for p in g.pending:
            choices = g.legal(p)
            g.apply(choices[rng.randrange(len(choices))])
    _check(g, viewers, 1, None)
    def same(message: str) -> str:
        return message

    for viewer in viewers:
        assert view(g, viewer, translate=same) == reference_view(g, viewer, translate=same)
