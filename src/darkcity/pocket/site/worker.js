// The pocket app's engine: Pyodide and darkcity's wheel in a Web Worker, and the tables
// in IndexedDB. The page (static/table/transport.js) sends {id, op, args}; every change
// is written to IndexedDB before its answer is sent, so what the page shows as done is
// saved (a reload, a closed app, a flat battery lose nothing).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const WHEEL = "__WHEEL__";
const here = (p) => new URL(p, self.location.href).href;
const progress = (stage, done) => postMessage({ type: "progress", stage, done });

let call = null;  // darkcity.pocket.worker.call(op, args_json) -> JSON text
let pyodideRef = null;
const opened = new Map();  // code -> the version the engine holds

const ready = (async () => {
  const t0 = performance.now();
  progress("runtime", 0.05);
  const pyodide = await loadPyodide({ indexURL: here("./pyodide/") });
  pyodideRef = pyodide;
  const t1 = performance.now();
  progress("wheel", 0.7);
  const wheel = await fetch(here(WHEEL));
  if (!wheel.ok) throw new Error(`${WHEEL}: ${wheel.status}`);
  pyodide.unpackArchive(await wheel.arrayBuffer(), "wheel");
  const t2 = performance.now();
  progress("import", 0.85);
  call = pyodide.pyimport("darkcity.pocket.worker").call;
  const t3 = performance.now();
  progress("ready", 1);
  // where the time went: the runtime, the wheel fetched and unpacked, darkcity imported
  postMessage({ type: "ready", ms: t3 - t0, stages: { runtime: t1 - t0, wheel: t2 - t1, imports: t3 - t2 } });
})();
ready.catch((e) => postMessage({ type: "failed", message: String(e && e.message || e) }));

// -- IndexedDB: the saved tables and the games, by code ---------------------------------
const dbp = new Promise((resolve, reject) => {
  const rq = indexedDB.open("darkcity-pocket", 2);
  rq.onupgradeneeded = () => {  // (version 1 had the tables only)
    const db = rq.result;
    if (!db.objectStoreNames.contains("tables")) db.createObjectStore("tables", { keyPath: "code" });
    if (!db.objectStoreNames.contains("games")) db.createObjectStore("games", { keyPath: "code" });
  };
  rq.onsuccess = () => resolve(rq.result);
  rq.onerror = () => reject(rq.error);
});

async function tx(mode, fn, store = "tables") {
  const db = await dbp;
  return new Promise((resolve, reject) => {
    const t = db.transaction(store, mode, { durability: "strict" });
    const rq = fn(t.objectStore(store));
    t.oncomplete = () => resolve(rq ? rq.result : undefined);  // on disk before answered
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error || new DOMException("aborted", "AbortError"));
  });
}
const load = (code) => tx("readonly", (s) => s.get(code));
const loadAll = () => tx("readonly", (s) => s.getAll());
const save = (record) => tx("readwrite", (s) => s.put(record));
const remove = (code) => tx("readwrite", (s) => s.delete(code));

const games = {
  load: (code) => tx("readonly", (s) => s.get(code), "games"),
  all: () => tx("readonly", (s) => s.getAll(), "games"),
  save: (record) => tx("readwrite", (s) => s.put(record), "games"),
  remove: (code) => tx("readwrite", (s) => s.delete(code), "games"),
};

class Refused extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

function py(op, args) {
  const answer = JSON.parse(call(op, JSON.stringify(args)));
  if (answer.error) throw new Refused(answer.error.status, answer.error.code, answer.error.message);
  return answer.value;
}

async function open(code) {
  if (opened.has(code)) return;
  const record = await load(code);
  if (!record) throw new Refused(404, "no-table", "There is no table with that code.");
  const value = py("open", { record });
  opened.set(code, value.record.version);
}

