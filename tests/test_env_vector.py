"""The Gymnasium vector environment over BatchEnv: spaces, autoreset modes as Gymnasium 1.x
defines them, seeding, self-play rewards, illegal actions (raised, lost or replaced), and
Gymnasium's own vector wrappers over it."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from tests.support import CONFIGURATION_IDS, CONFIGURATIONS, one_per_game

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode  # noqa: E402

from cruiselib.envs import vector_env  # noqa: E402

ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_random_play_stays_in_the_spaces(name: str, options: dict[str, Any]) -> None:
    envs = vector_env(name, 6, seed=2, **options)
    observations, infos = envs.reset(seed=5)
    assert envs.observation_space.contains(observations)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    ended = 0
    for _ in range(400):
        actions = envs.sample_actions()
        assert envs.action_space.contains(actions)
        live = infos["seat"] >= 0  # an ended env's action is ignored (next-step autoreset)
        assert infos["action_mask"][np.arange(6), actions][live].all()
        observations, rewards, terminated, _truncated, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
        assert rewards.dtype == np.float32 and terminated.dtype == np.bool_
        ended += int(terminated.sum())
        # The learner (seat 0) is the only one ever asked to act.
        assert set(infos["seat"].tolist()) <= {0, -1}
    assert ended > 0
    envs.close()


def test_next_step_autoreset_as_gymnasium_defines_it() -> None:
    """The step after a terminal one resets that env: reward 0, not terminated, its action
    ignored (any int), the new game's first observation."""
    name, options = ONE_PER_GAME[0]
    envs = vector_env(name, 3, seed=1, **options)
    envs.reset(seed=1)
    while True:
        observations, rewards, terminated, _truncated, infos = envs.step(envs.sample_actions())
        if terminated.any():
            break
    done = int(np.flatnonzero(terminated)[0])
    assert rewards[done] != 0 or cruiselib.make(name, **options).draws_possible
    actions = envs.sample_actions()
    actions[done] = 10**6  # ignored: this step deals the next game
    deals_before = envs.batch.deal_states
    observations, rewards, terminated, _truncated, infos = envs.step(actions)
    assert rewards[done] == 0 and not terminated[done] and infos["seat"][done] == 0
    assert envs.batch.deal_states[done] != deals_before[done]
    np.testing.assert_array_equal(observations[done], envs.batch.state(done).observation(0))


def test_same_step_autoreset_reports_the_final_observation() -> None:
    name, options = ONE_PER_GAME[0]
    envs = vector_env(name, 3, seed=1, autoreset="same_step", **options)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    envs.reset(seed=1)
    for _ in range(3000):
        observations, _rewards, terminated, truncated, infos = envs.step(envs.sample_actions())
        np.testing.assert_array_equal(infos["_final_obs"], terminated | truncated)
        if terminated.any():
            done = int(np.flatnonzero(terminated)[0])
            assert not np.array_equal(infos["final_obs"][done], observations[done])
            assert infos["seat"][done] == 0  # already the next game's turn
            return
    pytest.fail("no game ended")


def test_disabled_autoreset_resets_by_mask() -> None:
    name, options = ONE_PER_GAME[0]
    envs = vector_env(name, 3, seed=1, autoreset="disabled", **options)
    envs.reset(seed=1)
    terminated = np.zeros(3, bool)
    while not terminated.any():
        _, _, terminated, _, _ = envs.step(envs.sample_actions())
    with pytest.raises(IllegalMoveError, match="has ended"):
        envs.step(envs.sample_actions())
    _observations, infos = envs.reset(options={"reset_mask": terminated})
    assert (infos["seat"] == 0).all()
    with pytest.raises(InvalidOptionError, match="unknown reset options"):
        envs.reset(options={"mask": terminated})


def test_self_play_rewards_go_to_the_seat_that_acted() -> None:
    name, options = next((n, o) for n, o in CONFIGURATIONS if cruiselib.make(n, **o).num_players == 2)
    envs = vector_env(name, 4, seat=None, seed=3, **options)
    _, infos = envs.reset(seed=3)
    for _ in range(5000):
        acting = infos["seat"].copy()
        _, rewards, terminated, _, infos = envs.step(envs.sample_actions())
        if terminated.any():
            for i in np.flatnonzero(terminated):
                assert rewards[i] == infos["rewards"][i, acting[i]]
                assert infos["rewards"][i].sum() == 0  # two seats: one wins, one loses (or a draw)
            return
    pytest.fail("no game ended")


