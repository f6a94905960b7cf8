"""The reinforcement-learning environments stepped one at a time from Python: PettingZoo's
AEC env (every seat an agent) and the Gymnasium env (one learner, bots at the other seats),
for every registered game, on each core (compiled, pure).

    pytest benchmarks/test_bench_envs_single.py --benchmark-only

Each game plays its two-seat configuration where it has one (else its default). A round is
``STEPS`` env steps of a learner whose action is drawn uniformly from the observation's
action mask (the legal ids by ``mask.view(bool).nonzero()``, numpy's fast path for bools,
which the int8 mask's own ``nonzero()`` misses: 25 us against 1 us for a mask of 16k
actions; then ``random.randrange``), resetting as episodes end:
steps per second is ``STEPS`` over the round's time (``extra_info["steps"]``). The AEC
round counts the agents' actions, not the steps PettingZoo makes each ended agent take.
Target (compiled): at least 150k AEC steps/s for the first game of ``cruiselib.games()``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cruiselib
from benchmarks.conftest import modes
from cruiselib._registry import game_class

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from cruiselib.envs import aec_env, gym_env


def configuration(name: str) -> dict[str, Any]:
    """The make() options benchmarked: two seats where the game offers them."""
    return {"players": 2} if 2 in game_class(name).player_counts else {}


GAMES = {name: modes(name, **configuration(name)) for name in cruiselib.games()}
"""Every registered game on each core available here: {name: {"compiled": game, "pure": twin}}."""
CASES = [(name, mode) for name, games in GAMES.items() for mode in games]
IDS = [f"{name}-{mode}" for name, mode in CASES]

STEPS = {"compiled": 5_000, "pure": 200}
"""Env steps per round: the pure-Python core is about fifty times slower."""


def aec_round(env: Any, steps: int, rnd: random.Random) -> int:
    """``steps`` agent actions in the AEC env, each drawn from the agent's mask; returns
    the number of games finished."""
    finished = 0
    acted = 0
    while acted < steps:
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].view(np.bool_).nonzero()[0]
            env.step(legal[rnd.randrange(len(legal))])
            acted += 1
        finished += 1
    return finished


def gym_round(env: Any, steps: int, rnd: random.Random) -> int:
    """``steps`` learner steps in the Gymnasium env, each action drawn from
    ``info["action_mask"]``; returns the number of episodes finished."""
    finished = 0
    _observation, info = env.reset()
    for _ in range(steps):
        legal = info["action_mask"].nonzero()[0]
        _observation, _reward, terminated, truncated, info = env.step(legal[rnd.randrange(len(legal))])
        if terminated or truncated:
            finished += 1
            _observation, info = env.reset()
    return finished


@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_aec_steps(benchmark: Any, name: str, mode: str) -> None:
    """aec_env: agent_iter(), last(), a masked random action, step()."""
    game = GAMES[name][mode]
    benchmark.group = f"{name}: PettingZoo AEC env, {game.num_players} players, {STEPS[mode]} steps"
    benchmark.extra_info["steps"] = STEPS[mode]
    env = aec_env(game)
    env.reset(seed=0)
    rnd = random.Random(0)
    benchmark(aec_round, env, STEPS[mode], rnd)


@pytest.mark.parametrize("opponents", ["random", "rules"])
@pytest.mark.parametrize(("name", "mode"), CASES, ids=IDS)
def test_gym_steps(benchmark: Any, name: str, mode: str, opponents: str) -> None:
    """gym_env: step() with a masked random action, the opponents' bots playing inside it."""
    game = GAMES[name][mode]
    steps = STEPS[mode] // 5  # a step also plays the other seats' turns
    benchmark.group = f"{name}: Gymnasium env, {game.num_players} players, {opponents} opponents, {steps} steps"
    benchmark.extra_info["steps"] = steps
    env = gym_env(game, opponents=opponents)
    env.reset(seed=0)
    rnd = random.Random(0)
    benchmark(gym_round, env, steps, rnd)
