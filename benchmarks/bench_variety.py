#!/usr/bin/env python3
"""Does the strong bot vary its draft as a good player does? (issue #54)

    python3 benchmarks/bench_variety.py --games 12 --players 6 --seed 1
    python3 benchmarks/bench_variety.py --games 12 --players 6 --seed 1 --bot strong-argmax

Plays ``--games`` games of ``--players`` seats of ``--bot`` (every seat; ``--others``
puts that bot in the other seats instead) and counts, over the bot's own decisions:

* the draft: per role, how often it was *offered* (in a hand with a choice of roles:
  two roles or more, or a face-down card) and how often it was *kept*; the keep rate
  is kept / offered. The bar: every role of the deck kept at least 5% of the times it
  is offered. Also: offered the card of its fullest row, how often it kept it;
* the free XP: the share of each row;
* the Devil's disguises: the share of each role shown by a Devil.

``--bot strong-argmax`` is the strong bot before issue #54 (its draft the card of best
rate x gain, the free XP on the Priest or the Zombie, one disguise mostly), for
comparison on the same seeds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from darkcity.bots import Observation, make_bot, play_game
from darkcity.cast import Role, parse_role
from darkcity.decisions import Decision, DraftPick, FaceDownPick, FreeXp, GestureChoice
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.sim.league import register_strong

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")
ROLES = ("devil", "vampire", "werewolf", "zombie", "hunter", "priest")


def measure(bot: str, *, players: int, games: int, seed: str, others: str = "") -> dict[
        str, Counter[str]]:
    offered: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    free: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    fullest: Counter[str] = Counter()
    rng = random.Random(f"variety:{seed}")
    for g in range(games):
        names = NAMES[:players]
        game = Game(Settings(players=names, deck=preset("basic", players)), rng.getrandbits(63))
        mine = set(names) if not others else {names[g % players]}
        bots = {p: make_bot(bot if p in mine else others, random.Random(f"{seed}:{g}:{p}"))
                for p in names}

        def seen(obs: Observation, d: Decision, mine: set[str] = mine) -> None:
            if obs.player not in mine:
                return
            legal = obs.legal
            if isinstance(d, FreeXp):
                free[d.role.key] += 1
            elif isinstance(d, DraftPick | FaceDownPick):
                roles = {x.card.role.key for x in legal if isinstance(x, DraftPick)}
                choice = len(roles) > 1 or any(isinstance(x, FaceDownPick) for x in legal)
                if not choice:
                    return
                for r in roles:
                    offered[r] += 1
                kept["face-down" if isinstance(d, FaceDownPick) else d.card.role.key] += 1
                seat = next(s for s in obs.view.seats if s.name == obs.player)
                j = {r: x for r, x in seat.journal if x > 0}
                if j:
                    top = max(j, key=lambda r: j[r])
                    if top in roles and len(roles) > 1:
                        fullest["offered"] += 1
                        fullest["kept"] += isinstance(d, DraftPick) and d.card.role.key == top
            elif isinstance(d, GestureChoice) and len(legal) > 1:
                seat = next(s for s in obs.view.seats if s.name == obs.player)
                if seat.card is not None and parse_role(seat.card.role) is Role.DEVIL:
                    assert d.gesture.shows is not None
                    shown[d.gesture.shows.key] += 1

        play_game(game, bots, on_decision=seen)
    return {"offered": offered, "kept": kept, "free": free, "shown": shown, "fullest": fullest}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--others", default="", help="the other seats' bot (default: --bot)")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args(argv)
    if args.bot == "strong-argmax" or args.others == "strong-argmax":
        from darkcity.bots.strong import argmax_draft, load_params
        register_strong("strong-argmax", argmax_draft(load_params()))
    start = time.perf_counter()
    m = measure(args.bot, players=args.players, games=args.games, seed=args.seed,
                others=args.others)
    print(f"{args.bot}, {args.games} games of {args.players} seats (seed {args.seed}), "
          f"{time.perf_counter() - start:.0f} s")
    offered, kept = m["offered"], m["kept"]
    drafts = sum(kept.values())
    print(f"draft: {drafts} picks with a choice")
    worst = 1.0
    for r in ROLES:
        rate = kept[r] / offered[r] if offered[r] else float("nan")
        worst = min(worst, rate) if offered[r] else worst
        print(f"  {r:9} offered {offered[r]:5}  kept {kept[r]:5}  keep rate {rate:6.1%}")
    if kept["face-down"]:
        print(f"  face-down card taken {kept['face-down']}")
    f = m["fullest"]
    if f["offered"]:
        print(f"  offered the card of its fullest row {f['offered']} times, kept it "
              f"{f['kept'] / f['offered']:.0%}")
    total = sum(m["free"].values())
    print("free XP: " + ", ".join(f"{r} {x / total:.0%}" for r, x in m["free"].most_common()))
    total = sum(m["shown"].values())
    if total:
        print(f"Devil's disguises ({total} gestures): " + ", ".join(
            f"{r} {x / total:.0%}" for r, x in m["shown"].most_common()))
    print(f"every role kept at least 5% of the times it is offered: "
          f"{'PASS' if worst >= 0.05 else 'FAIL'} (least {worst:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
