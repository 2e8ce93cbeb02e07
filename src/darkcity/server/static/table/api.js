// The companion's transport: HTTP to darkcity's server (every entry stored by the server
// before it answers), or, in the pocket app (a page with <meta name="darkcity-transport"
// content="worker">), the phone's own engine in a Web Worker (transport.js). The page
// calls ``api`` alike; ``boot`` picks the transport before anything is drawn.
import { L, t } from "./i18n.js";
import { el } from "./dom.js";
import { Refusal } from "./refusal.js";


async function call(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Table-Token"] = token;
  const sep = path.includes("?") ? "&" : "?";
  let r;
  try {
    r = await fetch(`${path}${sep}lang=${encodeURIComponent(L.lang)}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    // the network, not the server: said in the reader's words, never the browser's
    throw new Refusal(t("The server cannot be reached."), 0);
  }
  let doc = null;
  try { doc = await r.json(); } catch (e) { doc = null; }
  if (!r.ok) throw new Refusal((doc && doc.message) || t("The server could not answer (error {status}).", { status: r.status }), r.status);
  return doc;
}

export const api = {
  meta: (lang) => fetch(`/api/table/meta?lang=${encodeURIComponent(lang)}`).then((r) => r.json()),
  check: (body) => call("POST", "/api/tables/check", body),
  create: (body) => call("POST", "/api/tables", body),
  state: (code, token, since) =>
    call("GET", `/api/tables/${code}${since ? `?since=${since}` : ""}`, undefined, token),
  enter: (code, token, entry) => call("POST", `/api/tables/${code}/entries`, { entry }, token),
  correct: (code, token, entry, night, dry) => call("POST", `/api/tables/${code}/correct`, { entry, night, dry: Boolean(dry) }, token),
  past: (code, token, night, step) =>
    call("GET", `/api/tables/${code}/past?night=${night}${step ? `&step=${encodeURIComponent(step)}` : ""}`, undefined, token),
  undo: (code, token, what) => call("POST", `/api/tables/${code}/undo`, { what }, token),
  seat: (code, player) => call("POST", `/api/tables/${code}/seat`, { player }),
  newMayorLink: (code, token) => call("POST", `/api/tables/${code}/mayor/new`, {}, token),
  leaveSeat: (code, token) => call("POST", `/api/tables/${code}/seat/leave`, {}, token),
  freeSeats: (code, token) => call("POST", `/api/tables/${code}/seats/free`, {}, token),
  // where the players' phones reach the server (server/share.py)
  share: () => fetch("/api/meta").then((r) => r.json()).catch(() => null),
  // the table the page's address names, its address, and the set-up's
  tableFromLocation: () => {
    const m = location.pathname.match(/^\/table\/([A-Za-z0-9]+)/);
    return m ? m[1].toUpperCase() : null;
  },
  tablePath: (code) => `/table/${code}`,
  homePath: () => "/table",
  // a download of the game (night null) or of a finished night
  exportLink: (code, night, attrs, label) => el("a", { ...attrs, download: "",
    href: night ? `/api/tables/${code}/nights/${night}` : `/api/tables/${code}/record` }, label),
};

export async function boot() {
  const meta = document.querySelector('meta[name="darkcity-transport"]');
  if (meta && meta.content === "worker") {
    const { workerTransport } = await import("./transport.js");
    Object.assign(api, workerTransport());
  }
}
