"""An RLlib multi-agent environment of every game: :class:`GameMultiAgentEnv`, made by
:func:`rllib_env` or by RLlib itself from an ``env_config``.

>>> from ray.rllib.algorithms.ppo import PPOConfig
>>> from cruiselib.envs.rllib import GameMultiAgentEnv
>>> config = PPOConfig().environment(GameMultiAgentEnv, env_config={"game": "sirens"})

Every seat is an agent (``player_0 .. player_{n-1}``); the agent to act is the only one
observed, with RLlib's action-masking convention: each observation is
``{"action_mask": int8 mask, "observations": float32 tensor}``, what RLlib's example
``ActionMaskingTorchRLModule`` takes. docs/rl.md ("RLlib") has the whole recipe.

Needs RLlib (the ``rllib`` extra, ``pip install 'cruiselib[rllib]'``, and torch for
RLlib's learners). :mod:`cruiselib.envs` does not import this module: importing RLlib
takes seconds.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib.envs._common import (
    bounds,
    check_flag,
    check_illegal_action,
    check_limit,
    game_of,
    random_legal_action,
    reset_deal,
    substitute_rng,
)
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

try:
    from gymnasium import spaces
    from ray.rllib.env.multi_agent_env import MultiAgentEnv  # type: ignore[import-not-found,unused-ignore]

    _MultiAgentEnv: Any = MultiAgentEnv
except ImportError:  # without RLlib: GameMultiAgentEnv() says what to install
    _MultiAgentEnv = object

__all__ = ["GameMultiAgentEnv", "rllib_env"]

_MISSING = "the RLlib environment needs RLlib: pip install 'cruiselib[rllib]' (ray[rllib]; and torch to train)"

ALL = "__all__"
"""The key of RLlib's terminated and truncated dicts that ends the episode for every agent."""

AgentObs = dict[str, npt.NDArray[Any]]
"""One agent's observation: ``{"action_mask": ..., "observations": ...}``."""
Obs = dict[str, AgentObs]
"""Observations by agent."""


