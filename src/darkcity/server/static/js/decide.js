// Decisions, with what each needs: the draft hand's cards can be opened before a pick,
// the withdrawal says who aims at you and showing which role, the Hunter's arrows
// name their targets, the Zombie's choice names its current target.
import { S, update } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el, toast } from "./dom.js";
import { send } from "./net.js";
import { gestureText } from "./reveal.js";
import { cardInfo, effect, gestureOf, linesOf } from "./cards.js";
import { tonightForYou } from "./story.js";

const SEALED = new Set(["gesture", "withdrawal"]);

export function targetsOf(choices) {
  const s = new Set();
  for (const c of choices) {
    for (const x of c.targets || []) s.add(x);
    if (c.target) s.add(c.target);
    if (c.names) s.add(c.names);
  }
  return s;
}

function isChangeable(V) {
  return SEALED.has(V.phase) && !S.counting && !!S.sealed && S.sealed.id === V.decision_id &&
    V.required.includes(V.viewer) && !V.pending.includes(V.viewer);
}

// The choices on offer: the view's, or, while a sealed decision is being changed, the
// ones it was made from.
export function currentChoices(V) {
  return isChangeable(V) && S.changing ? S.sealed.choices : V.choices;
}

export function setFilter(name) {
  update(() => { S.filter = S.filter.includes(name) ? S.filter.filter((x) => x !== name) : [...S.filter, name]; });
}

function myGesture() {
  const V = S.view;
  const seat = V.seats.find((s) => s.name === V.viewer);
  return seat ? seat.gesture : null;
}

export function choiceText(c) {
  switch (c.type) {
    case "free-xp": return t("Free XP: {role}", { role: role(c.role) });
    case "draft-pick": return `${role(c.card.role)} · ${word("editions", c.card.edition)} · ${word("genders", c.card.gender)}`;
    case "face-down-pick": return t("Take a face-down card at random");
    case "take-death": return t("Take Death and name {player}", { player: c.names });
    case "look-at-hand": return t("Leave Death and look at the hand");
    case "gesture": {
      const parts = [];
      if (c.shows) parts.push(t("show {role}", { role: role(c.shows) }));
      if (c.targets) parts.push("→ " + c.targets.join(" & "));
      if (c.kind) parts.push(t("kind: {role}", { role: role(c.kind) }));
      if (c.seeks) parts.push(t("seeks: {gender}", { gender: word("genders", c.seeks) }));
      return parts.length ? parts.join(" ") : t("Make your gesture");
    }
    case "withdrawal": {
      if (c.withdrawal === false) return t("Stay");
      if (c.withdrawal === true) return t("Withdraw");
      const g = myGesture();
      const names = c.withdrawal.map((i) => (g && g.targets[i]) || String(i + 1));
      return t("Lower the bolt aimed at {player}", { player: names.join(" & ") });
    }
    case "zombie": return t("Final victim: {player}", { player: c.target });
    default: return c.type;
  }
}

function decide(c, change) {
  if (S.pending || S.counting) return;
  const decision = Object.assign({}, c);
  delete decision.player;
  const message = { type: "decide", at: S.view.decision_id, decision, ref: String(Date.now()) };
  if (change) message.change = true;
  const id = S.view.decision_id;
  if (send(message)) update(() => { S.pending = true; S.changing = false; S.chose = { id, choice: c }; });
  else toast(t("Not sent: the connection is lost. Tap again once it is back."), "error");
}

// What a gesture does, if the card is the one shown, read from the engine's combat
// panel (the card's own lists, put together for this night): a newcomer deciding to
// stay or withdraw had Bento's Werewolf at them and their card's "Werewolf: kills" a
// screen below, to match up themselves.
function myRole() {
  const V = S.view;
  const seat = V.seats.find((s) => s.name === V.viewer);
  return seat && seat.card ? seat.card.role : null;
}
function ifShown(attacker, target, text, tag = "div") {
  const e = attacker && target ? effect(attacker, target) : "nothing";
  return e === "nothing" ? null : el(tag, { class: "muted", "data-testid": "if-shown", text: text(word("effects", e)) });
}

function aimers() {
  const V = S.view;
  const at = V.seats.filter((s) => s.name !== V.viewer && s.gesture && (s.gesture.targets || []).includes(V.viewer));
  if (!at.length) return el("p", { class: "muted", "data-testid": "aimers", text: t("Nobody aims at you tonight.") });
  const mine = myRole();
  return el("div", { "data-testid": "aimers" }, el("p", { text: t("Aiming at you:") }),
    el("ul", {}, at.map((s) => el("li", {}, t("{player}, showing {role}", { player: s.name, role: role(s.gesture.shows) }),
      ifShown(s.gesture.shows, mine, (e) => t("On you, if that is the card: {effect}", { effect: e }))))));
}

