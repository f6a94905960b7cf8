"""Stable-Baselines3's VecEnv over BatchEnv (cruiselib.envs.sb3): sb3-contrib's MaskablePPO
learns over it with no glue in every game, SB3's autoreset contract (terminal_observation,
TimeLimit.truncated), the masks, seeding, the per-env attributes and methods, SB3's own
vector wrappers, and ``make_vec_env`` over the registered Gymnasium ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib.envs import BatchEnv
from cruiselib.envs.aec import env_id
from tests.support import one_per_game

pytest.importorskip("stable_baselines3", reason="needs Stable-Baselines3: pip install stable-baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs sb3-contrib: pip install sb3-contrib")
torch = pytest.importorskip("torch")

# Neither is among cruiselib's extras: the ignores keep mypy clean on an install without them.
from sb3_contrib import MaskablePPO  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
from sb3_contrib.common.maskable.evaluation import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    evaluate_policy,
)
from sb3_contrib.common.maskable.utils import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    get_action_masks,
    is_masking_supported,
)
from stable_baselines3.common.env_util import make_vec_env  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
from stable_baselines3.common.vec_env import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    VecCheckNan,
    VecEnv,
    VecMonitor,
)

from cruiselib.envs.sb3 import GameSB3VecEnv, sb3_vec_env  # noqa: E402

ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]
# Tiny PPO settings: a rollout of 32 steps per env, one epoch of minibatches of 64.
TINY: dict[str, Any] = {"n_steps": 32, "batch_size": 64, "n_epochs": 1, "seed": 0, "device": "cpu"}


@pytest.fixture(autouse=True)
def _one_torch_thread() -> Any:
    """One torch thread: the machines are small and shared (two threads spin against each other)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_maskable_ppo_learns_with_no_glue(name: str, options: dict[str, Any]) -> None:
    envs = sb3_vec_env(name, 8, opponents="random", seed=0, **options)
    assert isinstance(envs, VecEnv) and is_masking_supported(envs)
    model = MaskablePPO("MlpPolicy", envs, **TINY).learn(256)
    assert model.num_timesteps == 256
    observations = envs.reset()
    masks = get_action_masks(envs)
    assert masks.shape == (8, envs.action_space.n)
    actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
    assert masks[np.arange(8), actions].all()
    envs.step(actions)  # legal: no IllegalMoveError
    envs.close()


def test_maskable_evaluation_over_a_monitored_vec_env() -> None:
    name, options = ONE_PER_GAME[-1]
    envs = VecMonitor(sb3_vec_env(name, 4, seed=1, **options))
    model = MaskablePPO("MlpPolicy", envs, **TINY).learn(128)
    rewards, lengths = evaluate_policy(model, envs, n_eval_episodes=4, return_episode_rewards=True)
    assert isinstance(rewards, list) and isinstance(lengths, list)
    assert len(rewards) == 4 and set(rewards) <= {-1.0, 0.0, 1.0}
    assert all(length >= 1 for length in lengths)


def test_reset_returns_observations_and_steps_follow_sb3_autoreset() -> None:
    """The step that ends a game returns done, the reward, the new game's first observation,
    and the ended game's last in ``terminal_observation``: the observation a next-step
    BatchEnv on the same seed shows that step, and whose next step shows the new game."""
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 3, seed=5, **options)
    reference = BatchEnv(name, 3, seed=5, learner=0, opponents="random", **options)
    observations = envs.reset()
    assert isinstance(observations, np.ndarray) and observations.dtype == np.float32
    assert observations.shape == (3, *envs.observation_space.shape)
    np.testing.assert_array_equal(observations, reference.observations)
    for _ in range(3000):
        actions = reference.sample_actions()  # both draw, so both choice streams stay in step
        np.testing.assert_array_equal(envs.batch.sample_actions(), actions)
        observations, rewards, dones, infos = envs.step(actions)
        step = reference.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 3
        np.testing.assert_array_equal(dones, step.terminated)
        np.testing.assert_array_equal(rewards, step.rewards[:, 0])
        for i in range(3):
            assert ("terminal_observation" in infos[i]) == bool(dones[i])
        if dones.any():
            done = int(np.flatnonzero(dones)[0])
            np.testing.assert_array_equal(infos[done]["terminal_observation"], step.observations[done])
            assert infos[done]["TimeLimit.truncated"] is False
            assert rewards[done] != 0 or cruiselib.make(name, **options).draws_possible
            step = reference.step(reference.sample_actions())  # next-step: this one deals the new game
            np.testing.assert_array_equal(observations[done], step.observations[done])
            assert envs.action_masks()[done].any()  # already the learner's turn in the new game
            return
    pytest.fail("no game ended")


