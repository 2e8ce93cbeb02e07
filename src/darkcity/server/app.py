"""The FastAPI application: HTTP API, the static web UI, the clock; the WebSocket route
hands each socket to :mod:`darkcity.server.ws`."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from darkcity import __version__
from darkcity.deck import BOX, PRESETS, card_key
from darkcity.i18n import Message, msg, negotiate, translator
from darkcity.room import Room, names
from darkcity.room.bots import LEVELS
from darkcity.room.ports import CannotSave
from darkcity.room.text import catalog
from darkcity.server import protocol as p
from darkcity.server.bodies import BodyGuard
from darkcity.server.cluster import Cluster, Routes
from darkcity.server.common import (
    CANNOT_SAVE,
    NO_ROOM,
    Refusal,
    client_address,
    refusal_body,
    request_lang,
    validation_message,
)
from darkcity.server.companion import companion_router
from darkcity.server.config import ServerConfig
from darkcity.server.headers import SecurityHeaders
from darkcity.server.heavy import HeavyPool, rss_mb
from darkcity.server.hosts import AllowedHosts, host_policy
from darkcity.server.limits import (
    PerAddress,
    Probes,
    Sockets,
    TokenBucket,
    mask_credentials_in_logs,
)
from darkcity.server.manager import PACES, RoomManager
from darkcity.server.pocket_app import PocketApp, pocket_app_router, project_urls
from darkcity.server.preview import with_preview
from darkcity.server.qr import qr_router
from darkcity.server.replay import Replays
from darkcity.server.share import share_base
from darkcity.server.storage import make_storage
from darkcity.server.thinking import BotPool
from darkcity.server.ws import serve_socket

__all__ = ["create_app"]

log = logging.getLogger("darkcity.server")
STATIC = resources.files("darkcity").joinpath("server/static")


#: The HTTP status of a refusal that is not a plain bad request.
_STATUS: dict[str, int] = {"too-big": 413, "not-json": 415, "rate-limited": 429, "busy": 503}


def _refused(request: Request, e: Refusal, status: int = 400) -> JSONResponse:
    t = translator(request_lang(request))
    status = _STATUS.get(e.code, status) if status == 400 else status
    return JSONResponse(refusal_body(t, e.code, e.message), status_code=status)


def _later(request: Request, code: str, message: Message, status: int,
           retry_s: float) -> JSONResponse:
    """A refusal that asks to try again later (429, 503), with ``Retry-After``; the
    connection closes, so a body the request still sends is not read (slow.py lingers)."""
    r = _refused(request, Refusal(code, message), status)
    r.headers["Retry-After"] = str(max(1, math.ceil(retry_s)))
    r.headers["Connection"] = "close"
    return r


def _invalid(request: Request, e: ValidationError) -> JSONResponse:
    return _refused(request, Refusal("invalid", validation_message(e)), 422)


#: The collector's thresholds once the server has started (issue #33). The start-up's
#: objects are frozen out of its sight; then a young collection every 500 net
#: allocations (under 2 ms of CPU), the middle generation every 2 of them (under 4 ms:
#: it holds at most two young collections' survivors), and the whole heap after
#: 20,000 middle ones (tens of minutes apart at 2,004 players; the default's 10 held
#: the loop for up to 216 ms a few times a run). Every decision replaces part of a
#: room's state, and the old objects' deaths count against the young threshold, so the
#: young generation holds many more objects than its threshold: the pause is what is
#: set here, the collector's CPU is the same (0.045 to 0.055 ms a decision). Measured
#: at 2,004 players with ``benchmarks/server_probe.py`` (one 30 s run each, quiet
#: machine): middle collections of 14.7 ms at most with (1000, 10, 3000), 7.8 with
#: (1000, 3, 10000), 5.3 with (1000, 2, 15000), 4.0 with (500, 2, 20000); the clients'
#: ack p99 11.9, 8.3, 7.9, 5.4 ms; benchmarks/README.md has the runs.
GC_THRESHOLDS = (500, 2, 20000)


def _trim() -> Any:
    """glibc's ``malloc_trim`` (``None`` elsewhere)."""
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return None


