"""The Mayor's mistakes and mishaps at a real table, on a phone (375x667), in pt_BR.

Entering something wrong: a withdrawal noticed once the night is resolved is corrected
in one tap, the calls kept; a night corrected once the next has entries, which are kept
("Correct night N"); a card tapped wrong at a call corrected alone, the calls after it
kept; "Undo night N" and "Free the phones' seats" ask first and say what they take back; a
gesture noticed one player later is entered again from its name. Mishaps: a count that
did not reach the server is not counted again; a friend's phone that took another's
seat gives it back; the Mayor's link shared by mistake is changed; a player who leaves
or a friend who arrives is told what to do. An 8-player game: the reveal's question and
the Creature's call fit a phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from ..test_server_process import Server  # noqa: E402
from .test_companion_review import (  # noqa: E402
    PLAYERS,
    bar_lines,
    enter,
    new_table,
    on_screen,
    stage,
)

CORRECT = re.compile(r"/api/tables/\w+/correct")


def phone_pt(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                               locale="pt-BR").new_page()


def a_resolved_night(base: str, code: str, token: str) -> dict[str, Any]:
    """Ana's Vampire attacks Bia, who is entered as fled; the night resolved."""
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
              {"type": "gesture", "player": "Bia", "shows": "priest"},
              {"type": "gesture", "player": "Caio", "shows": "priest"},
              {"type": "gesture", "player": "Duda", "shows": "werewolf", "targets": ["Caio"]},
              {"type": "revealed"}, {"type": "withdrawal", "player": "Bia", "withdrawal": True},
              {"type": "withdrawn"}):
        enter(base, code, token, e)
    head = {"X-Table-Token": token}
    while (v := httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()
           )["stage"] == "resolution":
        q = v["question"]
        enter(base, code, token, {"type": "call", "step": q["step"], "cards": {
            p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}})
    assert v["stage"] == "journals"
    return v


def test_a_withdrawal_entered_wrong_is_corrected_once_the_night_is_resolved(
        browser: Any, table_server: Server) -> None:
    """"Bia did not flee": noticed at the night's end, the Mayor taps Bia under
    "Corrigir registro" and "Ficou"; the calls are kept and the night is resolved
    again (Bia stayed in the confrontation). Before, only a gesture could be corrected
    and the Mayor undid every call back to the end of Phase 3."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    before = a_resolved_night(base, code, token)
    assert before["result"]["players"]["Bia"]["fate"] == "withdrawn"
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    correct = page.get_by_test_id("correct")
    expect(correct).to_have_text("Corrigir registro")
    assert bar_lines(page) <= 2  # four buttons in the bar at the night's end
    correct.tap()
    panel = page.get_by_test_id("panel-correct")
    expect(panel.locator("h2")).to_have_text("Corrigir registro")
    # a card entered wrong at a call: the night's calls are offered too
    expect(page.get_by_test_id("correct-calls")).to_be_visible()
    page.get_by_test_id("who-Bia").tap()
    # what is asked comes up on the phone's screen, the explanations gone
    expect(page.get_by_test_id("correct-calls")).to_have_count(0)
    assert on_screen(page, "correct-wd-Bia-stay")
    fled = page.get_by_test_id("correct-wd-Bia-fled")
    expect(fled).to_have_attribute("aria-pressed", "true")
    expect(fled).to_have_text("Bia desistiu")
    with page.expect_response(CORRECT) as r:
        page.get_by_test_id("correct-wd-Bia-stay").tap()
    assert r.value.status == 200 and r.value.json()["dropped"] == 0, r.value.text()
    expect(page.get_by_test_id("toast").last).to_have_text(
        "Corrigida: a desistência de Bia; tudo o que foi registrado depois continua valendo.")
    after = httpx.get(f"{base}/api/tables/{code}", headers={"X-Table-Token": token},
                      timeout=10).json()
    assert after["stage"] == "journals" and "Bia" not in after["withdrawals"]
    assert after["result"]["players"]["Bia"]["fate"] != "withdrawn", after["result"]["players"]
    assert page.get_by_test_id("panel-correct").count() == 0
    page.context.close()


def test_undo_night_says_what_it_takes_back_and_the_smaller_fix(
        browser: Any, table_server: Server) -> None:
    """Undo night 1 cannot be undone: its question says the table goes back to night
    1's draft and what is lost, and how to fix one entry instead (at the night's end:
    Correct an entry; at the next draft: Correct night 1). Cancelled,
    nothing changes."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    a_resolved_night(base, code, token)
    page = phone_pt(browser)
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("undo-night").tap()
    expect(page.get_by_test_id("panel-journals")).to_be_visible()
    assert len(asked) == 1
    assert asked[0].startswith("Voltar à escolha das cartas da noite 1?"), asked[0]
    assert "os gestos, as desistências e os passos da noite 1" in asked[0]
    assert "“Corrigir registro”" in asked[0], asked[0]
    enter(base, code, token, {"type": "next-night"})
    page.get_by_test_id("panel-draft").wait_for()
    page.get_by_test_id("undo-night").tap()
    expect(page.get_by_test_id("panel-draft")).to_be_visible()
    assert len(asked) == 2 and "“Corrigir a noite 1”" in asked[1], asked[1]
    v = httpx.get(f"{base}/api/tables/{code}", headers={"X-Table-Token": token},
                  timeout=10).json()
    assert v["night"] == 2 and v["nights"] == 1 and v["stage"] == "draft"  # cancelled
    page.context.close()


