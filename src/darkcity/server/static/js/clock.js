// The Mayor's "1, 2, 3, now!" and the deadline's countdown. "Now!" falls on the
// instant of the reveal (start + beats x beat); the countdown is hidden meanwhile.
import { S, now, update } from "./store.js";
import { t } from "./i18n.js";
import { $ } from "./dom.js";

// Everybody looks at the table for the count: a phone scrolled down to the buttons it
// was tapped on brings the circle (the count, then the reveal) back into view.
function lookAtTheTable() {
  const table = $("[data-testid=table]");
  if (!table) return;
  const r = table.getBoundingClientRect();
  const centre = (r.top + r.bottom) / 2;  // where the count is shown
  if (centre > 0 && centre < window.innerHeight) return;  // in sight already
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  table.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
}

export function startCount(m) {
  S.counting = m;
  const V = S.view;
  if (V) {  // everybody is in: the last decider has decided too
    const req = new Set(V.required);
    for (const seat of V.seats) if (req.has(seat.name)) seat.decided = true;
    V.pending = [];
  }
  const words = [t("1"), t("2"), t("3"), t("Now!")];
  S.countWord = null;
  S.nowAfter = false;
  S.countOf = m;
  S.countStopped = false;
  lookAtTheTable();
  // "1" as the count starts (its first beat was silent: 0.8 s, then "1"), "Now!" at
  // the reveal's instant, the words evenly between: a fixed rhythm every night
  const step = (m.beats * m.beat) / (words.length - 1);
  words.forEach((w, i) => {
    const at = (m.start + i * step - now()) * 1000;
    setTimeout(() => { if (S.countOf === m) { S.countWord = w; showCount(); } }, Math.max(0, at));
  });
  const end = (m.start + m.beats * m.beat - now()) * 1000;
  setTimeout(() => { if (S.countOf === m) { S.countWord = null; showCount(); } }, Math.max(0, end) + 700);
}

// The connection dropped during the count: no "Now!" without its reveal. The table is
// as it was before the count; the new connection brings the count or the reveal.
export function stopCount() {
  S.countOf = null;
  S.counting = null;
  S.countWord = null;
  S.nowAfter = false;
  S.countStopped = true;
  showCount();
}

export function showCount() {
  const box = $("#count");  // looked up each beat: the page may have been drawn again
  if (!box) return;
  box.textContent = S.countWord || "";
  box.classList.toggle("on", !!S.countWord);
}

// The decision panel's line under its question: what the countdown is for.
function tickNote(left) {
  const note = $("#deadline-note");
  if (!note) return;
  note.textContent = left === null ? "" : t("{time} left to decide; then a bot decides for you.", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
}

export function tickClock() {
  const box = $("#countdown");
  const V = S.view;
  tickNote(S.deadline && V && V.phase !== "over" && !S.counting && !nowShowing() && V.pending.includes(V.viewer) ? Math.max(0, Math.ceil(S.deadline - now())) : null);
  if (!box) return;
  if (!S.deadline || !S.view || S.view.phase === "over" || S.counting || nowShowing()) { box.textContent = ""; box.hidden = true; return; }
  box.hidden = false;
  const left = Math.max(0, Math.ceil(S.deadline - now()));
  box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.classList.toggle("urgent", left <= 5);
  box.setAttribute("aria-label", t("Time left: {time}", { time: box.textContent }));
}

export function startClock() { setInterval(tickClock, 200); }
export { update };

// The reveal has come: it is the instant of "Now!", whatever the timers say. "Now!" is
// held a moment with the gestures (never longer than a beat), alone at the table's
// centre: the next phase's title and its countdown come once it is gone, not under it.
export function revealed() {
  const mark = {};
  S.countOf = mark;
  S.countWord = t("Now!");
  S.nowAfter = true;
  const beat = S.lobby && S.lobby.config ? S.lobby.config.beat_s * 1000 : 700;
  setTimeout(() => { if (S.countOf === mark) update(() => { S.countWord = null; S.nowAfter = false; }); }, Math.min(700, beat));
}

// "Now!" still shown over the reveal: the next phase waits for it.
export const nowShowing = () => !!(S.nowAfter && S.countWord && !S.counting);
