"""``render_mode="rgb_array"``: the table as one seat sees it, as a picture. Every game's
frames have one size over a whole episode, the same position gives the same bytes, hidden
information is not drawn, and Gymnasium's RecordVideo, ``gymnasium.make`` with
``check_env``, SB3's vector envs and the PettingZoo envs take the frames."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("PIL")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cruiselib  # noqa: E402
from cruiselib import _picture  # noqa: E402
from cruiselib._picture import HEIGHT, WIDTH, picture  # noqa: E402
from cruiselib.envs import aec_env, gym_env, parallel_env  # noqa: E402
from cruiselib.envs.aec import env_id  # noqa: E402
from cruiselib.integration import declaration_problems  # noqa: E402
from tests.env_support import sample  # noqa: E402
from tests.support import ANY_GAME, configuration_id, example_configurations, one_per_game  # noqa: E402

GAMES = one_per_game()
GAME_IDS = [configuration_id(name, options) for name, options in GAMES]
CONFIGURATIONS = example_configurations()
SHAPE = (HEIGHT, WIDTH, 3)

pytestmark = pytest.mark.surface  # Python over the core's public API: the same code on either core


def is_frame(frame: Any) -> bool:
    return isinstance(frame, np.ndarray) and frame.shape == SHAPE and frame.dtype == np.uint8


def render(env: Any) -> npt.NDArray[np.uint8]:
    """``env.render()``, checked to be a frame."""
    frame = env.render()
    assert is_frame(frame)
    return frame  # type: ignore[no-any-return]


def episode_frames(env: Any, seed: int) -> list[Any]:
    """Every frame of one episode of random legal actions: after the reset and each step."""
    rnd = random.Random(seed)
    env.reset(seed=seed)
    frames = [env.render()]
    ended = False
    while not ended:
        mask = env.unwrapped.action_masks()
        _observation, _reward, terminated, truncated, _info = env.step(sample(mask, rnd))
        frames.append(env.render())
        ended = terminated or truncated
    return frames


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_frames_of_an_episode_have_one_size_and_repeat(name: str, options: dict[str, Any]) -> None:
    env = gym_env(name, render_mode="rgb_array", opponents="random", **options)
    frames = episode_frames(env, seed=7)
    assert len(frames) > 2 and all(is_frame(frame) for frame in frames)
    assert env.game_state.is_over  # the last frame is the end of the game
    assert len({frame.tobytes() for frame in frames}) > 1  # the table changes
    # The same state gives the same bytes, in a fresh array each time.
    again = render(env)
    assert np.array_equal(again, frames[-1]) and again is not frames[-1]
    again[:] = 0
    assert np.array_equal(render(env), frames[-1])
    # The same deal and moves in another env: the same frames.
    other = gym_env(name, render_mode="rgb_array", opponents="random", **options)
    other.reset(seed=7)
    assert np.array_equal(render(other), frames[0])


def _hidden_pair(game: Any, seed: int) -> tuple[Any, Any, int, int]:
    """Two states that seat 0 cannot tell apart (resampled for it from a position of a
    random game) but another seat can: (state, state, 0, that seat)."""
    rnd = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_over:
        one, two = state.resample(0, seed=1), state.resample(0, seed=2)
        others = [p for p in range(1, game.num_players) if one.view(p) != two.view(p)]
        if others and one.view(0) == two.view(0):
            return one, two, 0, others[0]
        state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError("no position of the game hides anything from seat 0")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_hidden_information_is_not_drawn(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    one, two, seat, other = _hidden_pair(game, seed=5)
    assert one.to_json() != two.to_json()
    assert np.array_equal(picture(game, one, seat), picture(game, two, seat))
    # The seat that sees the difference sees it drawn: the comparison can fail.
    assert not np.array_equal(picture(game, one, other), picture(game, two, other))


def _hidden_moves(game: Any, seed: int, plies: int = 200) -> tuple[Any, int, int] | None:
    """A position of a random game and two legal moves the other seats read alike but its
    mover reads apart (a card put away, a card picked), or None within ``plies``."""
    rnd = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(plies):
        if state.is_over:
            return None
        by_text: dict[str, list[int]] = {}
        legal = state.legal_actions()
        if len(legal) <= 64:  # hidden choices are few: no need to read every move of a big turn
            for action in legal:
                by_text.setdefault(state.move_text(action), []).append(action)
        mover = state.current_player
        for actions in by_text.values():
            private = {state.move_text(action, player=mover) for action in actions}
            if len(actions) > 1 and len(private) > 1:
                return state, actions[0], actions[1]
        state.apply(rnd.choice(legal))
    return None


def test_a_hidden_move_is_drawn_for_its_mover_alone() -> None:
    # Two moves the other seats read alike (a card put away, a card picked): every other
    # seat's picture is the same after either, the mover's is not.
    found = 0
    for name, options in CONFIGURATIONS:
        game = cruiselib.make(name, **options)
        pair = _hidden_moves(game, seed=3) if game.num_players > 1 else None
        if pair is None:
            continue
        found += 1
        state, first, second = pair
        mover = state.current_player
        one, two = state.clone(), state.clone()
        one.apply(first)
        two.apply(second)
        for seat in range(game.num_players):
            same = np.array_equal(picture(game, one, seat), picture(game, two, seat))
            assert same == (seat != mover), f"{name} {options}: seat {seat} (the mover: seat {mover})"
    assert found  # some game hides a move


def test_the_last_moves_are_said_as_the_seat_may_read_them() -> None:
    game = cruiselib.make(ANY_GAME)
    state = game.new_state(seed=2)
    assert _picture.last_moves(state, 0, 3) == []
    rnd = random.Random(2)
    said = []
    for _ in range(5):
        mover, action = state.current_player, rnd.choice(state.legal_actions())
        said.append((mover, state.move_text(action, player=0 if mover == 0 else None)))
        state.apply(action)
    assert _picture.last_moves(state, 0, 3) == said[-3:]
    assert _picture.last_moves(state.resample(0, seed=1), 0, 3) == []  # a resampled state keeps no history


def test_gymnasium_make_and_check_env() -> None:
    # check_env steps with actions of the whole space: an illegal one ends the episode.
    env = gymnasium.make(env_id(ANY_GAME), render_mode="rgb_array", opponents="random", illegal_action="lose")
    env.reset(seed=1)
    assert is_frame(env.render())
    assert "rgb_array" in env.metadata["render_modes"]
    check_env(env.unwrapped, skip_render_check=False)


def test_record_video_writes_an_episode(tmp_path: Any) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = gym_env(ANY_GAME, render_mode="rgb_array", opponents="random", max_steps=4)
    folder = tmp_path / "videos"
    recorder: Any = RecordVideo(env, str(folder), episode_trigger=lambda episode: True, disable_logger=True)
    episode_frames(recorder, seed=1)
    recorder.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


def test_stable_baselines3_make_vec_env() -> None:
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env  # type: ignore[import-not-found,unused-ignore]

    # make_vec_env makes a registered env with render_mode="rgb_array" unless told otherwise.
    venv = make_vec_env(env_id(ANY_GAME), n_envs=2, env_kwargs={"opponents": "random"})
    assert venv.render_mode == "rgb_array"
    venv.reset()
    images = venv.get_images()
    assert len(images) == 2 and all(is_frame(image) for image in images)
    tiled = venv.render()
    assert tiled is not None and tiled.shape[2] == 3  # the frames tiled
    venv.close()


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_pettingzoo_envs_render_the_seat_to_act(name: str, options: dict[str, Any]) -> None:
    env = aec_env(name, render_mode="rgb_array", **options)
    env.reset(seed=3)
    state = env.game_state
    assert np.array_equal(render(env), picture(env.game, state, state.current_player))
    rnd = random.Random(3)
    while not state.is_over:
        last = state.current_player
        env.step(sample(env.observe(env.agent_selection)["action_mask"], rnd))
    # Once the game is over: the view of the seat that moved last.
    assert np.array_equal(render(env), picture(env.game, state, last))
    parallel = parallel_env(name, render_mode="rgb_array", **options)
    parallel.reset(seed=3)
    assert is_frame(parallel.render())


def test_a_game_without_a_drawer_shows_its_board_text(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cruiselib.make(ANY_GAME)
    state = game.new_state(seed=1)
    drawn = picture(game, state, 0)
    monkeypatch.setattr(type(game), "picture", None)
    text = picture(game, state, 0)
    assert is_frame(text) and not np.array_equal(text, drawn)
    monkeypatch.setattr(type(game), "picture", "no_such_module:draw")
    with pytest.raises(cruiselib.InvalidOptionError, match="no_such_module"):
        picture(game, state, 0)
    monkeypatch.setattr(type(game), "picture", 42)
    assert any(problem.startswith("picture is 42") for problem in declaration_problems(type(game)))


def test_bad_render_mode_and_seat() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="None, 'human', 'ansi' or 'rgb_array'"):
        gym_env(ANY_GAME, render_mode="rgb")
    with pytest.raises(cruiselib.InvalidOptionError, match="None, 'human', 'ansi' or 'rgb_array'"):
        aec_env(ANY_GAME, render_mode="rgb_array_list")
    game = cruiselib.make(ANY_GAME)
    with pytest.raises(cruiselib.InvalidOptionError):
        picture(game, game.new_state(seed=1), game.num_players)
    env = gym_env(ANY_GAME, render_mode="rgb_array")
    with pytest.raises(cruiselib.InvalidStateError, match="reset"):
        env.render()
