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

Storage: one row per table in ``darkcity_tables``, on the rooms' database
(:class:`darkcity.server.storage.TableStore`).
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from darkcity.companion import actions, write_table_record
from darkcity.companion.actions import Refused
from darkcity.companion.setup import check as check_setup
from darkcity.companion.setup import meta as setup_meta
from darkcity.companion.setup import read_setup
from darkcity.companion.view import view as table_view
from darkcity.i18n import Translator, msg, negotiate, translator
from darkcity.notation import write_round
from darkcity.server.common import request_lang, token_hash
from darkcity.server.config import ServerConfig
from darkcity.server.storage.tables import StoredTable, TableStore

__all__ = ["TableStore", "companion_router"]

STATIC: Final = resources.files("darkcity").joinpath("server/static/table")
MAX_BODY: Final = 16384

# ---------------------------------------------------------------------------
# What a reader is sent: the companion's own view (darkcity.companion.view)


def view(stored: StoredTable, reader: str | None, t: Translator) -> dict[str, Any]:
    """The stored table as ``reader`` sees it: ``"mayor"``, a player's name, or None."""
    return table_view(stored.table, reader, t, code=stored.code, version=stored.version,
                      lang=stored.lang, seated=stored.seats, set_aside=stored.set_aside)


# ---------------------------------------------------------------------------
# The routes


def _refusal(request: Request, error: Exception) -> JSONResponse | None:
    found = actions.refusal(error, translator(request_lang(request)))
    return None if found is None else JSONResponse(found[1], status_code=found[0])


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
    h = token_hash(token)
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
            except Exception as e:  # the companion's refusals, in words; nothing else
                answer = _refusal(request, e)
                if answer is None:
                    raise
                return answer

        return wrapper

    @router.get("/api/table/meta")
    async def meta(request: Request) -> Response:
        return JSONResponse(setup_meta(request_lang(request)),
                            headers={"Cache-Control": "max-age=60"})

    @router.post("/api/tables/check")
    @guarded
    async def check(request: Request) -> Response:
        """The deck for these players: its journal sheet and the box's advice, or the
        deck rule it breaks (the same words as for an online game)."""
        body = await _json(request)
        return JSONResponse(check_setup(body, translator(request_lang(request))))

    @router.post("/api/tables")
    @guarded
    async def create(request: Request) -> Response:
        body = await _json(request)
        setup = read_setup(body, translator(request_lang(request)))
        lang = negotiate(str(body.get("lang", ""))) or request_lang(request)
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
        t = translator(request_lang(request, stored.lang))
        return JSONResponse(view(stored, reader, t))

    def changed(request: Request, stored: StoredTable, reader: str | None) -> Response:
        t = translator(request_lang(request, stored.lang))
        return JSONResponse(view(stored, reader, t))

    @router.post("/api/tables/{code}/entries")
    @guarded
    async def enter(request: Request, code: str) -> Response:
        stored = found(code)
        body = await _json(request)
        reader = _who(stored, _token(request, body))
        with stored.lock:
            # a phone enters one thing: Death's name, by the player who took Death
            actions.enter(stored.table, reader, body.get("entry"))
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
            actions.undo(stored.table, body.get("what", "entry"))
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
        asked = actions.read_correction(body)
        with stored.lock:
            if asked.dry:  # what it would take back, said before it is done
                return JSONResponse(actions.correct(stored.table, asked))
            dropped = actions.correct(stored.table, asked)
            stored.set_aside = 0
            store().save(stored)
        t = translator(request_lang(request, stored.lang))
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
        t = translator(request_lang(request, stored.lang))
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
            stored.seats[name] = token_hash(token)
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
            stored.mayor = token_hash(token)
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
