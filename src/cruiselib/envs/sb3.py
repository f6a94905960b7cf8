"""Stable-Baselines3's ``VecEnv`` over :class:`~cruiselib.envs.BatchEnv`: :func:`sb3_vec_env`.

N games stepped in the compiled core per call, spoken as Stable-Baselines3's vectorized
environment: ``reset()`` returns the observations alone, ``step`` the observations, the
learner's rewards, ``dones`` and one info dict per env; a game that ends is dealt again in
the same step, its last observation in ``infos[i]["terminal_observation"]``
(``"TimeLimit.truncated"`` says it was cut by ``max_steps``). :meth:`GameSB3VecEnv.action_masks`
gives the legal actions, so sb3-contrib's ``MaskablePPO`` works with no wrapper:

>>> from sb3_contrib import MaskablePPO
>>> from cruiselib.envs.sb3 import sb3_vec_env
>>> envs = sb3_vec_env("sirens", num_envs=8, opponents="random", seed=0)
>>> model = MaskablePPO("MlpPolicy", envs, seed=0).learn(2048)

The learner plays one seat; the compiled opponents (``"random"`` or ``"rollout"``) play the
others inside ``step``, so every step is the learner's turn. Importing this module needs
Stable-Baselines3 (``pip install 'cruiselib[rl]' stable-baselines3``); cruiselib.envs does
not import it.
"""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from cruiselib._game import Game
from cruiselib.envs._common import bounds, check_flag, check_render_mode, game_of, render_output
from cruiselib.envs.batch import BatchEnv, IllegalActionName
from cruiselib.errors import InvalidOptionError

_MISSING = (
    "cruiselib.envs.sb3 needs Stable-Baselines3: pip install 'cruiselib[rl]' stable-baselines3 "
    "(and sb3-contrib for MaskablePPO)"
)

try:
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import (  # type: ignore[import-not-found,unused-ignore]
        VecEnv as _SB3VecEnv,
    )
except ImportError as exc:  # this module is imported only by users of Stable-Baselines3
    raise ImportError(_MISSING) from exc

_VecEnv: Any = _SB3VecEnv

__all__ = ["BatchGame", "GameSB3VecEnv", "sb3_vec_env"]

Indices = None | int | Iterable[int]
"""Which envs ``get_attr``, ``set_attr``, ``env_method`` and ``env_is_wrapped`` address: all
(None), one, or several."""


class BatchGame:
    """One env of a :class:`GameSB3VecEnv`, as ``get_attr`` and ``env_method`` see it: what
    a Stable-Baselines3 ``DummyVecEnv`` would find on its i-th env. Its configuration is the
    batch's (``game``, ``seat``, ``render_mode``, the spaces); ``action_masks()``,
    ``game_state`` and ``render()`` are env ``index``'s own. ``set_attr`` may store other
    attributes on it (kept, never read by the env)."""

    _OWN = frozenset(
        {
            "index",
            "game",
            "seat",
            "opponents",
            "render_mode",
            "observation_space",
            "action_space",
            "information_state",
            "max_steps",
            "illegal_action",
            "game_state",
            "deal_state",
            "action_masks",
            "render",
        }
    )

    def __init__(self, owner: GameSB3VecEnv, index: int) -> None:
        self._owner = owner
        self.index = index

    @property
    def game(self) -> Game[Any]:
        """The game every env of the batch plays."""
        return self._owner.game

    @property
    def seat(self) -> int:
        """The learner's seat."""
        return self._owner.seat

    @property
    def opponents(self) -> str | None:
        """The compiled opponents at the other seats (None in a one-seat game)."""
        return self._owner.batch.opponents

    @property
    def render_mode(self) -> str | None:
        """The render mode (the batch's)."""
        mode: str | None = self._owner.render_mode
        return mode

    @property
    def observation_space(self) -> Any:
        """One env's observation space, a ``Box`` of the game's bounds."""
        return self._owner.observation_space

    @property
    def action_space(self) -> Any:
        """One env's action space, ``Discrete(game.num_actions)``."""
        return self._owner.action_space

    @property
    def information_state(self) -> bool:
        """Whether the observations are information-state tensors."""
        return self._owner.batch.information_state

    @property
    def max_steps(self) -> int | None:
        """The truncation limit (all seats' actions), None for none."""
        return self._owner.batch.max_steps or None

    @property
    def illegal_action(self) -> str:
        """What an illegal action does (``"raise"``, ``"lose"`` or ``"random"``)."""
        return self._owner.batch.illegal_action

    @property
    def game_state(self) -> Any:
        """A copy of this env's position as a cruiselib State (``BatchEnv.state``)."""
        return self._owner.batch.state(self.index)

    @property
    def deal_state(self) -> int:
        """The generator state this env's current game was dealt from
        (``game.state_from_seed_state(deal_state)`` deals it again)."""
        return int(self._owner.batch.deal_states[self.index])

    def action_masks(self) -> npt.NDArray[np.int8]:
        """This env's legal actions now: a new int8 array of ``game.num_actions``, 1 where legal."""
        mask: npt.NDArray[np.int8] = self._owner.batch.action_masks[self.index].copy()
        return mask

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """This env's table in the batch's render mode: as text in ``"ansi"`` mode, printed in
        ``"human"`` mode (returning None), a picture as the learner sees it in
        ``"rgb_array"`` mode; None with a warning without a render mode."""
        return render_output(self.game, self._owner.batch.state(self.index), self.render_mode, self.seat)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in BatchGame._OWN and hasattr(self, "index"):
            raise InvalidOptionError(
                f"{name} is the batch's configuration, the same in every env: make a new sb3_vec_env to change it"
            )
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"BatchGame({self.index} of {self._owner!r})"


