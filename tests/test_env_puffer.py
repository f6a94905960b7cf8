"""The PufferLib 3.0 native environment over BatchEnv (cruiselib.envs.puffer).

The buffer logic is tested everywhere (the class runs without PufferLib, on buffers of
its own); PufferLib's own vectorization (Serial, Multiprocessing, native) over it where
PufferLib is installed. PufferLib 3.0 pins ``gymnasium<=0.29.1``, so those tests run in a
venv of their own (docs/rl.md, "PufferLib"):

    python3 -m venv /tmp/venv-puffer && . /tmp/venv-puffer/bin/activate
    pip install -e '.[test]' && (PufferLib's install, docs/rl.md)
    python -m pytest tests/test_env_puffer.py
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib.envs.batch import BatchEnv
from tests.support import one_per_game

pytest.importorskip("gymnasium", reason="the spaces are gymnasium's (any version; PufferLib 3.0 brings 0.29)")


@contextmanager
def _elsewhere() -> Iterator[None]:
    """Run in a scratch directory: importing PufferLib links its resources into the working
    directory, and the checkout is no place for that."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            yield
        finally:
            os.chdir(here)


with _elsewhere():
    from cruiselib.envs.puffer import GamePufferEnv, puffer_env

ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]


def _legal(observations: npt.NDArray[np.float32], env: GamePufferEnv) -> npt.NDArray[np.int32]:
    """The lowest legal action of each row, read from the mask in the observation."""
    assert env.mask_slice is not None
    return np.asarray(observations[:, env.mask_slice].argmax(axis=1), dtype=np.int32)


@pytest.fixture
def pufferlib() -> Any:
    with _elsewhere():
        return pytest.importorskip("pufferlib", reason="PufferLib 3.0 (docs/rl.md: a venv of its own)")


# ---------------------------------------------------------------------- everywhere


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_buffers_follow_a_same_step_batch(name: str, options: dict[str, Any]) -> None:
    """Every buffer is what a same-step BatchEnv of the same deals shows: the game's tensor,
    then the mask; the learner's rewards; the end flags; the agents all acting."""
    env = puffer_env(name, 4, seed=3, **options)
    reference = BatchEnv(name, 4, seed=12, autoreset="same_step", learner=0, opponents="random", **options)
    size = env.observation_size
    observations, infos = env.reset(seed=3)  # games 3 * 4 + i
    assert infos == [] and observations is env.observations
    assert observations.shape == (4, size + env.game.num_actions) == (4, *env.single_observation_space.shape)
    assert env.single_action_space.n == env.game.num_actions and env.num_agents == 4 and env.masks.all()
    ended = 0
    for _ in range(200):
        np.testing.assert_array_equal(observations[:, :size], reference.observations)
        np.testing.assert_array_equal(observations[:, env.mask_slice], reference.action_masks)
        assert env.single_observation_space.contains(observations[0])
        actions = _legal(observations, env)
        observations, rewards, terminals, truncations, _ = env.step(actions)
        step = reference.step(actions)
        np.testing.assert_array_equal(rewards, step.rewards[:, 0])
        np.testing.assert_array_equal(terminals, step.terminated)
        np.testing.assert_array_equal(truncations, step.truncated)
        assert rewards.dtype == np.float32 and terminals.dtype == np.bool_
        ended += int(terminals.sum())
    assert ended > 0


def test_without_the_mask_the_core_writes_the_buffers_itself() -> None:
    name, options = ONE_PER_GAME[0]
    env = GamePufferEnv(name, 3, mask_in_observation=False, **options)
    assert env.mask_slice is None and env.single_observation_space.shape == (env.observation_size,)
    assert env.batch.observations is env.observations
    assert env.batch.terminated is env.terminals and env.batch.truncated is env.truncations
    env.step(env.batch.sample_actions())
    np.testing.assert_array_equal(env.action_masks, env.batch.action_masks)


def test_given_buffers_are_written_in_place_and_views_are_copied_into() -> None:
    """PufferLib hands each env rows of its shared arrays: contiguous rows are the core's own
    buffers; anything else (here strided terminals) is copied into after each step."""
    name, options = ONE_PER_GAME[0]
    game = cruiselib.make(name, **options)
    n, size = 2, game.observation_shape[0]
    rows: dict[str, npt.NDArray[Any]] = {
        "observations": np.zeros((n + 1, size), np.float32)[1:],
        "rewards": np.zeros(n, np.float32),
        "terminals": np.zeros(2 * n, np.bool_)[::2],
        "truncations": np.zeros(n, np.bool_),
        "masks": np.zeros(n, np.bool_),
        "actions": np.zeros(n, np.int32),
    }
    env = GamePufferEnv(game, n, mask_in_observation=False, buf=rows, seed=1)
    assert env.observations is rows["observations"] and env.batch.observations is rows["observations"]
    assert env.batch.terminated is not rows["terminals"] and rows["masks"].all()
    reference = BatchEnv(game, n, seed=2, autoreset="same_step", learner=0, opponents="random")
    for _ in range(300):
        actions = reference.sample_actions()
        np.testing.assert_array_equal(env.batch.sample_actions(), actions)  # both streams drawn
        env.step(actions)
        step = reference.step(actions)
        np.testing.assert_array_equal(rows["terminals"], step.terminated)
        np.testing.assert_array_equal(rows["observations"], step.observations)
    with pytest.raises(InvalidOptionError, match="buf lacks"):
        GamePufferEnv(game, n, buf={"observations": rows["observations"]})
    bad = dict(rows, rewards=np.zeros(n, np.float64))
    with pytest.raises(InvalidOptionError, match="rewards"):
        GamePufferEnv(game, n, mask_in_observation=False, buf=bad)