def test_a_night_corrected_once_the_next_has_entries_keeps_them(
        browser: Any, table_server: Server) -> None:
    """"Bia did not flee on night 1", noticed in the middle of night 2's gestures: the
    bar's "Corrigir a noite 1" opens night 1 as it ended, says what happens to what was
    entered since, and the correction keeps night 2's count and gestures (the Mayor had
    to undo back to night 1's end and enter night 2 again)."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    a_resolved_night(base, code, token)
    for e in ({"type": "next-night"}, {"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Bia", "shows": "werewolf", "targets": ["Caio"]},
              {"type": "gesture", "player": "Caio", "shows": "priest"}):
        enter(base, code, token, e)
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("panel-reveal").wait_for()
    fix = page.get_by_test_id("correct-last-night")
    expect(fix).to_have_text("Corrigir a noite\u00a01")
    fix.tap()
    panel = page.get_by_test_id("panel-correct")
    expect(panel.locator("h2")).to_have_text("Corrigir a noite 1")
    expect(page.get_by_test_id("correct-later")).to_contain_text(
        "A noite 1 já acabou: depois da correção")
    expect(page.get_by_test_id("who-Bia")).to_have_text("Bia: Sacerdote")  # night 1's
    page.get_by_test_id("who-Bia").tap()
    with page.expect_response(CORRECT) as r:
        page.get_by_test_id("correct-wd-Bia-stay").tap()
    assert r.value.status == 200 and r.value.json()["dropped"] == 0, r.value.text()
    expect(page.get_by_test_id("toast").last).to_have_text(
        "Corrigida: a desistência de Bia; tudo o que foi registrado depois continua valendo.")
    page.get_by_test_id("panel-reveal").wait_for()
    v = httpx.get(f"{base}/api/tables/{code}", headers={"X-Table-Token": token},
                  timeout=10).json()
    assert v["night"] == 2 and v["stage"] == "reveal" and sorted(v["gestures"]) == [
        "Bia", "Caio"]
    night_1 = httpx.get(f"{base}/api/tables/{code}/nights/1", timeout=10).json()
    assert "Bia" not in night_1.get("withdrawals", {}), night_1
    page.context.close()


def test_a_card_tapped_wrong_at_a_call_is_corrected_alone(
        browser: Any, table_server: Server) -> None:
    """At the Devil's call the Mayor tapped Duda, whose Werewolf was real: noticed at
    the night's end, "Corrigir registro" lists the night's calls; step 1 comes back as it
    was asked, Duda pressed; untapped and corrected, the Vampire's call is kept and the
    Werewolf, now called, is asked. Before, the page said to undo back to step 1."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
              {"type": "gesture", "player": "Bia", "shows": "priest"},
              {"type": "gesture", "player": "Caio", "shows": "priest"},
              {"type": "gesture", "player": "Duda", "shows": "werewolf", "targets": ["Caio"]},
              {"type": "revealed"}, {"type": "withdrawn"},
              {"type": "call", "step": "1", "cards": {"Duda": {"role": "devil",
                                                                "edition": "basic"}}},
              {"type": "call", "step": "2", "cards": {"Ana": {"role": "vampire",
                                                               "edition": "basic"}}}):
        enter(base, code, token, e)
    assert stage(base, code, token) == "journals"
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("correct").tap()
    call = page.get_by_test_id("correct-call-1")
    expect(call).to_have_text("Passo 1 · Demônio: Duda")
    expect(page.get_by_test_id("correct-call-2")).to_have_text("Passo 2 · Vampiro: Ana")
    call.tap()
    box = page.get_by_test_id("panel-correct-call")
    expect(box.get_by_test_id("call")).to_have_text("O Demônio?")
    duda = box.get_by_test_id("holder-Duda")
    expect(duda).to_have_attribute("aria-pressed", "true")  # as entered
    duda.tap()
    expect(duda).to_have_attribute("aria-pressed", "false")
    send = box.get_by_test_id("call-next")
    expect(send).to_have_text("Corrigir o passo 1")
    with page.expect_response(CORRECT) as r:
        send.tap()
    assert r.value.status == 200 and r.value.json()["dropped"] == 0, r.value.text()
    expect(page.get_by_test_id("toast").last).to_have_text(
        "Corrigido: passo 1; tudo o que foi registrado depois continua valendo. A noite ainda "
        "não acabou; falta chamar: passo 3.")
    # the Werewolf is called now; the Vampire's call was kept
    expect(page.get_by_test_id("call")).to_have_text("O Lobisomem?")
    assert on_screen(page, "call-next")
    page.get_by_test_id("call-next").tap()
    page.get_by_test_id("panel-journals").wait_for()
    v = httpx.get(f"{base}/api/tables/{code}", headers={"X-Table-Token": token},
                  timeout=10).json()
    assert [c["step"] for c in v["calls"]] == ["1", "2", "3"] and v["calls"][0]["cards"] == {}
    assert v["result"]["players"]["Caio"]["fate"] != "alive", v["result"]["players"]
    page.context.close()


