"""The RLlib multi-agent environment (cruiselib.envs.rllib): RLlib's own env check in every
game, random masked play fed to RLlib's MultiAgentEpisode (which refuses what its env runner
would), the results, illegal actions, truncation, seeding and bad options; then, where torch
is installed, one PPO iteration with RLlib's action-masking RLModule. RLlib is imported by
the tests that need it (importing it takes seconds)."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cruiselib
from tests.env_support import illegal_action, sample
from tests.support import one_per_game

pytest.importorskip("gymnasium")

ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]


@pytest.fixture(scope="module")
def rllib() -> Any:
    """RLlib, or the test is skipped (it is not installed, or not all of its dependencies)."""
    return pytest.importorskip("ray.rllib")


def new_env(name: str, options: dict[str, Any], **config: Any) -> Any:
    from cruiselib.envs.rllib import rllib_env

    return rllib_env(name, **config, **options)


def episode_of(env: Any) -> Any:
    """An empty RLlib MultiAgentEpisode over ``env``'s spaces."""
    from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

    episode_class: Any = MultiAgentEpisode  # RLlib's annotations say one space, not one per agent
    return episode_class(
        observation_space={agent: env.get_observation_space(agent) for agent in env.possible_agents},
        action_space={agent: env.get_action_space(agent) for agent in env.possible_agents},
    )


@pytest.mark.usefixtures("rllib")
@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_rllib_env_check(name: str, options: dict[str, Any]) -> None:
    """RLlib's env check, as its env runners run it, without disable_env_checking: it steps an
    action sampled from the whole space, which "lose" (the default) and "random" survive."""
    from ray.rllib.env.env_context import EnvContext
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from cruiselib.envs.rllib import GameMultiAgentEnv

    env = GameMultiAgentEnv(EnvContext({"game": name, **options}, worker_index=1))  # as RLlib makes it
    assert env.illegal_action == "lose"
    for _ in range(3):
        check_multiagent_environments(env)
    check_multiagent_environments(new_env(name, options, illegal_action="random"))


@pytest.mark.usefixtures("rllib")
@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_random_masked_play(name: str, options: dict[str, Any]) -> None:
    """A few hundred steps of masked random play over several games: only the agent to act
    is observed, the rewards and flags are RLlib's, every seat gets its result on the last
    step, and RLlib's episode takes every step (it raises on what its runner refuses)."""
    env = new_env(name, options, illegal_action="raise")
    rnd = random.Random(0)
    observations, infos = env.reset(seed=1)
    episode = episode_of(env)
    episode.add_env_reset(observations=observations, infos=infos)
    games = 0
    for _ in range(300):
        state = env.game_state
        (agent,) = observations
        seat = env.possible_agents.index(agent)
        assert seat == state.current_player and infos == {agent: {"acting_seat": seat}}
        observation = observations[agent]
        assert env.get_observation_space(agent).contains(observation)
        np.testing.assert_array_equal(observation["action_mask"], state.action_mask())
        np.testing.assert_array_equal(observation["observations"], state.observation(seat))
        actions = {agent: np.int64(sample(observation["action_mask"], rnd))}
        observations, rewards, terminateds, truncateds, infos = env.step(actions)
        episode.add_env_step(observations, actions, rewards, infos, terminateds=terminateds, truncateds=truncateds)
        assert env.agents == env.possible_agents
        assert not any(truncateds.values())
        if not terminateds["__all__"]:
            assert rewards == {agent: 0.0} and terminateds == {"__all__": False}
            continue
        returns = state.returns()
        assert rewards == dict(zip(env.possible_agents, returns, strict=True))
        assert set(observations) == set(env.possible_agents) == set(terminateds) - {"__all__"}
        assert all(terminateds.values()) and all(info["final_returns"] == returns for info in infos.values())
        assert not any(observation["action_mask"].any() for observation in observations.values())
        assert episode.is_done
        for each, agent_episode in episode.agent_episodes.items():
            assert agent_episode.get_return() == returns[env.possible_agents.index(each)]
        with pytest.raises(cruiselib.InvalidStateError, match="reset"):
            env.step(actions)
        games += 1
        observations, infos = env.reset()
        episode = episode_of(env)
        episode.add_env_reset(observations=observations, infos=infos)
    assert games >= 1


