// Where the online table's page finds what lies outside it: the server's addresses by
// default. The pocket app (pocket/site/play.js) puts its own here before the page
// starts: the catalogs in its site, its home, a record and a new game made by the
// phone's own engine, and no invite link (nobody else can reach a phone's game).
export const places = {
  online: true,  // friends can be invited (a link, a QR code, a seat link)
  home: "/",
  catalog: (lang) => `/api/i18n/${encodeURIComponent(lang)}`,
  meta: async () => (await fetch("/api/meta")).json(),
  record: (code) => ({ href: `/api/rooms/${code}/record` }),  // the record's link (or onclick)
  again: null,  // (code) => the new game's code, where "Play again" is not the server's
  follow: (code) => `/r/${encodeURIComponent(code)}`,  // the page of a room
  review: (code) => (code ? `/replay?room=${encodeURIComponent(code)}` : "/replay"),  // the record viewer
};
