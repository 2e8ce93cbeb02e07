// The connection to the room: one WebSocket, reconnected soon and at a random moment
// (common/retry.js), at once when the page is shown again or the network returns, and
// never again once the server has said the room is not there (or refused us).
import { S, update } from "./store.js";
import { t } from "./i18n.js";
import { toast } from "./dom.js";
import { startCount, stopCount } from "./clock.js";
import { newState } from "./story.js";
import { attention } from "./attention.js";
import { places } from "./places.js";
import { retryDelay } from "../common/retry.js";

// Refusals after which trying again would only loop: the room is not there, it is full,
// or this seat was opened in another window (which would then be closed in turn).
const FATAL = new Set(["no-room", "room-busy", "closed", "replaced", "too-many-sockets"]);
let timer = null;
const utf8 = new TextDecoder();

export function tokenKey(code) { return `darkcity:token:${code}`; }

// A transport that is not the server's socket: the pocket app's room in the phone's
// worker (pocket/site/play.js). It is opened with the page's handlers and takes what
// the page would send its socket; what it answers is the socket's messages.
let local = null;
export function useLocal(transport) { local = transport; }

function connectLocal() {
  S.attempts += 1;
  got = null;
  S.history = [];
  S.fresh = true;
  S.ws = local;  // (send() below: its readyState is 1 while the room is open)
  local.open({ code: S.code, lang: S.lang, onMessage, onClose: () => dropped(local) });
}

