// Phase 2, the reveal: tap the role a player's gesture shows, then where it points. The
// next player comes up by itself; tapping a player corrects their gesture.
import { el, button, focusFirst } from "./dom.js";
import { t, role, gender } from "./i18n.js";

// What ``p`` showed and at whom, compact ("Vampire → Bia"), as entered; "" before it is.
export function shownBy(v, p) {
  const g = v.gestures[p];
  if (!g) return "";
  let s = role(g.shows);
  if (g.targets.length) s += ` → ${g.targets.join(", ")}`;
  if (g.kind) s += ` → ${role(g.kind)}`;
  if (g.seeks) s += ` (${gender(g.seeks)})`;
  return s;
}

// A name with its gesture beside it, for a button or a chip: at the withdrawals and at
// each call the list showed names only, and the Mayor had to remember six gestures to
// notice a forgotten withdrawal or a card turned over that did not match. ``name``: the
// words for the player ("Bia fled"); ``extra``: what follows the gesture (a withdrawal).
export function named(v, p, name = p, extra = "") {
  const shown = shownBy(v, p);
  return [el("span", { class: "who", text: name }),
    shown ? el("span", { class: "gest", "data-testid": `gest-${p}`, text: extra ? `${shown} · ${extra}` : shown }) : null];
}

function summary(v, p) {
  const shown = shownBy(v, p);
  return shown ? `${p}: ${shown}` : p;
}

// After Phase 3, a player's withdrawal entered again: stayed, fled, or a Hunter's one
// bolt lowered (the same choices as the withdrawals' list); the one entered is pressed.
function withdrawalRow(v, p, send) {
  const w = v.withdrawals[p];
  const g = v.gestures[p] || { targets: [] };
  const put = (withdrawal) => send({ type: "withdrawal", player: p, withdrawal });
  const opt = (label, withdrawal, on, id) => button(label, () => put(withdrawal),
    { class: "small", "aria-pressed": on ? "true" : "false", "data-testid": `correct-wd-${p}-${id}` });
  const opts = [opt(t("Stayed"), false, w === undefined || w === null || w === false, "stay"),
    opt(t("{player} fled", { player: p }), true, w === true, "fled")];
  if (g.shows === "hunter" && g.targets.length === 2) {
    g.targets.forEach((x, i) => opts.push(opt(t("lowers the bolt at {target}", { target: x }), [i],
      Array.isArray(w) && w.includes(i), `bolt-${i}`)));
  }
  return el("div", { "data-testid": "correct-withdrawal" },
    el("p", { class: "dim", text: t("Phase 3, the withdrawal:") }), el("div", { class: "chips" }, opts));
}

