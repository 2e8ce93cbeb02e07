"""The pocket app's play: the online table's own room, hosted in the phone's Web Worker
(issue #30), as :mod:`darkcity.pocket.worker` hosts the companion.

A game is a :class:`~darkcity.room.local.LocalHost`: the server's room (its lobby, its
driver, its clock, its bots), with a store in memory and a clock the worker moves. The
page talks to it as it talks to a server's WebSocket: it sends the socket's messages
(``decide``, ``add_bot``, ``start``...) and receives the socket's messages (``welcome``,
``state``, ``count``, ``progress``, ``notice``, ``error``...), the same JSON.

Every answer is ``{"value": {"messages", "due", "stored", "row", "status"}}``: the messages for
the page, oldest first; ``due``, the instant (seconds, the page's clock) the worker calls
:func:`op_advance` next (``setTimeout``; ``null``: only when the page sends something);
``stored``, the decisions stored since the last answer (``{seq, decision, source}``),
and ``row``, the room's own (its settings, lobby, seed, deadline), which the worker
writes to IndexedDB before it hands the messages on, with ``summary`` (whose game it is,
for the list of games: :func:`summary`); :func:`op_resume` reads a game back from them
(a reload, a closed app). A save damaged anyway (two tabs that wrote one game before the
worker kept one writer per game, issue #50) opens at its last consistent decision, and
the rest is named and handed back to be kept aside, never lost (:func:`consistent`). Or
``{"error": {"status", "code", "message"}}``, as the companion's worker answers.
"""

from __future__ import annotations

import inspect
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from darkcity import review
from darkcity.bots.levels import DEFAULT_LEVEL
from darkcity.companion import actions
from darkcity.companion.actions import Refused
from darkcity.companion.record import TABLE_FORMAT
from darkcity.i18n import msg, msgn, negotiate, translator
from darkcity.journal import total
from darkcity.notation import ROUND_FORMAT
from darkcity.pocket.worker import too_big
from darkcity.record import RecordError
from darkcity.room import check_name
from darkcity.room.bots import canonical_level
from darkcity.room.local import LocalHost, LocalReader
from darkcity.room.setup import room_config

__all__ = ["OPS", "call", "consistent", "summary"]

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # the server's room codes
#: Seconds to decide when the phone is passed from hand to hand (unless a game says).
PASSED_DECIDE_S: Final = 600.0


@dataclass(slots=True)
class Game:
    """A game the worker holds: its room, the page, what was handed on.

    Played alone, the page is the person's. Passed from hand to hand (two people or
    more on one phone), the page is the table as everyone sees it (a spectator's) until
    one person asks to see theirs (:func:`op_view`); each person's keeper, a reader
    never shown, keeps them at the table meanwhile (the room plays for nobody who is
    connected)."""

    host: LocalHost
    page: LocalReader
    handed: int = 0  # decisions already handed on in ``stored``
    keepers: dict[int, LocalReader] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """Two people or more share this phone."""
        return len(self.keepers) > 1


_games: dict[str, Game] = {}


def _invalid(field: str, problem: str) -> Refused:
    return Refused(400, "invalid", msg("Invalid message: {field}: {problem}", field=field,
                                       problem=problem))


_MISSING: Final = object()


def _get(body: dict[str, Any], name: str, kind: type, default: Any = _MISSING) -> Any:
    """``body[name]``, of type ``kind`` (an int will do for a float), or ``default``
    when absent or null; a :class:`Refused` naming the field otherwise."""
    value = body.get(name)
    if value is None:
        if default is _MISSING:
            raise _invalid(name, "missing")
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _invalid(name, f"expected {kind.__name__}")
    return value


def _game(code: object) -> Game:
    g = _games.get(str(code))
    if g is None:
        raise Refused(404, "no-room", msg("There is no room with that code."))
    return g


def summary(host: LocalHost) -> dict[str, Any]:
    """Whose game it is, as the list of games on the phone says it: the people, the
    bots with their levels, the night, who leads (the most XP; the winners once over),
    and whether its record can be downloaded (only once the game is over)."""
    room = host.room
    seats = room.lobby_public()["seats"]
    game = room.game
    leaders: list[str] = []
    xp = 0
    if game is not None and game.over:
        leaders = list(game.winners)
    elif game is not None:
        totals = [total(j) for j in game.journals]
        xp = max(totals, default=0)
        leaders = [p for p, x in zip(game.players, totals, strict=True) if x == xp and xp]
        if len(leaders) == len(game.players):  # everyone level: nobody leads
            leaders = []
    return {"people": [s["name"] for s in seats if s["kind"] == "human"],
            "bots": [{"name": s["name"], "level": s["level"]} for s in seats
                     if s["kind"] == "bot"],
            "night": game.night if game is not None else 0,
            "leaders": leaders, "xp": xp, "over": bool(game is not None and game.over),
            "record": bool(game is not None and game.over)}


