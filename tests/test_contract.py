"""The compiled game contract (``_core/engine.py``), checked on every game.

Playouts from a position reproduce a Python loop of the same random choices; threads
give the results of one thread; the position itself is left as it was.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib._core import load
from tests.support import ANY_GAME

GAMES = cruiselib.games()
_rng = load("rng")
_engine = load("engine")


def _mid_game(name: str, steps: int = 20, seed: int = 9) -> Any:
    state: Any = cruiselib.make(name).new_state(seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


def _python_playout(state: Any, base: int, g: int) -> tuple[list[int], int, list[int]]:
    """Playout g of ``state.playouts(n, seed)``, step by step in Python (engine.py's formula)."""
    mask = 2**64 - 1
    work = state.clone()
    seed_g = _rng.mix64((base + g) & mask)
    work._reseed(seed_g)
    golden, salt = _engine.PLAYOUT_STREAM
    r = _rng.mix64(seed_g ^ salt)
    steps = 0
    while not work.is_over:
        r = (r + golden) & mask
        work.apply(work.random_action(_rng.mix64(r)))
        steps += 1
    return work.scores(), steps, work.winners()


@pytest.mark.parametrize("name", GAMES)
def test_playouts_from_a_state_are_a_python_loop_of_the_same_choices(name: str) -> None:
    state = _mid_game(name)
    before = state.to_json()
    result = state.playouts(12, seed=5)
    assert state.to_json() == before
    base = _rng.seed_state(5)
    for g in range(12):
        scores, steps, winners = _python_playout(state, base, g)
        assert result.scores[g].tolist() == scores
        assert int(result.lengths[g]) == steps
        assert result.wins[g].tolist() == [int(p in winners) for p in range(state.game.num_players)]
    assert result.actions == int(result.lengths.sum())


@pytest.mark.parametrize("name", GAMES)
def test_random_action_is_uniform_over_the_legal_actions(name: str) -> None:
    state = _mid_game(name)
    legal = set(state.legal_actions())
    seen = {state.random_action(random.Random(k).getrandbits(64)) for k in range(4000)}
    assert seen <= legal
    assert len(seen) == len(legal) or len(legal) > 400  # every move turns up


def test_random_action_of_a_finished_game_is_an_error() -> None:
    state = _mid_game(ANY_GAME, steps=10_000)
    assert state.is_over
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        state.random_action(1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [2, 3, 7])
def test_threads_give_the_results_of_one_thread(name: str, threads: int) -> None:
    game = cruiselib.make(name)
    one = game.playouts(301, seed=4)
    many = game.playouts(301, seed=4, threads=threads)
    for field in ("scores", "lengths", "wins"):
        assert np.array_equal(getattr(one, field), getattr(many, field))
    assert one.actions == many.actions
    state = _mid_game(name)
    a, b = state.playouts(40, seed=2), state.playouts(40, seed=2, threads=threads)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)


@pytest.mark.parametrize("name", GAMES)
def test_a_batch_is_each_game_on_its_own(name: str) -> None:
    """Game g of a batch does not depend on the batch's size: the first 50 of 200 are 50."""
    game = cruiselib.make(name)
    small, large = game.playouts(50, seed=8), game.playouts(200, seed=8)
    assert np.array_equal(small.scores, large.scores[:50]) and np.array_equal(small.lengths, large.lengths[:50])


