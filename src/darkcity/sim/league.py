"""A league that searches for the strong bot's exploiters (AlphaStar's league, PSRO).

Each round:

1. **Search**: CMA-ES (the ``cma`` package, ``pip install -e ".[league]"``)
   searches the heuristic family (:class:`~darkcity.bots.family.Style`: draft
   rates, withdrawals, aims at the leader, bluffs, temperature) for the best
   response to the current strong bot: a candidate plays as the single seat at a
   table of ``players - 1`` strong bots. Every candidate of a run meets the same
   duplicate deals (common random numbers: the same shuffles and the same bots'
   random streams), so two candidates differ by their play, not by their luck.
2. **Check**: the round's best candidate plays again on fresh deals (the search's
   best is flattered by its selection); it joins the population when its share
   there is above the fair share (ratio > 1.0).
3. **Answer** (when the check added a member): the strong bot retrained against
   the population. ``answer="choice"``: a few settings (:data:`STRONG_CANDIDATES`,
   the opponent model's knobs) each play as the single seat against every member
   (tables of ``players - 1`` copies), the best mean ratio kept. ``answer="search"``:
   CMA-ES over the strong bot's knobs (:data:`STRONG_KNOBS`), each candidate scored
   both ways against every member, as issue #32's bars read (its share among five
   of the member, less the member's share among five of it), on the same deals for
   all; the best becomes the strong bot the next round searches against.

The league stops when a round's search finds nothing above 1.0x on its check
deals, or after ``rounds``. Its state, every generation included, is written to
a JSON file after each step; a run started again with the same file and options
carries on where it stopped (CMA-ES is replayed from the generations kept: the
same seed asks the same points).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Final

from darkcity.bots import BOTS, Observation
from darkcity.bots.family import SEARCHED_ROLES, FamilyBot, Style
from darkcity.bots.heuristic import DEFAULT_RATES
from darkcity.bots.strong import StrongBot, StrongParams, load_params
from darkcity.cast import Role, parse_role
from darkcity.decisions import Decision
from darkcity.sim.runner import SimConfig, run
from darkcity.sim.stats import summarize

__all__ = ["ANSWERS", "STARTS", "STRONG_CANDIDATES", "STRONG_KNOBS", "LeagueConfig", "Score",
           "calibrated_style", "knobs_from_vector", "knobs_vector", "league",
           "population_styles", "register_strong", "register_style", "single_seat",
           "standings", "strong_knobs"]

#: Where each round's search starts: the heuristic as it is, or the heuristic whose
#: draft rates are the roles' goal rates measured at a table of strong bots
#: (:func:`calibrated_style`), the neighbourhood of issue #32's known exploiter.
STARTS: Final = ("plain", "calibrated")
#: How the strong bot answers a grown population: a choice among a few settings, or a
#: search of its knobs.
ANSWERS: Final = ("choice", "search")

#: The strong bot's knobs the answer's search moves, each within its range (the search
#: works on [0, 1] per knob, starting from the bot as it is).
STRONG_KNOBS: Final[Mapping[str, tuple[float, float]]] = {
    "deny": (0.0, 1.5),  # the weight of the opponents' progress
    "ahead": (0.0, 1.0),  # how often a player one XP short wins next night
    "aim_leader": (0.0, 0.6),  # worlds where the others hunt the leader
    "aim_random": (0.0, 0.6),  # worlds where the others aim at random
    "picker_eps": (0.0, 0.5),  # distrust of the heuristic as the others' draft
    "withdraw_margin": (-0.1, 0.3),  # what a full withdrawal must pay
}


def knobs_vector(params: StrongParams) -> list[float]:
    return [(getattr(params, k) - lo) / (hi - lo) for k, (lo, hi) in STRONG_KNOBS.items()]


def knobs_from_vector(x: Sequence[float]) -> dict[str, float]:
    return {k: round(lo + (hi - lo) * min(1.0, max(0.0, float(v))), 4)
            for (k, (lo, hi)), v in zip(STRONG_KNOBS.items(), x, strict=True)}

#: The strong bot's answers tried each round: its opponent model's knobs.
STRONG_CANDIDATES: Final[Mapping[str, Mapping[str, Any]]] = {
    "as-is": {},
    "loose-draft-model": {"picker_eps": 0.2},  # trusts the heuristic's draft less
    "more-leader-worlds": {"aim_leader": 0.3},
    "deny-more": {"deny": 0.8},
}


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueConfig:
    players: int = 6
    rounds: int = 1
    generations: int = 3
    popsize: int = 6
    deals: int = 2  # duplicate deals per candidate (deals x players games)
    check_deals: int = 4  # fresh deals for the round's best candidate
    answer_deals: int = 2  # deals per strong answer and population member
    sigma: float = 0.5
    seed: int = 1
    workers: int = 1
    start: str = "plain"  # one of STARTS
    calibrate_deals: int = 10  # deals of six strong bots that measure the goal rates
    answer: str = "choice"  # one of ANSWERS
    answer_generations: int = 3  # the answer's search (answer="search")
    answer_popsize: int = 6
    answer_sigma: float = 0.2

    def __post_init__(self) -> None:
        if self.start not in STARTS:
            raise ValueError(f"start {self.start!r}: one of {', '.join(STARTS)}")
        if self.answer not in ANSWERS:
            raise ValueError(f"answer {self.answer!r}: one of {', '.join(ANSWERS)}")


@dataclass(frozen=True, slots=True)
class Score:
    """The single seat's win share over the fair share, with its per-deal interval."""

    ratio: float
    low: float
    high: float
    games: int

    def __str__(self) -> str:
        return f"{self.ratio:.2f}x [{self.low:.2f}, {self.high:.2f}] ({self.games} games)"


