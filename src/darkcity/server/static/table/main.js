// The table companion's page: /table (the set-up) and /table/CODE (the Mayor's screen
// with the Mayor's link, a player's phone otherwise). Everything is drawn from the
// server's view of the table, which is the one source of truth; entries are sent to the
// server, which stores them before it answers.
import { el, button, toast } from "./dom.js";
import { t, setCatalog, L } from "./i18n.js";
import { api } from "./api.js";
import { setupPage, loadSetup } from "./setup.js";
import { draftPanel } from "./draft.js";
import { countPanel } from "./count.js";
import { revealPanel } from "./reveal.js";
import { withdrawPanel } from "./withdraw.js";
import { resolvePanel, storyPanel } from "./resolve.js";
import { resultPanel } from "./journals.js";
import { phonePage } from "./phone.js";
import { loadSaved, resumePanel } from "./resume.js";

const S = {
  meta: null, lang: "en", code: null, token: null, view: null, local: {}, spoken: {},
  setup: loadSetup(), busy: false,
  prefs: Object.assign({ speak: true, tick: true }, JSON.parse(localStorage.getItem("darkcity:table:prefs") || "{}")),
};

async function loadLang(lang) {
  S.meta = await api.meta(lang);
  S.lang = S.meta.lang;
  setCatalog(S.lang, S.meta.catalog);
  localStorage.setItem("darkcity:lang", S.lang);
}

// One entry sent to the server, which stores it before it answers; ``done`` gets the
// new view. A refusal is the engine's reason; a failure of the network or the server
// also says that nothing was stored.
async function submit(request, done) {
  if (S.busy) return;
  S.busy = true;
  try {
    done(await request());
  } catch (e) {
    toast(e.status && e.status < 500 ? e.message : `${e.message} ${t("That entry was not saved: try again.")}`);
  } finally {
    S.busy = false;
  }
  S.render();
}

S.send = (entry) => submit(() => api.enter(S.code, S.token, entry), (v) => {
  if (!S.view || v.version >= S.view.version) S.view = v;
});

// What Undo takes back, in the table's words ("Bia's gesture", "step 4").
function undoneOf(e) {
  if (!e) return null;
  if (e.type === "gesture") return t("{player}'s gesture", { player: e.player });
  if (e.type === "withdrawal") return t("{player}'s withdrawal", { player: e.player });
  if (e.type === "call") return e.step === "end" ? t("The other cards") : t("step {step}", { step: e.step });
  return { drafted: t("the draft"), counted: t("the count"), revealed: t("the end of Phase 2"),
    withdrawn: t("the end of Phase 3"), "next-night": t("the start of night {n}", { n: S.view.night }) }[e.type] || null;
}

async function undo(what) {
  const taken = what === "entry" ? undoneOf(S.view.last_entry) : null;
  try {
    S.view = await api.undo(S.code, S.token, what);
    S.local = {};
    if (taken) toast(t("Taken back: {what}", { what: taken }), "ok");
  } catch (e) {
    toast(e.message);
  }
  S.render();
}

// A gesture corrected after the reveal: the server keeps every later entry that still
// holds and says how many it had to take back.
const correct = (entry) => submit(() => api.correct(S.code, S.token, entry), (v) => {
  S.view = v;
  S.local = {};
  toast(v.dropped ? t("Corrected: {player}'s gesture. What was entered after it and no longer holds was taken back: enter it again.", { player: entry.player })
    : t("Corrected: {player}'s gesture; everything entered after it still holds.", { player: entry.player }), "ok");
});

S.refresh = async (full) => {
  if (!S.code) return;
  try {
    const v = await api.state(S.code, S.token, full || !S.view ? null : S.view.version);
    if (!v.unchanged && (full || !S.view || v.version >= S.view.version)) {
      S.view = v;
      S.render();
    }
    S.refused = null;
    if (S.offline) { S.offline = false; S.render(); }
  } catch (e) {
    if (e.status && e.status < 500) {  // refused (no such table...): said once
      if (S.refused !== e.message) toast(e.message);
      S.refused = e.message;
    } else if (!S.offline) {
      S.offline = true;
      S.render();
    }
  }
};

// While the server cannot be reached, the page says so where it is seen.
function offlineBanner() {
  return S.offline && S.view ? el("p", { class: "error offline", role: "alert", "data-testid": "offline",
    text: t("No connection to the server: what you tap now is not saved. The page tries again every second.") }) : null;
}

S.start = (code, token) => {
  S.code = code;
  S.token = token;
  S.view = null;
  S.refresh(true);
};

function langPicker() {
  const sel = el("select", { "aria-label": t("Language"), "data-testid": "lang" },
    el("option", { value: "en", selected: S.lang === "en" ? true : null }, "English"),
    el("option", { value: "pt_BR", selected: S.lang === "pt_BR" ? true : null }, "Português"));
  sel.addEventListener("change", async () => {
    await loadLang(sel.value);
    if (S.code) await S.refresh(true);
    S.render();
  });
  return sel;
}