// ``correcting``: after the reveal, a gesture entered wrong is entered again (the Mayor
// taps the player first); ``cancel`` leaves without a change. A correction (correct.js)
// draws ``view``, the table of the night corrected, with ``head`` above the names (the
// nights) and ``more`` under them (the calls), titled ``title``.
export function revealPanel(S, send, { correcting = false, cancel = null, view = null, head = [], more = [], title = null } = {}) {
  const v = view || S.view;
  const local = S.local;
  if (correcting) {
    if (!v.gesturing.includes(local.player)) local.player = null;
  } else if (!local.player || !v.gesturing.includes(local.player) || (v.gestures[local.player] && local.auto)) {
    local.player = v.to_enter[0] || null;
    local.auto = true;
    local.shows = null;
    local.targets = [];
    local.seeks = null;
  }
  const p = local.player;
  const chips = el("div", { class: "chips", "data-testid": "reveal-players" },
    v.gesturing.map((q) => button(summary(v, q), () => {
      local.player = q; local.auto = false; local.shows = null; local.targets = []; local.seeks = null; S.render();
      // a correction's question comes up at the top of the screen (the page may have been
      // scrolled down to a call, or to the names of eight players)
      const top = correcting && document.querySelector("[data-testid=panel-correct]");
      if (top) top.scrollIntoView({ block: "start" });
    }, { class: `chip small ${q === p ? "cur" : ""} ${v.gestures[q] ? "done" : ""}`, "data-testid": `who-${q}` })));
  // once Phase 3 is over, a withdrawal is corrected here too, and a card at a call is
  // said to be undone (the calls after it are entered again)
  const late = correcting && ["resolution", "journals", "over"].includes(v.stage);
  const ask = el("div", { "data-testid": "reveal-question" });  // what is asked of the Mayor now
  const box = el("section", { class: "panel", "data-testid": correcting ? "panel-correct" : "panel-reveal" },
    el("h2", { text: title || (late ? t("Correct an entry") : correcting ? t("Correct a gesture") : t("Phase 2: what everyone shows")) }),
    correcting && !local.player ? head : null,
    // said until a player is tapped: then what is asked comes up on a phone's screen
    late && !local.player ? el("p", { class: "dim", text: t("Tap the player whose gesture or withdrawal was entered wrong, then enter it again; or the call, below. Everything entered after it is kept while it still holds.") })
      : correcting && !local.player ? el("p", { class: "dim", text: t("Tap the player whose gesture was entered wrong, then enter what they showed. Everything entered after it is kept while it still holds.") }) : null,
    // the reveal asks first, the names entered under it: with eight players their six
    // rows of names pushed the roles under a phone's fold at every gesture; a correction
    // picks the name first, and then asks first too (the roles were under the fold)
    correcting && !local.player ? chips : ask,
    // a gesture entered wrong is entered again from its name (nothing said it)
    !correcting && Object.keys(v.gestures).length ? el("p", { class: "dim", "data-testid": "reveal-again", text: t("Entered wrong? Tap the name to enter that gesture again.") }) : null,
    correcting && !local.player ? null : chips,
    correcting && !local.player ? more : null);
  const commit = (extra) => {
    const entry = { type: "gesture", player: p, shows: local.shows, ...extra };
    local.shows = null; local.targets = []; local.seeks = null; local.auto = true;
    send(entry);
  };
  // the keyboard's focus goes to the first choice of what is asked now
  const asked = (grid, what) => focusFirst(grid, `${correcting ? "correct" : "reveal"}:${v.night}:${p}:${what}`);
  if (!p && correcting) focusFirst(chips, "correct:who");
  if (p) {
    ask.append(el("p", { class: "big", "data-testid": "reveal-current", text: p }));
    if (correcting && ["resolution", "journals", "over"].includes(v.stage) && !local.shows) {
      ask.append(withdrawalRow(v, p, send));
    }
    if (!local.shows) {
      ask.append(el("p", { class: "dim", text: t("The gesture it shows:") }),
        asked(el("div", { class: "grid" }, v.showable.map((r) => button(role(r), () => {
          local.shows = r;
          const shape = v.shapes[r];
          if (shape.reach === "nobody" || shape.reach === "both neighbours") commit({});
          else S.render();
        }, { "data-testid": `role-${r}` }))), ""));
    } else {
      const shape = v.shapes[local.shows];
      ask.append(el("p", {}, role(local.shows), " ", button(t("Change"), () => { local.shows = null; local.targets = []; S.render(); }, { class: "small" })));
      if (shape.kind) {
        ask.append(el("p", { class: "dim", text: t("The kind it names:") }),
          asked(el("div", { class: "grid" }, v.kinds[local.shows].map((k) => button(role(k), () => commit({ kind: k }), { "data-testid": `kind-${k}` }))), local.shows));
      } else {
        if (shape.seeks && !local.seeks) {
          ask.append(el("p", { class: "dim", text: t("The gender it seeks:") }),
            asked(el("div", { class: "grid" }, ["feminine", "masculine"].map((gd) => button(gender(gd), () => { local.seeks = gd; S.render(); }, { "data-testid": `seeks-${gd}` }))), local.shows));
        } else {
          const aim = shape.reach === "neighbour" ? [...new Set(v.neighbours[p])]
            : v.players.filter((q) => q !== p && q !== v.death);
          const need = shape.targets;
          // the first of two targets is said once tapped: for a Hunter a second tap on the same
          // player aims both bolts there (an advanced Hunter), which a double tap did unseen
          const prompt = need === 2 && local.targets.length === 1 ? t("First target: {target}. The second:", { target: local.targets[0] })
            : need === 2 ? t("Its two targets:") : t("Its target:");
          ask.append(el("p", { class: "dim", "data-testid": "aim-prompt", text: prompt }),
            asked(el("div", { class: "grid" }, aim.map((q) => button(q, () => {
              local.targets.push(q);
              if (local.targets.length >= need) commit({ targets: local.targets.slice(), seeks: local.seeks });
              else S.render();
            }, { "data-testid": `target-${q}`, "aria-pressed": local.targets.includes(q) ? "true" : "false" }))), `${local.shows}:${local.seeks || ""}`));
        }
      }
    }
  }
  if (correcting) {
    box.append(button(t("Cancel"), cancel, { "data-testid": "correct-cancel" }));
    return box;
  }
  return box;
}

// The end of the reveal, in the Mayor's bar (main.js), always on screen: at the foot of
// the panel the bar half-hid it ("1 gesture still to enter"). Until the last gesture is
// in, it says how many are left (it read "Everyone is entered" greyed out, while nobody
// was).
export function revealDone(S, send) {
  const v = S.view;
  const left = v.to_enter.length;
  const done = !left ? t("Everyone is entered: withdrawals")
    : left === 1 ? t("1 gesture still to enter") : t("{n} gestures still to enter", { n: left });
  return button(done, () => send({ type: "revealed" }),
    { class: "primary", "data-testid": "reveal-done", disabled: left ? true : null,
      "data-focus": S.local.player ? null : `reveal-done:${v.night}` });
}
