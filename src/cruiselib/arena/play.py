"""Playing one :class:`~cruiselib.arena.plan.Job`: :func:`play_job` returns its rows as
:class:`JobRows` (numpy columns, cheap to pickle). It is what every backend runs in its
workers; it imports cruiselib itself, so it runs in a fresh (spawned) process.

:func:`play_games` is the one loop that plays bots against each other, game after game, into
the result columns of :class:`PlayedGames` (``cruiselib simulate`` and ``cruiselib demo`` play
theirs with it too); :func:`played_from_playouts` gives the same columns for games played in
the core.

A bot that fails in a game raises :class:`BotError`, one line naming the bot, its seat, the
move, the deal and the game; :class:`MoveClock` holds each move to a time limit.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import json
import logging
import os
import reprlib
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib.bots import Bot, make_bot
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError

from .plan import GOLDEN, MASK64, MIX1, MIX2, BotSpec, Job, deal_seed, mix64

__all__ = [
    "BotError",
    "JobRows",
    "MoveClock",
    "MoveTimeLimitExceeded",
    "PlayedGames",
    "check_move_time_limit",
    "describe_error",
    "describe_value",
    "import_bot_module",
    "join_played",
    "make_player",
    "mix64_array",
    "play_games",
    "play_job",
    "played_from_playouts",
    "playout_seed_for",
]

_LOG = logging.getLogger("cruiselib.arena")


class JobRows(msgspec.Struct, frozen=True):
    """The games of one job, one entry per game in row order (``index`` 0, 1, ...).

    ``seating[i]`` indexes ``job.seatings`` (-1 for in-core random games), ``wins[i, p]`` is 1
    if seat p won, ``seconds`` is wall time (the one column that differs between runs).
    """

    job: int
    deal: npt.NDArray[np.int64]
    deal_seed: npt.NDArray[np.uint64]
    seating: npt.NDArray[np.int16]
    start_player: npt.NDArray[np.int16]
    scores: npt.NDArray[np.int32]
    wins: npt.NDArray[np.int8]
    length: npt.NDArray[np.int32]
    seconds: npt.NDArray[np.float64]

    @property
    def games(self) -> int:
        return int(self.deal.shape[0])


def make_player(bot: BotSpec, seed: int) -> Bot:
    """The bot of a spec: a name of :data:`cruiselib.bots.BOTS` or ``"module:attr"`` called
    with ``seed=`` and the options.

    InvalidOptionError, naming the bot, for a module that cannot be imported (whatever its
    code raises at import), an ``attr`` it lacks, a factory that raises or refuses the options,
    and a factory that gives no bot."""
    if ":" not in bot.name:
        return make_bot(bot.name, seed=seed, **bot.options)
    module_name, _, attr = bot.name.partition(":")
    try:
        module = import_bot_module(module_name)
        factory = getattr(module, attr)
    except AttributeError:
        raise InvalidOptionError(
            f"cannot import the bot {bot.name!r}: module {module_name!r} has no attribute {attr!r}"
        ) from None
    except (Exception, SystemExit) as exc:  # the module's own code runs: anything can come out
        raise InvalidOptionError(f"cannot import the bot {bot.name!r}: {describe_error(exc)}") from None
    try:
        player = factory(seed=seed, **bot.options)
    except TypeError as exc:
        raise InvalidOptionError(f"bad options for the bot {bot.name!r}: {describe_error(exc)}") from None
    except (Exception, SystemExit) as exc:
        raise InvalidOptionError(f"the bot {bot.name!r} could not be made: {describe_error(exc)}") from None
    try:
        choose = getattr(player, "choose", None)
    except Exception:  # a property that raises
        choose = None
    if not callable(choose):
        raise InvalidOptionError(f"{bot.name!r} did not give a bot (no choose(state) method)")
    result: Bot = player
    return result


def import_bot_module(module_name: str) -> Any:
    """The module of a bot given as ``module:attr``, found as ``python -m`` finds it: on
    ``sys.path`` or in the current folder.

    A console script such as ``cruiselib`` starts with its own folder on ``sys.path``, not
    the current one, so a bot module beside the user would not be found. When the module is
    not on ``sys.path``, the current folder is looked in and, if it holds the module, put
    first on ``sys.path`` (where ``python -m`` puts it), so the module's imports of its
    neighbours work too. (One difference: a module on ``sys.path`` wins over a file of the
    same name in the current folder.) Spawned workers start in the same folder and find it
    the same way. Found nowhere: ModuleNotFoundError naming the folder and what to do."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.partition(".")[0]
        if exc.name != top:
            raise  # a module the bot's module imports is missing: its own error says which
        here = os.getcwd()
        if here in sys.path or not _holds_module(here, top):
            raise ModuleNotFoundError(
                f"No module named {top!r} on sys.path or in the current folder ({here}): run from the "
                f"folder that holds {top}.py (or the package {top}/), or add its folder to PYTHONPATH",
                name=top,
            ) from None
    sys.path.insert(0, here)
    importlib.invalidate_caches()
    return importlib.import_module(module_name)


