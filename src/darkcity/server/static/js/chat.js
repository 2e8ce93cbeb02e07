// The table chat: the people seated write, everybody reads (spectators too). Lines are
// text only. The form is built once, so a render never takes the typed text or focus.
import { S, me } from "./store.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { send } from "./net.js";

let box = null, list = null, form = null, input = null, lang = null;

function build() {
  lang = S.lang;
  input = el("input", { id: "chat-text", maxlength: 300, autocomplete: "off", "data-testid": "chat-input", "aria-label": t("Message to the table") });
  form = el("form", { class: "row", "data-testid": "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  } }, input, el("button", { type: "submit", class: "small", text: t("Send") }));
  list = el("ol", { class: "chatlines", "data-testid": "chat-lines", "aria-live": "polite" });
  box = el("section", { class: "card chat", "data-testid": "chat", "aria-labelledby": "chat-h" },
    el("h2", { id: "chat-h", text: t("Table chat") }), list, form,
    el("p", { class: "muted readonly", text: t("Only the people seated at the table can write.") }));
}

export function chatPanel() {
  if (!box || lang !== S.lang) build();
  const seated = !!me();
  form.hidden = !seated;
  box.querySelector(".readonly").hidden = seated;
  const lines = S.chat.slice(-60);
  if (list.childElementCount !== lines.length || list.dataset.last !== String(lines.length && lines[lines.length - 1].at)) {
    list.replaceChildren(...lines.map((l) => el("li", {}, el("strong", { text: l.name }), ": ", l.text)));
    list.dataset.last = String(lines.length && lines[lines.length - 1].at);
    list.scrollTop = list.scrollHeight;
  }
  return box;
}
