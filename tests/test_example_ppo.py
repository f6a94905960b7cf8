"""examples/train_ppo.py: its numpy helpers (GAE over each seat's decisions, legal pairs,
Wilson intervals) everywhere, and where torch is installed a run of a few hundred steps
that exports weights the policy bot plays, the same for the same seed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import cruiselib
from cruiselib.bots.policy import from_file
from cruiselib.errors import InvalidOptionError
from tests.support import ANY_GAME, player_counts

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_ppo.py"
pytestmark = pytest.mark.skipif(not SCRIPT.is_file(), reason="needs examples/ (not among a wheel's test sources)")


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_helpers_import_without_torch() -> None:
    # sys.modules[name] = None makes any import of that name fail, as if not installed.
    code = (
        "import runpy, sys\n"
        "sys.modules['torch'] = None\n"
        f"module = runpy.run_path({str(SCRIPT)!r})\n"
        "print(module['torch'], module['wilson_interval'](50, 100))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("None (0.403")


def test_wilson_interval(example: ModuleType) -> None:
    assert example.wilson_interval(957, 1000) == pytest.approx((0.94258, 0.96792), abs=1e-5)
    with pytest.raises(InvalidOptionError, match="Wilson"):
        example.wilson_interval(3, 2)


def test_legal_pairs_flatten_the_padded_ids(example: ModuleType) -> None:
    ids = np.array([[3, 7, -1], [1, 2, 5], [4, -1, -1]], np.int32)
    counts = np.array([2, 3, 1], np.int32)
    rows, flat = example.legal_pairs(ids, counts)
    assert rows.tolist() == [0, 0, 1, 1, 1, 2] and flat.tolist() == [3, 7, 1, 2, 5, 4]
    cols, got = example.columns(rows, 3)
    assert cols.tolist() == [0, 1, 0, 1, 2, 0] and got.tolist() == [2, 3, 1]


def _rollout(example: ModuleType, seats: list[int], ended_at: int | None, rewards: list[float]) -> object:
    steps = len(seats)
    r = example.Rollout(
        observations=np.zeros((steps, 1, 1), np.float32),
        learn=np.ones((steps, 1), np.bool_),
        seats=np.array(seats, np.int64)[:, None],
        values=(np.arange(1, steps + 1, dtype=np.float32) / 10)[:, None],
        logps=np.zeros((steps, 1), np.float32),
        choices=np.zeros((steps, 1), np.int64),
        pair_starts=np.zeros((steps, 1), np.int64),
        pair_counts=np.ones((steps, 1), np.int64),
        rewards=np.zeros((steps, 1, 2), np.float32),
        ended=np.zeros((steps, 1), np.bool_),
    )
    if ended_at is not None:
        r.ended[ended_at, 0] = True
        r.rewards[ended_at, 0] = rewards
    r.last_values = np.array([0.9], np.float32)
    r.last_seats = np.array([0], np.int64)
    r.last_learn = np.array([True])
    return r


def test_gae_follows_each_seats_own_decisions(example: ModuleType) -> None:
    # Seats 0, 1, 0, 1 in one game that ends on the last move, seat 0 winning: with
    # gamma = lambda = 1 every decision's return is its seat's result, whoever moved last.
    r = _rollout(example, [0, 1, 0, 1], ended_at=3, rewards=[1.0, -1.0])
    adv, ret = example.advantages(r, 2, 1.0, 1.0)
    assert ret[:, 0].tolist() == pytest.approx([1.0, -1.0, 1.0, -1.0])
    assert adv[:, 0].tolist() == pytest.approx([0.9, -1.2, 0.7, -1.4])
    # lambda = 0: one-step targets, each decision's from its seat's next decision.
    adv, ret = example.advantages(r, 2, 1.0, 0.0)
    assert ret[:, 0].tolist() == pytest.approx([0.3, 0.4, 1.0, -1.0])
    # A game still going at the end of the rollout: the seat to act there bootstraps from
    # its value (0.9), the other seat's last decision from its own value (no advantage).
    r = _rollout(example, [0, 1, 0, 1], ended_at=None, rewards=[0, 0])
    adv, ret = example.advantages(r, 2, 1.0, 1.0)
    assert ret[:, 0].tolist() == pytest.approx([0.9, 0.4, 0.9, 0.4])


def test_gae_starts_afresh_after_a_game_ends(example: ModuleType) -> None:
    # The game ends at step 1 (seat 1 wins); steps 2 and 3 are the next game's.
    r = _rollout(example, [0, 1, 1, 0], ended_at=1, rewards=[-1.0, 1.0])
    _, ret = example.advantages(r, 2, 1.0, 1.0)
    assert ret[:2, 0].tolist() == pytest.approx([-1.0, 1.0])
    assert ret[3, 0] == pytest.approx(0.9)  # seat 0 to act at the end: bootstrapped


def test_a_short_run_trains_exports_and_reproduces(example: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    game = cruiselib.make(ANY_GAME, **({"players": 2} if len(player_counts(ANY_GAME)) > 1 else {}))
    argv = [
        "--game", ANY_GAME, "--players", str(game.num_players), "--steps", "400", "--envs", "16",
        "--rollout", "8", "--minibatch", "64", "--opponent-steps", "150", "--league-share", "0.5",
        "--snapshot-every", "1", "--hidden", "16", "--head", "8", "--eval-every", "200", "--eval-games", "6",
        "--eval-rules", "2", "--seed", "3", "--quiet",
    ]  # fmt: skip
    first = example.main([*argv, "--export", str(tmp_path / "a.npz"), "--curve", str(tmp_path / "curve.csv")])
    assert first["learner_steps"] >= 400 and first["steps_per_second"] > 0
    assert first["random"].games == 6 and first["rules"].games == 2
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0].startswith("steps,seconds,") and len(lines) >= 3  # a header and two evaluations
    example.main([*argv, "--export", str(tmp_path / "b.npz")])
    a, b = np.load(tmp_path / "a.npz"), np.load(tmp_path / "b.npz")
    assert sorted(a.files) == sorted(b.files)
    for name in a.files:
        if name != "meta":
            assert np.array_equal(a[name], b[name]), name  # the same seed, the same weights
    bot = from_file(tmp_path / "a.npz", seed=0)
    state = game.new_state(seed=1)
    while not state.is_over:
        state.apply(bot.choose(state))
    assert bot.network(game).meta["steps"] == first["learner_steps"]
