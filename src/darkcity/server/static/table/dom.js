// Small DOM helpers: every name goes on the page with textContent, never as HTML.
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

export function button(text, onclick, attrs) {
  return el("button", { type: "button", onclick, ...(attrs || {}) }, text);
}

// Marks the first enabled button of ``box`` as where the keyboard's focus goes when
// the question ``key`` is new (main.js moves it there after the page is drawn).
export function focusFirst(box, key) {
  const first = box.querySelector("button:not([disabled])");
  if (first) first.setAttribute("data-focus", key);
  return box;
}

export function toast(text, kind) {
  const box = document.getElementById("toasts");
  const item = el("div", { class: `toast ${kind || ""}`, role: "status", "data-testid": "toast", text });
  box.append(item);
  setTimeout(() => item.remove(), 5000);
}