def register_style(name: str, style: Style) -> str:
    """A family member playable by name in the simulator (this process and its
    forked workers)."""

    class Member(FamilyBot):
        level = 1
        variant = True

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, style)

    Member.name = name
    Member.__name__ = f"Member_{name.replace('-', '_').replace(':', '_')}"
    BOTS[name] = Member
    return name


def register_strong(name: str, params: StrongParams) -> str:
    """A strong bot with these parameters, playable by name."""

    class Frozen(StrongBot):
        level = 2
        variant = True

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, params)

        def step(self, obs: Observation) -> Decision:
            return super().step(obs)

    Frozen.name = name
    Frozen.__name__ = f"Strong_{name.replace('-', '_').replace(':', '_')}"
    BOTS[name] = Frozen
    return name


def single_seat(bot: str, others: str, *, players: int, deals: int, seed: str,
                workers: int = 1) -> Score:
    """``bot`` as the single seat against ``players - 1`` copies of ``others``, on
    ``deals`` duplicate deals of ``seed``."""
    cfg = SimConfig(players=players, bots=(bot, *[others] * (players - 1)),
                    games=deals * players, seed=seed)
    s = summarize(cfg, run(cfg, workers=workers)).bots[0]
    return Score(s.ratio, s.ratio_ci[0], s.ratio_ci[1], cfg.total_games)


def calibrated_style(*, players: int, deals: int, seed: int | str, workers: int = 1,
                     against: str = "strong") -> Style:
    """The heuristic with its draft rates calibrated: each searched role's rate is
    its goal rate (nights it scored / nights held) measured over ``deals`` duplicate
    deals of ``players`` bots ``against``. Issue #32's exploiter is such a bot (1.61x
    as the single seat among five strong bots); the search starts beside it."""
    cfg = SimConfig(players=players, bots=(against,) * players, games=deals * players,
                    seed=f"league:{seed}:calibrate")
    measured = summarize(cfg, run(cfg, workers=workers)).roles
    rates: dict[Role, float] = {}
    for key, row in measured.items():
        role = parse_role(key)
        if role in SEARCHED_ROLES and row["played"] and row["goal_rate"] > 0:
            rates[role] = round(row["goal_rate"] / DEFAULT_RATES[role], 4)
    return Style(name="calibrated", rates=rates,
                 description=f"draft rates = goal rates at a table of {players} {against} "
                             f"bots ({cfg.total_games} games)")


def _score_json(s: Score) -> dict[str, float]:
    return {"ratio": round(s.ratio, 4), "low": round(s.low, 4), "high": round(s.high, 4),
            "games": s.games}


