"""The table companion's HTTP API (issue #11): set-up refusals in the deck rules'
words, entries stored before they are answered, Death's secret, the phones, undo, a
restarted server, the exports, and every text of the page in the catalogs."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from darkcity.companion import Companion, replay_table
from darkcity.companion.entries import EntryError
from darkcity.companion.text import UI, table_catalog
from darkcity.notation import adjudicate
from darkcity.server.companion import companion_router
from darkcity.server.config import ServerConfig

STATIC = Path(__file__).resolve().parent.parent / "src/darkcity/server/static/table"
PLAYERS = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
# a basic night's gestures, one per player (Ana's Vampire may be a Devil's)
GESTURES: tuple[dict[str, Any], ...] = (
    {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
    {"type": "gesture", "player": "Bia", "shows": "werewolf", "targets": ["Caio"]},
    {"type": "gesture", "player": "Caio", "shows": "priest"},
    {"type": "gesture", "player": "Duda", "shows": "zombie", "targets": ["Caio"]},
    {"type": "gesture", "player": "Enzo", "shows": "hunter", "targets": ["Ana", "Duda"]},
    {"type": "gesture", "player": "Fred", "shows": "vampire", "targets": ["Enzo"]},
)


def client(db: Path) -> TestClient:
    app = FastAPI()
    app.include_router(companion_router(ServerConfig(db_url=f"sqlite:///{db}")))
    return TestClient(app)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def api(db: Path) -> Iterator[TestClient]:
    with client(db) as c:
        yield c


def new_table(api: TestClient, deck: str = "reporter-death-6") -> tuple[str, dict[str, str]]:
    r = api.post("/api/tables", json={"players": PLAYERS, "deck": deck,
                                      "free_xp": {p: "vampire" for p in PLAYERS}})
    assert r.status_code == 201, r.text
    return r.json()["code"], {"X-Table-Token": r.json()["token"]}


def enter(api: TestClient, code: str, headers: dict[str, str], entry: dict[str, Any],
          lang: str = "en") -> Any:
    return api.post(f"/api/tables/{code}/entries?lang={lang}", headers=headers,
                    json={"entry": entry})


def test_every_text_of_the_page_is_in_the_catalogs() -> None:
    used: set[str] = set()
    for f in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', f.read_text(encoding="utf-8")))
    assert used - set(UI) == set()
    pt = table_catalog("pt_BR")
    assert pt["calls"]["devil"] == "O Demônio?" and pt["roles"]["demoniac"] == "Possuída"
    untranslated = [m for m in UI if pt["ui"][m] == m and any(c.isalpha() for c in m)
                    and m not in ("Total", "XP", "Tick", "Enter:")]
    assert untranslated == []


def test_set_up_refusals_are_the_deck_rules(api: TestClient) -> None:
    r = api.post("/api/tables/check", json={"players": PLAYERS[:3], "deck": "basic"})
    assert r.status_code == 400 and "“Basic (12 cards)” is not a deck for 3 players" in r.json()[
        "message"]
    r = api.post("/api/tables/check?lang=pt_BR",
                 json={"players": PLAYERS, "cards": ["vampire:basic:feminine"]})
    assert r.status_code == 400 and "cartas" in r.json()["message"]
    # the Mayor reads the rule, not the request's field name ("cards: a escolha ...")
    assert r.json()["message"].startswith("A escolha de papéis precisa"), r.json()["message"]
    r = api.post("/api/tables/check", json={"players": PLAYERS, "deck": "reporter-death-6"})
    assert r.status_code == 200 and "death" in r.json()["sheet"]
    r = api.post("/api/tables", json={"players": PLAYERS, "deck": "basic", "free_xp": {}})
    assert r.status_code == 400 and "free XP" in r.json()["message"]


def test_a_deck_for_another_number_of_players_is_named_by_its_title(api: TestClient) -> None:
    """A preset for 6 players checked while 2 names are typed: the set-up said "the
    'reporter-death-6' deck is for 6 players, not 2", its id; now its title as the
    deck list shows it, and what to do, in the reader's language."""
    r = api.post("/api/tables/check?lang=pt_BR",
                 json={"players": PLAYERS[:2], "deck": "reporter-death-6"})
    said = r.json()["message"]
    assert r.status_code == 400 and "reporter-death-6" not in said, said
    assert said == ("“Repórter e Morte (6 jogadores)” não é um maço para 2 jogadores: digite o "
                    "nome de cada jogador ou escolha outro maço."), said
    r = api.post("/api/tables?lang=en", json={"players": PLAYERS[:1], "deck": "angel-alien-6",
                                              "free_xp": {"Ana": "vampire"}})
    assert r.status_code == 400 and r.json()["message"] == (
        "“Angel and Alien (6 players)” is not a deck for 1 player: type every player's name, "
        "or choose another deck.")


