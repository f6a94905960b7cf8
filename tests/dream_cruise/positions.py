"""Shared Dream Cruise positions and checks for the rule tests, on top of ``helpers``."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState
from cruiselib.dream_cruise.moves import Done, DreamCruiseMove
from tests.dream_cruise.helpers import position


def _on_top(deck: list[int], top: list[int]) -> list[int]:
    missing = [x for x in top if x not in deck]
    assert not missing, f"cards {missing} are not in the deck"
    # Decks list bottom first: the first card of ``top`` is drawn first.
    return [x for x in deck if x not in top] + list(reversed(top))


def stacked(
    game: DreamCruiseGame,
    *,
    family_top: list[int] | None = None,
    location_top: list[int] | None = None,
    ship_top: list[int] | None = None,
    **fields: Any,
) -> DreamCruiseState:
    """``position(game, **fields)`` with the named cards on top of their decks, the first
    one drawn first; every other card where ``position`` puts it."""
    if family_top is None and location_top is None and ship_top is None:
        return position(game, **fields)
    data = position(game, **fields).to_data()
    if family_top is not None:
        fields["family_deck"] = _on_top(list(data.family_deck), family_top)
    if location_top is not None:
        fields["location_deck"] = _on_top(list(data.location_deck), location_top)
    if ship_top is not None:
        fields["ship_deck"] = _on_top(list(data.ship_deck), ship_top)
    return position(game, **fields)


def end_of_round(game: DreamCruiseGame, **fields: Any) -> DreamCruiseState:
    """Phase 4 with only the last seat of the turn order still to finish (``stacked``
    fields): one ``Done()`` runs phase 5 and starts the next round."""
    first = fields.setdefault("first_player", 0)
    fields.setdefault("start_player", first)
    return stacked(game, turn=game.num_players - 1, **fields)


def finish_sail(state: DreamCruiseState) -> None:
    """Every seat still in phase 4 ends it at once."""
    while state.phase == "set_sail":
        state.apply(Done())


def illegal(state: DreamCruiseState, move: DreamCruiseMove | int) -> str:
    """Check that ``move`` is not legal now (not listed, refused by apply, state unchanged)
    and return the reason of the ``IllegalMoveError``."""
    before = state.to_json()
    if not isinstance(move, int):
        assert move not in state.legal_moves()
    assert not state.is_legal(move)
    with pytest.raises(cruiselib.IllegalMoveError) as info:
        state.apply(move)
    assert state.to_json() == before
    return str(info.value)


def raw(state: DreamCruiseState) -> dict[str, Any]:
    """The core's raw state (``_get_raw``), typed for the tests."""
    out: dict[str, Any] = state._get_raw()
    return out


def cabins(game: DreamCruiseGame, seat: int, families: list[int], **fields: Any) -> dict[str, Any]:
    """Seat fields with ``families`` in the cabins; the seat's starting families that are not
    among them go to its points pile (C21 keeps them at that seat)."""
    start = [i for i, f in enumerate(game.cards.families) if f.start == "ABCD"[seat]]
    pile = [f for f in start if f not in families] + list(fields.pop("points_pile", []))
    return {"families": families, "points_pile": pile, **fields}


def free_cards(game: DreamCruiseGame, kind: str, **fields: Any) -> list[int]:
    """The cards of ``kind`` ("family", "location", "ship") that ``position(game, **fields)``
    puts in their deck, i.e. every card of that kind the fields do not place."""
    data = position(game, **fields).to_data()
    deck: list[int] = {"family": data.family_deck, "location": data.location_deck, "ship": data.ship_deck}[kind]
    return list(deck)


def advance(state: DreamCruiseState, phase: str) -> None:
    """Until the game reaches ``phase`` (or ends): in phase 4 every seat is done at once,
    elsewhere the lowest legal action is taken."""
    while state.phase != phase and not state.is_over:
        state.apply(Done() if state.phase == "set_sail" else state.legal_actions()[0])


M = TypeVar("M")


def moves_of(state: DreamCruiseState, kind: type[M]) -> list[M]:
    """The legal moves of one kind (``Board``, ``Keep`` ...), in action order."""
    return [m for m in state.legal_moves() if isinstance(m, kind)]
