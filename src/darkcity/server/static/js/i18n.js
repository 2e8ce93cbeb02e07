// Every text goes through t() (the server's gettext catalogs, /api/i18n/LANG), looked
// up in the store's catalog (S.cat) by ../common/i18n.js.
import { S } from "./store.js";
import { places } from "./places.js";
import { browserLanguage, lookup, pick, saveLanguage, savedLanguage, showLanguage } from "../common/i18n.js";

export function t(id, params) { return lookup(S.cat, id, params); }
export const role = (k) => pick(S.cat, "roles", k);
export function word(group, k) { return pick(S.cat, group, k); }

export async function loadLang(lang) {
  const r = await fetch(places.catalog(lang));
  S.cat = await r.json();
  S.lang = S.cat.lang;
  showLanguage(S.lang);
}

// The page's language: one chosen here before wins; then the browser's own (when it
// is one we speak); then the room's.
export function firstLanguage(roomLang) {
  return savedLanguage() || browserLanguage() || roomLang || "en";
}
export function chooseLanguage(lang) { saveLanguage(lang); return loadLang(lang); }
