"""Research environments (``pip install darkcity[rl]``): Dark City for
PettingZoo (AEC and Parallel, :mod:`darkcity.env.darkcity_v1`), Gymnasium (one
agent among bots, :mod:`darkcity.env.single`) and OpenSpiel
(:mod:`darkcity.env.openspiel`, registered as ``python_darkcity``). Importing
this package needs numpy, gymnasium and pettingzoo."""

from darkcity.env import darkcity_v1
from darkcity.env.actions import WAIT, ActionCodec, codec
from darkcity.env.aec import DarkCityAECEnv
from darkcity.env.parallel import DarkCityParallelEnv, parallel_env

__all__ = ["WAIT", "ActionCodec", "DarkCityAECEnv", "DarkCityParallelEnv", "codec",
           "darkcity_v1", "parallel_env"]
