"""The pocket app's start-up and size (issues #29, #50), in headless Chromium (Debian's),
with the whole browser slowed as a slow phone is.

The site is built (``darkcity.pocket.build``; ``--site DIR`` uses one already built) and
served on loopback by a static server that sends each file gzip-compressed (level 9),
as a static host does, counting what it sends. Chromium is started inside a cgroup of
its own (v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``): "slowed 4x" gives the browser's
processes together a quarter of one CPU, so the page, its Web Worker (where Pyodide and
the engine run) and the service worker are all slowed, as on a slow phone. (Chrome
DevTools' CPU throttling slows the page's thread only, not the worker.) A fixed loop
timed in the page and in a worker, at full speed and slowed, shows that it does.

Measured from the navigation's start (the page's ``performance.now()``), each in a new
tab:

- **cold first visit** (a fresh profile: nothing cached): the set-up typeable, the
  engine ready (the service worker downloads every file once, its progress shown, then
  the engine starts from its cache), and what the server sent, file by file;
- **cached start** (the app kept by its service worker): the set-up typeable and the
  engine ready, with where the time goes: the page until it starts the worker, the
  runtime (``loadPyodide``: the WebAssembly compiled, Python started, the standard
  library), the wheel unpacked, darkcity imported;

for the companion (``index.html``) and a game against bots (``play.html``), at full
speed and slowed 4x (``--rates``; the quota is first calibrated until the fixed loop in a
worker takes four times its unlimited time: on a machine others load, a quarter of one
CPU is not that). Then ``--nights`` of the Mayor's entries through the
companion's transport (each saved to IndexedDB before it is answered), and what a phone
downloads once, every file raw and gzip-compressed. The machine's load average is
printed: figures taken on a loaded machine say so.

    python3 benchmarks/bench_pocket.py                        # 3 runs each, 5 nights
    python3 benchmarks/bench_pocket.py --runs 5 --site /tmp/pocket-site --rates 1,4
    python3 benchmarks/bench_pocket.py --baseline /tmp/pocket-main  # an earlier build too

``--baseline DIR`` measures another build (an earlier commit's ``darkcity app build``)
in the same browser, its cached starts interleaved with this one's: on a loaded machine
the ratio says more than either figure. A cached start is measured after the app's
first start has kept its compiled Python and its second the engine's memory snapshot
(``worker.js``), as a phone's third day is.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import json
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
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

#: A fixed loop, timed in the page and in a worker (the probe page, not the app's).
PROBE = """<!doctype html><meta charset="utf-8"><title>probe</title><script>
const LOOP = `let x = 0; for (let i = 0; i < 3e7; i += 1) x = (x + i * 7) % 1000003;`;
window.loop = () => {
  const t = performance.now(); new Function(LOOP)(); return performance.now() - t; };
window.inWorker = () => new Promise((resolve) => {
  const body = `onmessage = () => { const t = performance.now(); ${LOOP};
    postMessage(performance.now() - t); };`;
  const w = new Worker(URL.createObjectURL(new Blob([body])));
  w.onmessage = (e) => { w.terminate(); resolve(e.data); };
  w.postMessage(0);
});
</script>"""

#: Whether the worker has kept a file of its compiled Python (worker.js) in the browser's
#: cache: ``stdlib.zip`` (the compile) or ``snapshot.bin`` (the engine's memory snapshot).
KEPT = """(name) => caches.keys().then((ks) => Promise.all(ks.filter((k) => k.startsWith(
  'darkcity-compiled-')).map((k) => caches.open(k).then((c) => c.keys()).then((r) =>
  r.some((x) => x.url.endsWith(name))))))
  .then((hits) => hits.some(Boolean))"""

#: The field typeable on each page's set-up, and the page's name.
PAGES = {"index.html": ("[data-testid=seat-0]", "companion"),
         "play.html": ("[data-testid=name]", "play")}


class Served:
    """What the static server sent: requests and bytes on the wire, by path."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rows: list[tuple[str, int]] = []

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.rows.append((path, n))

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            rows, self.rows = self.rows, []
        return rows


