// The lobby: the circle of seats, sitting, bots, the host's controls and the start.
import { S, me, isHost } from "./store.js";
import { t, word, role } from "./i18n.js";
import { el, invite, canShare } from "./dom.js";
import { send } from "./net.js";
import { circle, badge, botBadge } from "./table.js";
import { joinPanel } from "./join.js";
import { CONDITIONS, openHelp } from "./help.js";

function seatNode(s) {
  const mine = me();
  const kids = [el("div", { class: "seatname", text: s.name || t("Free seat") })];
  if (s.kind === "bot") kids.push(botBadge(badge(t("bot: {level}", { level: word("levels", s.level) })), s));
  if (mine && mine.seat === s.seat) kids.push(badge(t("you"), "you"));  // (as in the game)
  if (s.host) kids.push(badge(t("host"), "host"));
  if (s.kind === "human" && !s.online) kids.push(badge(t("away"), "away"));
  if (s.kind === "empty" && S.member !== null) kids.push(el("button", { class: "small", type: "button", "data-testid": `sit-${s.seat}`, text: t("Sit here"), onclick: () => send({ type: "sit", seat: s.seat }) }));
  if (isHost()) {
    if (s.kind === "empty") {
      const lv = el("select", { "data-testid": `bot-level-${s.seat}`, "aria-label": t("Bot level") },
        S.meta.levels.map((k) => el("option", { value: k, text: word("levels", k), title: word("level_lines", k), selected: k === "medium" })));
      kids.push(el("div", { class: "row" }, lv, el("button", { class: "small secondary", type: "button", "data-testid": `add-bot-${s.seat}`, text: t("Add a bot"), onclick: () => send({ type: "add-bot", seat: s.seat, level: lv.value }) })));
    } else if (s.member !== S.member) {
      kids.push(el("button", { class: "small secondary", type: "button", "data-testid": `remove-${s.seat}`, text: t("Remove"), onclick: () => send({ type: "remove", seat: s.seat }) }));
      if (s.kind === "human") kids.push(el("button", { class: "small secondary", type: "button", text: t("Make host"), onclick: () => send({ type: "make-host", seat: s.seat }) }));
    }
  }
  return el("div", { class: `seat ${s.kind} ${mine && mine.seat === s.seat ? "me" : ""}`, "data-testid": `seat-${s.seat}` }, kids);
}

// The game in one minute, for a friend who came from the invite link and waits for the
// host: what a night is, how one wins, and where every card's rules are. Open until
// its reader closes it (js/focus.js keeps a <details>' state across redraws).
function primer() {
  return el("details", { class: "card primer", "data-testid": "primer", open: true },
    el("summary", { text: t("New to Dark City? The game in one minute") }),
    el("p", { text: t("Each night every player secretly keeps one card of the hand passed around the table. On the count \"1, 2, 3, now!\" everyone shows that card's gesture at once, pointing at a player when the card targets one. Then the night is resolved card by card, in initiative order.") }),
    el("p", { text: t("Meet your card's goal and you earn XP in that card's row of your Journal. The first to meet one of these wins:") }),
    el("ul", {}, CONDITIONS.map((c) => el("li", { text: word("conditions", c) }))),
    el("p", { text: t("Bluffing is part of the game: the Devil shows another card's gesture, and anyone may withdraw from the night to stay safe (and earn nothing).") }),
    el("p", {}, t("Each card's gesture, goal and initiative are shown when you draft it."), " ",
      el("button", { class: "secondary small", type: "button", "data-testid": "primer-cards", text: t("See the cards in play"), onclick: () => openHelp(null) })));
}

// The invite link, on the address friends reach the server at (server/share.py: a page
// opened on localhost shares the local network's address).
export const inviteLink = () => `${S.meta.invite_base || location.origin}/r/${S.code}`;

// A page on localhost of a server that listens on this computer only: no link it shares
// can work for anyone else, so it says so, and what the host runs instead.
function unreachable() {
  // (the host's to fix: a friend on the join page cannot restart the host's server)
  if (S.meta.reachable !== false || !isHost()) return null;
  return el("p", { class: "warn", "data-testid": "unreachable" },
    t("Friends cannot open this link: darkcity listens on this computer only. Start it with “darkcity serve --host 0.0.0.0” on the same Wi-Fi network, then share the link again."));
}

