"""``BatchEnv``: N games of one configuration stepped in the compiled core in one call.

The loop of a reinforcement-learning trainer over many games at once: each call of
:meth:`BatchEnv.step` applies one action per env, plays the compiled opponents (if any),
settles the end of every game that ends (rewards, autoreset) and writes the buffers, with
the GIL released, on as many threads as asked. The buffers are numpy arrays the env
overwrites in place (pass your own, for example in shared memory); copy what you keep.
A policy reads each env's legal actions as a small padded array
(:meth:`BatchEnv.legal_actions`) and lets the core pick from its scores
(:meth:`BatchEnv.choose`), so nothing of the size of the action space is touched per step.
docs/rl.md describes the layout, autoreset, seeding, threads, the opponents and choosing.
"""

from __future__ import annotations

import functools
import itertools
import math
import secrets
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from cruiselib import _core
from cruiselib._game import Game
from cruiselib._registry import make
from cruiselib._state import State
from cruiselib.envs._common import check_illegal_action
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = ["AUTORESET_MODES", "OPPONENTS", "BatchEnv", "BatchStep"]

_batch = _core.load("batch")
_CoreState = _core.load("engine").CoreState
_seed_state = _core.load("rng").seed_state

AutoresetName = Literal["next_step", "same_step", "disabled"]
IllegalActionName = Literal["raise", "lose", "random"]
Layout = Literal["dense", "legal"]
AUTORESET_MODES: Mapping[str, int] = dict(_batch.AUTORESET_CODES)
"""The autoreset modes (Gymnasium 1.x's ``AutoresetMode``, by value) and the core's codes."""
OPPONENTS: Mapping[str | None, int] = dict(_batch.OPPONENT_CODES)
"""The compiled opponents: uniformly random legal actions, or the game's rollout policy
(the random one in a game that has no policy of its own)."""
_ILLEGAL_CODES: Mapping[str, int] = dict(_batch.ILLEGAL_CODES)

MAX_ENVS = 1 << 20
"""The most envs one batch holds."""
MAX_BUFFER_BYTES = 8 << 30
"""The most memory one batch's buffers may take (8 GiB): a larger request is refused."""
MAX_THREADS = 256

BUFFER_NAMES = (
    "observations",
    "action_masks",
    "seats",
    "rewards",
    "terminated",
    "truncated",
    "legal_counts",
    "final_observations",
    "illegal_actions",
)
"""The buffers a caller may hand in (``buffers=``), by name."""


class BatchStep(NamedTuple):
    """What ``reset`` and ``step`` return: the env's own buffers (not copies), which the next
    call overwrites. ``rewards`` is per seat; ``seats`` the seat to act in each env (-1 where
    the game has ended or been cut and waits for its reset)."""

    observations: npt.NDArray[np.float32]
    action_masks: npt.NDArray[np.int8]
    seats: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


