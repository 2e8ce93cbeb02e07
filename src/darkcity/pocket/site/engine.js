// The pocket app's engine for the online table's pages (play.js, replay.js): the Web
// Worker (worker.js: Pyodide, darkcity's wheel, the games in IndexedDB), its requests
// by id answered in order, its progress while it loads, and a game's messages.
import { S } from "./static/js/store.js";
import { t } from "./static/js/i18n.js";
import { places } from "./static/js/places.js";
import { engineSaid, startEngine } from "./static/common/engine.js";

export const here = (p) => new URL(p, document.baseURI).href;

const waiting = new Map();
let next = 1;
let listener = null;  // the game a page shows: { code, onMessage }

// Where a game's messages go (as its socket would send them): the page's handler.
export function listen(l) { listener = l; }

// What the worker's refusal codes mean, in the reader's words.
function said(error) {
  if (error.code === "elsewhere") return t("This game is open in another tab or window. Play it here instead, and that one stops.");
  if (error.code === "taken") return t("This game was opened in another tab or window: it goes on there. Play it here instead, and that one stops.");
  if (error.code === "storage-full") return t("The phone's storage is full: this move was not saved. Free some space, or delete an old game.");
  if (error.code === "storage") return t("The phone refused to save: this move was not saved. Try again.");
  if (error.code === "no-room") return t("There is no room with that code.");
  return error.message;
}

class Refused extends Error {
  constructor(error) { super(said(error)); this.code = error.code; this.status = error.status; }
}

function heard(event) {
  const m = event.data;
  if (engineSaid(m, t)) return;
  // a game's messages, as its socket would send them (the worker saved them first)
  if (m.type === "play" || m.type === "play-error") {
    if (!listener || listener.code !== m.code) return;
    if (m.type === "play") for (const x of m.messages) listener.onMessage(x);
    else listener.onMessage({ type: "error", code: m.error.code, message: said(m.error) });
    return;
  }
  const done = waiting.get(m.id);
  if (!done) return;
  waiting.delete(m.id);
  if (m.error) done.reject(new Refused(m.error)); else done.resolve(m.value);
}

// (on a first visit, once the service worker has every file: js/common/engine.js)
const worker = startEngine(here("worker.js"), t).then((w) => { w.onmessage = heard; return w; });

export const rpc = (op, args) => new Promise((resolve, reject) => {
  const id = next++;
  waiting.set(id, { resolve, reject });
  worker.then((w) => w.postMessage({ id, op, args: { ...args, lang: S.lang } }));
});

// Where the online table's pages find what lies outside them: here, this phone (no
// server, nobody to invite). A page adds its own (play.js: the record, Play again).
export function onThisPhone() {
  Object.assign(places, {
    online: false,
    home: "play.html",
    catalog: (lang) => here(`i18n/${String(lang).toLowerCase().startsWith("pt") ? "pt_BR" : "en"}.json`),
    meta: async () => (await fetch(here("meta/play.json"))).json(),
    review: (code) => (code ? `replay.html#${encodeURIComponent(code)}` : "replay.html"),
  });
}

// A JSON document saved as a file on the phone (a game record).
export function download(doc, name) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
