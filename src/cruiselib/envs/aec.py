"""PettingZoo environments of every game: :func:`aec_env` (turn by turn) and
:func:`parallel_env` (the same game through PettingZoo's turn-based parallel API).

>>> from cruiselib.envs import aec_env
>>> env = aec_env("sirens")
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(observation["action_mask"])
...     env.step(action)

Needs the ``rl`` extra (``pip install 'cruiselib[rl]'``: gymnasium, pettingzoo). On import the
games are registered with PettingZoo's registry (PettingZoo 1.27 has one,
``pettingzoo.make("aec" | "parallel", id)``) as ``cruiselib/<Title>-v0``, e.g.
``pettingzoo.make("aec", "cruiselib/SirensInSight-v0")``; see :func:`register_envs`.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib._registry import game_class, games
from cruiselib.envs._common import (
    RENDER_MODES,
    bounds,
    check_flag,
    check_illegal_action,
    check_limit,
    check_render_mode,
    game_of,
    random_legal_action,
    render_output,
    reset_deal,
    substitute_rng,
)
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

try:
    import pettingzoo  # type: ignore[import-untyped,import-not-found,unused-ignore]  # no type information
    from gymnasium import spaces
    from pettingzoo.utils.conversions import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        turn_based_aec_to_parallel,
    )
    from pettingzoo.utils.env import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]
except ImportError:  # without the rl extra: aec_env() says what to install
    pettingzoo = None
    AECEnv = object

__all__ = ["GameAECEnv", "aec_env", "env_id", "parallel_env", "register_envs"]

_MISSING = "the PettingZoo environments need the rl extra: pip install 'cruiselib[rl]' (gymnasium, pettingzoo)"


class GameAECEnv(AECEnv):  # type: ignore[misc,unused-ignore]  # AECEnv has no type information
    """A game as a PettingZoo ``AECEnv``: the agents ``player_0 .. player_{n-1}`` are the
    seats, and the agent selected is always the seat the game asks to act (turns follow the
    rules, so a seat may act several times in a row). Make it with :func:`aec_env`, whose
    docstring gives the options.

    Observation of an agent: ``{"observation": float32 tensor, "action_mask": int8 mask}``,
    the seat's ``state.observation(seat)`` (``state.information_state(seat)`` with
    ``information_state=True``) in ``Box(low, high)`` of the game's declared bounds
    (``game.observation_bounds()``), and a mask with a 1 for each legal action of the agent
    to act (all 0 for the other agents and once the game has ended). Each ``observe`` makes
    new arrays: observations kept by a learner never change.

    Actions: ``Discrete(game.num_actions)``, the game's action ids. An illegal action raises
    :class:`cruiselib.IllegalMoveError` and changes nothing (``illegal_action="raise"``),
    ends the game as the acting seat's loss (``"lose"``) or is replaced by a uniformly
    random legal action (``"random"``); see :data:`cruiselib.envs.ILLEGAL_ACTIONS`.

    Rewards: 0 at every step, then on the step the game ends every seat's
    ``state.returns()`` at once in ``rewards``: +1 for a winner, -1 for every other seat, 0
    for every seat after a draw (and after truncation); after an illegal action under
    ``"lose"``, -1 for the seat that took it and 0 for the others. Every agent is then
    terminated (truncated at the cycle limit), and ``agent_iter`` selects each in turn,
    seat order: its ``last()`` gives its reward (accumulated since it last acted, as
    PettingZoo's ``_cumulative_rewards`` convention has it), its flag and its info, and it
    is stepped out with None.

    Infos: ``infos[agent]`` is a new dict on every step, with ``"acting_seat"`` (the seat
    to act now, -1 once the game has ended or been cut); ``"illegal_action": True`` (and
    under ``"random"`` ``"played_action"``, the action played instead) while the agent's
    own last action was illegal, until it acts again; and from the step the game ends on,
    ``"final_returns"``, every seat's result by seat (zeros after truncation).

    Global state: :meth:`state` and ``state_space``, for centralised critics: every seat's
    tensor concatenated in seat order (hidden information included), then a one-hot of the
    seat to act.

    Attributes beyond PettingZoo's: ``game`` (the :class:`cruiselib.Game`), ``game_state``
    (the game's :class:`cruiselib.State`, None before the first reset; read it, do not
    apply to it), ``deal_seed`` (the seed the current game was dealt from:
    ``game.new_state(deal_seed)`` replays it), ``max_cycles``, ``information_state``,
    ``illegal_action``.
    """

    # Each env copies this with its game's name ("cruiselib_<game>_v0", what str(env) shows).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "cruiselib",
        # Not for PettingZoo's aec_to_parallel, which needs every agent once per cycle in
        # a fixed order: parallel_env uses turn_based_aec_to_parallel.
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        name_or_game: Any,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        information_state: bool = False,
        illegal_action: str = "raise",
        **make_options: Any,
    ) -> None:
        if pettingzoo is None:
            raise ImportError(_MISSING)
        super().__init__()
        game = game_of(name_or_game, make_options)
        self.game = game
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = check_limit(max_cycles, "max_cycles")
        self.information_state = check_flag(information_state, "information_state")
        self.illegal_action = check_illegal_action(illegal_action)
        # parallel_env counts turns (one per parallel step) instead of each agent's steps.
        self._limit_turns = False
        self.metadata = {**GameAECEnv.metadata, "name": f"cruiselib_{game.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._agent_names = tuple(self.possible_agents)  # by seat, read on every step
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._num_actions = game.num_actions
        low, high = bounds(game, self.information_state)
        # One space object per agent, made once: PettingZoo seeds and compares them by identity.
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        # The global state: every seat's tensor in seat order, then the seat to act one-hot.
        seats = game.num_players
        self._tensor_size = int(low.shape[0])
        self.state_space = spaces.Box(
            np.concatenate([*([low] * seats), np.zeros(seats, np.float32)]),
            np.concatenate([*([high] * seats), np.ones(seats, np.float32)]),
            dtype=np.float32,
        )
        self._rng = random.Random(secrets.randbits(64))
        self._substitutes = random.Random(0)  # reseeded by each reset (illegal_action="random")
        # Per seat: what the info says of its own last action (illegal), until it acts again.
        self._flags: list[dict[str, Any]] = [{} for _ in range(seats)]
        self._final: list[float] | None = None
        self.game_state: Any = None
        self.deal_seed: int | None = None
        self._live = False
        self._steps: list[int] = []
        self._tensor: Any = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ""  # no agent before the first reset

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object on every call)."""
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise InvalidOptionError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``, ``Discrete(game.num_actions)`` (the same object on every call)."""
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise InvalidOptionError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``game.new_state(seed)`` for a seed (an int >= 0), which also
        seeds the env's generator; without one, a seed drawn from that generator (so two
        envs reset with the same seed go on dealing the same games). ``options`` is
        accepted for PettingZoo's API and unused."""
        self._rng, deal = reset_deal(self._rng, seed)
        state = self.game.new_state(deal)
        self.game_state = state
        self.deal_seed = deal
        self._tensor = state.information_state if self.information_state else state.observation
        agents = list(self.possible_agents)
        self.agents = agents
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self._steps = [0] * len(agents)  # per seat; [0] counts turns for parallel_env
        self._skip_agent_selection = None
        self._live = True
        self._substitutes = substitute_rng(deal)
        self._flags = [{} for _ in agents]
        self._final = None
        self._set_infos()
        self.agent_selection = self._agent_names[state.current_player]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: new arrays on every call (see the class docstring)."""
        try:
            seat = self._seats[agent]
        except (KeyError, TypeError):
            raise InvalidOptionError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None
        state = self.game_state
        if state is None:
            raise InvalidStateError("there is nothing to observe before the first reset()")
        if self._live and seat == state.current_player:
            mask = state.action_mask()
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": self._tensor(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (None for ``observe=False``), its reward
        accumulated since it last acted, terminated, truncated and info."""
        if self.game_state is None:
            raise InvalidStateError("call reset() before last()")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> npt.NDArray[np.float32]:
        """The whole table as one float32 vector in ``state_space``, for centralised critics
        (it holds every seat's hidden information: never give it to a seat's policy): every
        seat's observation tensor (information-state tensor with ``information_state=True``)
        in seat order, then a one-hot of the seat to act (all 0 once the game has ended or
        been cut). A new array on every call."""
        state = self.game_state
        if state is None:
            raise InvalidStateError("there is no state before the first reset()")
        size, seats = self._tensor_size, len(self._agent_names)
        out = np.zeros(size * seats + seats, np.float32)
        for seat in range(seats):
            self._tensor(seat, out[seat * size : (seat + 1) * size])
        if self._live:
            out[size * seats + state.current_player] = 1.0
        return out

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (None for an agent that has ended, as PettingZoo
        steps them out). An action that is not legal now raises
        :class:`cruiselib.IllegalMoveError`, changing nothing, or with ``illegal_action``
        ``"lose"`` or ``"random"`` ends the game or is replaced (see the class docstring);
        an ended agent's action other than None always raises. Raises
        :class:`cruiselib.InvalidStateError` when no agent is left (before the first reset
        and once every agent has been stepped out)."""
        agent = self.agent_selection
        try:
            ended = self.terminations[agent] or self.truncations[agent]
        except KeyError:
            raise InvalidStateError("no agent is to act: call reset()") from None
        if ended:
            if action is not None:
                raise IllegalMoveError(f"{agent} has ended: step it out with None, not {action!r}")
            self._was_dead_step(action)
            return
        state = self.game_state
        seat = state.current_player
        try:
            state.apply(action)
        except IllegalMoveError:  # nothing has changed yet
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "lose":
                self._flags[seat] = {"illegal_action": True}
                returns = [0.0] * len(self._agent_names)
                returns[seat] = -1.0
                self._end(returns)
                return
            played = random_legal_action(state, self._substitutes)
            state.apply(played)
            self._flags[seat] = {"illegal_action": True, "played_action": played}
        else:
            if self._flags[seat]:
                self._flags[seat] = {}
        if state.is_over:
            self._end(state.returns())
            return
        if self.max_cycles is not None and self._count_step(seat):
            self._live = False
            self.truncations = dict.fromkeys(self.agents, True)
            self._final = [0.0] * len(self._agent_names)
            self._set_infos()
            self._deads_step_first()
            return
        self._set_infos()
        self.agent_selection = self._agent_names[state.current_player]

    def _set_infos(self) -> None:
        """New info dicts of every agent (see the class docstring)."""
        acting = self.game_state.current_player if self._live else -1
        final, flags = self._final, self._flags
        if final is None and not any(flags):  # the common case, on every step
            self.infos = {agent: {"acting_seat": acting} for agent in self._agent_names}
            return
        infos = {}
        for seat, agent in enumerate(self._agent_names):
            info: dict[str, Any] = {"acting_seat": acting}
            if flags[seat]:
                info.update(flags[seat])
            if final is not None:
                info["final_returns"] = list(final)
            infos[agent] = info
        self.infos = infos

    def _count_step(self, seat: int) -> bool:
        """Count a step of ``seat``; whether the limit is now reached (for every agent: a
        turn-based game cannot go on without the seat that has used up its steps)."""
        steps = self._steps
        if self._limit_turns:
            seat = 0
        steps[seat] += 1
        return steps[seat] >= self.max_cycles  # type: ignore[operator]  # checked by the caller

    def _end(self, returns: list[float]) -> None:
        """The game is over: every seat's return is its reward, and every agent terminates."""
        self._live = False
        # While the game ran every reward was 0, so the accumulated rewards are the returns.
        self.rewards = dict(zip(self._agent_names, returns, strict=True))
        self._cumulative_rewards = dict(self.rewards)
        self.terminations = dict.fromkeys(self.agents, True)
        self._final = [float(value) for value in returns]
        self._set_infos()
        self._deads_step_first()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The whole table as text (``game.render(state)``): returned in ``"ansi"`` mode,
        printed in ``"human"`` mode (returning None); in ``"rgb_array"`` mode the table as
        the seat to act sees it (once the game is over, the seat that moved last), a
        ``(720, 960, 3)`` uint8 array; None with a warning without a mode."""
        return render_output(self.game, self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release (the env holds no window, process or file)."""


def aec_env(
    name_or_game: Any,
    *,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    information_state: bool = False,
    illegal_action: str = "raise",
    **make_options: Any,
) -> GameAECEnv:
    """A PettingZoo ``AECEnv`` of a game, every seat an agent (see :class:`GameAECEnv`).

    ``name_or_game``: a game name with its ``make`` options (``aec_env("atlantic_star",
    players=3)``), or a :class:`cruiselib.Game`. ``render_mode``: None, ``"ansi"``
    (``render()`` returns the whole table as text, ``game.render(state)``) or ``"human"``
    (prints it). ``max_cycles``: None (play to the end) or n >= 1: once any agent has
    acted n times, every agent is truncated (reward 0); where turns go round the table,
    that is after n cycles of every agent. ``information_state``: observe each seat's
    information-state tensor (perfect recall) instead of its observation tensor.
    ``illegal_action``: ``"raise"`` (the default: :class:`cruiselib.IllegalMoveError`,
    nothing changed), ``"lose"`` (the game ends: -1 for the acting seat, 0 for the others)
    or ``"random"`` (a uniformly random legal action is played instead), flagged in the
    acting agent's info (:data:`cruiselib.envs.ILLEGAL_ACTIONS`).

    Seeding: ``reset(seed=s)`` deals ``game.new_state(s)``; ``reset()`` deals from a seed
    drawn from the env's generator, which each seeded reset reseeds. The actions
    ``"random"`` plays come from a generator of each deal's own. Bad options raise
    :class:`cruiselib.InvalidOptionError`; without the rl extra, ImportError.
    """
    return GameAECEnv(
        name_or_game,
        render_mode=render_mode,
        max_cycles=max_cycles,
        information_state=information_state,
        illegal_action=illegal_action,
        **make_options,
    )


def parallel_env(
    name_or_game: Any,
    *,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    information_state: bool = False,
    illegal_action: str = "raise",
    **make_options: Any,
) -> Any:
    """The game as a PettingZoo ``ParallelEnv``: :func:`aec_env` through PettingZoo's
    ``turn_based_aec_to_parallel``. Every live agent observes at each step, and only the
    agent to act's action is used (the others' may be anything; their masks are all 0);
    ``infos[agent]["active_agent"]`` names the agent to act next. PettingZoo's
    ``aec_to_parallel`` wants every agent to act once per cycle in a fixed order, which
    these games do not promise (a seat may act several times in a row).

    The step that ends the game returns every agent's result in ``rewards`` (each seat's
    return, or -1 and 0s after an illegal action under ``illegal_action="lose"``), every
    agent terminated, and ``infos[agent]["final_returns"]`` (every seat's result); the
    agents are then gone. ``infos[agent]["acting_seat"]`` is the seat to act (from reset
    on). ``state()`` and ``state_space`` are the AEC env's (the whole table).

    ``max_cycles`` here counts parallel steps, each one turn: after n steps every agent is
    truncated. The other options are :func:`aec_env`'s.
    """
    env = aec_env(
        name_or_game,
        render_mode=render_mode,
        max_cycles=max_cycles,
        information_state=information_state,
        illegal_action=illegal_action,
        **make_options,
    )
    env._limit_turns = True
    return turn_based_aec_to_parallel(env)


def env_id(game_name: str) -> str:
    """The registry id of a game's environments: ``cruiselib/<Title>-v0``, the game's title
    with each word capitalised and everything but letters and digits left out
    (``"cruiselib/SirensInSight-v0"``). Gymnasium's ids are the same."""
    title = game_class(game_name).title
    words = ["".join(ch for ch in word if ch.isalnum()) for word in title.split()]
    return f"cruiselib/{''.join(word[:1].upper() + word[1:] for word in words)}-v0"


def register_envs() -> list[str]:
    """Register every game of ``cruiselib.games()`` not yet registered with PettingZoo's
    registry, as an ``"aec"`` and a ``"parallel"`` env under :func:`env_id`; returns the
    ids of the games registered now. Called on import; call it again after
    ``cruiselib.register`` adds a game. Does nothing where PettingZoo has no registry
    (before 1.27) or is not installed."""
    register = getattr(pettingzoo, "register", None)
    if register is None:
        return []
    added = []
    for name in games():
        ident = env_id(name)
        if ident in pettingzoo.aec_registry:
            continue
        register("aec", ident, aec_env, kwargs={"name_or_game": name})
        register("parallel", ident, parallel_env, kwargs={"name_or_game": name})
        added.append(ident)
    return added


register_envs()
