// The tables this device holds a link to (the Mayor's or a player's), on the set-up page:
// a Mayor who closed the tab, or came back through the home page, finds the game again.
import { el, button, toast } from "./dom.js";
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
  // the pocket app: every table kept on this phone (finished ones too), newest first
  if (api.tables) return api.tables().catch((e) => { toast(e.message); return []; });
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

export function resumePanel(saved, S) {
  if (api.local) return saved ? localPanel(saved, S) : null;
  if (!saved || !saved.length) return null;
  return el("div", { class: "panel", "data-testid": "resume" },
    el("h2", { text: t("Games in progress on this device") }),
    saved.map((s) => el("p", {},
      el("a", { class: "button-link", href: api.tablePath(s.code), "data-testid": `resume-${s.code}` },
        t("Table {code}", { code: s.code })),
      " ", el("span", { class: "dim", text: `${t("Night {n}", { n: s.night })} · ${s.players.join(", ")}${s.mayor ? ` · ${t("Mayor")}` : ""}` }))));
}

// The pocket app's tables, kept on this phone: resume, delete (said first: it cannot be
// undone), and a game's file imported back (darkcity-table/1).
function localPanel(saved, S) {
  const reload = () => loadSaved().then((found) => { S.saved = found; S.render(); });
  const file = el("input", { type: "file", accept: ".json,application/json", "data-testid": "import-file",
    "aria-label": t("Import a game (file)") });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    try {
      const r = await api.importFile(f);
      toast(t("Game imported: table {code}.", { code: r.code }), "ok");
      reload();
    } catch (e) {
      toast(e.message);  // what is wrong in the file; nothing saved was touched
      const box = document.querySelector("[data-testid=import-error]");
      if (box) box.textContent = e.message;
    }
  });
  // no cards at hand: the online table's page, its room on this phone (pocket/site/play.js)
  const play = api.playPath ? el("div", { class: "panel", "data-testid": "play" },
    el("a", { class: "button-link", href: api.playPath(), "data-testid": "play-link", text: t("Play against bots on this phone") }),
    " ", el("span", { class: "dim", text: t("No cards at hand? The app is the Mayor and bots fill the other seats.") })) : null;
  return el("div", {}, play, el("div", { class: "panel", "data-testid": "resume" },
    el("h2", { text: t("Tables on this phone") }),
    saved.length ? saved.map((s) => el("p", { "data-testid": `table-${s.code}` },
      s.damaged ? el("span", { class: "error", text: `${t("Table {code}", { code: s.code })}: ${s.damaged}` })
        : el("a", { class: "button-link", href: api.tablePath(s.code), "data-testid": `resume-${s.code}` },
          t("Table {code}", { code: s.code })),
      " ", s.damaged ? null : el("span", { class: "dim", text: `${t("Night {n}", { n: s.night })} · ${s.players.join(", ")}${s.stage === "over" ? ` · ${t("finished")}` : ""}` }),
      " ", button(t("Delete"), async () => {
        if (!confirm(t("Delete table {code} from this phone? It cannot be undone: export the game first to keep it.", { code: s.code }))) return;
        try { await api.remove(s.code); } catch (e) { toast(e.message); }
        reload();
      }, { class: "small danger", "data-testid": `delete-${s.code}` })))
      : el("p", { class: "dim", text: t("No table yet: set one up below.") }),
    el("label", {}, t("Import a game (file)"), " ", file),
    el("p", { class: "error", role: "alert", "data-testid": "import-error" })));
}
