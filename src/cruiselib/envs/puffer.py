"""A PufferLib 3.0 native environment over :class:`~cruiselib.envs.BatchEnv`: :class:`GamePufferEnv`.

``num_envs`` games of one configuration stepped in the compiled core per call, written
into PufferLib's buffers: ``observations`` float32 ``[num_envs, obs]``, ``rewards``,
``terminals``, ``truncations``, ``masks`` and ``actions``, one row per agent. An agent is
the learner's seat of one game; the compiled opponents (``"random"`` or ``"rollout"``)
play the other seats inside ``step``, so every agent acts in every step. A game that ends
is dealt again in the same step (the observation is the new game's first), as PufferLib's
native environments do.

PufferLib 3.0 has no action masks of its own (its ``masks`` buffer says which agents
act, and its trainer ignores it), so the legal actions travel in the observation: with
``mask_in_observation=True`` (the default) each row is the game's tensor followed by
``num_actions`` entries, 1.0 where the action is legal (:attr:`GamePufferEnv.mask_slice`),
through PufferLib's shared-memory vectorization too. A policy without masks needs
``illegal_action="lose"`` (the default here: the game ends as the learner's loss) or
``"random"`` (a random legal action is played instead).

>>> import pufferlib.vector
>>> from cruiselib.envs.puffer import GamePufferEnv
>>> envs = pufferlib.vector.make(
...     GamePufferEnv, env_kwargs={"game": "sirens", "num_envs": 64}, num_envs=2,
...     backend=pufferlib.vector.Serial, seed=0)
>>> observations, infos = envs.reset(seed=0)

Needs PufferLib (the ``puffer`` extra, docs/rl.md "PufferLib") for its vectorization; the
class itself works without it (the same buffers, made here), and nothing here needs
Gymnasium 1.x: PufferLib 3.0 pins ``gymnasium<=0.29.1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from cruiselib._game import Game
from cruiselib.envs._common import bounds, check_flag, check_render_mode, game_of, render_output
from cruiselib.envs.batch import BatchEnv, IllegalActionName
from cruiselib.errors import InvalidOptionError

try:
    import pufferlib  # type: ignore[import-not-found,unused-ignore]

    _PufferEnv: Any = pufferlib.PufferEnv
except ImportError:  # without PufferLib: the same buffers, made by GamePufferEnv itself
    pufferlib = None
    _PufferEnv = object

__all__ = ["BUFFERS", "GamePufferEnv", "puffer_env"]

BUFFERS = ("observations", "rewards", "terminals", "truncations", "masks", "actions")
"""The buffers of a PufferLib environment (PufferLib's ``buf`` keys), one row per agent."""

_MISSING_SPACES = "cruiselib.envs.puffer needs gymnasium's spaces: pip install 'cruiselib[puffer]'"


class GamePufferEnv(_PufferEnv):  # type: ignore[misc]  # pufferlib.PufferEnv where PufferLib is installed
    """``num_envs`` games as a PufferLib native environment, one agent per game (the
    learner's ``seat``), the other seats played by the compiled ``opponents``.

    PufferLib's constructor keywords: ``buf`` (PufferLib's shared buffers, by
    :data:`BUFFERS` name; None: made here), ``seed`` (game i of this env is dealt
    ``game.new_state(seed * num_envs + i)``, so PufferLib's consecutive seeds per env give
    disjoint deals; None: fresh seeds) and ``render_mode`` (None, ``"ansi"``, ``"human"``
    or ``"rgb_array"``: game 0 as the learner sees it). ``game``: a game name with its
    ``make`` options, or a :class:`cruiselib.Game`. ``mask_in_observation``: append the
    legal-action mask to each observation (see the module's docstring); without it the
    observations are the game's tensors, written by the core straight into PufferLib's
    buffer. ``illegal_action``: ``"lose"`` (the default), ``"random"`` or ``"raise"``
    (``IllegalMoveError``, no game changed: only for policies that mask). ``max_steps``:
    cut a game after that many actions (all seats'; ``truncations``). ``log_interval``:
    every that many steps, ``step`` returns one info dict of the games ended since (their
    mean ``episode_return`` and ``episode_length`` in learner steps, ``win_rate``,
    ``illegal_rate`` and the count of ``episodes``), the way PufferLib's own environments
    log; otherwise an empty list. ``threads``, ``information_state`` as for
    :class:`BatchEnv`.

    Attributes: ``batch`` (the :class:`BatchEnv`, same-step autoreset), ``game``, ``seat``,
    ``num_agents`` (= ``num_envs``), ``observation_size`` (the game's tensor),
    ``mask_slice`` (the mask's columns of an observation, None without them),
    ``action_masks`` (the core's int8 ``[num_envs, num_actions]`` masks, in this process).
    """

    def __init__(
        self,
        game: Game[Any] | str,
        num_envs: int = 1,
        *,
        seat: int = 0,
        opponents: Literal["random", "rollout"] = "random",
        mask_in_observation: bool = True,
        illegal_action: IllegalActionName = "lose",
        information_state: bool = False,
        max_steps: int | None = None,
        threads: int = 1,
        log_interval: int = 128,
        render_mode: str | None = None,
        buf: Mapping[str, npt.NDArray[Any]] | None = None,
        seed: int | None = 0,
        **make_options: Any,
    ) -> None:
        try:
            from gymnasium import spaces  # any version: PufferLib 3.0 brings 0.29
        except ImportError as exc:
            raise ImportError(_MISSING_SPACES) from exc
        made = game_of(game, make_options)
        self.game: Game[Any] = made
        self.mask_in_observation = check_flag(mask_in_observation, "mask_in_observation")
        self.render_mode = check_render_mode(render_mode)
        if isinstance(log_interval, bool) or not isinstance(log_interval, int) or log_interval < 1:
            raise InvalidOptionError(f"log_interval is an int >= 1, not {log_interval!r}")
        self.log_interval = log_interval
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise InvalidOptionError(f"num_envs is an int >= 1, not {num_envs!r}")
        n, a = int(num_envs), int(made.num_actions)
        low, high = bounds(made, information_state)
        self.observation_size = int(low.shape[0])
        if self.mask_in_observation:
            low = np.concatenate([low, np.zeros(a, np.float32)])
            high = np.concatenate([high, np.ones(a, np.float32)])
            self.mask_slice: slice | None = slice(self.observation_size, self.observation_size + a)
        else:
            self.mask_slice = None
        # What PufferEnv.__init__ asks for before it sets the buffers.
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(a)
        self.num_agents = n
        missing = [name for name in BUFFERS if buf is not None and name not in buf]
        if missing:
            raise InvalidOptionError(f"buf lacks {missing}; PufferLib's buffers are {list(BUFFERS)}")
        if pufferlib is not None:
            super().__init__(buf)
        else:
            _set_buffers(self, buf, n, int(low.shape[0]))
        _check_buffers(self, n, int(low.shape[0]))
        self.masks[:] = True  # every agent acts in every step
        # The core writes straight into PufferLib's buffers where their layout is its own.
        shared: dict[str, npt.NDArray[Any]] = {}
        if not self.mask_in_observation and _fits(self.observations, (n, self.observation_size), np.float32):
            shared["observations"] = self.observations
        if _fits(self.terminals, (n,), np.bool_):
            shared["terminated"] = self.terminals
        if _fits(self.truncations, (n,), np.bool_):
            shared["truncated"] = self.truncations
        self.batch = BatchEnv(
            made,
            n,
            seed=None if seed is None else _deal_seed(seed, n),
            threads=threads,
            autoreset="same_step",
            information_state=information_state,
            learner=seat,
            opponents=opponents,
            max_steps=max_steps,
            illegal_action=illegal_action,
            buffers=shared,
        )
        self.seat: int = seat
        self._shared = frozenset(shared)
        self._lengths = np.zeros(n, np.int64)
        self._ticks = 0
        self._stats = np.zeros(5)  # episodes, returns, lengths, wins, illegal
        self._publish()

    @property
    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of every game now, int8 ``[num_envs, num_actions]`` (the core's
        buffer: read it, copy what you keep)."""
        return self.batch.action_masks

    def reset(self, seed: int | None = 0) -> tuple[npt.NDArray[np.float32], list[dict[str, Any]]]:
        """Deal a new game everywhere: game i is ``game.new_state(seed * num_envs + i)``
        (None: fresh seeds). Returns the observations buffer and an empty info list."""
        self.batch.reset(None if seed is None else _deal_seed(seed, self.num_agents))
        self._lengths[:] = 0
        self._publish()
        return self.observations, []

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], list[Any]
    ]:
        """One action per agent (game); the opponents answer in the core, ended games are
        dealt again. Returns PufferLib's buffers (observations, rewards, terminals,
        truncations), written in place, and the info list (see ``log_interval``)."""
        self.batch.step(actions)
        self._publish()
        self._lengths += 1
        ended = self.terminals | self.truncations
        if ended.any():
            which = np.flatnonzero(ended)
            returns = self.rewards[which]
            illegal = int(np.count_nonzero(self.batch.illegal_actions[which])) if self._loses else 0
            self._stats += (which.size, returns.sum(), self._lengths[which].sum(), (returns > 0).sum(), illegal)
            self._lengths[which] = 0
        self._ticks += 1
        infos: list[Any] = []
        if self._ticks % self.log_interval == 0 and self._stats[0] > 0:
            episodes, returns_sum, lengths_sum, wins, illegal = self._stats.tolist()
            infos.append(
                {
                    "episode_return": returns_sum / episodes,
                    "episode_length": lengths_sum / episodes,
                    "win_rate": wins / episodes,
                    "illegal_rate": illegal / episodes,
                    "episodes": episodes,
                }
            )
            self._stats[:] = 0
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """Game 0 in ``render_mode``: its table as text (``"ansi"``), printed (``"human"``),
        or a picture as the learner sees it (``"rgb_array"``)."""
        return render_output(self.game, self.batch.state(0), self.render_mode, self.seat)

    def close(self) -> None:
        """Stop the batch's worker threads."""
        self.batch.close()

    @property
    def _loses(self) -> bool:
        return self.batch.illegal_action == "lose"

    def _publish(self) -> None:
        """Copy what the core did not write into PufferLib's buffers itself."""
        batch, size = self.batch, self.observation_size
        if "observations" not in self._shared:
            np.copyto(self.observations[:, :size], batch.observations)
        if self.mask_slice is not None:
            np.copyto(self.observations[:, self.mask_slice], batch.action_masks)
        np.copyto(self.rewards, batch.rewards[:, self.seat])
        if "terminated" not in self._shared:
            np.copyto(self.terminals, batch.terminated)
        if "truncated" not in self._shared:
            np.copyto(self.truncations, batch.truncated)

    def __repr__(self) -> str:
        return f"GamePufferEnv({self.batch!r}, mask_in_observation={self.mask_in_observation})"


