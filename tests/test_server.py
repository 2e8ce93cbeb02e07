"""Issue #6, the server's rooms: lobby, the Mayor's clock, durability, and no leaks.

These drive :class:`darkcity.room.Room` directly with a fake clock (no
sockets, so whole games take milliseconds); ``test_server_ws.py`` drives the
real protocol, and ``test_server_process.py`` a real server process.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from darkcity.room import Room
from darkcity.room.broadcast import _localize
from darkcity.room.state import RoomState
from darkcity.server.common import Refusal
from darkcity.server.config import ServerConfig
from darkcity.server.conn import Conn
from darkcity.server.manager import RoomManager
from darkcity.server.protocol import CreateRoom
from darkcity.server.storage import Storage
from darkcity.views import view

NAMES = ("Ana", "Bia", "Caio", "Duda")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


@pytest.fixture
def clock() -> Clock:
    return Clock()


def manager(db: str, clock: Clock) -> RoomManager:
    return RoomManager(Storage(db), ServerConfig(db_url=db), clock=clock)


def conn(lang: str = "en") -> Conn:
    c = Conn(lang, 0)
    c.sent = []
    return c


class Table:
    """A room of four people and two bots, each person with a recording connection."""

    def __init__(self, db: str, clock: Clock, *, players: int = 6, bots: int = 2,
                 **options: Any) -> None:
        self.clock = clock
        self.manager = manager(db, clock)
        body = CreateRoom(name=NAMES[0], players=players, pace="fast", decide_s=30, beat_s=0.5,
                          bot_delay_s=0.2, grace_s=10, **options)
        self.room, host, token = self.manager.create(body)
        self.tokens = {NAMES[0]: token}
        self.members = {NAMES[0]: host.id}
        for name in NAMES[1:players - bots]:
            m, tok = self.room.add_member(name)
            self.tokens[name], self.members[name] = tok, m.id
        for seat in range(players - bots, players):
            self.room.add_bot(host.id, seat, "random")
        self.conns = {name: conn() for name in self.members}
        for name, c in self.conns.items():
            self.room.connect(c, self.room.members[self.members[name]])
        self.spectator = conn("pt_BR")
        self.room.connect(self.spectator, None)
        self.rng = random.Random(5)

    @property
    def all_conns(self) -> Iterator[tuple[str | None, Conn]]:
        yield from self.conns.items()
        yield None, self.spectator

    def step(self) -> bool:
        """Everybody pending decides at random; the clock moves on. False when over."""
        room = self.room
        game = room.game
        assert game is not None
        if game.over:
            self.clock.now += 5  # the last count ends: the final reveal
            room.tick()
            return False
        for name in list(game.pending):
            if name in self.members and room.reveal_at is None:
                v = view(game, name)
                choice = dict(self.rng.choice(v.choices))
                choice.pop("player")
                room.decide(self.members[name], v.decision_id, choice)
        self.clock.now += 0.25
        room.tick()
        if game.over:
            self.clock.now += 5  # the last count ends: the final reveal
            room.tick()
        return not game.over


def test_lobby_host_controls_and_refusals(db: str, clock: Clock) -> None:
    t = Table(db, clock, bots=0, players=4)
    room, host = t.room, t.members["Ana"]
    bia = t.members["Bia"]
    with pytest.raises(Refusal) as e:
        room.start(bia)
    assert e.value.code == "not-host"
    with pytest.raises(Refusal) as e:
        room.add_member("ana")
    assert e.value.code == "name-taken"
    for bad in ("", " ", "x" * 25, "a\x00b"):
        with pytest.raises(Refusal) as e:
            room.add_member(bad)
        assert e.value.code == "bad-name"
    # a name with markup is kept as text (the UI writes it with textContent)
    m, _tok = room.add_member("<b>Eve</b>")
    assert m.seat is None and room.lobby_public()["watchers"] == ["<b>Eve</b>"]
    room.stand(t.members["Duda"])
    room.sit(m.id, 3)
    with pytest.raises(Refusal) as e:
        room.sit(t.members["Duda"], 3)
    assert e.value.code == "seat-taken"
    room.remove(host, 3)  # Eve leaves; her token no longer works
    assert room.member_by_token(_tok) is None
    room.add_bot(host, 3, "heuristic")
    room.make_host(host, 1)
    assert room.host == bia
    with pytest.raises(Refusal):
        room.add_bot(host, 2, "random")  # no longer the host
    room.start(bia)
    assert room.status == "playing" and room.game is not None
    assert room.players == ("Ana", "Bia", "Caio", room.bot_names()[3])
    with pytest.raises(Refusal) as e:
        room.add_member("Late")
    assert e.value.code == "started"


def _walk(x: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(x, dict):
        for k, v in x.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


FORBIDDEN_KEYS = {"seed", "face_down", "token", "token_hash", "log", "rng", "random_state",
                  "picks", "deck_order", "early"}


def assert_no_leak(messages: list[dict[str, Any]], reader: str | None, secrets: list[str]) -> int:
    """Every message ``reader`` received carries only what ``reader`` may know."""
    states = 0
    for m in messages:
        text = json.dumps(m, ensure_ascii=False)
        for s in secrets:
            assert s not in text, f"a secret reached {reader}: {m['type']}"
        keys = {k for k, _v in _walk(m)}
        assert not keys & FORBIDDEN_KEYS, (reader, m["type"], keys & FORBIDDEN_KEYS)
        if m["type"] != "state":
            continue
        states += 1
        v = m["view"]
        assert v["viewer"] == reader
        over = v["phase"] == "over"
        for seat in v["seats"]:
            if seat["name"] != reader and not seat["death"]:
                assert seat["card"] is None, (reader, seat)
            if seat["name"] != reader and v["phase"] == "gesture":
                assert seat["gesture"] is None
            if seat["name"] != reader and v["phase"] in ("gesture", "withdrawal"):
                assert seat["withdrawal"] is None
            if seat["name"] != reader:
                assert seat["zombie_target"] is None
        if reader is None:
            assert v["hand"] is None and v["received"] == [] and v["choices"] == []
        elif v["hand"] is not None:
            assert v["phase"] == "draft" and reader in v["pending"]
        for night in v["history"]:
            assert night["number"] < v["night"] or over
        assert set(v) == {"viewer", "players", "mayor", "night", "phase", "active",
                          "decision_id", "required", "pending", "journal_roles",
                          "death_in_play", "blind_pick", "seats", "hand", "received", "choices",
                          "narration", "fates_so_far", "history", "winners"}
    return states


def test_whole_games_never_leak(db: str, clock: Clock) -> None:
    """Four people, two bots and a spectator play whole games; every message each one
    received (welcomes, lobbies, states, counts, acks, notices, errors, the
    snapshot after a reconnection) is checked."""
    for deck in ("basic", "reporter-death-6", "angel-alien-6"):
        t = Table(db, clock, deck=deck)
        room = t.room
        room.start(t.members["Ana"])
        assert room.seed is not None
        steps = 0
        while t.step():
            steps += 1
            assert steps < 5000
            if steps == 7:  # Caio reloads: a fresh connection gets a full snapshot
                old = t.conns["Caio"]
                room.disconnect(old)
                fresh = conn()
                fresh.sent = old.sent
                room.connect(fresh, room.member_by_token(t.tokens["Caio"]))
                t.conns["Caio"] = fresh
            if steps == 9:  # refusals reach the sender only, with a reason
                for bad in ({"type": "gesture", "targets": ["Nobody"]}, {"type": "nonsense"},
                            {"type": "free-xp", "role": "devil"}):
                    with pytest.raises(Refusal) as e:
                        room.decide(t.members["Bia"], -5, bad)
                    t.conns["Bia"].error(e.value.code, e.value.message)
        game = room.game
        assert game is not None and game.over and game.winners
        secrets = [room.seed, *t.tokens.values()] + [m.token_hash for m in
                                                      room.members.values()]
        for reader, c in t.all_conns:
            assert c.sent is not None
            assert assert_no_leak(c.sent, reader, secrets) > 10
            assert c.sent[-1]["type"] == "state" or any(
                m["type"] == "state" and m["view"]["phase"] == "over" for m in c.sent)
        kinds = {m["type"] for m in t.conns["Bia"].sent or []}
        assert {"welcome", "lobby", "state", "count", "error", "progress"} <= kinds
        # the spectator reads Portuguese narration
        spect = [m for m in t.spectator.sent or [] if m["type"] == "state"]
        texts = [e["text"] for m in spect for n in m["view"]["history"] for e in n["events"]]
        assert texts and any("Burgomestre" in x or "elimina" in x or "noite" in x.lower() or
                             x for x in texts)


def client_model(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What a browser holds after these messages (as app.js keeps it): the last state,
    its history accumulated, patched by ``progress`` messages."""
    model: dict[str, Any] | None = None
    history: list[dict[str, Any]] = []
    for m in messages:
        if m["type"] == "state":
            v = json.loads(json.dumps(m["view"]))
            if v["history"]:
                history = history[:v["history"][0]["number"] - 1] + v["history"]
            v["history"] = list(history)
            model = v
        elif m["type"] == "progress" and model is not None:
            if "deadline" in m:
                model["decision_id"] = m["decision_id"]
            if model["decision_id"] != m["decision_id"]:
                continue
            model["required"], model["pending"] = list(m["required"]), list(m["pending"])
            for seat in model["seats"]:
                seat["decided"] = (seat["name"] not in m["pending"]
                                   if seat["name"] in m["required"] else None)
    return model


