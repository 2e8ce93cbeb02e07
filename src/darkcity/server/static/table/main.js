// The table companion's page: /table (the set-up) and /table/CODE (the Mayor's screen
// with the Mayor's link, a player's phone otherwise). Everything is drawn from the
// server's view of the table, which is the one source of truth; entries are sent to the
// server, which stores them before it answers.
import { el, button, toast } from "./dom.js";
import { t, setCatalog, L } from "./i18n.js";
import { api, boot } from "./api.js";
import { keepAwake } from "../js/wake.js";
import { setupPage, loadSetup } from "./setup.js";
import { draftPanel, handBackPanel } from "./draft.js";
import { countPanel } from "./count.js";
import { revealPanel, revealDone } from "./reveal.js";
import { withdrawPanel, withdrawalsDone } from "./withdraw.js";
import { resolvePanel, storyPanel } from "./resolve.js";
import { resultPanel } from "./journals.js";
import { phonePage } from "./phone.js";
import { loadSaved, resumePanel } from "./resume.js";
import { correctPanel, correctable } from "./correct.js";

const S = {
  meta: null, lang: "en", code: null, token: null, view: null, local: {}, spoken: {},
  setup: loadSetup(), busy: false,
  prefs: Object.assign({ speak: true, tick: true, calls: false }, JSON.parse(localStorage.getItem("darkcity:table:prefs") || "{}")),
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
  const before = S.view ? S.view.version : null;
  try {
    done(await request());
  } catch (e) {
    if (e.status && e.status < 500) {
      toast(e.message);
    } else {
      // no answer: the server may have stored it before the answer was lost (a phone
      // walking out of the Wi-Fi); the table as stored says which, before a second tap
      // enters it twice (a withdrawal tapped again is taken back)
      await S.refresh(true);
      if (S.view && before !== null && S.view.version > before && !S.offline) {
        toast(t("The answer was lost on the way, but the entry was saved: the page shows it."), "ok");
      } else {
        toast(`${e.message} ${t("That entry was not saved: try again.")}`);
      }
    }
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
  if (e.type === "withdrawal") {  // "Undo: Bia fled", the words of the withdrawal's button
    return e.withdrawal === true ? t("{player} fled", { player: e.player }) : t("{player}'s withdrawal", { player: e.player });
  }
  if (e.type === "call") return e.step === "end" ? t("The other cards") : t("step {step}", { step: e.step });
  return { drafted: t("the draft"), counted: t("the count"), revealed: t("the end of Phase 2"),
    withdrawn: t("the end of Phase 3"), "next-night": t("the start of night {n}", { n: S.view.night }) }[e.type] || null;
}

// A number stays on the line of its word in a narrow button ("step 5", not "step" / "5").
const keepNumbers = (label) => label.replace(/ (\d)/g, "\u00a0$1");

async function undo(what) {
  if (S.busy) return;
  S.busy = true;
  const taken = what === "entry" ? undoneOf(S.view.last_entry) : null;
  const before = S.view.version;
  try {
    S.view = await api.undo(S.code, S.token, what);
    S.local = {};
    if (taken) toast(t("Taken back: {what}", { what: taken }), "ok");
  } catch (e) {
    if (!(e.status && e.status < 500)) await S.refresh(true);  // lost on the way?
    if (!(e.status && e.status < 500) && S.view.version > before && !S.offline) {
      // done, its answer lost: said so, before a second tap takes another entry back
      S.local = {};
      toast(taken ? t("Taken back: {what}", { what: taken }) : t("The answer was lost on the way, but the entry was saved: the page shows it."), "ok");
    } else {
      toast(e.message);
    }
  } finally {
    S.busy = false;
  }
  S.render();
}

// One answer corrected (a gesture, a withdrawal, a call; of tonight or of ``night``,
// an earlier one): the server keeps every later entry that still holds and says how
// many it had to take back; a night that was over and has a call to answer again (the
// Werewolf called once nobody is a Devil) says so.
const correct = async (entry, night) => {
  const was = S.view.stage;
  // what it takes back is said before it is done: a correction that no longer fits
  // what was entered after it (a Zombie now asked at step 4) takes those entries back
  if (S.busy) return;
  let trial = null;
  S.busy = true;  // one correction at a time: a second tap waits for the first's answer
  try { trial = await api.correct(S.code, S.token, entry, night, true); } catch (e) { trial = null; }
  S.busy = false;
  if (trial && trial.dropped) {
    const what = trial.dropped === 1 ? t("1 entry") : t("{n} entries", { n: trial.dropped });
    const ask = trial.night < S.view.night
      ? t("This correction takes back what was entered after it ({what}), back to night {night}: you enter it again. Correct anyway?", { what, night: trial.night })
      : t("This correction takes back what was entered after it ({what}): you enter it again. Correct anyway?", { what });
    if (!confirm(ask)) return;
  }
  return submit(() => api.correct(S.code, S.token, entry, night), (v) => {
    S.view = v;
    S.local = {};
    const p = { player: entry.player };
    let said;
    if (entry.type === "call" || entry.type === "drafted") {
      const what = entry.type === "drafted" ? t("the name Death wrote")
        : entry.step === "end" ? t("The other cards") : t("step {step}", { step: entry.step });
      said = v.dropped ? t("Corrected: {what}. What was entered after it and no longer holds was taken back: enter it again.", { what })
        : t("Corrected: {what}; everything entered after it still holds.", { what });
    } else if (entry.type === "withdrawal") {
      said = v.dropped ? t("Corrected: {player}'s withdrawal. What was entered after it and no longer holds was taken back: enter it again.", p)
        : t("Corrected: {player}'s withdrawal; everything entered after it still holds.", p);
    } else {
      said = v.dropped ? t("Corrected: {player}'s gesture. What was entered after it and no longer holds was taken back: enter it again.", p)
        : t("Corrected: {player}'s gesture; everything entered after it still holds.", p);
    }
    const q = v.question;
    if (["journals", "over"].includes(was) && v.stage === "resolution" && q) {
      const next = q.step === "end" ? t("The other cards") : t("step {step}", { step: q.step });
      said = `${said} ${t("The night is not over any more; still to call: {what}.", { what: next })}`;
    }
    toast(said, "ok");
  });
};

S.refresh = async (full) => {
  if (!S.code) return;
  const token = S.token;
  try {
    const v = await api.state(S.code, token, full || !S.view ? null : S.view.version);
    // an answer to a token given up meanwhile (the Mayor's link changed, a seat given
    // back) is another reader's view: a poll sent with the old Mayor's link came back as
    // a stranger's phone, drawn over the Mayor's screen, and the next polls, unchanged,
    // kept it there
    if (token !== S.token) return;
    if (!v.unchanged && (full || !S.view || v.version >= S.view.version)) {
      S.view = v;
      S.render();
    }
    S.refused = null;
    if (S.offline) { S.offline = false; S.render(); }
  } catch (e) {
    if (token !== S.token) return;
    if (e.status && e.status < 500) {  // refused (no such table...): said once
      if (S.refused !== e.message) toast(e.message);
      S.refused = e.message;
    } else if (!S.offline) {
      S.offline = true;
      S.render();
    }
  }
};

// A table stored by an earlier version of darkcity whose last entries no longer hold
// under this version's bookkeeping: they were set aside when it was loaded (said until
// the Mayor's next entry).
function setAside(v) {
  return v.set_aside ? el("p", { class: "error", role: "alert", "data-testid": "set-aside",
    text: v.set_aside === 1 ? t("This table was saved by an earlier version of darkcity: its last entry no longer holds and was taken back. Enter it again from here.")
      : t("This table was saved by an earlier version of darkcity: its last {n} entries no longer hold and were taken back. Enter them again from here.", { n: v.set_aside }) }) : null;
}

// While the server cannot be reached, the page says so where it is seen.
function offlineBanner() {
  return S.offline && S.view ? el("p", { class: "error offline", role: "alert", "data-testid": "offline",
    text: t("No connection to the server: what you tap now is not saved. The page tries again every second.") }) : null;
}

S.start = async (code, token) => {
  S.code = code;
  S.token = token;
  S.view = null;
  await S.refresh(true);
  // the table from its top: the set-up was left scrolled to its Start button, and the
  // first draft (its players' link open below) came up scrolled past who drafts first
  window.scrollTo(0, 0);
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
  const stage = v.stage;
  // the phone handed to the last drafter for Death's name: nothing of the table shows,
  // only the question, until the name is tapped or the phone handed back (Cancel)
  // (their heading is the night's, for a screen reader: axe's page-has-heading-one)
  const hidden = el("h1", { class: "sr-only", text: t("Night {n}", { n: v.night }) });
  if (stage === "draft" && S.local.secret) return [hidden, draftPanel(S, send)];
  if (S.local.handBack) return [hidden, handBackPanel(S)];
  const parts = [head, setAside(v)];
  const after = ["withdrawal", "resolution", "journals", "over"].includes(stage);
  // a correction left open while the table changed under it (another device undid the
  // night) is closed: the bar's next step comes back
  if (S.local.correcting && !correctable(v)) S.local = {};
  if (S.local.correcting) {
    parts.push(correctPanel(S, correct, () => { S.local = {}; S.render(); }));
  } else if (stage === "draft") parts.push(draftPanel(S, send));
  else if (stage === "count") parts.push(countPanel(S, send));
  else if (stage === "reveal") parts.push(revealPanel(S, send));
  else if (stage === "withdrawal") parts.push(withdrawPanel(S, send));
  else if (stage === "resolution") parts.push(columns(storyPanel(S), resolvePanel(S, send)));
  else parts.push(columns(storyPanel(S), resultPanel(S)));
  // on the address the players' phones reach the server at (server/share.py)
  const phoneLink = `${(S.share && S.share.invite_base) || location.origin}/table/${v.code}`;
  // open across the page's re-draws (every entry draws it again), as the Mayor left it
  // a group new to darkcity finds the players' link and its QR code open at the first
  // draft, while the phones join (it sat folded under "Links and language", and the
  // draft's "from the table's link" pointed at nothing on screen); folded from the count
  const first = v.night === 1 && stage === "draft";
  const linksOpen = S.linksOpen === undefined ? first : S.linksOpen;
  const links = api.local ? el("details", { class: "panel", "data-testid": "links" },
    // the pocket app: one phone, no server; players' own phones are the server's
    el("summary", { text: t("Language") }),
    el("p", { class: "dim", "data-testid": "no-phones", text: t("Everything stays on this phone, with no network. Players' own phones (their journal, Death's name typed in secret) need darkcity's server; here the phone is handed over for a secret.") }),
    langPicker()) : el("details", { class: "panel", "data-testid": "links", open: linksOpen ? true : null },
    el("summary", { text: t("Links and language") }),
    el("p", { text: t("Players' phones: {link}", { link: phoneLink }) }),
    S.share && S.share.reachable === false ? el("p", { class: "warn", "data-testid": "unreachable" },
      t("The players' phones cannot open this link: darkcity listens on this computer only. Start it with “darkcity serve --host 0.0.0.0” on the same Wi-Fi network.")) : null,
    // the players scan the Mayor's screen instead of typing the link (server/qr.py)
    el("img", { class: "qr", src: `/table/${v.code}/qr.svg`, width: "200", height: "200", loading: "lazy",
      alt: t("QR code of the players' link {link}", { link: phoneLink }), "data-testid": "links-qr" }),
    el("p", { class: "dim", text: t("Players point their phone's camera at the code to follow the table: their journal and every card's rules.") }),
    el("p", { class: "dim", text: t("The Mayor's link (keep it to yourself): {link}", { link: `${phoneLink}#mayor=${S.token}` }) }),
    // shared by mistake (the group's chat got it instead of the players' link), or a
    // friend's phone kept it: a new one, this device the only Mayor's screen again
    button(t("Change the Mayor's link"), async () => {
      if (!confirm(t("A new Mayor's link for this device: every other device that opened the old one becomes a player's phone and no longer enters anything. Change it?"))) return;
      try {
        const r = await api.newMayorLink(S.code, S.token);
        S.token = r.token;
        localStorage.setItem(`darkcity:table:${S.code}`, r.token);
        toast(t("The Mayor's link changed: only this device has it."), "ok");
      } catch (e) {
        toast(e.message);
      }
      S.render();
    }, { class: "small", "data-testid": "new-mayor-link" }),
    el("p", { text: v.seated.length ? t("Phones at the table: {names}", { names: v.seated.join(", ") }) : t("No phone has joined.") }),
    v.seated.length ? button(t("Free the phones' seats"), async () => {
      // it cannot be undone: every phone at the table picks its name again
      if (!confirm(t("Every phone at the table ({names}) loses its seat and picks its name again. Free the seats?", { names: v.seated.join(", ") }))) return;
      try { S.view = await api.freeSeats(S.code, S.token); } catch (e) { toast(e.message); }
      S.render();
    }, { class: "small", "data-testid": "free-seats" }) : null,
    langPicker());
  // the Mayor's own taps only: an element drawn open fires a toggle of its own
  links.addEventListener("toggle", () => { if (links.open !== linksOpen) S.linksOpen = links.open; });
  parts.push(links);
  if (stage !== "over") parts.push(playersChange(v));
  parts.push(el("nav", { class: "bar" },
    offlineBanner(),  // in the bar, always on screen, over no title
    S.local.correcting ? null : nextStep(S, send),
    after && !S.local.correcting ? button(stage === "withdrawal" ? t("Correct a gesture") : t("Correct an entry"), () => { S.local = { correcting: true }; S.render(); window.scrollTo(0, 0); },
      { "data-testid": "correct" }) : null,
    // noticed once the next night is under way (the cards shuffled, the count, the
    // gestures): the night before is corrected, what was entered since kept where it holds
    !after && v.nights && !S.local.correcting ? button(keepNumbers(t("Correct night {n}", { n: v.nights })), () => { S.local = { correcting: true, night: v.nights }; S.render(); window.scrollTo(0, 0); },
      { "data-testid": "correct-last-night" }) : null,
    button(undoneOf(v.last_entry) ? keepNumbers(t("Undo: {what}", { what: undoneOf(v.last_entry) })) : t("Undo"), () => undo("entry"),
      { "data-testid": "undo", disabled: v.can_undo ? null : true }),
    // the last finished night, by its number (none on the first night)
    v.nights ? button(keepNumbers(t("Undo night {n}", { n: v.nights })), () => { if (confirm(undoNightWarning(v))) undo("night"); },
      { class: "danger", "data-testid": "undo-night" }) : null));
  return parts;
}

// What "Undo night N" takes back, said before it is done (it cannot be undone), and
// the smaller fix when one gesture or withdrawal was wrong: the rest of the night kept.
function undoNightWarning(v) {
  const n = v.nights;
  const lines = [t("Back to night {n}'s draft? Everything entered since is taken back: night {n}'s gestures, withdrawals and calls, what the journals got from it, and anything entered after it.", { n })];
  if (["withdrawal", "resolution", "journals", "over"].includes(v.stage)) {
    lines.push(t("To fix one answer (a gesture, a withdrawal, a card at a call), cancel and tap “Correct an entry”: everything else is kept while it holds."));
  } else {
    lines.push(t("To fix one answer of night {n} (a gesture, a withdrawal, a card at a call), cancel and tap “Correct night {n}”: everything else is kept while it holds.", { n }));
  }
  return lines.join("\n\n");
}

// The set-up again with this table's players and deck (the free XP chosen again): at
// the game's end, or when a player leaves or a friend joins (this game stays in
// "Games in progress on this device").
function newGame(v) {
  const custom = v.deck.name === "custom";
  localStorage.setItem("darkcity:table:setup", JSON.stringify({
    players: v.players.slice(), deck: custom ? "basic" : v.deck.name, custom,
    cards: custom ? v.deck.cards.map((c) => c.key) : [], free: {} }));
  location.href = api.homePath();
}

// The players are set for a game (the deck and the journals are drawn for them): a
// player who leaves or a friend who arrives means a new game, which the page says.
function playersChange(v) {
  const box = el("details", { class: "panel", "data-testid": "players-change", open: S.playersOpen ? true : null },
    el("summary", { text: t("A player leaves, or a friend joins?") }),
    el("p", { text: t("The players are fixed for a game: the deck and the journals are for these {n}. Finish this game, or set up a new one with the players changed; this one stays under “Games in progress on this device”.", { n: v.players.length }) }),
    button(t("New game, players changed"), () => newGame(v), { "data-testid": "new-game-changed" }));
  box.addEventListener("toggle", () => { S.playersOpen = box.open; });  // across re-draws
  return box;
}

// On a laptop the night's story and the call (or the night's outcome) side by side; on
// a phone one under the other, as before.
function columns(story, panel) {
  return story && panel ? el("div", { class: "cols" }, story, panel) : story || panel;
}

// What comes after the night's outcome, in the Mayor's bar, so that it is always on
// screen (on a phone it was 1,200-1,400 px down, under the story and the journals):
// the next night, or at the game's end a new game with the same players; and the end
// of the withdrawals (under two Hunters' bolts, or eight players, it ran off a phone).
function nextStep(S, send) {
  const v = S.view;
  if (v.stage === "withdrawal") return withdrawalsDone(send);
  if (v.stage === "reveal") return revealDone(S, send);
  if (v.stage === "journals") {
    return button(t("Next night"), () => send({ type: "next-night" }),
      { class: "primary", "data-testid": "next-night", "data-focus": `next:${v.night}` });
  }
  if (v.stage !== "over") return null;
  return button(t("New game with these players"), () => newGame(v), { class: "primary", "data-testid": "new-game" });
}

// On a phone the night's story grows above the call: at each new call, the page scrolls
// so that the call and its buttons are on screen (the newest lines just above them),
// and the Mayor never hunts for the next button.
// At the game's end, likewise, the winners are brought on screen once (the story and
// the last call were above them).
function showTheCall() {
  const q = S.view.question;
  const over = S.view.stage === "over";
  const key = over ? "over" : q && S.view.stage === "resolution" ? `${S.view.night}:${q.step}` : null;
  if (!key || S.shownCall === key) return;
  S.shownCall = key;
  const panel = document.querySelector(over ? "[data-testid=winners]" : "[data-testid=panel-call]");
  const bar = document.querySelector("nav.bar");
  if (!panel) return;
  const room = window.innerHeight - (bar ? bar.offsetHeight : 0);
  const r = panel.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= room) return;
  const y = r.height > room ? r.top - 8 : r.bottom - room + 8;
  window.scrollTo(0, window.scrollY + y);
}