def test_a_player_who_leaves_or_a_friend_who_joins_is_told_what_to_do(
        browser: Any, table_server: Server) -> None:
    """The players are set for a game (the deck and the journals are drawn for them):
    mid-game the Mayor's page says so and sets up a new game with the same players to
    change, while this one stays among the games in progress."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    enter(base, code, token, {"type": "drafted"})
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    box = page.get_by_test_id("players-change")
    box.locator("summary").tap()
    expect(box).to_contain_text("Alguém saiu da mesa ou chegou mais gente?")
    expect(box).to_contain_text("para estes 4")
    page.get_by_test_id("new-game-changed").tap()
    page.get_by_test_id("panel-setup").wait_for()
    names = [page.get_by_test_id(f"seat-{i}").input_value() for i in range(len(PLAYERS))]
    assert names == PLAYERS
    page.get_by_test_id("add-player").tap()  # the friend who arrived
    expect(page.get_by_test_id(f"seat-{len(PLAYERS)}")).to_be_visible()
    expect(page.get_by_test_id(f"resume-{code}")).to_be_visible()  # not lost
    page.context.close()


def test_a_creatures_target_is_asked_the_cards_gender_in_few_words(
        browser: Any, table_server: Server) -> None:
    """An 8-player game with the special cast, at the Creature's call (step 8): the card
    of the player proposed to is known but for its gender, and its buttons say the role
    and the gender ("Vampiro (feminino)", two lines at most); they read "Vampiro (avançada,
    feminino)" on three lines of a phone beside "Vampiro (avançada, masculino)", the
    difference hard to see."""
    players = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana"]
    r = httpx.post(f"{table_server.base}/api/tables", json={
        "players": players, "deck": "creature-mummy-6", "lang": "pt_BR",
        "free_xp": dict.fromkeys(players, "vampire")}, timeout=10)
    r.raise_for_status()
    base, code, token = table_server.base, r.json()["code"], r.json()["token"]
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "creature", "targets": ["Bia"],
               "seeks": "feminine"},
              {"type": "gesture", "player": "Bia", "shows": "vampire", "targets": ["Duda"]},
              {"type": "gesture", "player": "Caio", "shows": "werewolf", "targets": ["Enzo"]},
              {"type": "gesture", "player": "Duda", "shows": "mummy"},
              {"type": "gesture", "player": "Enzo", "shows": "hunter", "targets": ["Gil", "Hana"]},
              {"type": "gesture", "player": "Fred", "shows": "voodooist", "kind": "werewolf"},
              {"type": "gesture", "player": "Gil", "shows": "zombie", "targets": ["Hana"]},
              {"type": "gesture", "player": "Hana", "shows": "vampire", "targets": ["Caio"]},
              {"type": "revealed"}, {"type": "withdrawn"}):
        enter(base, code, token, e)
    head = {"X-Table-Token": token}
    while (v := httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()
           )["question"]["step"] != "8":
        q = v["question"]
        zombies = {z: c["aimed"] for z, c in q["zombies"].items()}
        enter(base, code, token, {"type": "call", "step": q["step"], "zombies": zombies,
                                  "cards": {p: {"role": q["role"], "edition": "advanced"}
                                            for p in q["chosen"]}})
    assert v["question"]["asked"] == ["Bia"], v["question"]
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    fem = page.get_by_test_id("card-Bia-vampire-advanced-feminine")
    expect(fem).to_have_text("Vampiro (feminino)")
    expect(page.get_by_test_id("card-Bia-vampire-advanced-masculine")).to_have_text(
        "Vampiro (masculino)")
    # two lines at most in a phone's half-width cell (the label took three)
    lines = page.evaluate("""() => [...document.querySelectorAll('[data-testid^=card-Bia-]')]
        .map((b) => {
            const r = document.createRange();
            r.selectNodeContents(b);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
        })""")
    assert max(lines) <= 2, lines
    fem.tap()
    with page.expect_response(re.compile(r"/api/tables/\w+/entries")) as resp:
        page.get_by_test_id("call-next").tap()
    assert resp.value.status == 200, resp.value.text()
    page.context.close()


def test_a_count_that_did_not_reach_the_server_is_not_counted_again(
        browser: Any, table_server: Server) -> None:
    """The network drops during "1, 2, 3, now!": the table has made its gestures, but the
    count's entry is not stored. The page says so and goes on without counting again
    (it offered the count alone, and the players would have gestured twice)."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    enter(base, code, token, {"type": "drafted"})
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("count-start").wait_for()
    page.route("**/api/tables/**", lambda route: route.abort())
    page.get_by_test_id("count-start").tap()
    expect(page.get_by_test_id("count-unsaved")).to_contain_text("não chegou ao servidor",
                                                                 timeout=15000)
    expect(page.get_by_test_id("toast").last).to_contain_text("não foi salvo")
    assert stage(base, code, token) == "count"  # nothing stored
    page.unroute("**/api/tables/**")
    page.get_by_test_id("offline").wait_for(state="detached")
    page.get_by_test_id("count-saved").tap()
    page.get_by_test_id("panel-reveal").wait_for()
    assert stage(base, code, token) == "reveal"
    page.context.close()


