// "Your turn": the tab's title says so while a decision waits for you; an optional
// sound and vibration (off by default, remembered on this device).
import { S } from "./store.js";
import { t } from "./i18n.js";

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

export const attention = {
  // After each render: is a decision waiting for the reader?
  check() {
    const V = S.view;
    const mine = !!(V && V.viewer && V.choices.length && V.pending.includes(V.viewer) && !S.counting);
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
