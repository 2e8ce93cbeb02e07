"""Issue 31: online play that explains itself, on a 375x667 phone in Portuguese unless
said otherwise. Who won and how in one line (the row and the card), who is one XP from
a victory; "killed" lasting one night, said where it is shown and told at the story's
step; the reader's night above the next question; the invite link read again on each
connection; the host-only warning kept off a friend's join page; the polish (a banner
and a combat panel that fit, toasts off the thumb's controls, the winners' caption
over the arrows, the face-down pick and the first active player's badge, a question
above the screen pointed to upwards); the count that stops with the connection and
says "1" at once.

Most checks draw a panel from a view made for the case (the modules are imported in the
page, as the page draws them), so a night's events need not come by chance; the other
seats are the room's bots, which decide at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from playwright.sync_api import expect

from darkcity.server.testing import create_room

from ..test_server_process import Server
from .test_web_play import add_bots
from .test_web_review import Link

PHONE = {"width": 375, "height": 667}


def phone(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                               locale="pt-BR").new_page()


@pytest.fixture
def seated(browser: Any, server: Server) -> Iterator[Any]:
    """Tomé's phone at a table of four (three bots), at his free XP: nothing moves until
    he decides (two minutes), so a view drawn for a case stays on the page."""
    room = create_room(server.base, "Tomé", players=4, decide_s=120, lang="pt_BR")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page = phone(browser)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=choice-0]")
    yield page
    page.context.close()


# A night told, made for the case: Bia (the Werewolf) kills Caio at step 3, Tomé (the
# Priest) earns 1 XP at the end; Tomé pointed at Caio and Duda. The view is the next
# night's draft, its first decision point (Duda's pick).
NIGHT = """
const names = S.view.players;
const [me, bia, caio, duda] = names;
const night = { number: 1, active: me, winners: [], marks: [], zombie_targets: [], xp: [[me, 1]],
  cards: [[me, { role: 'priest', edition: 'classic', gender: '' }],
          [bia, { role: 'werewolf', edition: 'classic', gender: '' }],
          [caio, { role: 'vampire', edition: 'classic', gender: '' }],
          [duda, { role: 'hunter', edition: 'classic', gender: '' }]],
  gestures: [[me, { shows: 'priest', targets: [caio, duda] }],
             [bia, { shows: 'werewolf', targets: [caio] }],
             [caio, { shows: 'vampire', targets: [bia] }],
             [duda, { shows: 'hunter', targets: [bia] }]],
  withdrawals: [], fates: [[me, 'alive'], [bia, 'alive'], [caio, 'killed'], [duda, 'alive']],
  events: [
    { step: 1, event: 'hit', player: duda, target: bia,
      text: 'O Caçador (' + duda + ') acerta ' + bia + '.' },
    { step: 3, event: 'kill', player: bia, target: caio,
      text: 'O Lobisomem (' + bia + ') elimina ' + caio + '.' },
    { step: 'end', event: 'xp', player: me, target: null,
      text: me + ' ganha 1 XP como Sacerdote.' }] };
const real = S.view;
S.view = { ...real, phase: 'draft', night: 2, decision_id: 'night-2-pick-1', choices: [],
  hand: null, required: [duda], pending: [duda], blind_pick: null, narration: [], winners: [],
  seats: real.seats.map((s) => ({ ...s, card: null, gesture: null, withdrawal: null,
                                  decided: null })) };
S.history = [night];
S.fresh = false;
"""


def routed(page: Any) -> Link:
    """The page's connection made again through a route that can cut it."""
    link = Link(page)
    # online again only once the new connection's welcome came: the old one's dot stayed
    # on meanwhile, and a welcome arriving late (a loaded CI) ended a count made after it
    page.evaluate("""async () => {
      (await import('/static/js/store.js')).S.online = false;
      (await import('/static/js/net.js')).reconnect(); }""")
    for _ in range(200):
        if link.open and page.evaluate(
                "async () => (await import('/static/js/store.js')).S.online"):
            break
        page.wait_for_timeout(100)
    page.wait_for_selector(".bar .dot.on")
    return link