def test_a_friend_who_tapped_another_name_gives_the_seat_back(
        browser: Any, table_server: Server) -> None:
    """Caio's phone tapped "Bia": it says "Não é Bia?" and gives the seat back; Bia's
    own phone, which saw her name greyed with the reason, takes it a moment later.
    Before, the name stayed greyed without a word and only the Mayor freeing every
    phone's seat undid the tap."""
    t = new_table(table_server.base)
    base, code = table_server.base, t["code"]
    caio, bia = phone_pt(browser), phone_pt(browser)
    caio.goto(f"{base}/table/{code}?lang=pt_BR")
    caio.get_by_test_id("iam-Bia").tap()
    not_me = caio.get_by_test_id("not-me")
    expect(not_me).to_have_text("Não é Bia? Escolha seu nome de novo")
    bia.goto(f"{base}/table/{code}?lang=pt_BR")
    expect(bia.get_by_test_id("iam-Bia")).to_be_disabled()
    expect(bia.get_by_test_id("seats-taken")).to_contain_text("Burgomestre")
    not_me.tap()
    caio.get_by_test_id("iam-Caio").tap()
    caio.get_by_test_id("not-me").wait_for()
    expect(bia.get_by_test_id("iam-Bia")).to_be_enabled()  # the next poll
    bia.get_by_test_id("iam-Bia").tap()
    expect(bia.get_by_test_id("not-me")).to_have_text("Não é Bia? Escolha seu nome de novo")
    caio.context.close()
    bia.context.close()


