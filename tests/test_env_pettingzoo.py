"""The PettingZoo environments (cruiselib.envs.aec_env, parallel_env): PettingZoo's own
checks for every game and player count, then seeding, aliasing, illegal actions (raised,
lost or replaced), the truncation limit, self-play results and infos, the global state,
rendering, the registry and bad options."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from pettingzoo.test import (  # type: ignore[import-untyped]  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

import cruiselib  # noqa: E402
from cruiselib._registry import game_class  # noqa: E402
from cruiselib.envs import GameAECEnv, aec_env, parallel_env  # noqa: E402
from cruiselib.envs.aec import env_id, register_envs  # noqa: E402
from tests.env_support import CONFIGURATIONS, IDS, illegal_action, sample  # noqa: E402
from tests.support import one_per_game  # noqa: E402

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),  # PettingZoo's advice on Dict observations
    pytest.mark.surface,  # Python over the core's public API: the same code on either core
]


def play(env: Any, rnd: random.Random, limit: int = 10_000) -> list[dict[str, Any]]:
    """Step ``env`` (reset already) to its end with random legal actions; every
    observation ``last()`` gave, in order."""
    seen = []
    for _ in env.agent_iter(limit):
        observation, _reward, terminated, truncated, _info = env.last()
        seen.append(observation)
        env.step(None if terminated or truncated else sample(observation["action_mask"], rnd))
    return seen


# --- PettingZoo's own checks ---------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_api(name: str, options: dict[str, Any]) -> None:
    api_test(aec_env(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_information_state_api(name: str, options: dict[str, Any]) -> None:
    api_test(aec_env(name, information_state=True, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_seed(name: str, options: dict[str, Any]) -> None:
    seed_test(lambda: aec_env(name, **options))


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_render(name: str, options: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: aec_env(name, render_mode=render_mode, **options))
    assert capsys.readouterr().out  # "human" printed the table


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_parallel_api(name: str, options: dict[str, Any]) -> None:
    parallel_api_test(parallel_env(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_parallel_seed(name: str, options: dict[str, Any]) -> None:
    # PettingZoo's parallel seed test samples every agent's action without a mask: the
    # illegal ones are replaced by random legal ones, drawn from the deal's own generator.
    parallel_seed_test(lambda: parallel_env(name, illegal_action="random", **options))


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_pettingzoo_state(name: str, options: dict[str, Any]) -> None:
    # state_test steps unmasked actions too.
    state_test(
        aec_env(name, illegal_action="random", **options), parallel_env(name, illegal_action="random", **options)
    )


class LegalDiscrete(spaces.Discrete):
    """PettingZoo's max_cycles_test samples actions without a mask (it assumes every action
    legal): this space samples among the legal actions of its env's agent to act instead."""

    def __init__(self, env: GameAECEnv) -> None:
        super().__init__(env.game.num_actions)
        self.env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None:
            mask = self.env.observe(self.env.agent_selection)["action_mask"]
        return super().sample(mask)


def with_legal_sampling(env: Any) -> Any:
    """``env`` (or the AEC env under a parallel one) sampling only legal actions."""
    inner = env.unwrapped
    inner.action_spaces = {agent: LegalDiscrete(inner) for agent in inner.possible_agents}
    return env


# PettingZoo's max_cycles_test also wants every agent to have acted exactly max_cycles
# times when the limit strikes, which only a game whose seats take turns round the table
# can promise: it runs here on the one-seat configurations; every configuration has the
# same limit checked by test_max_cycles_truncates_every_agent.
SOLO = [(name, options) for name, options in CONFIGURATIONS if cruiselib.make(name, **options).num_players == 1]


@pytest.mark.parametrize(("name", "options"), SOLO, ids=[f"{name}-{options}" for name, options in SOLO])
def test_pettingzoo_max_cycles(name: str, options: dict[str, Any]) -> None:
    class Module:
        @staticmethod
        def env(max_cycles: int) -> Any:
            return with_legal_sampling(aec_env(name, max_cycles=max_cycles, **options))

        @staticmethod
        def parallel_env(max_cycles: int) -> Any:
            return with_legal_sampling(parallel_env(name, max_cycles=max_cycles, **options))

    max_cycles_test(Module)