// The keyboard's focus across the page's re-draws: each panel marks the first control
// of what it asks with data-focus (its value names the question: "reveal:Bia:hunter",
// "call:2:4"). When the question changes (the next player, the next call, the next
// phase), the focus moves to it; while it stays, the focus stays on the control it was
// on (a toggled holder, a second target, the caret in a name).
function placeFocus(app, focused, caret) {
  const asked = app.querySelector("[data-focus]");
  const key = asked ? asked.getAttribute("data-focus") : null;
  const moved = key !== S.askedKey;
  S.askedKey = key;
  const again = focused ? app.querySelector(`[data-testid="${focused}"]`) : null;
  if (moved && asked && !(again && again.matches("input, select"))) {
    asked.focus({ preventScroll: true });
  } else if (again) {
    again.focus({ preventScroll: true });
    if (typeof caret === "number" && again.setSelectionRange) again.setSelectionRange(caret, caret);
  }
}

// A text field being typed in is kept, not drawn anew: the set-up drew the page again
// when a name's field was left (the deck is checked for the names), and the field just
// tapped was a new one, unfocused, so the phone's keyboard closed and every other name
// typed was lost (Ana, —, Caio, —, Enzo, —). Where the new drawing holds the same field
// at the same place, the page around it is replaced and the field itself stays.
function keepTyping(app, parts) {
  const f = document.activeElement;
  if (!f || !f.dataset || !f.dataset.testid || !app.contains(f)
      || !f.matches("input:not([type]), input[type=text], textarea")) return false;
  const path = [];
  for (let n = f; n !== app; n = n.parentNode) path.unshift([...n.parentNode.childNodes].indexOf(n));
  let kids = parts, found = null;
  for (const i of path) {
    found = kids[i];
    if (!found) return false;
    kids = [...found.childNodes];
  }
  if (found.tagName !== f.tagName || found.dataset.testid !== f.dataset.testid) return false;
  let old = app, fresh = parts;
  for (const i of path) {
    const keep = old.childNodes[i];
    const twin = fresh[i];
    for (const c of [...old.childNodes]) if (c !== keep) c.remove();
    keep.before(...fresh.slice(0, i));
    keep.after(...fresh.slice(i + 1));
    for (const a of [...keep.attributes]) if (!twin.hasAttribute(a.name)) keep.removeAttribute(a.name);
    for (const a of [...twin.attributes]) if (keep.getAttribute(a.name) !== a.value) keep.setAttribute(a.name, a.value);
    if (keep.className !== twin.className) keep.className = twin.className;
    old = keep;
    fresh = [...twin.childNodes];
  }
  return true;
}

