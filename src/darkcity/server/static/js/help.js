// The rules at hand, in every phase: the five phases, the four victory conditions
// and the tiebreak, the cards of this deck, each player's progress, the badges.
import { S, update } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el } from "./dom.js";
import { cardInfo, combatTable, deckRoles } from "./cards.js";
import { standingNow } from "./story.js";

const PHASES = [
  "Phase 1: Draft — keep one card of the hand handed to you, pass the rest to your left.",
  "Phase 2: Gestures — on the Mayor's \"1, 2, 3, now!\" everybody shows their gesture at once.",
  "Phase 3: Withdrawal — anyone may flee the night (no attack, no XP); the target of a Creature may not.",
  "Phase 4: Resolution — in initiative order (1+, 1, 2 … 8); * never acts.",
  "Phase 5: Journal — XP for the goals met; then the next active player.",
];
export const CONDITIONS = ["six-roles", "eight-xp", "three-pairs", "four-in-one"];

// The phases as this deck plays them: the Creature's rule only where there is one.
function phases(roles) {
  const out = PHASES.map((p) => t(p));
  out[2] = t("Phase 3: Withdrawal — anyone may flee the night (no attack, no XP).")
    + (roles.includes("creature") ? ` ${t("The player a Creature proposes to may not withdraw.")}` : "");
  return out;
}

export function openHelp(r) {
  update(() => { S.helpOpen = true; S.helpRole = r || null; });
}

export function helpButton() {
  return el("button", { class: "secondary small", type: "button", "data-testid": "help-open", "aria-haspopup": "dialog",
    "aria-keyshortcuts": "?", title: "?", text: t("Rules"), onclick: () => openHelp(null) });
}

function progressTable() {
  const st = standingNow();
  if (!st) return null;
  return el("div", { class: "scroll" }, el("table", { class: "progress", "data-testid": "progress" },
    el("caption", { text: t("Towards victory") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Player") }), CONDITIONS.map((c) => el("th", { scope: "col", text: word("conditions", c) })))),
    el("tbody", {}, st.seats.map((s) => el("tr", { class: s.near.length ? "near" : "" },
      el("th", { scope: "row" }, s.name, s.near.length ? el("span", { class: "badge near", text: t("1 XP from winning") }) : null),
      s.progress.map((p) => el("td", { class: p.have >= p.need ? "met" : "",
        text: p.row ? t("{have} / {need} in {role}", { have: p.have, need: p.need, role: role(p.row) }) : `${p.have} / ${p.need}` })))))));
}

function legend() {
  const items = [
    [t("first active"), t("The first night's active player (whom the rulebook calls the Mayor). Here the app itself counts and conducts the game, as the Mayor would.")],
    [t("face-down card"), t("This player took a card face down at random in tonight's draft.")],
    [t("active"), t("The active player: starts tonight's draft; then the player to their left, clockwise, each night.")],
    [t("you"), t("Your seat.")], [t("bot"), t("A bot plays this seat.")],
    [t("away"), t("Disconnected; after the grace period a bot decides for them.")],
    [t("1 XP from winning"), t("One more XP in the right row meets a victory condition.")],
  ];
  return el("dl", { class: "legend", "data-testid": "legend" }, items.map(([k, v]) => [el("dt", {}, el("span", { class: "badge", text: k })), el("dd", { text: v })]));
}

// Tab stays inside the open rules (aria-modal): from the last control to the first.
function trap(ev) {
  const all = [...ev.currentTarget.querySelectorAll("button, summary, a[href], input, select")];
  if (!all.length) return;
  const [first, last] = [all[0], all[all.length - 1]];
  if (ev.shiftKey && document.activeElement === first) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && document.activeElement === last) { ev.preventDefault(); first.focus(); }
}

export function helpDialog() {
  if (!S.helpOpen) return null;
  const roles = deckRoles();
  const close = () => update(() => { S.helpOpen = false; });
  const cards = roles.map((r) => el("details", { class: "helpcard", "data-testid": `help-card-${r}`, open: S.helpRole === r },
    el("summary", { text: `${role(r)} · ${t("Initiative")} ${S.cat.initiative[r] || "*"}` }), cardInfo({ role: r, edition: "", gender: "" })));
  const d = el("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-h", "data-testid": "help",
    onkeydown: (ev) => { if (ev.key === "Escape") close(); else if (ev.key === "Tab") trap(ev); } },
  el("div", { class: "modalbox" },
    el("div", { class: "row spread" }, el("h2", { id: "help-h", text: t("Rules of the cards in play") }),
      el("button", { class: "secondary small", type: "button", "data-testid": "help-close", text: t("Close"), onclick: close })),
    el("h3", { text: t("A night") }), el("ol", { class: "phases", "data-testid": "phases" }, phases(roles).map((p) => el("li", { text: p }))),
    el("p", { class: "muted", text: t("1+ is the first step of all, before 1; * marks a card that is never called (no step of its own).") }),
    el("h3", { text: t("Victory") }),
    el("ul", {}, CONDITIONS.map((c) => el("li", { text: word("conditions", c) }))),
    el("p", { text: t("Tiebreak: the most XP in all wins, then the most rows with XP; players still tied share the victory.") }),
    progressTable(),
    el("h3", { text: t("The cards in play") }), cards,
    roles.length ? combatTable(roles) : null,
    el("h3", { text: t("Badges") }), legend()));
  d.addEventListener("click", (ev) => { if (ev.target === d) close(); });
  return d;
}
