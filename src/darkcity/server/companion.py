"""The table companion on the web (issue #11): ``/table`` and ``/table/{CODE}``.

The Mayor sets the table up (``POST /api/tables``) and gets a Mayor link; every
entry (``POST /api/tables/{CODE}/entries``) is checked by the model
(:class:`darkcity.companion.Companion`), stored, and only then answered, so a
reload, a second device with the Mayor's link, or a restarted server goes on
where the table was. Players' phones open the table's link, pick their name
and get a seat link: they see the public table, their own journal and the
rules of a card, and the last drafter enters Death's name there in secret.
Everybody polls ``GET /api/tables/{CODE}`` (with the version they have); the
Mayor's screen is the one source of truth.

Storage: one row per table in ``darkcity_tables`` (the set-up and the entries,
the companion's own JSON, and the token hashes), on the rooms' database
(:class:`darkcity.server.storage.Storage` makes the engine).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update

from darkcity.cast import CAST, Reach, Role
from darkcity.companion import (
    Companion,
    Drafted,
    Stage,
    TableSetup,
    entry_from_json,
    write_table_record,
)
from darkcity.companion.entries import (
    Call,
    EntryError,
    GestureEntry,
    WithdrawalEntry,
    entry_to_json,
)
from darkcity.companion.table import STEP_ROLE, TableNight, read_free_xp
from darkcity.companion.text import table_catalog
from darkcity.deck import (
    BOX,
    PRESETS,
    Deck,
    DeckError,
    card_key,
    deck_warning_messages,
    parse_card,
    preset,
    presets_for,
)
from darkcity.i18n import (
    FieldError,
    Message,
    Translator,
    error_message,
    msg,
    msgn,
    negotiate,
    translator,
)
from darkcity.journal import conditions_met, progress, total
from darkcity.narration import event_message
from darkcity.night import Card
from darkcity.notation import write_round
from darkcity.server.config import ServerConfig
from darkcity.server.storage import Storage
from darkcity.server.text import WORDS

__all__ = ["TableStore", "companion_router"]

STATIC: Final = resources.files("darkcity").joinpath("server/static/table")
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
PRESET_TITLES: Final = WORDS["presets"]  # the decks' names, as the web table writes them
CODE_LENGTH: Final = 6
MAX_BODY: Final = 16384
MAX_TABLES: Final = 2000  # held in memory at once (a table is a few kilobytes)

metadata = MetaData()
tables_table = Table(
    "darkcity_tables", metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),  # one more for every stored change
    Column("lang", String(8), nullable=False),
    Column("mayor", String(64), nullable=False),  # sha256 of the Mayor's token
    Column("seats", Text, nullable=False),  # JSON: player -> sha256 of their seat token
    Column("doc", Text, nullable=False),  # JSON: Companion.to_json()
)

_log = logging.getLogger(__name__)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Refused(Exception):
    """A request refused: an HTTP status and a message for the reader."""

    def __init__(self, status: int, code: str, message: Message) -> None:
        super().__init__(code)
        self.status, self.code, self.message = status, code, message


@dataclass(slots=True)
class StoredTable:
    code: str
    lang: str
    mayor: str
    seats: dict[str, str]
    table: Companion
    version: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: entries of a table stored by an earlier version that no longer replay, set aside
    #: when it was loaded (Companion.restore); said to the Mayor until their next entry,
    #: undo or correction (the store keeps them until that change is stored)
    set_aside: int = 0


class TableStore:
    """The tables, in memory and in the database; every change stored before it is
    answered."""

    def __init__(self, url: str) -> None:
        self._storage = Storage(url)  # the engine, with the rooms' SQLite settings
        self.engine = self._storage.engine
        metadata.create_all(self.engine)
        self._tables: dict[str, StoredTable] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        self._storage.close()

    def create(self, setup: TableSetup, lang: str) -> tuple[StoredTable, str]:
        token = secrets.token_urlsafe(18)
        table = Companion(setup)
        now = time.time()
        with self._lock, self.engine.begin() as c:
            for _ in range(50):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if c.execute(select(tables_table.c.code).where(
                        tables_table.c.code == code)).first() is None:
                    break
            else:  # pragma: no cover - 31**6 codes
                raise Refused(503, "busy", msg("No free table code; try again."))
            c.execute(insert(tables_table).values(
                code=code, created=now, updated=now, version=1, lang=lang, mayor=_hash(token),
                seats="{}", doc=json.dumps(table.to_json())))
            stored = StoredTable(code, lang, _hash(token), {}, table, 1)
            self._remember(stored)
        return stored, token

    def _remember(self, t: StoredTable) -> None:
        if len(self._tables) >= MAX_TABLES:
            self._tables.pop(next(iter(self._tables)))
        self._tables[t.code] = t

    def get(self, code: str) -> StoredTable | None:
        code = code.upper()
        found = self._tables.get(code)
        if found is not None:
            return found
        with self.engine.connect() as c:
            row = c.execute(select(tables_table).where(tables_table.c.code == code)).first()
        if row is None:
            return None
        table, set_aside = Companion.restore(json.loads(row.doc))
        if set_aside:
            _log.warning("table %s: %d stored entries no longer replay, set aside",
                         row.code, set_aside)
        stored = StoredTable(row.code, row.lang, row.mayor, json.loads(row.seats), table,
                             row.version, set_aside=set_aside)
        with self._lock:
            self._tables.setdefault(code, stored)
            return self._tables[code]

    def save(self, t: StoredTable) -> None:
        """Store the table (called with ``t.lock`` held)."""
        t.version += 1
        with self.engine.begin() as c:
            c.execute(update(tables_table).where(tables_table.c.code == t.code).values(
                updated=time.time(), version=t.version, mayor=t.mayor,
                seats=json.dumps(t.seats), doc=json.dumps(t.table.to_json())))


# ---------------------------------------------------------------------------
# What a reader is sent


def _card(card: Card) -> dict[str, Any]:
    return {"key": card_key(card), "role": card.role.key, "edition": card.edition.value,
            "gender": card.identity.value if card.identity else None}


def _shape(role: Role) -> dict[str, Any]:
    g = CAST[role].gesture
    return {"reach": g.reach.value, "targets": g.targets, "seeks": g.seeks,
            "kind": g.reach is Reach.KIND}


def _question(c: Companion) -> dict[str, Any] | None:
    q = c.question()
    if q is None:
        return None
    return {
        "step": q.step, "role": q.role.key if q.role is not None else None,
        "candidates": list(q.candidates), "chosen": list(q.chosen), "asked": list(q.asked),
        "options": {p: [_card(x) for x in cards] for p, cards in q.options.items()},
        "zombies": {z: {"left": lft, "right": r, "aimed": a}
                    for z, (lft, r, a) in q.zombies.items()},
        # a card told by another's answer at this call: not asked when both turn over
        "follows": {b: [{"from": a, "cards": [[_card(x), _card(y)] for x, y in rule.items()]}
                        for a, rule in rules] for b, rules in q.follows.items()},
    }


def _journals(c: Companion) -> dict[str, Any]:
    return {p: {r.key: x for r, x in c.journals[i].items()} for i, p in enumerate(c.players)}


def view(stored: StoredTable, reader: str | None, t: Translator) -> dict[str, Any]:
    """The table as ``reader`` sees it: ``"mayor"``, a player's name, or None.

    Journals are public (R-118); Death's written name is nobody's until the night
    is resolved, except its writer's.
    """
    c = stored.table
    night = c.number
    last = c.nights[-1] if c.nights and c.stage in (Stage.JOURNALS, Stage.OVER) else None
    doc: dict[str, Any] = {
        "code": stored.code, "version": stored.version, "lang": stored.lang,
        "set_aside": stored.set_aside if reader == "mayor" else 0,
        "reader": reader, "stage": c.stage.value, "night": night,
        "players": list(c.players), "mayor": c.setup.mayor, "active": c.active,
        "last_drafter": c.last_drafter, "draft_order": list(c.draft_order),
        "death_in_play": c.death_in_play, "death": c.death,
        "death_named": c.death_names is not None,
        # the name Death wrote, once the night is narrated (a correction shows it)
        "death_names": (c.death_names if reader == "mayor" and c.stage in (Stage.JOURNALS,
                                                                          Stage.OVER) else None),
        "deck": {"name": c.deck.name, "cards": [_card(x) for x in c.deck.cards]},
        "sheet": [r.key for r in c.sheet],
        "showable": [r.key for r in c.showable],
        "shapes": {r.key: _shape(r) for r in Role},
        "kinds": {r.key: [k.key for k in c.kind_options(r)] for r in (Role.ALIEN,
                                                                      Role.VOODOOIST)},
        "neighbours": {p: list(c.neighbours(p)) for p in c.players},
        "gesturing": list(c.gesturing),
        "gestures": {p: {"shows": g.shows.key, "targets": list(g.targets),
                         "kind": g.kind.key if g.kind is not None else None,
                         "seeks": g.seeks.value if g.seeks is not None else None}
                     for p, g in c.gestures.items()} if reader == "mayor" or c.stage not in (
                         Stage.DRAFT, Stage.COUNT) else {},
        "to_enter": list(c.to_enter()) if c.stage is Stage.REVEAL else [],
        "withdrawals": {p: (w if isinstance(w, bool) else list(w))
                        for p, w in c.withdrawals.items()},
        "turned": {p: _card(x) for p, x in c.turned.items()},
        # tonight's calls as entered (a correction enters one again)
        "calls": [{"step": e.step,
                   "role": STEP_ROLE[e.step].key if e.step != "end" else None,
                   "cards": {p: _card(x) for p, x in e.cards.items()},
                   "zombies": dict(e.zombies)} for e in c.calls] if reader == "mayor" else [],
        "question": _question(c),
        "narration": [{"step": s, "lines": [t.render(m) for m in words]}
                      for s, words in c.narration],
        "journals": _journals(c),
        "totals": {p: total(c.journals[i]) for i, p in enumerate(c.players)},
        "winners": list(c.winners),
        # everybody who met a condition: the tiebreak ranks them
        "contenders": [{"player": p, "xp": total(j), "rows": sum(1 for x in j.values() if x),
                        "conditions": list(conditions_met(j))}
                       for p, j in zip(c.players, c.journals, strict=True)
                       if c.winners and conditions_met(j)],
        "seated": sorted(stored.seats),
        "conditions": {p: list(conditions_met(c.journals[c.players.index(p)]))
                       for p in c.winners},
        "nights": len(c.nights),
        "can_undo": bool(c.entries),
        # what Undo takes back, said on its button; never Death's written name (the
        # Mayor's screen is seen by the table)
        "last_entry": ({k: x for k, x in entry_to_json(c.entries[-1]).items()
                        if k != "death_names"} if reader == "mayor" and c.entries else None),
    }
    if reader is not None and reader != "mayor" and reader == c.death:
        doc["my_death_names"] = c.death_names
    if reader is not None and reader in c.players:
        # how close the reader is to each victory condition, in the engine's count
        # (journal.progress): a newcomer's phone says it, not only the Mayor's journals
        j = c.journals[c.players.index(reader)]
        top = max(j.items(), key=lambda kv: kv[1], default=None)
        doc["my_progress"] = [
            {"condition": k, "have": have, "need": need,
             "row": top[0].key if k == "four-in-one" and top and have else None}
            for k, have, need in progress(j)]
        # the reader's own card, once the table knows it (Death taken, turned over at a
        # call, the night told): their phone puts its rules first
        mine = (last.night.cards.get(reader) if last is not None
                else next(x for x in c.deck.cards if x.role is Role.DEATH)
                if reader == c.death else c.turned.get(reader))
        doc["my_card"] = _card(mine) if mine is not None else None
    if last is not None:
        doc["result"] = _result(last, t)
    elif reader is not None and reader in c.players and c.nights:
        # a player's phone keeps the night just told while the next one is under way:
        # the Mayor taps Next night as soon as the story is read, and a player who
        # looked at their phone then found nothing of what happened to them
        doc["last_night"] = _result(c.nights[-1], t)
    return doc


def _result(last: TableNight, t: Translator) -> dict[str, Any]:
    """A finished night's fates, XP, cards and story, as the table was told it."""
    r = last.result
    return {
        "number": last.number,
        "players": {p: {"fate": r.fates[i].value, "xp": r.xp[i],
                        "marks": sorted(m.value for m in r.marks[i]),
                        "card": _card(last.night.cards[p])}
                    for i, p in enumerate(last.night.players)},
        "events": [t.render(event_message(e, last.night)) for e in r.events],
    }


