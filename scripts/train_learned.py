#!/usr/bin/env python3
"""Train the ``learned`` bot (:mod:`darkcity.env.learned`): imitation of the strong bot,
then DAgger rounds, on this machine's CPU; its NumPy checkpoint is what ships.

    pip install torch==2.13.0            # a CPU build (never a plain "pip install torch")
    # the shipped policy (src/darkcity/env/data/bots-learned.npz):
    python3 scripts/train_learned.py collect --games 500 --teachers 2 --seed c1 \\
        --out runs/learned/d0-1.npz
    python3 scripts/train_learned.py train runs/learned/d0-1.npz --out runs/learned/p0.npz \\
        --epochs 15
    python3 scripts/train_learned.py eval --policy runs/learned/p0.npz --deals 40 --seed L54
    # a DAgger round on top (not needed for the shipped figure):
    python3 scripts/train_learned.py dagger --policy runs/learned/p0.npz --games 300 \\
        --seed g1 --out runs/learned/d1.npz
    python3 scripts/train_learned.py train runs/learned/d0-1.npz runs/learned/d1.npz \\
        --out runs/learned/p1.npz

``collect``: games of six seats, ``--teachers`` teachers (the strong bot drafting its
best card, ``strong.argmax_draft``: a deterministic draft is the easier to imitate)
among heuristics; every decision of a teacher seat with a choice is kept (the encoder's
features of that player's view, the legal actions, the teacher's action).
``dagger``: the same tables, the student (a policy file) in the teachers' seats: it
plays, and a strong bot that follows the same seat says what it would have done
(DAgger: the states the student reaches, labelled by the teacher). ``train``: a
masked cross-entropy on every file given (PyTorch, one thread), written as the
policy's ``.npz`` (float16 weights; ``--init`` starts from a policy). ``eval``: the
policy as the single seat among five heuristics on duplicate deals
(``sim.league.single_seat``, per-deal intervals).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from darkcity.bots import Observation, make_bot, play_game
from darkcity.bots.base import Bot
from darkcity.bots.strong import StrongBot, argmax_draft, load_params
from darkcity.decisions import Decision
from darkcity.deck import Deck, preset
from darkcity.env.actions import codec
from darkcity.env.learned import LearnedBot, Policy, features, legal_actions, load_policy
from darkcity.env.observation import ObservationEncoder
from darkcity.game import Game
from darkcity.settings import Settings

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


class Recorder:
    """A seat that plays ``actor`` and records the ``teacher``'s choice of action."""

    def __init__(self, actor: Bot, teacher: Bot, players: int, deck: Deck, history: int,
                 rows: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]]) -> None:
        self.actor = actor
        self.teacher = teacher
        self.encoder = ObservationEncoder(players, deck, history=history)
        self.codec = codec(players)
        self.rows = rows

    def step(self, obs: Observation) -> Decision:
        legal = obs.legal
        label = self.teacher.step(obs)
        if len(legal) > 1:
            acts = legal_actions(self.codec, obs)
            index = {id(d): i for i, d in acts.items()}
            a = index.get(id(label))
            if a is None:
                a = next(i for i, d in acts.items() if d == label)
            x = features(self.encoder, obs)
            self.rows.append((x.astype(np.float16), np.fromiter(acts, np.int16), a))
        if self.actor is self.teacher:
            return label
        return self.actor.step(obs)


def _games(args: argparse.Namespace, student: Policy | None) -> Path:
    n = args.players
    deck = preset("basic", n)
    rows: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]] = []
    start = time.perf_counter()
    history = student.history if student is not None else args.history
    rng = random.Random(f"train-learned:{args.seed}")
    for g in range(args.games):
        game = Game(Settings(players=NAMES[:n], deck=deck), rng.getrandbits(63))
        seats = rng.sample(range(n), args.teachers)
        bots: dict[str, Any] = {}
        for i, p in enumerate(NAMES[:n]):
            brng = random.Random(rng.getrandbits(64))
            if i in seats:
                teacher = (StrongBot(brng, argmax_draft(load_params()))
                           if args.teacher == "strong-argmax" else make_bot(args.teacher, brng))
                actor: Bot = (teacher if student is None else
                              LearnedBot(random.Random(rng.getrandbits(64)), student))
                bots[p] = Recorder(actor, teacher, n, deck, history, rows)
            else:
                bots[p] = make_bot(args.opponents, brng)
        play_game(game, bots)
        if (g + 1) % 10 == 0:
            print(f"game {g + 1}/{args.games}: {len(rows)} decisions, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    x = np.stack([r[0] for r in rows])
    lens = np.array([len(r[1]) for r in rows], dtype=np.int32)
    legal = np.concatenate([r[1] for r in rows])
    y = np.array([r[2] for r in rows], dtype=np.int16)
    np.savez_compressed(out, x=x, legal=legal, lens=lens, y=y, players=np.array(n),
                        history=np.array(history), actions=np.array(codec(n).size))
    print(f"{out}: {len(rows)} decisions of {args.games} games", flush=True)
    return out


def _load(paths: list[str]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any],
                                     np.ndarray[Any, Any], int, int, int]:
    xs, masks, ys = [], [], []
    players = history = actions = 0
    for p in paths:
        with np.load(p) as d:
            players, history, actions = int(d["players"]), int(d["history"]), int(d["actions"])
            x, legal, lens, y = d["x"], d["legal"], d["lens"], d["y"]
            m = np.zeros((len(x), actions), dtype=bool)
            rows = np.repeat(np.arange(len(x)), lens)
            m[rows, legal] = True
            xs.append(x)
            masks.append(m)
            ys.append(y.astype(np.int64))
    return (np.concatenate(xs), np.concatenate(masks), np.concatenate(ys), players, history,
            actions)


