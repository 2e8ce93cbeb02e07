"""The pocket app's speed and size (issue #29), in headless Chromium (Debian's).

The site is built (``darkcity.pocket.build``; ``--site DIR`` uses one already built)
and served by python's http.server on loopback. A first visit fills the service
worker's cache; then, from that cached start, each run opens the app in a new tab
and measures, from the navigation's start (the page's ``performance.now()``):

- **set-up visible**: the set-up's first name field on screen and typeable;
- **engine ready**: Pyodide, the wheel and darkcity imported in the worker (its own
  time in the worker is printed beside it: where the rest of the time goes);

at full speed and with the CPU slowed 4x (Chrome DevTools' CPU throttling through
Playwright's CDP session, ``Emulation.setCPUThrottlingRate``; it slows the page's
renderer, the worker's thread included as Chromium applies it to the process).

Then it plays ``--nights`` basic nights through the page's transport (the Mayor's
entries, each saved to IndexedDB before it is answered) and prints each entry's
time **in the worker** (the engine plus the IndexedDB write), median and p99, and
the round trip seen by the page. Last, what a phone downloads once: every file of
the site, raw and gzip-compressed (level 9), itemised and totalled.

    python3 benchmarks/bench_pocket.py                      # 3 runs each, 10 nights
    python3 benchmarks/bench_pocket.py --runs 5 --nights 30 --site /tmp/pocket-site
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import tempfile
import threading
from pathlib import Path
from typing import Any

from darkcity.pocket.build import Site, build_site

ENTRIES = [
    {"type": "drafted"}, {"type": "counted"},
    {"type": "gesture", "player": "Ana", "shows": "vampire", "targets": ["Bia"]},
    {"type": "gesture", "player": "Bia", "shows": "werewolf", "targets": ["Caio"]},
    {"type": "gesture", "player": "Caio", "shows": "priest"},
    {"type": "gesture", "player": "Duda", "shows": "zombie", "targets": ["Caio"]},
    {"type": "gesture", "player": "Enzo", "shows": "hunter", "targets": ["Ana", "Duda"]},
    {"type": "gesture", "player": "Fred", "shows": "vampire", "targets": ["Enzo"]},
    {"type": "revealed"}, {"type": "withdrawal", "player": "Caio", "withdrawal": True},
    {"type": "withdrawn"}]

PLAY = """async ([entries, nights]) => {
  const { api } = await import(new URL("static/table/api.js", document.baseURI).href);
  const players = ["Ana", "Bia", "Caio", "Duda", "Enzo", "Fred"];
  const free = Object.fromEntries(players.map((p) => [p, "priest"]));
  window.__darkcityTimings.length = 0;
  for (let n = 0; n < nights; n += 1) {
    const { code } = await api.create({ players, deck: "basic", free_xp: free, lang: "en" });
    let v = null;
    for (const e of entries) v = await api.enter(code, "local", e);
    while (v.stage === "resolution") {
      const q = v.question;
      const cards = Object.fromEntries(
        q.chosen.map((p) => [p, { role: q.role, edition: "basic" }]));
      v = await api.enter(code, "local", { type: "call", step: q.step, cards });
    }
    await api.remove(code);
  }
  return window.__darkcityTimings.filter((x) => x.op === "enter");
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def cached_start(context: Any, url: str, rate: float) -> dict[str, float]:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(url)
    page.wait_for_function("document.querySelector('[data-testid=seat-0]') !== null",
                           timeout=120_000, polling="raf")
    setup = page.evaluate("performance.now()")
    page.wait_for_function("window.__darkcityEngine !== undefined", timeout=120_000)
    engine = page.evaluate("window.__darkcityEngine")
    controlled = page.evaluate("!!navigator.serviceWorker.controller")
    page.close()
    assert controlled, "the page was not served by the service worker"
    return {"setup": setup, "engine": engine["readyAt"], "worker": engine["workerMs"],
            **{f"  {k}": v for k, v in engine["stages"].items()}}


def pct(xs: list[float], p: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(p / 100 * (len(ys) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a site already built (else built in a temp dir)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--nights", type=int, default=10)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        if args.site:
            root = args.site
            import json

            listed = json.loads((root / "version.json").read_text())
            site = Site(root, listed["version"], {
                p: (root / p).stat().st_size for p in listed["files"] if p != "./"})
        else:
            site = build_site(Path(tmp) / "site")
            root = site.out
        httpd, url = serve(root)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, headless=True,
                                        args=["--no-sandbox", "--disable-dev-shm-usage"])
            context = browser.new_context(viewport={"width": 375, "height": 667})
            first = context.new_page()
            first.on("pageerror", lambda e: print("page error:", e))
            first.goto(url)
            first.wait_for_function("window.__darkcityEngine !== undefined", timeout=120_000)
            first.wait_for_function(
                "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")
            print(f"pocket app {site.version}, Chromium headless, {url}")
            print("cached start (ms from navigation; worker = in the worker: the runtime "
                  "(loadPyodide), the wheel fetched and unpacked, darkcity imported)")
            for rate in (1.0, 4.0):
                runs = [cached_start(context, url, rate) for _ in range(args.runs)]
                for key in runs[0]:
                    xs = [r[key] for r in runs]
                    print(f"  CPU {rate:.0f}x  {key:9s} median {statistics.median(xs):7.0f}  "
                          f"min {min(xs):7.0f}  max {max(xs):7.0f}  (n={len(xs)})")
            times = first.evaluate(PLAY, [ENTRIES, args.nights])
            work = [t["ms"] for t in times]
            trip = [t["roundTrip"] for t in times]
            print(f"Mayor's entries ({len(work)}, {args.nights} nights; each saved to "
                  "IndexedDB before it is answered)")
            print(f"  in the worker  median {statistics.median(work):6.1f} ms  "
                  f"p99 {pct(work, 99):6.1f} ms  max {max(work):6.1f} ms")
            print(f"  round trip     median {statistics.median(trip):6.1f} ms  "
                  f"p99 {pct(trip, 99):6.1f} ms  max {max(trip):6.1f} ms")
            browser.close()
        httpd.shutdown()
        rows = site.sizes()
        print("what a phone downloads once (bytes)        raw      gzip")
        for path, raw, gz in rows:
            print(f"  {path:40s} {raw:9d} {gz:9d}")
        print(f"  {'total':40s} {sum(r[1] for r in rows):9d} {sum(r[2] for r in rows):9d}")


if __name__ == "__main__":
    main()