# ---------------------------------------------------------------------------
# The routes


def _lang(request: Request, fallback: str = "en") -> str:
    asked = request.query_params.get("lang") or request.headers.get("accept-language", "")
    for part in asked.split(","):
        found = negotiate(part.split(";")[0].strip()) if part.strip() else None
        if found:
            return found
    return fallback


def _refusal(request: Request, status: int, code: str, message: Message) -> JSONResponse:
    t = translator(_lang(request))
    return JSONResponse({"code": code, "message": t.render(message)}, status_code=status)


def _deck(body: Mapping[str, Any], players: int, t: Translator) -> Deck:
    name = body.get("deck")
    cards = body.get("cards")
    if isinstance(cards, list) and cards:
        return Deck.of((parse_card(str(c)) for c in cards), players)
    if isinstance(name, str):
        lo, hi = PRESETS[name][1] if name in PRESETS else (players, players)
        if not lo <= players <= hi:
            # the deck by the title the set-up's list shows, and what to do: the engine's
            # words named its id ('reporter-death-6') while the names were being typed
            raise DeckError("deck", msgn(
                "“{deck}” is not a deck for {n} player: type every player's name, or "
                "choose another deck.",
                "“{deck}” is not a deck for {n} players: type every player's name, or "
                "choose another deck.", players, deck=t(PRESET_TITLES.get(name, name))))
        return preset(name, players)
    raise DeckError("deck", msg("choose a preset or the cards"))


