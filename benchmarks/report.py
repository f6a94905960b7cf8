"""Turn pytest-benchmark JSON into docs/performance.md's tables (compiled vs pure, one run).

pytest benchmarks --benchmark-only --benchmark-json=bench.json
python benchmarks/report.py bench.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Any


def _rate(bench: dict[str, Any]) -> str:
    median = bench["stats"]["median"]
    info = bench.get("extra_info", {})
    if "env_steps" in info:
        return f"{info['env_steps'] / median / 1e6:,.2f} M env-steps/s"
    if "steps" in info:
        return f"{info['steps'] / median / 1e3:,.1f} k steps/s"
    if "actions" in info:
        return f"{info['actions'] / median / 1e6:,.2f} M actions/s ({info['games'] / median:,.0f} games/s)"
    if "iterations" in info:
        return f"{info['iterations'] / median / 1e3:,.1f} k iterations/s"
    if "actions_per_game" in info:
        return f"{info['actions_per_game'] / median / 1e3:,.0f} k actions/s"
    return ""


def _per_unit(bench: dict[str, Any]) -> float:
    """The median time of one unit of a round's work: an env-step where a round counts them
    (its rounds may differ in length between the cores), else the whole round."""
    return float(bench["stats"]["median"]) / float(bench.get("extra_info", {}).get("env_steps", 1))


def _time(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:,.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:,.2f} µs"
    return f"{seconds * 1e3:,.2f} ms"


def table(data: dict[str, Any]) -> str:
    groups: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    protocol: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    arena: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for bench in data["benchmarks"]:
        if bench["group"].startswith(PROTOCOL):  # one row per transport, not per core
            protocol[bench["group"]][bench["extra_info"]["transport"]] = bench
            continue
        runner = _arena_runner(bench)
        if runner is not None:  # the playouts and the arena share a group: a row per runner
            arena[bench["group"]][runner] = bench
            continue
        mode = bench["params"].get("mode", "compiled") if bench.get("params") else "compiled"
        groups[bench["group"]][mode] = bench
    lines = [
        "| benchmark | compiled (median) | pure Python (median) | compiled ÷ pure speed-up |",
        "|---|---|---|---|",
    ]
    for group in sorted(groups):
        modes = groups[group]
        compiled, pure = modes.get("compiled"), modes.get("pure")
        cells = []
        for bench in (compiled, pure):
            if bench is None:
                cells.append("–")
            else:
                rate = _rate(bench)
                cells.append(_time(bench["stats"]["median"]) + (f" · {rate}" if rate else ""))
        ratio = f"{_per_unit(pure) / _per_unit(compiled):,.0f}×" if compiled and pure else "–"
        lines.append(f"| {group} | {cells[0]} | {cells[1]} | {ratio} |")
    lines.extend(load_table(groups))
    lines.extend(batch_table(groups))
    lines.extend(openspiel_table(groups))
    lines.extend(protocol_table(protocol))
    lines.extend(arena_table(arena))
    machine = data.get("machine_info", {})
    lines.append("")
    lines.append(
        f"Measured on {machine.get('cpu', {}).get('brand_raw', 'unknown CPU')}, "
        f"Python {machine.get('python_version', '?')}, one core (two for the 2-thread rows)."
    )
    return "\n".join(lines)


LOAD = ": load_state() mid-game JSON"
DECODE = ": msgspec typed decode, same bytes"


def load_table(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Loading a snapshot (decode + every check) against msgspec's typed decode alone."""
    rows = []
    for group in sorted(groups):
        if not group.endswith(LOAD):
            continue
        game = group[: -len(LOAD)]
        load = groups[group].get("compiled")
        decode_modes = groups.get(game + DECODE, {})
        decode = decode_modes.get("compiled") or next(iter(decode_modes.values()), None)
        if load is None or decode is None:
            continue
        t_load, t_decode = load["stats"]["median"], decode["stats"]["median"]
        rows.append(f"| {game} | {_time(t_decode)} | {_time(t_load)} | {t_load / t_decode:.2f}× |")
    if not rows:
        return []
    return [
        "",
        "Loading a snapshot: `game.load_state(json_bytes)` (decode, validate every field and "
        "invariant in the core, build the state) against msgspec's typed decode of the same bytes alone:",
        "",
        "| game | msgspec typed decode | `load_state` (compiled) | load ÷ decode |",
        "|---|---|---|---|",
        *rows,
    ]


BATCH = ": BatchEnv "
AEC = ": PettingZoo AEC env"
BATCH_ENVS = 1024
"""The BatchEnv batch set against the AEC env (one thread)."""
THREADS_ENVS = 4096
"""The BatchEnv batch measured on one thread and on two."""


def _game(group: str) -> str:
    """The game a group measures: groups read ``"<game>: <what>"``."""
    return group.split(": ", 1)[0]


def _env_steps_per_second(bench: dict[str, Any] | None) -> float | None:
    """A round's env-steps (BatchEnv) or steps (the single envs) per second of its median."""
    if bench is None:
        return None
    info = bench["extra_info"]
    return float(info.get("env_steps", info.get("steps"))) / float(bench["stats"]["median"])


def _ratio(top: float | None, bottom: float | None, digits: int) -> str:
    return f"{top / bottom:,.{digits}f}×" if top is not None and bottom is not None else "–"


