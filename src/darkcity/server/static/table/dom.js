// The companion's DOM helpers: the ones both pages share (../common/dom.js: every name
// goes on the page with textContent, never as HTML), its toasts' timing, and focusFirst.
import { toast as shown } from "../common/dom.js";

export { button, el } from "../common/dom.js";

// Marks the first enabled button of ``box`` as where the keyboard's focus goes when
// the question ``key`` is new (main.js moves it there after the page is drawn).
export function focusFirst(box, key) {
  const first = box.querySelector("button:not([disabled])");
  if (first) first.setAttribute("data-focus", key);
  return box;
}

// Every toast for 5 s, each its own (none merged, none dropped).
export function toast(text, kind) {
  shown(text, kind, { ms: 5000, once: false, most: Infinity });
}
