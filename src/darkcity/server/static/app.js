// darkcity web table: plain JS, no build step. Every text goes through t() (the
// server's gettext catalogs, /api/i18n/LANG); every name is put on the page with
// textContent, never as HTML.
"use strict";

const S = {
  meta: null, cat: null, lang: null, code: null, token: null, member: null,
  ws: null, lobby: null, view: null, deadline: null, offset: 0, counting: null,
  notices: [], history: [], filter: [], shows: null, pending: false, retry: 0,
  narrated: 0, closedByUs: false,
};

// ---------------------------------------------------------------- i18n
function t(id, params) {
  let s = (S.cat && S.cat.ui[id]) || id;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return s;
}
const role = (k) => (S.cat && S.cat.roles[k]) || k;
const word = (group, k) => (S.cat && S.cat[group] && S.cat[group][k]) || k;

async function loadLang(lang) {
  const r = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  S.cat = await r.json();
  S.lang = S.cat.lang;
  document.documentElement.lang = S.lang === "pt_BR" ? "pt-BR" : "en";
  localStorage.setItem("darkcity:lang", S.lang);
}

// ---------------------------------------------------------------- DOM helpers
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}
const $ = (sel) => document.querySelector(sel);
function toast(text, kind) {
  const box = $("#toasts");
  const item = el("div", { class: `toast ${kind || ""}`, role: "status", "data-testid": "toast", text });
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}
const now = () => Date.now() / 1000 + S.offset;

// ---------------------------------------------------------------- start
async function main() {
  S.meta = await (await fetch("/api/meta")).json();
  const saved = localStorage.getItem("darkcity:lang");
  const nav = (navigator.language || "en").toLowerCase().startsWith("pt") ? "pt_BR" : "en";
  await loadLang(saved || nav);
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  if (m) {
    S.code = m[1].toUpperCase();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) {
      localStorage.setItem(`darkcity:token:${S.code}`, hash.get("token"));
      history.replaceState(null, "", location.pathname);
    }
    S.token = localStorage.getItem(`darkcity:token:${S.code}`);
    connect();
  }
  render();
  setInterval(tickClock, 200);
}

