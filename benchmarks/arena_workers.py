"""The arena on several workers against one, measured alone: local processes and Ray.

    python benchmarks/arena_workers.py [GAME] [--games 200] [--iterations 50] [--workers 2]
                                       [--shard 2] [--study-games 2000000] [--study-game NAME]
                                       [--ray-batch N] [--no-ray]

Tournament: ISMCTS (``--iterations`` per move) against the rule bot on ``GAME`` (default:
the first registered game) at two seats where the game has them, ``--games`` games
(mirrored deals), CPU-bound in the bots. It runs on one local worker process, on
``--workers`` local processes, and on a local Ray of ``--workers`` CPUs; the script prints
each run's wall time and its speed-up over the one process (the goal: at least 1.8x on two
cores). Ray's start-up (``ray.init`` and its first task) is timed apart from the run and
shown as its own column; ``--ray-batch N`` adds a Ray run of N jobs a task. Every run's
rows (but the ``seconds`` column) and summary must be identical: the script stops with an
error if not.

Study: ``--study-games`` random games of ``--study-game`` (default: ``GAME``) in the core,
on ``--workers`` local processes and on the same Ray (jobs batched into tasks), to show
what Ray's per-task cost and its start-up come to as a share of a study (the goal: under
5%): each run is set against the ideal, the games' own time (the sum of the ``seconds``
column) over the worker count.

The load average is printed before and after: the figures mean something only on a
machine otherwise idle. A job is ``--shard`` deals (each played under both seatings), so
the jobs are many and small enough to keep every worker busy to the end.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import cruiselib
from cruiselib._registry import game_class
from cruiselib.arena.backends import Backend, LocalBackend, RayBackend
from cruiselib.arena.results import games_to_lists
from cruiselib.arena.runner import RunResult, run


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def tournament(name: str, games: int, iterations: int, shard: int) -> dict[str, Any]:
    """The tournament measured: ISMCTS against the rule bot, at two seats where possible."""
    counts = game_class(name).player_counts
    players = 2 if 2 in counts else min(n for n in counts if n >= 2)
    return {
        "kind": "tournament",
        "game": name,
        "players": players,
        "participants": [{"name": "ismcts", "options": {"iterations": iterations}}, {"name": "rules"}],
        "mode": "ab",
        "games": games,
        "shard": shard,
        "seed": 1,
    }


def study(name: str, games: int) -> dict[str, Any]:
    """The study measured: random games of the game's default configuration, in the core."""
    return {"kind": "study", "game": name, "games": games, "players": [cruiselib.make(name).num_players]}


def timed(spec: dict[str, Any], backend: Backend) -> tuple[float, RunResult]:
    start = time.perf_counter()
    result = run(spec, backend=backend, progress=False)
    return time.perf_counter() - start, result


def same_results(results: dict[str, RunResult]) -> None:
    """Stop unless every run has the same rows (but wall time) and the same summary."""
    (first_name, first), *others = results.items()
    expected = {k: v for k, v in games_to_lists(first.rows).items() if k != "seconds"}
    for name, other in others:
        rows = {k: v for k, v in games_to_lists(other.rows).items() if k != "seconds"}
        if rows != expected or other.summary != first.summary:
            raise SystemExit(f"the rows or summary of {name} differ from those of {first_name}")


def ray_started(workers: int) -> tuple[RayBackend, float]:
    """A local Ray of ``workers`` CPUs, started and warmed by one task; its start-up time."""
    backend = RayBackend(address="local", num_cpus=workers)  # a Ray of its own, never a recorded cluster
    start = time.perf_counter()
    ray = backend.connect()
    ray.get(ray.remote(lambda: None).remote())  # the first worker process starts here
    return backend, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", help="a registered game (default: the first)")
    parser.add_argument("--games", type=int, default=200, help="tournament games (default 200)")
    parser.add_argument("--iterations", type=int, default=50, help="ISMCTS iterations a move (default 50)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes / Ray CPUs (default 2)")
    parser.add_argument("--shard", type=int, default=2, help="deals a tournament job (default 2)")
    parser.add_argument("--study-games", type=int, default=2_000_000, help="random games of the study (0: none)")
    parser.add_argument("--study-game", help="the study's game (default: GAME)")
    parser.add_argument("--ray-batch", type=int, help="also run the tournament on Ray with this many jobs a task")
    parser.add_argument("--no-ray", action="store_true", help="local processes only")
    args = parser.parse_args()
    name = args.game or cruiselib.games()[0]
    study_name = args.study_game or name
    for chosen in (name, study_name):
        if chosen not in cruiselib.games():
            parser.error(f"unknown game {chosen!r}; the games are {list(cruiselib.games())}")
    print(f"{os.cpu_count()} CPUs, load average {load()}")
    spec = tournament(name, args.games, args.iterations, args.shard)
    print(f"{name}: ismcts({args.iterations} iterations) against rules, {args.games} games, {args.shard} deals a job")
    print(f"{'backend':<22}{'start-up':>10}{'run':>10}{'speed-up':>10}")
    results: dict[str, RunResult] = {}
    one, results["1 process"] = timed(spec, LocalBackend(1))
    print(f"{'1 process':<22}{'':>10}{one:>9.2f}s{1.0:>9.2f}x")
    many, results[f"{args.workers} processes"] = timed(spec, LocalBackend(args.workers))
    print(f"{f'{args.workers} processes':<22}{'':>10}{many:>9.2f}s{one / many:>9.2f}x")
    ray_backend = None
    if not args.no_ray:
        ray_backend, startup = ray_started(args.workers)
        on_ray, results[f"Ray, {args.workers} CPUs"] = timed(spec, ray_backend)
        label = f"Ray, {args.workers} CPUs"
        print(f"{label:<22}{startup:>9.2f}s{on_ray:>9.2f}s{one / on_ray:>9.2f}x")
        if args.ray_batch:
            ray_backend.batch_size = args.ray_batch
            label = f"Ray, {args.ray_batch} jobs a task"
            on_ray, results[label] = timed(spec, ray_backend)
            ray_backend.batch_size = None
            print(f"{label:<22}{'':>10}{on_ray:>9.2f}s{one / on_ray:>9.2f}x")
    same_results(results)
    print("rows and summaries identical on every backend")
    if args.study_games:
        print(f"study: {args.study_games:,} random games of {study_name}")
        study_spec = study(study_name, args.study_games)
        study_results: dict[str, RunResult] = {}
        local, study_results["local"] = timed(study_spec, LocalBackend(args.workers))
        # The games' own time, summed over the workers: the run of an ideal backend is
        # this over the worker count.
        work = float(study_results["local"].table().column("seconds").to_numpy().sum())
        ideal = work / args.workers
        print(f"games' own time {work:.2f}s, over {args.workers} workers {ideal:.2f}s")
        print(f"{f'{args.workers} processes':<22}{'':>10}{local:>9.2f}s   {local / ideal - 1:+.1%} over the ideal")
        if ray_backend is not None:
            on_ray, study_results["ray"] = timed(study_spec, ray_backend)
            print(
                f"{f'Ray, {args.workers} CPUs':<22}{startup:>9.2f}s{on_ray:>9.2f}s"
                f"   {on_ray / ideal - 1:+.1%} over the ideal, {(on_ray + startup) / ideal - 1:+.1%} with its start-up"
            )
            same_results(study_results)
    if ray_backend is not None:
        ray_backend.close()
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
