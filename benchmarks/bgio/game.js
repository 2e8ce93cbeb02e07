// A game of darkcity's shape for boardgame.io 0.50.2, for the side-by-side load
// benchmark (benchmarks/README.md): six seats; each night a draft (one card each, in
// turn, from a pool of players + 3), then two sealed simultaneous stages (every player
// points at someone, then every player stays or flees), the choices of others hidden
// until the stage is over; three nights. Every move runs on the server only
// (client: false), so a client learns its move is taken from the server's update,
// as a darkcity client does from its ack. The rules are not Dark City's: only the
// shape of the traffic is (who waits for whom, what is secret until when).
const { INVALID_MOVE, ActivePlayers } = require("boardgame.io/core");

const NIGHTS = 3;

function pool(random, n) {
  return random.Shuffle([...Array(n + 3).keys()]);
}

const Game = {
  name: "darkcity-shape",
  minPlayers: 6,
  maxPlayers: 6,

  setup: ({ ctx, random }) => ({
    night: 1,
    pool: pool(random, ctx.numPlayers),
    cards: {},
    gestures: {},
    withdrawals: {},
    score: Object.fromEntries([...Array(ctx.numPlayers).keys()].map((p) => [p, 0])),
  }),

  // What one player may see: their own card; others' sealed choices only once the
  // stage is over (a "true" says that they have decided, never what).
  playerView: ({ G, ctx, playerID }) => {
    const sealed = (choices, open) => Object.fromEntries(Object.entries(choices).map(
      ([p, c]) => [p, open || p === playerID ? c : true]));
    return {
      ...G,
      cards: Object.fromEntries(Object.entries(G.cards).map(
        ([p, c]) => [p, p === playerID ? c : null])),
      gestures: sealed(G.gestures, ctx.phase !== "gesture"),
      withdrawals: sealed(G.withdrawals, ctx.phase !== "withdrawal"),
    };
  },

  phases: {
    draft: {
      start: true,
      turn: { minMoves: 1, maxMoves: 1 },
      moves: {
        pick: {
          move: ({ G, playerID, events }, i) => {
            if (!Number.isInteger(i) || i < 0 || i >= G.pool.length) return INVALID_MOVE;
            G.cards[playerID] = G.pool.splice(i, 1)[0];
            events.endTurn();
          },
          client: false,  // the server decides (as darkcity's does): no optimistic update
        },
      },
      endIf: ({ G, ctx }) => Object.keys(G.cards).length === ctx.numPlayers,
      next: "gesture",
    },
    gesture: {
      turn: { activePlayers: ActivePlayers.ALL_ONCE },
      moves: {
        // simultaneous: a move made against a state another player's move replaced
        // is still taken (boardgame.io drops it otherwise)
        point: {
          move: ({ G, playerID }, target) => {
            if (target === playerID || !(target in G.score)) return INVALID_MOVE;
            G.gestures[playerID] = target;
          },
          ignoreStaleStateID: true,
          client: false,
        },
      },
      endIf: ({ G, ctx }) => Object.keys(G.gestures).length === ctx.numPlayers,
      next: "withdrawal",
    },
    withdrawal: {
      turn: { activePlayers: ActivePlayers.ALL_ONCE },
      moves: {
        stay: {
          move: ({ G, playerID }, flee) => {
            G.withdrawals[playerID] = Boolean(flee);
          },
          ignoreStaleStateID: true,
          client: false,
        },
      },
      endIf: ({ G, ctx }) => Object.keys(G.withdrawals).length === ctx.numPlayers,
      onEnd: ({ G, ctx, random }) => {
        for (const [p, target] of Object.entries(G.gestures)) {
          if (!G.withdrawals[target]) G.score[p] += 1 + (G.cards[p] % 3);
        }
        G.night += 1;
        G.pool = pool(random, ctx.numPlayers);  // the next night's draft
        G.cards = {};
        G.gestures = {};
        G.withdrawals = {};
      },
      next: "draft",
    },
  },

  endIf: ({ G }) => {
    if (G.night <= NIGHTS) return undefined;
    const best = Math.max(...Object.values(G.score));
    return { winners: Object.keys(G.score).filter((p) => G.score[p] === best) };
  },
};

module.exports = { Game };