def _count(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def batch_table(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Per game: BatchEnv's env-steps per second at 1,024 envs against the AEC env stepped
    from Python (test_bench_envs_single.py), and 4,096 envs on two threads against one; all
    compiled, from the same run."""
    batch: dict[tuple[str, int, int], dict[str, Any]] = {}
    aec: dict[str, dict[str, Any]] = {}
    for group, modes in groups.items():
        compiled = modes.get("compiled")
        if compiled is None:
            continue
        if BATCH in group:
            info = compiled["extra_info"]
            batch[_game(group), int(info["num_envs"]), int(info["threads"])] = compiled
        elif AEC in group:
            aec[_game(group)] = compiled
    games = sorted({game for game, _, _ in batch})
    if not games:
        return []
    rows = []
    for game in games:
        steps = _env_steps_per_second(batch.get((game, BATCH_ENVS, 1)))
        single = _env_steps_per_second(aec.get(game))
        one = _env_steps_per_second(batch.get((game, THREADS_ENVS, 1)))
        two = _env_steps_per_second(batch.get((game, THREADS_ENVS, 2)))
        rows.append(
            f"| {game} | {_count(steps)} | {_count(single)} | {_ratio(steps, single, 0)} "
            f"| {_count(one)} | {_count(two)} | {_ratio(two, one, 2)} |"
        )
    return [
        "",
        "BatchEnv against the single environments, same run (compiled, env-steps per second): "
        f"`BatchEnv.step(sample_actions())` over {BATCH_ENVS:,} envs on one thread against "
        "PettingZoo's AEC env stepped from Python with a masked random action, and "
        f"{THREADS_ENVS:,} envs on two threads against one:",
        "",
        f"| game | BatchEnv, {BATCH_ENVS:,} envs | AEC env | BatchEnv ÷ AEC "
        f"| {THREADS_ENVS:,} envs, 1 thread | 2 threads | 2 ÷ 1 thread |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


OPENSPIEL = "sirens: OpenSpiel's ISMCTS on cruiselib.openspiel"
OURS = "sirens: ISMCTS search from the opening"


def _per_iteration(bench: dict[str, Any]) -> float:
    return float(bench["stats"]["median"]) / float(bench["extra_info"]["iterations"])


def openspiel_table(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Our ISMCTS against OpenSpiel's, iterations per second on the same game, one run."""
    theirs = next((modes.get("compiled") for g, modes in groups.items() if g.startswith(OPENSPIEL)), None)
    ours = next((modes.get("compiled") for g, modes in groups.items() if g.startswith(OURS)), None)
    if theirs is None or ours is None:
        return []
    t_ours, t_theirs = _per_iteration(ours), _per_iteration(theirs)
    return [
        "",
        "ISMCTS from the Sirens opening, iterations per second, measured in the same run: cruiselib's "
        "search in the core against OpenSpiel's `ISMCTSBot` (one random rollout per iteration) on the "
        "same game through `cruiselib.openspiel`:",
        "",
        "| search | iterations/s | ratio |",
        "|---|---|---|",
        f"| cruiselib `ISMCTSBot` (compiled core) | {1 / t_ours:,.0f} | {t_theirs / t_ours:,.0f}× |",
        f"| OpenSpiel `ISMCTSBot` on `cruiselib_sirens` | {1 / t_theirs:,.0f} | 1× |",
    ]


PROTOCOL = "protocol: "
TRANSPORTS = ("in-process", "subprocess", "subprocess, no polling")


def protocol_table(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Engine protocol round trips through ``cruiselib.client``, one column per transport."""
    if not groups:
        return []
    lines = [
        "",
        "Engine protocol round trips through `cruiselib.client` (median): in-process, to a "
        "`cruiselib serve` subprocess with both sides polling their pipe before sleeping (the "
        "default), and with both sleeping at once (`--poll-us 0`, `poll=0`):",
        "",
        "| round trip | " + " | ".join(TRANSPORTS) + " |",
        "|---|" + "---|" * len(TRANSPORTS),
    ]
    for group in sorted(groups):
        cells = [_time(groups[group][t]["stats"]["median"]) if t in groups[group] else "–" for t in TRANSPORTS]
        lines.append(f"| {group[len(PROTOCOL) :]} | " + " | ".join(cells) + " |")
    return lines


ARENA_RUNNERS = {"test_playouts": "playouts", "test_arena_in_memory": "in memory", "test_arena_to_disk": "to disk"}
"""benchmarks/test_bench_arena.py's tests, by the runner each times."""


def _arena_runner(bench: dict[str, Any]) -> str | None:
    """Which runner an arena benchmark times (``None`` for any other benchmark)."""
    if not bench["group"].endswith(" random games"):
        return None
    return ARENA_RUNNERS.get(bench.get("name", "").partition("[")[0])


def arena_table(groups: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """The arena's runner against the raw playouts of the same random games, per game: the
    runner's overhead is each arena time over the playouts time, minus one."""
    if not groups:
        return []
    lines = [
        "",
        "The arena's runner (`cruiselib.arena.run`, serial backend, one thread) against "
        "`game.playouts` on the same random games, same run (median of the rounds); the overhead "
        "is the arena's time over the playouts' (goal: at most 10%):",
        "",
        "| games | playouts | arena, in memory | overhead | arena, to disk | overhead |",
        "|---|---|---|---|---|---|",
    ]
    for group in sorted(groups):
        runs = groups[group]
        base = runs.get("playouts")
        cells = []
        for runner in ("playouts", "in memory", "to disk"):
            bench = runs.get(runner)
            cells.append(_time(bench["stats"]["median"]) if bench else "–")
            if runner != "playouts":
                cells.append(
                    f"{bench['stats']['median'] / base['stats']['median'] - 1:+.1%}" if bench and base else "–"
                )
        lines.append(f"| {group} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "bench.json"
    with open(path) as fh:
        print(table(json.load(fh)))


if __name__ == "__main__":
    main()
