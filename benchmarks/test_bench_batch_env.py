"""``BatchEnv``: N games stepped in the core per call, for every registered game.

    pytest benchmarks/test_bench_batch_env.py --benchmark-only

Each game plays its two-seat configuration where it has one (else its default), in
self-play (every seat acts through ``step``), autoreset on the next step, observations and
action masks written (the defaults). A round is ``env.step(env.sample_actions())`` repeated
``steps`` times, the uniform legal action per env drawn in the core: env-steps per second
is ``num_envs * steps`` over the round's time (``extra_info["env_steps"]``). Measured:
N = 1, 64 and 1,024 envs on one thread; 64 envs on the pure-Python twin too (the same group,
so ``benchmarks/report.py`` shows the compiled / pure ratio); 4,096 envs on one thread and
on two (a group each; ``benchmarks/batch_threads.py`` measures that ratio alone, the short
rounds here being noisy). The envs of a batch start together and drift apart as their games
end at different times, so a round mixes every stage of the game.

A policy's step (compiled, 1,024 envs, one thread; a group per way): the policy gives every
action a score, the same fixed preferences in every way, and an action is sampled from the
softmax over the legal ones, then stepped. Three ways: the scores of the legal ids
(``legal_actions()``, the policy's table gathered at the ids in numpy, ``choose``), dense
logits ``[N, num_actions]`` handed to ``choose``, and the same logits sampled in numpy from
the dense mask (what a policy did before ``choose``). The policy's own output is made before
the round for the dense ways (it is the network's cost, not the env's).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from benchmarks.conftest import modes
from cruiselib._registry import game_class
from cruiselib.envs import BatchEnv


def configuration(name: str) -> dict[str, Any]:
    """The make() options benchmarked: two seats where the game offers them."""
    return {"players": 2} if 2 in game_class(name).player_counts else {}


GAMES = {name: modes(name, **configuration(name)) for name in cruiselib.games()}
"""Every registered game on each core available here: {name: {"compiled": game, "pure": twin}}."""

SIZES = {"compiled": (1, 64, 1024), "pure": (64,)}
"""The batch sizes measured on one thread, per core (the pure twin at 64 envs only: about
fifty times slower, it would take seconds a round at 1,024)."""
THREADS_ENVS = 4096
"""The batch split over one thread and over two (compiled only)."""

ROUND_ENV_STEPS = {"compiled": 4096, "pure": 256}
"""About how many env-steps a round takes: a few milliseconds at every batch size."""
MIN_STEPS = {"compiled": 8, "pure": 2}
"""The fewest ``step`` calls a round makes (the large batches)."""

CASES = [(name, mode, n) for name, games in GAMES.items() for mode in games for n in SIZES[mode]]
IDS = [f"{name}-{mode}-{n}" for name, mode, n in CASES]
THREAD_CASES = [(name, threads) for name in GAMES for threads in (1, 2)]
THREAD_IDS = [f"{name}-{threads}" for name, threads in THREAD_CASES]

POLICY_ENVS = 1024
"""The batch a policy's step is measured on (compiled, one thread)."""
POLICY_WAYS = {
    "legal": "legal-id scores + BatchEnv.choose",
    "dense": "dense logits + BatchEnv.choose",
    "numpy": "dense logits sampled in numpy from the mask",
}
"""How a policy's step picks its actions, and the group's words for it."""
POLICY_STEPS = {"legal": 8, "dense": 2, "numpy": 2}
"""The ``step`` calls a round makes: the dense ways take up to a tenth of a second a call."""
POLICY_CASES = [(name, way) for name, games in GAMES.items() if "compiled" in games for way in POLICY_WAYS]
POLICY_IDS = [f"{name}-{way}" for name, way in POLICY_CASES]


