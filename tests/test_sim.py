"""The simulator: duplicate deals, determinism whatever the workers, statistics,
the report files and the ``bots`` / ``simulate`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from darkcity.cli import app
from darkcity.sim import SimConfig, parse_bots, run, summarize, wilson, write_report
from darkcity.sim.report import write_html, write_json
from darkcity.sim.runner import play_deal
from darkcity.sim.stats import deal_interval


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = deal_interval([0.1, 0.2, 0.3])
    assert lo < 0.2 < hi


def test_parse_bots() -> None:
    assert parse_bots("strong,heuristic*5", 6) == ("strong",) + ("heuristic",) * 5
    assert parse_bots("heuristic,random", 4) == ("heuristic", "random", "random", "random")
    with pytest.raises(ValueError, match="unknown bot"):
        parse_bots("best", 6)
    with pytest.raises(ValueError, match="7 bots for 6 seats"):
        parse_bots("random*7", 6)


def test_config_is_checked() -> None:
    with pytest.raises(ValueError):
        SimConfig(players=6, bots=("random",) * 5)
    with pytest.raises(ValueError):
        SimConfig(players=7, bots=("random",) * 7, deck="angel-alien-6")
    cfg = SimConfig(players=6, bots=("random",) * 6, games=13)
    assert cfg.deals == 3 and cfg.total_games == 18


def test_a_deal_rotates_the_bots_through_the_seats() -> None:
    cfg = SimConfig(players=4, bots=("heuristic", "random", "random", "random"), games=4,
                    seed="rot")
    games = play_deal(cfg, 0)
    assert [g.rotation for g in games] == [0, 1, 2, 3]
    assert all(g.deal == 0 for g in games)
    for g in games:
        assert sum(g.credit) == pytest.approx(1.0)
        assert g.nights >= 1 and g.conditions


def test_results_depend_on_the_seed_not_on_the_workers() -> None:
    cfg = SimConfig(players=5, bots=("heuristic",) + ("random",) * 4, games=20, seed=9)
    one = run(cfg, workers=1)
    two = run(cfg, workers=2)
    assert one == two
    other = run(SimConfig(players=5, bots=cfg.bots, games=20, seed=10), workers=1)
    assert other != one


def test_summary() -> None:
    cfg = SimConfig(players=6, bots=("heuristic",) + ("random",) * 5, games=24, seed=2)
    seen: list[int] = []
    out = run(cfg, workers=1, progress=seen.append)
    assert sum(seen) == 24
    s = summarize(cfg, out)
    assert s.games == 24 and s.deals == 4
    assert [b.bot for b in s.bots] == ["heuristic", "random"]
    assert sum(b.share * b.seats for b in s.bots) == pytest.approx(1.0)
    assert sum(s.seat_share) == pytest.approx(1.0)
    h = s.bots[0]
    assert h.fair == pytest.approx(1 / 6) and h.ci[0] <= h.share <= h.ci[1]
    assert h.ratio > 1.5  # the heuristic crushes random play, even in 24 games
    assert set(s.conditions) == {"six-roles", "eight-xp", "three-pairs", "four-in-one"}
    assert s.nights_mean > 0 and sum(s.nights_hist.values()) == 24
    assert all(0 <= r["goal_rate"] <= 1 for r in s.roles.values())


def test_report_files(tmp_path: Path) -> None:
    cfg = SimConfig(players=4, bots=("random",) * 4, games=8, seed=3)
    s = summarize(cfg, run(cfg))
    files = write_report(s, tmp_path / "rep")
    names = {f.name for f in files}
    assert {"summary.json", "report.html"} <= names
    doc = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert doc["games"] == 8 and doc["bots"][0]["bot"] == "random"
    # without matplotlib the page draws its own SVG charts
    page = write_html(s, tmp_path / "plain.html", None).read_text()
    assert "<svg" in page and "random" in page
    write_json(s, tmp_path / "s.json")


def test_bots_command() -> None:
    result = CliRunner().invoke(app, ["bots"])
    assert result.exit_code == 0
    for name in ("random", "heuristic", "strong"):
        assert name in result.output


def test_simulate_command(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    result = CliRunner().invoke(app, [
        "simulate", "--players", "4", "--bots", "heuristic,random", "--games", "8",
        "--seed", "1", "--workers", "1", "--out", str(out), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output
    assert (out / "summary.json").is_file() and (out / "report.html").is_file()
    doc = json.loads((out / "summary.json").read_text())
    assert doc["config"]["bots"] == ["heuristic", "random", "random", "random"]


@pytest.mark.parametrize(("args", "needle"), [
    (["--bots", "best"], "--bots: unknown bot"),
    (["--players", "9"], "--players"),
    (["--games", "0"], "--games"),
    (["--deck", "angel-alien-6", "--players", "7"], "--deck"),
])
def test_simulate_refusals(args: list[str], needle: str) -> None:
    result = CliRunner().invoke(app, ["simulate", *args, "--lang", "en"])
    assert result.exit_code == 2
    assert needle in result.output


def test_simulate_prints_progress_lines_when_piped(tmp_path: Path) -> None:
    """Not a terminal: plain progress lines on stderr, and intervals over deals in the
    table (a bot's seats, the seat shares, goal rates per bot and role)."""
    result = CliRunner().invoke(app, [
        "simulate", "--players", "4", "--bots", "heuristic,random", "--games", "40",
        "--seed", "2", "--workers", "1", "--out", str(tmp_path / "p"), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "games 40/40 (100%)" in result.stderr
    assert result.stderr.count("games ") >= 5  # every tenth of the run
    assert "Win share by seat" in result.stdout and "over deals" in result.stdout
    doc = json.loads((tmp_path / "p" / "summary.json").read_text())
    assert len(doc["seat_ci"]) == 4 and "ci_naive" in doc["bots"][0]
    assert doc["bots"][0]["roles"] and "goal_ci" in doc["roles"]["priest"]
    assert "over deals" in (tmp_path / "p" / "report.html").read_text()


def test_simulate_balance(tmp_path: Path) -> None:
    out = tmp_path / "bal"
    result = CliRunner().invoke(app, [
        "simulate", "--balance", "--players", "4", "--bots", "heuristic", "--games", "8",
        "--seed", "3", "--workers", "1", "--out", str(out), "--lang", "en",
        "--no-progress"])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "balance.json").read_text())
    assert [(r["deck"], r["players"]) for r in doc["rows"]] == [("basic", 4), ("advanced", 4)]
    row = doc["rows"][0]
    assert set(row["conditions"]) == {"six-roles", "eight-xp", "three-pairs", "four-in-one"}
    assert 0 <= row["one_role_alone"] <= 1
    for v in row["roles"].values():
        assert v["goal_ci"][0] <= v["goal_rate"] <= v["goal_ci"][1]
    assert (out / "balance.html").is_file()
    bad = CliRunner().invoke(app, ["simulate", "--balance", "--players", "4", "--deck",
                                   "undead-7", "--lang", "en"])
    assert bad.exit_code == 2 and "--deck" in bad.output
