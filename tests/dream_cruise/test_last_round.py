"""Dream Cruise: a snapshot's ``final_round`` flag follows from the rest of the position.

The round is the last when its phase 2 finds fewer location cards than three per seat
(C20; a seat that draws none keeps none, C16), or when its boarding must draw from an
empty family deck (C8, C16). A snapshot whose flag disagrees is refused on load: with the
flag cleared in a C20 round, play went on into a round the cards kept cannot make, and the
state reached stopped loading. The draws that decide the flag (location cards drawn and
kept per seat, Jana's location cards, the family deck's size, the empty cabins) must fit
too, or play from the snapshot would decide it differently from the loader.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_cruise import CardSet, DreamCruiseGame

STD = CardSet.standard()
STARTING = tuple(f for f in STD.families if f.start is not None)
OTHERS = tuple(f for f in STD.families if f.start is None)
SHORES = tuple(loc for loc in STD.locations if loc.kind == "shore")
SEAS = tuple(loc for loc in STD.locations if loc.kind == "sea")

LAST = r"final_round is (True|False), but round \d+ is (not )?the last.*\(C20\).*\(C8, C16\)"
OVER = r"the game ended in a round that was not the last \(C8\)"


def make(players: int, locations: int | None = None) -> DreamCruiseGame:
    """A game of ``players``; with ``locations``, on a custom set of that many location cards
    (shore and sea alike) and 25 families besides the starting ones (enough for 2 players)."""
    if locations is None:
        game = cruiselib.make("dream_cruise", players=players)
    else:
        cards = CardSet(
            name=f"{locations}-locations",
            families=(*STARTING, *OTHERS[:25]),
            locations=(*SHORES[: locations - locations // 2], *SEAS[: locations // 2]),
            ships=STD.ships[:8],
        )
        game = cruiselib.make("dream_cruise", players=players, cards=cards)
    assert isinstance(game, DreamCruiseGame)
    return game


def played(game: DreamCruiseGame, seed: int) -> Iterator[dict[str, Any]]:
    """The decoded snapshot of every position of a seeded random game, the last included."""
    state = game.new_state(seed=seed)
    rnd = random.Random(seed)
    while True:
        yield msgspec.to_builtins(state.to_data())
        if state.is_over:
            return
        state.apply(rnd.choice(state.legal_actions()))


def refused_by_both_cores(game: DreamCruiseGame, data: dict[str, Any], match: str) -> None:
    for loader in (game, game.pure_twin()):
        with pytest.raises(cruiselib.InvalidStateError, match=match):
            loader.load_state(json.dumps(data))


def c20_round(game: DreamCruiseGame, seeds: range) -> list[dict[str, Any]]:
    """The positions of the first seeded game that ends by C20 with a seat keeping no
    location card, from the end of the last round's phase 2 on."""
    for seed in seeds:
        found = [
            d
            for d in played(game, seed)
            if d["phase"] not in ("boarding", "set_course")
            and d["final_round"]
            and any(s["location"] < 0 for s in d["seats"])
        ]
        if found:
            return found
    raise AssertionError("no game of these seeds ended by C20 with a seat keeping no location card")


def test_C20_three_players_last_round_with_the_flag_cleared_is_refused() -> None:
    # 3 players, 54 location cards: round 17's phase 2 finds 54 - 3 * 16 = 6, so the third seat
    # in turn order draws none and keeps none (C16), and the round is the last (C20).
    game = make(3)
    positions = c20_round(game, range(40))
    assert positions[0]["round"] == 17
    for data in positions:
        game.load_state(json.dumps(data))  # the control loads
        refused_by_both_cores(game, {**data, "final_round": False}, OVER if data["phase"] == "over" else LAST)


def test_C20_the_flag_cleared_let_play_reach_a_position_that_does_not_load() -> None:
    # What the refusal prevents: the same position, loaded without the position checks
    # (``history=False``, as rule tests do), plays on past its last round into a round that
    # the location cards kept cannot make.
    game = make(3)
    data = {**c20_round(game, range(40))[-2], "final_round": False}
    struct = msgspec.json.decode(json.dumps(data), type=game.state_data_type)
    state = game._state_class(game.rules, game)
    state._load(struct, history=False)
    state._start_history(struct, ())
    rnd = random.Random(0)
    error = ""
    while not state.is_over and not error:
        state.apply(rnd.choice(state.legal_actions()))
        try:
            game.load_state(state.to_json())
        except cruiselib.InvalidStateError as exc:
            error = str(exc)
    assert re.search(r"kept 16 location card\(s\) by round 18", error), error


