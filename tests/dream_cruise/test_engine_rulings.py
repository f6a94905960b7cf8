"""The engine's own rulings C24-C29 (docs/dream_cruise.md, "Rulings"), one test each."""

from __future__ import annotations

import random

import cruiselib
from cruiselib.dream_cruise import DreamCruiseState


def _play(state: DreamCruiseState, seed: int, until: str | None = None) -> DreamCruiseState:
    rnd = random.Random(seed)
    while not state.is_over and state.phase != until:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def test_C24_the_deal_draws_the_start_player_unless_given() -> None:
    game = cruiselib.make("dream_cruise", players=4)
    starts = {game.new_state(seed=s)._get_raw()["start"] for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert game.new_state(seed=1, start_player=2)._get_raw()["start"] == 2
    solo = cruiselib.make("dream_cruise", players=1)
    assert {solo.new_state(seed=s)._get_raw()["start"] for s in range(10)} == {0}


def test_C25_the_sets_nobody_took_are_discarded_at_the_end_of_phase_3() -> None:
    game = cruiselib.make("dream_cruise", players=2)
    state = _play(game.new_state(seed=3), 3, until="entertainment")
    display = state._get_raw()["display"]
    while state.phase == "entertainment":
        state.apply(state.legal_actions()[0])
    raw = state._get_raw()
    taken = {x for p in range(2) for x in raw["hands"][p]}
    left = {x for cards in display for x in cards} - taken
    assert left and left <= set(raw["ship_discard"])
    assert state.phase == "set_sail"


def test_C26_cards_taken_face_up_are_known_the_face_down_set_is_not() -> None:
    game = cruiselib.make("dream_cruise", players=2)
    state = _play(game.new_state(seed=4), 4, until="entertainment")
    first = state.current_player
    face_up = state._get_raw()["display"][1]
    state.apply(game.rules.a_take + 1)  # the start player takes face-up set 1
    other = state.current_player
    face_down = state._get_raw()["display"][0]
    state.apply(game.rules.a_take + 0)  # the other seat takes the face-down set
    recall = state.view(first, recall=True).recall
    assert recall is not None
    assert set(face_up) <= set(recall[first])
    assert not set(face_down) & set(recall[other])


def test_C27_the_running_score_is_pile_routes_and_half_the_placed_guests() -> None:
    game = cruiselib.make("dream_cruise", players=3)
    state = game.new_state(seed=9)
    rnd = random.Random(9)
    checked = 0
    while not state.is_over:
        view = state.view(0)
        for p, seat in enumerate(view.seats):
            pile = sum(game.cards.families[f].points for f in seat.points_pile)
            placed = sum(len(g) for g in seat.addition_guests)
            if seat.location is not None:
                placed += sum(len(g) for g in seat.location.guests)
            assert state.scores()[p] == pile + state.route_points(p) + placed // 2
            checked += 1
        state.apply(rnd.choice(state.legal_actions()))
    assert checked > 100


def test_C28_jana_scores_her_longest_route_with_one_sea_card() -> None:
    game = cruiselib.make("dream_cruise", players=1)
    state = _play(game.new_state(seed=5), 5)
    raw = state._get_raw()
    locations = [game.cards.locations[x] for x in raw["jana_locations"]]
    counts = [sum(loc.region == r for loc in locations) for r in
              ("east_med", "west_med", "baltic", "arctic", "north_sea", "atlantic")]
    longest = max(counts)
    if longest and any(loc.kind == "sea" for loc in locations):
        longest += 1
    table = (0, 0, *game.route_points)
    pile = sum(game.cards.families[f].points for f in raw["jana_pile"])
    assert state.jana_score() == pile + table[min(longest, 5)]


def test_C29_every_points_pile_is_face_up_jana_s_is_not() -> None:
    game = cruiselib.make("dream_cruise", players=2)
    state = _play(game.new_state(seed=6), 6)
    raw = state._get_raw()
    assert any(raw["pile"])
    for p in range(2):
        assert state.view(1 - p).seats[p].points_pile == raw["pile"][p]
    solo = cruiselib.make("dream_cruise", players=1)
    s = solo.new_state(seed=2)
    rnd = random.Random(2)
    while not s._get_raw()["jana_pile"]:
        s.apply(rnd.choice(s.legal_actions()))
    jana = s.view(0).jana
    assert jana is not None and jana.pile_size == len(s._get_raw()["jana_pile"]) and jana.score is None


def test_returns_of_a_pure_twin_state() -> None:
    """returns() (with the solo rule of C9) works on the pure twin as on the compiled core."""
    for players in (1, 2):
        game = cruiselib.make("dream_cruise", players=players)
        state = game.new_state(seed=4)
        rnd = random.Random(4)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        loaded = game.pure_twin().load_state(state.to_json())
        assert loaded.returns() == state.returns() and len(state.returns()) == players