// ---------------------------------------------------------------- home page
function homePage() {
  const players = el("input", { type: "number", min: 4, max: 8, value: 6, id: "players", "data-testid": "players" });
  const deck = el("select", { id: "deck", "data-testid": "deck" });
  const cast = el("fieldset", { class: "cast hidden", "data-testid": "custom-cast" },
    el("legend", { text: t("Custom cast") }),
    S.meta.box.map((k) => {
      const [r, ed, g] = k.split(":");
      return el("label", { class: "castcard" }, el("input", { type: "checkbox", value: k }),
        ` ${role(r)} · ${word("editions", ed)} · ${word("genders", g)}`);
    }));
  function fillDecks() {
    const n = Number(players.value);
    deck.replaceChildren(...S.meta.presets.filter((p) => p.min <= n && n <= p.max)
      .map((p) => el("option", { value: p.name, text: word("presets", p.name) })),
      el("option", { value: "custom", text: t("Custom cast") }));
  }
  fillDecks();
  players.addEventListener("change", fillDecks);
  deck.addEventListener("change", () => cast.classList.toggle("hidden", deck.value !== "custom"));
  const pace = el("select", { id: "pace", "data-testid": "pace" },
    Object.keys(S.meta.paces).map((k) => el("option", { value: k, text: word("paces", k), selected: k === "normal" })));
  const level = el("select", { id: "level", "data-testid": "timeout-level" },
    S.meta.levels.map((k) => el("option", { value: k, text: word("levels", k) })));
  const lang = el("select", { id: "room-lang" },
    el("option", { value: "en", text: "English", selected: S.lang === "en" }),
    el("option", { value: "pt_BR", text: "Português", selected: S.lang === "pt_BR" }));
  const name = el("input", { id: "name", maxlength: 24, required: true, "data-testid": "name", autocomplete: "nickname" });
  const create = el("form", { class: "card", "data-testid": "create-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const body = { name: name.value, players: Number(players.value), pace: pace.value,
      lang: lang.value, timeout_level: level.value };
    if (deck.value === "custom") body.cards = [...cast.querySelectorAll("input:checked")].map((i) => i.value);
    else body.deck = deck.value;
    const r = await post("/api/rooms", body);
    if (r) enter(r);
  } },
  el("h2", { text: t("Create a room") }),
  el("label", {}, t("Your name"), name),
  el("label", {}, t("Players"), players),
  el("label", {}, t("Deck"), deck), cast,
  el("label", {}, t("Pace"), pace),
  el("label", {}, t("Language"), lang),
  el("label", {}, t("A player who runs out of time is played by a bot of level"), level),
  el("button", { type: "submit", "data-testid": "create", text: t("Create room") }));
  const code = el("input", { id: "code", maxlength: 12, "data-testid": "join-code", autocomplete: "off" });
  const jname = el("input", { id: "join-name", maxlength: 24, "data-testid": "join-name" });
  const join = el("form", { class: "card", onsubmit: async (ev) => {
    ev.preventDefault();
    const c = code.value.trim().toUpperCase();
    const r = await post(`/api/rooms/${encodeURIComponent(c)}/join`, { name: jname.value });
    if (r) enter(r);
  } },
  el("h2", { text: t("Join a room") }),
  el("label", {}, t("Room code"), code),
  el("label", {}, t("Your name"), jname),
  el("div", { class: "row" },
    el("button", { type: "submit", "data-testid": "join", text: t("Join") }),
    el("button", { type: "button", class: "secondary", text: t("Watch"),
      onclick: () => { location.href = `/r/${encodeURIComponent(code.value.trim().toUpperCase())}`; } })));
  return el("main", { class: "home" },
    el("header", { class: "hero" }, el("h1", { text: "Dark City" }),
      el("p", { text: t("Friends at a virtual table; the app is the Mayor.") }), langSwitch()),
    el("div", { class: "forms" }, create, join));
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": S.lang },
    body: JSON.stringify(body) });
  const doc = await r.json().catch(() => ({}));
  if (!r.ok) { toast(doc.message || t("Something went wrong."), "error"); return null; }
  return doc;
}

function enter(r) {
  localStorage.setItem(`darkcity:token:${r.code}`, r.token);
  location.href = `/r/${r.code}`;
}

