"""Play many games between bots, across processes, reproducibly.

Duplicate deals: the games come in *deals* of ``players`` games each. A deal
is one game seed (the same shuffles every night, :func:`darkcity.game.deck_rng`)
played once per rotation of the bots through the seats, so that seat and
deck luck cancel out. Bot ``b`` sits in seat ``(b + r) % players`` in
rotation ``r``; its random stream is ``darkcity:sim:{seed}:{deal}:{r}:{b}``.

The outcome depends only on the configuration and the seed: each deal is
played by one worker, and the results are put back in deal order whatever
the number of workers.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from darkcity.bots import Bot, bot_names, draw_style, make_bot, play_game, styles_of
from darkcity.cast import Role
from darkcity.deck import parse_deck
from darkcity.game import Game
from darkcity.journal import conditions_met
from darkcity.settings import Settings

__all__ = ["GameOutcome", "SimConfig", "default_workers", "parse_bots", "play_deal", "run"]

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred", "Gil", "Hana")


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``strong,heuristic*5`` -> six names; a short list is filled with its last name.

    ``heuristic:bold`` is a level in one of its styles (:func:`darkcity.bots.styles_of`);
    ``heuristic:any`` draws a style for each seat of each game (a table of people)."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, times = part.partition("*")
        name = name.strip()
        k = int(times) if times.strip() else 1
        if k < 1:
            raise ValueError(f"{part!r}: a bot appears at least once")
        out += [name] * k
    if not out:
        raise ValueError("no bots given")
    known = bot_names(variants=True)
    for b in out:
        level, _, style = b.partition(":")
        if level not in known:
            raise ValueError(f"unknown bot {level!r} (known: {', '.join(known)})")
        if style and style != "any" and style not in styles_of(level):
            styles = styles_of(level)
            raise ValueError(f"{b!r}: {level} has no style {style!r} (its styles: "
                             f"{', '.join((*styles, 'any')) if styles else 'none'})")
    if len(out) > players:
        raise ValueError(f"{len(out)} bots for {players} seats")
    out += [out[-1]] * (players - len(out))
    return tuple(out)


@dataclass(frozen=True, slots=True, kw_only=True)
class SimConfig:
    """What to simulate. ``games`` is rounded up to whole deals."""

    players: int = 6
    bots: tuple[str, ...] = ("random",) * 6
    games: int = 600
    seed: int | str = 1
    deck: str = "basic"
    max_nights: int = 500

    def __post_init__(self) -> None:
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} players")
        if self.games < 1:
            raise ValueError("at least one game")
        parse_deck(self.deck, self.players)  # raises DeckError

    @property
    def deals(self) -> int:
        return -(-self.games // self.players)

    @property
    def total_games(self) -> int:
        return self.deals * self.players


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game, by bot index (the position in :attr:`SimConfig.bots`)."""

    deal: int
    rotation: int
    nights: int
    credit: tuple[float, ...]  # win share per bot (1/k for k winners)
    conditions: tuple[str, ...]  # victory conditions met by the winners (sorted, unique)
    xp: tuple[int, ...]  # XP earned in the game per bot (free XP excluded)
    # per role: [nights played (not Death's absence), nights its goal was met, XP]
    roles: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    # per bot: role -> [played, met]
    bot_roles: tuple[dict[str, tuple[int, int]], ...] = ()
    withdrawals: int = 0
    # (role, win share) of every seat on the game's last night (Death included)
    final_roles: tuple[tuple[str, float], ...] = ()
    # the fullest row of each winner who met no condition but four XP in one row
    solo: tuple[str, ...] = ()


def play_deal(cfg: SimConfig, deal: int) -> list[GameOutcome]:
    """The ``players`` games of one deal (every rotation)."""
    n = cfg.players
    names = NAMES[:n]
    settings = Settings(players=names, deck=parse_deck(cfg.deck, n))  # checked once a deal
    out = []
    for r in range(n):
        seat_bot = [(s - r) % n for s in range(n)]  # seat -> bot index
        bots = {names[s]: _make(cfg.bots[b], f"darkcity:sim:{cfg.seed}:{deal}:{r}:{b}")
                for s, b in enumerate(seat_bot)}
        game = Game(settings, f"{cfg.seed}:deal:{deal}")
        play_game(game, bots, check=True, max_nights=cfg.max_nights)
        out.append(_outcome(game, deal, r, seat_bot))
    return out


