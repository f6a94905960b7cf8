"""Dream Cruise's move texts (``state.move_text``): each names the family, cabin, activity
and cards it acts on, as the seat's view shows them, and never the face-down set's cards;
and the board text's guests and result, without Python lists."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_cruise.cards import CABINS
from cruiselib.dream_cruise.moves import Board, Build, Captain, Done, Keep, Place, Plan, Take
from tests.support import legal_moves_of_kind, random_game


@pytest.fixture(scope="module")
def game() -> Any:
    return cruiselib.make("dream_cruise", players=2)


@pytest.fixture(scope="module")
def positions(game: Any) -> list[Any]:
    return [s for seed in (1, 2) for s in random_game(game, seed=seed)[:-1]]


def _moves(positions: list[Any], kind: type, most: int = 60) -> Iterator[tuple[Any, int, Any]]:
    return legal_moves_of_kind(positions, kind, most)


def _seat(state: Any) -> Any:
    return state.view(state.current_player).seats[state.current_player]


def test_board_names_the_family_and_the_cabin_it_goes_into(game: Any, positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Board):
        family = game.cards.families[move.family]
        cabin = CABINS[_seat(state).families.index(-1)]
        text = state.move_text(action)
        assert text.startswith(f"board the {family.name} family (")
        assert f"{family.members} member" in text and ", ".join(family.wants) in text
        assert text.endswith(f" into the {cabin} cabin")
        seen += 1
    assert seen


def test_keep_names_the_location_card_and_its_activities(game: Any, positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Keep):
        card = game.cards.locations[move.location]
        text = state.move_text(action)
        assert text.startswith(f"keep {card.name} (") and f"top {card.top}" in text
        assert (f"bottom {card.bottom}" if card.bottom else "two activity slots") in text
        seen += 1
    assert seen


def test_take_names_a_face_up_sets_cards_and_never_the_face_down_ones(game: Any, positions: list[Any]) -> None:
    face_down = face_up = 0
    for state, action, move in _moves(positions, Take, most=200):
        text = state.move_text(action)
        shown = state.view(state.current_player).display[move.set]
        if move.set == 0:
            hidden = state._get_raw()["display"][0]
            assert text == f"take the face-down set ({len(hidden)} card{'' if len(hidden) == 1 else 's'}, unseen)"
            assert shown.face_down and not any(game.cards.ships[x].name in text for x in hidden)
            face_down += 1
        else:
            names = [f"{game.cards.ships[x].name} ({game.cards.ships[x].activity})" for x in shown.cards]
            assert text == f"take set {move.set}: {' + '.join(names)}"
            face_up += 1
    assert face_down and face_up


def test_place_names_the_family_its_cabin_and_the_activity(game: Any, positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Place):
        family = game.cards.families[_seat(state).families[move.cabin]].name
        activity = game.spot_text(state, state.current_player, move.spot)
        assert "(" in activity  # the activity, not the spot's bare name
        assert state.move_text(action) == (
            f"send a guest of the {family} family ({CABINS[move.cabin]} cabin) to {activity}"
        )
        seen += 1
    assert seen


def test_plan_names_the_card_and_the_location_card_it_goes_on(game: Any, positions: list[Any]) -> None:
    seen = 0
    for state, action, move in _moves(positions, Plan):
        card = game.cards.ships[move.card]
        location = game.cards.locations[_seat(state).location.card]
        text = state.move_text(action)
        assert text.startswith(f"plan {card.name} ({card.activity}) on {location.name}, ")
        assert (f"covering its bottom ({location.bottom})" if location.bottom else " slot") in text
        seen += 1
    assert seen


def test_build_and_captain_name_the_cards_and_the_activity(game: Any, positions: list[Any]) -> None:
    built = captains = 0
    for state, action, move in _moves(positions, Build, most=200):
        addition = game.cards.ships[move.addition]
        text = state.move_text(action)
        assert text.startswith(
            f"build {addition.name} ({addition.activity}), paying {game.cards.ships[move.payment].name}"
        )
        if move.replaces is not None:
            old = game.cards.ships[_seat(state).additions[move.replaces]]
            assert text.endswith(f", replacing {old.name} ({old.activity}) (addition {move.replaces + 1})")
        built += 1
    for state, action, move in _moves(positions, Captain):
        activity = game.spot_text(state, state.current_player, move.spot)
        assert state.move_text(action) == f"captain to {activity}, paying {game.cards.ships[move.payment].name}"
        captains += 1
    assert built and captains
    state, action, _ = next(_moves(positions, Done))
    assert state.move_text(action) == "done: end the turn"


def test_the_board_text_lists_guests_and_the_result_in_words() -> None:
    for players in (2, 1):
        game = cruiselib.make("dream_cruise", players=players)
        final = random_game(game, seed=7, every=10_000)[-1]
        text = game.render(final)
        assert "[" not in text.replace("[captain]", "") and "'" not in text
        guests = [line.rsplit("guests: ", 1)[1] for line in text.splitlines() if "guests: " in line]
        assert guests and all(g == "none" or set(g.split(", ")) <= set(CABINS) for g in guests)
        head = text.splitlines()[0]
        winners = final.winners()
        if not winners:
            assert head.endswith("winner: Jana" if players == 1 else "no winner")
        else:
            assert head.endswith(", ".join(f"seat {w}" for w in winners))
