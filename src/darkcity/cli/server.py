"""The ``serve`` command: the web app."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from darkcity.cli.base import LangOption, fail, reader
from darkcity.i18n import Message, _, msg

__all__ = ["commands", "serve"]

#: This module's commands (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()


@commands.command("serve", help=_("Run the web app: rooms in the browser, the app is the Mayor."))
def serve(
    host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=_("Port to listen on."))] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help=_("SQLAlchemy database URL (default: darkcity.sqlite3 in the current "
                       "folder)."))] = None,
    keep_days: Annotated[float | None, typer.Option(
        "--keep-days", help=_("Delete lobbies and finished games untouched for this many "
                              "days (0: keep everything; default 30)."))] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", help=_("Redis URL: several processes, on any machines, share the rooms "
                          "(with one PostgreSQL --db; see docs/deploy.md)."))] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help=_("Server processes on this machine, on one port (more "
                                   "than one needs --redis)."))] = 1,
    allowed_hosts: Annotated[str | None, typer.Option(
        "--allowed-hosts", help=_("Other names this server answers to, separated by commas "
                                  "(play.example.org, *.example.org; * for any): behind a "
                                  "proxy on this machine, its domain."))] = None,
    header_timeout: Annotated[float | None, typer.Option(
        "--header-timeout", min=0, help=_("Seconds a client has to send a request's "
                                          "headers before it is cut (0: no limit; default "
                                          "10)."))] = None,
    body_timeout: Annotated[float | None, typer.Option(
        "--body-timeout", min=0, help=_("Seconds a client has to send a request's body "
                                        "after its headers (0: no limit; default 30)."))
    ] = None,
    lang: LangOption = None,
) -> None:
    """Run the web app: rooms in the browser, the app is the Mayor."""
    t = reader(lang)
    try:
        import uvicorn

        from darkcity.room.ports import CannotSave
        from darkcity.server import ServerConfig, create_app
        from darkcity.server.limits import safe_url
        from darkcity.server.share import lan_address, serve_share_url
        from darkcity.server.storage import make_storage
    except ImportError as e:
        raise fail(t, msg("the web app needs its dependencies ({error}); reinstall darkcity",
                          error=str(e))) from None
    # where friends reach this server, for the links a page on localhost shares (share.py)
    share = (os.environ.get("DARKCITY_SHARE_URL")
             or serve_share_url(host, port, lan_address()))
    try:
        config = ServerConfig.from_env(db_url=db, keep_days=keep_days, redis_url=redis,
                                       share_url=share or None, listen_host=host,
                                       allowed_hosts=allowed_hosts,
                                       header_timeout_s=header_timeout,
                                       body_timeout_s=body_timeout)
    except ValueError as e:
        raise fail(t, msg("bad setting: {error}", error=str(e))) from None
    if workers > 1 and not config.redis_url:
        raise fail(t, msg("--workers {n} needs --redis: processes share their rooms over "
                          "Redis", n=workers))
    sys.stderr.write(t.render(msg("darkcity: serving on http://{host}:{port}/ (database: "
                                  "{db})", host=host, port=port,
                                  db=safe_url(config.database))) + "\n")
    if config.share_url:
        sys.stderr.write(t.render(msg("darkcity: friends on your network open {url}/",
                                      url=config.share_url.rstrip("/"))) + "\n")
    else:
        sys.stderr.write(t.render(msg(
            "darkcity: listening on this computer only; for friends on your network: "
            "darkcity serve --host 0.0.0.0")) + "\n")
    if config.redis_url:
        sys.stderr.write(t.render(msg("darkcity: rooms shared with other processes over "
                                      "Redis ({n} here)", n=workers)) + "\n")
    os.environ["DARKCITY_HEADER_TIMEOUT_S"] = f"{config.header_timeout_s:g}"
    os.environ["DARKCITY_BODY_TIMEOUT_S"] = f"{config.body_timeout_s:g}"
    try:  # a database it cannot write: said now, in words, rather than a trace later
        storage = make_storage(config)
        try:
            storage.check_writable()
        finally:
            storage.close()
    except CannotSave as e:
        said = getattr(e, "message", None)  # (the storage's DatabaseFault: file, why, fix)
        raise fail(t, said if isinstance(said, Message) else msg(
            "darkcity cannot write to its database {where}: {why}", where=safe_url(
                config.database), why=str(e))) from None
    options: dict[str, Any] = dict(
        host=host, port=port, log_level="warning", ws_max_size=16384, ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,  # small messages: compression costs more
        ws=os.environ.get("DARKCITY_WS_IMPL", "auto"),
        # slow clients cut (headers, bodies), refusals read before a close (slow.py): by
        # name, so that uvicorn's worker processes import it (its deadlines: the env)
        http="darkcity.server.slow:HttpProtocol",
        # X-Forwarded-For read by the app, after its Host check (hosts.py)
        proxy_headers=False)
    if workers == 1:
        uvicorn.run(create_app(config), **options)
        return
    # Each worker builds its app from the environment (uvicorn starts them by name).
    os.environ.update({"DARKCITY_DB": config.database, "DARKCITY_REDIS": config.redis_url,
                       "DARKCITY_KEEP_DAYS": f"{config.keep_days:g}",
                       "DARKCITY_SHARE_URL": config.share_url,
                       "DARKCITY_LISTEN_HOST": config.listen_host,
                       "DARKCITY_ALLOWED_HOSTS": config.allowed_hosts})
    uvicorn.run("darkcity.server:create_app", factory=True, workers=workers, **options)
