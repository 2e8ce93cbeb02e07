// The pocket app's record viewer (issue #30): a game record opened from a file, or a
// game of this phone's (replay.html#CODE), stepped through night by night by the
// phone's own engine (the worker's "review": darkcity.review.step) and drawn by the
// online table's js/review.js. Nothing leaves the phone.
import { t, firstLanguage, loadLang } from "./static/js/i18n.js";
import { openRecord, startReview } from "./static/js/review.js";
import { toast } from "./static/js/dom.js";
import { offerUpdates } from "./shell.js";
import { onThisPhone, rpc } from "./engine.js";

onThisPhone();

async function main() {
  offerUpdates(t);
  await loadLang(firstLanguage(null));
  startReview((record, night, viewer) => rpc("review", { record, night, viewer }));
  const code = decodeURIComponent(location.hash.slice(1)).trim().toUpperCase();
  if (!code) return;
  try {
    await openRecord(await rpc("playRecord", { code }), `darkcity-${code}.json`);
  } catch (e) {
    toast(e.message, "error");  // (a game not on this phone, or not over)
  }
}

main();
