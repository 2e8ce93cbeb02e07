// The pocket app's engine: Pyodide and darkcity's wheel in a Web Worker, and the tables
// in IndexedDB. The page (static/table/transport.js) sends {id, op, args}; every change
// is written to IndexedDB before its answer is sent, so what the page shows as done is
// saved (a reload, a closed app, a flat battery lose nothing).
//
// One game (or table) has one writer (issue #50): the worker that opens it holds the Web
// Lock "darkcity-game-CODE" for as long as its tab has it open; another tab is told it
// is open elsewhere and may take it over ({steal: true}); the old one hears it (its lock
// is taken, and a BroadcastChannel says so), stops the game's bots and timers and tells
// its page. Every write checks, in the same IndexedDB transaction, that it follows the
// last saved decision (or version) and that this worker is still the game's writer.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const WHEEL = "__WHEEL__";
// Pyodide's package lock, trimmed to its header (no package is ever loaded): given here,
// not fetched (darkcity.pocket.build)
const LOCK = __LOCK__;
const here = (p) => new URL(p, self.location.href).href;
const progress = (stage, done) => postMessage({ type: "progress", stage, done });

let call = null;  // darkcity.pocket.worker.call(op, args_json) -> JSON text
let pyodideRef = null;
const opened = new Map();  // code -> the version the engine holds

// The phone's own compile of its Python (darkcity.pocket.worker.compile_all), made once
// after a first start and kept in the browser's cache under this build's name: later
// starts read bytecode instead of compiling some 200 modules again. Pyodide fetches the
// standard library from an address: the service worker serves this one from that cache
// (a blob: address would break a policy of connect-src 'self', as the server's /app/ has).
const COMPILED = "darkcity-compiled-__COMPILED__";
const COMPILED_AT = here("compiled/__COMPILED__/");

// And once Python runs on that compile, the next start (the second on the phone) keeps
// a picture of the engine's memory with darkcity imported (Pyodide's memory snapshot,
// beside the compile, under the same build's name): every start after it puts that
// memory back instead of starting Python and importing some 150 modules again. A picture
// that does not start is dropped and never made again for this build ("no-snapshot").
const SNAPSHOT_AT = `${COMPILED_AT}snapshot.bin`;
const NO_SNAPSHOT_AT = `${COMPILED_AT}no-snapshot`;
// what the picture holds imported: the companion's engine and the games against bots
const PRELOADED = ["darkcity.pocket.worker", "darkcity.pocket.play"];

async function compiledKept() {
  try {
    if (!(await caches.has(COMPILED))) return null;
    const cache = await caches.open(COMPILED);
    const site = await cache.match(`${COMPILED_AT}site.zip`);
    const std = site && await fetch(`${COMPILED_AT}stdlib.zip`, { method: "HEAD" });
    if (!(site && std && std.ok)) return null;
    const snap = await cache.match(SNAPSHOT_AT);
    const never = Boolean(await cache.match(NO_SNAPSHOT_AT));
    return { stdlib: `${COMPILED_AT}stdlib.zip`, site: await site.arrayBuffer(),
      snapshot: snap ? new Uint8Array(await snap.arrayBuffer()) : null, snapshotNever: never };
  } catch { /* no cache here (a plain-HTTP address): compiled each time */ }
  return null;
}

// ``snapshot``: "restore" (kept.snapshot put back), "make" (taken once darkcity is
// imported, handed back to be kept) or null (Python started the usual way).
async function start(kept, snapshot) {
  const options = { indexURL: here("./pyodide/"), lockFileContents: LOCK,
    stdLibURL: kept ? kept.stdlib : undefined };
  if (snapshot === "restore") options._loadSnapshot = kept.snapshot;
  if (snapshot === "make") options._makeSnapshot = true;
  const pyodide = await loadPyodide(options);
  const t1 = performance.now();
  progress("wheel", 0.7);
  // (the wheel's files after a snapshot too: the package's data is read from them; its
  // compiled modules not, every one of them being in the picture already)
  const wheel = await fetch(here(WHEEL));
  if (!wheel.ok) throw new Error(`${WHEEL}: ${wheel.status}`);
  // (into site-packages, where the compile looks for them: unpacked by default into the
  // working directory, darkcity's own modules were compiled again at every start)
  const packages = sitePackages(pyodide);
  pyodide.unpackArchive(await wheel.arrayBuffer(), "wheel", { extractDir: packages });
  if (kept && snapshot !== "restore") pyodide.unpackArchive(kept.site, "zip", { extractDir: packages });
  const t2 = performance.now();
  progress("import", 0.85);
  let picture = null;
  if (snapshot === "make") {
    // (nothing of JavaScript held by Python yet: the picture is taken before any call)
    pyodide.runPython(PRELOADED.map((m) => `import ${m}`).join("\n"));
    picture = pyodide.makeMemorySnapshot();
  }
  call = pyodide.pyimport("darkcity.pocket.worker").call;
  return { pyodide, t1, t2, picture };
}

