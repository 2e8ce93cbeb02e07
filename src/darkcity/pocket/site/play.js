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
import { download, listen, onThisPhone, rpc } from "./engine.js";

let listener = null;  // the game this page shows: { code, onMessage }

const NAME_KEY = "darkcity:play:name";

// -- the transport the online table's page talks to in place of its socket -----------
const transport = {
  readyState: 3,
  open({ code, lang, onMessage }) {
    listener = { code, onMessage };
    listen(listener);
    this.readyState = 1;  // (the worker answers in order: what is sent now waits its turn)
    rpc("playOpen", { code, lang }).catch((e) => onMessage({ type: "error", code: e.code, message: e.message }));
  },
  send(text) {
    const l = listener;
    rpc("playSend", { code: l.code, message: JSON.parse(text) })
      .catch((e) => l.onMessage({ type: "error", code: e.code, message: e.message }));
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

let asked = false;
async function persist() {
  // the games are kept on this phone only: asked once, said plainly when refused
  if (asked || !(navigator.storage && navigator.storage.persist)) return;
  asked = true;
  if (!(await navigator.storage.persist().catch(() => false))) {
    toast(t("This browser may clear saved games when space runs short: download the game record to keep a copy."), "notice");
  }
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

function savedGames() {
  const box = el("section", { class: "card", "data-testid": "games", "aria-labelledby": "games-h" },
    el("h2", { id: "games-h", text: t("Your games on this phone") }),
    el("p", { class: "muted", text: "…" }));
  const fill = async () => {
    let games;
    try { games = await rpc("playList", {}); } catch (e) { box.lastChild.textContent = e.message; return; }
    if (!games.length) { box.lastChild.textContent = t("No game yet: set one up below."); return; }
    box.lastChild.replaceWith(el("ul", { class: "games" }, games.map((g) => el("li", { "data-testid": `game-${g.code}` },
      el("a", { class: "button small", href: `play.html#${g.code}`, "data-testid": `resume-${g.code}`,
        text: g.status === "over" ? t("See the end") : t("Resume") }),
      el("span", { text: [g.names.join(", "), g.bots ? t("bots: {n}", { n: g.bots }) : "",
        (STATUS[g.status] || (() => g.status))()].filter(Boolean).join(" · ") }),
      el("span", { class: "muted", text: new Date(g.updated).toLocaleString(S.lang === "pt_BR" ? "pt-BR" : "en") }),
      el("a", { class: "button secondary small", href: "#", "data-testid": `record-${g.code}`, text: t("Download the game record"),
        onclick: (ev) => { ev.preventDefault(); saveRecord(g.code); } }),
      el("button", { type: "button", class: "secondary small", "data-testid": `delete-${g.code}`, text: t("Delete"),
        onclick: async () => {
          if (!confirm(t("Delete this game from this phone? It cannot be undone: download its record first to keep it."))) return;
          try { await rpc("playDelete", { code: g.code }); } catch (e) { toast(e.message, "error"); }
          box.replaceWith(savedGames());
        } })))));
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
    savedGames(), el("div", { class: "forms" }, setUp()));
}

// -- a phone passed from hand to hand -------------------------------------------------
// Two people or more on one phone: the page is the table as everyone sees it (the
// room's spectator view: the count, the reveal, the story), and before each private
// moment (a draft hand, a sealed gesture, a withdrawal, Death's name) a hand-over
// screen that shows nothing until the named person taps; once they have decided it
// hides again. While it is up nothing of the room is on the page (js/page.js).
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

function cover() {
  if (S.fatal || !S.view || people().length < 2) return null;
  if (PASS.switching) return handOver(null);
  if (PASS.showing !== null) {
    const V = S.view;
    if (V.decision_id === PASS.at && (V.pending || []).includes(PASS.name)) return null;  // their question
    hideAgain();  // decided: nothing of theirs stays on the page
    return handOver(null);
  }
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