def steps_per_round(mode: str, num_envs: int) -> int:
    """How many ``step`` calls a round of ``num_envs`` envs makes on the ``mode`` core."""
    return max(MIN_STEPS[mode], ROUND_ENV_STEPS[mode] // num_envs)


def group(game: Any, num_envs: int, threads: int | None = None) -> str:
    """The benchmark group: ``"<name>: BatchEnv step(sample_actions()), 2 players, 1,024 envs"``,
    and the thread count for the threads pair (which report.py reads back from extra_info)."""
    envs = f"{num_envs:,} env{'s' if num_envs > 1 else ''}"
    name = f"{game.name}: BatchEnv step(sample_actions()), {game.num_players} players, {envs}"
    if threads is None:
        return name
    return f"{name}, {threads} thread{'s' if threads > 1 else ''}"


def run_round(env: BatchEnv, steps: int) -> None:
    """``steps`` calls of ``env.step(env.sample_actions())``, nothing else timed."""
    for _ in range(steps):
        env.step(env.sample_actions())


def bench_batch(benchmark: Any, game: Any, mode: str, num_envs: int, threads: int) -> None:
    """Time rounds of ``num_envs`` envs of ``game`` on ``threads`` threads; record the
    env-steps of a round and the batch's shape for report.py."""
    steps = steps_per_round(mode, num_envs)
    benchmark.extra_info["env_steps"] = num_envs * steps
    benchmark.extra_info["num_envs"] = num_envs
    benchmark.extra_info["threads"] = threads
    with BatchEnv(game, num_envs, seed=0, threads=threads) as env:
        benchmark(run_round, env, steps)
        # Every env is in play (a seat to act) or has just ended its game (seat -1, dealt
        # anew on the next step): none was left waiting for a reset.
        assert ((env.seats >= 0) | env.terminated | env.truncated).all()


@pytest.mark.parametrize(("name", "mode", "num_envs"), CASES, ids=IDS)
def test_batch_env_steps(benchmark: Any, name: str, mode: str, num_envs: int) -> None:
    """Self-play on one thread: the step, the autoresets and the buffers, per env."""
    game = GAMES[name][mode]
    benchmark.group = group(game, num_envs)
    bench_batch(benchmark, game, mode, num_envs, 1)


@pytest.mark.parametrize(("name", "threads"), THREAD_CASES, ids=THREAD_IDS)
def test_batch_env_threads(benchmark: Any, name: str, threads: int) -> None:
    """4,096 envs split over ``threads`` threads, the GIL released in the core."""
    if "compiled" not in GAMES[name]:
        pytest.skip("threads speed up the compiled core only")
    game = GAMES[name]["compiled"]
    benchmark.group = group(game, THREADS_ENVS, threads)
    bench_batch(benchmark, game, "compiled", THREADS_ENVS, threads)


class Policy:
    """A policy's step over ``env`` by one of :data:`POLICY_WAYS`: fixed preferences per
    action (a standard normal draw, seeded) stand for the policy's scores."""

    def __init__(self, env: BatchEnv, way: str) -> None:
        self.env = env
        self.way = way
        rng = np.random.default_rng(0)
        # One more entry for the -1 that pads legal_actions' rows (its score is ignored).
        self.preferences = rng.standard_normal(env.num_actions + 1, dtype=np.float32)
        # The dense ways' logits: the same preferences in every env's row (a policy's output).
        self.logits: npt.NDArray[np.float32] = (
            np.tile(self.preferences[:-1], (env.num_envs, 1)) if way != "legal" else np.zeros((0, 0), np.float32)
        )
        self.rng = rng

    def step(self) -> None:
        env = self.env
        if self.way == "legal":
            ids, _counts = env.legal_actions()
            env.step(env.choose(np.take(self.preferences, ids)))
        elif self.way == "dense":
            env.step(env.choose(self.logits, layout="dense"))
        else:
            env.step(self.numpy_choice())

    def numpy_choice(self) -> npt.NDArray[np.int64]:
        """The softmax over each env's legal actions sampled in numpy from the dense mask: the
        first action whose running probability passes a uniform draw (0 where none is legal)."""
        with np.errstate(invalid="ignore"):  # an ended env's row is all -inf: NaN, action 0
            masked = np.where(self.env.action_masks == 1, self.logits, -np.inf)
            weights = np.exp(masked - masked.max(axis=1, keepdims=True))
            running = np.cumsum(weights, axis=1)
            target = self.rng.random((self.env.num_envs, 1)) * running[:, -1:]
            chosen: npt.NDArray[np.int64] = (running <= target).sum(axis=1)
        return chosen


def run_policy_round(policy: Policy, steps: int) -> None:
    """``steps`` policy steps, nothing else timed."""
    for _ in range(steps):
        policy.step()


@pytest.mark.parametrize(("name", "way"), POLICY_CASES, ids=POLICY_IDS)
def test_batch_env_policy_steps(benchmark: Any, name: str, way: str) -> None:
    """A policy's step at 1,024 envs: choosing among the legal actions, then ``step``."""
    game = GAMES[name]["compiled"]
    steps = POLICY_STEPS[way]
    benchmark.group = f"{game.name}: policy step, {POLICY_WAYS[way]}, {game.num_players} players, {POLICY_ENVS:,} envs"
    benchmark.extra_info["env_steps"] = POLICY_ENVS * steps
    benchmark.extra_info["num_envs"] = POLICY_ENVS
    benchmark.extra_info["threads"] = 1
    with BatchEnv(game, POLICY_ENVS, seed=0) as env:
        policy = Policy(env, way)
        benchmark(run_policy_round, policy, steps)
        # Every choice was legal (step raises otherwise); the games went on.
        assert ((env.seats >= 0) | env.terminated).all()