_TRIM = _trim()


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The application; rooms are stored at ``config.database``."""
    cfg = config or ServerConfig.from_env()
    state: dict[str, Any] = {}
    # --redis: rooms shared with other processes (cluster/); else this one holds all
    cluster = Cluster(cfg.redis_url, lease_s=cfg.lease_s) if cfg.redis_url else None
    pocket = PocketApp(cfg.app_dir)  # the pocket app at /app/, built at first need
    # records replayed in worker processes, off the rooms' loop (heavy.py)
    heavy = HeavyPool(cfg.replay_workers, cfg.replay_queue, cfg.replay_timeout_s) \
        if cfg.replay_workers > 0 else None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        mask_credentials_in_logs()  # uvicorn's handlers exist by now
        storage = make_storage(cfg)
        pool = BotPool(cfg.bot_workers) if cfg.bot_workers > 0 else None
        if pool is not None:
            await pool.warm()
        manager = RoomManager(storage, cfg, pool=pool)
        resumed = manager.load_active() if cluster is None else 0
        if resumed:
            log.info("resumed %d rooms", resumed)
        state["manager"] = manager
        if cluster is not None:  # it takes over the games nobody runs by itself
            await cluster.start(manager)

        async def clock() -> None:
            while True:
                try:
                    manager.tick()
                except Exception:  # one bad room must not stop every room's clock
                    log.exception("clock tick failed")
                await asyncio.sleep(cfg.tick_s)

        async def checkpoints() -> None:
            said = -math.inf
            while True:
                await asyncio.sleep(2.0)
                try:
                    await asyncio.to_thread(storage.checkpoint)
                except Exception as e:  # (a full disk: the writes' own refusals say it)
                    if time.monotonic() - said >= 60:
                        said = time.monotonic()
                        log.warning("checkpoint of %s failed: %s", storage.where,
                                    getattr(e, "orig", None) or e)

        names.warm()  # (the look-alike table, not at the first player's name)
        # Long-lived start-up objects leave the collector's sight; fewer, larger
        # collections keep pauses out of the players' latency (GC_THRESHOLDS).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        async def give_back() -> None:
            """After a flood the heap holds the pages its buffers came and went in (the
            issue's 83 -> 218 MB, kept): freed pages go back to the system, a few
            milliseconds once in a while, when the process has grown 32 MB or more."""
            floor = rss_mb()
            while _TRIM is not None:
                await asyncio.sleep(10.0)
                now = rss_mb()
                if now - floor >= 32:
                    _TRIM(0)
                    floor = rss_mb()  # (what stays is the rooms' own: the next floor)
                else:
                    floor = min(floor, now)

        async def retention() -> None:  # darkcity serve --keep-days
            while cfg.keep_days > 0:
                try:
                    gone = await asyncio.to_thread(storage.prune,
                                                   time.time() - cfg.keep_days * 86400,
                                                   frozenset(manager.rooms))
                    if gone:
                        log.info("retention: %d rooms older than %g days deleted", gone,
                                 cfg.keep_days)
                except Exception:
                    log.exception("retention failed")
                await asyncio.sleep(3600)

        tasks = [asyncio.create_task(clock()), asyncio.create_task(checkpoints()),
                 asyncio.create_task(retention()), asyncio.create_task(give_back())]
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if pool is not None:
                pool.close()
            pocket.close()
            if heavy is not None:
                await heavy.close()
            with contextlib.suppress(Exception):  # (a full disk: it stays in the log)
                storage.checkpoint()
            storage.close()

    app = FastAPI(title="darkcity", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(companion_router(cfg))  # the table companion (issue #11)
    app.include_router(qr_router(cfg))  # the shared links as QR codes, for friends in one room
    app.include_router(pocket_app_router(cfg, pocket))  # the pocket app, for any phone (#49)
    app.add_middleware(SecurityHeaders)
    # every route's body, the companion's too: JSON only, refused past the limit unread
    app.add_middleware(BodyGuard, limit=cfg.max_body_bytes,
                       larger={"/api/replay": cfg.max_record_bytes})
    if cluster is not None:  # a room's requests go to the process that runs it
        app.add_middleware(Routes, cluster=cluster)
    # the record viewer's steps, before the router: refused cheaply under a flood,
    # replayed in a worker process (replay.py, heavy.py); per address and in all
    app.add_middleware(Replays, pool=heavy,
                       per_address=PerAddress(cfg.review_per_min / 60,
                                              max(1, int(cfg.review_per_min / 4))),
                       total=TokenBucket(cfg.review_total_per_min / 60,
                                         max(1.0, cfg.review_total_per_min / 30)),
                       limit=cfg.max_record_bytes)
    hosts = host_policy(cfg.listen_host, cfg.allowed_hosts, cfg.share_url)
    if cfg.listen_host:  # darkcity serve: X-Forwarded-For read here, after the Host check
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware,
                           trusted_hosts=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"))
    if hosts is not None:  # outermost: a request for another site's name goes no further
        app.add_middleware(AllowedHosts, policy=hosts)
    sockets = Sockets(cfg.max_sockets_per_address, cfg.max_spectators_per_room,
                      cfg.max_spectators_per_address)
    creates = PerAddress(cfg.create_per_min / 60, cfg.create_burst)
    joins = PerAddress(cfg.join_per_min / 60, cfg.join_burst)
    probes = Probes.per_minute(cfg.probe_per_min, cfg.probe_burst)

    @app.exception_handler(Refusal)
    async def refused(request: Request, exc: Refusal) -> Response:
        return _refused(request, exc)

    @app.exception_handler(CannotSave)
    async def cannot_save(request: Request, exc: CannotSave) -> Response:
        """The database refused a write (logged by the storage, for the operator): the
        request is refused in words, nothing changed."""
        return _later(request, CANNOT_SAVE.code, CANNOT_SAVE.message, 503, 5)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        """A bug (uvicorn logs its trace): the client gets JSON in words, never a trace."""
        return _refused(request, Refusal("internal", msg("Something went wrong.")), 500)

    def slow_down(request: Request, bucket: PerAddress) -> Response | None:
        """None, or the refusal of a client address over its rate (with Retry-After)."""
        address = client_address(request)
        if bucket.take(address):
            return None
        return _later(request, "rate-limited", msg(
            "Too many requests from your address: try again in a minute."), 429,
            bucket.wait_s(address))

    def find(request: Request, code: str) -> Room | Response:
        """The room ``code``, or the refusal: not there (404), or this address has asked
        for too many codes that are not there (429: probing)."""
        address = client_address(request)
        if not probes.allowed(address):
            return _later(request, "rate-limited", msg(
                "Too many room codes that do not exist from your address: try again in a "
                "minute."), 429, probes.wait_s(address))
        room = manager().get(code)
        if room is None:
            probes.missed(address)
            return _refused(request, NO_ROOM, 404)
        return room

    def manager() -> RoomManager:
        m = state["manager"]
        assert isinstance(m, RoomManager)
        return m

    def index(request: Request, room: Room | None = None, status: int = 200) -> HTMLResponse:
        """The app's page, with the invite link's preview (of ``room``) in its head."""
        page = STATIC.joinpath("index.html").read_text(encoding="utf-8")
        base = share_base(request, cfg)[0]
        return HTMLResponse(with_preview(page, room, base), status_code=status,
                            headers={"Cache-Control": "no-cache"})

    @app.exception_handler(HTTPException)
    async def not_found(request: Request, exc: HTTPException) -> Response:
        """No raw ``{"detail": ...}``: the API answers its own JSON (code, message), a
        page the app itself, which says what is missing."""
        if request.url.path.startswith("/api/"):
            e = Refusal("not-found" if exc.status_code == 404 else "http",
                        msg("There is nothing at this address."))
            return _refused(request, e, exc.status_code)
        return index(request, status=exc.status_code)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("favicon.svg")), media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return index(request)

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(request: Request, code: str) -> Response:
        found = find(request, code)
        if isinstance(found, Response) and found.status_code == 429:
            return index(request, status=429)
        return index(request, found if isinstance(found, Room) else None)

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> HTMLResponse:
        """The record viewer: a game record opened and stepped through, night by night."""
        if heavy is not None:
            heavy.warm()  # (its first step does not wait for the worker to start)
        page = STATIC.joinpath("replay.html").read_text(encoding="utf-8")
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "rooms": len(manager().rooms), "time": time.time()}

    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        base, reachable = share_base(request, cfg)
        return {
            "invite_base": base,  # where the invite link points (share.py)
            "reachable": reachable,  # false: a page on localhost nobody else can open
            "presets": [{"name": k, "min": v[1][0], "max": v[1][1]} for k, v in PRESETS.items()],
            "levels": list(LEVELS),
            "paces": {k: {"decide_s": v[0], "beat_s": v[1]} for k, v in PACES.items()},
            "languages": ["en", "pt_BR"],
            "box": [card_key(c) for c in BOX],
            "version": __version__,  # the pages' footers
            "changelog": project_urls().get("changelog"),
        }

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> Response:
        found = negotiate(lang) or "en"
        return JSONResponse(catalog(found), headers={"Cache-Control": "max-age=300"})

    @app.post("/api/rooms")
    async def create_room(request: Request) -> Response:
        if (busy := slow_down(request, creates)) is not None:
            return busy
        try:
            body = p.CreateRoom.model_validate_json(await _body(request, cfg))
            room, member, token = manager().create(body)
        except ValidationError as e:
            return _invalid(request, e)
        except Refusal as e:
            return _refused(request, e)
        return JSONResponse({"code": room.code, "token": token, "member": member.id,
                             "path": f"/r/{room.code}"}, status_code=201)

    @app.get("/api/rooms/{code}")
    async def get_room(code: str, request: Request) -> Response:
        room = find(request, code)
        if isinstance(room, Response):
            return room
        return JSONResponse(room.lobby_public())

    @app.post("/api/rooms/{code}/join")
    async def join_room(code: str, request: Request) -> Response:
        room = find(request, code)
        if isinstance(room, Response):
            return room
        if (busy := slow_down(request, joins)) is not None:
            return busy
        try:
            body = p.JoinRoom.model_validate_json(await _body(request, cfg))
            member, token = room.add_member(body.name)
        except ValidationError as e:
            return _invalid(request, e)
        except Refusal as e:
            return _refused(request, e)
        return JSONResponse({"code": room.code, "token": token, "member": member.id},
                            status_code=201)

    @app.post("/api/rooms/{code}/again")
    async def play_again(code: str, request: Request) -> Response:
        room = find(request, code)
        if isinstance(room, Response):
            return room
        try:
            body = p.PlayAgain.model_validate_json(await _body(request, cfg))
            member = room.member_by_token(body.token)
            new = manager().again(room, member.id if member else None)
        except ValidationError as e:
            return _invalid(request, e)
        except Refusal as e:
            return _refused(request, e)
        return JSONResponse({"code": new.code, "path": f"/r/{new.code}"}, status_code=201)

    @app.get("/api/rooms/{code}/record")
    async def record(code: str, request: Request) -> Response:
        room = find(request, code)
        if isinstance(room, Response):
            return room
        try:
            doc = room.record()
        except Refusal as e:
            return _refused(request, e, 409)
        return JSONResponse(doc, headers={
            "Content-Disposition": f'attachment; filename="darkcity-{room.code}.json"'})

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        await serve_socket(ws, code, manager, sockets, cfg, probes)

    return app


async def _body(request: Request, cfg: ServerConfig, limit: int | None = None) -> bytes:
    """The JSON body, refused unless it is ``application/json`` (no other site's form can
    send that without asking) and refused by its ``Content-Length``, or as soon as more
    than ``limit`` (``max_message_bytes``) arrived, before it is read whole."""
    limit = cfg.max_message_bytes if limit is None else limit
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > limit:
        raise Refusal("too-big", msg("That message is too big."))
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refusal("not-json", msg("Send the request body as application/json."))
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refusal("too-big", msg("That message is too big."))
    return bytes(data) or b"{}"


