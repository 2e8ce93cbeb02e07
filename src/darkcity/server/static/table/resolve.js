// Phase 4: the app calls each role in initiative order ("The Devil?"); the Mayor taps
// who turns the card over (and which card, when the deck holds two that fit), each
// called Zombie's last choice, and the app narrates the step before the next call.
import { el, button, focusFirst } from "./dom.js";
import { t, callOf, edition, cardLabel, role, gender } from "./i18n.js";
import { say } from "./speech.js";
import { named } from "./reveal.js";

// What a player did in Phase 3, beside their gesture at a call ("fled", a bolt lowered).
function withdrew(v, p) {
  const w = v.withdrawals[p];
  const g = v.gestures[p];
  if (w === true) return t("fled");
  if (Array.isArray(w) && w.length && g) return t("lowers the bolt at {target}", { target: g.targets[w[0]] });
  return "";
}

// After a card is tapped, Next (and the card the answer told, said above it) may have
// moved under the Mayor's bar on a phone: bring it up, once, without a jump.
function nextInSight() {
  const next = document.querySelector("[data-testid=call-next]");
  const bar = document.querySelector("nav.bar");
  if (!next || !bar) return;
  const over = next.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 8;
  if (over > 0) window.scrollBy({ top: over });
}

// The pause of a spoken call, from its words' end: four beats of the count (3.6 s).
export const CALL_PAUSE_MS = 3600;

// Presses Next for the call ``key`` once the speech has finished and the pause is over,
// if that call is still the one asked (an undo, a correction, a tap came first).
function goOnByItself(S, key, next) {
  const start = Date.now();
  let quiet = null;
  const tick = () => {
    const v = S.view;
    const now = v && v.question && v.stage === "resolution" ? `${v.code}:${v.night}:call:${v.question.step}` : null;
    if (now !== key || S.local.correcting) return;
    const speaking = window.speechSynthesis && window.speechSynthesis.speaking && Date.now() - start < 20000;
    if (speaking) { quiet = null; setTimeout(tick, 200); return; }
    quiet = quiet || Date.now();
    if (Date.now() - quiet < CALL_PAUSE_MS || S.busy) { setTimeout(tick, 200); return; }
    const b = document.querySelector("[data-testid=call-next]") || next();
    if (b && !b.disabled) b.click();
  };
  setTimeout(tick, 200);
}

function distinct(cards, withGender) {
  const seen = new Map();
  for (const c of cards) {
    const k = `${c.role}:${c.edition}${withGender ? `:${c.gender}` : ""}`;
    if (!seen.has(k)) seen.set(k, c);
  }
  return [...seen.values()];
}

export function storyPanel(S) {
  const v = S.view;
  const story = el("div", { class: "story", "data-testid": "story" });
  v.narration.forEach((block, i) => {
    story.append(el("p", { class: "step", text: block.step === "end" ? t("End of the night") : t("Step {step}", { step: block.step }) }));
    for (const line of block.lines) {
      story.append(el("p", { class: i === v.narration.length - 1 ? "new" : "", text: line }));
    }
    if (!block.lines.length) story.append(el("p", { class: "dim", text: t("Nothing happens.") }));
  });
  // speak what is new, once
  const key = `${v.code}:${v.night}`;
  const said = S.spoken[key] || 0;
  if ((S.prefs.speak || S.prefs.calls) && v.narration.length > said) {
    for (const block of v.narration.slice(said)) for (const line of block.lines) say(line);
  }
  S.spoken[key] = v.narration.length;
  // once the night is over its story is whole: "so far" only while the calls go on
  const title = v.stage === "resolution" ? t("The night so far") : t("Night {n}: what happened", { n: v.night });
  return v.narration.length ? el("section", { class: "panel" }, el("h2", { "data-testid": "story-title", text: title }), story) : null;
}

