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
from collections.abc import Callable
from typing import Any, Final

from darkcity.cast import Edition, Gender, Role, parse_role
from darkcity.i18n import N_, Message, msg
from darkcity.narration import render_all
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
    "gesture_document",
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
    """A :class:`Night` from a document, checking its shape but not the rules.

    Written for the bulk path: the usual case (canonical role names, the
    expected types) costs a dictionary lookup per field; anything else goes
    through the helpers above, which name the field and the player.
    """
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
    for i, name in enumerate(raw_players):
        if type(name) is not str:
            _string(name, f"players[{i}]", None)
    players = tuple(raw_players)
    known = set(players)
    roles = _ROLE_BY_KEY

    if "cards" not in d:
        raise RoundError("cards", msg("missing (one card per player)"))
    cards: dict[str, Card] = {}
    for p, entry in _object(d["cards"], "cards").items():
        if type(entry) is not dict:
            _object(entry, f"cards.{p}", p)
        for k in entry:
            if k not in _CARD_KEYS:
                _unknown_keys(entry, _CARD_KEYS, f"cards.{p}", p)
        if "role" not in entry:
            raise RoundError(f"cards.{p}.role", msg("missing"), p)
        raw = entry["role"]
        role = roles.get(raw) if type(raw) is str else None
        if role is None:
            role = _role(raw, f"cards.{p}.role", p)
        edition = Edition.BASIC
        if "edition" in entry:
            raw = entry["edition"]
            ed = _EDITIONS.get(raw) if type(raw) is str else None
            if ed is None:
                ed_s = _string(raw, f"cards.{p}.edition", p)
                raise RoundError(f"cards.{p}.edition",
                                 msg("must be 'basic' or 'advanced', not {value!r}", value=ed_s),
                                 p)
            edition = ed
        gender = None
        if "gender" in entry:
            raw = entry["gender"]
            gender = _GENDERS.get(raw) if type(raw) is str else None
            if gender is None:
                gs = _string(raw, f"cards.{p}.gender", p)
                raise RoundError(f"cards.{p}.gender", msg("must be 'feminine', 'masculine' or "
                                                          "'neutral', not {value!r}", value=gs), p)
        cards[p] = _new_card((role, edition, gender))

    gestures: dict[str, Gesture] = {}
    for p, entry in _object(d.get("gestures", {}), "gestures").items():
        if type(entry) is not dict:
            _object(entry, f"gestures.{p}", p)
        for k in entry:
            if k not in _GESTURE_KEYS:
                _unknown_keys(entry, _GESTURE_KEYS, f"gestures.{p}", p)
        shows = kind = seeks = names = None
        targets: tuple[str, ...] = ()
        if "targets" in entry:
            raw_t = entry["targets"]
            if not isinstance(raw_t, list):
                raise RoundError(f"gestures.{p}.targets", msg("must be a list of players, not "
                                                              "{type}", type=_type(raw_t)), p)
            for t in raw_t:
                if type(t) is not str:
                    _string(t, f"gestures.{p}.targets", p)
            targets = tuple(raw_t)
        if "shows" in entry:
            raw = entry["shows"]
            shows = roles.get(raw) if type(raw) is str else None
            if shows is None:
                shows = _role(raw, f"gestures.{p}.shows", p)
        if "kind" in entry:
            raw = entry["kind"]
            kind = roles.get(raw) if type(raw) is str else None
            if kind is None:
                kind = _role(raw, f"gestures.{p}.kind", p)
        if "seeks" in entry:
            raw = entry["seeks"]
            seeks = _SEEKS.get(raw) if type(raw) is str else None
            if seeks is None:
                sk = _string(raw, f"gestures.{p}.seeks", p)
                raise RoundError(f"gestures.{p}.seeks", msg("must be 'feminine' or 'masculine', "
                                                            "not {value!r}", value=sk), p)
        if "names" in entry:
            names = _string(entry["names"], f"gestures.{p}.names", p)
        gestures[p] = _new_gesture((targets, shows, kind, seeks, names))

    withdrawals: dict[str, Withdrawal] = {}
    for p, raw in _object(d.get("withdrawals", {}), "withdrawals").items():
        if raw is True or raw is False:
            withdrawals[p] = raw
        elif isinstance(raw, list):
            for arrow in raw:  # (a name of its own: compiled, ``i`` is typed int above)
                if type(arrow) is not int:  # exactly int: a bool is not an index
                    raise RoundError(f"withdrawals.{p}", msg("attack indices are 0 or 1, not "
                                                             "{type}", type=_type(arrow)), p)
            withdrawals[p] = tuple(raw)
        else:
            raise RoundError(f"withdrawals.{p}", msg("must be true, false or a list of attack "
                                                     "indices, not {type}", type=_type(raw)), p)

    zombie_targets: dict[str, str] = {}
    for p, raw in _object(d.get("zombie_targets", {}), "zombie_targets").items():
        zombie_targets[p] = raw if type(raw) is str else _string(
            raw, f"zombie_targets.{p}", p)

    journals: dict[str, dict[Role, int]] = {}
    for p, raw in _object(d.get("journals", {}), "journals").items():
        if type(raw) is not dict:
            _object(raw, f"journals.{p}", p)
        rows: dict[Role, int] = {}
        for name, xp in raw.items():
            role = roles.get(name)
            if role is None:
                role = _role(name, f"journals.{p}.{name}", p)
            if type(xp) is not int:
                raise RoundError(f"journals.{p}.{name}", msg("XP must be a whole number, not "
                                                             "{type}", type=_type(xp)), p)
            if role in rows:
                raise RoundError(f"journals.{p}.{name}", msg("the {role} row is given twice",
                                                             role=role_term(role)), p)
            rows[role] = xp
        journals[p] = rows

    journal_roles = None
    if "journal_roles" in d:
        raw_jr = d["journal_roles"]
        if not isinstance(raw_jr, list):
            raise RoundError("journal_roles", msg("must be a list of roles, not {type}",
                                                   type=_type(raw_jr)))
        jr: list[Role] = []
        for i, r in enumerate(raw_jr):
            role = roles.get(r) if type(r) is str else None
            jr.append(role if role is not None else _role(r, f"journal_roles[{i}]", None))
        journal_roles = tuple(jr)

    for where, keys in (("gestures", gestures), ("withdrawals", withdrawals),
                        ("zombie_targets", zombie_targets), ("journals", journals)):
        for p in keys:
            if p not in known:
                raise RoundError(f"{where}.{p}", msg("{player!r} is not one of the players",
                                                     player=p), p)
    return Night(players, cards, gestures, withdrawals, zombie_targets, journals, journal_roles)


