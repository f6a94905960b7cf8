"""Sirens in Sight's move texts (``state.move_text``): a side's total before and after a card
against the ship card's threshold, the totals an octopus move changes, the threshold a rum
mug raises, which crew token moves from where; a starting card picked in the variant is
named only to the seat that picks it (S15)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cruiselib
from cruiselib.sirens.moves import MoveCard, MoveCrew, PickCard, PlayCard, UseRum
from tests.support import legal_moves_of_kind, random_game


@pytest.fixture(scope="module")
def positions() -> list[Any]:
    game = cruiselib.make("sirens")
    return [s for seed in range(1, 7) for s in random_game(game, seed=seed)[:-1]]


def _moves(positions: list[Any], kind: type, most: int = 100) -> Iterator[tuple[Any, int, Any]]:
    return legal_moves_of_kind(positions, kind, most)


def _ship(state: Any, value: int) -> Any:
    return next(ship for ship in state.view(0).ships if ship.value == value)


def test_play_gives_the_sides_total_before_and_after_and_the_threshold(positions: list[Any]) -> None:
    crewed = 0
    for state, action, move in _moves(positions, PlayCard, most=300):
        ship = _ship(state, move.ship)
        total = ship.totals[move.side]
        face = f"{move.value}{'⚓' if move.crew else ''}"
        crew = f" ({', '.join(ship.crew)})" if ship.crew else ""
        assert state.move_text(action) == (
            f"play {face} to ship {move.ship}{crew}, seat {move.side}'s side: "
            f"total {total} → {total + move.value}, needs {ship.threshold}"
        )
        crewed += bool(ship.crew)
        child = state.clone()
        child.apply(action)
        after = _ship(child, move.ship)
        if after.owner is None and not after.removed:  # still in play: the total shown
            assert after.totals[move.side] == total + move.value
    assert crewed


def test_the_octopus_gives_both_totals(positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, MoveCard):
        source = _ship(state, move.from_ship).totals[move.from_side]
        target = _ship(state, move.to_ship).totals[move.to_side]
        assert state.move_text(action) == (
            f"{move}: totals {source} → {source - move.value} and {target} → {target + move.value}"
        )
        seen += 1
    assert seen


def test_rum_gives_the_threshold_it_raises(positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, UseRum):
        needs = _ship(state, move.ship).threshold
        assert state.move_text(action) == f"rum on ship {move.ship}: needs {needs} → {needs + 3}"
        child = state.clone()
        child.apply(action)
        assert _ship(child, move.ship).threshold == needs + 3
        seen += 1
    assert seen


def test_a_crew_move_names_the_token_and_where_it_comes_from(positions: list[Any]) -> None:
    seen = set()
    for state, action, move in _moves(positions, MoveCrew):
        text = state.move_text(action)
        child = state.clone()
        child.apply(action)
        # The token that moved: on the destination now, somewhere else before.
        token = next(c for c, d in zip(state.view(0).crew, child.view(0).crew, strict=True) if c.ship != d.ship)
        assert text == f"move the {token.name} from ship {token.ship} to ship {move.to_ship}"
        seen.add(token.name)
    assert seen == {"captain", "mate"}


def test_a_picked_starting_card_is_named_only_to_its_seat() -> None:
    game = cruiselib.make("sirens", variant="bow_to_rear")
    state = game.new_state(seed=2)
    picks = 0
    while not state.is_over and state.view(0).phase == "pick":
        seat = state.current_player
        for action in state.legal_actions():
            move = game.action_to_move(action)
            assert isinstance(move, PickCard)
            assert state.move_text(action) == "pick a starting card (hidden)"
            assert state.move_text(action, player=1 - seat) == "pick a starting card (hidden)"
            assert state.move_text(action, player=seat) == str(move)
            picks += 1
        state.apply(state.legal_actions()[-1])
    assert picks
