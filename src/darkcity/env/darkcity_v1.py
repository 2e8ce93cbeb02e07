"""``darkcity_v1``: the registered, versioned Dark City environments, named and
built the way PettingZoo's are::

    from darkcity.env import darkcity_v1
    env = darkcity_v1.env(players=6, deck="basic")            # AEC, classic wrappers
    penv = darkcity_v1.parallel_env(players=6, deck="basic")  # Parallel

The version changes whenever the actions, observations or rewards change
meaning (v0 numbered the draft's cards by their place in a shuffled hand).
"""

from darkcity.env.aec import DarkCityAECEnv, env, raw_env
from darkcity.env.parallel import DarkCityParallelEnv, parallel_env

__all__ = ["DarkCityAECEnv", "DarkCityParallelEnv", "env", "parallel_env", "raw_env"]
