// Set-up: the players in clockwise order (drag, or the arrows, to reorder), the deck
// (a preset or the cards), each player's free XP; the server checks the deck with the
// same rules and words as an online game.
import { el, button } from "./dom.js";
import { t, role, cardLabel } from "./i18n.js";
import { api } from "./api.js";
import { versionFooter } from "../common/version.js";

const DEFAULT_NAMES = ["", "", "", "", "", ""];
let typing = null;  // the deck checked again once a name's typing pauses
let asked = null;  // the set-up of the check in flight, as sent
let starting = false;  // "Start the game" pressed and not answered yet

export function loadSetup() {
  try {
    const saved = JSON.parse(localStorage.getItem("darkcity:table:setup") || "null");
    if (saved && Array.isArray(saved.players)) return { ...saved, check: null, startError: null };
  } catch (e) { /* a fresh set-up */ }
  return { players: DEFAULT_NAMES.slice(), deck: "basic", custom: false, cards: [], free: {} };
}

function saveSetup(s) {
  localStorage.setItem("darkcity:table:setup", JSON.stringify(s));
}

function names(s) {
  return s.players.map((p) => p.trim()).filter((p) => p);
}

function checkBody(s) {
  return { players: names(s), ...(s.custom ? { cards: s.cards } : { deck: s.deck }) };
}

// The deck checked for the set-up as it stands. Names typed one after another sent a
// check for each; an answer for five names that came after the one for six put "not a
// deck for 5 players" on a full table, and no free XP came. An answer is kept only for
// the set-up it was asked about, and one set-up is asked about once at a time.
function checkDeck(S) {
  const s = S.setup;
  const key = JSON.stringify(checkBody(s));
  if (asked === key) return;
  asked = key;
  const settle = (check) => {
    if (asked !== key) return;  // a later set-up was asked about since
    asked = null;
    if (S.setup === s && JSON.stringify(checkBody(s)) === key) s.check = check;
    S.render();
  };
  api.check(JSON.parse(key)).then((r) => settle({ ok: true, ...r }))
    .catch((e) => settle({ ok: false, error: e.message }));
}

