"""examples/train_sirens_ppo.py: its evaluation helpers (no torch needed) and, where
sb3-contrib is installed, a tiny run of the whole script."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from cruiselib.errors import InvalidOptionError

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_sirens_ppo.py"
pytestmark = pytest.mark.skipif(not SCRIPT.is_file(), reason="needs examples/ (not among a wheel's test sources)")


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_sirens_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


# The bounds are the roots p of (k/n - p)^2 n = z^2 p (1 - p), solved apart from the example.
@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (50, 100, 0.40383, 0.59617),
        (0, 10, 0.0, 0.27753),  # z^2 / (n + z^2): the interval does not collapse at 0
        (10, 10, 0.72247, 1.0),
        (957, 1000, 0.94258, 0.96792),
        (1, 1, 0.20655, 1.0),
    ],
)
def test_wilson_interval_on_known_values(
    example: ModuleType, successes: int, trials: int, low: float, high: float
) -> None:
    got = example.wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-5)


@pytest.mark.parametrize(("successes", "trials"), [(0, 0), (-1, 10), (11, 10)])
def test_wilson_interval_refuses_impossible_counts(example: ModuleType, successes: int, trials: int) -> None:
    with pytest.raises(InvalidOptionError, match="Wilson"):
        example.wilson_interval(successes, trials)


def test_a_record_counts_draws_as_games_but_not_wins(example: ModuleType) -> None:
    record = example.Record(wins=6, draws=2, losses=2)
    assert record.games == 10 and record.win_rate == 0.6
    assert record.interval() == example.wilson_interval(6, 10)
    assert record.describe().startswith("win rate 0.600 (95% CI 0.313-0.832) over 10 games: 6 won, 2 drawn")


def test_the_helpers_import_without_torch() -> None:
    # sys.modules[name] = None makes any import of that name fail, as if not installed.
    code = (
        "import runpy, sys\n"
        "for name in ('torch', 'stable_baselines3', 'sb3_contrib'): sys.modules[name] = None\n"
        f"module = runpy.run_path({str(SCRIPT)!r})\n"
        "print(module['wilson_interval'](50, 100))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("(0.403")


def test_evaluation_alternates_the_seat_and_reproduces(example: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")
    dealt_to: list[int] = []  # the learner's seat, at each deal
    real_gym_env = example.gym_env

    def recording_gym_env(*args: Any, seat: int, **kwargs: Any) -> Any:
        env = real_gym_env(*args, seat=seat, **kwargs)
        real_reset = env.reset

        def reset(**options: Any) -> Any:
            dealt_to.append(seat)
            return real_reset(**options)

        env.reset = reset
        return env

    def first_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        return int(mask.argmax())

    monkeypatch.setattr(example, "gym_env", recording_gym_env)
    record = example.evaluate(first_legal, 6, seed=3)
    assert dealt_to == [0, 1, 0, 1, 0, 1]
    assert record.games == 6
    monkeypatch.undo()
    assert example.evaluate(example.random_policy(4), 40, seed=3) == example.evaluate(
        example.random_policy(4), 40, seed=3
    )
    with pytest.raises(InvalidOptionError, match="at least one game"):
        example.evaluate(first_legal, 0, seed=3)


def test_the_script_trains_evaluates_and_prints_win_rates_reproducibly(
    example: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    argv = ["--timesteps", "512", "--eval-games", "10", "--seed", "1", "--envs", "2"]
    first = example.main([*argv, "--save", str(tmp_path / "model.zip")])
    out = capsys.readouterr().out
    assert (tmp_path / "model.zip").is_file()
    assert first["trained"].games == 10 and first["random"].games == 10
    lines = out.splitlines()
    assert lines[0].startswith("trained ") and "steps/s" in lines[0]
    assert lines[-2].startswith("trained policy vs random bot: win rate ")
    assert lines[-1].startswith("random player  vs random bot: win rate ")
    second = example.main(argv)
    assert second == first  # the same seed trains the same policy, which plays the same games
