"""Sirens in Sight: a resample depends only on what the seat sees and on the seed.

Information-set search deals its root anew with ``resample(seat, seed)``, so two states
that look the same to the seat (equal ``view(seat, recall)``) must give the same deal for
the same seed, whatever the hidden cards are and in whatever order they lie: the other
hand, the order of every pile and, in the variant, the other seat's picks and pick floor.
Checked on positions reached by play in both variants and small, standard and 64-card
sets (every phase: pick, main, after, crew, over), and on positions whose hidden cards
were rearranged by hand and loaded.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.sirens import Card, CardSet, SirensGame, SirensState
from tests.sirens.helpers import SHIPS, small_set

# 64 cards, two identical emblem sets of 32 faces: card ids up to 63 (the core's 64-bit
# card sets are full).
BIG = CardSet(
    name="big-64",
    cards=tuple(Card(v - 10, e, v < 10) for v in range(32) for e in ("seastar", "shell")),
    ships=SHIPS,
)
LOW = (5, 8, 11, 14, 17)  # low ship values: ships score often, games end every way
# (variant, card set or None for the standard set)
CONFIGS: list[tuple[str, CardSet | None]] = [
    ("standard", None),
    ("bow_to_rear", None),
    ("standard", small_set(8)),
    ("bow_to_rear", small_set(8)),
    ("standard", small_set(12, ships=LOW)),
    ("bow_to_rear", small_set(12, ships=LOW)),
    ("standard", BIG),
    ("bow_to_rear", BIG),
]
IDS = [f"{v}-{c.name if c else 'standard'}" for v, c in CONFIGS]
SEEDS = (11, 12)  # the twins: the same position dealt anew, as the search's root would be


def _game(variant: str, cards: CardSet | None) -> SirensGame:
    game = cruiselib.make("sirens", variant=variant, cards=cards)
    assert isinstance(game, SirensGame)
    return game


def _played(game: SirensGame, games: int, seed: int) -> list[SirensState]:
    """Every position of ``games`` random games, the final one of each included."""
    out = []
    for k in range(games):
        rnd = random.Random(seed * 1000 + k)
        state = game.new_state(seed=seed * 1000 + k)
        while not state.is_over:
            out.append(state.clone())
            state.apply(rnd.choice(state.legal_actions()))
        out.append(state)
    return out


def _check(state: SirensState, p: int, recall: bool) -> bool:
    """The property: states that look the same to ``p`` resample alike. Returns whether
    the twins differed (so the check compared different hidden deals)."""
    view = state.view(p, recall=recall)
    twins = [state.resample(p, s, recall=recall) for s in SEEDS]
    want = state.resample(p, 99, recall=recall).to_json()
    for twin in twins:
        assert twin.view(p, recall=recall) == view
        assert twin.resample(p, 99, recall=recall).to_json() == want, (state.to_json(), p, recall)
    return twins[0].to_json() != twins[1].to_json()


def _floors(game: SirensGame, seat: int) -> list[int]:
    """The pick floors the loader accepts for ``seat`` after the picks (S14): a face of its
    set with at least 4 of its cards at or below it."""
    emblem = ("seastar", "shell")[seat]
    faces = [game.rules.face_of(i) for i, c in enumerate(game.cards.cards) if c.emblem == emblem]
    return sorted({f for f in faces if sum(g <= f for g in faces) >= 4})


def _rearranged(state: SirensState, p: int, rnd: random.Random) -> SirensState | None:
    """A state that looks the same to ``p`` (outside the pick phase): the unseen cards
    dealt anew between the other hand and the pile(s) they may lie in, every hand and pile
    in a new order, and in the variant another pick floor for the other seat. None during
    the picks, whose hidden cards the loader pins down (tests there use resampled twins)."""
    game = state.game
    d: dict[str, Any] = msgspec.to_builtins(state.to_data())
    if d["phase"] == "pick":
        return None
    d["deal"] = None
    d["history"] = []
    opp = 1 - p
    hands, piles = d["hands"], d["piles"]
    q = 0 if len(piles) == 1 else opp
    pool = hands[opp] + piles[q]
    rnd.shuffle(pool)
    hands[opp], piles[q] = pool[: len(hands[opp])], pool[len(hands[opp]) :]
    rnd.shuffle(hands[p])
    for pile in piles:
        rnd.shuffle(pile)
    if len(piles) == 2:
        d["pick_floor"][opp] = rnd.choice(_floors(game, opp))
    return game.load_state(d)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_equal_views_give_equal_resamples_at_every_position(index: int) -> None:
    game = _game(*CONFIGS[index])
    states = _played(game, 1, index)
    phases = set()
    differed = 0
    for state in states:
        phases.add(state.phase_name)
        for p in (0, 1):
            for recall in (False, True):
                differed += _check(state, p, recall)
    assert {"main", "over"} <= phases
    assert ("pick" in phases) == (game.variant == "bow_to_rear")
    assert differed > len(states)  # the twins mostly hid different deals


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_rearranged_hidden_deal_resamples_alike(index: int) -> None:
    """Positions loaded with the hidden cards moved, reordered and (variant) another
    hidden pick floor: the same view, the same resample for every seed."""
    game = _game(*CONFIGS[index])
    rnd = random.Random(index)
    changed = 0
    for state in _played(game, 1, 50 + index)[::2]:
        for p in (0, 1):
            twin = _rearranged(state, p, rnd)
            if twin is None:
                continue
            changed += twin.to_json() != state.to_json()
            for recall in (False, True):
                assert twin.view(p, recall=recall) == state.view(p, recall=recall)
                for seed in (1, 2):
                    want = state.resample(p, seed, recall=recall).to_json()
                    assert twin.resample(p, seed, recall=recall).to_json() == want
    assert changed > 0


def test_every_phase_and_ending_is_covered() -> None:
    """The sweep above meets every phase; random games end every way (S8): a seat at 4
    points, no ship card left in play (common with the standard set), two passes in a row
    (common with small sets), and the final positions resample alike."""
    phases: set[str] = set()
    endings: set[str] = set()
    for index, config in enumerate(CONFIGS):
        game = _game(*config)
        for state in _played(game, 1, index):
            phases.add(state.phase_name)
    for config in (CONFIGS[0], CONFIGS[1], CONFIGS[4]):
        game = _game(*config)
        for state in _played(game, 6, 7):
            if state.is_over:
                endings.add(_ending(state))
                for p in (0, 1):
                    for recall in (False, True):
                        _check(state, p, recall)
    assert phases == {"pick", "main", "after", "crew", "over"}
    assert endings == {"points", "no ship", "passes"}


def _ending(state: SirensState) -> str:
    d = state.to_data()
    if d.passes == 2:
        return "passes"
    if all(s != -1 for s in d.ships):
        return "no ship"
    return "points"


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
@pytest.mark.parametrize("cards", [None, small_set(8), BIG], ids=["standard", "small-8", "big-64"])
def test_the_start_the_picks_and_the_last_decision(variant: str, cards: CardSet | None) -> None:
    """A new game (variant: before any pick), every pick of the pick phase (the start
    player's picks hidden from the other seat, then the other seat's), the first main
    position and the last decision of a game."""
    game = _game(variant, cards)
    for seed in range(3):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        last = state
        first_main = None
        while not state.is_over:
            if state.phase_name == "pick" or first_main is None:
                for p in (0, 1):
                    for recall in (False, True):
                        _check(state, p, recall)
                if state.phase_name == "main":
                    first_main = state
            last = state.clone()
            state.apply(rnd.choice(state.legal_actions()))
        for p in (0, 1):
            for recall in (False, True):
                _check(last, p, recall)
                _check(state, p, recall)
        assert first_main is not None


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_a_nearly_empty_pile(variant: str) -> None:
    """The pile(s) with two, one and no cards left: every position until the game ends."""
    game = _game(variant, small_set(12, ships=LOW))
    seen = set()
    for seed in range(6):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            d = state.to_data()
            left = min(len(pile) for pile in d.piles)
            if d.phase != "pick" and left <= 2:
                seen.add(left)
                for p in (0, 1):
                    for recall in (False, True):
                        _check(state, p, recall)
                    twin = _rearranged(state, p, rnd)
                    assert twin is not None and twin.view(p) == state.view(p)
                    assert twin.resample(p, 5).to_json() == state.resample(p, 5).to_json()
            state.apply(rnd.choice(state.legal_actions()))
    assert seen == {0, 1, 2}


def test_the_hidden_pick_floor_is_canonical() -> None:
    """After the picks the other seat's pick floor (the face of its fourth pick) is hidden:
    a resample sets the lowest floor its set allows, whatever the real one was."""
    game = _game("bow_to_rear", None)
    state = game.new_state(seed=3)
    rnd = random.Random(3)
    while state.phase_name == "pick":
        state.apply(rnd.choice(state.legal_actions()))
    for p in (0, 1):
        opp = 1 - p
        floors = _floors(game, opp)
        assert len(floors) > 1
        other = state.resample(p, 4)
        assert other.to_data().pick_floor[opp] == floors[0]
        assert other.to_data().pick_floor[p] == state.to_data().pick_floor[p]  # its own: kept
        game.load_state(other.to_json())


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_equal_views_give_equal_resamples_over_many_games(index: int) -> None:
    game = _game(*CONFIGS[index])
    rnd = random.Random(index)
    for state in _played(game, 6, 100 + index):
        for p in (0, 1):
            for recall in (False, True):
                _check(state, p, recall)
            twin = _rearranged(state, p, rnd)
            if twin is not None:
                assert twin.resample(p, 8).to_json() == state.resample(p, 8).to_json()
