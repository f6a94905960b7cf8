"""Sirens in Sight: the public conformance suite over 2,000 seeded games per variant."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib import _core
from cruiselib.sirens import SirensGame, SirensState
from cruiselib.testing import ConformanceError, check_game

N_GAMES = 2000
rng = _core.load("rng")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_check_game(variant: str) -> None:
    game = cruiselib.make("sirens", variant=variant)
    report = check_game(game, n_games=N_GAMES, seed=2026, deep_every=11)
    assert report.games == N_GAMES
    assert report.deep_checks >= N_GAMES * 2
    assert sum(report.finished_by_seat) > N_GAMES // 2


class _UnsortedState(SirensState):
    __slots__ = ()

    def legal_actions(self) -> list[int]:
        return list(reversed(super().legal_actions()))


class _LeakyState(SirensState):
    __slots__ = ()

    def view(self, player: int) -> Any:
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
            twin._set_raw(state._get_raw())
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