def _new_card(fields: tuple[Role, Edition, Gender | None]) -> Card:
    # tuple.__new__ directly: a named tuple's own __new__ is a Python function,
    # a fifth of the parser's time when it runs compiled
    return tuple.__new__(Card, fields)


def _new_gesture(fields: tuple[tuple[str, ...], Role | None, Role | None, Gender | None,
                              str | None]) -> Gesture:
    return tuple.__new__(Gesture, fields)


#: Canonical role names, looked up before the lenient :func:`parse_role`.
_ROLE_BY_KEY: Final = {r.key: r for r in Role}


def gesture_document(g: Gesture) -> dict[str, Any]:
    """A gesture as the notation writes it (spec: ``gestures``): only the fields given."""
    doc: dict[str, Any] = {}
    if g.shows is not None:
        doc["shows"] = g.shows.key
    if g.targets:
        doc["targets"] = list(g.targets)
    if g.kind is not None:
        doc["kind"] = g.kind.key
    if g.seeks is not None:
        doc["seeks"] = g.seeks.value
    if g.names is not None:
        doc["names"] = g.names
    return doc


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
        gestures[p] = gesture_document(g)
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
    result: NightResult, translate: Callable[[str], str] | None = None
) -> dict[str, Any]:
    """The ``darkcity-result/1`` document of an adjudicated night.

    ``translate`` is a :class:`~darkcity.i18n.Translator` for the events'
    text (English by default). Written for speed: it is on the bulk path.
    """
    night = result.night
    players = night.players
    cards = night.cards
    keys = [_ROLE_KEYS[cards[p].role] for p in players]
    fates, marks, xp, journals = result.fates, result.marks, result.xp, result.journals
    pdoc: dict[str, Any] = {}
    jdoc: dict[str, Any] = {}
    for i, p in enumerate(players):
        m = marks[i]
        pdoc[p] = {"fate": fates[i]._value_,
                   "marks": sorted([x._value_ for x in m]) if m else [], "xp": xp[i]}
        j = journals[i]
        jdoc[p] = {_ROLE_KEYS[r]: j[r] for r in sorted(j)} if j else {}
    events = result.events
    texts = render_all(events, night, translate)
    edoc: list[dict[str, Any]] = []
    for e, text in zip(events, texts, strict=True):
        a = e.actor
        if e.key[:4] == "why-":
            # Phase 5's reason for no XP: an optional field of the player, never an
            # event of the document (docs/round-notation.md)
            why: dict[str, Any] = {"event": e.key, "text": text}
            if e.target >= 0:
                why["target"] = players[e.target]
            pdoc[players[a]]["why"] = why
            continue
        if e.target >= 0:
            edoc.append({"step": e.step, "player": players[a], "role": keys[a], "event": e.key,
                         "target": players[e.target], "text": text})
        else:
            edoc.append({"step": e.step, "player": players[a], "role": keys[a], "event": e.key,
                         "text": text})
    return {
        "format": RESULT_FORMAT,
        "players": pdoc,
        "journals": jdoc,
        "winners": [players[i] for i in result.winners],
        "events": edoc,
    }


_ROLE_KEYS: Final = tuple(r.key for r in Role)


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

