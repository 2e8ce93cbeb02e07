// The record viewer on the server (/replay): a game record opened from a file, or a
// room's own (/replay?room=CODE), stepped through by the server's engine (POST
// /api/replay: darkcity.review.step) and drawn by js/review.js.
import { S } from "./js/store.js";
import { t, firstLanguage, loadLang } from "./js/i18n.js";
import { openRecord, startReview } from "./js/review.js";

async function step(doc, night, viewer) {
  let r;
  try {
    r = await fetch("/api/replay", { method: "POST", body: JSON.stringify({ record: doc, night, viewer }),
      headers: { "Content-Type": "application/json", "Accept-Language": S.lang } });
  } catch {
    throw new Error(t("The server cannot be reached."));
  }
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.message || t("Something went wrong."));
  return body;
}

async function main() {
  await loadLang(firstLanguage(null));
  startReview(step);
  const room = new URLSearchParams(location.search).get("room");
  if (!room) return;
  const r = await fetch(`/api/rooms/${encodeURIComponent(room)}/record`).catch(() => null);
  if (r && r.ok) await openRecord(await r.json(), `darkcity-${room}.json`);
}

main();