// ``view``: a correction's table as it stood before the call corrected (correct.js), with
// ``initial`` the answer entered then (its holders, cards and Zombies pressed) and
// ``label`` the button that sends it.
export function resolvePanel(S, send, { view = null, initial = null, label = null } = {}) {
  const v = view || S.view;
  const q = v.question;
  if (!q) return null;
  const local = S.local;
  if (!local.call || local.call.step !== q.step || local.call.night !== v.night) {
    local.call = { step: q.step, night: v.night, chosen: new Set(q.chosen), pick: {}, zombies: {} };
    for (const [z, c] of Object.entries(q.zombies)) local.call.zombies[z] = c.aimed;
    if (initial) {
      local.call.chosen = new Set(Object.keys(initial.cards).filter((p) => q.candidates.includes(p)));
      for (const [p, c] of Object.entries(initial.cards)) local.call.pick[p] = c;
      Object.assign(local.call.zombies, initial.zombies || {});
    }
  }
  const st = local.call;
  const called = `${v.code}:${v.night}:call:${q.step}`;
  if ((S.prefs.speak || S.prefs.calls) && q.role && !S.spoken[called]) say(callOf(q.role));  // "The Devil?"
  S.spoken[called] = 1;
  const box = el("section", { class: "panel", "data-testid": "panel-call" },
    el("h2", { text: q.step === "end" ? t("The other cards") : t("Phase 4: step {step}", { step: q.step }) }),
    el("p", { class: "call", "data-testid": "call", text: q.role ? callOf(q.role) : t("Turn over the cards still unknown") }));
  const choosing = q.role === "devil" || q.role === "angel";
  const needs = [];
  if (q.candidates.length && !choosing) {
    // nothing to choose: who turns the card over is said, not offered as buttons
    box.append(el("p", { class: "dim", text: q.candidates.length === 1 ? t("Turns the card over:") : t("They turn the card over:") }),
      el("p", { class: "chips", "data-testid": "holders" },
        q.candidates.map((p) => el("span", { class: "chip named", "data-testid": `holder-${p}` }, named(v, p, p, withdrew(v, p))))));
  } else if (q.candidates.length) {
    box.append(el("p", { class: "dim", text: t("Tap who turns the card over:") }));
    const grid = el("div", { class: "grid" });
    // the candidates are the companion's (calls.py): each one a card it would take; a
    // tap it would refuse beside another already pressed (one Devil card left for two)
    // is refused here, in its words, not pressed and then left out of the entry
    for (const p of q.candidates) {
      const on = st.chosen.has(p);
      grid.append(button(named(v, p, p, withdrew(v, p)), () => {
        const clash = on ? null : ((q.excludes || {})[p] || []).find((x) => st.chosen.has(x.with));
        if (on) st.chosen.delete(p); else if (!clash) st.chosen.add(p);
        st.refused = clash ? { player: p, why: clash.why } : null;
        S.render();
      }, { class: "named", "aria-pressed": on ? "true" : "false", "data-testid": `holder-${p}` }));
    }
    box.append(grid);
    if (st.refused) box.append(el("p", { class: "error", role: "alert", "data-testid": "call-refused", text: st.refused.why }));
  }
  // who turns a card over at this call, and whose answer the Mayor taps: a card that
  // another's answer tells (the companion's `follows`: the two Vampires of a deck with
  // one of each edition) is not asked, it is said
  const turning = (p) => q.asked.includes(p) || (q.candidates.includes(p) && st.chosen.has(p));
  const tapped = new Set();
  const same = (a, b, withGender) => a && b && a.role === b.role && a.edition === b.edition && (!withGender || a.gender === b.gender);
  st.auto = st.auto || {};
  const pickRow = (p, opts, withGender) => {
    const choices = distinct(opts, withGender);
    if (choices.length <= 1) {
      st.pick[p] = st.pick[p] || choices[0] || null;
      return;
    }
    const rule = (q.follows[p] || []).find((f) => tapped.has(f.from) && turning(f.from));
    if (rule) {
      const by = st.pick[rule.from];
      const pair = by && rule.cards.find(([x]) => same(x, by, q.step === "8" && q.asked.includes(rule.from)));
      if (pair) {
        const c = pair[1];
        st.pick[p] = c;
        st.auto[p] = true;
        const edOnly = rule.cards.every(([, y]) => y.gender === c.gender);
        const label = edOnly ? `${role(c.role)} (${edition(c.edition)})` : cardLabel(c);
        box.append(el("p", { class: "dim", "data-testid": `follows-${p}`, text: t("{player}: the other card, {card}", { player: p, card: label }) }));
      } else {
        // the card it follows is not tapped yet
        if (st.auto[p]) { delete st.pick[p]; delete st.auto[p]; }
        needs.push(rule.from);
      }
      return;
    }
    if (st.auto[p]) { delete st.pick[p]; delete st.auto[p]; }
    tapped.add(p);
    needs.push(p);
    box.append(el("p", { text: t("{player}'s card:", { player: p }) }),
      el("div", { class: "grid" }, choices.map((c) => {
        const sameRole = choices.every((x) => x.role === choices[0].role);
        // the Creature's target: when role and edition are known, the gender alone is asked,
        // and the buttons say the role and the gender ("Zombie (feminine)"); they read
        // "Zombie (advanced, feminine)" beside "Zombie (advanced, masculine)", three lines
        // each on a phone, the one word that differs lost among the rest
        const sameCard = sameRole && choices.every((x) => x.edition === choices[0].edition);
        const label = withGender ? (sameCard && c.gender ? `${role(c.role)} (${gender(c.gender)})` : cardLabel(c))
          : sameRole ? edition(c.edition) : cardLabel({ ...c, gender: null });
        const cur = st.pick[p];
        const on = cur && cur.role === c.role && cur.edition === c.edition && (!withGender || cur.gender === c.gender);
        return button(label, () => { st.pick[p] = c; delete st.auto[p]; S.render(); nextInSight(); },
          { "aria-pressed": on ? "true" : "false", "data-testid": `card-${p}-${c.role}-${c.edition}${withGender ? `-${c.gender}` : ""}` });
      })));
  };
  // a holder also asked (the Creature proposed to by the other) is asked once, below
  for (const p of q.candidates) if (st.chosen.has(p) && !q.asked.includes(p)) pickRow(p, q.options[p] || [], false);
  for (const p of q.asked) {
    const withGender = q.step === "8";  // the Creature's target shows the card's gender
    if (q.step === "1+") box.append(el("p", { class: "dim", text: t("The Angel strikes {player}: the card is turned over.", { player: p }) }));
    if (q.step === "8") box.append(el("p", { class: "dim", text: t("The Creature proposes to {player}: the card is turned over.", { player: p }) }));
    pickRow(p, q.options[p] || [], withGender);
  }
  for (const [z, c] of Object.entries(q.zombies)) {
    // what the Mayor asks the Zombie, knowing steps 1+ to 3 (R-113)
    const other = c.aimed === c.left ? c.right : c.left;
    const ask = other === c.aimed ? t("{player}, the Zombie, attacks:", { player: z })
      : t("Ask {player} (the Zombie): keep attacking {target}, or turn to {other}?", { player: z, target: c.aimed, other });
    box.append(el("p", { "data-testid": `zombie-ask-${z}`, text: ask }),
      el("div", { class: "row" }, [...new Set([c.left, c.right])].map((x) => button(x, () => { st.zombies[z] = x; S.render(); },
        { "aria-pressed": st.zombies[z] === x ? "true" : "false", "data-testid": `zombie-${z}-${x}` }))));
  }
  const ready = needs.every((p) => st.pick[p]);
  // spoken calls (a setting, count.js): a call that asks nothing goes on by itself once
  // the card had time to be turned over; one that asks (the Devil's, a card's edition, a
  // Zombie's choice) waits for the Mayor's taps
  const asksNothing = !choosing && !needs.length && !Object.keys(q.zombies).length;
  if (S.prefs.calls && asksNothing && !view && !label && S.autoCall !== called) {
    S.autoCall = called;
    goOnByItself(S, called, () => box.querySelector("[data-testid=call-next]"));
  }
  if (S.prefs.calls && asksNothing && !view && !label) {
    box.append(el("p", { class: "dim", "data-testid": "call-auto", text: t("Turn the card over: the next call comes by itself.") }));
  }
  // at the Devil's or the Angel's call, Next with nobody tapped says that nobody holds it
  const nobody = choosing && q.candidates.length && !st.chosen.size;
  box.append(button(label || (nobody ? t("Nobody turns it over: next") : t("Next")), () => {
    const cards = {};
    const add = (p, withGender) => {
      const c = st.pick[p];
      if (!c) return;
      cards[p] = { role: c.role, edition: c.edition };
      if (withGender && c.gender) cards[p].gender = c.gender;
    };
    for (const p of q.candidates) if (st.chosen.has(p)) add(p, false);
    for (const p of q.asked) add(p, q.step === "8");
    send({ type: "call", step: q.step, cards, zombies: st.zombies });
  }, { class: "primary", "data-testid": "call-next", disabled: ready ? null : true }));
  return focusFirst(box, `call:${v.night}:${q.step}`);
}