def drawn(page: Any, body: str) -> Any:
    """Run ``body`` in the page with the store and the panels' modules at hand, the real
    view put back afterwards (``NIGHT`` made first)."""
    return page.evaluate("""async () => {
      const { S } = await import('/static/js/store.js');
      const table = await import('/static/js/table.js');
      const story = await import('/static/js/story.js');
      const decide = await import('/static/js/decide.js');
      const end = await import('/static/js/end.js');
      const keep = { view: S.view, history: S.history, story: S.story, standing: S.standing };
      try {
        %s
      } finally { Object.assign(S, keep); }
    }""" % (NIGHT + body))


def test_a_fate_is_told_at_its_step_and_lasts_one_night(seated: Any) -> None:
    """'Killed' stayed on the seats into the next draft (read as 'out of the game') and
    came before the story reached it. It is shown from the step that tells it, says
    'tonight' (the rest on hover and in the story), and is gone once the draft moves on."""
    got = drawn(seated, """
      const fates = () => table.gameSeats().map(
        (b) => (b.querySelector('.fate') || {}).textContent || null);
      const out = {};
      S.story = { night: 1, start: Date.now(), shown: 1, total: 3, at: 'night-2-pick-1' };
      out.before = fates();
      S.story.shown = 2;
      out.told = fates();
      out.title = table.gameSeats()[2].querySelector('.fate').title;
      S.story.shown = Infinity;
      out.after = fates();
      S.view = { ...S.view, decision_id: 'night-2-pick-2' };  // Duda kept a card
      out.moved = fates();
      S.story.shown = 2;  // (still told, though: kept while the story tells it)
      out.moving = fates();
      S.story.shown = Infinity;
      S.view = { ...S.view, decision_id: 'night-2-pick-1' };
      const note = story.storyPanel().querySelector('[data-testid=fate-note]');
      out.note = note ? note.textContent : null;
      return out;""")
    assert got["before"] == [None, None, None, None]
    assert got["told"] == [None, None, "morreu esta noite", None]
    assert got["title"] == "Vale só por uma noite: joga de novo na noite seguinte."
    assert got["after"] == got["told"]
    assert got["moved"] == [None, None, None, None]
    assert got["moving"] == got["told"]
    assert got["note"] and "vale só por uma noite" in got["note"]


def test_for_you_says_why_no_xp(seated: Any) -> None:
    """'Nenhum XP para você esta noite' and nothing more (issue #51): the reader's line of
    Phase 5 is the engine's reason, as the story tells it."""
    got = drawn(seated, """
      const told = S.history[0];
      told.xp = [];
      told.events[2] = { step: 'end', event: 'why-immune-flash', player: me,
        target: told.events[1].target,
        text: me + ' não ganha XP: o Repórter apontava para o Sacerdote.' };
      S.story = { night: 1, start: Date.now(), shown: Infinity, total: 3, at: 'night-2-pick-1' };
      const mine = decide.decisionPanel().querySelector('[data-testid=for-you]');
      return [...mine.querySelectorAll('li')].map((li) => li.textContent);""")
    me = seated.evaluate("async () => (await import('/static/js/store.js')).S.view.viewer")
    assert f"{me} não ganha XP: o Repórter apontava para o Sacerdote." in got, got
    assert "Nenhum XP para você esta noite." not in got, got


def test_the_readers_night_comes_above_the_next_question(seated: Any) -> None:
    """On a phone the story is under the table, and 'Your turn' went to the next
    question past it: above the question, the reader's fate, XP and targets, as far as
    the story has told them."""
    got = drawn(seated, """
      const said = () => {
        const box = decide.decisionPanel();
        const mine = box.querySelector('[data-testid=for-you]');
        const h = box.querySelector('h2');
        const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
        return { lines: mine ? [...mine.querySelectorAll('li')].map((li) => li.textContent) : null,
                 title: mine ? mine.querySelector('h3').textContent : null,
                 above: !!(mine && h && after(mine, h)) };
      };
      S.story = { night: 1, start: Date.now(), shown: 2, total: 3, at: 'night-2-pick-1' };
      const telling = said();
      S.story.shown = Infinity;
      return { telling, told: said() };""")
    caio, duda = seated.evaluate("""async () => {
      const { S } = await import('/static/js/store.js'); return S.view.players.slice(2); }""")
    assert got["told"]["title"] == "Noite 1, para você" and got["told"]["above"]
    assert got["told"]["lines"] == [
        "Você sobreviveu à noite.", "Tomé ganha 1 XP como Sacerdote.",
        f"Seus alvos: {caio}: morreu, {duda}: sobreviveu"]
    # while the story is told, only what it has told: Caio's death, not yet the XP
    assert got["telling"]["lines"] == [
        f"Seus alvos: {caio}: morreu", "A noite ainda está sendo narrada (abaixo da mesa)."]