function langSwitch() {
  return el("select", { class: "lang", "aria-label": t("Language"), "data-testid": "lang",
    onchange: async (ev) => { await loadLang(ev.target.value); if (S.ws && S.ws.readyState === 1) { S.closedByUs = false; S.ws.close(); } render(); } },
  el("option", { value: "en", text: "English", selected: S.lang === "en" }),
  el("option", { value: "pt_BR", text: "Português", selected: S.lang === "pt_BR" }));
}

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${S.code}?lang=${S.lang}`);
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    S.history = []; S.narrated = 0;
    ws.send(JSON.stringify({ type: "hello", token: S.token, lang: S.lang }));
    ping();
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.online = false; render();
    const wait = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(connect, wait);
  };
}
function send(obj) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(obj)); }
function ping() { send({ type: "ping", t: Date.now() / 1000 }); }
setInterval(() => { if (S.code) ping(); }, 15000);

function onMessage(m) {
  switch (m.type) {
    case "welcome": S.member = m.member; S.online = true; break;
    case "pong": {
      const local = Date.now() / 1000;
      S.offset = m.server_time - (m.t + local) / 2;
      break;
    }
    case "lobby": S.lobby = m.lobby; break;
    case "state":
      if (m.view.history.length && m.view.history[0].number === S.history.length + 1) S.history.push(...m.view.history);
      else if (m.view.history.length) S.history = S.history.slice(0, m.view.history[0].number - 1).concat(m.view.history);
      if (!S.view || S.view.decision_id !== m.view.decision_id) { S.filter = []; S.shows = null; }
      S.view = m.view; S.deadline = m.deadline; S.counting = null; S.pending = false;
      break;
    case "progress":  // who decides and who has decided (never what): the public view
      if (!S.view) return;
      if ("deadline" in m) { S.view.decision_id = m.decision_id; S.deadline = m.deadline; }
      if (S.view.decision_id !== m.decision_id) return;
      S.view.required = m.required; S.view.pending = m.pending;
      for (const seat of S.view.seats) seat.decided = m.required.includes(seat.name) ? !m.pending.includes(seat.name) : null;
      break;
    case "count": S.counting = m; render(); runCount(m); return;
    case "ack": S.pending = false; S.acked = S.view && S.view.decision_id; break;
    case "notice": S.notices.push(m.message); toast(m.message, "notice"); break;
    case "error":
      S.pending = false;
      toast(m.message, "error");
      if (m.code === "removed") { localStorage.removeItem(`darkcity:token:${S.code}`); S.token = null; }
      break;
    default: return;
  }
  render();
}

// ---------------------------------------------------------------- the Mayor's count
function runCount(m) {
  const words = [t("1"), t("2"), t("3"), t("Now!")];
  S.countWord = null;
  words.forEach((w, i) => {
    const at = (m.start + i * m.beat - now()) * 1000;
    setTimeout(() => { S.countWord = w; showCount(); }, Math.max(0, at));
  });
  setTimeout(() => { S.countWord = null; showCount(); }, Math.max(0, (m.start + m.beats * m.beat - now()) * 1000) + 400);
}
function showCount() {
  const box = $("#count");  // looked up each beat: the page may have been drawn again
  if (!box) return;
  box.textContent = S.countWord || "";
  box.classList.toggle("on", !!S.countWord);
}

function tickClock() {
  const box = $("#countdown");
  if (!box) return;
  if (!S.deadline || !S.view || S.view.phase === "over") { box.textContent = ""; return; }
  const left = Math.max(0, Math.ceil(S.deadline - now()));
  box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.classList.toggle("urgent", left <= 5);
}

// ---------------------------------------------------------------- rendering
function render() {
  const root = $("#app");
  if (!S.code) { root.replaceChildren(homePage()); return; }
  root.replaceChildren(roomPage());
  tickClock();
}

function roomPage() {
  const link = `${location.origin}/r/${S.code}`;
  const head = el("header", { class: "bar" },
    el("a", { href: "/", class: "brand", text: "Dark City" }),
    el("span", { class: "code", "data-testid": "room-code", title: t("Room code") }, S.code),
    el("button", { class: "secondary small", text: t("Copy link"), onclick: () => copy(link) }),
    el("span", { class: `dot ${S.online ? "on" : "off"}`, title: S.online ? t("Connected") : t("Reconnecting…") }),
    langSwitch());
  const body = !S.lobby ? el("p", { text: t("Connecting…") })
    : S.lobby.status === "lobby" ? lobbyView() : tableView();
  return el("div", { class: "room" }, head, body);
}

function copy(text) {
  (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).then(
    () => toast(t("Copied."), "ok"), () => prompt(t("Copy this:"), text));
}

function me() { return S.lobby && S.lobby.seats.find((s) => s.member !== null && s.member === S.member); }
function isHost() { return S.member !== null && S.lobby && S.lobby.host === S.member; }

function lobbyView() {
  const L = S.lobby;
  const mine = me();
  const seats = L.seats.map((s) => {
    const kids = [el("div", { class: "seatname", text: s.name || t("Free seat") })];
    if (s.kind === "bot") kids.push(el("span", { class: "badge", text: t("bot: {level}", { level: word("levels", s.level) }) }));
    if (s.host) kids.push(el("span", { class: "badge host", text: t("host") }));
    if (s.kind === "human" && !s.online) kids.push(el("span", { class: "badge away", text: t("away") }));
    if (s.kind === "empty" && S.member !== null) kids.push(el("button", { class: "small", "data-testid": `sit-${s.seat}`, text: t("Sit here"), onclick: () => send({ type: "sit", seat: s.seat }) }));
    if (isHost()) {
      if (s.kind === "empty") {
        const lv = el("select", { "data-testid": `bot-level-${s.seat}` }, S.meta.levels.map((k) => el("option", { value: k, text: word("levels", k) })));
        kids.push(el("div", { class: "row" }, lv, el("button", { class: "small secondary", "data-testid": `add-bot-${s.seat}`, text: t("Add a bot"), onclick: () => send({ type: "add-bot", seat: s.seat, level: lv.value }) })));
      } else if (s.member !== S.member) {
        kids.push(el("button", { class: "small secondary", "data-testid": `remove-${s.seat}`, text: t("Remove"), onclick: () => send({ type: "remove", seat: s.seat }) }));
        if (s.kind === "human") kids.push(el("button", { class: "small secondary", text: t("Make host"), onclick: () => send({ type: "make-host", seat: s.seat }) }));
      }
    }
    return { seat: s.seat, node: el("div", { class: `seat ${s.kind} ${mine && mine.seat === s.seat ? "me" : ""}`, "data-testid": `seat-${s.seat}` }, kids) };
  });
  const c = L.config;
  const info = el("section", { class: "card lobbyinfo" },
    el("h2", { text: t("Waiting for players") }),
    el("p", { text: t("Share the code {code} or the link.", { code: S.code }) }),
    el("p", { class: "muted", text: t("{n} players · deck: {deck} · pace: {pace}", { n: c.players, deck: c.deck === "custom" ? t("Custom cast") : word("presets", c.deck), pace: word("paces", c.pace) }) }),
    S.member === null ? el("p", { class: "muted", text: t("You are watching.") }) : null,
    mine ? el("button", { class: "secondary small", text: t("Stand up"), onclick: () => send({ type: "stand" }) }) : null,
    L.watchers.length ? el("p", { class: "muted", text: t("Not seated: {names}", { names: L.watchers.join(", ") }) }) : null,
    isHost() ? el("button", { "data-testid": "start", text: t("Start the game"), onclick: () => send({ type: "start" }) }) : el("p", { class: "muted", text: t("The host starts the game.") }),
    S.token ? el("button", { class: "secondary small", text: t("Seat link for another device"), onclick: () => copy(`${location.origin}/r/${S.code}#token=${S.token}`) }) : null);
  return el("div", { class: "lobby" }, circle(seats, el("div", { class: "center" }, el("div", { class: "phase", text: t("Lobby") }))), info);
}

