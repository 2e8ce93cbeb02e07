"""Real Redis and PostgreSQL for the cluster tests, started in a temporary folder.

Both come from the Debian packages (``redis-server``; ``postgresql``, whose binaries
live in ``/usr/lib/postgresql/<version>/bin``). Where they are missing, the fixtures
install them with ``apt-get`` (as root); where that cannot be done, the tests that
need them are skipped with a reason that says what is missing. PostgreSQL refuses
to run as root, so a root test run starts it as the ``postgres`` user (created by the
package) with ``runuser``. Everything listens on 127.0.0.1 only, on free ports, and is
stopped when the session ends (each xdist worker starts its own).

:func:`machine_lock` serializes what must not run twice at once on the machine (apt-get,
npm installs, a shared build) across the suite's parallel workers and other runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["Postgres", "Redis", "free_port", "machine_lock", "postgres", "redis_server"]

APT_TIMEOUT_S = 600
LOCKS = Path(tempfile.gettempdir()) / "darkcity-test-locks"


@contextlib.contextmanager
def machine_lock(name: str) -> Iterator[None]:
    """Held by one process of the machine at a time (``flock`` on a file in the temporary
    folder): the workers of one run, and runs side by side, wait for each other."""
    LOCKS.mkdir(mode=0o777, parents=True, exist_ok=True)
    with open(LOCKS / f"{name}.lock", "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_port(port: int, timeout_s: float, proc: subprocess.Popen[bytes] | None = None) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return True
        time.sleep(0.05)
    return False


_installed: dict[str, str | None] = {}


def _apt_install(*packages: str) -> str | None:
    """Install Debian packages; ``None`` when done, else why it could not be."""
    key = " ".join(packages)
    if key in _installed:
        return _installed[key]
    why: str | None = None
    if shutil.which("apt-get") is None:
        why = "apt-get is not available"
    elif os.geteuid() != 0:
        why = "installing Debian packages needs root"
    else:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        try:
            with machine_lock("apt"):
                subprocess.run(["apt-get", "update", "-q"], env=env, check=True,
                               capture_output=True, timeout=APT_TIMEOUT_S)
                subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                                *packages], env=env, check=True, capture_output=True,
                               timeout=APT_TIMEOUT_S)
        except (subprocess.SubprocessError, OSError) as e:
            why = f"apt-get install {key} failed: {e}"
    _installed[key] = why
    return why


def _redis_binary() -> str | None:
    found = shutil.which("redis-server")
    if found is None and _apt_install("redis-server") is None:
        found = shutil.which("redis-server")
    return found


def _postgres_bin() -> Path | None:
    def find() -> Path | None:
        dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                      key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit()
                      else 0)
        return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "initdb").exists() else None

    found = find()
    if found is None and _apt_install("postgresql") is None:
        found = find()
    return found


@dataclass
class Redis:
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def flush(self) -> None:
        import redis

        with redis.Redis(port=self.port) as r:
            r.flushall()


@dataclass
class Postgres:
    port: int
    data: Path
    bin: Path
    as_user: list[str]
    counter: int = 0

    def url(self, db: str = "postgres") -> str:
        return f"postgresql+psycopg://darkcity@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        import psycopg

        self.counter += 1
        name = f"darkcity_{os.getpid()}_{self.counter}"
        with psycopg.connect(f"postgresql://darkcity@127.0.0.1:{self.port}/postgres",
                             autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                        "immediate", "-w", "stop"], capture_output=True, timeout=60)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    """A ``redis-server`` on a free loopback port, nothing saved to disk."""
    pytest.importorskip("redis", reason="the redis package (pip install 'darkcity[scale]')")
    binary = _redis_binary()
    if binary is None:
        pytest.skip("redis-server is not installed and could not be installed with apt-get "
                    f"({_installed.get('redis-server') or 'not found after installing'})")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not _wait_port(port, 20, proc):
            pytest.skip(f"redis-server did not start on port {port}")
        yield Redis(port, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster in a temporary folder (trust authentication on 127.0.0.1,
    no fsync: the tests kill servers, not the database)."""
    pytest.importorskip("psycopg", reason="the psycopg package (pip install 'darkcity[scale]')")
    pg = _postgres_bin()
    if pg is None:
        pytest.skip("PostgreSQL is not installed and could not be installed with apt-get "
                    f"({_installed.get('postgresql') or 'not found after installing'})")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("PostgreSQL cannot run as root and runuser is missing")
        try:
            subprocess.run(["id", "postgres"], check=True, capture_output=True)
        except subprocess.CalledProcessError:
            pytest.skip("PostgreSQL cannot run as root and there is no postgres user")
        as_user = ["runuser", "-u", "postgres", "--"]
    tmp = Path(tempfile.mkdtemp(prefix="darkcity-pg-"))
    data, sockets = tmp / "data", tmp / "run"
    sockets.mkdir()
    if as_user:
        shutil.chown(tmp, "postgres")
        shutil.chown(sockets, "postgres")
    port = free_port()
    try:
        init = subprocess.run([*as_user, str(pg / "initdb"), "-D", str(data), "-U", "darkcity",
                               "--auth=trust", "-E", "UTF8", "--no-sync"],
                              capture_output=True, timeout=120)
        if init.returncode != 0:
            pytest.skip(f"initdb failed: {init.stderr.decode(errors='replace')[-400:]}")
        opts = (f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        start = subprocess.run([*as_user, str(pg / "pg_ctl"), "-D", str(data), "-o", opts,
                                "-l", str(tmp / "log"), "-w", "-t", "60", "start"],
                               capture_output=True, timeout=90)
        if start.returncode != 0:
            log = (tmp / "log").read_text(errors="replace")[-400:] if (tmp / "log").exists() \
                else start.stderr.decode(errors="replace")
            pytest.skip(f"PostgreSQL did not start: {log}")
        server = Postgres(port, data, pg, as_user)
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