def league(cfg: LeagueConfig, out: Path, *, log: Callable[[str], None] = print,
           population: Sequence[Style] = ()) -> dict[str, Any]:
    """Run (or carry on) the league; its state is written to ``out`` after each step."""
    import cma  # type: ignore[import-untyped]  # the optional extra, only here

    state: dict[str, Any] = {"config": asdict(cfg), "rounds": [],
                             "population": [s.to_json() for s in population],
                             "strong": {}}
    if out.exists():
        try:
            old = json.loads(out.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"{out}: not a league's file ({e})") from None
        if not isinstance(old, dict) or not isinstance(old.get("rounds"), list):
            raise ValueError(f"{out}: not a league's file (no rounds)")
        # a file of an older league lacks the options added since: their defaults
        # (the rounds may grow and the workers change: neither changes a figure)
        was = asdict(LeagueConfig()) | dict(old.get("config", {}))
        free = {"rounds": cfg.rounds, "workers": cfg.workers}
        if was | free != asdict(cfg) | free:
            raise ValueError(f"{out}: written by a league of other options "
                             f"({old.get('config')}); give another --out or the same options")
        state = old

    def save() -> None:
        out.write_text(json.dumps(state, indent=1) + "\n", "utf-8")

    n = cfg.players
    if "start" not in state:  # where every round's search starts, measured once
        start = (calibrated_style(players=n, deals=cfg.calibrate_deals, seed=cfg.seed,
                                  workers=cfg.workers)
                 if cfg.start == "calibrated" else Style())
        state["start"] = start.to_json()
        log(f"the search starts at {cfg.start}: " + ", ".join(
            f"{r} x{x:.2f}" for r, x in state["start"]["rates"].items()))
        save()
    x0 = Style.from_json(state["start"]).vector()
    for k in range(cfg.rounds):
        if k < len(state["rounds"]) and state["rounds"][k].get("done"):
            continue
        if k == len(state["rounds"]):
            if state["rounds"] and state["rounds"][-1].get("stopped"):
                log(f"round {k}: the last search found nothing above 1.0x; the league stops")
                break
            state["rounds"].append({"round": k, "generations": []})
        rnd = state["rounds"][k]
        strong_params = replace(load_params(), **state["strong"])
        target = register_strong(f"league-strong-{k}", strong_params)
        rnd["strong"] = dict(state["strong"])
        # 1. the search: CMA-ES over the family, replayed from the kept generations
        es = cma.CMAEvolutionStrategy(x0, cfg.sigma, {
            "popsize": cfg.popsize, "seed": cfg.seed * 1000 + k + 1, "verbose": -9})
        seed = f"league:{cfg.seed}:{k}:search"
        for g in range(cfg.generations):
            xs = es.ask()
            if g < len(rnd["generations"]):
                kept = rnd["generations"][g]
                es.tell([list(x) for x in kept["points"]], [-r for r in kept["ratios"]])
                continue
            ratios = []
            for i, x in enumerate(xs):
                name = register_style(f"league-cand-{k}-{g}-{i}", Style.from_vector(x))
                ratios.append(single_seat(name, target, players=n, deals=cfg.deals,
                                          seed=seed, workers=cfg.workers).ratio)
            es.tell(xs, [-r for r in ratios])
            rnd["generations"].append({"points": [[round(float(v), 6) for v in x] for x in xs],
                                       "ratios": [round(r, 4) for r in ratios]})
            best = max(range(len(ratios)), key=lambda i: ratios[i])
            log(f"round {k} generation {g}: best {ratios[best]:.2f}x, mean "
                f"{sum(ratios) / len(ratios):.2f}x over {len(ratios)} candidates "
                f"({cfg.deals * n} games each, the same deals)")
            save()
        # 2. the round's best candidate, checked on fresh deals
        if "find" not in rnd:
            pts = [(r, p) for gen in rnd["generations"]
                   for r, p in zip(gen["ratios"], gen["points"], strict=True)]
            r_best, p_best = max(pts, key=lambda t: t[0])
            style = Style.from_vector(p_best, name=f"exploiter-{k}")
            name = register_style(f"league-find-{k}", style)
            check = single_seat(name, target, players=n, deals=cfg.check_deals,
                                seed=f"league:{cfg.seed}:{k}:check", workers=cfg.workers)
            rnd["find"] = {"style": style.to_json(), "search_ratio": r_best,
                           "check": _score_json(check), "added": check.ratio > 1.0}
            log(f"round {k}: best find {r_best:.2f}x in the search, {check} on fresh deals")
            if check.ratio > 1.0:
                state["population"].append(style.to_json())
            else:
                rnd["stopped"] = True
            save()
        # 3. the strong bot's answer against the population, when it has grown (a
        # choice among the knobs on an unchanged population would be chance's)
        if "answer" not in rnd and rnd["find"]["added"]:
            answer = (_answer_search if cfg.answer == "search" else _answer_choice)(
                cfg, state, rnd, k, log, save)
            rnd["answer"] = answer
            state["strong"] = {**state["strong"], **answer["knobs"]}
            save()
        rnd["done"] = True
        save()
        if rnd.get("stopped"):
            log(f"round {k}: nothing above 1.0x on the check deals; the league stops")
            break
    return state