def _make(name: str, seed: str) -> Bot:
    """A bot by name: ``level``, ``level:style`` or ``level:any`` (a style drawn for
    the seat, from its own stream: the bot's is the same as without a style)."""
    level, _, style = name.partition(":")
    if not style:
        return make_bot(level, random.Random(seed))
    if style == "any":
        return make_bot(level, random.Random(seed),
                        style=draw_style(level, random.Random(f"{seed}:style")))
    return make_bot(level, random.Random(seed), style=style)


def _outcome(game: Game, deal: int, rotation: int, seat_bot: Sequence[int]) -> GameOutcome:
    n = len(game.players)
    credit = [0.0] * n
    seat = {p: i for i, p in enumerate(game.players)}
    conds: set[str] = set()
    solo: list[str] = []
    for w in game.winners:
        credit[seat_bot[seat[w]]] += 1 / len(game.winners)
        journal = game.journals[seat[w]]
        reached = conditions_met(journal)
        conds.update(reached)
        if reached == ("four-in-one",):
            solo.append(max(journal, key=lambda r: journal[r]).key)
    final: tuple[tuple[str, float], ...] = ()
    if game.nights:
        last = game.nights[-1].night
        won = set(game.winners)
        final = tuple((last.cards[p].role.key, 1 / len(won) if p in won else 0.0)
                      for p in last.players)
    xp = [0] * n
    # (role, seat) -> [nights, nights its goal was met, XP]: one row per pair, summed
    # into roles and bots at the end (a game has a few dozen pairs, and 100 player-nights)
    rows: dict[tuple[Role, int], list[int]] = {}
    withdrawals = 0
    for rec in game.nights:
        night = rec.night
        cards = night.cards
        withdrawals += sum(1 for w in night.withdrawals.values() if w is True)
        for i, (p, x) in enumerate(zip(night.players, rec.result.xp, strict=True)):
            row = rows.get((cards[p].role, i))
            if row is None:
                row = rows[(cards[p].role, i)] = [0, 0, 0]
            row[0] += 1
            if x:
                row[1] += x > 0
                row[2] += x
    roles: dict[str, list[int]] = {}
    bot_roles: list[dict[str, list[int]]] = [{} for _ in range(n)]
    for (role, i), (played, met, gained) in rows.items():
        b = seat_bot[i]
        xp[b] += gained
        r = roles.setdefault(role.key, [0, 0, 0])
        r[0] += played
        r[1] += met
        r[2] += gained
        br = bot_roles[b].setdefault(role.key, [0, 0])
        br[0] += played
        br[1] += met
    return GameOutcome(
        deal, rotation, len(game.nights), tuple(credit), tuple(sorted(conds)), tuple(xp),
        {k: (v[0], v[1], v[2]) for k, v in roles.items()},
        tuple({k: (v[0], v[1]) for k, v in d.items()} for d in bot_roles),
        withdrawals,
        final,
        tuple(solo),
    )


def _work(args: tuple[SimConfig, int]) -> list[GameOutcome]:
    return play_deal(*args)


def run(cfg: SimConfig, *, workers: int = 1,
        progress: Callable[[int], None] | None = None) -> list[GameOutcome]:
    """Play every deal of ``cfg``; ``progress(k)`` is told of every ``k`` games done.

    Results come back in deal order, the same for any number of workers.
    """
    tasks = [(cfg, d) for d in range(cfg.deals)]
    out: list[GameOutcome] = []
    if workers <= 1 or cfg.deals == 1:
        for t in tasks:
            got = _work(t)
            out += got
            if progress is not None:
                progress(len(got))
        return out
    ctx = multiprocessing.get_context("fork" if "fork" in
                                      multiprocessing.get_all_start_methods() else "spawn")
    chunk = max(1, min(16, cfg.deals // (workers * 8)))
    with ctx.Pool(workers) as pool:
        for got in pool.imap(_work, tasks, chunksize=chunk):
            out += got
            if progress is not None:
                progress(len(got))
    return out


def default_workers() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)

