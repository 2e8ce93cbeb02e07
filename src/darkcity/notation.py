"""The round notation: ``darkcity-round/1`` in, ``darkcity-result/1`` out.

The public format of one night (``docs/round-notation.md``). The reader is
exact: anything that breaks the spec raises :class:`~darkcity.night.RoundError`
naming the field and the player. The writer is canonical, so a night written
out reads back to the same night.

>>> result = adjudicate({
...     "players": ["Ana", "Bia", "Caio", "Duda"],
...     "cards": {"Ana": {"role": "vampire"}, "Bia": {"role": "werewolf"},
...               "Caio": {"role": "priest"}, "Duda": {"role": "zombie"}},
...     "gestures": {"Ana": {"targets": ["Bia"]}, "Bia": {"targets": ["Caio"]},
...                  "Duda": {"targets": ["Caio"]}}})
>>> result["players"]["Bia"]
{'fate': 'killed', 'marks': [], 'xp': 0}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from darkcity.cast import Edition, Gender, Role, parse_role
from darkcity.i18n import N_, Message, msg
from darkcity.narration import render
from darkcity.night import (
    Card,
    Gesture,
    Night,
    NightResult,
    RoundError,
    Withdrawal,
    resolve,
)
from darkcity.terms import role_term
from darkcity.validation import validate

__all__ = [
    "JSON_ERRORS",
    "RESULT_FORMAT",
    "ROUND_FORMAT",
    "adjudicate",
    "bad_json",
    "loads",
    "read_round",
    "result_document",
    "write_round",
]

ROUND_FORMAT: Final = "darkcity-round/1"
RESULT_FORMAT: Final = "darkcity-result/1"

_CARD_KEYS: Final = frozenset(("role", "edition", "gender"))
_GESTURE_KEYS: Final = frozenset(("shows", "targets", "kind", "seeks", "names"))
_EDITIONS: Final = {e.value: e for e in Edition}
_GENDERS: Final = {g.value: g for g in Gender}
_SEEKS: Final = {"feminine": Gender.FEMININE, "masculine": Gender.MASCULINE}


#: The messages of Python's JSON parser, translated where they are shown.
JSON_ERRORS: Final = (
    N_("Expecting value"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Extra data"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
)


def bad_json(error: json.JSONDecodeError) -> Message:
    """The message for a JSON syntax error (the parser's own words, translated when known)."""
    return msg("bad JSON at line {line}, column {column}: {error}", line=error.lineno,
               column=error.colno, error=Message(error.msg))


def _type(value: object) -> Message:
    if value is None:
        return msg("null")
    if isinstance(value, bool):
        return msg("a boolean")
    if isinstance(value, int | float):
        return msg("a number")
    if isinstance(value, str):
        return msg("the string {value!r}", value=value)
    if isinstance(value, list):
        return msg("a list")
    if isinstance(value, dict):
        return msg("an object")
    return Message(type(value).__name__)


def _object(value: object, where: str, player: str | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RoundError(where, msg("must be an object, not {type}", type=_type(value)), player)
    return value


def _string(value: object, where: str, player: str | None) -> str:
    if not isinstance(value, str):
        raise RoundError(where, msg("must be a string, not {type}", type=_type(value)), player)
    return value


def _role(value: object, where: str, player: str | None) -> Role:
    name = _string(value, where, player)
    role = parse_role(name)
    if role is None:
        raise RoundError(where, msg("unknown role {name!r}", name=name), player)
    return role


def _unknown_keys(entry: dict[str, Any], allowed: frozenset[str], where: str, player: str) -> None:
    for k in entry:
        if k not in allowed:
            raise RoundError(f"{where}.{k}", msg("unknown key {key!r} (allowed: {allowed})",
                                                 key=k, allowed=", ".join(sorted(allowed))),
                             player)


def read_round(doc: object) -> Night:
    """A validated :class:`Night` from a parsed ``darkcity-round/1`` document."""
    night = parse_round(doc)
    validate(night)
    return night


def parse_round(doc: object) -> Night:
    """A :class:`Night` from a document, checking its shape but not the rules."""
    d = _object(doc, "document")
    fmt = d.get("format", ROUND_FORMAT)
    if fmt != ROUND_FORMAT:
        raise RoundError("format", msg("expected {expected!r}, not {given!r}",
                                        expected=ROUND_FORMAT, given=fmt))
    if "players" not in d:
        raise RoundError("players", msg("missing (the seating order, 4 to 8 names)"))
    raw_players = d["players"]
    if not isinstance(raw_players, list):
        raise RoundError("players", msg("must be a list of names, not {type}",
                                         type=_type(raw_players)))
    players = tuple(_string(p, f"players[{i}]", None) for i, p in enumerate(raw_players))
    known = set(players)

    if "cards" not in d:
        raise RoundError("cards", msg("missing (one card per player)"))
    cards: dict[str, Card] = {}
    for p, raw in _object(d["cards"], "cards").items():
        where = f"cards.{p}"
        entry = _object(raw, where, p)
        _unknown_keys(entry, _CARD_KEYS, where, p)
        if "role" not in entry:
            raise RoundError(f"{where}.role", msg("missing"), p)
        role = _role(entry["role"], f"{where}.role", p)
        edition = Edition.BASIC
        if "edition" in entry:
            ed = _string(entry["edition"], f"{where}.edition", p)
            if ed not in _EDITIONS:
                raise RoundError(f"{where}.edition",
                                 msg("must be 'basic' or 'advanced', not {value!r}", value=ed), p)
            edition = _EDITIONS[ed]
        gender = None
        if "gender" in entry:
            gs = _string(entry["gender"], f"{where}.gender", p)
            if gs not in _GENDERS:
                raise RoundError(f"{where}.gender", msg("must be 'feminine', 'masculine' or "
                                                        "'neutral', not {value!r}", value=gs), p)
            gender = _GENDERS[gs]
        cards[p] = Card(role, edition, gender)

    gestures: dict[str, Gesture] = {}
    for p, raw in _object(d.get("gestures", {}), "gestures").items():
        where = f"gestures.{p}"
        entry = _object(raw, where, p)
        _unknown_keys(entry, _GESTURE_KEYS, where, p)
        shows = _role(entry["shows"], f"{where}.shows", p) if "shows" in entry else None
        targets: tuple[str, ...] = ()
        if "targets" in entry:
            raw_t = entry["targets"]
            if not isinstance(raw_t, list):
                raise RoundError(f"{where}.targets", msg("must be a list of players, not "
                                                         "{type}", type=_type(raw_t)), p)
            targets = tuple(_string(t, f"{where}.targets", p) for t in raw_t)
        kind = _role(entry["kind"], f"{where}.kind", p) if "kind" in entry else None
        seeks = None
        if "seeks" in entry:
            s = _string(entry["seeks"], f"{where}.seeks", p)
            if s not in _SEEKS:
                raise RoundError(f"{where}.seeks", msg("must be 'feminine' or 'masculine', "
                                                       "not {value!r}", value=s), p)
            seeks = _SEEKS[s]
        names = _string(entry["names"], f"{where}.names", p) if "names" in entry else None
        gestures[p] = Gesture(targets, shows, kind, seeks, names)

    withdrawals: dict[str, Withdrawal] = {}
    for p, raw in _object(d.get("withdrawals", {}), "withdrawals").items():
        where = f"withdrawals.{p}"
        if isinstance(raw, bool):
            withdrawals[p] = raw
        elif isinstance(raw, list):
            idx: list[int] = []
            for i in raw:
                if not isinstance(i, int) or isinstance(i, bool):
                    raise RoundError(where, msg("attack indices are 0 or 1, not {type}",
                                                type=_type(i)), p)
                idx.append(i)
            withdrawals[p] = tuple(idx)
        else:
            raise RoundError(where, msg("must be true, false or a list of attack indices, "
                                        "not {type}", type=_type(raw)), p)

    zombie_targets: dict[str, str] = {}
    for p, raw in _object(d.get("zombie_targets", {}), "zombie_targets").items():
        zombie_targets[p] = _string(raw, f"zombie_targets.{p}", p)

    journals: dict[str, dict[Role, int]] = {}
    for p, raw in _object(d.get("journals", {}), "journals").items():
        where = f"journals.{p}"
        rows: dict[Role, int] = {}
        for name, xp in _object(raw, where, p).items():
            role = _role(name, f"{where}.{name}", p)
            if not isinstance(xp, int) or isinstance(xp, bool):
                raise RoundError(f"{where}.{name}", msg("XP must be a whole number, not {type}",
                                                        type=_type(xp)), p)
            if role in rows:
                raise RoundError(f"{where}.{name}", msg("the {role} row is given twice",
                                                        role=role_term(role)), p)
            rows[role] = xp
        journals[p] = rows

    journal_roles = None
    if "journal_roles" in d:
        raw_jr = d["journal_roles"]
        if not isinstance(raw_jr, list):
            raise RoundError("journal_roles", msg("must be a list of roles, not {type}",
                                                   type=_type(raw_jr)))
        journal_roles = tuple(_role(r, f"journal_roles[{i}]", None) for i, r in enumerate(raw_jr))

    for where, keys in (("gestures", gestures), ("withdrawals", withdrawals),
                        ("zombie_targets", zombie_targets), ("journals", journals)):
        for p in keys:
            if p not in known:
                raise RoundError(f"{where}.{p}", msg("{player!r} is not one of the players",
                                                     player=p), p)
    return Night(players, cards, gestures, withdrawals, zombie_targets, journals, journal_roles)


def write_round(night: Night) -> dict[str, Any]:
    """The canonical ``darkcity-round/1`` document of ``night``."""
    cards: dict[str, Any] = {}
    for p in night.players:
        c = night.cards[p]
        entry: dict[str, Any] = {"role": c.role.key}
        if c.edition is not Edition.BASIC:
            entry["edition"] = c.edition.value
        if c.gender is not None:
            entry["gender"] = c.gender.value
        cards[p] = entry
    doc: dict[str, Any] = {"format": ROUND_FORMAT, "players": list(night.players),
                           "cards": cards}
    gestures: dict[str, Any] = {}
    for p in night.players:
        g = night.gestures.get(p)
        if g is None:
            continue
        ge: dict[str, Any] = {}
        if g.shows is not None:
            ge["shows"] = g.shows.key
        if g.targets:
            ge["targets"] = list(g.targets)
        if g.kind is not None:
            ge["kind"] = g.kind.key
        if g.seeks is not None:
            ge["seeks"] = g.seeks.value
        if g.names is not None:
            ge["names"] = g.names
        gestures[p] = ge
    if gestures:
        doc["gestures"] = gestures
    withdrawals = {p: (w if isinstance(w, bool) else list(w))
                   for p in night.players if (w := night.withdrawals.get(p)) is not None}
    if withdrawals:
        doc["withdrawals"] = withdrawals
    if night.zombie_targets:
        doc["zombie_targets"] = {p: night.zombie_targets[p] for p in night.players
                                 if p in night.zombie_targets}
    if night.journals:
        doc["journals"] = {p: {r.key: x for r, x in night.journals[p].items()}
                           for p in night.players if p in night.journals}
    if night.journal_roles is not None:
        doc["journal_roles"] = [r.key for r in night.journal_roles]
    return doc


def result_document(
    result: NightResult, translate: Callable[[str], str] = str
) -> dict[str, Any]:
    """The ``darkcity-result/1`` document of an adjudicated night."""
    night = result.night
    players = night.players
    cards = night.cards
    return {
        "format": RESULT_FORMAT,
        "players": {
            p: {"fate": result.fates[i].value, "marks": sorted(m.value for m in result.marks[i]),
                "xp": result.xp[i]}
            for i, p in enumerate(players)
        },
        "journals": {
            p: {r.key: x for r, x in _sheet_order(result.journals[i])}
            for i, p in enumerate(players)
        },
        "winners": [players[i] for i in result.winners],
        "events": [
            _event_document(e.step, e.key, players[e.actor], cards[players[e.actor]].role,
                            players[e.target] if e.target >= 0 else None,
                            render(e, night, translate))
            for e in result.events
        ],
    }


def _sheet_order(journal: Mapping[Role, int]) -> list[tuple[Role, int]]:
    return sorted(journal.items())


def _event_document(step: str, key: str, player: str, role: Role, target: str | None,
                    text: str) -> dict[str, Any]:
    doc: dict[str, Any] = {"step": step, "player": player, "role": role.key, "event": key}
    if target is not None:
        doc["target"] = target
    doc["text"] = text
    return doc


def adjudicate(doc: object, translate: Callable[[str], str] = str) -> dict[str, Any]:
    """Adjudicate a parsed round document; the result as plain data.

    Raises :class:`~darkcity.night.RoundError` if the document breaks the spec.
    """
    return result_document(resolve(read_round(doc)), translate)


def loads(text: str) -> Any:
    """Parse JSON text, turning a syntax error into a :class:`RoundError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RoundError("", bad_json(e)) from None
    except RecursionError:
        raise RoundError("", msg("bad JSON: nested too deeply")) from None