function circle(seats, center, arrows) {
  const n = seats.length;
  const box = el("div", { class: "table", "data-testid": "table" }, center);
  seats.forEach((s, i) => {
    const a = (Math.PI * 2 * i) / n + Math.PI / 2;
    s.node.style.left = `${50 + 40 * Math.cos(a)}%`;
    s.node.style.top = `${50 + 40 * Math.sin(a)}%`;
    box.append(s.node);
  });
  if (arrows && arrows.length) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("class", "arrows");
    svg.setAttribute("data-testid", "arrows");
    const defs = document.createElementNS(NS, "defs");
    const marker = document.createElementNS(NS, "marker");
    Object.entries({ id: "head", markerWidth: 6, markerHeight: 6, refX: 5, refY: 3, orient: "auto" }).forEach(([k, v]) => marker.setAttribute(k, v));
    const tip = document.createElementNS(NS, "path");
    tip.setAttribute("d", "M0,0 L6,3 L0,6 z");
    marker.append(tip); defs.append(marker); svg.append(defs);
    const pos = (i) => { const a = (Math.PI * 2 * i) / n + Math.PI / 2; return [50 + 40 * Math.cos(a), 50 + 40 * Math.sin(a)]; };
    arrows.forEach(({ from, to, label, k, of }) => {
      const [x1, y1] = pos(from), [x2, y2] = pos(to);
      const bend = (k - (of - 1) / 2) * 4;
      const mx = (x1 + x2) / 2 + (y2 - y1) * 0.16 + bend, my = (y1 + y2) / 2 - (x2 - x1) * 0.16 + bend;
      const path = document.createElementNS(NS, "path");
      const sx = x1 + (x2 - x1) * 0.12, sy = y1 + (y2 - y1) * 0.12, ex = x2 - (x2 - x1) * 0.14, ey = y2 - (y2 - y1) * 0.14;
      path.setAttribute("d", `M${sx},${sy} Q${mx},${my} ${ex},${ey}`);
      path.setAttribute("marker-end", "url(#head)");
      svg.append(path);
      const text = document.createElementNS(NS, "text");
      text.setAttribute("x", mx); text.setAttribute("y", my);
      text.textContent = label;
      svg.append(text);
    });
    box.append(svg);
  }
  return box;
}

