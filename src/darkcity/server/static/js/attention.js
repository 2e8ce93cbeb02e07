// "Your turn": the tab's title says so while a decision waits for you; an optional
// sound and vibration (off by default, remembered on this device).
import { S } from "./store.js";
import { t, word } from "./i18n.js";

let waiting = false;
S.sound = localStorage.getItem("darkcity:sound") === "1";

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660; g.gain.value = 0.06;
    o.connect(g); g.connect(ctx.destination);
    o.start(); o.stop(ctx.currentTime + 0.15);
  } catch { /* no audio here */ }
}

// A question out of sight (on a phone, under the table, the gestures and the night's
// story): a button at the bottom of the screen says so and goes to it. It shows while
// less than a hand's breadth of the question's panel is on screen (SIGHT px, or the
// whole of a shorter panel: a 17 px sliver of night 1's gesture question at the top,
// its choices all gone, had no button), and the page gets room at its foot to scroll
// what it would cover above it.
let pill = null, seen = null, above = false;
function show(on) {
  pill.hidden = !on;
  document.body.classList.toggle("pointing", on);
}
// (the arrow says where the question is: after the draft a phone's gesture question
// could go off the top, and "↓" sent the reader further down, away from it)
const SIGHT = 120;
const watch = "IntersectionObserver" in window
  ? new IntersectionObserver((all) => {
    for (const e of all) {
      if (e.target !== seen) continue;
      const box = e.boundingClientRect;
      const inSight = e.isIntersecting && e.intersectionRect.height >= Math.min(SIGHT, box.height - 1);
      above = !inSight && box.top < 0;
      label();
      show(!inSight);
    }
  }, { threshold: Array.from({ length: 21 }, (_, i) => i / 20) }) : null;
function label() {
  if (pill && S.view) pill.textContent = `${t("Your turn: {prompt}", { prompt: word("prompts", S.view.phase) })} ${above ? "↑" : "↓"}`;
}
function goTo() {
  const h = document.getElementById("decide-h");
  if (!h) return;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  h.closest("section").scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
  h.focus({ preventScroll: true });
}
function point(mine) {
  if (!pill) {
    pill = document.createElement("button");
    Object.assign(pill, { type: "button", id: "yourturn", hidden: true, onclick: goTo });
    pill.dataset.testid = "your-turn";
    document.body.append(pill);
  }
  const h = mine && !S.helpOpen ? document.getElementById("decide-h") : null;
  const panel = h && h.closest("section");
  if (panel !== seen) {
    if (seen && watch) watch.unobserve(seen);
    seen = panel;
    if (panel && watch) watch.observe(panel); else show(false);
  }
  if (h) label();
}

export const attention = {
  // After each render: is a decision waiting for the reader?
  check() {
    const V = S.view;
    const mine = !!(V && V.viewer && V.choices.length && V.pending.includes(V.viewer) && !S.counting);
    point(mine);
    const base = S.code ? `${S.code} · Dark City` : "Dark City";
    document.title = mine ? `● ${t("Your turn")} · ${base}` : base;
    if (mine && !waiting && S.sound) {
      beep();
      if (navigator.vibrate) navigator.vibrate(120);
    }
    waiting = mine;
  },
  chat(line) {
    if (document.hidden && S.sound && line) beep();
  },
  toggle(on) {
    S.sound = on;
    localStorage.setItem("darkcity:sound", on ? "1" : "0");
  },
};
