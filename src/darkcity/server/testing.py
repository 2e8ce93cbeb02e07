"""A scripted player over the real WebSocket protocol, for tests and the load benchmark.

:class:`ScriptedPlayer` connects to ``/ws/{code}``, says hello with its seat
token, and answers every decision point it is offered with a random legal
choice from its own view (as a browser would), measuring the time from
sending a decision to its acknowledgement (the ``ack`` that rides on the next
``state``, ``count`` or ``progress``, or comes alone). It keeps every message received,
so tests can check what reached one client. Needs the ``websockets`` package
(it comes with ``uvicorn[standard]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from darkcity.server.protocol import Whole, unfold

__all__ = ["ScriptedPlayer", "create_room", "join_room", "unfold"]


def _loads(raw: str | bytes) -> Any:
    try:
        import orjson
    except ImportError:  # pragma: no cover
        return json.loads(raw)
    return orjson.loads(raw)


def create_room(base: str, name: str, **options: Any) -> dict[str, Any]:
    """``POST /api/rooms``: the host's code and token."""
    r = httpx.post(f"{base}/api/rooms", json={"name": name, **options}, timeout=10)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


def join_room(base: str, code: str, name: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": name}, timeout=10)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


@dataclass
class ScriptedPlayer:
    """One simulated person at a table."""

    ws_base: str  # ws://127.0.0.1:PORT
    code: str
    token: str | None
    rng: random.Random = field(default_factory=random.Random)
    think_s: tuple[float, float] = (0.0, 0.0)
    keep: bool = True  # keep every message received
    messages: list[dict[str, Any]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    received: int = 0
    bytes_received: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # messages received, by type
    reveals: list[float] = field(default_factory=list)  # seconds after the count's end
    errors: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    over: bool = False

    async def play(self, *, stop: asyncio.Event | None = None, deadline_s: float = 120.0,
                   start: bool = False, stop_after_decisions: int | None = None) -> None:
        """Play until the game is over (or ``stop`` is set, or the time runs out)."""
        async with websockets.connect(f"{self.ws_base}/ws/{self.code}", max_size=2**22,
                                      open_timeout=30, compression=None) as ws:

            async def watchdog() -> None:
                if stop is None:
                    await asyncio.sleep(deadline_s)
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), deadline_s)
                await ws.close()

            dog = asyncio.create_task(watchdog())
            try:
                await self._play(ws, start, stop_after_decisions)
            except websockets.ConnectionClosed:
                pass
            finally:
                dog.cancel()

    async def _play(self, ws: Any, start: bool, stop_after_decisions: int | None) -> None:
        decided_at = -1
        sent: dict[str, float] = {}
        made = 0
        reveal_at: float | None = None  # when the Mayor's count ends (server clock)
        whole = Whole()  # (the states leave out what this client holds)
        await ws.send(json.dumps({"type": "hello", "token": self.token, "kept": True}))
        if start:
            await ws.send(json.dumps({"type": "start"}))
        async for raw in ws:
            frame = _loads(raw)
            self.received += 1
            self.bytes_received += len(raw)
            if self.keep:
                self.messages.append(frame)
            self.kinds[str(frame.get("type"))] += 1
            for m in unfold(frame):  # (a welcome may hold the first state)
                kind = m.get("type")
                ack = m if kind == "ack" else m.get("ack")  # on its own, or riding on a message
                if ack is not None:
                    t0 = sent.pop(str(ack.get("ref")), None)
                    if t0 is not None:
                        self.latencies.append(time.perf_counter() - t0)
                if kind == "count":
                    reveal_at = float(m["start"]) + float(m["beats"]) * float(m["beat"])
                    continue
                if kind == "ack":
                    continue
                if kind == "error":
                    self.errors.append(m)
                    decided_at = -1 if m.get("code") in ("counting", "late") else decided_at
                    continue
                if kind == "welcome":  # (again: the room moved to another process) a decision
                    decided_at = -1  # in flight may not have arrived: decide again if asked
                    continue
                if kind != "state":
                    continue
                if reveal_at is not None:  # the reveal, late by this (one clock: loopback)
                    self.reveals.append(time.time() - reveal_at)
                    reveal_at = None
                v = whole.take(m)["view"]
                self.view = v
                if v["phase"] == "over":
                    self.over = True
                    return
                if not v["choices"] or v["decision_id"] == decided_at:
                    continue
                if stop_after_decisions is not None and made >= stop_after_decisions:
                    return
                if self.think_s[1] > 0:
                    await asyncio.sleep(self.rng.uniform(*self.think_s))
                choice = dict(self.rng.choice(v["choices"]))
                choice.pop("player", None)
                ref = f"{self.code}:{v['decision_id']}:{made}"
                sent[ref] = time.perf_counter()
                decided_at = v["decision_id"]
                made += 1
                await ws.send(json.dumps({"type": "decide", "at": v["decision_id"],
                                          "decision": choice, "ref": ref}))
