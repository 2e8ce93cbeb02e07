// The screen stays on while a game is under way. A phone's auto-lock (often 30 s) dims
// and locks it in the middle of a decision or the count, and its player misses the
// reveal; the Mayor's phone on the table is put down for a whole night. The Screen Wake
// Lock API, where the browser has it (a refusal, by a battery saver say, leaves the
// screen to its settings). The system drops the lock whenever the page is hidden, so it
// is asked again when the page is shown. Shared by the web table (app.js) and the table
// companion (table/main.js).
let wanted = false;
let lock = null;
let asking = false;

function release() {
  const held = lock;
  lock = null;
  if (held) held.release().catch(() => {});
}

async function ask() {
  if (!wanted || lock || asking || document.visibilityState !== "visible" || !navigator.wakeLock) return;
  asking = true;
  try {
    const got = await navigator.wakeLock.request("screen");
    got.addEventListener("release", () => { if (lock === got) lock = null; });
    lock = got;
  } catch {
    // refused: nothing to undo, and nothing the reader need be told
  }
  asking = false;
  if (!wanted) release();  // the game ended while it was being asked for
}

document.addEventListener("visibilitychange", () => { ask(); });

// Keep the screen on (true) or leave it to the system (false); cheap to call on every
// redraw: only a change does anything.
export function keepAwake(on) {
  wanted = Boolean(on);
  if (wanted) ask(); else release();
}