function mayorPage() {
  const v = S.view;
  const send = S.send;
  const head = el("div", { class: "row" },
    el("h1", { text: t("Night {n}", { n: v.night }) }),
    el("span", { class: "dim", "data-testid": "table-code", text: t("Table {code}", { code: v.code }) }));
  const parts = [head, offlineBanner()];
  const stage = v.stage;
  const after = ["withdrawal", "resolution", "journals", "over"].includes(stage);
  if (after && S.local.correcting) {
    parts.push(revealPanel(S, correct, { correcting: true, cancel: () => { S.local = {}; S.render(); } }));
  } else if (stage === "draft") parts.push(draftPanel(S, send));
  else if (stage === "count") parts.push(countPanel(S, send));
  else if (stage === "reveal") parts.push(revealPanel(S, send));
  else if (stage === "withdrawal") parts.push(withdrawPanel(S, send));
  else if (stage === "resolution") parts.push(storyPanel(S), resolvePanel(S, send));
  else parts.push(storyPanel(S), resultPanel(S, send));
  const phoneLink = `${location.origin}/table/${v.code}`;
  parts.push(el("details", { class: "panel" }, el("summary", { text: t("Links and language") }),
    el("p", { text: t("Players' phones: {link}", { link: phoneLink }) }),
    el("p", { class: "dim", text: t("The Mayor's link (keep it to yourself): {link}", { link: `${phoneLink}#mayor=${S.token}` }) }),
    el("p", { text: v.seated.length ? t("Phones at the table: {names}", { names: v.seated.join(", ") }) : t("No phone has joined.") }),
    v.seated.length ? button(t("Free the phones' seats"), async () => {
      try { S.view = await api.freeSeats(S.code, S.token); } catch (e) { toast(e.message); }
      S.render();
    }, { class: "small", "data-testid": "free-seats" }) : null,
    langPicker()));
  parts.push(el("nav", { class: "bar" },
    after && !S.local.correcting ? button(t("Correct a gesture"), () => { S.local = { correcting: true }; S.render(); },
      { "data-testid": "correct" }) : null,
    button(undoneOf(v.last_entry) ? t("Undo: {what}", { what: undoneOf(v.last_entry) }) : t("Undo"), () => undo("entry"),
      { "data-testid": "undo", disabled: v.can_undo ? null : true }),
    button(t("Undo the last night"), () => { if (confirm(t("Take the last night back, journals and all?"))) undo("night"); },
      { class: "danger", "data-testid": "undo-night", disabled: v.nights ? null : true })));
  return parts;
}

// On a phone the night's story grows above the call: at each new call, the page scrolls
// so that the call and its buttons are on screen (the newest lines just above them),
// and the Mayor never hunts for the next button.
function showTheCall() {
  const q = S.view.question;
  const key = q && S.view.stage === "resolution" ? `${S.view.night}:${q.step}` : null;
  if (!key || S.shownCall === key) return;
  S.shownCall = key;
  const panel = document.querySelector("[data-testid=panel-call]");
  const bar = document.querySelector("nav.bar");
  if (!panel) return;
  const room = window.innerHeight - (bar ? bar.offsetHeight : 0);
  const r = panel.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= room) return;
  const y = r.height > room ? r.top - 8 : r.bottom - room + 8;
  window.scrollTo(0, window.scrollY + y);
}

S.render = () => {
  const app = document.getElementById("app");
  // a re-render keeps the focus and the caret where the Mayor was typing
  const focused = document.activeElement && document.activeElement.getAttribute("data-testid");
  const caret = focused && document.activeElement.selectionStart;
  const parts = [];
  if (!S.code) {
    parts.push(el("h1", { text: t("Table companion") }),
      el("p", { class: "dim", text: t("For a game with the real cards: the app is the Mayor's assistant.") }),
      el("div", { class: "panel" }, langPicker()), resumePanel(S.saved), setupPage(S));
  } else if (!S.view) {
    parts.push(el("p", { class: "loading", text: t("Loading the table…") }));
  } else if (S.view.reader === "mayor") {
    parts.push(...mayorPage());
  } else {
    parts.push(el("h1", { text: t("Table {code}", { code: S.view.code }) }), offlineBanner(), phonePage(S), el("p", {}, langPicker()));
  }
  app.replaceChildren(...parts.filter((x) => x));
  if (S.view && S.view.reader === "mayor") showTheCall();
  if (focused) {
    const again = app.querySelector(`[data-testid="${focused}"]`);
    if (again) {
      again.focus();
      if (typeof caret === "number" && again.setSelectionRange) again.setSelectionRange(caret, caret);
    }
  }
};

async function main() {
  const saved = localStorage.getItem("darkcity:lang");
  const nav = (navigator.language || "en").toLowerCase().startsWith("pt") ? "pt_BR" : "en";
  await loadLang(new URLSearchParams(location.search).get("lang") || saved || nav);
  const m = location.pathname.match(/^\/table\/([A-Za-z0-9]+)/);
  if (m) {
    const code = m[1].toUpperCase();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("mayor")) {
      localStorage.setItem(`darkcity:table:${code}`, hash.get("mayor"));
      history.replaceState(null, "", location.pathname);
    }
    S.start(code, localStorage.getItem(`darkcity:table:${code}`));
  } else {
    loadSaved().then((saved) => { S.saved = saved; S.render(); });
  }
  S.render();
  setInterval(() => { if (S.code && !S.busy) S.refresh(false); }, 1000);
}

main();
export { S, L };
