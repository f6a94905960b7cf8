"""Dream Cruise on odd card sets (C10: the card data is replaceable): few families besides
the twelve starting ones, one to three location cards, all-sea locations, one to four ship
cards, only additions or only activity cards, the largest set. Games still end (C8, C16,
C20), pass the conformance suite and play alike on the compiled and the pure core.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cruiselib
from cruiselib.dream_cruise import Activity, CardSet, DreamCruiseGame, Family, Location, ShipCard
from cruiselib.testing import check_game

STD = CardSet.standard()
STARTING = tuple(f for f in STD.families if f.start is not None)
OTHERS = tuple(f for f in STD.families if f.start is None)
SHORES = tuple(loc for loc in STD.locations if loc.kind == "shore")
SEAS = tuple(loc for loc in STD.locations if loc.kind == "sea")
ADDITIONS = tuple(s for s in STD.ships if s.kind == "addition")
ACTIVITIES = tuple(s for s in STD.ships if s.kind == "activity")


def odd_set(
    name: str,
    families: int = 5,
    locations: tuple[Location, ...] = SHORES[:3],
    ships: tuple[ShipCard, ...] = (*ADDITIONS[:2], *ACTIVITIES[:2]),
) -> CardSet:
    """The 12 starting families, the first ``families`` others, and the given cards."""
    return CardSet(name=name, families=(*STARTING, *OTHERS[:families]), locations=locations, ships=ships)


# A set wanting only one activity type nobody offers but the captain (C5) and sea cards.
PICKY = CardSet(
    name="picky",
    families=(
        *STARTING,
        Family(name="Picky One", members=6, points=9, wants=("beach",)),
        Family(name="Picky Two", members=1, points=0, wants=("city", "country")),
    ),
    locations=(
        Location(name="Grey Sea", kind="sea", top=Activity(type="sports", capacity=1)),
        Location(name="Grey Port", kind="shore", region="arctic", top=Activity(type="city", capacity=1),
                 bottom=Activity(type="rest", capacity=1)),
    ),
    ships=(ShipCard(name="Tiny Gym", kind="addition", activity=Activity(type="sports", capacity=1)),),
)

# (card set, player counts it is played with): 4 players and solo take any number of other
# families (setup 5 returns none in 4 players; C9 needs difficulty + 1 in solo).
SETS: list[tuple[CardSet, tuple[int, ...]]] = [
    (odd_set("1-family", families=1), (1, 4)),
    (odd_set("2-families-1-location", families=2, locations=SHORES[:1]), (1, 4)),
    (odd_set("3-families-2-locations", families=3, locations=SHORES[:2]), (1, 4)),
    (odd_set("5-families", families=5), (1, 4)),
    (odd_set("13-others", families=13, locations=SHORES[:3]), (3, 4)),
    (odd_set("all-sea", families=5, locations=SEAS[:3]), (1, 4)),
    (odd_set("one-sea", families=4, locations=SEAS[:1]), (1, 4)),
    (odd_set("1-ship", ships=ACTIVITIES[:1]), (1, 4)),
    (odd_set("1-addition", ships=ADDITIONS[:1]), (1, 4)),
    (odd_set("2-ships", ships=(ADDITIONS[0], ACTIVITIES[0])), (1, 4)),
    (odd_set("3-ships", ships=(ADDITIONS[0], *ACTIVITIES[:2])), (1, 4)),
    (odd_set("only-additions", ships=ADDITIONS[:4]), (1, 4)),
    (odd_set("only-activities", ships=ACTIVITIES[:4]), (1, 4)),
    (odd_set("25-others-2p", families=25, locations=(*SHORES[:2], *SEAS[:1])), (2,)),
    (PICKY, (1, 4)),
]
CASES = [(cards, players) for cards, counts in SETS for players in counts]
IDS = [f"{cards.name}-{players}p" for cards, players in CASES]


def make(cards: CardSet, players: int, **options: object) -> DreamCruiseGame:
    game = cruiselib.make("dream_cruise", players=players, cards=cards, **options)
    assert isinstance(game, DreamCruiseGame)
    return game


@pytest.mark.parametrize(("cards", "players"), CASES, ids=IDS)
def test_check_game_on_odd_card_sets(cards: CardSet, players: int) -> None:
    game = make(cards, players)
    n = 6 if cruiselib.compiled else 3
    report = check_game(game, n_games=n, seed=len(cards.families), deep_every=5)
    assert report.games == n and report.deep_checks >= 2 * n


@pytest.mark.slow
@pytest.mark.parametrize(("cards", "players"), CASES, ids=IDS)
def test_check_game_sweep_on_odd_card_sets(cards: CardSet, players: int) -> None:
    report = check_game(make(cards, players), n_games=30, seed=7, deep_every=11)
    assert report.games == 30


@pytest.mark.parametrize(("cards", "players"), CASES, ids=IDS)
def test_every_game_ends(cards: CardSet, players: int) -> None:
    # C8, C16, C20: each round but the last keeps location cards for good, so a game of a
    # set with L location cards has at most L + 1 rounds; the playouts all finish.
    game = make(cards, players)
    result = game.playouts(100 if cruiselib.compiled else 10, seed=3)
    assert (result.lengths > 0).all()
    for seed in range(4):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        assert state.view(0).round <= len(cards.locations) + 1
        assert game.load_state(state.to_json()) == state


@pytest.mark.parametrize(("cards", "players"), CASES, ids=IDS)
def test_compiled_and_pure_agree_on_odd_card_sets(cards: CardSet, players: int) -> None:
    game = make(cards, players)
    pure = game.pure_twin()
    a, b = game.playouts(40, seed=5), pure.playouts(40, seed=5)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.wins, b.wins) and a.actions == b.actions
    s, t = game.new_state(seed=2), pure.new_state(seed=2)
    rnd = random.Random(2)
    while True:
        assert s.to_json() == t.to_json() and s.legal_actions() == t.legal_actions()
        if s.is_over:
            break
        a_ = rnd.choice(s.legal_actions())
        s.apply(a_)
        t.apply(a_)


def test_C20_one_location_card_makes_round_one_the_last() -> None:
    # Round 1: seat 0 draws the only location card; seat 1 must draw one with deck and
    # discard pile empty, so round 1 is the last (C20) and only the first seat keeps a card
    # (C16: the others drew none).
    game = make(odd_set("one", families=2, locations=SHORES[:1]), 4)
    for seed in range(5):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        view = state.view(0)
        assert view.round == 1 and view.final_round
        assert [len(s.played) for s in view.seats] == [1 if q == view.first_player else 0 for q in range(4)]


def test_C20_twelve_location_cards_in_four_players_last_two_rounds() -> None:
    # Round 1: 12 drawn, 4 kept, 8 discarded. Round 2: the discard pile is the new deck
    # (shuffled); the first two seats draw 3, the third 2, then the fourth must draw with
    # nothing left: round 2 is the last (C20) and the fourth seat keeps none (C16).
    game = make(odd_set("twelve", families=5, locations=SHORES[:12]), 4)
    for seed in range(5):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        view = state.view(0)
        assert view.round == 2 and view.final_round
        order = [(view.first_player + t) % 4 for t in range(4)]
        assert [len(view.seats[q].played) for q in order] == [2, 2, 2, 1]


def test_C16_without_ship_cards_left_the_display_has_short_sets() -> None:
    game = make(odd_set("1-ship", ships=ACTIVITIES[:1]), 4)
    state = game.new_state(seed=1)
    while state.phase != "entertainment":
        state.apply(state.legal_actions()[0])
    sizes = [s.size for s in state.view(0).display]
    assert sorted(sizes) == [0, 0, 0, 0, 1]


@pytest.mark.parametrize(("players", "need"), [(2, 25), (3, 13)])
def test_setup_5_a_set_too_small_for_the_player_count_is_refused(players: int, need: int) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=f"need at least {need}"):
        make(odd_set("small", families=need - 1), players)
    make(odd_set("enough", families=need), players)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_C9_solo_needs_difficulty_plus_one_other_families(difficulty: int) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=f"need at least {difficulty + 1}"):
        make(odd_set("small", families=difficulty), 1, difficulty=difficulty)
    game = make(odd_set("enough", families=difficulty + 1), 1, difficulty=difficulty)
    data = game.new_state(seed=1).to_data()
    assert len(data.jana_pile) == difficulty and len(data.family_deck) == 1
    assert check_game(game, n_games=3, seed=1).games == 3


def test_options_on_an_odd_set() -> None:
    cards = odd_set("options", families=4, locations=(*SHORES[:2], *SEAS[:2]), ships=(*ADDITIONS[:3], ACTIVITIES[0]))
    for options in ({"sea_ship_draw": True}, {"additions": 1}, {"additions": 4}, {"route_points": (0, 2, 5, 12)}):
        game = make(cards, 4, **options)
        assert check_game(game, n_games=3, seed=2, deep_every=4).games == 3


def test_a_snapshot_loads_only_with_its_card_set() -> None:
    game = make(odd_set("mine"), 4)
    state = game.new_state(seed=1)
    assert game.load_state(state.to_json()) == state
    with pytest.raises(cruiselib.InvalidStateError, match="custom card set"):
        cruiselib.load_state(state.to_json())
    with pytest.raises(cruiselib.InvalidStateError, match="card set"):
        make(odd_set("other", families=4), 4).load_state(state.to_json())
