"""Every candidate a call offers can be entered (issue #51).

At each call the Mayor is offered players to tap (``CallQuestion.candidates``) and the
cards each may turn over (``options``); at the Devil's and the Angel's calls two
candidates the companion refuses together are named with the refusal (``excludes``).
Over generated nights (engine games of every deck, their seeds drawn by Hypothesis),
each offered (player, card) is taken by the companion with some answer for the others,
each pair not excluded is taken together, each excluded pair never is, and asking the
question leaves the table as it was. The night of the issue: a player who lowered one
bolt (a Hunter, D-7) is not offered at the Devil's call.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from darkcity.cast import Role
from darkcity.companion import (
    Call,
    CallQuestion,
    Companion,
    Counted,
    Drafted,
    EntryError,
    GestureEntry,
    RevealDone,
    Stage,
    TableSetup,
    WithdrawalEntry,
    WithdrawalsDone,
)
from darkcity.deck import preset
from darkcity.night import Card
from darkcity.settings import NightRecord

from .test_companion import CASES, companion_for, game_of

CHOOSING = (Role.DEVIL, Role.ANGEL)


def _taken(c: Companion, call: Call) -> bool:
    trial = copy.deepcopy(c)
    try:
        trial.enter(call)
    except EntryError:
        return False
    return True


def _some(c: Companion, q: CallQuestion, fixed: Mapping[str, Card],
          free: Sequence[str]) -> bool:
    """Is a call with ``fixed`` and some offered card for each of ``free`` taken?"""
    pools = [[(p, x) for x in q.options[p]] for p in free]
    for combo in itertools.islice(itertools.product(*pools), 16):
        if _taken(c, Call(q.step, {**fixed, **dict(combo)}, {})):
            return True
    return False


def _to_calls(c: Companion, rec: NightRecord) -> None:
    night = rec.night
    death = next((p for p in night.players if night.cards[p].role is Role.DEATH), None)
    c.enter(Drafted(night.gestures[death].names if death else None))
    c.enter(Counted())
    for p in c.gesturing:
        g = night.gestures.get(p)
        c.enter(GestureEntry(p, night.shown(p), g.targets if g else (), g.kind if g else None,
                             g.seeks if g else None))
    c.enter(RevealDone())
    for p, w in night.withdrawals.items():
        c.enter(WithdrawalEntry(p, w))
    c.enter(WithdrawalsDone())


def _check_calls(c: Companion, rec: NightRecord) -> int:
    """Check every call of the night, then answer it as the night was; the calls seen."""
    night = rec.night
    seen = 0
    while c.stage is Stage.RESOLUTION:
        before = c.to_json()
        q = c.question()
        assert q is not None
        assert c.to_json() == before  # the trials left nothing behind
        seen += 1
        choosing = q.role in CHOOSING
        for p in q.candidates:
            assert q.options[p], (q.step, p)
            for card in q.options[p]:
                if choosing:  # alone, or beside one other (two cards of a role at most)
                    taken = _some(c, q, {p: card}, q.asked) or any(
                        _some(c, q, {p: card, x: y}, q.asked)
                        for x in q.candidates if x != p for y in q.options[x] if y != card)
                else:  # every holder turns the card over
                    taken = _some(c, q, {p: card}, [x for x in q.candidates if x != p]
                                  + list(q.asked))
                assert taken, (q.step, p, card)
        if choosing:
            for a, b in itertools.combinations(q.candidates, 2):
                excluded = any(x == a for x, _why in q.excludes.get(b, ()))
                together = any(_some(c, q, {a: x, b: y}, q.asked)
                               for x in q.options[a] for y in q.options[b] if x != y)
                assert together != excluded, (q.step, a, b)
        cards = {p: night.cards[p] for p in q.candidates
                 if q.role is not None and night.cards[p].role is q.role}
        cards.update({p: night.cards[p] for p in q.asked})
        zombies = {z: night.zombie_targets.get(z, aimed)
                   for z, (_l, _r, aimed) in q.zombies.items()}
        c.enter(Call(q.step, cards, zombies))
    return seen


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.integers(0, 10_000))
def test_every_candidate_a_call_offers_can_be_entered(case: tuple[str, int], seed: int) -> None:
    deck, n = case
    g = game_of(deck, n, seed)
    c = companion_for(g)
    rec = g.nights[0]
    _to_calls(c, rec)
    assert _check_calls(c, rec) >= 1


def test_a_hunter_who_lowered_a_bolt_is_not_offered_at_the_devils_call() -> None:
    """The issue's night: Ana shows the Hunter and lowers one bolt (only a Hunter may,
    D-7); at "The Devil?" she is not a candidate, and tapping her anyway is refused in
    words, never taken and dropped."""
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")
    c = Companion(TableSetup.of(names, preset("basic", 6), dict.fromkeys(names, Role.VAMPIRE)))
    c.enter(Drafted(None))
    c.enter(Counted())
    gestures = {"Ana": (Role.HUNTER, ("Fred", "Caio")), "Bia": (Role.VAMPIRE, ("Caio",)),
                "Caio": (Role.WEREWOLF, ("Duda",)), "Duda": (Role.PRIEST, ()),
                "Enzo": (Role.ZOMBIE, ("Fred",)), "Fred": (Role.PRIEST, ())}
    for p, (role, targets) in gestures.items():
        c.enter(GestureEntry(p, role, targets, None, None))
    c.enter(RevealDone())
    c.enter(WithdrawalEntry("Ana", (0,)))
    c.enter(WithdrawalsDone())
    q = c.question()
    assert q is not None and q.role is Role.DEVIL
    assert "Ana" not in q.candidates and "Bia" in q.candidates
    try:
        c.enter(Call("1", {"Bia": Card(Role.DEVIL), "Ana": Card(Role.DEVIL)}, {}))
    except EntryError as e:
        assert e.player == "Ana"
    else:
        raise AssertionError("Ana was taken for a Devil")
