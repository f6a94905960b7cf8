"""BatchEnv: N games stepped in the core, checked against single games played through the
public State API (the same seeds and actions must give the same positions), on both cores."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError, _core
from cruiselib.envs import BatchEnv
from tests.support import CONFIGURATION_IDS, CONFIGURATIONS, one_per_game

_rng = _core.load("rng")
_batch = _core.load("batch")
MASK64 = (1 << 64) - 1
GOLDEN = _rng.SPLITMIX64[0]
# The two salts of batch.py, read from its source so the test states them independently of
# the compiled module (whose C constants are not visible from Python).
_SOURCE = _core.pure_module("batch")
CHOICE_SALT = _SOURCE.CHOICE_SALT
NEXT_DEAL_SALT = _SOURCE.NEXT_DEAL_SALT
ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]


def _game(name: str, options: dict[str, Any]) -> Any:
    return cruiselib.make(name, **options)


def _raw(state: Any) -> Any:
    """The whole position as plain values (the core's own dump; a state from a batch keeps
    no history, so its snapshot is compared without one this way)."""
    return state._get_raw()


class Replay:
    """One env followed through the public API: the game it should hold, and the choice
    stream BatchEnv's sampling and opponents draw from."""

    def __init__(self, game: Any, deal: int) -> None:
        self.game = game
        self.start(deal)

    def start(self, deal: int) -> None:
        self.deal = deal
        self.state = self.game.state_from_seed_state(deal)
        self.choice = _rng.mix64(deal ^ CHOICE_SALT)

    def next_choice(self) -> int:
        self.choice = (self.choice + GOLDEN) & MASK64
        return int(_rng.mix64(self.choice))

    def sample(self) -> int:
        """BatchEnv.sample_actions' choice: the k-th legal action, k from the stream."""
        legal = self.state.legal_actions()
        return int(legal[((self.next_choice() >> 32) * len(legal)) >> 32])

    def opponents(self, learner: int, kind: str) -> None:
        while not self.state.is_over and self.state.current_player != learner:
            r = self.next_choice()
            action = self.state.random_action(r) if kind == "random" else self.state.rollout_action(r)
            self.state.apply(action)

    def next_deal(self) -> None:
        self.start(int(_rng.mix64(self.deal ^ NEXT_DEAL_SALT)))


def _assert_env_matches(env: BatchEnv, i: int, replay: Replay, observer: int) -> None:
    state = replay.state
    want = state.information_state(observer) if env.information_state else state.observation(observer)
    np.testing.assert_array_equal(env.observations[i], want)
    if state.is_over:
        assert env.seats[i] == -1 and env.legal_counts[i] == 0 and not env.action_masks[i].any()
    else:
        assert env.seats[i] == state.current_player
        np.testing.assert_array_equal(env.action_masks[i], state.action_mask())
        assert env.legal_counts[i] == len(state.legal_actions())
    assert int(env.deal_states[i]) == replay.deal


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_each_env_replays_as_a_single_game_with_its_seed(name: str, options: dict[str, Any]) -> None:
    """Env i of a batch seeded s is game.new_state(s + i) with the same actions, step by
    step: observation, mask, seat, legal count, rewards at the end (State.returns()), and
    next-step autoreset deals the next game from mix64(deal ^ salt)."""
    game = _game(name, options)
    n = 3
    env = BatchEnv(game, n, seed=40)
    replays = [Replay(game, _rng.seed_state(40 + i)) for i in range(n)]
    for i in range(n):
        assert replays[i].state.to_json() == game.new_state(40 + i).to_json()
        _assert_env_matches(env, i, replays[i], replays[i].state.current_player)
    games_ended = 0
    for _ in range(3000):
        actions = env.sample_actions()
        expected_rewards = np.zeros((n, game.num_players), np.float32)
        observers = []
        for i, replay in enumerate(replays):
            if replay.state.is_over:
                replay.next_deal()  # next-step autoreset: this step deals the next game
                observers.append(replay.state.current_player)
                continue
            assert actions[i] == replay.sample()
            actor = replay.state.current_player
            replay.state.apply(int(actions[i]))
            if replay.state.is_over:
                expected_rewards[i] = replay.state.returns()
                games_ended += 1
            observers.append(actor if replay.state.is_over else replay.state.current_player)
        env.step(actions)
        np.testing.assert_array_equal(env.rewards, expected_rewards)
        np.testing.assert_array_equal(env.terminated, [r.state.is_over for r in replays])
        assert not env.truncated.any()
        for i, replay in enumerate(replays):
            _assert_env_matches(env, i, replay, observers[i])
        if games_ended >= n + 1:
            break
    assert games_ended >= n + 1, "the games did not end"
    # state(i) is a copy of the position, a State of the game.
    copy = env.state(0)
    assert type(copy) is type(replays[0].state)
    assert _raw(copy) == _raw(replays[0].state)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
