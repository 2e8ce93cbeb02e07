// Every text goes through t() (the server's gettext catalogs, /api/i18n/LANG).
import { S } from "./store.js";

export function t(id, params) {
  let s = (S.cat && Object.hasOwn(S.cat.ui, id) && S.cat.ui[id]) || id;
  if (params) {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(params, k) ? String(params[k]) : m));
  }
  return s;
}
export const role = (k) => (S.cat && Object.hasOwn(S.cat.roles, k) && S.cat.roles[k]) || k;
export function word(group, k) {
  const g = S.cat && S.cat[group];
  return (g && Object.hasOwn(g, k) && g[k]) || k;
}

export async function loadLang(lang) {
  const r = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  S.cat = await r.json();
  S.lang = S.cat.lang;
  document.documentElement.lang = S.lang === "pt_BR" ? "pt-BR" : "en";
}

// The page's language: one chosen here before wins; then the browser's own (when it
// is one we speak); then the room's.
export function firstLanguage(roomLang) {
  const saved = localStorage.getItem("darkcity:lang");
  if (saved) return saved;
  for (const l of navigator.languages || [navigator.language || ""]) {
    const x = l.toLowerCase();
    if (x.startsWith("pt")) return "pt_BR";
    if (x.startsWith("en")) return "en";
  }
  return roomLang || "en";
}
export function chooseLanguage(lang) { localStorage.setItem("darkcity:lang", lang); return loadLang(lang); }
