"""Dream Islands' move texts (``state.move_text``): the missions a cover completes (they go
face up), how many cards a draw takes; the mission put under the pile is named only to the
seat that puts it there (I6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_islands.moves import MISSIONS, Cover, Draw, PutUnder, mission_name
from tests.support import legal_moves_of_kind, random_game


@pytest.fixture(scope="module")
def positions() -> list[Any]:
    game = cruiselib.make("dream_islands", players=3)
    return [s for seed in (1, 2) for s in random_game(game, seed=seed)[:-1]]


def _moves(positions: list[Any], kind: type, most: int = 400) -> Iterator[tuple[Any, int, Any]]:
    return legal_moves_of_kind(positions, kind, most)


def _after(state: Any, action: int) -> Any:
    child = state.clone()
    child.apply(action)
    return child.view(state.current_player).seats[state.current_player]


def test_a_cover_names_the_missions_it_completes(positions: list[Any]) -> None:
    completing = 0
    for state, action, move in _moves(positions, Cover):
        seat = state.current_player
        before = state.view(seat).seats[seat].completed
        done = [m for m in _after(state, action).completed if m not in before]
        text = state.move_text(action)
        if done:
            assert text == f"{move}; completes " + ", ".join(f"'{mission_name(m)}'" for m in done)
            completing += 1
        else:
            assert text == str(move)
    assert completing


def test_a_draw_says_how_many_cards_it_takes(positions: list[Any]) -> None:
    counts = set()
    for state, action, _move in _moves(positions, Draw):
        seat = state.current_player
        drawn = _after(state, action).hand_size - state.view(seat).seats[seat].hand_size
        text = state.move_text(action)
        assert text == f"draw up to 3: draws {drawn or 'no'} card{'' if drawn == 1 else 's'}"
        counts.add(drawn)
    assert len(counts) > 1


def test_the_mission_put_under_the_pile_is_named_only_to_its_seat(positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, PutUnder):
        seat = state.current_player
        public = state.move_text(action)
        assert public == "put a mission card under the draw pile (hidden)"
        assert not any(name in public for name in MISSIONS)
        for other in range(state.game.num_players):
            if other != seat:
                assert state.move_text(action, player=other) == public
        assert state.move_text(action, player=seat) == f"put '{mission_name(move.mission)}' under the draw pile"
        seen += 1
    assert seen