@pytest.mark.parametrize("kind", ["random", "rollout"])
def test_compiled_opponents_play_the_other_seats(name: str, options: dict[str, Any], kind: Any) -> None:
    """With a learner seat, the core plays every other seat (random or the rollout policy)
    from the game's choice stream: each step is the learner's turn, and the games are the
    ones a Python replay of the same stream plays."""
    game = _game(name, options)
    learner = game.num_players - 1
    n = 4
    env = BatchEnv(game, n, seed=7, learner=learner, opponents=kind)
    replays = [Replay(game, _rng.seed_state(7 + i)) for i in range(n)]
    for replay in replays:
        replay.opponents(learner, kind)
    ended = 0
    for _ in range(2000):
        for i, replay in enumerate(replays):
            _assert_env_matches(env, i, replay, learner)
            assert env.seats[i] in (learner, -1)
        actions = env.sample_actions()
        for i, replay in enumerate(replays):
            if replay.state.is_over:
                replay.next_deal()
                replay.opponents(learner, kind)
                continue
            assert actions[i] == replay.sample()
            replay.state.apply(int(actions[i]))
            replay.opponents(learner, kind)
            ended += replay.state.is_over
        env.step(actions)
        if ended >= n:
            break
    assert ended >= n


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_threads_give_the_same_results_as_one(name: str, options: dict[str, Any]) -> None:
    game = _game(name, options)
    one = BatchEnv(game, 37, seed=3)
    with BatchEnv(game, 37, seed=3, threads=3) as three:
        for _ in range(150):
            actions = one.sample_actions()
            np.testing.assert_array_equal(actions, three.sample_actions())
            a, b = one.step(actions), three.step(actions)
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(one.deal_states, three.deal_states)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_the_pure_core_steps_the_same_games(name: str, options: dict[str, Any]) -> None:
    """The same module as pure Python (the compiled run checks the pure path too)."""
    game = _game(name, options)
    compiled, pure = BatchEnv(game, 5, seed=11), BatchEnv(game.pure_twin(), 5, seed=11)
    for _ in range(120):
        actions = compiled.sample_actions()
        np.testing.assert_array_equal(actions, pure.sample_actions())
        for x, y in zip(compiled.step(actions), pure.step(actions), strict=True):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_same_step_autoreset_keeps_the_final_observation(name: str, options: dict[str, Any]) -> None:
    game = _game(name, options)
    env = BatchEnv(game, 2, seed=5, autoreset="same_step", information_state=True)
    replays = [Replay(game, _rng.seed_state(5 + i)) for i in range(2)]
    for _ in range(3000):
        actions = env.sample_actions()
        finals = {}
        for i, replay in enumerate(replays):
            assert actions[i] == replay.sample()
            actor = replay.state.current_player
            replay.state.apply(int(actions[i]))
            if replay.state.is_over:
                finals[i] = (replay.state.information_state(actor), replay.state.returns())
                replay.next_deal()
        env.step(actions)
        for i, replay in enumerate(replays):
            assert env.terminated[i] == (i in finals)
            if i in finals:
                np.testing.assert_array_equal(env.final_observations[i], finals[i][0])
                np.testing.assert_array_equal(env.rewards[i], finals[i][1])
            _assert_env_matches(env, i, replay, replay.state.current_player)
        if finals:
            return
    pytest.fail("no game ended")