// A change: the engine's answer, saved before it is answered. A save refused (storage
// full) takes the engine back to the table as saved, and says so.
async function change(code, op, args) {
  await open(code);
  const value = py(op, args);
  if (!value.record) return value;  // a dry correction
  value.record.updated = Date.now();
  try {
    await save(value.record);
  } catch (e) {
    opened.delete(code);
    py("forget", { code });
    const full = e && e.name === "QuotaExceededError";
    throw new Refused(507, full ? "storage-full" : "storage", String(e && e.message || e));
  }
  opened.set(value.record.code, value.record.version);
  return value;
}

const OPS = {
  async check({ body, lang }) { return py("check", { body, lang }); },
  async create({ body, lang }) {
    const value = py("create", { body, lang, now: Date.now() });
    try { await save(value.record); } catch (e) {
      py("forget", { code: value.code });
      throw new Refused(507, e && e.name === "QuotaExceededError" ? "storage-full" : "storage", String(e && e.message || e));
    }
    opened.set(value.code, value.record.version);
    return { code: value.code, token: "local" };
  },
  async state({ code, lang, since }) {
    await open(code);
    if (since && since >= opened.get(code)) return { version: opened.get(code), unchanged: true };
    return py("state", { code, lang });
  },
  async enter({ code, entry, lang }) { return (await change(code, "enter", { code, entry, reader: "mayor", lang })).view; },
  async undo({ code, what, lang }) { return (await change(code, "undo", { code, what, lang })).view; },
  async correct({ code, body, lang }) {
    const value = await change(code, "correct", { code, body, lang });
    return value.answer || value.view;
  },
  async past({ code, night, step, lang }) { await open(code); return py("past", { code, night, step: step || null, lang }); },
  async export({ code, night }) { await open(code); return py("export", { code, night: night || null }); },
  async list() {
    const out = [];
    for (const record of await loadAll()) {
      try {
        const value = py("open", { record });
        opened.set(record.code, value.record.version);
        out.push(value.summary);
      } catch (e) {  // a damaged saved table is listed, to be deleted
        out.push({ code: record.code, damaged: e.message });
      }
    }
    return out.sort((a, b) => (b.updated || 0) - (a.updated || 0));
  },
  async delete({ code }) {
    await remove(code);
    opened.delete(code);
    py("forget", { code });
    return { deleted: code };
  },
  async import({ text, lang }) {
    const value = py("import", { text, lang, now: Date.now() });
    try { await save(value.record); } catch (e) {
      py("forget", { code: value.code });
      throw new Refused(507, e && e.name === "QuotaExceededError" ? "storage-full" : "storage", String(e && e.message || e));
    }
    opened.set(value.code, value.record.version);
    return { code: value.code };
  },
};

// -- a game against bots: the online table's room in this worker (darkcity.pocket.play) --
// The page sends what it would send a server's socket; the room's answer (the socket's
// messages) goes back to it only once the decisions it stored and the room's row are
// in IndexedDB. One timer per game wakes the room when something is next due (a bot's
// turn, the count's end, a deadline).
let playCall = null;
const timers = new Map();  // code -> setTimeout id
const live = new Set();  // the games the engine holds now

function play(op, args) {
  if (!playCall) playCall = pyodideRef.pyimport("darkcity.pocket.play").call;
  const answer = JSON.parse(playCall(op, JSON.stringify(args)));
  if (answer.error) throw new Refused(answer.error.status, answer.error.code, answer.error.message);
  return answer.value;
}

const storageRefused = (e) => new Refused(507, e && e.name === "QuotaExceededError" ? "storage-full" : "storage", String(e && e.message || e));

// What the room answered: saved, then handed to the page, then its timer set again.
async function handOn(code, value, record) {
  const saved = record || await games.load(code) || { code, decisions: [] };
  saved.row = value.row;
  saved.decisions = [...(saved.decisions || []), ...value.stored];
  saved.status = value.status;
  saved.updated = Date.now();
  try {
    await games.save(saved);
  } catch (e) {  // not saved: the room forgets it (the page reloads what was saved)
    live.delete(code);
    try { play("forget", { code }); } catch { /* gone already */ }
    throw storageRefused(e);
  }
  if (value.messages.length) postMessage({ type: "play", code, messages: value.messages });
  clearTimeout(timers.get(code));
  timers.delete(code);
  if (value.due !== null && value.due !== undefined) {
    const wait = Math.max(0, value.due * 1000 - Date.now());
    timers.set(code, setTimeout(() => { queue = queue.then(() => tick(code)); }, Math.min(wait, 2 ** 31 - 1)));
  }
  return saved;
}

