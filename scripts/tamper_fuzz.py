"""A long tamper-fuzzing campaign (tests/tamper.py) on every game, with a time budget.

    python scripts/tamper_fuzz.py --minutes 10            # all configurations, compiled + pure
    CRUISELIB_PURE_PYTHON=1 python scripts/tamper_fuzz.py  # the pure core alone

The configurations: every registered game's example configurations and seat counts, and
the rule variants a game's own tamper tests add (``TAMPER_CONFIGURATIONS`` in
``tests/<game>/test_tamper.py``). Each configuration gets an equal share of the budget.
States come from random play; each example changes one field of one of them (hypothesis),
then the verdict of ``tests.tamper.check_tampered``. One example in four flips a flag on
purpose (a boolean, or an integer the schema bounds to 0..1, ``tests.tamper.flips``): a
random field is rarely one.
Prints, per configuration, the mutations tried, refused and accepted (played to the end),
the most common reasons for refusal, and every failure; exits 1 if there was one. Run from
the repository root.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import every_configuration
from tests.tamper import TamperStats, check_tampered, flips, mutation, positions

import cruiselib


def all_configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game's example configurations and seat counts, and the further
    configurations a game's own tamper tests name (``TAMPER_CONFIGURATIONS`` in
    ``tests/<game>/test_tamper.py``: rule variants the examples leave out)."""
    configs = every_configuration()
    for name in cruiselib.games():
        module = f"tests.{name}.test_tamper"
        if importlib.util.find_spec(f"tests.{name}") is None or importlib.util.find_spec(module) is None:
            continue
        configs += [
            (name, options) for options in getattr(importlib.import_module(module), "TAMPER_CONFIGURATIONS", [])
        ]
    return configs


def label(name: str, options: dict[str, Any]) -> str:
    """The configuration in a line (a card set by its name)."""
    opts = ", ".join(f"{k}={getattr(v, 'name', v)}" for k, v in options.items()) or "defaults"
    return f"{name} ({opts})"


def campaign(name: str, options: dict[str, Any], seconds: float, seed: int) -> tuple[TamperStats, list[str]]:
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    trees = positions(game, n_games=8, seed=seed, every=7)
    schema = msgspec.json.schema(game.state_data_type)
    flipped = [list(flips(tree, schema)) for tree in trees]
    stats = TamperStats()
    failures: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:

        @settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(st.data())
        def run(data: st.DataObject) -> None:
            i = data.draw(st.integers(0, len(trees) - 1))
            if flipped[i] and data.draw(st.integers(0, 3)) == 0:
                description, tampered = data.draw(st.sampled_from(flipped[i]))
            else:
                description, tampered = data.draw(mutation(trees[i]))
            try:
                check_tampered(game, twin, tampered, f"{label(name, options)}: {description}", stats)
            except AssertionError as exc:
                failures.append(str(exc))

        run()
    return stats, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0, help="total time budget (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="which positions to start from")
    args = parser.parse_args()
    configs = all_configurations()
    share = args.minutes * 60 / len(configs)
    mode = "compiled core against its pure twin" if cruiselib.compiled else "pure core"
    print(f"tamper fuzzing, {mode}, {share:.0f} s per configuration")
    total_failures = 0
    for name, options in configs:
        stats, failures = campaign(name, options, share, args.seed)
        print(
            f"{label(name, options)}: {stats.tried} mutations, {stats.refused} refused, {stats.accepted} accepted "
            f"and played out ({stats.actions_played} actions), {len(failures)} failures"
        )
        for reason, count in sorted(stats.reasons.items(), key=lambda kv: -kv[1])[:5]:
            print(f"    refused x{count}: {reason}")
        for failure in sorted(set(failures))[:20]:
            print(f"    FAILURE: {failure}")
        total_failures += len(failures)
    return 1 if total_failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