def test_the_end_names_the_row_and_the_story_who_is_one_xp_away(seated: Any) -> None:
    """'4 XP in one row' did not say which: in three games a bot won on the Priest and
    nothing on screen said so. The end says 'Bia — 4 XP como Sacerdote'; the night
    before, the story says who is one XP from a victory, and in which row."""
    got = drawn(seated, """
      S.story = { night: 1, start: 0, shown: Infinity, total: 3, at: 'night-2-pick-1' };
      const seat = (name, extra) => ({ name, xp: 0, rows: 0, progress: [], met: [],
                                       met_rows: {}, near: [], ...extra });
      const texts = (box, sel) => [...box.querySelectorAll(sel)].map((x) => x.textContent);
      S.standing = { tiebreak: null,
        seats: names.map((p) => seat(p, p === bia ? { near: ['priest'] } : {})) };
      const near = texts(story.storyPanel(), '[data-testid=story-near]');
      S.view = { ...S.view, phase: 'over', winners: [bia], choices: [], pending: [], required: [],
        seats: S.view.seats.map((s) => (s.name === bia
          ? { ...s, journal: [['priest', 4], ['angel', 1]] } : s)) };
      const won4 = { xp: 5, rows: 2, met: ['four-in-one'],
                     met_rows: { 'four-in-one': ['priest'] } };
      S.standing = { tiebreak: null, seats: names.map((p) => seat(p, p === bia ? won4 : {})) };
      const won = texts(end.endPanel(), '[data-testid=won-by]');
      return { bia, near, won };""")
    bia = got["bia"]
    assert got["near"] == [f"{bia} está a um XP da vitória: mais um como Sacerdote."]
    assert got["won"] == [f"{bia} — 4 XP como Sacerdote (5 XP; linhas com XP: 2)"], got["won"]


def test_the_face_down_pick_and_the_first_active_player_are_marks_on_their_seats(
        seated: Any) -> None:
    """'Clara took a face-down card.' stayed under every question through the gestures
    and the withdrawal, and a player wore a 'Mayor' badge though the app is the Mayor:
    the pick is the draft's news, then a mark on the seat; the badge says what it means."""
    got = drawn(seated, """
      S.view = { ...S.view, phase: 'gesture', blind_pick: bia, mayor: me, choices: [],
                 required: [], pending: [] };
      const panel = decide.decisionPanel();
      const seats = table.gameSeats();
      const badges = (i) => [...seats[i].querySelectorAll('.badge')].map((b) => b.textContent);
      const inGesture = { line: !!panel.querySelector('[data-testid=blind-pick]'),
                          me: badges(0), bia: badges(1) };
      S.view = { ...S.view, phase: 'draft' };
      const said = decide.decisionPanel().querySelector('[data-testid=blind-pick]');
      const inDraft = { line: said ? said.textContent : null };
      return { inGesture, inDraft, bia };""")
    assert got["inGesture"]["line"] is False
    assert "carta virada" in got["inGesture"]["bia"]
    assert "abriu a 1ª noite" in got["inGesture"]["me"]
    assert "Burgomestre" not in got["inGesture"]["me"]
    assert got["inDraft"]["line"] == f"{got['bia']} pegou uma carta virada para baixo."


def test_the_invite_link_is_read_again_on_a_new_connection(browser: Any,
                                                            server: Server) -> None:
    """The lobby asks a host to restart with --host 0.0.0.0 and share again; the link
    still said 127.0.0.1 until a manual reload (read once per page load). The page's
    connection comes back after the restart: the address is read again."""
    room = create_room(server.base, "Tomé", players=4, decide_s=120, lang="pt_BR")
    page = phone(browser)
    lan = {"on": False}

    real = httpx.get(f"{server.base}/api/meta", timeout=10).json()

    def meta(route: Any) -> None:
        doc = dict(real)
        if lan["on"]:
            doc.update(invite_base="http://192.0.2.10:8000", reachable=True)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(doc))

    page.route("**/api/meta", meta)
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(page.get_by_test_id("invite-link")).to_have_text(f"{server.base}/r/{room['code']}")
    expect(page.get_by_test_id("unreachable")).to_have_count(1)
    lan["on"] = True  # the server restarted on the network's address
    page.evaluate("async () => (await import('/static/js/net.js')).reconnect()")
    expect(page.get_by_test_id("invite-link")).to_have_text(
        f"http://192.0.2.10:8000/r/{room['code']}")
    expect(page.get_by_test_id("unreachable")).to_have_count(0)
    page.context.close()


