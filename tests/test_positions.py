"""Positions from descriptions, over every registered game: the contract of
:mod:`cruiselib.positions` that every game offers alike (each game's own folder tests its
description's problems, its text and the rulebook's worked examples).

- a state reached by play, described and set up again, is the same position (its history
  aside, and which of two identical cards is which), by the description, its compact text
  and its JSON alike, and plays on the same;
- one seat's view sets up a state that seat cannot tell from the original;
- anything that is not a description is refused with the problems named, by both cores
  alike, and builds nothing;
- the protocol, the command line and the terminal set up the same positions.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib._registry import game_class
from cruiselib.positions import MAX_POSITION_TEXT
from cruiselib.protocol import Engine
from tests.support import configuration_id, every_configuration, one_per_game, plays_on_alike, random_game

CONFIGURATIONS = every_configuration()
IDS = [configuration_id(name, options) for name, options in CONFIGURATIONS]
GAMES = one_per_game()
GAME_IDS = [name for name, _ in GAMES]
POSITIONS_PER_GAME = 4


def _positions(game: Any, seed: int) -> list[Any]:
    """A few positions of one random game: its start, some middle ones and its end."""
    states = random_game(game, seed)
    picks = {0, len(states) - 1, *random.Random(seed).sample(range(len(states)), min(POSITIONS_PER_GAME, len(states)))}
    return [states[i] for i in sorted(picks)]


def test_every_game_offers_positions() -> None:
    for name in cruiselib.games():
        game = cruiselib.make(name)
        assert game_class(name).positions is not None, name
        schema = game.json_schemas()["position"]
        assert schema["$ref"].endswith(game.position_type.__name__)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_a_described_position_is_set_up_as_it_was(name: str, options: dict[str, Any]) -> None:
    game: Any = cruiselib.make(name, **options)
    for k, state in enumerate(_positions(game, seed=11)):
        described = game.describe(state)
        assert described.seat is None
        assert game.position_problems(described) == []
        rebuilt = game.from_position(described)
        # The same position: a description holds everything a state does but which of two
        # identical cards is which (Sirens' cards of one face; the other games' cards are
        # all different, so their states are equal).
        assert game.describe(rebuilt) == described, f"position {k}"
        assert rebuilt.history == []
        text = game.position_text(state)
        assert "\n" not in text and len(text) <= MAX_POSITION_TEXT
        assert game.read_position(text) == described
        assert game.from_position(text) == rebuilt
        as_json = json.loads(msgspec.json.encode(described))
        assert game.from_position(as_json) == rebuilt
        plays_on_alike(state.clone(), rebuilt, seed=k, same=game.describe)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_a_seat_s_view_sets_up_a_state_the_seat_cannot_tell_from_the_original(
    name: str, options: dict[str, Any]
) -> None:
    game: Any = cruiselib.make(name, **options)
    for state in _positions(game, seed=12):
        for seat in range(game.num_players):
            described = game.describe(state, seat)
            assert described.seat == seat
            text = game.position_text(state, seat)
            assert game.read_position(text) == described
            built = game.from_position(text, seed=5)
            assert game.describe(built, seat) == described
            assert built.current_player == state.current_player and built.is_over == state.is_over
            # The same seed deals the hidden rest the same way.
            assert game.from_position(described, seed=5) == built


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_a_seat_s_view_deals_what_it_hides_at_random(name: str, options: dict[str, Any]) -> None:
    # Somewhere in a game each seat has something hidden from it: different seeds then deal
    # it differently (and never differently in what the seat sees).
    game: Any = cruiselib.make(name, **options)
    dealt = set()
    for state in _positions(game, seed=13):
        described = game.describe(state, 0)
        for seed in range(4):
            built = game.from_position(described, seed=seed)
            assert game.describe(built, 0) == described
            dealt.add(game.position_text(built))
    assert len(dealt) > POSITIONS_PER_GAME + 2


def _not_descriptions(game: Any, other: Any) -> list[tuple[str, Any]]:
    state = game.new_state(seed=1)
    described = json.loads(msgspec.json.encode(game.describe(state)))
    return [
        ("a number", 42),
        ("bytes", b"position"),
        ("None", None),
        ("a list", [1, 2, 3]),
        ("an empty text", ""),
        ("a text of nothing", "this is no position"),
        ("a text with a NUL", "\x00" * 10),
        ("an overlong text", "x" * (MAX_POSITION_TEXT + 1)),
        ("an empty mapping", {}),
        ("an unknown field", {**described, "colour": "red"}),
        ("a field of the wrong type", dict.fromkeys(described, "wrong")),
        ("a mapping too big", {**described, "seat": list(range(10_000))}),
        ("a state, not its description", state),
        ("another game's description", other),
        ("a snapshot", json.loads(state.to_json())),
    ]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_what_is_no_description_is_refused_with_its_problems_named(name: str, options: dict[str, Any]) -> None:
    game: Any = cruiselib.make(name, **options)
    twin = game.pure_twin()
    others = [n for n in cruiselib.games() if n != name]
    other_game: Any = cruiselib.make(others[0])
    other = other_game.describe(other_game.new_state(seed=1))
    for label, wrong in _not_descriptions(game, other):
        problems = game.position_problems(wrong)
        assert problems and all(isinstance(p, str) and p for p in problems), label
        assert twin.position_problems(wrong) == problems, label
        with pytest.raises(cruiselib.InvalidPositionError) as refused:
            game.from_position(wrong)
        assert list(refused.value.problems) == problems, label
        assert all(p in str(refused.value) for p in problems), label
        # A description error is a state error, as a snapshot's is.
        assert isinstance(refused.value, cruiselib.InvalidStateError)
        if isinstance(wrong, str):
            with pytest.raises(cruiselib.InvalidPositionError):
                game.read_position(wrong)


def test_describe_takes_a_state_of_its_game() -> None:
    game: Any = cruiselib.make(cruiselib.games()[0])
    with pytest.raises(cruiselib.InvalidOptionError, match="describe takes a state of this game"):
        game.describe("not a state")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_the_protocol_sets_up_a_seat_s_view_for_that_seat(name: str, options: dict[str, Any]) -> None:
    game: Any = cruiselib.make(name, **options)
    state = _positions(game, seed=14)[1]
    seat = state.current_player
    text = game.position_text(state, seat)
    engine = Engine()
    reply = engine.handle({"cmd": "new", "game": name, "options": options, "position": text, "seed": 3})
    assert reply["ok"] and reply["player"] == seat and reply["current_player"] == seat, reply
    saved = engine.handle({"cmd": "save", "game_id": reply["game_id"], "record": False})["snapshot"]
    assert game.describe(game.load_state(saved), seat) == game.describe(state, seat)
    hint = engine.handle({"cmd": "hint", "game_id": reply["game_id"], "bot": "ismcts", "iterations": 30, "seed": 1})
    assert hint["ok"] and hint["hints"][0]["action"] in state.legal_actions(), hint
    other = (seat + 1) % game.num_players
    wrong_player = {"cmd": "new", "game": name, "options": options, "position": text, "player": other}
    assert engine.handle(wrong_player)["error"]["code"] == "bad_request"
    refused = engine.handle({"cmd": "new", "game": name, "options": options, "position": text[: len(text) // 2]})
    assert refused["error"]["code"] == "invalid_position" and refused["error"]["problems"], refused


@pytest.mark.surface
def test_the_command_line_advises_the_seat_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    from cruiselib.cli import main

    name, options = GAMES[0]
    game: Any = cruiselib.make(name, **options)
    state = _positions(game, seed=15)[1]
    seat = state.current_player
    players = ["--players", str(game.num_players)] if "players" in options else []
    assert main(["advise", name, *players, game.position_text(state, seat), "--iterations", "50", "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert f"Best moves for seat {seat}" in out and " 1. " in out and "% to win" in out
    waiting = (seat + 1) % game.num_players
    assert main(["advise", name, *players, game.position_text(state, waiting)]) == 2
    assert "advice is for the seat to move" in capsys.readouterr().err
    assert main(["advise", name, *players, "no position at all"]) == 2
    assert "cannot set up" in capsys.readouterr().err


@pytest.mark.surface
def test_the_terminal_shows_the_position_text_and_plays_from_one() -> None:
    from cruiselib.cli import build_parser, play

    name, options = GAMES[0]
    game: Any = cruiselib.make(name, **options)
    state = _positions(game, seed=16)[1]
    seat = state.current_player
    text = game.position_text(state, seat)
    players = ["--players", str(game.num_players)] if "players" in options else []
    args = build_parser().parse_args(["play", name, *players, "--position", text, "--seed", "2"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert play(args, stdin=io.StringIO("position\nquit\n")) == 0
    assert text in out.getvalue().replace("\n", "")