// A press is not cut by a redraw (as on the web table, app.js): a button pressed on one
// drawing and released on the next gets no click (a name typed, then "Add a player"
// pressed: leaving the field draws the set-up again). While a pointer is down the
// redraw waits for its release (a second at most), and is made just after the click.
let pressedAt = 0;
let waiting = false;
document.addEventListener("pointerdown", () => { pressedAt = Date.now(); }, true);
const released = () => {
  pressedAt = 0;
  if (waiting) { waiting = false; setTimeout(() => S.render(), 0); }
};
document.addEventListener("pointerup", released, true);
document.addEventListener("pointercancel", released, true);

// The messages go where they cover nothing: at the top of the Mayor's bar (or, on a
// page without one, at the foot of the screen), and the page moves up as the bar grows,
// so what was on screen above it stays there. At the top of the screen they covered the
// call's title ("The Devil?") and the offline banner, which the bar now holds too. The
// box is kept across the re-draws (a message lasts its seconds), moved into each new bar.
const toastBox = document.getElementById("toasts");
let footHeight = null;
function keepAbove() {
  const banner = document.querySelector("nav.bar .offline");
  const h = (toastBox ? toastBox.getBoundingClientRect().height : 0)
    + (banner ? banner.getBoundingClientRect().height : 0);
  if (footHeight !== null && h > footHeight) {
    // never so far that the call ("The Devil?") leaves the top of the screen
    const call = document.querySelector("[data-testid=call]");
    const room = call ? Math.max(0, call.getBoundingClientRect().top - 8) : Infinity;
    window.scrollBy(0, Math.min(h - footHeight, room));
  }
  footHeight = h;
}
if (toastBox) new MutationObserver(keepAbove).observe(toastBox, { childList: true });
function placeToasts(app) {
  if (!toastBox) return;
  const bar = app.querySelector("nav.bar");
  const home = bar || document.body;
  if (toastBox.parentNode !== home || (bar && bar.firstChild !== toastBox)) {
    if (bar) bar.prepend(toastBox); else document.body.append(toastBox);
  }
}

