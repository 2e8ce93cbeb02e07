// The reveal: every gesture as an arrow from its maker to each target, in the maker's
// own colour, labelled on the arrow itself; arrows at the reader stand out; after the
// withdrawal, lowered arrows and fled players are drawn as such. The same facts as a
// "who -> whom" table beside the circle (what a screen reader reads).
import { S, seatIndex } from "./store.js";
import { t, role, word } from "./i18n.js";
import { el, svg } from "./dom.js";
import { effect } from "./cards.js";

// One colour per seat, readable on the dark table (and told apart from each other).
// Seats sit on a circle of this radius (percent of the table), arrows run between them.
export const RADIUS = 38;

export const COLOURS = ["#ff6b6b", "#4dabf7", "#ffd43b", "#69db7c", "#da77f2", "#ff922b", "#3bc9db", "#f783ac"];

export function gestureText(g, full) {
  if (!g) return "";
  const parts = [role(g.shows)];
  if (g.kind) parts.push(t("kind: {role}", { role: role(g.kind) }));
  if (g.seeks) parts.push(t("seeks: {gender}", { gender: word("genders", g.seeks) }));
  if (full && g.targets && g.targets.length) parts.push("→ " + g.targets.join(" & "));
  if (g.names) parts.push(t("names {player}", { player: g.names }));
  return parts.join(" · ");
}

// [name, gesture] pairs and the withdrawals (Map name -> true | [arrow indices]).
export function arrowsOf(view, gestures, withdrawals) {
  const idx = seatIndex(view);
  const out = [];
  for (const [p, g] of gestures) {
    if (!g || !g.targets || !idx.has(p)) continue;
    const w = withdrawals.get(p);
    g.targets.forEach((tg, k) => {
      if (!idx.has(tg)) return;
      out.push({ from: idx.get(p), to: idx.get(tg), maker: p, target: tg, label: role(g.shows),
        k, of: g.targets.length, fled: w === true, lowered: Array.isArray(w) && w.includes(k),
        atMe: view.viewer !== null && tg === view.viewer });
    });
  }
  return out;
}

// Where on its curve an arrow's label may sit, best first; the half-width and
// half-height of the circle's centre (the night, the countdown), kept clear of labels;
// a label's size, in the circle's units (2.4-unit bold text): a letter's width (measured
// 1.5 to 1.65 in Chromium: 'Anjo' 6.0, 'Necromante' 16.5; 1.45 let two labels side by
// side overlap by a letter), a line;
// two labels a line apart still touch through their halos and strike-throughs, so
// another label is kept LABEL_GAP away, and weighs LABEL_WEIGHT, as much as a seat (ten
// lines off the curve). At 1.5 (less than a seat) and on whole lines off the curve, a
// phone's full table (its seats taller, its centre wider) drew 53 of 2,000 labels one on
// another: between two seats at the sides, the spots clear of both were a line or two
// away and half a line would do. Spots every half line off the curve, every 4 % along it.
const LABEL_AT = [0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.26, 0.74, 0.22, 0.78, 0.18, 0.82, 0.14, 0.86];
const OFFSETS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, -0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5, -6];
const CENTRE = [11, 8];
// The centre's box for its title ("Night 2 · draft", "Noite 1 · desistência"), in the
// circle's units: a bold letter's width, the centre's width and a line of the title,
// then the countdown under it, measured at 1280 px and at 375 px (style.css's phone:
// the table half as wide, the centre narrower, a title of two or three lines). A wider
// screen's table is larger for the same text: the box is then a little too big.
const TITLE = { desk: [1.35, 45, 2.8, 5], phone: [2.45, 40, 5.4, 6.8] };
function centre(title) {
  if (!title) return CENTRE;
  const [letter, width, line, clock] = TITLE[window.matchMedia("(max-width: 760px)").matches ? "phone" : "desk"];
  const long = title.length * letter;
  const lines = Math.ceil(long / (width * 0.85));  // (a line breaks between words)
  return [Math.max(CENTRE[0], Math.min(width, long) / 2 + 1), Math.max(CENTRE[1], (lines * line + clock) / 2 + 1)];
}
const LABEL_W = 1.65, LABEL_H = 3, LABEL_GAP = 3.8, LABEL_WEIGHT = 4, SEAT_WEIGHT = 4;
// A seat's half-width and half-height, in the circle's units (style.css: a quarter of
// the table wide; its lines of text at 375 px and at 1280 px, measured at 8 seats):
// a label on a seat hid its name and XP ('Lobisomem' over Eva at eight seats on a phone).
const SEAT = { desk: [12, 6.5], phone: [12.5, 10.5] };