def _members(state: Mapping[str, Any]) -> list[str]:
    return [register_style(f"league-member-{i}", Style.from_json(st))
            for i, st in enumerate(state["population"])]


def _answer_choice(cfg: LeagueConfig, state: dict[str, Any], rnd: dict[str, Any], k: int,
                   log: Callable[[str], None], save: Callable[[], None]) -> dict[str, Any]:
    """The best of :data:`STRONG_CANDIDATES` as the single seat among every member."""
    members = _members(state)
    table: dict[str, dict[str, Any]] = {}
    for cand, knobs in STRONG_CANDIDATES.items():
        params = replace(load_params(), **{**state["strong"], **knobs})
        bot = register_strong(f"league-answer-{k}-{cand}", params)
        scores = {m: single_seat(bot, m, players=cfg.players, deals=cfg.answer_deals,
                                 seed=f"league:{cfg.seed}:{k}:answer", workers=cfg.workers)
                  for m in members}
        mean = sum(sc.ratio for sc in scores.values()) / len(scores)
        table[cand] = {"mean": round(mean, 4),
                       "members": {m: _score_json(sc) for m, sc in scores.items()}}
        log(f"round {k}: strong {cand} against the population: mean {mean:.2f}x; "
            + ", ".join(f"{m} {sc}" for m, sc in scores.items()))
    best_c = max(table, key=lambda c: (table[c]["mean"], c == "as-is"))
    return {"table": table, "chosen": best_c, "knobs": dict(STRONG_CANDIDATES[best_c])}


