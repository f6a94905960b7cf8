"""The conformance suite checks itself: wrong arguments, and games that break an invariant."""

from __future__ import annotations

from typing import Any

import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.dream_cruise.game import DreamCruiseState
from cruiselib.sirens import SirensGame, SirensState
from cruiselib.testing import ConformanceError, check_declarations, check_game
from tests.support import ANY_GAME


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
        check_game(cruiselib.make(ANY_GAME), **options)


def test_a_game_is_required() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="cruiselib game"):
        check_game(ANY_GAME)  # type: ignore[arg-type]


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


# --- the declarations for the integrations (check_declarations, run by check_game) ------


@pytest.mark.parametrize("name", cruiselib.games())
def test_every_registered_game_declares_what_the_integrations_read(name: str) -> None:
    for options in game_class(name).example_configurations:
        check_declarations(cruiselib.make(name, **options))


def _declaring(**declarations: Any) -> Any:
    """A two-seat Sirens game whose object carries the given declarations."""
    game: Any = SirensGame()
    for key, value in declarations.items():
        setattr(game, key, value)
    return game


@pytest.mark.parametrize(
    ("declarations", "match"),
    [
        ({"player_counts": (3, 4)}, r"player_counts \(3, 4\) leaves out this game's 2 seats"),
        ({"player_counts": (2, 1)}, "player_counts is .*not an ascending tuple"),
        ({"player_counts": [2]}, "player_counts is .*not an ascending tuple"),
        ({"player_counts": (2, 2)}, "player_counts is .*not an ascending tuple"),
        ({"player_counts": ()}, "player_counts is .*not an ascending tuple"),
        ({"example_configurations": ()}, "example_configurations is"),
        ({"example_configurations": [{}]}, "example_configurations is"),
        ({"example_configurations": ("variant",)}, r"example_configurations is \('variant',\), not a non-empty tuple"),
        ({"example_configurations": ({"variant": "sideways"},)}, "example configuration .*sideways.* is refused"),
        ({"example_configurations": ({"colour": "red"},)}, "example configuration .*colour.* is refused"),
        ({"rule_bot": "cruiselib.sirens.rulebot.RuleBot"}, "not 'package.module:Class'"),
        ({"rule_bot": 7}, "not 'package.module:Class'"),
        ({"rule_bot": "cruiselib.sirens.rulebot:NoSuchBot"}, "names no class"),
        ({"rule_bot": "cruiselib.no_such_module:RuleBot"}, "names no class"),
        ({"rule_bot": "cruiselib.sirens.rulebot:__name__"}, "names no class"),
        ({"rule_bot": "cruiselib.errors:CruiseError"}, "without choose and analyse"),
        ({"search": {"score_weight": 1.0}}, "search is .*not a SearchDefaults"),
        ({"openspiel": "cruiselib_sirens"}, "openspiel is .*not an OpenSpielSpec or None"),
        ({"web": ("cruiselib.sirens", "board.js")}, "web is .*not a WebBoard or None"),
        ({"annotated_moves": 1}, "annotated_moves is 1, not a bool"),
    ],
)
def test_a_bad_declaration_is_caught(declarations: dict[str, Any], match: str) -> None:
    game = _declaring(**declarations)
    with pytest.raises(ConformanceError, match=match):
        check_declarations(game)
    with pytest.raises(ConformanceError, match=match):
        check_game(game, n_games=0)  # checked before the first game


def test_declarations_that_may_be_none_are_accepted() -> None:
    check_declarations(_declaring(rule_bot=None, openspiel=None, web=None))


def test_an_example_configuration_of_another_game_class_is_caught() -> None:
    other = next(name for name in cruiselib.games() if not issubclass(SirensGame, game_class(name)))
    game = _declaring(name=other, example_configurations=({},))  # make() gives another class
    with pytest.raises(ConformanceError, match=f"makes a {game_class(other).__name__}, not a game of this class"):
        check_declarations(game)


def test_an_example_configuration_with_an_undeclared_seat_count_is_caught() -> None:
    name = next(n for n in cruiselib.games() if len(game_class(n).player_counts) > 1)
    game: Any = cruiselib.make(name)
    other = next(c for c in game_class(name).player_counts if c != game.num_players)
    game.player_counts = (game.num_players,)
    game.example_configurations = ({"players": other},)
    with pytest.raises(ConformanceError, match=f"has {other} seats, not one of player_counts"):
        check_declarations(game)


def test_check_declarations_needs_a_game() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="cruiselib game"):
        check_declarations("not a game")  # type: ignore[arg-type]
