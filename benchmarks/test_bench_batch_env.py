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
"""

from __future__ import annotations

from typing import Any

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
