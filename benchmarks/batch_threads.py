"""BatchEnv on two threads against one, measured alone: the speed-up of the GIL-free split.

    python benchmarks/batch_threads.py [--envs 4096] [--calls 15] [--rounds 3] [GAME ...]

For every registered game (or those named), in its two-seat configuration where it has one:
two ``BatchEnv`` of ``--envs`` envs with the same seed, one on one thread and one on two.
A call is ``env.step(env.sample_actions())``; each round times ``--calls`` calls of the
one-thread env, then as many of the two-thread env (the rounds alternate, so a change of
the machine's load falls on both). The two envs make the same calls from the same deals,
so call k does the same work in both: the script prints the best call of each and their
ratio (the goal: at least 1.8x on two cores), and the median of the paired calls' ratios.
The load average is printed before and after: the figure means something only on a
machine otherwise idle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import cruiselib
from cruiselib._registry import game_class
from cruiselib.envs import BatchEnv

WARMUP_CALLS = 50
"""Calls made before timing, so the envs' games are under way (they start together)."""


def configuration(name: str) -> dict[str, Any]:
    """The make() options measured: two seats where the game offers them."""
    return {"players": 2} if 2 in game_class(name).player_counts else {}


def call_times(env: BatchEnv, calls: int) -> list[float]:
    """The time of each of ``calls`` calls of ``env.step(env.sample_actions())``."""
    times = []
    clock = time.perf_counter
    for _ in range(calls):
        start = clock()
        env.step(env.sample_actions())
        times.append(clock() - start)
    return times


def measure(name: str, envs: int, calls: int, rounds: int) -> tuple[float, float, float]:
    """The best call on one thread and on two (seconds), and the median paired ratio."""
    game = cruiselib.make(name, **configuration(name))
    with BatchEnv(game, envs, seed=0, threads=1) as one, BatchEnv(game, envs, seed=0, threads=2) as two:
        call_times(one, WARMUP_CALLS)
        call_times(two, WARMUP_CALLS)
        ones: list[float] = []
        twos: list[float] = []
        for _ in range(rounds):
            ones += call_times(one, calls)
            twos += call_times(two, calls)
    ratios = [a / b for a, b in zip(ones, twos, strict=True)]
    return min(ones), min(twos), statistics.median(ratios)


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="registered game names (default: every game)")
    parser.add_argument("--envs", type=int, default=4096, help="envs per batch (default 4096)")
    parser.add_argument("--calls", type=int, default=15, help="timed calls per env and round (default 15)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, alternating the envs (default 3)")
    args = parser.parse_args()
    names = args.games or list(cruiselib.games())
    unknown = sorted(set(names) - set(cruiselib.games()))
    if unknown:
        parser.error(f"unknown games {unknown}; the games are {list(cruiselib.games())}")
    if not cruiselib.compiled:
        parser.error("threads speed up the compiled core only; this is the pure-Python core")
    print(f"{os.cpu_count()} CPUs, load average {load()}")
    print(f"{args.envs:,} envs, best of {args.calls} calls x {args.rounds} rounds, alternating")
    print(f"{'game':<16}{'1 thread':>12}{'2 threads':>12}{'best ratio':>12}{'median ratio':>14}")
    for name in names:
        t1, t2, median = measure(name, args.envs, args.calls, args.rounds)
        print(f"{name:<16}{t1 * 1e3:>9.2f} ms{t2 * 1e3:>9.2f} ms{t1 / t2:>11.2f}x{median:>13.2f}x")
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