def test_seeds_give_disjoint_deals() -> None:
    name, options = ONE_PER_GAME[0]
    envs = [GamePufferEnv(name, 3, seed=seed, **options) for seed in (0, 1)]
    deals = [set(env.batch.deal_states.tolist()) for env in envs]
    assert not deals[0] & deals[1]
    seed_state = cruiselib._core.load("rng").seed_state
    assert deals[1] == {int(seed_state(3 + i)) for i in range(3)}
    again = GamePufferEnv(name, 3, seed=None, **options)
    again.reset(seed=1)
    assert set(again.batch.deal_states.tolist()) == deals[1]


def test_logs_every_interval_and_illegal_actions_lose() -> None:
    name, options = ONE_PER_GAME[0]
    env = GamePufferEnv(name, 4, seed=0, log_interval=2, **options)
    illegal = np.array([int(np.flatnonzero(row == 0)[0]) for row in env.action_masks], np.int32)
    _, rewards, terminals, _, infos = env.step(illegal)
    assert terminals.all() and (rewards == -1).all() and infos == []
    _, _, _, _, infos = env.step(_legal(env.observations, env))
    assert infos == [
        {"episode_return": -1.0, "episode_length": 1.0, "win_rate": 0.0, "illegal_rate": 1.0, "episodes": 4.0}
    ]
    raising = GamePufferEnv(name, 4, seed=0, illegal_action="raise", **options)
    with pytest.raises(IllegalMoveError, match="env 0"):
        raising.step(illegal)
    substituting = GamePufferEnv(name, 4, seed=0, illegal_action="random", **options)
    _, _, terminals, _, _ = substituting.step(illegal)
    assert substituting.batch.illegal_actions.all() and not terminals.any()


def test_render_and_bad_options() -> None:
    name, options = ONE_PER_GAME[0]
    env = GamePufferEnv(name, 2, render_mode="ansi", **options)
    assert env.render() == env.game.render(env.batch.state(0))
    if _has("PIL"):
        picture = GamePufferEnv(name, 1, render_mode="rgb_array", **options).render()
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8 and picture.shape[2] == 3
    bad: dict[str, Any]
    for bad in ({"num_envs": 0}, {"log_interval": 0}, {"mask_in_observation": 1}, {"render_mode": "video"}):
        with pytest.raises(InvalidOptionError):
            GamePufferEnv(name, **{"num_envs": 2, **bad, **options})
    with pytest.raises(InvalidOptionError):
        GamePufferEnv(name, 2, opponents="rules", **options)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="seed"):
        env.reset(seed="x")  # type: ignore[arg-type]
    env.close()


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------------- with PufferLib


def _play(vecenv: Any, steps: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """``steps`` steps of the lowest legal action everywhere, the mask read from the
    observations; the observations seen and the infos logged."""
    observations, _ = vecenv.reset(seed=0)
    driver = vecenv.driver_env
    seen, logged = [observations.copy()], []
    for _ in range(steps):
        observations, rewards, terminals, truncations, infos = vecenv.step(_legal(observations, driver))
        assert rewards.shape == terminals.shape == truncations.shape == (vecenv.num_agents,)
        seen.append(observations.copy())
        logged += infos
    return seen, logged


def test_pufferlib_serial_and_multiprocessing(pufferlib: Any) -> None:
    import pufferlib.vector as vector  # type: ignore[import-not-found,unused-ignore]

    name, options = ONE_PER_GAME[-1]
    kwargs = {"game": name, "num_envs": 8, "log_interval": 50, **options}
    serial = vector.make(GamePufferEnv, env_kwargs=kwargs, num_envs=2, backend=vector.Serial, seed=0)
    assert serial.num_agents == 16 and isinstance(serial.driver_env, pufferlib.PufferEnv)
    seen, logged = _play(serial, 200)
    serial.close()
    assert logged and all(info["episodes"] > 0 and -1 <= info["episode_return"] <= 1 for info in logged)
    processes = vector.make(
        GamePufferEnv, env_kwargs=kwargs, num_envs=2, backend=vector.Multiprocessing, num_workers=2, overwork=True
    )
    try:
        seen_there, logged_there = _play(processes, 200)
    finally:
        processes.close()
    for here, there in zip(seen, seen_there, strict=True):  # the same seeds: the same games
        np.testing.assert_array_equal(here, there)
    assert logged_there == logged


def test_pufferlib_native_vectorization(pufferlib: Any) -> None:
    import pufferlib.vector as vector  # type: ignore[import-not-found,unused-ignore]

    name, options = ONE_PER_GAME[0]
    env = vector.make(GamePufferEnv, env_kwargs={"game": name, "num_envs": 16, **options}, backend=pufferlib.PufferEnv)
    assert isinstance(env, GamePufferEnv) and env.action_space.shape == (16,)
    assert env.observation_space.shape == (16, *env.single_observation_space.shape)
    observations, _ = env.reset(seed=0)
    env.async_reset(0)
    env.send(_legal(observations, env))
    received = env.recv()
    assert received[0] is env.observations and received[-1].all()
    env.close()
