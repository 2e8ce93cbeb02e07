// The line at the foot of a face's first page: darkcity's one version
// (darkcity.__version__, in the page's meta: /api/meta, /api/table/meta, the pocket
// app's meta/*.json) and, where the meta gives its address, what each version changed.
import { el } from "./dom.js";

export function versionFooter(meta, changes) {
  if (!meta || !meta.version) return null;
  return el("footer", { class: "version", "data-testid": "version" },
    `darkcity ${meta.version}`,  // a name and a number: the same in every language
    meta.changelog ? [" · ", el("a", { href: meta.changelog, rel: "noopener", text: changes })] : []);
}
