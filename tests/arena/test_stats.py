"""cruiselib.arena.stats against values worked out by hand or by an independent optimizer."""

from __future__ import annotations

import math
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt
import pytest

from cruiselib.arena import stats
from cruiselib.arena.stats import (
    SPRT,
    bradley_terry,
    elo_from_score,
    multiplayer_ratings,
    paired_difference,
    score_from_elo,
    seat_win_rates,
    shares_by_turn_order,
    wilson,
    win_shares,
)
from cruiselib.errors import InvalidOptionError

# scipy and openskill are optional: only the functions that need them are skipped without them.
needs_scipy = pytest.mark.skipif(find_spec("scipy") is None, reason="scipy is not installed")
needs_openskill = pytest.mark.skipif(find_spec("openskill") is None, reason="openskill is not installed")


def _minimize(*args: Any, **options: Any) -> Any:
    """scipy.optimize.minimize: the independent optimizer the fits are checked against."""
    from scipy import optimize  # type: ignore[import-untyped]  # scipy ships no stubs

    return optimize.minimize(*args, **options)


# --------------------------------------------------------------------------- Wilson


def test_wilson_known_values() -> None:
    # 5 of 10: the textbook (0.2366, 0.7634).
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.236590, abs=1e-6)
    assert high == pytest.approx(0.763410, abs=1e-6)
    # 2.5 of 10 (shared wins), by hand: centre (0.25 + 0.19208) / 1.38416, half
    # 1.96 / 1.38416 * sqrt(0.01875 + 0.009604).
    centre = (0.25 + 1.96**2 / 20) / (1 + 1.96**2 / 10)
    half = 1.96 / (1 + 1.96**2 / 10) * math.sqrt(0.25 * 0.75 / 10 + 1.96**2 / 400)
    assert wilson(2.5, 10) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert wilson(2.5, 10) == pytest.approx((0.080946, 0.557824), abs=1e-6)


def test_wilson_edges_and_z() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 20)[0] == 0.0
    assert wilson(20, 20)[1] == 1.0
    sixths = sum([1 / 6] * 36)  # six games, six shared winners each, summed in floats
    assert sixths > 6
    assert wilson(sixths, 6) == wilson(6, 6)
    narrow = wilson(50, 100, z=1.0)
    wide = wilson(50, 100, z=2.576)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]


@pytest.mark.parametrize(
    ("successes", "trials", "z"),
    [(-1, 10, 1.96), (11, 10, 1.96), (1, -1, 1.96), (math.nan, 10, 1.96), (1, 10, 0.0), (1, True, 1.96)],
)
def test_wilson_refuses_bad_input(successes: float, trials: int, z: float) -> None:
    with pytest.raises(InvalidOptionError):
        wilson(successes, trials, z)


# --------------------------------------------------------------------------- shares and seats


def test_win_shares_split_shared_wins() -> None:
    shares = win_shares([[0], [1, 2], [], [0, 1, 2]], players=3)
    assert shares.shape == (4, 3)
    np.testing.assert_allclose(shares[0], [1, 0, 0])
    np.testing.assert_allclose(shares[1], [0, 0.5, 0.5])
    np.testing.assert_allclose(shares[2], [0, 0, 0])
    np.testing.assert_allclose(shares[3], [1 / 3, 1 / 3, 1 / 3])
    assert np.all(shares.sum(axis=1) <= 1 + 1e-12)
    assert win_shares([], players=2).shape == (0, 2)


@pytest.mark.parametrize(("winners", "players"), [([[3]], 3), ([[-1]], 3), ([[1, 1]], 3), ([[True]], 2), ([[0]], 0)])
def test_win_shares_refuses_bad_seats(winners: list[list[int]], players: int) -> None:
    with pytest.raises(InvalidOptionError):
        win_shares(winners, players)


def test_seat_win_rates_against_the_fair_share() -> None:
    shares = win_shares([[0]] * 70 + [[1]] * 30, players=2)
    rates = seat_win_rates(shares)
    assert rates.games == 100
    assert rates.fair == 0.5
    assert rates.rates == pytest.approx([0.7, 0.3])
    assert (rates.low[0], rates.high[0]) == pytest.approx(wilson(70, 100))
    assert rates.verdicts == ["above", "below"]
    even = seat_win_rates(win_shares([[0]] * 11 + [[1]] * 9, players=2))
    assert even.verdicts == ["even", "even"]
    # The Struct goes straight into summary.json.
    assert msgspec.json.decode(msgspec.json.encode(rates))["verdicts"] == ["above", "below"]


