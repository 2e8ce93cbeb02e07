// The pocket app's play page (issue #30): a game against bots on this phone, offline,
// with no server. The page is the online table's own (static/js/: the same screens, the
// same words, the same render loop); its room is the server's room run in the Web
// Worker (worker.js, darkcity.pocket.play), reached through a local transport in place
// of the socket. Every decision is in IndexedDB before the page hears of it, so a reload
// or a closed app goes on where it stopped. Without a game in the address (#CODE) the
// page sets one up and lists the games kept on this phone.
import { S, update } from "./static/js/store.js";
import { t, word, firstLanguage, loadLang } from "./static/js/i18n.js";
import { el, toast } from "./static/js/dom.js";
import { places } from "./static/js/places.js";
import { connect, useLocal } from "./static/js/net.js";
import { startClock } from "./static/js/clock.js";
import { drawPages, helpKey } from "./static/js/page.js";
import { deckFields, langSwitch } from "./static/js/home.js";
import { offerUpdates } from "./shell.js";
import { versionFooter } from "./static/common/version.js";
import { download, listen, onThisPhone, rpc } from "./engine.js";

let listener = null;  // the game this page shows: { code, onMessage }

const NAME_KEY = "darkcity:play:name";
const GONE_KEY = "darkcity:play:gone";  // a game's address that named none on this phone
const PERSIST_KEY = "darkcity:play:may-clear";  // the browser refused persistent storage

// -- the transport the online table's page talks to in place of its socket -----------
// One game has one writer (worker.js): a game open in another tab (or the home-screen
// app beside a browser tab) is said as the online table says a seat opened in another
// window, with its "Play in this window": then this tab takes it over, and the other
// one stops and says so.
let takeOver = false;

function refused(e, onMessage) {
  if (e.code === "elsewhere" || e.code === "taken") {
    takeOver = true;  // ("Play in this window" opens it again, taking it over)
    onMessage({ type: "error", code: "replaced", message: e.code === "taken"
      ? t("This game was opened in another tab or window: it goes on there. Play it here instead, and that one stops.")
      : t("This game is open in another tab or window. Play it here instead, and that one stops.") });
  } else if (e.code === "no-room") {
    // no game of that code on this phone (deleted, or kept by another browser): the
    // games that are here, and why
    sessionStorage.setItem(GONE_KEY, S.code || "");
    location.replace(location.pathname);
  } else {
    onMessage({ type: "error", code: e.code, message: e.message });
  }
}

const transport = {
  readyState: 3,
  open({ code, lang, onMessage }) {
    const guarded = (m) => (m.type === "error" && ["taken", "elsewhere", "no-room"].includes(m.code) ? refused(m, onMessage) : onMessage(m));
    listener = { code, onMessage: guarded };
    listen(listener);
    this.readyState = 1;  // (the worker answers in order: what is sent now waits its turn)
    const steal = takeOver;
    takeOver = false;
    rpc("playOpen", { code, lang, steal }).catch((e) => refused(e, onMessage));
  },
  send(text) {
    const l = listener;
    rpc("playSend", { code: l.code, message: JSON.parse(text) }).catch((e) => l.onMessage({ type: "error", code: e.code, message: e.message }));
  },
  close() { this.readyState = 3; listener = null; listen(null); },
};

const saveRecord = (code) => rpc("playRecord", { code })
  .then((doc) => download(doc, `darkcity-${code}.json`), (e) => toast(e.message, "error"));

// Where the online table's page finds what lies outside it: here, this phone.
onThisPhone();
Object.assign(places, {
  record: (code) => ({ href: "#", onclick: (ev) => { ev.preventDefault(); saveRecord(code); } }),
  again: async (code) => {
    try { return (await rpc("playAgain", { code })).code; } catch (e) { toast(e.message, "error"); return null; }
  },
  follow: (code) => `play.html#${encodeURIComponent(code)}`,
});
useLocal(transport);

// -- the page without a game: a new one, and the games kept on this phone -------------
function field(id, label, input) {
  input.id = id;
  return el("div", { class: "field" }, el("label", { for: id, text: label }), input);
}

// The games are kept on this phone only: persistent storage is asked for once, at the
// first game; a browser that refuses is said on the list of games (where it covers
// nothing), with what to do, never over a game.
async function persist() {
  if (!(navigator.storage && navigator.storage.persist)) return;
  if (await navigator.storage.persisted().catch(() => false)) return;
  const kept = await navigator.storage.persist().catch(() => false);
  if (kept) localStorage.removeItem(PERSIST_KEY); else localStorage.setItem(PERSIST_KEY, "1");
}