def _answer_search(cfg: LeagueConfig, state: dict[str, Any], rnd: dict[str, Any], k: int,
                   log: Callable[[str], None], save: Callable[[], None]) -> dict[str, Any]:
    """CMA-ES over :data:`STRONG_KNOBS`: each candidate plays both ways against every
    member on the same deals; its score is the mean over the members of its share
    among five of the member less the member's share among five of it. The bot as it
    is plays too (its score is the bar to beat). Resumable: generations are kept in
    ``rnd["answer_generations"]``."""
    import cma

    members = _members(state)
    seed = f"league:{cfg.seed}:{k}:answer"
    kept: list[dict[str, Any]] = rnd.setdefault("answer_generations", [])

    def score(knobs: Mapping[str, Any], name: str) -> dict[str, Any]:
        bot = register_strong(name, replace(load_params(), **{**state["strong"], **knobs}))
        rows = {}
        for m in members:
            a = single_seat(bot, m, players=cfg.players, deals=cfg.answer_deals, seed=seed,
                            workers=cfg.workers)
            b = single_seat(m, bot, players=cfg.players, deals=cfg.answer_deals, seed=seed,
                            workers=cfg.workers)
            rows[m] = {"strong_vs_member": _score_json(a), "member_vs_strong": _score_json(b)}
        value = sum(r["strong_vs_member"]["ratio"] - r["member_vs_strong"]["ratio"]
                    for r in rows.values()) / len(rows)
        return {"knobs": dict(knobs), "score": round(value, 4), "members": rows}

    if "as_is" not in rnd:
        rnd["as_is"] = score({}, f"league-answer-{k}-as-is")
        log(f"round {k}: the strong bot as it is scores {rnd['as_is']['score']:+.2f} "
            "(its share among five of each member less the member's among five of it)")
        save()
    base = replace(load_params(), **state["strong"])
    es = cma.CMAEvolutionStrategy(knobs_vector(base), cfg.answer_sigma, {
        "popsize": cfg.answer_popsize, "seed": cfg.seed * 1000 + 500 + k, "verbose": -9,
        "bounds": [0.0, 1.0]})
    for g in range(cfg.answer_generations):
        xs = es.ask()
        if g < len(kept):
            es.tell([list(x) for x in kept[g]["points"]],
                    [-c["score"] for c in kept[g]["candidates"]])
            continue
        cands = [score(knobs_from_vector(x), f"league-answer-{k}-{g}-{i}")
                 for i, x in enumerate(xs)]
        es.tell(xs, [-c["score"] for c in cands])
        kept.append({"points": [[round(float(v), 6) for v in x] for x in xs],
                     "candidates": cands})
        best = max(cands, key=lambda c: c["score"])
        log(f"round {k} answer generation {g}: best {best['score']:+.2f} {best['knobs']}, "
            f"mean {sum(c['score'] for c in cands) / len(cands):+.2f}")
        save()
    every = [rnd["as_is"], *(c for gen in kept for c in gen["candidates"])]
    chosen = max(every, key=lambda c: (c["score"], not c["knobs"]))
    return {"chosen": chosen, "knobs": dict(chosen["knobs"]),
            "as_is_score": rnd["as_is"]["score"]}


def strong_knobs(state: Mapping[str, Any]) -> StrongParams:
    """The strong bot the league ended with."""
    return replace(load_params(), **dict(state.get("strong", {})))


def population_styles(state: Mapping[str, Any]) -> list[Style]:
    return [Style.from_json(s) for s in state.get("population", [])]


def standings(state: Mapping[str, Any], *, players: int, deals: int, seed: int | str,
              workers: int = 1, log: Callable[[str], None] = print,
              extra: Sequence[str] = (), shipped: bool = False,
              kept: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The league's strong bot against every member, every round's find that the
    check kept out, and the ``extra`` bots by name: the strong bot as the single
    seat among ``players - 1`` of the member, and the member as the single seat
    among strong bots, on the same deals. ``shipped``: the strong bot as shipped
    instead of the league's (the same deals: the two compare). Rows of ``kept`` of the
    same strong bot and as many games are not played again."""
    knobs = load_params() if shipped else strong_knobs(state)
    which: Any = "shipped" if shipped else dict(state.get("strong", {}))  # rows' strong bot
    strong = register_strong("league-strong-shipped" if shipped else "league-strong-final",
                             knobs)
    names = [register_style(f"league-member-{i}", st)
             for i, st in enumerate(population_styles(state))]
    for rnd in state.get("rounds", []):  # the finds left out of the population too
        find = rnd.get("find")
        if find is not None and not find["added"]:
            names.append(register_style(f"league-find-{rnd['round']}",
                                        Style.from_json(find["style"])))
    start = state.get("start")
    if start is not None and Style.from_json(start) != Style():  # the search's start
        names.append(register_style("league-start", Style.from_json(start)))
    names += list(extra)
    out: dict[str, dict[str, Any]] = {}
    for m in names:
        old = (kept or {}).get(m)  # the same strong bot, as many games: kept
        if (old is not None and old.get("strong") == which
                and old["strong_vs_member"]["games"] == deals * players):
            out[m] = old
            continue
        a = single_seat(strong, m, players=players, deals=deals,
                        seed=f"league:{seed}:standings", workers=workers)
        b = single_seat(m, strong, players=players, deals=deals,
                        seed=f"league:{seed}:standings", workers=workers)
        out[m] = {"strong_vs_member": _score_json(a), "member_vs_strong": _score_json(b),
                  "strong": which}
        log(f"{m}: strong among five of it {a}; it among five strong {b}")
    return out
