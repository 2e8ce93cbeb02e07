// The home page: create a room, join one by its code, the table companion.
import { S, update } from "./store.js";
import { t, role, word, chooseLanguage } from "./i18n.js";
import { el } from "./dom.js";
import { post, tokenKey } from "./net.js";
import { installCard } from "./install.js";
import { versionFooter } from "../common/version.js";

function enter(r) {
  localStorage.setItem(tokenKey(r.code), r.token);
  location.href = `/r/${r.code}`;
}

export function langSwitch(after) {
  return el("select", { class: "lang", "aria-label": t("Language"), "data-testid": "lang",
    onchange: async (ev) => { await chooseLanguage(ev.target.value); if (after) after(); update(); } },
  el("option", { value: "en", text: "English", selected: S.lang === "en" }),
  el("option", { value: "pt_BR", text: "Português", selected: S.lang === "pt_BR" }));
}

function field(id, label, input) { input.id = id; return el("div", { class: "field" }, el("label", { for: id, text: label }), input); }

// The rooms this device holds a seat in (their tokens, kept by the seat links): a
// friend who closed the tab finds the game again from the home page. A room that is
// gone is forgotten; one that is over is not listed.
const TOKEN_KEY = /^darkcity:token:([A-Z0-9]+)$/;

function yourRooms() {
  const box = el("section", { class: "card", "data-testid": "your-rooms", "aria-labelledby": "rooms-h", hidden: true });
  const codes = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const m = TOKEN_KEY.exec(localStorage.key(i) || "");
    if (m) codes.push(m[1]);
  }
  (async () => {
    const rows = [];
    for (const code of codes.slice(0, 12)) {
      let r;
      try { r = await fetch(`/api/rooms/${encodeURIComponent(code)}`); } catch { continue; }
      if (r.status === 404) { localStorage.removeItem(tokenKey(code)); continue; }
      if (!r.ok) continue;
      const lobby = await r.json();
      if (lobby.status === "over") continue;
      const names = lobby.seats.filter((x) => x.kind === "human").map((x) => x.name);
      const bots = lobby.seats.filter((x) => x.kind === "bot").length;
      rows.push(el("li", {}, el("a", { href: `/r/${code}`, "data-testid": `your-room-${code}`, text: code }), " ",
        el("span", { class: "muted", text: [lobby.status === "lobby" ? t("Lobby") : t("In play"), names.join(", "),
          bots ? t("bots: {n}", { n: bots }) : ""].filter(Boolean).join(" · ") })));
    }
    if (!rows.length) return;
    box.append(el("h2", { id: "rooms-h", text: t("Your rooms on this device") }), el("ul", { class: "rooms" }, rows));
    box.hidden = false;
  })();
  return box;
}

// A game's deck as a set-up asks it (a room's here, a game on a phone's in the pocket
// app's play.js): the presets for the number of ``players``, or a custom cast from the
// box. ``into(body)`` writes the choice as the room's settings take it (deck or cards).
export function deckFields(players) {
  const select = el("select", { "data-testid": "deck" });
  const cast = el("fieldset", { class: "cast hidden", "data-testid": "custom-cast" },
    el("legend", { text: t("Custom cast") }),
    S.meta.box.map((k, i) => {
      const [r, ed, g] = k.split(":");
      return el("label", { class: "castcard", for: `cast-${i}` }, el("input", { type: "checkbox", value: k, id: `cast-${i}` }),
        ` ${role(r)} · ${word("editions", ed)} · ${word("genders", g)}`);
    }));
  function fill() {
    const n = Number(players.value), was = select.value;  // (kept while still offered)
    select.replaceChildren(...S.meta.presets.filter((p) => p.min <= n && n <= p.max)
      .map((p) => el("option", { value: p.name, text: word("presets", p.name) })),
    el("option", { value: "custom", text: t("Custom cast") }));
    if ([...select.options].some((o) => o.value === was)) select.value = was;
    cast.classList.toggle("hidden", select.value !== "custom");
  }
  fill();
  players.addEventListener("change", fill);
  select.addEventListener("change", () => cast.classList.toggle("hidden", select.value !== "custom"));
  return {
    select, cast,
    into(body) {
      if (select.value === "custom") body.cards = [...cast.querySelectorAll("input:checked")].map((i) => i.value);
      else body.deck = select.value;
    },
  };
}

