"""The game record, ``darkcity-game/1``: write, read and replay.

A record holds a whole game: the table (players, Mayor, deck), the seed, the
free XP, and for every night its draft (the three face-down cards, who
received which hand and kept what), the night as a ``darkcity-round/1``
document (with the journals before the night and the sheet, so it can be
adjudicated alone) and its ``darkcity-result/1`` document. The format is
documented in ``docs/game-record.md``.

:func:`replay` plays a record again through the engine, from the seed and the
recorded decisions, and reports the first divergence (night and phase) if
the engine does not reproduce the record exactly. A record holds the seed,
which determines every hidden card: it is the referee's archive, never
something to show a player during the game (players get :func:`darkcity.views.view`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from darkcity.cast import parse_role
from darkcity.deck import Deck, DeckError, card_key, parse_card
from darkcity.game import (
    Decision,
    DraftPick,
    FaceDownPick,
    FreeXp,
    Game,
    GestureChoice,
    IllegalDecision,
    LookAtHand,
    NightRecord,
    Phase,
    Settings,
    TakeDeath,
    WithdrawalChoice,
    ZombieChoice,
)
from darkcity.narration import render
from darkcity.night import Gesture, RoundError
from darkcity.notation import read_round, result_document, write_round

__all__ = [
    "GAME_FORMAT",
    "Divergence",
    "RecordError",
    "Replay",
    "narration",
    "night_document",
    "replay",
    "settings_from_record",
    "write_record",
]

GAME_FORMAT: Final = "darkcity-game/1"


class RecordError(ValueError):
    """A record that is not a ``darkcity-game/1`` document; ``field`` says where."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.reason = message
        super().__init__(f"{field}: {message}" if field else message)


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where a replay first departs from the record."""

    night: int  # 0: set-up
    phase: str  # setup, draft, gesture, withdrawal, zombie, result, end
    message: str

    def __str__(self) -> str:
        where = "set-up" if self.night == 0 else f"night {self.night}"
        return f"{where}, {self.phase}: {self.message}"


@dataclass(frozen=True, slots=True)
class Replay:
    """The game replayed, and the first divergence (None: identical)."""

    game: Game
    divergence: Divergence | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


# ---------------------------------------------------------------------------
# Writing


def _pick_doc(pick: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"player": pick.player}
    if pick.took != "death":
        doc["hand"] = [card_key(c) for c in pick.hand]
    doc["took"] = pick.took
    doc["card"] = card_key(pick.card)
    if pick.names is not None:
        doc["names"] = pick.names
    return doc


def night_document(rec: NightRecord) -> dict[str, Any]:
    """One night of a record."""
    return {
        "number": rec.number,
        "active": rec.active,
        "draft": {
            "face_down": [card_key(c) for c in rec.face_down],
            "picks": [_pick_doc(p) for p in rec.picks],
        },
        "round": write_round(rec.night),
        "result": result_document(rec.result),
    }


def write_record(game: Game) -> dict[str, Any]:
    """The ``darkcity-game/1`` document of ``game`` (finished or not: the
    nights played so far)."""
    s = game.settings
    return {
        "format": GAME_FORMAT,
        "settings": {
            "players": list(s.players),
            "mayor": s.players[s.mayor_seat],
            "deck": {"name": s.deck.name, "cards": s.deck.keys()},
            "journal_roles": [r.key for r in game.sheet],
        },
        "seed": game.seed,
        "free_xp": {p: game.free_xp[p].key for p in s.players if p in game.free_xp},
        "nights": [night_document(rec) for rec in game.nights],
        "over": game.over,
        "winners": list(game.winners),
    }


# ---------------------------------------------------------------------------
# Reading


def _obj(x: object, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise RecordError(where, "must be an object")
    return x


def _list(x: object, where: str) -> list[Any]:
    if not isinstance(x, list):
        raise RecordError(where, "must be a list")
    return x


def _str(x: object, where: str) -> str:
    if not isinstance(x, str):
        raise RecordError(where, "must be a string")
    return x


def settings_from_record(doc: object) -> tuple[Settings, int | str]:
    """The table and the seed of a record (raises :class:`RecordError`)."""
    d = _obj(doc, "document")
    if d.get("format") != GAME_FORMAT:
        raise RecordError("format", f"expected {GAME_FORMAT!r}, not {d.get('format')!r}")
    st = _obj(d.get("settings"), "settings")
    players = tuple(_str(p, "settings.players") for p in _list(st.get("players"),
                                                                "settings.players"))
    deck_doc = _obj(st.get("deck"), "settings.deck")
    try:
        cards = [parse_card(_str(c, "settings.deck.cards"))
                 for c in _list(deck_doc.get("cards"), "settings.deck.cards")]
        deck = Deck.of(cards, len(players), _str(deck_doc.get("name", "custom"),
                                                  "settings.deck.name"))
        mayor = st.get("mayor")
        settings = Settings(players=players, deck=deck,
                            mayor=_str(mayor, "settings.mayor") if mayor is not None else None)
    except DeckError as e:
        raise RecordError(f"settings.{e.field}", e.reason) from None
    seed = d.get("seed")
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise RecordError("seed", "must be an integer or a string")
    return settings, seed


# ---------------------------------------------------------------------------
# Replay


def _diff(a: object, b: object, path: str = "") -> str | None:
    """The first path where two JSON values differ, with both values."""
    if a == b:
        return None  # the common case, decided in C
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            where = f"{path}.{k}" if path else str(k)
            if k not in a or k not in b:
                return f"{where}: {'missing in the replay' if k not in a else 'not recorded'}"
            d = _diff(a[k], b[k], f"{path}.{k}" if path else str(k))
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = _diff(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        if len(a) != len(b):
            return f"{path}: {len(a)} items in the replay, {len(b)} recorded"
        return None
    if a != b or type(a) is not type(b):
        return f"{path}: the replay gives {a!r}, the record says {b!r}"
    return None


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


def _do(game: Game, decision: Decision, night: int, phase: str) -> None:
    try:
        game.do(decision)
    except IllegalDecision as e:
        raise _Diverged(Divergence(night, phase, f"{decision.player}: {e.reason}")) from None


def replay(doc: object) -> Replay:
    """Replay a record through the engine; report the first divergence.

    Raises :class:`RecordError` when the document is not a record at all (its
    table or seed cannot be read); anything else that departs from what the
    engine does is a :class:`Divergence`.
    """
    settings, seed = settings_from_record(doc)
    assert isinstance(doc, dict)
    game = Game(settings, seed)
    try:
        _replay(game, doc)
    except _Diverged as e:
        return Replay(game, e.divergence)
    return Replay(game, None)


def _replay(game: Game, doc: dict[str, Any]) -> None:
    free = doc.get("free_xp", {})
    if not isinstance(free, dict):
        raise _Diverged(Divergence(0, "setup", "free_xp must be an object"))
    for p in game.players:
        if game.phase is not Phase.SETUP:
            break
        role = parse_role(free[p]) if isinstance(free.get(p), str) else None
        if role is None:
            raise _Diverged(Divergence(0, "setup", f"{p}'s free XP is missing or unknown"))
        _do(game, FreeXp(p, role), 0, "setup")
    nights = doc.get("nights", [])
    if not isinstance(nights, list):
        raise _Diverged(Divergence(0, "setup", "nights must be a list"))
    for k, nd in enumerate(nights, 1):
        if game.over:
            raise _Diverged(Divergence(k, "end", f"the game ended after night {k - 1} "
                                       f"({', '.join(game.winners)} won), but the record "
                                       "goes on"))
        if not isinstance(nd, dict):
            raise _Diverged(Divergence(k, "draft", "a night must be an object"))
        _replay_night(game, k, nd)
    if doc.get("over", game.over) != game.over:
        n = len(nights)
        raise _Diverged(Divergence(n, "end", "the record says the game is "
                                   f"{'over' if doc.get('over') else 'not over'}; the replay "
                                   f"says {'over' if game.over else 'not over'}"))
    if game.over and doc.get("winners") != list(game.winners):
        raise _Diverged(Divergence(len(nights), "end", f"winners: the replay gives "
                                   f"{list(game.winners)}, the record says "
                                   f"{doc.get('winners')}"))


def _replay_night(game: Game, k: int, nd: dict[str, Any]) -> None:
    draft = nd.get("draft")
    if not isinstance(draft, dict) or not isinstance(draft.get("picks"), list):
        raise _Diverged(Divergence(k, "draft", "the draft is missing"))
    fd = [card_key(c) for c in game.face_down]
    if draft.get("face_down") != fd:
        raise _Diverged(Divergence(k, "draft", f"face-down cards: the replay sets aside {fd}, "
                                   f"the record says {draft.get('face_down')}"))
    for pick in draft["picks"]:
        _replay_pick(game, k, pick)
    try:
        night = read_round(nd.get("round"))
    except RoundError as e:
        raise _Diverged(Divergence(k, "gesture", f"the round document is invalid: {e}")) from None
    if game.phase is not Phase.GESTURE:
        raise _Diverged(Divergence(k, "draft", f"the draft is incomplete: waiting for "
                                   f"{', '.join(game.pending)}"))
    for p in game.pending:
        _do(game, GestureChoice(p, night.gestures.get(p, Gesture())), k, "gesture")
    for p in game.pending:
        _do(game, WithdrawalChoice(p, night.withdrawals.get(p, False)), k, "withdrawal")
    if game.decision_point().phase is Phase.ZOMBIE:  # (mypy narrows game.phase)
        for p in game.pending:
            target = night.zombie_targets.get(p)
            if target is None:
                raise _Diverged(Divergence(k, "zombie", f"{p} is a Zombie still in play after "
                                           "step 3 and chooses (R-113); the record has no "
                                           "choice (zombie_targets)"))
            _do(game, ZombieChoice(p, target), k, "zombie")
    if len(game.nights) != k:
        raise _Diverged(Divergence(k, "zombie", "the night did not end"))
    rec = game.nights[-1]
    d = _diff(write_round(rec.night), nd.get("round"))
    if d is not None:
        raise _Diverged(Divergence(k, _phase_of_path(d), f"round: {d}"))
    d = _diff(result_document(rec.result), nd.get("result"))
    if d is not None:
        raise _Diverged(Divergence(k, "result", f"result: {d}"))
    if nd.get("number", k) != k or nd.get("active") != rec.active:
        raise _Diverged(Divergence(k, "draft", f"the active player is {rec.active}, the record "
                                   f"says {nd.get('active')!r}"))


def _phase_of_path(d: str) -> str:
    for prefix, phase in (("gestures", "gesture"), ("withdrawals", "withdrawal"),
                          ("zombie_targets", "zombie"), ("cards", "draft")):
        if d.startswith(prefix):
            return phase
    return "result"


def _replay_pick(game: Game, k: int, pick: object) -> None:
    if not isinstance(pick, dict) or not isinstance(pick.get("player"), str):
        raise _Diverged(Divergence(k, "draft", f"a pick must name its player: {pick!r}"))
    p = pick["player"]
    if game.phase is not Phase.DRAFT or game.pending != (p,):
        raise _Diverged(Divergence(k, "draft", f"{p} chooses in the record; the replay waits "
                                   f"for {', '.join(game.pending) or 'nobody'}"))
    took = pick.get("took")
    if took == "death":
        names = pick.get("names")
        if not isinstance(names, str):
            raise _Diverged(Divergence(k, "draft", f"{p} takes Death without a name"))
        _do(game, TakeDeath(p, names), k, "draft")
        return
    if not game.may_look:
        _do(game, LookAtHand(p), k, "draft")
    hand = [card_key(c) for c in game.hand]
    if pick.get("hand") != hand:
        raise _Diverged(Divergence(k, "draft", f"{p} receives {hand} in the replay, "
                                   f"{pick.get('hand')} in the record"))
    try:
        card = parse_card(_str(pick.get("card"), "card"))
    except (DeckError, RecordError) as e:
        raise _Diverged(Divergence(k, "draft", f"{p}: {e}")) from None
    if took == "face-down":
        _do(game, FaceDownPick(p), k, "draft")
        got = game.cards.get(p)
        if got != card:
            raise _Diverged(Divergence(k, "draft", f"{p} draws {card_key(got) if got else '?'}"
                                       f" face down in the replay, {card_key(card)} in the "
                                       "record"))
    elif took == "hand":
        _do(game, DraftPick(p, card), k, "draft")
    else:
        raise _Diverged(Divergence(k, "draft", f"{p}: took must be hand, face-down or death, "
                                   f"not {took!r}"))


# ---------------------------------------------------------------------------
# Narration


def narration(rec: NightRecord, translate: Callable[[str], str] = str) -> list[str]:
    """The Mayor's narration of a finished night, step by step."""
    night, result = rec.night, rec.result
    lines = [f"Night {rec.number} (active player: {rec.active})"]
    step = None
    for e in result.events:
        if e.step != step:
            step = e.step
            lines.append(f"[{step}]")
        lines.append("  " + render(e, night, translate))
    if result.winners:
        lines.append("Winners: " + ", ".join(result.winner_names))
    return lines