// The reader's own targets, each with what the reader's card does to the role it shows.
function onMyTargets(g) {
  const V = S.view;
  const mine = myRole();
  const shown = new Map(V.seats.filter((s) => s.gesture).map((s) => [s.name, s.gesture.shows]));
  const lines = [...new Set(g.targets)].map((p) => ifShown(mine, shown.get(p), (e) =>
    t("On {player}, if that is the card shown ({role}): {effect}", { player: p, role: role(shown.get(p)), effect: e }), "p"));
  return lines.filter(Boolean);
}

const cardText = (c) => `${role(c.role)} · ${word("editions", c.edition)} · ${word("genders", c.gender)}`;
const sameCard = (a, b) => a.role === b.role && a.edition === b.edition && a.gender === b.gender;

// A draft pick: the card once, with its rules to open and the button that keeps it (the
// hand is not listed twice, once to read and once to choose).
function pickRow(c, k, V, used, onpick) {
  const j = (V.hand || []).findIndex((h, i) => !used.has(i) && sameCard(h, c.card));
  if (j >= 0) used.add(j);
  return el("div", { class: "handrow" },
    el("details", { class: "handcard", "data-testid": j >= 0 ? `hand-card-${j}` : null },
      el("summary", { text: cardText(c.card) }), cardInfo(j >= 0 ? V.hand[j] : c.card)),
    el("button", { class: "cardpick", type: "button", "data-testid": `choice-${k}`, disabled: S.pending || !!S.counting,
      "aria-label": t("Keep {card}", { card: cardText(c.card) }), text: t("Keep"), onclick: onpick }));
}

function handCards(V) {
  return el("div", { class: "hand", "data-testid": "hand" }, V.hand.map((c, k) => el("details", { class: "handcard", "data-testid": `hand-card-${k}` },
    el("summary", { text: cardText(c) }), cardInfo(c))));
}

// What the decision means, for a player who has not read the rulebook.
function explain(V) {
  const seat = V.seats.find((s) => s.name === V.viewer);
  const card = seat && seat.card;
  const line = (text, testid) => el("p", { class: "explain", "data-testid": testid || null, text });
  if (V.phase === "setup") {
    return [line(t("Everyone starts with 1 XP in a role of their choice (a row of the journal). You win with 4 XP in one row, 2 XP in three rows, 1 XP in six rows, or 8 XP in all."))];
  }
  if (V.phase === "gesture") {
    return [card ? line(t("Your role: {role}. {gesture}", { role: role(card.role), gesture: gestureOf(card.role, card.edition) }), "you-are") : null,
      // (the goal lines of this card's edition with the roles in play: a basic Devil has
      // no advanced goal)
      card ? line(t("Your goal: {goal}", { goal: linesOf("goal_lines", card.role, card.edition).join(" ") || S.cat.goals[card.role] }), "your-goal") : null,
      line(t("Nobody sees your choice until everyone has chosen; then the Mayor counts “1, 2, 3, now!” and every gesture is shown at once."))].filter(Boolean);
  }
  if (V.phase === "withdrawal") {
    return [line(t("Withdraw, and you flee the night: nobody can harm you, but your gesture does nothing and you earn no XP."))];
  }
  if (V.phase === "draft" && V.choices.some((c) => c.type === "take-death")) {
    return [line(t("You choose last, so you may take Death instead of a card from the hand. Death sits the night out: nobody can harm you and you attack nobody. You secretly name a player; at the end of the night Death earns 1 XP if that player's role was eliminated or abducted."), "death-explain"),
      line(t("Or leave Death and look at the hand passed to you, as usual."))];
  }
  if (V.phase === "zombie") {
    return [line(t("The Zombie decides once and for all: keep the neighbour you pointed at, or switch to the one on your other side. Your attack falls on that player."), "zombie-explain")];
  }
  return [];
}

// The arrow keys move between the prompt's buttons (Tab does too): a keyboard player
// goes through a long list of gestures without tabbing past every card's rules.
function arrows(ev) {
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[ev.key];
  if (!step || !(ev.target instanceof HTMLButtonElement)) return;
  const all = [...ev.currentTarget.querySelectorAll("button:not([disabled])")];
  const next = all[all.indexOf(ev.target) + step];
  if (next) { ev.preventDefault(); next.focus(); }
}

