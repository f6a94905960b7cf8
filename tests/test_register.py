"""cruiselib.register: a game defined outside cruiselib (tests/toy_game, Toy Duel on the
pure-Python core) is checked when registered, then served by make, the conformance suite,
the bots, the protocol, the OpenSpiel adapter and the web page, none of which names it.
Each test restores the registry."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib import _registry
from cruiselib.errors import InvalidOptionError
from tests.test_tripwire import check_declarations
from tests.toy_game import ToyDuelGame

NAME = ToyDuelGame.name
# Starlette's TestClient on httpx (rather than its successor httpx2) warns; both work.
pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the registry for the test; the original is put back afterwards."""
    monkeypatch.setattr(_registry, "_REGISTRY", dict(_registry._REGISTRY))


@pytest.fixture
def toy(registry: None) -> str:
    cruiselib.register(ToyDuelGame)
    return NAME


def _refused(match: str, *args: Any) -> None:
    before = dict(_registry._REGISTRY)
    with pytest.raises(InvalidOptionError, match=match):
        cruiselib.register(*args)
    assert before == _registry._REGISTRY


# ------------------------------------------------------------------------ registering


@pytest.mark.parametrize(
    "args", [(ToyDuelGame,), (NAME, ToyDuelGame), (NAME, "tests.toy_game:ToyDuelGame")], ids=["cls", "name-cls", "text"]
)
@pytest.mark.usefixtures("registry")
def test_each_form_registers_the_class(args: tuple[Any, ...]) -> None:
    assert NAME not in cruiselib.games()
    cruiselib.register(*args)
    assert NAME in cruiselib.games()
    assert _registry.game_class(NAME) is ToyDuelGame
    game = cruiselib.make(NAME)
    assert isinstance(game, ToyDuelGame) and game.num_players == 2
    with pytest.raises(InvalidOptionError, match="Toy Duel is a game for 2 players"):
        cruiselib.make(NAME, players=3)


@pytest.mark.usefixtures("registry")
def test_refused_targets_name_what_is_wrong() -> None:
    _refused("takes a cruiselib.Game subclass", int)
    _refused("takes a cruiselib.Game subclass", "toy_duel")
    _refused("must be an identifier", "toy duel", ToyDuelGame)
    _refused("must look like 'package.module:ClassName'", NAME, "tests.toy_game.ToyDuelGame")
    _refused("cannot import 'tests.no_such_game'", NAME, "tests.no_such_game:ToyDuelGame")
    _refused("has no 'DuelGame'", NAME, "tests.toy_game:DuelGame")
    _refused("a cruiselib.Game subclass, not <class 'dict'>", NAME, dict)
    _refused("ToyDuelGame.name is 'toy_duel': a game registers under its own name", "duel", ToyDuelGame)


@pytest.mark.usefixtures("registry")
def test_a_class_missing_declarations_is_refused_naming_them() -> None:
    class Undeclared(ToyDuelGame):
        player_counts = ()
        search: ClassVar[Any] = None
        web: ClassVar[Any] = "board.js"

    _refused(
        r"player_counts is \(\), not an ascending tuple.*search is None, not a SearchDefaults.*web is 'board.js'",
        Undeclared,
    )

    class Descending(ToyDuelGame):
        player_counts = (3, 2)

    _refused(r"player_counts is \(3, 2\), not an ascending tuple of seat counts", Descending)

    class NoTitle(ToyDuelGame):
        pass

    NoTitle.title = ""
    _refused(r"title is '', not a non-empty str", NoTitle)


@pytest.mark.usefixtures("registry")
def test_an_abstract_class_is_refused() -> None:
    class Abstract(cruiselib.Game[Any, Any]):
        name = "abstract"

    _refused("Abstract does not implement", Abstract)


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize("name", cruiselib.games())
def test_a_built_in_name_keeps_its_class(name: str) -> None:
    built_in = _registry.game_class(name)

    class Other(built_in):  # type: ignore[valid-type,misc]  # a class from the registry
        """Passes every check but is not the built-in class."""

    _refused(f"'{name}' is a built-in game: it cannot be registered with another class", Other)
    cruiselib.register(built_in)  # the built-in class itself: accepted, nothing changes
    cruiselib.register(name, f"{built_in.__module__}:{built_in.__qualname__}")
    assert _registry.game_class(name) is built_in


@pytest.mark.usefixtures("registry")
def test_an_external_name_may_be_registered_again() -> None:
    class Newer(ToyDuelGame):
        pass

    cruiselib.register(ToyDuelGame)
    cruiselib.register(Newer)
    assert _registry.game_class(NAME) is Newer


def test_the_registry_is_restored_after_each_test() -> None:
    assert NAME not in cruiselib.games()


# ------------------------------------------------------------------------ integrations


def test_the_declarations_pass_the_tripwire(toy: str) -> None:
    check_declarations(toy)