def test_disabled_autoreset_waits_for_a_masked_reset() -> None:
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    env = BatchEnv(game, 3, seed=1, autoreset="disabled")
    while not env.terminated.any():
        env.step(env.sample_actions())
    done = int(np.flatnonzero(env.terminated)[0])
    before = [b.copy() for b in env._result()]
    with pytest.raises(IllegalMoveError, match=f"env {done}: its game has ended"):
        env.step(env.sample_actions())
    for x, y in zip(before, env._result(), strict=True):
        np.testing.assert_array_equal(x, y)
    others = [i for i in range(3) if i != done]
    kept = {i: env.state(i).to_json() for i in others}
    mask = np.zeros(3, bool)
    mask[done] = True
    env.reset(seed=100, mask=mask)
    assert not env.terminated[done] and env.seats[done] >= 0
    assert _raw(env.state(done)) == _raw(game.new_state(100 + done))
    assert {i: env.state(i).to_json() for i in others} == kept


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_an_illegal_action_changes_no_env(name: str, options: dict[str, Any]) -> None:
    game = _game(name, options)
    env = BatchEnv(game, 4, seed=2)
    env.step(env.sample_actions())
    before = [b.copy() for b in env._result()]
    states = [env.state(i).to_json() for i in range(4)]
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(env.action_masks[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(IllegalMoveError, match=f"env 2: action {illegal} is illegal"):
        env.step(actions)
    actions[2] = game.num_actions
    with pytest.raises(IllegalMoveError, match=r"env 2: action \d+ is out of range"):
        env.step(actions)
    actions[2] = -1
    with pytest.raises(IllegalMoveError, match="out of range"):
        env.step(actions)
    for bad in ([0, 1], np.zeros(4, np.float32), "abcd", np.zeros((4, 1), np.int64), None):
        with pytest.raises(IllegalMoveError, match="actions must be an int array"):
            env.step(bad)  # type: ignore[arg-type]
    for x, y in zip(before, env._result(), strict=True):
        np.testing.assert_array_equal(x, y)
    assert [env.state(i).to_json() for i in range(4)] == states


def test_truncation_after_max_steps() -> None:
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    env = BatchEnv(game, 2, seed=9, max_steps=3)
    for step in range(1, 4):
        env.step(env.sample_actions())
        assert env.truncated.all() == (step == 3)
        assert not env.terminated.any()
    assert (env.seats == -1).all() and not env.rewards.any()
    env.step(env.sample_actions())  # next-step autoreset: new games
    assert not env.truncated.any() and (env.seats >= 0).all()
    assert (env.episode_steps == 0).all()


def test_buffers_of_the_caller_are_written_in_place() -> None:
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    obs = np.full((2, game.observation_shape[0]), 7.0, np.float32)
    masks = np.ones((2, game.num_actions), np.int8)
    env = BatchEnv(game, 2, seed=4, buffers={"observations": obs, "action_masks": masks})
    assert env.observations is obs and env.action_masks is masks
    np.testing.assert_array_equal(obs[1], game.new_state(5).observation(game.new_state(5).current_player))
    np.testing.assert_array_equal(masks[1], game.new_state(5).action_mask())
    with pytest.raises(InvalidOptionError, match="buffer observations must be"):
        BatchEnv(game, 2, buffers={"observations": np.zeros((2, 3), np.float32)})
    with pytest.raises(InvalidOptionError, match="buffer action_masks must be"):
        BatchEnv(game, 2, buffers={"action_masks": np.zeros((2, game.num_actions), np.int64)})
    with pytest.raises(InvalidOptionError, match="buffer seats must be"):
        BatchEnv(game, 2, buffers={"seats": np.zeros(4, np.int32)[::2]})
    with pytest.raises(InvalidOptionError, match="unknown buffers"):
        BatchEnv(game, 2, buffers={"obs": obs})


def test_bad_options_are_refused() -> None:
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"num_envs": 0}, "num_envs must be"),
        ({"num_envs": True}, "num_envs must be"),
        ({"num_envs": 2**21}, "num_envs must be"),
        ({"threads": 0}, "threads must be"),
        ({"autoreset": "sometimes"}, "autoreset must be"),
        ({"opponents": "random"}, "give learner=SEAT"),
        ({"learner": game.num_players}, "does not exist"),
        ({"learner": 0, "opponents": "strong"}, "opponents must be"),
        ({"max_steps": 0}, "max_steps must be"),
        ({"information_state": 1}, "information_state must be"),
        ({"illegal_action": "sometimes"}, "illegal_action is"),
        ({"seed": [1, 2, 3]}, "3 seeds for 2 envs"),
        ({"seed": "words"}, "same game"),
        ({"seed": 1.5}, "seed must be"),
    ]
    for kwargs, match in cases:
        kwargs.setdefault("num_envs", 2)
        with pytest.raises(InvalidOptionError, match=match):
            BatchEnv(game, **kwargs)
    with pytest.raises(InvalidOptionError, match="already made"):
        BatchEnv(game, 2, players=2)
    with pytest.raises(InvalidOptionError):
        BatchEnv("no such game", 2)
    env = BatchEnv(game, 2)
    with pytest.raises(InvalidOptionError, match="mask must be"):
        env.reset(mask=[1, 0])
    with pytest.raises(InvalidOptionError, match="env must be"):
        env.state(2)


