"""The Gymnasium single-agent environment (cruiselib.envs.gym_env): Gymnasium's check_env
for every game and player count, then seeding, opponents, masks, illegal actions, the
step limit, the registry and bad options."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cruiselib  # noqa: E402
from cruiselib._registry import game_class  # noqa: E402
from cruiselib.bots import RandomBot  # noqa: E402
from cruiselib.envs import GameGymEnv, gym_env  # noqa: E402
from cruiselib.envs.aec import env_id  # noqa: E402
from cruiselib.envs.gym import register_envs  # noqa: E402
from tests.env_support import CONFIGURATIONS, IDS, illegal_action, sample  # noqa: E402
from tests.support import one_per_game  # noqa: E402

# check_env of an env made without gymnasium.make cannot make one per render mode (the
# registered envs are checked in every mode).
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes:UserWarning"),
    pytest.mark.surface,  # Python over the core's public API: the same code on either core
]

MULTI = [(name, options) for name, options in CONFIGURATIONS if cruiselib.make(name, **options).num_players > 1]
MULTI_IDS = [IDS[CONFIGURATIONS.index(case)] for case in MULTI]


def play(env: GameGymEnv, rnd: random.Random) -> tuple[list[Any], float]:
    """Play the episode (reset already) with random legal actions: the observations and
    the last reward."""
    seen, reward, ended = [], 0.0, False
    while not ended:
        observation, reward, terminated, truncated, _info = env.step(sample(env.action_masks(), rnd))
        seen.append(observation)
        ended = terminated or truncated
    return seen, reward


class Recorder:
    """A bot that plays the first legal action and notes the seats it played for."""

    name = "recorder"

    def __init__(self) -> None:
        self.seats: list[int] = []

    def choose(self, state: Any) -> int:
        self.seats.append(state.current_player)
        return int(state.legal_actions()[0])

    def analyse(self, state: Any) -> list[Any]:
        return []


# --- Gymnasium's own check --------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_gymnasium_check_env(name: str, options: dict[str, Any]) -> None:
    # check_env steps with actions sampled from the whole space, most of them illegal: with
    # illegal_action="lose" they end the episode instead of raising. Made through the
    # registry, so check_env also renders in every declared mode.
    env = gymnasium.make(env_id(name), illegal_action="lose", **options)
    check_env(env.unwrapped, skip_render_check=False)
    for seat in range(1, env.unwrapped.game.num_players):
        check_env(gym_env(name, seat=seat, opponents="random", illegal_action="lose", **options))


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_gymnasium_check_env_information_state(name: str, options: dict[str, Any]) -> None:
    check_env(gym_env(name, information_state=True, illegal_action="lose", **options))


# --- the environment's own promises ----------------------------------------------------


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_an_episode_is_the_game_with_rewards_at_the_end(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    seat = game.num_players - 1
    env = gym_env(game, seat=seat)
    observation, info = env.reset(seed=9)
    assert env.game_state.current_player == seat and env.deal_seed == 9
    np.testing.assert_array_equal(observation, env.game_state.observation(seat))
    assert observation in env.observation_space
    rnd = random.Random(9)
    ended = False
    while not ended:
        mask = env.action_masks()
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        assert env.action_space.sample(mask=mask) in env.game_state.legal_actions()  # Gymnasium's own masking
        np.testing.assert_array_equal(mask, info["action_mask"])
        np.testing.assert_array_equal(np.flatnonzero(mask), env.game_state.legal_actions())
        observation, reward, terminated, truncated, info = env.step(sample(mask, rnd))
        assert observation in env.observation_space and not truncated
        ended = terminated
        if not ended:
            assert reward == 0.0 and env.game_state.current_player == seat
    assert env.game_state.is_over and reward == env.game_state.returns()[seat]
    assert not env.action_masks().any() and not info["action_mask"].any()
    replay = game.new_state(9)
    for action in env.game_state.history:
        replay.apply(action)
    assert replay == env.game_state


@pytest.mark.parametrize(("name", "options"), MULTI, ids=MULTI_IDS)
def test_seeded_episodes_reproduce(name: str, options: dict[str, Any]) -> None:
    for opponents in ("rules", "random"):
        one, two = gym_env(name, opponents=opponents, **options), gym_env(name, opponents=opponents, **options)
        for seed in (3, None, None):  # a seed, then the deals drawn from it
            first, _ = one.reset(seed=seed)
            second, _ = two.reset(seed=seed)
            np.testing.assert_array_equal(first, second)
            assert one.deal_seed == two.deal_seed
            seen_one, reward_one = play(one, random.Random(5))
            seen_two, reward_two = play(two, random.Random(5))
            assert reward_one == reward_two and len(seen_one) == len(seen_two)
            for a, b in zip(seen_one, seen_two, strict=True):
                np.testing.assert_array_equal(a, b)
            assert one.game_state.history == two.game_state.history


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_observations_are_new_arrays(name: str, options: dict[str, Any]) -> None:
    env = gym_env(name, opponents="random", **options)
    observation, info = env.reset(seed=1)
    kept = [(observation, observation.copy()), (info["action_mask"], info["action_mask"].copy())]
    rnd = random.Random(1)
    ended = False
    while not ended:
        mask = env.action_masks()
        assert not np.shares_memory(mask, env.action_masks())
        observation, _, terminated, truncated, info = env.step(sample(mask, rnd))
        kept += [(observation, observation.copy()), (info["action_mask"], info["action_mask"].copy())]
        ended = terminated or truncated
    for array, copy in kept:
        np.testing.assert_array_equal(array, copy)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_illegal_action_raises_and_changes_nothing(name: str, options: dict[str, Any]) -> None:
    env = gym_env(name, opponents="random", **options)
    env.reset(seed=4)
    before = env.game_state.to_json()
    mask = env.action_masks()
    for action in (illegal_action(mask), -1, env.game.num_actions, None, 2.0):
        with pytest.raises(cruiselib.IllegalMoveError):
            env.step(action)
        assert env.game_state.to_json() == before
    env.step(sample(mask, random.Random(0)))  # the env plays on


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_illegal_action_loses_when_asked(name: str, options: dict[str, Any]) -> None:
    env = gym_env(name, illegal_action="lose", **options)
    env.reset(seed=4)
    before = env.game_state.to_json()
    observation, reward, terminated, truncated, info = env.step(illegal_action(env.action_masks()))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game_state.to_json() == before and observation in env.observation_space
    assert not env.action_masks().any()
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.step(0)


@pytest.mark.parametrize(("name", "options"), one_per_game(), ids=[name for name, _ in one_per_game()])
def test_illegal_action_is_replaced_when_asked(name: str, options: dict[str, Any]) -> None:
    """A uniformly random legal action is played instead (the same for the same deal), and
    the info says which; the episode goes on."""
    played = []
    for _ in range(2):
        env = gym_env(name, opponents="random", illegal_action="random", **options)
        env.reset(seed=4)
        history = list(env.game_state.history)
        mask = env.action_masks()
        _, _, terminated, _, info = env.step(illegal_action(mask))
        assert info["illegal_action"] and mask[info["played_action"]]
        assert env.game_state.history[len(history)] == info["played_action"]
        played.append(info["played_action"])
        if not terminated:
            _, _, _, _, info = env.step(sample(env.action_masks(), random.Random(0)))
            assert "illegal_action" not in info  # a legal action: no flag
    assert played[0] == played[1]
    check_env(gym_env(name, illegal_action="random", opponents="random", **options))


@pytest.mark.parametrize(("name", "options"), MULTI, ids=MULTI_IDS)
def test_opponents_play_the_other_seats(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    others = [seat for seat in range(game.num_players) if seat != 0]
    # One bot for every other seat.
    bot = Recorder()
    env = gym_env(game, opponents=bot)
    env.reset(seed=2)
    play(env, random.Random(2))
    assert set(bot.seats) == set(others)
    assert len(bot.seats) < len(env.game_state.history)  # the learner played the rest
    # A bot per seat, each playing only its own seat, and names.
    bots = [Recorder() for _ in others]
    env = gym_env(game, opponents=bots)
    env.reset(seed=2)
    play(env, random.Random(2))
    for seat, recorder in zip(others, bots, strict=True):
        assert recorder.seats and set(recorder.seats) == {seat}
    env = gym_env(game, opponents=["random"] * (len(others) - 1) + [RandomBot(seed=1)])
    env.reset(seed=2)
    assert [type(b).__name__ for b in env.opponents[1:]] == ["RandomBot"] * len(others)
    env = gym_env(game)  # the game's rule-based bot by default
    env.reset(seed=2)
    rule_class = type(game).rule_bot
    assert rule_class is not None
    assert all(f"{type(b).__module__}:{type(b).__qualname__}" == rule_class for b in env.opponents[1:])
    assert env.opponents[0] is None


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_opponent_bots_are_seeded_from_the_deal(name: str, options: dict[str, Any]) -> None:
    env = gym_env(name, opponents="random", **options)
    env.reset(seed=12)
    first = env.opponents
    env.reset(seed=12)
    assert all(a is None or a is not b for a, b in zip(first, env.opponents, strict=True))  # made anew
    rolls = [None if b is None else b._rnd.random() for b in env.opponents]
    env.reset(seed=12)
    assert rolls == [None if b is None else b._rnd.random() for b in env.opponents]


def test_one_seat_configurations_have_no_opponents() -> None:
    solo = [(name, options) for name, options in CONFIGURATIONS if cruiselib.make(name, **options).num_players == 1]
    for name, options in solo:
        choices: tuple[Any, ...] = ("rules", "random", [])
        for opponents in choices:
            env = gym_env(name, opponents=opponents, **options)
            env.reset(seed=1)
            assert env.opponents == [None]
            _, reward = play(env, random.Random(1))
            assert reward == env.game_state.returns()[0]
        for bad in (42, None, ["random"]):
            with pytest.raises(cruiselib.InvalidOptionError, match="opponents"):
                gym_env(name, opponents=bad, **options)


def test_max_steps_truncates() -> None:
    name, options = MULTI[0]
    env = gym_env(name, max_steps=3, opponents="random", **options)
    env.reset(seed=1)
    rnd = random.Random(1)
    results = [env.step(sample(env.action_masks(), rnd))[1:4] for _ in range(3)]
    assert results == [(0.0, False, False), (0.0, False, False), (0.0, False, True)]
    assert not env.game_state.is_over and not env.action_masks().any()
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.step(0)
    env.reset()
    assert env.step(sample(env.action_masks(), rnd))[3] is False


def test_render_modes() -> None:
    name = cruiselib.games()[0]
    env = gym_env(name, render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == env.game.render(env.game_state)


@pytest.mark.parametrize("name", cruiselib.games())
def test_registered_with_gymnasium(name: str) -> None:
    env = gymnasium.make(env_id(name), opponents="random")
    assert isinstance(env.unwrapped, GameGymEnv) and env.unwrapped.game == cruiselib.make(name)
    env.reset(seed=1)
    counts = game_class(name).player_counts
    assert gymnasium.make(env_id(name), players=counts[-1]).unwrapped.game.num_players == counts[-1]
    assert register_envs() == []  # registered once


def test_bad_options_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    name, options = MULTI[0]
    game = cruiselib.make(name, **options)
    bad: list[dict[str, Any]] = [
        {"seat": game.num_players},
        {"seat": -1},
        {"seat": True},
        {"opponents": "no_such_bot"},
        {"opponents": 42},
        {"opponents": ["random"] * game.num_players},
        {"opponents": [object()] * (game.num_players - 1)},
        {"information_state": 1},
        {"render_mode": "rgb"},
        {"max_steps": 0},
        {"illegal_action": "ignore"},
        {"illegal_action": None},
    ]
    for case in bad:
        with pytest.raises(cruiselib.InvalidOptionError):
            gym_env(game, **case)
    with pytest.raises(cruiselib.InvalidOptionError):
        gym_env(game, players=2)
    with pytest.raises(cruiselib.InvalidOptionError):
        gym_env("no_such_game")
    monkeypatch.setattr(type(game), "rule_bot", None)
    with pytest.raises(cruiselib.InvalidOptionError, match="rule-based bot"):
        gym_env(game)
    gym_env(game, opponents="random")  # other bots need no rule-based one
    env = gym_env(game, opponents="random")
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.step(0)
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.action_masks()
    with pytest.raises(cruiselib.InvalidOptionError):
        env.reset(seed=-3)