def _answer(g: Game) -> dict[str, Any]:
    stored = g.host.store.decisions.get(g.host.room.code, [])
    new, g.handed = stored[g.handed:], len(stored)
    for keeper in g.keepers.values():
        keeper.take()  # (what a person's page is sent comes when it is shown)
    return {"messages": g.page.take(), "due": g.host.due(), "stored": new,
            "row": g.host.store.rows[g.host.room.code], "status": g.host.room.status,
            "summary": summary(g.host)}


def op_create(body: dict[str, Any], lang: str, now: float) -> dict[str, Any]:
    """A game on this phone: the person (``name``) in seat 0, or the people
    (``names``, one to ``players``, passing the phone) in the first seats, bots of
    ``level`` in the others (``players`` seats), the deck or custom ``cards``, the
    ``pace``; started at once unless ``start`` is false (the page's lobby then sends
    ``add_bot`` / ``start``). Passed from hand to hand, nobody is rushed: ``decide_s``
    is ten minutes unless given (the phone changes hands before each secret choice)."""
    if not isinstance(body, dict):
        raise _invalid("body", "expected object")
    players = _get(body, "players", int)
    names = _get(body, "names", list, None)
    if names is None:
        names = [_get(body, "name", str)]
    if not names or len(names) > max(players, 1) or not all(isinstance(n, str) for n in names):
        raise _invalid("names", f"expected 1 to {players} names")
    names = [check_name(n) for n in names]
    level = _get(body, "level", str, DEFAULT_LEVEL)
    if canonical_level(level) is None:  # (an old name, ``heuristic``, is one)
        raise Refused(400, "bad-level", msg("Unknown bot level {level!r}.", level=level))
    cards = _get(body, "cards", list, None)
    if cards is not None and not all(isinstance(k, str) for k in cards):
        raise _invalid("cards", "expected a list of card keys")
    config = room_config(
        players=players, deck=_get(body, "deck", str, "basic"), cards=cards,
        pace=_get(body, "pace", str, "normal"), lang=negotiate(str(lang or "")) or "en",
        timeout_level=_get(body, "timeout_level", str, "random"),
        decide_s=_get(body, "decide_s", float, PASSED_DECIDE_S if len(names) > 1 else None),
        beat_s=_get(body, "beat_s", float, None),
        bot_delay_s=_get(body, "bot_delay_s", float, 0.8),
        grace_s=_get(body, "grace_s", float, 30.0))
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
    while code in _games:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
    start = _get(body, "start", bool, True)
    host = LocalHost(config, code=code, now=float(now))
    people = [host.add_member(n)[0] for n in names]  # (a name taken twice: refused, said)
    first = host.open(people[0])
    for seat in range(len(people), config.players):
        host.handle(first, {"type": "add_bot", "seat": seat, "level": level})
    if start:
        host.handle(first, {"type": "start"})
    if len(people) == 1:
        g = Game(host, first)
    else:
        keepers = {people[0].id: first} | {p.id: host.open(p) for p in people[1:]}
        g = Game(host, host.open(None), keepers=keepers)
    _games[code] = g
    return {"code": code, "member": g.page.member, **_answer(g)}


def op_send(code: str, message: object, now: float) -> dict[str, Any]:
    """What the page would send its socket (a refusal comes back as an ``error``
    message, as on the socket)."""
    g = _game(code)
    if not isinstance(message, dict):
        raise _invalid("message", "expected object")
    g.host.advance_to(float(now))
    g.host.handle(g.page, message)
    return _answer(g)


def op_advance(code: str, now: float) -> dict[str, Any]:
    """Time moved to ``now``: everything due by then runs (the worker's timer)."""
    g = _game(code)
    g.host.advance_to(float(now))
    return _answer(g)


def consistent(decisions: list[Any]) -> int:
    """How many of a saved game's decisions, from the first, follow one another: each
    an object with its place (``seq``) equal to its index, its decision and its source.
    (Two tabs that wrote one game gave ``[0, 1, 2, 3, 3, 4, 4 ...]``.)"""
    n = 0
    for d in decisions:
        if not (isinstance(d, dict) and d.get("seq") == n and not isinstance(d.get("seq"), bool)
                and isinstance(d.get("decision"), dict) and isinstance(d.get("source"), str)):
            break
        n += 1
    return n


