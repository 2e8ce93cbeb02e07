// The catalog lookup and the language choice both pages share. A catalog is the
// server's ({lang, ui, roles, ...}: darkcity.room.text), or null before one is
// loaded; each page keeps its own (the web table in its store, S.cat; the companion
// in L.cat) and its i18n.js binds these to it, so a panel calls t() from there.

// ``id`` in ``cat`` (the id itself where it has none), with ``{name}`` filled from
// ``params``; a placeholder ``params`` lacks is left as written.
export function lookup(cat, id, params) {
  let s = (cat && Object.hasOwn(cat.ui, id) && cat.ui[id]) || id;
  if (params) {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(params, k) ? String(params[k]) : m));
  }
  return s;
}

// ``k`` in the catalog's ``group`` (roles, fates, genders ...), or ``k`` itself.
export function pick(cat, group, k) {
  const g = cat && cat[group];
  return (g && Object.hasOwn(g, k) && g[k]) || k;
}

// The page's <html lang> for a catalog's language (screen readers and hyphenation).
export function showLanguage(lang) {
  document.documentElement.lang = lang === "pt_BR" ? "pt-BR" : "en";
}

// The language chosen on either page, kept for both (localStorage "darkcity:lang").
export const LANG_KEY = "darkcity:lang";
export const savedLanguage = () => localStorage.getItem(LANG_KEY);
export function saveLanguage(lang) { localStorage.setItem(LANG_KEY, lang); }

// The browser's own language, when it is one we speak (en or pt_BR); else null.
export function browserLanguage() {
  for (const l of navigator.languages || [navigator.language || ""]) {
    const x = l.toLowerCase();
    if (x.startsWith("pt")) return "pt_BR";
    if (x.startsWith("en")) return "en";
  }
  return null;
}
