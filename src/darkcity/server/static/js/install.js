// The home page's offer of the pocket app (issue #49): the table companion and a game
// against bots on a phone, offline. This server serves it at /app/ (server/pocket_app.py:
// built at first need, "preparing" meanwhile, or why it cannot be); a phone keeps it
// and installs it only from an HTTPS address (or this computer's own localhost), so a
// page that came over plain HTTP from a LAN address says so and where it can (the
// address the project publishes it at). The other phones at the table scan a QR code
// of wherever they can install it (/api/app/qr.svg, drawn by the server).
import { t } from "./i18n.js";
import { el } from "./dom.js";

let status = null;  // /api/app's last answer (kept across the page's redraws)

function published(s) {
  return el("a", { href: s.published, "data-testid": "app-published", text: s.published });
}

function otherPhones(s) {
  if (!s.install_url) return null;
  return el("details", { class: "qr", "data-testid": "app-qr" },
    el("summary", { text: t("Other phones at the table? Show a QR code") }),
    el("img", { src: "/api/app/qr.svg", width: "240", height: "240", "data-testid": "app-qr-image",
      alt: t("QR code of the pocket app's address {url}", { url: s.install_url }) }),
    el("p", { class: "muted invite-link", "data-testid": "app-qr-url", text: s.install_url }),
    !s.install_here && s.state !== "failed"
      ? el("p", { class: "muted", text: t("It leads to the app the project publishes: this server is not on an HTTPS address, where phones could install it.") })
      : null);
}

function content(s) {
  const here = [];
  if (!window.isSecureContext) {
    // plain HTTP on a LAN address: no service worker, so no install, nothing offline
    here.push(el("p", { "data-testid": "app-insecure", text: t("A phone cannot install the app from this address: the page came over plain HTTP, and a browser keeps an app for offline use only from an HTTPS address.") }));
    if (s.published) here.push(el("p", {}, t("Install it from the address the project publishes it at:"), " ", published(s)));
    here.push(el("p", { class: "muted", text: t("Or from a darkcity server with HTTPS (docs/deploy.md).") }));
  } else if (s.state === "failed") {
    here.push(el("p", { "data-testid": "app-failed", text: t("This server cannot prepare the app: {why}", { why: s.why || "" }) }));
    if (s.published) here.push(el("p", {}, t("Install it from the address the project publishes it at:"), " ", published(s)));
  } else if (s.state === "ready") {
    here.push(el("div", { class: "row wrap" },
      el("a", { class: "button", href: s.path, "data-testid": "install-here", text: t("Install on this phone") }),
      el("span", { class: "muted", text: t("Open it, then your browser's “Install app” or “Add to Home Screen”.") })));
  } else {
    here.push(el("p", { class: "muted", "data-testid": "app-preparing", role: "status", text: t("Preparing the app for phones (once, about a minute)…") }));
  }
  return [el("h2", { id: "install-h", text: t("The app on your phone") }),
    el("p", { class: "muted", text: t("The table companion and a game against bots, on one phone, offline, with no server.") }),
    ...here, otherPhones(s)];
}

// The card: drawn once the server has said where the app stands, and again when that
// changes (the home page itself is drawn once per language: js/page.js); asked again
// every 3 s while the app is being prepared.
export function installCard() {
  const box = el("section", { class: "card install", "data-testid": "install-app", "aria-labelledby": "install-h", hidden: true });
  let drawn = null;
  const draw = () => {
    const now = JSON.stringify(status);
    if (!status || now === drawn) return;
    box.replaceChildren(...content(status).filter(Boolean));
    box.hidden = false;
    drawn = now;
  };
  draw();
  (async function ask() {
    try {
      const r = await fetch("/api/app");
      if (r.ok) status = await r.json();
    } catch { /* the server is not there: no offer */ }
    if (!box.isConnected) return;  // (the home page was drawn again: its own card asks)
    draw();
    if (status && status.state === "preparing") setTimeout(ask, 3000);
  })();
  return box;
}
