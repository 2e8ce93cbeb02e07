// A room's page: the bar (code, links, rules, language), then the lobby or the game.
import { S, update, me } from "./store.js";
import { t, word, role } from "./i18n.js";
import { el, copy, invite, canShare } from "./dom.js";
import { reconnect } from "./net.js";
import { langSwitch } from "./home.js";
import { lobbyView, inviteLink } from "./lobby.js";
import { gameCircle } from "./table.js";
import { revealNow, whoWhom } from "./reveal.js";
import { decisionPanel, yourCard } from "./decide.js";
import { storyPanel, telling } from "./story.js";
import { journalPanel } from "./journals.js";
import { endPanel } from "./end.js";
import { chatPanel } from "./chat.js";
import { awayPanel, leavePanel } from "./away.js";
import { helpButton, helpDialog } from "./help.js";
import { attention } from "./attention.js";
import { nowShowing } from "./clock.js";
import { backPanel } from "./back.js";
import { places } from "./places.js";

// Who the reader is at this table: their name, and their card once they hold one.
function whoAmI() {
  const V = S.view;
  const seat = V && V.viewer ? V.seats.find((x) => x.name === V.viewer) : null;
  const mine = me();
  const name = (V && V.viewer) || (mine && mine.name);
  if (!name) return null;
  const card = seat && seat.card ? ` · ${role(seat.card.role)}` : "";
  return el("span", { class: "whoami", "data-testid": "whoami", text: name + card });
}

// The bar: who and where (room, connection, name and card) first, then the tools. On a
// phone the links and the sound sit behind "More", so the bar takes two rows, not three.
function bar() {
  const link = inviteLink();  // where friends reach the server (server/share.py)
  const tools = S.fatal ? null : el("div", { class: "more", id: "bar-more", "data-open": String(S.barOpen) },
    places.online ? el("button", { class: "secondary small", type: "button", "data-testid": "bar-invite",
      text: canShare ? t("Share the invite link") : t("Copy the invite link"), onclick: () => invite(link) }) : null,
    S.token && places.online ? el("button", { class: "secondary small", type: "button", "data-testid": "seat-link", text: t("Seat link for another device"),
      onclick: () => copy(`${link}#token=${S.token}`) }) : null,
    el("label", { class: "toggle" }, el("input", { type: "checkbox", checked: S.sound, "data-testid": "sound",
      onchange: (ev) => { attention.toggle(ev.target.checked); update(); } }), t("Sound when it is my turn")));
  return el("header", { class: "bar" },
    el("div", { class: "where" },
      // the page's heading (axe's page-has-heading-one), drawn as the bar's brand
      el("h1", { class: "brand-h" }, el("a", { href: places.home, class: "brand", text: "Dark City" })),
      el("span", { class: "code", "data-testid": "room-code", title: t("Room code") }, S.code),
      el("span", { class: `dot ${S.online ? "on" : "off"}`, role: "img", "aria-label": S.online ? t("Connected") : t("Reconnecting…"), title: S.online ? t("Connected") : t("Reconnecting…") }),
      S.fatal ? null : whoAmI()),
    el("div", { class: "tools" },
      S.fatal ? null : helpButton(),
      S.fatal ? null : el("button", { class: "secondary small moretoggle", type: "button", "data-testid": "bar-more",
        "aria-expanded": String(!!S.barOpen), "aria-controls": "bar-more", text: t("More"),
        onclick: () => update(() => { S.barOpen = !S.barOpen; }) }),
      tools,
      langSwitch(() => { if (S.code && !S.fatal) reconnect(); })));
}

// A lost connection is said where it is seen, on a phone too (the dot alone is missed):
// nothing tapped meanwhile reaches the table.
function lostBanner() {
  if (!S.lost || S.online || S.fatal) return null;
  return el("div", { class: "lost", role: "alert", "data-testid": "connection-lost" },
    el("span", { text: t("Connection lost: reconnecting… Nothing you tap is sent until it is back.") }),
    S.countStopped ? el("span", { "data-testid": "count-stopped", text: t("The count stopped with the connection: the gestures are shown once it is back.") }) : null,
    el("button", { type: "button", class: "small", "data-testid": "reconnect", text: t("Reconnect now"), onclick: () => reconnect() }));
}

