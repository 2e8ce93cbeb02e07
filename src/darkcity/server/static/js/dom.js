// The web table's DOM helpers: the ones both pages share (../common/dom.js: names and
// every other text go on the page as text, never HTML), and its own, which speak
// through its catalog (copy, invite).
import { t } from "./i18n.js";
import { toast } from "../common/dom.js";

export { $, append, el, svg, toast } from "../common/dom.js";

// The clipboard, or a prompt to copy by hand where the page may not write it.
export function copy(text) {
  (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).then(
    () => toast(t("Copied."), "ok"), () => window.prompt(t("Copy this:"), text));
}

// The invite link: the device's share sheet where it has one (a phone: straight into a
// chat app or a message), else the clipboard. A share the reader cancels is left alone.
export const canShare = typeof navigator.share === "function";
export function invite(url) {
  if (!canShare) { copy(url); return; }
  navigator.share({ title: "Dark City", text: t("Join my table of Dark City"), url }).catch((e) => {
    if (!e || e.name !== "AbortError") copy(url);
  });
}
