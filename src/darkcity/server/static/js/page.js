// The online table's page drawn from the state: one render loop, every change redraws
// the room from the state (js/store.js). The server's page (app.js) and the pocket app's
// play page (pocket/site/play.js) both draw with it; each brings its own home page.
import { S, subscribe } from "./store.js";
import { $ } from "./dom.js";
import { tickClock } from "./clock.js";
import { roomPage } from "./room.js";
import { attention } from "./attention.js";
import { openHelp } from "./help.js";
import { announce } from "./announce.js";
import { remember, restore } from "./focus.js";
import { keepAwake } from "./wake.js";

let drawnHome = null;

// A press is not cut by a redraw: each message draws the page anew, and a button
// pressed on one drawing and released on the next got no click (a Devil's role to show
// after 'Change' was lost 1 time in 3 so). While a pointer is down the redraw waits for
// its release (a second at most), and is made just after the click.
let pressedAt = 0, waiting = false;
document.addEventListener("pointerdown", () => { pressedAt = Date.now(); }, true);
const released = () => {
  pressedAt = 0;
  if (waiting) { waiting = false; setTimeout(render, 0); }
};
document.addEventListener("pointerup", released, true);
document.addEventListener("pointercancel", released, true);

let homeOf = () => null;
let coverOf = () => null;

function render() {
  if (S.code && pressedAt && Date.now() - pressedAt < 1000) {
    if (!waiting) { waiting = true; setTimeout(() => { if (waiting) { waiting = false; render(); } }, 1000); }
    return;
  }
  const root = $("#app");
  // the screen stays on while a game this reader sits or watches is under way
  keepAwake(Boolean(S.code && S.view && S.view.phase !== "over"));
  if (!S.code) {
    // The home page is drawn once per language: its form keeps what was typed.
    if (drawnHome !== S.lang) { root.replaceChildren(homeOf()); drawnHome = S.lang; }
    document.title = "Dark City";
    return;
  }
  // A page may cover the room with a screen of its own (the pocket app's hand-over on a
  // phone passed from hand to hand): then nothing of the room is on the page, nor said
  const covered = coverOf();
  if (covered) {
    root.replaceChildren(covered);
    const said = $("#announce");
    if (said) said.textContent = "";
    return;
  }
  // Keep the focus (and the caret, the open cards) where it was: a redraw must not
  // take it away (js/focus.js).
  const memo = remember(root);
  root.replaceChildren(roomPage());
  restore(root, memo);
  tickClock();
  attention.check();
  announce();
}

// Draw the page on every change from now on; ``home()`` is the page without a room;
// ``cover()``, where given, a screen drawn instead of the room when it says so (null:
// the room).
export function drawPages(home, cover) {
  homeOf = home;
  if (cover) coverOf = cover;
  subscribe(render);
}

// "?" opens the rules, as in the terminal (not while typing).
export function helpKey() {
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target instanceof HTMLElement && ev.target.closest("input, textarea, select");
    if (ev.key === "?" && !typing && !S.fatal) { ev.preventDefault(); openHelp(null); }
  });
}
