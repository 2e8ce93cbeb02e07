// The pocket app's engine while it loads (a Web Worker running darkcity in Pyodide, the
// pocket's worker.js), as both kinds of page show it: the bar (#engine) with its stage in
// the reader's words, and <html data-engine> set to "ready" or "failed" for the page (and
// the tests). The page's own catalog gives the words: ``t`` is its i18n's.

const STAGES = {
  download: (t, m) => t("Downloading the app for use offline: {percent}%", { percent: Math.floor(100 * m.done) }),
  runtime: (t) => t("Loading the engine: Python…"),
  wheel: (t) => t("Loading the engine: the rules…"),
  import: (t) => t("Loading the engine: the rules…"),
  ready: (t) => t("The engine is ready: everything stays on this phone."),
};

function showStage(m, t) {
  const bar = document.getElementById("engine");
  if (!bar) return;
  bar.querySelector("progress").value = m.done;
  bar.querySelector("span").textContent = STAGES[m.stage] ? STAGES[m.stage](t, m) : "";
  bar.dataset.stage = m.stage;
  bar.classList.toggle("done", m.stage === "ready");
}

// Shows one of the worker's messages about itself; false for any other message.
export function engineSaid(m, t) {
  if (m.type === "progress") {
    showStage(m, t);
    return true;
  }
  if (m.type === "ready") {
    // when the engine was ready, and how long the worker took (benchmarks/bench_pocket.py)
    window.__darkcityEngine = { readyAt: performance.now(), startedAt: window.__darkcityEngineStart, workerMs: m.ms, stages: m.stages, files: m.files, compiled: m.compiled, snapshot: m.snapshot };
    document.documentElement.dataset.engine = "ready";
    return true;
  }
  if (m.type === "failed") {
    document.documentElement.dataset.engine = "failed";
    const bar = document.getElementById("engine");
    if (bar) bar.querySelector("span").textContent = t("The engine could not start: {why}", { why: m.message });
    return true;
  }
  return false;
}

// The engine's worker (``url``: the site's worker.js). On a first visit the service
// worker downloads every file of the app once, its progress shown here; the engine starts
// once it serves them, so the runtime is not downloaded a second time beside it. A
// cached start, a browser without service workers, or an install that fails: at once.
export async function startEngine(url, t) {
  const sw = navigator.serviceWorker;
  if (sw && !sw.controller) {
    let reg = null;
    try { reg = await sw.register(new URL("sw.js", document.baseURI).href); } catch { reg = null; }
    const installing = reg && (reg.installing || reg.waiting);
    if (installing) {
      const said = (event) => {
        const m = event.data || {};
        if (m.type === "download" && m.total) showStage({ stage: "download", done: m.done / m.total }, t);
      };
      sw.addEventListener("message", said);  // (said from its first news: the page's
      // catalog has come by then, and each news says it again in the reader's words)
      await new Promise((resolve) => {
        sw.addEventListener("controllerchange", resolve, { once: true });
        const watch = () => { if (["activated", "redundant"].includes(installing.state)) resolve(); };
        installing.addEventListener("statechange", watch);
        watch();
      });
      sw.removeEventListener("message", said);
    }
  }
  window.__darkcityEngineStart = performance.now();  // (benchmarks/bench_pocket.py)
  return new Worker(url, { type: "module" });
}