// During the count a sealed decision is one line: what the reader chose, not its buttons
// (the last to decide still holds the question's view until the reveal), so the count
// and the circle are what they see. What was chosen is what this page sent, else what
// the view holds; neither: the time ran out and a bot chose.
function sealedNote(V, box) {
  const seat = V.seats.find((s) => s.name === V.viewer);
  const mine = S.chose && S.chose.id === V.decision_id ? S.chose.choice : null;
  let said = null;
  if (V.phase === "gesture") {
    const g = mine || (seat && seat.gesture);
    // a choice names the role shown only where it is not the card's own (a Devil's)
    const shows = g && (g.shows || (seat && seat.card && seat.card.role));
    if (g) said = t("Your gesture: {gesture}", { gesture: gestureText({ ...g, shows }, true) });
  } else {
    const w = mine || (seat && seat.withdrawal !== null && seat.withdrawal !== undefined ? { type: "withdrawal", withdrawal: seat.withdrawal } : null);
    if (w) said = t("You chose: {choice}", { choice: choiceText(w) });
  }
  box.append(el("h2", { id: "decide-h", tabindex: "-1", "data-testid": "sealed", text: said || t("Time is up: a bot chose for you.") }),
    el("p", { class: "muted", text: t("Sealed until “now!”: nobody else sees it.") }));
  return box;
}

