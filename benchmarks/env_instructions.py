"""The environments' cost against the engine's, in CPU instructions: a figure the
machine's load does not move (wall-clock ratios on a shared machine swing by 2x).

Run each mode under valgrind and subtract ``none`` (the imports):

    python3 -m compileall -q src benchmarks
    for m in none engine aec parallel; do
      PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3 benchmarks/env_instructions.py $m --games 20 2>&1 | grep -E "Collected|: "
    done

Compile first, with ``PYTHONDONTWRITEBYTECODE`` unset: a module compiled at import
costs tens of millions of instructions, a different number at every run.

``engine``, ``aec``, ``parallel``: the random play of ``env_play.py`` (the same as
``bench_bots.py --only env``): the engine alone on the environments' deals, and
agents observing every decision (AEC) or every agent every step (Parallel).
``--games`` (10), 6 players, basic deck. Set ``PYTHONHASHSEED=0``: string hashes move the counts
a little. Valgrind counts each byte a ``rep movsb`` copies, so the copies of the
observations (which Gymnasium asks for) weigh more here than in time.

Each mode prints how many decisions (steps) it played. The two random agents draw
differently (the engine's from its tuple of choices, the AEC's from the mask), so
over a few games their games differ in length by chance (by up to a tenth over 20
games, 2% over 300): the instructions per AEC step over those per engine decision
give the per-game ratio without that noise.
"""

from __future__ import annotations

import argparse

from env_play import aec_games, engine_games, parallel_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("none", "engine", "aec", "parallel"))
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    if args.mode == "engine":
        print(f"engine: {engine_games(args.games)} decisions")
    elif args.mode == "aec":
        print(f"aec: {aec_games(args.games)} steps (a decision each)")
    elif args.mode == "parallel":
        print(f"parallel: {parallel_games(args.games)} steps")


if __name__ == "__main__":
    main()