function gestureText(g, full) {
  const parts = [role(g.shows)];
  if (g.kind) parts.push(t("kind: {role}", { role: role(g.kind) }));
  if (g.seeks) parts.push(t("seeks: {gender}", { gender: word("genders", g.seeks) }));
  if (full && g.targets && g.targets.length) parts.push("→ " + g.targets.join(" & "));
  if (g.names) parts.push(t("names {player}", { player: g.names }));
  return parts.join(" · ");
}

function arrowsFor(list) {
  const V = S.view;
  const idx = Object.fromEntries(V.players.map((p, i) => [p, i]));
  const out = [];
  for (const [p, g] of list) {
    if (!g || !g.targets) continue;
    g.targets.forEach((tg, k) => out.push({ from: idx[p], to: idx[tg], label: role(g.shows), k, of: g.targets.length }));
  }
  return out;
}

function tableView() {
  const V = S.view;
  if (!V) return el("p", { text: t("Connecting…") });
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  const inNight = ["gesture", "withdrawal", "zombie"].includes(V.phase);
  let arrows = [];
  let arrowsLabel = null;
  if (inNight && V.phase !== "gesture") arrows = arrowsFor(V.seats.map((s) => [s.name, s.gesture]));
  else if (last && (V.phase === "over" || V.phase === "draft" || V.phase === "setup")) {
    arrows = arrowsFor(last.gestures);
    arrowsLabel = t("Night {n}", { n: last.number });
  }
  const lastFates = last ? Object.fromEntries(last.fates) : {};
  const lastCards = last ? Object.fromEntries(last.cards) : {};
  const lobbySeats = S.lobby.seats;
  const filterable = targetsOf(V.choices).size > 0;
  const seats = V.seats.map((s, i) => {
    const L = lobbySeats[i] || {};
    const mine = V.viewer === s.name;
    const xp = s.journal.reduce((a, [, x]) => a + x, 0);
    const kids = [el("div", { class: "seatname", text: s.name })];
    const badges = [];
    if (V.mayor === s.name) badges.push(t("Mayor"));
    if (V.active === s.name && V.phase !== "over") badges.push(t("active"));
    if (mine) badges.push(t("you"));
    if (L.kind === "bot") badges.push(t("bot"));
    if (L.kind === "human" && !L.online) badges.push(t("away"));
    kids.push(el("div", { class: "badges" }, badges.map((b) => el("span", { class: "badge", text: b }))));
    kids.push(el("div", { class: "xp", text: t("{n} XP", { n: xp }) }));
    if (s.decided !== null) kids.push(el("div", { class: `decided ${s.decided ? "yes" : "no"}`, "data-testid": `decided-${i}`, text: s.decided ? t("decided") : t("deciding…") }));
    const card = s.card || (V.phase !== "gesture" && V.phase !== "withdrawal" && V.phase !== "zombie" && lastCards[s.name]);
    if (card) kids.push(el("div", { class: "mini", text: role(card.role) }));
    if (s.gesture && (mine || V.phase !== "gesture")) kids.push(el("div", { class: "gest", text: gestureText(s.gesture, false) }));
    if (s.withdrawal === true) kids.push(el("div", { class: "gest", text: t("withdrew") }));
    else if (Array.isArray(s.withdrawal) && s.withdrawal.length) kids.push(el("div", { class: "gest", text: t("lowered an arrow") }));
    if (!inNight && lastFates[s.name] && lastFates[s.name] !== "alive") kids.push(el("div", { class: "fate", text: word("fates", lastFates[s.name]) }));
    const chosen = S.filter.includes(s.name);
    const node = el("button", { class: `seat ${mine ? "me" : ""} ${chosen ? "chosen" : ""} ${filterable ? "pickable" : ""}`, "data-testid": `seat-${i}`, "data-name": s.name,
      onclick: () => { if (!filterable) return; S.filter = chosen ? S.filter.filter((x) => x !== s.name) : [...S.filter, s.name]; render(); } }, kids);
    return { seat: i, node };
  });
  const phaseText = V.phase === "over" ? t("The game is over") : t("Night {n} · {phase}", { n: V.night, phase: word("phases", V.phase) });
  const center = el("div", { class: "center" },
    el("div", { class: "phase", "data-testid": "phase", "data-phase": V.phase, text: phaseText }),
    el("div", { id: "countdown", "data-testid": "countdown" }),
    el("div", { id: "count", class: `count ${S.countWord ? "on" : ""}`, "aria-live": "assertive", text: S.countWord || "" }),
    arrowsLabel ? el("div", { class: "muted", text: arrowsLabel }) : null);
  const panels = [decisionPanel(), yourCard(), narrationPanel(), journalPanel(), V.phase === "over" ? endPanel() : null, noticesPanel()];
  return el("div", { class: "game" }, el("div", { class: "tablewrap" }, circle(seats, center, arrows)), el("div", { class: "panels" }, panels));
}

