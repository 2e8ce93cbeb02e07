#!/usr/bin/env python3
"""Is the environment learnable? A masked PPO (CleanRL style, PyTorch on the CPU)
trains one seat among bots through the Gymnasium wrapper, prints its learning
curve and plots it.

    pip install -e ".[learn]"        # torch (a CPU wheel) and matplotlib
    python3 benchmarks/env_learning.py --minutes 12 --out docs/env-learning.png

The agent sits in a random seat each game (``seat=None``) among ``--opponents``
bots; its reward is its win share at the end of the game (1/k for k winners),
so a random policy earns the fair share, 1/players. The curve is the agent's
share over its last 200 games, against the fair share (1.0x). At the end the
policy (sampling its distribution) plays ``--eval-games`` fresh games among five
random bots and among five heuristics, and the figures are printed with a
Wilson 95% interval (each game is one independent deal here).

Illegal actions never happen: the policy's logits are masked with the
environment's ``action_mask`` (the engine's legal decisions).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the learn extra
    print("env_learning.py needs torch: pip install -e \".[learn]\"", file=sys.stderr)
    raise SystemExit(2) from None

from darkcity.env.single import DarkCitySingleAgentEnv
from darkcity.sim.intervals import wilson


def flat(obs: dict[str, Any]) -> np.ndarray:
    """The observation's arrays as one vector, squashed (counts up to 255)."""
    x = np.concatenate([obs["observation"].ravel(), obs["history"].ravel()])
    out: np.ndarray = np.log1p(x).astype(np.float32)
    return out