def _restore(code: str, row: dict[str, Any], decisions: list[Any],
             now: float) -> tuple[LocalHost, int]:
    """The room read back from its saved row and the longest run of its decisions that
    follows one another and replays (a save damaged anyway opens there): the host, and
    how many decisions it kept."""
    def attempt(k: int) -> LocalHost | None:
        kept_row = row
        if k < len(decisions) and row.get("status") == "over":
            kept_row = {**row, "status": "playing"}  # (its end was among the set aside)
        try:
            host = LocalHost.resume(code, kept_row, decisions[:k], now=now)
        except Exception:  # whatever a damaged save makes the replay raise: not this run
            return None
        if k and host.room.game is None:
            return None
        return host

    k = consistent(decisions)
    host = attempt(k)
    if host is None:  # a decision the game refuses: the longest run that replays
        lo, hi = 0, k - 1  # (a run replays, so does every shorter one)
        found: LocalHost | None = None
        while lo <= hi:
            mid = (lo + hi) // 2
            h = attempt(mid)
            if h is not None:
                found, lo = h, mid + 1
            else:
                hi = mid - 1
        if found is None:
            try:  # not even its lobby: say why
                LocalHost.resume(code, row, [], now=now)
            except Exception as e:
                raise Refused(400, "bad-saved", msg(
                    "This game's file is damaged: {why}",
                    why=f"{type(e).__name__}: {e}")) from None
            raise Refused(400, "bad-saved", msg("This game's file is damaged: {why}",
                                                why="no decision replays"))
        host, k = found, hi
    if k < len(decisions) and host.room.game is not None and host.room.game.over:
        host.room.status = "over"
    return host, k


def op_resume(code: str, row: object, decisions: object, now: float,
              lang: str | None = None) -> dict[str, Any]:
    """A game read back from what IndexedDB kept (the last ``row`` and every decision
    ``stored``, in order), its person's page opened again (in ``lang``, or the room's
    language): a welcome with the view. A save damaged anyway opens at its last
    consistent decision: ``repaired`` says how many were kept and the later ones are
    set aside (the worker keeps them aside in the save), said to the page in words."""
    if not isinstance(row, dict) or not isinstance(row.get("config"), dict):
        raise _invalid("row", "expected the saved row, with its config")
    if not isinstance(decisions, list):
        raise _invalid("decisions", "expected a list of the stored decisions")
    host, kept = _restore(str(code), row, decisions, float(now))
    people = sorted((m for m in host.room.members.values()), key=lambda m: m.id)
    if not people:
        raise _invalid("row", "no person in the saved lobby")
    if len(people) == 1:
        g = Game(host, host.open(people[0], _lang(lang)), handed=kept)
    else:  # passed from hand to hand: the table as everyone sees it, each person kept
        keepers = {p.id: host.open(p) for p in people}
        g = Game(host, host.open(None, _lang(lang)), handed=kept, keepers=keepers)
    _games[str(code)] = g
    answer = {"code": str(code), "member": g.page.member, **_answer(g), "repaired": None}
    if kept < len(decisions):
        game = host.room.game
        aside = len(decisions) - kept
        answer["repaired"] = {"kept": kept, "set_aside": aside,
                              "night": game.night if game is not None else 0}
        said = translator(_lang(lang) or host.room.config.lang).render(msgn(
            "This game's save was damaged (it was played in two tabs at once?): it goes on "
            "from its last consistent move, night {night}. The {n} move after it was set "
            "aside, kept in the save.",
            "This game's save was damaged (it was played in two tabs at once?): it goes on "
            "from its last consistent move, night {night}. The {n} moves after it were set "
            "aside, kept in the save.", aside,
            night=answer["repaired"]["night"]))
        answer["messages"] = [{"type": "notice", "message": said}, *answer["messages"]]
    return answer


def op_saved(code: str, row: object, decisions: object, now: float,
             record: bool = False) -> dict[str, Any]:
    """A saved game read without taking it (the list of games, a record downloaded
    while another tab may play it): its summary, and its record once it is over
    (``record``). Nothing is kept; nothing is written."""
    if not isinstance(row, dict) or not isinstance(row.get("config"), dict):
        raise _invalid("row", "expected the saved row, with its config")
    if not isinstance(decisions, list):
        raise _invalid("decisions", "expected a list of the stored decisions")
    host, _kept = _restore(str(code), row, decisions, float(now))
    out: dict[str, Any] = {"summary": summary(host)}
    if record:
        out["record"] = host.room.record()
    return out


