// Phase 1 with the real cards: who is active, which way the hands pass, and, with Death
// in the deck, the last drafter's secret: the phone is handed over, or they type it on
// their own phone.
import { el, button, focusFirst } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

// The name written: nothing of it, nor of the table, shows until the Mayor has the
// phone back and says so.
export function handBackPanel(S) {
  return focusFirst(el("section", { class: "panel secret", "data-testid": "panel-hand-back" },
    el("p", { class: "big", text: t("Thank you, {player}.", { player: S.local.handBack }) }),
    el("p", { text: t("Hand the phone back to the Mayor.") }),
    button(t("I am the Mayor: show the table"), () => { S.local = {}; S.render(); },
      { class: "primary", "data-testid": "hand-back" })), `handback:${S.view.night}`);
}

export function draftPanel(S, send) {
  const v = S.view;
  const local = S.local;
  const order = v.draft_order.join(" → ");
  const box = el("section", { class: "panel", "data-testid": "panel-draft" },
    el("h2", { text: t("Phase 1: the draft") }),
    el("p", { class: "big", "data-testid": "active" }, t("{player} is the active player", { player: v.active })),
    el("p", { "data-testid": "direction", text: t("The hand passes to the left (clockwise): {order}", { order }) }),
    el("p", { class: "dim", text: t("Shuffle, put three cards face down, deal the hand to {player}.", { player: v.active }) }));
  if (!v.death_in_play) {
    box.append(button(t("Everyone has a card"), () => send({ type: "drafted", death_names: null }),
      { class: "primary", "data-testid": "drafted" }));
    return focusFirst(box, `draft:${v.night}`);
  }
  const last = v.last_drafter;
  if (local.secret) {
    // the phone is in the last drafter's hands: the names, then hand it back
    const names = v.players.filter((p) => p !== last);
    return focusFirst(el("section", { class: "panel secret", "data-testid": "panel-secret" },
      el("p", { class: "big", text: t("{player} only", { player: last }) }),
      el("p", { text: t("Whose name did you write on Death's card?") }),
      el("div", { class: "grid" }, names.map((p) => button(p, () => {
        local.secret = false;
        local.handBack = last;  // (the phone is still in their hands: handBackPanel)
        send({ type: "drafted", death_names: p });
      }, { "data-testid": `death-name-${p}` }))),
      button(t("Cancel"), () => { local.secret = false; S.render(); }, { class: "small" })), `secret:${v.night}`);
  }
  box.append(el("p", { text: t("Death is in the deck: only {player}, the last to choose, may take it.", { player: last }) }),
    el("div", { class: "row" },
      button(t("{player} took Death", { player: last }), () => { local.secret = true; S.render(); },
        { "data-testid": "took-death" }),
      button(t("Nobody took Death"), () => send({ type: "drafted", death_names: null }),
        { class: "primary", "data-testid": "drafted" })),
    // players' own phones are a server's (the pocket app has none)
    api.local ? null : el("p", { class: "dim", text: t("Or {player} enters the name on their own phone, from the table's link.", { player: last }) }));
  return focusFirst(box, `draft:${v.night}`);
}