def train(args: argparse.Namespace) -> None:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    x, m, y, players, history, actions = _load(args.data)
    print(f"{len(x)} decisions, {x.shape[1]} features, {actions} actions", flush=True)
    sizes = [x.shape[1], *[args.hidden] * args.depth, actions]
    mods: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        mods.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(nn.Tanh())
    net = nn.Sequential(*mods)
    if args.init:
        init = load_policy(args.init)
        lin = [mm for mm in net if isinstance(mm, nn.Linear)]
        with torch.no_grad():
            for mm, (w, b) in zip(lin, init.layers, strict=True):
                mm.weight.copy_(torch.from_numpy(w.T.copy()))
                mm.bias.copy_(torch.from_numpy(b.copy()))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(x))
    hold = order[:max(1, len(x) // 20)]
    fit = order[len(hold):]
    xt = torch.from_numpy(x.astype(np.float32))
    mt = torch.from_numpy(m)
    yt = torch.from_numpy(y)

    def loss_acc(idx: np.ndarray[Any, Any]) -> tuple[torch.Tensor, float]:
        ii = torch.from_numpy(idx)
        z = net(xt[ii]).masked_fill(~mt[ii], -1e9)
        loss = nn.functional.cross_entropy(z, yt[ii])
        acc = float((z.argmax(1) == yt[ii]).float().mean())
        return loss, acc

    start = time.perf_counter()
    for ep in range(args.epochs):
        rng.shuffle(fit)
        net.train()
        for k in range(0, len(fit), args.batch):
            loss, _ = loss_acc(fit[k:k + args.batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            lh, ah = loss_acc(hold)
            lf, af = loss_acc(fit[:len(hold)])
        print(f"epoch {ep + 1}: fit loss {float(lf):.3f} acc {af:.3f}; held out loss "
              f"{float(lh):.3f} acc {ah:.3f} ({time.perf_counter() - start:.0f} s)",
              flush=True)
    lin = [mm for mm in net if isinstance(mm, nn.Linear)]
    pol = Policy([(mm.weight.detach().numpy().T.copy(), mm.bias.detach().numpy().copy())
                  for mm in lin], players=players, history=history)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **pol.to_npz())
    print(f"{out}: {out.stat().st_size // 1024} KB", flush=True)


def evaluate(args: argparse.Namespace) -> None:
    from darkcity.bots.base import BOTS
    from darkcity.sim.league import single_seat

    pol = load_policy(args.policy or None)

    class Candidate(LearnedBot):
        name = "learned-candidate"
        variant = True

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, pol, greedy=not args.sample)

    BOTS[Candidate.name] = Candidate
    start = time.perf_counter()
    s = single_seat(Candidate.name, args.opponents, players=pol.players, deals=args.deals,
                    seed=args.seed, workers=args.workers)
    print(f"{args.policy or 'the shipped policy'} among five {args.opponents}: {s} "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("collect", "dagger"):
        c = sub.add_parser(name)
        c.add_argument("--games", type=int, default=100)
        c.add_argument("--seed", default="1")
        c.add_argument("--players", type=int, default=6)
        c.add_argument("--teachers", type=int, default=3, help="teacher seats a game")
        c.add_argument("--opponents", default="heuristic")
        c.add_argument("--teacher", default="strong-argmax",
                       help="strong-argmax (the strong bot's best card in the draft, "
                            "strong.argmax_draft), or any bot by name")
        c.add_argument("--history", type=int, default=2, help="nights of history seen")
        c.add_argument("--out", required=True)
        if name == "dagger":
            c.add_argument("--policy", required=True)
    t = sub.add_parser("train")
    t.add_argument("data", nargs="+")
    t.add_argument("--out", required=True)
    t.add_argument("--hidden", type=int, default=96)
    t.add_argument("--depth", type=int, default=2)
    t.add_argument("--epochs", type=int, default=20)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--weight-decay", type=float, default=1e-5)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--init", default="")
    e = sub.add_parser("eval")
    e.add_argument("--policy", default="", help="a policy file (default: the shipped one)")
    e.add_argument("--deals", type=int, default=40)
    e.add_argument("--seed", default="learned-eval")
    e.add_argument("--opponents", default="heuristic")
    e.add_argument("--workers", type=int, default=1)
    e.add_argument("--sample", action="store_true",
                   help="sample the policy's distribution (default: its most likely action)")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        _games(args, None)
    elif args.cmd == "dagger":
        _games(args, load_policy(args.policy))
    elif args.cmd == "train":
        train(args)
    else:
        evaluate(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