# --- the environment's own promises ----------------------------------------------------


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_max_cycles_truncates_every_agent(name: str, options: dict[str, Any]) -> None:
    limit = 4
    env = aec_env(name, max_cycles=limit, **options)
    env.reset(seed=11)
    rnd = random.Random(0)
    acted = dict.fromkeys(env.possible_agents, 0)
    while not any(env.truncations.values()):
        assert not any(env.terminations.values())
        agent = env.agent_selection
        acted[agent] += 1
        env.step(sample(env.observe(agent)["action_mask"], rnd))
    # The limit struck on the step by which one agent made its limit-th action.
    assert max(acted.values()) == limit
    assert all(env.truncations.values()) and len(env.truncations) == len(env.possible_agents)
    assert not any(env.rewards.values())
    zeros = [0.0] * len(env.possible_agents)
    assert env.infos == {agent: {"acting_seat": -1, "final_returns": zeros} for agent in env.possible_agents}
    with pytest.raises(cruiselib.IllegalMoveError, match="None"):
        env.step(0)  # an ended agent's only action is None
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        assert truncated and not terminated and reward == 0
        assert not observation["action_mask"].any()
        env.step(None)
    assert env.agents == []
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.step(None)

    # The parallel env counts parallel steps, one turn each.
    par = parallel_env(name, max_cycles=limit, **options)
    observations, _ = par.reset(seed=11)
    steps = 0
    while par.agents:
        active = next(a for a in par.agents if observations[a]["action_mask"].any())
        actions = {a: sample(observations[a]["action_mask"], rnd) if a == active else 0 for a in par.agents}
        observations, _, terminations, truncations, _ = par.step(actions)
        steps += 1
    assert steps == limit
    assert all(truncations.values()) and not any(terminations.values())


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_seeded_reset_replays_new_state(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    env = aec_env(game)
    env.reset(seed=21)
    assert env.deal_seed == 21
    assert env.game_state == game.new_state(21)
    play(env, random.Random(1))
    replay = game.new_state(21)
    for action in env.game_state.history:
        replay.apply(action)
    assert replay == env.game_state and replay.is_over


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_unseeded_resets_follow_the_seeded_one(name: str, options: dict[str, Any]) -> None:
    one, two = aec_env(name, **options), aec_env(name, **options)
    one.reset(seed=5)
    two.reset(seed=5)
    deals = []
    for _ in range(3):
        one.reset()
        two.reset()
        assert one.game_state == two.game_state
        deals.append(one.deal_seed)
    assert len(set(deals)) == 3 and 5 not in deals
    one.reset(seed=5)  # a seeded reset reseeds the generator
    one.reset()
    assert one.deal_seed == deals[0]


def test_unseeded_envs_deal_different_games() -> None:
    name = cruiselib.games()[0]
    one, two = aec_env(name), aec_env(name)
    one.reset()
    two.reset()
    assert one.deal_seed != two.deal_seed


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_stored_observations_do_not_change(name: str, options: dict[str, Any]) -> None:
    env = aec_env(name, **options)
    env.reset(seed=2)
    kept = []
    rnd = random.Random(2)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        again = env.observe(agent)
        for key in ("observation", "action_mask"):
            assert not np.shares_memory(observation[key], again[key])
        kept.append((observation, {key: value.copy() for key, value in observation.items()}))
        env.step(None if terminated or truncated else sample(observation["action_mask"], rnd))
    for observation, copy in kept:
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(observation[key], copy[key])


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_illegal_action_raises_and_changes_nothing(name: str, options: dict[str, Any]) -> None:
    env = aec_env(name, **options)
    env.reset(seed=4)
    rnd = random.Random(4)
    for _ in range(5):  # a few moves in, then every kind of illegal action
        env.step(sample(env.observe(env.agent_selection)["action_mask"], rnd))
    agent = env.agent_selection
    before = (env.game_state.to_json(), dict(env.rewards), dict(env.terminations), dict(env.truncations))
    mask = env.observe(agent)["action_mask"]
    for action in (illegal_action(mask), -1, env.game.num_actions, None, 1.5, True):
        with pytest.raises(cruiselib.IllegalMoveError):
            env.step(action)
        assert env.agent_selection == agent
        assert (env.game_state.to_json(), env.rewards, env.terminations, env.truncations) == before
    env.step(sample(mask, rnd))  # the env plays on


ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]


