"""cruiselib.openspiel: the four games as OpenSpiel games, run by OpenSpiel's own tests and
algorithms (random_sim_test, ISMCTS, external-sampling MCCFR). Skipped without OpenSpiel."""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import subprocess
import sys
from typing import Any

import msgspec
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import observation as os_observation  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: E402
from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: E402
    ismcts,
    mcts,
)

import cruiselib  # noqa: E402
import cruiselib.openspiel as cos  # noqa: E402
from cruiselib._registry import game_class  # noqa: E402
from cruiselib.errors import InvalidOptionError, InvalidStateError  # noqa: E402
from cruiselib.sirens import SirensGame  # noqa: E402
from tests.support import ANY_GAME, player_counts, unbounded_game  # noqa: E402

# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = pytest.mark.surface

GameType = pyspiel.GameType


def every_configuration() -> list[tuple[str, dict[str, Any]]]:
    """Every OpenSpiel game's example configurations and every seat count it takes, as the
    game class declares them."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name in cos.GAMES:
        cls = game_class(name)
        configs = [dict(c) for c in cls.example_configurations]
        if len(cls.player_counts) > 1:
            configs += [{"players": n} for n in cls.player_counts]
        for options in configs:
            if (name, options) not in out:
                out.append((name, options))
    return out


def small_configurations() -> list[tuple[str, dict[str, Any]]]:
    """Each OpenSpiel game at its fewest seats, and at its fewest of two or more if that
    differs (a solo game has no opponent to hide cards from)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name in cos.GAMES:
        counts = game_class(name).player_counts
        for n in sorted({counts[0], min((c for c in counts if c >= 2), default=counts[0])}):
            out.append((name, {"players": n} if len(counts) > 1 else {}))
    return out


# Every game at every player count and its example configurations (a game's own files in
# tests/<game>/test_openspiel.py add the option sets that change its rules the most).
CONFIGS: list[tuple[str, dict[str, Any]]] = every_configuration()
SMALL: list[tuple[str, dict[str, Any]]] = small_configurations()


