"""benchmarks/report.py: docs/performance.md's tables from pytest-benchmark JSON (the
rates of the environment benchmarks, the compiled / pure ratio per env-step, the table
of BatchEnv against the AEC env and on two threads against one, and the arena's runner
against the raw playouts)."""

from __future__ import annotations

from typing import Any

from benchmarks import report

GAME = "somegame"
"""A made-up game name: the report reads the game from each group's ``"<game>: "`` prefix."""


def bench(group: str, median: float, mode: str = "compiled", **extra_info: Any) -> dict[str, Any]:
    """One benchmark entry as pytest-benchmark writes it."""
    return {"group": group, "params": {"mode": mode}, "stats": {"median": median}, "extra_info": extra_info}


def batch(envs: int, threads: int, median: float, env_steps: int, mode: str = "compiled") -> dict[str, Any]:
    suffix = f", {threads} thread{'s' if threads > 1 else ''}" if envs == report.THREADS_ENVS else ""
    group = f"{GAME}: BatchEnv step(sample_actions()), 2 players, {envs:,} envs{suffix}"
    return bench(group, median, mode, env_steps=env_steps, num_envs=envs, threads=threads)


def lines(*benchmarks: dict[str, Any]) -> list[str]:
    return report.table({"benchmarks": list(benchmarks), "machine_info": {}}).splitlines()


def test_batch_env_rows_show_env_steps_per_second() -> None:
    row = next(line for line in lines(batch(1024, 1, 0.004, 8192)) if "1,024 envs |" in line)
    assert "2.05 M env-steps/s" in row  # 8,192 env-steps in 4 ms


def test_single_env_rows_show_steps_per_second() -> None:
    group = f"{GAME}: PettingZoo AEC env, 2 players, 5000 steps"
    row = next(line for line in lines(bench(group, 0.02, steps=5000)) if line.startswith(f"| {group} |"))
    assert "250.0 k steps/s" in row


def test_compiled_pure_ratio_is_per_env_step() -> None:
    # The pure round makes a sixteenth of the compiled round's env-steps in five times its
    # time: 80x per env-step, where the ratio of the medians alone would say 5x.
    compiled = batch(64, 1, 0.002, 4096)
    pure = batch(64, 1, 0.010, 256, mode="pure")
    row = next(line for line in lines(compiled, pure) if "64 envs |" in line)
    assert row.endswith("| 80× |")


def test_batch_table_against_the_aec_env_and_threads() -> None:
    table = lines(
        batch(1024, 1, 0.004, 8192),  # 2,048,000 env-steps/s
        batch(report.THREADS_ENVS, 1, 0.032, 32768),  # 1,024,000
        batch(report.THREADS_ENVS, 2, 0.020, 32768),  # 1,638,400
        bench(f"{GAME}: PettingZoo AEC env, 2 players, 5000 steps", 0.02, steps=5000),  # 250,000
        bench(f"{GAME}: PettingZoo AEC env, 2 players, 200 steps", 0.01, mode="pure", steps=200),
    )
    assert f"| {GAME} | 2,048,000 | 250,000 | 8× | 1,024,000 | 1,638,400 | 1.60× |" in table


def test_batch_table_without_the_aec_env() -> None:
    table = lines(batch(1024, 1, 0.004, 8192))
    assert f"| {GAME} | 2,048,000 | – | – | – | – | – |" in table


def test_no_batch_table_without_batch_env_rows() -> None:
    table = lines(bench(f"{GAME}: PettingZoo AEC env, 2 players, 5000 steps", 0.02, steps=5000))
    assert not any("BatchEnv against" in line for line in table)


def arena_bench(test: str, median: float) -> dict[str, Any]:
    """A benchmarks/test_bench_arena.py entry: the three runners share their game's group."""
    entry = bench(f"{GAME}: 1,000,000 random games", median)
    entry["name"] = f"{test}[{GAME}]"
    return entry


def test_arena_table_sets_each_runner_against_the_playouts() -> None:
    table = lines(
        arena_bench("test_playouts", 2.0),
        arena_bench("test_arena_in_memory", 2.1),
        arena_bench("test_arena_to_disk", 2.25),
    )
    row = f"| {GAME}: 1,000,000 random games | 2,000.00 ms | 2,100.00 ms | +5.0% | 2,250.00 ms | +12.5% |"
    assert row in table
    # The arena's rows are not in the compiled / pure table, where the three would share a line.
    assert sum(f"{GAME}: 1,000,000 random games" in line for line in table) == 1


def test_arena_table_without_the_playouts() -> None:
    table = lines(arena_bench("test_arena_in_memory", 2.1))
    assert f"| {GAME}: 1,000,000 random games | – | 2,100.00 ms | – | – | – |" in table


def test_no_arena_table_without_arena_rows() -> None:
    assert not any("arena's runner" in line for line in lines(batch(1024, 1, 0.004, 8192)))