def _holds_module(folder: str, name: str) -> bool:
    """Whether ``folder`` holds a module or package ``name`` (``name.py``, ``name/``, or an
    extension module ``name.*.so``/``.pyd``)."""
    path = os.path.join(folder, name)
    if os.path.isfile(path + ".py") or os.path.isdir(path):
        return True
    try:
        entries = os.listdir(folder)
    except OSError:
        return False
    return any(entry.startswith(name + ".") and entry.endswith((".so", ".pyd")) for entry in entries)


# --------------------------------------------------------------------------- what went wrong

MESSAGE_LIMIT = 400
"""Characters at most of a bot's error text or returned value in a message (a bot can return
or raise anything, of any size)."""


class BotError(CruiseError):
    """A bot failed in a game of a run: it raised in ``choose``, returned what is no legal
    move, or took longer than the move time limit. The message names the bot, its seat, the
    game, the deal, the move and what went wrong."""


def _brief(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else f"{text[: limit - 25]}... ({len(text):,} characters)"


def describe_error(error: BaseException) -> str:
    """``Type: message (at file:line, in function)``, the message cut short, the place the
    innermost frame of the error's traceback."""
    try:
        text = str(error)
    except Exception:  # a hostile __str__
        text = "(its message cannot be read)"
    described = f"{type(error).__name__}: {_brief(text)}" if text else type(error).__name__
    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    for frame in reversed(frames):
        if frame.filename.startswith("<frozen ") or os.path.dirname(frame.filename) == _IMPORTLIB:
            continue  # the import machinery says nothing of the bot
        if frame.filename != __file__:  # the error is the bot's (this file's: the import's)
            described += f" (at {frame.filename}:{frame.lineno}, in {frame.name})"
        break
    return described


_IMPORTLIB = os.path.dirname(importlib.__file__ or "")


def describe_value(value: object) -> str:
    """A short text of any value a bot returned, without calling a repr of unknown code (it
    could hang or raise): builtins through :mod:`reprlib`, an int by its size past 30 digits,
    anything else by its type."""
    kind = type(value)
    if kind is int and isinstance(value, int) and value.bit_length() > 100:
        return f"an int of {value.bit_length()} bits"
    if kind in (bool, int, float, str, bytes, list, tuple, dict, set, frozenset, type(None)):
        try:
            return _brief(_REPR.repr(value))
        except Exception:  # a huge int inside a container
            pass
    if isinstance(value, np.generic):
        return f"numpy {kind.__name__} {_brief(str(value))}"
    return f"a {kind.__module__}.{kind.__qualname__} object"


_REPR = reprlib.Repr()
_REPR.maxstring = 60
_REPR.maxother = 60


def mix64_array(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """:func:`~cruiselib.arena.plan.mix64` of every element (uint64 arithmetic wraps)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return np.asarray(z ^ (z >> np.uint64(31)), dtype=np.uint64)


def _unmix64(z: int) -> int:
    """The inverse of :func:`~cruiselib.arena.plan.mix64`."""
    z = z ^ (z >> 31) ^ (z >> 62)
    z = (z * pow(MIX2, -1, 1 << 64)) & MASK64
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(MIX1, -1, 1 << 64)) & MASK64
    return z ^ (z >> 30) ^ (z >> 60)


def playout_seed_for(game: Any, base: int, first: int) -> int:
    """The seed whose ``game.playouts(n, seed)`` plays games ``first, first+1, ...`` of the
    cell with generator state ``base``: ``seed_state(seed) == base + first``."""
    seed = _unmix64((base + first) & MASK64)
    if game.playout_seed_state(seed, 0) != deal_seed(base, first):  # the core's seeding changed
        raise RuntimeError("cannot offset game.playouts: its seed derivation is not the one expected")
    return seed


def _bot_seed(deal: int, seat: int) -> int:
    """Each seat's bot seed on a deal: the same for every rotation, so a seat's randomness
    is tied to the deal, not to who sits there."""
    return mix64((deal + (seat + 1) * GOLDEN) & MASK64) >> 1


def play_job(job: Job, move_time_limit: float | None = None, hard_stop: Callable[[str], None] | None = None) -> JobRows:
    """Play every game of ``job`` and return its rows.

    A bot that fails raises :class:`BotError` naming it (InvalidOptionError for one that
    cannot be made). ``move_time_limit``: seconds a bot may take on one move (None: no
    limit); see :class:`MoveClock` for how a move over it is stopped, and ``hard_stop``, what
    ends this process when a bot does not stop (None: nothing can end it)."""
    if not job.seatings:
        return _play_core(_playout_game(job.game, job.options_json), job)
    game = cruiselib.make(job.game, **job.options)
    if move_time_limit is None:
        return _play_bots(game, job, None)
    clock = MoveClock(move_time_limit, hard_stop)
    try:
        return _play_bots(game, job, clock)
    except MoveTimeLimitExceeded:  # the limit passed outside the bot's own code (see MoveClock)
        clock.close()
        raise BotError(clock.timeout_message()) from None
    finally:
        clock.close()


@functools.lru_cache(maxsize=16)
def _playout_game(name: str, options_json: str) -> Any:
    """The game of a configuration, made once a process for its in-core jobs (making one
    can take milliseconds: a study's hundreds of jobs would pay it each time). Only
    ``playouts`` and seeding are used, which leave the game as it was."""
    return cruiselib.make(name, **json.loads(options_json))


class PlayedGames(msgspec.Struct, frozen=True):
    """The results of games played one after another, one entry per game: ``start_player``
    (the seat that acted first), ``scores[g, p]``, ``wins[g, p]`` (1 if seat p won),
    ``length`` (actions played) and ``seconds`` (wall time)."""

    start_player: npt.NDArray[np.int16]
    scores: npt.NDArray[np.int32]
    wins: npt.NDArray[np.int8]
    length: npt.NDArray[np.int32]
    seconds: npt.NDArray[np.float64]

    @property
    def games(self) -> int:
        return int(self.length.shape[0])


def _choose_and_apply(game: int, state: Any, bot: Bot, seat: int, move: int) -> None:
    """A move as it is plainly played: what the bot chooses, applied."""
    state.apply(bot.choose(state))


def play_games(
    n: int,
    players: int,
    start: Callable[[int], tuple[Any, Sequence[Bot]]],
    move: Callable[[int, Any, Bot, int, int], None] = _choose_and_apply,
    done: Callable[[int, Any], None] | None = None,
) -> PlayedGames:
    """Play ``n`` games of ``players`` seats one after another and return their results.

    ``start(g)`` gives game ``g``'s new state and the bot of each seat; every move is
    ``move(g, state, bot, seat, number)`` (``number`` 0 for the game's first; by default
    the bot's choice, applied), made by the bot of the seat to act until the game is over;
    ``done(g, state)``, if given, sees each game at its end. A game's ``seconds`` count
    ``start`` too. What ``start`` or ``move`` raises ends the loop."""
    if n < 0 or players < 1:
        raise InvalidOptionError(f"play_games needs n >= 0 games of players >= 1 seats, not {n} of {players}")
    start_player = np.empty(n, dtype=np.int16)
    scores = np.zeros((n, players), dtype=np.int32)
    wins = np.zeros((n, players), dtype=np.int8)
    length = np.empty(n, dtype=np.int32)
    seconds = np.empty(n, dtype=np.float64)
    for g in range(n):
        began = time.perf_counter()
        state, bots = start(g)
        start_player[g] = state.current_player
        actions = 0
        while not state.is_over:
            seat = state.current_player
            move(g, state, bots[seat], seat, actions)
            actions += 1
        length[g] = actions
        scores[g] = state.scores()
        for seat in state.winners():
            wins[g, seat] = 1
        seconds[g] = time.perf_counter() - began
        if done is not None:
            done(g, state)
    return PlayedGames(start_player=start_player, scores=scores, wins=wins, length=length, seconds=seconds)


def played_from_playouts(result: Any, seconds: float) -> PlayedGames:
    """The :class:`PlayedGames` of ``game.playouts(...)``'s result, played in ``seconds``
    in all (each game is given an equal share)."""
    n = len(result.lengths)
    return PlayedGames(
        start_player=np.asarray(result.first_seats, dtype=np.int16),
        scores=np.asarray(result.scores, dtype=np.int32),
        wins=np.asarray(result.wins, dtype=np.int8),
        length=np.asarray(result.lengths, dtype=np.int32),
        seconds=np.full(n, seconds / max(n, 1), dtype=np.float64),
    )


def join_played(parts: Sequence[PlayedGames]) -> PlayedGames:
    """The games of ``parts`` (at least one), one after another."""
    if not parts:
        raise InvalidOptionError("join_played needs at least one part")
    return PlayedGames(
        start_player=np.concatenate([part.start_player for part in parts]),
        scores=np.concatenate([part.scores for part in parts]),
        wins=np.concatenate([part.wins for part in parts]),
        length=np.concatenate([part.length for part in parts]),
        seconds=np.concatenate([part.seconds for part in parts]),
    )


def _rows(
    job: Job,
    deals: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.uint64],
    seating: npt.NDArray[np.int16],
    played: PlayedGames,
) -> JobRows:
    return JobRows(
        job=job.index,
        deal=deals,
        deal_seed=seeds,
        seating=seating,
        start_player=played.start_player,
        scores=played.scores,
        wins=played.wins,
        length=played.length,
        seconds=played.seconds,
    )


def _play_core(game: Any, job: Job) -> JobRows:
    n = job.deals
    start = time.perf_counter()
    result = game.playouts(n, playout_seed_for(game, job.base, job.first), threads=1)
    played = played_from_playouts(result, time.perf_counter() - start)
    deals = np.arange(job.first, job.first + n, dtype=np.int64)
    seeds = mix64_array(np.uint64(job.base) + deals.astype(np.uint64))
    return _rows(job, deals, seeds, np.full(n, -1, dtype=np.int16), played)


def _play_bots(game: Any, job: Job, clock: MoveClock | None) -> JobRows:
    order: list[tuple[int, int]] = []  # (deal, seating) in row order
    for g in range(job.first, job.first + job.deals):
        if job.per_deal:
            order.extend((g, s) for s in range(len(job.seatings)))
        else:
            order.append((g, g % len(job.seatings)))
    seeds = [deal_seed(job.base, g) for g, _ in order]

    def start(row: int) -> tuple[Any, list[Bot]]:
        g, s = order[row]
        bots = [_make(clock, job, g, s, seat, bot, seeds[row]) for seat, bot in enumerate(job.seatings[s])]
        return game.state_from_seed_state(seeds[row]), bots

    def move(row: int, state: Any, bot: Bot, seat: int, number: int) -> None:
        g, s = order[row]
        if clock is None:
            try:
                action: object = bot.choose(state)
            except (Exception, SystemExit) as error:
                raise BotError(f"{_where(job, g, s, seat, number)} raised {describe_error(error)}") from None
        else:
            action = _choose_timed(clock, bot, state, job, g, s, seat, number)
        _apply(game, state, action, job, g, s, seat, number)

    played = play_games(len(order), job.players, start, move)
    return _rows(
        job,
        np.array([g for g, _ in order], dtype=np.int64),
        np.array(seeds, dtype=np.uint64),
        np.array([job.rotations[s] for _, s in order], dtype=np.int16),
        played,
    )


def _where(job: Job, deal: int, seating: int, seat: int, move: int | None) -> str:
    """The bot of a seat on a deal of a job, for a message: its label (and import path), the
    game and its options, the deal, the rotation, the move (``move`` 0 is said "move 1"; None:
    the bot was being made)."""
    bot = job.seatings[seating][seat]
    name = repr(bot.display) if bot.display == bot.name else f"{bot.display!r} ({bot.name})"
    options = f" {job.options_json}" if job.options else ""
    rotation = f" (rotation {job.rotations[seating]})" if len(job.seatings) > 1 else ""
    at = "being made for" if move is None else f"at move {move + 1} of"
    return (
        f"the bot {name} in seat {seat}, {at} deal {deal}{rotation} of {job.game}{options} "
        f"(job {job.id}, cell {job.cell})"
    )


def _apply(game: Any, state: Any, action: object, job: Job, g: int, s: int, seat: int, move: int) -> None:
    """Apply a bot's move, or raise BotError saying what it returned: a value of no move at
    all is refused before the game sees it (a huge int or object is never formatted)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        if not 0 <= int(action) < game.num_actions:
            raise BotError(
                f"{_where(job, g, s, seat, move)} returned {describe_value(action)}, "
                f"not an action id (0 to {game.num_actions - 1})"
            )
    elif not isinstance(action, game.move_classes):
        raise BotError(
            f"{_where(job, g, s, seat, move)} returned {describe_value(action)}, "
            f"not an action id or a {game.title} move"
        )
    try:
        state.apply(action)
    except IllegalMoveError as error:
        raise BotError(
            f"{_where(job, g, s, seat, move)} returned an illegal move, {describe_value(action)}: {_brief(str(error))}"
        ) from None


def _make(clock: MoveClock | None, job: Job, g: int, s: int, seat: int, bot: BotSpec, seed: int) -> Bot:
    """:func:`make_player` for a seat of a deal, its error naming them; under the clock (if
    any) with a limit of :data:`MAKE_TIME_LIMIT` at least (the first import of a bot's module
    can take seconds)."""
    if clock is not None:
        clock.start(max(clock.limit, MAKE_TIME_LIMIT), job, g, s, seat, None)
    try:
        player = make_player(bot, _bot_seed(seed, seat))
    except CruiseError as error:
        if clock is not None:
            clock.stop(raise_late=False)
        raise type(error)(f"{error} ({_where(job, g, s, seat, None)})") from None
    if clock is not None:
        clock.stop()
    return player


def _choose_timed(clock: MoveClock, bot: Bot, state: Any, job: Job, g: int, s: int, seat: int, move: int) -> object:
    """``bot.choose(state)`` under the clock."""
    clock.start(clock.limit, job, g, s, seat, move)
    try:
        action = bot.choose(state)
    except MoveTimeLimitExceeded:
        raise  # play_job words it
    except (Exception, SystemExit) as error:
        # Over the limit and then raised (maybe because it was stopped): the limit is what it broke.
        clock.stop()
        raise BotError(f"{_where(job, g, s, seat, move)} raised {describe_error(error)}") from None
    clock.stop()
    return action


# --------------------------------------------------------------------------- the move clock


def check_move_time_limit(limit: object) -> float | None:
    """A move time limit as seconds (a positive finite number), or None for no limit;
    InvalidOptionError for anything else."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit < float("inf"):
        raise InvalidOptionError(
            f"the move time limit must be a positive number of seconds (None: no limit), not {limit!r}"
        )
    return float(limit)


MAKE_TIME_LIMIT = 60.0
"""Seconds at least that making a bot (importing its module, calling its factory) may take
under a move time limit."""


class MoveTimeLimitExceeded(BaseException):
    """Raised in a bot's thread when its move passes the limit (a BaseException, so a bot's
    ``except Exception`` does not swallow it); :func:`play_job` turns it into a BotError."""


# PyThreadState_SetAsyncExc with a prototype of its own (setting argtypes on ctypes.pythonapi's
# function would change it for every user of it in the process).
_set_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)(
    ("PyThreadState_SetAsyncExc", ctypes.pythonapi)
)


class MoveClock:
    """Times each move of one job's bots against ``limit`` seconds, on a watchdog thread.

    A move over the limit is stopped in two steps. First :class:`MoveTimeLimitExceeded` is
    raised in the bot's thread (at once in Python code; a bot blocked in C code or a sleep
    sees it when that returns). A move that has still not returned at 1.5 times the limit
    (at least the limit plus a second) cannot be stopped from inside this process:
    ``hard_stop(message)`` is called, which ends the process (a worker); without it (this
    process is the runner's) a warning is logged and the move runs on. A move that returns
    over the limit, whether or not it noticed, fails the job all the same.
    """

    def __init__(self, limit: float, hard_stop: Callable[[str], None] | None = None) -> None:
        checked = check_move_time_limit(limit)
        if checked is None:
            raise InvalidOptionError("a move clock needs a limit")
        self.limit = checked
        self.hard_stop = hard_stop
        self._thread = threading.get_ident()
        self._lock = threading.Lock()
        self._move = 0  # the number of the move being timed; 0 between moves
        self._count = 0
        self._started = 0.0
        self._allowed = self.limit
        self._what: tuple[Any, ...] = ()
        self._late: tuple[tuple[Any, ...], float] | None = None  # the move over the limit, and its limit
        self._fired = 0  # the move MoveTimeLimitExceeded was sent to
        self._closed = False
        self._period = max(0.01, min(self.limit / 4, 0.25))
        threading.Thread(target=self._watch, name="cruiselib-move-clock", daemon=True).start()

    def start(self, allowed: float, *what: Any) -> None:
        """A move begins, of at most ``allowed`` seconds; ``what`` (job, deal, seating, seat,
        move) says whose it is in a message."""
        # No lock: the watchdog reads these under its lock, and _move (set last) says the move began.
        self._count += 1
        self._allowed = allowed
        self._what = what
        self._started = time.monotonic()
        self._move = self._count

    def stop(self, raise_late: bool = True) -> None:
        """The move ended: raise MoveTimeLimitExceeded if it took longer than allowed."""
        with self._lock:
            move, self._move = self._move, 0
            over = time.monotonic() - self._started > self._allowed
            if self._fired == move:
                _set_async_exc(self._thread, None)  # not delivered yet: it is raised here instead
            if move and (over or self._fired == move):
                self._late = (self._what, self._allowed)
        if raise_late and self._late is not None:
            raise MoveTimeLimitExceeded

    def close(self) -> None:
        """No more moves: the watchdog ends, and nothing more is raised in this thread. (A
        stop sent just before is taken here, however often it lands.)"""
        while True:
            try:
                with self._lock:
                    self._closed = True
                    if self._move and self._fired == self._move:
                        self._late = self._late or (self._what, self._allowed)
                    self._move = 0
                    _set_async_exc(self._thread, None)
                return
            except MoveTimeLimitExceeded:
                continue

    def timeout_message(self) -> str:
        """What the move over the limit was."""
        what, allowed = self._late or (self._what, self._allowed)
        return f"{_where(*what)} took longer than the move time limit of {allowed:g} s"

    def _watch(self) -> None:
        grace = max(1.0, 0.5 * self.limit)
        warned = 0
        while True:
            time.sleep(self._period)
            with self._lock:
                if self._closed:
                    return
                move = self._move
                if not move:
                    continue
                elapsed = time.monotonic() - self._started
                if elapsed > self._allowed and self._fired != move:
                    self._fired = move
                    _set_async_exc(self._thread, id(MoveTimeLimitExceeded))
                stuck = self._fired == move and elapsed > self._allowed + max(grace, 0.5 * self._allowed)
                what, allowed = self._what, self._allowed
            if stuck and warned != move:
                warned = move
                message = (
                    f"{_where(*what)} took longer than the move time limit of {allowed:g} s "
                    f"and did not stop after {elapsed:.1f} s"
                )
                if self.hard_stop is not None:
                    self.hard_stop(message)
                else:
                    _LOG.warning("%s: nothing can end it in this process (a worker process can be ended)", message)