def test_seat_win_rates_fair_share_excludes_games_nobody_won() -> None:
    # A cooperative game won by both seats half the time: every seat is as good as the other.
    rates = seat_win_rates(win_shares([[0, 1]] * 50 + [[]] * 50, players=2))
    assert rates.fair == pytest.approx(0.25)
    assert rates.rates == pytest.approx([0.25, 0.25])
    assert rates.verdicts == ["even", "even"]
    assert seat_win_rates(np.zeros((0, 3))).fair == pytest.approx(1 / 3)


def test_seat_win_rates_refuses_bad_shares() -> None:
    for bad in (np.zeros(3), np.full((2, 2), 1.5), np.full((2, 2), -0.1)):
        with pytest.raises(InvalidOptionError):
            seat_win_rates(bad)


def test_shares_by_turn_order_rotates_to_the_start_player() -> None:
    shares = win_shares([[2], [0], [1, 2]], players=3)
    by_turn = shares_by_turn_order(shares, [2, 1, 1])
    # Game 0 started at seat 2, which won: the first mover won.
    np.testing.assert_allclose(by_turn, np.array([[1.0, 0, 0], [0, 0, 1], [0.5, 0.5, 0]]))
    with pytest.raises(InvalidOptionError):
        shares_by_turn_order(shares, [0, 1])
    with pytest.raises(InvalidOptionError):
        shares_by_turn_order(shares, [0, 1, 3])


# --------------------------------------------------------------------------- Elo helpers


