"""A Gymnasium single-agent environment of every game: :func:`gym_env`. The learner plays one
seat; bots play the others inside ``reset`` and ``step``.

>>> from cruiselib.envs import gym_env
>>> env = gym_env("atlantic_star", players=3, seat=1, opponents="random")
>>> observation, info = env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Needs the ``rl`` extra (``pip install 'cruiselib[rl]'``). On import every game is registered
with Gymnasium as ``cruiselib/<Title>-v0`` (:func:`register_envs`), so
``gymnasium.make("cruiselib/AtlanticStar-v0", players=3)`` makes the same env.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from cruiselib._registry import games
from cruiselib.bots import make_bot
from cruiselib.bots.rules import rule_bot_class
from cruiselib.envs._common import (
    ILLEGAL_ACTIONS,
    RENDER_MODES,
    bounds,
    check_flag,
    check_illegal_action,
    check_limit,
    check_render_mode,
    check_seed,
    derived_seed,
    game_of,
    random_legal_action,
    render_output,
    substitute_rng,
)
from cruiselib.envs.aec import env_id
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

try:
    import gymnasium
    from gymnasium import spaces

    _Env: Any = gymnasium.Env
except ImportError:  # without the rl extra: gym_env() says what to install
    gymnasium = None  # type: ignore[assignment]
    _Env = object

__all__ = ["ILLEGAL_ACTIONS", "GameGymEnv", "gym_env", "register_envs"]

_MISSING = "the Gymnasium environment needs the rl extra: pip install 'cruiselib[rl]' (gymnasium, pettingzoo)"

BotMaker = Callable[[int], Any]  # a deal's bot seed -> the bot


class GameGymEnv(_Env):  # type: ignore[misc]  # gymnasium.Env when the rl extra is installed
    """A game as a ``gymnasium.Env`` for one learner seat; make it with :func:`gym_env`,
    whose docstring gives the options.

    Observation: the learner's ``state.observation(seat)`` (``information_state(seat)``
    with ``information_state=True``), a float32 vector in ``Box(low, high)`` of the game's
    declared bounds (``game.observation_bounds()``), new on every call. Actions:
    ``Discrete(game.num_actions)``. :meth:`action_masks` (sb3-contrib's MaskablePPO reads
    it) and ``info["action_mask"]`` give the legal actions as an int8 array, 1 where legal
    (all 0 once the episode has ended): the dtype of every mask of cruiselib's environments,
    and the one ``gymnasium.spaces.Discrete.sample(mask=...)`` takes.

    Attributes: ``game``, ``seat``, ``game_state`` (the game's :class:`cruiselib.State`, None
    before the first reset; read it, do not apply to it), ``deal_seed`` (the current game
    is ``game.new_state(deal_seed)``), ``opponents`` (the bots of the current episode, by
    seat, None at the learner's), ``max_steps``, ``illegal_action``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        name_or_game: Any,
        *,
        seat: int = 0,
        opponents: Any = "rules",
        information_state: bool = False,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "raise",
        **make_options: Any,
    ) -> None:
        if gymnasium is None:
            raise ImportError(_MISSING)
        game = game_of(name_or_game, make_options)
        self.game = game
        self.seat = game.check_player(seat)
        self.information_state = check_flag(information_state, "information_state")
        self.render_mode = check_render_mode(render_mode)
        self.max_steps = check_limit(max_steps, "max_steps")
        self.illegal_action = check_illegal_action(illegal_action)
        self._makers = _opponent_makers(game, self.seat, opponents)
        low, high = bounds(game, self.information_state)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(game.num_actions)
        self.game_state: Any = None
        self.deal_seed: int | None = None
        self.opponents: list[Any] = []
        self._steps = 0
        self._ended = True
        self._substitutes = substitute_rng(0)  # reseeded by each reset (illegal_action="random")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play the other seats up to the learner's first turn.

        ``seed`` (an int >= 0) deals ``game.new_state(seed)`` and seeds the env's
        generator (``np_random``); without one the deal's seed is drawn from that
        generator. The opponents' bots are made anew from the deal's seed, so an episode
        reproduces from its seed (bots given as instances play on as they are).
        ``options`` is accepted for Gymnasium's API and unused."""
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        deal = seed if seed is not None else int(self.np_random.integers(2**63))
        game = self.game
        state = game.new_state(deal)
        self.game_state = state
        self.deal_seed = deal
        self.opponents = [
            None if maker is None else maker(derived_seed(deal, seat)) for seat, maker in enumerate(self._makers)
        ]
        self._steps = 0
        self._ended = False
        self._substitutes = substitute_rng(deal)
        self._play_opponents()
        return self._observe(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the bots' until the learner is to act again or
        the game ends. Reward: 0, or at the end the learner's ``state.returns()`` (+1 win,
        -1 loss, 0 draw). ``truncated`` once the learner has taken ``max_steps`` steps.
        An illegal action raises :class:`cruiselib.IllegalMoveError`, changing nothing
        (with ``illegal_action="lose"``: the episode ends with reward -1; with ``"random"``
        a uniformly random legal action is played instead, ``info["played_action"]``;
        either way ``info["illegal_action"]`` is True)."""
        state = self.game_state
        if self._ended:
            if state is None:
                raise InvalidStateError("call reset() before step()")
            raise InvalidStateError("the episode has ended: call reset()")
        flags: dict[str, Any] = {}
        try:
            state.apply(action)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "lose":
                self._ended = True
                info = {"action_mask": self.action_masks(), "illegal_action": True}
                return self._observe(), -1.0, True, False, info
            played = random_legal_action(state, self._substitutes)
            state.apply(played)
            flags = {"illegal_action": True, "played_action": played}
        self._steps += 1
        self._play_opponents()
        terminated = bool(state.is_over)
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._ended = terminated or truncated
        return self._observe(), reward, terminated, truncated, {"action_mask": self.action_masks(), **flags}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal actions now, a new int8 array of ``game.num_actions`` (1:
        legal)."""
        state = self.game_state
        if state is None:
            raise InvalidStateError("call reset() before action_masks()")
        if self._ended or state.current_player != self.seat:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        mask: npt.NDArray[np.int8] = state.action_mask()
        return mask

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The whole table as text (``game.render(state)``): returned in ``"ansi"`` mode,
        printed in ``"human"`` mode (returning None); in ``"rgb_array"`` mode the table as
        the learner's seat sees it, a ``(720, 960, 3)`` uint8 array; None with a warning
        without a mode."""
        return render_output(self.game, self.game_state, self.render_mode, self.seat)

    def close(self) -> None:
        """Nothing to release (the env holds no window, process or file)."""

    def _observe(self) -> npt.NDArray[np.float32]:
        state = self.game_state
        tensor: npt.NDArray[np.float32] = (
            state.information_state(self.seat) if self.information_state else state.observation(self.seat)
        )
        return tensor

    def _play_opponents(self) -> None:
        """The bots' moves until the learner is to act or the game is over."""
        state, seat, bots = self.game_state, self.seat, self.opponents
        while not state.is_over:
            player = state.current_player
            if player == seat:
                return
            state.apply(bots[player].choose(state))


