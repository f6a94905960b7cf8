"""BatchEnv's policy side: ``legal_actions`` (each env's legal ids as a padded array),
``choose`` (an action per env from a policy's scores, in the core) and ``illegal_action=``
(what a step does with an illegal action), on both cores.

The choices are checked against the documented algorithm restated here (the softmax
weights rounded to float32, a 53-bit uniform double from each game's choice stream), against
``np.flatnonzero`` of the masks, against the pure-Python core, and under a writer thread.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError, InvalidStateError, _core
from cruiselib.envs import BatchEnv
from tests.support import CONFIGURATION_IDS, CONFIGURATIONS, one_per_game

_rng = _core.load("rng")
_SOURCE = _core.pure_module("batch")  # the salts are C constants when compiled: read them here
GOLDEN = _rng.SPLITMIX64[0]
MASK64 = (1 << 64) - 1
CHOICE_SALT = _SOURCE.CHOICE_SALT
NEXT_DEAL_SALT = _SOURCE.NEXT_DEAL_SALT
ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]
# A game of two seats whose opening offers a few actions (the hand-picked cases below).
TWO_SEATS = next((n, o) for n, o in CONFIGURATIONS if cruiselib.make(n, **o).num_players == 2)


def _game(name: str, options: dict[str, Any]) -> Any:
    return cruiselib.make(name, **options)


def _raw(state: Any) -> Any:
    """The whole position as plain values (a state from a batch keeps no history)."""
    return state._get_raw()


def _assert_rows_match_masks(env: BatchEnv, ids: npt.NDArray[np.int32], counts: npt.NDArray[np.int32]) -> None:
    for i in range(env.num_envs):
        legal = np.flatnonzero(env.action_masks[i])
        assert counts[i] == len(legal) == env.legal_counts[i]
        np.testing.assert_array_equal(ids[i, : counts[i]], legal)
        assert (ids[i, counts[i] :] == -1).all()


class Stream:
    """An env's choice stream restated: ``choose`` draws as ``sample_actions`` does."""

    def __init__(self, deal: int) -> None:
        self.value = int(_rng.mix64(deal ^ CHOICE_SALT))

    def next(self) -> int:
        self.value = (self.value + GOLDEN) & MASK64
        return int(_rng.mix64(self.value))


def expected_choice(scores: Any, temperature: float, greedy: bool, stream: Stream | None) -> int:
    """Which of the legal actions ``choose`` takes from their ``scores`` (docs/rl.md)."""
    s = [-math.inf if math.isnan(x) else float(x) for x in scores]
    top = max(s)
    best = s.index(top)
    if greedy:
        return best
    if top == -math.inf:
        w = [1.0] * len(s)
    elif top == math.inf:
        w = [1.0 if x == math.inf else 0.0 for x in s]
    else:
        w = [float(np.float32(math.exp((x - top) / temperature))) for x in s]
    total = 0.0
    for x in w:
        total += x
    assert stream is not None
    target = (stream.next() >> 11) * 2.0**-53 * total
    acc, last = 0.0, best
    for k, x in enumerate(w):
        if x > 0.0:
            acc += x
            last = k
            if target < acc:
                return k
    return last


