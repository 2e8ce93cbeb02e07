"""Research environments (``pip install darkcity[rl]``): Dark City as a
PettingZoo Parallel environment. Importing this package needs numpy,
gymnasium and pettingzoo."""

from darkcity.env.parallel import MAX_ACTIONS, DarkCityParallelEnv, parallel_env

__all__ = ["MAX_ACTIONS", "DarkCityParallelEnv", "parallel_env"]
