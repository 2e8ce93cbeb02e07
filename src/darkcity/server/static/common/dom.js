// The DOM helpers both pages share (the web table, /static/js/, and the table
// companion, /static/table/): names and every other text go on the page as text,
// never HTML. Each page's own dom.js re-exports these beside its own helpers, so a
// panel imports from its page's dom.js.

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

export function button(text, onclick, attrs) {
  return el("button", { type: "button", onclick, ...(attrs || {}) }, text);
}

export const $ = (sel) => document.querySelector(sel);

// A toast in #toasts, gone after ``ms``. ``once``: the same text again restarts the one
// shown (a host away for a whole game must not pile the same line over the buttons of
// a phone), and at most ``most`` are shown. The web table takes these defaults; the
// companion's dom.js sets its own.
export function toast(text, kind, { ms = 6000, once = true, most = 3 } = {}) {
  const box = $("#toasts");
  if (!box) return;
  const same = once ? [...box.children].find((x) => x.textContent === text) : null;
  const item = same || el("div", { class: `toast ${kind || ""}`, role: "status", "data-testid": "toast", text });
  clearTimeout(item.timer);
  box.append(item);  // (a repeated one moves to the end)
  while (box.children.length > most) box.firstElementChild.remove();
  item.timer = setTimeout(() => item.remove(), ms);
}
