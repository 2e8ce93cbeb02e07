"""Bots think in worker processes, never on the event loop (issue #13).

A ``strong`` bot is CPU-bound Python: run on the event loop, eight of them at
``bot_delay_s=0`` in ten rooms held every other player's round trip for a
second and more (p50 ~1 s, p99 ~6 s here). :class:`BotPool` runs the thinking in
``bot_workers`` processes (``nice`` +10: the server's loop goes first), so the loop
only sends a request and later applies the answer.

Each room is pinned to one worker (by its code), which keeps the room's game
and its bots between requests: a request carries the room's seed, settings and
the decisions stored so far, and the worker applies only those it has not seen
(a fresh or restarted worker, or one whose game was built from a history the
room has since rewritten, replays them all, as the server does after a
restart). The bots are the same instances for a whole game, as on the loop.

The answer is a decision as plain data; the room applies it on the loop only
after ``Game.verify`` (a decision computed against a point the table has left
is dropped, and the clock asks again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from darkcity.bots import Bot
from darkcity.decisions import decision_from_dict, decision_to_dict
from darkcity.deck import Deck, parse_card, preset
from darkcity.game import Game
from darkcity.room.bots import bot_decision, new_bot
from darkcity.room.ports import Request
from darkcity.server.heavy import yield_cpu
from darkcity.settings import Settings, bot_rng

__all__ = ["BotPool", "Request", "think"]

log = logging.getLogger("darkcity.server")


@dataclass(slots=True)
class _Table:
    seed: str
    game: Game
    docs: tuple[dict[str, Any], ...]  # the decisions applied to ``game``, in order
    bots: dict[tuple[str, str], Bot] = field(default_factory=dict)


_TABLES: dict[str, _Table] = {}  # in a worker: the rooms it has seen (most recent last)
_KEEP = 256  # rooms a worker remembers


def _deck(req: Request) -> Deck:
    if req.deck == "custom":
        return Deck.of([parse_card(k) for k in req.cards], len(req.players), "custom")
    return preset(req.deck, len(req.players))


def think(req: Request) -> dict[str, Any]:
    """In a worker: the decision (as plain data) the bot takes for ``req.player``."""
    table = _TABLES.pop(req.code, None)
    seen = len(table.docs) if table is not None else 0
    if table is None or table.seed != req.seed or req.decisions[:seen] != table.docs:
        # new here, or the room's history is not the one this game was built from (a
        # restart, or a decision the room replaced): replay it all
        game = Game(Settings(players=req.players, deck=_deck(req)), req.seed)
        table, seen = _Table(req.seed, game, ()), 0
    for doc in req.decisions[seen:]:
        table.game.do(decision_from_dict(doc))
    table.docs = req.decisions
    _TABLES[req.code] = table
    while len(_TABLES) > _KEEP:
        del _TABLES[next(iter(_TABLES))]
    key = (req.player, req.level)
    bot = table.bots.get(key)
    if bot is None:
        bot = table.bots[key] = new_bot(req.level, bot_rng(
            req.seed, f"{req.player}:{req.level}:{len(req.decisions)}"), req.style)
    return decision_to_dict(bot_decision(bot, table.game, req.player))


def _start_worker(parent: int) -> None:
    """A worker yields the CPU to the server's event loop (``nice`` +10, in a session and
    CPU group of its own: :func:`~darkcity.server.heavy.yield_cpu`), and ends when the
    server does, however it ends (a ``kill -9`` included: nothing else would tell it)."""
    yield_cpu()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="darkcity-parent-watch", daemon=True).start()


def _ready() -> bool:
    return True


class BotPool:
    """``workers`` single-process executors; a room always goes to the same one."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._executors: list[ProcessPoolExecutor | None] = [None] * self.workers

    def _executor(self, i: int) -> ProcessPoolExecutor:
        ex = self._executors[i]
        if ex is None:
            ex = self._executors[i] = ProcessPoolExecutor(
                1, mp_context=self._context, initializer=_start_worker,
                initargs=(os.getpid(),))
        return ex

    async def warm(self, timeout_s: float = 60.0) -> None:
        """Start every worker and wait until each has imported the engine (a second or
        so), so that the first bots of a game do not wait for it."""
        ready = [asyncio.wrap_future(self._executor(i).submit(_ready))
                 for i in range(self.workers)]
        await asyncio.wait(ready, timeout=timeout_s)

    def submit(self, req: Request, done: Callable[[dict[str, Any] | None], None]) -> None:
        """Think in the room's worker; ``done`` is called on the event loop with the
        decision's plain data, or ``None`` if the worker failed (logged)."""
        loop = asyncio.get_running_loop()
        i = zlib.crc32(req.code.encode()) % self.workers
        try:
            fut: Future[dict[str, Any]] = self._executor(i).submit(think, req)
        except (BrokenProcessPool, RuntimeError):
            self._executors[i] = None  # a dead worker is replaced at the next request
            loop.call_soon(done, None)
            return

        def landed(f: Future[dict[str, Any]]) -> None:
            try:
                result: dict[str, Any] | None = f.result()
            except BrokenProcessPool:
                log.error("a bot worker died; room %s asks again", req.code)
                self._executors[i] = None
                result = None
            except Exception:
                log.exception("room %s: a bot failed to decide", req.code)
                result = None
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(done, result)

        fut.add_done_callback(landed)

    def close(self) -> None:
        """Stop every worker and wait for it (a decision being thought is dropped)."""
        executors, self._executors = self._executors, [None] * self.workers
        for ex in executors:
            if ex is not None:
                ex.shutdown(wait=False, cancel_futures=True)
        for ex in executors:
            if ex is not None:
                ex.shutdown(wait=True)
