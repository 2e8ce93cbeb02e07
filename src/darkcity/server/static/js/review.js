// A game record stepped through night by night (issue #30), the way a chess site opens
// a PGN: each night's reveal with its arrows, its story and the journals as they were
// once it was told, from any player's seat or everyone's, forwards and back. The engine
// computes each step (darkcity.review.step: the server's POST /api/replay, or the
// pocket app's worker); this page draws it with the online table's own panels.
import { S, subscribe, update } from "./store.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { places } from "./places.js";
import { gameCircle } from "./table.js";
import { revealNow, whoWhom } from "./reveal.js";
import { nightDetails } from "./story.js";
import { journalPanel } from "./journals.js";
import { langSwitch } from "./home.js";
import { howWon } from "./won.js";

// What is open: the record, its name, the step shown and from whose seat.
const R = { doc: null, name: "", step: null, night: 0, want: 0, viewer: null, busy: false, error: null };
let stepOf = null;  // (doc, night, viewer) => Promise<step>: the engine's step

const nightsOf = (doc) => (doc && Array.isArray(doc.nights) ? doc.nights.length : 0);

// A step as the table's panels read the state: its view (nothing left to decide), its
// finished nights, its seats, the story told whole.
function show(st) {
  const V = st.view;
  S.view = { ...V, choices: [], pending: [], required: [], seats: V.seats.map((s) => ({ ...s, decided: null })) };
  S.history = V.history;
  S.lobby = { seats: st.players.map((name) => ({ name, kind: "human", online: true, member: null })), config: { beat_s: 0 }, host: null };
  S.story = { night: st.night, start: 0, shown: Infinity, total: 0, at: V.decision_id };
  S.before = new Map(); S.standing = null; S.standingBefore = null; S.filter = []; S.counting = null;
}

// The night asked last (R.want) is the one shown: keys pressed while a step is on its
// way count from it (three quick presses go three nights on, not one), and an answer
// that comes after a later question's is dropped (the page never steps back by itself).
let asked = 0;

async function go(night, viewer) {
  if (!R.doc || night < 0 || night > nightsOf(R.doc)) return;
  const mine = ++asked;
  R.want = night;
  update(() => { R.busy = true; });
  try {
    const st = await stepOf(R.doc, night, viewer);
    if (mine !== asked) return;
    show(st);
    R.step = st; R.night = night; R.viewer = viewer; R.error = null;
  } catch (e) {
    if (mine !== asked) return;
    R.error = e.message || String(e);
    R.want = R.night;
  }
  update(() => { R.busy = false; });
}

function stepBy(delta) { go((R.busy ? R.want : R.night) + delta, R.viewer); }

// A record (parsed JSON) opened at its first night.
export function openRecord(doc, name) {
  R.doc = doc; R.name = name || ""; R.step = null; R.error = null;
  return go(nightsOf(doc) ? 1 : 0, null);
}

async function fromFile(file) {
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (e) {
    update(() => { R.error = t("This file is not a game record (JSON): {why}", { why: e.message }); });
    return;
  }
  await openRecord(doc, file.name);
}

function stepper() {
  const n = nightsOf(R.doc);
  const where = R.night === 0 ? t("Before the first night") : t("Night {n} of {m}", { n: R.night, m: n });
  const viewer = el("select", { "data-testid": "review-viewer", "aria-label": t("Seen from"),
    onchange: (ev) => go(R.night, ev.target.value || null) },
  el("option", { value: "", text: t("All cards shown"), selected: R.viewer === null }),
  R.step.players.map((p) => el("option", { value: p, text: p, selected: R.viewer === p })));
  return el("nav", { class: "card review-steps", "data-testid": "review-steps", "aria-label": t("Nights") },
    el("button", { type: "button", class: "secondary", "data-testid": "review-prev", "aria-label": t("Previous night"),
      text: "◀", disabled: R.busy || R.night === 0, onclick: () => go(R.night - 1, R.viewer) }),
    el("strong", { "data-testid": "review-night", "aria-live": "polite", text: where }),
    el("button", { type: "button", class: "secondary", "data-testid": "review-next", "aria-label": t("Next night"),
      text: "▶", disabled: R.busy || R.night === n, onclick: () => go(R.night + 1, R.viewer) }),
    el("label", { class: "toggle" }, t("Seen from"), " ", viewer));
}

function board() {
  const V = S.view;
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  const title = R.night === 0 ? t("Before the first night") : t("Night {n}", { n: R.night });
  const center = el("div", { class: "center" },
    el("div", { class: `phase ${R.step.over && R.night === nightsOf(R.doc) ? "winners" : ""}`, "data-testid": "phase", "data-phase": "review", text: title }));
  const r = revealNow(V);
  const parts = [el("div", { class: "tablewrap" }, gameCircle(center), r ? whoWhom(V, r.gestures, r.withdrawals, r.caption, r.cards) : null)];
  if (R.step.over && R.night === nightsOf(R.doc)) {
    // how each won, as the victory screen says it ("Ada — 4 XP as the Priest"): the
    // engine's conditions and rows for each winner (darkcity.review.step's "won")
    const how = { seats: R.step.won || [] };
    parts.unshift(el("p", { class: "card winners", "data-testid": "review-winners", text: t("Winners: {names}", { names: R.step.winners.map((w) => howWon(w, how)).join(" · ") }) }));
  }
  if (last) parts.push(el("section", { class: "card narration", "data-testid": "review-story" }, nightDetails(last, true)));
  parts.push(journalPanel());
  return parts;
}

function page() {
  const file = el("input", { type: "file", accept: ".json,application/json", "data-testid": "record-file",
    onchange: () => { if (file.files && file.files[0]) fromFile(file.files[0]); } });
  const head = el("header", { class: "bar" },
    el("div", { class: "where" }, el("h1", { class: "brand-h" }, el("a", { href: places.home, class: "brand", text: "Dark City" })),
      el("span", { text: t("Game record") }), R.name ? el("span", { class: "muted", text: R.name }) : null),
    langSwitch(() => { if (R.doc) go(R.night, R.viewer); }));
  const open = el("section", { class: "card", "data-testid": "review-open" },
    el("label", {}, t("Open a game record (a file from darkcity play, the server, the simulator or the pocket app)"), " ", file),
    R.error ? el("p", { class: "error", role: "alert", "data-testid": "review-error", text: R.error }) : null);
  return el("main", { class: "room review" }, head, open, R.step ? [stepper(), board()] : null);
}

function render() {
  document.getElementById("app").replaceChildren(page());
  document.title = R.step ? `${t("Game record")} · ${t("Night {n}", { n: R.night })}` : `Dark City · ${t("Game record")}`;
}

// The page, its steps asked of ``step(doc, night, viewer)``; ← and → step.
export function startReview(step) {
  stepOf = step;
  subscribe(render);
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target instanceof HTMLElement && ev.target.closest("input, textarea, select");
    if (typing || !R.doc) return;
    if (ev.key === "ArrowLeft") stepBy(-1);
    if (ev.key === "ArrowRight") stepBy(1);
  });
  update();
}