def test_a_player_is_sent_their_own_card_once_the_table_knows_it(api: TestClient) -> None:
    """my_card: a seated player's card where the table knows it (Death taken, a card
    turned over at a call, the night told), to that player only; nobody else's."""
    code, mayor = new_table(api)
    seat = {p: {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                          json={"player": p}).json()["token"]}
            for p in ("Ana", "Fred")}
    look = {p: (lambda h=h: api.get(f"/api/tables/{code}", headers=h).json())
            for p, h in seat.items()}
    assert look["Fred"]()["my_card"] is None and look["Ana"]()["my_card"] is None
    assert enter(api, code, mayor, {"type": "drafted", "death_names": "Bia"}).status_code == 200
    assert look["Fred"]()["my_card"]["role"] == "death"
    assert look["Ana"]()["my_card"] is None
    assert "my_card" not in api.get(f"/api/tables/{code}", headers=mayor).json()
    assert "my_card" not in api.get(f"/api/tables/{code}").json()
    code, mayor = new_table(api, "basic")
    ana = {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                     json={"player": "Ana"}).json()["token"]}
    for e in ({"type": "drafted"}, {"type": "counted"},
              *GESTURES,
              {"type": "revealed"}, {"type": "withdrawn"}):
        assert enter(api, code, mayor, e).status_code == 200, e
    # Ana showed the Vampire: a Devil may show it, so her card is not hers until called
    assert api.get(f"/api/tables/{code}", headers=ana).json()["my_card"] is None
    seen = []
    while (v := api.get(f"/api/tables/{code}", headers=mayor).json())["stage"] == "resolution":
        q = v["question"]
        cards = {p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}
        assert enter(api, code, mayor, {"type": "call", "step": q["step"],
                                        "cards": cards}).status_code == 200
        seen.append(api.get(f"/api/tables/{code}", headers=ana).json()["my_card"])
    # turned over at the Vampire's call, before the night is told
    assert any(x and x["role"] == "vampire" for x in seen[:-1]), seen
    told = api.get(f"/api/tables/{code}", headers=ana).json()
    assert told["stage"] == "journals" and told["my_card"]["role"] == "vampire"
    enter(api, code, mayor, {"type": "next-night"})
    # a new draft: the card of the night told is no longer the one in her hand
    assert api.get(f"/api/tables/{code}", headers=ana).json()["my_card"] is None


def test_the_secret_the_phones_and_the_mayor(api: TestClient, db: Path) -> None:
    code, mayor = new_table(api)
    v = api.get(f"/api/tables/{code}", headers=mayor).json()
    assert v["reader"] == "mayor" and v["stage"] == "draft" and v["last_drafter"] == "Fred"
    # a phone is nobody until it takes a seat; it may not enter the Mayor's entries
    assert api.get(f"/api/tables/{code}").json()["reader"] is None
    bia = {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                     json={"player": "Bia"}).json()["token"]}
    fred = {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                      json={"player": "Fred"}).json()["token"]}
    assert enter(api, code, bia, {"type": "drafted", "death_names": "Ana"}).status_code == 403
    assert enter(api, code, bia, {"type": "counted"}).status_code == 403
    # the last drafter writes Death's name on their own phone: nobody else sees it
    r = enter(api, code, fred, {"type": "drafted", "death_names": "Ana"})
    assert r.status_code == 200 and r.json()["my_death_names"] == "Ana"
    seen = api.get(f"/api/tables/{code}", headers=mayor).json()
    assert seen["death"] == "Fred" and seen["death_named"] and "my_death_names" not in seen
    assert "Ana" not in str(seen["narration"])
    # refusals in plain words, in the reader's language
    enter(api, code, mayor, {"type": "counted"})
    r = enter(api, code, mayor, {"type": "gesture", "player": "Ana", "shows": "zombie",
                                 "targets": ["Caio"]}, "pt_BR")
    assert r.status_code == 400
    assert r.json()["message"].startswith("Ana: o Zumbi aponta para o vizinho")
    r = enter(api, code, mayor, {"type": "gesture", "player": "Ana", "shows": "angel",
                                 "targets": ["Bia"]})
    assert "not in this deck" in r.json()["message"]
    # a restarted server goes on where the table was
    with client(db) as again:
        v = again.get(f"/api/tables/{code}", headers=mayor).json()
        assert v["stage"] == "reveal" and v["death"] == "Fred"
        r = again.post(f"/api/tables/{code}/undo", headers=mayor, json={"what": "entry"})
        assert r.status_code == 200 and r.json()["stage"] == "count"


