#!/usr/bin/env python3
"""The bots' decision times in the browser (issue #30, item 5): darkcity's wheel in
Pyodide, in headless Chromium (Debian's), against the same code in this CPython.

The pocket app's site is built (``darkcity.pocket.build``; ``--site DIR`` uses one
already built) and served by python's http.server on loopback. A page of that origin
loads the site's own Pyodide and wheel (as the app's worker does) and plays
``--games`` games of ``--players`` seats with one ``--kind`` bot among ``--others``
(the seat rotating game by game, the deals seeded as ``bench_bots.py``'s), timing each
of its decisions; the same Python then runs here, in CPython, on the same deals.
Printed: decisions, median, p99 and max in milliseconds, each side, and the bar of
issue #30 (a strong decision at 8 seats under 300 ms at p99 in the browser, on an
unslowed desktop CPU: this machine may be slower or loaded, as said beside it).

    python3 benchmarks/bench_pocket_bots.py                    # strong, 8 seats, 4 games
    python3 benchmarks/bench_pocket_bots.py --kind heuristic --games 10
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import re
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from darkcity.pocket.build import build_site

#: What both runtimes run: the decisions' times (ms) of one ``kind`` seat.
TIMES = """
import json, random, time
from darkcity.bots import Observation, make_bot
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings

def decision_times(kind, others, games, seed, players):
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")[:players]
    times = []
    for g in range(games):
        game = Game(Settings(players=names, deck=preset("basic", players)), f"{seed}:{g}")
        bots = {p: make_bot(kind if i == g % players else others,
                            random.Random(f"{seed}:{g}:{i}")) for i, p in enumerate(names)}
        while not game.over:
            for p in game.pending:
                bot = bots[p]
                t = time.perf_counter()
                d = bot.step(Observation(game, p))
                if bot.name == kind:
                    times.append((time.perf_counter() - t) * 1e3)
                game.apply(d)
    return times
"""

PAGE = """async ([wheel, code, lock]) => {
  const { loadPyodide } = await import(new URL('/pyodide/pyodide.mjs', location.href).href);
  const py = await loadPyodide({ indexURL: new URL('/pyodide/', location.href).href,
                                 lockFileContents: lock });
  const r = await fetch(new URL('/' + wheel, location.href));
  py.unpackArchive(await r.arrayBuffer(), 'wheel');
  return py.runPython(code);
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def summary(times: list[float]) -> dict[str, float]:
    xs = sorted(times)
    return {"decisions": len(xs), "median_ms": xs[len(xs) // 2],
            "p99_ms": xs[int(0.99 * (len(xs) - 1))], "max_ms": xs[-1]}


def line(side: str, s: dict[str, float]) -> str:
    return (f"{side:<22} {int(s['decisions']):>5} decisions   median {s['median_ms']:7.1f} ms"
            f"   p99 {s['p99_ms']:7.1f} ms   max {s['max_ms']:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", default="strong")
    ap.add_argument("--others", default="heuristic")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", default="pocket-bots")
    ap.add_argument("--site", type=Path, help="a site already built")
    args = ap.parse_args()
    call = (f"json.dumps(decision_times({args.kind!r}, {args.others!r}, {args.games}, "
            f"{args.seed!r}, {args.players}))")
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.browser.conftest import ensure_chromium

    with tempfile.TemporaryDirectory() as tmp:
        root = args.site or build_site(Path(tmp) / "site").out
        wheel = next((root / "wheels").glob("darkcity-*.whl")).relative_to(root).as_posix()
        # (the site ships no package lock, none being loaded: its worker gives one, as here)
        lock = re.search(r"^const LOCK = (.*);$", (root / "worker.js").read_text(
            encoding="utf-8"), re.M)
        if lock is None:
            raise SystemExit(f"{root / 'worker.js'} holds no package lock (const LOCK)")
        httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=ensure_chromium())
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/meta/play.json")
                page.set_default_timeout(600_000)
                in_browser = json.loads(page.evaluate(
                    PAGE, [wheel, TIMES + "\n" + call, lock.group(1)]))
                version = browser.version
                browser.close()
        finally:
            httpd.shutdown()
    scope: dict[str, Any] = {}
    exec(TIMES, scope)  # the same code, here
    here = scope["decision_times"](args.kind, args.others, args.games, args.seed, args.players)
    b, c = summary(in_browser), summary(here)
    print(f"{args.kind} among {args.others}, {args.players} seats, {args.games} games; "
          f"Chromium {version}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print(line("Pyodide (browser)", b))
    print(line("CPython (this process)", c))
    print(f"browser / CPython at p99: {b['p99_ms'] / c['p99_ms']:.1f}x")
    if args.kind == "strong" and args.players == 8:
        verdict = "PASS" if b["p99_ms"] < 300 else "FAIL"
        print(f"{verdict}: strong decision p99 at 8 seats in the browser {b['p99_ms']:.0f} ms "
              f"(bar: under 300 ms on an unslowed desktop CPU)")


if __name__ == "__main__":
    main()
