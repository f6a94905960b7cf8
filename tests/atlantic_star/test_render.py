"""The compact board text, ``game.render(state, player, compact=True)`` (docs/atlantic_star.md,
"Board text"): its size in every configuration and position, that it shows only what the seat
sees, and what it says."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame, AtlanticStarState, ShipList

from ..support import random_game
from .helpers import build, game, sailed

COLUMNS = AtlanticStarGame.COMPACT_COLUMNS
ROWS = AtlanticStarGame.COMPACT_ROWS
GAMES = 4 if cruiselib.compiled else 2  # seeded games per configuration in the sweep


def long_named_ships() -> ShipList:
    """The standard ships renamed to 40 characters, the most a ship list allows."""
    data = msgspec.to_builtins(ShipList.standard())
    for i, ship in enumerate(data["ships"]):
        ship["name"] = f"{ship['name']} of the Grand Atlantic Line"[:36] + f" {i:03d}"
    return ShipList.from_json(msgspec.json.encode(data))


HIGH_BOARD = [[99, 90, 80, 70, 60, 50]] * 5  # three-digit scores
LONG_NAMES = long_named_ships()

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    *[(players, {}) for players in range(2, 7)],
    (2, {"board": HIGH_BOARD}),
    (5, {"board": HIGH_BOARD}),
    *[(players, {"ships": LONG_NAMES}) for players in (2, 4, 5, 6)],
]


def config_id(config: tuple[int, dict[str, Any]]) -> str:
    players, options = config
    return f"{players}p" + "".join(f"-{name}" for name in options)


def compact(state: AtlanticStarState, player: int | None) -> str:
    return state.game.render(state, player, compact=True)


def assert_fits(text: str, where: str) -> None:
    lines = text.split("\n")
    assert 1 <= len(lines) <= ROWS, f"{where}: {len(lines)} lines\n{text}"
    for line in lines:
        assert len(line) <= COLUMNS, f"{where}: {len(line)} columns\n{text}"
        assert line == line.rstrip(), f"{where}: trailing spaces\n{text}"
    for char in set(text) - {"\n"}:
        assert char.isprintable(), f"{where}: {char!r}\n{text}"
        assert unicodedata.east_asian_width(char) not in ("W", "F"), f"{where}: wide {char!r}\n{text}"


def seat_line(text: str, seat: int) -> str:
    return next(line for line in text.split("\n") if re.match(rf"[> ] seat {seat}\b", line))


# ---------------------------------------------------------------- size


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_fits_80_by_10_for_every_seat_in_every_position(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    g: Any = cruiselib.make("atlantic_star", players=players, **options)
    finished = 0
    for seed in range(GAMES):
        for state in random_game(g, 1000 * players + seed):
            for player in [*range(players), None]:
                assert_fits(compact(state, player), f"{config_id(config)} seed {seed}, seat {player}")
        finished += state.is_over
    assert finished == GAMES


@pytest.mark.parametrize("players", range(2, 7))
def test_game_over_names_the_winners(players: int) -> None:
    state = random_game(game(players), 77 + players, every=1000)[-1]
    assert state.is_over
    winners = state.winners()
    for player in [*range(players), None]:
        text = compact(state, player)
        assert_fits(text, f"game over, seat {player}")
        named = re.match(r"game over · winners?: (.*?) · pack", text)
        assert named is not None, text
        assert named[1].replace(" (you)", "") == ", ".join(f"seat {w}" for w in winners)
        for p in range(players):
            assert seat_line(text, p).endswith("winner") == (p in winners), text
        assert "agency" not in text
        assert "hand:" not in text


def test_full_render_is_unchanged_by_the_keyword() -> None:
    g = game(4)
    for state in random_game(g, 5, every=25):
        for player in [*range(4), None]:
            full = g.render(state, player)
            assert g.render(state, player, compact=False) == full
            assert full != compact(state, player)


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("players", range(2, 7))
def test_shows_only_what_the_seat_sees(players: int) -> None:
    """A state dealt anew where the seat cannot see gives the same text; another seat's
    hand never shows; a different hand of the seat's own changes the text."""
    g = game(players)
    changed = 0
    for k, state in enumerate(random_game(g, 300 + players, every=7)[:-1]):
        hands = state.to_data().hands
        for seat in range(players):
            text = compact(state, seat)
            other = state.resample(seat, 1000 + k)
            assert other.view(seat) == state.view(seat)
            assert compact(other, seat) == text
            assert compact(state.resample(seat, 2000 + k, recall=True), seat) == text
            for q in range(players):
                if q == seat:
                    continue
                for ship in hands[q]:
                    assert not re.search(rf"\b{re.escape(g.ships.ships[ship].name)}\b", text), (ship, text)
            # Another seat's resample deals this seat's hand anew.
            redealt = state.resample((seat + 1) % players, 3000 + k)
            if redealt.view(seat).hand != state.view(seat).hand:
                assert compact(redealt, seat) != text
                changed += 1
        # With no seat given, the text is the seat to move's, without "(you)".
        mover = state.current_player
        assert compact(state.resample(mover, 4000 + k), None) == compact(state, None)
    assert changed >= 10