def test_a_night_exported_and_adjudicated(api: TestClient) -> None:
    code, mayor = new_table(api, "basic")
    for e in ({"type": "drafted"}, {"type": "counted"},
              *GESTURES,
              {"type": "revealed"}, {"type": "withdrawal", "player": "Caio", "withdrawal": True},
              {"type": "withdrawn"}):
        assert enter(api, code, mayor, e).status_code == 200, e
    while (v := api.get(f"/api/tables/{code}", headers=mayor).json())["stage"] == "resolution":
        q = v["question"]
        cards = {p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}
        r = enter(api, code, mayor, {"type": "call", "step": q["step"], "cards": cards})
        assert r.status_code == 200, r.text
    assert v["stage"] == "journals" and v["result"]["number"] == 1
    night = api.get(f"/api/tables/{code}/nights/1").json()
    assert adjudicate(night)["players"]["Bia"]["fate"] == v["result"]["players"]["Bia"]["fate"]
    assert api.get(f"/api/tables/{code}/nights/2").status_code == 404
    record = api.get(f"/api/tables/{code}/record").json()
    assert record["format"] == "darkcity-table/1" and replay_table(record).ok
    r = api.post(f"/api/tables/{code}/undo", headers=mayor, json={"what": "night"})
    assert r.json()["stage"] == "draft" and r.json()["nights"] == 0
    assert api.get("/api/tables/NOPE99").status_code == 404


def test_a_seat_is_one_phone_and_the_record_keeps_the_secret(api: TestClient) -> None:
    code, mayor = new_table(api)
    assert api.post(f"/api/tables/{code}/seat", json={"player": "Fred"}).status_code == 200
    r = api.post(f"/api/tables/{code}/seat", json={"player": "Fred"})
    assert r.status_code == 409 and "Mayor can free" in r.json()["message"]
    assert api.post(f"/api/tables/{code}/seat", json={"player": "Zed"}).status_code == 400
    assert api.post(f"/api/tables/{code}/seats/free", json={}).status_code == 403
    assert api.post(f"/api/tables/{code}/seats/free", headers=mayor, json={}).json()[
        "seated"] == []
    assert api.post(f"/api/tables/{code}/seat", json={"player": "Fred"}).status_code == 200
    enter(api, code, mayor, {"type": "drafted", "death_names": "Caio"})
    record = api.get(f"/api/tables/{code}/record").json()
    assert record["entries"] == [] and "death_names" not in str(record)
    assert replay_table(record).ok


def test_a_phone_gives_back_a_seat_taken_by_mistake(api: TestClient) -> None:
    """Bia's phone tapped "Fred": it gives the seat back itself, and Fred's own phone
    takes it, without the Mayor freeing every phone's seat."""
    code, mayor = new_table(api)
    wrong = {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                       json={"player": "Fred"}).json()["token"]}
    caio = {"X-Table-Token": api.post(f"/api/tables/{code}/seat",
                                      json={"player": "Caio"}).json()["token"]}
    assert api.post(f"/api/tables/{code}/seat", json={"player": "Fred"}).status_code == 409
    r = api.post(f"/api/tables/{code}/seat/leave", headers=wrong, json={})
    assert r.status_code == 200 and r.json()["left"] == "Fred"
    assert api.get(f"/api/tables/{code}", headers=wrong).json()["reader"] is None
    assert api.get(f"/api/tables/{code}", headers=mayor).json()["seated"] == ["Caio"]
    assert api.post(f"/api/tables/{code}/seat", json={"player": "Fred"}).status_code == 200
    # nobody else's seat is given back: the Mayor's token and no token leave nothing
    assert api.post(f"/api/tables/{code}/seat/leave", headers=mayor, json={}).json()[
        "left"] is None
    assert api.post(f"/api/tables/{code}/seat/leave", json={}).json()["left"] is None
    assert api.get(f"/api/tables/{code}", headers=caio).json()["reader"] == "Caio"
    assert api.get(f"/api/tables/{code}", headers=mayor).json()["seated"] == ["Caio", "Fred"]