async function tick(code) {
  if (!live.has(code)) return;
  try {
    await handOn(code, play("advance", { code, now: Date.now() / 1000 }));
  } catch (e) {
    postMessage({ type: "play-error", code, error: { status: e.status || 500, code: e.code || "fault", message: String(e && e.message || e) } });
  }
}

// A game the engine holds, or read back from IndexedDB (a reload, a closed app).
async function openGame(code, lang) {
  if (live.has(code)) return handOn(code, play("reopen", { code, lang }));
  const saved = await games.load(code);
  if (!saved) throw new Refused(404, "no-room", "There is no game with that code on this phone.");
  const value = play("resume", { code, row: saved.row, decisions: saved.decisions, now: Date.now() / 1000, lang });
  live.add(code);
  return handOn(code, { ...value, stored: [] }, saved);
}

function summary(g) {
  const lobby = (g.row && g.row.lobby) || {};
  const seats = lobby.seats || [];
  return { code: g.code, status: g.status || (g.row && g.row.status), updated: g.updated || 0,
    settings: g.settings || null, decisions: (g.decisions || []).length,
    names: seats.filter((x) => x && x.kind === "human").map((x) => x.name),
    bots: seats.filter((x) => x && x.kind === "bot").length };
}

async function newGame(body, lang) {
  const value = play("create", { body, lang, now: Date.now() / 1000 });
  live.add(value.code);
  await handOn(value.code, value, { code: value.code, decisions: [], settings: body, created: Date.now() });
  return { code: value.code };
}

Object.assign(OPS, {
  async playCreate({ body, lang }) { return newGame(body, lang); },
  async playOpen({ code, lang }) { await openGame(code, lang); return { code }; },
  async playSend({ code, message }) {
    if (!live.has(code)) await openGame(code, null);
    await handOn(code, play("send", { code, message, now: Date.now() / 1000 }));
    return { sent: true };
  },
  async review({ record, night, viewer, lang }) {  // a record viewer's step
    return play("review", { record, night, viewer, lang });
  },
  async playView({ code, member, lang }) {  // a phone passed from hand to hand
    if (!live.has(code)) await openGame(code, lang);
    await handOn(code, play("view", { code, member, now: Date.now() / 1000, lang }));
    return { member };
  },
  async playAgain({ code, lang }) {
    const saved = await games.load(code);
    if (!saved || !saved.settings) throw new Refused(404, "no-room", "There is no game with that code on this phone.");
    return newGame(saved.settings, lang);
  },
  async playRecord({ code }) {
    if (!live.has(code)) await openGame(code, null);
    return play("record", { code });
  },
  async playList() {
    return (await games.all()).map(summary).sort((a, b) => b.updated - a.updated);
  },
  async playDelete({ code }) {
    clearTimeout(timers.get(code));
    timers.delete(code);
    live.delete(code);
    try { play("forget", { code }); } catch { /* not held */ }
    await games.remove(code);
    return { deleted: code };
  },
});

// one request at a time, in order: a change is saved before the next is read
let queue = Promise.resolve();
self.onmessage = (event) => {
  const { id, op, args } = event.data || {};
  queue = queue.then(async () => {
    try {
      await ready;
      if (!OPS[op]) throw new Refused(400, "bad-op", `unknown request ${op}`);
      const t0 = performance.now();
      const value = await OPS[op](args || {});
      postMessage({ id, value, ms: performance.now() - t0 });
    } catch (e) {
      postMessage({ id, error: { status: e.status || 500, code: e.code || "fault", message: String(e && e.message || e) } });
    }
  });
};