def serve(root: Path, served: Served) -> tuple[http.server.ThreadingHTTPServer, str]:
    gz: dict[Path, bytes] = {}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/__probe.html":
                body = PROBE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            f = Path(self.translate_path(path))
            if f.is_dir():
                f = f / "index.html"
            if not f.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
                super().do_GET()
                served.add(path, f.stat().st_size if f.is_file() else 0)
                return
            if f not in gz:
                gz[f] = gzip.compress(f.read_bytes(), 9)
            body = gz[f]
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(f)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)
            served.add(path, len(body))

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


class Slower:
    """The browser's cgroup: every process of it shares ``1/rate`` of one CPU."""

    PERIOD = 100_000  # µs

    def __init__(self) -> None:
        self.path: Path | None = None
        self.v2 = False
        name = f"darkcity-bench-{os.getpid()}"
        v2 = Path("/sys/fs/cgroup")
        if "cpu" in _read(v2 / "cgroup.controllers").split() and os.access(v2, os.W_OK):
            with contextlib.suppress(OSError):
                (v2 / name).mkdir()
                self.path, self.v2 = v2 / name, True
        v1 = Path("/sys/fs/cgroup/cpu")
        if self.path is None and (v1 / "cpu.cfs_quota_us").exists():
            with contextlib.suppress(OSError):
                (v1 / name).mkdir()
                self.path = v1 / name
        self.why = None if self.path else ("no writable cgroup with a cpu controller "
                                           "(/sys/fs/cgroup): the browser is not slowed")
        self.quotas: dict[float, int] = {}

    def calibrate(self, rate: float, timed: Any) -> list[float]:
        """On a machine others load, a quarter of one CPU is not four times slower than
        what the browser gets unlimited: the quota is adjusted until the fixed loop in a
        worker (``timed()``, ms) takes ``rate`` times its unlimited time. The ratios seen."""
        if self.path is None or rate <= 1:
            return []
        self.set(-1)
        base = min(timed() for _ in range(3))
        quota, seen = self.PERIOD / rate, []
        for _ in range(4):
            self.set(int(quota))
            ratio = min(timed() for _ in range(2)) / base
            seen.append(ratio)
            if abs(ratio - rate) / rate < 0.15:
                break
            quota = max(1000.0, min(float(self.PERIOD), quota * ratio / rate))
        self.quotas[rate] = int(quota)
        self.set(-1)
        return seen

    def rate(self, rate: float) -> None:
        """``rate`` times slower: the quota ``1/rate`` of one CPU, or as calibrated."""
        if self.path is None:
            return
        quota = -1 if rate <= 1 else self.quotas.get(rate, int(self.PERIOD / rate))
        self.set(quota)

    def set(self, quota: int) -> None:
        assert self.path is not None
        if self.v2:
            (self.path / "cpu.max").write_text(f"{'max' if quota < 0 else quota} {self.PERIOD}")
        else:
            (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))

    def wrapper(self, chromium: str, folder: Path) -> str:
        """A launcher that puts Chromium (and so every process it starts) in the group."""
        if self.path is None:
            return chromium
        script = folder / "chromium-slowed"
        script.write_text(f"#!/bin/sh\necho $$ > {self.path / 'cgroup.procs'}\n"
                          f"exec {chromium} \"$@\"\n")
        script.chmod(0o755)
        return str(script)

    def close(self) -> None:
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.rmdir()


def _read(p: Path) -> str:
    try:
        return p.read_text()
    except OSError:
        return ""


def load() -> str:
    return " ".join(_read(Path("/proc/loadavg")).split()[:3])


