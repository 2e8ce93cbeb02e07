// Joining from the link: anyone at /r/CODE without a seat sees who invites them and a
// name field with "Join" (sit at a free seat) beside "Watch". Built once: lobby updates
// keep the text typed (the host's name is set on each).
import { S, update } from "./store.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { post, reconnect, tokenKey } from "./net.js";

let box = null, lang = null, name = null, who = null;

function build() {
  lang = S.lang;
  name = el("input", { id: "link-name", maxlength: 24, required: true, autocomplete: "nickname", "data-testid": "link-name" });
  box = el("section", { class: "card joinbox", "data-testid": "join-panel", "aria-labelledby": "join-h" },
    el("h2", { id: "join-h", text: t("Join this table") }),
    who = el("p", { class: "muted", "data-testid": "invited-by" }),
    el("form", { onsubmit: async (ev) => {
      ev.preventDefault();
      const r = await post(`/api/rooms/${encodeURIComponent(S.code)}/join`, { name: name.value });
      if (!r) return;
      localStorage.setItem(tokenKey(r.code), r.token);
      update(() => { S.token = r.token; S.watching = false; });
      reconnect();
    } },
    el("label", { for: "link-name", text: t("Your name") }), name,
    el("div", { class: "row" },
      el("button", { type: "submit", "data-testid": "link-join", text: t("Join") }),
      el("button", { type: "button", class: "secondary", "data-testid": "link-watch", text: t("Watch"),
        onclick: () => update(() => { S.watching = true; }) }))));
}

export function joinPanel() {
  if (S.member !== null || S.watching || !S.lobby || S.lobby.status !== "lobby") return null;
  if (!box || lang !== S.lang) build();
  // who invites (a friend from the link saw a name field under a table of empty seats,
  // and nothing said whose table it was)
  const host = S.lobby.seats.find((s) => s.host);
  who.textContent = host ? t("{host} invites you to a table of Dark City", { host: host.name }) : "";
  return box;
}
