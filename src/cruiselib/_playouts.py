"""The result of a batch of random games: :class:`Playouts` and the batch size limit."""

from __future__ import annotations

import msgspec
import numpy as np
import numpy.typing as npt

__all__ = ["MAX_PLAYOUTS", "Playouts"]

MAX_PLAYOUTS = 100_000_000
"""The most games one ``playouts`` call plays: its result arrays then take about 1.6 GB."""


class Playouts(msgspec.Struct, frozen=True):
    """Results of :meth:`Game.playouts`: one row per game.

    ``scores[g, p]`` is seat p's final score in game g, ``lengths[g]`` the number of
    actions applied, ``wins[g, p]`` 1 if seat p won game g (a shared win marks several
    seats; a draw marks none), ``first_seats[g]`` the seat that acted first (in a new deal,
    the start player as the core dealt it; from a position, the seat to act there).
    """

    scores: npt.NDArray[np.int16]
    """Shape ``(games, seats)``: each seat's final score in each game."""
    lengths: npt.NDArray[np.int32]
    """Shape ``(games,)``: the number of actions each game took."""
    wins: npt.NDArray[np.int8]
    """Shape ``(games, seats)``: 1 where the seat won the game (several for a shared win,
    none for a draw), else 0."""
    actions: int
    """The actions applied in all the games together (``lengths.sum()``)."""
    first_seats: npt.NDArray[np.int8]
    """Shape ``(games,)``: the seat that acted first in each game."""

    @property
    def games(self) -> int:
        """The number of games played."""
        return int(self.lengths.shape[0])

    @property
    def win_rates(self) -> npt.NDArray[np.float64]:
        """Fraction of games each seat won (shared wins count for every winner)."""
        return np.asarray(self.wins.mean(axis=0, dtype=np.float64))

    @property
    def draw_rate(self) -> float:
        """Fraction of games without a winner."""
        return float((self.wins.sum(axis=1) == 0).mean()) if self.games else 0.0

    @property
    def mean_scores(self) -> npt.NDArray[np.float64]:
        """Each seat's mean final score."""
        return np.asarray(self.scores.mean(axis=0, dtype=np.float64))

    @property
    def mean_length(self) -> float:
        """The mean number of actions a game took (0.0 for no games)."""
        return float(self.lengths.mean()) if self.games else 0.0
