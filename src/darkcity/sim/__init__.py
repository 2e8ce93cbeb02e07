"""Batch simulation of bots: the runner (processes, duplicate deals), the
statistics (95% intervals over deals against the fair share) and the report."""

from darkcity.sim.intervals import Interval, cluster_interval
from darkcity.sim.report import write_report
from darkcity.sim.runner import GameOutcome, SimConfig, default_workers, parse_bots, run
from darkcity.sim.stats import BotStats, RateStats, Summary, summarize, wilson

__all__ = [
    "BotStats",
    "GameOutcome",
    "Interval",
    "RateStats",
    "SimConfig",
    "Summary",
    "cluster_interval",
    "default_workers",
    "parse_bots",
    "run",
    "summarize",
    "wilson",
    "write_report",
]