@pytest.mark.usefixtures("rllib")
def test_truncation_observes_every_agent() -> None:
    name, options = ONE_PER_GAME[0]
    env = new_env(name, options, max_steps=5)
    rnd = random.Random(2)
    observations, infos = env.reset(seed=2)
    episode = episode_of(env)
    episode.add_env_reset(observations=observations, infos=infos)
    for step in range(5):
        (agent,) = observations
        actions = {agent: sample(observations[agent]["action_mask"], rnd)}
        observations, rewards, terminateds, truncateds, infos = env.step(actions)
        episode.add_env_step(observations, actions, rewards, infos, terminateds=terminateds, truncateds=truncateds)
        assert truncateds["__all__"] == (step == 4)
    assert all(truncateds.values()) and not any(terminateds.values())
    assert set(observations) == set(env.possible_agents) and not any(rewards.values())
    assert all(info["final_returns"] == [0.0] * len(env.possible_agents) for info in infos.values())
    assert episode.is_truncated


@pytest.mark.usefixtures("rllib")
@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_illegal_actions(name: str, options: dict[str, Any]) -> None:
    rnd = random.Random(3)

    def a_few_moves_in(env: Any) -> tuple[str, Any]:
        """Reset ``env`` with seed 3 and play the same 4 moves: the agent to act, its mask."""
        rnd.seed(3)
        observations, _ = env.reset(seed=3)
        for _ in range(4):
            (agent,) = observations
            observations, *_ = env.step({agent: sample(observations[agent]["action_mask"], rnd)})
        (agent,) = observations
        return agent, observations[agent]["action_mask"]

    # "lose": -1 for the seat, 0 for the others, the game over at once and left as it was.
    env = new_env(name, options)
    agent, mask = a_few_moves_in(env)
    before = env.game_state.to_json()
    observations, rewards, terminateds, _, infos = env.step({agent: illegal_action(mask)})
    assert env.game_state.to_json() == before
    assert rewards == {each: -1.0 if each == agent else 0.0 for each in env.possible_agents}
    assert terminateds["__all__"] and infos[agent]["illegal_action"]
    assert not any("illegal_action" in infos[each] for each in env.possible_agents if each != agent)

    # "random": a random legal action instead, the same for the same deal; the flag comes
    # with the agent's next observation.
    played = []
    for _ in range(2):
        env = new_env(name, options, illegal_action="random")
        agent, mask = a_few_moves_in(env)
        history = list(env.game_state.history)
        observations, rewards, terminateds, _, infos = env.step({agent: illegal_action(mask)})
        substitute = env.game_state.history[len(history)]
        assert mask[substitute]
        assert terminateds["__all__"] or rewards == {agent: 0.0}
        played.append(substitute)
        while agent not in observations:
            (other,) = observations
            assert "illegal_action" not in infos[other]
            observations, _, _, _, infos = env.step({other: sample(observations[other]["action_mask"], rnd)})
        assert infos[agent]["illegal_action"] and infos[agent]["played_action"] == substitute
    assert played[0] == played[1]

    # "raise": IllegalMoveError, nothing changed (RLlib's env check would fail with it).
    env = new_env(name, options, illegal_action="raise")
    agent, mask = a_few_moves_in(env)
    before = env.game_state.to_json()
    other = next(each for each in env.possible_agents if each != agent)
    for actions in ({agent: illegal_action(mask)}, {agent: -1}, {}, {other: 0}, {agent: 0, other: 0}, [0]):
        with pytest.raises(cruiselib.IllegalMoveError):
            env.step(actions)
        assert env.game_state.to_json() == before


@pytest.mark.usefixtures("rllib")
def test_seeded_resets_replay_and_unseeded_ones_follow() -> None:
    name, options = ONE_PER_GAME[-1]
    one, two = new_env(name, options), new_env(name, options)
    assert one.reset(seed=5)[0].keys() == two.reset(seed=5)[0].keys()
    assert one.game_state == two.game_state == cruiselib.make(name, **options).new_state(5)
    for _ in range(2):
        one.reset()
        two.reset()
        assert one.deal_seed == two.deal_seed != 5 and one.game_state == two.game_state


