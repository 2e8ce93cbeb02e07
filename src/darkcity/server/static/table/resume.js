// The tables this device holds a link to (the Mayor's or a player's), on the set-up page:
// a Mayor who closed the tab, or came back through the home page, finds the game again.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

const KEY = /^darkcity:table:([A-Z0-9]+)$/;

export function savedCodes() {
  const codes = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const m = KEY.exec(localStorage.key(i) || "");
    if (m) codes.push(m[1]);
  }
  return codes.slice(0, 12);
}

// Each saved table as the server has it now; one no longer there is forgotten.
export async function loadSaved() {
  const found = [];
  for (const code of savedCodes()) {
    try {
      const v = await api.state(code, localStorage.getItem(`darkcity:table:${code}`), null);
      if (v.stage !== "over") found.push({ code, night: v.night, mayor: v.reader === "mayor", players: v.players });
    } catch (e) {
      if (e.status === 404) localStorage.removeItem(`darkcity:table:${code}`);
    }
  }
  return found;
}

export function resumePanel(saved) {
  if (!saved || !saved.length) return null;
  return el("div", { class: "panel", "data-testid": "resume" },
    el("h2", { text: t("Games in progress on this device") }),
    saved.map((s) => el("p", {},
      el("a", { class: "button-link", href: `/table/${s.code}`, "data-testid": `resume-${s.code}` },
        t("Table {code}", { code: s.code })),
      " ", el("span", { class: "dim", text: `${t("Night {n}", { n: s.night })} · ${s.players.join(", ")}${s.mayor ? ` · ${t("Mayor")}` : ""}` }))));
}
