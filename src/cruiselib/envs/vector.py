"""A Gymnasium vector environment over :class:`~cruiselib.envs.BatchEnv`: :func:`vector_env`.

N games stepped in the compiled core per call, with Gymnasium 1.x's vector API: batched
observations, rewards and flags, the autoreset mode declared in ``metadata``, the action
masks in ``infos``. A learner plays one seat and the core plays the others (``opponents``),
or, with ``seat=None``, every seat is played through ``step`` (self-play).

>>> from cruiselib.envs import vector_env
>>> envs = vector_env("dream_islands", 8, players=3, opponents="rollout")
>>> observations, infos = envs.reset(seed=1)
>>> actions = envs.sample_actions()  # uniform over each env's legal actions
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)

Needs the ``rl`` extra (``pip install 'cruiselib[rl]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from cruiselib.envs._common import bounds, check_flag, check_illegal_action, game_of
from cruiselib.envs.batch import BatchEnv
from cruiselib.errors import InvalidOptionError

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode

    _VectorEnv: Any = gymnasium.vector.VectorEnv
except ImportError:  # without the rl extra: vector_env() says what to install
    gymnasium = None  # type: ignore[assignment]
    _VectorEnv = object

__all__ = ["GameVectorEnv", "vector_env"]

_MISSING = "the Gymnasium vector environment needs the rl extra: pip install 'cruiselib[rl]' (gymnasium, pettingzoo)"
_MODES = {"next_step": "NEXT_STEP", "same_step": "SAME_STEP", "disabled": "DISABLED"}


class GameVectorEnv(_VectorEnv):  # type: ignore[misc]  # gymnasium.vector.VectorEnv with the rl extra
    """``num_envs`` games of one configuration as a Gymnasium ``VectorEnv`` (see
    :func:`vector_env`). ``batch`` is the :class:`BatchEnv` underneath."""

    def __init__(self, batch: BatchEnv, *, copy: bool = True) -> None:
        self.batch = batch
        self.game = batch.game
        self.num_envs = batch.num_envs
        self.copy = copy
        self.metadata = {
            "autoreset_mode": getattr(AutoresetMode, _MODES[batch.autoreset]),
            "render_modes": [],
        }
        self.render_mode = None
        low, high = bounds(batch.game, batch.information_state)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(batch.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        # The seat whose reward each env's row reports: the learner's, or in self-play the
        # seat that took the step's action.
        self._acting = np.zeros(self.num_envs, np.int64)
        self._rows = np.arange(self.num_envs)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New games: every env, or those of ``options["reset_mask"]`` (a bool array; the
        only way back for an ended env with autoreset disabled). ``seed``: an int s gives env
        i the deal of ``game.new_state(s + i)``; a list gives each env its own."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise InvalidOptionError(f"unknown reset options {sorted(options)}; the one option is reset_mask")
        if isinstance(seed, int):
            super().reset(seed=seed)  # seeds the space's generator as Gymnasium does
        self.batch.reset(seed, mask=mask)
        return self._observations(), self._infos()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One action per env (each env's seat to act takes it). An illegal one raises
        IllegalMoveError, naming the env, and then no env has changed
        (``illegal_action="raise"``); with ``"lose"`` that env's game is lost, with
        ``"random"`` a random legal action is played instead, and
        ``infos["illegal_action"]`` flags the env."""
        learner = self.batch.learner
        if learner is None:
            np.copyto(self._acting, self.batch.seats)
            np.maximum(self._acting, 0, out=self._acting)
        batch = self.batch.step(actions)
        rewards = batch.rewards[self._rows, self._acting] if learner is None else batch.rewards[:, learner].copy()
        terminated, truncated = batch.terminated.copy(), batch.truncated.copy()
        infos = self._infos()
        if self.batch.autoreset == "same_step":
            ended = terminated | truncated
            infos["final_obs"] = self.batch.final_observations.copy()
            infos["_final_obs"] = ended
        return self._observations(), rewards, terminated, truncated, infos

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env (in the core; reproducible with the seed)."""
        return self.batch.sample_actions()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Each env's legal actions now, a new int8 array ``[num_envs, num_actions]`` (1: legal),
        the dtype of every mask of cruiselib's environments."""
        masks: npt.NDArray[np.int8] = self.batch.action_masks.copy()
        return masks

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()

    def _observations(self) -> npt.NDArray[np.float32]:
        observations = self.batch.observations
        return observations.copy() if self.copy else observations

    def _infos(self) -> dict[str, Any]:
        """Per env: ``action_mask`` (int8), ``seat`` to act (-1 once ended), ``rewards`` of
        every seat this step (what self-play needs for the seat that did not move),
        ``illegal_action`` (bool: the env's action this step was illegal, and was lost or
        replaced)."""
        batch = self.batch
        return {
            "action_mask": batch.action_masks.copy() if self.copy else batch.action_masks,
            "seat": batch.seats.copy(),
            "rewards": batch.rewards.copy(),
            "illegal_action": batch.illegal_actions.astype(np.bool_),
        }

    def __repr__(self) -> str:
        return f"GameVectorEnv({self.batch!r})"


def vector_env(
    name_or_game: Any,
    num_envs: int,
    *,
    seat: int | None = 0,
    opponents: Literal["random", "rollout"] = "random",
    autoreset: Literal["next_step", "same_step", "disabled"] = "next_step",
    information_state: bool = False,
    max_steps: int | None = None,
    threads: int = 1,
    copy: bool = True,
    seed: int | Sequence[int] | None = None,
    illegal_action: Literal["raise", "lose", "random"] = "raise",
    **make_options: Any,
) -> GameVectorEnv:
    """A Gymnasium ``VectorEnv`` of ``num_envs`` games stepped in the compiled core.

    ``seat``: the learner's seat; the other seats are played in the core by ``opponents``
    (``"random"``: uniformly random legal actions, ``"rollout"``: the game's rollout policy),
    so every step is the learner's turn and ``rewards`` are its rewards. ``seat=None``: every
    seat is played through ``step`` (self-play): a row's reward is that of the seat that
    took the step's action, ``infos["rewards"]`` has every seat's, ``infos["seat"]`` says
    who acts next. ``autoreset``: Gymnasium's modes (declared in
    ``metadata["autoreset_mode"]``); same-step puts the last observation in
    ``infos["final_obs"]`` (rows marked by ``infos["_final_obs"]``), disabled resets with
    ``reset(options={"reset_mask": mask})``. ``copy``: return copies of the observations
    and masks (the default; False hands out the env's own buffers, which the next call
    overwrites). ``illegal_action``: ``"raise"`` (the default: IllegalMoveError, no env
    changed), ``"lose"`` (that env's game ends: -1 for the seat that acted, 0 for the
    others) or ``"random"`` (a uniformly random legal action is played instead, from the
    game's choice stream), the env flagged in ``infos["illegal_action"]``.
    ``threads``, ``max_steps``, ``information_state`` as for :class:`BatchEnv`.
    The observation space is the game's declared bounds; ``infos["action_mask"]`` gives the
    legal actions. Needs the ``rl`` extra.
    """
    if gymnasium is None:
        raise ImportError(_MISSING)
    game = game_of(name_or_game, make_options)
    check_flag(copy, "copy")
    check_illegal_action(illegal_action)
    batch = BatchEnv(
        game,
        num_envs,
        seed=seed,
        threads=threads,
        autoreset=autoreset,
        information_state=information_state,
        learner=seat,
        opponents=None if seat is None else opponents,
        max_steps=max_steps,
        illegal_action=illegal_action,
    )
    return GameVectorEnv(batch, copy=copy)