def test_the_mayors_link_opened_on_a_friends_phone_is_changed(
        browser: Any, table_server: Server) -> None:
    """The Mayor's link went to a friend (the group's chat got it instead of the
    players' link): both phones are the Mayor's screen. Under "Links e idioma" the
    Mayor changes it, after a question that says what it does; the friend's phone is a
    player's phone from its next look, and the Mayor's goes on."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    mayor, friend = phone_pt(browser), phone_pt(browser)
    for page in (mayor, friend):
        page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
        page.get_by_test_id("panel-draft").wait_for()
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    mayor.on("dialog", accept)
    expect(mayor.get_by_test_id("links")).to_have_attribute("open", "")  # the first draft
    mayor.get_by_test_id("new-mayor-link").tap()
    expect(mayor.get_by_test_id("toast").last).to_have_text(
        "O link do Burgomestre mudou: só este aparelho tem o novo.")
    assert len(asked) == 1 and "celular de jogador" in asked[0], asked
    friend.get_by_test_id("iam-Ana").wait_for()  # the friend's next poll: a phone
    mayor.get_by_test_id("drafted").tap()
    mayor.get_by_test_id("panel-count").wait_for()
    mayor.reload()  # the new link is kept on the Mayor's phone
    mayor.get_by_test_id("panel-count").wait_for()
    mayor.context.close()
    friend.context.close()


def test_a_gesture_entered_wrong_in_the_reveal_is_entered_again_from_its_name(
        browser: Any, table_server: Server) -> None:
    """Noticed one player later: the page says that a name is tapped to enter its
    gesture again (the names above the question were buttons and nothing said so);
    the new gesture replaces the old one and the reveal goes on where it was."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    enter(base, code, token, {"type": "drafted"})
    enter(base, code, token, {"type": "counted"})
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    current = page.get_by_test_id("reveal-current")
    expect(current).to_have_text("Ana")
    assert page.get_by_test_id("reveal-again").count() == 0  # nothing entered yet
    page.get_by_test_id("role-priest").tap()
    expect(current).to_have_text("Bia")
    expect(page.get_by_test_id("reveal-again")).to_have_text(
        "Registrou errado? Toque no nome para registrar esse gesto de novo.")
    page.get_by_test_id("who-Ana").tap()  # "no, Ana showed the Vampire"
    expect(current).to_have_text("Ana")
    page.get_by_test_id("role-vampire").tap()
    with page.expect_response(re.compile(r"/api/tables/\w+/entries")):
        page.get_by_test_id("target-Bia").tap()
    expect(current).to_have_text("Bia")
    expect(page.get_by_test_id("who-Ana")).to_have_text("Ana: Vampiro → Bia")
    page.context.close()


EIGHT = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana"]
EIGHT_GESTURES: list[tuple[str, str, dict[str, Any]]] = [
    ("Ana", "hunter", {"targets": ["Bia", "Caio"]}), ("Bia", "priest", {}),
    ("Caio", "priest", {}), ("Duda", "vampire", {"targets": ["Ana"]}),
    ("Enzo", "werewolf", {"targets": ["Ana"]}), ("Fred", "alien", {"kind": "werewolf"}),
    ("Gil", "zombie", {"targets": ["Hana"]}), ("Hana", "vampire", {"targets": ["Gil"]})]


def eight_at_the_reveal(table_server: Server, gestures: int) -> tuple[str, str, str]:
    """A pt_BR table of eight (death-alien-7), counted, the first ``gestures`` of
    ``EIGHT_GESTURES`` entered: its base, code and Mayor's token."""
    r = httpx.post(f"{table_server.base}/api/tables", json={
        "players": EIGHT, "deck": "death-alien-7", "lang": "pt_BR",
        "free_xp": dict.fromkeys(EIGHT, "vampire")}, timeout=10)
    r.raise_for_status()
    base, code, token = table_server.base, r.json()["code"], r.json()["token"]
    enter(base, code, token, {"type": "drafted"})
    enter(base, code, token, {"type": "counted"})
    for p, shows, more in EIGHT_GESTURES[:gestures]:
        enter(base, code, token, {"type": "gesture", "player": p, "shows": shows, **more})
    return base, code, token


def test_an_eight_player_reveal_asks_on_the_phones_screen(browser: Any,
                                                          table_server: Server) -> None:
    """Eight players, six gestures entered: the roles to tap for the seventh, then its
    targets, are all on a phone's screen (375x667) without scrolling. The names entered
    came first, six rows of them, and pushed the roles under the fold at every gesture
    from the fifth on."""
    base, code, token = eight_at_the_reveal(table_server, 6)
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    expect(page.get_by_test_id("reveal-current")).to_have_text("Gil")
    roles = page.locator("[data-testid^=role-]").evaluate_all(
        "(bs) => bs.map((b) => b.getAttribute('data-testid'))")
    assert len(roles) >= 6, roles
    assert [x for x in roles if not on_screen(page, x)] == []
    page.get_by_test_id("role-hunter").tap()
    targets = page.locator("[data-testid^=target-]").evaluate_all(
        "(bs) => bs.map((b) => b.getAttribute('data-testid'))")
    assert len(targets) == 7, targets
    assert [x for x in targets if not on_screen(page, x)] == []
    page.context.close()


