"""Every environment of cruiselib gives its legal actions as one kind of mask: int8, 1 where
the action is legal (docs/rl.md), the dtype Gymnasium's ``Discrete.sample(mask=...)`` takes
and PettingZoo's classic environments use."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("gymnasium", reason="needs the 'rl' extra: pip install 'cruiselib[rl]'")
pytest.importorskip("pettingzoo", reason="needs the 'rl' extra: pip install 'cruiselib[rl]'")

from cruiselib.envs import BatchEnv, aec_env, gym_env, parallel_env, vector_env
from tests.support import one_per_game

ONE_PER_GAME = one_per_game()


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=[name for name, _ in ONE_PER_GAME])
def test_every_mask_is_int8(name: str, options: dict[str, Any]) -> None:
    masks: dict[str, npt.NDArray[Any]] = {}
    single = gym_env(name, **options)
    _, info = single.reset(seed=1)
    masks["gym_env.action_masks()"] = single.action_masks()
    masks["gym_env info"] = info["action_mask"]
    assert single.action_space.sample(mask=single.action_masks()) in single.game_state.legal_actions()
    turns = aec_env(name, **options)
    turns.reset(seed=1)
    masks["aec_env observation"] = turns.observe(turns.agent_selection)["action_mask"]
    together = parallel_env(name, **options)
    observations, _ = together.reset(seed=1)
    masks.update({f"parallel_env {agent}": obs["action_mask"] for agent, obs in observations.items()})
    envs = vector_env(name, num_envs=2, **options)
    _, infos = envs.reset(seed=1)
    masks["vector_env info"] = infos["action_mask"]
    masks["vector_env.action_masks()"] = envs.action_masks()
    masks["BatchEnv.action_masks"] = BatchEnv(name, 2, seed=1, **options).action_masks
    for where, mask in masks.items():
        assert mask.dtype == np.int8, f"{where}: {mask.dtype}"
        assert set(np.unique(mask)) <= {0, 1}, where
