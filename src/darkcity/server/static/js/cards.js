// One card's rules, from the engine's data (the catalog): initiative, goal, gesture,
// what it does to each role of this deck, and what each of them does to it.
import { S } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el } from "./dom.js";

// The roles of this room's deck (the journal sheet), whatever the phase.
export function deckRoles() {
  if (S.view) return S.view.journal_roles;
  return (S.lobby && S.lobby.config.roles) || [];
}

// What ``attacker``'s attack does to ``target`` (the engine's combat panel).
export function effect(attacker, target) {
  const row = S.cat.panel[attacker];
  return row && Object.hasOwn(row, target) ? row[target] : "nothing";
}

export function panelLines(r, roles) {
  const does = roles.filter((x) => effect(r, x) !== "nothing").map((x) => `${role(x)}: ${word("effects", effect(r, x))}`);
  const suffers = roles.filter((x) => effect(x, r) !== "nothing").map((x) => `${role(x)}: ${word("effects", effect(x, r))}`);
  return { does, suffers };
}

export function cardInfo(card, opts = {}) {
  const r = card.role;
  const step = S.cat.initiative[r];
  const roles = deckRoles();
  const { does, suffers } = panelLines(r, roles);
  const sub = [card.edition && word("editions", card.edition), card.gender && word("genders", card.gender), word("classes", S.cat.role_class[r])].filter(Boolean).join(" · ");
  const H = opts.heading || "div";
  return el("div", { class: "cardinfo", "data-role": r },
    el(H, { class: "rolename", text: role(r) }),
    el("div", { class: "muted", text: sub }),
    el("dl", {},
      el("dt", { text: t("Initiative") }), el("dd", { text: step || t("none (never called)") }),
      el("dt", { text: t("Goal") }), el("dd", { text: S.cat.goals[r] }),
      el("dt", { text: t("Gesture") }), el("dd", { text: S.cat.gestures[r] })),
    el("div", { class: "panels2" },
      el("div", {}, el("div", { class: "ptitle", text: t("What it does to each role") }),
        does.length ? el("ul", { class: "panel" }, does.map((x) => el("li", { text: x }))) : el("p", { class: "muted", text: t("Nothing to any role of this deck.") })),
      el("div", {}, el("div", { class: "ptitle", text: t("What each role does to it") }),
        suffers.length ? el("ul", { class: "panel" }, suffers.map((x) => el("li", { text: x }))) : el("p", { class: "muted", text: t("No role of this deck harms it.") }))));
}

// The combat panel of this deck: attacker (rows) x target (columns).
export function combatTable(roles) {
  return el("div", { class: "scroll" }, el("table", { class: "combat", "data-testid": "combat-panel" },
    el("caption", { text: t("Combat panel: what the attacker (row) does to the target (column)") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Attacker") }), roles.map((x) => el("th", { scope: "col", text: role(x) })))),
    el("tbody", {}, roles.map((a) => el("tr", {}, el("th", { scope: "row", text: role(a) }),
      roles.map((d) => { const e = effect(a, d); return el("td", { class: `eff-${e}`, text: e === "nothing" ? "·" : word("effects", e) }); }))))));
}
