"""Observation bounds (``Game.observation_bounds`` / ``information_state_bounds``): every
registered game declares a range for every field of its tensors, and random games of every
configuration, on the compiled and the pure-Python core, never leave them. A game registered
by a user (tests/toy_game) is unbounded in every field it declares no range for."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib import _registry
from cruiselib.errors import InvalidOptionError
from cruiselib.testing import ConformanceError, check_bounds, check_game
from tests.support import configuration_id, every_configuration
from tests.toy_game import ToyDuelGame

CONFIGURATIONS = every_configuration()
IDS = [configuration_id(name, options) for name, options in CONFIGURATIONS]


def _play_checked(game: Any, games: int, seed: int) -> int:
    """Play ``games`` games (even ones by the game's rollout policy, odd ones uniformly at
    random), checking every seat's two tensors at every step; the steps checked."""
    rnd = random.Random(seed)
    steps = 0
    for g in range(games):
        game_seed = seed * 1_000 + g
        state = game.new_state(seed=game_seed)
        while True:
            check_bounds(game, state, where=f"{game!r}, game seed {game_seed}, step {steps}")
            steps += 1
            if state.is_over:
                break
            if g % 2 == 0:
                state.apply(int(state.rollout_action(rnd.getrandbits(64))))
            else:
                state.apply(rnd.choice(state.legal_actions()))
    return steps


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_every_field_has_finite_bounds_of_the_tensors_shape(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    for shape, (low, high) in (
        (game.observation_shape, game.observation_bounds()),
        (game.information_state_shape, game.information_state_bounds()),
    ):
        assert low.dtype == high.dtype == np.float32
        assert low.shape == high.shape == shape
        assert np.isfinite(low).all() and np.isfinite(high).all()
        assert (low <= high).all()
        assert not low.flags.writeable and not high.flags.writeable
    # Made once per game: the same arrays each call.
    assert game.observation_bounds()[0] is game.observation_bounds()[0]
    assert game.information_state_bounds()[1] is game.information_state_bounds()[1]


@pytest.mark.parametrize("core", ["compiled", "pure"])
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_random_games_stay_within_bounds(name: str, options: dict[str, Any], core: str) -> None:
    game = cruiselib.make(name, **options)
    if core == "pure":
        game = game.pure_twin()
    assert _play_checked(game, 4 if core == "compiled" else 2, seed=1) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_long_sweep_stays_within_bounds(name: str, options: dict[str, Any]) -> None:
    _play_checked(cruiselib.make(name, **options), 1000, seed=7)


# --------------------------------------------------------------- a game registered by a user
# Toy Duel (tests/toy_game) declares a range for every field; the subclasses below declare
# fewer, none or wrong ones.


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the registry for the test; the original is put back afterwards."""
    monkeypatch.setattr(_registry, "_REGISTRY", dict(_registry._REGISTRY))


def _toy_with(ranges: dict[str, Any]) -> Any:
    """A Toy Duel game whose observation declares ``ranges``, registered under its name."""

    class Declared(ToyDuelGame):
        def _observation_ranges(self) -> dict[str, Any]:
            return ranges

    cruiselib.register(ToyDuelGame.name, Declared)
    return cruiselib.make(ToyDuelGame.name)


@pytest.mark.usefixtures("registry")
def test_a_user_game_declaring_every_range_is_checked_by_check_game() -> None:
    cruiselib.register(ToyDuelGame)
    game = cruiselib.make(ToyDuelGame.name)
    low, high = game.observation_bounds()
    assert (low == 0).all() and (high == 1).all()
    assert game.information_state_bounds()[1] is not high  # one pair per tensor
    assert np.array_equal(game.information_state_bounds()[1], high)  # the observation's ranges
    check_game(game, n_games=3)


@pytest.mark.usefixtures("registry")
def test_a_user_game_without_ranges_is_unbounded() -> None:
    game = _toy_with({})
    for low, high in (game.observation_bounds(), game.information_state_bounds()):
        assert low.shape == high.shape == game.observation_shape
        assert (low == -np.inf).all() and (high == np.inf).all()
    check_game(game, n_games=2)  # every value lies within (-inf, inf)


@pytest.mark.usefixtures("registry")
def test_fields_left_out_are_unbounded_and_the_others_as_declared() -> None:
    game = _toy_with({"points": (0.0, 1.0), "stock": (0, 1)})
    low, high = game.observation_bounds()
    fields = game.observation_fields()
    for name, part in fields.items():
        declared = name in ("points", "stock")
        assert (low[part] == (0.0 if declared else -np.inf)).all()
        assert (high[part] == (1.0 if declared else np.inf)).all()


@pytest.mark.usefixtures("registry")
def test_a_range_per_entry() -> None:
    game = _toy_with({"points": ([0.0, -1.0], [0.5, 2.0])})
    low, high = game.observation_bounds()
    part = game.observation_fields()["points"]
    assert low[part].tolist() == [0.0, -1.0] and high[part].tolist() == [0.5, 2.0]


@pytest.mark.usefixtures("registry")
def test_bounds_round_outward_to_float32() -> None:
    # 0.1 has no float32: the nearest one lies above it, so as a low bound it is stepped down.
    game = _toy_with({"points": (0.1, 0.1), "stock": (-0.1, -0.1)})
    low, high = game.observation_bounds()
    for name, value in (("points", 0.1), ("stock", -0.1)):
        part = game.observation_fields()[name]
        assert (low[part].astype(np.float64) <= value).all() and (high[part].astype(np.float64) >= value).all()
        # and it still holds the float32 a core writes for the value
        assert (low[part] <= np.float32(value)).all() and (high[part] >= np.float32(value)).all()


@pytest.mark.parametrize(
    ("ranges", "match"),
    [
        ({"score": (0, 1)}, r"toy_duel's observation tensor has no field 'score'"),
        ({"points": (1, 0)}, r"toy_duel's observation field 'points': low must be <= high"),
        ({"points": (0, float("nan"))}, r"field 'points': low must be <= high and neither NaN"),
        ({"points": ([0, 0, 0], [1, 1, 1])}, r"field 'points' \(2 entries\): a range is \(low, high\)"),
        ({"points": (0, 1, 2)}, r"field 'points' \(2 entries\): a range is \(low, high\)"),
        ({"points": "01"}, r"field 'points' \(2 entries\): a range is \(low, high\)"),
        ({"points": ("a", 1)}, r"field 'points' \(2 entries\): a range is \(low, high\)"),
    ],
    ids=["unknown-field", "low-above-high", "nan", "wrong-length", "three", "text", "not-numbers"],
)
@pytest.mark.usefixtures("registry")
def test_a_bad_declaration_is_refused_naming_the_game_and_field(ranges: dict[str, Any], match: str) -> None:
    game = _toy_with(ranges)
    with pytest.raises(InvalidOptionError, match=match):
        game.observation_bounds()
    with pytest.raises(InvalidOptionError, match=match.replace("observation", "information state")):
        game.information_state_bounds()


@pytest.mark.usefixtures("registry")
def test_check_game_names_a_value_outside_its_declared_range() -> None:
    game = _toy_with({"points": (0.0, 0.0)})  # the points are not always 0
    with pytest.raises(ConformanceError, match=r"observation\(\d\)\[\d+\] = .*field 'points'.*outside its bounds"):
        check_game(game, n_games=2)


# ------------------------------------------------------------------------------- docs

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", cruiselib.games())
def test_the_docs_page_gives_the_range_of_every_field(name: str) -> None:
    """The tables of the page's "Observation tensor" section have a range column, and
    together name every field of the information state (the observation's and its own)."""
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    section = page.split("## Observation tensor", 1)[1].split("\n## ", 1)[0]
    ranges: dict[str, str] = {}
    columns: list[str] = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if cells[:1] == ["field"]:
            columns = cells
        elif cells and cells[0].startswith("`"):
            assert "range" in columns, f"docs/{name}.md: a table of fields without a range column"
            ranges[cells[0].strip("`")] = cells[columns.index("range")]
    game = cruiselib.make(name)
    assert set(ranges) == set(game.information_state_fields())
    assert all(ranges.values())


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_every_core_declares_its_tensors_once(name: str, options: dict[str, Any]) -> None:
    """One convention (docs/contract.md): each registered game's core declares its tensors as
    a TensorLayout, and the game's fields, shapes and bounds are that declaration's."""
    game = cruiselib.make(name, **options)
    for layout, fields, shape, bounds in (
        (game.rules.observation_layout, game.observation_fields(), game.observation_shape, game.observation_bounds()),
        (
            game.rules.info_state_layout,
            game.information_state_fields(),
            game.information_state_shape,
            game.information_state_bounds(),
        ),
    ):
        assert layout is not None, f"{name}: the core declares no TensorLayout"
        assert list(fields) == layout.names()
        assert shape == (layout.size,)
        for field in layout.fields:
            part = fields[field.name]
            assert part.stop - part.start == field.size
            low, high = bounds
            declared_low = np.broadcast_to(np.asarray(field.low, dtype=np.float32), (field.size,))
            declared_high = np.broadcast_to(np.asarray(field.high, dtype=np.float32), (field.size,))
            assert np.all(low[part] <= declared_low), field.name
            assert np.all(high[part] >= declared_high), field.name
