"""Playing one :class:`~cruiselib.arena.plan.Job`: :func:`play_job` returns its rows as
:class:`JobRows` (numpy columns, cheap to pickle). It is what every backend runs in its
workers; it imports cruiselib itself, so it runs in a fresh (spawned) process.
"""

from __future__ import annotations

import functools
import importlib
import json
import time
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib.bots import Bot, make_bot
from cruiselib.errors import InvalidOptionError

from .plan import MASK64, BotSpec, Job, deal_seed, mix64

__all__ = ["JobRows", "make_player", "mix64_array", "play_job", "playout_seed_for"]


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
    with ``seed=`` and the options."""
    if ":" not in bot.name:
        return make_bot(bot.name, seed=seed, **bot.options)
    module_name, _, attr = bot.name.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise InvalidOptionError(f"cannot import the bot {bot.name!r}: {exc}") from None
    try:
        player = factory(seed=seed, **bot.options)
    except TypeError as exc:
        raise InvalidOptionError(f"bad options for the bot {bot.name!r}: {exc}") from None
    if not callable(getattr(player, "choose", None)):
        raise InvalidOptionError(f"{bot.name!r} did not give a bot (no choose(state) method)")
    result: Bot = player
    return result


def mix64_array(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """:func:`~cruiselib.arena.plan.mix64` of every element (uint64 arithmetic wraps)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.asarray(z ^ (z >> np.uint64(31)), dtype=np.uint64)


def _unmix64(z: int) -> int:
    """The inverse of :func:`~cruiselib.arena.plan.mix64`."""
    z = z ^ (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
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
    return mix64((deal + (seat + 1) * 0x9E3779B97F4A7C15) & MASK64) >> 1


def play_job(job: Job) -> JobRows:
    """Play every game of ``job`` and return its rows."""
    if not job.seatings:
        return _play_core(_playout_game(job.game, job.options_json), job)
    return _play_bots(cruiselib.make(job.game, **job.options), job)


@functools.lru_cache(maxsize=16)
def _playout_game(name: str, options_json: str) -> Any:
    """The game of a configuration, made once a process for its in-core jobs (making one
    can take milliseconds: a study's hundreds of jobs would pay it each time). Only
    ``playouts`` and seeding are used, which leave the game as it was."""
    return cruiselib.make(name, **json.loads(options_json))


def _play_core(game: Any, job: Job) -> JobRows:
    n = job.deals
    start = time.perf_counter()
    result = game.playouts(n, playout_seed_for(game, job.base, job.first), threads=1)
    seconds = (time.perf_counter() - start) / max(n, 1)
    deals = np.arange(job.first, job.first + n, dtype=np.int64)
    seeds = mix64_array(np.uint64(job.base) + deals.astype(np.uint64))
    first_seats = getattr(result, "first_seats", None)
    if first_seats is None:
        # The core's playouts do not report the start seat: deal each game again to read it.
        first_seats = np.fromiter(
            (game.state_from_seed_state(int(s)).current_player for s in seeds), dtype=np.int16, count=n
        )
    return JobRows(
        job=job.index,
        deal=deals,
        deal_seed=seeds,
        seating=np.full(n, -1, dtype=np.int16),
        start_player=np.asarray(first_seats, dtype=np.int16),
        scores=np.asarray(result.scores, dtype=np.int32),
        wins=np.asarray(result.wins, dtype=np.int8),
        length=np.asarray(result.lengths, dtype=np.int32),
        seconds=np.full(n, seconds, dtype=np.float64),
    )


def _play_bots(game: Any, job: Job) -> JobRows:
    players = job.players
    order: list[tuple[int, int]] = []  # (deal, seating) in row order
    for g in range(job.first, job.first + job.deals):
        if job.per_deal:
            order.extend((g, s) for s in range(len(job.seatings)))
        else:
            order.append((g, g % len(job.seatings)))
    n = len(order)
    deals = np.empty(n, dtype=np.int64)
    seeds = np.empty(n, dtype=np.uint64)
    seating_index = np.empty(n, dtype=np.int16)
    start_player = np.empty(n, dtype=np.int16)
    scores = np.zeros((n, players), dtype=np.int32)
    wins = np.zeros((n, players), dtype=np.int8)
    length = np.empty(n, dtype=np.int32)
    seconds = np.empty(n, dtype=np.float64)
    for row, (g, s) in enumerate(order):
        clock = time.perf_counter()
        seed = deal_seed(job.base, g)
        bots = [make_player(bot, _bot_seed(seed, seat)) for seat, bot in enumerate(job.seatings[s])]
        state = game.state_from_seed_state(seed)
        start_player[row] = state.current_player
        actions = 0
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
            actions += 1
        deals[row], seeds[row], seating_index[row], length[row] = g, seed, job.rotations[s], actions
        scores[row] = state.scores()
        for seat in state.winners():
            wins[row, seat] = 1
        seconds[row] = time.perf_counter() - clock
    return JobRows(
        job=job.index,
        deal=deals,
        deal_seed=seeds,
        seating=seating_index,
        start_player=start_player,
        scores=scores,
        wins=wins,
        length=length,
        seconds=seconds,
    )
