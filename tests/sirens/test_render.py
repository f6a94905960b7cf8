"""Sirens in Sight: the compact board text (``render(..., compact=True)``, docs/sirens.md,
"Board text"): its bounds in every position, what it hides, and what it says."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib.sirens import Card, CardSet, Pass, PlayCard, SirensGame, SirensState
from cruiselib.sirens.schema import CardInfo
from tests.sirens.helpers import SHIPS, build, small_set
from tests.support import checked_compact

# The widest texts a card set allows: three-digit ships, and every card "-9xa" (with the
# move-crew icon) or "9x"; no ship card can be taken by reaching its value (5 x 99 < 995),
# so sides fill up to 5 cards until both are full (S6).
WIDE_VALUES = [*range(-99, -91), *range(92, 100)]
WIDE = CardSet(
    name="wide",
    cards=tuple(Card(v, e, v < 0) for v in WIDE_VALUES for e in ("seastar", "shell") for _ in range(2)),
    ships=(995, 996, 997, 998, 999),
)

# (options, games in the compiled run): both variants, the standard, a small set with low
# ships (short games, ship cards taken early) and the wide set. The pure-Python core is
# slower: its run plays a quarter of the games.
CONFIGS = [
    pytest.param({}, 40, id="standard"),
    pytest.param({"variant": "bow_to_rear"}, 30, id="bow_to_rear"),
    pytest.param({"cards": small_set(12, ships=(3, 5, 7, 9, 11))}, 60, id="small"),
    pytest.param({"cards": WIDE}, 30, id="wide"),
    pytest.param({"variant": "bow_to_rear", "cards": WIDE}, 30, id="wide-bow_to_rear"),
]
SCALE = 1 if cruiselib.compiled else 4


def sirens(**options: Any) -> SirensGame:
    """``cruiselib.make("sirens", **options)``, typed."""
    game = cruiselib.make("sirens", **options)
    assert isinstance(game, SirensGame)
    return game


def compact(game: SirensGame, state: SirensState, player: int | None) -> str:
    """The compact text, checked against the bounds every game keeps."""
    return checked_compact(game, state, player)


def played(game: SirensGame, games: int, seed: int) -> list[SirensState]:
    """Every position of ``games`` seeded random games, final positions included."""
    rnd = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_state(seed=rnd.randrange(2**32))
        out.append(state.clone())
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
            out.append(state.clone())
    return out


def faces(cards: list[CardInfo]) -> list[tuple[int, bool]]:
    """A hand as play tells it apart: copies of a face are interchangeable (S12)."""
    return sorted((c.value, c.crew) for c in cards)


# ---------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(("options", "games"), CONFIGS)
def test_compact_text_fits_in_every_position(options: dict[str, Any], games: int) -> None:
    """Every position of random games (the final ones too), for both seats and ``None``."""
    game = sirens(**options)
    states = played(game, max(2, games // SCALE), seed=games)
    phases = {s.phase_name for s in states}
    assert phases >= ({"pick", "main", "over"} if "variant" in options else {"main", "over"})
    if options.get("cards") is not None:
        assert "crew" in phases
    for state in states:
        for player in (None, 0, 1):
            compact(game, state, player)
    if options.get("cards") is WIDE:  # random play filled sides: the long ones were cut short
        assert any("...+" in compact(game, s, None) for s in states)


def built() -> SirensState:
    """A position with both tokens' cases (on a ship card, won), a rum mug and an octopus
    on the table and a ship card won; seat 1 to play."""
    return build(
        hands=([10, 9, 0, -2], [7, 6, 5, 5]),
        sides={(28, 0): [8, 7], (28, 1): [6], (32, 0): [-1, 4], (32, 1): [9, 9, 9], (34, 1): [3]},
        ships={30: 1},
        crew=(32, "won1"),
        rum=(32, "held"),
        octopus=((32, 1, 9), None),
        turn=1,
    )


def test_the_full_picture_is_unchanged() -> None:
    """Without ``compact`` (a keyword-only flag) the full table is drawn as it always was."""
    state = built()
    game = state.game
    full = "\n".join(
        [
            "                   seat 0 side |           ship           | seat 1 side",
            "                     8 7 (=15) |            28            | 6 (=6)",
            "                               |    30: won by seat 1     |",
            "                    -1⚓ 4 (=3) |   32 (+3 rum) captain    | 9*0 9 9 (=27)",
            "                        - (=0) |            34            | 3 (=3)",
            "                        - (=0) |            36            | - (=0)",
            "points 0:2 · draw pile 32",
            "seat 0: hand -2⚓ 0⚓ 9 10 · rum mug used · octopus on a card",
            "seat 1: hand 5 5 6 7 · rum mug held · octopus held",
            "seat 1 to decide (main)",
        ]
    )
    assert game.render(state, None, compact=False) == game.render(state) == full
    with pytest.raises(TypeError):
        game.render(state, 0, True)  # type: ignore[call-arg]


def wide_table() -> SirensState:
    """The widest table the wide set allows: every ship card holds 5 cards on seat 0's side
    and 4 on seat 1's, both octopuses and both rum mugs on the first ship card, which also
    carries the captain; four cards of the widest kind in each hand."""
    game = sirens(cards=WIDE)
    # The four copies of each value, the widest (move-crew, "-9xa") first; the first ship
    # card and the hands take those.
    pool = [v for v in WIDE_VALUES for _ in range(4)]
    sides = {}
    for k in range(5):
        sides[(SHIPS[k], 0)], pool = pool[:5], pool[5:]
        sides[(SHIPS[k], 1)], pool = pool[:4], pool[4:]
        if k == 0:
            hands, pool = (pool[:4], pool[4:8]), pool[8:]
    return build(
        game,
        hands=hands,
        sides=sides,
        crew=(SHIPS[0], SHIPS[2]),
        rum=(SHIPS[0], SHIPS[0]),
        octopus=((SHIPS[0], 0, -99), (SHIPS[0], 0, -99)),
    )


def test_long_sides_are_cut_short_with_a_count() -> None:
    state = wide_table()
    game = state.game
    for player in (None, 0, 1):
        lines = compact(game, state, player).split("\n")
        assert len(lines) == 9
        # The first ship card: seat 0's side keeps its octopus cards and says how many of
        # its 5 cards it leaves out, seat 1's side and the label stay whole.
        assert lines[2] == "  -99a*0 -99a*1 ...+3 (=-494) | 995 +6 rum captain | -98a -98a -98a -97a (=-391)"
        assert len(lines[2]) == game.COMPACT_COLUMNS
        assert lines[3].startswith(" -95a -95a -95a ...+2 (=-473) |")
        assert lines[5] == "        92 93 93 93 93 (=464) |        998         | 94 94 94 94 (=376)"
    text = compact(game, state, 0)
    assert "seat 0: 0 points, hand -97a -97a -97a -96a, rum mug used, octopus on 995/seat 0" in text
    assert "seat 1: 0 points, 4 cards in hand, rum mug used, octopus on 995/seat 0" in text


def test_status_after_a_pass_and_at_the_end() -> None:
    """After a pass (the next one ends the game, S4), and in finished games: a win for each
    seat and a draw."""
    small = sirens(cards=small_set(12))  # 10 10 0 0 9 9 -4 -4 8 8 7 7
    state = build(
        small,
        hands=([], [9]),
        sides={(30, 0): [10], (28, 0): [0, 0, -4, -4], (36, 1): [10, 8], (32, 0): [9, 8, 7, 7]},
        octopus=((30, 0, 10), None),
        pile=[],
        rum=(28, 28),
    )
    state.apply(Pass())
    for player in (None, 0, 1):
        text = compact(small, state, player)
        assert text.startswith("seat 1 to decide (main); draw pile 0; the last turn was a pass\n")
    assert "seat 0: 0 points, hand empty, rum mug used, octopus on 30/seat 0" in compact(small, state, 0)
    # Finished games: who won (or a draw), from the final points.
    ends: dict[str, int] = {}
    for over in played(sirens(cards=WIDE), 2, seed=5) + played(small, 30, seed=6):
        if not over.is_over:
            continue
        text = compact(over.game, over, 0)
        first = text.split("\n")[0]
        points = over.scores()
        expected = "a draw" if points[0] == points[1] else f"seat {points.index(max(points))} wins"
        assert first.startswith(f"game over: {expected}; draw pile")
        assert f"seat 1: {points[1]} point" in text
        ends[expected] = ends.get(expected, 0) + 1
    assert len(ends) == 3, ends  # seat 0 wins, seat 1 wins, a draw


# ---------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize(("options", "games"), [CONFIGS[0], CONFIGS[1], CONFIGS[4]])
def test_compact_text_shows_a_seat_only_its_view(options: dict[str, Any], games: int) -> None:
    """A state and its resample for a seat (everything the seat cannot see dealt anew) give
    the seat the same text; a resample for the other seat deals the seat's hand anew, and
    then its text changes with the hand (and the omniscient text with both)."""
    game = sirens(**options)
    states = played(game, max(2, games // (4 * SCALE)), seed=91)[::3]
    changed = 0
    for k, state in enumerate(states):
        for seat in (0, 1):
            same = state.resample(seat, seed=k)
            assert same.view(seat) == state.view(seat)
            assert compact(game, same, seat) == compact(game, state, seat)
            other = state.resample(1 - seat, seed=k)
            assert compact(game, other, 1 - seat) == compact(game, state, 1 - seat)
            if faces(other.view(seat).hand) != faces(state.view(seat).hand):
                changed += 1
                assert compact(game, other, seat) != compact(game, state, seat)
                assert compact(game, other, None) != compact(game, state, None)
    assert changed >= 10


def test_other_hands_are_counted_not_shown() -> None:
    state = build(hands=([10, 9, 8, 7], [-4, -3, -2, 1]))
    text = compact(state.game, state, 0)
    assert "seat 0: 0 points, hand 7 8 9 10," in text
    assert "seat 1: 0 points, 4 cards in hand," in text
    assert "-4a" not in text and "-4a -3a -2a 1" in compact(state.game, state, None)


# ---------------------------------------------------------------------------- content


def test_compact_text_of_a_built_position() -> None:
    """Every part of the text, as seat 1 sees the built position."""
    state = built()
    assert compact(state.game, state, 1) == "\n".join(
        [
            "seat 1 to decide (main); draw pile 32",
            "seat 0 side |       ship        | seat 1 side",
            "  8 7 (=15) |        28         | 6 (=6)",
            "            | 30 won by seat 1  |",
            " -1a 4 (=3) | 32 +3 rum captain | 9*0 9 9 (=27)",
            "          - |        34         | 3 (=3)",
            "          - |        36         | -",
            "seat 0: 0 points, 4 cards in hand, rum mug used, octopus on 32/seat 1",
            "seat 1: 2 points, hand 5 5 6 7, rum mug held, octopus held",
        ]
    )


def test_compact_text_of_a_seeded_game() -> None:
    """A seeded start and the first decisions: the seat's hand as its view lists it, the
    pile, the seat to decide, and a card played landing on its side."""
    game = sirens()
    state = game.new_state(seed=2024, start_player=0)
    hand = sorted(state.view(0).hand, key=lambda c: (c.value, c.id))
    text = compact(game, state, 0)
    lines = text.split("\n")
    assert lines[0] == "seat 0 to decide (main); draw pile 44"
    shown = " ".join(f"{c.value}{'a' if c.crew else ''}" for c in hand)
    assert lines[7] == f"seat 0: 0 points, hand {shown}, rum mug held, octopus held"
    assert lines[8] == "seat 1: 0 points, 4 cards in hand, rum mug held, octopus held"
    card = hand[-1]
    state.apply(PlayCard(card.value, card.crew, 36, 0))
    after = compact(game, state, 1).split("\n")
    assert after[0] == "seat 0 to decide (after); draw pile 43"  # S13: the rum mug after the draw
    assert after[6] == f"{card.value}{'a' if card.crew else ''} (={card.value})".rjust(11) + " |     36     | -"
    assert after[7] == "seat 0: 0 points, 4 cards in hand, rum mug held, octopus held"
