// The journals: every player's XP per row of the sheet (public), narrow enough for
// eight roles on a phone: numbers, and role names written upwards.
import { S } from "./store.js";
import { t, role } from "./i18n.js";
import { el } from "./dom.js";
import { journalOf, standingOf, telling } from "./story.js";

export function journalPanel() {
  const V = S.view;
  const head = el("tr", {}, el("th", { scope: "col", class: "who", text: t("Player") }),
    V.journal_roles.map((r) => el("th", { scope: "col", class: "rolecol" }, el("span", { text: role(r) }))),
    el("th", { scope: "col", class: "total", text: t("XP") }));
  const rows = V.seats.map((s) => {
    const journal = journalOf(s);
    const j = new Map(journal);
    const winner = V.winners.includes(s.name) && !telling();
    const sx = standingOf(s.name);
    const n = (sx && sx.near) || [];
    return el("tr", { class: `${winner ? "winner" : ""} ${n.length && !V.winners.length ? "near" : ""}`, "data-name": s.name },
      el("th", { scope: "row", class: "who" }, s.name,
        winner ? el("span", { class: "badge winner", text: t("winner") }) : null,
        n.length && !V.winners.length ? el("span", { class: "badge near", title: n.map(role).join(", "), text: t("1 XP from winning") }) : null),
      V.journal_roles.map((r) => el("td", { "data-role": r, text: j.get(r) ? String(j.get(r)) : "" })),
      el("td", { class: "total", text: String(journal.reduce((a, [, x]) => a + x, 0)) }));
  });
  return el("section", { class: "card journals", "data-testid": "journals", "aria-labelledby": "journals-h" },
    el("h2", { id: "journals-h", text: t("Journals") }),
    el("table", {}, el("thead", {}, head), el("tbody", {}, rows)));
}