@pytest.mark.parametrize("locations", [1, 5])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_C20_custom_sets_of_few_location_cards_every_flag_flipped_is_refused(players: int, locations: int) -> None:
    # One location card: round 1's phase 2 finds it, and round 1 is the last for every player
    # count. Five: the last is round 1 with 2 to 4 players and round 2 in solo (2 left for
    # the player's three draws, Jana took 2, C9).
    game = make(players, locations)
    last = 2 if (players, locations) == (1, 5) else 1
    for seed in range(3):
        for data in played(game, seed):
            assert data["final_round"] == (data["round"] == last and data["phase"] != "boarding")
            flipped = {**data, "final_round": not data["final_round"]}
            refused_by_both_cores(game, flipped, OVER if data["phase"] == "over" else LAST)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_flag_flipped_at_every_position_of_a_game_is_refused(players: int) -> None:
    # Games of the standard set end by the family deck (C8) or by the locations (C20).
    game = make(players)
    for data in played(game, seed=players):
        flipped = {**data, "final_round": not data["final_round"]}
        refused_by_both_cores(game, flipped, OVER if data["phase"] == "over" else LAST)


def first(game: DreamCruiseGame, seed: int, phase: str, round_: int = 2) -> dict[str, Any]:
    return next(d for d in played(game, seed) if d["phase"] == phase and d["round"] >= round_)


def test_a_seat_that_drew_no_location_card_in_a_round_that_is_not_the_last_is_refused() -> None:
    # Its three cards back in the deck, it would keep none, and the next round would not load.
    game = make(3)
    data = first(game, 1, "set_course")
    later = data["seats"][(data["first_player"] + 2) % 3]
    data["location_deck"] += later["drawn"]
    later["drawn"] = []
    refused_by_both_cores(game, data, r"holds 0 drawn location card\(s\); its draw in phase 2 found 3 \(C14, C16\)")


def test_a_current_location_card_dropped_in_a_round_that_is_not_the_last_is_refused() -> None:
    game = make(3)
    data = first(game, 1, "set_sail")
    seat = data["seats"][0]
    data["location_deck"].append(seat["played"].pop())
    seat["location"] = -1
    refused_by_both_cores(game, data, r"seat 0 drew 3 location card\(s\) this round and keeps one")


def test_solo_Janas_location_cards_follow_the_rounds() -> None:
    # C9: the two location cards the player does not keep go to Jana; one more of hers from the
    # deck would make the deck run out a round early.
    game = make(1)
    data = first(game, 1, "set_sail", 3)
    data["jana_locations"].append(data["location_deck"].pop())
    refused_by_both_cores(game, data, r"Jana holds \d+ location card\(s\) by round 3.*\(C9\)")


def test_the_family_deck_holds_what_the_draws_left() -> None:
    # A family card from the deck to the discard pile: the deck would run out (C8) a draw
    # earlier than the piles and cabins say.
    game = make(3)
    data = first(game, 2, "set_sail", 3)
    data["family_discard"].append(data["family_deck"].pop())
    refused_by_both_cores(game, data, r"card\(s\) in the family deck; the \d+ drawn by round 3 leave")


def test_an_empty_cabin_after_boarding_in_a_round_that_is_not_the_last_is_refused() -> None:
    # Its family to the discard pile: next round's boarding would draw two more than the
    # points piles account for.
    game = make(3)
    data = next(
        d
        for d in played(game, 2)
        if d["phase"] == "set_sail" and any(game.cards.families[f].start is None for f in d["seats"][1]["families"])
    )
    seat = data["seats"][1]
    c = next(c for c, f in enumerate(seat["families"]) if game.cards.families[f].start is None)
    data["family_discard"].append(seat["families"][c])
    seat["families"][c] = -1
    seat["figures_left"][c] = 0
    for spot in (*seat["location_guests"], *seat["addition_guests"]):
        if c in spot:
            spot.remove(c)
    refused_by_both_cores(game, data, r"seat 1: 1 empty cabin\(s\) and 0 drawn family card\(s\)")


def test_a_round_after_the_last_is_refused() -> None:
    # 4 players, 54 location cards: round 12 finds 10 and is the last (C20); a round 13 with
    # every seat keeping one a round cannot be.
    game = make(4)
    data = next(d for d in played(game, 0) if d["phase"] == "set_sail")
    assert data["round"] == 1
    data["round"] = 13
    spare = data["location_deck"] + data["location_discard"]
    data["location_deck"], data["location_discard"] = spare[48:], []
    for p, seat in enumerate(data["seats"]):
        seat["played"] = [*spare[12 * p : 12 * p + 12], *seat["played"]]
    refused_by_both_cores(game, data, r"round 12 was the last: its phase 2 found 10 location card\(s\)")
