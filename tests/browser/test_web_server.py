"""Issue #12, the server's side of the web table, without a browser: the chat (seated
people only, rate-limited, stored with the room), "play again" (same settings,
people, seats and bots; the old seat links work), an empty custom cast refused, and
the standing sent with each state (progress, near-wins, the tiebreak in words), all
read from the view by ``darkcity.journal``."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from darkcity.decisions import Phase
from darkcity.game import Game
from darkcity.i18n import translator
from darkcity.room.standing import standing
from darkcity.server.common import Refusal
from darkcity.server.protocol import CreateRoom
from darkcity.views import SeatView, view

from ..test_server import Clock, Table, conn, manager


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_chat_is_for_the_table_rate_limited_and_stored(db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=2)
    room = t.room
    ana, bia = t.members["Ana"], t.members["Bia"]
    room.say(ana, "  <b>boa noite</b>  ")
    line = room.chat[-1]
    assert line["name"] == "Ana" and line["text"] == "<b>boa noite</b>"  # the page escapes
    for c in (*t.conns.values(), t.spectator):
        assert c.sent is not None and c.sent[-1] == {"type": "chat", "line": line}
    with pytest.raises(Refusal) as e:
        room.say(None, "hello")  # a spectator reads only
    assert e.value.code == "not-at-table"
    for bad in ("", "   ", "x" * 301, "a\x00b"):
        with pytest.raises(Refusal):
            room.say(bia, bad)
    for k in range(5):  # 5 lines in 10 s
        room.say(bia, f"line {k}")
    with pytest.raises(Refusal) as e:
        room.say(bia, "one too many")
    assert e.value.code == "chat-rate"
    clock.now += 11
    room.say(bia, "later")
    again = manager(db, clock).load(room.code)  # stored with the room
    assert again is not None and [x["text"] for x in again.chat] == [x["text"] for x in room.chat]
    late = conn()
    room.connect(late, None)
    assert late.sent is not None
    log = next(m for m in late.sent if m["type"] == "welcome")  # the chat rides on it
    assert [x["text"] for x in log["lines"]][-1] == "later"


def test_play_again_keeps_seats_settings_and_bots(db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=2)
    with pytest.raises(Refusal):
        t.manager.again(t.room, t.members["Ana"])  # the game has not even started
    t.room.start(t.members["Ana"])
    with pytest.raises(Refusal) as e:
        t.manager.again(t.room, t.members["Ana"])
    assert e.value.code == "not-over"
    for _ in range(3000):
        if not t.step():
            break
    assert t.room.status == "over"
    with pytest.raises(Refusal) as e:
        t.manager.again(t.room, t.members["Bia"])
    assert e.value.code == "not-host"
    new = t.manager.again(t.room, t.members["Ana"])
    assert t.manager.again(t.room, t.members["Ana"]) is new  # once
    assert new.code != t.room.code and new.status == "lobby"
    assert new.config == t.room.config and new.bots == t.room.bots
    assert {m.name: m.seat for m in new.members.values()} == \
        {m.name: m.seat for m in t.room.members.values()}
    for name, token in t.tokens.items():  # the seat links work in the new room
        member = new.member_by_token(token)
        assert member is not None and member.name == name
    assert t.room.lobby_public()["next"] == new.code
    assert t.conns["Bia"].sent is not None and \
        t.conns["Bia"].sent[-1]["lobby"]["next"] == new.code
    stored = manager(db, clock).load(t.room.code)
    assert stored is not None and stored.next_code == new.code
    new.start(t.members["Ana"])  # the same table plays again at once
    assert new.players == t.room.players


def test_an_empty_custom_cast_is_refused(db: str, clock: Clock) -> None:
    m = manager(db, clock)
    with pytest.raises(Refusal) as e:
        m.create(CreateRoom(name="Ana", players=6, cards=[]))
    assert e.value.code == "bad-deck" and "custom cast" in str(e.value.message)
    room, _, _ = m.create(CreateRoom(name="Ana", players=6))
    assert room.config.timeout_level == "medium"  # the old default's name, read as the new
    with pytest.raises(Refusal) as e:
        m.create(CreateRoom(name="Ana", players=6, cards=["vampire:basic:masculine"]))
    assert "cards" not in str(e.value.message).split(":")[0] and "R-" not in str(e.value.message)


def test_standing_reads_the_journals_through_the_engine(db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=2)
    t.room.start(t.members["Ana"])
    for _ in range(40):
        t.step()
    game = t.room.game
    assert game is not None
    v = view(game, None)
    sheet = v.journal_roles

    def seat(s: SeatView, journal: dict[str, int]) -> SeatView:
        return replace(s, journal=tuple((r, x) for r, x in journal.items() if x))

    a, b, c, d = v.seats
    seats = (seat(a, {sheet[0]: 4, sheet[1]: 2, sheet[2]: 2}),  # 8 XP, 3 rows: wins
             seat(b, {sheet[0]: 2, sheet[1]: 2, sheet[2]: 2, sheet[3]: 1}),  # 7 XP
             seat(c, {sheet[4]: 3}),  # one XP from 4 in one row
             seat(d, {}))
    over = replace(v, seats=seats, winners=(a.name,))
    st = standing(over, translator("en"))
    by = {s["name"]: s for s in st["seats"]}
    assert by[a.name]["met"] == ["eight-xp", "three-pairs", "four-in-one"]
    assert by[b.name]["met"] == ["three-pairs"] and by[b.name]["xp"] == 7
    assert by[c.name]["near"] == [sheet[4]]
    four = next(p for p in by[c.name]["progress"] if p["condition"] == "four-in-one")
    assert four == {"condition": "four-in-one", "have": 3, "need": 4, "row": sheet[4]}
    assert by[d.name]["near"] == [] and by[d.name]["met"] == []
    assert st["tiebreak"] == f"{b.name} also met a condition, but the tiebreak goes to the " \
                             "most XP: 8 against 7."
    pt = standing(over, translator("pt_BR"))["tiebreak"]
    assert pt is not None and "desempate" in pt
    alone = replace(over, seats=(seats[0], seat(b, {}), seats[2], seats[3]))
    assert standing(alone, translator("en"))["tiebreak"] is None  # nobody else met one


def test_a_sealed_decision_can_be_changed_until_the_count(db: str, clock: Clock) -> None:
    t = Table(db, clock, players=4, bots=2)
    room = t.room
    ana, bia = t.members["Ana"], t.members["Bia"]
    room.start(ana)
    rng = random.Random(7)
    def waiting(g: Game) -> bool:  # both people still decide, Ana between two gestures
        return (g.phase is Phase.GESTURE and {"Ana", "Bia"} <= set(g.pending)
                and len(view(g, "Ana").choices) > 1)

    for _ in range(400):  # to such a gesture phase (a Priest has one gesture: a night on)
        g = room.game
        assert g is not None
        if waiting(g):
            break
        for name in list(g.pending):
            if name in t.members and room.reveal_at is None and not waiting(g):
                v = view(g, name)
                room.decide(t.members[name], v.decision_id,
                            {k: x for k, x in rng.choice(v.choices).items() if k != "player"})
        clock.now += 0.3
        room.tick()
    g = room.game
    assert g is not None and g.phase is Phase.GESTURE
    v = view(g, "Ana")
    choices = [{k: x for k, x in c.items() if k != "player"} for c in v.choices]
    first, second = choices[0], choices[-1]
    assert first != second
    with pytest.raises(Refusal) as e:
        room.decide(ana, v.decision_id, second, change=True)  # nothing to change yet
    assert e.value.code == "not-sealed"
    room.decide(ana, v.decision_id, first)
    room.decide(ana, v.decision_id, second, change=True)
    g = room.game
    assert g is not None and "Ana" not in g.pending and "Bia" in g.pending
    mine = view(g, "Ana").seats[0].gesture
    assert mine is not None and mine.targets == tuple(second.get("targets", ()))
    assert second.get("shows", mine.shows) == mine.shows
    assert second.get("kind") == mine.kind and second.get("seeks") == mine.seeks
    reloaded = manager(db, clock).load(room.code)  # the replay drops the first one
    assert reloaded is not None and reloaded.game is not None
    assert view(reloaded.game, "Ana") == view(g, "Ana")
    assert reloaded.history == room.history and reloaded.seq == room.seq
    for _ in range(100):  # everybody else in: the count, and no more changes
        g = room.game
        assert g is not None
        if room.reveal_at is not None:
            break
        if "Bia" in g.pending:
            vb = view(g, "Bia")
            room.decide(bia, vb.decision_id,
                        {k: x for k, x in vb.choices[0].items() if k != "player"})
        clock.now += 0.3
        room.tick()
    assert room.reveal_at is not None
    with pytest.raises(Refusal) as e:
        room.decide(ana, v.decision_id, first, change=True)
    assert e.value.code == "counting"

