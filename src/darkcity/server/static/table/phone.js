// A player's own phone: pick your name once; then the table as it stands, your journal,
// the rules of a card, and, if you took Death, the name you write, in secret.
import { el, button, toast } from "./dom.js";
import { t, role, goals, powers, gestureOf, fate, cardLabel, condition, callOf, gender } from "./i18n.js";
import { api } from "./api.js";
import { journalTable, winnersPanel, asRead } from "./journals.js";

const STAGES = {
  draft: "Phase 1: the draft", count: "Phase 2: the gestures", reveal: "Phase 2: the gestures",
  withdrawal: "Phase 3: withdrawals", resolution: "Phase 4: the resolution",
  journals: "Phase 5: the journals", over: "The game is over",
};

// Whether a line of the story names ``name`` as a whole word ("Ana", not "Mariana").
function mentions(line, name) {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${esc}($|[^\\p{L}\\p{N}])`, "u").test(line);
}

export function phonePage(S) {
  const v = S.view;
  const me = v.reader;
  const wrap = el("section", { "data-testid": "panel-phone" });
  if (!me) {
    wrap.append(el("div", { class: "panel" }, el("h2", { text: t("Which player are you?") }),
      el("div", { class: "grid" }, v.players.map((p) => button(p, async () => {
        try {
          const r = await api.seat(v.code, p);
          localStorage.setItem(`darkcity:table:${v.code}`, r.token);
          S.token = r.token;
          S.refresh(true);
        } catch (e) {
          toast(e.message);
        }
      }, { "data-testid": `iam-${p}`, disabled: v.seated.includes(p) ? true : null }))),
      // a greyed name is said: it was a button that did nothing, with no word why
      v.seated.length ? el("p", { class: "dim", "data-testid": "seats-taken", text: t("A greyed name is already on another phone. Yours? Ask the Mayor to free the phones' seats (under “Links and language”).") }) : null));
    return wrap;
  }
  // a friend who tapped someone else's name gives the seat back here
  const notMe = button(t("Not {player}? Choose your name again", { player: me }), async () => {
    try {
      await api.leaveSeat(v.code, S.token);
      localStorage.removeItem(`darkcity:table:${v.code}`);
      S.token = null;
      S.view = null;
      S.refresh(true);
    } catch (e) {
      toast(e.message);
    }
  }, { class: "small", "data-testid": "not-me" });
  wrap.append(el("div", { class: "panel" },
    el("p", { class: "big", text: me }), notMe,
    el("p", { "data-testid": "phone-stage", text: `${t("Night {n}", { n: v.night })} · ${t(STAGES[v.stage])}` }),
    // who drafts first, at the draft only: pt_BR says it as "Bia começa a escolha", which
    // a phone kept saying through the gestures and the calls
    v.stage === "draft" ? el("p", { "data-testid": "phone-active", text: t("{player} is the active player", { player: v.active }) }) : null,
    entered(v, me)));
  if (v.stage === "draft" && v.death_in_play && me === v.last_drafter) {
    const names = v.players.filter((p) => p !== me);
    wrap.append(el("div", { class: "panel secret", "data-testid": "phone-death" },
      el("p", { text: t("If you take Death, tap the name you write on it (nobody else sees it):") }),
      // asked before it is sent: one tap saved it and ended the Mayor's draft at once
      el("div", { class: "grid" }, names.map((p) => button(p, () => {
        if (confirm(t("You write {player} on Death's card: the Mayor's draft ends with it. Send it?", { player: p }))) S.send({ type: "drafted", death_names: p });
      },
        { "data-testid": `phone-death-${p}` })))));
  }
  // the name written may be changed until the count (sent on a tap, it ended the draft)
  if (v.stage === "count" && v.my_death_names && me === v.last_drafter) {
    const names = v.players.filter((p) => p !== me && p !== v.my_death_names);
    wrap.append(el("div", { class: "panel secret", "data-testid": "phone-death-change" },
      el("p", { text: t("You wrote {player} on Death's card.", { player: v.my_death_names }) }),
      el("p", { class: "dim", text: t("Tapped wrong? Tap the name you wrote, before the count:") }),
      el("div", { class: "grid" }, names.map((p) => button(p, () => {
        if (confirm(t("You write {player} on Death's card: the Mayor's draft ends with it. Send it?", { player: p }))) S.send({ type: "drafted", death_names: p });
      }, { "data-testid": `phone-death-${p}` })))));
  }
  // the calls as the Mayor makes them: the phone said 'Phase 4: the resolution' and
  // nothing of the night while the Mayor read it aloud, step by step
  if (v.stage === "resolution") wrap.append(callsPanel(v, me));
  const night = !["journals", "over"].includes(v.stage);
  const firstAfterHeader = wrap.children.length;
  // The game's end and the night just resolved, on every phone, not only the Mayor's
  // screen: who won and why, then what happened to you and the Mayor's story.
  const won = v.stage === "over" ? winnersPanel(v, "phone-winners") : null;
  if (won) wrap.append(won);
  // the night just told, kept on a phone through the next night (the server's last_night)
  const told = v.result || v.last_night;
  if (told && told.players[me]) {
    const x = told.players[me];
    const mine = t("You held {card}: {fate}", { card: cardLabel(asRead(v, x.card)), fate: fate(x.fate) })
      + (x.xp ? ` · +${x.xp} XP` : "");
    wrap.append(el("div", { class: "panel", "data-testid": "phone-result" },
      el("h2", { text: t("Phase 5: night {n}", { n: told.number }) }),
      el("p", { class: "mine", "data-testid": "phone-mine", text: mine }),
      el("ol", { class: "story" }, told.events.map((line) =>
        el("li", { class: mentions(line, me) ? "mine" : null, text: line })))));
  }
  if (v.my_death_names && !(v.stage === "count" && me === v.last_drafter)) {
    wrap.append(el("p", { class: "panel secret", text: t("You wrote {player} on Death's card.", { player: v.my_death_names }) }));
  }
  // everyone's journal (public in the game, R-118: the sheets lie on the table), the
  // reader's own first; a phone showed its own row only
  wrap.append(el("div", { class: "panel", "data-testid": "phone-journals" }, el("h2", { text: t("The journals") }), journalTable(v, me)));
  // how a game is won and how close the reader is, counted by the engine: a newcomer
  // had their journal's numbers and no word of what they were for
  if (v.my_progress) {
    wrap.append(el("div", { class: "panel", "data-testid": "phone-progress" },
      el("h2", { text: t("How to win") }),
      el("p", { text: t("Whoever first meets one of these wins. Yours so far, from your journal:") }),
      el("ul", { class: "progress" }, v.my_progress.map((x) => el("li", {
        class: x.have >= x.need ? "met" : null, "data-testid": `progress-${x.condition}`,
      }, el("span", { text: condition(x.condition) }),
      el("b", { text: (x.have >= x.need ? "✓ " : "") + (x.row
        ? t("{have} / {need} in {role}", { have: x.have, need: x.need, role: role(x.row) })
        : `${x.have} / ${x.need}`) })))),
      el("p", { class: "dim", text: t("Tiebreak among those who met a condition: most XP, then most rows with XP.") })));
  }
  // the rules of a card, the reader's own first: where the table knows it (Death taken,
  // turned over at a call, the night told), else the card they say they drafted, kept on
  // this phone only; the list began at the Devil whatever a player held
  const rules = rulesPanel(S, v, me);
  if (night) wrap.insertBefore(rules, wrap.children[firstAfterHeader]);
  else wrap.append(rules);
  return wrap;
}

// The rules of one card of the deck; the reader's own card first and marked.
function rulesPanel(S, v, me) {
  const key = `darkcity:table:${v.code}:card:${me}:${v.night}`;
  const known = v.my_card ? v.my_card.role : null;
  let said = null;
  try { said = localStorage.getItem(key); } catch (e) { said = null; }
  const mine = known || said;
  const deckRoles = [...new Set(v.deck.cards.map((c) => c.role))];
  const roles = mine && deckRoles.includes(mine) ? [mine, ...deckRoles.filter((r) => r !== mine)] : deckRoles;
  // a card read tonight stays chosen through the re-draws; a new night starts at one's own
  const read = S.local.rules && S.local.rules.night === v.night ? S.local.rules.role : null;
  const chosen = read && roles.includes(read) ? read : mine;
  const sel = el("select", { "aria-label": t("The rules of a card"), "data-testid": "rules-role" },
    mine ? null : el("option", { value: "", selected: chosen ? null : true }, t("Which card did you draft?")),
    roles.map((r) => el("option", { value: r, selected: r === chosen ? true : null },
      r === mine ? `${role(r)} — ${t("your card")}` : role(r))));
  sel.addEventListener("change", () => {
    // the first card chosen while the table knows none is the one they hold
    if (!mine && sel.value) { try { localStorage.setItem(key, sel.value); } catch (e) { /* private mode */ } }
    S.local.rules = { night: v.night, role: sel.value };
    S.render();
  });
  const box = el("div", { class: "panel", "data-testid": "rules" },
    el("h2", { text: mine ? t("Your card: {card}", { card: known ? cardLabel(asRead(v, v.my_card)) : role(mine) }) : t("The rules of a card") }),
    // a card said on this phone (not one the table knows) can be said again
    mine && !known ? button(t("Change"), () => {
      try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
      S.local.rules = null;
      S.render();
    }, { class: "small", "data-testid": "rules-mine-change" }) : null,
    sel);
  if (chosen) {
    // each power a paragraph of its own (the list appended whole read "[object
    // HTMLParagraphElement],[object HTMLParagraphElement]" on every card with powers)
    box.append(el("p", { text: gestureOf(chosen) }), el("p", { text: goals(chosen) }),
      ...powers(chosen).map((line) => el("p", { class: "dim", text: line })));
  } else {
    box.append(el("p", { class: "dim", "data-testid": "rules-private", text: t("Choose the card you hold to read its rules first; only this phone knows it.") }));
  }
  return box;
}

// The night so far, as narrated at each call (public: the Mayor reads it aloud), the
// lines that name the reader in bold, and the call being made now.
function callsPanel(v, me) {
  const box = el("div", { class: "panel", "data-testid": "phone-calls" },
    el("h2", { text: t("The night so far") }));
  const story = el("div", { class: "story" });
  for (const block of v.narration) {
    story.append(el("p", { class: "step", text: block.step === "end" ? t("End of the night") : t("Step {step}", { step: block.step }) }));
    for (const line of block.lines) story.append(el("p", { class: mentions(line, me) ? "mine" : null, text: line }));
    if (!block.lines.length) story.append(el("p", { class: "dim", text: t("Nothing happens.") }));
  }
  box.append(story);
  const q = v.question;
  if (q) {
    box.append(q.role ? el("p", { class: "dim", text: t("Phase 4: step {step}", { step: q.step }) }) : null,
      el("p", { class: "big", "data-testid": "phone-call", text: q.role ? callOf(q.role) : t("Turn over the cards still unknown") }));
  }
  return box;
}

// What the Mayor entered for the reader tonight (their gesture, their withdrawal), while
// it can still be corrected: a wrong tap was seen on the Mayor's screen only, and the
// player who knew what they did never saw what was entered for them.
function entered(v, me) {
  const g = v.gestures[me];
  if (!g || !["reveal", "withdrawal", "resolution"].includes(v.stage)) return null;
  let s = role(g.shows);
  if (g.targets.length) s += ` → ${g.targets.join(", ")}`;
  if (g.kind) s += ` → ${role(g.kind)}`;
  if (g.seeks) s += ` (${gender(g.seeks)})`;
  const w = v.withdrawals[me];
  if (w === true) s += ` · ${t("{player} fled", { player: me })}`;
  else if (Array.isArray(w) && w.length) s += ` · ${t("lowers the bolt at {target}", { target: g.targets[w[0]] })}`;
  return el("div", { "data-testid": "phone-entered" },
    el("p", { class: "mine", text: t("Entered for you: {gesture}", { gesture: s }) }),
    el("p", { class: "dim", text: t("Not what you did? Tell the Mayor: it can be corrected.") }));
}