@pytest.mark.parametrize("threads", [0, -1, 1.0, True, "2", 257])
def test_wrong_thread_counts_are_refused(threads: object) -> None:
    game = cruiselib.make(ANY_GAME)
    with pytest.raises(cruiselib.InvalidOptionError, match="threads"):
        game.playouts(10, seed=0, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(cruiselib.InvalidOptionError, match="threads"):
        game.new_state(seed=1).playouts(10, seed=0, threads=threads)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_playouts_of_a_finished_game_are_empty_games(name: str) -> None:
    state = _mid_game(name, steps=100_000)
    assert state.is_over
    result = state.playouts(3, seed=1)
    assert result.lengths.tolist() == [0, 0, 0]
    assert all(row.tolist() == state.scores() for row in result.scores)


@pytest.mark.skipif(not cruiselib.compiled, reason="compares the compiled core with its pure twin")
@pytest.mark.parametrize("name", GAMES)
def test_the_pure_twin_plays_the_same_playouts(name: str) -> None:
    game = cruiselib.make(name)
    twin = game.pure_twin()
    a, b = game.playouts(20, seed=3), twin.playouts(20, seed=3)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    state = _mid_game(name)
    twin_state = twin.load_state(state.to_json())
    assert type(twin_state).__module__ == type(state).__module__  # the same wrapper class, rebuilt
    assert np.array_equal(state.playouts(5, seed=1).scores, twin_state.playouts(5, seed=1).scores)


@pytest.mark.parametrize("name", GAMES)
def test_tensors_fill_a_given_buffer_and_refuse_a_wrong_one(name: str) -> None:
    state = _mid_game(name)
    game = state.game
    size = game.observation_shape[0]
    fresh = state.observation(1)
    buf = np.full(size, 7.0, dtype=np.float32)
    assert state.observation(1, out=buf) is buf and np.array_equal(buf, fresh)
    info = np.full(game.information_state_shape, 7.0, dtype=np.float32)
    assert state.information_state(1, out=info) is info
    assert np.array_equal(info, state.information_state(1))
    wrong = [
        np.zeros(size, dtype=np.float64),
        np.zeros(size + 1, dtype=np.float32),
        np.zeros((1, size), dtype=np.float32),
        np.zeros(2 * size + 2, dtype=np.float32)[::2][: size or None] if size else np.zeros(3, np.float32)[::2],
        np.zeros(size, dtype=">f4"),
        [0.0] * size,
        "tensor",
    ]
    readonly = np.zeros(size, dtype=np.float32)
    readonly.setflags(write=False)
    wrong.append(readonly)
    for out in wrong:
        with pytest.raises(cruiselib.InvalidOptionError, match="out must be"):
            state.observation(1, out=out)
    for seat in (-1, game.num_players, True, 1.0):
        with pytest.raises(cruiselib.InvalidOptionError):
            state.observation(seat)


@pytest.mark.parametrize("name", GAMES)
def test_the_enum_constants_have_one_home_in_the_pxd(name: str) -> None:
    """A core's integer constants are read from its .pxd's ``cdef enum``, and the pure-Python
    core takes its values from there, whatever mode runs now."""
    from cruiselib._core import constants

    core = cruiselib._registry.game_class(name).core_module
    values = constants.enum_constants(core)
    assert values and all(type(value) is int for value in values.values())
    pure = cruiselib._core.pure_module(core)
    assert {key: getattr(pure, key) for key in values} == dict(values)


def test_an_enum_line_that_cannot_be_read_is_an_error(tmp_path: Any, monkeypatch: Any) -> None:
    """A line it cannot read is an error, not a constant silently lost."""
    from cruiselib._core import constants

    bad = tmp_path / "broken.pxd"
    bad.write_text("cdef enum:\n    GOOD = 1\n    BAD = 2 * GOOD\n")
    monkeypatch.setattr(constants, "__file__", str(tmp_path / "constants.py"))
    with pytest.raises(ValueError, match="BAD"):
        constants.enum_constants("broken")


# --------------------------------------------------------------------------- the core contract

_CORE_DIR = Path(cruiselib._core.__file__).parent
_CORES = sorted({cruiselib._registry.game_class(name).core_module for name in GAMES})


@pytest.mark.parametrize("core", _CORES)
def test_a_core_imports_nothing_from_the_game_packages_and_names_no_game(core: str) -> None:
    # The game hands its schema and name in (CoreRules._set_schema): the game packages import
    # the cores, never the other way round, and a core names no game (it finds its own .pxd's
    # constants by its module name).
    source = (_CORE_DIR / f"{core}.py").read_text(encoding="utf-8")
    imported = re.findall(r"^\s*(?:from|import)\s+(cruiselib\.[\w.]+)", source, re.MULTILINE)
    assert [m for m in imported if not m.startswith(("cruiselib._core", "cruiselib.errors"))] == []
    literals = re.findall(r"""["']([a-z_]+)["']""", source)
    assert [s for s in literals if s in GAMES] == []


@pytest.mark.parametrize("name", GAMES)
def test_the_game_hands_its_schema_and_name_to_the_core(name: str) -> None:
    game: Any = cruiselib.make(name)
    assert game.rules.game_name == name
    assert game.rules.schema is sys.modules[type(game).__module__.rpartition(".")[0] + ".schema"]
    assert game.new_state(seed=1)._export().game == name


@pytest.mark.parametrize("name", GAMES)
def test_every_core_takes_the_contract_s_one_signature(name: str) -> None:
    game: Any = cruiselib.make(name)
    state: Any = game.new_state(seed=3)
    other: Any = game._state_class(game.rules, game)
    other._new_game(_rng.seed_state(3), -1)  # the start seat drawn in the deal, as new_state
    assert other._get_raw() == state._get_raw()
    for recall in (False, True):
        assert other._view(0, recall) == state.view(0, recall=recall)
    fresh: Any = game._state_class(game.rules, game)
    fresh._load(state._export(), True)
    assert fresh._export() == state._export()


@pytest.mark.parametrize("name", GAMES)
def test_the_contract_s_defaults_fail_loudly(name: str) -> None:
    bare: Any = _engine.CoreState(cruiselib.make(name).rules)
    for call in (lambda: bare._view(0, False), bare._export, bare._get_raw):
        with pytest.raises(NotImplementedError):
            call()
    with pytest.raises(NotImplementedError):
        bare._load(None)


def _unvalidated(data: Any) -> list[tuple[str, Any]]:
    """Snapshot Structs msgspec would never make: the phase no phase, each list None."""
    out = [("phase", msgspec.structs.replace(data, phase="no such phase"))]
    for field in data.__struct_fields__:
        if isinstance(getattr(data, field), list):
            out.append((field, msgspec.structs.replace(data, **{field: None})))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_that_skipped_validation_is_an_invalid_state(name: str) -> None:
    # Loading is one template (CoreState._load): whatever a malformed Struct makes the
    # game's checks trip over (a TypeError, a ValueError ...) is an InvalidStateError too.
    # (Fields the core does not read, such as the history, load: the game checks those.)
    state = _mid_game(name)
    game = state.game
    refused = {}
    for field, bad in _unvalidated(state._export()):
        fresh: Any = game._state_class(game.rules, game)
        try:
            fresh._load(bad)
        except cruiselib.InvalidStateError as exc:
            refused[field] = str(exc)
    assert "phase" in refused and ("hands" in refused or "seats" in refused)
    assert all(message.startswith(f"invalid {game.title} state: ") for message in refused.values())


def test_reason_codes_are_named_and_each_has_its_text() -> None:
    from cruiselib._core.constants import enum_constants, reason_table

    for core in _CORES:
        codes = {v for k, v in enum_constants(core).items() if k.startswith("R_")}
        if codes:  # a core whose c_check returns named codes (the .pxd's R_* enum)
            reasons = load(core).REASONS
            assert codes | {0} == set(range(len(reasons))) and reasons[0] == "legal"  # 0: legal
    assert reason_table({1: "b", 0: "a"}) == ("a", "b")
    for gap in ({0: "a", 2: "c"}, {0: "a", 1: ""}):
        with pytest.raises(ValueError, match="reason codes"):
            reason_table(gap)
