"""Issue #53: slow clients cut, a refusal read rather than reset, the ``Host`` header,
room codes probed, the record viewer's worker (a real ``darkcity serve`` on loopback,
attackers on other loopback addresses, every loop bounded)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from .test_server_abuse import Server, connect, first, http  # noqa: E402

HEAD_S, BODY_S = 2.0, 2.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("slow") / "slow.sqlite3", "--header-timeout",
               str(HEAD_S), "--body-timeout", str(BODY_S), DARKCITY_BOT_WORKERS="0",
               DARKCITY_MAX_SOCKETS_PER_ADDRESS="1000")
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _closed(sock: socket.socket, within: float) -> tuple[bool, bytes]:
    """Whether the server closed ``sock`` within ``within`` seconds; what it sent."""
    sock.settimeout(within)
    got = b""
    end = time.monotonic() + within
    with contextlib.suppress(OSError):
        while time.monotonic() < end:
            chunk = sock.recv(65536)
            if not chunk:
                return True, got
            got += chunk
    return False, got


def test_slow_headers_and_slow_bodies_are_cut_after_their_timeouts(server: Server) -> None:
    """The audit: 150 slow headers and 150 slow bodies held their connections 46 s."""
    before = server.fds()
    heads, bodies = [], []
    for _ in range(150):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never ends
        heads.append(s)
        b = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        b.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  b"application/json\r\nContent-Length: 1000\r\n\r\n{\"na")  # 4 of 1,000
        bodies.append(b)
    started = time.monotonic()
    while server.fds() < before + 290 and time.monotonic() < started + 3:
        time.sleep(0.05)  # (accepted by the server, not only by the kernel's backlog)
    assert server.fds() >= before + 290  # every one of them held, for now
    results: dict[str, list[tuple[bool, bytes]]] = {"head": [], "body": []}

    def watch(kind: str, socks: list[socket.socket]) -> None:
        for s in socks:
            left = max(0.1, started + max(HEAD_S, BODY_S) + 4 - time.monotonic())
            results[kind].append(_closed(s, left))

    threads = [threading.Thread(target=watch, args=(k, v)) for k, v in
               (("head", heads), ("body", bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    print(f"300 slow connections closed {took:.1f} s after they were all accepted "
          f"(deadlines {HEAD_S:g} s and {BODY_S:g} s)")
    assert all(closed for closed, _ in results["head"]), "a slow head was kept"
    assert all(closed for closed, _ in results["body"]), "a slow body was kept"
    assert took < max(HEAD_S, BODY_S) + 4
    # a slow body hears why (JSON, in words); a slow head is closed
    said = results["body"][0][1]
    assert said.startswith(b"HTTP/1.1 408"), said[:100]
    assert json.loads(said.split(b"\r\n\r\n", 1)[1])["code"] == "timeout"
    for s in heads + bodies:
        s.close()
    end = time.monotonic() + 5
    while server.fds() > before + 5 and time.monotonic() < end:
        time.sleep(0.1)
    assert server.fds() <= before + 5
    # a kept-alive connection's next request is held to the same deadline
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 1")
        t0 = time.monotonic()
        closed, _ = _closed(s, HEAD_S + 4)
        assert closed and time.monotonic() - t0 < HEAD_S + 3
    assert httpx.get(f"{server.base}/healthz").status_code == 200  # others unharmed


def test_a_client_still_sending_a_huge_body_reads_the_413(server: Server) -> None:
    """Refused by its length while it is still sending (a client that sends its whole
    body, then reads): the answer, then our end of the stream, and what it still sends
    is read and dropped, so that its send ends and it reads the 413. Closed at once, the
    connection answered its sends with a reset (broken pipe) on every try here."""
    body = 2 * 2**20  # (past the 1 MiB limit; a small send buffer: the kernel's buffers
    for _ in range(5):  # do not take it all before the server has answered)
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32768)
        s.settimeout(10)
        s.connect(("127.0.0.1", server.port))
        with s:
            try:
                s.sendall(b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: %d\r\n\r\n" % body
                          + b"x" * body)
                got = s.recv(65536)
            except OSError as e:
                pytest.fail(f"{e!r} instead of the answer")
        assert got.startswith(b"HTTP/1.1 413"), got[:200]


def test_a_foreign_host_name_is_refused_in_words(server: Server) -> None:
    r = httpx.get(f"{server.base}/api/meta", headers={"Host": "evil.example.com"})
    assert r.status_code == 400 and r.json()["code"] == "bad-host"
    assert "--allowed-hosts evil.example.com" in r.json()["message"]
    pt = httpx.get(f"{server.base}/", headers={"Host": "evil.example.com:8000",
                                               "Accept-Language": "pt-BR"})
    assert pt.status_code == 400 and "não responde" in pt.json()["message"]
    for ok in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "[::1]", "LOCALHOST",
               "10.1.2.3:8000"):  # addresses and this machine's own names
        assert httpx.get(f"{server.base}/api/meta", headers={"Host": ok}).status_code == 200

    async def socket_of_another_site() -> None:
        import websockets

        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"{server.ws}/ws/ABCDEF", proxy=None,
                                     additional_headers={"Host": "evil.example.com"})

    with contextlib.suppress(TypeError):  # (older websockets: no additional_headers)
        asyncio.run(socket_of_another_site())


def test_room_codes_cannot_be_probed(server: Server) -> None:
    """The audit probed codes at 170 a second from one address."""
    with http("127.0.0.92") as c:  # (127.0.0.1's creations went to the slow bodies)
        code = c.post(f"{server.base}/api/rooms", json={"name": "Ana"}).json()["code"]
    statuses = []
    with http("127.0.0.90") as c:
        for i in range(40):
            statuses.append(c.get(f"{server.base}/api/rooms/ZZZZ{i % 9 + 2}{i % 7 + 2}")
                            .status_code)
        assert statuses[:30] == [404] * 30 and statuses[-1] == 429
        refused = c.get(f"{server.base}/api/rooms/{code}")  # even a real one, for now
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert "do not exist" in refused.json()["message"]

    async def by_socket() -> None:
        ws = await connect(server, "ZZZZ22", address="127.0.0.90")
        assert (await first(ws, "never"))["code"] == "rate-limited"  # (before its hello)
        await ws.close()

    asyncio.run(by_socket())
    with http("127.0.0.91") as c:  # another address is not held back
        got = c.get(f"{server.base}/api/rooms/{code}")
        assert got.status_code == 200, (code, got.text)
        assert c.get(f"{server.base}/api/rooms/ZZZZ22").status_code == 404


def test_the_record_viewer_takes_any_seat_name_the_engine_takes(server: Server) -> None:
    from darkcity.deck import preset
    from darkcity.game import Game, play_randomly
    from darkcity.record import write_record
    from darkcity.settings import Settings, bot_rng

    long = "Maria Eduarda dos Santos Silva"  # 30 characters: past a room's 24
    names = (long, "Bia", "Caio", "Duda")
    game = Game(Settings(players=names, deck=preset("basic", 4)), 3)
    play_randomly(game, bot_rng(3))
    r = httpx.post(f"{server.base}/api/replay", timeout=60, json={
        "record": write_record(game), "night": 1, "viewer": long})
    assert r.status_code == 200, r.text
    assert r.json()["viewer"] == long


# -- the replay workers, without a server ------------------------------------------------


def test_the_replay_pool_refuses_past_its_queue_and_stops_what_runs_too_long() -> None:
    from darkcity.server.heavy import Busy, HeavyPool

    async def main() -> None:
        pool = HeavyPool(workers=1, queue=1, timeout_s=1.5)
        try:
            first = asyncio.create_task(pool.run("sleep", b"0.8", "en"))
            await asyncio.sleep(0.05)
            second = asyncio.create_task(pool.run("sleep", b"0", "en"))  # waits its turn
            await asyncio.sleep(0.05)
            with pytest.raises(Busy) as e:  # a third: the queue is full, said at once
                await pool.run("sleep", b"0", "en")
            assert "busy" in e.value.message.render()
            assert (await first)[0] == 200 and (await second)[0] == 200
            with pytest.raises(Busy) as e:  # too long: stopped, its worker replaced
                await pool.run("sleep", b"5", "en")
            assert "too long" in e.value.message.render()
            assert (await pool.run("sleep", b"0", "en"))[0] == 200
            status, answer = await pool.run("replay", b'{"record": {}, "night": 0}', "pt_BR")
            assert status == 422 and json.loads(answer)["code"] == "bad-record"
        finally:
            await pool.close()

    asyncio.run(main())


def test_the_host_policy_follows_where_the_server_listens(monkeypatch: pytest.MonkeyPatch,
                                                          ) -> None:
    import socket as s

    from darkcity.server.hosts import host_policy

    monkeypatch.setattr(s, "gethostname", lambda: "Laptop")
    assert host_policy("", "") is None and host_policy("127.0.0.1", "*") is None
    local = host_policy("127.0.0.1", "", forwarded_allow_ips="127.0.0.1")
    assert local is not None
    for ok in ("localhost:8000", "127.0.0.1", "[::1]:8000", "192.168.0.7:8000", "a.localhost"):
        assert local.allows(ok, "127.0.0.1", False), ok
    for bad in ("evil.example.com", "laptop", "laptop.local"):
        assert not local.allows(bad, "127.0.0.1", False), bad
    assert not local.allows("play.example.org", "127.0.0.1", True)  # a local "proxy"
    named = host_policy("127.0.0.1", "play.example.org,*.example.net",
                        "https://friends.example.com/")
    assert named is not None
    for ok in ("play.example.org", "PLAY.example.org.", "a.example.net:443",
               "friends.example.com"):
        assert named.allows(ok, "127.0.0.1", False), ok
    lan = host_policy("0.0.0.0", "", forwarded_allow_ips="10.0.0.0/8")
    assert lan is not None
    for ok in ("laptop:8000", "laptop.local", "192.168.0.7:8000"):
        assert lan.allows(ok, "192.168.0.9", False), ok
    assert not lan.allows("evil.example.com", "192.168.0.9", False)
    assert not lan.allows("evil.example.com", "192.168.0.9", True)  # not a trusted proxy
    assert lan.allows("play.example.org", "10.0.0.5", True)  # deploy/'s Caddy
    assert not lan.allows("play.example.org", "10.0.0.5", False)
    assert not lan.allows("play.example.org", "127.0.0.1", True)
