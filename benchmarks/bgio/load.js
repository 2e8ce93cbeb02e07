// The load client for boardgame.io (darkcity's is benchmarks/bench_server_load.py):
// rooms of six on 127.0.0.1, each seat a boardgame.io client over socket.io that
// answers its turn or stage with a random legal move after a "thinking" pause, and
// the same figures measured the same way:
// - decision-to-ack: sending a move to receiving the state that holds it (boardgame.io
//   has no acknowledgement: its update is the answer), p50/p90/p99/max;
// - the reveal: the last sealed move sent to each player receiving the state where the
//   choices are open (boardgame.io has no count: the reveal is at once);
// - messages and bytes received per decision; the server's CPU per decision (--pid).
//   node load.js --server http://127.0.0.1:8010 --clients 1002 --duration 60 --pid PID
const fs = require("fs");
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Game } = require("./game");

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SERVER = arg("server", "http://127.0.0.1:8010");
const CLIENTS = Number(arg("clients", "1002"));
const DURATION = Number(arg("duration", "60")) * 1000;
const THINK = [Number(arg("think-min", "0.5")), Number(arg("think-max", "2.5"))];
const PID = arg("pid", null);
const ROOM = 6;
if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(SERVER)) {
  throw new Error("--server: loopback only (http://127.0.0.1:PORT)");
}

const now = () => performance.now();
const acks = [], reveals = [];
let messages = 0, bytes = 0, errors = 0, over = 0;

function cpuSeconds() {
  if (!PID) return null;
  const f = fs.readFileSync(`/proc/${PID}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;  // utime + stime, in clock ticks
}

function pct(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function post(path, body) {
  const r = await fetch(`${SERVER}${path}`, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

function seat(matchID, playerID, credentials, room) {
  const client = Client({ game: Game, matchID, playerID, credentials, debug: false,
    multiplayer: SocketIO({ server: SERVER }) });
  let pending = null;  // {phase, t0}
  let stopped = false;
  const stop = () => { if (!stopped) { stopped = true; client.stop(); } };
  let planned = null;
  const move = (s) => {
    if (s.ctx.phase === "draft") client.moves.pick(Math.floor(Math.random() * s.G.pool.length));
    else if (s.ctx.phase === "gesture") {
      const others = Object.keys(s.G.score).filter((p) => p !== playerID);
      client.moves.point(others[Math.floor(Math.random() * others.length)]);
    } else client.moves.stay(Math.random() < 0.2);
  };
  const think = () => (THINK[0] + Math.random() * (THINK[1] - THINK[0])) * 1000;
  client.subscribe((state) => {
    if (!state) return;
    messages += 1;
    const { G, ctx } = state;
    if (ctx.gameover) { if (!stopped) over += 1; stop(); return; }
    const phase = ctx.phase;
    if (pending && (ctx.phase !== pending.phase ||  // the move closed the stage
        (pending.phase === "draft" && G.cards[playerID] != null) ||
        (pending.phase === "gesture" && G.gestures[playerID] !== undefined) ||
        (pending.phase === "withdrawal" && G.withdrawals[playerID] !== undefined))) {
      acks.push(now() - pending.t0);
      pending = null;
    }
    if (room.sealedAt !== null && room.sealedPhase !== phase && !room.seen.has(playerID)) {
      room.seen.add(playerID);  // the choices of the last stage are open now
      reveals.push(now() - room.sealedAt);
    }
    const mine = phase === "draft" ? ctx.currentPlayer === playerID && G.cards[playerID] == null
      : phase === "gesture" ? G.gestures[playerID] === undefined
        : phase === "withdrawal" ? G.withdrawals[playerID] === undefined : false;
    const key = `${G.night}:${phase}:${ctx.turn}`;
    if (!mine || planned === key || pending) return;
    planned = key;
    setTimeout(() => {
      const s = client.getState();
      if (!s || s.ctx.phase !== phase || `${s.G.night}:${s.ctx.phase}:${s.ctx.turn}` !== key) return;
      pending = { phase, t0: now() };
      if (phase !== "draft") {
        room.sent[key] = (room.sent[key] || 0) + 1;
        if (room.sent[key] === ROOM) {  // the last sealed choice: the reveal follows
          room.sealedAt = now(); room.sealedPhase = phase; room.seen = new Set();
        }
      }
      move(s);
    }, think());
  });
  client.start();
  try {  // count what reaches this socket
    const engine = client.transport.socket.io.engine;
    engine.on("data", (d) => { bytes += typeof d === "string" ? Buffer.byteLength(d) : d.length; });
  } catch { /* the figure stays 0 */ }
  return { stop };
}

async function main() {
  const rooms = Math.floor(CLIENTS / ROOM);
  const matches = [];
  for (let r = 0; r < rooms; r++) {
    const { matchID } = await post(`/games/${Game.name}/create`, { numPlayers: ROOM });
    const creds = [];
    for (let p = 0; p < ROOM; p++) {
      const j = await post(`/games/${Game.name}/${matchID}/join`, { playerID: String(p), playerName: `P${p}` });
      creds.push(j.playerCredentials);
    }
    matches.push({ matchID, creds });
  }
  const cpu0 = cpuSeconds();
  const t0 = now();
  const clients = [];
  for (const [r, m] of matches.entries()) {
    const room = { sealedAt: null, sealedPhase: null, seen: new Set(), sent: {} };
    for (let p = 0; p < ROOM; p++) clients.push(seat(m.matchID, String(p), m.creds[p], room));
    if (r % 1 === 0) await new Promise((res) => setTimeout(res, 20));  // a room every 20 ms
  }
  await new Promise((res) => setTimeout(res, DURATION));
  for (const c of clients) c.stop();
  const seconds = (now() - t0) / 1000;
  const cpu1 = cpuSeconds();
  const per = Math.max(1, acks.length);
  const out = {
    server: "boardgame.io 0.50.2", clients: clients.length, rooms, seconds,
    decisions: acks.length, games_over: over / ROOM, errors,
    p50_ms: pct(acks, 0.5), p90_ms: pct(acks, 0.9), p99_ms: pct(acks, 0.99), max_ms: Math.max(0, ...acks),
    reveals: reveals.length, reveal_p50_ms: pct(reveals, 0.5), reveal_p90_ms: pct(reveals, 0.9),
    reveal_p99_ms: pct(reveals, 0.99), reveal_max_ms: Math.max(0, ...reveals),
    messages_per_decision: messages / per, bytes_per_decision: bytes / per,
    server_cpu_ms_per_decision: cpu0 === null ? null : (cpu1 - cpu0) / per * 1000,
  };
  console.log(JSON.stringify(out, null, 1));
  process.exit(0);
}

process.on("unhandledRejection", () => { errors += 1; });
main().catch((e) => { console.error(e); process.exit(1); });
