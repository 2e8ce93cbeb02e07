// Back at the table after being away (the connection lost, the phone locked, the page
// reloaded, the server restarted, or only the tab hidden while time ran out): the
// server's welcome lists the nights of the decisions a bot made for this seat meanwhile
// (`played_away`; a `played` message that comes while the tab is hidden adds its
// night), and the page says so above the table, with what this seat did each of those
// nights (the view's history), until its reader closes it. Without it a friend landed
// nights later with nothing to say that a bot had played for them.
import { S, update } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el } from "./dom.js";
import { gestureText } from "./reveal.js";

function nightLine(n, me) {
  if (n === 0) return t("Before the first night: your free XP");
  const night = S.history.find((x) => x.number === n);
  if (!night) return t("Night {n}: under way, on the table", { n });
  const card = new Map(night.cards).get(me);
  const gesture = new Map(night.gestures).get(me);
  const fate = new Map(night.fates).get(me);
  return [t("Night {n}", { n }), card ? t("card: {role}", { role: role(card.role) }) : null,
    gesture ? t("gesture: {gesture}", { gesture: gestureText(gesture, true) }) : null,
    fate ? word("fates", fate) : null].filter(Boolean).join(" · ");
}

export function backPanel() {
  const V = S.view;
  if (!S.back || !V || !V.viewer) return null;
  const nights = [...new Set(S.back)].sort((a, b) => a - b);
  return el("section", { class: "card back", role: "status", "data-testid": "back-panel", "aria-labelledby": "back-h" },
    el("h2", { id: "back-h", text: t("The game went on while you were away") }),
    el("p", { text: t("A bot played for you meanwhile:") }),
    el("ul", {}, nights.map((n) => el("li", { text: nightLine(n, V.viewer) }))),
    el("p", { class: "muted", text: t("What each night did is in its story, below. From now on you decide again.") }),
    el("button", { type: "button", class: "small", "data-testid": "back-ok", text: t("Got it"),
      onclick: () => update(() => { S.back = null; }) }));
}