def test_seeds_per_env_and_fresh_seeds() -> None:
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    env = BatchEnv(game, 2, seed=["a", b"b"])
    assert _raw(env.state(0)) == _raw(game.new_state("a"))
    assert _raw(env.state(1)) == _raw(game.new_state(b"b"))
    one, two = BatchEnv(game, 8), BatchEnv(game, 8)
    assert not np.array_equal(one.deal_states, two.deal_states)  # None: fresh seeds


def test_the_learner_of_a_one_seat_game_needs_no_opponents() -> None:
    solo = [(n, o) for n, o in CONFIGURATIONS if _game(n, o).num_players == 1]
    if not solo:
        pytest.skip("no registered game seats one player")
    game = _game(*solo[0])
    env = BatchEnv(game, 2, seed=1, learner=0)
    assert env.opponents is None
    for _ in range(50):
        env.step(env.sample_actions())
        assert set(env.seats.tolist()) <= {0, -1}


def test_the_batch_module_constants_match_the_engine() -> None:
    # The salts differ from each other and from the engine's playout stream.
    assert len({CHOICE_SALT, NEXT_DEAL_SALT, _core.load("engine").PLAYOUT_STREAM[1]}) == 3
    assert _batch.LEGAL_CACHE_SIZE == _SOURCE.LEGAL_CACHE_SIZE


