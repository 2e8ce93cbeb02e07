// The page is drawn again on every change: a keyboard player keeps their place. Before a
// redraw, the focused element is remembered by a stable key (its id, its data-testid,
// or, for an element without either like a card's <summary>, the nearest ancestor's
// data-testid and its tag) and every <details>' open state by its data-testid; after
// it, both are put back. Where the focused element is gone (a decision made, a prompt
// replaced by the next), focus goes to the prompt's heading, not to <body>.
import { S } from "./store.js";

let keyboard = false;  // the last input was a key (not a pointer)
let prompt = null;     // the decision point whose prompt was last drawn
let helpWasOpen = false;
addEventListener("keydown", (ev) => { if (!ev.ctrlKey && !ev.metaKey) keyboard = true; }, true);
addEventListener("pointerdown", () => { keyboard = false; }, true);

function keyOf(e) {
  if (!e || e === document.body || !(e instanceof Element)) return null;
  if (e.id) return { id: e.id };
  if (e.dataset && e.dataset.testid) return { testid: e.dataset.testid };
  const host = e.parentElement && e.parentElement.closest("[data-testid]");
  return host ? { testid: host.dataset.testid, tag: e.tagName } : null;
}

function find(root, key) {
  if (!key) return null;
  if (key.id) return document.getElementById(key.id);
  const host = root.querySelector(`[data-testid="${CSS.escape(key.testid)}"]`);
  return host && key.tag ? host.querySelector(key.tag) : host;
}

export function remember(root) {
  const active = document.activeElement;
  const open = new Map([...root.querySelectorAll("details[data-testid]")].map((d) => [d.dataset.testid, d.open]));
  const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  return { key: keyOf(active), caret, open, inPrompt: !!(active && active.closest && active.closest("[data-testid=decide]")) };
}

// The decision point that asks the reader something now (null when nothing is asked).
function askedNow() {
  const V = S.view;
  return V && V.viewer && V.choices.length && !S.counting ? `${V.decision_id}:${V.phase}` : null;
}

function focusOn(e) {
  e.focus({ preventScroll: true });
  if (keyboard) e.scrollIntoView({ block: "nearest" });
}

export function restore(root, memo) {
  for (const d of root.querySelectorAll("details[data-testid]")) {
    if (memo.open.has(d.dataset.testid)) d.open = memo.open.get(d.dataset.testid);
  }
  const dialog = root.querySelector("[data-testid=help]");
  const asked = askedNow();
  const fresh = asked !== null && asked !== prompt;
  prompt = asked;
  const again = find(root, memo.key);
  const heading = root.querySelector("#decide-h");
  if (dialog) {
    if (again && dialog.contains(again)) { if (again !== document.activeElement) again.focus({ preventScroll: true }); }
    else if (!dialog.contains(document.activeElement)) dialog.querySelector("[data-testid=help-close]").focus();
  } else if (helpWasOpen) {  // the rules closed: back to the button that opened them
    const b = root.querySelector("[data-testid=help-open]");
    if (b) b.focus({ preventScroll: true });
  } else if (fresh && heading && (!again || memo.inPrompt || !memo.key)) {
    // a new question for the reader: its heading (what is asked, then the choices)
    focusOn(heading);
  } else if (again && again !== document.activeElement && !again.disabled) {
    again.focus({ preventScroll: true });
    if (memo.caret && "setSelectionRange" in again) { try { again.setSelectionRange(memo.caret[0], memo.caret[1]); } catch { /* not a text field */ } }
  } else if (memo.key && (!again || again.disabled)) {
    // the focused element is gone (a decision made): the prompt, else the table
    const to = heading || root.querySelector("#main");
    if (to) to.focus({ preventScroll: true });
  }
  helpWasOpen = !!dialog;
}
