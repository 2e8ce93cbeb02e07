// Phase 3: tap who fled; a Hunter may lower a single arrow instead.
import { el, button, focusFirst } from "./dom.js";
import { t } from "./i18n.js";

export function withdrawPanel(S, send) {
  const v = S.view;
  const rows = v.gesturing.map((p) => {
    const w = v.withdrawals[p];
    const fled = w === true;
    const g = v.gestures[p] || { targets: [] };
    const row = el("div", { class: "row wd", "data-testid": `wd-${p}` },
      button(fled ? t("{player} fled", { player: p }) : p, () => send({ type: "withdrawal", player: p, withdrawal: !fled }),
        { "aria-pressed": fled ? "true" : "false", "data-testid": `fled-${p}` }));
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
  return focusFirst(el("section", { class: "panel", "data-testid": "panel-withdrawal" },
    el("h2", { text: t("Phase 3: withdrawals") }),
    el("p", { class: "dim", text: t("Who lowered their hands and fled the confrontation?") }),
    rows), `withdrawals:${v.night}`);
}

// "Withdrawals entered: resolve" sits in the Mayor's bar, always on screen: with two
// Hunters or eight players the list runs under a phone's fold.
export function withdrawalsDone(send) {
  return button(t("Withdrawals entered: resolve"), () => send({ type: "withdrawn" }),
    { class: "primary", "data-testid": "withdrawals-done" });
}