const sitePackages = (pyodide) => pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");

// The picture kept beside the compile (it is of this build's compile: a later build's
// compile has another name, and its own picture); or, ``never``, the word that this
// build's picture does not start.
async function keepSnapshot(picture, never = false) {
  try {
    if (!(await caches.has(COMPILED))) return;  // (the compile itself was dropped)
    const c = await caches.open(COMPILED);
    if (never) {
      await c.delete(SNAPSHOT_AT);
      await c.put(NO_SNAPSHOT_AT, new Response("1"));
    } else {
      await c.put(SNAPSHOT_AT, new Response(picture, { headers: { "Content-Type": "application/octet-stream" } }));
    }
  } catch (e) { console.warn("darkcity: the engine's snapshot was not kept:", e && e.message); }
}

const ready = (async () => {
  const t0 = performance.now();
  progress("runtime", 0.05);
  const kept = await compiledKept();
  const wanted = !kept || kept.snapshotNever ? null : (kept.snapshot ? "restore" : "make");
  let got = null;
  let snapshot = wanted;
  try {
    got = await start(kept, wanted);
  } catch (e) {
    if (!kept) throw e;
    if (wanted) {
      // (a picture that does not start, or cannot be taken: started from the compile,
      // and never taken again for this build)
      console.warn("darkcity: the engine's snapshot failed:", e && e.message);
      await keepSnapshot(null, true);
      snapshot = null;
      try { got = await start(kept, null); } catch { got = null; }
    }
    if (!got) {
      await caches.delete(COMPILED);  // (a compile that does not start: never used again)
      snapshot = null;
      got = await start(null, null);
    }
  }
  const { pyodide, t1, t2, picture } = got;
  pyodideRef = pyodide;
  const t3 = performance.now();
  progress("ready", 1);
  // where the time went: the runtime, the wheel fetched and unpacked, darkcity imported
  // (and each file's fetch: from the network, or the service worker's cache)
  const files = performance.getEntriesByType("resource").map((e) => ({ name: e.name.split("/").pop(), start: e.startTime, end: e.responseEnd }));
  const told = snapshot === "restore" ? "restored" : (picture ? "made" : null);
  postMessage({ type: "ready", ms: t3 - t0, stages: { runtime: t1 - t0, wheel: t2 - t1, imports: t3 - t2 }, files, compiled: Boolean(kept), snapshot: told });
  // not compiled yet: once the page has had its first answers, in the worker's turn
  if (!kept) setTimeout(() => { queue = queue.then(keepCompiled); }, 3000);
  else if (picture) queue = queue.then(() => keepSnapshot(picture));
})();

async function keepCompiled() {
  try {
    const compile = pyodideRef.pyimport("darkcity.pocket.worker").compile_all;
    const made = compile(`/lib/python${pyodideRef.runPython("import sys; f'{sys.version_info[0]}{sys.version_info[1]}'")}.zip`, sitePackages(pyodideRef));
    const [std, site] = made.toJs();
    made.destroy();
    for (const key of await caches.keys()) if (key.startsWith("darkcity-compiled-") && key !== COMPILED) await caches.delete(key);
    const c = await caches.open(COMPILED);
    await c.put(`${COMPILED_AT}site.zip`, new Response(site));
    await c.put(`${COMPILED_AT}stdlib.zip`, new Response(std, { headers: { "Content-Type": "application/zip" } }));
  } catch (e) { console.warn("darkcity: the compile was not kept:", e && e.message); }  // (the app works either way)
}
ready.catch((e) => postMessage({ type: "failed", message: String(e && e.message || e) }));

