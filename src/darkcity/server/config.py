"""The server's settings, from arguments or the environment (``DARKCITY_*``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ServerConfig", "default_db_url"]


def default_db_url(directory: Path | None = None) -> str:
    """A SQLite file ``darkcity.sqlite3`` in ``directory`` (the current one by default)."""
    path = (directory or Path.cwd()) / "darkcity.sqlite3"
    return f"sqlite:///{path}"


def _float(env: Mapping[str, str], key: str, default: float) -> float:
    value = env.get(key)
    return float(value) if value else default


def _int(env: Mapping[str, str], key: str, default: int) -> int:
    value = env.get(key)
    return int(value) if value else default


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """What one server process needs; every field has a ``DARKCITY_<NAME>`` variable."""

    db_url: str = ""  # "" -> default_db_url()
    redis_url: str = ""  # "" -> one process, no Redis; else rooms shared (cluster/)
    lease_s: float = 5.0  # a room's ownership lease in Redis (renewed every third of it)
    grace_s: float = 30.0  # a disconnected player is played by a bot after this
    bot_delay_s: float = 0.8  # how long a seated bot "thinks"
    max_message_bytes: int = 4096  # one client message
    rate_per_s: float = 15.0  # sustained client messages per second
    rate_burst: int = 40  # burst allowance
    max_rooms: int = 5000  # rooms held in memory at once (loaded ones too)
    # -- limits against hostile clients (limits.py; docs/server.md "Limits and abuse")
    max_body_bytes: int = 16384  # any HTTP body, at the edge (each route may ask less)
    max_record_bytes: int = 1_048_576  # a game record sent to /api/replay (the one larger body)
    review_per_min: float = 240.0  # steps of a record one address may ask, sustained
    review_total_per_min: float = 1200.0  # ... and every address together (503 past it)
    replay_workers: int = 1  # processes that replay records (heavy.py; 0: in a thread)
    replay_queue: int = 16  # replays waiting for a worker at most (503 past it)
    replay_timeout_s: float = 10.0  # a replay running longer is stopped (its worker replaced)
    header_timeout_s: float = 10.0  # a request's head must arrive within this (slow.py)
    body_timeout_s: float = 30.0  # ... and its body within this after the head (408)
    probe_per_min: float = 30.0  # room and table codes not found, per address, sustained
    probe_burst: int = 30  # ... at once; then every code lookup of that address waits (429)
    max_sockets_per_address: int = 64  # open WebSockets of one client address
    hello_timeout_s: float = 10.0  # a socket that has not said hello by then is closed
    max_spectators_per_room: int = 48  # sockets without a seat token; members always get in
    max_spectators_per_address: int = 8  # of them, from one address
    max_sockets_per_member: int = 4  # one person's tabs; a newer one closes the oldest
    create_per_min: float = 6.0  # rooms one address may create, sustained
    create_burst: int = 20  # ... at once
    join_per_min: float = 30.0  # people one address may add to rooms, sustained
    join_burst: int = 60  # ... at once
    idle_room_s: float = 600.0  # a room nobody is connected to leaves memory after this
    keep_days: float = 30.0  # lobbies and finished games untouched this long are deleted
    min_decide_s: float = 5.0  # floors of the pace numbers a room may ask for
    min_beat_s: float = 0.1
    min_bot_delay_s: float = 0.1
    bot_workers: int = 2  # processes that run the bots' thinking (0: on the event loop)
    # PostgreSQL: "off" (the durability of SQLite's WAL mode: storage.Storage) or "on"
    pg_synchronous_commit: str = "off"
    tick_s: float = 0.05  # the clock's resolution (deadlines, bots, counts)
    coalesce_s: float = 0.01  # changes within this window make one broadcast (acks go first)
    progress_s: float = 0.5  # "who has decided" goes to the others at most this often
    presence_s: float = 1.0  # who is connected (the lobby's "online") goes out this often
    sealed_progress_s: float = 2.0  # ... and this long after the first news, when several
    # decide at once (one broadcast carries several decisions; the count tells the last)
    send_queue: int = 256  # messages queued for one slow client before it is dropped
    # where others reach this server when a page is opened on localhost (share.py):
    # `darkcity serve --host 0.0.0.0` sets the local network's address
    share_url: str = ""
    # the pocket app at /app/ (pocket_app.py): a folder built by `darkcity app build`,
    # or "" to build it at first need
    app_dir: str = ""
    # the Host names this server answers to (hosts.py), beyond what listen_host implies
    # ("*": any); listen_host is `darkcity serve --host` ("": not known, no Host check)
    allowed_hosts: str = ""
    listen_host: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> \
            ServerConfig:
        env = os.environ if environ is None else environ
        values: dict[str, object] = {
            "db_url": env.get("DARKCITY_DB", ""),
            "redis_url": env.get("DARKCITY_REDIS", ""),
            "lease_s": _float(env, "DARKCITY_LEASE_S", 5.0),
            "grace_s": _float(env, "DARKCITY_GRACE_S", 30.0),
            "bot_delay_s": _float(env, "DARKCITY_BOT_DELAY_S", 0.8),
            "max_message_bytes": _int(env, "DARKCITY_MAX_MESSAGE_BYTES", 4096),
            "rate_per_s": _float(env, "DARKCITY_RATE_PER_S", 15.0),
            "rate_burst": _int(env, "DARKCITY_RATE_BURST", 40),
            "max_rooms": _int(env, "DARKCITY_MAX_ROOMS", 5000),
            "pg_synchronous_commit": env.get("DARKCITY_PG_SYNCHRONOUS_COMMIT") or "off",
            "share_url": env.get("DARKCITY_SHARE_URL", ""),
            "app_dir": env.get("DARKCITY_APP_DIR", ""),
            "allowed_hosts": env.get("DARKCITY_ALLOWED_HOSTS", ""),
            "listen_host": env.get("DARKCITY_LISTEN_HOST", ""),
        }
        values.update(_limits(env))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]

    @property
    def database(self) -> str:
        return self.db_url or default_db_url()


#: The limits' fields and their variables (``DARKCITY_`` + the field's name in capitals).
_LIMITS: dict[str, type[int] | type[float]] = {
    "max_body_bytes": int, "max_record_bytes": int, "review_per_min": float,
    "review_total_per_min": float, "replay_workers": int, "replay_queue": int,
    "replay_timeout_s": float, "header_timeout_s": float, "body_timeout_s": float,
    "probe_per_min": float, "probe_burst": int,
    "max_sockets_per_address": int, "hello_timeout_s": float,
    "max_spectators_per_room": int, "max_spectators_per_address": int,
    "max_sockets_per_member": int, "create_per_min": float, "create_burst": int,
    "join_per_min": float, "join_burst": int, "idle_room_s": float, "keep_days": float,
    "min_decide_s": float, "min_beat_s": float, "min_bot_delay_s": float,
    "bot_workers": int,
}


def _limits(env: Mapping[str, str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, kind in _LIMITS.items():
        key = f"DARKCITY_{name.upper()}"
        value = env.get(key)
        if not value:
            continue
        try:
            out[name] = kind(value)
        except ValueError:
            raise ValueError(f"{key}={value!r}: not a number") from None
    return out