export function setupPage(S) {
  const s = S.setup;
  const players = names(s);
  const wrap = el("section", { "data-testid": "panel-setup" });
  const refresh = () => { saveSetup(s); S.render(); };
  // the seats
  const list = el("div", { "data-testid": "seats" });
  s.players.forEach((name, i) => {
    const input = el("input", { value: name, placeholder: t("Player {n}", { n: i + 1 }),
      "aria-label": t("Player {n}", { n: i + 1 }), "data-testid": `seat-${i}`, maxlength: 24 });
    // typing is kept at once (a re-render never loses it); the deck is checked on change,
    // drawn once the focus is where the Mayor tapped or tabbed (it is nowhere while the
    // field left says it changed; main.js keeps the field then typed in)
    // and, a moment after the typing stops, for the names so far: the sixth name typed
    // brings the free XP rows without leaving its field
    input.addEventListener("input", () => {
      s.players[i] = input.value;
      saveSetup(s);
      clearTimeout(typing);
      typing = setTimeout(() => { s.check = null; S.render(); }, 600);
    });
    input.addEventListener("change", () => {
      s.players[i] = input.value;
      s.check = null;
      saveSetup(s);
      clearTimeout(typing);
      setTimeout(() => S.render(), 0);
    });
    // the first row has none (it did nothing): its place kept, the rows' fields aligned
    const up = i > 0 ? button("↑", () => { [s.players[i - 1], s.players[i]] = [s.players[i], s.players[i - 1]]; refresh(); },
      { class: "small", "aria-label": t("Move up"), "data-testid": `up-${i}` }) : el("span", { class: "noup" });
    const del = button("✕", () => { s.players.splice(i, 1); s.check = null; refresh(); },
      { class: "small", "aria-label": t("Remove"), "data-testid": `del-${i}` });
    const row = el("div", { class: "seat", draggable: "true", "data-index": i },
      el("span", { class: "n", text: String(i + 1) }), input, up, del);
    row.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", String(i)); row.classList.add("dragging"); });
    row.addEventListener("dragover", (ev) => ev.preventDefault());
    row.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const from = Number(ev.dataTransfer.getData("text/plain"));
      const [moved] = s.players.splice(from, 1);
      s.players.splice(i, 0, moved);
      refresh();
    });
    list.append(row);
  });
  wrap.append(el("div", { class: "panel" },
    el("h2", { text: t("Players, clockwise") }),
    el("p", { class: "dim", text: t("The first player is the Mayor, the first active player. Each player's left neighbour is the next one.") }),
    list,
    s.players.length < 8 ? button(t("Add a player"), () => { s.players.push(""); refresh(); }, { "data-testid": "add-player" }) : null));
  // the deck
  // the decks for as many players as there are rows (names not typed yet included)
  const seats = Math.max(players.length, s.players.length);
  const presets = S.meta.presets.filter((p) => p.min <= seats && seats <= p.max);
  // the deck is the one the list shows: a row added (7 seats) left a 6-player deck
  // chosen that the list no longer offered, and the game started with it
  if (!s.custom && presets.length && !presets.some((p) => p.name === s.deck)) {
    s.deck = presets[0].name;
    s.check = null;
    saveSetup(s);
  }
  const select = el("select", { "data-testid": "deck", "aria-label": t("Deck") },
    presets.map((p) => el("option", { value: p.name, selected: p.name === s.deck && !s.custom ? true : null }, p.title || p.name)),
    el("option", { value: "", selected: s.custom ? true : null }, t("Custom cards")));
  select.addEventListener("change", () => {
    s.custom = select.value === "";
    if (!s.custom) s.deck = select.value;
    s.check = null;
    refresh();
  });
  const chosen = presets.find((p) => p.name === s.deck);
  const deckPanel = el("div", { class: "panel" }, el("h2", { text: t("Deck") }), select,
    !s.custom && chosen ? el("p", { class: "dim", "data-testid": "deck-about", text: chosen.about }) : null);
  if (s.custom) {
    // the box in three groups, as a Mayor sorts the physical cards: the basic main cast,
    // the advanced, the special cast; in each, a card by its role and gender (the
    // edition was in every label, and an advanced card took three lines at 375 px)
    const groups = [[t("Basic cards"), (c) => !c.special && c.edition === "basic"],
      [t("Advanced cards"), (c) => !c.special && c.edition === "advanced"],
      [t("Special cast"), (c) => c.special]];
    const box = el("div", { "data-testid": "custom-cards" });
    for (const [title, keep] of groups) {
      const grid = el("div", { class: "grid" });
      for (const c of S.meta.box.filter(keep)) {
        const on = s.cards.includes(c.key);
        grid.append(button(cardLabel({ ...c, edition: "basic" }), () => {
          s.cards = on ? s.cards.filter((k) => k !== c.key) : [...s.cards, c.key];
          s.check = null;
          refresh();
        }, { class: "small", "aria-pressed": on ? "true" : "false", "data-testid": `card-${c.key}` }));
      }
      box.append(el("h3", { class: "group", text: title }), grid);
    }
    deckPanel.append(el("p", { class: "dim", "data-testid": "cards-chosen",
      text: s.cards.length === 1 ? t("1 card chosen") : t("{n} cards chosen", { n: s.cards.length }) }), box);
  }
  wrap.append(deckPanel);
  // the deck check, then the free XP rows of its sheet
  if (!s.check && players.length) checkDeck(S);
  if (s.check && !s.check.ok) {
    // names still being typed (a row left empty) are not a mistake: the deck's rule is
    // said quietly, in the deck's own title, until every row has a name
    const typing = players.length < s.players.length;
    // a deck of cards one by one is short of the rule until its last card: it says how
    // many it needs, in amber, not as a mistake in red from the first card tapped
    const building = !typing && s.custom;
    wrap.append(el("p", typing || building
      ? { class: building ? "warn" : "dim", "data-testid": "setup-hint", text: s.check.error }
      : { class: "error", role: "alert", "data-testid": "setup-error", text: s.check.error }));
  }
  if (s.check && s.check.ok) {
    for (const w of s.check.warnings) wrap.append(el("p", { class: "warn", text: w }));
    const sheet = s.check.sheet;
    const free = el("div", { class: "panel" }, el("h2", { text: t("Free XP") }),
      el("p", { class: "dim", text: t("Each player writes one XP in a row of their journal.") }));
    players.forEach((p, i) => {
      const sel = el("select", { "data-testid": `free-${i}`, "aria-label": t("Free XP of {player}", { player: p }) },
        el("option", { value: "" }, "—"),
        sheet.map((r) => el("option", { value: r, selected: s.free[p] === r ? true : null }, role(r))));
      sel.addEventListener("change", () => { s.free[p] = sel.value; saveSetup(s); S.render(); });
      free.append(el("label", { class: "seat" }, el("span", { class: "n", text: String(i + 1) }), el("span", { text: p }), sel));
    });
    wrap.append(free);
  }
  const missing = players.filter((p) => !s.free[p]);
  const body = { ...checkBody(s), lang: S.lang,
    free_xp: Object.fromEntries(players.map((p) => [p, s.free[p] || ""])) };
  const key = JSON.stringify(body);
  // one table per tap: a second tap while the first is answered (a slow phone) started
  // nothing more; a refusal stays said until the set-up it was about changes (a re-draw
  // for anything else took it away before it could be read)
  const start = button(starting ? t("Starting…") : t("Start the game"), async () => {
    if (starting) return;
    starting = true;
    s.startError = null;
    S.render();
    try {
      const r = await api.create(body);
      starting = false;
      localStorage.setItem(`darkcity:table:${r.code}`, r.token);
      history.pushState(null, "", api.tablePath(r.code));
      S.start(r.code, r.token);
    } catch (e) {
      starting = false;
      s.startError = { key, message: e.message };
      S.render();
    }
  }, { class: "primary", "data-testid": "start",
    disabled: starting || !(s.check && s.check.ok) || missing.length ? true : null });
  const refused = s.startError && s.startError.key === key ? s.startError.message : null;
  if (refused) wrap.append(el("p", { class: "error", role: "alert", "data-testid": "start-error", text: refused }));
  // every player writes a free XP before the first night: said, not refused with a field's name
  if (s.check && s.check.ok && missing.length) {
    wrap.append(el("p", { class: "warn", "data-testid": "free-missing", text: t("Choose the free XP of {names}.", { names: missing.join(", ") }) }));
  }
  // the spoken calls, chosen before the first night too (a phone lying on the table
  // runs the night): the same setting as the count's screen, kept on this device
  const calls = S.prefs.calls;
  wrap.append(el("div", { class: "panel", "data-testid": "setup-calls" },
    el("h2", { text: t("Spoken calls") }),
    el("p", { class: "dim", text: t("Spoken calls: each call is said aloud, with a pause to turn the card over; a call that asks nothing goes on by itself.") }),
    button(t("Spoken calls"), () => {
      S.prefs.calls = !S.prefs.calls;
      localStorage.setItem("darkcity:table:prefs", JSON.stringify(S.prefs));
      S.render();
    }, { "aria-pressed": calls ? "true" : "false", "data-testid": "setup-pref-calls" })));
  wrap.append(start);
  const version = versionFooter(S.meta);
  if (version) wrap.append(version);
  return wrap;
}
