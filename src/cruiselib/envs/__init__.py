"""Reinforcement-learning environments of every game.

:class:`BatchEnv` steps N games in the compiled core in one call (numpy buffers; no extra
needed). :func:`aec_env` and :func:`parallel_env` are PettingZoo environments (every seat an agent),
:func:`gym_env` a Gymnasium environment (one learner seat, bots at the others),
:func:`vector_env` a Gymnasium vector environment over :class:`BatchEnv`. They need
the ``rl`` extra (``pip install 'cruiselib[rl]'``); importing this package does not.
:mod:`cruiselib.envs.rllib` is an RLlib ``MultiAgentEnv`` (the ``rllib`` extra), imported
on its own: importing RLlib takes seconds, so this package does not.
"""

from __future__ import annotations

from cruiselib.envs._common import ILLEGAL_ACTIONS
from cruiselib.envs.aec import GameAECEnv, aec_env, parallel_env
from cruiselib.envs.batch import BatchEnv, BatchStep
from cruiselib.envs.gym import GameGymEnv, gym_env
from cruiselib.envs.vector import GameVectorEnv, vector_env

__all__ = [
    "ILLEGAL_ACTIONS",
    "BatchEnv",
    "BatchStep",
    "GameAECEnv",
    "GameGymEnv",
    "GameVectorEnv",
    "aec_env",
    "gym_env",
    "parallel_env",
    "vector_env",
]
