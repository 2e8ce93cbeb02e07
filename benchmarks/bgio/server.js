// boardgame.io's server for the darkcity-shape game, on 127.0.0.1.
//   node server.js --port 8010 [--storage memory|flatfile]
// memory: the default in-memory store; flatfile: boardgame.io's durable FlatFile
// store (node-persist) in ./db, the closer match to darkcity's stored decisions.
// koa-socket-2 makes the HTTP server from the app's middleware of that moment, before
// boardgame.io adds its Lobby API (and koa 2.16's callback keeps that list): the
// callback is made again whenever middleware was added since.
const Koa = require("koa");
const callback = Koa.prototype.callback;
Koa.prototype.callback = function lazyCallback() {
  let seen = -1;
  let handle = null;
  return (req, res) => {
    if (this.middleware.length !== seen) {
      seen = this.middleware.length;
      handle = callback.call(this);
    }
    return handle(req, res);
  };
};
const { Server, Origins, FlatFile } = require("boardgame.io/server");
const { Game } = require("./game");

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const port = Number(arg("port", "8010"));
const storage = arg("storage", "memory");
const db = storage === "flatfile" ? new FlatFile({ dir: `${__dirname}/db/${port}`, logging: false }) : undefined;
const server = Server({ games: [Game], origins: [Origins.LOCALHOST], ...(db ? { db } : {}) });
server.run({ port }).then(() => console.error(`boardgame.io on ${port} (${storage})`));