def test_elo_score_conversions() -> None:
    assert score_from_elo(0.0) == 0.5
    assert score_from_elo(400.0) == pytest.approx(10 / 11)
    assert score_from_elo(-400.0) == pytest.approx(1 / 11)
    assert score_from_elo(-1e6) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    for elo in (-321.0, -5.0, 0.0, 17.5, 600.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    for bad in (-0.1, 1.1, math.nan):
        with pytest.raises(InvalidOptionError):
            elo_from_score(bad)
    with pytest.raises(InvalidOptionError):
        score_from_elo(math.nan)


# --------------------------------------------------------------------------- Bradley-Terry


def _negative_log_likelihood(theta: npt.NDArray[np.float64], wins: npt.NDArray[np.float64]) -> float:
    """-sum_ij w_ij log(e^t_i / (e^t_i + e^t_j)), written independently of the MM code."""
    total = 0.0
    for i in range(len(wins)):
        for j in range(len(wins)):
            if i != j:
                total -= wins[i, j] * (theta[i] - np.logaddexp(theta[i], theta[j]))
    return total


def _numerical_hessian(
    function: Callable[[npt.NDArray[np.float64]], float], at: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    step = 1e-4
    size = len(at)
    hessian = np.zeros((size, size))
    for a in range(size):
        for b in range(size):
            shifts = [np.eye(size)[a] * step * sa + np.eye(size)[b] * step * sb for sa in (1, -1) for sb in (1, -1)]
            values = [function(at + shift) for shift in shifts]
            hessian[a, b] = (values[0] - values[1] - values[2] + values[3]) / (4 * step * step)
    return hessian


def test_bradley_terry_two_players_by_hand() -> None:
    # 6 wins to 2: gamma ratio 3, so the ratings are -/+ 200 log10(3) around the mean; the
    # log-odds has variance 1/6 + 1/2 (observed information n p q), each rating half of it.
    ratings = bradley_terry(np.array([[0, 6], [2, 0]]), ["a", "b"], prior=0)
    half_gap = 200 * math.log10(3)
    assert ratings.names == ["a", "b"]
    assert ratings.values == pytest.approx([half_gap, -half_gap])
    width = 1.959963984540054 * (400 / math.log(10)) * 0.5 * math.sqrt(1 / 6 + 1 / 2)
    assert ratings.low == pytest.approx([half_gap - width, -half_gap - width])
    assert ratings.high == pytest.approx([half_gap + width, -half_gap + width])


def test_bradley_terry_draws_count_half() -> None:
    # Even results rate equal. One win and one draw against one draw (1.5 to 0.5) is the odds
    # of 3 to 1, the same ratings as 3 wins to 1, with wider intervals (half the games).
    assert bradley_terry([[0, 2], [2, 0]], prior=0).values == pytest.approx([0.0, 0.0], abs=1e-9)
    with_draws = bradley_terry([[0, 1.5], [0.5, 0]], prior=0)
    plain = bradley_terry([[0, 3], [1, 0]], prior=0)
    assert with_draws.values == pytest.approx(plain.values)
    assert with_draws.high[0] - with_draws.values[0] == pytest.approx(math.sqrt(2) * (plain.high[0] - plain.values[0]))


@needs_scipy
def test_bradley_terry_matches_a_general_optimizer() -> None:
    wins = np.array([[0.0, 7, 3, 5], [2, 0, 4, 6], [4, 3, 0, 2.5], [1, 2, 3.5, 0]])
    ratings = bradley_terry(wins, prior=0)
    fit = _minimize(_negative_log_likelihood, np.zeros(4), args=(wins,), method="BFGS", tol=1e-12)
    expected = (fit.x - fit.x.mean()) * 400 / math.log(10)
    assert ratings.values == pytest.approx(expected, abs=1e-4)
    assert sum(ratings.values) == pytest.approx(0.0, abs=1e-9)


@needs_scipy
def test_bradley_terry_fits_a_bot_that_won_every_game() -> None:
    """A shutout (1,000 to 0) has no finite maximum-likelihood rating; the prior's drawn games
    against the reference hold it, where the MM iteration alone crawls for ever: the fit ends
    and matches a general optimizer of the same likelihood, prior included."""
    wins = np.array([[0.0, 1000, 180], [0, 0, 90], [20, 110, 0]])
    ratings = bradley_terry(wins, prior=1.0)

    def with_prior(theta: npt.NDArray[np.float64]) -> float:
        draws = 0.5 * theta - np.logaddexp(theta, 0.0)  # one game drawn with the reference
        return _negative_log_likelihood(theta, wins) - float(draws.sum())

    fit = _minimize(with_prior, np.zeros(3), method="BFGS", tol=1e-12)
    expected = (fit.x - fit.x.mean()) * 400 / math.log(10)
    assert ratings.values == pytest.approx(expected, abs=1e-3)
    assert ratings.values[0] > ratings.values[2] > ratings.values[1]
    assert all(math.isfinite(v) for v in ratings.low + ratings.high)


def test_bradley_terry_intervals_match_a_numerical_hessian() -> None:
    wins = np.array([[0.0, 7, 3], [2, 0, 4], [4, 3, 0]])
    ratings = bradley_terry(wins, prior=0, anchor=2)
    assert ratings.values[2] == 0.0
    assert ratings.low[2] == ratings.high[2] == 0.0
    # Player 2 fixed at 0: the covariance of the others is the inverse of the Hessian of the
    # negative log-likelihood in the remaining two, taken here by finite differences.
    theta = np.array(ratings.values) * math.log(10) / 400

    def reduced(free: npt.NDArray[np.float64]) -> float:
        return _negative_log_likelihood(np.array([free[0], free[1], 0.0]), wins)

    hessian = _numerical_hessian(reduced, theta[:2])
    errors = np.sqrt(np.diagonal(np.linalg.inv(hessian))) * 400 / math.log(10) * 1.959963984540054
    assert np.array(ratings.high[:2]) - np.array(ratings.values[:2]) == pytest.approx(errors, rel=1e-4)


@needs_scipy
def test_bradley_terry_intervals_with_a_prior_about_the_mean() -> None:
    wins = np.array([[0.0, 4, 1], [2, 0, 3], [0, 1, 0]])

    def penalized(theta: npt.NDArray[np.float64]) -> float:
        reference = sum(0.5 * (np.logaddexp(0, -t) + np.logaddexp(0, t)) for t in theta)
        return _negative_log_likelihood(theta, wins) + float(reference)

    fit = _minimize(penalized, np.zeros(3), method="BFGS", tol=1e-12)
    covariance = np.linalg.inv(_numerical_hessian(penalized, fit.x))
    centring = np.eye(3) - 1 / 3
    errors = np.sqrt(np.diagonal(centring @ covariance @ centring.T)) * 400 / math.log(10) * 1.959963984540054
    ratings = bradley_terry(wins, prior=1.0)
    assert np.array(ratings.high) - np.array(ratings.values) == pytest.approx(errors, rel=1e-4)
    assert np.array(ratings.values) - np.array(ratings.low) == pytest.approx(errors, rel=1e-4)


@needs_scipy
def test_bradley_terry_prior_keeps_an_unbeaten_player_finite() -> None:
    unbeaten = np.array([[0.0, 5], [0, 0]])
    with pytest.raises(InvalidOptionError, match="prior > 0"):
        bradley_terry(unbeaten, prior=0)
    ratings = bradley_terry(unbeaten)
    assert math.isfinite(ratings.values[0])
    assert ratings.values[0] > 0 > ratings.values[1]
    assert ratings.low[0] < ratings.values[0] < ratings.high[0]

    # The prior is one drawn game of each player against a reference of rating 0.
    def penalized(theta: npt.NDArray[np.float64]) -> float:
        reference = sum(0.5 * (np.logaddexp(0, -t) + np.logaddexp(0, t)) for t in theta)
        return _negative_log_likelihood(theta, unbeaten) + float(reference)

    fit = _minimize(penalized, np.zeros(2), method="BFGS", tol=1e-12)
    assert ratings.values == pytest.approx((fit.x - fit.x.mean()) * 400 / math.log(10), abs=1e-4)


def test_bradley_terry_refuses_bad_matrices() -> None:
    disconnected = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0.0]])
    with pytest.raises(InvalidOptionError):
        bradley_terry(disconnected, prior=0)
    assert len(bradley_terry(disconnected).values) == 4  # the prior links the two groups
    bad_matrices: list[npt.ArrayLike] = [[[0, 1, 2], [1, 0, 3]], [[0, -1], [1, 0]], [[1, 1], [1, 0]], [[0]]]
    bad_matrices.append([[0.0, math.nan], [1.0, 0.0]])
    for bad in bad_matrices:
        with pytest.raises(InvalidOptionError):
            bradley_terry(bad)
    with pytest.raises(InvalidOptionError):
        bradley_terry([[0, 1], [1, 0]], ["a", "a"])
    with pytest.raises(InvalidOptionError):
        bradley_terry([[0, 1], [1, 0]], anchor=2)
    with pytest.raises(InvalidOptionError):
        bradley_terry([[0, 1], [1, 0]], prior=-1)
    assert bradley_terry([[0, 1], [1, 0]]).names == ["0", "1"]


