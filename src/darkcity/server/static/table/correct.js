// "Correct an entry": one answer entered wrong, fixed without undoing what came after
// it. The Mayor picks the night (tonight, or an earlier one while the table has gone on),
// then a player (their gesture, or their withdrawal) or a call (the cards turned over at
// that step and the Zombies' choices, asked again as they were asked then). The server
// enters every later entry again and keeps those that still hold (Companion.correct).
import { el, button, focusFirst } from "./dom.js";
import { t, role, cardLabel } from "./i18n.js";
import { api } from "./api.js";
import { revealPanel } from "./reveal.js";
import { resolvePanel } from "./resolve.js";

// The nights the Mayor may correct now: every finished night, and tonight once its
// reveal is over.
export function correctable(v) {
  const tonight = ["withdrawal", "resolution", "journals", "over"].includes(v.stage);
  return tonight ? v.night : v.nights;
}

// The table as it stood at night ``n``'s end (or before its call of ``step``), fetched
// once per correction: GET /api/tables/CODE/past.
function pastView(S, n, step) {
  const key = `${n}:${step || ""}`;
  const local = S.local;
  local.pasts = local.pasts || {};
  if (local.pasts[key]) return local.pasts[key];
  if (!local.loading || local.loading !== key) {
    local.loading = key;
    api.past(S.code, S.token, n, step).then((v) => {
      if (S.local !== local) return;  // the correction was left meanwhile
      local.pasts[key] = v;
      S.render();
    }).catch((e) => {
      if (S.local !== local) return;
      local.loading = null;
      local.failed = e.message;
      S.render();
    });
  }
  return null;
}

// What a call's chip says: its step, the role called and who turned a card over (with
// the card's edition or gender where it was told, its role where it is not the one called:
// the Angel's target).
function callLine(c) {
  const who = Object.entries(c.cards).map(([p, card]) => {
    const label = cardLabel(card);
    const bits = card.role === c.role ? label.slice(role(card.role).length).trim() : `(${label})`;
    return bits ? `${p} ${bits}` : p;
  });
  const zombies = Object.entries(c.zombies || {}).map(([z, x]) => `${z} → ${x}`);
  const head = c.step === "end" ? t("The other cards") : `${t("Step {step}", { step: c.step })} · ${role(c.role)}`;
  const what = [...who, ...zombies].join("; ") || t("nobody turns it over");
  return `${head}: ${what}`;
}

export function correctPanel(S, correct, cancel) {
  const v = S.view;
  const local = S.local;
  const last = correctable(v);
  if (!local.night || local.night > last) local.night = last;
  const n = local.night;
  const tonight = n === v.night && ["withdrawal", "resolution", "journals", "over"].includes(v.stage);
  const send = (entry) => correct(entry, n);
  const loading = () => el("section", { class: "panel", "data-testid": "panel-correct" },
    el("p", { class: "loading", text: local.failed || t("Loading the table…") }),
    button(t("Cancel"), cancel, { "data-testid": "correct-cancel" }));
  const nv = tonight ? v : pastView(S, n, null);
  if (!nv) return loading();
  // a call entered again: its question as it was asked then, the old answers pressed
  if (local.step) {
    const before = pastView(S, n, local.step);
    if (!before) return loading();
    const old = nv.calls.find((c) => c.step === local.step);
    const box = resolvePanel(S, send, { view: before, initial: old, label: t("Correct step {step}", { step: local.step }) });
    if (!box) return loading();
    box.setAttribute("data-testid", "panel-correct-call");
    // an earlier night's call: its number said, the page's title being tonight's
    const h2 = box.querySelector("h2");
    if (!tonight && h2) h2.textContent = `${t("Correct night {n}", { n })} · ${h2.textContent}`;
    box.append(el("p", { class: "dim", text: t("The calls after it are kept while they still hold; any that no longer does is asked again.") }),
      button(t("Cancel"), cancel, { "data-testid": "correct-cancel" }));
    return box;
  }
  const head = [];
  const more = [];
  if (last > 1) {
    // the nights: tonight's answers, or an earlier night's
    head.push(el("p", { class: "dim", text: t("Which night?") }), el("div", { class: "chips", "data-testid": "correct-nights" },
      Array.from({ length: last }, (_, i) => i + 1).map((k) => button(t("Night {n}", { n: k }), () => {
        S.local = { correcting: true, night: k };
        S.render();
      }, { class: `chip small ${k === n ? "cur" : ""}`, "aria-pressed": k === n ? "true" : "false", "data-testid": `correct-night-${k}` }))));
  }
  if (!tonight) {
    // what a correction of a night the table has gone on from does to what came after
    head.push(el("p", { class: "warn", "data-testid": "correct-later", text: t("Night {n} is over: after the correction, every entry since is checked again, and one that no longer holds is taken back with all after it (the page says how many).", { n }) }));
  }
  if (!local.player && nv.calls.length) {
    more.push(el("p", { class: "dim", text: t("A card or a Zombie's choice entered wrong at a call: tap the call.") }),
      focusFirst(el("div", { class: "chips", "data-testid": "correct-calls" }, nv.calls.map((c) => button(callLine(c), () => {
        local.step = c.step;
        S.render();
        window.scrollTo(0, 0);  // the call asked again, from its top
      }, { class: "chip small", "data-testid": `correct-call-${c.step}` }))), `correct:calls:${n}`));
  }
  // the name Death wrote, tapped wrong (said once the night is narrated)
  if (!local.player && nv.death && nv.death_names) {
    more.push(el("p", { class: "dim", text: t("Death ({player}) wrote {name}. Tapped wrong? Tap the name written:", { player: nv.death, name: nv.death_names }) }),
      el("div", { class: "chips", "data-testid": "correct-death" }, nv.players.filter((p) => p !== nv.death).map((p) => button(p,
        () => send({ type: "drafted", death_names: p }),
        { class: "chip small", "aria-pressed": p === nv.death_names ? "true" : "false", "data-testid": `correct-death-${p}` }))));
  }
  const title = tonight ? null : t("Correct night {n}", { n });
  return revealPanel(S, send, { correcting: true, cancel, view: nv, head, more, title });
}
