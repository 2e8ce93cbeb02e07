"""The environments' cost against the engine's, in CPU instructions: a figure the
machine's load does not move (wall-clock ratios on a shared machine swing by 2x).

Run each mode under valgrind and subtract ``none`` (the imports):

    for m in none engine aec parallel; do
      PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3 benchmarks/env_instructions.py $m 2>&1 | grep Collected
    done

``engine``: ``play_randomly`` on the deals the environments get; ``aec`` and
``parallel``: the same random agents as ``bench_bots.py --only env``, observing
every decision (AEC) or every agent every step (Parallel). ``--games`` (10),
6 players, basic deck. Set ``PYTHONHASHSEED=0``: string hashes move the counts
a little. Valgrind counts each byte a ``rep movsb`` copies, so the copies of the
observations (which Gymnasium asks for) weigh more here than in time.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from darkcity.deck import preset
from darkcity.env import darkcity_v1
from darkcity.env.table import NAMES
from darkcity.game import Game, Settings, play_randomly


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("none", "engine", "aec", "parallel"))
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    names = NAMES[:6]
    rng = random.Random(0)
    if args.mode == "engine":
        for g in range(args.games):  # the deals the environments get (Table.reset)
            deal = random.Random(f"darkcity:env:{g}").getrandbits(63)
            play_randomly(Game(Settings(players=names, deck=preset("basic", 6)), deal),
                          random.Random(g))
    elif args.mode == "aec":
        aec = darkcity_v1.raw_env(players=6)
        for g in range(args.games):
            aec.reset(seed=g)
            while not any(aec.terminations.values()) and not any(aec.truncations.values()):
                legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
                aec.step(int(legal[rng.randrange(len(legal))]))
    elif args.mode == "parallel":
        par = darkcity_v1.parallel_env(players=6)
        for g in range(args.games):
            obs, _ = par.reset(seed=g)
            while par.agents:
                acts = {}
                for p, o in obs.items():
                    legal = np.flatnonzero(o["action_mask"])
                    acts[p] = int(legal[rng.randrange(len(legal))])
                obs, *_ = par.step(acts)


if __name__ == "__main__":
    main()