def _players(body: Mapping[str, Any]) -> tuple[str, ...]:
    raw = body.get("players")
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise DeckError("players", msg("must be a list of names"))
    names = tuple(" ".join(p.split()) for p in raw)
    for p in names:
        if len(p) > 24:
            raise DeckError("players", msg("A name has 1 to 24 characters."))
    return names


async def _json(request: Request) -> dict[str, Any]:
    data = await request.body()
    if len(data) > MAX_BODY:
        raise Refused(413, "too-big", msg("That message is too big."))
    try:
        doc = json.loads(data or b"{}")
    except ValueError:
        raise Refused(400, "invalid", msg("That message is not JSON.")) from None
    if not isinstance(doc, dict):
        raise Refused(400, "invalid", msg("That message is not JSON."))
    return doc


def _who(stored: StoredTable, token: str | None) -> str | None:
    """The reader a token names: ``"mayor"``, a seat's player, or None."""
    if not token:
        return None
    h = _hash(token)
    if hmac.compare_digest(h, stored.mayor):
        return "mayor"
    for p, seat in stored.seats.items():
        if hmac.compare_digest(h, seat):
            return p
    return None


def _token(request: Request, body: Mapping[str, Any] | None = None) -> str | None:
    header = request.headers.get("x-table-token")
    if header:
        return header
    if body is not None and isinstance(body.get("token"), str):
        return str(body["token"])
    return None