def _opponent_makers(game: Any, learner: int, opponents: Any) -> list[BotMaker | None]:
    """Per seat, what makes its bot from a seed (None at the learner's seat); each
    name is checked now, so a bad option fails when the env is made."""
    others = [seat for seat in range(game.num_players) if seat != learner]
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        if not isinstance(opponents, str) and not callable(getattr(opponents, "choose", None)):
            raise InvalidOptionError(
                "opponents is 'rules', a bot name (cruiselib.bots.BOTS), a bot with choose(state) "
                f"or a sequence of those, one per other seat; not {opponents!r}"
            )
        specs = [opponents] * len(others)
    else:
        if len(opponents) != len(others):
            raise InvalidOptionError(
                f"opponents: give one bot or name per other seat ({len(others)} for {game.num_players} seats), "
                f"not {len(opponents)}"
            )
        specs = list(opponents)
    makers: list[BotMaker | None] = [None] * game.num_players
    for seat, spec in zip(others, specs, strict=True):
        makers[seat] = _maker(game, spec)
    return makers


def _maker(game: Any, spec: Any) -> BotMaker:
    """What makes the bot ``spec`` names: ``"rules"`` the game's rule-based bot, another
    name a :func:`cruiselib.bots.make_bot` bot, an object with ``choose`` that object."""
    if spec == "rules":
        cls = rule_bot_class(type(game))  # InvalidOptionError for a game without one
        return lambda seed: cls(seed=seed)
    if isinstance(spec, str):
        make_bot(spec, seed=0)  # InvalidOptionError naming the bots there are
        return lambda seed: make_bot(spec, seed=seed)
    if callable(getattr(spec, "choose", None)):
        return lambda seed: spec
    raise InvalidOptionError(
        f"an opponent is 'rules', a bot name (cruiselib.bots.BOTS) or a bot with choose(state), not {spec!r}"
    )


def gym_env(
    name_or_game: Any,
    *,
    seat: int = 0,
    opponents: Any = "rules",
    information_state: bool = False,
    render_mode: str | None = None,
    max_steps: int | None = None,
    illegal_action: str = "raise",
    **make_options: Any,
) -> GameGymEnv:
    """A Gymnasium env in which the learner plays ``seat`` of a game and bots the other
    seats (see :class:`GameGymEnv`).

    ``name_or_game``: a game name with its ``make`` options (``gym_env("dream_islands",
    players=3)``), or a :class:`cruiselib.Game`. ``opponents``: ``"rules"`` (the game's
    rule-based bot, the default), ``"random"`` or another name of
    :data:`cruiselib.bots.BOTS`, a bot (anything with ``choose(state) -> action``) for
    every other seat, or a sequence of bots or names, one per other seat in seat order.
    A one-seat configuration has no opponents (and takes an empty sequence or any name).
    ``information_state``: observe the information-state tensor. ``render_mode``: None,
    ``"ansi"`` or ``"human"`` (the whole table as text). ``max_steps``: None or n >= 1,
    truncation after the learner's n-th step. ``illegal_action``: see
    :data:`ILLEGAL_ACTIONS`.

    Bad options raise :class:`cruiselib.InvalidOptionError` (a seat that does not exist,
    an unknown bot, a game without a rule-based bot for ``"rules"``); without the rl extra,
    ImportError.
    """
    return GameGymEnv(
        name_or_game,
        seat=seat,
        opponents=opponents,
        information_state=information_state,
        render_mode=render_mode,
        max_steps=max_steps,
        illegal_action=illegal_action,
        **make_options,
    )


def register_envs() -> list[str]:
    """Register every game of ``cruiselib.games()`` not yet registered with Gymnasium, as
    ``cruiselib/<Title>-v0`` (:func:`cruiselib.envs.aec.env_id`, e.g.
    ``"cruiselib/DreamIslands-v0"``) whose keywords are :func:`gym_env`'s; returns the ids
    registered now. Called on import; call it again after ``cruiselib.register`` adds a
    game. Does nothing without Gymnasium."""
    if gymnasium is None:
        return []
    added = []
    for name in games():
        ident = env_id(name)
        if ident in gymnasium.registry:
            continue
        gymnasium.register(id=ident, entry_point="cruiselib.envs.gym:GameGymEnv", kwargs={"name_or_game": name})
        added.append(ident)
    return added


register_envs()