def visit(context: Any, url: str, field: str, linger: float = 0) -> dict[str, Any]:
    """One visit in a new tab: the set-up typeable and the engine ready (ms from the
    navigation's start), where the engine's time went, and what the page fetched;
    ``linger`` seconds at most before the tab is closed, until the worker has kept what
    this start makes (its compile after a first start, its snapshot after a second)."""
    page = context.new_page()
    try:
        page.goto(url)
        page.locator(field).first.wait_for(timeout=300_000)
        setup = page.evaluate("performance.now()")
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=600_000)
        engine = page.evaluate("window.__darkcityEngine")
        controlled = page.evaluate("!!navigator.serviceWorker.controller")
        making = ("snapshot.bin" if engine.get("snapshot") == "made"
                  else None if engine.get("compiled") else "stdlib.zip")
        if linger and making:  # (this build's, not a baseline's that makes no snapshot)
            end = time.monotonic() + linger
            while time.monotonic() < end and not page.evaluate(KEPT, making):
                page.wait_for_timeout(500)
    finally:
        page.close()
    st = engine["stages"]
    return {"set-up typeable": setup, "engine ready": engine["readyAt"],
            "  page, until it starts the worker": engine.get("startedAt") or 0,
            "  worker: runtime (loadPyodide)": st["runtime"],
            "  worker: wheel unpacked": st["wheel"], "  worker: darkcity imported": st["imports"],
            "  messages and the rest": engine["readyAt"] - (engine.get("startedAt") or 0)
            - engine["workerMs"],
            "  Python compiled earlier (1/0)": int(bool(engine.get("compiled"))),
            "  memory snapshot put back (1/0)": int(engine.get("snapshot") == "restored"),
            "_controlled": controlled, "_files": engine.get("files") or []}


def summarise(label: str, runs: list[dict[str, Any]]) -> None:
    for key in runs[0]:
        if key.startswith("_"):
            continue
        xs = [r[key] for r in runs]
        print(f"  {label:22s} {key:36s} median {statistics.median(xs):7.0f}  "
              f"min {min(xs):7.0f}  max {max(xs):7.0f}  (n={len(xs)})")