function targetsOf(choices) {
  const s = new Set();
  for (const c of choices) {
    for (const x of c.targets || []) s.add(x);
    if (c.target) s.add(c.target);
    if (c.names) s.add(c.names);
  }
  return s;
}

function choiceText(c) {
  switch (c.type) {
    case "free-xp": return t("Free XP: {role}", { role: role(c.role) });
    case "draft-pick": return `${role(c.card.role)} · ${word("editions", c.card.edition)} · ${word("genders", c.card.gender)}`;
    case "face-down-pick": return t("Take a face-down card at random");
    case "take-death": return t("Take Death and name {player}", { player: c.names });
    case "look-at-hand": return t("Leave Death and look at the hand");
    case "gesture": {
      const parts = [];
      if (c.shows) parts.push(t("show {role}", { role: role(c.shows) }));
      if (c.targets) parts.push("→ " + c.targets.join(" & "));
      if (c.kind) parts.push(t("kind: {role}", { role: role(c.kind) }));
      if (c.seeks) parts.push(t("seeks: {gender}", { gender: word("genders", c.seeks) }));
      return parts.length ? parts.join(" ") : t("Make your gesture");
    }
    case "withdrawal":
      if (c.withdrawal === false) return t("Stay");
      if (c.withdrawal === true) return t("Withdraw");
      return t("Lower arrow {n}", { n: c.withdrawal[0] + 1 });
    case "zombie": return t("Final victim: {player}", { player: c.target });
    default: return c.type;
  }
}

function decide(c) {
  if (S.pending || S.counting) return;
  S.pending = true;
  const decision = Object.assign({}, c);
  delete decision.player;
  send({ type: "decide", at: S.view.decision_id, decision, ref: String(Date.now()) });
  render();
}