const pos = (i, n) => { const a = (Math.PI * 2 * i) / n + Math.PI / 2; return [50 + RADIUS * Math.cos(a), 50 + RADIUS * Math.sin(a)]; };

export function arrowLayer(arrows, n, title) {
  const defs = svg("defs", {}, COLOURS.map((c, i) => svg("marker", { id: `head-${i}`, markerWidth: 5, markerHeight: 5, refX: 4, refY: 2.5, orient: "auto", markerUnits: "strokeWidth" },
    svg("path", { d: "M0,0 L5,2.5 L0,5 z", fill: c }))));
  const layer = svg("svg", { viewBox: "0 0 100 100", class: "arrows", "data-testid": "arrows", "aria-hidden": "true", focusable: "false" }, defs);
  const box = centre(title);
  const [sw, sh] = SEAT[window.matchMedia("(max-width: 760px)").matches ? "phone" : "desk"];
  const seats = Array.from({ length: n }, (_, i) => pos(i, n));
  const todo = [];  // each label: its half-width, its spots and what they cost alone
  for (const a of arrows) {
    const [x1, y1] = pos(a.from, n), [x2, y2] = pos(a.to, n);
    const bend = (a.k - (a.of - 1) / 2) * 5;
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    // control point: off the chord, to the maker's right, more for a second arrow
    const cx = (x1 + x2) / 2 + (dy / len) * (6 + bend), cy = (y1 + y2) / 2 - (dx / len) * (6 + bend);
    // from the maker's seat's edge to the target's, not into them (an arrowhead on a
    // seat hid its name or badges: a neighbour's arrow reached a third into the seat),
    // yet never shorter than two fifths of the chord (two neighbours of a full table)
    const edge = Math.min(sw / Math.max(Math.abs(dx / len), 1e-3), sh / Math.max(Math.abs(dy / len), 1e-3));
    const f0 = Math.min(0.3, (edge + 0.5) / len), f1 = Math.min(0.3, (edge + 1) / len);
    const sx = x1 + dx * f0, sy = y1 + dy * f0, ex = x2 - dx * f1, ey = y2 - dy * f1;
    // (the labels keep their places on the curve from 13 % to 85 % of the chord)
    const lx0 = x1 + dx * 0.13, ly0 = y1 + dy * 0.13, lx1 = x2 - dx * 0.15, ly1 = y2 - dy * 0.15;
    const colour = COLOURS[a.from % COLOURS.length];
    const cls = ["arrow", a.atMe ? "at-me" : "", a.lowered ? "lowered" : "", a.fled ? "fled" : ""].join(" ");
    layer.append(svg("path", { d: `M${sx},${sy} Q${cx},${cy} ${ex},${ey}`, class: cls, stroke: colour,
      "marker-end": `url(#head-${a.from % COLOURS.length})`, "data-from": a.maker, "data-to": a.target }));
    // the label sits on the curve itself, in the arrow's colour: at its middle, or
    // nearer an end where the middle would cover the night and the countdown, a seat
    // or another arrow's label
    const at = (u) => [(1 - u) * (1 - u) * lx0 + 2 * (1 - u) * u * cx + u * u * lx1,
      (1 - u) * (1 - u) * ly0 + 2 * (1 - u) * u * cy + u * u * ly1];
    const w = LABEL_W * a.label.length / 2 + 0.5;
    const inCentre = ([x, y]) => Math.abs(x - 50) < box[0] + w && Math.abs(y - 50) < box[1] + LABEL_H / 2;
    const onSeats = ([x, y]) => seats.filter(([px, py]) => Math.abs(x - px) < w + sw && Math.abs(y - py) < sh + LABEL_H / 2).length;
    // where every spot on a short curve covers another label (two neighbours aiming at
    // each other), a line off the curve on its outer side, then two; on a phone, an
    // arrow across the centre's three-line title or between two neighbours of a full
    // table, up to six on either side, never off the table
    const nx = dy / len, ny = -dx / len;
    const outside = ([x, y]) => x - w < 0 || x + w > 100 || y - LABEL_H < 0 || y + 1 > 100;
    const spots = OFFSETS.flatMap((off) => LABEL_AT.map(at).map(([x, y]) =>
      [x + nx * off * LABEL_H, y + ny * off * LABEL_H, off])).map((q) =>
      // the centre weighs two, a seat four, a line off the curve 0.4
      [q[0], q[1], 9 * outside(q) + 2 * inCentre(q) + SEAT_WEIGHT * onSeats(q) + 0.4 * Math.abs(q[2]) + (q[2] < 0 ? 0.1 : 0)]);
    todo.push({ w, spots, at: null, text: svg("text", { class: `label ${a.lowered || a.fled ? "off" : ""}`, fill: colour, text: a.label }) });
  }
  // each label at the spot costing least, the middle first among equals, given the
  // labels placed before it; then each again given all the others, twice (a label
  // placed early no longer keeps the best spot of a later one: labels drawn on each
  // other, 190 of 2,000 on a phone's full tables, 52 on a desktop)
  const covers = (me, [x, y]) => todo.filter((o) => o !== me && o.at
    && Math.abs(x - o.at[0]) < me.w + o.w && Math.abs(y - o.at[1]) < LABEL_GAP).length;
  const place = (me) => {
    let best = null, low = Infinity;
    for (const q of me.spots) {
      if (q[2] >= low) continue;
      const c = q[2] + LABEL_WEIGHT * covers(me, q);
      if (c < low) { low = c; best = q; }
    }
    me.at = best;
  };
  todo.forEach(place);
  for (let pass = 0; pass < 2; pass++) todo.forEach(place);
  const labels = todo.map(({ at: [x, y], text }) => {
    text.setAttribute("x", x.toFixed(2));
    text.setAttribute("y", (y + 0.9).toFixed(2));
    return text;
  });
  labels.forEach((l) => layer.append(l));  // above every arrow
  return layer;
}