class GameSB3VecEnv(_VecEnv):  # type: ignore[misc]  # stable_baselines3's VecEnv
    """``num_envs`` games of one configuration as a Stable-Baselines3 ``VecEnv`` (see
    :func:`sb3_vec_env`). ``batch`` is the :class:`BatchEnv` underneath (same-step
    autoreset); ``seat`` the learner's seat."""

    batch: BatchEnv
    game: Game[Any]
    seat: int
    num_envs: int
    reset_infos: list[dict[str, Any]]

    def __init__(self, batch: BatchEnv, *, render_mode: str | None = None) -> None:
        if batch.learner is None:
            raise InvalidOptionError("a Stable-Baselines3 VecEnv has one learner: give the BatchEnv learner=SEAT")
        if batch.autoreset != "same_step":
            raise InvalidOptionError(
                "Stable-Baselines3 deals the next game in the step that ends one: the BatchEnv needs "
                f"autoreset='same_step', not {batch.autoreset!r}"
            )
        self.batch = batch
        self.game: Game[Any] = batch.game
        self.seat: int = batch.learner
        self._render_mode = check_render_mode(render_mode)
        self._games = [BatchGame(self, i) for i in range(batch.num_envs)]
        self._actions: npt.NDArray[Any] | None = None
        low, high = bounds(batch.game, batch.information_state)
        super().__init__(batch.num_envs, spaces.Box(low, high, dtype=np.float32), spaces.Discrete(batch.num_actions))

    # ------------------------------------------------------------------ the VecEnv contract

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal a new game in every env; the observations (a new array). The seeds of
        :meth:`seed` (env i: seed + i, the deal of ``game.new_state(seed + i)``) apply to
        this reset only; without them each env is dealt from a fresh seed."""
        options = [option for option in self._options if option]
        if options:
            raise InvalidOptionError(f"these envs take no reset options, not {options[0]!r}")
        seeds = list(self._seeds)
        self._reset_seeds()
        self._reset_options()
        if all(seed is None for seed in seeds):
            self.batch.reset(None)
        else:
            self.batch.reset([secrets.randbits(63) if seed is None else int(seed) for seed in seeds])
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._actions = None
        observations: npt.NDArray[np.float32] = self.batch.observations.copy()
        return observations

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Remember one action per env for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Apply the actions of :meth:`step_async` (the opponents answer in the core):
        observations, the learner's rewards, dones and infos. An env whose game ended is
        dealt its next game: ``dones[i]`` is set, the observation is the new game's first,
        and ``infos[i]`` holds ``terminal_observation`` (the ended game's last) and
        ``TimeLimit.truncated`` (cut by ``max_steps``, not ended by the rules). An illegal
        action raises :class:`cruiselib.IllegalMoveError` naming the env, and no env changes
        (``illegal_action="raise"``); with ``"lose"`` or ``"random"`` that env's
        ``infos[i]["illegal_action"]`` is True."""
        actions, self._actions = self._actions, None
        if actions is None:
            raise InvalidOptionError("step_wait() without step_async(actions) before it")
        step = self.batch.step(actions)
        terminated, truncated = step.terminated, step.truncated
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        finals = self.batch.final_observations
        for i in np.flatnonzero(dones).tolist():
            infos[i]["terminal_observation"] = finals[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        if self.batch.illegal_action != "raise":
            for i in np.flatnonzero(self.batch.illegal_actions).tolist():
                infos[i]["illegal_action"] = True
        return step.observations.copy(), step.rewards[:, self.seat].copy(), dones, infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Every env's legal actions now: a new int8 array ``[num_envs, num_actions]``, 1
        where legal (what sb3-contrib's ``get_action_masks`` stacks from
        ``env_method("action_masks")``)."""
        masks: npt.NDArray[np.int8] = self.batch.action_masks.copy()
        return masks

    def close(self) -> None:
        """Stop the batch's worker threads."""
        self.batch.close()

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """``attr_name`` of each addressed env (a :class:`BatchGame`); AttributeError for
        one the envs do not have."""
        return [getattr(self._games[i], attr_name) for i in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Store ``value`` as ``attr_name`` on each addressed env's :class:`BatchGame`; the
        configuration (``game``, ``seat``, ``render_mode``...) is the batch's and refused."""
        for i in self._targets(indices):
            setattr(self._games[i], attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call ``method_name`` of each addressed env's :class:`BatchGame`
        (``action_masks``, ``render``, or a callable stored with ``set_attr``)."""
        targets = self._targets(indices)
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.batch.action_masks
            return list(masks.copy() if len(targets) == self.num_envs else masks[targets])
        return [getattr(self._games[i], method_name)(*method_args, **method_kwargs) for i in targets]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        """False for each addressed env: no Gymnasium wrapper is inside a batch (wrap the
        VecEnv itself, e.g. in ``VecMonitor``)."""
        return [False for _ in self._targets(indices)]

    def get_images(self) -> Sequence[npt.NDArray[np.uint8] | None]:
        """Each env's picture as the learner sees it (``render_mode="rgb_array"``), which
        ``render()`` tiles into one image; None for each env in the other modes."""
        if self.render_mode != "rgb_array":
            warnings.warn(
                f"the render mode is {self.render_mode!r}: the envs give pictures in 'rgb_array' mode only",
                stacklevel=2,
            )
            return [None] * self.num_envs
        images = [game.render() for game in self._games]
        return [image if isinstance(image, np.ndarray) else None for image in images]

    # ------------------------------------------------------------------ helpers

    @property
    def render_mode(self) -> str | None:
        """None, ``"ansi"``, ``"human"`` or ``"rgb_array"``: ``env_method("render")`` gives
        each env's table as text, prints it, or gives its picture; ``render()`` in
        ``"rgb_array"`` mode tiles every env's picture into one image."""
        return self._render_mode

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        # VecEnv.__init__ sets it from get_attr("render_mode"): the same value.
        self._render_mode = check_render_mode(value)

    def _targets(self, indices: Indices) -> list[int]:
        """The addressed envs' indices, each checked to be 0 .. num_envs - 1."""
        if indices is None:
            return list(range(self.num_envs))
        chosen = [indices] if isinstance(indices, (int, np.integer)) else list(indices)
        for i in chosen:
            if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
                raise InvalidOptionError(f"an env index is an int 0..{self.num_envs - 1}, not {i!r}")
        return [int(i) for i in chosen]

    def __repr__(self) -> str:
        return f"GameSB3VecEnv({self.batch!r})"


def sb3_vec_env(
    name_or_game: Any,
    num_envs: int,
    *,
    seat: int = 0,
    opponents: Literal["random", "rollout"] = "random",
    information_state: bool = False,
    max_steps: int | None = None,
    threads: int = 1,
    seed: int | None = None,
    render_mode: str | None = None,
    illegal_action: IllegalActionName = "raise",
    **make_options: Any,
) -> GameSB3VecEnv:
    """A Stable-Baselines3 ``VecEnv`` of ``num_envs`` games stepped in the compiled core.

    ``name_or_game``: a game name with its ``make`` options, or a :class:`cruiselib.Game`.
    The learner plays ``seat``; ``opponents`` play the other seats in the core
    (``"random"``: uniformly random legal actions, ``"rollout"``: the game's rollout
    policy). Rewards are the learner's: 0, then +1 win, -1 loss, 0 draw at the end.
    ``seed``: the first ``reset()`` deals env i ``game.new_state(seed + i)`` (as does
    ``reset()`` after ``seed(s)``, which Stable-Baselines3's algorithms call with their
    ``seed``); later resets and games are dealt as :class:`BatchEnv` deals them.
    ``max_steps``: a game is cut after that many actions (all seats'), reported as a
    done with ``infos[i]["TimeLimit.truncated"]``. ``render_mode``: None, ``"ansi"``,
    ``"human"`` or ``"rgb_array"`` (each env's table as the learner sees it).
    ``illegal_action``: ``"raise"`` (the default: MaskablePPO never takes an
    illegal action), or for a policy without masks ``"lose"`` (the game ends as the
    learner's loss) or ``"random"`` (a random legal action is played instead); either
    sets ``infos[i]["illegal_action"]``. ``threads``, ``information_state`` as for
    :class:`BatchEnv`. Bad options raise :class:`cruiselib.InvalidOptionError`.
    """
    game = game_of(name_or_game, make_options)
    check_flag(information_state, "information_state")
    if isinstance(seed, bool) or not (seed is None or isinstance(seed, (int, np.integer))):
        raise InvalidOptionError(f"seed is an int or None, not {seed!r}")
    batch = BatchEnv(
        game,
        num_envs,
        seed=seed,
        threads=threads,
        autoreset="same_step",
        information_state=information_state,
        learner=seat,
        opponents=opponents,
        max_steps=max_steps,
        illegal_action=illegal_action,
    )
    envs = GameSB3VecEnv(batch, render_mode=render_mode)
    if seed is not None:
        envs.seed(int(seed))
    return envs
