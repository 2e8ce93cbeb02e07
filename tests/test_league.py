"""The heuristic family, the styles a table of bots draws, and the league (issue #32)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from darkcity.bots import BotError, FamilyBot, Style, draw_style, make_bot, play_game, styles_of
from darkcity.bots.family import SEARCHED_ROLES, STYLES, TABLE_STYLES
from darkcity.cast import Role
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings
from darkcity.sim import SimConfig, parse_bots, run, summarize

NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Fred")


def _decisions(make: Any, seed: int) -> list[str]:
    game = Game(Settings(players=NAMES, deck=preset("basic", 6)), seed)
    bots = {p: make(random.Random(f"{seed}:{p}")) for p in NAMES}
    seen: list[str] = []
    play_game(game, bots, on_decision=lambda obs, d: seen.append(f"{obs.player}:{d!r}"))
    return seen


def test_the_plain_style_plays_exactly_as_the_heuristic() -> None:
    """The family contains the heuristic: its default member makes the very same
    decisions on seeded games (the same random draws too)."""
    for seed in (1, 2):
        plain = _decisions(lambda rng: FamilyBot(rng), seed)
        assert plain == _decisions(lambda rng: make_bot("heuristic", rng), seed)
        assert plain == _decisions(lambda rng: make_bot("heuristic", rng, style="plain"), seed)


def test_each_style_plays_its_own_game() -> None:
    """A style is a different mind: a table of it decides otherwise than plain
    heuristics somewhere in a seeded game."""
    plain = _decisions(lambda rng: make_bot("heuristic", rng), 4)
    for style in styles_of("heuristic"):
        if style != "plain":
            got = _decisions(lambda rng, s=style: make_bot("heuristic", rng, style=s), 4)
            assert got != plain, style


def test_a_style_is_a_point_of_the_search_space_and_back() -> None:
    for st in STYLES.values():
        back = Style.from_vector(st.vector(), name=st.name)
        assert back.flee == pytest.approx(st.flee)
        assert back.hunt_leader == pytest.approx(st.hunt_leader)
        assert back.bluff == pytest.approx(st.bluff)
        assert back.temperature == pytest.approx(st.temperature)
        for r in SEARCHED_ROLES:
            assert back.rates[r] == pytest.approx(st.rates.get(r, 1.0), rel=1e-3)
        assert Style.from_json(json.loads(json.dumps(back.to_json()))) == back
    wild = Style.from_vector([9.0, -9.0, 0, 0, 0, 0, 3.0, 2.0, -1.0, -5.0])
    assert wild.rates[Role.DEVIL] == pytest.approx(8.0, rel=1e-2)
    assert wild.rates[Role.VAMPIRE] == pytest.approx(1 / 8, rel=1e-2)
    assert (wild.hunt_leader, wild.bluff, wild.temperature) == (1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="10 numbers, not 3"):
        Style.from_vector([0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="unknown role 'wizard'"):
        Style.from_json({"name": "x", "rates": {"wizard": 2}})


def test_a_seat_draws_a_style_at_its_level() -> None:
    assert styles_of("random") == ()
    assert draw_style("random", random.Random(1)) is None
    assert set(styles_of("heuristic")) >= {"bold", "cautious", "leader-hunter", "bluffer",
                                          "guardian-lover"}
    drawn = {draw_style("heuristic", random.Random(i)) for i in range(60)}
    # every style with a plan of its own comes up at a table (not the reference mind)
    assert drawn == {k for k, _w in TABLE_STYLES} == set(styles_of("heuristic")) - {"plain"}
    for level in ("heuristic", "strong"):
        for style in styles_of(level):
            bot = make_bot(level, random.Random(1), style=style)
            assert bot.style == style and bot.style_description  # what a lobby shows
            assert bot.name == level
    assert make_bot("heuristic", random.Random(1)).style == ""
    with pytest.raises(BotError, match=r"'random' has no style 'bold'.*none"):
        make_bot("random", random.Random(1), style="bold")
    with pytest.raises(BotError, match=r"no style 'calm'.*cautious"):
        make_bot("strong", random.Random(1), style="calm")


def test_the_simulator_plays_styled_seats() -> None:
    assert parse_bots("heuristic:bold,heuristic:any", 4) == (
        "heuristic:bold", "heuristic:any", "heuristic:any", "heuristic:any")
    with pytest.raises(ValueError, match="heuristic has no style 'calm'"):
        parse_bots("heuristic:calm", 4)
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        parse_bots("wizard:bold", 4)
    cfg = SimConfig(players=4, bots=("heuristic:any",) * 4, games=8, seed=2)
    a, b = run(cfg), run(cfg)
    assert a == b  # the drawn styles are seeded
    plain = run(replace(cfg, bots=("heuristic",) * 4))
    assert [o.credit for o in a] != [o.credit for o in plain]


def test_the_report_says_when_one_row_wins_most_games(tmp_path: Path) -> None:
    cfg = SimConfig(players=4, bots=("heuristic",) * 4, games=4, seed=1)
    s = summarize(cfg, run(cfg))
    mono = replace(s, solo={"priest": 0.72, "hunter": 0.1})
    assert mono.same_row() == ("priest", 0.72)
    assert "priest row alone in 72% of the games" in mono.same_row_note()
    assert mono.to_json()["same_row"] == ("priest", 0.72)
    varied = replace(s, solo={"priest": 0.3, "hunter": 0.2})
    assert varied.same_row() is None and varied.same_row_note() == ""
    from darkcity.sim.balance import BalanceRow
    from darkcity.sim.report import write_html

    page = write_html(mono, tmp_path / "report.html", None).read_text()
    assert "priest row alone in 72% of the games" in page
    assert "row alone in" not in write_html(varied, tmp_path / "r2.html", None).read_text()
    assert BalanceRow("basic", 4, mono).to_json()["same_row"] == ("priest", 0.72)


def test_a_league_searches_checks_answers_and_carries_on(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The league's steps, with the games replaced by a score of the style's
    Priest rate (so that it runs in a moment): a find above 1.0x on its check
    deals joins the population and the strong bot answers it; a round whose find
    is not above 1.0x stops the league; a second run with the same file plays
    nothing again."""
    pytest.importorskip("cma")
    from darkcity.bots import BOTS
    from darkcity.sim import league as lg

    calls: list[tuple[str, str, str]] = []

    def fake(bot: str, others: str, *, players: int, deals: int, seed: str,
             workers: int = 1) -> lg.Score:
        calls.append((bot, others, seed))
        cls = BOTS[bot]
        if issubclass(cls, FamilyBot):  # a member: better the more it loves Priests
            x = cls(random.Random(0)).style_params.rates.get(Role.PRIEST, 1.0)
            r = x if ":0:" in seed else 0.5  # round 1 finds nothing worth adding
        else:
            r = 1.1
        return lg.Score(r, r - 0.2, r + 0.2, deals * players)

    monkeypatch.setattr(lg, "single_seat", fake)
    cfg = lg.LeagueConfig(players=4, rounds=3, generations=2, popsize=4, deals=1)
    out = tmp_path / "league.json"
    lines: list[str] = []
    state = lg.league(cfg, out, log=lines.append, population=[STYLES["plain"]])
    assert [r["round"] for r in state["rounds"]] == [0, 1]
    first, second = state["rounds"]
    assert len(first["generations"]) == 2 and len(first["generations"][0]["ratios"]) == 4
    assert first["find"]["added"] and not second["find"]["added"] and second["stopped"]
    assert len(state["population"]) == 2  # plain, and round 0's find
    assert set(first["answer"]["table"]) == set(lg.STRONG_CANDIDATES)
    assert "answer" not in second  # nothing new to answer
    assert any("the league stops" in x for x in lines)
    assert json.loads(out.read_text()) == state
    n = len(calls)
    again = lg.league(cfg, out, log=lines.append)
    assert len(calls) == n and again == state  # resumed: nothing played twice
    with pytest.raises(ValueError, match="other options"):
        lg.league(replace(cfg, popsize=5), out, log=lines.append)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=r"bad\.json: not a league's file"):
        lg.league(cfg, bad, log=lines.append)
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"bad\.json: not a league's file"):
        lg.league(cfg, bad, log=lines.append)
    table = lg.standings(state, players=4, deals=1, seed=1, log=lines.append,
                         extra=["never-flee"])
    # both members, round 1's find that the check kept out, the extra bot
    assert list(table) == ["league-member-0", "league-member-1", "league-find-1", "never-flee"]
    assert set(table["never-flee"]) == {"strong_vs_member", "member_vs_strong", "strong"}
    n = len(calls)
    assert lg.standings(state, players=4, deals=1, seed=1, log=lines.append,
                        extra=["never-flee"], kept=table) == table
    assert len(calls) == n  # kept rows are not played again
    other = {**state, "strong": {"deny": 0.9}}  # another strong bot: played again
    lg.standings(other, players=4, deals=1, seed=1, log=lines.append, kept=table)
    assert len(calls) > n
    n = len(calls)
    lg.standings(state, players=4, deals=1, seed=1, log=lines.append, shipped=True)
    assert {c[0] for c in calls[n:]} >= {"league-strong-shipped"}  # the shipped bot's