// The host gave this seat to a bot (or, in the lobby, removed it): said plainly and
// kept in sight; the page goes on as a spectator's.
function removedBanner() {
  if (!S.removed || S.fatal) return null;
  return el("div", { class: "card removed", role: "alert", "data-testid": "removed" },
    el("strong", { text: S.removed }), " ",
    el("a", { href: places.home, text: t("Back to the home page") }));
}

function fatalPanel() {
  return el("main", { class: "home" }, el("section", { class: "card fatal", role: "alert", "data-testid": "fatal" },
    el("h2", { text: S.fatal }),
    S.fatalCode === "replaced"
      ? el("button", { type: "button", "data-testid": "take-back", text: t("Play in this window"),
        onclick: () => { update(() => { S.fatal = null; S.fatalCode = null; }); reconnect(); } })
      : el("p", { class: "muted", text: t("Check the code, or ask for a new link.") }),
    el("a", { class: "button secondary", href: places.home, text: t("Back to the home page") })));
}

// The Mayor's notices, a repeated one once with its count.
function noticesPanel() {
  if (!S.notices.length) return null;
  const lines = [];
  for (const n of S.notices) {
    const last = lines[lines.length - 1];
    if (last && last.text === n) last.times += 1; else lines.push({ text: n, times: 1 });
  }
  return el("section", { class: "card notices", "aria-labelledby": "notices-h" }, el("h2", { id: "notices-h", text: t("The Mayor says") }),
    el("ul", {}, lines.slice(-6).map((n) => el("li", { text: n.times > 1 ? `${n.text} (×${n.times})` : n.text }))));
}

// The panels beside the table. From the night's end to the next night's gestures the
// night just told comes first: on a phone, what happened and why must not sit screens
// below the next draft.
function panels(V) {
  const story = storyPanel();
  const first = ["draft", "over"].includes(V.phase) && S.history.length ? [story, decisionPanel()] : [decisionPanel(), story];
  // (a game on one phone has nobody to chat with: the chat is the online table's)
  return [awayPanel(), first[0], first[1], yourCard(), journalPanel(), noticesPanel(), leavePanel(),
    places.online ? chatPanel() : null].filter((x, i, all) => x && all.indexOf(x) === i);
}

function gameView() {
  const V = S.view;
  if (!V) return el("p", { class: "loading", text: t("Connecting…") });
  // at the end, once the last night is told, the centre says who won: a phone is
  // scrolled to the table for the count, and the end's panel sits above it, unseen
  const phaseText = V.phase === "over" ? (V.winners.length && !telling() ? t("Winners: {names}", { names: V.winners.join(", ") }) : t("The game is over"))
    : V.phase === "setup" ? t("Before the first night: free XP")
      : t("Night {n} · {phase}", { n: V.night, phase: word("phases", V.phase) });
  const r = revealNow(V);
  const center = el("div", { class: "center" },
    el("div", { class: `phase ${nowShowing() ? "hush" : ""} ${V.phase === "over" && V.winners.length && !telling() ? "winners" : ""}`, "data-testid": "phase", "data-phase": V.phase, text: phaseText }),
    el("div", { id: "countdown", "data-testid": "countdown", role: "timer" }),
    el("div", { id: "count", class: `count ${S.countWord ? "on" : ""}`, "aria-live": "assertive", "data-testid": "count", text: S.countWord || "" }),
    r ? el("div", { class: "muted caption", text: r.caption }) : null);
  const over = V.phase === "over" && !telling();  // the last night is told first
  return el("div", { class: "gamepage" },
    over ? endPanel() : null,
    backPanel(),
    el("div", { class: "game" },
      el("div", { class: "tablewrap" }, gameCircle(center), r ? whoWhom(V, r.gestures, r.withdrawals, r.caption, r.cards) : null),
      el("div", { class: "panels" }, panels(V))));
}

export function roomPage() {
  const body = S.fatal ? fatalPanel()
    : !S.lobby ? el("p", { class: "loading", text: t("Connecting…") })
      : S.lobby.status === "lobby" ? el("div", {}, lobbyView(), el("div", { class: "lobbychat" }, chatPanel()))
        : gameView();
  return el("div", { class: "room" }, bar(), lostBanner(), removedBanner(), el("main", { id: "main", tabindex: "-1" }, body), helpDialog());
}