// The invite link's address is one only this network reaches (the Wi-Fi's, or this
// computer's): friends elsewhere need the server on the internet, with HTTPS. Said
// where the host looks for the link (the README promised "friends play online", and
// the quick start covered a LAN only).
const LOCAL = [/^localhost$/, /^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./,
  /\.local$/, /^\[(::1|f[cd][0-9a-f]*:.*)\]$/i];
function elsewhere() {
  if (!isHost()) return null;
  let host;
  try { host = new URL(inviteLink()).hostname; } catch { return null; }
  if (!LOCAL.some((re) => re.test(host))) return null;
  return el("p", { class: "muted", "data-testid": "elsewhere" },
    t("Friends who are not on this network cannot open this address. To play with them, put darkcity on a small server with HTTPS: docs/deploy.md, “Friends elsewhere”, says how, step by step, and what it costs."));
}

// Friends in the same room scan the invite link off a phone held up, instead of typing
// it: its QR code, drawn by the server (server/qr.py), closed until asked for.
function qrCode() {
  const url = inviteLink();
  return el("details", { class: "qr", "data-testid": "invite-qr" },
    el("summary", { text: t("Friends here with you? Show a QR code") }),
    el("img", { src: `/r/${S.code}/qr.svg`, width: "240", height: "240", "data-testid": "invite-qr-image",
      alt: t("QR code of the invite link {url}", { url }) }),
    el("p", { class: "muted", text: t("Point a phone's camera at it: it opens the invite link.") }));
}

export function lobbyView() {
  const L = S.lobby;
  const mine = me();
  const c = L.config;
  const deck = c.deck === "custom" ? t("Custom cast") : word("presets", c.deck);
  const free = L.seats.filter((s) => s.kind === "empty").length;
  const info = el("section", { class: "card lobbyinfo", "aria-labelledby": "lobby-h" },
    el("h2", { id: "lobby-h", text: t("Waiting for players") }),
    el("p", { text: t("Share the code {code} or the link.", { code: S.code }) }),
    unreachable(),
    elsewhere(),
    el("p", { class: "invite-link", "data-testid": "invite-link", text: inviteLink() }),
    el("button", { class: "small", type: "button", "data-testid": "copy-invite",
      text: canShare ? t("Share the invite link") : t("Copy the invite link"),
      onclick: () => invite(inviteLink()) }),
    qrCode(),
    el("p", { class: "muted", text: t("{n} players · deck: {deck} · pace: {pace}", { n: c.players, deck, pace: word("paces", c.pace) }) }),
    c.roles ? el("p", { class: "muted", text: t("Roles: {roles}", { roles: c.roles.map(role).join(", ") }) }) : null,
    mine ? el("button", { class: "secondary small", type: "button", text: t("Stand up"), onclick: () => send({ type: "stand" }) }) : null,
    L.watchers.length ? el("p", { class: "muted", text: t("Not seated: {names}", { names: L.watchers.join(", ") }) }) : null,
    isHost() && free ? el("p", { class: "muted", "data-testid": "seats-free", text: t("Fill every seat (with people or bots) first.") }) : null,
    // the bots' levels, each with how it plays (bots/levels.py), where the host adds them
    isHost() && free ? el("ul", { class: "muted", "data-testid": "level-lines" }, S.meta.levels.map((k) =>
      el("li", {}, el("strong", { text: word("levels", k) }), ` — ${word("level_lines", k)}`))) : null,
    isHost() ? el("button", { type: "button", "data-testid": "start", text: t("Start the game"), onclick: () => send({ type: "start" }) }) : el("p", { class: "muted", text: t("The host starts the game.") }));
  return el("div", { class: "lobby" },
    el("div", { class: "tablewrap" }, circle(L.seats.map(seatNode), el("div", { class: "center" }, el("div", { class: "phase", text: t("Lobby") })))),
    el("div", { class: "panels" }, joinPanel(), info, primer()));
}