# --------------------------------------------------------------------------- multiplayer


@needs_openskill
def test_multiplayer_ratings_one_game_by_hand() -> None:
    # Plackett-Luce, two new players (mu 25, sigma 25/3, beta 25/6): c^2 = 2 (sigma^2 + beta^2),
    # the winner gains sigma^2 / c * (1 - 1/2), the loser loses as much.
    ratings = multiplayer_ratings([(["loser", "winner"], [1, 0])])
    sigma2, beta2 = (25 / 3) ** 2, (25 / 6) ** 2
    gain = sigma2 / math.sqrt(2 * (sigma2 + beta2)) / 2
    assert ratings.names == ["winner", "loser"]
    assert ratings.values == pytest.approx([25 + gain, 25 - gain])
    for value, low, high in zip(ratings.values, ratings.low, ratings.high, strict=True):
        assert value - low == pytest.approx(high - value)
        assert low < value < high


@needs_openskill
def test_multiplayer_ratings_ties_order_and_determinism() -> None:
    games: list[tuple[list[str], list[int]]] = []
    for round_index in range(30):
        seats = ["strong", "mid", "weak"]
        rotation = round_index % 3
        seats = seats[rotation:] + seats[:rotation]
        ranks = [{"strong": 0, "mid": 1, "weak": 2}[name] for name in seats]
        games.append((seats, ranks))
    games.append((["mid", "weak"], [0, 0]))  # a shared win
    ratings = multiplayer_ratings(games)
    assert ratings.names == ["strong", "mid", "weak"]
    assert ratings == multiplayer_ratings(games)
    # Sorted by mu - 3 sigma (sigma recovered from the 1.96 sigma interval).
    conservative = [v - 3 * (h - v) / 1.959963984540054 for v, h in zip(ratings.values, ratings.high, strict=True)]
    assert conservative == sorted(conservative, reverse=True)
    tied = multiplayer_ratings([(["a", "b", "c"], [0, 0, 1])])
    assert tied.values[tied.names.index("a")] == pytest.approx(tied.values[tied.names.index("b")])