def ids(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def random_position(game: Any, seed: int, steps: int | None = None) -> Any:
    """A state after a random number of random actions (not over)."""
    rnd = random.Random(seed)
    state = game.new_initial_state()
    steps = rnd.randrange(0, 60) if steps is None else steps
    for _ in range(steps):
        child = state.clone()
        child.apply_action(rnd.choice(child.legal_actions()))
        if child.is_terminal():
            break
        state = child
    return state


# --------------------------------------------------------------------------- loading


def test_import_cruiselib_needs_no_openspiel() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"  # an import of pyspiel now fails
        f"import cruiselib; cruiselib.make({ANY_GAME!r}).new_state(seed=1)\n"
        "try:\n    import cruiselib.openspiel\nexcept ImportError as e:\n    print('ImportError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.startswith("ImportError") and "cruiselib[openspiel]" in out.stdout


def test_every_game_is_registered() -> None:
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    assert cruiselib.games() == cos.GAMES
    for name in cos.GAMES:
        game_type = registered[cos.short_name(name)]
        assert game_type.short_name == f"cruiselib_{name}"
        assert set(game_type.parameter_specification) == set(cos.GAME_CLASSES[name].spec.parameters)
        assert "seed" in game_type.parameter_specification and "players" in game_type.parameter_specification


def check_registered_game_type(name: str, players: int, lo: int, hi: int, utility: Any) -> None:
    """The OpenSpiel type registered for game ``name``: its kind, seat counts ``lo``-``hi``,
    ``utility`` and default ``players`` (each game's tests/<game>/test_openspiel.py gives its
    own values)."""
    game_type = next(t for t in pyspiel.registered_games() if t.short_name == cos.short_name(name))
    assert game_type.dynamics == GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode == GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game_type.information == GameType.Information.IMPERFECT_INFORMATION
    assert game_type.reward_model == GameType.RewardModel.TERMINAL
    assert game_type.utility == utility  # what holds for every configuration
    assert (game_type.min_num_players, game_type.max_num_players) == (lo, hi)
    assert game_type.provides_information_state_string and game_type.provides_information_state_tensor
    assert game_type.provides_observation_string and game_type.provides_observation_tensor
    assert game_type.parameter_specification["players"] == players  # cruiselib's default


@pytest.mark.parametrize("name", cos.GAMES)
def test_registered_game_type_is_the_games_declaration(name: str) -> None:
    """The registered type reads the game class: its title, seat counts, OpenSpiel parameters
    and whether every configuration is zero-sum."""
    cls = game_class(name)
    spec = cls.openspiel
    assert spec is not None
    game_type = next(t for t in pyspiel.registered_games() if t.short_name == f"cruiselib_{name}")
    assert game_type.long_name == f"{cls.title} (cruiselib)"
    assert (game_type.min_num_players, game_type.max_num_players) == (min(cls.player_counts), max(cls.player_counts))
    assert game_type.parameter_specification == dict(spec.parameters)
    zero_sum = GameType.Utility.ZERO_SUM if spec.always_zero_sum else GameType.Utility.GENERAL_SUM
    assert game_type.utility == zero_sum


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_game_info(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    cgame = game.cruiselib_game
    # An option OpenSpiel needs a bound for (Dream Islands' max_rounds, I9) takes its
    # parameter's default unless given.
    spec = game_class(name).openspiel
    assert spec is not None
    options = {**{key: spec.parameters[key] for key in spec.unbounded}, **options}
    assert cgame == cruiselib.make(name, **options)
    assert game.num_players() == cgame.num_players
    assert game.num_distinct_actions() == cgame.num_actions
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_chance_outcomes() == 0
    assert game.observation_tensor_shape() == list(cgame.observation_shape)
    assert game.information_state_tensor_shape() == list(cgame.information_state_shape)
    # OpenSpiel's own answer (it observes a new initial state) agrees.
    assert pyspiel.Game.observation_tensor_shape(game) == list(cgame.observation_shape)
    assert pyspiel.Game.information_state_tensor_size(game) == cgame.information_state_shape[0]
    zero_sum = bool(spec.zero_sum(cgame))  # each game's own test says which configurations are
    utility = game.get_type().utility
    assert utility == (GameType.Utility.ZERO_SUM if zero_sum else GameType.Utility.GENERAL_SUM)
    assert game.utility_sum() == (0.0 if zero_sum else None)
    assert game.get_type().chance_mode == GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert 0 < game.max_game_length() < 2**31


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        # Each game's own bad values: tests/<game>/test_openspiel.py.
        (ANY_GAME, {"players": max(player_counts(ANY_GAME)) + 1}, "players"),
        (ANY_GAME, {"colour": "blue"}, "colour"),
        ("chess", {}, "unknown game"),
    ],
)
def test_bad_parameters(name: str, params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cos.load_game(name, **params)


def test_unknown_parameter() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game(cos.short_name(ANY_GAME), {"colour": "blue"})
    with pytest.raises(InvalidOptionError, match="colour"):
        cos.GAME_CLASSES[ANY_GAME]({"colour": "blue"})


# --------------------------------------------------------------------------- games registered later


class RenamedSirens(SirensGame):
    """Sirens under another name: a game that cruiselib.register adds after the import."""

    name = "renamed_sirens"
    title = "Renamed Sirens"


class RenamedSirens2(RenamedSirens):
    name = "renamed_sirens_2"


class RenamedSirens3(RenamedSirens):
    name = "renamed_sirens_3"


class NoOpenSpielSirens(RenamedSirens):
    """A game that declares no OpenSpiel form."""

    name = "no_openspiel"
    openspiel = None  # type: ignore[assignment]  # SirensGame declares a spec; this class none


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of cruiselib's registry for the test; the original is put back afterwards."""
    monkeypatch.setattr(cruiselib._registry, "_REGISTRY", dict(cruiselib._registry._REGISTRY))


@pytest.mark.usefixtures("registry")
def test_a_game_registered_later_is_offered() -> None:
    cruiselib.register("renamed_sirens", f"{__name__}:RenamedSirens")
    assert "renamed_sirens" in cruiselib.games()
    assert "renamed_sirens" in cos.register_games() and "renamed_sirens" in cos.GAMES
    assert cos.register_games() == cos.GAMES  # idempotent
    game = pyspiel.load_game("cruiselib_renamed_sirens", {"players": 2, "seed": 3})
    assert isinstance(game, cos.GAME_CLASSES["renamed_sirens"]) and type(game.cruiselib_game) is RenamedSirens
    assert game.get_type().long_name == "Renamed Sirens (cruiselib)"
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    loaded = cos.load_game("renamed_sirens", variant="bow_to_rear")
    assert loaded.cruiselib_game == cruiselib.make("renamed_sirens", variant="bow_to_rear")
    state = loaded.new_initial_state()
    assert loaded.deserialize_state(state.serialize()).cruiselib_state == state.cruiselib_state
    with pytest.raises(InvalidStateError, match="cruiselib_renamed_sirens"):
        cos.load_game(SirensGame.name).deserialize_state(state.serialize())
    # wrap_game picks the game class's own OpenSpiel game.
    wrapped = cos.wrap_game(cruiselib.make("renamed_sirens"))
    assert wrapped.get_type().short_name == "cruiselib_renamed_sirens"


@pytest.mark.usefixtures("registry")
def test_load_game_registers_a_game_registered_later() -> None:
    cruiselib.register("renamed_sirens_2", f"{__name__}:RenamedSirens2")
    game = cos.load_game("renamed_sirens_2", seed=1)
    assert game.get_type().short_name == cos.short_name("renamed_sirens_2") == "cruiselib_renamed_sirens_2"
    assert pyspiel.load_game("cruiselib_renamed_sirens_2").cruiselib_game == game.cruiselib_game


def test_a_game_removed_from_the_registry_is_no_longer_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(cruiselib._registry, "_REGISTRY", dict(cruiselib._registry._REGISTRY))
        cruiselib.register("renamed_sirens_3", f"{__name__}:RenamedSirens3")
        assert "renamed_sirens_3" in cos.register_games()
    assert "renamed_sirens_3" not in cos.GAMES and "renamed_sirens_3" not in cos.GAME_CLASSES
    with pytest.raises(InvalidOptionError, match="unknown game 'renamed_sirens_3'"):
        cos.load_game("renamed_sirens_3")


@pytest.mark.usefixtures("registry")
def test_games_without_an_openspiel_form_are_refused_by_name() -> None:
    """A game that declares no OpenSpiel form, or whose class does not import, is not offered
    and the others still are; asked for by name, it is refused with what is wrong."""
    cruiselib.register("no_openspiel", f"{__name__}:NoOpenSpielSirens")
    # An entry whose module is gone (register() itself refuses one that does not import).
    cruiselib._registry._REGISTRY["broken"] = "cruiselib_no_such_module:Game"
    assert not {"no_openspiel", "broken"} & set(cos.register_games())
    with pytest.raises(InvalidOptionError, match="declares no OpenSpiel form"):
        cos.load_game("no_openspiel")
    with pytest.raises(InvalidOptionError, match="does not import"):
        cos.load_game("broken")
    with pytest.raises(InvalidOptionError, match="declares no OpenSpiel form"):
        cos.wrap_game(cruiselib.make("no_openspiel"))
    assert cos.load_game(SirensGame.name).num_players() == 2


class UnregisteredSirens(SirensGame):
    """A subclass of a game that is not registered itself: it plays as its name's game."""


class OtherFormSirens(SirensGame):
    """A game class that is not registered and declares an OpenSpiel form of its own."""

    openspiel = dataclasses.replace(SirensGame.openspiel, parameters={"players": 2, "seed": 0})


def test_wrap_game_finds_the_games_form() -> None:
    """A subclass not registered itself is wrapped as its name's game if it declares the same
    OpenSpiel form, and refused if it declares another; anything else is no game."""
    assert cos.wrap_game(UnregisteredSirens()).get_type().short_name == "cruiselib_sirens"
    with pytest.raises(InvalidOptionError, match="OtherFormSirens is not a registered game"):
        cos.wrap_game(OtherFormSirens())
    with pytest.raises(InvalidOptionError, match="wrap_game takes a cruiselib game"):
        cos.wrap_game("a game name")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- deals


def test_initial_states_are_the_seeds_deals() -> None:
    name = next(n for n in cos.GAMES if 3 in player_counts(n))
    game = cos.load_game(name, players=3, seed=11)
    cgame = game.cruiselib_game
    first, second = game.new_initial_state(), game.new_initial_state()
    assert game.deals == 0  # dealt when first used
    assert second.cruiselib_state == cgame.state_from_seed_state(cgame.playout_seed_state(11, 0))
    assert first.cruiselib_state == cgame.state_from_seed_state(cgame.playout_seed_state(11, 1))
    assert game.deals == 2
    again = cos.load_game(name, players=3, seed=11).new_initial_state()
    assert again.cruiselib_state == second.cruiselib_state  # the same seed, the same sequence


def test_clones_use_no_deal() -> None:
    game = cos.load_game(ANY_GAME, seed=3)
    fresh = game.new_initial_state()
    twin = fresh.clone()  # OpenSpiel's C++ clone: a new initial state, then the attributes copied
    assert game.deals == 1 and str(twin) == str(fresh)  # the fresh state was dealt once, for both
    state = fresh.child(fresh.legal_actions()[0])
    for _ in range(5):
        state = state.clone()
    _ = state.observation_tensor(0), state.information_state_string(1)
    assert game.deals == 1
    assert state.history() == [*fresh.history(), fresh.legal_actions()[0]]


def test_state_from_wraps_a_cruiselib_state() -> None:
    name = next(n for n in cos.GAMES if len(player_counts(n)) > 1)
    seats, other = player_counts(name)[:2]
    game = cos.load_game(name, players=seats)
    cstate = game.cruiselib_game.new_state(seed=2)
    state = game.state_from(cstate)
    assert state.cruiselib_state == cstate and state.cruiselib_state is not cstate
    with pytest.raises(InvalidOptionError):
        game.state_from(cruiselib.make(name, players=other).new_state(seed=2))


# --------------------------------------------------------------------------- OpenSpiel's tests


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_random_sim_test(config: tuple[str, dict[str, Any]]) -> None:
    """OpenSpiel's own checks along a random game: clones, sorted and unique legal actions,
    observations of every player, returns against the utility type, the game length bound.
    (serialize=False: OpenSpiel serializes a sampled-stochastic game's generator with a
    method a Python game cannot provide; states serialize, see below.)"""
    name, options = config
    game = cos.load_game(name, seed=len(str(options)), **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("config", SMALL, ids=ids)
def test_state_api(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    state = game.new_initial_state()
    rnd = random.Random(1)
    while not state.is_terminal():
        cstate = state.cruiselib_state
        player = state.current_player()
        assert player == cstate.current_player and not state.is_chance_node()
        legal = state.legal_actions()
        assert legal == cstate.legal_actions() == pyspiel.State.legal_actions(state)
        for other in range(game.num_players()):
            if other != player:
                assert state.legal_actions(other) == [] == pyspiel.State.legal_actions(state, other)
        action = rnd.choice(legal)
        move = cstate.game.action_to_move(action)
        assert state.action_to_string(player, action) == str(move)
        assert state.returns() == [0.0] * game.num_players()
        state.apply_action(action)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == state.cruiselib_state.returns()
    assert str(state) == state.cruiselib_state.game.render(state.cruiselib_state)


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_max_game_length_bounds_random_games(config: tuple[str, dict[str, Any]]) -> None:
    check_length_bound(config, set())


def check_length_bound(config: tuple[str, dict[str, Any]], ending: set[str]) -> None:
    """The game's OpenSpiel length bound holds for 100 playouts and for two games of stalling
    play, which avoids the moves named in ``ending`` (those that end a turn or a phase) while
    it can; each game's tests/<game>/test_openspiel.py names its own."""
    name, options = config
    game = cos.load_game(name, **options)
    playouts = game.cruiselib_game.playouts(100, seed=3)
    assert int(playouts.lengths.max()) <= game.max_game_length()
    for seed in range(2):  # stalling play: every refresh, loan, guest and card put under it can
        state, rnd, n = game.new_initial_state(), random.Random(seed), 0
        while not state.is_terminal():
            pairs = zip(state.legal_actions(), state.cruiselib_state.legal_moves(), strict=True)
            stall = [a for a, m in pairs if type(m).__name__ not in ending]
            state.apply_action(rnd.choice(stall or state.legal_actions()))
            n += 1
        assert n <= game.max_game_length()


# --------------------------------------------------------------------------- observations


@pytest.mark.parametrize("config", SMALL, ids=ids)
def test_tensors_are_cruiselibs(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    cgame = game.cruiselib_game
    obs = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    info = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert obs.tensor.shape == cgame.observation_shape and info.tensor.shape == cgame.information_state_shape
    for seed in range(3):
        state = random_position(game, seed)
        cstate = state.cruiselib_state
        for p in range(game.num_players()):
            expected, expected_info = cstate.observation(p), cstate.information_state(p)
            # OpenSpiel's C++ path (through the observer) and the direct Python one.
            assert np.array_equal(pyspiel.State.observation_tensor(state, p), expected)
            assert np.array_equal(state.observation_tensor(p), expected)
            assert np.array_equal(pyspiel.State.information_state_tensor(state, p), expected_info)
            assert np.array_equal(state.information_state_tensor(p), expected_info)
            obs.set_from(state, p)
            info.set_from(state, p)
            assert np.array_equal(obs.tensor, expected) and np.array_equal(info.tensor, expected_info)
            for field, part in cgame.observation_fields().items():
                assert np.array_equal(obs.dict[field], expected[part])
            for field, part in cgame.information_state_fields().items():
                assert np.array_equal(info.dict[field], expected_info[part])


@pytest.mark.parametrize("config", SMALL, ids=ids)
def test_strings_are_views(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    for seed in range(3):
        state = random_position(game, seed)
        cstate = state.cruiselib_state
        for p in range(game.num_players()):
            text, info = state.observation_string(p), state.information_state_string(p)
            assert msgspec.json.decode(text, type=cstate.game.view_type) == cstate.view(p)
            assert msgspec.json.decode(info, type=cstate.game.view_type) == cstate.view(p, recall=True)
            assert pyspiel.State.observation_string(state, p) == text
            assert pyspiel.State.information_state_string(state, p) == info
            # Equal views, equal strings: another world of the same information.
            world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
            assert world.observation_string(p) == text and world.information_state_string(p) == info
        strings = {state.information_state_string(p) for p in range(game.num_players())}
        assert len(strings) == game.num_players()  # each seat's own
    with pytest.raises(pyspiel.SpielError):
        state.observation_string(game.num_players())


def test_observer_types() -> None:
    game = cos.load_game(ANY_GAME)
    public_only = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(InvalidOptionError):
        game.make_py_observer(public_only)
    with pytest.raises(InvalidOptionError):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False), {"compact": True})
    observer = game.make_py_observer({})  # how OpenSpiel's C++ side asks for the default one
    assert observer.recall is False


# --------------------------------------------------------------------------- resampling, serialization


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_resampler_keeps_the_information_state(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    differ = 0
    for seed in range(4):
        state = random_position(game, seed)
        before = state.clone()
        player = state.current_player()
        a = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        b = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        c = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed + 100, 0.0, 1.0))
        assert a.cruiselib_state == b.cruiselib_state  # a seeded sampler, the same world
        for world in (a, c):
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.legal_actions() == state.legal_actions()  # ISMCTS relies on it
            assert world.current_player() == player
        differ += a.cruiselib_state != c.cruiselib_state
        assert state.cruiselib_state == before.cruiselib_state  # the state itself unchanged
    assert differ > 0


@pytest.mark.parametrize("config", SMALL, ids=ids)
def test_serialization_round_trip(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    for seed in range(2):
        state = random_position(game, seed)
        loaded = game.deserialize_state(state.serialize())
        assert isinstance(loaded, cos.OpenSpielState)
        assert loaded.cruiselib_state == state.cruiselib_state and str(loaded) == str(state)
        assert loaded.history() == state.history()
        rnd = random.Random(seed)
        while not state.is_terminal():  # the same future draws
            action = rnd.choice(state.legal_actions())
            state.apply_action(action)
            loaded.apply_action(action)
        assert loaded.cruiselib_state == state.cruiselib_state and loaded.returns() == state.returns()
    fresh = game.new_initial_state()  # not dealt yet: serializing deals it
    assert game.deserialize_state(fresh.serialize()).cruiselib_state == fresh.cruiselib_state


def test_pickle() -> None:
    """Python pickling goes through serialize() (OpenSpiel's own pickling of a sampled-stochastic
    Python game would ask the C++ side for the game's generator state, which it lacks)."""
    game = cos.load_game(ANY_GAME, players=min(player_counts(ANY_GAME)), seed=3)
    state = random_position(game, 1)
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.cruiselib_state == state.cruiselib_state and loaded.history() == state.history()
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.deals == game.deals == 1
    assert again.new_initial_state().cruiselib_state == game.new_initial_state().cruiselib_state


# --------------------------------------------------------------------------- OpenSpiel's algorithms


def play_ismcts(game: Any, simulations: int, seed: int, default_resampler: bool = False) -> tuple[list[int], Any]:
    """Seat 0 plays OpenSpiel's ISMCTS (random rollouts), the others uniformly at random."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)
    if not default_resampler:  # OpenSpiel's default sampler is seeded from the clock

        def resample(state: Any, player: int) -> Any:
            sampler = pyspiel.UniformProbabilitySampler(int(rs.randint(2**31)), 0.0, 1.0)
            return state.resample_from_infostate(player, sampler)

        bot.set_resampler(resample)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        player = state.current_player()
        action = int(bot.step(state)) if player == 0 else int(rs.choice(state.legal_actions()))
        assert action in state.legal_actions()
        actions.append(action)
        state.apply_action(action)
    assert len(actions) <= game.max_game_length()
    return actions, state


@pytest.mark.parametrize("config", SMALL, ids=ids)
def test_ismcts_plays_whole_games(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = cos.load_game(name, **options)
    _, state = play_ismcts(game, 4, seed=2)
    assert len(state.returns()) == game.num_players()


def test_ismcts_is_reproducible() -> None:
    """A seeded bot with a seeded sampler plays the same game again."""
    first, _ = play_ismcts(cos.load_game(ANY_GAME, seed=4), 8, seed=3)
    again, _ = play_ismcts(cos.load_game(ANY_GAME, seed=4), 8, seed=3)
    assert again == first


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_ismcts_plays_whole_games_every_configuration(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    play_ismcts(cos.load_game(name, seed=9, **options), 20, seed=1)


# --------------------------------------------------------------------------- cruiselib-side helpers


def test_wrap_game_refuses_a_game_without_its_length_bound() -> None:
    name, options = unbounded_game()
    spec = game_class(name).openspiel
    assert spec is not None
    with pytest.raises(InvalidOptionError, match=next(iter(spec.unbounded))):
        cos.wrap_game(cruiselib.make(name, **options))  # unbounded as printed


@pytest.mark.parametrize(("name", "options"), [(ANY_GAME, {}), unbounded_game()])
def test_timed_ismcts_bot(name: str, options: dict[str, Any]) -> None:
    """OpenSpiel's ISMCTS behind cruiselib's bot interface (a game without its length bound
    included)."""
    game = cruiselib.make(name, **options)
    state = game.new_state(seed=2)
    before = state.clone()
    bot = cos.TimedISMCTS(game, iterations=12, seed=5)
    action = bot.choose(state)
    assert state.is_legal(action) and bot.last_iterations == 12 and state == before
    assert cos.TimedISMCTS(game, iterations=12, seed=5).choose(state) == action  # deterministic
    candidates = bot.analyse(state)
    assert {c.action for c in candidates} <= set(state.legal_actions())
    assert sum(c.visits for c in candidates) == 11  # the first iteration expands the root
    assert all(-1.0 <= c.value <= 1.0 for c in candidates if c.value is not None)
    timed = cos.TimedISMCTS(game, seconds=0.01, seed=1)
    assert state.is_legal(timed.choose(state)) and timed.last_iterations >= 1
    with pytest.raises(InvalidOptionError):
        cos.TimedISMCTS(game)
