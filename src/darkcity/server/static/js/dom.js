// DOM helpers: names and every other text are put on the page as text, never HTML.

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

export function toast(text, kind) {
  const box = $("#toasts");
  if (!box) return;
  const item = el("div", { class: `toast ${kind || ""}`, role: "status", "data-testid": "toast", text });
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}