@needs_openskill
def test_multiplayer_ratings_ordering_is_conservative() -> None:
    # "steady" wins 11 of 21 against "field" (mu a little above 25, small sigma); "lucky" won
    # its only game (the highest mu, a wide sigma) and ranks last on mu - 3 sigma.
    games = [(["steady", "field"], [0, 1]), (["field", "steady"], [0, 1])] * 10
    games += [(["steady", "field"], [0, 1]), (["lucky", "field"], [0, 1])]
    ratings = multiplayer_ratings(games)
    mu = dict(zip(ratings.names, ratings.values, strict=True))
    assert mu["lucky"] > mu["steady"] > mu["field"]
    assert ratings.names == ["steady", "field", "lucky"]


@needs_openskill
def test_multiplayer_ratings_same_bot_in_two_seats() -> None:
    from openskill.models import PlackettLuce

    ratings = multiplayer_ratings([(["a", "b", "a"], [0, 1, 2])])
    model = PlackettLuce(tau=0.0)
    start = [model.rating(name=n) for n in ("a", "b", "a")]
    rated = model.rate([[r] for r in start], ranks=[0.0, 1.0, 2.0])
    mu = dict(zip(ratings.names, ratings.values, strict=True))
    assert mu["a"] == pytest.approx((rated[0][0].mu + rated[2][0].mu) / 2)
    assert mu["b"] == pytest.approx(rated[1][0].mu)


@needs_openskill
@pytest.mark.parametrize(
    "game",
    [(["a"], [0]), (["a", "b"], [0]), (["a", "b"], [0, math.nan]), ([1, "b"], [0, 1])],
)
def test_multiplayer_ratings_refuses_bad_games(game: tuple[list[str], list[float]]) -> None:
    with pytest.raises(InvalidOptionError):
        multiplayer_ratings([game])


# --------------------------------------------------------------------------- SPRT