def a_few_moves_in(env: Any, rnd: random.Random, moves: int = 5) -> None:
    """Step ``env`` (reset already) ``moves`` random legal moves (the game goes on)."""
    for _ in range(moves):
        env.step(sample(env.observe(env.agent_selection)["action_mask"], rnd))
    assert not any(env.terminations.values())


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_illegal_action_loses_when_asked(name: str, options: dict[str, Any]) -> None:
    """-1 for the seat that took it, 0 for the others, every agent terminated at once, the
    position left as it was; the same through the parallel env."""
    env = aec_env(name, illegal_action="lose", **options)
    env.reset(seed=4)
    a_few_moves_in(env, random.Random(4))
    agent = env.agent_selection
    before = env.game_state.to_json()
    env.step(illegal_action(env.observe(agent)["action_mask"]))
    assert env.game_state.to_json() == before
    expected = {a: -1.0 if a == agent else 0.0 for a in env.possible_agents}
    final = list(expected.values())
    assert env.rewards == expected and all(env.terminations.values()) and not any(env.truncations.values())
    for other in env.possible_agents:
        flagged = {"illegal_action": True} if other == agent else {}
        assert env.infos[other] == {"acting_seat": -1, **flagged, "final_returns": final}
    np.testing.assert_array_equal(env.state()[-len(final) :], 0)  # nobody is to act
    collected = {}
    for each in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        assert terminated and not observation["action_mask"].any()
        collected[each] = reward
        env.step(None)
    assert collected == expected

    par = parallel_env(name, illegal_action="lose", **options)
    observations, infos = par.reset(seed=4)
    acting = par.possible_agents[infos[par.agents[0]]["acting_seat"]]
    actions = dict.fromkeys(par.agents, 0)
    actions[acting] = illegal_action(observations[acting]["action_mask"])
    _, rewards, terminations, _, infos = par.step(actions)
    assert rewards == {a: -1.0 if a == acting else 0.0 for a in par.possible_agents}
    assert all(terminations.values()) and infos[acting]["illegal_action"] and par.agents == []


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_illegal_action_is_replaced_when_asked(name: str, options: dict[str, Any]) -> None:
    """A uniformly random legal action is played instead, the same for the same deal; the
    acting agent's info says so until it acts again."""
    played = []
    for _ in range(2):
        env = aec_env(name, illegal_action="random", **options)
        env.reset(seed=9)
        a_few_moves_in(env, random.Random(9))
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        history = list(env.game_state.history)
        mask = env.observe(agent)["action_mask"]
        env.step(illegal_action(mask))
        info = env.infos[agent]
        assert info["illegal_action"] and mask[info["played_action"]]
        assert env.game_state.history == [*history, info["played_action"]]
        assert not any("illegal_action" in env.infos[other] for other in env.possible_agents if other != agent)
        played.append(info["played_action"])
        rnd = random.Random(1)
        while not any(env.terminations.values()):
            assert env.infos[agent]["illegal_action"]  # kept until the agent acts again
            acting = env.agent_selection
            if acting == agent:
                assert env.last()[4]["illegal_action"] and env.infos[agent]["acting_seat"] == seat
            env.step(sample(env.observe(acting)["action_mask"], rnd))
            if acting == agent:
                assert "illegal_action" not in env.infos[agent]
                break
    assert played[0] == played[1]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_state_is_every_seat_tensor_and_the_seat_to_act(name: str, options: dict[str, Any]) -> None:
    for information_state in (False, True):
        env = aec_env(name, information_state=information_state, **options)
        with pytest.raises(cruiselib.InvalidStateError, match="reset"):
            env.state()
        env.reset(seed=6)
        rnd = random.Random(6)
        seats = env.game.num_players
        for _ in range(3):
            state = env.game_state
            tensor = state.information_state if information_state else state.observation
            expected = np.concatenate([*(tensor(seat) for seat in range(seats)), np.eye(seats)[state.current_player]])
            got = env.state()
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == np.float32 and env.state_space.contains(got)
            assert env.state() is not got
            env.step(sample(env.observe(env.agent_selection)["action_mask"], rnd))
        play(env, rnd)
        assert not env.state()[-seats:].any() and env.state_space.contains(env.state())
    par = parallel_env(name, **options)
    par.reset(seed=6)
    assert par.state_space is par.unwrapped.state_space
    np.testing.assert_array_equal(par.state(), par.unwrapped.state())


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_every_seat_gets_its_result_on_the_last_step(name: str, options: dict[str, Any]) -> None:
    """Self-play without bookkeeping: on the step the game ends, ``rewards`` holds every
    seat's return, every info the final returns; then each agent's ``last()`` in seat order
    shows its own. While the game runs, every info names the seat to act."""
    env = aec_env(name, **options)
    env.reset(seed=8)
    rnd = random.Random(8)
    while not any(env.terminations.values()):
        state = env.game_state
        assert not any(env.rewards.values())
        assert env.infos == {agent: {"acting_seat": state.current_player} for agent in env.possible_agents}
        assert env.agent_selection == env.possible_agents[state.current_player]
        env.step(sample(env.observe(env.agent_selection)["action_mask"], rnd))
    returns = env.game_state.returns()
    by_agent = dict(zip(env.possible_agents, returns, strict=True))
    assert env.rewards == by_agent and all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos == {agent: {"acting_seat": -1, "final_returns": returns} for agent in env.possible_agents}
    collected, order = {}, []
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        assert terminated and not truncated and info["final_returns"] == returns
        collected[agent] = reward
        order.append(agent)
        env.step(None)
    assert collected == by_agent and order == env.possible_agents

    # The parallel env: the ending step returns every agent's result.
    par = parallel_env(name, **options)
    observations, infos = par.reset(seed=8)
    rnd = random.Random(8)
    while par.agents:
        acting = par.possible_agents[infos[par.agents[0]]["acting_seat"]]
        assert all(infos[agent]["acting_seat"] == par.possible_agents.index(acting) for agent in par.agents)
        actions = dict.fromkeys(par.agents, 0)  # only the acting agent's action is used
        actions[acting] = sample(observations[acting]["action_mask"], rnd)
        observations, rewards, terminations, _, infos = par.step(actions)
        if not par.agents:
            break
        assert not any(rewards.values()) and not any(terminations.values())
    returns = par.unwrapped.game_state.returns()
    assert rewards == dict(zip(par.possible_agents, returns, strict=True))
    assert all(terminations.values()) and len(terminations) == len(par.possible_agents)
    assert all(info["final_returns"] == returns for info in infos.values()) and len(infos) == len(returns)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_observations_are_the_seats_tensors(name: str, options: dict[str, Any]) -> None:
    for information_state in (False, True):
        env = aec_env(name, information_state=information_state, **options)
        env.reset(seed=6)
        state = env.game_state
        tensor = state.information_state if information_state else state.observation
        for seat, agent in enumerate(env.possible_agents):
            observation = env.observe(agent)
            np.testing.assert_array_equal(observation["observation"], tensor(seat))
            assert env.observation_space(agent)["observation"].shape == observation["observation"].shape
            expected = state.action_mask() if seat == state.current_player else np.zeros(env.game.num_actions)
            np.testing.assert_array_equal(observation["action_mask"], expected)
            assert observation["action_mask"].dtype == np.int8