// -- one writer per game: this worker's name, its locks, the news of a take-over -------
const ME = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
const held = new Map();  // lock name -> its release()
const lost = new Set();  // lock names taken from this worker by another tab
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("darkcity-pocket") : null;
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });
const lockName = (kind, code) => `darkcity-${kind}-${code}`;

// The lock of a game or a table, for as long as this tab has it open: false when another
// tab holds it. A reload's old page lets go of it a moment after the new one asks, so it
// is asked a few times over a second. ``steal``: taken from the tab that holds it.
const asked = new Set();  // lock names asked for once already (then asked once each time)
async function claim(kind, code, steal = false) {
  const name = lockName(kind, code);
  if (held.has(name)) return true;
  if (lost.has(name) && !steal) return false;  // taken over: only taken back when asked
  const patient = !asked.has(name);
  asked.add(name);
  if (!(navigator.locks && navigator.locks.request)) {
    // (no Web Locks: a page on a plain-HTTP address) the last tab to open it is its
    // writer; the others hear it now, and their next write is refused in any case
    if (channel) channel.postMessage({ type: "taken", kind, code, by: ME });
    held.set(name, () => {});
    lost.delete(name);
    return true;
  }
  for (let tries = 0; tries < 8; tries += 1) {
    const got = await new Promise((resolve) => {
      let free = null;
      const kept = new Promise((r) => { free = r; });
      navigator.locks.request(name, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
        if (!lock) { resolve(false); return undefined; }
        held.set(name, free);
        lost.delete(name);
        resolve(true);
        return kept;  // held until released
      }).catch(() => {  // (AbortError) another tab took it over
        if (held.get(name) === free) letGo(kind, code, true);
        resolve(false);
      });
    });
    if (got) {
      if (steal && channel) channel.postMessage({ type: "taken", kind, code, by: ME });
      return true;
    }
    if (steal || !patient) return false;
    await sleep(150);
  }
  return false;
}

function release(kind, code) {
  const name = lockName(kind, code);
  const r = held.get(name);
  held.delete(name);
  if (r) r();
}

// Another tab took this game or table over: its room stops here (bots, timers), and the
// page is told.
function letGo(kind, code, taken) {
  const name = lockName(kind, code);
  held.delete(name);
  if (taken) lost.add(name);
  if (kind === "game") {
    clearTimeout(timers.get(code));
    timers.delete(code);
    base.delete(code);
    if (live.delete(code)) { try { play("forget", { code }); } catch { /* not held */ } }
    if (taken) postMessage({ type: "play-error", code, error: { status: 409, code: "taken", message: "taken" } });
  } else {
    if (opened.delete(code)) { try { py("forget", { code }); } catch { /* not held */ } }
    if (taken) postMessage({ type: "taken", kind, code });
  }
}

if (channel) {
  channel.onmessage = (event) => {
    const m = event.data || {};
    if (m.type !== "taken" || m.by === ME || !held.has(lockName(m.kind, m.code))) return;
    // (with Web Locks the lock's loss says it too; without them this is the news)
    queue = queue.then(() => letGo(m.kind, m.code, true));
  };
}

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

