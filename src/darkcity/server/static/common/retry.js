// When a page tries a lost connection again (issue #51). Capped exponential from 250 ms
// with full jitter: the n-th try waits a random time in [0, min(cap, 250 ms * 2^n)]. The
// cap is 750 ms for the first 30 s of an outage, so a page is back within a second of a
// restarted server answering (its welcome included); then 10 s, so a long outage is not
// hammered. The random share spreads a thousand pages over the cap instead of meeting
// a full server at the same instant (benchmarks/bench_reconnect.py draws the curve). Mirrored, for the
// benchmark, by RETRY in that script: change both together.
export const RETRY = Object.freeze({ base: 250, cap: 750, longCap: 10000, longAfter: 30000 });

// The pause before try number ``attempt`` (0 for the first) of an outage that began
// ``downMs`` ago; ``rand`` in [0, 1).
export function retryDelay(attempt, downMs, rand = Math.random) {
  const cap = downMs < RETRY.longAfter ? RETRY.cap : RETRY.longCap;
  return Math.floor(rand() * Math.min(cap, RETRY.base * 2 ** Math.min(attempt, 16)));
}