def test_conformance(toy: str) -> None:
    from cruiselib.testing import check_game

    report = check_game(cruiselib.make(toy), n_games=12, seed=5)
    assert report.games == 12 and report.longest_game == 12


def test_state_round_trips_and_refuses_tampering(toy: str) -> None:
    game = cruiselib.make(toy)
    state = game.new_state(seed=4)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    assert game.load_state(state.to_json()) == state
    assert cruiselib.replay(state.record().to_json()) == state
    data = state.to_data()
    swapped = [data.hands[1], data.hands[0]] if data.hands[0] != data.hands[1] else data.hands
    bad = {**msgspec.to_builtins(data), "hands": swapped, "deal": None, "history": []}
    with pytest.raises(cruiselib.InvalidStateError, match="invalid Toy Duel state"):
        game.load_state(bad)


def test_bots_play_it(toy: str) -> None:
    from cruiselib.bots import ISMCTSBot, RandomBot, RuleBot

    game = cruiselib.make(toy)
    for bot in (RuleBot(seed=1), RandomBot(seed=2), ISMCTSBot(iterations=50, seed=3)):
        state = game.new_state(seed=6)
        ranked = bot.analyse(state)
        assert ranked and {c.action for c in ranked} <= set(state.legal_actions())
        while not state.is_over:
            action = bot.choose(state)
            assert action in state.legal_actions()
            state.apply(action)
        assert len(state.history) == 12


def test_protocol(toy: str) -> None:
    from cruiselib.protocol import Engine

    engine = Engine()
    new = engine.handle({"cmd": "new", "game": toy, "seed": 7, "id": 1})
    assert new["ok"], new
    game_id = new["game_id"]
    for i in range(3):
        legal = engine.handle({"cmd": "legal", "game_id": game_id, "id": 2 + i})
        reply = engine.handle(
            {"cmd": "apply", "game_id": game_id, "move": legal["moves"][-1], "seat": legal["current_player"], "id": 9}
        )
        assert reply["ok"], reply
    bot = engine.handle({"cmd": "bot", "game_id": game_id, "bot": "rules", "apply": True, "id": 10})
    assert bot["ok"], bot
    searched = engine.handle({"cmd": "bot", "game_id": game_id, "iterations": 40, "seed": 1, "id": 11})
    assert searched["ok"], searched
    view = engine.handle({"cmd": "view", "game_id": game_id, "seat": 0, "id": 12})
    assert view["ok"] and view["view"]["game"] == toy


def test_openspiel(toy: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cruiselib.openspiel as cos

    cos.register_games()
    assert f"cruiselib_{toy}" in {t.short_name for t in pyspiel.registered_games()}
    game = cos.load_game(toy, seed=3)
    assert game.num_players() == 2 and game.num_distinct_actions() == 12 and game.max_game_length() == 12
    spiel_game = pyspiel.load_game(f"cruiselib_{toy}", {"seed": 3})
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == 0
    assert len(state.information_state_tensor(0)) == spiel_game.information_state_tensor_size()


def test_web_catalog_and_drawer(toy: str) -> None:
    pytest.importorskip("starlette", reason="the web page needs the web extra")
    from starlette.testclient import TestClient

    from cruiselib.web import create_app
    from cruiselib.web.app import catalog

    entry = catalog(toy)
    assert entry["game"] == toy and entry["title"] == "Toy Duel" and entry["players"] == [2, 2]
    assert entry["values"] == list(range(1, 13))
    with TestClient(create_app()) as client:
        assert toy in [g["game"] for g in client.get("/games").json()["games"]]
        assert client.get(f"/catalog/{toy}").json()["game"] == toy
        drawer = client.get(entry["drawer"])
        assert drawer.status_code == 200
        assert f'cruiselib.registerDrawer("{toy}", draw)' in drawer.text


def test_environments(toy: str) -> None:
    """The batch environment (on the pure engine the toy game is built on) and, with the rl
    extra, PettingZoo's and Gymnasium's own checks of the adapters."""
    from cruiselib.envs import BatchEnv

    game = cruiselib.make(toy)
    env = BatchEnv(toy, 3, seed=1)
    single = [game.new_state(1 + i) for i in range(3)]
    for _ in range(40):
        actions = env.sample_actions()
        for i, state in enumerate(single):
            if not state.is_over:
                np.testing.assert_array_equal(env.observations[i], state.observation(state.current_player))
                state.apply(int(actions[i]))
        env.step(actions)
    assert any(state.is_over for state in single)
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    from cruiselib.envs import aec_env, gym_env, vector_env

    api_test(aec_env(toy), num_cycles=30)
    check_env(gym_env(toy, opponents="random", illegal_action="lose").unwrapped)
    envs = vector_env(toy, 4, seed=2)
    observations, _ = envs.reset(seed=2)
    for _ in range(30):
        observations, *_ = envs.step(envs.sample_actions())
        assert envs.observation_space.contains(observations)
