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
from dataclasses import dataclass, field
from typing import Any, Final

from darkcity.cast import parse_role
from darkcity.decisions import (
    Decision,
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
from darkcity.deck import Deck, DeckError, card_key, parse_card
from darkcity.game import Game
from darkcity.i18n import FieldError, Message, _, as_translator, msg
from darkcity.narration import render_all
from darkcity.night import Gesture, RoundError
from darkcity.notation import read_round, result_document, write_round
from darkcity.settings import NightRecord, Settings

__all__ = [
    "GAME_FORMAT",
    "Divergence",
    "RecordError",
    "Replay",
    "narration",
    "night_document",
    "replay",
    "replay_to",
    "settings_from_record",
    "write_record",
]

GAME_FORMAT: Final = "darkcity-game/1"


class RecordError(FieldError):
    """A record that is not a ``darkcity-game/1`` document; ``field`` says where.

    ``message`` is a :class:`~darkcity.i18n.Message`, which :meth:`render`
    translates; ``reason`` and ``str(error)`` (``field: reason``) are English,
    built only when asked for. A plain string is taken as English text.
    """


#: The phases a divergence names, in a message (PT: Fase 1 .. 5).
_PHASE_NAMES: Final = {
    "setup": _("free XP"),
    "draft": _("draft"),
    "gesture": _("gestures"),
    "withdrawal": _("withdrawal"),
    "zombie": _("the Zombies' choice"),
    "result": _("result"),
    "end": _("end of the game"),
}


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where a replay first departs from the record.

    ``message`` is the English text; ``detail`` the same as a
    :class:`~darkcity.i18n.Message`, which :meth:`render` translates (when
    only ``message`` is given, ``detail`` holds it untranslated).
    """

    night: int  # 0: set-up
    phase: str  # setup, draft, gesture, withdrawal, zombie, result, end
    message: str
    detail: Message | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.detail is None:
            object.__setattr__(self, "detail", Message(self.message))

    @classmethod
    def of(cls, night: int, phase: str, detail: Message) -> Divergence:
        """A divergence described by a message (its English text is ``message``)."""
        return cls(night, phase, str(detail), detail)

    def to_message(self) -> Message:
        """Where and what, as a message: ``night 2, draft: ...``."""
        detail = self.detail if self.detail is not None else Message(self.message)
        name = _PHASE_NAMES.get(self.phase)
        phase: object = Message(name) if name is not None else self.phase
        if self.night == 0:
            return msg("set-up, {phase}: {message}", phase=phase, message=detail)
        return msg("night {night}, {phase}: {message}", night=self.night, phase=phase,
                   message=detail)

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """:meth:`to_message` in ``translate``'s language (English if None)."""
        return self.to_message().render(translate)

    def __str__(self) -> str:
        where = "set-up" if self.night == 0 else f"night {self.night}"  # i18n: not prose
        return f"{where}, {self.phase}: {self.message}"  # i18n: not prose


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
        raise RecordError(where, msg("must be an object"))
    return x


def _list(x: object, where: str) -> list[Any]:
    if not isinstance(x, list):
        raise RecordError(where, msg("must be a list"))
    return x


def _str(x: object, where: str) -> str:
    if not isinstance(x, str):
        raise RecordError(where, msg("must be a string"))
    return x


def settings_from_record(doc: object) -> tuple[Settings, int | str]:
    """The table and the seed of a record (raises :class:`RecordError`)."""
    d = _obj(doc, "document")
    if d.get("format") != GAME_FORMAT:
        raise RecordError("format", msg("expected {expected!r}, not {given!r}",
                                        expected=GAME_FORMAT, given=d.get("format")))
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
        raise RecordError(f"settings.{e.field}", e.message) from None
    seed = d.get("seed")
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise RecordError("seed", msg("must be an integer or a string"))
    return settings, seed


# ---------------------------------------------------------------------------
# Replay


def _diff(a: object, b: object, path: str = "") -> tuple[str, Message] | None:
    """The first path where two JSON values differ, and how (with both values)."""
    if a == b:
        return None  # the common case, decided in C
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            where = f"{path}.{k}" if path else str(k)
            if k not in a:
                return where, msg("{path}: missing in the replay", path=where)
            if k not in b:
                return where, msg("{path}: not recorded", path=where)
            d = _diff(a[k], b[k], where)
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = _diff(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        if len(a) != len(b):
            return path, msg("{path}: {replayed} items in the replay, {recorded} recorded",
                             path=path, replayed=len(a), recorded=len(b))
        return None
    if a != b or type(a) is not type(b):
        return path, msg("{path}: the replay gives {replayed!r}, the record says {recorded!r}",
                         path=path, replayed=a, recorded=b)
    return None


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


def _do(game: Game, decision: Decision, night: int, phase: str) -> None:
    try:
        game.do(decision)
    except IllegalDecision as e:
        raise _Diverged(Divergence.of(night, phase, msg("{player}: {reason}",
                                                       player=decision.player,
                                                       reason=e.message))) from None


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


def replay_to(doc: object, night: int) -> Game:
    """The record's game as it stood once its night ``night`` was told (0: with its free
    XP written), replayed through the engine: one step of a record viewer.

    Raises :class:`RecordError` for a document that is not a record, a night it does not
    hold, or a replay that departs from the record before that night (where, and what).
    """
    settings, seed = settings_from_record(doc)
    assert isinstance(doc, dict)
    nights = doc.get("nights")
    count = len(nights) if isinstance(nights, list) else 0
    if isinstance(night, bool) or not isinstance(night, int) or not 0 <= night <= count:
        raise RecordError("night", msg("this record holds nights 0 to {count}", count=count))
    game = Game(settings, seed)
    try:
        _replay(game, doc, upto=night)
    except _Diverged as e:
        raise RecordError("nights", e.divergence.to_message()) from None
    return game


def _replay(game: Game, doc: dict[str, Any], upto: int | None = None) -> None:
    free = doc.get("free_xp", {})
    if not isinstance(free, dict):
        raise _Diverged(Divergence.of(0, "setup", msg("free_xp must be an object")))
    for p in game.players:
        if game.phase is not Phase.SETUP:
            break
        role = parse_role(free[p]) if isinstance(free.get(p), str) else None
        if role is None:
            raise _Diverged(Divergence.of(0, "setup", msg("{player}'s free XP is missing or "
                                                          "unknown", player=p)))
        _do(game, FreeXp(p, role), 0, "setup")
    nights = doc.get("nights", [])
    if not isinstance(nights, list):
        raise _Diverged(Divergence.of(0, "setup", msg("nights must be a list")))
    for k, nd in enumerate(nights if upto is None else nights[:upto], 1):
        if game.over:
            raise _Diverged(Divergence.of(k, "end", msg("the game ended after night {night} "
                                                        "({winners} won), but the record "
                                                        "goes on", night=k - 1,
                                                        winners=", ".join(game.winners))))
        if not isinstance(nd, dict):
            raise _Diverged(Divergence.of(k, "draft", msg("a night must be an object")))
        _replay_night(game, k, nd)
    if upto is not None:  # (a step of the game: its end is not checked)
        return
    if doc.get("over", game.over) != game.over:
        n = len(nights)
        if game.over:
            why = msg("the record says the game is not over; the replay says it is over")
        else:
            why = msg("the record says the game is over; the replay says it is not over")
        raise _Diverged(Divergence.of(n, "end", why))
    if game.over and doc.get("winners") != list(game.winners):
        raise _Diverged(Divergence.of(len(nights), "end", msg(
            "winners: the replay gives {replayed}, the record says {recorded}",
            replayed=list(game.winners), recorded=doc.get("winners"))))


def _replay_night(game: Game, k: int, nd: dict[str, Any]) -> None:
    draft = nd.get("draft")
    if not isinstance(draft, dict) or not isinstance(draft.get("picks"), list):
        raise _Diverged(Divergence.of(k, "draft", msg("the draft is missing")))
    fd = [card_key(c) for c in game.face_down]
    if draft.get("face_down") != fd:
        raise _Diverged(Divergence.of(k, "draft", msg(
            "face-down cards: the replay sets aside {replayed}, the record says {recorded}",
            replayed=fd, recorded=draft.get("face_down"))))
    for pick in draft["picks"]:
        _replay_pick(game, k, pick)
    try:
        night = read_round(nd.get("round"))
    except RoundError as e:
        raise _Diverged(Divergence.of(k, "gesture", msg("the round document is invalid: "
                                                        "{error}", error=_located(e.field,
                                                                                  e.message)))
                        ) from None
    if game.phase is not Phase.GESTURE:
        raise _Diverged(Divergence.of(k, "draft", msg("the draft is incomplete: waiting for "
                                                      "{waiting}",
                                                      waiting=", ".join(game.pending))))
    for p in game.pending:
        _do(game, GestureChoice(p, night.gestures.get(p, Gesture())), k, "gesture")
    for p in game.pending:
        _do(game, WithdrawalChoice(p, night.withdrawals.get(p, False)), k, "withdrawal")
    if game.decision_point().phase is Phase.ZOMBIE:  # (mypy narrows game.phase)
        for p in game.pending:
            target = night.zombie_targets.get(p)
            if target is None:
                raise _Diverged(Divergence.of(k, "zombie", msg(
                    "{player} is a Zombie still in play after step 3 and chooses (R-113); "
                    "the record has no choice (zombie_targets)", player=p)))
            _do(game, ZombieChoice(p, target), k, "zombie")
    if len(game.nights) != k:
        raise _Diverged(Divergence.of(k, "zombie", msg("the night did not end")))
    rec = game.nights[-1]
    d = _diff(write_round(rec.night), nd.get("round"))
    if d is not None:
        raise _Diverged(Divergence.of(k, _phase_of_path(d[0]),
                                      msg("round: {difference}", difference=d[1])))
    d = _diff(result_document(rec.result), nd.get("result"))
    if d is not None:
        raise _Diverged(Divergence.of(k, "result", msg("result: {difference}",
                                                       difference=d[1])))
    if nd.get("number", k) != k or nd.get("active") != rec.active:
        raise _Diverged(Divergence.of(k, "draft", msg(
            "the active player is {player}, the record says {recorded!r}", player=rec.active,
            recorded=nd.get("active"))))


def _located(where: str, message: Message) -> Message:
    """``field: message`` as a message (the message alone without a field)."""
    return msg("{field}: {reason}", field=where, reason=message) if where else message


def _phase_of_path(d: str) -> str:
    for prefix, phase in (("gestures", "gesture"), ("withdrawals", "withdrawal"),
                          ("zombie_targets", "zombie"), ("cards", "draft")):
        if d.startswith(prefix):
            return phase
    return "result"


def _replay_pick(game: Game, k: int, pick: object) -> None:
    if not isinstance(pick, dict) or not isinstance(pick.get("player"), str):
        raise _Diverged(Divergence.of(k, "draft", msg("a pick must name its player: "
                                                      "{pick!r}", pick=pick)))
    p = pick["player"]
    if game.phase is not Phase.DRAFT or game.pending != (p,):
        if game.pending:
            why = msg("{player} chooses in the record; the replay waits for {waiting}",
                      player=p, waiting=", ".join(game.pending))
        else:
            why = msg("{player} chooses in the record; the replay waits for nobody", player=p)
        raise _Diverged(Divergence.of(k, "draft", why))
    took = pick.get("took")
    if took == "death":
        names = pick.get("names")
        if not isinstance(names, str):
            raise _Diverged(Divergence.of(k, "draft", msg("{player} takes Death without a "
                                                          "name", player=p)))
        _do(game, TakeDeath(p, names), k, "draft")
        return
    if not game.may_look:
        _do(game, LookAtHand(p), k, "draft")
    hand = [card_key(c) for c in game.hand]
    if pick.get("hand") != hand:
        raise _Diverged(Divergence.of(k, "draft", msg(
            "{player} receives {replayed} in the replay, {recorded} in the record", player=p,
            replayed=hand, recorded=pick.get("hand"))))
    try:
        card = parse_card(_str(pick.get("card"), "card"))
    except (DeckError, RecordError) as e:
        raise _Diverged(Divergence.of(k, "draft", msg("{player}: {reason}", player=p,
                                                      reason=_located(e.field, e.message)))
                        ) from None
    if took == "face-down":
        _do(game, FaceDownPick(p), k, "draft")
        got = game.cards.get(p)
        if got != card:
            raise _Diverged(Divergence.of(k, "draft", msg(
                "{player} draws {replayed} face down in the replay, {recorded} in the record",
                player=p, replayed=card_key(got) if got else "?", recorded=card_key(card))))
    elif took == "hand":
        _do(game, DraftPick(p, card), k, "draft")
    else:
        raise _Diverged(Divergence.of(k, "draft", msg("{player}: took must be hand, face-down "
                                                      "or death, not {took!r}", player=p,
                                                      took=took)))


# ---------------------------------------------------------------------------
# Narration


def narration(rec: NightRecord, translate: Callable[[str], str] = str) -> list[str]:
    """The Mayor's narration of a finished night, step by step, in ``translate``'s
    language (a :class:`~darkcity.i18n.Translator`; English by default)."""
    t = as_translator(translate)
    night, result = rec.night, rec.result
    lines = [t.render(msg("Night {number} (active player: {player})", number=rec.number,
                          player=rec.active))]
    step = None
    for e, text in zip(result.events, render_all(result.events, night, t), strict=True):
        if e.step != step:
            step = e.step
            lines.append(t.render(msg("[end]")) if step == "end" else f"[{step}]")
        lines.append("  " + text)
    if result.winners:
        lines.append(t.render(msg("Winners: {names}", names=", ".join(result.winner_names))))
    return lines