def test_a_friends_join_page_has_no_host_only_warning(browser: Any, server: Server) -> None:
    """'Friends cannot open this link: start darkcity with --host 0.0.0.0' is the host's
    to act on; a friend who opened the link saw it on the join page."""
    room = create_room(server.base, "Tomé", players=4, decide_s=120, lang="pt_BR")
    host = phone(browser)
    host.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(host.get_by_test_id("unreachable")).to_have_count(1)
    friend = phone(browser)
    friend.goto(f"{server.base}/r/{room['code']}")
    friend.wait_for_selector("[data-testid=link-join]")
    expect(friend.get_by_test_id("invite-link")).to_have_count(1)
    expect(friend.get_by_test_id("unreachable")).to_have_count(0)
    host.context.close()
    friend.context.close()


WIDE = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

# The words of the nodes under ``sel`` cut over two lines.
CUT_WORDS = """(sel) => {
  const cut = [];
  for (const root of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0)
          .map((x) => Math.round(x.top)));
        if (tops.size > 1) cut.push(m[0]);
      }
    }
  }
  return cut;
}"""


def test_the_lost_connection_banner_and_the_combat_panel_fit_a_phone(seated: Any) -> None:
    """'Reconectar agora' pushed a 375 px page sideways; the Portuguese combat panel broke
    its words mid-syllable. Both fit, word by word (the panel scrolls in the Rules)."""
    page = seated
    page.get_by_test_id("help-open").tap()
    page.wait_for_selector("[data-testid=combat-panel]")
    cells = "[data-testid=combat-panel] th, [data-testid=combat-panel] td"
    assert page.evaluate(CUT_WORDS, cells) == []
    assert page.evaluate(WIDE) <= 0
    page.get_by_test_id("help-close").tap()
    link = routed(page)
    link.cut()
    page.wait_for_selector("[data-testid=connection-lost]")
    expect(page.get_by_test_id("reconnect")).to_have_text("Reconectar agora")
    assert page.evaluate(WIDE) <= 0
    box = page.get_by_test_id("reconnect").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box


def overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return False
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


AT_THE_FOOT = """(sel) => {  // the element at the screen's foot, where a thumb is
  const e = document.querySelector(sel);
  window.scrollBy(0, e.getBoundingClientRect().bottom - window.innerHeight + 4);
}"""


def test_a_toast_leaves_the_chat_and_the_question_uncovered(seated: Any) -> None:
    """On a phone the toasts sat at the foot of the screen, over the chat's field and the
    question's buttons, where the thumb is."""
    page = seated
    field = page.locator(".chat input").first
    field.scroll_into_view_if_needed()
    page.evaluate(AT_THE_FOOT, ".chat input")
    page.evaluate("""async () => { const { toast } = await import('/static/js/dom.js');
      toast('O Burgomestre diz: Bia está ausente; um robô decide por ela.', 'notice'); }""")
    toast = page.get_by_test_id("toast")
    toast.wait_for()
    assert not overlap(toast.bounding_box(), field.bounding_box())
    page.get_by_test_id("choice-0").scroll_into_view_if_needed()
    page.evaluate(AT_THE_FOOT, "[data-testid=choice-0]")
    assert not overlap(page.get_by_test_id("toast").bounding_box(),
                       page.get_by_test_id("choice-0").bounding_box())
    assert page.evaluate(WIDE) <= 0


def test_a_question_above_the_screen_is_pointed_to_upwards(seated: Any) -> None:
    """After the draft a phone's question could go off the top of the screen, and the
    only button said '↓'."""
    page = seated
    # (a page as long as one after a night told: its story, journals and chat)
    page.evaluate("""() => { const more = document.createElement('div');
      more.style.height = '2000px'; document.body.append(more);
      window.scrollTo(0, document.body.scrollHeight); }""")
    pill = page.get_by_test_id("your-turn")
    expect(pill).to_be_visible()
    expect(pill).to_contain_text("↑")
    pill.tap()
    expect(page.get_by_test_id("decide")).to_be_in_viewport()