class BatchEnv:
    """N games of one game configuration, stepped together in the compiled core.

    ``game``: a :class:`~cruiselib.Game` or a registered name (then ``options`` are its
    ``make`` options). ``num_envs``: how many games (1 .. 2**20). ``seed``: as for
    :meth:`reset`, which the constructor calls. ``threads``: how many threads a call
    splits the batch over (contiguous ranges; the results are the same for every value).
    ``autoreset``: ``"next_step"`` (the default, Gymnasium's: a step after the end of a game
    deals the next and ignores that env's action), ``"same_step"`` (the step that ends a
    game deals the next at once; its last observation is in ``final_observations``), or
    ``"disabled"`` (an ended env waits for ``reset(mask=...)``; stepping it is an error).
    ``information_state``: write information-state tensors (perfect recall of public
    events) instead of observations. ``learner`` and ``opponents``: with a learner seat,
    the other seats are played in the core (``"random"``: uniformly random legal actions,
    ``"rollout"``: the game's rollout policy), so every step is the learner's turn;
    without, every seat is played through ``step`` (self-play). ``max_steps``: a game is
    truncated after that many actions (all seats' actions counted). ``buffers``: arrays of
    your own for any of :data:`BUFFER_NAMES` (C-contiguous, writeable, the dtype and shape
    of the attribute of that name). ``illegal_action``: what :meth:`step` does with an
    env's action that is out of range or illegal: ``"raise"`` (the default) refuses the
    whole step with ``IllegalMoveError``, no env changed; ``"lose"`` ends that env's game
    at once as a loss of the seat that acted (reward -1 for it, 0 for every other seat,
    ``terminated``, then autoreset as for any ended game); ``"random"`` plays a uniformly
    random legal action from the game's choice stream instead. In both, the core checks
    each env's action itself (an illegal one is never applied) and ``illegal_actions``
    flags the envs whose action was illegal in the last step.

    Env i's first game is ``game.new_state(seed + i)``: the same actions give the same
    states. Each later game of env i is dealt from ``mix64(previous ^ salt)`` (its generator
    state is ``deal_states[i]``: ``game.state_from_seed_state(int(env.deal_states[i]))``
    deals it again), and the random choices of the opponents, of :meth:`sample_actions`,
    of :meth:`choose` and of ``illegal_action="random"`` come from a stream of each game's
    own (docs/rl.md, "Seeding").
    """

    def __init__(
        self,
        game: Game[Any] | str,
        num_envs: int,
        *,
        seed: int | str | bytes | Sequence[int | str | bytes] | None = None,
        threads: int = 1,
        autoreset: AutoresetName = "next_step",
        information_state: bool = False,
        learner: int | None = None,
        opponents: Literal["random", "rollout"] | None = None,
        max_steps: int | None = None,
        buffers: Mapping[str, npt.NDArray[Any]] | None = None,
        illegal_action: IllegalActionName = "raise",
        **options: Any,
    ) -> None:
        if isinstance(game, str):
            game = make(game, **options)
        elif not isinstance(game, Game):
            raise InvalidOptionError(f"game must be a cruiselib Game or a game name, not {game!r}")
        elif options:
            raise InvalidOptionError(f"options {sorted(options)} are for make(); this game is already made")
        self.game: Game[Any] = game
        self.num_envs = _count("num_envs", num_envs, 1, MAX_ENVS)
        self.threads = _count("threads", threads, 1, MAX_THREADS)
        if autoreset not in AUTORESET_MODES:
            raise InvalidOptionError(f"autoreset must be one of {sorted(AUTORESET_MODES)}, not {autoreset!r}")
        self.autoreset: AutoresetName = autoreset
        check_illegal_action(illegal_action)
        self.illegal_action: IllegalActionName = illegal_action
        self._raising = illegal_action == "raise"  # step checks every action before the core steps
        if not isinstance(information_state, bool):
            raise InvalidOptionError(f"information_state must be True or False, not {information_state!r}")
        self.information_state = information_state
        self.num_players = int(game.num_players)
        self.num_actions = int(game.num_actions)
        if learner is None:
            if opponents is not None:
                raise InvalidOptionError("opponents play the seats other than a learner's: give learner=SEAT too")
            seat = -1
        else:
            seat = game.check_player(learner)
            if opponents not in ("random", "rollout") and self.num_players > 1:
                raise InvalidOptionError(
                    f"with a learner, opponents must be 'random' or 'rollout' (they play the other seats), "
                    f"not {opponents!r}"
                )
        self.learner = None if learner is None else seat
        self.opponents = opponents if self.num_players > 1 or opponents is None else None
        self.max_steps = 0 if max_steps is None else _count("max_steps", max_steps, 1, 2**31 - 1)
        size = game.information_state_shape[0] if information_state else game.observation_shape[0]
        self.observation_size = int(size)
        n, p, a = self.num_envs, self.num_players, self.num_actions
        shapes: dict[str, tuple[tuple[int, ...], Any]] = {
            "observations": ((n, size), np.float32),
            "action_masks": ((n, a), np.int8),
            "seats": ((n,), np.int32),
            "rewards": ((n, p), np.float32),
            "terminated": ((n,), np.bool_),
            "truncated": ((n,), np.bool_),
            "legal_counts": ((n,), np.int32),
            # Written only in same-step mode; one row otherwise.
            "final_observations": ((n if autoreset == "same_step" else 1, size), np.float32),
            "illegal_actions": ((n,), np.int8),
        }
        given = dict(buffers or {})
        unknown = sorted(set(given) - set(shapes))
        if unknown:
            raise InvalidOptionError(f"unknown buffers {unknown}; the names are {list(BUFFER_NAMES)}")
        # The buffers made here and the core's own per-env arrays (its remembered legal actions).
        total = sum(
            int(np.prod(shape)) * np.dtype(dtype).itemsize
            for name, (shape, dtype) in shapes.items()
            if name not in given
        ) + n * (4 * _batch.LEGAL_CACHE_SIZE + 64)
        if total > MAX_BUFFER_BYTES:
            raise InvalidOptionError(
                f"{n} envs need {total / 2**30:.1f} GiB of buffers; the most is {MAX_BUFFER_BYTES / 2**30:.0f} GiB"
            )
        arrays = {name: _buffer(name, given.get(name), shape, dtype) for name, (shape, dtype) in shapes.items()}
        _refuse_shared(given)
        self.observations: npt.NDArray[np.float32] = arrays["observations"]
        self.action_masks: npt.NDArray[np.int8] = arrays["action_masks"]
        self.seats: npt.NDArray[np.int32] = arrays["seats"]
        self.rewards: npt.NDArray[np.float32] = arrays["rewards"]
        self.terminated: npt.NDArray[np.bool_] = arrays["terminated"]
        self.truncated: npt.NDArray[np.bool_] = arrays["truncated"]
        self.legal_counts: npt.NDArray[np.int32] = arrays["legal_counts"]
        self.final_observations: npt.NDArray[np.float32] = arrays["final_observations"]
        self.illegal_actions: npt.NDArray[np.int8] = arrays["illegal_actions"]
        self._deal_states = np.zeros(n, np.uint64)
        self._choices = np.zeros(n, np.uint64)
        self._steps = np.zeros(n, np.int32)
        self._pending = np.zeros(n, np.int8)
        self._ended = np.zeros(n, np.int8)
        self._sampled = np.zeros(n, np.int64)
        # The actions a step applies: the caller's array copied here before the check, so the
        # core applies exactly what it checked, whatever another thread writes meanwhile.
        self._chosen = np.zeros(n, np.int64)
        self._legal_ids = np.zeros((n, _batch.LEGAL_CACHE_SIZE), np.int32)
        self._legal_n = np.zeros(n, np.int32)
        # legal_actions' and choose's own buffers; the [N, K] ones grow with K (views of
        # a flat block, so a row is contiguous whatever K is).
        self._ids_block = np.zeros(0, np.int32)
        self._ids_counts = np.zeros(n, np.int32)
        self._gather_block = np.zeros(0, np.int32)
        self._flat_block = np.zeros(0, np.int64)
        self._gather_counts = np.zeros(n, np.int32)
        self._scores_block = np.zeros(0, np.float32)
        self._choice = np.zeros(n, np.int64)
        # The core's count of step and reset calls at the last legal_actions(): legal-layout
        # scores must be aligned to the current positions.
        self._listed_at = -1
        states = [game.state_from_seed_state(0) for _ in range(n)]
        for state in states:
            state._forget_history()  # type: ignore[union-attr]  # the core steps them directly: no record is kept
        # A pure twin's states are stepped by the pure module (the compiled one refuses them).
        module = _batch if isinstance(states[0], _CoreState) else _core.pure_module("batch")
        self._core = module.Batch(
            states,
            seat,
            OPPONENTS[self.opponents],
            AUTORESET_MODES[autoreset],
            self.max_steps,
            information_state,
            _ILLEGAL_CODES[illegal_action],
        )
        self._core.bind(
            self.observations,
            self.final_observations,
            self.action_masks,
            self.seats,
            self.rewards,
            self.terminated.view(np.int8),
            self.truncated.view(np.int8),
            self.legal_counts,
            self._deal_states,
            self._choices,
            self._steps,
            self._pending,
            self._ended,
            self._legal_ids,
            self._legal_n,
            self.illegal_actions,
        )
        self._busy = threading.Lock()
        threads_used = min(self.threads, n)
        self._cuts = [n * k // threads_used for k in range(threads_used + 1)]
        self._pool: ThreadPoolExecutor | None = (
            ThreadPoolExecutor(max_workers=threads_used - 1, thread_name_prefix="cruiselib-batch")
            if threads_used > 1
            else None
        )
        self.reset(seed)

    # ------------------------------------------------------------------ stepping

    def reset(
        self,
        seed: int | str | bytes | Sequence[int | str | bytes] | None = None,
        *,
        mask: npt.ArrayLike | None = None,
    ) -> BatchStep:
        """Deal new games: in every env, or in those where ``mask`` (bool, one per env) is set.

        ``seed``: an int s deals env i's game from ``new_state(s + i)``'s deal; a sequence of
        ``num_envs`` seeds (int, str or bytes) gives each env its own; None draws fresh seeds.
        The reset envs' rewards, end flags and ``illegal_actions`` flags are cleared; the
        others are left as they were.
        """
        n = self.num_envs
        which = _mask(mask, n)  # a copy of the caller's mask, checked
        if seed is None:
            states = np.array([secrets.randbits(64) for _ in range(n)], dtype=np.uint64)
        elif isinstance(seed, (int, str, bytes)) and not isinstance(seed, bool):
            if isinstance(seed, int):
                states = np.array([_seed_state(seed + i) for i in range(n)], dtype=np.uint64)
            elif n > 1:
                raise InvalidOptionError(
                    "a str or bytes seed would give every env the same game: give an int, or one seed per env"
                )
            else:
                states = np.array([_seed_state(seed)], dtype=np.uint64)
        elif isinstance(seed, Sequence):
            if len(seed) != n:
                raise InvalidOptionError(f"seed: {len(seed)} seeds for {n} envs")
            states = np.array([_seed_state(Game._seed_or_random(s)) for s in seed], dtype=np.uint64)
        else:
            raise InvalidOptionError(f"seed must be an int, str, bytes, a sequence of them or None, not {seed!r}")
        self._claim()
        try:
            if which is None:
                self._run(self._core.reset, states, _NO_MASK, True)
            else:
                self._run(self._core.reset, states, which, False)
        finally:
            self._busy.release()
        return self._result()

    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Apply one action per env (an int array of shape ``(num_envs,)``): each env's seat
        to act takes it. An env whose game ended in the last step (next-step autoreset)
        starts its next game instead and ignores its action.

        With ``illegal_action="raise"`` (the default), raises IllegalMoveError, naming the
        env, if any action is out of range or illegal; then no env has changed. With
        ``"lose"`` or ``"random"``, such an env's game is lost or a random legal action is
        played instead, and ``illegal_actions`` flags it (see the class docstring). In every
        mode, stepping an env that waits for its reset (autoreset disabled) raises
        IllegalMoveError and changes nothing. The actions are copied before they are
        checked: the env applies exactly what it checked, even if another thread writes the
        caller's array during the call.
        """
        self._claim()
        try:
            if self._raising:
                chosen = _copy_actions(actions, self._chosen)
                bad = self._core.check(chosen)
                if bad >= 0:
                    raise IllegalMoveError(self._refusal(int(bad), int(chosen[bad])))
            else:
                chosen = _copy_actions(actions, self._chosen, False)
                if self.autoreset == "disabled" and self._ended.any():  # only this mode ends envs
                    raise IllegalMoveError(self._ended_message(int(np.argmax(self._ended))))
            self._run(self._core.step, chosen)
        finally:
            self._busy.release()
        return self._result()

    def sample_actions(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env (0 for an env waiting for its reset),
        chosen in the core from each game's choice stream (reproducible with the seed).
        Written into ``out`` (int64, shape ``(num_envs,)``) or a new array."""
        target = self._sampled if out is None else _buffer("out", out, (self.num_envs,), np.int64)
        self._claim()
        try:
            # On this thread alone: about 20 ns an env (the legal actions are remembered),
            # less than handing a range to another thread costs.
            self._core.sample(target, 0, self.num_envs)
        finally:
            self._busy.release()
        return target.copy() if out is None else target

    def legal_actions(
        self,
        width: int | None = None,
        *,
        out: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]] | None = None,
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """Each env's legal actions: ``(ids, counts)``, ``ids`` int32 ``[num_envs, K]``,
        row i env i's legal action ids ascending, padded with -1, and ``counts`` int32
        ``[num_envs]`` how many (0 in an env whose game is over and waits for its reset).

        ``width=None``: K is the largest count in the batch now (at least 1), so it changes
        from step to step; give ``width`` for a fixed K (an env with more legal actions
        raises InvalidOptionError, naming it and the width needed: nothing is cut).
        Listed in the core from the legal actions each env remembers, the GIL released:
        about 10 µs for 1,024 envs of Dream Cruise.

        The arrays are the env's own buffers, overwritten by the next call (copy what you
        keep); ``out=(ids, counts)`` writes into arrays of yours instead (C-contiguous,
        writeable int32, ``[num_envs, K]`` and ``[num_envs]``; K is then their width).
        Scores aligned to these rows are what :meth:`choose` takes as ``layout="legal"``.
        """
        n = self.num_envs
        if width is not None:
            width = _count("width", width, 1, self.num_actions)
        if out is not None:
            if not isinstance(out, tuple) or len(out) != 2 or not isinstance(out[0], np.ndarray):
                raise InvalidOptionError("out must be a tuple (ids, counts) of two numpy arrays")
            if width is None and (out[0].ndim != 2 or out[0].shape[1] < 1):
                raise InvalidOptionError(f"out[0] (ids) must be an int32 array of shape ({n}, K), not {out[0].shape}")
            k = width if width is not None else int(out[0].shape[1])
            ids = _buffer("out[0] (ids)", out[0], (n, k), np.int32)
            counts = _buffer("out[1] (counts)", out[1], (n,), np.int32)
            if np.may_share_memory(ids, counts):
                raise InvalidOptionError("out: ids and counts share memory: give each an array of its own")
        self._claim()
        try:
            most = int(self._legal_n.max())
            if out is None:
                k = max(most, 1) if width is None else width
                self._ids_block = _grown(self._ids_block, n * k)
                ids = self._ids_block[: n * k].reshape(n, k)
                counts = self._ids_counts
            self._refuse_narrow(k, most, "width")
            self._core.legal(ids, counts, -1, 0, n)  # on this thread: a copy of a few ids per env
            self._listed_at = self._core.moves
        finally:
            self._busy.release()
        return ids, counts

    def choose(
        self,
        scores: npt.ArrayLike,
        *,
        temperature: float = 1.0,
        greedy: bool = False,
        layout: Layout | None = None,
        out: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """An action per env from a policy's scores, chosen in the core among the legal ones.

        ``scores`` (float32; other float dtypes are converted) is either ``[num_envs,
        num_actions]`` logits (``layout="dense"``: the entries of illegal actions are
        ignored), or ``[num_envs, K]`` scores aligned to the rows of the last
        :meth:`legal_actions` (``layout="legal"``: entry k scores the env's k-th legal
        action; entries past its count are ignored; K at least each env's count). Those rows
        must be of the current positions: legal-layout scores after a ``step`` or ``reset``
        without a new ``legal_actions()`` raise InvalidStateError. ``layout=None`` tells the
        two apart by the width, and raises InvalidOptionError when the width is
        ``num_actions`` (either could be meant) or fits neither.

        Each env samples from the softmax of ``score / temperature`` over its legal actions
        (computed stably: the highest score subtracted first), with a 53-bit uniform double
        from its game's choice stream (the draw of :meth:`sample_actions`), so the choices
        are reproducible from the seed and the same on both cores; ``greedy=True`` takes the
        highest score instead (the lowest action on ties; no draw). A NaN score counts as
        -inf, a score beyond float32 as ±inf; if every legal score of an env is -inf, it
        samples uniformly (greedy: its lowest legal action); +inf scores share the choice.
        An env whose game is over gets 0 (as :meth:`sample_actions`). ``temperature``: a
        finite number > 0.

        The scores are copied into the env's own buffer (dense ones: only their legal
        entries, gathered) before the core reads them, under the env's call lock: another
        thread writing your array meanwhile can change the values copied, never make an
        illegal action chosen. The choosing runs in the core with the GIL released, split
        over the env's threads. Returns the env's own int64 ``[num_envs]`` buffer,
        overwritten by the next call (``out=``: an int64 array of yours instead); pass it to
        :meth:`step` as it is.
        """
        n = self.num_envs
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.integer, np.floating)):
            raise InvalidOptionError(f"temperature must be a number > 0, not {temperature!r}")
        t = float(temperature)
        if not (math.isfinite(t) and t > 0.0):
            raise InvalidOptionError(f"temperature must be finite and > 0, not {temperature!r}")
        if not isinstance(greedy, (bool, np.bool_)):
            raise InvalidOptionError(f"greedy must be True or False, not {greedy!r}")
        if layout not in (None, "dense", "legal"):
            raise InvalidOptionError(f"layout must be 'dense', 'legal' or None, not {layout!r}")
        target = self._choice if out is None else _buffer("out", out, (n,), np.int64)
        try:
            array = np.asarray(scores)
        except (TypeError, ValueError) as exc:
            raise InvalidOptionError(f"scores must be a float array of shape ({n}, K): {exc}") from None
        if array.ndim != 2 or array.shape[0] != n or not np.issubdtype(array.dtype, np.floating):
            raise InvalidOptionError(
                f"scores must be a float array of shape ({n}, {self.num_actions}) (dense) or ({n}, K) "
                f"(legal_actions' layout), not {array.dtype} {array.shape}"
            )
        width = int(array.shape[1])
        self._claim()
        try:
            most = int(self._legal_n.max())
            dense = self._layout(layout, width, most)
            if dense:
                copy = self._gathered(array, max(most, 1))
            else:
                if self._listed_at != self._core.moves:
                    raise InvalidStateError(
                        "legal-layout scores must be aligned to the current positions: call "
                        "legal_actions() after each step or reset (or pass dense scores)"
                    )
                self._scores_block = _grown(self._scores_block, n * width)
                copy = self._scores_block[: n * width].reshape(n, width)
                with np.errstate(over="ignore"):
                    np.copyto(copy, array, casting="same_kind")
            self._run(self._core.choose, copy, t, bool(greedy), target)
        finally:
            self._busy.release()
        return target

    def _gathered(self, array: npt.NDArray[Any], k: int) -> npt.NDArray[np.float32]:
        """Dense scores' legal entries, copied into the env's own ``[num_envs, k]`` float32
        buffer in legal_actions' layout: gathered at indices the core lists from its own
        memory of each position (never from an array the caller holds)."""
        n = self.num_envs
        self._scores_block = _grown(self._scores_block, n * k)
        copy: npt.NDArray[np.float32] = self._scores_block[: n * k].reshape(n, k)
        if array.flags.c_contiguous:
            # Flat indices: np.take is several times faster than take_along_axis.
            self._flat_block = _grown(self._flat_block, n * k)
            index = self._flat_block[: n * k].reshape(n, k)
            self._core.flat_legal(index, self.num_actions, 0, n)
            flat = array.reshape(-1)  # a view: the array is C-contiguous
            if flat.dtype == np.float32:
                np.take(flat, index, out=copy, mode="clip")  # every index is in range: no clipping
                return copy
            picked = np.take(flat, index, mode="clip")
        else:
            self._gather_block = _grown(self._gather_block, n * k)
            where = self._gather_block[: n * k].reshape(n, k)
            self._core.legal(where, self._gather_counts, 0, 0, n)  # pad 0: a column in range
            picked = np.take_along_axis(array, where, axis=1)
        with np.errstate(over="ignore"):  # float64 beyond float32: ±inf, as documented
            np.copyto(copy, picked, casting="same_kind")
        return copy

    def _layout(self, layout: Layout | None, width: int, most: int) -> bool:
        """Whether scores of ``width`` columns are dense (else legal), the most legal
        actions of an env being ``most``; a width that fits neither, or both with no
        ``layout`` given, is refused."""
        a = self.num_actions
        if layout == "dense":
            if width != a:
                raise InvalidOptionError(f"dense scores must have {a} columns (num_actions), not {width}")
            return True
        if width < 1:
            raise InvalidOptionError("scores must have at least one column")
        if layout == "legal":
            self._refuse_narrow(width, most, "legal-layout scores' width")
            return False
        if width == a:
            raise InvalidOptionError(
                f"scores of {width} columns fit both layouts (dense, and legal_actions' rows of width "
                f"{width} = num_actions): pass layout='dense' or layout='legal'"
            )
        if width < max(most, 1):
            raise InvalidOptionError(
                f"scores of {width} columns fit neither layout: dense scores have {a} columns (num_actions), "
                f"legal-layout ones at least {max(most, 1)} (the most legal actions of an env now)"
            )
        return False

    def _refuse_narrow(self, width: int, most: int, what: str) -> None:
        """Refuse ``width`` columns when an env has more legal actions (naming the env)."""
        if most > width:
            env = int(np.argmax(self._legal_n > width))
            raise InvalidOptionError(
                f"env {env} has {int(self._legal_n[env])} legal actions, more than {what} {width}: "
                f"the batch needs {most} (width=None fits the batch)"
            )

    def _run(self, method: Any, *args: Any) -> None:
        """``method(*args, lo, hi)`` over the batch's ranges, one per thread (this one too)."""
        cuts = self._cuts
        if self._pool is None:
            method(*args, 0, self.num_envs)
            return
        call = functools.partial(method, *args)
        futures = [self._pool.submit(call, lo, hi) for lo, hi in itertools.pairwise(cuts[1:])]
        call(cuts[0], cuts[1])
        for future in futures:
            future.result()

    def _claim(self) -> None:
        """Refuse a second caller while a call runs: the core steps the envs with the GIL
        released, and two calls at once would move the same positions."""
        if not self._busy.acquire(blocking=False):
            raise InvalidStateError("this BatchEnv is busy in another thread: one call at a time")

    def _result(self) -> BatchStep:
        return BatchStep(
            self.observations, self.action_masks, self.seats, self.rewards, self.terminated, self.truncated
        )

    def _refusal(self, env: int, action: int) -> str:
        code = int(self._core.error_code)
        if code == _batch.REFUSAL_CODES["ended"]:
            return self._ended_message(env)
        if code == _batch.REFUSAL_CODES["out_of_range"]:
            return f"env {env}: action {action} is out of range 0..{self.num_actions - 1}"
        reason = self.game.rules.reasons[code]
        return f"env {env}: action {action} is illegal for seat {int(self.seats[env])}: {reason}"

    @staticmethod
    def _ended_message(env: int) -> str:
        return f"env {env}: its game has ended; reset it first (reset(mask=...), autoreset disabled)"

    # ------------------------------------------------------------------ looking at envs

    @property
    def deal_states(self) -> npt.NDArray[np.uint64]:
        """Each env's current game's deal: the generator state it was dealt from (a copy)."""
        deals: npt.NDArray[np.uint64] = self._deal_states.copy()
        return deals

    @property
    def episode_steps(self) -> npt.NDArray[np.int32]:
        """The actions applied in each env's current game, all seats' (a copy)."""
        steps: npt.NDArray[np.int32] = self._steps.copy()
        return steps

    def state(self, env: int) -> State[Any, Any, Any]:
        """A copy of env ``env``'s position as a cruiselib State (it keeps no history: the
        deal is ``deal_states[env]``)."""
        if isinstance(env, bool) or not isinstance(env, (int, np.integer)) or not 0 <= env < self.num_envs:
            raise InvalidOptionError(f"env must be an int 0..{self.num_envs - 1}, not {env!r}")
        self._claim()
        try:
            state: State[Any, Any, Any] = self._core.state_at(int(env)).clone()
        finally:
            self._busy.release()
        return state

    @property
    def observation_fields(self) -> dict[str, slice]:
        """The named parts of a row of ``observations`` (the game's observation or
        information-state fields)."""
        if self.information_state:
            return self.game.information_state_fields()
        return self.game.observation_fields()

    def close(self) -> None:
        """Stop the worker threads (a closed env with threads cannot step again)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
            self._cuts = [0, self.num_envs]

    def __enter__(self) -> BatchEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        extra = "" if self.learner is None else f", learner={self.learner}, opponents={self.opponents!r}"
        if self.illegal_action != "raise":
            extra += f", illegal_action={self.illegal_action!r}"
        return (
            f"BatchEnv({self.game!r}, num_envs={self.num_envs}, threads={self.threads}, "
            f"autoreset={self.autoreset!r}{extra})"
        )


_NO_MASK = np.zeros(1, np.int8)


def _count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise InvalidOptionError(f"{name} must be an int from {low} to {high}, not {value!r}")
    return int(value)


def _buffer(name: str, given: object, shape: tuple[int, ...], dtype: Any) -> Any:
    """A new zeroed array, or ``given`` checked to be one the core may write."""
    if given is None:
        return np.zeros(shape, dtype)
    if (
        not isinstance(given, np.ndarray)
        or given.dtype != np.dtype(dtype)
        or given.shape != shape
        or not given.flags.c_contiguous
        or not given.flags.writeable
    ):
        what = f"dtype {given.dtype}, shape {given.shape}" if isinstance(given, np.ndarray) else type(given).__name__
        raise InvalidOptionError(
            f"buffer {name} must be a writeable C-contiguous {np.dtype(dtype).name} array of shape {shape}, not {what}"
        )
    return given


def _grown(block: npt.NDArray[Any], size: int) -> Any:
    """``block``, or a larger one of its dtype if it holds fewer than ``size`` entries
    (grown by half again, so a width that wavers does not reallocate every call)."""
    if block.shape[0] >= size:
        return block
    return np.zeros(max(size, block.shape[0] * 3 // 2), block.dtype)


def _copy_actions(actions: npt.ArrayLike, out: npt.NDArray[np.int64], strict: bool = True) -> npt.NDArray[np.int64]:
    """``actions`` checked for shape and dtype and copied into ``out`` (the env's own
    buffer), which is what the core then checks and applies: nothing of the caller's is
    read again after the copy. Any integer dtype, read-only or strided arrays are taken.
    Unsigned values beyond int64 are refused, or (``strict=False``, where the core checks
    each action itself) copied as negative values, out of range as they were."""
    n = out.shape[0]
    try:
        array = np.asarray(actions)
    except (TypeError, ValueError) as exc:
        raise IllegalMoveError(f"actions must be an int array of shape ({n},): {exc}") from None
    if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
        raise IllegalMoveError(f"actions must be an int array of shape ({n},), not {array.dtype} {array.shape}")
    if array.dtype == np.uint64:
        array = array.copy()  # a snapshot: its range checked, then the same values cast
        if strict and n and int(array.max()) > np.iinfo(np.int64).max:
            raise IllegalMoveError(f"actions: {int(array.max())} is out of range")
        np.copyto(out, array, casting="unsafe")
    else:
        np.copyto(out, array, casting="safe")  # every other integer dtype fits int64
    return out


def _mask(mask: npt.ArrayLike | None, n: int) -> npt.NDArray[np.int8] | None:
    """A copy of ``mask`` (bool, one per env) as int8, or None: the core reads the copy,
    never the caller's array, which another thread may write."""
    if mask is None:
        return None
    array = np.asarray(mask)
    if array.shape != (n,) or array.dtype != np.bool_:
        raise InvalidOptionError(f"mask must be a bool array of shape ({n},), not {array.dtype} {array.shape}")
    return np.array(array, dtype=np.bool_, copy=True).view(np.int8)


def _refuse_shared(given: Mapping[str, npt.NDArray[Any]]) -> None:
    """Refuse two buffers of the caller's that share memory (two names, one array, or
    overlapping views): the env would write one result over another."""
    for (first, a), (second, b) in itertools.combinations(sorted(given.items()), 2):
        if np.may_share_memory(a, b):  # exact for the C-contiguous arrays _buffer admits
            raise InvalidOptionError(
                f"buffers {first} and {second} share memory: each buffer must be an array of its own"
            )