@pytest.mark.usefixtures("rllib")
def test_bad_config_raises() -> None:
    from cruiselib.envs.rllib import GameMultiAgentEnv, rllib_env

    name, options = ONE_PER_GAME[0]
    with pytest.raises(cruiselib.InvalidOptionError, match="'game'"):
        GameMultiAgentEnv({"players": 2})
    with pytest.raises(cruiselib.InvalidOptionError, match="mapping"):
        GameMultiAgentEnv(name)  # type: ignore[arg-type]
    for bad in (
        {"illegal_action": "ignore"},
        {"information_state": "yes"},
        {"max_steps": 0},
        {"no_such_option": 1},
    ):
        with pytest.raises(cruiselib.InvalidOptionError):
            rllib_env(name, **bad)
    env = rllib_env(cruiselib.make(name, **options), information_state=True)
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.step({"player_0": 0})
    with pytest.raises(cruiselib.InvalidOptionError):
        env.reset(seed=-1)
    observations, _ = env.reset(seed=0)
    (agent,) = observations
    np.testing.assert_array_equal(
        observations[agent]["observations"], env.game_state.information_state(env.possible_agents.index(agent))
    )


def test_import_without_rllib() -> None:
    """``import cruiselib.envs.rllib`` works without Ray; the env says what to install. And
    ``import cruiselib.envs`` does not import Ray (it takes seconds)."""
    code = (
        "import sys\n"
        "import cruiselib.envs\n"
        "assert 'ray' not in sys.modules, 'cruiselib.envs imported ray'\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'ray':\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from cruiselib.envs.rllib import rllib_env\n"
        "try:\n"
        "    rllib_env(cruiselib.games()[0])\n"
        "except ImportError as exc:\n"
        "    assert 'cruiselib[rllib]' in str(exc), exc\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- PPO with RLlib's action-masking RLModule (needs torch) -----------------------------


@pytest.fixture
def local_ray(rllib: Any) -> Iterator[Any]:
    """A local Ray of one CPU for the test, shut down after."""
    pytest.importorskip("torch")
    import ray

    if ray.is_initialized():
        pytest.skip("a Ray is already running in this process")
    ray.init(num_cpus=1, include_dashboard=False, configure_logging=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def recipe() -> str:
    """The first Python block of docs/rl.md's "RLlib" section: the configuration a user
    copies."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text[text.index("\n## RLlib\n") :]
    return section[section.index("```python\n") + len("```python\n") :].split("```", 1)[0]


def test_ppo_trains_with_action_masking(local_ray: Any) -> None:
    """docs/rl.md's RLlib recipe, with a small batch: one PPO iteration of self-play (one
    module for every seat) with RLlib's example ActionMaskingTorchRLModule over the env as
    RLlib makes it, its env check included. Every sampled action is legal (no episode ends
    by an illegal one), every episode ends with every seat's result, and the losses are
    numbers."""
    namespace: dict[str, Any] = {}
    exec(compile(recipe(), "docs/rl.md", "exec"), namespace)
    ended: list[dict[str, Any]] = []

    def on_episode_end(*, episode: Any, **kwargs: Any) -> None:
        ended.append(episode.get_infos(-1))

    config = (
        namespace["config"]
        .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
        .callbacks(on_episode_end=on_episode_end)
    )
    options = dict(config.env_config)
    seats = cruiselib.make(options.pop("game"), **options).num_players
    started = time.perf_counter()
    algo = config.build_algo()
    built = time.perf_counter()
    try:
        result = algo.train()
    finally:
        algo.stop()
    print(f"PPO: built in {built - started:.1f} s, one iteration in {time.perf_counter() - built:.1f} s")
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 256
    assert ended, "no episode ended in 256 steps"
    for infos in ended:
        returns = next(iter(infos.values()))["final_returns"]
        assert all("illegal_action" not in info for info in infos.values())
        assert len(returns) == seats and set(returns) <= {-1.0, 0.0, 1.0}
    losses = result["learners"]["shared"]
    assert math.isfinite(float(losses["policy_loss"])) and math.isfinite(float(losses["vf_loss"]))
