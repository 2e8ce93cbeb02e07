"""Every constraint of the notation spec (``round-notation.md``) is enforced, and every
refusal names the field path and the player concerned (issue #2, "Clear errors").

The English wording of messages may change (i18n); these tests assert the field
path, the player, and at most a key word.

Rulings: R-90/J-6 (one physical card per role, edition and gender), R-92 (at most two
cards of a main-cast role, one of each special role, both Creatures at most), R-93
(special cast at 6-8 players; K-9 advanced main cast at any size), R-20 (a Devil's
disguises), R-116 (only legal aims: neighbours, never self or Death, two different
targets), R-07/R-63/K-1 (withdrawals and the Creature's hold), R-51 (Zombie final
targets), K-10 (journal rows), J-1 (journal_roles when the default exceeds 8 rows).
The deck rules checked at set-up (R-92's Priest removal, 14-card limit, K-2) are not
the adjudicator's (J-6) and are not tested here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from darkcity import RoundError, adjudicate, read_round

Doc = dict[str, Any]


def base() -> Doc:
    """The spec's example night (valid)."""
    return {
        "format": "darkcity-round/1",
        "players": ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"],
        "cards": {
            "Ana": {"role": "devil", "edition": "advanced", "gender": "feminine"},
            "Bia": {"role": "vampire", "gender": "masculine"},
            "Caio": {"role": "hunter", "edition": "advanced"},
            "Duda": {"role": "zombie"},
            "Enzo": {"role": "priest"},
            "Fred": {"role": "angel"},
        },
        "gestures": {
            "Ana": {"shows": "vampire", "targets": ["Fred"]},
            "Bia": {"targets": ["Enzo"]},
            "Caio": {"targets": ["Bia", "Bia"]},
            "Duda": {"targets": ["Enzo"]},
            "Fred": {"targets": ["Ana"]},
        },
        "withdrawals": {"Bia": True},
        "zombie_targets": {"Duda": "Caio"},
        "journals": {"Ana": {"devil": 2, "vampire": 1}},
        "journal_roles": ["devil", "vampire", "werewolf", "zombie", "hunter", "priest",
                          "angel"],
    }


def four() -> Doc:
    """A valid 4-player main-cast night."""
    return {
        "format": "darkcity-round/1",
        "players": ["Ana", "Bia", "Caio", "Duda"],
        "cards": {"Ana": {"role": "vampire"}, "Bia": {"role": "werewolf"},
                  "Caio": {"role": "priest"}, "Duda": {"role": "zombie"}},
        "gestures": {"Ana": {"targets": ["Bia"]}, "Bia": {"targets": ["Caio"]},
                     "Duda": {"targets": ["Caio"]}},
    }


def special() -> Doc:
    """A valid 6-player night with a Creature, a Reporter, a Voodooist, an Alien, Death."""
    return {
        "format": "darkcity-round/1",
        "players": ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"],
        "cards": {"Ana": {"role": "creature", "gender": "feminine"},
                  "Bia": {"role": "hunter", "gender": "masculine"},
                  "Caio": {"role": "reporter"}, "Duda": {"role": "voodooist"},
                  "Enzo": {"role": "alien"}, "Fred": {"role": "death"}},
        "gestures": {"Ana": {"targets": ["Bia"], "seeks": "masculine"},
                     "Bia": {"targets": ["Caio", "Enzo"]},
                     "Caio": {"targets": ["Ana", "Bia"]}, "Duda": {"kind": "creature"},
                     "Enzo": {"kind": "hunter"}, "Fred": {"names": "Bia"}},
        "journal_roles": ["creature", "hunter", "reporter", "voodooist", "alien", "death",
                          "vampire", "zombie"],
    }


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    keys = path.split(".")

    def apply(doc: Doc) -> None:
        d = doc
        for k in keys[:-1]:
            d = d.setdefault(k, {})
        d[keys[-1]] = value
    return apply