def test_max_steps_is_a_truncation() -> None:
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 2, seed=2, max_steps=2, **options)
    envs.reset()
    for _ in range(4):
        _, rewards, dones, infos = envs.step(envs.batch.sample_actions())
        if dones.any():
            for i in np.flatnonzero(dones):
                assert infos[i]["TimeLimit.truncated"] is True and rewards[i] == 0
                assert infos[i]["terminal_observation"].shape == envs.observation_space.shape
            return
    pytest.fail("max_steps cut no game")


def test_masks_every_way_sb3_contrib_reads_them() -> None:
    name, options = ONE_PER_GAME[1]
    envs = sb3_vec_env(name, 4, seed=3, **options)
    envs.reset()
    masks = envs.action_masks()
    assert masks.dtype == np.int8 and masks.shape == (4, envs.action_space.n)
    np.testing.assert_array_equal(masks, envs.batch.action_masks)
    np.testing.assert_array_equal(np.stack(envs.env_method("action_masks")), masks)
    np.testing.assert_array_equal(get_action_masks(VecMonitor(envs)), masks)
    np.testing.assert_array_equal(np.stack(envs.env_method("action_masks", indices=[2, 0])), masks[[2, 0]])
    np.testing.assert_array_equal(envs.get_attr("action_masks", 1)[0](), masks[1])
    for i in range(4):
        assert set(np.flatnonzero(masks[i]).tolist()) == set(envs.get_attr("game_state", i)[0].legal_actions())
    masks[:] = 0  # a copy: the env's masks are untouched
    assert envs.action_masks().any()


def test_seeding_as_sb3_algorithms_do() -> None:
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 3, seed=7, **options)
    first = envs.reset()  # the constructor's seed: env i is new_state(7 + i)
    np.testing.assert_array_equal(
        first, BatchEnv(name, 3, seed=7, learner=0, opponents="random", **options).observations
    )
    assert envs.seed(7) == [7, 8, 9]
    np.testing.assert_array_equal(envs.reset(), first)
    deals = [envs.get_attr("deal_state", i)[0] for i in range(3)]
    game = cruiselib.make(name, **options)
    assert deals == [int(cruiselib._core.load("rng").seed_state(7 + i)) for i in range(3)]
    assert game.state_from_seed_state(deals[0]).to_json() == game.new_state(7).to_json()
    envs.reset()  # seeds apply once: fresh deals now
    assert [envs.get_attr("deal_state", i)[0] for i in range(3)] != deals
    envs.set_options({"reset_mask": [True, False, True]})
    with pytest.raises(InvalidOptionError, match="no reset options"):
        envs.reset()