@contextlib.contextmanager
def browser_in(slower: Slower, chromium: str, tmp: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=slower.wrapper(chromium, tmp),
                                    headless=True,
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


def pct(xs: list[float], p: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(p / 100 * (len(ys) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a site already built (else built in a temp dir)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--nights", type=int, default=5)
    ap.add_argument("--rates", default="1,4", help="CPU slow-downs of the whole browser")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--baseline", type=Path, help="another build, measured beside this one")
    args = ap.parse_args()
    rates = [float(x) for x in args.rates.split(",")]
    slower = Slower()
    print(f"load average {load()} (this machine is shared: figures under load say so)")
    if slower.why:
        print(f"warning: {slower.why}")
    else:
        kind = "v2 cpu.max" if slower.v2 else "v1 cfs quota"
        print(f"the browser's cgroup: {slower.path} ({kind})")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if args.site:
            root = args.site
            listed = json.loads((root / "version.json").read_text())
            site = Site(root, listed["version"], {
                p: (root / p).stat().st_size for p in listed["files"] if p != "./"})
        else:
            site = build_site(tmp / "site")
            root = site.out
        served = Served()
        httpd, url = serve(root, served)
        base_httpd, base_url = serve(args.baseline, Served()) if args.baseline else (None, "")
        try:
            with browser_in(slower, args.chromium, tmp) as browser:
                # the slow-down reaches the worker: a fixed loop in the page and in a worker
                probe = browser.new_context().new_page()
                probe.goto(url + "__probe.html")
                for rate in rates:
                    seen = slower.calibrate(rate, lambda: probe.evaluate("inWorker()"))
                    if seen:
                        ratios = ", ".join(f"{r:.1f}" for r in seen)
                        print(f"calibrated {rate:.0f}x: quota {slower.quotas[rate]} us of "
                              f"{slower.PERIOD} (ratios seen {ratios})")
                print("a fixed loop (ms), timed in the page and in a Web Worker:")
                for rate in rates:
                    slower.rate(rate)
                    page_ms = min(probe.evaluate("loop()") for _ in range(2))
                    worker_ms = min(probe.evaluate("inWorker()") for _ in range(2))
                    print(f"  browser slowed {rate:.0f}x   page {page_ms:7.0f}   "
                          f"worker {worker_ms:7.0f}")
                probe.context.close()
                print(f"pocket app {site.version}, Chromium headless, {url}")
                for rate in rates:
                    slower.rate(rate)
                    # cold: a fresh profile each time, nothing cached
                    cold = []
                    for _ in range(max(1, args.runs // 2)):
                        ctx = browser.new_context(viewport={"width": 375, "height": 667})
                        served.take()
                        cold.append(visit(ctx, url + "play.html", PAGES["play.html"][0]))
                        rows = served.take()
                        ctx.close()
                    print(f"cold first visit, browser slowed {rate:.0f}x (ms from navigation; "
                          "the service worker downloads every file once, then the engine "
                          "starts from its cache)")
                    summarise("play, cold", cold)
                    sent: dict[str, list[int]] = {}
                    for path, n in rows:
                        sent.setdefault(path, []).append(n)
                    twice = sorted(p for p, ns in sent.items() if len(ns) > 1)
                    total = sum(sum(ns) for ns in sent.values())
                    print(f"  sent on the wire (gzip) {total} bytes in {len(rows)} requests; "
                          f"asked twice: {len(twice)} small files (the page's own, before "
                          "the service worker)" + (f": {', '.join(twice[:6])}…" if twice else ""))
                    for path, ns in sorted(sent.items(), key=lambda kv: -sum(kv[1]))[:6]:
                        print(f"    {path:44s} {sum(ns):9d}  x{len(ns)}")
                    # cached: the app kept by its service worker, its Python compiled
                    ctx = browser.new_context(viewport={"width": 375, "height": 667})
                    slower.rate(1)
                    for u in (url, base_url) if base_url else (url,):
                        for _ in range(3):  # (installed, its compile kept; its snapshot)
                            visit(ctx, u + "index.html", PAGES["index.html"][0], linger=90)
                    slower.rate(rate)
                    print(f"cached start, browser slowed {rate:.0f}x (ms from navigation)")
                    for name, (field, label) in PAGES.items():
                        runs, base = [], []
                        for _ in range(args.runs):
                            runs.append(visit(ctx, url + name, field))
                            if base_url:
                                base.append(visit(ctx, base_url + name, field))
                        assert all(r["_controlled"] for r in runs), "not from the service worker"
                        summarise(f"{label}, cached", runs)
                        if base:
                            summarise(f"{label}, baseline", base)
                    if rate == rates[0]:
                        slower.rate(1)
                        page = ctx.new_page()
                        page.goto(url)
                        page.wait_for_selector("html[data-engine=ready]", state="attached",
                                               timeout=300_000)
                        times = page.evaluate(PLAY, [ENTRIES, args.nights])
                        work = [t["ms"] for t in times]
                        trip = [t["roundTrip"] for t in times]
                        print(f"Mayor's entries ({len(work)}, {args.nights} nights; each saved "
                              "to IndexedDB before it is answered), full speed")
                        print(f"  in the worker  median {statistics.median(work):6.1f} ms  "
                              f"p99 {pct(work, 99):6.1f} ms  max {max(work):6.1f} ms")
                        print(f"  round trip     median {statistics.median(trip):6.1f} ms  "
                              f"p99 {pct(trip, 99):6.1f} ms  max {max(trip):6.1f} ms")
                        page.close()
                    ctx.close()
        finally:
            slower.rate(1)
            httpd.shutdown()
            if base_httpd is not None:
                base_httpd.shutdown()
            slower.close()
        # (read before the temporary site built above is removed)
        rows_ = site.sizes()
    print("what a phone downloads once (bytes)                  raw      gzip")
    for path, raw, gz in rows_:
        print(f"  {path:46s} {raw:9d} {gz:9d}")
    print(f"  {'total':46s} {sum(r[1] for r in rows_):9d} {sum(r[2] for r in rows_):9d}")
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
