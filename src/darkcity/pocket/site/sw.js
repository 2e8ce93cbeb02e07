// The pocket app's service worker: every file of this build kept for offline use, in a
// cache named by the build's version. A new build waits until the page says to take
// over ("a new version is ready"), then the old caches go: never two versions' files.
// A first visit downloads every file once, the pages told how far it has got (the engine
// starts from this cache: ../common/engine.js); an update copies the files that did not
// change (the same hash) from the version before instead of downloading them again.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const HASHES = __HASHES__;
const SIZES = __SIZES__;
const CACHE = `darkcity-pocket-${VERSION}`;

// The pages (a first visit's is not controlled yet): how much is downloaded.
async function tell(done, total) {
  for (const c of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    c.postMessage({ type: "download", done, total });
  }
}

// The files an earlier version holds with the same hash, by path.
async function unchanged() {
  const found = new Map();
  for (const key of await caches.keys()) {
    if (!key.startsWith("darkcity-pocket-") || key === CACHE) continue;
    const old = await caches.open(key);
    const listed = await old.match("version.json");
    if (!listed) continue;
    let hashes = {};
    try { hashes = (await listed.json()).hashes || {}; } catch { continue; }
    for (const f of FILES) {
      if (!found.has(f) && hashes[f] === HASHES[f]) {
        const hit = await old.match(f);
        if (hit) found.set(f, hit);
      }
    }
  }
  return found;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const kept = await unchanged();
    const total = FILES.reduce((n, f) => n + (SIZES[f] || 0), 0);
    let done = 0;
    let said = 0;
    const count = (n) => {
      done += n;
      if (done - said > total / 100 || done === total) { said = done; tell(done, total); }
    };
    const queue = [...FILES];
    const one = async () => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const old = kept.get(f);
        if (old) { await cache.put(f, old); count(SIZES[f] || 0); continue; }
        // from the network, not the browser's HTTP cache: this version's files only
        const r = await fetch(new Request(f, { cache: "reload" }));
        if (!r.ok) throw new Error(`${f}: ${r.status}`);
        const reader = r.body.getReader();
        const parts = [];
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          parts.push(value);
          count(value.length);
        }
        // (the body as read: decoded, whatever the server compressed)
        const headers = new Headers(r.headers);
        headers.delete("content-encoding");
        headers.delete("content-length");
        await cache.put(f, new Response(new Blob(parts), { status: r.status, statusText: r.statusText, headers }));
      }
    };
    await Promise.all([one(), one(), one(), one()]);  // (four at a time)
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
  const compiled = url.pathname.includes("/compiled/");  // (asked for with HEAD first)
  if ((event.request.method !== "GET" && !compiled) || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // a page under any address of its scope (?table=CODE): that page (play.html), or
    // the shell where the address names none
    const page = event.request.mode === "navigate";
    const hit = await cache.match(event.request, { ignoreSearch: page })
      || (page ? await cache.match(new URL("./", self.registration.scope).href) : undefined);
    if (hit) return hit;
    // the phone's own compile of its Python, kept by the engine's worker (worker.js)
    if (compiled) {
      const made = await caches.match(event.request, { ignoreMethod: true });
      return made || new Response("", { status: 404 });
    }
    return fetch(event.request);
  })());
});
