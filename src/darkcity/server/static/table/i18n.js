// The companion's texts: the server's gettext catalogs (/api/table/meta?lang=), kept
// in L and looked up by ../common/i18n.js.
import { lookup, pick as pickIn, showLanguage } from "../common/i18n.js";

export const L = { cat: null, lang: "en" };

export function setCatalog(lang, cat) {
  L.lang = lang;
  L.cat = cat;
  showLanguage(lang);
}

export function t(id, params) { return lookup(L.cat, id, params); }

const pick = (group, k) => pickIn(L.cat, group, k);
export const role = (k) => pick("roles", k);
export const callOf = (k) => pick("calls", k);
export const gender = (k) => pick("genders", k);
export const edition = (k) => pick("editions", k);
export const fate = (k) => pick("fates", k);
export const condition = (k) => pick("conditions", k);
export const goals = (k) => pick("goals", k);
export const powers = (k) => (L.cat && L.cat.powers[k]) || [];
export const gestureOf = (k) => pick("gestures", k);
export const speechLang = () => (L.lang === "pt_BR" ? "pt-BR" : "en-US");

export function cardLabel(card) {
  const bits = [];
  if (card.edition === "advanced") bits.push(edition("advanced"));
  if (card.gender && card.gender !== "neutral") bits.push(gender(card.gender));
  return bits.length ? `${role(card.role)} (${bits.join(", ")})` : role(card.role);
}
