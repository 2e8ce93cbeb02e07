// darkcity web table: native ES modules, no build step (js/). One state object
// (js/store.js) and one render loop: every change redraws the page from the state.
// Every text goes through t() (the server's gettext catalogs); every name is put on
// the page as text, never as HTML.
import { S, update } from "./js/store.js";
import { t, firstLanguage, loadLang } from "./js/i18n.js";
import { connect, reconnect, tokenKey } from "./js/net.js";
import { startClock } from "./js/clock.js";
import { homePage, notFoundPage } from "./js/home.js";
import { drawPages, helpKey } from "./js/page.js";

const home = () => (S.notFound ? notFoundPage() : homePage());

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
    drawPages(home);
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
  drawPages(home);
  helpKey();
  if (found.missing) S.fatal = t("There is no room with that code.");
  else if (found.refused) S.fatal = t("The server cannot be reached.");
  else { S.lobby = found.lobby; connect(); }
  update();
  startClock();
}

main();
