"""The PPO example's speed: env-steps per second of its rollout + update cycle.

    pytest benchmarks/test_bench_ppo.py --benchmark-only

A round is one cycle of ``examples/train_ppo.py`` at its defaults (512 envs, 32 steps a
rollout, the 128-128 torso, 2 epochs of 2,048-step minibatches; one torch thread) in each
game's two-seat configuration, in self-play against a frozen copy in half the envs (the
phase the long runs spend their time in): the rollout under ``torch.inference_mode`` with
every env's action chosen in the core, GAE, and the PPO epochs. Env-steps per second are
the learner decisions of a round over its time (``extra_info["env_steps"]``), the opponents'
moves not counted. Skipped without torch.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib._registry import game_class

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_ppo.py"
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or not SCRIPT.is_file(), reason="needs torch and examples/"
)


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


GAMES = [name for name in cruiselib.games() if 2 in game_class(name).player_counts]


@pytest.mark.parametrize("name", GAMES)
def test_ppo_cycle(benchmark: Any, name: str) -> None:
    """One rollout + update cycle of the example, self-play with a frozen opponent."""
    example = _example()
    torch = example.torch
    torch.set_num_threads(1)
    torch.manual_seed(0)
    args = example.parse(["--game", name, "--players", "2", "--opponent-steps", "0"])
    game = cruiselib.make(name, players=2)
    agent = example.Agent(int(game.observation_shape[0]), int(game.num_actions), args.hidden, args.head)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    groups = example.make_groups(game, args, 1, 0)
    frozen = copy.deepcopy(agent)
    rng = np.random.default_rng(0)
    stats = {"games": 0.0, "learner_games": 0.0, "learner_wins": 0.0}
    done: list[int] = []

    def cycle() -> None:
        r = example.collect(agent, frozen, groups, args.rollout, 2, stats)
        adv, ret = example.advantages(r, 2, args.gamma, args.gae_lambda)
        example.update(agent, optimizer, r, adv, ret, args, rng)
        done.append(int(r.learn.sum()))

    cycle()  # the first cycle warms the allocator and torch up
    done.clear()
    benchmark.group = f"{name}: PPO example, rollout + update, {args.envs:,} envs x {args.rollout} steps"
    benchmark.pedantic(cycle, rounds=3, iterations=1)
    benchmark.extra_info["env_steps"] = int(np.median(done))
    benchmark.extra_info["num_envs"] = args.envs
    for g in groups:
        g.env.close()