def test_a_single_seat_is_scored_on_duplicate_deals() -> None:
    from darkcity.sim.league import single_seat

    s = single_seat("heuristic", "random", players=4, deals=1, seed="t")
    assert s.games == 4 and s.low <= s.ratio <= s.high
    assert s.ratio > 1.0  # the heuristic beats random players
    assert single_seat("heuristic", "random", players=4, deals=1, seed="t") == s


def test_the_calibrated_start_sets_the_rates_to_the_goal_rates_measured() -> None:
    """``--start calibrated``: each searched role's draft rate becomes its goal rate at
    a table of the given bots (here heuristics, so that it runs in a moment)."""
    from darkcity.bots.heuristic import DEFAULT_RATES
    from darkcity.sim.league import calibrated_style
    from darkcity.sim.runner import SimConfig, run
    from darkcity.sim.stats import summarize

    style = calibrated_style(players=4, deals=1, seed=3, against="heuristic")
    cfg = SimConfig(players=4, bots=("heuristic",) * 4, games=4, seed="league:3:calibrate")
    roles = summarize(cfg, run(cfg)).roles
    assert style.rates, style
    for role, mult in style.rates.items():
        assert mult == round(roles[role.key]["goal_rate"] / DEFAULT_RATES[role], 4)
        assert style.draft_rates()[role] == pytest.approx(roles[role.key]["goal_rate"], abs=1e-3)
    assert calibrated_style(players=4, deals=1, seed=3, against="heuristic") == style