function setUp() {
  const name = el("input", { maxlength: 24, required: true, "data-testid": "name", autocomplete: "nickname",
    value: localStorage.getItem(NAME_KEY) || "" });
  const players = el("input", { type: "number", min: 4, max: 8, value: 6, "data-testid": "players" });
  // more people on this phone: it is passed from hand to hand (the others are bots)
  const others = el("div", { class: "others", "data-testid": "others" });
  const morePeople = el("button", { type: "button", class: "secondary small", "data-testid": "add-person",
    text: t("Another person on this phone"), onclick: () => {
      if (others.children.length + 1 >= Number(players.value)) return;
      const i = others.children.length + 1;
      const input = el("input", { maxlength: 24, required: true, "data-testid": `name-${i}`, "aria-label": t("Name of player {n}", { n: i + 1 }) });
      const row = el("div", { class: "row" }, input, el("button", { type: "button", class: "secondary small",
        "aria-label": t("Remove"), text: "✕", onclick: () => { row.remove(); } }));
      others.append(row);
      input.focus();
    } });
  const deck = deckFields(players);
  const level = el("select", { "data-testid": "level" },
    S.meta.levels.map((k) => el("option", { value: k, text: word("levels", k), selected: k === "medium" })));
  const levelLine = el("p", { class: "muted", text: word("level_lines", "medium") });  // how it plays
  level.addEventListener("change", () => { levelLine.textContent = word("level_lines", level.value); });
  const pace = el("select", { "data-testid": "pace" },
    Object.keys(S.meta.paces).map((k) => el("option", { value: k, text: word("paces", k), selected: k === "normal" })));
  const error = el("p", { class: "error", role: "alert", "data-testid": "play-error" });
  const start = el("button", { type: "submit", "data-testid": "create", text: t("Start the game") });
  return el("form", { class: "card", "data-testid": "create-form", "aria-labelledby": "create-h", onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const names = [name.value, ...[...others.querySelectorAll("input")].map((i) => i.value)];
    const body = { players: Number(players.value), level: level.value, pace: pace.value };
    if (names.length > 1) body.names = names; else body.name = name.value;
    deck.into(body);
    start.disabled = true;
    try {
      const r = await rpc("playCreate", { body });
      localStorage.setItem(NAME_KEY, name.value);
      persist();
      location.hash = r.code;  // (hashchange: the game opens on this page; a link to it
      // says play.html#CODE: the page's <base> is the site)
    } catch (e) {
      error.textContent = e.message;  // what is wrong, said by the room's own checks
    } finally {
      start.disabled = false;
    }
  } },
  el("h2", { id: "create-h", text: t("Play against bots") }),
  field("name", t("Your name"), name), others, morePeople,
  el("p", { class: "muted", text: t("Friends beside you? Add them: the phone is passed from hand to hand, and each sees only their own cards.") }),
  field("players", t("Players"), players), field("deck", t("Deck"), deck.select), deck.cast,
  field("level", t("Bots' level"), level), levelLine, field("pace", t("Pace"), pace), error, start);
}

const STATUS = { lobby: () => t("Lobby"), playing: () => t("In play"), over: () => t("The game is over") };

