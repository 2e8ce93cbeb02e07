"""The table companion's model (issue #11): whole games transcribed as a Mayor enters
them, night by night, against the engine; corrections, undo, refusals, the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from darkcity.cast import Edition, Gender, Role
from darkcity.companion import (
    Call,
    CallQuestion,
    Companion,
    Counted,
    Drafted,
    EntryError,
    GestureEntry,
    NextNight,
    RevealDone,
    Stage,
    TableSetup,
    WithdrawalEntry,
    WithdrawalsDone,
    entry_from_json,
    entry_to_json,
    replay_table,
    write_table_record,
)
from darkcity.deck import DeckError, parse_deck, preset
from darkcity.game import Game, play_randomly
from darkcity.night import Card, Night
from darkcity.notation import adjudicate, result_document, write_round
from darkcity.settings import NightRecord, Settings, bot_rng

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def transcribe(c: Companion, rec: NightRecord, *, last: bool) -> int:
    """Enter one night of an engine game as the Mayor would at a real table; returns
    the number of entries made."""
    night = rec.night
    made = 0

    def enter(e: Any) -> None:
        nonlocal made
        c.enter(e)
        made += 1

    assert c.stage is Stage.DRAFT and c.active == rec.active
    death = next((p for p in night.players if night.cards[p].role is Role.DEATH), None)
    enter(Drafted(night.gestures[death].names if death else None))
    enter(Counted())
    for p in c.gesturing:
        g = night.gestures.get(p)
        shows = night.shown(p)
        enter(GestureEntry(p, shows, g.targets if g else (), g.kind if g else None,
                           g.seeks if g else None))
    enter(RevealDone())
    for p, w in night.withdrawals.items():
        enter(WithdrawalEntry(p, w))
    enter(WithdrawalsDone())
    made += calls(c, rec)
    if not last:
        enter(NextNight())
    return made


def calls(c: Companion, rec: NightRecord) -> int:
    """The Mayor's answers to every call of Phase 4 still to come; how many."""
    night = rec.night
    made = 0
    while c.stage is Stage.RESOLUTION:
        q = c.question()
        assert q is not None
        cards: dict[str, Card] = {}
        for p in q.candidates:
            if q.role is not None and night.cards[p].role is q.role:
                cards[p] = night.cards[p]
        for p in q.asked:
            cards[p] = night.cards[p]
        zombies = {z: night.zombie_targets.get(z, aimed) for z, (_l, _r, aimed)
                   in q.zombies.items()}
        c.enter(Call(q.step, cards, zombies))
        made += 1
    return made


def game_of(deck: str, n: int, seed: int) -> Game:
    g = Game(Settings(players=NAMES[:n], deck=preset(deck, n)), seed)
    return play_randomly(g, bot_rng(seed))


def companion_for(g: Game) -> Companion:
    return Companion(TableSetup.of(g.players, g.settings.deck, dict(g.free_xp)))


CASES = [("basic", 4), ("basic", 6), ("advanced", 5), ("angel-alien-6", 6),
         ("reporter-death-6", 6), ("undead-7", 7), ("creatures-7", 8), ("mummy-voodoo-7", 7),
         ("death-alien-7", 8), ("reporter-creature-6", 6), ("creature-mummy-6", 6)]


