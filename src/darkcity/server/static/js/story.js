// The night told, then the game's story. A finished night is told one line per beat
// of the Mayor's count; each player's journal changes when the narration reaches
// that player's XP line. Every earlier night can be opened at any time.
import { S, update } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el, append } from "./dom.js";
import { gestureText } from "./reveal.js";
import { revealed } from "./clock.js";
import { howWon, nearLines } from "./won.js";

let teller = null;

export function newState(m) {
  const V = m.view;
  const prev = S.view;
  const known = S.history.length;
  if (V.history.length && V.history[0].number === S.history.length + 1) S.history.push(...V.history);
  else if (V.history.length) S.history = S.history.slice(0, V.history[0].number - 1).concat(V.history);
  if (!prev || prev.decision_id !== V.decision_id) { S.filter = []; S.shows = null; S.changing = false; }
  const newest = S.history.length ? S.history[S.history.length - 1] : null;
  if (!S.fresh && prev && newest && S.history.length > known) {
    S.before = new Map(prev.seats.map((s) => [s.name, s.journal]));
    S.standingBefore = S.standing;
    // (at: the decision point the night's end opened, the next draft's first: a seat's
    // fate is shown until the draft moves on from it)
    S.story = { night: newest.number, start: Date.now(), shown: 0, total: newest.events.length, at: V.decision_id };
    tell();
  } else if (S.fresh || !prev) {
    S.story = { night: newest ? newest.number : 0, start: 0, shown: Infinity, total: 0, at: V.decision_id };
  }
  S.fresh = false;
  S.view = V;
  S.standing = m.standing || null;
  S.deadline = m.deadline;
  if (S.counting) revealed();
  S.counting = null;
  S.pending = false;
}

function beatMs() { return Math.max(0, (S.lobby && S.lobby.config.beat_s) || 0) * 1000; }

function tell() {
  clearTimeout(teller);
  const step = () => {
    const st = S.story;
    const beat = beatMs();
    st.shown = beat ? 1 + Math.floor((Date.now() - st.start) / beat) : Infinity;
    update();
    if (st.shown < st.total) teller = setTimeout(step, beat);
  };
  step();
}

export function telling() { return S.story.shown < S.story.total; }

// The journal a reader sees for a player: the one before tonight until the narration
// has told that player's XP.
export function journalOf(seat) {
  if (!telling() || !S.before.has(seat.name)) return seat.journal;
  const night = S.history[S.history.length - 1];
  const told = night.events.slice(0, S.story.shown);
  return told.some((e) => e.event === "xp" && e.player === seat.name) ? seat.journal : S.before.get(seat.name);
}
export function standingNow() { return telling() ? S.standingBefore || null : S.standing; }

// Where one player stands (their "1 XP from winning"), as far as the story has told:
// the new standing once their line of Phase 5 (their XP, or why none) is told. The
// whole table's waited for the story's last line, and the first drafter of the next
// night, deciding meanwhile, never saw theirs on the draft screen.
export function standingOf(name) {
  const pick = (st) => (st ? st.seats.find((x) => x.name === name) || null : null);
  if (!telling() || !S.before.has(name)) return pick(S.standing);
  const night = S.history[S.history.length - 1];
  const told = night.events.slice(0, S.story.shown);
  const done = told.some((e) => e.player === name && (e.event === "xp" || e.event.startsWith("why-")));
  return pick(done ? S.standing : S.standingBefore);
}

// The events that put a player out of the night, by whom they name: the seats and the
// reader's summary say "killed" at the story's step that tells it, not before.
const TARGET_OUT = new Set(["kill", "kill-guardian", "abduct", "reflex", "damn", "cannibals"]);
const ACTOR_OUT = new Set(["tough-killed", "tough-abducted", "dies-on-priest", "demoniac-freed", "demoniac-dies-exorcised", "cannibals"]);

// A player's fate in the newest night as far as it is told (null: alive, or not told
// yet). A withdrawal was public before the resolution.
export function fateTold(night, name) {
  const fate = new Map(night.fates).get(name);
  if (!fate || fate === "alive") return null;
  const shown = S.story.night === night.number ? S.story.shown : Infinity;
  if (fate === "withdrawn" || shown >= night.events.length) return fate;
  const told = night.events.slice(0, shown);
  return told.some((e) => (TARGET_OUT.has(e.event) && e.target === name) || (ACTOR_OUT.has(e.event) && e.player === name)) ? fate : null;
}

// A fate lasts one night: shown on the seats while the night is told and until the next
// draft moves on ("killed" into the next draft was read as "out of the game").
export function fatesShown() {
  const V = S.view;
  if (!V || !S.history.length) return false;
  return V.phase === "over" || telling() || (V.phase === "draft" && V.decision_id === S.story.at);
}

// "step 2", not a bare 2 beside the list's own numbers ("1. 2 The Vampire ..."): the
// initiative step the line happened at
function stepLabel(step) { return step === "end" ? word("steps", "end") : t("step {step}", { step }); }

// The lines about the reader (their acts, what was done to them) stand out.
function eventList(events, testid) {
  const me = S.view && S.view.viewer;
  return el("ol", { class: "events", "data-testid": testid }, events.map((e) =>
    el("li", { class: `ev ev-${e.event} ${me && (e.player === me || e.target === me) ? "mine" : ""}` },
      el("span", { class: "step", text: stepLabel(e.step) }), " ", e.text)));
}