def test_the_mayors_link_changes_and_the_old_one_enters_nothing(api: TestClient,
                                                                 db: Path) -> None:
    """The Mayor's link shared by mistake: a new one for the Mayor's device; the old one
    reads the table as a phone without a seat and enters nothing, across a restart."""
    code, old = new_table(api)
    assert api.post(f"/api/tables/{code}/mayor/new", json={}).status_code == 403
    r = api.post(f"/api/tables/{code}/mayor/new", headers=old, json={})
    assert r.status_code == 200
    new = {"X-Table-Token": r.json()["token"]}
    assert api.get(f"/api/tables/{code}", headers=old).json()["reader"] is None
    assert enter(api, code, old, {"type": "drafted"}).status_code == 403
    assert enter(api, code, new, {"type": "drafted"}).status_code == 200
    with client(db) as again:  # stored, not only in memory
        assert again.get(f"/api/tables/{code}", headers=new).json()["reader"] == "mayor"
        assert again.get(f"/api/tables/{code}", headers=old).json()["reader"] is None


def test_a_kind_that_names_the_devil_is_shown(api: TestClient) -> None:
    """The Devil is role number 0, a false value: the Mayor's view lost an Alien's
    gesture's kind when it named the Devil."""
    code, mayor = new_table(api, "angel-alien-6")
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "alien", "kind": "devil"}):
        assert enter(api, code, mayor, e).status_code == 200, e
    gesture = api.get(f"/api/tables/{code}", headers=mayor).json()["gestures"]["Ana"]
    assert gesture["kind"] == "devil"


def test_a_table_whose_last_entries_no_longer_hold_is_loaded_and_the_mayor_told(
        api: TestClient, db: Path) -> None:
    """A table stored by an earlier version whose bookkeeping has changed since: the
    entries from the first one this version refuses are set aside, the rest is the
    table, and the Mayor is told until the next entry; the table is never lost."""
    code, mayor = new_table(api, "basic")
    for e in ({"type": "drafted"}, {"type": "counted"},
              *GESTURES[:2]):
        assert enter(api, code, mayor, e).status_code == 200
    with sqlite3.connect(db) as con:  # as an earlier version could have stored it
        doc = json.loads(con.execute("SELECT doc FROM darkcity_tables WHERE code = ?",
                                     (code,)).fetchone()[0])
        doc["entries"][2]["targets"] = ["Ana"]  # Ana aims at herself: refused now
        con.execute("UPDATE darkcity_tables SET doc = ? WHERE code = ?",
                    (json.dumps(doc), code))
    with client(db) as again:  # a restarted server
        v = again.get(f"/api/tables/{code}", headers=mayor).json()
        assert v["stage"] == "reveal" and v["set_aside"] == 2
        assert set(v["to_enter"]) == set(PLAYERS)  # both gestures to enter again
        phone = again.post(f"/api/tables/{code}/seat", json={"player": "Bia"})
        assert phone.status_code == 200, phone.text  # a phone joins meanwhile:
        assert again.get(f"/api/tables/{code}", headers={  # it is not the phone's to read,
            "X-Table-Token": phone.json()["token"]}).json()["set_aside"] == 0
        assert again.get(f"/api/tables/{code}", headers=mayor).json()["set_aside"] == 2
        r = enter(again, code, mayor, {"type": "gesture", "player": "Ana",
                                       "shows": "vampire", "targets": ["Bia"]})
        assert r.status_code == 200 and r.json()["set_aside"] == 0
    with client(db) as third:  # what was set aside is gone from the store too
        v = third.get(f"/api/tables/{code}", headers=mayor).json()
        assert v["set_aside"] == 0 and "Ana" not in v["to_enter"]
    with pytest.raises(EntryError, match=r"entries\[2\]"):  # reading a file stays strict
        Companion.from_json(doc)


