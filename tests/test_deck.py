"""The box, the deck rules of "Special Cast and Advanced Roles" and the presets
(PT "Elenco especial e papéis avançados — Regras e recomendações"; R-90, R-92,
R-93, R-104, K-2, K-9)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkcity.cast import CAST, MAIN_CAST, Edition, Gender, Role
from darkcity.deck import (
    BOX,
    PRESETS,
    Deck,
    DeckError,
    card_key,
    check_deck,
    deck_warnings,
    journal_sheet,
    main_cast_cards,
    parse_card,
    parse_deck,
    preset,
    presets_for,
    special_card,
)
from darkcity.night import Card

A = Edition.ADVANCED


def test_box_holds_one_card_of_each_gender_per_role_and_edition() -> None:
    """R-90: per edition, one feminine and one masculine card of each main-cast
    role; the two Creatures likewise; the other special cards have one identity."""
    assert len(BOX) == 34 and len(set(BOX)) == 34
    for role in MAIN_CAST:
        for ed in Edition:
            genders = sorted(c.gender.value for c in BOX if c.role is role and c.edition is ed
                             and c.gender)
            assert genders == ["feminine", "masculine"]
    for role in Role:
        if CAST[role].special:
            assert tuple(c.identity for c in special_card(role)) == CAST[role].genders


def test_all_presets_are_legal_for_their_table_sizes() -> None:
    """R-92: every named preset passes the box rules for each size it is made for."""
    for name, (_cards, (lo, hi), _about) in PRESETS.items():
        for n in range(lo, hi + 1):
            deck = preset(name, n)
            check_deck(deck.cards, n)
            assert name in presets_for(n)
    assert set(presets_for(4)) == {"basic", "advanced"}
    assert len(presets_for(6)) > 2 and len(presets_for(8)) > 2


def test_presets_cover_every_role() -> None:
    """Every role of the box is drawn by some preset (the conformance test plays them all)."""
    roles = {c.role for cards, _, _ in PRESETS.values() for c in cards}
    assert roles == set(Role)


def test_basic_deck_is_the_twelve_basic_cards() -> None:
    """PT "Fase 1": "as doze (12) cartas básicas do elenco principal"."""
    deck = preset("basic", 4)
    assert len(deck.cards) == 12
    assert all(c.edition is Edition.BASIC for c in deck.cards)
    assert deck.journal_roles == MAIN_CAST


def test_advanced_cards_at_any_table_size() -> None:
    """K-9: advanced main-cast cards may be used with 4 players."""
    check_deck(main_cast_cards(A), 4)


def test_special_cast_needs_six_players() -> None:
    """R-93: 6-8 players with any special card, Death included."""
    cards = main_cast_cards(without=[Role.ZOMBIE]) + special_card(Role.DEATH)
    with pytest.raises(DeckError, match="6 or more players"):
        check_deck(cards, 5)
    check_deck(cards, 6)


def test_at_most_fourteen_cards_death_included() -> None:
    """R-92 "no máximo catorze (14)", K-2: Death counts."""
    cards = main_cast_cards(A) + special_card(Role.ALIEN) + special_card(Role.DEATH) \
        + special_card(Role.ANGEL)
    with pytest.raises(DeckError, match="at most 14 cards"):
        check_deck(cards, 8)


def test_both_creatures_or_none() -> None:
    """R-92: "as duas cartas da Criatura entrarão na partida"."""
    one = special_card(Role.CREATURE)[:1]
    with pytest.raises(DeckError, match="both Creature cards"):
        check_deck(main_cast_cards(A) + one, 7)


def test_a_priest_out_for_each_mummy_or_voodooist() -> None:
    """R-92: "Uma carta de Sacerdote é retirada para cada Múmia ou Voduísta"."""
    with pytest.raises(DeckError, match="Priest"):
        check_deck(main_cast_cards(A) + special_card(Role.MUMMY), 7)
    fem_priest = Card(Role.PRIEST, A, Gender.FEMININE)
    check_deck(main_cast_cards(A, without=[fem_priest]) + special_card(Role.MUMMY), 7)


def test_mummy_and_voodooist_overwrite_the_priest_row() -> None:
    """R-104: with both in, the Priest row becomes theirs and one more special fits."""
    cards = main_cast_cards(A, without=[Role.PRIEST]) + special_card(Role.MUMMY) \
        + special_card(Role.VOODOOIST)
    sheet = journal_sheet(cards)
    assert Role.PRIEST not in sheet and len(sheet) == 7
    check_deck(cards + special_card(Role.ALIEN), 7)


def test_journal_sheet_at_most_eight_rows() -> None:
    """R-92: "O número máximo de papéis na folha de diário deve ser oito (8)"."""
    cards = main_cast_cards(without=[Role.WEREWOLF, Role.ZOMBIE]) + special_card(Role.ALIEN) \
        + special_card(Role.ANGEL) + special_card(Role.REPORTER)
    with pytest.raises(DeckError, match="journal sheet would have 9 rows"):
        check_deck(cards, 8)


def test_a_card_is_in_the_deck_once() -> None:
    """R-90: one physical card cannot be dealt twice."""
    c = Card(Role.VAMPIRE, Edition.BASIC, Gender.FEMININE)
    with pytest.raises(DeckError, match="twice"):
        check_deck((*main_cast_cards(), c), 6)


def test_enough_cards_for_the_draft() -> None:
    """K-11 (amending R-92's floor), R-91, R-82: three face down, one per player, and
    at least one card in the last drafter's hand; Death aside."""
    cards = main_cast_cards(without=[Role.ZOMBIE]) + special_card(Role.DEATH)  # 10 + Death
    with pytest.raises(DeckError, match="the draft needs 11 cards"):
        check_deck(cards, 8)
    check_deck(cards, 7)


def test_players_plus_two_leaves_the_last_drafter_nothing() -> None:
    """K-11: players + 2 cards (the old floor) is refused; players + 3 is the least."""
    basic = main_cast_cards()
    check_deck(basic[:9], 6)
    with pytest.raises(DeckError, match="needs 9 cards"):
        check_deck(basic[:8], 6)


def test_player_count_bounds() -> None:
    """R-93: 4 to 8 players."""
    for n in (3, 9):
        with pytest.raises(DeckError, match="4 to 8"):
            check_deck(main_cast_cards(), n)


def test_warnings_are_guidance_only() -> None:
    """R-92: two special guardians at once is not recommended, but legal."""
    cards = main_cast_cards(A) + special_card(Role.ANGEL) + special_card(Role.REPORTER)
    check_deck(cards, 8)
    assert any("guardians" in w for w in deck_warnings(cards, 8))
    assert deck_warnings(preset("basic", 6).cards, 6) == ()


def test_parse_card_and_deck() -> None:
    assert parse_card("vampire:advanced:feminine") == Card(Role.VAMPIRE, A, Gender.FEMININE)
    assert parse_card("angel") == Card(Role.ANGEL, Edition.BASIC, Gender.NEUTRAL)
    assert parse_card("lobisomem:masculine").role is Role.WEREWOLF
    for bad, why in (("vampire", "feminine or masculine"), ("dragon", "unknown role"),
                     ("angel:advanced", "no angel:advanced"), ("priest:huge:feminine",
                                                                "neither")):
        with pytest.raises(DeckError, match=why):
            parse_card(bad)
    assert parse_deck("basic", 5) == preset("basic", 5)
    text = ",".join(card_key(c) for c in preset("angel-alien-6", 6).cards)
    assert parse_deck(text, 6).cards == preset("angel-alien-6", 6).cards
    with pytest.raises(DeckError, match="unknown preset"):
        preset("nope", 6)
    with pytest.raises(DeckError, match="for 6 players"):
        preset("angel-alien-6", 7)


def test_deck_properties() -> None:
    deck = preset("reporter-death-6", 6)
    assert deck.death and deck.special
    assert Role.DEATH not in {c.role for c in deck.shuffled}
    assert len(deck.shuffled) == len(deck.cards) - 1
    assert isinstance(Deck.of(deck.cards, 6), Deck)


_MAIN_BOX = [c for c in BOX if not CAST[c.role].special]
_SPECIAL_ROLES = [r for r in Role if CAST[r].special]


@settings(max_examples=80, deadline=None)
@given(st.sets(st.sampled_from(_MAIN_BOX), min_size=6, max_size=12),
       st.sets(st.sampled_from(_SPECIAL_ROLES), max_size=3), st.data())
def test_every_deck_the_rules_accept_can_be_played(
    main: set[Card], special: set[Role], data: st.DataObject
) -> None:
    """Any deck that passes the box rules plays a whole game: enough cards for the
    draft, a sheet row for every role, every night valid (R-92, R-93)."""
    from darkcity.game import Game, play_randomly
    from darkcity.settings import Settings, bot_rng
    from darkcity.validation import validate

    cards = sorted(main | {c for r in special for c in special_card(r)}, key=BOX.index)
    fighters = sum(1 for c in cards if c.role is not Role.DEATH)
    lo = 6 if special else 4
    hi = min(8, fighters - 2)
    if hi < lo:
        return
    n = data.draw(st.integers(lo, hi))
    try:
        deck = Deck.of(cards, n)
    except DeckError:
        return
    seed = data.draw(st.integers(0, 99))
    game = Game(Settings(players=tuple(f"P{i}" for i in range(n)), deck=deck), seed)
    play_randomly(game, bot_rng(seed), max_nights=400)
    assert game.over
    for rec in game.nights:
        validate(rec.night)