function nightSummary(n) {
  const fates = new Map(n.fates), marks = new Map(n.marks), cards = new Map(n.cards);
  const withdrawals = new Map(n.withdrawals);
  const rows = n.gestures.map(([p, g]) => {
    const c = cards.get(p);
    const w = withdrawals.get(p);
    const fate = fates.get(p);
    const mk = (marks.get(p) || []).map((x) => word("marks", x));
    return el("tr", {},
      el("th", { scope: "row", text: p }),
      el("td", { text: c ? role(c.role) : "" }),
      el("td", { text: gestureText(g, true) + (w === true ? ` (${t("withdrew")})` : Array.isArray(w) && w.length ? ` (${t("lowered a bolt")})` : "") }),
      el("td", { text: [word("fates", fate), ...mk].join(", ") }));
  });
  return el("table", { class: "nighttable" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Player") }), el("th", { scope: "col", text: t("Card") }),
      el("th", { scope: "col", text: t("Gesture") }), el("th", { scope: "col", text: t("Fate") }))),
    el("tbody", {}, rows));
}

export function nightDetails(n, open) {
  const d = el("details", { class: "night", "data-testid": `night-${n.number}`, open: open || S.openNights.has(n.number) },
    el("summary", { text: t("Night {n}", { n: n.number }) + (n.winners.length ? ` · ${t("Winners: {names}", { names: n.winners.join(", ") })}` : "") }),
    nightSummary(n), eventList(n.events, `events-${n.number}`));
  d.addEventListener("toggle", () => { if (d.open) S.openNights.add(n.number); else S.openNights.delete(n.number); });
  return d;
}

export function storyPanel() {
  const V = S.view;
  const box = el("section", { class: "card narration", "data-testid": "narration", "aria-labelledby": "story-h" });
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  if (V.narration.length) {
    box.append(el("h2", { id: "story-h", text: t("Tonight so far") }), eventList(V.narration, "events"));
  } else if (last) {
    const shown = Math.min(last.events.length, S.story.night === last.number ? S.story.shown : Infinity);
    box.append(el("h2", { id: "story-h", text: t("Night {n}: what happened", { n: last.number }) }),
      eventList(last.events.slice(0, shown), "events"));
    if (shown >= last.events.length && last.winners.length) {
      // who won, and with which row and card ("Ada — 4 XP as the Priest")
      box.append(el("p", { class: "win", "data-testid": "story-win", text: t("Winners: {names}", { names: last.winners.map((w) => howWon(w, S.standing)).join(" · ") }) }));
    } else if (shown >= last.events.length) {
      // who could win next night, said in the story, not only in the Rules
      box.append(...nearLines(S.standing).map((n) => el("p", { class: `near ${n.name === V.viewer ? "mine" : ""}`, "data-testid": "story-near", text: n.text })));
    }
    if (last.fates.some(([, f]) => ["killed", "damned", "abducted"].includes(f))) {
      box.append(el("p", { class: "muted", "data-testid": "fate-note", text: t("Killed, damned or abducted lasts one night: they play again the next night.") }));
    }
  } else {
    return null;
  }
  const earlier = S.history.filter((n) => V.narration.length || n !== last);
  if (earlier.length) {
    append(box, [el("h3", { text: t("Earlier nights") }), earlier.map((n) => nightDetails(n, false))]);
  }
  return box;
}

// On a phone the night's story sits under the table and the next question is what the
// reader is sent to ("Your turn ↓"): what happened to them is said above that question,
// as far as the story has told it: their fate, their XP, their targets'.
export function tonightForYou() {
  const V = S.view;
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  if (!V || !V.viewer || !last || V.phase !== "draft" || V.night !== last.number + 1) return null;
  const me = V.viewer;
  const played = new Map(last.gestures);
  if (!played.has(me) && !new Map(last.fates).has(me)) return null;
  const shown = S.story.night === last.number ? Math.min(S.story.shown, last.events.length) : last.events.length;
  const whole = shown >= last.events.length;
  const told = last.events.slice(0, shown);
  const lines = [];
  const fate = fateTold(last, me);
  if (fate === "withdrawn") lines.push(t("You withdrew: nobody could harm you, and you earned no XP."));
  else if (fate) lines.push(t("Your fate: {fate} tonight; you play again the next night.", { fate: word("fates", fate) }));
  else if (whole) lines.push(t("You came through the night."));
  // the reader's line of Phase 5 as the story tells it: the XP written, or the rule's
  // reason for none (the engine's "why-..." line, issue #51)
  const mine = told.filter((e) => (e.event === "xp" || e.event.startsWith("why-")) && e.player === me);
  if (mine.length && fate !== "withdrawn") lines.push(...mine.map((e) => e.text));
  else if (!mine.length && whole && fate !== "withdrawn") lines.push(t("No XP for you tonight."));
  const g = played.get(me);
  const targets = [...new Set((g && g.targets) || [])];
  const said = targets.map((p) => {
    const f = fateTold(last, p);
    return f ? `${p}: ${word("fates", f)}` : whole ? `${p}: ${word("fates", "alive")}` : null;
  }).filter(Boolean);
  if (said.length) lines.push(t("Your targets: {list}", { list: said.join(", ") }));
  if (!whole) lines.push(t("The night is still being told (below the table)."));
  return el("div", { class: "foryou", "data-testid": "for-you" },
    el("h3", { text: t("Night {n}, for you", { n: last.number }) }),
    el("ul", {}, lines.map((x) => el("li", { text: x }))));
}