// One saved game, as a person looks for theirs: who plays (the people, the bots and
// their level), which night, who leads or who won; the record only where there is one.
function gameRow(g, box) {
  const s = g.summary || {};
  const people = s.people || [];
  const bots = s.bots || [];
  const levels = [...new Set(bots.map((b) => b.level))].map((k) => word("levels", k));
  const who = [people.join(", "), bots.length ? t("{n} bots ({levels})", { n: bots.length, levels: levels.join(", ") }) : ""].filter(Boolean).join(" + ");
  const where = g.status === "over" ? (s.leaders && s.leaders.length ? t("Won by {names}", { names: s.leaders.join(", ") }) : t("The game is over"))
    : s.night ? [t("Night {n}", { n: s.night }), s.leaders && s.leaders.length ? t(s.leaders.length === 1 ? "{names} leads with {xp} XP" : "{names} lead with {xp} XP", { names: s.leaders.join(", "), xp: s.xp }) : ""].filter(Boolean).join(" · ")
      : (STATUS[g.status] || (() => g.status))();
  return el("li", { "data-testid": `game-${g.code}` },
    el("div", { class: "who" },
      el("strong", { "data-testid": `who-${g.code}`, text: who || g.code }),
      el("span", { class: "muted", "data-testid": `where-${g.code}`, text: [where, new Date(g.updated).toLocaleString(S.lang === "pt_BR" ? "pt-BR" : "en", { dateStyle: "short", timeStyle: "short" })].join(" · ") }),
      g.damaged ? el("span", { class: "muted", text: t("Its save was damaged: it goes on from its last consistent move.") }) : null),
    el("div", { class: "row wrap" },
      el("a", { class: "button small", href: `play.html#${g.code}`, "data-testid": `resume-${g.code}`,
        text: g.status === "over" ? t("See the end") : t("Resume") }),
      s.record ? el("a", { class: "button secondary small", href: "#", "data-testid": `record-${g.code}`, text: t("Download the game record"),
        onclick: (ev) => { ev.preventDefault(); saveRecord(g.code); } }) : null,
      el("button", { type: "button", class: "secondary small", "data-testid": `delete-${g.code}`, text: t("Delete"),
        onclick: async () => {
          if (!confirm(s.record ? t("Delete this game from this phone? It cannot be undone: download its record first to keep it.")
            : t("Delete this game from this phone? It cannot be undone."))) return;
          try { await rpc("playDelete", { code: g.code }); } catch (e) { toast(e.message, "error"); }
          box.replaceWith(savedGames());
        } })));
}

function savedGames() {
  const box = el("section", { class: "card", "data-testid": "games", "aria-labelledby": "games-h" },
    el("h2", { id: "games-h", text: t("Your games on this phone") }));
  const gone = sessionStorage.getItem(GONE_KEY);
  if (gone !== null) {
    sessionStorage.removeItem(GONE_KEY);
    box.append(el("p", { class: "error", role: "alert", "data-testid": "no-such-game",
      text: t("There is no game {code} on this phone: it was deleted, or it is kept by another browser (each browser keeps its own games). Here are the ones on this phone.", { code: gone || "?" }) }));
  }
  if (localStorage.getItem(PERSIST_KEY)) {
    box.append(el("p", { class: "muted", "data-testid": "may-clear",
      text: t("This browser may delete these games if the phone runs short of space. To keep one for good, download its record once it is over; installing the app to the home screen makes the browser keep them.") }));
  }
  const list = el("p", { class: "muted", text: "…" });
  box.append(list);
  const fill = async () => {
    let games;
    try { games = await rpc("playList", {}); } catch (e) { list.textContent = e.message; return; }
    if (!games.length) { list.textContent = t("No game yet: set one up below."); return; }
    list.replaceWith(el("ul", { class: "games" }, games.map((g) => gameRow(g, box))));
  };
  fill();
  return box;
}

function home() {
  return el("main", { class: "home" },
    el("header", { class: "hero" }, el("h1", { text: "Dark City" }),
      el("p", { text: t("On this phone: the app is the Mayor, bots fill the other seats, and nothing leaves the phone.") }),
      el("div", { class: "row wrap" }, langSwitch(),
        el("a", { href: "./", class: "button secondary", "data-testid": "companion-link", text: t("Table companion") }),
        el("a", { href: "replay.html", class: "button secondary", "data-testid": "review-home", text: t("Open a game record") }),
        el("span", { class: "muted", text: t("Playing with real cards? The companion counts and narrates for your table.") }))),
    savedGames(), el("div", { class: "forms" }, setUp()), versionFooter(S.meta));
}

// -- a phone passed from hand to hand -------------------------------------------------
// Two people or more on one phone: the page is the table as everyone sees it (the
// room's spectator view: the count, the reveal, the story), and before each private
// moment (a draft hand, a sealed gesture, a withdrawal, Death's name) a hand-over
// screen that shows nothing until the named person taps; once they have decided it
// hides again. While it is up nothing of the room is on the page (js/page.js). A night
// just told is the whole table's: its story is shown to everyone, and the phone is
// handed on only when they tap that they have read it.
const PASS = { showing: null, name: null, at: null, switching: false, done: null };

function people() {
  return S.lobby ? S.lobby.seats.filter((x) => x && x.kind === "human" && x.member !== null && x.member !== undefined) : [];
}

function freshPage() {  // what the page held of the last reader is not the next one's
  S.chose = null; S.pending = false; S.back = null; S.history = []; S.fresh = true;
}

