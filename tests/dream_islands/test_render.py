"""Dream Islands: the compact board text (``render(..., compact=True)``, docs/dream_islands.md,
"Board text"): its bounds in every position, what it hides, and what it says."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState
from cruiselib.dream_islands.schema import ROUND_CAP
from tests.dream_islands.helpers import build, game
from tests.dream_islands.positions import keeping_policy, positions
from tests.support import checked_compact

# (players, options, games in the compiled run): every player count, round limits that end
# games early (one of a single round) and the largest. The pure-Python core is slower: its
# run plays a quarter of the games.
CONFIGS = [
    pytest.param(2, {}, 16, id="2p"),
    pytest.param(3, {}, 12, id="3p"),
    pytest.param(4, {}, 12, id="4p"),
    pytest.param(2, {"max_rounds": 1}, 16, id="2p-1-round"),
    pytest.param(3, {"max_rounds": 4}, 16, id="3p-4-rounds"),
    pytest.param(4, {"max_rounds": ROUND_CAP}, 8, id="4p-round-cap"),
]
SCALE = 1 if cruiselib.compiled else 4


def compact(g: DreamIslandsGame, state: DreamIslandsState, player: int | None) -> str:
    """The compact text, checked against the bounds every game keeps."""
    return checked_compact(g, state, player)


def seats(g: DreamIslandsGame) -> list[int | None]:
    """Every viewer of a text: the omniscient ``None`` and each seat."""
    return [None, *range(g.num_players)]


# ---------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(("players", "options", "games"), CONFIGS)
def test_compact_text_fits_in_every_position(players: int, options: dict[str, Any], games: int) -> None:
    """Every position of seeded games (random moves, exchanges that often keep the hand),
    the final ones too, for every seat and ``None``."""
    g = game(players, **options)
    rnd = random.Random(players * 100 + games)
    phases: set[str] = set()
    for _ in range(max(2, games // SCALE)):
        state = g.new_state(seed=rnd.randrange(2**32))
        while True:
            phases.add(state.phase_name)
            for player in seats(g):
                compact(g, state, player)
            if state.is_over:
                break
            state.apply(keeping_policy(state, rnd))
        assert compact(g, state, None).startswith("game over after ")
    assert phases == {"move", "exchange", "over"}


def crowded() -> DreamIslandsState:
    """The widest and longest text: four players, the round counter at its cap, every
    number in the middle lines at its widest, three long mission names in every hand."""
    g = game(4, max_rounds=ROUND_CAP)
    return build(
        g,
        small=(0, 1, 2),
        main={0: 5, 1: 5, 2: 5, 3: 6},
        pieces={p: [] for p in range(4)},
        hands={0: [4, 5, 6], 1: [13, 14, 15], 2: [5, 6, 7], 3: [0, 1, 2]},
        completed={0: list(range(7, 16)), 3: list(range(3, 16))},
        covered={p: [2, 3, 4] for p in range(4)},
        cur=3,
        phase="exchange",
        rounds=ROUND_CAP - 1,
    )


def test_the_most_crowded_position_fits() -> None:
    state = crowded()
    g = state.game
    for player in seats(g):
        lines = compact(g, state, player).split("\n")
        assert len(lines) == (7 if player is None else g.COMPACT_ROWS)
        assert lines[0] == f"round {ROUND_CAP} of {ROUND_CAP}, seat 3 (D) to exchange (last round)"
        assert lines[1] == "middle: 3:A 2:B 2:C, main island A5 B5 C5 D6; next arrival scores 1"
        assert lines[6] == ">3 D   32   13   234.    .  .  .  .  .  .  .  .  .    6     0  " + (
            "3 hidden" if player in (0, 1, 2) else "0 1 2"
        )
    assert compact(g, state, 3).split("\n")[7:] == [
        "your hand: [0] exactly 2 pieces on one island",
        "           [1] exactly 3 pieces on one island",
        "           [2] exactly 4 pieces on one island",
    ]


def test_a_shared_win() -> None:
    """A finished game (at its round limit) won by two seats: nobody to move, no hint for
    the next arrival in the middle."""
    g = game(4, max_rounds=7)
    state = build(
        g,
        small=(0, 1, 2),
        main={1: 1},
        pieces={0: [1, 1, 3], 1: [2, 2, 2, 8], 2: [4, 5, 6, 7, 8], 3: [1, 1, 1, 1]},
        hands={p: [3, 7, 15] for p in range(4)},
        completed={0: [0, 8], 1: [4, 9], 2: [5], 3: [1]},
        covered={0: [2, 3], 1: [3, 4], 2: [5], 3: [2]},
        cur=-1,
        phase="over",
        rounds=7,
    )
    assert state.is_over and state.winners() == [0, 1]
    text = compact(g, state, None)
    assert text.split("\n")[:2] == [
        "game over after 7 rounds: seats 0 (A), 1 (B) share the win",
        "middle: 3:A 2:B 2:C, main island B1",
    ]
    assert ">" not in text
    row = compact(g, state, 2).split("\n")[5]  # seat C sees its own hand, no marker on any row
    assert row == " 2 C    4    1   ...5    .  .  .  .  1  1  1  1  1    1    12  3 7 15"


# ---------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize(("players", "options", "games"), CONFIGS[:3])
def test_compact_text_shows_a_seat_only_its_view(players: int, options: dict[str, Any], games: int) -> None:
    """A state and its resample for a seat (everything the seat cannot see dealt anew, with
    or without what play showed of the hands) give the seat the same text; a resample for
    another seat deals the seat's hand anew, and then its text changes with the hand (and
    the omniscient text with it)."""
    g = game(players, **options)
    changed = 0
    for k, state in enumerate(positions(g, seed=players, count=max(8, 10 * games // SCALE))):
        for seat in range(players):
            text = compact(g, state, seat)
            for recall in (False, True):
                same = state.resample(seat, seed=k, recall=recall)
                assert same.view(seat) == state.view(seat)
                assert compact(g, same, seat) == text
            other_seat = (seat + 1 + k % (players - 1)) % players
            other = state.resample(other_seat, seed=k)
            assert compact(g, other, other_seat) == compact(g, state, other_seat)
            if sorted(other.view(seat).hand) != sorted(state.view(seat).hand):
                changed += 1
                assert compact(g, other, seat) != text
                assert compact(g, other, None) != compact(g, state, None)
    assert changed >= 10


def test_other_hands_are_counted_not_shown() -> None:
    state = content_position()
    text = compact(state.game, state, 1)
    assert "3 hidden" in text and "[2]" not in text and "[13]" not in text
    assert "2 4 10" not in text and "3 7 13" not in text
    full = compact(state.game, state, None)
    assert "your hand" not in full and "2 4 10" in full and "3 7 13" in full


# ---------------------------------------------------------------------------- content


def content_position() -> DreamIslandsState:
    """Three seats in round 5 of 20: a small island taken, shells, completed missions, a
    card under a pile."""
    return build(
        game(3, max_rounds=20),
        small=(2, -1, -1),
        pieces={0: [1, 3, 3, 5], 1: [2, 2, 4, 8, 8], 2: [3, 6, 6, 7]},
        hands={0: ["major3", "run2", "exact4"], 1: ["exact2", "major8", "run3"], 2: ["major6", "exact5", "run5"]},
        completed={0: ["major1"], 1: [], 2: ["exact2", "run4"]},
        under={2: ["major7"]},
        covered={0: [2, 3], 1: [5], 2: [3, 4]},
        cur=1,
        rounds=4,
    )


def test_compact_text_of_a_built_position() -> None:
    state = content_position()
    assert compact(state.game, state, 1) == "\n".join(
        [
            "round 5 of 20, seat 1 (B) to move",
            "middle: 3:C 2:- 2:-, main island -; next arrival scores 2",
            " seat pts done shells  air  1  2  3  4  5  6  7  8  mid  pile  hand",
            " 0 A    2    1   23..    2  1  .  2  .  1  .  .  .    .    12  3 hidden",
            ">1 B    0    0   ...5    1  .  2  .  1  .  .  .  2    .    13  0 5 15",
            " 2 C    7    2   .34.    1  .  .  1  .  .  2  1  .    1    11  3 hidden",
            "your hand: [0] exactly 2 pieces on one island",
            "           [5] on exactly 3 consecutive islands",
            "           [15] majority on island 8",
        ]
    )


def test_the_full_picture_is_unchanged() -> None:
    """Without ``compact`` (a keyword-only flag) the full board is drawn as it always was."""
    state = content_position()
    g = state.game
    full = "\n".join(
        [
            "round 5, seat 1 to move",
            "  airplane : A2 B1 C1",
            "  island 1 : A1",
            "  island 2 : B2",
            "  island 3 : A2 C1",
            "  island 4 : B1",
            "  island 5 : A1",
            "  island 6 : C2",
            "  island 7 : C1",
            "  island 8♥: B2",
            "  middle   : [3:C] [2:-] [2:-] main island: -",
            "seat 0 (A): score 2, 1/16 missions, shells on [2, 3], pile 12",
            "    hand: 3 cards",
            "seat 1 (B): score 0, 0/16 missions, shells on [5], pile 13",
            "    hand: [0] exactly 2 pieces on one island",
            "    hand: [5] on exactly 3 consecutive islands",
            "    hand: [15] majority on island 8",
            "seat 2 (C): score 7, 2/16 missions, shells on [3, 4], pile 11",
            "    hand: 3 cards",
        ]
    )
    assert g.render(state, 1, compact=False) == g.render(state, 1) == full
    with pytest.raises(TypeError):
        g.render(state, 1, True)  # type: ignore[call-arg]


def test_compact_text_of_a_seeded_game() -> None:
    """The start of a seeded 2-player game (I8: five pieces on the airplane, the sixth on
    island s + 1) and its first move, as seat 0 sees it: its hand spelled out, its shell on
    the 2, its pieces moved; seat 1's hand only counted."""
    g = game(2)
    state = g.new_state(seed=2024)
    assert state.view(0).hand == [0, 2, 3]
    hand = [
        "your hand: [0] exactly 2 pieces on one island",
        "           [2] exactly 4 pieces on one island",
        "           [3] exactly 5 pieces on one island",
    ]
    assert compact(g, state, 0).split("\n") == [
        "round 1, seat 0 (A) to move",
        "middle: 3:- 2:- 2:-, main island -; next arrival scores 3",
        " seat pts done shells  air  1  2  3  4  5  6  7  8  mid  pile  hand",
        ">0 A    0    0   ....    5  1  .  .  .  .  .  .  .    .    13  0 2 3",
        " 1 B    0    0   ....    5  .  1  .  .  .  .  .  .    .    13  3 hidden",
        *hand,
    ]
    state.apply(state.parse_move("cover 2: 2 pieces airplane to 1"))
    lines = compact(g, state, 0).split("\n")
    assert lines[0] == "round 1, seat 0 (A) to exchange"
    assert lines[3] == ">0 A    0    0   2...    3  3  .  .  .  .  .  .  .    .    13  0 2 3"
    assert lines[5:] == hand
    assert compact(g, state, 1).split("\n")[3].endswith("13  3 hidden")