def test_an_eight_player_correction_asks_on_the_phones_screen(browser: Any,
                                                             table_server: Server) -> None:
    """Eight players, a gesture noticed wrong at a call: once the Mayor taps the name
    under "Corrigir registro", the withdrawal and every role to tap are on a phone's
    screen (375x667). The eight names stayed above the question and pushed the roles
    under the fold (seen in a whole 8-player game played as a Mayor)."""
    base, code, token = eight_at_the_reveal(table_server, 8)
    enter(base, code, token, {"type": "revealed"})
    enter(base, code, token, {"type": "withdrawn"})
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("call").wait_for()
    page.get_by_test_id("correct").tap()
    page.get_by_test_id("who-Hana").tap()
    expect(page.get_by_test_id("reveal-current")).to_have_text("Hana")
    roles = page.locator("[data-testid^=role-]").evaluate_all(
        "(bs) => bs.map((b) => b.getAttribute('data-testid'))")
    assert len(roles) >= 6, roles
    assert [x for x in ["correct-wd-Hana-fled", *roles] if not on_screen(page, x)] == []
    page.get_by_test_id("role-werewolf").tap()
    targets = page.locator("[data-testid^=target-]").evaluate_all(
        "(bs) => bs.map((b) => b.getAttribute('data-testid'))")
    assert [x for x in targets if not on_screen(page, x)] == []
    with page.expect_response(CORRECT) as resp:
        page.get_by_test_id("target-Gil").tap()
    assert resp.value.status == 200, resp.value.text()
    page.context.close()


def test_freeing_the_phones_seats_asks_first(browser: Any, table_server: Server) -> None:
    """Freeing the seats cannot be undone (every phone picks its name again): the Mayor
    is asked first, with the names; cancelled, nothing changes."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    assert httpx.post(f"{base}/api/tables/{code}/seat", json={"player": "Bia"},
                      timeout=10).status_code == 200
    page = phone_pt(browser)
    answers = ["dismiss", "accept"]
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        getattr(dialog, answers.pop(0))()

    page.on("dialog", answer)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    expect(page.get_by_test_id("links")).to_have_attribute("open", "")  # the first draft
    page.get_by_test_id("free-seats").tap()
    assert asked == ["Cada celular da mesa (Bia) perde o lugar e escolhe o nome de novo. "
                     "Liberar os lugares?"], asked
    head = {"X-Table-Token": token}
    assert httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()[
        "seated"] == ["Bia"]
    page.get_by_test_id("free-seats").tap()
    expect(page.get_by_test_id("free-seats")).to_have_count(0)
    assert httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()[
        "seated"] == []
    page.context.close()


def test_an_entry_saved_whose_answer_was_lost_is_said_saved(browser: Any,
                                                             table_server: Server) -> None:
    """The phone walks out of the Wi-Fi just after the server stored "Bia fled": the
    answer is lost. The page looks at the table before it speaks: the entry is saved,
    and it says so (it said "not saved: try again", and a second tap on Bia took her
    withdrawal back)."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    for e in ({"type": "drafted"}, {"type": "counted"},
              *({"type": "gesture", "player": p, "shows": "priest"} for p in PLAYERS[:2]),
              *({"type": "gesture", "player": p, "shows": "vampire", "targets": ["Ana"]}
                for p in PLAYERS[2:]), {"type": "revealed"}):
        enter(base, code, token, e)
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("fled-Bia").wait_for()

    def stored_then_lost(route: Any) -> None:
        route.fetch()  # the server stores it...
        route.abort()  # ...and its answer never reaches the phone

    page.route("**/api/tables/*/entries*", stored_then_lost)
    page.get_by_test_id("fled-Bia").tap()
    expect(page.get_by_test_id("toast").last).to_have_text(
        "A resposta se perdeu no caminho, mas o registro foi salvo: a página já o mostra.")
    expect(page.get_by_test_id("fled-Bia").locator(".who")).to_have_text("Bia desistiu")
    head = {"X-Table-Token": token}
    assert httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()[
        "withdrawals"] == {"Bia": True}
    page.context.close()