class GameMultiAgentEnv(_MultiAgentEnv):  # type: ignore[misc]  # MultiAgentEnv with RLlib installed
    """A game as an RLlib ``MultiAgentEnv`` (RLlib's new API stack), every seat an agent.

    ``config`` (RLlib's ``env_config``, a mapping): ``"game"``, a game name (or a
    :class:`cruiselib.Game`; a name travels better to RLlib's remote env runners), and
    optionally ``"illegal_action"`` (``"lose"``, the default here, ``"random"`` or
    ``"raise"``), ``"information_state"`` (observe information-state tensors) and
    ``"max_steps"`` (truncate after that many actions, every seat's counted); every other
    key is an option of ``cruiselib.make`` (``{"game": "atlantic_star", "players": 3}``).
    :func:`rllib_env` takes the same as keywords.

    Turns: ``reset`` and each ``step`` observe only the agent to act (a seat may act several
    times in a row); ``step`` reads that agent's action alone, and its reward for the step
    (0 while the game runs) comes back with the next observation. The step that ends the
    game observes every agent (masks all 0), gives every agent its result in ``rewards``
    (``state.returns()``: +1 a winner, -1 the others, 0 all after a draw), sets
    ``terminateds`` of every agent and ``"__all__"``, and every agent's info
    ``"final_returns"`` (every seat's result by seat). ``max_steps`` truncates the same way
    (``truncateds``, rewards 0), with every agent's last observation, as RLlib needs to
    bootstrap. ``agents`` stays every seat for the whole episode.

    Spaces, per agent: ``Dict({"action_mask": Box(0, 1, (A,), int8), "observations":
    Box(low, high, float32)})`` with the game's declared bounds, and ``Discrete(A)``.

    Illegal actions (``illegal_action``): an action that is not legal ends the game at once
    with ``"lose"`` (-1 for the seat, 0 for the others, ``info["illegal_action"]`` True),
    is replaced by a uniformly random legal action with ``"random"``
    (``info["played_action"]``), or raises :class:`cruiselib.IllegalMoveError` with
    ``"raise"``, changing nothing. ``"lose"`` is the default here because RLlib's env check
    (run by every env runner unless ``disable_env_checking``) steps an action sampled from
    the whole action space, and RLlib samples that way itself wherever it draws random
    actions; a masked policy never plays one. The flag is in the agent's info from its
    next observation on, until it acts again.

    Infos of an observed agent: ``"acting_seat"`` (the seat to act, -1 at the end), the
    flags above, ``"final_returns"`` at the end.

    Seeding: ``reset(seed=s)`` deals ``game.new_state(s)`` and reseeds the env's generator,
    from which ``reset()`` draws the next deals (RLlib seeds each env once from
    ``config.debugging(seed=...)``). Attributes: ``game``, ``game_state`` (read it, do not
    apply to it), ``deal_seed``, ``illegal_action``, ``information_state``, ``max_steps``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        if _MultiAgentEnv is object:
            raise ImportError(_MISSING)
        if config is not None and not isinstance(config, Mapping):
            raise InvalidOptionError(f"the env config is a mapping with a 'game', not {config!r}")
        options = dict(config or {})  # RLlib's EnvContext is a dict: only its keys are read
        if "game" not in options:
            raise InvalidOptionError(
                "the env config needs 'game': a game name (cruiselib.games()) or a cruiselib.Game, "
                f"with make() options beside it; got keys {sorted(options)}"
            )
        name_or_game = options.pop("game")
        illegal_action = options.pop("illegal_action", "lose")
        information_state = options.pop("information_state", False)
        max_steps = options.pop("max_steps", None)
        game = game_of(name_or_game, options)
        super().__init__()
        self.game = game
        self.illegal_action = check_illegal_action(illegal_action)
        self.information_state = check_flag(information_state, "information_state")
        self.max_steps = check_limit(max_steps, "max_steps")
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self.agents = list(self.possible_agents)
        self._names = tuple(self.possible_agents)
        self._num_actions = game.num_actions
        low, high = bounds(game, self.information_state)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), dtype=np.int8),
                    "observations": spaces.Box(low, high, dtype=np.float32),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        self._rng = random.Random(secrets.randbits(64))
        self._substitutes = random.Random(0)  # reseeded by each reset
        self.game_state: Any = None
        self.deal_seed: int | None = None
        self._tensor: Any = None
        self._steps = 0
        self._ended = True
        self._flags: list[dict[str, Any]] = [{} for _ in self._names]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game (``game.new_state(seed)`` for a seed, which also reseeds the
        env's generator; else a seed drawn from it): the agent to act's observation and
        info. ``options`` is accepted for RLlib's API and unused."""
        self._rng, deal = reset_deal(self._rng, seed)
        state = self.game.new_state(deal)
        self.game_state = state
        self.deal_seed = deal
        self._tensor = state.information_state if self.information_state else state.observation
        self._substitutes = substitute_rng(deal)
        self._steps = 0
        self._ended = False
        self._flags = [{} for _ in self._names]
        seat = state.current_player
        agent = self._names[seat]
        return {agent: self._observe(seat)}, {agent: self._info(seat, seat)}

    def step(
        self, action_dict: Mapping[str, Any]
    ) -> tuple[Obs, dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the action of the agent to act (the only one ``action_dict`` may hold):
        observations, rewards, terminateds, truncateds and infos as RLlib's
        ``MultiAgentEnv`` has them (see the class docstring). An action dict without the
        agent to act, or with another agent's action, raises
        :class:`cruiselib.IllegalMoveError`; a step after the end, InvalidStateError."""
        state = self.game_state
        if self._ended:
            if state is None:
                raise InvalidStateError("call reset() before step()")
            raise InvalidStateError("the episode has ended: call reset()")
        seat = state.current_player
        agent = self._names[seat]
        if not isinstance(action_dict, Mapping) or set(action_dict) != {agent}:
            shown = sorted(action_dict) if isinstance(action_dict, Mapping) else action_dict
            raise IllegalMoveError(f"{agent} is to act: step takes {{{agent!r}: action}} alone, not {shown!r}")
        try:
            state.apply(action_dict[agent])
        except IllegalMoveError:  # nothing has changed yet
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "lose":
                self._flags[seat] = {"illegal_action": True}
                returns = [0.0] * len(self._names)
                returns[seat] = -1.0
                return self._end(returns, truncated=False)
            played = random_legal_action(state, self._substitutes)
            state.apply(played)
            self._flags[seat] = {"illegal_action": True, "played_action": played}
        else:
            self._flags[seat] = {}
        self._steps += 1
        if state.is_over:
            return self._end([float(value) for value in state.returns()], truncated=False)
        if self.max_steps is not None and self._steps >= self.max_steps:
            return self._end([0.0] * len(self._names), truncated=True)
        following = state.current_player
        nxt = self._names[following]
        return (
            {nxt: self._observe(following)},
            {agent: 0.0},
            {ALL: False},
            {ALL: False},
            {nxt: self._info(following, following)},
        )

    def _end(
        self, returns: list[float], *, truncated: bool
    ) -> tuple[Obs, dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """The step that ends the episode: every agent observed, rewarded and done."""
        self._ended = True
        names = self._names
        done = {**dict.fromkeys(names, True), ALL: True}
        going = {**dict.fromkeys(names, False), ALL: False}
        infos = {}
        for seat, agent in enumerate(names):
            info = self._info(seat, -1)
            info["final_returns"] = list(returns)
            infos[agent] = info
        return (
            {agent: self._observe(seat) for seat, agent in enumerate(names)},
            dict(zip(names, returns, strict=True)),
            going if truncated else done,
            done if truncated else going,
            infos,
        )

    def _observe(self, seat: int) -> AgentObs:
        """Seat ``seat``'s observation: its mask (all 0 unless it is to act) and tensor."""
        state = self.game_state
        if not self._ended and seat == state.current_player:
            mask = state.action_mask()
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"action_mask": mask, "observations": self._tensor(seat)}

    def _info(self, seat: int, acting: int) -> dict[str, Any]:
        info: dict[str, Any] = {"acting_seat": acting}
        info.update(self._flags[seat])
        return info

    def __repr__(self) -> str:
        return f"GameMultiAgentEnv({self.game!r}, illegal_action={self.illegal_action!r})"


def rllib_env(
    name_or_game: Any,
    *,
    illegal_action: str = "lose",
    information_state: bool = False,
    max_steps: int | None = None,
    **make_options: Any,
) -> GameMultiAgentEnv:
    """An RLlib ``MultiAgentEnv`` of a game, every seat an agent (see
    :class:`GameMultiAgentEnv`, whose ``env_config`` keys these keywords are).

    ``name_or_game``: a game name with its ``make`` options (``rllib_env("atlantic_star",
    players=3)``) or a :class:`cruiselib.Game`. ``illegal_action``: ``"lose"`` (the
    default, what RLlib's env check needs), ``"random"`` or ``"raise"``. Bad options raise
    :class:`cruiselib.InvalidOptionError`; without RLlib, ImportError.
    """
    return GameMultiAgentEnv(
        {
            "game": name_or_game,
            "illegal_action": illegal_action,
            "information_state": information_state,
            "max_steps": max_steps,
            **make_options,
        }
    )
