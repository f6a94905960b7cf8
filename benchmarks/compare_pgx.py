"""BatchEnv against pgx (JAX's batched game environments) on the CPU: random play with
autoreset, steps per second at the same batch sizes.

    pip install pgx          # a comparison tool, not a dependency of cruiselib (pulls jax)
    python benchmarks/compare_pgx.py [--sizes 2 64 1024 32768] [--seconds 1] [--repeat 3]

pgx's side is its own benchmark's loop: ``jit(vmap(auto_reset(env.step, env.init)))``,
each call given actions drawn by the jit'd ``act_randomly`` from ``legal_action_mask``
and fresh keys, the time taken over the whole loop up to ``block_until_ready`` (the
compilation is done before). cruiselib's side is ``env.step(env.sample_actions())`` on a
``BatchEnv`` of every registered game (two seats where the game has them; self-play,
autoreset on the next step, observations and masks written), on ``--threads`` threads.
Steps per second is batch size x calls over the time; each figure is the best of
``--repeat`` runs of at least ``--seconds``. XLA may spread a call over every core of
the machine; BatchEnv uses ``--threads`` (1 by default).

The reference is pgx's ``sparrow_mahjong``, its closest game to cruiselib's card games: a
hand of tiles hidden from the other players dealt from a shuffled wall, drawn and
discarded turn after turn to collect sets, tens of actions a game. ``leduc_holdem`` (a
six-card poker of two betting rounds, 3 actions, a handful of steps a game) is measured
too: the cheapest card game of pgx, nearly all autoreset.

pgx is not installed with cruiselib: without it the script says so and exits (status 0).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import cruiselib
from cruiselib._registry import game_class
from cruiselib.envs import BatchEnv

PGX_ENVS = ("sparrow_mahjong", "leduc_holdem")
"""pgx's games measured; the first is the reference of the ratios."""
SIZES = (2, 64, 1024, 32768)


def configuration(name: str) -> dict[str, Any]:
    """The make() options measured: two seats where the game offers them."""
    return {"players": 2} if 2 in game_class(name).player_counts else {}


def best_rate(run: Callable[[float], tuple[int, float]], seconds: float, repeat: int) -> float:
    """The best steps per second of ``repeat`` calls of ``run(seconds)`` -> (steps, time)."""
    rates = []
    for _ in range(repeat):
        steps, elapsed = run(seconds)
        rates.append(steps / elapsed)
    return max(rates)


def pgx_runner(modules: dict[str, ModuleType], env_id: str, size: int) -> Callable[[float], tuple[int, float]]:
    """pgx's random play with autoreset on ``size`` envs of ``env_id``, compiled before it returns."""
    jax, pgx = modules["jax"], modules["pgx"]
    act_randomly = modules["pgx.experimental.utils"].act_randomly
    auto_reset = modules["pgx.experimental.wrappers"].auto_reset
    env = pgx.make(env_id)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    act = jax.jit(act_randomly)
    key = jax.random.PRNGKey(0)
    key, subkey = jax.random.split(key)
    box = {"state": init(jax.random.split(subkey, size)), "key": key}

    def call() -> None:
        key, action_key, step_key = jax.random.split(box["key"], 3)
        action = act(action_key, box["state"].legal_action_mask)
        box["state"] = step(box["state"], action, jax.random.split(step_key, size))
        box["key"] = key

    call()  # compiles init, act and step
    box["state"].legal_action_mask.block_until_ready()

    def run(seconds: float) -> tuple[int, float]:
        calls = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            call()
            calls += 1
        box["state"].legal_action_mask.block_until_ready()
        return calls * size, time.perf_counter() - start

    return run


def batch_rate(name: str, size: int, threads: int, seconds: float, repeat: int) -> float:
    """The best steps per second of ``env.step(env.sample_actions())`` on a BatchEnv of
    ``size`` envs of ``name``."""
    with BatchEnv(name, size, seed=0, threads=threads, **configuration(name)) as env:

        def run(seconds: float) -> tuple[int, float]:
            calls = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                env.step(env.sample_actions())
                calls += 1
            return calls * size, time.perf_counter() - start

        return best_rate(run, seconds, repeat)


def import_pgx() -> dict[str, ModuleType] | None:
    """jax and pgx's modules used here, or None where pgx is not installed."""
    names = ("jax", "pgx", "pgx.experimental.utils", "pgx.experimental.wrappers")
    try:
        return {name: importlib.import_module(name) for name in names}
    except ImportError as exc:
        print(f"compare_pgx: skipped, pgx is not installed ({exc}); `pip install pgx` to run it")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="batch sizes")
    parser.add_argument("--seconds", type=float, default=1.0, help="the least time of a run (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument("--threads", type=int, default=1, help="BatchEnv's threads (default 1)")
    args = parser.parse_args()
    modules = import_pgx()
    if modules is None:
        return
    jax, pgx = modules["jax"], modules["pgx"]
    print(
        f"pgx {pgx.__version__}, jax {jax.__version__} on {jax.devices()}; cruiselib {cruiselib.__version__} "
        f"({'compiled' if cruiselib.compiled else 'pure-Python'} core), BatchEnv threads={args.threads}; "
        f"{os.cpu_count()} CPUs, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    reference = PGX_ENVS[0]
    for size in args.sizes:
        rates: dict[str, float] = {}
        for env_id in PGX_ENVS:
            rates[f"pgx {env_id}"] = best_rate(pgx_runner(modules, env_id, size), args.seconds, args.repeat)
        for name in cruiselib.games():
            rates[f"cruiselib {name}"] = batch_rate(name, size, args.threads, args.seconds, args.repeat)
        print(f"\nbatch size {size:,}: steps/s, and the ratio to pgx {reference}")
        for label, rate in rates.items():
            print(f"  {label:<28}{rate:>14,.0f}{rate / rates[f'pgx {reference}']:>10.2f}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
