"""What the PettingZoo and Gymnasium adapters share: reading the game and the options,
the observation bounds, the render modes and the seeds of a deal."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib._game import Game
from cruiselib._registry import make
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

RENDER_MODES = ("human", "ansi", "rgb_array")
"""``"ansi"``: ``render()`` returns ``game.render(state)``, the whole table as text;
``"human"``: ``render()`` prints that text and returns None; ``"rgb_array"``: ``render()``
returns the table as one seat sees it, a ``(720, 960, 3)`` uint8 RGB array
(:func:`cruiselib._picture.picture`: the same size in every position, for videos)."""


def game_of(name_or_game: object, make_options: dict[str, Any]) -> Game[Any]:
    """The game an environment plays: ``cruiselib.make(name, **make_options)`` for a name,
    the game itself for a :class:`cruiselib.Game` (which takes no options: it was made
    with them). InvalidOptionError for anything else."""
    if isinstance(name_or_game, Game):
        if make_options:
            raise InvalidOptionError(
                f"options {', '.join(sorted(make_options))} are make() options: give them with the game's name, "
                f"not with a game already made ({name_or_game!r})"
            )
        return name_or_game
    if isinstance(name_or_game, str):
        return make(name_or_game, **make_options)
    raise InvalidOptionError(f"an environment plays a game name or a cruiselib.Game, not {name_or_game!r}")


def check_render_mode(render_mode: Any) -> str | None:
    """``render_mode`` if it is None or one of :data:`RENDER_MODES`, else InvalidOptionError."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidOptionError(f"render_mode is None, 'human', 'ansi' or 'rgb_array', not {render_mode!r}")
    return None if render_mode is None else str(render_mode)


def check_limit(value: object, what: str) -> int | None:
    """A step limit: None (no limit) or an int >= 1, else InvalidOptionError."""
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise InvalidOptionError(f"{what} is None or an int >= 1, not {value!r}")
    return value


def check_flag(value: object, what: str) -> bool:
    """A bool option, else InvalidOptionError."""
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{what} is True or False, not {value!r}")
    return value


def reset_deal(rng: random.Random, seed: object) -> tuple[random.Random, int]:
    """What a reset deals, for an environment whose own generator is ``rng``: with a seed (an
    int >= 0, checked), a generator seeded from it and the deal ``seed`` itself; without one,
    ``rng`` and a deal drawn from it (so two envs reset with one seed go on dealing alike)."""
    if seed is not None:
        seed = check_seed(seed)
        return random.Random(seed), seed
    return rng, rng.getrandbits(64)


def check_seed(seed: object) -> int:
    """A reset seed: an int >= 0 (what Gymnasium and PettingZoo pass), else InvalidOptionError."""
    if type(seed) is not int and not isinstance(seed, np.integer):
        raise InvalidOptionError(f"a reset seed is an int >= 0 or None, not {seed!r}")
    if seed < 0:
        raise InvalidOptionError(f"a reset seed is an int >= 0 or None, not {seed!r}")
    return int(seed)


def bounds(game: Game[Any], information_state: bool) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``(low, high)`` of the tensor an environment observes (the game's declared bounds)."""
    return game.information_state_bounds() if information_state else game.observation_bounds()


def render_output(
    game: Game[Any], state: Any, render_mode: str | None, seat: int | None = None
) -> str | npt.NDArray[np.uint8] | None:
    """What ``render()`` gives in ``render_mode`` (see :data:`RENDER_MODES`). The picture of
    ``"rgb_array"`` is the table as ``seat`` sees it; for None, the seat to act, or the seat
    that made the last move once the game is over (:func:`viewing_seat`)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn(
            "render() was called without a render_mode: give render_mode='ansi', 'human' or 'rgb_array'"
        )
        return None
    if state is None:
        raise InvalidStateError("there is nothing to render before the first reset()")
    if render_mode == "rgb_array":
        from cruiselib._picture import picture

        return picture(game, state, viewing_seat(state) if seat is None else seat)
    text = game.render(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def viewing_seat(state: Any) -> int:
    """The seat whose view a picture of ``state`` shows when no seat is given: the seat to
    act; once the game is over, the seat that made the last move (seat 0 when the state
    keeps no history)."""
    if not state.is_over:
        return int(state.current_player)
    if not state.history:
        return 0
    earlier = state.clone()
    try:
        earlier.undo()
    except (IllegalMoveError, InvalidStateError):  # a history that does not lead here
        return 0
    return int(earlier.current_player)


def derived_seed(deal: int, index: int) -> int:
    """A seed for the ``index``-th random stream of the episode dealt from ``deal`` (the
    opponents' bots): the same deal always gives the same seeds."""
    return random.Random(f"cruiselib.envs/{deal}/{index}").getrandbits(63)


ILLEGAL_ACTIONS = ("raise", "lose", "random")
"""What an environment does with an illegal action (the ``illegal_action`` option of every
environment): ``"raise"`` raises :class:`cruiselib.IllegalMoveError` and changes nothing;
``"lose"`` ends the game at once as a loss of the seat that took it (-1 for it, 0 for every
other seat, ``info["illegal_action"]`` True); ``"random"`` plays a uniformly random legal
action instead (``info["illegal_action"]`` True, ``info["played_action"]`` the action
played), drawn from a generator of the deal's own (:func:`substitute_rng`)."""


def check_illegal_action(value: object) -> str:
    """``value`` if it is one of :data:`ILLEGAL_ACTIONS`, else InvalidOptionError."""
    if not isinstance(value, str) or value not in ILLEGAL_ACTIONS:
        raise InvalidOptionError(f"illegal_action is 'raise', 'lose' or 'random', not {value!r}")
    return value


def substitute_rng(deal: int) -> random.Random:
    """The generator of the legal actions ``illegal_action="random"`` plays in the game dealt
    from ``deal``: the same deal and actions always give the same substitutes."""
    return random.Random(f"cruiselib.envs/{deal}/illegal")


def random_legal_action(state: Any, rng: random.Random) -> int:
    """A uniformly random legal action of ``state`` (not over), drawn from ``rng``."""
    legal = state.legal_actions()
    return int(legal[rng.randrange(len(legal))])