export function whoWhom(view, gestures, withdrawals, caption, cards) {
  const idx = seatIndex(view);
  const rows = gestures.filter(([, g]) => g).map(([p, g]) => {
    const w = withdrawals.get(p);
    const targets = (g.targets || []).map((tg, k) => {
      const lowered = Array.isArray(w) && w.includes(k);
      return el("span", { class: `target ${lowered ? "lowered" : ""} ${tg === view.viewer ? "at-me" : ""}` },
        tg + (lowered ? ` (${t("bolt lowered")})` : ""));
    });
    const what = [];
    if (g.kind) what.push(t("kind: {role}", { role: role(g.kind) }));
    if (g.seeks) what.push(t("seeks: {gender}", { gender: word("genders", g.seeks) }));
    const colour = COLOURS[(idx.get(p) || 0) % COLOURS.length];
    return el("tr", { class: w === true ? "fled" : "" },
      el("th", { scope: "row" }, el("span", { class: "who" },  // (the swatch and the name on one line)
        el("span", { class: "swatch", style: `background:${colour}`, "aria-hidden": "true" }), el("span", { text: p }))),
      el("td", { text: role(g.shows) }),
      el("td", {}, targets.length ? targets.flatMap((x, i) => (i ? [", ", x] : [x])) : what.join(" · ") || "—"),
      el("td", { text: w === true ? t("withdrew") : "" }));
  });
  const table = el("table", { class: "whowhom", "data-testid": "who-whom" },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Who") }), el("th", { scope: "col", text: t("Shows") }),
      el("th", { scope: "col", text: t("Whom") }), el("th", { scope: "col", text: t("Withdrawal") }))),
    el("tbody", {}, rows));
  return [table, kindNotes(gestures, withdrawals, cards)];
}