def _del(path: str) -> Callable[[Doc], None]:
    keys = path.split(".")

    def apply(doc: Doc) -> None:
        d = doc
        for k in keys[:-1]:
            d = d[k]
        del d[keys[-1]]
    return apply


def _all(*fs: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        for f in fs:
            f(doc)
    return apply


# (id, make the base doc, mutation, expected field, expected player or None)
CASES: list[tuple[str, Callable[[], Doc], Callable[[Doc], None], str, str | None]] = [
    # --- format, players
    ("format-wrong", base, _set("format", "darkcity-round/2"), "format", None),
    ("players-missing", base, _del("players"), "players", None),
    ("players-not-a-list", base, _set("players", "Ana,Bia"), "players", None),
    ("players-three", four, _all(_set("players", ["Ana", "Bia", "Caio"]), _del("cards.Duda"),
                                 _del("gestures.Duda")), "players", None),
    ("players-nine", four, _all(_set("players", [f"P{i}" for i in range(9)]),
                                _set("cards", {f"P{i}": {"role": "priest"} for i in range(9)}),
                                _set("gestures", {})), "players", None),
    ("players-duplicate", four, _set("players", ["Ana", "Bia", "Caio", "Duda", "Ana"]),
     "players", "Ana"),
    ("players-empty-name", four, _set("players", ["Ana", "Bia", "Caio", "Duda", ""]), "players",
     None),
    ("players-name-not-string", four, _set("players", ["Ana", "Bia", "Caio", 4]), "players[3]",
     None),
    # --- cards
    ("cards-missing", four, _del("cards"), "cards", None),
    ("cards-not-object", four, _set("cards", ["vampire"]), "cards", None),
    ("card-missing-for-player", four, _del("cards.Caio"), "cards.Caio", "Caio"),
    ("card-for-stranger", four, _set("cards.Zed", {"role": "priest"}), "cards.Zed", "Zed"),
    ("card-not-object", four, _set("cards.Caio", "priest"), "cards.Caio", "Caio"),
    ("unknown-role", four, _set("cards.Caio.role", "wizard"), "cards.Caio.role", "Caio"),
    ("role-missing", four, _set("cards.Caio", {"gender": "feminine"}), "cards.Caio.role",
     "Caio"),
    ("role-not-string", four, _set("cards.Caio.role", 5), "cards.Caio.role", "Caio"),
    ("card-unknown-key", four, _set("cards.Caio.colour", "red"), "cards.Caio.colour", "Caio"),
    ("edition-bad", four, _set("cards.Caio.edition", "deluxe"), "cards.Caio.edition", "Caio"),
    ("edition-on-special", base, _set("cards.Fred.edition", "advanced"), "cards.Fred.edition",
     "Fred"),
    ("gender-bad", four, _set("cards.Caio.gender", "other"), "cards.Caio.gender", "Caio"),
    ("gender-fixed-wrong", base, _set("cards.Fred.gender", "masculine"), "cards.Fred.gender",
     "Fred"),
    ("gender-neutral-dual", four, _set("cards.Caio.gender", "neutral"), "cards.Caio.gender",
     "Caio"),
    ("three-vampires", four, _all(_set("cards.Bia.role", "vampire"),
                                  _set("cards.Caio.role", "vampire"),
                                  _set("gestures.Caio", {"targets": ["Duda"]})),
     "cards.Caio.role", "Caio"),
    ("two-angels", base, _all(_set("cards.Enzo.role", "angel"),
                              _set("gestures.Enzo", {"targets": ["Ana"]})),
     "cards.Fred.role", "Fred"),
    ("three-creatures", special, _all(
        _set("cards.Bia", {"role": "creature", "gender": "masculine"}),
        _set("cards.Caio", {"role": "creature"}),
        _set("gestures.Bia", {"targets": ["Ana"], "seeks": "feminine"}),
        _set("gestures.Caio", {"targets": ["Bia"], "seeks": "feminine"})),
     "cards.Caio.role", "Caio"),
    ("two-deaths", special, _all(_set("cards.Enzo.role", "death"),
                                 _set("gestures.Enzo", {"names": "Bia"})),
     "cards.Fred.role", "Fred"),
    ("creatures-same-gender", special, _all(
        _set("cards.Bia", {"role": "creature", "gender": "feminine"}),
        _set("gestures.Bia", {"targets": ["Ana"], "seeks": "feminine"}),
        _set("gestures.Caio.targets", ["Ana", "Duda"])),
     "cards.Bia.gender", "Bia"),
    ("same-card-twice", four, _all(_set("cards.Ana.role", "zombie"),
                                   _set("cards.Ana.gender", "feminine"),
                                   _set("cards.Duda.gender", "feminine"),
                                   _set("gestures.Ana", {"targets": ["Bia"]})),
     "cards.Duda.gender", "Duda"),
    ("special-cast-at-five", four, _all(
        _set("players", ["Ana", "Bia", "Caio", "Duda", "Enzo"]),
        _set("cards.Enzo", {"role": "angel"}), _set("gestures.Enzo", {"targets": ["Ana"]})),
     "cards.Enzo.role", "Enzo"),
    ("death-at-five", four, _all(
        _set("players", ["Ana", "Bia", "Caio", "Duda", "Enzo"]),
        _set("cards.Enzo", {"role": "death"}), _set("gestures.Enzo", {"names": "Ana"})),
     "cards.Enzo.role", "Enzo"),
    # --- gestures: shape
    ("gestures-not-object", four, _set("gestures", []), "gestures", None),
    ("gesture-not-object", four, _set("gestures.Ana", "Bia"), "gestures.Ana", "Ana"),
    ("gesture-unknown-key", four, _set("gestures.Ana.aim", "Bia"), "gestures.Ana.aim", "Ana"),
    ("gesture-for-stranger", four, _set("gestures.Zed", {"targets": ["Ana"]}), "gestures.Zed",
     "Zed"),
    ("gesture-missing-for-attacker", four, _del("gestures.Ana"), "gestures.Ana", "Ana"),
    ("targets-not-list", four, _set("gestures.Ana.targets", "Bia"), "gestures.Ana.targets",
     "Ana"),
    ("target-not-string", four, _set("gestures.Ana.targets", [1]), "gestures.Ana.targets",
     "Ana"),
    ("vampire-two-targets", four, _set("gestures.Ana.targets", ["Bia", "Caio"]),
     "gestures.Ana.targets", "Ana"),
    ("vampire-no-target", four, _set("gestures.Ana.targets", []), "gestures.Ana.targets",
     "Ana"),
    ("target-self", four, _set("gestures.Ana.targets", ["Ana"]), "gestures.Ana.targets", "Ana"),
    ("target-stranger", four, _set("gestures.Ana.targets", ["Zed"]), "gestures.Ana.targets",
     "Ana"),
    ("target-death", special, _set("gestures.Bia.targets", ["Caio", "Fred"]),
     "gestures.Bia.targets", "Bia"),
    ("zombie-across-the-table", four, _set("gestures.Duda.targets", ["Bia"]),
     "gestures.Duda.targets", "Duda"),
    ("zombie-two-targets", four, _set("gestures.Duda.targets", ["Caio", "Ana"]),
     "gestures.Duda.targets", "Duda"),
    ("priest-with-targets", four, _set("gestures.Caio", {"targets": ["Ana"]}),
     "gestures.Caio.targets", "Caio"),
    ("hunter-one-target", base, _set("gestures.Caio.targets", ["Bia"]), "gestures.Caio.targets",
     "Caio"),
    ("basic-hunter-doubled", base, _del("cards.Caio.edition"), "gestures.Caio.targets", "Caio"),
    ("reporter-doubled", special, _set("gestures.Caio.targets", ["Ana", "Ana"]),
     "gestures.Caio.targets", "Caio"),
    ("reporter-one-target", special, _set("gestures.Caio.targets", ["Ana"]),
     "gestures.Caio.targets", "Caio"),
    ("creature-across-the-table", special, _set("gestures.Ana.targets", ["Duda"]),
     "gestures.Ana.targets", "Ana"),
    ("creature-no-seeks", special, _del("gestures.Ana.seeks"), "gestures.Ana.seeks", "Ana"),
    ("creature-seeks-neutral", special, _set("gestures.Ana.seeks", "neutral"),
     "gestures.Ana.seeks", "Ana"),
    ("creature-target-gender-missing", special, _del("cards.Bia.gender"), "cards.Bia.gender",
     "Bia"),
    ("seeks-on-non-creature", special, _set("gestures.Bia.seeks", "feminine"),
     "gestures.Bia.seeks", "Bia"),
    ("kind-on-non-kind-role", four, _set("gestures.Ana.kind", "priest"), "gestures.Ana.kind",
     "Ana"),
    ("alien-no-kind", special, _set("gestures.Enzo", {}), "gestures.Enzo.kind", "Enzo"),
    ("alien-names-alien", special, _set("gestures.Enzo.kind", "alien"), "gestures.Enzo.kind",
     "Enzo"),
    ("alien-names-death", special, _set("gestures.Enzo.kind", "death"), "gestures.Enzo.kind",
     "Enzo"),
    ("alien-names-role-out-of-cast", special, _set("gestures.Enzo.kind", "mummy"),
     "gestures.Enzo.kind", "Enzo"),
    ("alien-unknown-kind", special, _set("gestures.Enzo.kind", "dragon"), "gestures.Enzo.kind",
     "Enzo"),
    ("alien-with-targets", special, _set("gestures.Enzo.targets", ["Bia"]),
     "gestures.Enzo.targets", "Enzo"),
    ("voodooist-names-death", special, _set("gestures.Duda.kind", "death"),
     "gestures.Duda.kind", "Duda"),
    ("names-on-non-death", special, _set("gestures.Bia.names", "Caio"), "gestures.Bia.names",
     "Bia"),
    ("death-no-name", special, _set("gestures.Fred", {}), "gestures.Fred.names", "Fred"),
    ("death-names-self", special, _set("gestures.Fred.names", "Fred"), "gestures.Fred.names",
     "Fred"),
    ("death-names-stranger", special, _set("gestures.Fred.names", "Zed"),
     "gestures.Fred.names", "Fred"),
    ("necromancer-wrong-targets", special, _all(
        _set("cards.Enzo", {"role": "necromancer"}),
        _set("gestures.Enzo", {"targets": ["Bia", "Duda"]}),
        _set("journal_roles", ["creature", "hunter", "reporter", "voodooist", "necromancer",
                               "death", "vampire", "zombie"])),
     "gestures.Enzo.targets", "Enzo"),
    # --- shows
    ("shows-on-non-devil", four, _set("gestures.Ana.shows", "werewolf"), "gestures.Ana.shows",
     "Ana"),
    ("devil-without-shows", base, _del("gestures.Ana.shows"), "gestures.Ana.shows", "Ana"),
    ("devil-shows-devil", base, _set("gestures.Ana.shows", "devil"), "gestures.Ana.shows",
     "Ana"),
    ("devil-shows-necromancer", base, _set("gestures.Ana", {"shows": "necromancer"}),
     "gestures.Ana.shows", "Ana"),
    ("devil-shows-creature", base, _set("gestures.Ana.shows", "creature"),
     "gestures.Ana.shows", "Ana"),
    ("devil-shows-death", base, _set("gestures.Ana", {"shows": "death", "names": "Bia"}),
     "gestures.Ana.shows", "Ana"),
    ("devil-shows-role-out-of-cast", base, _set("gestures.Ana", {"shows": "reporter",
                                                                 "targets": ["Bia", "Caio"]}),
     "gestures.Ana.shows", "Ana"),
    ("devil-shows-unknown-role", base, _set("gestures.Ana.shows", "dragon"),
     "gestures.Ana.shows", "Ana"),
    ("devil-as-hunter-doubled", base, _set("gestures.Ana", {"shows": "hunter",
                                                            "targets": ["Bia", "Bia"]}),
     "gestures.Ana.targets", "Ana"),
    ("devil-as-zombie-across", base, _set("gestures.Ana", {"shows": "zombie",
                                                           "targets": ["Duda"]}),
     "gestures.Ana.targets", "Ana"),
    ("devil-as-priest-with-targets", base, _set("gestures.Ana", {"shows": "priest",
                                                                 "targets": ["Bia"]}),
     "gestures.Ana.targets", "Ana"),
    ("devil-as-vampire-no-target", base, _set("gestures.Ana", {"shows": "vampire"}),
     "gestures.Ana.targets", "Ana"),
    # --- withdrawals
    ("withdrawals-not-object", four, _set("withdrawals", ["Ana"]), "withdrawals", None),
    ("withdrawal-stranger", four, _set("withdrawals.Zed", True), "withdrawals.Zed", "Zed"),
    ("withdrawal-not-bool", four, _set("withdrawals.Ana", "yes"), "withdrawals.Ana", "Ana"),
    ("withdrawal-list-non-hunter", four, _set("withdrawals.Ana", [0]), "withdrawals.Ana",
     "Ana"),
    ("withdrawal-index-out-of-range", base, _set("withdrawals.Caio", [2]), "withdrawals.Caio",
     "Caio"),
    ("withdrawal-index-twice", base, _set("withdrawals.Caio", [0, 0]), "withdrawals.Caio",
     "Caio"),
    ("withdrawal-index-not-int", base, _set("withdrawals.Caio", ["0"]), "withdrawals.Caio",
     "Caio"),
    ("withdrawal-index-bool", base, _set("withdrawals.Caio", [True]), "withdrawals.Caio",
     "Caio"),
    ("devil-as-hunter-partial", base, _all(_set("gestures.Ana", {"shows": "hunter",
                                                                 "targets": ["Bia", "Fred"]}),
                                           _set("withdrawals.Ana", [0])),
     "withdrawals.Ana", "Ana"),
    ("death-withdraws", special, _set("withdrawals.Fred", True), "withdrawals.Fred", "Fred"),
    ("creature-target-withdraws", special, _set("withdrawals.Bia", True), "withdrawals.Bia",
     "Bia"),
    ("creature-target-withdraws-both-arrows", special, _set("withdrawals.Bia", [0, 1]),
     "withdrawals.Bia", "Bia"),
    ("creature-hold-binds-though-creature-withdraws", special,
     _set("withdrawals", {"Ana": True, "Bia": True}), "withdrawals.Bia", "Bia"),
    # --- zombie_targets
    ("zombie-targets-not-object", four, _set("zombie_targets", ["Caio"]), "zombie_targets",
     None),
    ("zombie-target-non-zombie", four, _set("zombie_targets.Ana", "Bia"), "zombie_targets.Ana",
     "Ana"),
    ("zombie-target-devil-as-zombie", base, _all(
        _set("gestures.Ana", {"shows": "zombie", "targets": ["Bia"]}),
        _set("zombie_targets.Ana", "Fred")), "zombie_targets.Ana", "Ana"),
    ("zombie-target-across", four, _set("zombie_targets.Duda", "Bia"), "zombie_targets.Duda",
     "Duda"),
    ("zombie-target-stranger", four, _set("zombie_targets.Zed", "Ana"), "zombie_targets.Zed",
     "Zed"),
    ("zombie-target-not-string", four, _set("zombie_targets.Duda", ["Ana"]),
     "zombie_targets.Duda", "Duda"),
    # --- journals, journal_roles
    ("journals-not-object", four, _set("journals", []), "journals", None),
    ("journal-not-object", four, _set("journals.Ana", 3), "journals.Ana", "Ana"),
    ("journal-stranger", four, _set("journals.Zed", {"vampire": 1}), "journals.Zed", "Zed"),
    ("journal-unknown-role", four, _set("journals.Ana", {"wizard": 1}), "journals.Ana.wizard",
     "Ana"),
    ("journal-row-twice-via-alias", four, _set("journals.Ana", {"devil": 1, "Demon": 2}),
     "journals.Ana.Demon", "Ana"),
    ("journal-xp-not-int", four, _set("journals.Ana", {"vampire": "2"}),
     "journals.Ana.vampire", "Ana"),
    ("journal-xp-bool", four, _set("journals.Ana", {"vampire": True}), "journals.Ana.vampire",
     "Ana"),
    ("journal-xp-negative", four, _set("journals.Ana", {"vampire": -1}),
     "journals.Ana.vampire", "Ana"),
    ("journal-row-off-sheet", base, _set("journals.Bia", {"mummy": 1}), "journals.Bia.mummy",
     "Bia"),
    ("journal-roles-not-list", base, _set("journal_roles", "devil"), "journal_roles", None),
    ("journal-roles-five", base, _set("journal_roles", ["devil", "vampire", "zombie", "hunter",
                                                        "priest", "angel"][1:]),
     "journal_roles", None),
    ("journal-roles-nine", base, _set("journal_roles", [
        "devil", "vampire", "werewolf", "zombie", "hunter", "priest", "angel", "alien",
        "mummy"]), "journal_roles", None),
    ("journal-roles-duplicate", base, _set("journal_roles", [
        "devil", "vampire", "zombie", "hunter", "priest", "angel", "angel"]),
     "journal_roles", None),
    ("journal-roles-unknown", base, _set("journal_roles", [
        "devil", "vampire", "zombie", "hunter", "priest", "angel", "wizard"]),
     "journal_roles[6]", None),
    ("journal-roles-missing-card-role", base, _set("journal_roles", [
        "devil", "vampire", "werewolf", "zombie", "hunter", "priest"]),
     "cards.Fred.role", "Fred"),
    ("default-sheet-too-long", special, _del("journal_roles"), "journal_roles", None),
]


@pytest.mark.parametrize(("make", "mutate", "field", "player"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refusal_names_field_and_player(make: Callable[[], Doc], mutate: Callable[[Doc], None],
                                        field: str, player: str | None) -> None:
    """Spec: "a document that breaks this page is refused with a message that names the
    field and the player concerned"."""
    doc = make()
    read_round(copy.deepcopy(doc))  # the unmutated document is valid
    mutate(doc)
    with pytest.raises(RoundError) as info:
        read_round(doc)
    e = info.value
    assert e.field == field, str(e)
    assert e.player == player, str(e)
    text = str(e)
    assert "\n" not in text
    assert field in text
    if player is not None:
        assert player in text


def test_attack_index_list_is_for_hunters_only_even_when_empty() -> None:
    """Spec ``withdrawals``: ``true`` for a player who flees; "A Hunter (the real card)
    may instead give a list of attack indices"; R-07."""
    doc = four()
    doc["withdrawals"] = {"Ana": []}
    with pytest.raises(RoundError) as e:
        read_round(doc)
    assert e.value.field == "withdrawals.Ana"


def test_shows_naming_the_players_own_role_is_accepted() -> None:
    """Spec ``gestures.shows``: "the role whose gesture the player makes; defaults to the
    card's role. Only a Devil may show another role"; R-08 (shown = real role for all but
    the Devil)."""
    doc = four()
    doc["gestures"]["Ana"]["shows"] = "vampire"
    doc["gestures"]["Caio"] = {"shows": "priest"}
    assert adjudicate(doc) == adjudicate(four())


def test_every_refusal_id_is_unique() -> None:
    assert len({c[0] for c in CASES}) == len(CASES)


def test_adjudicate_refuses_what_read_round_refuses() -> None:
    doc = four()
    doc["cards"]["Caio"]["role"] = "wizard"
    with pytest.raises(RoundError):
        adjudicate(doc)


def test_document_must_be_an_object() -> None:
    """Spec: a round document is a JSON object."""
    bads: tuple[object, ...] = ([], "round", 3, None)
    for bad in bads:
        with pytest.raises(RoundError) as e:
            read_round(bad)
        assert e.value.player is None


# --- what the spec allows ------------------------------------------------------------

ACCEPTED: list[tuple[str, Callable[[], Doc], Callable[[Doc], None]]] = [
    ("format-omitted", four, _del("format")),
    ("unknown-top-level-keys-ignored", four, _all(_set("source", ["R-01"]),
                                                 _set("expect", {"anything": 1}))),
    ("advanced-main-cast-at-four-K-9", four, _all(
        _set("cards.Ana.edition", "advanced"), _set("cards.Bia.edition", "advanced"),
        _set("cards.Caio.edition", "advanced"), _set("cards.Duda.edition", "advanced"))),
    ("fixed-gender-may-be-given", base, _set("cards.Fred.gender", "neutral")),
    ("aliases-accepted", four, _all(_set("cards.Caio.role", "sacerdote"),
                                    _set("cards.Bia.role", "Lobisomem"))),
    ("passive-role-empty-gesture", four, _set("gestures.Caio", {})),
    ("passive-role-empty-targets", four, _set("gestures.Caio", {"targets": []})),
    ("withdrawal-false", four, _set("withdrawals", {"Ana": False})),
    ("hunter-withdraws-one-arrow", base, _set("withdrawals.Caio", [1])),
    ("hunter-withdraws-both-arrows-list", base, _set("withdrawals.Caio", [0, 1])),
    ("priest-flees", four, _set("withdrawals.Caio", True)),
    ("held-hunter-partial-withdrawal-R-63", special, _set("withdrawals.Bia", [0])),
    ("creature-target-reporter-aiming-at-it-K-1", special, _all(
        _set("players", ["Ana", "Caio", "Bia", "Duda", "Enzo", "Fred"]),
        _set("gestures.Ana.targets", ["Caio"]), _set("withdrawals.Caio", True))),
    ("creature-target-voodooist-naming-creature-K-1", special, _all(
        _set("players", ["Ana", "Duda", "Bia", "Caio", "Enzo", "Fred"]),
        _set("gestures.Ana.targets", ["Duda"]), _set("gestures.Ana.seeks", "feminine"),
        _set("withdrawals.Duda", True))),
    ("creature-target-priest-immune-R-62", special, _all(
        _set("cards.Bia", {"role": "priest", "gender": "masculine"}), _del("gestures.Bia"),
        _set("withdrawals.Bia", True), _set("gestures.Enzo.kind", "priest"),
        _set("journal_roles", ["creature", "priest", "reporter", "voodooist", "alien",
                               "death", "vampire", "zombie"]))),
    ("devil-shows-role-in-journal-roles", base, _all(
        _set("journal_roles", ["devil", "vampire", "zombie", "hunter", "priest", "angel",
                               "reporter"]),
        _set("gestures.Ana", {"shows": "reporter", "targets": ["Bia", "Caio"]}))),
    ("devil-shows-alien-via-journals", base, _all(
        _del("journal_roles"), _set("journals.Bia", {"alien": 1}),
        _set("gestures.Ana", {"shows": "alien", "kind": "priest"}))),
    ("alien-names-devil-or-angel-R-44", special, _set("gestures.Enzo.kind", "devil")),
    ("voodooist-names-voodooist", special, _set("gestures.Duda.kind", "voodooist")),
    ("zombie-target-same-as-phase-2", four, _set("zombie_targets.Duda", "Caio")),
    ("necromancer-targets-omitted-or-both", special, _all(
        _set("cards.Enzo", {"role": "necromancer"}),
        _set("gestures.Enzo", {"targets": ["Duda", "Ana"]}),
        _set("journal_roles", ["creature", "hunter", "reporter", "voodooist", "necromancer",
                               "death", "vampire", "zombie"]))),
    ("journal-zero-xp", four, _set("journals.Ana", {"vampire": 0})),
]


@pytest.mark.parametrize(("make", "mutate"), [c[1:] for c in ACCEPTED],
                         ids=[c[0] for c in ACCEPTED])
def test_valid_variants_are_accepted(make: Callable[[], Doc],
                                     mutate: Callable[[Doc], None]) -> None:
    """Spec: these documents are valid and adjudicate without error."""
    doc = make()
    mutate(doc)
    result = adjudicate(doc)
    assert set(result["players"]) == set(doc["players"])


def test_a_player_held_by_either_of_two_creatures_cannot_withdraw() -> None:
    """R-63, R-62, K-1: both Creatures propose to the Reporter, who aims his camera at one
    of them: immune to that one's proposal, he is still held by the other."""
    from darkcity import RoundError, adjudicate

    doc: Doc = {
        "players": ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"],
        "cards": {"Ana": {"role": "creature", "gender": "feminine"},
                  "Bia": {"role": "reporter"},
                  "Caio": {"role": "creature", "gender": "masculine"},
                  "Duda": {"role": "vampire"}, "Enzo": {"role": "werewolf"},
                  "Fred": {"role": "hunter"}},
        "gestures": {"Ana": {"targets": ["Bia"], "seeks": "masculine"},
                     "Bia": {"targets": ["Ana", "Duda"]},
                     "Caio": {"targets": ["Bia"], "seeks": "masculine"},
                     "Duda": {"targets": ["Enzo"]}, "Enzo": {"targets": ["Duda"]},
                     "Fred": {"targets": ["Duda", "Enzo"]}},
        "withdrawals": {"Bia": True},
    }
    with pytest.raises(RoundError) as err:
        adjudicate(doc)
    assert err.value.field == "withdrawals.Bia"
    assert "Caio" in str(err.value)
    doc["gestures"]["Bia"]["targets"] = ["Ana", "Caio"]  # immune to both: free to flee
    assert adjudicate(doc)["players"]["Bia"]["fate"] == "withdrawn"


def _two_suitors(photo: list[str]) -> Doc:
    return {
        "players": ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"],
        "cards": {"Ana": {"role": "creature", "gender": "feminine"}, "Bia": {"role": "reporter"},
                  "Caio": {"role": "creature", "gender": "masculine"},
                  "Duda": {"role": "priest"}, "Enzo": {"role": "priest"},
                  "Fred": {"role": "mummy"}},
        "gestures": {"Ana": {"targets": ["Bia"], "seeks": "masculine"},
                     "Caio": {"targets": ["Bia"], "seeks": "masculine"},
                     "Bia": {"targets": photo}},
        "withdrawals": {"Bia": True},
        "journal_roles": ["creature", "reporter", "priest", "mummy", "devil", "vampire",
                          "werewolf", "zombie"],
    }


def test_player_held_by_two_creatures_needs_immunity_to_both() -> None:
    """R-63 (a non-immune target may not withdraw), R-62/K-1 (a Reporter aiming at that
    Creature is immune to it), docs D-13: the Reporter photographs only one suitor."""
    with pytest.raises(RoundError) as e:
        read_round(_two_suitors(["Ana", "Duda"]))
    assert (e.value.field, e.value.player) == ("withdrawals.Bia", "Bia")
    assert adjudicate(_two_suitors(["Ana", "Caio"]))["players"]["Bia"]["fate"] == "withdrawn"