# ---------------------------------------------------------------- content


def two_player_position() -> AtlanticStarState:
    """Seat 1 to move with five ships; Baltic and Mediterranean sailed."""
    g = game(2)
    hand = ["Rhea", "Zephyr", "Hermes", "Britannia", "Oberon"]
    agency = ["Aurora", "Juno", "Hera", "Flora"]
    seas = sailed(g, {"Baltic": (2, [1, 0]), "Mediterranean": (4, [0])}, {*hand, *agency})
    return build(g, hands={1: hand}, seas=seas, current=1, agency=agency, money=[30000, 26000])


SEAT_1_TEXT = """\
seat 1 (you) to move (loan phase) · pack 113 · discard 0 · plaques 7/24
  seat 0         17 VP  30,000 marks  hand 0  to sail Bal, Med, 2 Atl, 2 Pac
> seat 1 (you)   10 VP  26,000 marks  hand 5  to sail Bal, 2 Med, 2 Atl, 2 Pac
Bal 2★ B:17 A:13 1:11 0:10 .. | Med 4★ B:22 A:18 0:13 ...
Atl none yet (free 1★ 3★ 5★)  | Pac none yet (free 1★ 3★ 5★)
agency 3k Aurora B3:9 | 2k Juno P2:9
       1k Hera M3:3 P1:6 | free Flora P4:9
your hand: Rhea B1:3 A5:3 P2:3, Oberon B1:2 M4:4 P6:3, Britannia A3:9,
           Zephyr B1:9, Hermes mail"""


def test_a_built_position_reads_as_expected() -> None:
    state = two_player_position()
    assert state.scores() == [17, 10]
    assert compact(state, 1) == SEAT_1_TEXT
    seat_0 = compact(state, 0)
    assert seat_0.split("\n")[0] == "seat 1 to move (loan phase) · pack 113 · discard 0 · plaques 7/24"
    assert "seat 0 (you)" in seat_0
    assert seat_0.split("\n")[-1] == "your hand: (empty)"
    assert "Rhea" not in seat_0
    # Seat 0 sees seat 1's hand size, and everything public as seat 1 does.
    assert seat_line(seat_0, 1) == "> seat 1         10 VP  26,000 marks  hand 5  to sail Bal, 2 Med, 2 Atl, 2 Pac"
    assert seat_0.split("\n")[3:7] == SEAT_1_TEXT.split("\n")[3:7]
    assert compact(state, None).split("\n")[-2].startswith("seat 1's hand: Rhea B1:3 A5:3 P2:3")


@pytest.mark.parametrize("players", [3, 5])
def test_seat_lines_follow_the_state(players: int) -> None:
    """Scores, money, hand sizes and the seat to move, as the state has them, in every
    position of a game, with the seat's own hand on the last line."""
    g = game(players)
    for state in random_game(g, 40 + players, every=9)[:-1]:
        scores = state.scores()
        data = state.to_data()
        mover = state.current_player
        for seat in range(players):
            text = compact(state, seat)
            assert text.startswith(f"seat {mover} (you) to move" if seat == mover else f"seat {mover} to move")
            for p in range(players):
                line = seat_line(text, p)
                assert line.startswith(">" if p == mover else " ")
                assert ("(you)" in line) == (p == seat)
                numbers = re.search(r"(\d+) VP +([\d,]+) marks +hand (\d)", line)
                assert numbers is not None, line
                assert int(numbers[1]) == scores[p]
                assert int(numbers[2].replace(",", "")) == data.money[p]
                assert int(numbers[3]) == len(data.hands[p])
            hand_text = text[text.index("your hand: ") :]
            for ship in data.hands[seat]:
                assert g.ships.ships[ship].name in hand_text
