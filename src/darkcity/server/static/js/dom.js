// DOM helpers: names and every other text are put on the page as text, never HTML.
import { t } from "./i18n.js";

export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  append(e, kids);
  return e;
}

export function append(e, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

const NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, String(v));
  }
  for (const kid of kids.flat()) if (kid) e.append(kid);
  return e;
}

export const $ = (sel) => document.querySelector(sel);

// A toast says a thing once: the same text again restarts the one shown (a host away
// for a whole game must not pile the same line over the buttons of a phone), and at
// most three are shown.
export function toast(text, kind) {
  const box = $("#toasts");
  if (!box) return;
  const same = [...box.children].find((x) => x.textContent === text);
  const item = same || el("div", { class: `toast ${kind || ""}`, role: "status", "data-testid": "toast", text });
  clearTimeout(item.timer);
  box.append(item);  // (a repeated one moves to the end)
  while (box.children.length > 3) box.firstElementChild.remove();
  item.timer = setTimeout(() => item.remove(), 6000);
}

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