def companion_router(config: ServerConfig | None = None) -> APIRouter:
    """The companion's pages and API, for ``app.include_router``."""
    cfg = config or ServerConfig.from_env()
    router = APIRouter()
    holder: dict[str, TableStore] = {}
    opening = threading.Lock()

    def store() -> TableStore:
        with opening:
            if "store" not in holder:
                holder["store"] = TableStore(cfg.database)
            return holder["store"]

    def page() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("index.html")),
                            headers={"Cache-Control": "no-cache"})

    @router.get("/table", include_in_schema=False)
    async def new_table_page() -> FileResponse:
        return page()

    @router.get("/table/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return page()

    def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
        """Refusals and errors as JSON in the reader's language; never a trace."""
        import functools

        @functools.wraps(fn)
        async def wrapper(request: Request, *args: Any, **kw: Any) -> Response:
            try:
                result: Response = await fn(request, *args, **kw)
                return result
            except Refused as e:
                return _refusal(request, e.status, e.code, e.message)
            except EntryError as e:  # the reason in plain words, and whose entry it was
                why = (msg("{player}: {reason}", player=e.player, reason=e.message)
                       if e.player else e.message)
                return _refusal(request, 400, "refused", why)
            except DeckError as e:  # the set-up's rule in words: no field name ("cards:")
                text = translator(_lang(request)).render(e.message)
                return JSONResponse({"code": "refused", "message": text[:1].upper() + text[1:]},
                                    status_code=400)
            except FieldError as e:
                return _refusal(request, 400, "refused", error_message(e))

        return wrapper

    @router.get("/api/table/meta")
    async def meta(request: Request) -> Response:
        lang = _lang(request)
        return JSONResponse({
            "lang": lang, "catalog": table_catalog(lang),
            "presets": [{"name": k, "min": v[1][0], "max": v[1][1],
                         "title": translator(lang)(PRESET_TITLES.get(k, k)),
                         "about": translator(lang)(v[2])} for k, v in PRESETS.items()],
            # grouped on the set-up page: the basic, the advanced and the special cast
            "box": [{**_card(c), "special": CAST[c.role].special} for c in BOX],
        }, headers={"Cache-Control": "max-age=60"})

    @router.post("/api/tables/check")
    @guarded
    async def check(request: Request) -> Response:
        """The deck for these players: its journal sheet and the box's advice, or the
        deck rule it breaks (the same words as for an online game)."""
        body = await _json(request)
        players = _players(body)
        t = translator(_lang(request))
        deck = _deck(body, len(players), t)
        return JSONResponse({
            "sheet": [r.key for r in deck.journal_roles], "cards": deck.keys(),
            "warnings": [t.render(m) for m in deck_warning_messages(deck.cards, len(players))],
            "presets": list(presets_for(len(players))) if 4 <= len(players) <= 8 else [],
        })

    @router.post("/api/tables")
    @guarded
    async def create(request: Request) -> Response:
        body = await _json(request)
        players = _players(body)
        deck = _deck(body, len(players), translator(_lang(request)))
        free = read_free_xp(body.get("free_xp"))
        setup = TableSetup.of(players, deck, free)
        lang = negotiate(str(body.get("lang", ""))) or _lang(request)
        stored, token = store().create(setup, lang)
        return JSONResponse({"code": stored.code, "token": token,
                             "path": f"/table/{stored.code}"}, status_code=201)

    def found(code: str) -> StoredTable:
        stored = store().get(code)
        if stored is None:
            raise Refused(404, "no-table", msg("There is no table with that code."))
        return stored

    @router.get("/api/tables/{code}")
    @guarded
    async def state(request: Request, code: str) -> Response:
        stored = found(code)
        since = request.query_params.get("since")
        if since is not None and since.isdigit() and int(since) >= stored.version:
            return JSONResponse({"version": stored.version, "unchanged": True})
        reader = _who(stored, _token(request))
        t = translator(_lang(request, stored.lang))
        return JSONResponse(view(stored, reader, t))

    def changed(request: Request, stored: StoredTable, reader: str | None) -> Response:
        t = translator(_lang(request, stored.lang))
        return JSONResponse(view(stored, reader, t))

    @router.post("/api/tables/{code}/entries")
    @guarded
    async def enter(request: Request, code: str) -> Response:
        stored = found(code)
        body = await _json(request)
        reader = _who(stored, _token(request, body))
        entry = entry_from_json(body.get("entry"))
        with stored.lock:
            c = stored.table
            # a phone enters one thing: Death's name, by the player who took Death
            secret = (isinstance(entry, Drafted) and entry.death_names is not None
                      and reader == c.last_drafter)
            if reader != "mayor" and not secret:
                raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
            c.enter(entry)
            stored.set_aside = 0  # the Mayor goes on from where the table was loaded
            store().save(stored)
        return changed(request, stored, reader)

    async def the_mayors(request: Request, code: str) -> tuple[StoredTable, dict[str, Any]]:
        """The table and the request's body, when the request comes with the Mayor's token."""
        stored = found(code)
        body = await _json(request)
        if _who(stored, _token(request, body)) != "mayor":
            raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
        return stored, body

    @router.post("/api/tables/{code}/undo")
    @guarded
    async def undo(request: Request, code: str) -> Response:
        stored, body = await the_mayors(request, code)
        with stored.lock:
            what = body.get("what", "entry")
            done = (stored.table.undo_night() if what == "night"
                    else stored.table.undo())
            if done is None:
                raise Refused(409, "nothing", msg("There is nothing to undo."))
            stored.set_aside = 0
            store().save(stored)
        return changed(request, stored, "mayor")

    @router.post("/api/tables/{code}/correct")
    @guarded
    async def correct(request: Request, code: str) -> Response:
        """A gesture corrected after the reveal, a withdrawal after Phase 3, the cards of a
        call, or the name Death wrote, of tonight or of an earlier night (``night``); the
        later entries still valid are kept. ``dry``: nothing changes, the answer says how
        many later entries the correction would take back and where the table would be."""
        stored, body = await the_mayors(request, code)
        entry = entry_from_json(body.get("entry"))
        if not isinstance(entry, GestureEntry | WithdrawalEntry | Call | Drafted):
            raise Refused(400, "not-a-gesture",
                          msg("Only a gesture, a withdrawal, a call or the name Death wrote can be "
                              "corrected."))
        night = body.get("night")
        if night is not None and (not isinstance(night, int) or isinstance(night, bool)):
            raise Refused(400, "bad-night", msg("there is no night {n} to correct",
                                                n=str(night)))
        with stored.lock:
            if body.get("dry") is True:  # what it would take back, said before it is done
                trial = copy.deepcopy(stored.table)
                dropped = trial.correct(entry, night)
                return JSONResponse({"dropped": dropped, "night": trial.number,
                                     "stage": trial.stage.value})
            dropped = stored.table.correct(entry, night)
            stored.set_aside = 0
            store().save(stored)
        t = translator(_lang(request, stored.lang))
        return JSONResponse({**view(stored, "mayor", t), "dropped": dropped})

    @router.get("/api/tables/{code}/past")
    @guarded
    async def past(request: Request, code: str, night: int, step: str | None = None
                   ) -> Response:
        """The table as it stood at the end of ``night`` (or just before its call of
        ``step``), as the Mayor saw it: what a correction of that night shows and asks
        again. Nothing changes."""
        stored = found(code)
        if _who(stored, _token(request)) != "mayor":
            raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
        with stored.lock:
            then = stored.table.at(night, step)
            shown = StoredTable(stored.code, stored.lang, stored.mayor, dict(stored.seats),
                                then, stored.version)
        t = translator(_lang(request, stored.lang))
        return JSONResponse(view(shown, "mayor", t))

    @router.post("/api/tables/{code}/seat")
    @guarded
    async def seat(request: Request, code: str) -> Response:
        """A player's phone takes their seat: a seat link for their journal and secret."""
        stored = found(code)
        body = await _json(request)
        name = body.get("player")
        if not isinstance(name, str) or name not in stored.table.players:
            raise Refused(400, "bad-seat", msg("That is not a player of this table."))
        reader = _who(stored, _token(request, body))
        token = secrets.token_urlsafe(18)
        with stored.lock:
            if name in stored.seats and reader not in ("mayor", name):
                raise Refused(409, "seat-taken", msg(
                    "That seat is taken on another phone; the Mayor can free the seats."))
            stored.seats[name] = _hash(token)
            store().save(stored)
        return JSONResponse({"token": token, "player": name})

    @router.post("/api/tables/{code}/mayor/new")
    @guarded
    async def new_mayor_link(request: Request, code: str) -> Response:
        """The Mayor's link changes (it was shared by mistake, or a friend's phone kept
        it): the device that asks gets the new one; every other device that opened the
        old one is a phone without a seat from its next look."""
        stored = found(code)
        body = await _json(request)
        if _who(stored, _token(request, body)) != "mayor":
            raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
        token = secrets.token_urlsafe(18)
        with stored.lock:
            stored.mayor = _hash(token)
            store().save(stored)
        return JSONResponse({"token": token})

    @router.post("/api/tables/{code}/seat/leave")
    @guarded
    async def leave_seat(request: Request, code: str) -> Response:
        """A phone gives its seat back (a friend tapped someone else's name): the name
        is free again for its own phone, without the Mayor freeing every seat."""
        stored = found(code)
        body = await _json(request)
        reader = _who(stored, _token(request, body))
        with stored.lock:
            if reader in stored.seats:
                del stored.seats[reader]
                store().save(stored)
        return JSONResponse({"left": reader if isinstance(reader, str) and reader != "mayor"
                             else None})

    @router.post("/api/tables/{code}/seats/free")
    @guarded
    async def free_seats(request: Request, code: str) -> Response:
        """The Mayor frees every seat: the phones pick their names again."""
        stored = found(code)
        body = await _json(request)
        if _who(stored, _token(request, body)) != "mayor":
            raise Refused(403, "not-mayor", msg("Only the Mayor enters that."))
        with stored.lock:
            stored.seats = {}
            store().save(stored)
        return changed(request, stored, "mayor")

    @router.get("/api/tables/{code}/record")
    @guarded
    async def record(request: Request, code: str) -> Response:
        stored = found(code)
        # the night in progress stays out: its entries hold Death's secret name
        return JSONResponse(write_table_record(stored.table, finished_only=True), headers={
            "Content-Disposition": f'attachment; filename="darkcity-table-{stored.code}.json"'})

    @router.get("/api/tables/{code}/nights/{number}")
    @guarded
    async def night_round(request: Request, code: str, number: int) -> Response:
        stored = found(code)
        nights = stored.table.nights
        if not 1 <= number <= len(nights):
            raise Refused(404, "no-night", msg("That night is not finished."))
        return JSONResponse(write_round(nights[number - 1].night), headers={
            "Content-Disposition":
                f'attachment; filename="darkcity-{stored.code}-night-{number}.json"'})

    return router
