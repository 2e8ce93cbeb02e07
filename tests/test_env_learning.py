"""The learnability script's smoke run (issue #32): a few PPO updates through the
Gymnasium wrapper, its curve written. Needs the learn extra (torch)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the learn extra is not installed: "
                                    "pip install -e \".[learn]\" (torch, a CPU wheel)")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")


def test_a_few_ppo_updates_run_and_plot(tmp_path: Path) -> None:
    from benchmarks import env_learning

    lines: list[str] = []
    args = argparse.Namespace(
        minutes=0.0, updates=2, players=4, opponents="random", steps=128, epochs=1,
        minibatch=64, lr=3e-4, gamma=1.0, lam=0.95, clip=0.2, ent=0.01, vf=0.5,
        eval_games=2, seed=1, out=None)
    result = env_learning.train(args, log=lines.append)
    assert result["steps"] == 256 and len(result["curve"]) >= 1
    assert result["random"][3] == 2 and result["heuristic"][3] == 2
    assert any("among five random bots" in x for x in lines)
    pytest.importorskip("matplotlib")
    env_learning.plot(result, tmp_path / "curve.png", args)
    assert (tmp_path / "curve.png").stat().st_size > 1000