// A write that must follow what is saved: in one transaction the record is read,
// ``next(saved)`` says what to write instead (or throws: nothing is written), and it is
// written. Two tabs can never both write on top of the same saved state.
async function txUpdate(store, code, next) {
  const db = await dbp;
  return new Promise((resolve, reject) => {
    const t = db.transaction(store, "readwrite", { durability: "strict" });
    const s = t.objectStore(store);
    let written = null;
    let refused = null;
    const rq = s.get(code);
    rq.onsuccess = () => {
      try {
        written = next(rq.result);
        s.put(written);
      } catch (e) {
        refused = e;
        t.abort();
      }
    };
    t.oncomplete = () => resolve(written);
    t.onerror = () => { if (!refused) reject(t.error); };
    t.onabort = () => reject(refused || t.error || new DOMException("aborted", "AbortError"));
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
const elsewhere = (kind) => new Refused(409, "elsewhere", kind === "game"
  ? "This game is open in another tab or window." : "This table is open in another tab or window.");
const storageRefused = (e) => (e instanceof Refused ? e
  : new Refused(507, e && e.name === "QuotaExceededError" ? "storage-full" : "storage", String(e && e.message || e)));

function py(op, args) {
  const answer = JSON.parse(call(op, JSON.stringify(args)));
  if (answer.error) throw new Refused(answer.error.status, answer.error.code, answer.error.message);
  return answer.value;
}

// A table given to this tab's engine, its lock held: refused when another tab has it
// (``steal``: taken over from it).
async function open(code, steal = false) {
  if (opened.has(code) && held.has(lockName("table", code))) return;
  if (!(await claim("table", code, steal))) throw elsewhere("table");
  const record = await load(code);
  if (!record) { release("table", code); throw new Refused(404, "no-table", "There is no table with that code."); }
  const value = py("open", { record });
  opened.set(code, value.record.version);
}

// A change: the engine's answer, saved before it is answered, only on top of the version
// it was made from. A save refused (storage full, or the table changed meanwhile) takes
// the engine back to the table as saved, and says so.
async function change(code, op, args) {
  await open(code);
  const value = py(op, args);
  if (!value.record) return value;  // a dry correction
  value.record.updated = Date.now();
  const from = opened.get(code);
  try {
    await txUpdate("tables", code, (saved) => {
      if (!saved) throw new Refused(404, "no-table", "There is no table with that code.");
      if (saved.version !== from) throw new Refused(409, "stale", "This table changed in another tab or window: the page shows it as saved now.");
      return value.record;
    });
  } catch (e) {
    opened.delete(code);
    py("forget", { code });
    throw storageRefused(e);
  }
  opened.set(value.record.code, value.record.version);
  return value;
}

const OPS = {
  async selfcheck() { return py("selfcheck", {}); },  // (every module there: the trim's check)
  async check({ body, lang }) { return py("check", { body, lang }); },
  async create({ body, lang }) {
    const value = py("create", { body, lang, now: Date.now() });
    try { await save(value.record); } catch (e) {
      py("forget", { code: value.code });
      throw storageRefused(e);
    }
    opened.set(value.code, value.record.version);
    await claim("table", value.code);
    return { code: value.code, token: "local" };
  },
  async state({ code, lang, since }) {
    await open(code);
    if (since && since >= opened.get(code)) return { version: opened.get(code), unchanged: true };
    return py("state", { code, lang });
  },
  async takeOver({ code }) {  // the table, here, from the tab that had it
    if (!(await claim("table", code, true))) throw elsewhere("table");
    opened.delete(code);
    await open(code);
    return { code };
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
        // read, not taken: the table may be open in another tab
        const value = py("open", { record });
        if (!held.has(lockName("table", record.code))) py("forget", { code: record.code });
        out.push(value.summary);
      } catch (e) {  // a damaged saved table is listed, to be deleted
        out.push({ code: record.code, damaged: e.message });
      }
    }
    return out.sort((a, b) => (b.updated || 0) - (a.updated || 0));
  },
  async delete({ code }) {
    if (!(await claim("table", code))) throw elsewhere("table");
    await remove(code);
    opened.delete(code);
    py("forget", { code });
    release("table", code);
    return { deleted: code };
  },
  async import({ text, lang }) {
    const value = py("import", { text, lang, now: Date.now() });
    try { await save(value.record); } catch (e) {
      py("forget", { code: value.code });
      throw storageRefused(e);
    }
    py("forget", { code: value.code });  // (opened when the Mayor opens it)
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
const live = new Set();  // the games the engine holds now (and this worker writes)
const base = new Map();  // code -> how many decisions are saved under the room it holds

function play(op, args) {
  if (!playCall) playCall = pyodideRef.pyimport("darkcity.pocket.play").call;
  const answer = JSON.parse(playCall(op, JSON.stringify(args)));
  if (answer.error) throw new Refused(answer.error.status, answer.error.code, answer.error.message);
  return answer.value;
}

const staleGame = () => new Refused(409, "taken", "taken");

// What the room answered: saved (only on top of what this room was made from, and only
// while this worker is the game's writer), then handed to the page, then its timer set
// again. ``fresh``: the saved record this room starts from (a new game, or one taken
// over: it becomes this worker's), with ``decisions`` in place of the saved ones.
async function handOn(code, value, fresh = null) {
  let saved;
  try {
    saved = await txUpdate("games", code, (cur) => {
      let rec = cur;
      if (fresh) {
        if ((cur ? (cur.decisions || []).length : 0) !== fresh.from) throw staleGame();
        rec = { ...(cur || {}), ...fresh.record, writer: ME };
      } else {
        if (!cur) throw new Refused(404, "no-room", "There is no game with that code on this phone.");
        if (cur.writer !== ME || (cur.decisions || []).length !== base.get(code)) throw staleGame();
      }
      const decisions = [...(rec.decisions || []), ...value.stored];
      if (value.stored.some((d, i) => d.seq !== (rec.decisions || []).length + i)) throw staleGame();
      return { ...rec, code, row: value.row, decisions, status: value.status,
        summary: value.summary || rec.summary || null, updated: Date.now() };
    });
  } catch (e) {  // not saved: the room forgets it (the page reloads what was saved)
    const taken = e instanceof Refused && e.code === "taken";
    letGo("game", code, false);
    release("game", code);
    if (taken) lost.add(lockName("game", code));
    throw storageRefused(e);
  }
  base.set(code, saved.decisions.length);
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

// A game this worker holds, or read back from IndexedDB (a reload, a closed app, a game
// taken over from another tab: ``steal``); refused while another tab has it open.
async function openGame(code, lang, steal = false) {
  if (live.has(code) && held.has(lockName("game", code))) return handOn(code, play("reopen", { code, lang }));
  if (!(await claim("game", code, steal))) throw elsewhere("game");
  for (let tries = 0; ; tries += 1) {
    const saved = await games.load(code);
    if (!saved) { release("game", code); throw new Refused(404, "no-room", "There is no game with that code on this phone."); }
    const decisions = saved.decisions || [];
    let value;
    try {
      value = play("resume", { code, row: saved.row, decisions, now: Date.now() / 1000, lang });
    } catch (e) { release("game", code); throw e; }
    live.add(code);
    // a save damaged anyway: it goes on from its last consistent decision, and the rest
    // is kept aside in the save (named to the page by the room's notice), never lost
    const r = value.repaired;
    const record = r ? { decisions: decisions.slice(0, r.kept),
      set_aside: [...(saved.set_aside || []), { at: Date.now(), decisions: decisions.slice(r.kept) }] } : {};
    try {
      return await handOn(code, { ...value, stored: [] }, { from: decisions.length, record });
    } catch (e) {
      // the other tab wrote in between (it had not heard yet): read it again
      if (!(e instanceof Refused && e.code === "taken") || tries >= 2) throw e;
      if (!(await claim("game", code, true))) throw elsewhere("game");
    }
  }
}

// A saved game read without taking it (the list, a record downloaded): the room held
// here if this tab plays it, else a room made for the question and forgotten.
async function peek(code, record) {
  if (live.has(code)) return { summary: null, record: record ? play("record", { code }) : null };
  const saved = await games.load(code);
  if (!saved) throw new Refused(404, "no-room", "There is no game with that code on this phone.");
  return play("saved", { code, row: saved.row, decisions: saved.decisions || [], now: Date.now() / 1000, record });
}

function summary(g) {
  return { code: g.code, status: g.status || (g.row && g.row.status), updated: g.updated || 0,
    settings: g.settings || null, decisions: (g.decisions || []).length, summary: g.summary || null,
    damaged: (g.set_aside || []).length > 0 };
}

async function newGame(body, lang) {
  const value = play("create", { body, lang, now: Date.now() / 1000 });
  live.add(value.code);
  await claim("game", value.code);
  await handOn(value.code, value, { from: 0, record: { decisions: [], settings: body, created: Date.now() } });
  return { code: value.code };
}

Object.assign(OPS, {
  async playCreate({ body, lang }) { return newGame(body, lang); },
  async playOpen({ code, lang, steal }) { await openGame(code, lang, Boolean(steal)); return { code }; },
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
  async playRecord({ code }) { return (await peek(code, true)).record; },
  async playList() {
    const out = [];
    for (const g of await games.all()) {
      const row = summary(g);
      if (!row.summary && g.row) {  // (a game saved before the summary was kept)
        try { row.summary = (await peek(g.code, false)).summary; } catch { /* listed all the same */ }
      }
      out.push(row);
    }
    return out.sort((a, b) => b.updated - a.updated);
  },
  async playDelete({ code }) {
    if (!live.has(code) && !(await claim("game", code))) throw elsewhere("game");
    letGo("game", code, false);
    await games.remove(code);
    release("game", code);
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
