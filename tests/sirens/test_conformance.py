"""Sirens in Sight: the public conformance suite over 1,200 seeded games per variant, and
over small and odd card sets, where rare endings (two passes, every ship card gone, ties
of 5 + 5) are common."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
import pytest

import cruiselib
from cruiselib import _core
from cruiselib.sirens import CardSet, SirensGame, SirensState
from cruiselib.testing import ConformanceError, check_game
from tests.sirens.helpers import small_set

N_GAMES = 1200
rng = _core.load("rng")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_check_game(variant: str) -> None:
    game = cruiselib.make("sirens", variant=variant)
    report = check_game(game, n_games=N_GAMES, seed=2026, deep_every=11)
    assert report.games == N_GAMES
    assert report.deep_checks >= N_GAMES * 2
    assert sum(report.finished_by_seat) > N_GAMES // 2


# (card set, variants): 8, 9, 12 and 20 cards, and sets whose cards all have one value.
# Low ship values make scoring common (four points, no ship card left); cards of one value
# end in ties of 5 + 5 (48 or 64 cards of 1: every ship card tied away) or, too few to
# fill a ship card, in two passes (8 cards of 1). An odd set has no two identical emblem
# sets, so no "bow to rear" (S9).
SETS: list[tuple[CardSet, tuple[str, ...]]] = [
    (small_set(8), ("standard", "bow_to_rear")),
    (small_set(9, ships=(3, 6, 9, 12, 15)), ("standard",)),
    (small_set(12, ships=(5, 8, 11, 14, 17)), ("standard", "bow_to_rear")),
    (small_set(20, ships=(6, 10, 14, 18, 22)), ("standard", "bow_to_rear")),
    (small_set(8, value=1), ("standard", "bow_to_rear")),
    (small_set(48, value=1), ("standard", "bow_to_rear")),
    (small_set(64, value=1), ("standard", "bow_to_rear")),
]
CASES = [(cards, variant) for cards, variants in SETS for variant in variants]
IDS = [f"{cards.name}-{variant}" for cards, variant in CASES]


def _sweep(cards: CardSet, variant: str, n_games: int, deep_every: int) -> None:
    game = cruiselib.make("sirens", variant=variant, cards=cards)
    report = check_game(game, n_games=n_games, seed=len(cards.cards), deep_every=deep_every)
    assert report.games == n_games and report.deep_checks >= 2 * n_games


@pytest.mark.parametrize(("cards", "variant"), CASES, ids=IDS)
def test_check_game_on_small_card_sets(cards: CardSet, variant: str) -> None:
    _sweep(cards, variant, n_games=4, deep_every=3)


@pytest.mark.slow
@pytest.mark.parametrize(("cards", "variant"), CASES, ids=IDS)
def test_check_game_sweep_on_small_card_sets(cards: CardSet, variant: str) -> None:
    _sweep(cards, variant, n_games=300, deep_every=5)


@pytest.mark.parametrize(("cards", "variant"), CASES, ids=IDS)
def test_compiled_and_pure_playouts_agree_on_small_card_sets(cards: CardSet, variant: str) -> None:
    game = cruiselib.make("sirens", variant=variant, cards=cards)
    a, b = game.playouts(300, seed=5), game.pure_twin().playouts(300, seed=5)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.wins, b.wins) and a.actions == b.actions


def test_small_card_sets_reach_the_rare_endings() -> None:
    # The sweeps above are only worth their name if these endings occur in them.
    seen = set()
    for cards, _ in SETS:
        game = cruiselib.make("sirens", cards=cards)
        for seed in range(40):
            state = game.new_state(seed=seed)
            rnd = random.Random(seed)
            while not state.is_over:
                state.apply(rnd.choice(state.legal_actions()))
            data = state.to_data()
            if data.passes == 2:
                seen.add("two passes")
            if all(st != -1 for st in data.ships):
                seen.add("no ship card left")
            if 2 in data.ships:
                seen.add("a tie removed a ship card")
            if max(state.scores()) >= 4:
                seen.add("four points")
    assert seen == {"two passes", "no ship card left", "a tie removed a ship card", "four points"}


class _UnsortedState(SirensState):
    __slots__ = ()

    def legal_actions(self) -> list[int]:
        return list(reversed(super().legal_actions()))


class _LeakyState(SirensState):
    __slots__ = ()

    def view(self, player: int, *, recall: bool = False) -> Any:
        # Leaks the opponent's hand: a resampled state cannot match this view.
        view = super().view(player)
        return msgspec.structs.replace(view, hand=view.hand + super().view(1 - player).hand)


def _game_with(state_class: type[SirensState]) -> SirensGame:
    class Game(SirensGame):
        def new_state(self, seed: Any = None, start_player: int | None = None) -> SirensState:
            state = state_class(self.rules, self)
            state._new_game(rng.seed_state(seed), -1)
            return state

        def _from_data(self, data: Any) -> SirensState:
            state = super()._from_data(data)
            twin = state_class(self.rules, self)
            _core.load("sirens_snapshot").set_raw(twin, state._get_raw())
            return twin

    return Game()


@pytest.mark.parametrize(
    ("state_class", "match"),
    [(_UnsortedState, "not sorted"), (_LeakyState, "not consistent with view")],
)
def test_check_game_catches_a_broken_game(state_class: type[SirensState], match: str) -> None:
    with pytest.raises(ConformanceError, match=match):
        check_game(_game_with(state_class), n_games=3, seed=1)


def test_fast_random_path_lists_the_same_actions_as_legal_actions() -> None:
    # The in-core playouts draw from a counting fast path; it must list exactly the
    # legal actions, in order, in every position.
    rnd = random.Random(5)
    for variant in ("standard", "bow_to_rear"):
        game = cruiselib.make("sirens", variant=variant)
        for seed in range(40):
            state = game.new_state(seed=seed)
            while not state.is_over:
                legal = state.legal_actions()
                assert state._fast_legal() == legal
                state.apply(rnd.choice(legal))


@pytest.mark.parametrize(("cards", "variant"), CASES, ids=IDS)
def test_random_action_is_the_kth_legal_action(cards: CardSet, variant: str) -> None:
    # The playouts' choice for a 64-bit value r is the k-th sorted legal action,
    # k = ((r >> 32) * n) >> 32, in every phase (found without listing them), and the
    # counting fast path lists exactly the legal actions: on small, odd and one-value sets.
    game = cruiselib.make("sirens", variant=variant, cards=cards)
    rnd = random.Random(len(cards.cards))
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_over:
            legal = state.legal_actions()
            assert state._fast_legal() == legal
            for _ in range(8):
                r = rnd.getrandbits(64)
                assert state.random_action(r) == legal[((r >> 32) * len(legal)) >> 32]
            state.apply(rnd.choice(legal))
