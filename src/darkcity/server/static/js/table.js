// The table: a circle of seats (the lobby's or the game's) with the reveal drawn over it.
import { S } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el } from "./dom.js";
import { RADIUS, arrowLayer, arrowsOf, gestureText, revealNow } from "./reveal.js";
import { fateTold, fatesShown, journalOf, standingOf, telling } from "./story.js";
import { currentChoices, setFilter, targetsOf } from "./decide.js";

export function circle(nodes, center, arrows) {
  const n = nodes.length;
  const box = el("div", { class: "table", "data-testid": "table" }, center);
  nodes.forEach((node, i) => {
    const a = (Math.PI * 2 * i) / n + Math.PI / 2;
    node.style.left = `${50 + RADIUS * Math.cos(a)}%`;
    node.style.top = `${50 + RADIUS * Math.sin(a)}%`;
    box.append(node);
  });
  // the labels keep clear of the centre's title, as long as it is
  const title = center && center.querySelector ? (center.querySelector("[data-testid=phase]") || {}).textContent : null;
  if (arrows && arrows.length) box.append(arrowLayer(arrows, n, title));
  return box;
}

export function badge(text, kind) { return el("span", { class: `badge ${kind || ""}`, text }); }

// A bot's badge says, on hover or a long press, the style it plays this game with (a
// table of bots is not five copies of one mind: bots/family.py).
export function botBadge(b, seat) {
  if (seat && seat.style) {
    b.title = word("styles", seat.style);
    b.dataset.style = seat.style;
    b.setAttribute("aria-label", `${b.textContent}: ${b.title}`);
  }
  return b;
}

// The game's seats: name, badges (explained in the help), XP, decided, card, gesture.
export function gameSeats() {
  const V = S.view;
  const lobbySeats = S.lobby.seats;
  const inNight = ["gesture", "withdrawal", "zombie"].includes(V.phase);
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  const showFates = !inNight && fatesShown();
  const lastCards = new Map(last ? last.cards : []);
  const filterable = targetsOf(currentChoices(V)).size > 0;
  return V.seats.map((s, i) => {
    const L = lobbySeats[i] || {};
    const mine = V.viewer === s.name;
    const xp = journalOf(s).reduce((a, [, x]) => a + x, 0);
    const kids = [el("div", { class: "seatname", text: s.name })];
    const badges = [];
    // (the app is the Mayor: the badge says what it means, the first night's active player)
    if (V.mayor === s.name) badges.push(badge(t("first active"), "mayor"));
    if (V.active === s.name && V.phase !== "over") badges.push(badge(t("active"), "active"));
    if (mine) badges.push(badge(t("you"), "you"));
    if (L.kind === "bot") badges.push(botBadge(badge(t("bot"), "bot"), L));
    if (L.kind === "human" && !L.online) badges.push(badge(t("away"), "away"));
    if (V.blind_pick === s.name && inNight) badges.push(badge(t("face-down card"), "blind"));
    const sx = standingOf(s.name);
    if (sx && sx.near.length && V.phase !== "over") badges.push(badge(t("1 XP from winning"), "near"));
    if (V.winners.includes(s.name) && !telling()) badges.push(badge(t("winner"), "winner"));
    kids.push(el("div", { class: "badges" }, badges));
    kids.push(el("div", { class: "seatxp", text: t("{n} XP", { n: xp }) }));
    if (s.decided !== null && !(S.counting && V.required.includes(s.name))) {
      kids.push(el("div", { class: `decided ${s.decided ? "yes" : "no"}`, "data-testid": `decided-${i}`, text: s.decided ? t("decided") : t("deciding…") }));
    } else if (S.counting && V.required.includes(s.name)) {
      kids.push(el("div", { class: "decided yes", "data-testid": `decided-${i}`, text: t("decided") }));
    }
    const card = s.card || (!inNight && lastCards.get(s.name));
    if (card) kids.push(el("div", { class: "mini", text: role(card.role) }));
    if (s.gesture && (mine || V.phase !== "gesture")) kids.push(el("div", { class: "gest", text: gestureText(s.gesture, false) }));
    if (s.withdrawal === true) kids.push(el("div", { class: "gest fled", text: t("withdrew") }));
    else if (Array.isArray(s.withdrawal) && s.withdrawal.length) kids.push(el("div", { class: "gest", text: t("lowered a bolt") }));
    // a fate lasts one night, and is shown from the story's step that tells it: "killed
    // tonight" (the story says the rest: no XP, plays again the next night)
    const fate = showFates ? fateTold(last, s.name) : null;
    if (fate) kids.push(el("div", { class: "fate", "data-testid": `fate-${i}`, title: t("Lasts one night: plays again the next night."), text: t("{fate} tonight", { fate: word("fates", fate) }) }));
    const chosen = S.filter.includes(s.name);
    return el("button", {
      class: `seat ${mine ? "me" : ""} ${chosen ? "chosen" : ""} ${filterable ? "pickable" : ""} ${s.withdrawal === true ? "fled" : ""}`,
      "data-testid": `seat-${i}`, "data-name": s.name, type: "button",
      "aria-pressed": filterable ? String(chosen) : null, tabindex: filterable ? null : "-1",
      onclick: () => { if (filterable) setFilter(s.name); },
    }, kids);
  });
}

export function gameCircle(center) {
  const V = S.view;
  const r = revealNow(V);
  const arrows = r ? arrowsOf(V, r.gestures, r.withdrawals) : [];
  return circle(gameSeats(), center, arrows);
}
