"""Bots that misbehave, as ``module:attr`` factories for the arena's tests (``seed=`` and
options, as the arena calls them). Each plays as the random bot of its seed where it does not
misbehave, so a run that gets past the misbehaviour has the rows of the random bot."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from cruiselib.bots import Candidate, RandomBot

HERE = "tests.arena.hostile_bots"


class _Hostile:
    name = "hostile"

    def __init__(self, seed: int, at: int = 0) -> None:
        self._random = RandomBot(seed=seed)
        self._at = at  # the misbehaviour comes at this move of the bot (0 its first)
        self._moves = 0

    def choose(self, state: Any) -> Any:
        move = self._moves
        self._moves += 1
        if move == self._at:
            return self.misbehave(state)
        return self._random.choose(state)

    def misbehave(self, state: Any) -> Any:
        raise NotImplementedError

    def analyse(self, state: Any) -> list[Candidate]:
        return []


class Raises(_Hostile):
    def misbehave(self, state: Any) -> Any:
        return 1 // 0


class Exits(_Hostile):
    def misbehave(self, state: Any) -> Any:
        raise SystemExit(3)


class Unpicklable(Exception):
    """An error that pickles but cannot be unpickled (its __init__ takes two arguments)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} and {second}")


class RaisesUnpicklable(_Hostile):
    def misbehave(self, state: Any) -> Any:
        raise Unpicklable("this", "that")


class BadMessage(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


class RaisesBadMessage(_Hostile):
    def misbehave(self, state: Any) -> Any:
        raise BadMessage


class HangingRepr:
    def __repr__(self) -> str:
        while True:
            time.sleep(1)


class Returns(_Hostile):
    """Returns what ``what`` names instead of a move."""

    def __init__(self, seed: int, what: str, at: int = 0) -> None:
        super().__init__(seed, at)
        self.what = what

    def misbehave(self, state: Any) -> Any:
        legal = set(state.legal_actions())
        values: dict[str, Any] = {
            "out_of_range": 10**6,
            "negative": -1,
            "illegal": next(a for a in range(state.game.num_actions) if a not in legal),
            "huge_int": 10**100_000,
            "huge_list": list(range(2_000_000)),
            "huge_text": "x" * 50_000_000,
            "hanging_repr": HangingRepr(),
            "bool": True,
            "none": None,
            "float": 1.0,
        }
        return values[self.what]


class Spins(_Hostile):
    """Loops in Python for ever: the arena's stop reaches it."""

    def misbehave(self, state: Any) -> Any:
        while True:
            pass


class Slow(_Hostile):
    """Sleeps ``seconds`` and then plays: over the limit, but it returns."""

    def __init__(self, seed: int, seconds: float, at: int = 0) -> None:
        super().__init__(seed, at)
        self.seconds = seconds

    def misbehave(self, state: Any) -> Any:
        time.sleep(self.seconds)
        return self._random.choose(state)


class Sleeps(_Hostile):
    """Blocks in a sleep for an hour, as a bot blocked in C code: no stop reaches it."""

    def misbehave(self, state: Any) -> Any:
        time.sleep(3600)


class Swallows(_Hostile):
    """Loops, swallowing every stop (and ignoring SIGTERM): only SIGKILL ends it."""

    def misbehave(self, state: Any) -> Any:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass


class DiesOnce(_Hostile):
    """Kills its own process the first time any bot of this ``marker`` file misbehaves (in
    whatever process), writing its pid there; plays as the random bot after."""

    def __init__(self, seed: int, marker: str, at: int = 0) -> None:
        super().__init__(seed, at)
        self.marker = marker

    def misbehave(self, state: Any) -> Any:
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return self._random.choose(state)
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(60)  # the signal lands first


class Dies(_Hostile):
    """Kills its own process every time."""

    def misbehave(self, state: Any) -> Any:
        os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(60)


def raises_when_made(seed: int) -> Any:
    raise ValueError("no weights file")


def gives_no_bot(seed: int) -> Any:
    return 42