def test_an_undo_done_whose_answer_was_lost_is_said_done(browser: Any,
                                                         table_server: Server) -> None:
    """Undo's answer lost on the way: the page says what was taken back (the table
    says it was), not only that the server cannot be reached; a second tap would have
    taken another entry back."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "priest"}):
        enter(base, code, token, e)
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    undo = page.get_by_test_id("undo")
    expect(undo).to_have_text("Desfazer: gesto de Ana")
    page.route("**/api/tables/*/undo*", lambda route: (route.fetch(), route.abort()))
    undo.tap()
    expect(page.get_by_test_id("toast").last).to_have_text("Desfeito: gesto de Ana")
    expect(undo).to_have_text("Desfazer: a contagem")
    assert stage(base, code, token) == "reveal"
    page.context.close()


def test_a_correction_that_takes_entries_back_asks_first(browser: Any,
                                                         table_server: Server) -> None:
    """Ana's Werewolf killed Bia's Zombie at step 3; "Ana fled", says the table once the
    night is over: then the Zombie is in the night at step 4 and must be asked, so the
    step-4 call is taken back. The page says so before it is done ("Esta correção desfaz o
    que foi registrado depois dela (1 registro)..."); cancelled, nothing changes; accepted,
    the Zombie's question is asked. It was done at once, and only said afterwards."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    for e in ({"type": "drafted"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "werewolf", "targets": ["Bia"]},
              {"type": "gesture", "player": "Bia", "shows": "zombie", "targets": ["Caio"]},
              {"type": "gesture", "player": "Caio", "shows": "priest"},
              {"type": "gesture", "player": "Duda", "shows": "priest"},
              {"type": "revealed"}, {"type": "withdrawn"},
              {"type": "call", "step": "1", "cards": {}},
              {"type": "call", "step": "3", "cards": {"Ana": {"role": "werewolf",
                                                               "edition": "basic"}}},
              {"type": "call", "step": "4", "cards": {"Bia": {"role": "zombie",
                                                               "edition": "basic"}}}):
        enter(base, code, token, e)
    assert stage(base, code, token) == "journals"
    page = phone_pt(browser)
    asked: list[str] = []
    answer = {"accept": False}

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        if answer["accept"]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("correct").tap()
    page.get_by_test_id("who-Ana").tap()
    with page.expect_event("dialog"):
        page.get_by_test_id("correct-wd-Ana-fled").tap()
    expect(page.get_by_test_id("panel-correct")).to_be_visible()
    assert asked == ["Esta correção desfaz o que foi registrado depois dela (1 registro): "
                     "registre de novo. Corrigir assim mesmo?"], asked
    assert stage(base, code, token) == "journals"  # cancelled: nothing changed
    answer["accept"] = True
    with page.expect_response(CORRECT) as r:
        page.get_by_test_id("correct-wd-Ana-fled").tap()
    assert r.value.json()["dropped"] == 1, r.value.text()
    expect(page.get_by_test_id("zombie-ask-Bia")).to_be_visible()
    assert len(asked) == 2
    page.context.close()


