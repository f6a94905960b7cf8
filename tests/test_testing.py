"""The conformance suite checks itself: wrong arguments, and games that break an invariant."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib.dream_cruise.game import DreamCruiseState
from cruiselib.sirens import SirensState
from cruiselib.testing import ConformanceError, check_game


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"deep_every": 0}, "deep_every"),
        ({"deep_every": -3}, "deep_every"),
        ({"seed": "x"}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"n_games": -1}, "n_games"),
        ({"n_games": 2.0}, "n_games"),
        ({"n_games": True}, "n_games"),
        ({"max_actions": 0}, "max_actions"),
    ],
)
def test_wrong_arguments_raise_invalid_option(options: dict[str, Any], match: str) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=match):
        check_game(cruiselib.make("sirens"), **options)


def test_a_game_is_required() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="cruiselib game"):
        check_game("sirens")  # type: ignore[arg-type]


def _game_with(state_class: type[SirensState]) -> Any:
    game = cruiselib.make("sirens")
    game._state_class = state_class
    return game


class LeakyResample(SirensState):
    """A resample that ignores its seed: it hands back the real cards."""

    __slots__ = ()

    def resample(self, player: int, seed: int | str | bytes | None = None, *, recall: bool = False) -> LeakyResample:
        return self.clone()


class WrongWinners(SirensState):
    """Names seat 0 the winner of every finished game, whatever the score."""

    __slots__ = ()

    def winners(self) -> list[int]:
        return [0] if self.is_over else []


class NoWinnerEver(SirensState):
    __slots__ = ()

    def winners(self) -> list[int]:
        return []


def test_a_resample_that_ignores_its_seed_is_caught() -> None:
    with pytest.raises(ConformanceError, match="resample"):
        check_game(_game_with(LeakyResample), n_games=1)


def test_winners_without_the_best_score_are_caught() -> None:
    with pytest.raises(ConformanceError, match="best score"):
        check_game(_game_with(WrongWinners), n_games=20)


def test_no_winner_in_a_game_without_draws_is_caught() -> None:
    game = _game_with(NoWinnerEver)
    game.draws_possible = False  # Sirens has draws (S8); pretend it had none
    with pytest.raises(ConformanceError, match="without a winner"):
        check_game(game, n_games=3)


class SkewedRandomAction(SirensState):
    """A random_action that is not the choice the core's playouts make."""

    __slots__ = ()

    def random_action(self, r: int) -> int:
        return self.legal_actions()[-1]


def test_playouts_that_a_python_loop_does_not_reproduce_are_caught() -> None:
    with pytest.raises(ConformanceError, match="Python loop"):
        check_game(_game_with(SkewedRandomAction), n_games=1)


class HidesDone(DreamCruiseState):
    """Leaves ``done`` (the highest action id) out of legal_actions, the mask and is_legal
    whenever another move is legal, while the core's apply still takes it."""

    __slots__ = ()

    def _hidden(self) -> int:
        legal = DreamCruiseState.legal_actions(self)
        done = self.game.num_actions - 1
        return done if len(legal) > 1 and legal[-1] == done else -1

    def legal_actions(self) -> list[int]:
        hidden = self._hidden()
        return [a for a in DreamCruiseState.legal_actions(self) if a != hidden]

    def action_mask(self) -> Any:
        mask = DreamCruiseState.action_mask(self)
        hidden = self._hidden()
        if hidden >= 0:
            mask[hidden] = 0
        return mask

    def is_legal(self, action: object) -> bool:
        return action != self._hidden() and DreamCruiseState.is_legal(self, action)


class HidesOneInTheMiddle(HidesDone):
    """Leaves out the second of three or more legal actions: no edge of the action space
    or of the listed range, so only a check of every id finds it."""

    __slots__ = ()

    def _hidden(self) -> int:
        legal = DreamCruiseState.legal_actions(self)
        return legal[1] if len(legal) >= 3 and legal[2] - legal[0] > 2 else -1


def _dream_cruise_with(state_class: type[DreamCruiseState]) -> Any:
    game = cruiselib.make("dream_cruise")
    game._state_class = state_class
    return game


def test_an_action_apply_takes_but_the_listings_hide_is_caught() -> None:
    game = _dream_cruise_with(HidesDone)
    with pytest.raises(ConformanceError, match="done"):
        check_game(game, n_games=2)


def test_an_action_hidden_inside_the_listed_range_is_caught() -> None:
    game = _dream_cruise_with(HidesOneInTheMiddle)
    with pytest.raises(ConformanceError, match=r"core's legality check differs from legal_actions.*accepted by apply"):
        check_game(game, n_games=2)