function decisionPanel() {
  const V = S.view;
  const box = el("section", { class: "card decide", "data-testid": "decide" });
  if (V.phase === "over") return null;
  if (!V.viewer) { box.append(el("p", { class: "muted", text: t("You are watching.") })); return box; }
  const choices = V.choices;
  if (!choices.length) {
    const waiting = V.pending.length ? t("Waiting for {names}.", { names: V.pending.join(", ") }) : "";
    const mineDone = V.required.includes(V.viewer);
    box.append(el("h3", { text: mineDone ? t("You have decided.") : t("Nothing to decide now.") }), el("p", { class: "muted", text: waiting }));
    return box;
  }
  box.append(el("h3", { text: word("prompts", V.phase) }));
  if (V.phase === "draft" && V.hand) {
    box.append(el("p", { class: "muted", text: t("Keep one card; pass the rest on.") }));
  }
  let list = choices;
  const shows = [...new Set(list.filter((c) => c.shows).map((c) => c.shows))];
  if (shows.length > 1) {
    box.append(el("p", { text: t("Show which role?") }), el("div", { class: "row wrap" }, shows.map((r, k) =>
      el("button", { class: `small ${S.shows === r ? "" : "secondary"}`, "data-testid": `shows-${k}`, text: role(r), onclick: () => { S.shows = S.shows === r ? null : r; render(); } }))));
    if (S.shows) list = list.filter((c) => c.shows === S.shows);
    else list = [];
  }
  if (S.filter.length) list = list.filter((c) => S.filter.every((n) => (c.targets || []).includes(n) || c.target === n || c.names === n));
  if (targetsOf(choices).size) box.append(el("p", { class: "muted", text: S.filter.length ? t("Chosen: {names} (click a seat again to clear)", { names: S.filter.join(", ") }) : t("Click seats on the table to choose your targets.") }));
  const max = 40;
  box.append(el("div", { class: "choices" }, list.slice(0, max).map((c, k) =>
    el("button", { class: c.type === "draft-pick" ? "cardpick" : "choice", "data-testid": `choice-${k}`, disabled: S.pending || !!S.counting, text: choiceText(c), onclick: () => decide(c) }))));
  if (list.length > max) box.append(el("p", { class: "muted", text: t("Click seats to narrow the choice.") }));
  return box;
}

function yourCard() {
  const V = S.view;
  if (!V.viewer) return null;
  const seat = V.seats.find((s) => s.name === V.viewer);
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  const before = last && !seat.card && (last.cards.find(([p]) => p === V.viewer) || [])[1];
  const card = (seat && seat.card) || before;
  const box = el("section", { class: "card yours", "data-testid": "your-card" }, el("h3", { text: before ? t("Your card last night") : t("Your card") }));
  if (V.hand) box.append(el("p", { class: "muted", text: t("Your hand: {cards}", { cards: V.hand.map((c) => role(c.role)).join(", ") }) }));
  if (!card) { box.append(el("p", { class: "muted", text: t("No card yet.") })); return box; }
  box.append(cardInfo(card));
  return box;
}

function cardInfo(card) {
  const r = card.role;
  const step = S.cat.initiative[r];
  const panel = S.cat.panel[r];
  const rows = panel ? Object.entries(panel).filter(([, e]) => e !== "nothing") : [];
  return el("div", { class: "cardinfo" },
    el("div", { class: "rolename", text: role(r) }),
    el("div", { class: "muted", text: `${word("editions", card.edition)} · ${word("genders", card.gender)} · ${word("classes", S.cat.role_class[r])}` }),
    el("dl", {},
      el("dt", { text: t("Initiative") }), el("dd", { text: step || t("none (never called)") }),
      el("dt", { text: t("Goal") }), el("dd", { text: S.cat.goals[r] }),
      el("dt", { text: t("Gesture") }), el("dd", { text: S.cat.gestures[r] })),
    rows.length ? el("details", { open: true }, el("summary", { text: t("Combat panel") }),
      el("ul", { class: "panel" }, rows.map(([target, e]) => el("li", {}, `${role(target)}: ${word("effects", e)}`)))) : null);
}