def test_a_sliver_of_the_question_at_the_top_is_pointed_to_upwards(seated: Any) -> None:
    """Night 1 on a phone, after the draft: the gesture question scrolled above the top
    with a 17 px sliver showing, and no 'Your turn ↑' (later nights had it): a sliver is
    not the question in sight."""
    page = seated
    page.evaluate("""() => { const more = document.createElement('div');
      more.style.height = '2000px'; document.body.append(more);
      const box = document.querySelector('[data-testid=decide]').getBoundingClientRect();
      window.scrollTo(0, window.scrollY + box.bottom - 17); }""")
    pill = page.get_by_test_id("your-turn")
    expect(pill).to_be_visible()
    expect(pill).to_contain_text("↑")
    pill.tap()
    expect(page.get_by_test_id("decide")).to_be_in_viewport()


def test_the_winners_caption_stands_over_the_arrows(seated: Any) -> None:
    """At the end the last night's arrows crossed 'Quem venceu: ...' at the table's
    centre: the caption has a ground of its own."""
    got = drawn(seated, """
      S.view = { ...S.view, phase: 'over', winners: [bia], choices: [], pending: [],
                 required: [] };
      const { roomPage } = await import('/static/js/room.js');
      const page = roomPage();
      document.body.append(page);
      try {
        const caption = page.querySelector('[data-testid=phase]');
        const arrows = page.querySelector('[data-testid=arrows]');
        const z = (e) => Number(getComputedStyle(e).zIndex);
        return { text: caption.textContent, ground: getComputedStyle(caption).backgroundColor,
                 above: !!arrows && z(caption.parentElement) > z(arrows), arrows: !!arrows };
      } finally { page.remove(); }""")
    assert got["text"].startswith("Quem venceu:"), got
    assert got["arrows"] and got["above"], got
    assert got["ground"] not in ("rgba(0, 0, 0, 0)", "transparent"), got


def test_the_count_says_one_at_once_and_stops_with_the_connection(seated: Any) -> None:
    """The first beat was silent (0.8 s, then '1'); with the server dead mid-count the
    page still counted to 'Agora!' and then showed nothing for seconds. '1' comes as
    the count starts; the count stops when the connection drops, and says so."""
    page = seated
    link = routed(page)
    page.evaluate("""async () => {
      const { S, now } = await import('/static/js/store.js');
      const { startCount } = await import('/static/js/clock.js');
      startCount({ type: 'count', start: now(), beat: 20, beats: 4 });
    }""")
    # (a beat of 20 s: before the change "1" came 20 s later)
    expect(page.get_by_test_id("count")).to_have_text("1", timeout=5000)
    link.cut()
    page.wait_for_selector("[data-testid=connection-lost]")
    expect(page.get_by_test_id("count-stopped")).to_contain_text("A contagem parou")
    expect(page.get_by_test_id("count")).to_have_text("")
    state = page.evaluate("""async () => { const { S } = await import('/static/js/store.js');
      return [S.countOf, S.counting, S.countWord]; }""")
    assert state == [None, None, None]



def test_a_host_on_a_local_address_is_told_how_friends_elsewhere_play(
        browser: Any, server: Server) -> None:
    """The README promises 'friends play online' and the quick start covered a LAN only:
    a host whose invite link is a local address (this computer's, the Wi-Fi's) is told,
    beside the link, where friends elsewhere are covered (docs/deploy.md); a host on a
    public address with HTTPS is not, nor is a friend."""
    room = create_room(server.base, "Tomé", players=4, decide_s=120, lang="pt_BR")
    host = phone(browser)
    host.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(host.get_by_test_id("elsewhere")).to_contain_text("docs/deploy.md")
    expect(host.get_by_test_id("elsewhere")).to_contain_text("servidor com HTTPS")
    friend = phone(browser)
    friend.goto(f"{server.base}/r/{room['code']}")
    friend.wait_for_selector("[data-testid=link-join]")
    expect(friend.get_by_test_id("elsewhere")).to_have_count(0)
    real = httpx.get(f"{server.base}/api/meta", timeout=10).json()
    online = phone(browser)
    online.route("**/api/meta", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({**real, "invite_base": "https://play.example.org", "reachable": True})))
    online.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    expect(online.get_by_test_id("invite-link")).to_have_text(
        f"https://play.example.org/r/{room['code']}")
    expect(online.get_by_test_id("elsewhere")).to_have_count(0)
    for page in (host, friend, online):
        page.context.close()