def test_copies_do_not_alias_and_buffers_do() -> None:
    name, options = ONE_PER_GAME[0]
    copied = vector_env(name, 2, seed=4, **options)
    first, _ = copied.reset(seed=4)
    kept = first.copy()
    copied.step(copied.sample_actions())
    np.testing.assert_array_equal(first, kept)
    shared = vector_env(name, 2, seed=4, copy=False, **options)
    observations, _ = shared.reset(seed=4)
    assert observations is shared.batch.observations
    with pytest.raises(InvalidOptionError):
        vector_env(name, 2, copy="yes", **options)  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_run() -> None:
    name, options = ONE_PER_GAME[-1]
    runs = []
    for _ in range(2):
        envs = vector_env(name, 4, opponents="rollout", **options)
        observations, _ = envs.reset(seed=[10, 11, 12, 13])
        trace = [observations]
        for _ in range(50):
            observations, rewards, *_ = envs.step(envs.sample_actions())
            trace += [observations, rewards]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_gymnasium_vector_wrappers_run_over_it() -> None:
    """Gymnasium's episode statistics wrapper reads the autoreset mode and the flags."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    name, options = ONE_PER_GAME[0]
    inner = vector_env(name, 4, seed=1, **options)
    envs = RecordEpisodeStatistics(inner)
    envs.reset(seed=1)
    for _ in range(3000):
        _, _, terminated, _, infos = envs.step(inner.sample_actions())
        if terminated.any():
            assert "episode" in infos
            i = int(np.flatnonzero(terminated)[0])
            assert infos["episode"]["l"][i] > 0 and infos["episode"]["r"][i] in (-1.0, 0.0, 1.0)
            return
    pytest.fail("no game ended")


def illegal_in(masks: npt.NDArray[np.int8], which: list[int], actions: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``actions`` with an illegal action (in range) in the envs ``which``."""
    out: npt.NDArray[np.int64] = actions.copy()
    for i in which:
        out[i] = int(np.flatnonzero(masks[i] == 0)[0])
    return out


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_illegal_actions_lose_or_are_replaced_when_asked(name: str, options: dict[str, Any]) -> None:
    for seat in (0, None):  # a learner against the core's opponents, and self-play
        raising = vector_env(name, 3, seat=seat, seed=6, **options)
        _, infos = raising.reset(seed=6)
        assert not infos["illegal_action"].any() and infos["illegal_action"].dtype == np.bool_
        with pytest.raises(IllegalMoveError, match="env 1"):
            raising.step(illegal_in(infos["action_mask"], [1], raising.sample_actions()))

        losing = vector_env(name, 3, seat=seat, seed=6, illegal_action="lose", **options)
        _, infos = losing.reset(seed=6)
        acting = infos["seat"].copy()
        actions = illegal_in(infos["action_mask"], [1], losing.sample_actions())
        _, rewards, terminated, _, infos = losing.step(actions)
        np.testing.assert_array_equal(infos["illegal_action"], [False, True, False])
        assert terminated[1] and rewards[1] == -1.0 and infos["seat"][1] == -1
        expected = np.zeros(losing.batch.num_players, np.float32)
        expected[acting[1]] = -1.0
        np.testing.assert_array_equal(infos["rewards"][1], expected)
        _, _, _, _, infos = losing.step(losing.sample_actions())
        assert not infos["illegal_action"].any()  # the flags are the last step's

        replacing = vector_env(name, 3, seat=seat, seed=6, illegal_action="random", **options)
        _, infos = replacing.reset(seed=6)
        actions = illegal_in(infos["action_mask"], [0, 2], replacing.sample_actions())
        actions[2] = replacing.batch.num_actions + 5  # out of range: replaced as well
        _, rewards, terminated, _, infos = replacing.step(actions)
        np.testing.assert_array_equal(infos["illegal_action"], [True, False, True])
        assert not terminated.any() and not rewards.any()  # the games go on

    with pytest.raises(InvalidOptionError, match="illegal_action"):
        vector_env(name, 2, illegal_action="ignore", **options)  # type: ignore[arg-type]