export function connect() {
  if (S.fatal || !S.code) return;
  if (local) { connectLocal(); return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${S.code}?lang=${S.lang}`);
  S.ws = ws;
  S.attempts += 1;
  clearTimeout(silent); silent = null;
  ws.onopen = () => {
    readMeta();
    S.history = [];
    got = null;  // (this connection's first state is whole)
    S.fresh = true;  // the first state of a connection is shown, not told again
    ws.send(JSON.stringify({ type: "hello", token: S.token, lang: S.lang, kept: true }));
    ping();
  };
  ws.binaryType = "arraybuffer";  // the server sends UTF-8 JSON in binary frames
  ws.onmessage = (ev) => {
    if (S.ws === ws) { clearTimeout(silent); silent = null; }  // it is alive
    let m;
    try { m = JSON.parse(typeof ev.data === "string" ? ev.data : utf8.decode(ev.data)); } catch { return; }
    onMessage(m);
  };
  ws.onclose = () => dropped(ws);
}

// Where friends reach the server (the invite link's address, server/share.py), read
// again on each connection: the lobby asks a host to restart darkcity with --host
// 0.0.0.0, and the link copied after that restart still said 127.0.0.1 until a reload.
async function readMeta() {
  try {
    const meta = await places.meta();
    update(() => { S.meta = meta; });
  } catch { /* the page keeps the address it has */ }
}

// The socket is gone (closed, or silent past its ping): said on the page, and tried
// again after a pause that grows.
function dropped(ws) {
  if (S.ws !== ws) return;
  clearTimeout(silent); silent = null;
  S.online = false;
  if (!S.fatal) S.lost = true;  // said on the page until a welcome comes again
  // a count under way stops: "Now!" would promise a reveal this page cannot get (it
  // counted to "Now!", then showed nothing for seconds); the banner says why
  if (S.counting || S.countWord) stopCount();
  update();
  if (S.fatal) return;
  // soon, at a random moment (common/retry.js): back within a second of a restarted
  // server answering, and a thousand pages spread rather than all at once
  if (!S.retry) S.downSince = Date.now();
  const wait = retryDelay(S.retry || 0, Date.now() - (S.downSince || Date.now()));
  S.retry = (S.retry || 0) + 1;
  clearTimeout(timer);
  timer = setTimeout(connect, wait);
}

// A phone that walks out of its Wi-Fi, or sleeps with the page open, keeps a socket the
// browser still calls open while nothing goes through either way: the page said
// "connected" over a table that had moved on. A ping unanswered for PING_WAIT ms (the
// server answers at once) is a lost connection; one is sent when the network comes
// back and when the page is shown again, so the page knows within seconds.
const PING_WAIT = 6000;
let silent = null;

function lost() {
  silent = null;
  const ws = S.ws;
  if (!ws || ws.readyState !== 1) return;
  ws.onclose = null;
  ws.close();
  dropped(ws);
  S.ws = null;
}

// Back on the network, or the page shown again: ask now (a closed socket is not left
// to its pause).
function check() {
  if (!S.code || S.fatal) return;
  const ws = S.ws;
  if (ws && ws.readyState === 1) { clearTimeout(silent); silent = null; ping(); return; }
  if (ws && ws.readyState === 0) return;  // an attempt under way
  clearTimeout(timer);
  S.retry = 0;
  connect();
}
window.addEventListener("online", check);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") check(); });

// A new connection in another language (the old one is closed by us, not lost).
export function reconnect() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  clearTimeout(timer);  // a pending attempt would open a second socket beside this one
  S.retry = 0;
  connect();
}

export function send(obj) {
  if (S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(obj)); return true; }
  return false;
}
export function ping() {
  if (local) return;  // (the phone's own worker answers whatever it is asked, in order)
  if (send({ type: "ping", t: Date.now() / 1000 }) && !silent) silent = setTimeout(lost, PING_WAIT);
}
setInterval(() => { if (S.code && !S.fatal) ping(); }, 15000);

export async function post(url, body) {
  let r;
  try {
    r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": S.lang },
      body: JSON.stringify(body) });
  } catch {
    toast(t("The server cannot be reached."), "error");
    return null;
  }
  const doc = await r.json().catch(() => ({}));
  if (!r.ok) { toast(doc.message || t("Something went wrong."), "error"); return null; }
  return doc;
}

function newLobby(lobby) {
  if (lobby.next && !(S.lobby && S.lobby.next)) toast(t("A new game is waiting at this table."), "notice");
  S.lobby = lobby;
}

// The last state this connection received, whole and untouched (a progress changes
// S.view in place). Said "kept: true" in its hello, the server leaves out of a state
// the view's fields (and the standing) that are as in the last one, and names them in
// its "kept": they are taken from here.
let got = null;

function whole(m) {
  if (m.kept) {
    if (!got) return null;  // (never: a connection's first state is whole)
    const view = { ...m.view };
    let standing = m.standing;
    for (const k of m.kept) {
      if (k === "standing") standing = got.standing;
      else view[k] = got.view[k];
    }
    m = { ...m, view, standing };
  }
  got = structuredClone({ view: m.view, standing: m.standing });
  return m;
}

function takeState(m) {
  const state = whole(m);
  if (state) newState(state);
  else reconnect();  // a state with nothing to complete it: a whole one is asked for
  return Boolean(state);
}

function onMessage(m) {
  // a decision's acknowledgement rides on the decider's next state, count or progress
  // (or comes alone as an "ack"): the wait for it ends
  if (m.ack) S.pending = false;
  // the lobby rides on a welcome, and on a state, progress or count sent while a
  // change of the lobby was due: it is read first (a game that starts says so in it)
  if (m.lobby) newLobby(m.lobby);
  switch (m.type) {
    case "welcome":  // it carries the chat's last lines and, in a game, the first state
      S.member = m.member; S.online = true; S.lost = false; S.retry = 0;
      if (m.lines) S.chat = m.lines;
      if (m.played_away) S.back = [...(S.back || []), ...m.played_away];  // (js/back.js)
      if (m.state && !takeState(m.state)) return;
      // arrived during "1, 2, 3, now!" (a reload): the table as it was before the count,
      // the beats left, and what this reader chose if theirs closed the phase
      if (m.count) startCount(m.count);
      if (m.chose && S.view) S.chose = { id: S.view.decision_id, choice: m.chose };
      break;
    case "pong": S.offset = m.server_time - (m.t + Date.now() / 1000) / 2; break;
    case "lobby": break;
    case "state": if (!takeState(m)) return; break;
    case "progress": {
      const V = S.view;
      if (!V) break;  // (a lobby it carried is shown all the same)
      if ("deadline" in m) { V.decision_id = m.decision_id; S.deadline = m.deadline; }
      if (V.decision_id !== m.decision_id) break;
      V.required = m.required; V.pending = m.pending;
      const req = new Set(m.required), pend = new Set(m.pending);
      for (const seat of V.seats) seat.decided = req.has(seat.name) ? !pend.has(seat.name) : null;
      break;
    }
    case "count": startCount(m); break;
    case "ack": S.pending = false; break;
    // time was up and a bot decided for this seat: said on the page's return when its
    // tab was hidden (js/back.js), as after being away; on screen, the question says it
    case "played": if (document.hidden) S.back = [...(S.back || []), m.night]; break;
    case "notice":  // told once as a toast; its repeats are counted in the Mayor's notices
      if (!S.notices.includes(m.message)) toast(m.message, "notice");
      S.notices.push(m.message);
      break;
    case "chat-log": S.chat = m.lines; break;
    case "chat": S.chat = [...S.chat.slice(-199), m.line]; attention.chat(m.line); break;
    case "error":
      S.pending = false;
      S.chose = null;  // (a refused decision was not made: the view says what stands)
      if (FATAL.has(m.code)) {
        S.fatal = m.message;
        S.fatalCode = m.code;
        const ws = S.ws;
        S.ws = null;
        if (ws) ws.close();
      } else if (m.code !== "removed") {  // (that one stays on the page: room.js)
        toast(m.message, "error");
      }
      if (m.code === "removed") {
        // the view held is still the seat's (its card, its choices): the room again
        // as a spectator sees it
        localStorage.removeItem(tokenKey(S.code)); S.token = null; S.removed = m.message;
        S.view = null; S.member = null;
        reconnect();
      }
      break;
    default: return;
  }
  update();
}

// "Play again": the same people at the same seats of a new room; the seat link of
// this room works there too.
export function followNext(code) {
  if (S.token) localStorage.setItem(tokenKey(code), S.token);
  location.href = places.follow(code);
}