async function showTo(person) {
  update(() => { PASS.switching = true; PASS.done = null; freshPage(); });
  try {
    await rpc("playView", { code: S.code, member: person.member });
    PASS.showing = person.member; PASS.name = person.name; PASS.at = S.view ? S.view.decision_id : null;
  } catch (e) { toast(e.message, "error"); }
  update(() => { PASS.switching = false; });
}

async function hideAgain() {
  PASS.switching = true; PASS.done = PASS.name; PASS.showing = null; PASS.name = null;
  freshPage();
  try { await rpc("playView", { code: S.code, member: null }); } catch (e) { toast(e.message, "error"); }
  update(() => { PASS.switching = false; });
}

function handOver(person) {
  const box = el("main", { class: "card handover", "data-testid": "handover", "aria-labelledby": "handover-h" });
  if (PASS.done) box.append(el("p", { class: "muted", "data-testid": "handover-done", text: t("{name} is done.", { name: PASS.done }) }));
  if (!person) {
    box.append(el("h2", { id: "handover-h", text: t("Hand the phone on") }));
    return box;
  }
  box.append(el("h2", { id: "handover-h", text: t("{name}'s turn", { name: person.name }) }),
    el("p", { text: t("Pass the phone to {name}. {name}: tap when only you can see the screen.", { name: person.name }) }),
    el("button", { type: "button", "data-testid": "handover-show", text: t("I am {name}: show me", { name: person.name }),
      onclick: () => showTo(person) }));
  return box;
}

// The last night the whole table has read (kept per game: a reload does not tell it
// again, nor skip it).
const toldKey = () => `darkcity:play:told:${S.code}`;
const toldNight = () => Number(localStorage.getItem(toldKey()) || 0);
const newestNight = () => (S.history.length ? S.history[S.history.length - 1].number : 0);

// Under the table's screen while a night's story waits to be read together: what to do,
// and the tap that hands the phone on (outside the page's render: it covers nothing).
function handOnBar(night) {
  const bar = document.getElementById("handon");
  if (!bar) return;
  if (!night) { bar.replaceChildren(); bar.classList.add("hidden"); document.body.classList.remove("reading"); return; }
  if (bar.dataset.night === String(night) && !bar.classList.contains("hidden")) return;
  bar.dataset.night = String(night);
  bar.replaceChildren(
    el("span", { text: t("Night {n} is over: read what happened together, then hand the phone on.", { n: night }) }),
    el("button", { type: "button", "data-testid": "hand-on", text: t("We have read it: hand the phone on"),
      onclick: () => { localStorage.setItem(toldKey(), String(night)); update(); } }));
  bar.classList.remove("hidden");
  document.body.classList.add("reading");
  // the story, not the table's circle, is what everyone reads first
  setTimeout(() => { const story = document.querySelector("[data-testid=narration]"); if (story) story.scrollIntoView({ block: "start" }); }, 0);
}

function cover() {
  if (S.fatal || !S.view || people().length < 2) { handOnBar(null); return null; }
  if (PASS.switching) { handOnBar(null); return handOver(null); }
  if (PASS.showing !== null) {
    handOnBar(null);
    const V = S.view;
    if (V.decision_id === PASS.at && (V.pending || []).includes(PASS.name)) return null;  // their question
    hideAgain();  // decided: nothing of theirs stays on the page
    return handOver(null);
  }
  // the table as everyone sees it: a night just told is read together first
  const night = newestNight();
  if (night > toldNight()) {
    if (S.view.phase === "over") localStorage.setItem(toldKey(), String(night));  // (nobody to hand on to)
    else { handOnBar(night); return null; }
  }
  handOnBar(null);
  const next = people().find((x) => (S.view.pending || []).includes(x.name));
  return next ? handOver(next) : null;
}

// -- the address: #CODE is a game on this phone ---------------------------------------
const fromHash = () => decodeURIComponent(location.hash.slice(1)).trim().toUpperCase() || null;

function openGame(code) {
  update(() => { S.code = code; });
  connect();
}

window.addEventListener("hashchange", () => {
  const code = fromHash();
  if (code && !S.code) { openGame(code); return; }  // a game set up or chosen here
  if (code !== S.code) location.reload();  // another game, or back to the list: anew
});

async function main() {
  offerUpdates(t);
  S.meta = await places.meta();
  await loadLang(firstLanguage(null));
  drawPages(home, cover);
  helpKey();
  const code = fromHash();
  if (code) openGame(code);
  update();
  startClock();
}

main();