def _constrained_log_likelihood(counts: list[int], mean: float) -> float:
    """max sum c_i log p_i over distributions on evenly spaced scores with expectation
    ``mean``, by SLSQP (independent of the secular-equation solution in stats)."""
    values = np.linspace(0, 1, len(counts))
    regularized = np.array([c if c else 1e-3 for c in counts], dtype=np.float64)
    start = regularized / regularized.sum()
    fit = _minimize(
        lambda p: -float(np.sum(regularized * np.log(p))),
        start,
        method="SLSQP",
        bounds=[(1e-12, 1)] * len(counts),
        constraints=[
            {"type": "eq", "fun": lambda p: float(np.sum(p)) - 1},
            {"type": "eq", "fun": lambda p: float(np.dot(p, values)) - mean},
        ],
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    return -float(fit.fun)


@needs_scipy
@pytest.mark.parametrize(
    ("counts", "pairs", "elo0", "elo1"),
    [([2, 3, 5], False, 0.0, 100.0), ([1, 2, 4, 2, 1], True, -10.0, 40.0), ([0, 3, 6, 4, 2], True, 0.0, 20.0)],
)
def test_sprt_llr_matches_constrained_likelihoods(counts: list[int], pairs: bool, elo0: float, elo1: float) -> None:
    test = SPRT(elo0, elo1, pairs=pairs)
    for index, count in enumerate(counts):
        if count:
            test.update(index / 2, count)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    expected = _constrained_log_likelihood(counts, s1) - _constrained_log_likelihood(counts, s0)
    assert test.llr == pytest.approx(expected, abs=1e-6)


def test_sprt_llr_of_a_symmetric_sample_by_hand() -> None:
    # Wins and losses only (draws seen never, counted 0.001): under s = 1/2 the fit is the
    # sample itself; under s1 it is very nearly (1 - s1, s1), so
    # llr ~= W log(2 s1) + L log(2 (1 - s1)).
    test = SPRT(0.0, 50.0, pairs=False)
    test.update(1.0, 20)
    test.update(0.0, 20)
    s1 = score_from_elo(50.0)
    assert test.llr == pytest.approx(20 * math.log(2 * s1) + 20 * math.log(2 * (1 - s1)), abs=1e-3)


def test_sprt_bounds() -> None:
    test = SPRT(0.0, 5.0, alpha=0.05, beta=0.05)
    assert test.lower == pytest.approx(-math.log(19))
    assert test.upper == pytest.approx(math.log(19))
    skewed = SPRT(0.0, 5.0, alpha=0.01, beta=0.1)
    assert (skewed.lower, skewed.upper) == pytest.approx((math.log(0.1 / 0.99), math.log(0.9 / 0.01)))
    assert test.llr == 0.0
    assert not test.decided
    assert test.accepted is None


def _play_pairs(test: SPRT, elo: float, seed: int, limit: int = 20_000) -> int:
    """Feed game pairs between players ``elo`` apart (no draws) until the test decides."""
    rng = np.random.default_rng(seed)
    p = score_from_elo(elo)
    for played in range(1, limit + 1):
        test.update(float(rng.binomial(2, p)))
        if test.decided:
            return played
    return limit


def test_sprt_accepts_h1_for_a_clearly_stronger_player() -> None:
    test = SPRT(0.0, 30.0)
    _play_pairs(test, 150.0, seed=1)
    assert test.decided
    assert test.accepted == "H1"
    assert test.llr >= test.upper


def test_sprt_accepts_h0_for_an_equal_player() -> None:
    test = SPRT(0.0, 30.0)
    _play_pairs(test, 0.0, seed=2)
    assert test.accepted == "H0"
    assert test.llr <= test.lower


def test_sprt_trinomial_and_final_decision() -> None:
    test = SPRT(0.0, 50.0, pairs=False)
    test.update(1.0, 40)
    assert test.accepted == "H1"
    test.update(0.0, 200)  # later results no longer change a decided test
    assert test.llr < test.lower
    assert test.accepted == "H1"
    assert test.counts.tolist() == [200, 0, 40]
    assert "H1" in repr(test)


def test_sprt_refuses_bad_input() -> None:
    for args in ((5.0, 0.0, 0.05, 0.05), (0.0, 5.0, 0.0, 0.05), (0.0, 5.0, 0.6, 0.5), (math.inf, 5.0, 0.05, 0.05)):
        with pytest.raises(InvalidOptionError):
            SPRT(*args)
    test = SPRT(pairs=False)
    for score in (0.3, 1.5, -0.5, math.nan):
        with pytest.raises(InvalidOptionError):
            test.update(score)
    with pytest.raises(InvalidOptionError):
        test.update(1.0, -1)
    SPRT(pairs=True).update(1.5)  # a pair's total may reach 2


# --------------------------------------------------------------------------- paired difference


@needs_scipy
def test_paired_difference_by_hand() -> None:
    # Differences 1, 2, 2, 3: mean 2, sd sqrt(2/3), t(0.975, 3) = 3.182446.
    estimate = paired_difference(np.array([1.0, 2, 3, 4]), np.array([0.0, 0, 1, 1]))
    half = 3.182446305284263 * math.sqrt(2 / 3) / 2
    assert isinstance(estimate, stats.Estimate)
    assert (estimate.value, estimate.n) == (2.0, 4)
    assert (estimate.low, estimate.high) == pytest.approx((2 - half, 2 + half))
    narrower = paired_difference([1.0, 2, 3, 4], [0.0, 0, 1, 1], confidence=0.5)
    assert estimate.low < narrower.low < narrower.high < estimate.high
    constant = paired_difference([3.0, 4.0], [1.0, 2.0])
    assert (constant.low, constant.value, constant.high) == (2.0, 2.0, 2.0)


@needs_scipy
def test_paired_difference_large_sample_is_near_normal() -> None:
    rng = np.random.default_rng(7)
    a = rng.normal(0.1, 1.0, 10_000)
    b = rng.normal(0.0, 1.0, 10_000)
    estimate = paired_difference(a, b)
    d = a - b
    assert estimate.high - estimate.value == pytest.approx(1.96 * d.std(ddof=1) / 100, rel=1e-3)


@needs_scipy
@pytest.mark.parametrize(
    ("a", "b", "confidence"),
    [
        ([1.0], [0.0], 0.95),
        ([1.0, 2.0], [0.0], 0.95),
        ([1.0, math.nan], [0.0, 0.0], 0.95),
        ([1.0, 2.0], [0.0, 0.0], 1.0),
    ],
)
def test_paired_difference_refuses_bad_input(a: list[float], b: list[float], confidence: float) -> None:
    with pytest.raises(InvalidOptionError):
        paired_difference(a, b, confidence)
