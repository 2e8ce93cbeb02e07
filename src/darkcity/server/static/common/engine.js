// The pocket app's engine while it loads (a Web Worker running darkcity in Pyodide, the
// pocket's worker.js), as both kinds of page show it: the bar (#engine) with its stage in
// the reader's words, and <html data-engine> set to "ready" or "failed" for the page (and
// the tests). The page's own catalog gives the words: ``t`` is its i18n's.

const STAGES = {
  runtime: (t) => t("Loading the engine: Python…"),
  wheel: (t) => t("Loading the engine: the rules…"),
  import: (t) => t("Loading the engine: the rules…"),
  ready: (t) => t("The engine is ready: everything stays on this phone."),
};

// Shows one of the worker's messages about itself; false for any other message.
export function engineSaid(m, t) {
  const bar = document.getElementById("engine");
  if (m.type === "progress") {
    if (!bar) return true;
    bar.querySelector("progress").value = m.done;
    bar.querySelector("span").textContent = STAGES[m.stage] ? STAGES[m.stage](t) : "";
    bar.dataset.stage = m.stage;
    bar.classList.toggle("done", m.stage === "ready");
    return true;
  }
  if (m.type === "ready") {
    // when the engine was ready, and how long the worker took (benchmarks/bench_pocket.py)
    window.__darkcityEngine = { readyAt: performance.now(), workerMs: m.ms, stages: m.stages };
    document.documentElement.dataset.engine = "ready";
    return true;
  }
  if (m.type === "failed") {
    document.documentElement.dataset.engine = "failed";
    if (bar) bar.querySelector("span").textContent = t("The engine could not start: {why}", { why: m.message });
    return true;
  }
  return false;
}
