// "1, 2, 3, now!" at a steady beat, the same every night: each number is shown (and
// spoken, and ticked, if wished) at a fixed time from the start, so a late timer never
// shifts the next one. window.__darkcityCount keeps when each number was shown.
import { el, button } from "./dom.js";
import { t } from "./i18n.js";
import { say, tick, hush } from "./speech.js";

export const BEAT_MS = 900;

// ``ask``: a question said before the numbers (Phase 3's "Who wants to withdraw?"),
// shown and spoken two beats ahead of them; the numbers keep the same beat.
export function runCount(opts, done, ask = null) {
  const words = [t("1"), t("2"), t("3"), t("Now!")];
  const box = document.getElementById("count");
  const shown = [];
  window.__darkcityCount = shown;
  hush();
  box.classList.remove("hidden");
  box.classList.toggle("asking", Boolean(ask));
  box.textContent = ask || "";
  if (ask && opts.speak) say(ask);
  const start = performance.now() + 250 + (ask ? 2 * BEAT_MS : 0);
  let i = 0;
  const step = () => {
    const now = performance.now();
    const due = start + i * BEAT_MS;
    if (now < due - 1) {
      setTimeout(step, Math.max(0, due - now - 1));
      return;
    }
    if (i < words.length) {
      box.textContent = words[i];
      box.setAttribute("data-beat", String(i));
      box.classList.remove("asking");
      shown.push({ text: words[i], at: performance.now(), due });
      if (opts.speak) say(words[i]);
      if (opts.tick) tick(i === words.length - 1);
      i += 1;
      setTimeout(step, Math.max(0, start + i * BEAT_MS - performance.now() - 1));
      return;
    }
    box.classList.add("hidden");
    box.textContent = "";
    done();
  };
  setTimeout(step, Math.max(0, start - performance.now()));
}

export function countPanel(S, send) {
  const opts = S.prefs;
  const night = S.view.night;
  const count = () => runCount(opts, () => {
    S.local.counted = night;  // the count has run tonight, whether its entry is stored or not
    send({ type: "counted" });
  });
  if (S.local.counted === night) {
    // the count ran but its entry did not reach the server (the network, a restart): the
    // table has made its gestures, so the Mayor goes on without counting again
    return el("section", { class: "panel", "data-testid": "panel-count" },
      el("h2", { text: t("Phase 2: the gestures") }),
      el("p", { class: "warn", "data-testid": "count-unsaved", text: t("The count was done, but it did not reach the server. Everyone has made their gesture: go on without counting again.") }),
      el("p", {}, button(t("Counted: enter the gestures"), () => send({ type: "counted" }),
        { class: "primary", "data-testid": "count-saved", "data-focus": `count-saved:${night}` })),
      el("p", {}, button(t("Count again"), () => { S.local.counted = null; S.render(); }, { class: "small", "data-testid": "count-again" })));
  }
  const go = button(t("Count: 1, 2, 3, now!"), () => {
    go.disabled = true;
    count();
  }, { class: "primary", "data-testid": "count-start", "data-focus": `count:${night}` });
  const toggle = (key, label) => button(label, () => {
    opts[key] = !opts[key];
    localStorage.setItem("darkcity:table:prefs", JSON.stringify(opts));
    S.render();
  }, { "aria-pressed": opts[key] ? "true" : "false", "data-testid": `pref-${key}` });
  return el("section", { class: "panel", "data-testid": "panel-count" },
    el("h2", { text: t("Phase 2: the gestures") }),
    el("p", { text: t("Everyone ready? Count aloud with the app; on “now!” everyone makes their gesture and holds it.") }),
    el("div", { class: "row" }, toggle("speak", t("Speak")), toggle("tick", t("Tick")),
      toggle("calls", t("Spoken calls"))),
    // a phone lying on the table runs the night: each call said aloud, a pause to turn
    // the card over, and the next by itself where nothing is asked (the Mayor plays too)
    opts.calls ? el("p", { class: "dim", "data-testid": "calls-on", text: t("Spoken calls: each call is said aloud, with a pause to turn the card over; a call that asks nothing goes on by itself.") }) : null,
    el("p", {}, go));
}
