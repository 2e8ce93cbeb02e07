// The pocket app's service worker: every file of this build kept for offline use, in a
// cache named by the build's version. A new build waits until the page says to take
// over ("a new version is ready"), then the old caches go: never two versions' files.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `darkcity-pocket-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // from the network, not the browser's HTTP cache: this version's files only
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("darkcity-pocket-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "take-over") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // a page under any address of its scope (?table=CODE): that page (play.html), or
    // the shell where the address names none
    const page = event.request.mode === "navigate";
    const hit = await cache.match(event.request, { ignoreSearch: page })
      || (page ? await cache.match(new URL("./", self.registration.scope).href) : undefined);
    if (hit) return hit;
    return fetch(event.request);
  })());
});