def test_spaces_are_made_once_from_the_game_bounds() -> None:
    game = cruiselib.make(cruiselib.games()[0])
    env = aec_env(game)
    low, high = game.observation_bounds()
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        np.testing.assert_array_equal(space["observation"].low, low)
        np.testing.assert_array_equal(space["observation"].high, high)
        assert env.action_space(agent).n == game.num_actions
    assert env.observation_space("player_0") is not env.observation_space("player_1")
    low, high = game.information_state_bounds()
    informed = aec_env(game, information_state=True).observation_space("player_0")["observation"]
    np.testing.assert_array_equal(informed.low, low)
    np.testing.assert_array_equal(informed.high, high)


def test_ansi_render_is_the_game_render() -> None:
    name = cruiselib.games()[0]
    env = aec_env(name, render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == env.game.render(env.game_state)
    assert aec_env(name).render() is None  # no mode: a warning, no text


def test_cycle_based_parallel_conversion_is_refused() -> None:
    """A seat may act several times in a row: PettingZoo's aec_to_parallel, which steps
    every agent once per cycle, is told the env is not parallelizable that way."""
    from pettingzoo.utils.conversions import aec_to_parallel  # type: ignore[import-untyped]

    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec_env(cruiselib.games()[0]))


def test_agents_are_named_by_seat() -> None:
    for name, options in CONFIGURATIONS:
        env = aec_env(name, **options)
        assert env.possible_agents == [f"player_{seat}" for seat in range(env.game.num_players)]
        assert str(env) == f"cruiselib_{name}_v0"