export function homePage() {
  const players = el("input", { type: "number", min: 4, max: 8, value: 6, "data-testid": "players" });
  const deck = deckFields(players);
  const pace = el("select", { "data-testid": "pace" },
    Object.keys(S.meta.paces).map((k) => el("option", { value: k, text: word("paces", k), selected: k === "normal" })));
  const level = el("select", { "data-testid": "timeout-level" },
    S.meta.levels.map((k) => el("option", { value: k, text: word("levels", k), selected: k === "medium" })));
  // how the chosen level plays (bots/levels.py), said under it
  const levelLine = el("p", { class: "muted", "data-testid": "level-line", text: word("level_lines", "medium") });
  level.addEventListener("change", () => { levelLine.textContent = word("level_lines", level.value); });
  const lang = el("select", {},
    el("option", { value: "en", text: "English", selected: S.lang === "en" }),
    el("option", { value: "pt_BR", text: "Português", selected: S.lang === "pt_BR" }));
  const name = el("input", { maxlength: 24, required: true, "data-testid": "name", autocomplete: "nickname" });
  const create = el("form", { class: "card", "data-testid": "create-form", "aria-labelledby": "create-h", onsubmit: async (ev) => {
    ev.preventDefault();
    const body = { name: name.value, players: Number(players.value), pace: pace.value, lang: lang.value, timeout_level: level.value };
    deck.into(body);
    const r = await post("/api/rooms", body);
    if (r) enter(r);
  } },
  el("h2", { id: "create-h", text: t("Create a room") }),
  field("name", t("Your name"), name), field("players", t("Players"), players), field("deck", t("Deck"), deck.select), deck.cast,
  field("pace", t("Pace"), pace), field("room-lang", t("Language"), lang),
  field("level", t("A player who runs out of time is played by a bot of level"), level), levelLine,
  el("button", { type: "submit", "data-testid": "create", text: t("Create room") }));
  const code = el("input", { maxlength: 12, "data-testid": "join-code", autocomplete: "off" });
  const jname = el("input", { maxlength: 24, "data-testid": "join-name", autocomplete: "nickname" });
  const join = el("form", { class: "card", "aria-labelledby": "join-h", onsubmit: async (ev) => {
    ev.preventDefault();
    const c = code.value.trim().toUpperCase();
    const r = await post(`/api/rooms/${encodeURIComponent(c)}/join`, { name: jname.value });
    if (r) enter(r);
  } },
  el("h2", { id: "join-h", text: t("Join a room") }),
  field("code", t("Room code"), code), field("join-name", t("Your name"), jname),
  el("div", { class: "row" },
    el("button", { type: "submit", "data-testid": "join", text: t("Join") }),
    el("button", { type: "button", class: "secondary", text: t("Watch"),
      onclick: () => { location.href = `/r/${encodeURIComponent(code.value.trim().toUpperCase())}`; } })));
  return el("main", { class: "home" },
    el("header", { class: "hero" }, el("h1", { text: "Dark City" }),
      el("p", { text: t("Friends at a virtual table; the app is the Mayor.") }),
      el("div", { class: "row wrap" }, langSwitch(),
        el("a", { href: "/table", class: "button secondary", "data-testid": "companion-link", text: t("Table companion") }),
        el("a", { href: "/replay", class: "button secondary", "data-testid": "review-home", text: t("Open a game record") }),
        el("span", { class: "muted", text: t("Playing with real cards? The companion counts and narrates for your table.") }))),
    installCard(), yourRooms(), el("div", { class: "forms" }, create, join),
    versionFooter(S.meta, t("What each version changed")));
}

export function notFoundPage() {
  return el("main", { class: "home" }, el("header", { class: "hero" }, el("h1", { text: "Dark City" })),
    el("section", { class: "card", "data-testid": "not-found" }, el("h2", { text: t("There is nothing at this address.") }),
      el("a", { class: "button", href: "/", text: t("Back to the home page") })));
}
