// The companion's transport on a phone with no server (the pocket app, issue #29): the
// page's requests go to a Web Worker running darkcity's engine in Pyodide, which keeps
// the tables in IndexedDB (worker.js). The same calls as api.js's HTTP, the same views
// and the same words; what only a server can do (players' own phones) is refused, said.
import { el, toast } from "./dom.js";
import { L, t } from "./i18n.js";
import { Refusal } from "./refusal.js";
import { engineSaid, startEngine } from "../common/engine.js";

// What the worker's codes mean, in the reader's words.
function refusal(error) {
  if (error.code === "storage-full") return new Refusal(t("The phone's storage is full: this entry was not saved. Free some space, or export the game and delete an old table."), 507);
  if (error.code === "storage") return new Refusal(t("The phone refused to save: this entry was not saved. Try again."), 507);
  if (error.code === "no-table") return new Refusal(t("There is no table with that code."), 404);
  if (error.code === "elsewhere") { offerTakeOver(); return new Refusal(t("This table is open in another tab or window."), 409); }
  if (error.code === "stale") return new Refusal(t("This table changed in another tab or window: the page shows it as saved now."), 409);
  return new Refusal(error.message, error.status);
}

// One table has one writer (the pocket's worker.js): a table open in another tab (or the
// home-screen app beside a browser tab) is said above the page, with the tap that takes
// it over here (the other tab then stops and says so).
let takeOver = null;  // (code) => the table taken over here
let wasTaken = false;  // (said until it is taken back)
function offerTakeOver(taken) {
  wasTaken = wasTaken || Boolean(taken);
  const code = new URLSearchParams(location.search).get("table");
  let box = document.getElementById("elsewhere");
  if (!code || !takeOver) return;
  if (!box) {
    box = el("div", { id: "elsewhere", class: "panel", role: "alert", "data-testid": "elsewhere" });
    document.body.prepend(box);
  }
  box.replaceChildren(el("p", { text: wasTaken ? t("This table was opened in another tab or window: it goes on there.") : t("This table is open in another tab or window.") }),
    el("button", { type: "button", "data-testid": "take-over", text: t("Use it here instead (the other tab stops)"),
      onclick: async () => { box.remove(); wasTaken = false; await takeOver(code.toUpperCase()); } }));  // (the page's next poll shows it)
}

export function workerTransport() {
  // (on a first visit, once the service worker has every file: ../common/engine.js)
  const worker = startEngine(new URL("worker.js", document.baseURI), t);
  const waiting = new Map();
  const timings = window.__darkcityTimings = [];
  let next = 1;
  worker.then((w) => { w.onmessage = heard; });
  function heard(event) {
    const m = event.data;
    if (engineSaid(m, t)) return;
    if (m.type === "taken") { offerTakeOver(true); return; }  // another tab took this table
    const done = waiting.get(m.id);
    if (!done) return;
    waiting.delete(m.id);
    // each answer's time in the worker and on the way (benchmarks/bench_pocket.py)
    timings.push({ op: done.op, ms: m.ms, roundTrip: performance.now() - done.at });
    if (timings.length > 2000) timings.shift();
    if (m.error) done.reject(refusal(m.error)); else done.resolve(m.value);
  }
  const rpc = (op, args) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject, op, at: performance.now() });
    worker.then((w) => w.postMessage({ id, op, args: { ...args, lang: L.lang } }));
  });
  takeOver = (code) => rpc("takeOver", { code });
  const server = () => Promise.reject(new Refusal(t("Players' own phones need darkcity's server: in this app the Mayor's phone is the whole table."), 400));
  let asked = false;
  const persist = async () => {
    // the tables are kept on this phone only: asked once, said plainly when refused
    if (asked || !(navigator.storage && navigator.storage.persist)) return;
    asked = true;
    if (!(await navigator.storage.persist().catch(() => false))) {
      toast(t("This browser may clear saved tables when space runs short: export the game to keep a copy."));
    }
  };
  const download = (doc, name) => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };
  return {
    local: true,
    meta: async (lang) => {
      const code = String(lang || "").toLowerCase().startsWith("pt") ? "pt_BR" : "en";
      return (await fetch(new URL(`meta/${code}.json`, document.baseURI))).json();
    },
    share: async () => null,
    check: (body) => rpc("check", { body }),
    create: async (body) => { const r = await rpc("create", { body }); persist(); return r; },
    state: (code, token, since) => rpc("state", { code, since: since || null }),
    enter: (code, token, entry) => rpc("enter", { code, entry }),
    correct: (code, token, entry, night, dry) => rpc("correct", { code, body: { entry, night, dry: Boolean(dry) } }),
    past: (code, token, night, step) => rpc("past", { code, night, step }),
    undo: (code, token, what) => rpc("undo", { code, what }),
    seat: server,
    newMayorLink: server,
    leaveSeat: server,
    freeSeats: server,
    tables: () => rpc("list", {}),
    remove: (code) => rpc("delete", { code }),
    importFile: async (file) => rpc("import", { text: await file.text() }),
    tableFromLocation: () => {
      const code = new URLSearchParams(location.search).get("table");
      return code ? code.toUpperCase() : null;
    },
    tablePath: (code) => `?table=${code}`,
    homePath: () => document.baseURI,
    playPath: () => new URL("play.html", document.baseURI).href,
    exportLink: (code, night, attrs, label) => el("a", { ...attrs, href: "#", onclick: (e) => {
      e.preventDefault();
      rpc("export", { code, night }).then((r) => download(r.doc, r.name), (err) => toast(err.message));
    } }, label),
  };
}
