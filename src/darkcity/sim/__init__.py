"""Batch simulation of bots: the runner (processes, duplicate deals), the
statistics (Wilson 95% intervals against the fair share) and the report."""

from darkcity.sim.report import write_report
from darkcity.sim.runner import GameOutcome, SimConfig, default_workers, parse_bots, run
from darkcity.sim.stats import BotStats, Summary, summarize, wilson

__all__ = [
    "BotStats",
    "GameOutcome",
    "SimConfig",
    "Summary",
    "default_workers",
    "parse_bots",
    "run",
    "summarize",
    "wilson",
    "write_report",
]