def puffer_env(game: Game[Any] | str, num_envs: int = 1, **options: Any) -> GamePufferEnv:
    """A :class:`GamePufferEnv` (the same keywords): an env creator for
    ``pufferlib.vector.make``, which passes ``buf`` and ``seed``."""
    return GamePufferEnv(game, num_envs, **options)


def _deal_seed(seed: object, n: int) -> int:
    """The BatchEnv seed of an env whose PufferLib seed is ``seed``: its games are
    ``seed * n .. seed * n + n - 1``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidOptionError(f"seed is an int or None, not {seed!r}")
    return int(seed) * n


def _fits(array: object, shape: tuple[int, ...], dtype: Any) -> bool:
    """Whether ``array`` is one the core can write in place (see BatchEnv's ``buffers``)."""
    return (
        isinstance(array, np.ndarray)
        and array.dtype == np.dtype(dtype)
        and array.shape == shape
        and bool(array.flags.c_contiguous)
        and bool(array.flags.writeable)
    )


def _check_buffers(env: GamePufferEnv, n: int, size: int) -> None:
    """InvalidOptionError unless PufferLib's buffers have the dtypes and shapes this env writes."""
    expected = {
        "observations": ((n, size), np.float32),
        "rewards": ((n,), np.float32),
        "terminals": ((n,), np.bool_),
        "truncations": ((n,), np.bool_),
        "masks": ((n,), np.bool_),
    }
    for name, (shape, dtype) in expected.items():
        array = getattr(env, name)
        if not isinstance(array, np.ndarray) or array.shape != shape or array.dtype != np.dtype(dtype):
            what = f"{array.dtype} {array.shape}" if isinstance(array, np.ndarray) else type(array).__name__
            raise InvalidOptionError(f"buf[{name!r}] must be {np.dtype(dtype).name} of shape {shape}, not {what}")


def _set_buffers(env: GamePufferEnv, buf: Mapping[str, npt.NDArray[Any]] | None, n: int, size: int) -> None:
    """PufferLib's ``set_buffers`` where PufferLib is not installed: the given buffers, or
    new ones of PufferLib's dtypes and shapes."""
    if buf is None:
        buf = {
            "observations": np.zeros((n, size), np.float32),
            "rewards": np.zeros(n, np.float32),
            "terminals": np.zeros(n, np.bool_),
            "truncations": np.zeros(n, np.bool_),
            "masks": np.ones(n, np.bool_),
            "actions": np.zeros(n, np.int32),
        }
    env.observations = buf["observations"]
    env.rewards = buf["rewards"]
    env.terminals = buf["terminals"]
    env.truncations = buf["truncations"]
    env.masks = buf["masks"]
    env.actions = buf["actions"]
