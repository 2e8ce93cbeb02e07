// The host's card for a friend who left mid-game: the table goes on (a bot decides for
// an away player once the grace period is over), and the host may give the seat to a
// bot for good (the server's "remove": the friend's link stops working).
import { S, isHost } from "./store.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { send } from "./net.js";

export function awayPanel() {
  const L = S.lobby;
  if (!isHost() || !L || !S.view || S.view.phase === "over") return null;
  const away = L.seats.filter((s) => s.kind === "human" && !s.online && s.member !== S.member);
  if (!away.length) return null;
  return el("section", { class: "card away", "data-testid": "away-panel", "aria-labelledby": "away-h" },
    el("h2", { id: "away-h", text: t("Players away") }),
    el("p", { class: "muted", text: t("The game goes on: a bot decides for a player who is away, until they come back with their link.") }),
    el("ul", {}, away.map((s) => el("li", {}, el("span", { text: s.name + " " }),
      el("button", { type: "button", class: "small secondary", "data-testid": `give-bot-${s.seat}`,
        text: t("Give the seat to a bot"),
        "aria-label": t("Give {player}'s seat to a bot", { player: s.name }),
        onclick: () => {
          if (window.confirm(t("Give {player}'s seat to a bot for the rest of the game? Their link will stop working.", { player: s.name }))) {
            send({ type: "remove", seat: s.seat });
          }
        } })))));
}
