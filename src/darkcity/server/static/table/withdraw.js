// Phase 3: the Mayor asks "Who wants to withdraw?" and counts "1, 2, 3, now!" again (both
// rulebooks), then taps who fled; a Hunter may lower a single arrow instead.
import { el, button, focusFirst } from "./dom.js";
import { t } from "./i18n.js";
import { runCount } from "./count.js";
import { named } from "./reveal.js";

export function withdrawPanel(S, send) {
  const v = S.view;
  // the count of the withdrawals, as the gestures' (spoken, shown, the same beat); it is
  // the table's moment, not an entry: run on this screen, tonight, then the taps
  const counted = S.local.wdCounted === v.night;
  const count = button(counted ? t("Count again") : t("Who wants to withdraw? 1, 2, 3, now!"), () => {
    count.disabled = true;
    runCount(S.prefs, () => { S.local.wdCounted = v.night; S.render(); }, t("Who wants to withdraw?"));
  }, counted ? { class: "small", "data-testid": "wd-count-start" }
    : { class: "primary", "data-testid": "wd-count-start", "data-focus": `wd-count:${v.night}` });
  const rows = v.gesturing.map((p) => {
    const w = v.withdrawals[p];
    const fled = w === true;
    const g = v.gestures[p] || { targets: [] };
    const row = el("div", { class: "row wd", "data-testid": `wd-${p}` },
      button(named(v, p, fled ? t("{player} fled", { player: p }) : p), () => send({ type: "withdrawal", player: p, withdrawal: !fled }),
        { class: "named", "aria-pressed": fled ? "true" : "false", "data-testid": `fled-${p}` }));
    // a Hunter who fled lowered both bolts: a single one is no longer offered (a tap
    // there would have turned the withdrawal into "stays, one bolt down")
    if (g.shows === "hunter" && g.targets.length === 2 && !fled) {
      // the two bolts side by side, under the name: a Hunter takes two rows, not three
      row.append(el("div", { class: "arrows" }, g.targets.map((x, i) => {
        const on = Array.isArray(w) && w.includes(i);
        return button(t("lowers the bolt at {target}", { target: x }), () => send({ type: "withdrawal", player: p, withdrawal: on ? false : [i] }),
          { class: "small", "aria-pressed": on ? "true" : "false", "data-testid": `arrow-${p}-${i}` });
      })));
    }
    return row;
  });
  const box = el("section", { class: "panel", "data-testid": "panel-withdrawal" },
    el("h2", { text: t("Phase 3: withdrawals") }),
    counted ? null : el("p", { "data-testid": "wd-count-say", text: t("Give the table a few seconds to see who attacks whom, then count: on “now!” whoever withdraws lowers their hands to the table.") }),
    counted ? null : el("p", {}, count),
    // once counted, the question was asked aloud: the list alone, every name on a phone's
    // screen above the Mayor's bar (the last one fell under it)
    counted ? null : el("p", { class: "dim", text: t("Who lowered their hands and fled the confrontation?") }),
    rows,
    counted ? el("p", {}, count) : null);
  return counted ? focusFirst(box, `withdrawals:${v.night}`) : box;
}

// "Withdrawals entered: resolve" sits in the Mayor's bar, always on screen: with two
// Hunters or eight players the list runs under a phone's fold.
export function withdrawalsDone(send) {
  return button(t("Withdrawals entered: resolve"), () => send({ type: "withdrawn" }),
    { class: "primary", "data-testid": "withdrawals-done" });
}
