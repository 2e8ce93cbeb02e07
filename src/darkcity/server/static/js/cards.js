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

// The editions of a role's cards in this room's deck: a preset's are in the catalog
// (room/text.py), a custom cast names its cards ("devil:advanced:feminine"). null:
// not known, every line holds.
export function editionsOf(r) {
  const c = S.lobby && S.lobby.config;
  if (!c) return null;
  if (c.deck === "custom") {
    const e = (c.cards || []).map((k) => k.split(":")).filter(([k]) => k === r).map((p) => p[1] || "");
    return !e.length || e.includes("") ? null : e;
  }
  const preset = S.cat.deck_editions && S.cat.deck_editions[c.deck];
  return preset && preset[r] ? preset[r] : null;
}

// A card's lines that hold in this game: an edition's line only for that edition's card
// (the Basic Devil has no advanced goal), a line that needs a role only where that role
// is in the deck (the Creature's, the Demoniac's).
export function linesOf(kind, r, edition) {
  const all = (S.cat[kind] && S.cat[kind][r]) || [];
  const editions = edition ? [edition] : editionsOf(r);
  const roles = deckRoles();
  return all.filter(([, ed, needs]) => (!ed || !editions || editions.includes(ed))
    && (!needs || !roles.length || roles.includes(needs))).map(([text]) => text);
}

// A card's gesture as its edition has it: the basic Hunter's without the advanced
// double aim.
export function gestureOf(r, edition) {
  const editions = edition ? [edition] : editionsOf(r);
  const basic = S.cat.gestures_basic && S.cat.gestures_basic[r];
  return basic && editions && !editions.includes("advanced") ? basic : S.cat.gestures[r];
}

// The combat panel's terms, explained where they are used.
export function effectNote(e) {
  if (e === "reflex") return t("Silver reflex: a Werewolf that attacks the Hunter does the Hunter no harm, and at step 5 the Hunter kills it, no bolt needed.");
  // (the Zombie's second power line: "Two Zombies side by side both die at step 4 (the
  // cannibal rule), unless one withdrew or fell before.")
  if (e === "cannibal") return ((S.cat.powers.zombie || [])[1] || [null])[0];
  return null;
}

// What ``attacker``'s attack does to ``target`` (the engine's combat panel).
export function effect(attacker, target) {
  const row = S.cat.panel[attacker];
  return row && Object.hasOwn(row, target) ? row[target] : "nothing";
}

export function panelLines(r, roles) {
  const line = (x, e) => el("li", { title: effectNote(e) }, `${role(x)}: ${word("effects", e)}`);
  const does = roles.filter((x) => effect(r, x) !== "nothing").map((x) => line(x, effect(r, x)));
  const suffers = roles.filter((x) => effect(x, r) !== "nothing").map((x) => line(x, effect(x, r)));
  return { does, suffers };
}

export function cardInfo(card, opts = {}) {
  const r = card.role;
  const step = S.cat.initiative[r];
  const roles = deckRoles();
  const { does, suffers } = panelLines(r, roles);
  // the lines that hold for this card in this deck (its edition's, the roles in play)
  const goals = linesOf("goal_lines", r, card.edition);
  const powers = linesOf("powers", r, card.edition);
  // what a term means, where it is used: the terms of its panel, under it
  const notes = [...new Set([...roles.map((x) => effect(r, x)), ...roles.map((x) => effect(x, r))])]
    .map(effectNote).filter(Boolean);
  const sub = [card.edition && word("editions", card.edition), card.gender && word("genders", card.gender), word("classes", S.cat.role_class[r])].filter(Boolean).join(" · ");
  const H = opts.heading || "div";
  return el("div", { class: "cardinfo", "data-role": r },
    el(H, { class: "rolename", text: role(r) }),
    el("div", { class: "muted", text: sub }),
    el("dl", {},
      el("dt", { text: t("Initiative") }), el("dd", { text: step === "1+" ? t("1+ (the first step of all, before 1)") : step || t("none (never called)") }),
      el("dt", { text: t("Goal") }), el("dd", { "data-testid": "card-goal", text: goals.length ? goals.join(" ") : S.cat.goals[r] }),
      el("dt", { text: t("Gesture") }), el("dd", { "data-testid": "card-gesture", text: gestureOf(r, card.edition) }),
      powers.length ? [el("dt", { text: t("Powers") }), el("dd", { "data-testid": "card-powers", text: powers.join(" ") })] : null),
    el("div", { class: "panels2" },
      el("div", {}, el("div", { class: "ptitle", text: t("What it does to each role") }),
        does.length ? el("ul", { class: "panel" }, does) : el("p", { class: "muted", text: t("Nothing to any role of this deck.") })),
      el("div", {}, el("div", { class: "ptitle", text: t("What each role does to it") }),
        suffers.length ? el("ul", { class: "panel" }, suffers) : el("p", { class: "muted", text: t("No role of this deck harms it.") }))),
    notes.length ? el("ul", { class: "termnotes", "data-testid": "term-notes" }, notes.map((x) => el("li", { text: x }))) : null);
}

// The combat panel of this deck: attacker (rows) x target (columns).
export function combatTable(roles) {
  // its terms under it: "·", the silver reflex, the cannibal rule, a Devil's row of "·"
  const used = new Set(roles.flatMap((a) => roles.map((d) => effect(a, d))));
  const notes = [t("·: no effect on that role."), ...[...used].map(effectNote).filter(Boolean)];
  if (roles.includes("devil") && roles.every((d) => effect("devil", d) === "nothing")) {
    notes.push(t("The Devil harms no role of this deck: its gesture is only a disguise, another role's."));
  }
  return el("div", { class: "scroll" }, el("table", { class: "combat", "data-testid": "combat-panel" },
    el("caption", { text: t("Combat panel: what the attacker (row) does to the target (column)") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Attacker") }), roles.map((x) => el("th", { scope: "col", text: role(x) })))),
    el("tbody", {}, roles.map((a) => el("tr", {}, el("th", { scope: "row", text: role(a) }),
      roles.map((d) => { const e = effect(a, d); return el("td", { class: `eff-${e}`, title: effectNote(e), text: e === "nothing" ? "·" : word("effects", e) }); }))))),
  el("ul", { class: "termnotes", "data-testid": "combat-notes" }, notes.map((x) => el("li", { text: x }))));
}