def op_reopen(code: str, lang: str | None = None) -> dict[str, Any]:
    """The person's page opened again on a game the worker holds (the page drew itself
    anew, or changed its language): the old page closed, a welcome for the new one."""
    g = _game(code)
    person = g.host.member(g.page.member) if g.page.member is not None else None
    old = g.page
    g.page = g.host.open(person, _lang(lang))
    g.host.close(old)
    return {"code": str(code), "member": g.page.member, **_answer(g)}


def op_view(code: str, member: int | None, now: float,
            lang: str | None = None) -> dict[str, Any]:
    """On a phone passed from hand to hand: the page shows ``member``'s own view (they
    tapped "show me"), or the table as everyone sees it (``None``: they are done). The
    new page is opened before the old one closes, so nobody is away meanwhile."""
    g = _game(code)
    if member is not None and (not isinstance(member, int) or member not in g.keepers):
        raise _invalid("member", "nobody of that number plays on this phone")
    if not g.passed:
        raise _invalid("member", "one person plays this game: the page is always theirs")
    g.host.advance_to(float(now))
    old = g.page
    g.page = g.host.open(g.host.member(member) if member is not None else None, _lang(lang))
    g.host.close(old)
    return {"code": str(code), "member": g.page.member, **_answer(g)}


def _lang(lang: object) -> str | None:
    return negotiate(str(lang)) or None if lang else None


def op_record(code: str) -> dict[str, Any]:
    """The game record (``darkcity-game/1``, which ``darkcity replay`` accepts)."""
    return _game(code).host.room.record()


def op_review(record: object, night: int, viewer: str | None = None,
              lang: str | None = None) -> dict[str, Any]:
    """A step of a game record (:func:`darkcity.review.step`): the record viewer's,
    replayed by the engine here as the server's ``/api/replay`` does. A record over the
    server's size limit, a companion's table or a single night is refused saying where
    it opens instead."""
    big = too_big(len(json.dumps(record, ensure_ascii=False).encode("utf-8")))
    if big is not None:
        raise big
    form = record.get("format") if isinstance(record, dict) else None
    if form == TABLE_FORMAT:
        raise Refused(422, "a-table", msg(
            "This file is a game with the real cards, kept by the table companion "
            "(darkcity-table/1): open the companion (\"Table companion\") and import it "
            "there with \"Import a game (file)\"."))
    if form == ROUND_FORMAT:
        raise Refused(422, "a-round", msg(
            "This file is one night (darkcity-round/1), not a whole game: darkcity "
            "adjudicate reads it, and the record viewer opens a whole game's record "
            "(darkcity-game/1)."))
    try:
        return review.step(record, night, viewer, translator(_lang(lang) or "en"))
    except RecordError as e:
        raise Refused(422, "bad-record", msg(
            "This is not a game record that can be replayed: {why}", why=e.message)) from None


def op_forget(code: str) -> None:
    _games.pop(str(code), None)


OPS: Final[dict[str, Callable[..., Any]]] = {
    "create": op_create, "send": op_send, "advance": op_advance, "resume": op_resume,
    "reopen": op_reopen, "view": op_view, "review": op_review, "record": op_record,
    "saved": op_saved, "forget": op_forget,
}


def call(op: str, args_json: str) -> str:
    """Run ``op`` with the arguments ``args_json`` (a JSON object) and answer JSON text:
    ``{"value": ...}``, or ``{"error": {"status", "code", "message"}}`` in the
    argument ``lang``'s language (English without one)."""
    bad: ValueError | None = None
    try:
        args = json.loads(args_json)
    except ValueError as e:
        args, bad = None, e
    lang = negotiate(str(args.get("lang") or "")) or "en" if isinstance(args, dict) else "en"
    t = translator(lang)
    try:
        if bad is not None:
            raise _invalid("args", f"not JSON: {bad}")
        fn = OPS.get(op)
        if fn is None or not isinstance(args, dict):
            raise Refused(400, "bad-op", msg("unknown request {name!r}", name=op))
        try:
            inspect.signature(fn).bind(**args)
        except TypeError as e:  # an argument missing or unknown
            raise _invalid(op, str(e)) from None
        return json.dumps({"value": fn(**args)})
    except Exception as e:
        answer = actions.refusal(e, t)
        if answer is None:  # a fault of the app, said in words, never a trace
            answer = (500, {"code": "fault", "message": t.render(msg(
                "Something went wrong.")) + f" ({type(e).__name__}: {e})"})
        return json.dumps({"error": {"status": answer[0], **answer[1]}})
