// darkcity web table: native ES modules, no build step (js/). One state object
// (js/store.js) and one render loop: every change redraws the page from the state.
// Every text goes through t() (the server's gettext catalogs); every name is put on
// the page as text, never as HTML.
import { S, subscribe, update } from "./js/store.js";
import { t, firstLanguage, loadLang } from "./js/i18n.js";
import { $ } from "./js/dom.js";
import { connect, reconnect, tokenKey } from "./js/net.js";
import { startClock, tickClock } from "./js/clock.js";
import { homePage, notFoundPage } from "./js/home.js";
import { roomPage } from "./js/room.js";
import { attention } from "./js/attention.js";
import { openHelp } from "./js/help.js";
import { announce } from "./js/announce.js";
import { remember, restore } from "./js/focus.js";
import { keepAwake } from "./js/wake.js";

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
    if (drawnHome !== S.lang) { root.replaceChildren(S.notFound ? notFoundPage() : homePage()); drawnHome = S.lang; }
    document.title = "Dark City";
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

async function roomExists(code) {
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (r.status === 404) return { missing: true };
    if (!r.ok) return { refused: true };
    return { lobby: await r.json() };
  } catch {
    return { refused: true };
  }
}

// A seat link (/r/CODE#token=...): the token is kept on this device, the address
// loses it (it would otherwise be shared with the next copy of the link).
function takeSeatLink() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (!hash.get("token")) return false;
  localStorage.setItem(tokenKey(S.code), hash.get("token"));
  history.replaceState(null, "", location.pathname);
  return true;
}

async function main() {
  S.meta = await (await fetch("/api/meta")).json();
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)\/?$/);
  if (!m) {
    S.notFound = location.pathname !== "/" && location.pathname !== "/index.html";
    await loadLang(firstLanguage(null));
    subscribe(render);
    update();
    return;
  }
  S.code = m[1].toUpperCase();
  takeSeatLink();
  S.token = localStorage.getItem(tokenKey(S.code));
  // A seat link opened in this same tab (only the #token changes): sit there now.
  window.addEventListener("hashchange", () => {
    if (!takeSeatLink()) return;
    update(() => { S.token = localStorage.getItem(tokenKey(S.code)); S.member = null; S.watching = false; });
    reconnect();
  });
  const found = await roomExists(S.code);
  await loadLang(firstLanguage(found.lobby ? found.lobby.config.lang : null));
  subscribe(render);
  // "?" opens the rules, as in the terminal (not while typing).
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target instanceof HTMLElement && ev.target.closest("input, textarea, select");
    if (ev.key === "?" && !typing && !S.fatal) { ev.preventDefault(); openHelp(null); }
  });
  if (found.missing) S.fatal = t("There is no room with that code.");
  else if (found.refused) S.fatal = t("The server cannot be reached.");
  else { S.lobby = found.lobby; connect(); }
  update();
  startClock();
}

main();