def test_deaths_name_tapped_wrong_is_corrected_at_the_nights_end(
        browser: Any, table_server: Server) -> None:
    """Death reveals 'Bia' at the night's end, and Fred, who holds Death, wrote Caio: under
    "Corrigir registro" the page says the name entered and offers the others; tapped, the
    night is resolved again with every gesture and call kept. Only an undo back to the
    draft changed it, and the whole night was entered again."""
    players = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"]
    r = httpx.post(f"{table_server.base}/api/tables", json={
        "players": players, "deck": "reporter-death-6", "lang": "pt_BR",
        "free_xp": dict.fromkeys(players, "vampire")}, timeout=10)
    r.raise_for_status()
    base, code, token = table_server.base, r.json()["code"], r.json()["token"]
    for e in ({"type": "drafted", "death_names": "Bia"}, {"type": "counted"},
              {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
              {"type": "gesture", "player": "Bia", "shows": "priest"},
              {"type": "gesture", "player": "Caio", "shows": "priest"},
              {"type": "gesture", "player": "Duda", "shows": "zombie", "targets": ["Caio"]},
              {"type": "gesture", "player": "Enzo", "shows": "hunter",
               "targets": ["Ana", "Bia"]},
              {"type": "revealed"}, {"type": "withdrawn"}):
        enter(base, code, token, e)
    head = {"X-Table-Token": token}
    while (v := httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()
           )["stage"] == "resolution":
        q = v["question"]
        enter(base, code, token, {"type": "call", "step": q["step"], "zombies": {
            z: c["aimed"] for z, c in q["zombies"].items()}, "cards": {
            p: {"role": q["role"], "edition": "basic"} for p in q["chosen"]}})
    calls = len(v["calls"])
    page = phone_pt(browser)
    page.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    page.get_by_test_id("correct").tap()
    box = page.get_by_test_id("correct-death")
    expect(box).to_be_visible()
    expect(page.get_by_text("A Morte (Fred) escreveu Bia. Registrou errado? Toque no nome "
                            "escrito:")).to_be_visible()
    expect(page.get_by_test_id("correct-death-Bia")).to_have_attribute("aria-pressed", "true")
    assert page.get_by_test_id("correct-death-Fred").count() == 0
    with page.expect_response(CORRECT) as resp:
        page.get_by_test_id("correct-death-Caio").tap()
    assert resp.value.status == 200 and resp.value.json()["dropped"] == 0, resp.value.text()
    expect(page.get_by_test_id("toast").last).to_have_text(
        "Corrigido: o nome que a Morte escreveu; tudo o que foi registrado depois continua "
        "valendo.")
    night = httpx.get(f"{base}/api/tables/{code}/nights/1", timeout=10).json()
    assert night["gestures"]["Fred"] == {"names": "Caio"}, night["gestures"]
    after = httpx.get(f"{base}/api/tables/{code}", headers=head, timeout=10).json()
    assert after["stage"] == "journals" and len(after["calls"]) == calls
    page.context.close()


# The page's polls of the table held back on demand: a poll in flight while the Mayor's
# link changes, as a slow network or a loaded machine makes it.
HOLD_POLLS = """(() => {
    const real = window.fetch;
    window.__held = { on: false, started: 0, done: 0, after: 0 };
    window.fetch = async (url, opts) => {
        const poll = (!opts || !opts.method || opts.method === 'GET')
            && /\\/api\\/tables\\/[A-Z0-9]+\\?/.test(String(url));
        if (poll && !window.__held.on && window.__held.done) {  // a poll after the held one
            const answer = await real(url, opts);
            window.__held.after += 1;
            return answer;
        }
        if (!poll || !window.__held.on) return real(url, opts);
        window.__held.started += 1;  // sent late: it reaches the server after the change
        await new Promise((ok) => { window.__held.release = ok; });
        const answer = await real(url, opts);
        window.__held.done += 1;
        return answer;
    };
})()"""


def test_a_poll_answered_for_the_old_mayors_link_leaves_the_mayors_screen(
        browser: Any, table_server: Server) -> None:
    """A poll of the table sent with the Mayor's link just before the Mayor changed it
    came back, once the link had changed, as a stranger's phone ('Qual jogador é
    você?'); drawn over the Mayor's screen, it stayed there (the next polls, with the
    new link, found the table unchanged) and the Mayor could enter nothing. Seen under a
    loaded CI (test_the_mayors_link_opened_on_a_friends_phone_is_changed); here the
    poll is held in flight on purpose. The answer to a link given up is dropped."""
    t = new_table(table_server.base)
    base, code, token = table_server.base, t["code"], t["token"]
    mayor = phone_pt(browser)
    mayor.add_init_script(HOLD_POLLS)
    mayor.on("dialog", lambda dialog: dialog.accept())
    mayor.goto(f"{base}/table/{code}?lang=pt_BR#mayor={token}")
    mayor.get_by_test_id("panel-draft").wait_for()
    mayor.evaluate("() => { window.__held.on = true; }")
    mayor.wait_for_function("() => window.__held.started >= 1")  # a poll on its way
    mayor.get_by_test_id("new-mayor-link").tap()
    expect(mayor.get_by_test_id("toast").last).to_have_text(
        "O link do Burgomestre mudou: só este aparelho tem o novo.")
    mayor.evaluate("() => { window.__held.on = false; window.__held.release(); }")
    # the held answer is read, then two more polls (one a second) with the new link
    mayor.wait_for_function("() => window.__held.done >= 1 && window.__held.after >= 2",
                            timeout=10_000)
    seen = mayor.evaluate("""() => ({
        phone: document.querySelectorAll('[data-testid^=iam-]').length,
        draft: Boolean(document.querySelector('[data-testid=drafted]')) })""")
    assert seen == {"phone": 0, "draft": True}, seen
    mayor.context.close()
