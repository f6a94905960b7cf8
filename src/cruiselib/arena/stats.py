"""The statistics of tournaments and balance studies: pure functions over game results.

Every function here takes plain numbers or numpy arrays and returns numbers, numpy arrays or
the msgspec Structs below (``msgspec.json.encode`` writes them straight into ``summary.json``).
Nothing here plays a game or knows any game: the runner turns rows into the inputs.

What each number means:

* **Win share** of a seat in one game: 1/k if the seat is one of the k winners, else 0. The
  shares of one game sum to 1, or to 0 when nobody won.
* **Win rate** of a seat: its mean win share over the games, with the Wilson score interval
  (:func:`wilson`, fractional successes allowed, so shared wins count as fractions).
* **Elo difference** ``d`` between two players: the first is expected to score
  ``1 / (1 + 10 ** (-d / 400))`` against the second (:func:`score_from_elo`,
  :func:`elo_from_score`), a draw or shared win counting half.
* **Bradley-Terry ratings** (:func:`bradley_terry`): maximum-likelihood Elo ratings from a
  two-player win matrix, the mean of the players at 0, with 95% intervals.
* **Multiplayer ratings** (:func:`multiplayer_ratings`): openskill's Plackett-Luce skill
  ``mu`` (openskill's scale: every player starts at 25) with ``mu -/+ 1.96 sigma``.
* **SPRT** (:class:`SPRT`): the sequential test fishtest uses to decide whether a change gains
  at least ``elo1`` or at most ``elo0`` Elo, with error rates ``alpha`` and ``beta``.
* **Paired difference** (:func:`paired_difference`): the mean of ``a - b`` over outcomes paired
  by deal (the same seed played by two variants) with its Student-t interval.

scipy (for :func:`paired_difference`) and openskill (for :func:`multiplayer_ratings`) are
imported only by the functions that need them; everything else needs only numpy.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple

import msgspec
import numpy as np
import numpy.typing as npt

from cruiselib.errors import InvalidOptionError

__all__ = [
    "SPRT",
    "Estimate",
    "Ratings",
    "SPRTVerdict",
    "SeatWinRates",
    "bradley_terry",
    "elo_from_score",
    "multiplayer_ratings",
    "paired_difference",
    "score_from_elo",
    "seat_win_rates",
    "shares_by_turn_order",
    "sprt_of_games",
    "wilson",
    "win_shares",
]

#: Elo points per natural-log unit of strength: ``400 * log10(gamma) = ELO_PER_NAT * ln(gamma)``.
ELO_PER_NAT = 400.0 / math.log(10.0)

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


class Ratings(msgspec.Struct, frozen=True):
    """Ratings of named players, each with an interval.

    ``values[i]`` is the rating of ``names[i]`` and ``[low[i], high[i]]`` its 95% interval
    (the scale is the producing function's: Elo points or openskill's ``mu``).
    """

    names: list[str]
    values: list[float]
    low: list[float]
    high: list[float]


class Estimate(msgspec.Struct, frozen=True):
    """One estimated number: ``value`` with its interval ``[low, high]`` from ``n`` observations."""

    value: float
    low: float
    high: float
    n: int


class SeatWinRates(msgspec.Struct, frozen=True):
    """Per-seat win rates against the fair share (see :func:`seat_win_rates`).

    ``rates[s]`` is seat ``s``'s mean win share over ``games`` games, ``[low[s], high[s]]`` its
    Wilson interval, ``fair`` the rate every seat would have if seats did not matter, and
    ``verdicts[s]`` is ``"above"`` or ``"below"`` when the whole interval lies on that side of
    ``fair``, else ``"even"`` (no advantage shown at this number of games).
    """

    games: int
    fair: float
    rates: list[float]
    low: list[float]
    high: list[float]
    verdicts: list[str]


# --------------------------------------------------------------------------- rates


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a success rate ``successes / trials``.

    ``successes`` may be fractional (a shared win counts 1/k, a draw 1/2; a sum of such shares
    that overshoots ``trials`` by rounding alone counts as ``trials``). ``z`` is the normal
    quantile (1.96: a 95% interval). No trials: the uninformative ``(0.0, 1.0)``. The bounds are
    clipped to [0, 1] against rounding.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    trials = _count(trials, "trials")
    # Sums of fractional shares (thirds) can overshoot a whole count by rounding: allowed.
    if not math.isfinite(successes) or successes < 0 or successes > trials * (1 + 1e-9):
        raise InvalidOptionError(f"successes must lie in [0, trials={trials}], got {successes!r}")
    successes = min(float(successes), float(trials))
    if not math.isfinite(z) or z <= 0:
        raise InvalidOptionError(f"z must be a positive number, got {z!r}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # No failure (or no success) puts the bound exactly at 1 (or 0), which rounding can miss.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def win_shares(winners: Sequence[Sequence[int]], players: int) -> npt.NDArray[np.float64]:
    """The win share of every seat in every game: an array of shape ``(games, players)``.

    ``winners[g]`` lists the winning seats of game ``g`` (``state.winners()``); each of the
    ``k`` winners gets ``1/k``, every other seat 0, so a row sums to 1 (or 0: nobody won).
    A seat outside ``range(players)`` or listed twice in one game is refused.
    """
    players = _count(players, "players")
    if players < 1:
        raise InvalidOptionError("players must be at least 1")
    shares = np.zeros((len(winners), players), dtype=np.float64)
    for game, seats in enumerate(winners):
        indices = [_seat(seat, players) for seat in seats]
        if len(set(indices)) != len(indices):
            raise InvalidOptionError(f"game {game} lists a winning seat twice: {list(seats)!r}")
        if indices:
            shares[game, indices] = 1.0 / len(indices)
    return shares


def seat_win_rates(shares: npt.ArrayLike, z: float = 1.96) -> SeatWinRates:
    """Each seat's win rate with its Wilson interval, judged against the fair share.

    ``shares`` is a ``(games, players)`` array as :func:`win_shares` returns (or as
    :func:`shares_by_turn_order` returns, for the advantage of moving first). The fair share is
    the mean total share of a game divided among the seats: ``1 / players`` when every game has
    a winner, less when some games have none (a lost cooperative game), so that games without a
    winner do not make every seat look weak.
    """
    table = _shares_table(shares)
    games, players = table.shape
    totals = table.sum(axis=0)
    fair = float(totals.sum()) / (games * players) if games else 1.0 / players
    rates: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    verdicts: list[str] = []
    for seat in range(players):
        low, high = wilson(float(totals[seat]), games, z)
        rates.append(float(totals[seat]) / games if games else 0.0)
        lows.append(low)
        highs.append(high)
        verdicts.append("above" if low > fair else "below" if high < fair else "even")
    return SeatWinRates(games=games, fair=fair, rates=rates, low=lows, high=highs, verdicts=verdicts)


def shares_by_turn_order(shares: npt.ArrayLike, start_players: Sequence[int]) -> npt.NDArray[np.float64]:
    """Re-index win shares by turn order: column ``k`` is the seat that moved ``k``-th.

    ``start_players[g]`` is the seat that acted first in game ``g``; seats are taken to act in
    seat order from there (seat ``(start + k) % players`` moves ``k``-th). Pass the result to
    :func:`seat_win_rates` to measure the advantage of moving first.
    """
    table = _shares_table(shares)
    games, players = table.shape
    if len(start_players) != games:
        raise InvalidOptionError(f"start_players has {len(start_players)} entries for {games} games")
    starts = np.array([_seat(seat, players) for seat in start_players], dtype=np.int64)
    columns = (starts[:, None] + np.arange(players)[None, :]) % players
    return np.take_along_axis(table, columns, axis=1)


# --------------------------------------------------------------------------- Elo


def score_from_elo(difference: float) -> float:
    """The expected score (wins plus half the draws, per game) of a player ``difference`` Elo
    points stronger: ``1 / (1 + 10 ** (-difference / 400))``.

    >>> round(score_from_elo(400.0), 4)
    0.9091
    """
    if math.isnan(difference):
        raise InvalidOptionError("an Elo difference must be a number, got nan")
    exponent = -difference / 400.0
    if exponent > 300:  # 10**300 is near the float limit; the score is 0 to double precision
        return 0.0
    return 1.0 / (1.0 + math.pow(10.0, exponent))


def elo_from_score(score: float) -> float:
    """The Elo difference that gives an expected score ``score`` (the inverse of
    :func:`score_from_elo`): ``-400 * log10(1 / score - 1)``; a score of 0 or 1 gives an
    infinite difference.

    >>> round(elo_from_score(0.75), 2)
    190.85
    """
    if not 0.0 <= score <= 1.0:
        raise InvalidOptionError(f"a score must lie in [0, 1], got {score!r}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bradley_terry(
    wins: npt.ArrayLike,
    names: Sequence[str] | None = None,
    *,
    prior: float = 1.0,
    anchor: int | None = None,
    z: float = Z95,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> Ratings:
    """Bradley-Terry ratings on the Elo scale from a pairwise win matrix.

    ``wins[i, j]`` is the number of games player ``i`` won against player ``j``, a draw
    counting half a win each way (so ``wins[i, j] + wins[j, i]`` is the number of games
    between them); the diagonal must be 0. ``names`` defaults to ``"0", "1", ...``.

    The model: ``i`` beats ``j`` with probability ``gamma_i / (gamma_i + gamma_j)``; the
    ratings ``400 * log10(gamma_i)`` are fitted by maximum likelihood with the
    minorization-maximization iteration of Hunter (2004), "MM algorithms for generalized
    Bradley-Terry models", Annals of Statistics 32(1). They are reported in index order with
    the **mean of all players at 0**, or with player ``anchor`` at 0 when it is given.

    A player who never lost (or never won) has no finite maximum-likelihood rating. ``prior``
    handles that: every player plays that many virtual games, all drawn, against a virtual
    reference player of rating 0 (the default, one game, moves ratings little once there are
    tens of real games). With ``prior=0`` the fit is the plain maximum likelihood, and a
    matrix without it (some group of players never beat the rest, Hunter's condition) is
    refused.

    The intervals are ``value -/+ z * standard error``, the standard errors from the observed
    Fisher information (the negative Hessian of the log-likelihood, prior included) at the fit,
    for the rating relative to the mean (or to ``anchor``; the anchor's own interval is 0 wide).
    """
    matrix = np.array(wins, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        raise InvalidOptionError(f"wins must be a square matrix of at least 2 players, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        raise InvalidOptionError("wins must hold finite non-negative counts")
    if np.any(np.diagonal(matrix) != 0):
        raise InvalidOptionError("wins must have a zero diagonal (a player cannot play itself)")
    count = matrix.shape[0]
    labels = _names(names, count)
    if not math.isfinite(prior) or prior < 0:
        raise InvalidOptionError(f"prior must be a non-negative number of games, got {prior!r}")
    if anchor is not None and not 0 <= _count(anchor, "anchor") < count:
        raise InvalidOptionError(f"anchor must be a player index in [0, {count}), got {anchor!r}")
    if not math.isfinite(z) or z <= 0:
        raise InvalidOptionError(f"z must be a positive number, got {z!r}")
    if prior == 0 and not _strongly_connected(matrix > 0):
        raise InvalidOptionError(
            "no finite maximum-likelihood ratings: some players never beat the others "
            "(a player never lost or never won, or groups never met); use prior > 0"
        )

    games = matrix + matrix.T
    won = matrix.sum(axis=1) + prior / 2
    gamma = np.ones(count)
    converged = False
    for _ in range(min(max_iterations, _MM_STEPS)):
        # Hunter's MM step: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j), the reference
        # player (gamma 1) taking part through the prior games.
        denominator = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1) + prior / (gamma + 1.0)
        updated = won / denominator
        if prior == 0:
            updated /= math.exp(float(np.mean(np.log(updated))))  # the likelihood is scale-free
        change = float(np.max(np.abs(np.log(updated) - np.log(gamma))))
        gamma = updated
        if change < tolerance:
            converged = True
            break
    theta = np.log(gamma)
    if not converged:
        # MM crawls where a player won (nearly) every game: its rating sits far out, held only
        # by the prior. Newton's method on the same concave likelihood finishes the fit.
        theta = _bradley_terry_newton(theta, games, won, prior, tolerance, max_iterations)
        gamma = np.exp(theta)
    p = gamma[:, None] / (gamma[:, None] + gamma[None, :])
    pair_information = games * p * p.T
    information = -pair_information
    np.fill_diagonal(information, pair_information.sum(axis=1) + prior * gamma / (gamma + 1.0) ** 2)
    # pinv: without a prior the information is singular along "all ratings + c", the one
    # direction the data cannot see; every contrast below is orthogonal to it.
    covariance = np.linalg.pinv(information)
    contrast = np.eye(count)
    if anchor is None:
        contrast -= 1.0 / count
    else:
        contrast[:, anchor] -= 1.0
    centred = contrast @ theta
    variances = np.clip(np.diagonal(contrast @ covariance @ contrast.T), 0.0, None)
    half = z * np.sqrt(variances)
    return Ratings(
        names=labels,
        values=[float(ELO_PER_NAT * v) for v in centred],
        low=[float(ELO_PER_NAT * v) for v in centred - half],
        high=[float(ELO_PER_NAT * v) for v in centred + half],
    )


_MM_STEPS = 2_000
"""MM iterations before :func:`bradley_terry` hands the fit to Newton's method."""


def _bradley_terry_log_likelihood(
    theta: npt.NDArray[np.float64], games: npt.NDArray[np.float64], won: npt.NDArray[np.float64], prior: float
) -> float:
    """The Bradley-Terry log-likelihood (natural-log strengths ``theta``), the prior's drawn
    games against the reference (strength 0) included; ``won`` counts the prior's halves."""
    spread = np.logaddexp(theta[:, None], theta[None, :])
    pairs = 0.5 * float(np.sum(games * spread))  # each pair's games, counted once
    return float(won @ theta) - pairs - prior * float(np.sum(np.logaddexp(theta, 0.0)))


def _bradley_terry_newton(
    theta: npt.NDArray[np.float64],
    games: npt.NDArray[np.float64],
    won: npt.NDArray[np.float64],
    prior: float,
    tolerance: float,
    max_iterations: int,
) -> npt.NDArray[np.float64]:
    """Newton's method with step halving from ``theta`` to the maximum of the likelihood (the
    same fixed point as the MM iteration); ArithmeticError if it does not get there."""
    count = theta.size
    best = _bradley_terry_log_likelihood(theta, games, won, prior)
    for _ in range(min(max_iterations, 500)):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        reference = 1.0 / (1.0 + np.exp(-theta))
        gradient = won - (games * p).sum(axis=1) - prior * reference
        pair_information = games * p * p.T
        information = -pair_information
        np.fill_diagonal(information, pair_information.sum(axis=1) + prior * reference * (1.0 - reference))
        if prior == 0:
            information += 1.0 / count  # the free direction "all ratings + c", pinned
        step = np.linalg.solve(information, gradient)
        size = 1.0
        while size > 1e-12:
            trial = theta + size * step
            if prior == 0:
                trial -= trial.mean()
            value = _bradley_terry_log_likelihood(trial, games, won, prior)
            if value >= best - 1e-12 * abs(best):
                break
            size /= 2.0
        else:
            return theta  # no step improves the likelihood: at its maximum to rounding
        theta, best = trial, value
        if float(np.max(np.abs(size * step))) < tolerance:
            return theta
    raise ArithmeticError("Bradley-Terry did not converge (Newton's method after the MM iteration)")


def multiplayer_ratings(games: Sequence[tuple[Sequence[str], Sequence[float]]], z: float = Z95) -> Ratings:
    """openskill Plackett-Luce ratings of players from multiplayer results.

    ``games[g] = (players by seat, ranks by seat)``: the name playing each seat and its rank,
    lower ranks finishing better and equal ranks tied (all winners of a shared win rank 0,
    everyone else 1, say). Games are rated one after another in the given order, so the result
    is deterministic. The model is openskill's ``PlackettLuce`` with its default ``mu=25``,
    ``sigma=25/3``, and ``tau=0`` (bots do not change strength between games). A name playing
    several seats of one game is rated as a copy per seat and keeps the mean of the copies'
    new ``mu`` and ``sigma``.

    The result is sorted by the conservative estimate ``mu - 3 sigma``, best first (ties keep
    first-appearance order); ``values`` are the ``mu`` and the interval is ``mu -/+ z sigma``.
    """
    from openskill.models import PlackettLuce, PlackettLuceRating

    if not math.isfinite(z) or z <= 0:
        raise InvalidOptionError(f"z must be a positive number, got {z!r}")
    model = PlackettLuce(tau=0.0)
    current: dict[str, PlackettLuceRating] = {}
    for index, (seats, ranks) in enumerate(games):
        if len(seats) < 2 or len(seats) != len(ranks):
            raise InvalidOptionError(
                f"game {index} needs at least 2 seats and one rank per seat, got {len(seats)} and {len(ranks)}"
            )
        order = [float(rank) for rank in ranks]
        if not all(math.isfinite(rank) for rank in order):
            raise InvalidOptionError(f"game {index} has a rank that is not a finite number: {list(ranks)!r}")
        for name in seats:
            if not isinstance(name, str):
                raise InvalidOptionError(f"game {index} has a player name that is not a string: {name!r}")
            if name not in current:
                current[name] = model.rating(name=name)
        # A fresh copy per seat: openskill updates a rating object passed twice twice over.
        teams = [[model.rating(mu=current[name].mu, sigma=current[name].sigma, name=name)] for name in seats]
        rated = model.rate(teams, ranks=order)
        copies: dict[str, list[PlackettLuceRating]] = {}
        for name, team in zip(seats, rated, strict=True):
            copies.setdefault(name, []).append(team[0])
        for name, results in copies.items():
            current[name] = model.rating(
                mu=sum(r.mu for r in results) / len(results),
                sigma=sum(r.sigma for r in results) / len(results),
                name=name,
            )
    ranked = sorted(current, key=lambda name: -(current[name].mu - 3.0 * current[name].sigma))
    return Ratings(
        names=ranked,
        values=[float(current[name].mu) for name in ranked],
        low=[float(current[name].mu - z * current[name].sigma) for name in ranked],
        high=[float(current[name].mu + z * current[name].sigma) for name in ranked],
    )


# --------------------------------------------------------------------------- tests of a change


class SPRT:
    """The generalized sequential probability ratio test of fishtest, on logistic Elo.

    H0: the tested player is ``elo0`` Elo stronger than its opponent; H1: ``elo1``. Outcomes
    arrive one at a time (:meth:`update`); after each, the log-likelihood ratio :attr:`llr` is
    compared with the bounds ``lower = log(beta / (1 - alpha))`` and
    ``upper = log((1 - beta) / alpha)``: at or above ``upper`` H1 is accepted, at or below
    ``lower`` H0 is. The first decision is final (:attr:`accepted`); later updates still count.

    With ``pairs=True`` (pentanomial) an outcome is a game pair (the same deal played twice with
    the seats swapped), scored by the tested player's total: 0, 0.5, 1, 1.5 or 2. With
    ``pairs=False`` (trinomial) an outcome is one game: 0 (loss), 0.5 (draw) or 1 (win). Pairs
    cancel most of the luck of the deal, so they decide sooner.

    The bounds are Wald's (A. Wald, "Sequential tests of statistical hypotheses", Annals of
    Mathematical Statistics 16, 1945). The LLR is M. Van den Bergh's generalized SPRT as
    fishtest computes it (``LLRcalc.py`` of github.com/official-stockfish/fishtest): the
    outcome frequencies ``f_i`` of ``N`` outcomes are fitted by maximum likelihood under each
    hypothesis' expected score per game ``s = 1 / (1 + 10 ** (-elo / 400))``, giving ``p0`` and
    ``p1``, and ``llr = N * sum_i f_i log(p1_i / p0_i)``. As in fishtest, an outcome never seen
    counts 0.001 times so that both fits exist. fishtest also corrects the bounds for the
    overshoot of the last update; this class does not. :meth:`update` with ``count > 1`` checks
    the bounds once, after the whole batch.
    """

    def __init__(
        self, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05, beta: float = 0.05, *, pairs: bool = True
    ) -> None:
        for label, value in (("elo0", elo0), ("elo1", elo1)):
            if not math.isfinite(value):
                raise InvalidOptionError(f"{label} must be a finite Elo difference, got {value!r}")
        if not elo0 < elo1:
            raise InvalidOptionError(f"elo0 must be below elo1, got {elo0!r} and {elo1!r}")
        for label, value in (("alpha", alpha), ("beta", beta)):
            if not 0.0 < value < 1.0:
                raise InvalidOptionError(f"{label} must lie in (0, 1), got {value!r}")
        if alpha + beta >= 1.0:
            raise InvalidOptionError("alpha + beta must be below 1")
        self.elo0 = float(elo0)
        self.elo1 = float(elo1)
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.pairs = bool(pairs)
        #: The most score one outcome can carry: 2 for a pair, 1 for a game.
        self.top = 2.0 if self.pairs else 1.0
        #: How many times each outcome was seen, by score 0, 0.5, ... ``top``.
        self.counts = np.zeros(5 if self.pairs else 3, dtype=np.int64)
        self.lower = math.log(self.beta / (1.0 - self.alpha))
        self.upper = math.log((1.0 - self.beta) / self.alpha)
        self._accepted: Literal["H0", "H1"] | None = None

    def update(self, score: float, count: int = 1) -> None:
        """Count ``count`` outcomes of ``score`` (a pair's total, or one game's score)."""
        count = _count(count, "count")
        position = score * 2.0
        if not math.isfinite(position) or position != round(position) or not 0 <= position <= 2 * self.top:
            allowed = ", ".join(str(k / 2) for k in range(len(self.counts)))
            raise InvalidOptionError(f"an outcome scores one of {allowed}, got {score!r}")
        self.counts[int(position)] += count
        if self._accepted is None:
            llr = self.llr
            if llr >= self.upper:
                self._accepted = "H1"
            elif llr <= self.lower:
                self._accepted = "H0"

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 for the outcomes so far (0 before any)."""
        if int(self.counts.sum()) == 0:
            return 0.0
        return _gsprt_llr(self.counts, score_from_elo(self.elo0), score_from_elo(self.elo1))

    @property
    def decided(self) -> bool:
        """True once the LLR has reached a bound."""
        return self._accepted is not None

    @property
    def accepted(self) -> Literal["H0", "H1"] | None:
        """``"H1"`` (at least ``elo1``), ``"H0"`` (at most ``elo0``), or None while undecided."""
        return self._accepted

    def __repr__(self) -> str:
        return (
            f"SPRT(elo0={self.elo0}, elo1={self.elo1}, alpha={self.alpha}, beta={self.beta}, pairs={self.pairs}, "
            f"counts={self.counts.tolist()}, llr={self.llr:.3f}, bounds=({self.lower:.3f}, {self.upper:.3f}), "
            f"accepted={self._accepted})"
        )


def paired_difference(a: npt.ArrayLike, b: npt.ArrayLike, confidence: float = 0.95) -> Estimate:
    """The mean of ``a - b`` over paired outcomes, with its Student-t interval.

    ``a[i]`` and ``b[i]`` are outcomes of the same deal (the same seed) under two variants or
    two bots: pairing removes the luck of the deal from the difference. The interval is
    ``mean -/+ t * sd / sqrt(n)`` with ``t`` the two-sided ``confidence`` quantile of Student's
    t with ``n - 1`` degrees of freedom (scipy.stats.t), close to the normal one for large n.
    At least two pairs are needed.
    """
    from scipy.stats import t as student_t  # type: ignore[import-untyped]  # scipy ships no stubs

    first = np.asarray(a, dtype=np.float64)
    second = np.asarray(b, dtype=np.float64)
    if first.ndim != 1 or first.shape != second.shape:
        raise InvalidOptionError(
            f"a and b must be 1-D and of equal length, got shapes {first.shape} and {second.shape}"
        )
    if first.size < 2:
        raise InvalidOptionError("a paired difference needs at least 2 pairs")
    if not (np.all(np.isfinite(first)) and np.all(np.isfinite(second))):
        raise InvalidOptionError("a and b must hold finite numbers")
    if not 0.0 < confidence < 1.0:
        raise InvalidOptionError(f"confidence must lie in (0, 1), got {confidence!r}")
    difference = first - second
    n = int(difference.size)
    mean = float(difference.mean())
    half = float(student_t.ppf(0.5 + confidence / 2, n - 1)) * float(difference.std(ddof=1)) / math.sqrt(n)
    return Estimate(value=mean, low=mean - half, high=mean + half, n=n)


# --------------------------------------------------------------------------- helpers


def _gsprt_llr(counts: npt.NDArray[np.int64], s0: float, s1: float) -> float:
    """fishtest's GSPRT log-likelihood ratio of outcome ``counts`` (scores evenly spread over
    [0, 1]) between expected scores ``s0`` and ``s1``."""
    regularized = np.where(counts == 0, 1e-3, counts.astype(np.float64))
    total = float(regularized.sum())
    frequency = regularized / total
    values = np.linspace(0.0, 1.0, len(counts))
    fit0 = _fit_with_mean(values, frequency, s0)
    fit1 = _fit_with_mean(values, frequency, s1)
    return total * float(np.sum(frequency * np.log(fit1 / fit0)))


def _fit_with_mean(
    values: npt.NDArray[np.float64], frequency: npt.NDArray[np.float64], mean: float
) -> npt.NDArray[np.float64]:
    """The distribution on ``values`` of expectation ``mean`` nearest ``frequency`` in
    likelihood: ``p_i = f_i / (1 + x (v_i - mean))`` with ``x`` the root of
    ``sum_i f_i (v_i - mean) / (1 + x (v_i - mean)) = 0`` (Lagrange multipliers), found by
    bisection on the interval where every ``p_i`` stays positive (the sum decreases in x)."""
    offsets = values - mean
    low, high = -1.0 / (values[-1] - mean), 1.0 / (mean - values[0])
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if float(np.sum(frequency * offsets / (1.0 + middle * offsets))) > 0:
            low = middle
        else:
            high = middle
    fit = frequency / (1.0 + (low + high) / 2 * offsets)
    return np.asarray(fit / fit.sum(), dtype=np.float64)


def _strongly_connected(beats: npt.NDArray[np.bool_]) -> bool:
    """Whether every player reaches every other along "beat" edges (Hunter's condition for a
    finite Bradley-Terry maximum likelihood)."""

    def reach(adjacency: npt.NDArray[np.bool_]) -> int:
        seen = np.zeros(len(adjacency), dtype=bool)
        seen[0] = True
        frontier = seen.copy()
        while frontier.any():
            frontier = adjacency[frontier].any(axis=0) & ~seen
            seen |= frontier
        return int(seen.sum())

    return reach(beats) == len(beats) and reach(beats.T) == len(beats)


def _shares_table(shares: npt.ArrayLike) -> npt.NDArray[np.float64]:
    table = np.asarray(shares, dtype=np.float64)
    if table.ndim != 2 or table.shape[1] < 1:
        raise InvalidOptionError(f"shares must be a (games, players) array, got shape {table.shape}")
    if not np.all(np.isfinite(table)) or np.any(table < 0) or np.any(table > 1):
        raise InvalidOptionError("shares must lie in [0, 1]")
    return table


def _names(names: Sequence[str] | None, count: int) -> list[str]:
    if names is None:
        return [str(i) for i in range(count)]
    labels = list(names)
    if len(labels) != count or len(set(labels)) != count or not all(isinstance(n, str) for n in labels):
        raise InvalidOptionError(f"names must be {count} distinct strings, got {labels!r}")
    return labels


def _count(value: object, label: str) -> int:
    """A non-negative integer argument (bools and floats refused)."""
    if isinstance(value, bool):
        raise InvalidOptionError(f"{label} must be an integer, got {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidOptionError(f"{label} must be an integer, got {value!r}") from None
    if number < 0:
        raise InvalidOptionError(f"{label} must not be negative, got {number}")
    return number


def _seat(value: object, players: int) -> int:
    if isinstance(value, bool):
        raise InvalidOptionError(f"a seat must be an integer, got {value!r}")
    try:
        seat = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidOptionError(f"a seat must be an integer, got {value!r}") from None
    if not 0 <= seat < players:
        raise InvalidOptionError(f"seat {seat} is out of range for {players} players")
    return seat


class SPRTVerdict(NamedTuple):
    """What :func:`sprt_of_games` found: the test as it stood when it stopped (``test``), the
    outcomes it read (``used``: deal pairs, or games with ``pairs`` False) of ``available``,
    and ``text``, the verdict in one sentence."""

    test: SPRT
    used: int
    available: int
    text: str


def sprt_of_games(
    games: Iterable[Any],
    label: str,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SPRTVerdict:
    """An :class:`SPRT` of the bot ``label`` against its opponents over finished games, read in
    order until the test decides.

    ``games``: rows with ``cell``, ``deal``, ``seats`` (labels by seat) and ``winners``
    (:class:`~cruiselib.arena.results.GameRow`), e.g. an ``ab`` tournament's
    ``RunResult.games()``. A game scores 1 when the bot's seat won alone, ``1/k`` for a win
    shared by k seats, 0.5 for a draw (no winner), else 0. Where every deal was played exactly
    twice (a mirrored two-seat match) the outcomes are the deals' pairs (pentanomial, deciding
    sooner); otherwise single games. Games without the bot are skipped."""
    groups: dict[tuple[int, int], list[float]] = {}
    for game in games:
        seats = list(game.seats)
        if label not in seats:
            continue
        winners = list(game.winners)
        won = seats.index(label) in winners
        score = 0.5 if not winners else (1.0 / len(winners) if won else 0.0)
        groups.setdefault((int(game.cell), int(game.deal)), []).append(score)
    if not groups:
        raise InvalidOptionError(f"no game has the bot {label!r}: an SPRT needs games it played")
    pairs = all(len(scores) == 2 for scores in groups.values())
    outcomes = [sum(scores) for scores in groups.values()] if pairs else [x for v in groups.values() for x in v]
    test = SPRT(elo0, elo1, alpha, beta, pairs=pairs)
    used = 0
    for outcome in outcomes:
        test.update(outcome)
        used += 1
        if test.decided:
            break
    unit = "deal pairs" if pairs else "games"
    where = f"LLR {test.llr:+.2f}, bounds {test.lower:+.2f} and {test.upper:+.2f}"
    if test.accepted == "H1":
        text = (
            f"{label} is at least {test.elo1:g} Elo stronger (H1 accepted after {used} of {len(outcomes)} "
            f"{unit}; {where})"
        )
    elif test.accepted == "H0":
        text = (
            f"{label} is at most {test.elo0:g} Elo stronger (H0 accepted after {used} of {len(outcomes)} "
            f"{unit}; {where})"
        )
    else:
        text = (
            f"undecided after all {len(outcomes)} {unit} ({where}): play more games (a larger --games) "
            f"to decide between {test.elo0:g} and {test.elo1:g} Elo"
        )
    return SPRTVerdict(test=test, used=used, available=len(outcomes), text=text)
