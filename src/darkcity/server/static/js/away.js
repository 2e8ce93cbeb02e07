// The host's cards for friends who leave mid-game. One who left (disconnected): the
// table goes on (a bot decides for an away player once the grace period is over), and
// the host may give the seat to a bot for good. One who has to leave with their phone
// still on: the same, from "A friend has to leave?". Both are the server's "remove",
// confirmed: the friend's link stops working and their page says so.
import { S, isHost } from "./store.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { send } from "./net.js";

function friends() {
  const L = S.lobby;
  if (!isHost() || !L || !S.view || S.view.phase === "over") return [];
  return L.seats.filter((s) => s.kind === "human" && s.member !== S.member);
}

function giveButton(s) {
  return el("button", { type: "button", class: "small secondary", "data-testid": `give-bot-${s.seat}`,
    text: t("Give the seat to a bot"),
    "aria-label": t("Give {player}'s seat to a bot", { player: s.name }),
    onclick: () => {
      if (window.confirm(t("Give {player}'s seat to a bot for the rest of the game? Their link will stop working.", { player: s.name }))) {
        send({ type: "remove", seat: s.seat });
      }
    } });
}

export function awayPanel() {
  const away = friends().filter((s) => !s.online);
  if (!away.length) return null;
  return el("section", { class: "card away", "data-testid": "away-panel", "aria-labelledby": "away-h" },
    el("h2", { id: "away-h", text: t("Players away") }),
    el("p", { class: "muted", text: t("The game goes on: a bot decides for a player who is away, until they come back with their link.") }),
    el("ul", {}, away.map((s) => el("li", {}, el("span", { text: s.name + " " }), giveButton(s)))));
}

export function leavePanel() {
  const here = friends().filter((s) => s.online);
  if (!here.length) return null;
  return el("section", { class: "card leave", "aria-label": t("A friend has to leave?") },
    el("details", { "data-testid": "leave-panel" },
      el("summary", { text: t("A friend has to leave?") }),
      el("p", { class: "muted", text: t("Give their seat to a bot: it plays for them to the end of the game, and their link stops working.") }),
      el("ul", {}, here.map((s) => el("li", {}, el("span", { text: s.name + " " }), giveButton(s))))));
}