@pytest.mark.parametrize("name", cruiselib.games())
def test_registered_with_pettingzoo(name: str) -> None:
    ident = env_id(name)
    assert ident.startswith("cruiselib/") and ident.endswith("-v0")
    env = pettingzoo.make("aec", ident)
    assert isinstance(env, GameAECEnv) and env.game == cruiselib.make(name)
    count = cruiselib.make(name).num_players
    other = next((n for n in env.game.player_counts if n != count), count)
    if other != count:
        assert pettingzoo.make("aec", ident, players=other).game.num_players == other
    par = pettingzoo.make("parallel", ident, max_cycles=3)
    par.reset(seed=1)
    assert par.unwrapped.game == env.game and par.unwrapped.max_cycles == 3
    assert register_envs() == []  # registered once


def test_env_ids_follow_the_titles(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len({env_id(name) for name in cruiselib.games()}) == len(cruiselib.games())
    name = cruiselib.games()[0]
    monkeypatch.setattr(game_class(name), "title", "The Pirate's 2nd  voyage")
    assert env_id(name) == "cruiselib/ThePirates2ndVoyage-v0"


def test_bad_options_raise() -> None:
    name = cruiselib.games()[0]
    game = cruiselib.make(name)
    bad: list[dict[str, Any]] = [
        {"render_mode": "rgb"},
        {"max_cycles": 0},
        {"max_cycles": True},
        {"max_cycles": 2.0},
        {"information_state": "yes"},
        {"illegal_action": "ignore"},
        {"illegal_action": None},
        {"illegal_action": ["lose"]},
        {"no_such_option": 1},
    ]
    for options in bad:
        with pytest.raises(cruiselib.InvalidOptionError):
            aec_env(name, **options)
        with pytest.raises(cruiselib.InvalidOptionError):
            parallel_env(name, **options)
    with pytest.raises(cruiselib.InvalidOptionError, match="unknown game"):
        aec_env("no_such_game")
    with pytest.raises(cruiselib.InvalidOptionError, match="make"):
        aec_env(game, players=game.num_players)
    with pytest.raises(cruiselib.InvalidOptionError):
        aec_env(42)
    env = aec_env(game)
    with pytest.raises(cruiselib.InvalidStateError):
        env.step(0)
    with pytest.raises(cruiselib.InvalidStateError):
        env.observe("player_0")
    for seed in (-1, 1.5, "one"):
        with pytest.raises(cruiselib.InvalidOptionError):
            env.reset(seed=seed)  # type: ignore[arg-type]
    env.reset(seed=1)
    for agent in ("player_99", None):
        with pytest.raises(cruiselib.InvalidOptionError):
            env.observe(agent)  # type: ignore[arg-type]
        with pytest.raises(cruiselib.InvalidOptionError):
            env.observation_space(agent)  # type: ignore[arg-type]


def test_import_without_the_rl_extra() -> None:
    """``import cruiselib.envs`` works without gymnasium and pettingzoo; the envs say what to install."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('gymnasium', 'pettingzoo'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import cruiselib.envs as e\n"
        "for make in (e.aec_env, e.parallel_env, e.gym_env):\n"
        "    try:\n"
        "        make(e.aec.games()[0])\n"
        "    except ImportError as exc:\n"
        "        assert 'cruiselib[rl]' in str(exc), exc\n"
        "    else:\n"
        "        raise SystemExit('no ImportError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
