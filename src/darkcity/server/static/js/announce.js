// What a screen reader says when the table changes the way a sighted player sees it
// change: every gesture shown after the count, and the winners at the end. The page is
// drawn again on every change, so a live region inside it would be a new one each time
// (not read); this one (#announce, in index.html) stays, and is told each thing once.
import { S } from "./store.js";
import { t } from "./i18n.js";
import { $ } from "./dom.js";
import { gestureText } from "./reveal.js";
import { telling } from "./story.js";

let said = null;

function news(V) {
  if (V.phase === "over" && !telling()) {
    return ["over", V.winners.length ? t("Winners: {names}", { names: V.winners.join(", ") }) : t("The game is over")];
  }
  if (V.phase === "withdrawal" && !S.counting) {
    const shown = V.seats.filter((s) => s.gesture).map((s) => `${s.name}: ${gestureText(s.gesture, true)}`);
    return [`night-${V.night}`, `${t("Tonight's gestures")}: ${shown.join("; ")}`];
  }
  return null;
}

export function announce() {
  const box = $("#announce");
  const V = S.view;
  if (!box || !V || !S.code) return;
  const n = news(V);
  if (!n || n[0] === said) return;
  said = n[0];
  box.textContent = n[1];
}
