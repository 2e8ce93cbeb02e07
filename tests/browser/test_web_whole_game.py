"""A whole game on a 375x667 phone in Portuguese, every screen of it scanned (issue 31):
no page wider than the phone (nothing to scroll sideways), and no control covered by
another element (a toast, a banner, a button held over the page...). Each screen is
scanned screenful by screenful, top to bottom, at each new moment of the game: the
free XP, each draft, the gestures, the count, the reveal, the withdrawal, the night
told, the end, and the Rules open once.

The other seats are the room's bots; the reader taps a choice at random. On every screen
a notice of the Mayor is toasted first, as a player away makes the Mayor say at every
decision (toasts covered the chat's field and the question's buttons).
"""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from darkcity.server.testing import create_room

from ..test_server_process import Server
from .test_web_play import CLICKABLE, add_bots, phase

PHONE = {"width": 375, "height": 667}

# One screenful: how much the page is wider than the screen, and each control in sight
# that another element covers (what is drawn on top at three points of its middle line,
# with every element made hit-testable: a toast that ignores the pointer still hides
# what is under it). The arrows' layer is transparent and drawn over the seats on
# purpose (its labels keep off them: test_web_review), so it is not counted; nor is
# "Your turn ↓", the one button held over the page on purpose, shown only while no part
# of the question is in sight and with room at the page's foot to scroll what it covers
# above it (test_web_review.test_a_question_below_the_fold_is_pointed_to).
SCAN = """() => {
  const force = document.createElement('style');
  force.textContent = '* { pointer-events: auto !important; }'
    + ' .arrows, .arrows *, #yourturn { pointer-events: none !important; }';
  document.head.append(force);
  try {
    const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    const covered = [];
    // (a dialog open: its own controls; the page under it is meant to be covered)
    const within = document.querySelector('[aria-modal=true]') || document;
    const controls = within.querySelectorAll('button, a[href], input, select, textarea, summary');
    for (const c of controls) {
      if (c.id === 'yourturn') continue;
      const r = c.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const y = r.top + r.height / 2;
      if (y < 0 || y > window.innerHeight) continue;
      const style = getComputedStyle(c);
      if (style.visibility === 'hidden') continue;
      for (const f of [0.25, 0.5, 0.75]) {
        const x = r.left + r.width * f;
        if (x < 0 || x > window.innerWidth) continue;
        const top = document.elementFromPoint(x, y);
        if (!top || top === c || c.contains(top) || top.contains(c)) continue;
        const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}` +
          `${e.dataset && e.dataset.testid ? '[' + e.dataset.testid + ']' : ''}` +
          ` "${(e.textContent || '').trim().slice(0, 40)}"`;
        covered.push(`${name(c)} under ${name(top)}`);
        break;
      }
    }
    return { wide, covered };
  } finally { force.remove(); }
}"""


FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def scan_screen(page: Any) -> tuple[int, list[str]]:
    """Every screenful of the page, top to bottom: the widest overflow and the covered
    controls (the scroll put back afterwards)."""
    wide, covered = 0, []
    back = page.evaluate("window.scrollY")
    height = page.evaluate("document.documentElement.scrollHeight")
    y = 0
    while True:
        page.evaluate(f"window.scrollTo(0, {y})")
        page.evaluate(FRAMES)  # (what follows the scroll has been drawn: the observers)
        got = page.evaluate(SCAN)
        wide = max(wide, got["wide"])
        covered += got["covered"]
        y += PHONE["height"] - 80
        if y >= height:
            break
    page.evaluate(f"window.scrollTo(0, {back})")
    return wide, covered


TOAST = """async () => {
  const { toast } = await import('/static/js/dom.js');
  toast('Bia está ausente: um robô decide por ela até que volte.', 'notice');
}"""


def moment(page: Any) -> str:
    """What screen the page is at: the phase and night, and what is shown for it."""
    with contextlib.suppress(Exception):
        return str(page.evaluate("""() => {
          const p = document.querySelector('[data-testid=phase]');
          const has = (sel) => (document.querySelector(sel) ? sel : '');
          return [p ? p.textContent : '', has('[data-testid=sealed]'), has('.count.on'),
                  has('[data-testid=who-whom]'), has('[data-testid=for-you]'),
                  has('[data-testid=victory]'), has('[data-testid=connection-lost]')].join('|');
        }"""))
    return ""


def test_every_screen_of_a_whole_game_fits_a_phone_and_covers_no_control(
        browser: Any, server: Server) -> None:
    room = create_room(server.base, "Tomé", players=4, pace="fast", decide_s=30, beat_s=0.3,
                       lang="pt_BR")
    add_bots(server, room["code"], room["token"], range(1, 4), start=True)
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                               locale="pt-BR").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/r/{room['code']}#token={room['token']}")
    page.wait_for_selector("[data-testid=phase]")
    rng = random.Random(31)
    seen: dict[str, tuple[int, list[str]]] = {}
    rules = False
    end = time.monotonic() + 300
    while time.monotonic() < end:
        at = moment(page)
        if at and at not in seen:
            with contextlib.suppress(Exception):  # (a redraw in the middle: scanned again)
                page.evaluate(TOAST)
                seen[at] = scan_screen(page)
        if not rules and phase(page) == "gesture":
            page.get_by_test_id("help-open").tap()
            page.wait_for_selector("[data-testid=help]")
            seen["Regras"] = scan_screen(page)
            page.get_by_test_id("help-close").tap()
            rules = True
        if phase(page) == "over" and page.locator("[data-testid=victory]").count():
            seen["fim"] = scan_screen(page)
            break
        buttons = page.locator(CLICKABLE)
        with contextlib.suppress(Exception):
            n = buttons.count()
            if n:
                buttons.nth(rng.randrange(n)).tap(timeout=800)
        page.wait_for_timeout(150)
    wide = {k: v[0] for k, v in seen.items() if v[0] > 0}
    covered = {k: v[1] for k, v in seen.items() if v[1]}
    assert not wide, wide
    assert not covered, covered
    assert phase(page) == "over", f"the game did not end: {list(seen)[-3:]}"
    assert not errors, errors
    assert len(seen) >= 8, list(seen)  # (the free XP, drafts, gestures, counts, the end...)
    # and the victory says with which row or rows
    won = page.locator("[data-testid=won-by]").all_inner_texts()
    assert won and all(" — " in w and "XP" in w for w in won), won
    page.context.close()