class Agent(nn.Module):
    def __init__(self, n_obs: int, n_act: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 256), nn.Tanh(), nn.Linear(256, 256),
                                  nn.Tanh())
        self.pi = nn.Linear(256, n_act)
        self.v = nn.Linear(256, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.v(h).squeeze(-1)


def play(env: DarkCitySingleAgentEnv, agent: Agent, games: int, seed: int) -> list[float]:
    """Win shares of ``games`` games with the policy sampling its distribution."""
    out = []
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        while True:
            with torch.no_grad():
                dist, _ = agent(torch.from_numpy(flat(obs))[None],
                                torch.from_numpy(obs["action_mask"].astype(bool))[None])
            obs, r, term, trunc, _ = env.step(int(dist.sample()[0]))
            if term or trunc:
                out.append(float(r))
                break
    return out


def train(args: argparse.Namespace, log: Any = print) -> dict[str, Any]:
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    env = DarkCitySingleAgentEnv(players=args.players, opponents=args.opponents, seat=None,
                                 reward="win")
    obs, _ = env.reset(seed=args.seed)
    n_obs = flat(obs).shape[0]
    n_act = env.table.codec.size  # the action space's size
    agent = Agent(n_obs, n_act)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    fair = 1 / args.players
    recent: deque[float] = deque(maxlen=200)
    curve: list[tuple[float, int, int, float]] = []  # (minutes, steps, games, ratio)
    t0 = time.perf_counter()
    steps = games = update = 0
    game_seed = args.seed * 1_000_003
    while True:
        if args.updates and update >= args.updates:
            break
        if not args.updates and time.perf_counter() - t0 > args.minutes * 60:
            break
        xs, ms, acts, logps, vals, rews, dones = [], [], [], [], [], [], []
        for _ in range(args.steps):
            x = torch.from_numpy(flat(obs))
            m = torch.from_numpy(obs["action_mask"].astype(bool))
            with torch.no_grad():
                dist, v = agent(x[None], m[None])
                a = dist.sample()
            obs, r, term, trunc, _ = env.step(int(a[0]))
            xs.append(x)
            ms.append(m)
            acts.append(a[0])
            logps.append(dist.log_prob(a)[0])
            vals.append(v[0])
            rews.append(float(r))
            done = term or trunc
            dones.append(done)
            steps += 1
            if done:
                games += 1
                recent.append(float(r))
                game_seed += 1
                obs, _ = env.reset(seed=game_seed)
        with torch.no_grad():
            _, last_v = agent(torch.from_numpy(flat(obs))[None],
                              torch.from_numpy(obs["action_mask"].astype(bool))[None])
        # GAE (gamma 1: the reward is the game's outcome)
        n = len(rews)
        adv = torch.zeros(n)
        gae = 0.0
        for t in reversed(range(n)):
            nxt = last_v[0].item() if t == n - 1 else vals[t + 1].item()
            nonterm = 0.0 if dones[t] else 1.0
            delta = rews[t] + args.gamma * nxt * nonterm - vals[t].item()
            gae = delta + args.gamma * args.lam * nonterm * gae
            adv[t] = gae
        bx, bm = torch.stack(xs), torch.stack(ms)
        ba, blp, bv = torch.stack(acts), torch.stack(logps), torch.stack(vals)
        ret = adv + bv
        for _ in range(args.epochs):
            perm = torch.randperm(n)
            for i in range(0, n, args.minibatch):
                idx = perm[i:i + args.minibatch]
                dist, v = agent(bx[idx], bm[idx])
                lp = dist.log_prob(ba[idx])
                ratio = (lp - blp[idx]).exp()
                a_n = adv[idx]
                a_n = (a_n - a_n.mean()) / (a_n.std() + 1e-8)
                pg = torch.max(-a_n * ratio,
                               -a_n * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                vl = 0.5 * ((v - ret[idx]) ** 2).mean()
                loss = pg + args.vf * vl - args.ent * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        update += 1
        if recent:
            r = sum(recent) / len(recent) / fair
            mins = (time.perf_counter() - t0) / 60
            curve.append((mins, steps, games, r))
            log(f"update {update:4d}  {mins:5.1f} min  {steps:7d} steps  {games:5d} games  "
                f"share over the last {len(recent)} games: {r:.2f}x the fair share")
    result: dict[str, Any] = {"curve": curve, "steps": steps, "games": games,
                              "minutes": (time.perf_counter() - t0) / 60}
    for opp in ("random", "heuristic"):
        if not args.eval_games:
            break
        ev = DarkCitySingleAgentEnv(players=args.players, opponents=opp, seat=None,
                                    reward="win")
        shares = play(ev, agent, args.eval_games, seed=10_000_000 + args.seed)
        p = sum(shares) / len(shares)
        lo, hi = wilson(sum(shares), len(shares))
        result[opp] = (p / fair, lo / fair, hi / fair, len(shares))
        log(f"the policy among five {opp} bots: {p / fair:.2f}x the fair share "
            f"[{lo / fair:.2f}, {hi / fair:.2f}] ({len(shares)} games)")
    return result


def plot(result: dict[str, Any], path: Path, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c = result["curve"]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([x[0] for x in c], [x[3] for x in c], label="PPO agent (last 200 games)")
    ax.axhline(1.0, ls="--", c="grey", label="fair share (a random policy)")
    ax.axhline(2.0, ls=":", c="red", label="2x")
    ax.set_xlabel("minutes of training (one CPU thread)")
    ax.set_ylabel("win share / fair share")
    ax.set_title(f"Masked PPO, {args.players} players, among five {args.opponents} bots")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=12.0)
    ap.add_argument("--updates", type=int, default=0, help="stop after N updates (smoke)")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--steps", type=int, default=1024, help="agent steps per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--vf", type=float, default=0.5)
    ap.add_argument("--eval-games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="the curve as a PNG")
    args = ap.parse_args(argv)
    if not 4 <= args.players <= 8:
        ap.error(f"--players must be 4 to 8, not {args.players}")
    if args.out is not None and not args.out.parent.is_dir():
        ap.error(f"--out: the folder {args.out.parent} does not exist")
    result = train(args)
    if args.out is not None:
        plot(result, args.out, args)
        print(f"curve: {args.out}")
    return 0 if math.isfinite(result["minutes"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