// A gesture naming a kind of role (the Voodooist's doll, the Alien's kind) said in
// words: what it does if the card is the one shown (the engine decides it; rulings
// say the same). Once the night's cards are known (its
// end), said for the card the player really held.
function kindNote(p, g, card) {
  const kind = role(g.kind);
  if (card && card !== g.shows && (g.shows === "voodooist" || g.shows === "alien")) {
    const o = { player: p, shown: role(g.shows), card: role(card) };
    return g.shows === "voodooist" ? t("{player} only showed the {shown} (the card was the {card}): the doll protected nobody.", o)
      : t("{player} only showed the {shown} (the card was the {card}): nobody was abducted.", o);
  }
  if (g.shows === "voodooist") {
    // the Devil's illusion never harms her: the panel's "miss"
    if (effect(g.kind, "voodooist") === "miss") return t("{player}'s voodoo doll: {kind}. A doll does not work on the {kind} (whose illusion harms nobody anyway).", { player: p, kind });
    return card
      ? t("{player}'s voodoo doll: {kind}. Any attack on {player} by whoever held the {kind} card failed.", { player: p, kind })
      : t("{player}'s voodoo doll: {kind}. If {player} really is the Voodooist, any attack on {player} by whoever holds the {kind} card fails.", { player: p, kind });
  }
  if (g.shows !== "alien") return null;
  // what the abduction does to the kind named is the engine's combat panel: the Angel
  // and the Devil are immune, a Mummy or a Creature takes one hit first
  const abduction = effect("alien", g.kind);
  if (abduction !== "abduct" && abduction !== "hit") {
    return t("{player}'s Alien names the {kind}, who cannot be abducted: nobody is taken.", { player: p, kind });
  }
  const line = card
    ? t("{player}'s Alien named the {kind}: at its step every player still in the night whose card was the {kind} was abducted, unless protected from the Alien.", { player: p, kind })
    : t("{player}'s Alien names the {kind}: if {player} really is the Alien, at its step every player still in the night whose card is the {kind} is abducted, unless protected from the Alien.", { player: p, kind });
  if (abduction !== "hit") return line;
  return `${line} ${g.kind === "mummy" ? t("A Mummy still asleep is only woken.") : t("A Creature not yet wounded is only wounded.")}`;
}

function kindNotes(gestures, withdrawals, cards) {
  const lines = gestures.filter(([p, g]) => g && g.kind && withdrawals.get(p) !== true)
    .map(([p, g]) => kindNote(p, g, cards && cards.has(p) ? cards.get(p).role : null)).filter(Boolean);
  if (!lines.length) return null;
  return el("ul", { class: "kindnotes", "data-testid": "kind-notes" }, lines.map((x) => el("li", { text: x })));
}

// What the circle shows now: tonight's revealed gestures, or the last night's.
export function revealNow(view) {
  const inNight = ["withdrawal", "zombie"].includes(view.phase);
  if (inNight) {
    const g = view.seats.map((s) => [s.name, s.gesture]);
    const w = new Map(view.seats.filter((s) => s.withdrawal !== null).map((s) => [s.name, s.withdrawal]));
    return { gestures: g, withdrawals: w, caption: t("Tonight's gestures") };
  }
  const last = S.history.length ? S.history[S.history.length - 1] : null;
  if (last && ["over", "draft", "setup"].includes(view.phase)) {
    return { gestures: last.gestures, withdrawals: new Map(last.withdrawals), cards: new Map(last.cards), caption: t("Night {n}", { n: last.number }) };
  }
  return null;
}
