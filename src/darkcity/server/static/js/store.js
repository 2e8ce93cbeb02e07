// The page's one state object and its render loop: a change is made through
// update(), and every subscriber (the page) draws again once, in a microtask.
// Anything keyed by player names is a Map: a name like "__proto__" is just a name.

export const S = {
  meta: null, cat: null, lang: null, code: null, token: null, member: null,
  ws: null, online: false, lost: false, lobby: null, view: null, standing: null,
  deadline: null, offset: 0, counting: null, countWord: null,
  notices: [], history: [], filter: [], shows: null, pending: false,
  fatal: null, attempts: 0, chat: [], helpOpen: false, helpRole: null,
  story: { night: 0, start: 0, shown: 0 },  // the newest night, told step by step
  before: new Map(),  // name -> journal before the newest night (until its XP line)
  removed: null, barOpen: false,  // what the host's removing this seat said (shown until the page is left)
  openNights: new Set(), fresh: true, retry: 0, sound: false, standingBefore: null, countOf: null,
  nowAfter: false, chose: null, back: null,  // "Now!" held over the reveal (clock.js); the decision this page sent; the nights a bot played for this seat (back.js)
};

const subscribers = [];
let due = false;

export function subscribe(fn) { subscribers.push(fn); }

export function update(fn) {
  if (fn) fn(S);
  if (due) return;
  due = true;
  queueMicrotask(() => {
    due = false;
    for (const f of subscribers) f(S);
  });
}

export const now = () => Date.now() / 1000 + S.offset;

// Helpers over the view and the lobby.
export function me() {
  return S.lobby && S.lobby.seats.find((s) => s.member !== null && s.member === S.member);
}
export function isHost() { return S.member !== null && !!S.lobby && S.lobby.host === S.member; }
export function seatIndex(view) { return new Map(view.players.map((p, i) => [p, i])); }
