#!/usr/bin/env python3
"""Issue #32: how one role fares for the single strong bot and for the five others at
its table, night by night (``docs/bots.md``, "Where the calibrated start wins").

    python3 benchmarks/bench_prey.py --member calibrated --role priest --games 180 --seed fz
    python3 benchmarks/bench_prey.py --member calibrated --free-xp zombie --games 180 --seed fz

For every night one of the six held ``--role``: whether it met its goal, its fate
(alive, killed, withdrawn...), who aimed at it, by real role; and the cards each side
held, as shares of its nights. The strong bot sits at each seat in turn (game ``g``
puts it at seat ``g mod 6``, on deal ``g // 6``); the member is any bot by name or one
of the league's (``bench_stacker.py``'s list).
``--free-xp ROW`` gives the strong bot that free XP every game instead of its mix.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace

from bench_stacker import register_league

from darkcity.bots import BOTS, play_game
from darkcity.bots.strong import load_params
from darkcity.cast import parse_role
from darkcity.deck import parse_deck
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.sim.league import register_strong
from darkcity.sim.runner import NAMES


def tally(member: str, role_name: str, games: int, seed: str, players: int = 6,
          strong: str = "strong") -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    role = parse_role(role_name)
    if role is None:
        raise SystemExit(f"--role: no role named {role_name!r}")
    names = NAMES[:players]
    settings = Settings(players=names, deck=parse_deck("basic", players))
    out: dict[str, Counter[str]] = {"strong": Counter(), member: Counter()}
    held: dict[str, Counter[str]] = {"strong": Counter(), member: Counter()}
    for g in range(games):
        me = names[g % players]
        bots = {p: BOTS[strong if p == me else member](random.Random(f"{seed}:{g}:{p}"))
                for p in names}
        game = Game(settings, f"{seed}:deal:{g // players}")
        play_game(game, bots)
        for rec in game.nights:
            night, result = rec.night, rec.result
            for k, p in enumerate(names):
                held["strong" if p == me else member][night.cards[p].role.key] += 1
                if night.cards[p].role is not role:
                    continue
                row = out["strong" if p == me else member]
                row["nights"] += 1
                row["goal met"] += result.xp[k] > 0
                row[result.fates[k].value] += 1
                by = {night.cards[q].role.key for q, ge in night.gestures.items()
                      if q != p and p in ge.targets}
                row["aimed at"] += bool(by)
                row.update(f"by {r}" for r in by)
    return out, held


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--member", default="calibrated")
    ap.add_argument("--role", default="priest")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", default="fz")
    ap.add_argument("--free-xp", default="", help="the strong bot's free XP row, every game")
    args = ap.parse_args(argv)
    register_league()
    if args.member not in BOTS:
        raise SystemExit(f"--member: no bot named {args.member!r}")
    strong = "strong"
    if args.free_xp:
        if parse_role(args.free_xp) is None:
            raise SystemExit(f"--free-xp: no role named {args.free_xp!r}")
        strong = register_strong(f"strong-{args.free_xp}", replace(
            load_params(), free_xp_mix=((args.free_xp, 1.0),)))
    out, held = tally(args.member, args.role, args.games, args.seed, strong=strong)
    for who, row in out.items():
        n = row.pop("nights", 0)
        shares = ", ".join(f"{k} {v / n:.0%}" for k, v in sorted(row.items())) if n else "-"
        print(f"{who}: {n} {args.role} nights: {shares}")
    for who, cards in held.items():
        n = sum(cards.values())
        print(f"{who} held: " + ", ".join(f"{k} {v / n:.0%}" for k, v in cards.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
