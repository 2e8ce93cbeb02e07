// How a game is won, in one line per winner, and who is one XP from it: "Ada — 4 XP as
// the Priest". The rows are the server's (standing.met_rows, from darkcity.journal);
// "4 XP in one row" alone left a table asking which row, and which card won it.
import { S } from "./store.js";
import { t, role, word } from "./i18n.js";

function seatOf(name) {
  return S.view ? S.view.seats.find((s) => s.name === name) : null;
}

function rowXp(name, r) {
  const seat = seatOf(name);
  const row = seat ? seat.journal.find(([k]) => k === r) : null;
  return row ? row[1] : 0;
}

// One condition met, with its rows: "4 XP as the Priest", "2 XP or more in three
// rows: Priest, Angel, Hunter", "1 XP in six rows: ...", "8 XP in all".
export function conditionLine(name, c, rows) {
  const names = (rows || []).map(role).join(", ");
  if (c === "four-in-one" && rows && rows.length) {
    return t("{xp} XP as the {role}", { xp: rowXp(name, rows[0]), role: role(rows[0]) });
  }
  if ((c === "three-pairs" || c === "six-roles") && names) {
    return `${word("conditions", c)}: ${names}`;
  }
  return word("conditions", c);
}

// "Ada — 4 XP as the Priest" (and any other condition she met).
export function howWon(name, st) {
  const s = st ? st.seats.find((x) => x.name === name) : null;
  if (!s || !s.met.length) return name;
  return `${name} — ${s.met.map((c) => conditionLine(name, c, (s.met_rows || {})[c])).join("; ")}`;
}

// Who is one XP from a victory, and in which rows: "Ada is one XP from a victory: one
// more as the Priest."
export function nearLines(st) {
  if (!st) return [];
  return st.seats.filter((s) => s.near.length).map((s) => ({
    name: s.name,
    text: t("{player} is one XP from a victory: one more as the {roles}.", { player: s.name, roles: s.near.map(role).join(" / ") }),
  }));
}