S.render = () => {
  if (pressedAt && Date.now() - pressedAt < 1000) {
    if (!waiting) { waiting = true; setTimeout(() => { if (waiting) { waiting = false; S.render(); } }, 1000); }
    return;
  }
  const app = document.getElementById("app");
  // a re-render keeps the focus and the caret where the Mayor was typing
  const focused = document.activeElement && document.activeElement.getAttribute("data-testid");
  const caret = focused && document.activeElement.selectionStart;
  const parts = [];
  if (!S.code) {
    parts.push(el("h1", { text: t("Table companion") }),
      el("p", { class: "dim", text: t("For a game with the real cards: the app is the Mayor's assistant.") }),
      el("div", { class: "panel" }, langPicker()), resumePanel(S.saved, S), setupPage(S));
  } else if (!S.view) {
    parts.push(el("h1", { class: "sr-only", text: t("Table companion") }), el("p", { class: "loading", text: t("Loading the table…") }));
  } else if (S.view.reader === "mayor") {
    parts.push(...mayorPage());
  } else {
    parts.push(el("h1", { text: t("Table {code}", { code: S.view.code }) }), offlineBanner(), phonePage(S), el("p", {}, langPicker()));
  }
  const drawn = parts.filter((x) => x);
  if (!keepTyping(app, drawn)) app.replaceChildren(...drawn);
  placeToasts(app);
  keepAbove();
  app.classList.toggle("wide", Boolean(app.querySelector(".cols")));
  if (S.view) app.dataset.version = String(S.view.version);  // what the page shows (tests wait on it)
  placeFocus(app, focused, caret);
  // the Mayor's screen stays on through the night (a phone put down on the table locks)
  keepAwake(Boolean(S.view && S.view.reader === "mayor" && S.view.stage !== "over"));
  if (S.view && S.view.reader === "mayor") showTheCall();
};

async function main() {
  await boot();  // HTTP to the server, or the phone's own engine (the pocket app)
  const saved = localStorage.getItem("darkcity:lang");
  const nav = (navigator.language || "en").toLowerCase().startsWith("pt") ? "pt_BR" : "en";
  await loadLang(new URLSearchParams(location.search).get("lang") || saved || nav);
  // where the players' phones reach the server (a page opened on localhost shares the
  // local network's address); without it, the page's own address
  S.share = await api.share();
  const code = api.tableFromLocation();
  if (code) {
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
  // polled every second (back within a second of a restarted server answering), and
  // asked at once when the network returns or the page is shown again
  const now = () => { if (S.code && !S.busy) S.refresh(false); };
  setInterval(now, 1000);
  window.addEventListener("online", now);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") now(); });
}

main();
export { S, L };