def test_one_call_at_a_time() -> None:
    """A call while another thread's call runs is refused (both would move the same
    positions with the GIL released); the env is unchanged by the refusal."""
    import threading

    name, options = ONE_PER_GAME[0]
    env = BatchEnv(_game(name, options), 2, seed=1)
    env._busy.acquire()  # as a call in another thread holds it
    try:
        for call in (lambda: env.step(env.sample_actions()), env.reset, lambda: env.state(0)):
            with pytest.raises(cruiselib.InvalidStateError, match="busy in another thread"):
                call()
    finally:
        env._busy.release()
    # Two real threads stepping their own envs do not disturb each other.
    envs = [BatchEnv(_game(name, options), 64, seed=s) for s in (1, 1)]
    done = []

    def run(e: BatchEnv) -> None:
        for _ in range(200):
            e.step(e.sample_actions())
        done.append(e)

    threads = [threading.Thread(target=run, args=(e,)) for e in envs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 2
    for x, y in zip(envs[0]._result(), envs[1]._result(), strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_positions_with_more_legal_actions_than_remembered(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An env remembers a position's first LEGAL_CACHE legal actions (to clear its mask row,
    check and sample without listing them again); past that it lists them again. The pure
    module remembering only 3 must step exactly as the compiled one."""
    game = _game(name, options)
    monkeypatch.setattr(_core.pure_module("batch"), "LEGAL_CACHE", 3)
    compiled, pure = BatchEnv(game, 4, seed=21), BatchEnv(game.pure_twin(), 4, seed=21)
    for _ in range(150):
        actions = compiled.sample_actions()
        np.testing.assert_array_equal(actions, pure.sample_actions())
        for x, y in zip(compiled.step(actions), pure.step(actions), strict=True):
            np.testing.assert_array_equal(x, y)
    actions = pure.sample_actions()
    busy = int(np.argmax(pure.legal_counts))
    assert pure.legal_counts[busy] > 3
    actions[busy] = int(np.flatnonzero(pure.action_masks[busy] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"env {busy}: action"):
        pure.step(actions)


def test_the_core_module_refuses_what_does_not_fit() -> None:
    """The compiled loops index without bounds checks, so the core's Batch refuses states of
    another core, buffers of the wrong shape, calls before its buffers, and short arguments."""
    name, options = ONE_PER_GAME[0]
    game = _game(name, options)
    states = [game.new_state(i) for i in range(3)]
    with pytest.raises(TypeError):
        _batch.Batch([object(), object()], -1, 0, 0, 0, False)
    with pytest.raises(TypeError):
        _batch.Batch([states[0], game.pure_twin().new_state(1)], -1, 0, 0, 0, False)
    batch = _batch.Batch(states, -1, 0, 0, 0, False)
    with pytest.raises(ValueError, match="no buffers"):
        batch.step(np.zeros(3, np.int64), 0, 3)
    n, obs, a, p = 3, game.observation_shape[0], game.num_actions, game.num_players

    def buffers(**wrong: Any) -> list[Any]:
        made = {
            "observations": np.zeros((n, obs), np.float32),
            "final_observations": np.zeros((1, obs), np.float32),
            "masks": np.zeros((n, a), np.int8),
            "seats": np.zeros(n, np.int32),
            "rewards": np.zeros((n, p), np.float32),
            "terminated": np.zeros(n, np.int8),
            "truncated": np.zeros(n, np.int8),
            "legal_counts": np.zeros(n, np.int32),
            "deal_states": np.zeros(n, np.uint64),
            "choices": np.zeros(n, np.uint64),
            "steps": np.zeros(n, np.int32),
            "pending": np.zeros(n, np.int8),
            "ended": np.zeros(n, np.int8),
            "legal_ids": np.zeros((n, _batch.LEGAL_CACHE_SIZE), np.int32),
            "legal_n": np.zeros(n, np.int32),
        }
        made.update(wrong)
        return list(made.values())

    for wrong in (
        {"observations": np.zeros((n, obs - 1), np.float32)},
        {"masks": np.zeros((n - 1, a), np.int8)},
        {"rewards": np.zeros((n, p + 1), np.float32)},
        {"legal_ids": np.zeros((n, 2), np.int32)},
        {"final_observations": np.zeros((1, obs + 1), np.float32)},
        {"seats": np.zeros(n + 1, np.int32)},
        {"legal_n": np.zeros(n - 1, np.int32)},
    ):
        with pytest.raises(ValueError, match=r"must have|does not fit"):
            batch.bind(*buffers(**wrong))
    batch.bind(*buffers())
    batch.reset(np.arange(3, dtype=np.uint64), np.zeros(1, np.int8), True, 0, 3)
    calls: list[Any] = [
        lambda: batch.check(np.zeros(2, np.int64)),
        lambda: batch.step(np.zeros(2, np.int64), 0, 3),
        lambda: batch.step(np.zeros(3, np.int64), 0, 4),
        lambda: batch.sample(np.zeros(2, np.int64), 0, 3),
        lambda: batch.reset(np.arange(2, dtype=np.uint64), np.zeros(1, np.int8), True, 0, 3),
        lambda: batch.reset(np.arange(3, dtype=np.uint64), np.zeros(1, np.int8), False, 0, 3),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="entries"):
            call()


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
@pytest.mark.parametrize("autoreset", ["next_step", "same_step", "disabled"])
@pytest.mark.parametrize("learner", [None, 0], ids=["self_play", "learner"])
def test_information_states_under_every_autoreset_mode(
    name: str, options: dict[str, Any], autoreset: Any, learner: int | None
) -> None:
    """With ``information_state=True``, every env's tensor, mask, seat, rewards and final
    tensor are those of a fresh game replayed from the same deal with the same actions,
    step by step across several game ends, in each autoreset mode, in self-play and with a
    learner whose opponents the core plays."""
    game = _game(name, options)
    n = 2
    seats = {} if learner is None else {"learner": learner, "opponents": "random"}
    env = BatchEnv(game, n, seed=60, autoreset=autoreset, information_state=True, **seats)  # type: ignore[arg-type]

    def deal(replay: Replay, deal_state: int) -> None:
        replay.start(deal_state)
        if learner is not None:
            replay.opponents(learner, "random")

    replays = [Replay(game, _rng.seed_state(60 + i)) for i in range(n)]
    for i, replay in enumerate(replays):
        deal(replay, _rng.seed_state(60 + i))
        _assert_env_matches(env, i, replay, replay.state.current_player)
    games_ended = 0
    for step in range(20_000):
        if autoreset == "disabled" and env.terminated.any() | env.truncated.any():
            ended = env.terminated.copy()
            env.reset(seed=1000 + step, mask=ended)
            for reset_env in map(int, np.flatnonzero(ended)):
                deal(replays[reset_env], _rng.seed_state(1000 + step + reset_env))
                _assert_env_matches(env, reset_env, replays[reset_env], replays[reset_env].state.current_player)
        actions = env.sample_actions()
        rewards = np.zeros((n, game.num_players), np.float32)
        finals: dict[int, npt.NDArray[np.float32]] = {}
        observers = []
        for i, replay in enumerate(replays):
            if replay.state.is_over:  # next-step autoreset: this step deals the next game
                deal(replay, int(_rng.mix64(replay.deal ^ NEXT_DEAL_SALT)))
                observers.append(replay.state.current_player)
                continue
            assert actions[i] == replay.sample()
            actor = replay.state.current_player
            replay.state.apply(int(actions[i]))
            if learner is not None:
                replay.opponents(learner, "random")
            if not replay.state.is_over:
                observers.append(replay.state.current_player if learner is None else learner)
                continue
            games_ended += 1
            rewards[i] = replay.state.returns()
            seen_by = actor if learner is None else learner
            if autoreset == "same_step":
                finals[i] = replay.state.information_state(seen_by)
                deal(replay, int(_rng.mix64(replay.deal ^ NEXT_DEAL_SALT)))
                observers.append(replay.state.current_player)
            else:
                observers.append(seen_by)
        env.step(actions)
        np.testing.assert_array_equal(env.rewards, rewards)
        for i, replay in enumerate(replays):
            _assert_env_matches(env, i, replay, observers[i])
            assert bool(env.terminated[i]) == (i in finals or replay.state.is_over)
            if i in finals:
                np.testing.assert_array_equal(env.final_observations[i], finals[i])
        if games_ended >= 2 * n:
            return
    pytest.fail("the games did not end")