RULES_FOR = """async (deck) => {  // the Rules as drawn for the deck named (a preset)
  const { S } = await import('/static/js/store.js');
  const { helpDialog } = await import('/static/js/help.js');
  const keep = [S.lobby, S.view, S.helpOpen, S.helpRole];
  const roles = { basic: S.view.journal_roles,
                  'creatures-7': [...S.view.journal_roles.slice(0, 6), 'creature'] }[deck];
  S.lobby = { ...S.lobby, config: { ...S.lobby.config, deck } };
  S.view = { ...S.view, journal_roles: roles };
  S.helpOpen = true; S.helpRole = 'devil';
  try {
    const d = helpDialog();
    const text = (sel) => [...d.querySelectorAll(sel)].map((x) => x.textContent);
    return { phase3: text('[data-testid=phases] li')[2],
             goal: text('[data-testid=help-card-devil] [data-testid=card-goal]')[0],
             notes: text('[data-testid=combat-notes] li'),
             hunter: text('[data-testid=help-card-hunter] [data-testid=card-powers]')[0] || null,
             gesture: text('[data-testid=help-card-hunter] [data-testid=card-gesture]')[0],
             help: d.textContent };
  } finally { [S.lobby, S.view, S.helpOpen, S.helpRole] = keep; }
}"""


def test_the_rules_follow_the_deck_and_explain_their_terms(seated: Any) -> None:
    """The Basic deck's texts spoke of what is not in play (the Devil's advanced goal,
    the target of a Creature), and '1+', the Devil's row of '·', 'silver reflex' and
    'cannibal' were never explained. The texts follow the deck; the terms are explained
    under the table and the card that use them (and on hover)."""
    basic = seated.evaluate(RULES_FOR, "basic")
    assert basic["phase3"] == ("Fase 3: Desistência — qualquer um pode fugir da noite (sem "
                               "ataque, sem XP).")
    assert basic["goal"] == "Sobreviver e fazer um monstro ou guardião desistir."
    assert basic["hunter"] is not None and "mesmo jogador" not in basic["hunter"]
    assert basic["gesture"] == "Aponta duas setas para dois jogadores."
    notes = " ".join(basic["notes"])
    assert "·: sem efeito sobre esse papel." in notes
    assert "Reflexo de prata" in notes and "canibalismo" in notes
    assert "O Demônio não afeta nenhum papel deste baralho" in notes
    assert "1+ é o primeiro passo de todos, antes do 1" in basic["help"]
    creatures = seated.evaluate(RULES_FOR, "creatures-7")
    assert creatures["phase3"].endswith(
        "Quem recebe o pedido de casamento de uma Criatura não pode desistir.")
    assert "Inferno" in creatures["goal"]  # the advanced Devil's second goal
    assert "as duas num só" in creatures["gesture"]  # and the advanced Hunter's aim


def test_a_basic_devils_goal_under_the_question_has_no_advanced_line(seated: Any) -> None:
    """The gestures' question said 'Seu objetivo: ...; avançado: sobreviver e condenar uma
    alma ao Inferno' to a basic Devil (seen on the regenerated screens)."""
    goals = drawn(seated, """
      const out = {};
      for (const edition of ['basic', 'advanced']) {
        S.view = { ...S.view, phase: 'gesture', choices: [{ type: 'gesture', shows: 'vampire' }],
          pending: [me], required: [me],
          seats: S.view.seats.map((s) => (s.name === me
            ? { ...s, card: { role: 'devil', edition, gender: 'feminine' } } : s)) };
        out[edition] = decide.decisionPanel().querySelector('[data-testid=your-goal]').textContent;
      }
      return out;""")
    assert goals["basic"] == ("Seu objetivo: Sobreviver e fazer um monstro ou guardião "
                              "desistir."), goals
    assert "Inferno" in goals["advanced"], goals