# ---------------------------------------------------------------------------- legal_actions


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_legal_actions_are_the_masks_nonzero_entries(name: str, options: dict[str, Any]) -> None:
    """Every env, every step: the row is np.flatnonzero(mask) padded with -1, the count the
    legal count (0 in an env that has just ended); K the batch's largest count."""
    env = BatchEnv(_game(name, options), 6, seed=3)
    ended = 0
    for _ in range(40):
        ids, counts = env.legal_actions()
        assert ids.dtype == np.int32 and counts.dtype == np.int32 and ids.flags.c_contiguous
        assert ids.shape == (6, max(int(env.legal_counts.max()), 1))
        _assert_rows_match_masks(env, ids, counts)
        env.step(env.sample_actions())
        ended += int(env.terminated.sum())
    # A fixed width, into arrays of the caller's.
    width = int(env.legal_counts.max()) + 5
    mine = (np.full((6, width), 7, np.int32), np.full(6, 7, np.int32))
    ids, counts = env.legal_actions(out=mine)
    assert ids is mine[0] and counts is mine[1]
    _assert_rows_match_masks(env, ids, counts)
    ids, counts = env.legal_actions(width)
    assert ids.shape == (6, width)
    _assert_rows_match_masks(env, ids, counts)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_legal_actions_past_the_remembered_ones(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An env remembers LEGAL_CACHE legal actions; past that the core lists them again. The
    pure module remembering 3 lists and chooses as the compiled one."""
    game = _game(name, options)
    monkeypatch.setattr(_core.pure_module("batch"), "LEGAL_CACHE", 3)
    compiled, pure = BatchEnv(game, 4, seed=21), BatchEnv(game.pure_twin(), 4, seed=21)
    rng = np.random.default_rng(5)
    most = 0
    for _ in range(25):
        (ids, counts), (pure_ids, pure_counts) = compiled.legal_actions(), pure.legal_actions()
        np.testing.assert_array_equal(ids, pure_ids)
        np.testing.assert_array_equal(counts, pure_counts)
        _assert_rows_match_masks(pure, pure_ids, pure_counts)
        most = max(most, int(pure_counts.max()))
        scores = rng.standard_normal(ids.shape).astype(np.float32)
        actions = compiled.choose(scores).copy()
        np.testing.assert_array_equal(actions, pure.choose(scores))
        dense = rng.standard_normal((4, game.num_actions)).astype(np.float32)
        np.testing.assert_array_equal(compiled.choose(dense, layout="dense"), pure.choose(dense, layout="dense"))
        compiled.step(actions)
        pure.step(actions)
    assert most > 3


def test_a_width_too_small_is_refused_naming_the_env() -> None:
    env = BatchEnv(_game(*TWO_SEATS), 5, seed=2)
    most = int(env.legal_counts.max())
    env_most = int(np.argmax(env.legal_counts >= most))
    with pytest.raises(InvalidOptionError, match=rf"env {env_most} has {most} legal actions.*needs {most}"):
        env.legal_actions(most - 1)
    for bad in (0, -1, True, 2.0, "3", env.num_actions + 1):
        with pytest.raises(InvalidOptionError, match="width must be"):
            env.legal_actions(bad)  # type: ignore[arg-type]
    for out in (
        (np.zeros((5, most), np.int64), np.zeros(5, np.int32)),
        (np.zeros((5, most), np.int32), np.zeros(4, np.int32)),
        (np.zeros((4, most), np.int32), np.zeros(5, np.int32)),
        (np.zeros((5, most), np.int32)[:, ::-1], np.zeros(5, np.int32)),
        (np.zeros(5, np.int32), np.zeros(5, np.int32)),
        [np.zeros((5, most), np.int32), np.zeros(5, np.int32)],
    ):
        with pytest.raises(InvalidOptionError, match="out"):
            env.legal_actions(out=out)  # type: ignore[arg-type]
    block = np.zeros(5 * most + 5, np.int32)
    with pytest.raises(InvalidOptionError, match="share memory"):
        env.legal_actions(out=(block[: 5 * most].reshape(5, most), block[5 * most - 1 : 5 * most + 4]))
    with pytest.raises(InvalidOptionError, match=rf"env {env_most} has {most} legal actions"):
        env.legal_actions(out=(np.zeros((5, most - 1), np.int32), np.zeros(5, np.int32)))


# ---------------------------------------------------------------------------- choose


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_choose_follows_the_documented_draws_in_both_layouts(name: str, options: dict[str, Any]) -> None:
    """Greedy takes the highest legal score (lowest id on ties); sampling is the softmax
    walk over the choice stream, the same for legal-layout and dense scores (whose illegal
    entries, huge, are never taken), and an ended env gets 0 without a draw."""
    game = _game(name, options)
    n = 5
    envs = [BatchEnv(game, n, seed=8) for _ in range(2)]
    streams = [Stream(int(d)) for d in envs[0].deal_states]
    rng = np.random.default_rng(1)
    for step in range(30):
        ids, counts = envs[0].legal_actions()
        envs[1].legal_actions()
        scores = rng.standard_normal(ids.shape).astype(np.float32)
        scores[:, ::3] = np.round(scores[:, ::3])  # some ties
        dense = np.full((n, game.num_actions), 1e30, np.float32)
        for i in range(n):
            dense[i, ids[i, : counts[i]]] = scores[i, : counts[i]]
        greedy = envs[0].choose(scores, greedy=True).copy()
        np.testing.assert_array_equal(greedy, envs[1].choose(dense, greedy=True, layout="dense"))
        # Strided and Fortran-ordered logits, float64 too, are gathered the same way.
        np.testing.assert_array_equal(greedy, envs[1].choose(np.asfortranarray(dense), greedy=True, layout="dense"))
        wide = np.repeat(dense.astype(np.float64), 2, axis=1)[:, ::2]
        np.testing.assert_array_equal(greedy, envs[1].choose(wide, greedy=True, layout="dense"))
        temperature = (0.3, 1.0, 4.0)[step % 3]
        chosen = envs[0].choose(scores, temperature=temperature).copy()
        np.testing.assert_array_equal(chosen, envs[1].choose(dense, temperature=temperature, layout="dense"))
        for i in range(n):
            if counts[i] == 0:
                assert greedy[i] == 0 and chosen[i] == 0
                continue
            row = scores[i, : counts[i]]
            assert greedy[i] == ids[i, int(np.argmax(row))]
            k = expected_choice(row, temperature, False, streams[i])
            assert chosen[i] == ids[i, k], (step, i)
            assert envs[0].action_masks[i, chosen[i]] == 1
        for env in envs:
            env.step(chosen)
        for i in range(n):
            if envs[0].seats[i] >= 0 and envs[0].episode_steps[i] == 0:
                streams[i] = Stream(int(envs[0].deal_states[i]))  # a new game, a new stream


def test_sampled_frequencies_follow_the_softmax() -> None:
    """3,000 draws in one position: each action's share within a loose bound of its softmax
    probability (deterministic for the seed; the bound allows any fair stream)."""
    env = BatchEnv(_game(*TWO_SEATS), 1, seed=4)
    ids, counts = env.legal_actions()
    m = int(counts[0])
    assert m >= 3
    scores = np.linspace(-1.0, 1.5, m, dtype=np.float32)[None, :]
    temperature = 0.8
    p = np.exp(scores[0].astype(np.float64) / temperature)
    p /= p.sum()
    draws = 3000
    seen = np.zeros(m, np.int64)
    position = {int(a): k for k, a in enumerate(ids[0, :m])}
    for _ in range(draws):
        seen[position[int(env.choose(scores, temperature=temperature)[0])]] += 1
    expected = draws * p
    chi2 = float(((seen - expected) ** 2 / expected).sum())
    assert chi2 < 3 * (m - 1) + 25, (seen, expected)
    assert (np.abs(seen - expected) <= 5 * np.sqrt(expected) + 5).all()


def test_a_tiny_temperature_is_greedy_and_huge_scores_of_illegal_actions_are_never_taken() -> None:
    game = _game(*TWO_SEATS)
    env = BatchEnv(game, 16, seed=6)
    rng = np.random.default_rng(2)
    for _ in range(20):
        ids, counts = env.legal_actions()
        scores = rng.standard_normal(ids.shape).astype(np.float32)
        greedy = env.choose(scores, greedy=True).copy()
        np.testing.assert_array_equal(env.choose(scores, temperature=1e-30), greedy)
        np.testing.assert_array_equal(env.choose(scores.astype(np.float64), temperature=1e-6), greedy)
        # Entries past each env's count, and illegal entries of dense logits: never taken.
        padded = scores.copy()
        padded[ids < 0] = np.inf
        np.testing.assert_array_equal(env.choose(padded, greedy=True), greedy)
        dense = np.where(env.action_masks == 1, -50.0, np.inf).astype(np.float32)
        dense[:, ::2] = np.where(env.action_masks[:, ::2] == 1, -50.0, np.nan)
        for action, mask, count in zip(env.choose(dense, layout="dense"), env.action_masks, counts, strict=True):
            assert mask[action] == 1 or (count == 0 and action == 0)
        env.step(greedy)


def test_nan_and_infinite_scores() -> None:
    env = BatchEnv(_game(*TWO_SEATS), 1, seed=9)
    ids, counts = env.legal_actions()
    m = int(counts[0])
    legal = ids[0, :m]

    def chosen(row: list[float], **kwargs: Any) -> set[int]:
        scores = np.array([row], np.float32)
        return {int(env.choose(scores, **kwargs)[0]) for _ in range(200)}

    rest = [0.0] * (m - 2)
    assert chosen([math.inf, 5.0, *rest]) == {legal[0]}  # +inf takes it all
    assert chosen([math.inf, math.inf, *rest]) == {legal[0], legal[1]}  # +inf ties share it
    assert chosen([math.nan, 1.0, *[math.nan] * (m - 2)]) == {legal[1]}  # NaN counts as -inf
    assert chosen([-math.inf, 1.0, *[-math.inf] * (m - 2)]) == {legal[1]}
    assert chosen([math.nan, -math.inf, *[math.nan] * (m - 2)]) == set(legal.tolist())  # all -inf: uniform
    assert chosen([math.nan, -math.inf, *[math.nan] * (m - 2)], greedy=True) == {legal[0]}
    assert chosen([1.0, 1.0, *[1.0] * (m - 2)], greedy=True) == {legal[0]}  # ties: the lowest id
    assert chosen([0.0, 3.0, *[3.0] * (m - 2)], greedy=True) == {legal[1]}
    # float64 beyond float32 becomes inf, as documented.
    big = np.zeros((1, m), np.float64)
    big[0, 1] = 1e300
    assert {int(env.choose(big)[0]) for _ in range(50)} == {legal[1]}


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_choices_are_reproducible_and_the_same_on_both_cores(name: str, options: dict[str, Any]) -> None:
    """The same seed and scores give the same choices: again, on the pure twin, and on two
    threads; another seed gives others."""
    game = _game(name, options)
    n = 8
    envs = [
        BatchEnv(game, n, seed=31),
        BatchEnv(game.pure_twin(), n, seed=31),
        BatchEnv(game, n, seed=31, threads=2),
        BatchEnv(game, n, seed=32),
    ]
    rng = np.random.default_rng(3)
    differs = False
    for _step in range(20):
        layouts = [env.legal_actions() for env in envs[:3]]
        for ids, _counts in layouts[1:]:
            np.testing.assert_array_equal(ids, layouts[0][0])
        scores = rng.standard_normal(layouts[0][0].shape).astype(np.float32) * 3
        scores[rng.random(scores.shape) < 0.1] = np.nan
        scores[rng.random(scores.shape) < 0.05] = -np.inf
        temperature = float(rng.uniform(0.05, 3.0))
        chosen = [env.choose(scores, temperature=temperature).copy() for env in envs[:3]]
        for other in chosen[1:]:
            np.testing.assert_array_equal(other, chosen[0])
        dense = rng.standard_normal((n, game.num_actions)) * 2  # float64, converted
        picked = [env.choose(dense, layout="dense", temperature=temperature).copy() for env in envs[:3]]
        for other in picked[1:]:
            np.testing.assert_array_equal(other, picked[0])
        envs[3].legal_actions()
        other_seed = envs[3].choose(rng.standard_normal((n, game.num_actions)), layout="dense")
        differs = differs or not np.array_equal(other_seed, picked[0])
        for env in envs[:3]:
            env.step(picked[0])
        envs[3].step(other_seed)
        for x, y in zip(envs[0]._result(), envs[1]._result(), strict=True):
            np.testing.assert_array_equal(x, y)
    assert differs


def test_the_returned_buffer_and_out() -> None:
    env = BatchEnv(_game(*TWO_SEATS), 4, seed=1)
    ids, _ = env.legal_actions()
    scores = np.zeros(ids.shape, np.float32)
    first = env.choose(scores, greedy=True)
    assert first.dtype == np.int64 and first.shape == (4,)
    assert env.choose(scores, greedy=True) is first  # the env's own buffer, overwritten
    mine = np.full(4, -9, np.int64)
    assert env.choose(scores, greedy=True, out=mine) is mine
    np.testing.assert_array_equal(mine, first)
    with pytest.raises(InvalidOptionError, match="buffer out must be"):
        env.choose(scores, out=np.zeros(4, np.int32))


def test_bad_scores_and_options_are_refused() -> None:
    game = _game(*TWO_SEATS)
    n, a = 3, game.num_actions
    env = BatchEnv(game, n, seed=5)
    ids, _ = env.legal_actions()
    k = ids.shape[1]
    good = np.zeros((n, k), np.float32)
    shapes: list[Any] = [
        np.zeros(k, np.float32),
        np.zeros((n, k, 1), np.float32),
        np.zeros((n + 1, k), np.float32),
        np.zeros((n, k), np.int64),
        np.zeros((n, k), np.bool_),
        np.zeros((n, k), np.complex64),
        np.zeros((n, k), object),
        np.array([["x"] * k] * n),
        np.zeros((0, k), np.float32),
        3.0,
        None,
        [[1.0, 2.0], [3.0]],
    ]
    for scores in shapes:
        with pytest.raises(InvalidOptionError, match="scores must be"):
            env.choose(scores)
    with pytest.raises(InvalidOptionError, match="fit neither layout"):
        env.choose(np.zeros((n, k - 1), np.float32))
    with pytest.raises(InvalidOptionError, match="fit both layouts"):
        env.choose(np.zeros((n, a), np.float32))
    with pytest.raises(InvalidOptionError, match="dense scores must have"):
        env.choose(good, layout="dense")
    with pytest.raises(InvalidOptionError, match="more than legal-layout"):
        env.choose(np.zeros((n, k - 1), np.float32), layout="legal")
    for temperature in (0, -1.0, math.nan, math.inf, True, "1", None):
        with pytest.raises(InvalidOptionError, match="temperature must be"):
            env.choose(good, temperature=temperature)  # type: ignore[arg-type]
    for kwargs in ({"greedy": 1}, {"layout": "sparse"}):
        with pytest.raises(InvalidOptionError, match=r"greedy must be|layout must be"):
            env.choose(good, **kwargs)
    # The full width works once the layout is said; legal-layout scores need rows of now.
    env.choose(np.zeros((n, a), np.float32), layout="legal")
    env.choose(np.zeros((n, a), np.float32), layout="dense")
    env.step(env.choose(good))
    with pytest.raises(InvalidStateError, match="call legal_actions"):
        env.choose(good)
    env.choose(np.zeros((n, a), np.float32), layout="dense")  # dense scores need no listing
    env.legal_actions()
    env.reset(seed=1)
    with pytest.raises(InvalidStateError, match="call legal_actions"):
        env.choose(good)


def test_the_core_refuses_arguments_that_do_not_fit() -> None:
    """The core's loops index without bounds checks: its entries refuse short arrays, empty
    rows, a stride narrower than the action space, a bad temperature or mode."""
    game = _game(*TWO_SEATS)
    env = BatchEnv(game, 3, seed=1)
    core = env._core
    ids, counts = np.zeros((3, 4), np.int32), np.zeros(3, np.int32)
    index, scores, out = np.zeros((3, 4), np.int64), np.zeros((3, 4), np.float32), np.zeros(3, np.int64)
    short: list[Callable[[], Any]] = [
        lambda: core.legal(ids[:2], counts, -1, 0, 3),
        lambda: core.legal(ids, counts[:2], -1, 0, 3),
        lambda: core.legal(ids, counts, -1, 0, 4),
        lambda: core.flat_legal(index[:2], game.num_actions, 0, 3),
        lambda: core.choose(scores[:2], 1.0, False, out, 0, 3),
        lambda: core.choose(scores, 1.0, False, out[:2], 0, 3),
    ]
    for call in short:
        with pytest.raises(ValueError, match="entries"):
            call()
    wrong: list[Callable[[], Any]] = [
        lambda: core.legal(np.zeros((3, 0), np.int32), counts, -1, 0, 3),
        lambda: core.flat_legal(np.zeros((3, 0), np.int64), game.num_actions, 0, 3),
        lambda: core.flat_legal(index, game.num_actions - 1, 0, 3),
        lambda: core.choose(np.zeros((3, 0), np.float32), 1.0, False, out, 0, 3),
        lambda: core.choose(scores, 0.0, False, out, 0, 3),
        lambda: core.choose(scores, math.nan, False, out, 0, 3),
        lambda: type(core)([game.new_state(1)], -1, 0, 0, 0, False, 3),
    ]
    for call in wrong:
        with pytest.raises(ValueError, match=r"column|stride|temperature|illegal_action"):
            call()
    with pytest.raises(InvalidOptionError, match="at least one column"):
        env.choose(np.zeros((3, 0), np.float32), layout="legal")


def test_a_thread_writing_the_scores_never_makes_an_illegal_action_chosen() -> None:
    """The scores are copied (dense: gathered at the legal ids the core lists itself) before
    the core reads them: a writer storing inf and NaN into every entry meanwhile can change
    the choice, never make it illegal (the raise-mode step would refuse it)."""
    game = _game(*TWO_SEATS)
    n = 32
    env = BatchEnv(game, n, seed=12, threads=2)
    dense = np.zeros((n, game.num_actions), np.float32)
    legal = np.zeros((n, game.num_actions), np.float32)
    stop = threading.Event()

    def writer() -> None:
        values = [np.inf, np.nan, -np.inf, 1e38, 0.0]
        k = 0
        while not stop.is_set():
            dense[:] = values[k % len(values)]
            legal[:] = values[(k + 1) % len(values)]
            k += 1

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        end, steps = time.monotonic() + 0.6, 0
        while time.monotonic() < end or steps < 5:
            env.legal_actions()
            actions = env.choose(dense, layout="dense") if steps % 2 else env.choose(legal, layout="legal")
            for i in range(n):
                assert env.action_masks[i, actions[i]] == 1 or (env.seats[i] < 0 and actions[i] == 0)
            env.step(actions)
            steps += 1
    finally:
        stop.set()
        thread.join()


# ---------------------------------------------------------------------------- illegal_action


def _an_illegal_action(env: BatchEnv, i: int) -> int:
    return int(np.flatnonzero(env.action_masks[i] == 0)[0])


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
def test_lose_ends_the_game_of_an_illegal_action(autoreset: Any) -> None:
    """An illegal or out-of-range action loses that env's game: -1 for the seat that acted,
    0 for the others, terminated and flagged; autoreset deals its next game. The other envs
    step as in a raise-mode twin."""
    game = _game(*TWO_SEATS)
    n = 5
    env = BatchEnv(game, n, seed=14, autoreset=autoreset, illegal_action="lose")
    twin = BatchEnv(game, n, seed=14, autoreset=autoreset)
    deals = env.deal_states
    legal = twin.sample_actions()
    actions = env.sample_actions()
    seats = env.seats.copy()
    last = {i: env.observations[i].copy() for i in range(n)}
    bad = {1: _an_illegal_action(env, 1), 2: game.num_actions + 5, 3: -1}
    for i, action in bad.items():
        actions[i] = action
    env.step(actions)
    twin.step(legal)
    good = [0, 4]
    np.testing.assert_array_equal(env.illegal_actions, [0, 1, 1, 1, 0])
    for i in bad:
        assert env.terminated[i] and not env.truncated[i]
        want = np.zeros(game.num_players, np.float32)
        want[seats[i]] = -1.0
        np.testing.assert_array_equal(env.rewards[i], want)
        if autoreset == "next_step":
            assert env.seats[i] == -1 and env.legal_counts[i] == 0 and not env.action_masks[i].any()
            np.testing.assert_array_equal(env.observations[i], last[i])  # the seat's last view
        else:
            np.testing.assert_array_equal(env.final_observations[i], last[i])
            assert env.seats[i] >= 0 and env.deal_states[i] == _rng.mix64(int(deals[i]) ^ NEXT_DEAL_SALT)
    for i in good:
        for x, y in zip(env._result(), twin._result(), strict=True):
            np.testing.assert_array_equal(np.asarray(x)[i], np.asarray(y)[i])
    # The next step deals the lost games anew (next-step) and clears the flags.
    env.step(env.sample_actions())
    assert not env.illegal_actions.any()
    if autoreset == "next_step":
        for i in bad:
            assert env.seats[i] >= 0 and not env.terminated[i] and not env.rewards[i].any()
            assert env.deal_states[i] == _rng.mix64(int(deals[i]) ^ NEXT_DEAL_SALT)
            assert _raw(env.state(i)) == _raw(game.state_from_seed_state(int(env.deal_states[i])))


def test_lose_with_a_learner_and_after_an_ended_game() -> None:
    game = _game(*TWO_SEATS)
    env = BatchEnv(game, 3, seed=2, learner=1, opponents="random", illegal_action="lose")
    actions = env.sample_actions()
    actions[0] = 2**40
    env.step(actions)
    assert env.illegal_actions.tolist() == [1, 0, 0]
    assert env.rewards[0].tolist() == [0.0, -1.0] and env.terminated[0]
    # uint64 beyond int64 is out of range: a loss too, not an error.
    actions = env.sample_actions().astype(np.uint64)
    actions[1] = np.uint64(2**64 - 1)
    env.step(actions)
    assert env.illegal_actions.tolist() == [0, 1, 0]
    # Disabled autoreset: an ended env is still refused, and nothing changes.
    waiting = BatchEnv(game, 2, seed=2, autoreset="disabled", illegal_action="lose")
    actions = waiting.sample_actions()
    actions[1] = -5
    waiting.step(actions)
    assert waiting.terminated[1] and waiting.seats[1] == -1
    before = [waiting.state(i).to_json() for i in range(2)]
    observations = waiting.observations.copy()
    with pytest.raises(IllegalMoveError, match="env 1: its game has ended"):
        waiting.step(waiting.sample_actions())
    assert [waiting.state(i).to_json() for i in range(2)] == before
    np.testing.assert_array_equal(waiting.observations, observations)
    waiting.reset(seed=4, mask=np.array([False, True]))
    assert not waiting.illegal_actions.any()
    waiting.step(waiting.sample_actions())


def test_random_plays_the_choice_streams_random_legal_action() -> None:
    """An illegal action is replaced by sample_actions' draw: a batch of only illegal actions
    steps as its raise-mode twin stepped with sample_actions()."""
    game = _game(*TWO_SEATS)
    n = 6
    env = BatchEnv(game, n, seed=17, illegal_action="random")
    twin = BatchEnv(game, n, seed=17)
    for step in range(25):
        bad = np.array([_an_illegal_action(env, i) if env.seats[i] >= 0 else 0 for i in range(n)], np.int64)
        bad[step % n] = game.num_actions + step  # out of range too
        playing = env.seats >= 0
        env.step(bad)
        twin.step(twin.sample_actions())
        np.testing.assert_array_equal(env.illegal_actions, playing.astype(np.int8))
        for x, y in zip(env._result(), twin._result(), strict=True):
            np.testing.assert_array_equal(x, y)


def test_raise_is_unchanged_and_bad_modes_are_refused() -> None:
    game = _game(*TWO_SEATS)
    env = BatchEnv(game, 3, seed=1)
    assert env.illegal_action == "raise"
    actions = env.sample_actions()
    actions[2] = _an_illegal_action(env, 2)
    before = [env.state(i).to_json() for i in range(3)]
    with pytest.raises(IllegalMoveError, match="env 2: action"):
        env.step(actions)
    assert [env.state(i).to_json() for i in range(3)] == before and not env.illegal_actions.any()
    for bad in ("sometimes", "Lose", 1, None, True):
        with pytest.raises(InvalidOptionError, match="illegal_action is"):
            BatchEnv(game, 2, illegal_action=bad)  # type: ignore[arg-type]
    # The flags may live in a buffer of the caller's.
    flags = np.zeros(3, np.int8)
    mine = BatchEnv(game, 3, seed=1, illegal_action="lose", buffers={"illegal_actions": flags})
    assert mine.illegal_actions is flags and "illegal_action='lose'" in repr(mine)
    mine.step(actions)
    assert flags.tolist() == [0, 0, 1]