@pytest.mark.parametrize(("deck", "n"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_whole_games_match_the_engine(deck: str, n: int, seed: int) -> None:
    g = game_of(deck, n, seed)
    c = companion_for(g)
    for k, rec in enumerate(g.nights):
        transcribe(c, rec, last=k == len(g.nights) - 1)
        mine = c.nights[k]
        # the exported round, adjudicated alone, gives the engine's result
        doc = json.loads(json.dumps(write_round(mine.night)))
        assert adjudicate(doc) == result_document(rec.result)
        assert mine.result.journals == rec.result.journals
        # what was narrated at each call is what the whole night says at that step
        said = {step: words for step, words in c.narration}
        for step, words in said.items():
            from darkcity.narration import messages
            whole = tuple(m for e, m in zip(mine.result.events,
                                            messages(mine.result.events, mine.night),
                                            strict=True) if e.step == step)
            assert [str(w) for w in words] == [str(w) for w in whole], step
    assert c.stage is Stage.OVER
    assert c.winners == g.winners
    rec_doc = json.loads(json.dumps(write_table_record(c)))
    assert replay_table(rec_doc).ok


def basic_table(n: int = 6, deck: str = "basic") -> Companion:
    players = NAMES[:n]
    d = preset(deck, n)
    sheet = d.journal_roles
    return Companion(TableSetup.of(players, d, {p: sheet[i % len(sheet)]
                                               for i, p in enumerate(players)}))


def to_reveal(c: Companion) -> None:
    c.enter(Drafted())
    c.enter(Counted())


def test_the_flow_and_the_active_player() -> None:
    c = basic_table()
    assert c.stage is Stage.DRAFT and c.active == "Ana" and c.last_drafter == "Fred"
    assert c.draft_order == NAMES[:6]
    to_reveal(c)
    assert c.stage is Stage.REVEAL and c.to_enter() == NAMES[:6]


def test_refusals_name_the_reason() -> None:
    c = basic_table()
    to_reveal(c)
    with pytest.raises(EntryError, match="cannot point at themself"):
        c.enter(GestureEntry("Ana", Role.VAMPIRE, ("Ana",)))
    with pytest.raises(EntryError, match="neighbour"):  # a Zombie aiming across the table
        c.enter(GestureEntry("Ana", Role.ZOMBIE, ("Duda",)))
    with pytest.raises(EntryError, match="nobody shows the Devil"):
        c.enter(GestureEntry("Ana", Role.DEVIL))
    with pytest.raises(EntryError, match="not in this deck"):
        c.enter(GestureEntry("Ana", Role.ANGEL, ("Bia",)))
    with pytest.raises(EntryError, match="not one of the players"):
        c.enter(GestureEntry("Zed", Role.PRIEST))
    with pytest.raises(EntryError, match="not entered yet"):
        c.enter(RevealDone())
    assert c.gestures == {} and c.entries == [Drafted(), Counted()]  # nothing half-entered
    # three Vampires: only two Vampire cards, so one is a Devil; four cannot be
    for p in ("Ana", "Bia", "Caio"):
        c.enter(GestureEntry(p, Role.VAMPIRE, ("Duda",)))
    c.enter(GestureEntry("Duda", Role.VAMPIRE, ("Ana",)))  # two Devils in the deck
    with pytest.raises(EntryError, match="no Vampire card of the deck is left"):
        c.enter(GestureEntry("Enzo", Role.VAMPIRE, ("Ana",)))


def test_death_names_another_player_and_only_with_death_in_the_deck() -> None:
    c = basic_table()
    with pytest.raises(EntryError, match="Death is not in this deck"):
        c.enter(Drafted("Bia"))
    c = basic_table(6, "reporter-death-6")
    with pytest.raises(EntryError, match="Death names another player"):
        c.enter(Drafted("Fred"))
    c.enter(Drafted("Bia"))
    assert c.death == "Fred" and c.gesturing == NAMES[:5]
    c.enter(Counted())
    with pytest.raises(EntryError, match="Death, who is not there"):
        c.enter(GestureEntry("Ana", Role.VAMPIRE, ("Fred",)))
    with pytest.raises(EntryError, match="makes no gesture"):
        c.enter(GestureEntry("Fred", Role.PRIEST))


def test_corrections_and_undo() -> None:
    c = basic_table()
    to_reveal(c)
    c.enter(GestureEntry("Ana", Role.VAMPIRE, ("Bia",)))
    c.enter(GestureEntry("Ana", Role.WEREWOLF, ("Caio",)))  # corrected before use
    assert c.gestures["Ana"].shows is Role.WEREWOLF
    assert isinstance(c.undo(), GestureEntry)
    assert c.gestures["Ana"].shows is Role.VAMPIRE
    c.undo()
    c.undo()
    assert c.stage is Stage.COUNT


def _a_wrong_gesture(c: Companion, p: str, true: GestureEntry) -> GestureEntry:
    """Another gesture ``p`` could have shown (the first the companion accepts)."""
    for r in c.showable:
        aim = c.aim_options(p, r)
        for targets in ((), aim[:1], aim[:2]):
            wrong = GestureEntry(p, r, tuple(targets))
            if wrong != true:
                try:
                    Companion.replayed(c.setup, c.entries).correct(wrong)
                except EntryError:
                    continue
                return wrong
    raise AssertionError(f"no other gesture for {p}")


@pytest.mark.parametrize(("deck", "n"), [("basic", 6), ("reporter-death-6", 6),
                                         ("death-alien-7", 8)])
@pytest.mark.parametrize("seed", range(4))
def test_a_gesture_corrected_after_the_night_keeps_what_still_holds(deck: str, n: int,
                                                                     seed: int) -> None:
    g = game_of(deck, n, seed)
    rec = g.nights[0]
    c = companion_for(g)
    transcribe(c, rec, last=True)
    entries, result = list(c.entries), c.nights[0].result

    def the_engines() -> bool:
        mine = c.nights[0]
        doc = json.loads(json.dumps(write_round(mine.night)))
        return (adjudicate(doc) == result_document(rec.result)
                and mine.result.journals == rec.result.journals)

    assert the_engines()
    p = c.gesturing[0]
    true = next(e for e in c.entries if isinstance(e, GestureEntry) and e.player == p)
    # the same gesture again: every later entry still holds
    assert c.correct(true) == 0 and c.entries == entries and c.nights[0].result == result
    # "wait, I showed something else": later entries are kept up to the first that
    # no longer holds; the night is then resolved again from there
    wrong = _a_wrong_gesture(c, p, true)
    dropped = c.correct(wrong)
    assert c.gestures[p] == wrong and len(c.entries) == len(entries) - dropped
    assert c.entries[:entries.index(true)] == entries[:entries.index(true)]
    # and back: what was dropped is entered again, the night is the engine's again
    c.correct(true)
    if c.stage is Stage.WITHDRAWAL:
        for q, w in rec.night.withdrawals.items():
            if q not in c.withdrawals:
                c.enter(WithdrawalEntry(q, w))
        c.enter(WithdrawalsDone())
    calls(c, rec)
    assert the_engines()


@pytest.mark.parametrize(("deck", "n"), [("basic", 6), ("death-alien-7", 8)])
@pytest.mark.parametrize("seed", range(4))
def test_a_withdrawal_corrected_after_the_calls_keeps_what_still_holds(deck: str, n: int,
                                                                        seed: int) -> None:
    """"Bia did not flee", noticed at a call or once the night is resolved: the Mayor
    enters her withdrawal again instead of undoing every call since the end of Phase 3.
    The withdrawals are replaced, the calls after them entered again while they hold."""
    g = game_of(deck, n, seed)
    rec = g.nights[0]
    c = companion_for(g)
    transcribe(c, rec, last=True)
    entries, result = list(c.entries), c.nights[0].result
    p = next(q for q in c.gesturing if q != c.death)
    true = rec.night.withdrawals.get(p, False)
    # the same withdrawal again changes nothing
    assert c.correct(WithdrawalEntry(p, true)) == 0 and c.nights[0].result == result
    # the other way: the calls after Phase 3 are kept up to the first that no longer holds
    wrong: Any = true is False
    dropped = c.correct(WithdrawalEntry(p, wrong))
    assert c.withdrawals.get(p, False) == wrong
    assert sum(isinstance(e, WithdrawalsDone) for e in c.entries) == 1
    assert len(c.entries) == len(entries) - dropped - (true is not False) + (wrong is not False)
    # and back: the night is the engine's again, every call entered as before
    c.correct(WithdrawalEntry(p, true))
    calls(c, rec)
    mine = c.nights[0]
    assert adjudicate(json.loads(json.dumps(write_round(mine.night)))) == result_document(
        rec.result)
    assert mine.result.journals == rec.result.journals


@pytest.mark.parametrize("seed", range(8))
def test_a_withdrawal_corrected_on_a_later_night_leaves_the_earlier_nights(seed: int) -> None:
    """Only tonight's withdrawal of that player gives way: the same player's withdrawal
    of an earlier night is kept (it was dropped with it)."""
    g = game_of("basic", 6, seed)
    if len(g.nights) < 2 or not g.nights[0].night.withdrawals:
        pytest.skip("no withdrawal on the first of two nights")
    c = companion_for(g)
    transcribe(c, g.nights[0], last=False)
    night_1 = list(c.entries)
    transcribe(c, g.nights[1], last=len(g.nights) == 2)
    if c.stage is Stage.DRAFT:
        c.undo()  # back to the end of night 2
    p = next(q for q in g.nights[0].night.withdrawals if q in c.gesturing)
    c.correct(WithdrawalEntry(p, g.nights[1].night.withdrawals.get(p, False) is False))
    assert c.entries[:len(night_1)] == night_1
    assert c.nights[0].result == companion_for(g).replayed(c.setup, night_1).nights[0].result


def test_a_withdrawal_is_entered_while_phase_3_is_open_and_refused_before() -> None:
    c = basic_table()
    to_reveal(c)
    with pytest.raises(EntryError):  # the reveal is not over: nothing to correct
        c.correct(WithdrawalEntry("Ana", True))
    for p in c.gesturing:
        c.enter(GestureEntry(p, Role.PRIEST) if p in ("Ana", "Bia") else
                GestureEntry(p, Role.VAMPIRE, (c.neighbours(p)[0],)))
    c.enter(RevealDone())
    assert c.correct(WithdrawalEntry("Ana", True)) == 0 and c.withdrawals["Ana"] is True


def test_a_correction_refused_changes_nothing() -> None:
    c = basic_table()
    with pytest.raises(EntryError):
        c.correct(GestureEntry("Ana", Role.VAMPIRE, ("Bia",)))  # nothing entered yet
    to_reveal(c)
    c.enter(GestureEntry("Ana", Role.VAMPIRE, ("Bia",)))
    before = list(c.entries)
    with pytest.raises(EntryError):
        c.correct(GestureEntry("Ana", Role.VAMPIRE, ("Ana",)))  # not at oneself
    assert c.entries == before and c.gestures["Ana"].targets == ("Bia",)


def test_undo_the_last_night_puts_the_journals_back() -> None:
    g = game_of("basic", 6, 3)
    c = companion_for(g)
    before = [dict(j) for j in c.journals]
    transcribe(c, g.nights[0], last=False)
    after_one = [dict(j) for j in c.journals]
    assert c.stage is Stage.DRAFT and c.number == 2 and c.active == "Bia"
    assert c.undo_night() == 1
    assert c.journals == before and c.stage is Stage.DRAFT and c.number == 1
    transcribe(c, g.nights[0], last=False)
    assert c.journals == after_one
    c.enter(Drafted())  # night 2 under way: undoing the last night drops it too
    assert c.undo_night() == 1 and c.number == 1 and not c.nights


def test_entries_and_the_table_round_trip_through_json() -> None:
    g = game_of("reporter-creature-6", 6, 1)
    c = companion_for(g)
    for k, rec in enumerate(g.nights):
        transcribe(c, rec, last=k == len(g.nights) - 1)
    for e in c.entries:
        assert entry_from_json(json.loads(json.dumps(entry_to_json(e)))) == e
    again = Companion.from_json(json.loads(json.dumps(c.to_json())))
    assert again.winners == c.winners and again.journals == c.journals


def test_bad_json_entries_are_refused_by_field() -> None:
    with pytest.raises(EntryError, match="unknown entry"):
        entry_from_json({"type": "dance"})
    with pytest.raises(EntryError, match="unknown role"):
        entry_from_json({"type": "gesture", "player": "Ana", "shows": "dragon"})
    with pytest.raises(EntryError, match="Hunter's arrows"):
        entry_from_json({"type": "withdrawal", "player": "Ana", "withdrawal": [5]})
    with pytest.raises(EntryError, match="must be an object"):
        entry_from_json([1])


def test_setup_errors_are_the_deck_rules() -> None:
    with pytest.raises(DeckError, match="4 to 8 players"):
        TableSetup.of(("Ana", "Bia", "Caio"), preset("basic", 4), {})
    with pytest.raises(DeckError, match="free XP"):
        TableSetup.of(NAMES[:4], preset("basic", 4), {"Ana": Role.DEVIL})
    with pytest.raises(DeckError, match="same name"):
        TableSetup.of(("Ana", "Ana", "Bia", "Caio"), preset("basic", 4), {})


def test_a_record_that_lies_is_caught() -> None:
    g = game_of("basic", 5, 2)
    c = companion_for(g)
    for k, rec in enumerate(g.nights):
        transcribe(c, rec, last=k == len(g.nights) - 1)
    doc = json.loads(json.dumps(write_table_record(c)))
    assert replay_table(doc).ok
    doc["nights"][0]["result"]["players"]["Ana"]["xp"] = 7
    bad = replay_table(doc)
    assert bad.divergence is not None and bad.divergence.night == 1
    doc = json.loads(json.dumps(write_table_record(c)))
    doc["entries"] = doc["entries"][:-3]
    assert not replay_table(doc).ok


def test_the_devil_is_found_at_its_call_and_the_angel_target_turns_over() -> None:
    c = basic_table(6, "angel-alien-6")
    to_reveal(c)
    shown = {"Ana": (Role.ANGEL, ("Bia",)), "Bia": (Role.VAMPIRE, ("Caio",)),
             "Caio": (Role.HUNTER, ("Bia", "Duda")), "Duda": (Role.PRIEST, ()),
             "Enzo": (Role.WEREWOLF, ("Fred",)), "Fred": (Role.PRIEST, ())}
    for p, (r, t) in shown.items():
        c.enter(GestureEntry(p, r, t))
    c.enter(RevealDone())
    c.enter(WithdrawalsDone())
    q = c.question()
    assert q is not None and q.step == "1+" and q.candidates == ("Ana",)
    assert q.asked == ("Bia",)  # the Angel strikes Bia, who may be a Devil
    with pytest.raises(EntryError, match="must turn the card over"):
        c.enter(Call("1+", {"Ana": Card(Role.ANGEL)}))
    c.enter(Call("1+", {"Ana": Card(Role.ANGEL),
                        "Bia": Card(Role.DEVIL, Edition.ADVANCED, Gender.MASCULINE)}))
    assert [str(m) for m in c.narration[0][1]] == ["The Angel (Ana) kills the Devil (Bia)."]
    q = c.question()
    assert q is not None and q.step == "1" and q.chosen == ("Bia",)


MIXED = ("devil:basic:feminine,devil:advanced:masculine,vampire:basic:feminine,"
         "vampire:advanced:masculine,werewolf:basic:feminine,werewolf:basic:masculine,"
         "zombie:advanced:feminine,zombie:advanced:masculine,hunter:basic:feminine,"
         "hunter:advanced:masculine,priest:basic:feminine,priest:advanced:masculine")


@pytest.mark.parametrize("seed", range(8))
def test_a_deck_of_both_editions_asks_for_the_cards_it_cannot_tell(seed: int) -> None:
    """Devils, Vampires, Hunters and Priests in both editions: the calls ask which card,
    and the Priests, never called, are turned over after the last step."""
    g = Game(Settings(players=NAMES[:6], deck=parse_deck(MIXED, 6)), seed)
    play_randomly(g, bot_rng(seed))
    c = companion_for(g)
    asked_end = 0
    for k, rec in enumerate(g.nights):
        before = len(c.entries)
        transcribe(c, rec, last=k == len(g.nights) - 1)
        asked_end += sum(1 for e in c.entries[before:] if isinstance(e, Call) and e.step == "end")
        mine = c.nights[k]
        assert adjudicate(write_round(mine.night)) == result_document(rec.result)
        for p in rec.night.players:  # every edition in the export is the real one
            assert mine.night.cards[p].edition is rec.night.cards[p].edition, p
    assert c.winners == g.winners
    priests = sum(1 for rec in g.nights for card in rec.night.cards.values()
                  if card.role is Role.PRIEST)
    assert priests == 0 or asked_end > 0


SPECIAL_8 = ("creature:basic:feminine,creature:basic:masculine,mummy:basic:masculine,"
             "voodooist:basic:feminine,devil:advanced:feminine,devil:basic:masculine,"
             "vampire:basic:feminine,vampire:advanced:feminine,werewolf:advanced:masculine,"
             "zombie:advanced:feminine,hunter:advanced:feminine")


def custom_game(spec: str, n: int, seed: int) -> tuple[Game, Companion]:
    """A random game of ``n`` players on the deck ``spec`` and a companion at its table."""
    g = Game(Settings(players=NAMES[:n], deck=parse_deck(spec, n)), seed)
    play_randomly(g, bot_rng(seed))
    return g, companion_for(g)


def each_call(g: Game, c: Companion) -> Iterator[tuple[Night, CallQuestion]]:
    """Every night of ``g`` entered in ``c`` as the page enters it: phases 1 to 3, then
    each question of phase 4, for the caller to answer with its ``Call``; each night
    checked against the engine's result."""
    for k, rec in enumerate(g.nights):
        to_resolution(c, rec.night)
        while c.stage is Stage.RESOLUTION:
            q = c.question()
            assert q is not None
            yield rec.night, q
        assert adjudicate(write_round(c.nights[k].night)) == result_document(rec.result)
        if k < len(g.nights) - 1:
            c.enter(NextNight())


def zombie_choices(night: Night, q: CallQuestion) -> dict[str, str]:
    """Each called Zombie's final victim in ``night`` (its Phase-2 target if kept)."""
    return {z: night.zombie_targets.get(z, aimed) for z, (_l, _r, aimed) in q.zombies.items()}


def to_resolution(c: Companion, night: Night) -> None:
    """Phases 1 to 3 of ``night`` entered as the page enters them (no Death named)."""
    c.enter(Drafted(None))
    c.enter(Counted())
    for p in c.gesturing:
        gst = night.gestures.get(p)
        c.enter(GestureEntry(p, night.shown(p), gst.targets if gst else (),
                             gst.kind if gst else None, gst.seeks if gst else None))
    c.enter(RevealDone())
    for p, w in night.withdrawals.items():
        c.enter(WithdrawalEntry(p, w))
    c.enter(WithdrawalsDone())


@pytest.mark.parametrize("seed", [*range(10), 115])
def test_a_card_turned_over_is_not_asked_again_as_another(seed: int) -> None:
    """Stop 23, an 8-player table with both Creatures and a Devil of each edition: a
    Creature's target turned over earlier in the night (at the Devil's call: a basic
    Devil) was asked its card at step 8 among every Devil, the other edition's included,
    and one already turned over by another player. Its gender is asked among the cards
    of the edition it showed that nobody else holds, or not at all when only one is
    left. A Creature proposing to the other Creature (both called at step 8) has its
    target's gender asked: the page enters a holder's card without it, and the night
    needs it. The cards are entered as the page does (role and edition; the gender
    when asked) and every night must give the engine's result."""
    g, c = custom_game(SPECIAL_8, 8, seed)
    for night, q in each_call(g, c):
        for p in q.asked:
            was = c.turned.get(p)
            if was is not None:
                assert q.options[p], p
                assert all(o.edition is was.edition for o in q.options[p]), (p, q.options)
                assert len({o.identity for o in q.options[p]}) > 1, (p, q.options)
            assert night.cards[p] in q.options[p], (p, q.options)
        # as the page enters them: the role and the edition, the gender only when
        # asked (a Creature's target)
        cards = {p: Card(night.cards[p].role, night.cards[p].edition) for p in q.candidates
                 if q.role is not None and night.cards[p].role is q.role}
        cards.update({p: night.cards[p] if q.step == "8" else
                      Card(night.cards[p].role, night.cards[p].edition) for p in q.asked})
        c.enter(Call(q.step, cards, zombie_choices(night, q)))
    assert c.winners == g.winners


BOTH_VAMPIRES = ("angel:basic:neutral,devil:basic:feminine,devil:advanced:masculine,"
                 "vampire:basic:feminine,vampire:advanced:masculine,werewolf:basic:feminine,"
                 "hunter:basic:masculine,priest:basic:feminine,zombie:basic:masculine")


def _both_vampires(shown: dict[str, tuple[Role, tuple[str, ...]]]) -> Companion:
    d = parse_deck(BOTH_VAMPIRES, 6)
    sheet = d.journal_roles
    c = Companion(TableSetup.of(NAMES[:6], d, {p: sheet[i % len(sheet)]
                                               for i, p in enumerate(NAMES[:6])}))
    to_reveal(c)
    for p, (r, t) in shown.items():
        c.enter(GestureEntry(p, r, t))
    c.enter(RevealDone())
    c.enter(WithdrawalsDone())
    return c


def test_two_editions_turned_over_at_one_call_are_asked_once() -> None:
    """Stop 23's gap: a basic and an advanced Vampire turned over at the Vampire's call
    had both holders asked which card they hold; once one is entered the other is the
    other card, so the Mayor asks one (at the Devil's call too, when two players turn
    a Devil over), and the night is the engine's with the card told."""
    c = _both_vampires({"Ana": (Role.PRIEST, ()), "Bia": (Role.VAMPIRE, ("Caio",)),
                        "Caio": (Role.VAMPIRE, ("Duda",)), "Duda": (Role.HUNTER, ("Bia", "Enzo")),
                        "Enzo": (Role.WEREWOLF, ("Fred",)), "Fred": (Role.ZOMBIE, ("Enzo",))})
    q = c.question()
    assert q is not None and q.step == "1"
    # two Devils tapped: the second's card is the other Devil
    basic, advanced = Card(Role.DEVIL, Edition.BASIC), Card(Role.DEVIL, Edition.ADVANCED)
    assert q.followed("Enzo", {"Duda": basic}) == advanced
    assert q.followed("Enzo", {"Duda": advanced}) == basic
    assert q.followed("Enzo", {}) is None  # Duda turned nothing over: Enzo is asked
    c.enter(Call("1", {}))
    q = c.question()
    assert q is not None and q.step == "2" and q.candidates == ("Bia", "Caio")
    vb, va = Card(Role.VAMPIRE, Edition.BASIC), Card(Role.VAMPIRE, Edition.ADVANCED)
    assert q.answers("Bia") == q.answers("Caio") == (vb, va)
    assert q.followed("Caio", {"Bia": va}) == vb
    assert q.followed("Bia", {"Caio": va}) is None  # the first is the one asked
    # the page enters the card told: the night is the engine's
    c.enter(Call("2", {"Bia": va, "Caio": q.followed("Caio", {"Bia": va}) or vb}))
    assert c.turned["Caio"].edition is Edition.BASIC
    while c.stage is Stage.RESOLUTION:
        q = c.question()
        assert q is not None
        c.enter(Call(q.step, {p: q.options[p][0] for p in q.candidates}))
    night = c.nights[-1].night
    assert night.cards["Bia"].edition is Edition.ADVANCED
    assert night.cards["Caio"].edition is Edition.BASIC
    assert adjudicate(write_round(night)) == result_document(c.nights[-1].result)


def test_a_card_turned_over_at_the_angel_s_call_is_not_asked_again() -> None:
    """The Angel's target turns its card over at step 1+ (it may be a Devil): at its
    role's call its edition is known, and the other Vampire's follows from it."""
    c = _both_vampires({"Ana": (Role.ANGEL, ("Bia",)), "Bia": (Role.VAMPIRE, ("Caio",)),
                        "Caio": (Role.VAMPIRE, ("Duda",)), "Duda": (Role.HUNTER, ("Bia", "Enzo")),
                        "Enzo": (Role.WEREWOLF, ("Fred",)), "Fred": (Role.PRIEST, ())})
    q = c.question()
    assert q is not None and q.step == "1+" and q.asked == ("Bia",)
    c.enter(Call("1+", {"Ana": Card(Role.ANGEL),
                        "Bia": Card(Role.VAMPIRE, Edition.ADVANCED, Gender.MASCULINE)}))
    c.enter(Call("1", {}))
    q = c.question()
    assert q is not None and q.step == "2"
    assert q.answers("Bia") == (Card(Role.VAMPIRE, Edition.ADVANCED),)
    assert q.answers("Caio") == (Card(Role.VAMPIRE, Edition.BASIC),)


@pytest.mark.parametrize(("deck", "n"), [(MIXED, 6), (SPECIAL_8, 8)])
@pytest.mark.parametrize("seed", range(8))
def test_the_mayor_enters_only_the_cards_nobody_can_tell(deck: str, n: int, seed: int) -> None:
    """Whole games on decks of both editions (and both Creatures), each call answered as
    the page answers it: a card asked only when it has two answers and no other answer
    at the call tells it; a card told is the real one, and every night is the
    engine's."""
    g, c = custom_game(deck, n, seed)
    told = 0
    for night, q in each_call(g, c):
        turning = [p for p in q.candidates if p not in q.asked and q.role is not None
                   and night.cards[p].role is q.role] + list(q.asked)
        cards: dict[str, Card] = {}
        entered: dict[str, Card] = {}
        for p in turning:
            real = q.answer(p, night.cards[p])
            assert real in q.answers(p), (p, q)
            by = q.followed(p, entered)
            if by is not None:
                assert by == real, (p, q)
                told += 1
            elif len(q.answers(p)) > 1:
                entered[p] = real
            cards[p] = real
        c.enter(Call(q.step, cards, zombie_choices(night, q)))
    assert c.winners == g.winners


def _other_answers(q: CallQuestion, cards: dict[str, Card]) -> Iterator[dict[str, Card]]:
    """Cards a Mayor could have tapped instead of ``cards`` at the call ``q``: another
    card (edition or gender) for a player asked, or at the Devil's or the Angel's call
    a player tapped who did not turn it over, or not tapped who did."""
    for p, card in cards.items():
        for other in q.answers(p):
            if other != card:
                yield {**cards, p: other}
    if q.role in (Role.DEVIL, Role.ANGEL):
        for p in q.candidates:
            if p in cards:
                yield {x: c for x, c in cards.items() if x != p}
            elif q.answers(p):
                yield {**cards, p: q.answers(p)[0]}


@pytest.mark.parametrize(("deck", "n"), [(MIXED, 6), (SPECIAL_8, 8)])
@pytest.mark.parametrize("seed", range(6))
def test_a_card_corrected_at_a_call_keeps_what_still_holds(deck: str, n: int,
                                                           seed: int) -> None:
    """"I tapped the wrong Vampire" (or the wrong player at the Devil's call), noticed
    calls later or once the night is resolved: the Mayor enters that call again; the
    calls before it are untouched, those after it entered again while they hold (not
    thrown away as an undo back to it did), and back again the night is the engine's."""
    g, c = custom_game(deck, n, seed)
    rec = g.nights[0]
    to_resolution(c, rec.night)
    calls(c, rec)
    entries, result = list(c.entries), c.nights[0].result
    corrected = 0
    for i, e in enumerate(entries):
        if not isinstance(e, Call):
            continue
        q = c.at(1, e.step).question()
        assert q is not None and q.step == e.step
        assert c.correct(e) == 0 and c.entries == entries  # the same answer: all holds
        for wrong in _other_answers(q, dict(e.cards)):
            try:
                dropped = c.correct(Call(e.step, wrong, dict(e.zombies)))
            except EntryError:
                assert c.entries == entries  # refused: nothing changed
                continue
            corrected += 1
            assert c.entries[:i] == entries[:i] and c.entries[i].cards == wrong
            assert len(c.entries) == len(entries) - dropped
            # and back: the dropped calls entered again, the night is the engine's
            assert c.correct(e, night=1) == 0
            calls(c, rec)
            assert c.entries == entries and c.nights[0].result == result
    assert corrected or seed % 2  # most games have a card to tap wrong


def test_a_call_not_made_cannot_be_corrected() -> None:
    g, c = custom_game(MIXED, 6, 0)
    to_resolution(c, g.nights[0].night)
    before = list(c.entries)
    with pytest.raises(EntryError, match="was not called"):
        c.correct(Call("8", {}, {}))
    assert c.entries == before


@pytest.mark.parametrize("seed", range(10))
def test_a_night_corrected_once_the_next_has_entries_keeps_them(seed: int) -> None:
    """A withdrawal of night 1 noticed in the middle of night 2: the Mayor corrects night
    1 alone; night 2's entries are entered again after it, each checked, and kept while
    they hold (an undo back to night 1 threw them all away); the journals are written
    again from night 1 on. Back again, the table is the engine's game."""
    g = game_of("basic", 6, seed)
    if len(g.nights) < 3:
        pytest.skip("the game ended before night 3")
    c = companion_for(g)
    transcribe(c, g.nights[0], last=False)
    transcribe(c, g.nights[1], last=False)
    to_resolution(c, g.nights[2].night)  # night 3, at its calls
    entries = list(c.entries)
    p = next(q for q in c.gesturing if q != c.death)
    true = g.nights[0].night.withdrawals.get(p, False)
    dropped = c.correct(WithdrawalEntry(p, true is False), night=1)
    # night 1's later entries, and the later nights', kept from the first on
    later = entries[entries.index(NextNight()):]
    kept = c.entries[c.entries.index(NextNight()):] if NextNight() in c.entries else []
    assert kept == later[:len(later) - dropped] or dropped > len(later)
    if not c.nights:  # a call of night 1 asks something new (a Zombie now in the night)
        assert c.number == 1 and c.stage is Stage.RESOLUTION and dropped > len(later)
        return
    assert c.nights[0].night.withdrawals.get(p, False) == (true is False)
    for k, tn in enumerate(c.nights[1:], start=1):  # the journals written again
        assert tn.night.journals == dict(zip(c.players, c.nights[k - 1].result.journals,
                                             strict=True))
    if c.nights[0].result.winners:  # night 1 now ends the game: the rest is dropped
        assert c.stage is Stage.OVER and len(c.nights) == 1
    # and back
    c.correct(WithdrawalEntry(p, true), night=1)
    if c.number == 1:  # a call asked again
        calls(c, g.nights[0])
    assert c.nights[0].result == g.nights[0].result or c.nights[0].result.journals == (
        g.nights[0].result.journals)
    if dropped == 0:  # every entry of nights 2 and 3 is there, as entered
        assert len(c.entries) == len(entries)
        assert c.entries[c.entries.index(NextNight()):] == later
        assert [tn.result.journals for tn in c.nights] == [
            r.result.journals for r in g.nights[:2]]


def test_a_correction_of_a_night_not_played_is_refused() -> None:
    c = basic_table()
    with pytest.raises(EntryError, match="no night 2"):
        c.correct(WithdrawalEntry("Ana", True), night=2)


def test_a_zombie_put_out_of_the_night_by_a_correction_keeps_the_calls() -> None:
    """Ana's Werewolf entered as fled on night 1, and noticed on night 2: once she stays,
    her Werewolf kills Bia's Zombie at step 3, and the Zombie's choice entered at step 4
    is moot. The call is kept without it, and night 2's entries with it; the call and
    every entry after it were dropped ("Bia is not a Zombie called now")."""
    c = basic_table(4)
    for e in (Drafted(), Counted(), GestureEntry("Ana", Role.WEREWOLF, ("Bia",)),
              GestureEntry("Bia", Role.ZOMBIE, ("Caio",)), GestureEntry("Caio", Role.PRIEST),
              GestureEntry("Duda", Role.PRIEST), RevealDone(), WithdrawalEntry("Ana", True),
              WithdrawalsDone()):
        c.enter(e)
    while (q := c.question()) is not None:
        c.enter(Call(q.step, {p: Card(q.role, Edition.BASIC) for p in q.chosen if q.role},
                     {z: left for z, (left, _right, _aimed) in q.zombies.items()}))
    assert list(c.calls[-1].zombies) == ["Bia"]
    for e in (NextNight(), Drafted(), Counted()):
        c.enter(e)
    assert c.correct(WithdrawalEntry("Ana", False), night=1) == 0
    assert c.stage is Stage.REVEAL and c.number == 2
    step_4 = next(e for e in c.entries if isinstance(e, Call) and e.step == "4")
    assert dict(step_4.zombies) == {}
    assert c.nights[0].result.fates[1].value != "alive"  # Bia, killed by the Werewolf
    # and back: the Zombie is asked again (its player never chose), nothing invented
    assert c.correct(WithdrawalEntry("Ana", True), night=1) > 0
    q = c.question()
    assert c.number == 1 and q is not None and q.step == "4" and "Bia" in q.zombies


@pytest.mark.parametrize("seed", range(6))
def test_deaths_name_tapped_wrong_is_corrected_alone(seed: int) -> None:
    """The last drafter tapped the wrong name for Death, noticed when Death reveals it at
    the night's end: the name is corrected, every gesture, withdrawal and call kept, and
    the night is resolved again; an undo back to the draft threw the whole night away."""
    g = game_of("reporter-death-6", 6, seed)
    k = next((i for i, r in enumerate(g.nights)
              if any(c.role is Role.DEATH for c in r.night.cards.values())), None)
    if k is None:
        pytest.skip("nobody took Death")
    c = companion_for(g)
    for i in range(k + 1):
        transcribe(c, g.nights[i], last=i == k)
    rec = g.nights[k]
    death = next(p for p in rec.night.players if rec.night.cards[p].role is Role.DEATH)
    right = rec.night.gestures[death].names
    wrong = next(p for p in c.players if p not in (right, death))
    entries = list(c.entries)
    assert c.correct(Drafted(wrong)) == 0
    assert c.death_names == wrong and len(c.entries) == len(entries)
    assert c.nights[k].night.gestures[death].names == wrong
    assert c.correct(Drafted(right)) == 0 and c.entries == entries
    assert c.nights[k].result == rec.result or c.nights[k].result.journals == (
        rec.result.journals)
    with pytest.raises(EntryError):
        c.correct(Drafted(death))  # Death names another player
    assert c.entries == entries


def test_deaths_name_is_not_corrected_when_nobody_took_death() -> None:
    c = basic_table()
    to_reveal(c)
    with pytest.raises(EntryError, match="nobody took Death"):
        c.correct(Drafted("Ana"))


def test_deaths_name_is_written_again_until_the_count() -> None:
    """The last drafter's phone sent Death's name on one tap, and the draft was over for
    good (issue #28): until the count, the name entered again takes the place of the
    first (one draft entry, the same table); from the count on it is refused."""
    c = basic_table(6, "reporter-death-6")
    c.enter(Drafted("Bia"))
    c.enter(Drafted("Caio"))  # at the count: written again
    assert c.death_names == "Caio" and c.death == "Fred"
    assert [e for e in c.entries if isinstance(e, Drafted)] == [Drafted("Caio")]
    assert len(c.entries) == 1
    with pytest.raises(EntryError, match="Death names another player"):
        c.enter(Drafted("Fred"))
    c.enter(Counted())
    with pytest.raises(EntryError, match="not now"):
        c.enter(Drafted("Duda"))
    again = basic_table(6, "reporter-death-6")
    again.enter(Drafted())  # nobody took Death: nothing to write again
    with pytest.raises(EntryError):
        again.enter(Drafted("Bia"))