def test_a_league_can_start_its_search_at_the_calibrated_heuristic(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cma")
    from darkcity.sim import league as lg

    start = Style(name="calibrated", rates={Role.PRIEST: 0.5, Role.WEREWOLF: 2.0})
    measured: list[int] = []

    def calibrate(**kw: Any) -> Style:
        measured.append(kw["deals"])
        return start

    monkeypatch.setattr(lg, "calibrated_style", calibrate)
    monkeypatch.setattr(lg, "single_seat", lambda *a, **kw: lg.Score(0.5, 0.3, 0.7, 4))
    cfg = lg.LeagueConfig(players=4, generations=1, popsize=4, deals=1, sigma=1e-6,
                          start="calibrated", calibrate_deals=3)
    out = tmp_path / "league.json"
    state = lg.league(cfg, out, log=lambda _: None)
    assert measured == [3] and Style.from_json(state["start"]) == start
    points = state["rounds"][0]["generations"][0]["points"]
    assert all(p == pytest.approx(start.vector(), abs=1e-3) for p in points)  # searched there
    lg.league(cfg, out, log=lambda _: None)
    assert measured == [3]  # measured once, kept in the file
    assert "league-start" in lg.standings(state, players=4, deals=1, seed=1, log=lambda _: None)
    with pytest.raises(ValueError, match="start 'best'"):
        lg.LeagueConfig(start="best")


def test_the_strong_bots_answer_can_search_its_knobs_both_ways(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``answer="search"``: CMA-ES over the strong bot's knobs, each candidate scored as
    its share among five of every member less the member's among five of it (here a
    score that likes ``deny``); the best, not worse than the bot as it is, becomes the
    next round's strong bot, and a resumed run plays nothing again."""
    pytest.importorskip("cma")
    from darkcity.bots import BOTS
    from darkcity.bots.strong import StrongBot
    from darkcity.sim import league as lg

    calls: list[tuple[str, str]] = []

    def fake(bot: str, others: str, *, players: int, deals: int, seed: str,
             workers: int = 1) -> lg.Score:
        calls.append((bot, others))
        for name in (bot, others):
            if issubclass(BOTS[name], StrongBot):
                deny = BOTS[name](random.Random(0)).params.deny
        r = 1.0 + deny / 3 if issubclass(BOTS[bot], StrongBot) else 1.5 - deny / 3
        if seed.endswith("check"):  # round 0's find joins and is answered; round 1's not
            r = 1.2 if ":0:" in seed else 0.8
        return lg.Score(r, r - 0.2, r + 0.2, deals * players)

    monkeypatch.setattr(lg, "single_seat", fake)
    cfg = lg.LeagueConfig(players=4, rounds=2, generations=1, popsize=4, deals=1,
                          answer="search", answer_generations=2, answer_popsize=4)
    out = tmp_path / "league.json"
    state = lg.league(cfg, out, log=lambda _: None, population=[STYLES["plain"]])
    first = state["rounds"][0]
    answer = first["answer"]
    assert len(first["answer_generations"]) == 2
    assert len(first["answer_generations"][0]["candidates"]) == 4
    row = answer["chosen"]["members"]["league-member-0"]
    assert set(row) == {"strong_vs_member", "member_vs_strong"}
    assert answer["chosen"]["score"] >= first["as_is"]["score"]
    assert set(answer["knobs"]) <= set(lg.STRONG_KNOBS)
    assert answer["knobs"].get("deny", 0.6) > 0.6  # the score liked denial
    assert state["strong"] == answer["knobs"]
    assert lg.strong_knobs(state).deny == answer["knobs"]["deny"]
    n = len(calls)
    assert lg.league(cfg, out, log=lambda _: None) == state and len(calls) == n
    with pytest.raises(ValueError, match="answer 'best'"):
        lg.LeagueConfig(answer="best")
    knobs = lg.knobs_from_vector([2.0, -1.0, 0.5, 0.5, 0.5, 0.5])  # clipped to the ranges
    assert knobs["deny"] == lg.STRONG_KNOBS["deny"][1] and knobs["ahead"] == 0.0
