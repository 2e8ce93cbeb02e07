// Phase 5: the night's outcome, the journals (public, as on the table), the winners
// with the condition met; each night's round can be downloaded. The next night is in
// the Mayor's bar (main.js), always on screen.
import { el } from "./dom.js";
import { t, role, fate, condition, cardLabel } from "./i18n.js";
import { api } from "./api.js";

// One row per player, as on the paper sheets, and the roles written upwards: eight
// players and eight roles fit a phone without scrolling sideways. ``first``: a player's
// phone, their own row first (marked) and then the others clockwise from them.
export function journalTable(v, first) {
  const at = first ? v.players.indexOf(first) : 0;
  const players = [...v.players.slice(at), ...v.players.slice(0, at)];
  return el("div", { class: "scroll" }, el("table", { class: "journal", "data-testid": "journals" },
    el("thead", {}, el("tr", {}, el("th", { class: "who", scope: "col", text: t("Player") }),
      v.sheet.map((r) => el("th", { class: "rolecol", scope: "col" }, el("span", { text: role(r) }))),
      el("th", { class: "total", scope: "col", text: t("Total") }))),
    el("tbody", {}, players.map((p) => el("tr", { "data-name": p, class: p === first ? "mine" : null }, el("th", { class: "who", scope: "row", text: p }),
      v.sheet.map((r) => el("td", { "data-role": r, text: String((v.journals[p] || {})[r] || "") })),
      el("td", { class: "total", text: String(v.totals[p]) }))))));
}

// A card as the table reads it: its gender only where the rules use it, a Creature's
// marriage (the night's table said "Reporter (masculine)" though no card shows one).
export function asRead(v, card) {
  return v.deck.cards.some((c) => c.role === "creature") ? card : { ...card, gender: null };
}

// Who won and by which condition; when several met one, how the tiebreak ranked them
// . The Mayor's screen and every player's phone show the same panel.
export function winnersPanel(v, testid) {
  if (!v.winners.length) return null;
  return el("div", { class: "panel", "data-testid": testid },
    el("p", { class: "big winner", text: t("Winners: {names}", { names: v.winners.join(", ") }) }),
    v.winners.map((p) => el("p", { text: `${p}: ${v.conditions[p].map(condition).join(", ")}` })),
    v.contenders.length > v.winners.length ? [
      el("p", { class: "dim", text: t("Tiebreak among those who met a condition: most XP, then most rows with XP.") }),
      v.contenders.map((c) => el("p", { "data-testid": `${testid}-contender-${c.player}`,
        text: c.rows === 1 ? t("{player}: {xp} XP in 1 row", { player: c.player, xp: c.xp })
          : t("{player}: {xp} XP in {rows} rows", { player: c.player, xp: c.xp, rows: c.rows }) }))] : null);
}

export function resultPanel(S) {
  const v = S.view;
  const r = v.result;
  if (!r) return null;
  const rows = v.players.map((p) => {
    const x = r.players[p];
    return el("tr", {}, el("td", { text: p }), el("td", { text: cardLabel(asRead(v, x.card)) }),
      el("td", { text: fate(x.fate) }), el("td", { text: x.xp ? `+${x.xp}` : "" }));
  });
  // at the game's end, who won comes first: it is what the table waits for, and the
  // keyboard's focus goes there (not to New game, which a second Enter would press)
  const won = winnersPanel(v, "winners");
  if (won) { won.setAttribute("tabindex", "-1"); won.setAttribute("data-focus", "over"); }
  const box = el("section", { class: "panel", "data-testid": "panel-journals" },
    won,
    el("h2", { text: t("Phase 5: night {n}", { n: r.number }) }),
    el("table", { "data-testid": "fates" },
      el("thead", {}, el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Card") }), el("th", { text: t("Fate") }), el("th", { text: t("XP") }))),
      el("tbody", {}, rows)),
    el("h2", { text: t("Journals") }), journalTable(v));
  box.append(el("p", { class: "row" },
    api.exportLink(v.code, r.number, { "data-testid": "export-night" }, t("Night {n} (round notation)", { n: r.number })),
    api.exportLink(v.code, null, { "data-testid": "export-record" }, t("The whole game (record)"))));
  return box;
}
