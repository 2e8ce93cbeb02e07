// The pocket app's shell, for each of its pages (the companion's index.html, play.html):
// its service worker (every file kept for offline use) and the news of a new version,
// which takes over only when the person says so (a night in progress is never reloaded
// under their hands, and two versions' files never mix). ``t`` is the page's own
// catalog lookup.
export function offerUpdates(t) {
  // the home screen's name and description in the reader's language (the manifest the
  // page links is read when the app is installed)
  const lang = localStorage.getItem("darkcity:lang") || document.documentElement.lang || navigator.language || "";
  const manifest = document.querySelector("link[rel=manifest]");
  if (manifest && lang.toLowerCase().startsWith("pt")) manifest.setAttribute("href", "manifest.pt_BR.webmanifest");
  const banner = document.getElementById("update");
  function offer(worker) {
    banner.replaceChildren();
    const go = document.createElement("button");
    go.type = "button";
    go.textContent = t("Reload");
    go.setAttribute("data-testid", "update-reload");
    go.addEventListener("click", () => worker.postMessage({ type: "take-over" }));
    const said = document.createElement("span");
    said.textContent = t("A new version of the app is ready.");
    banner.append(said, " ", go);
    banner.classList.remove("hidden");
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").then((reg) => {
      if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
      reg.addEventListener("updatefound", () => {
        const next = reg.installing;
        next.addEventListener("statechange", () => {
          // a first install is not news; a second one, while this version runs, is
          if (next.state === "installed" && navigator.serviceWorker.controller) offer(next);
        });
      });
      document.documentElement.dataset.sw = "registered";
    }).catch(() => { document.documentElement.dataset.sw = "none"; });
    let reloaded = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (reloaded || !document.documentElement.dataset.updating) return;
      reloaded = true;
      location.reload();
    });
    banner.addEventListener("click", () => { document.documentElement.dataset.updating = "1"; }, true);
  }
}
