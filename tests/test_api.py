"""The public API contract (docs/api.md), checked on every registered game."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.errors import CruiseError

from .support import ANY_GAME, CONFIGURATION_IDS, CONFIGURATIONS


def test_games_lists_every_registered_game() -> None:
    names = cruiselib.games()
    assert names and names == tuple(sorted(names))
    assert all(game_class(name).name == name for name in names)


def test_errors_are_value_errors() -> None:
    for exc in (cruiselib.IllegalMoveError, cruiselib.InvalidStateError, cruiselib.InvalidOptionError):
        assert issubclass(exc, CruiseError) and issubclass(exc, ValueError)


def test_compiled_flag_is_a_bool() -> None:
    assert isinstance(cruiselib.compiled, bool)


@pytest.mark.parametrize("name", cruiselib.games())
def test_contract(name: str) -> None:
    game = cruiselib.make(name)
    assert game.num_players >= 1 and game.num_actions > 0
    state = game.new_state(seed=7)
    assert state == game.new_state(seed=7)
    assert 0 <= state.current_player < game.num_players and not state.is_over
    legal = state.legal_actions()
    assert legal == sorted(legal) and all(isinstance(a, int) for a in legal)
    mask = state.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
    assert np.flatnonzero(mask).tolist() == legal
    moves = state.legal_moves()
    assert [game.move_to_action(m) for m in moves] == legal
    assert [game.action_to_move(a) for a in legal] == moves
    assert all(str(m) for m in moves)
    child = state.clone()
    child.apply(moves[0])
    assert child != state and state == game.new_state(seed=7)
    assert len(state.scores()) == game.num_players and state.winners() == []
    assert isinstance(state.view(0), msgspec.Struct)
    assert game.load_state(state.to_json()) == state
    assert game.load_state(state.to_msgpack()) == state
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state and copy.copy(state) == state
    assert pickle.loads(pickle.dumps(game)) == game
    assert repr(game).startswith(f"cruiselib.make({name!r}")
    schemas = game.json_schemas()
    assert set(schemas) == {"state", "view", "move", "position"}


@pytest.mark.parametrize("name", cruiselib.games())
def test_playouts_run_in_the_core_and_are_seeded(name: str) -> None:
    game = cruiselib.make(name)
    a = game.playouts(50, seed=3)
    b = game.playouts(50, seed=3)
    assert a.games == 50 and a.actions == int(a.lengths.sum()) > 0
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    assert not np.array_equal(a.lengths, game.playouts(50, seed=4).lengths)
    assert a.scores.shape == (50, game.num_players)
    assert 0.0 <= a.draw_rate <= 1.0 and a.win_rates.shape == (game.num_players,)
    assert game.playouts(0).games == 0


def test_new_state_seeds() -> None:
    game = cruiselib.make(ANY_GAME)
    assert game.new_state(seed="abc") == game.new_state(seed="abc")
    assert game.new_state(seed=b"abc") == game.new_state(seed="abc")
    assert game.new_state(seed=1) != game.new_state(seed=2)
    assert game.new_state(seed=-5) == game.new_state(seed=-5)
    game.new_state()  # fresh entropy
    with pytest.raises(cruiselib.InvalidOptionError):
        game.new_state(seed=1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", cruiselib.games())
def test_move_json_round_trip(name: str) -> None:
    game = cruiselib.make(name)
    for state in (game.new_state(seed=1), _mid_game(name)):
        for move in state.legal_moves():
            data = msgspec.json.encode(move)
            assert msgspec.json.decode(data, type=game.move_type) == move


@pytest.mark.skipif(not cruiselib.compiled, reason="needs the compiled core beside the pure one")
@pytest.mark.parametrize("name", cruiselib.games())
def test_compiled_and_pure_cores_play_identical_games(name: str) -> None:
    game = cruiselib.make(name)
    twin = game.pure_twin()
    a, b = game.playouts(200, seed=9), twin.playouts(200, seed=9)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    state = twin.new_state(seed=4)
    assert state.to_json() == game.new_state(seed=4).to_json()
    assert game.load_state(state.to_json()) == game.new_state(seed=4)


def _mid_game(name: str, steps: int = 25) -> Any:
    import random

    state: Any = cruiselib.make(name).new_state(seed=11)
    rnd = random.Random(11)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", cruiselib.games())
def test_json_with_a_byte_order_mark_loads(name: str) -> None:
    state = _mid_game(name)
    game = state.game
    text = state.to_json()
    assert game.load_state("\ufeff" + text) == state
    assert game.load_state(b"\xef\xbb\xbf" + text.encode()) == state
    assert game.load_state(bytearray(b"\xef\xbb\xbf" + text.encode())) == state


@pytest.mark.parametrize("name", cruiselib.games())
def test_is_legal_takes_what_apply_takes(name: str) -> None:
    state = _mid_game(name)
    legal = state.legal_actions()
    move = state.legal_moves()[0]
    assert state.is_legal(np.int64(legal[0])) and state.is_legal(np.int32(legal[-1]))
    assert state.is_legal(move)
    assert not state.is_legal(-1) and not state.is_legal(state.game.num_actions) and not state.is_legal(2**70)
    illegal = next(a for a in range(state.game.num_actions) if a not in set(legal))
    assert not state.is_legal(np.int16(illegal)) and not state.is_legal(state.game.action_to_move(illegal))
    for not_an_action in ("1", 1.0, None, True, [legal[0]]):
        with pytest.raises(cruiselib.IllegalMoveError, match=r"not an action|an action id is an int"):
            state.is_legal(not_an_action)
    expected = state.clone()
    expected.apply(legal[0])
    state.apply(np.int64(legal[0]), player=np.int64(state.current_player))
    assert state == expected


@pytest.mark.parametrize("name", cruiselib.games())
def test_the_seat_guard_refuses_other_seats_and_non_seats(name: str) -> None:
    state = _mid_game(name)
    a = state.legal_actions()[0]
    other = (state.current_player + 1) % state.game.num_players
    for wrong in (other, np.int64(other), True, 1.0, "0", -1):
        before = state.to_json()
        with pytest.raises(cruiselib.IllegalMoveError, match="cannot move"):
            state.apply(a, player=wrong)
        assert state.to_json() == before


@pytest.mark.parametrize("name", cruiselib.games())
def test_every_game_has_the_same_result_api(name: str) -> None:
    import random

    game = cruiselib.make(name)
    state: Any = game.new_state(seed=5)
    assert state.returns() == [0.0] * game.num_players and state.winners() == []
    rnd = random.Random(5)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    scores, winners, returns = state.scores(), state.winners(), state.returns()
    assert type(scores) is list and type(winners) is list and type(returns) is list
    assert len(scores) == len(returns) == game.num_players
    if winners:
        assert returns == [1.0 if p in winners else -1.0 for p in range(game.num_players)]
    else:
        assert returns == [0.0] * game.num_players


@pytest.mark.parametrize("name", cruiselib.games())
@pytest.mark.parametrize("players", [2.0, True, "2", None, -1, 0, 1, 7, 2**31, 2**64])
def test_wrong_player_counts_are_refused(name: str, players: object) -> None:
    if type(players) is int and players in game_class(name).player_counts:
        assert cruiselib.make(name, players=players).num_players == players  # e.g. Dream Cruise's solo game (C9)
        return
    with pytest.raises(cruiselib.InvalidOptionError):
        cruiselib.make(name, players=players)


@pytest.mark.parametrize("name", cruiselib.games())
def test_make_seats_exactly_the_declared_player_counts(name: str) -> None:
    """``Game.player_counts`` (what the integrations and the tests read) is what ``make``
    accepts: every count from 1 to 8 is taken if declared and refused with a message naming
    the declared counts otherwise."""
    declared = game_class(name).player_counts
    assert declared and list(declared) == sorted(set(declared))
    default = cruiselib.make(name).num_players
    assert default in declared
    for n in range(1, 9):
        if n in declared:
            assert cruiselib.make(name, players=n).num_players == n
        else:
            with pytest.raises(cruiselib.InvalidOptionError, match=f"not {n}$"):
                cruiselib.make(name, players=n)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_playouts_record_the_seat_that_acted_first(name: str, options: dict[str, Any]) -> None:
    """Playouts.first_seats: in a new deal the start player as the core dealt it (the deal's
    first seat to act), from a position the seat to act there; on any number of threads."""
    game = cruiselib.make(name, **options)
    result = game.playouts(60, seed=4, threads=2)
    assert result.first_seats.dtype == np.int8 and result.first_seats.shape == (60,)
    for g in range(60):
        dealt = game.state_from_seed_state(game.playout_seed_state(4, g))
        assert result.first_seats[g] == dealt.current_player
    np.testing.assert_array_equal(result.first_seats, game.playouts(60, seed=4).first_seats)
    state = game.new_state(9)
    state.apply(state.legal_actions()[0])
    assert (state.playouts(5, seed=1).first_seats == state.current_player).all()
    assert (state.playouts(5, seed=1, threads=2).first_seats == state.current_player).all()
