"""Atlantic Star's move texts (``state.move_text``): the ship chartered, the ships a refresh
sends away, a voyage's value before and after a loan, a voyage's ships as the plaque then
shows them; the ships a voyage keeps in hand are named only to the seat itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cruiselib
from cruiselib.atlantic_star.moves import Charter, Loan, Refresh, Voyage
from tests.support import legal_moves_of_kind, random_game


@pytest.fixture(scope="module", params=[3, 4])
def game(request: pytest.FixtureRequest) -> Any:
    return cruiselib.make("atlantic_star", players=request.param)


@pytest.fixture(scope="module")
def positions(game: Any) -> list[Any]:
    return [s for seed in (1, 2) for s in random_game(game, seed=seed)[:-1]]


def _moves(positions: list[Any], kind: type, most: int = 80) -> Iterator[tuple[Any, int, Any]]:
    return legal_moves_of_kind(positions, kind, most)


def test_charter_names_the_ship_on_that_agency_space(positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Charter):
        space = next(s for s in state.view(state.current_player).agency if s.price == move.price)
        assert space.ship is not None
        legs = "mail: 1 on any leg" if space.ship.mail else ", ".join(space.ship.legs)
        cost = "free" if move.price == 0 else f"for {move.price:,}"
        assert state.move_text(action) == f"charter {space.ship.name} ({legs}) {cost}"
        seen += 1
    assert seen


def test_refresh_names_the_ships_it_sends_away(positions: list[Any]) -> None:
    state, action, _ = next(_moves(positions, Refresh))
    names = [s.ship.name for s in state.view(0).agency if s.ship is not None]
    assert state.move_text(action) == f"refresh the agency for 2,000, replacing {', '.join(names)}"


def test_loan_gives_the_voyages_value_before_and_after(positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Loan):
        seat = state.current_player
        sea = next(s for s in state.view(seat).seas if s.name == move.sea)
        plaque = next(q for q in sea.plaques if q.seat == seat and q.voyage == move.voyage)
        after = plaque.value - move.amount // 1000
        which = "second " if move.voyage == 1 else ""
        assert state.move_text(action) == (
            f"loan {move.amount:,} on the {which}{move.sea} voyage (value {plaque.value} → {after})"
        )
        child = state.clone()
        child.apply(action)
        sea_after = next(s for s in child.view(seat).seas if s.name == move.sea)
        assert any(q.seat == seat and q.voyage == move.voyage and q.value == after for q in sea_after.plaques)
        seen += 1
    assert seen


def test_a_voyage_names_the_ships_the_plaque_shows_and_hides_the_ones_kept(positions: list[Any]) -> None:
    kept_seen = 0
    for state, action, move in _moves(positions, Voyage, most=300):
        seat = state.current_player
        hand = {ship.name for ship in state.view(seat).hand}
        child = state.clone()
        child.apply(action)
        sea = next(s for s in child.view(seat).seas if s.name == move.sea)
        plaque = next(q for q in sea.plaques if q.seat == seat and set(q.ships) <= hand)  # the one just placed
        played = plaque.ships
        kept = sorted(hand - set(played))
        public = state.move_text(action)
        points = f"{plaque.value} point{'' if plaque.value == 1 else 's'}"
        said = f"voyage {move.sea} {sea.stars}★ with {', '.join(played)}: {points}"
        assert public == said or public.startswith(f"{said} (")  # then what it keeps
        assert not any(name in public for name in kept)
        private = state.move_text(action, player=seat)
        if kept:
            assert public.endswith(f" (keeps {len(kept)} ship{'' if len(kept) == 1 else 's'})")
            assert private.startswith(public.rsplit(" (keeps", 1)[0]) and private.endswith(")")
            assert sorted(private.rsplit(" (keeps ", 1)[1][:-1].split(", ")) == kept
            kept_seen += 1
        else:
            assert private == public
    assert kept_seen