export function decisionPanel() {
  const V = S.view;
  if (V.phase === "over") return null;
  const box = el("section", { class: "card decide", "data-testid": "decide", "aria-labelledby": "decide-h", onkeydown: arrows });
  // the face-down pick is news in the draft; after it the seat says it (a line kept
  // under every later question, through the gestures and the withdrawal, was noise)
  const blind = V.blind_pick && V.phase === "draft" ? el("p", { class: "blind", "data-testid": "blind-pick", text: t("{player} took a face-down card.", { player: V.blind_pick }) }) : null;
  const done = () => box;
  // the night just told, for the reader, above the next question (a phone's story is
  // under the table, and "Your turn ↓" skipped it)
  const foryou = tonightForYou();
  if (foryou) box.append(foryou);
  if (blind) box.append(blind);
  if (!V.viewer) { box.append(el("p", { class: "muted", id: "decide-h", tabindex: "-1", text: t("You are watching.") })); return done(); }
  // A sealed decision may be made again until the count: the choices it was made
  // from are kept for this decision point.
  if (V.choices.length && SEALED.has(V.phase)) S.sealed = { id: V.decision_id, choices: V.choices };
  if (S.counting && SEALED.has(V.phase) && V.required.includes(V.viewer)) { sealedNote(V, box); return done(); }
  const changeable = isChangeable(V);
  const choices = currentChoices(V);
  if (!choices.length) {
    const mineDone = V.required.includes(V.viewer);
    const waiting = V.pending.length && !S.counting ? t("Waiting for {names}.", { names: V.pending.join(", ") }) : "";
    box.append(el("h2", { id: "decide-h", tabindex: "-1", text: mineDone ? t("You have decided.") : t("Nothing to decide now.") }), el("p", { class: "muted", text: waiting }));
    if (!mineDone && V.phase === "draft") {  // what the wait is for, and when it ends
      const seat = V.seats.find((s) => s.name === V.viewer);
      box.append(el("p", { "data-testid": "draft-wait", text: seat && seat.card
        ? t("You have your card for tonight; the others are still choosing theirs.")
        : t("The hand goes round the table: each player in turn keeps one card and passes the rest on. Your turn comes when it reaches you.") }));
    }
    // what the table waits for after the withdrawal (a newcomer read only 'Waiting for
    // Eva' under 'Night 1 · the Zombies' choice')
    if (!mineDone && V.phase === "zombie") {
      box.append(el("p", { "data-testid": "zombie-wait", text: t("Whoever showed the Zombie now decides once and for all which neighbour the attack falls on: the one pointed at, or the one on the other side.") }));
    }
    // a changed decision on its way: what was sent, not the old one with its "Change"
    // button (read between the click and the server's answer, it was the old gesture)
    const sending = mineDone && S.pending && S.chose && S.chose.id === V.decision_id;
    if (sending) {
      box.append(el("p", { "data-testid": "sending", text: t("Sending: {choice}", { choice: choiceText(S.chose.choice) }) }));
      return done();
    }
    const g = myGesture();
    if (mineDone && V.phase === "gesture" && g) box.append(el("p", { "data-testid": "my-gesture", text: t("Your gesture: {gesture}", { gesture: gestureText(g, true) }) }));
    const w = V.seats.find((s) => s.name === V.viewer);
    if (mineDone && V.phase === "withdrawal" && w && w.withdrawal !== null && w.withdrawal !== undefined) {
      box.append(el("p", { "data-testid": "my-withdrawal", text: t("You chose: {choice}", { choice: choiceText({ type: "withdrawal", withdrawal: w.withdrawal }) }) }));
    }
    if (changeable) {
      box.append(el("button", { type: "button", class: "secondary", "data-testid": "change", text: t("Change my decision"),
        onclick: () => update(() => { S.changing = true; S.filter = []; S.shows = null; }) }));
    }
    if (mineDone && V.phase === "withdrawal") box.append(aimers());
    return done();
  }
  box.append(el("h2", { id: "decide-h", tabindex: "-1", text: word("prompts", V.phase) }), el("p", { class: "muted", id: "deadline-note", "data-testid": "deadline-note" }));
  box.append(...explain(V));
  const picks = choices.some((c) => c.type === "draft-pick");
  if (V.phase === "draft" && V.hand) {
    box.append(el("p", { class: "muted", text: t("Keep one card; pass the rest on. Open a card to read its rules.") }));
    if (!picks) box.append(handCards(V));
  }
  if (V.phase === "withdrawal") {
    box.append(aimers());
    const g = myGesture();
    if (g && g.targets && g.targets.length) box.append(el("p", { class: "muted", text: t("Your gesture: {gesture}", { gesture: gestureText(g, true) }) }), ...onMyTargets(g));
  }
  if (V.phase === "zombie") {
    const g = myGesture();
    // the engine's fates after steps 1+ to 3 (the view's fates_so_far), never worked out here
    const fates = new Map(V.fates_so_far || []);
    const now = g && g.targets && g.targets.length ? g.targets[0] : null;
    if (now) box.append(el("p", { "data-testid": "zombie-target", text: t("Your gesture points at {player}.", { player: now }) }));
    const neighbours = [...new Set([now, ...choices.map((c) => c.target)].filter(Boolean))];
    for (const n of neighbours) {
      const fate = fates.get(n);
      if (!fate || fate === "alive") continue;
      box.append(el("p", { class: "warn", "data-testid": `zombie-gone-${n}`,
        text: fate === "withdrawn" ? t("{player} withdrew from the night.", { player: n }) : t("{player} is out of the night.", { player: n }) }));
    }
  }
  let list = choices;
  const shows = [...new Set(list.filter((c) => c.shows).map((c) => c.shows))];
  if (shows.length > 1) {
    box.append(el("p", { text: t("Show which role?") }), el("div", { class: "row wrap" }, shows.map((r, k) =>
      el("button", { class: `small ${S.shows === r ? "" : "secondary"}`, type: "button", "aria-pressed": String(S.shows === r), "data-testid": `shows-${k}`, text: role(r),
        onclick: () => update(() => { S.shows = S.shows === r ? null : r; }) }))));
    list = S.shows ? list.filter((c) => c.shows === S.shows) : [];
  }
  if (S.filter.length) list = list.filter((c) => S.filter.every((n) => (c.targets || []).includes(n) || c.target === n || c.names === n));
  if (shows.length > 1 && !S.shows) {  // a Devil: the role shown first, then its targets
    box.append(el("p", { class: "muted", "data-testid": "show-role-first", text: t("Choose the role to show first; its targets come next.") }));
  } else if (targetsOf(choices).size) {
    box.append(el("p", { class: "muted", text: S.filter.length ? t("Chosen: {names} (tap a seat again to clear)", { names: S.filter.join(", ") }) : t("Tap or click seats on the table to choose your targets.") }));
  }
  const max = 40;
  const used = new Set();
  const rows = list.slice(0, max).map((c, k) => (c.type === "draft-pick"
    ? pickRow(c, k, V, used, () => decide(c, false))
    : el("button", { class: "choice", type: "button", "data-testid": `choice-${k}`, disabled: S.pending || !!S.counting, text: choiceText(c), onclick: () => decide(c, changeable && S.changing) })));
  const cardRows = rows.filter((r) => r.classList.contains("handrow"));
  if (cardRows.length) box.append(el("div", { class: "hand", "data-testid": "hand" }, cardRows));
  const others = rows.filter((r) => !r.classList.contains("handrow"));
  if (others.length) box.append(el("div", { class: "choices" }, others));
  if (changeable && S.changing) {
    box.append(el("button", { type: "button", class: "secondary small", "data-testid": "keep", text: t("Keep my decision"),
      onclick: () => update(() => { S.changing = false; }) }));
  }
  if (list.length > max) box.append(el("p", { class: "muted", text: t("Tap or click seats to narrow the choice.") }));
  return done();
}

export function yourCard() {
  const V = S.view;
  if (!V.viewer) return null;
  const seat = V.seats.find((s) => s.name === V.viewer);
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  const before = last && !seat.card ? (new Map(last.cards)).get(V.viewer) : null;
  const card = (seat && seat.card) || before;
  const box = el("section", { class: "card yours", "data-testid": "your-card", "aria-labelledby": "yours-h" },
    el("h2", { id: "yours-h", text: before ? t("Your card last night") : t("Your card") }));
  if (V.hand && !V.choices.some((c) => c.type === "draft-pick")) {
    box.append(el("p", { class: "muted", text: t("Your hand: {cards}", { cards: V.hand.map((c) => role(c.role)).join(", ") }) }));
  }
  if (!card) { box.append(el("p", { class: "muted", text: t("No card yet.") })); return box; }
  box.append(cardInfo(card, { heading: "div" }));
  return box;
}
