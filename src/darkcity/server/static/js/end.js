// The end: who won and by which condition, the tiebreak in plain words, "Play again"
// (same seats, settings and bots) and "Back to the home page"; the game's record.
import { S, isHost } from "./store.js";
import { t, word } from "./i18n.js";
import { el } from "./dom.js";
import { post, followNext } from "./net.js";
import { CONDITIONS } from "./help.js";
import { conditionLine } from "./won.js";
import { places } from "./places.js";

async function playAgain() {
  if (places.again) { const code = await places.again(S.code); if (code) followNext(code); return; }
  const r = await post(`/api/rooms/${encodeURIComponent(S.code)}/again`, { token: S.token || "" });
  if (r) followNext(r.code);
}

export function endPanel() {
  const V = S.view;
  const st = S.standing;
  const byName = new Map(st ? st.seats.map((s) => [s.name, s]) : []);
  const box = el("section", { class: "card end", "data-testid": "victory", "aria-labelledby": "end-h" },
    el("h2", { id: "end-h", text: V.winners.length ? t("Winners: {names}", { names: V.winners.join(", ") }) : t("The game is over") }));
  box.append(el("ul", { class: "met", "data-testid": "conditions" }, V.winners.map((w) => {
    const s = byName.get(w);
    // the row and the card that won: "Ada — 4 XP as the Priest"
    const met = s ? s.met.map((c) => conditionLine(w, c, (s.met_rows || {})[c])).join("; ") : "";
    return el("li", { "data-testid": "won-by" }, el("strong", { text: w }), " — ",
      t("{condition} ({xp} XP; rows with XP: {rows})", { condition: met, xp: s ? s.xp : 0, rows: s ? s.rows : 0 }));
  })));
  // how a game is won, for whoever wonders why a seat with more XP did not (Ada's 6 XP
  // beside Davi's winning 4 in one row)
  box.append(el("p", { class: "muted", "data-testid": "how-won", text: t("Whoever first meets one of these wins: {conditions}.", { conditions: CONDITIONS.map((c) => word("conditions", c)).join(" · ") }) }));
  if (st && st.tiebreak) box.append(el("p", { class: "tiebreak", "data-testid": "tiebreak", text: st.tiebreak }));
  const actions = el("div", { class: "row wrap actions" });
  if (S.lobby && S.lobby.next) {
    actions.append(el("button", { type: "button", "data-testid": "next-game", text: t("Join the new game"), onclick: () => followNext(S.lobby.next) }));
  } else if (isHost() || places.again) {  // (on one phone: whoever holds it)
    actions.append(el("button", { type: "button", "data-testid": "play-again", text: t("Play again"), onclick: playAgain }));
  } else {
    actions.append(el("p", { class: "muted", text: t("The host can start another game with the same seats.") }));
  }
  actions.append(el("a", { class: "button secondary", href: places.home, "data-testid": "back-lobby", text: t("Back to the home page") }),
    el("a", { class: "button secondary", ...places.record(S.code), download: `darkcity-${S.code}.json`, "data-testid": "record", text: t("Download the game record") }),
    el("a", { class: "button secondary", href: places.review(S.code), "data-testid": "review-link", text: t("Step through this game") }));
  box.append(actions, el("p", { class: "muted", "data-testid": "record-about",
    text: t("The game record is a file (JSON) with every card, gesture and decision of this game, to keep or to replay it (darkcity replay FILE).") }));
  return box;
}