function narrationPanel() {
  const V = S.view;
  const box = el("section", { class: "card narration", "data-testid": "narration" });
  if (V.narration.length) {
    box.append(el("h3", { text: t("Tonight so far") }), el("ol", {}, V.narration.map((e) => el("li", { text: e.text }))));
    return box;
  }
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  if (!last) return null;
  box.append(el("h3", { text: t("Night {n}: what happened", { n: last.number }) }));
  // Told step by step at the Mayor's beat: one line per beat since the night ended.
  const key = last.number;
  if (S.narrated !== key) { S.narrated = key; S.narrateStart = Date.now(); setTimeout(stepNarration, 50); }
  const beat = Math.max(0.4, S.lobby.config.beat_s) * 1000;
  const shown = Math.min(last.events.length, 1 + Math.floor((Date.now() - S.narrateStart) / beat));
  box.append(el("ol", { "data-testid": "events" }, last.events.slice(0, shown).map((e) => el("li", { class: `ev ${e.event}`, text: `[${e.step}] ${e.text}` }))));
  const fates = last.fates.filter(([, f]) => f !== "alive").map(([p, f]) => `${p}: ${word("fates", f)}`);
  const marks = last.marks.filter(([, m]) => m.length).map(([p, m]) => `${p}: ${m.map((x) => word("marks", x)).join(", ")}`);
  if (shown >= last.events.length) {
    if (fates.length || marks.length) box.append(el("p", { class: "fates", text: fates.concat(marks).join(" · ") }));
    if (last.winners.length) box.append(el("p", { class: "win", text: t("Winners: {names}", { names: last.winners.join(", ") }) }));
  }
  return box;
}
function stepNarration() {
  const last = S.history[S.history.length - 1];
  if (!last) return;
  const beat = Math.max(0.4, S.lobby.config.beat_s) * 1000;
  if ((Date.now() - S.narrateStart) / beat < last.events.length + 1) { render(); setTimeout(stepNarration, beat); }
}

function journalPanel() {
  const V = S.view;
  const head = el("tr", {}, el("th", { text: t("Player") }), V.journal_roles.map((r) => el("th", { text: role(r) })), el("th", { text: t("XP") }));
  const rows = V.seats.map((s) => {
    const j = Object.fromEntries(s.journal);
    return el("tr", { class: V.winners.includes(s.name) ? "winner" : "" }, el("td", { text: s.name }),
      V.journal_roles.map((r) => el("td", { text: j[r] ? "●".repeat(j[r]) : "" })),
      el("td", { text: String(s.journal.reduce((a, [, x]) => a + x, 0)) }));
  });
  return el("section", { class: "card journals", "data-testid": "journals" }, el("h3", { text: t("Journals") }),
    el("div", { class: "scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
}

function endPanel() {
  const V = S.view;
  const box = el("section", { class: "card end", "data-testid": "victory" },
    el("h2", { text: t("Winners: {names}", { names: V.winners.join(", ") }) }));
  if (V.winners.length > 1) box.append(el("p", { class: "muted", text: t("A tie: the journals decide (total XP, then the number of roles).") }));
  box.append(el("h3", { text: t("Full reveal") }));
  for (const n of S.history) {
    box.append(el("details", {}, el("summary", { text: t("Night {n}", { n: n.number }) }),
      el("ul", {}, n.cards.map(([p, c]) => {
        const g = n.gestures.find(([q]) => q === p);
        return el("li", {}, `${p}: ${role(c.role)} (${word("editions", c.edition)}, ${word("genders", c.gender)}) — ${g ? gestureText(g[1], true) : ""} — ${word("fates", (n.fates.find(([q]) => q === p) || [0, ""])[1])}`);
      }))));
  }
  box.append(el("a", { class: "button", href: `/api/rooms/${S.code}/record`, download: `darkcity-${S.code}.json`, "data-testid": "record", text: t("Download the game record") }));
  return box;
}

function noticesPanel() {
  if (!S.notices.length) return null;
  return el("section", { class: "card notices" }, el("h3", { text: t("The Mayor says") }),
    el("ul", {}, S.notices.slice(-6).map((n) => el("li", { text: n }))));
}

main();