def test_attributes_methods_and_wrappers() -> None:
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 3, seat=1, seed=4, render_mode="ansi", **options)
    envs.reset()
    assert envs.get_attr("seat") == [1, 1, 1] and envs.get_attr("render_mode") == ["ansi"] * 3
    assert envs.render_mode == "ansi" and envs.metadata["render_modes"] == ["ansi"]
    assert envs.get_attr("game")[0] is envs.game and envs.get_attr("index", [2, 0]) == [2, 0]
    assert envs.get_attr("illegal_action", 0) == ["raise"]
    texts = envs.env_method("render", indices=[0, 2])
    state = envs.get_attr("game_state", 0)[0]
    assert texts[0] == envs.game.render(state) and isinstance(texts[1], str)
    assert envs.has_attr("action_masks") and not envs.has_attr("no_such_thing")
    with pytest.raises(AttributeError):
        envs.get_attr("no_such_thing")
    envs.set_attr("level", 3, indices=[1])
    assert envs.get_attr("level", 1) == [3]
    with pytest.raises(InvalidOptionError, match="the batch's configuration"):
        envs.set_attr("seat", 0)
    with pytest.raises(InvalidOptionError, match="env index"):
        envs.get_attr("seat", 3)
    assert envs.env_is_wrapped(Monitor) == [False] * 3
    checked = VecCheckNan(VecMonitor(envs), raise_exception=True)
    checked.reset()
    episodes = 0
    for _ in range(2000):
        _, _, dones, infos = checked.step(envs.batch.sample_actions())
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["r"] in (-1.0, 0.0, 1.0) and infos[i]["episode"]["l"] >= 1
            episodes += 1
        if episodes >= 2:
            break
    assert episodes >= 2
    checked.close()


def test_rgb_array_pictures_tile() -> None:
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 2, seed=4, render_mode="rgb_array", **options)
    envs.reset()
    assert envs.metadata["render_modes"] == ["human", "rgb_array"]
    first, second = envs.get_images()
    assert first is not None and second is not None
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape == second.shape
    tiled = envs.render()
    assert tiled is not None and tiled.shape[2] == 3 and tiled.size >= 2 * first.size


def test_illegal_actions_raise_or_lose() -> None:
    name, options = ONE_PER_GAME[0]
    envs = sb3_vec_env(name, 2, seed=1, **options)
    envs.reset()
    illegal = np.array([int(np.flatnonzero(row == 0)[0]) for row in envs.action_masks()])
    with pytest.raises(IllegalMoveError, match="env 0"):
        envs.step(illegal)
    losing = sb3_vec_env(name, 2, seed=1, illegal_action="lose", **options)
    losing.reset()
    _, rewards, dones, infos = losing.step(illegal)
    assert dones.all() and (rewards == -1).all()
    assert all(info["illegal_action"] and "terminal_observation" in info for info in infos)
    with pytest.raises(InvalidOptionError, match="illegal_action"):
        sb3_vec_env(name, 2, illegal_action="ignore", **options)  # type: ignore[arg-type]


def test_bad_options_are_refused() -> None:
    name, options = ONE_PER_GAME[0]
    with pytest.raises(InvalidOptionError, match="learner"):
        GameSB3VecEnv(BatchEnv(name, 2, autoreset="same_step", **options))
    with pytest.raises(InvalidOptionError, match="same_step"):
        GameSB3VecEnv(BatchEnv(name, 2, learner=0, opponents="random", **options))
    with pytest.raises(InvalidOptionError, match="seed"):
        sb3_vec_env(name, 2, seed="abc", **options)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="render_mode"):
        sb3_vec_env(name, 2, render_mode="video", **options)
    with pytest.raises(InvalidOptionError):
        sb3_vec_env(name, 2, opponents="rules", **options)  # type: ignore[arg-type]
    envs = sb3_vec_env(name, 2, **options)
    with pytest.raises(InvalidOptionError, match="step_async"):
        envs.step_wait()


def test_make_vec_env_over_the_gymnasium_id() -> None:
    """SB3's own ``make_vec_env`` with the registered id (it asks for ``render_mode="rgb_array"``),
    and MaskablePPO over the DummyVecEnv it makes."""
    name, options = ONE_PER_GAME[0]
    envs = make_vec_env(env_id(name), n_envs=2, seed=0, env_kwargs={"opponents": "random", **options})
    assert envs.render_mode == "rgb_array" and is_masking_supported(envs)
    model = MaskablePPO("MlpPolicy", envs, **TINY).learn(64)
    assert model.num_timesteps == 64