def test_what_a_client_holds_is_always_its_view(db: str, clock: Clock) -> None:
    """States, then progress messages patching them, always add up to the reader's view."""
    t = Table(db, clock, deck="reporter-death-6")
    room = t.room
    room.start(t.members["Ana"])
    game = room.game
    assert game is not None
    checked = 0
    while t.step() and game.night <= 3:  # three nights: every kind of message, quickly
        if room.reveal_at is not None:
            continue
        for reader, c in t.all_conns:
            expected = json.loads(json.dumps(_localize(view(game, reader), game, c.t).to_dict()))
            assert client_model(c.sent or []) == expected, (reader, game.phase)
            checked += 1
    assert checked > 100
    progress = [m for m in t.conns["Bia"].sent or [] if m["type"] == "progress"]
    assert any("deadline" in m for m in progress)  # the draft moves on without full views


def test_the_count_holds_the_reveal_then_shows_everything_at_once(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    game = room.game
    assert game is not None
    while game.phase.value != "gesture":
        t.step()
    before = len(t.conns["Ana"].sent or [])
    for name in NAMES:
        if name in game.pending:
            v = view(game, name)
            c = dict(v.choices[0])
            c.pop("player")
            room.decide(t.members[name], v.decision_id, c)
    # bots decide on the clock
    for _ in range(10):
        if room.reveal_at is not None:
            break
        clock.now += 0.25
        room.tick()
    assert room.reveal_at is not None
    new = (t.conns["Ana"].sent or [])[before:]
    counts = [m for m in new if m["type"] == "count"]
    assert len(counts) == 1 and counts[0]["beats"] == 4 and counts[0]["beat"] == 0.5
    after_count = new[new.index(counts[0]) + 1:]
    assert not [m for m in after_count if m["type"] == "state"]  # nothing shown yet
    with pytest.raises(Refusal) as e:
        v = view(game, "Ana")
        room.decide(t.members["Ana"], v.decision_id, {"type": "withdrawal", "withdrawal": False})
    assert e.value.code == "counting"
    clock.now = room.reveal_at + 0.01
    room.tick()
    states = [m for m in (t.conns["Ana"].sent or [])[before:] if m["type"] == "state"]
    last = states[-1]["view"]
    assert last["phase"] in ("withdrawal", "zombie", "draft", "over")
    if last["phase"] == "withdrawal":
        assert all(s["gesture"] is not None for s in last["seats"] if not s["death"])
    # the count is the same every night: the room's beat
    assert states[-1]["deadline"] == pytest.approx(room.deadline)


def test_a_reader_arriving_during_the_count_gets_the_table_before_it(db: str,
                                                                    clock: Clock) -> None:
    """A reload during "1, 2, 3, now!": the welcome held no state (the Mayor counts) and
    the page said 'Connecting...' until the reveal, up to four beats. Now it holds the
    view as it was before the count (nothing revealed) and the beats left; the last
    decider is told their own decision; the reveal comes to them as to everybody."""
    t = Table(db, clock, players=4, bots=0)
    room = t.room
    room.start(t.members["Ana"])
    game = room.game
    assert game is not None
    while game.phase.value != "gesture":
        t.step()
    order = list(game.pending)
    for name in order:
        v = view(game, name)
        c = dict(v.choices[0])
        c.pop("player")
        room.decide(t.members[name], v.decision_id, c)
    assert room.reveal_at is not None
    last, other = order[-1], order[0]
    clock.now += 0.6  # a beat and a bit into the count
    for name in (last, other):
        room.disconnect(t.conns[name])
        c = t.conns[name] = conn()
        room.connect(c, room.members[t.members[name]])
        welcome = (c.sent or [])[0]
        assert welcome["type"] == "welcome"
        v = welcome["state"]["view"]
        assert v["phase"] == "gesture"  # the table before the count
        assert [s["name"] for s in v["seats"] if s["gesture"] is not None] == (
            [] if name == last else [name])  # only the reader's own gesture
        count = welcome["count"]
        assert count["start"] + count["beats"] * count["beat"] == pytest.approx(room.reveal_at)
        assert ("chose" in welcome) == (name == last)
    chose = (t.conns[last].sent or [])[0]["chose"]
    assert chose["type"] == "gesture" and chose["player"] == last
    clock.now = room.reveal_at + 0.01
    room.tick()
    for name in (last, other):
        states = [m for m in t.conns[name].sent or [] if m["type"] == "state"]
        assert states and states[-1]["view"]["phase"] != "gesture", name
        assert len(states[-1]["view"]["seats"]) == 4


def test_stale_and_late_decisions_are_refused_with_a_reason(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    game = room.game
    assert game is not None
    v = view(game, "Ana")
    c = dict(v.choices[0])
    c.pop("player")
    with pytest.raises(Refusal) as e:
        room.decide(t.members["Ana"], v.decision_id - 1, c)
    assert e.value.code == "stale"
    assert "moved on" in str(e.value.message)
    clock.now = (room.deadline or 0) + 1
    with pytest.raises(Refusal) as e:
        room.decide(t.members["Ana"], v.decision_id, c)
    assert e.value.code == "late"
    with pytest.raises(Refusal) as e:
        room.decide(None, v.decision_id, c)
    assert e.value.code == "not-a-player"


def test_a_timeout_lets_a_bot_decide_and_the_table_is_told(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    game = room.game
    assert game is not None
    assert game.phase.value == "setup"
    clock.now = (room.deadline or 0) - 5  # Duda's phone locks (the grace is 10 s)
    room.disconnect(t.conns["Duda"])
    clock.now = (room.deadline or 0) + 0.01
    room.tick()
    assert game.phase.value != "setup"
    # each is told a bot decided for them: an open page by ``played`` (a hidden tab says
    # so on return), Duda, with none open, in her next welcome
    played = [m for m in t.conns["Bia"].sent or [] if m["type"] == "played"]
    assert [m["night"] for m in played] == [0]
    assert room.played_away == {t.members["Duda"]: [0]}
    notices = [m for m in t.conns["Bia"].sent or [] if m["type"] == "notice"]
    assert notices and "Time is up" in notices[-1]["message"]
    pt = [m for m in t.spectator.sent or [] if m["type"] == "notice"]
    assert "tempo acabou" in pt[-1]["message"]
    stored = room.storage.decisions(room.code)
    assert {d.source for d in stored} >= {"timeout"}


def test_an_absent_player_is_played_by_a_bot_after_the_grace(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    room.disconnect(t.conns["Duda"])
    clock.now += 10.5  # the grace is 10 s; the deadline 30 s
    room.tick()
    game = room.game
    assert game is not None
    assert "Duda" not in game.pending
    assert any(d.source == "away" for d in room.storage.decisions(room.code))
    assert any("away" in m.get("message", "") for m in t.conns["Ana"].sent or []
               if m["type"] == "notice")
    # back again: Duda decides herself
    room.connect(t.conns["Duda"], room.member_by_token(t.tokens["Duda"]))
    assert room.members[t.members["Duda"]].id not in room.away


def test_a_restart_rebuilds_every_room_exactly(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    for _ in range(60):
        t.step()
    game = room.game
    assert game is not None
    deadline = room.deadline
    again = manager(db, clock)
    assert again.load_active() == (0 if game.over else 1)
    copy = again.get(room.code)
    assert copy is not None and copy.game is not None
    assert copy.game.log == game.log
    assert copy.game.decision_point() == game.decision_point()
    assert copy.deadline == deadline
    for p in game.players:
        assert view(copy.game, p) == view(game, p)
    assert view(copy.game, None) == view(game, None)
    assert copy.members.keys() == room.members.keys()
    assert copy.member_by_token(t.tokens["Bia"]) is not None
    # the copy plays on to the end
    while not copy.game.over:
        for name in copy.game.pending:
            v = view(copy.game, name)
            c = dict(v.choices[0])
            c.pop("player")
            if name in t.members and copy.reveal_at is None:
                copy.decide(t.members[name], v.decision_id, c)
        clock.now += 0.3
        copy.tick()
    assert copy.record()["winners"] == list(copy.game.winners)


def test_what_a_bot_played_for_an_absent_friend_survives_a_restart(db: str,
                                                                   clock: Clock) -> None:
    """'A bot played for you while you were away' (the welcome's ``played_away``) was held
    in memory only: a server restarted while Duda was away forgot it, and her page said
    nothing of the nights played for her. It is read again from the decisions' sources,
    and told once: a restart after she was told does not tell it again."""
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    room.disconnect(t.conns["Duda"])
    duda = t.members.pop("Duda")  # (the table's step no longer decides for her)
    for _ in range(120):  # the grace passes: a bot decides for her a while
        t.step()
    nights = room.played_away.get(duda)
    assert nights, "no decision was made for Duda while away"
    again = manager(db, clock)  # the server restarts
    copy = again.get(room.code)
    assert copy is not None
    back = conn()
    copy.connect(back, copy.member_by_token(t.tokens["Duda"]))
    assert (back.sent or [])[0]["played_away"] == nights
    third = manager(db, clock).get(room.code)  # told once, across a restart too
    assert third is not None
    later = conn()
    third.connect(later, third.member_by_token(t.tokens["Duda"]))
    assert "played_away" not in (later.sent or [])[0]
    ana = conn()  # nobody else was away: nothing to tell
    third.connect(ana, third.member_by_token(t.tokens["Ana"]))
    assert "played_away" not in (ana.sent or [])[0]


def test_time_up_with_no_page_open_survives_a_restart(db: str, clock: Clock) -> None:
    """Time ran out while Duda's phone was locked (within the grace): a bot decided, and
    her next welcome was to say so; but that was held in memory only, and a restart
    forgot it. It is read again from the decision's source ('timeout'), and once only;
    Bia, whose page was open and told at once (``played``), is not told it again."""
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    clock.now = (room.deadline or 0) - 5
    room.disconnect(t.conns["Duda"])
    clock.now = (room.deadline or 0) + 0.01
    room.tick()
    assert room.played_away == {t.members["Duda"]: [0]}
    copy = manager(db, clock).get(room.code)  # the server restarts
    assert copy is not None
    assert copy.played_away == {t.members["Duda"]: [0]}
    back = conn()
    copy.connect(back, copy.member_by_token(t.tokens["Duda"]))
    assert (back.sent or [])[0]["played_away"] == [0]
    bia = conn()
    copy.connect(bia, copy.member_by_token(t.tokens["Bia"]))
    assert "played_away" not in (bia.sent or [])[0]
    third = manager(db, clock).get(room.code)  # told once, across a restart too
    assert third is not None and third.played_away == {}


def test_the_record_waits_for_the_end(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    t.room.start(t.members["Ana"])
    with pytest.raises(Refusal) as e:
        t.room.record()
    assert e.value.code == "not-over"


def test_removing_a_player_mid_game_hands_the_seat_to_a_bot(db: str, clock: Clock) -> None:
    t = Table(db, clock)
    room = t.room
    room.start(t.members["Ana"])
    assert any(c.member == t.members["Caio"] for c in room.conns)  # his phone is on
    room.remove(t.members["Ana"], 2)  # Caio
    caio = t.members.pop("Caio")
    assert caio not in room.members
    assert 2 in room.bots and room.member_by_token(t.tokens["Caio"]) is None
    said = [m for m in t.conns["Caio"].sent or [] if m["type"] == "error"]
    assert [m["code"] for m in said] == ["removed"]
    # his own screen says what happened (not "removed from the table", as in the lobby)
    assert "gave your seat to a bot" in said[0]["message"]
    while t.step():
        pass
    assert room.game is not None and room.game.over


def test_room_is_typed_state() -> None:
    # a plain, slotted state object: its fields in RoomState, its concerns add none
    assert RoomState.__slots__ and issubclass(Room, RoomState)
    assert all("__slots__" in vars(c) for c in Room.__mro__[:-1])  # no __dict__


def test_the_wire_form_of_a_view_is_its_to_dict() -> None:
    """The server serializes views with orjson, field by field: exactly View.to_dict()."""
    orjson = pytest.importorskip("orjson")
    from darkcity.decisions import Phase
    from darkcity.deck import preset
    from darkcity.game import Game
    from darkcity.settings import Settings

    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")
    for deck in ("basic", "reporter-death-6", "angel-alien-6"):
        game = Game(Settings(players=names, deck=preset(deck, 6)), 3)
        rng = random.Random(2)
        while game.phase is not Phase.OVER and game.night < 4:
            for p in game.pending:
                for q in (None, *names):
                    v = view(game, q)
                    assert orjson.loads(orjson.dumps(v)) == v.to_dict()
                choices = game.legal(p)
                game.apply(choices[rng.randrange(len(choices))])
