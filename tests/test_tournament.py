"""``darkcity tournament``: every ordered pair on the same duplicate deals, the score
matrix with intervals over deals, the OpenSkill ratings, the files; and the
variants of the heuristic that make up the population."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from darkcity.bots import bot_names, make_bot, play_game
from darkcity.cli import app
from darkcity.deck import preset
from darkcity.game import Game
from darkcity.settings import Settings

pytest.importorskip("openskill")

from darkcity.sim.tournament import play_tournament, write_tournament

VARIANTS = ("always-priest", "leader-hunter", "never-flee", "retuned", "skittish")


def test_variants_are_listed_apart_from_the_levels() -> None:
    assert bot_names() == ("random", "heuristic", "strong")
    assert set(VARIANTS) <= set(bot_names(variants=True))


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_plays_whole_games_legally(name: str) -> None:
    names = ("Ana", "Bia", "Caio", "Duda", "Enzo")
    game = Game(Settings(players=names, deck=preset("advanced", 5)), f"v:{name}")
    bots = {p: make_bot(name if i % 2 == 0 else "heuristic", random.Random(f"{name}{i}"))
            for i, p in enumerate(names)}
    play_game(game, bots, check=True)
    assert game.over


def test_a_tournament_of_three(tmp_path: Path) -> None:
    r = play_tournament(["random", "heuristic", "never-flee"], players=4, games=8, seed=3)
    assert len(r.matches) == 6 and {m.games for m in r.matches} == {8}
    h = r.match("heuristic", "random")
    assert h.ratio > 1.5 and h.ratio_ci[0] <= h.ratio <= h.ratio_ci[1]
    assert r.ratings[-1].bot == "random"  # the weakest rated last
    assert all(x.ci[0] < x.mu < x.ci[1] for x in r.ratings)
    assert not r.checks  # no strong bot in this population
    files = write_tournament(r, tmp_path / "t")
    doc = json.loads((tmp_path / "t" / "tournament.json").read_text())
    assert doc["population"] == ["random", "heuristic", "never-flee"]
    assert {f.name for f in files} >= {"tournament.json", "tournament.html"}
    # the same seed, the same tournament
    again = play_tournament(["random", "heuristic", "never-flee"], players=4, games=8, seed=3)
    assert again.matches == r.matches


def test_tournament_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [
        "tournament", "--bots", "random,heuristic", "--players", "4", "--games", "4",
        "--workers", "1", "--out", str(tmp_path / "c"), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Ratings" in result.stdout and "heuristic" in result.stdout
    assert (tmp_path / "c" / "tournament.html").is_file()
    bad = CliRunner().invoke(app, ["tournament", "--bots", "random,best", "--lang", "en"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output