def test_a_call_and_an_earlier_night_corrected(api: TestClient) -> None:
    """POST /correct takes a call and a night; GET /past shows the Mayor the table as it
    stood before that call (the question asked again) or at that night's end."""
    code, mayor = new_table(api, "basic")
    night_1 = ({"type": "drafted"}, {"type": "counted"},
               *GESTURES,
               {"type": "revealed"}, {"type": "withdrawn"})
    for e in night_1:
        assert enter(api, code, mayor, e).status_code == 200, e
    while (v := api.get(f"/api/tables/{code}", headers=mayor).json())["stage"] == "resolution":
        q = v["question"]
        cards = {p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}
        assert enter(api, code, mayor, {"type": "call", "step": q["step"],
                                        "cards": cards}).status_code == 200
    assert [c["step"] for c in v["calls"]] == ["1", "2", "3", "4", "5"]
    zombie = v["calls"][3]
    assert zombie["role"] == "zombie" and list(zombie["cards"]) == ["Duda"]
    before = api.get(f"/api/tables/{code}/past?night=1&step=4", headers=mayor).json()
    assert before["stage"] == "resolution" and before["question"]["step"] == "4"
    assert api.get(f"/api/tables/{code}/past?night=1&step=4").status_code == 403
    # asked first (dry): what it would take back, nothing changed
    dry = api.post(f"/api/tables/{code}/correct", headers=mayor, json={
        "entry": {"type": "call", "step": "4", "cards": zombie["cards"],
                  "zombies": {"Duda": "Enzo"}}, "dry": True}).json()
    assert dry == {"dropped": 0, "night": 1, "stage": "journals"}
    assert api.get(f"/api/tables/{code}", headers=mayor).json()["version"] == v["version"]
    # the Zombie turned to Enzo, not Caio: step 4 entered again, step 5 kept
    r = api.post(f"/api/tables/{code}/correct", headers=mayor, json={
        "entry": {"type": "call", "step": "4", "cards": zombie["cards"],
                  "zombies": {"Duda": "Enzo"}}})
    assert r.status_code == 200, r.text
    assert r.json()["dropped"] == 0 and r.json()["calls"][3]["zombies"] == {"Duda": "Enzo"}
    # night 2 under way; Caio fled on night 1: corrected from night 2
    for e in ({"type": "next-night"}, {"type": "drafted"}, {"type": "counted"}):
        assert enter(api, code, mayor, e).status_code == 200
    r = api.post(f"/api/tables/{code}/correct", headers=mayor, json={
        "entry": {"type": "withdrawal", "player": "Caio", "withdrawal": True}, "night": 1})
    assert r.status_code == 200, r.text
    assert r.json()["dropped"] == 0 and r.json()["stage"] == "reveal" and r.json()["night"] == 2
    end = api.get(f"/api/tables/{code}/past?night=1", headers=mayor).json()
    assert end["stage"] == "journals" and end["withdrawals"] == {"Caio": True}
    r = api.post(f"/api/tables/{code}/correct?lang=pt_BR", headers=mayor, json={
        "entry": {"type": "call", "step": "8", "cards": {}}, "night": 1})
    assert r.status_code == 400 and "8" in r.json()["message"]


def test_a_set_up_without_its_free_xp_says_what_is_missing(api: TestClient) -> None:
    """A set-up sent without the free XP was refused with "Must be an object", which
    named neither the field nor what to do (issue #28). It says that the free XP are
    missing and what they are, in the reader's language; a row left at "—" names its
    player; a row that is not a role names the player and the word."""
    body = {"players": PLAYERS, "deck": "basic"}
    r = api.post("/api/tables?lang=en", json=body)
    said = r.json()["message"]
    assert r.status_code == 400 and said.startswith("The free XP are missing"), said
    assert "free_xp" in said and "“priest”" in said and "object" not in said, said
    r = api.post("/api/tables?lang=pt_BR", json=body)
    said = r.json()["message"]
    assert r.status_code == 400 and said.startswith("Faltam os XP grátis"), said
    r = api.post("/api/tables?lang=en", json={**body, "free_xp": ["priest"]})
    assert r.status_code == 400 and "each player's name a row" in r.json()["message"]
    r = api.post("/api/tables?lang=en", json={
        **body, "free_xp": {**dict.fromkeys(PLAYERS, "priest"), "Bia": ""}})
    assert r.status_code == 400 and r.json()["message"] == (
        "Bia has not chosen a row for the free XP"), r.json()
    r = api.post("/api/tables?lang=en", json={
        **body, "free_xp": {**dict.fromkeys(PLAYERS, "priest"), "Caio": "wizard"}})
    assert r.status_code == 400 and r.json()["message"] == (
        "Caio's free XP: 'wizard' is not a role; choose a row of their journal, such as "
        "“priest”."), r.json()
