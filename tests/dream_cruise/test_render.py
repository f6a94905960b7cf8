"""Dream Cruise: the compact board text, ``game.render(state, player, compact=True)``.

At most ``Game.COMPACT_COLUMNS`` columns (characters one column wide) and
``Game.COMPACT_ROWS`` lines for every seat and for None, in every position of seeded
random games of every player count and option (a custom card set of the longest names,
with wide and combining characters, too) and at their end; it names the seat to act and
every score. It is made from the seat's view only: a resample for the seat (which keeps
that view) gives the same text, while a change of the seat's own hand or drawn cards
changes it. docs/dream_cruise.md, "Board text", shows and explains it.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.dream_cruise import CardSet, DreamCruiseGame, DreamCruiseState
from cruiselib.errors import InvalidOptionError
from tests.dream_cruise.helpers import fam, loc, make, position, ship, starting

COLUMNS = DreamCruiseGame.COMPACT_COLUMNS
ROWS = DreamCruiseGame.COMPACT_ROWS


def _long_names(cards: CardSet) -> CardSet:
    """The standard set with every name 40 characters long (the most a name may have),
    each with a wide and a combining character in it."""

    def rename(name: str, i: int) -> str:
        return f"{name} \u6d77{i} e\u0301 {'x' * 40}"[:40]

    return CardSet(
        name="long names",
        families=tuple(msgspec.structs.replace(f, name=rename(f.name, i)) for i, f in enumerate(cards.families)),
        locations=tuple(msgspec.structs.replace(c, name=rename(c.name, i)) for i, c in enumerate(cards.locations)),
        ships=tuple(msgspec.structs.replace(c, name=rename(c.name, i)) for i, c in enumerate(cards.ships)),
    )


LONG_NAMES = _long_names(CardSet.standard())

CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 1, "difficulty": 3, "sea_ship_draw": True, "additions": 4},
    {"players": 2},
    {"players": 2, "additions": 1, "route_points": (2, 4, 7, 11)},
    {"players": 3, "sea_ship_draw": True},
    {"players": 3, "additions": 3},
    {"players": 4},
    {"players": 4, "additions": 4, "sea_ship_draw": True},
    {"players": 4, "cards": LONG_NAMES},
    {"players": 1, "cards": LONG_NAMES, "difficulty": 1},
]
IDS = ["-".join(f"{k}={getattr(v, 'name', v)}" for k, v in options.items()) for options in CONFIGS]
GAMES = 2 if cruiselib.compiled else 1  # per configuration


def game_of(options: dict[str, Any]) -> DreamCruiseGame:
    game = cruiselib.make("dream_cruise", **options)
    assert isinstance(game, DreamCruiseGame)
    return game


def one_column(ch: str) -> bool:
    return ch.isprintable() and not unicodedata.combining(ch) and unicodedata.east_asian_width(ch) not in ("W", "F")


def check_bounds(text: str) -> list[str]:
    """The lines of ``text``, once they are checked against the bounds."""
    lines = text.split("\n")
    assert 1 <= len(lines) <= ROWS, text
    for line in lines:
        assert len(line) <= COLUMNS, f"{len(line)} columns: {line!r}"
        assert all(one_column(ch) for ch in line), f"a character that is not one column wide: {line!r}"
    return lines


def played(game: DreamCruiseGame, seed: int) -> Iterator[DreamCruiseState]:
    """Every position of a seeded game, its end included: the core's rollout policy mixed
    with uniformly random moves (random play alone seldom satisfies a family; the policy
    alone seldom builds or fills a hand)."""
    rnd = random.Random(seed)
    state = game.new_state(seed=seed)
    greed = rnd.random()
    while True:
        yield state
        if state.is_over:
            return
        if rnd.random() < greed:
            state.apply(state.rollout_action(rnd.getrandbits(64)))
        else:
            state.apply(rnd.choice(state.legal_actions()))


def check_content(game: DreamCruiseGame, state: DreamCruiseState, player: int | None, lines: list[str]) -> None:
    """The header names the seat to act (or the winner), each seat's line its score, in
    seat order, after the header."""
    scores = state.scores()
    if state.is_over:
        winners = state.winners()
        assert lines[0].startswith(f"game over after round {state.view(0).round}: ")
        if game.num_players > 1:
            assert lines[0].endswith(f"seat {winners[0]} wins")
        else:
            assert lines[0].endswith("seat 0 beats Jana" if winners else "Jana wins")
    else:
        cur = state.current_player
        said = re.search(r": seat (\d)( \(you\))? to act \| decks: fam \d+, loc \d+, ship \d+$", lines[0])
        assert said is not None, lines[0]
        assert int(said[1]) == cur
        assert not said[2] or cur == player
    for p in range(game.num_players):
        line = lines[1 + p]
        assert line.startswith(f"{'>' if p == state.current_player else ' '} seat {p}")
        assert f": {scores[p]} pt" in line
        assert ("(you" in line) == (p == player)
    if game.num_players == 1:
        assert lines[2].startswith("  Jana: ")


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_compact_text_fits_every_position(options: dict[str, Any]) -> None:
    game = game_of(options)
    seats: list[int | None] = [None, *range(game.num_players)]
    ends = 0
    for g in range(GAMES):
        for state in played(game, seed=1000 * game.num_players + g):
            for player in seats:
                lines = check_bounds(game.render(state, player, compact=True))
                check_content(game, state, player, lines)
            ends += state.is_over
    assert ends == GAMES


def test_the_longest_lists_are_cut_with_a_count() -> None:
    # 4 players, so the fewest lines are left for the seat: six drawn families (three
    # empty cabins), a hand of 30 cards, every addition space built.
    game = make(4, additions=4)
    others = [i for i, f in enumerate(game.cards.families) if f.start is None]
    additions = [x for x, card in enumerate(game.cards.ships) if card.kind == "addition"][:4]
    hand = [x for x in range(len(game.cards.ships)) if x not in additions][:30]
    seat0 = {
        "families": [-1, -1, -1],
        "figures_left": [0, 0, 0],
        "points_pile": starting(game, 0),
        "drawn": others[:6],
        "hand": hand,
        "additions": additions,
        "addition_guests": [[], [], [], []],
        "played": [loc("Dublin"), loc("Lisbon"), loc("Tromsø"), loc("Open Sea: Gulf of Bothnia")],
    }
    state = position(game, phase="boarding", round=4, seats=[seat0, {}, {}, {}])
    for player in (None, 0, 1):
        check_bounds(game.render(state, player, compact=True))
    lines = check_bounds(game.render(state, 0, compact=True))
    text = "\n".join(lines)
    for f in others[:6]:  # what the seat chooses from comes first
        assert f"{game.cards.families[f].name} " in text
    (hand_line,) = [line for line in lines if line.startswith("hand 30: ")]
    shown = hand_line.count(", ")  # card names without commas, then the tail
    assert shown >= 2
    assert hand_line.endswith(f", … +{30 - shown} more")


def test_the_longest_header_keeps_the_deck_sizes() -> None:
    game = make(4)
    state = position(game, phase="entertainment", round=12, final_round=True, first_player=3, start_player=3)
    header = check_bounds(game.render(state, 3, compact=True))[0]
    assert header.startswith("round 12 (final), entertainment: seat 3 to act | decks: fam ")
    assert header.endswith(f"ship {state.view(3).ship_deck}")


def test_the_width_counts_wide_and_combining_characters() -> None:
    game = game_of({"players": 2, "cards": LONG_NAMES})
    state = game.new_state(seed=4)
    text = game.render(state, 0, compact=True)
    check_bounds(text)
    assert "?" in text  # the wide character of every name (the combining accent is composed: é)
    assert "é" in text


# --- what the seat may see -------------------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS[:8], ids=IDS[:8])
def test_a_resample_for_the_seat_gives_the_same_text(options: dict[str, Any]) -> None:
    game = game_of(options)
    every = 1 if cruiselib.compiled else 5
    for k, state in enumerate(played(game, seed=77 + game.num_players)):
        if k % every and not state.is_over:
            continue
        for seat in range(game.num_players):
            text = game.render(state, seat, compact=True)
            for recall in (False, True):
                other = state.resample(seat, seed=k, recall=recall)
                assert game.render(other, seat, compact=True) == text


def _sail_position(game: DreamCruiseGame, hand0: list[int], hand1: list[int]) -> DreamCruiseState:
    """Round 3, phase 4, seat 0 to act: guests out on its location card and addition."""
    return position(
        game,
        round=3,
        start_player=1,
        seats=[
            {
                "figures_left": [3, 1, 2],
                "location": loc("Invergordon"),
                "played": [loc("Dublin")],
                "location_guests": [[2], [1], []],
                "additions": [ship("Theater"), -1],
                "addition_guests": [[1], []],
                "points_pile": [fam("Schmidt")],
                "hand": hand0,
            },
            {
                "location": loc("Open Sea: Greenland Sea"),
                "played": [loc("Lisbon")],
                "activity_cards": [ship("Zumba"), -1],
                "hand": hand1,
            },
        ],
    )


def test_own_hand_changes_the_text_and_others_hands_do_not() -> None:
    game = make(2)
    base = _sail_position(game, [ship("Bingo"), ship("Sun Deck")], [ship("Comedy Night"), ship("Art Auction")])
    mine = _sail_position(game, [ship("Bingo"), ship("Spa")], [ship("Comedy Night"), ship("Art Auction")])
    theirs = _sail_position(game, [ship("Bingo"), ship("Sun Deck")], [ship("Comedy Night"), ship("Magic Show")])
    text = game.render(base, 0, compact=True)
    assert game.render(mine, 0, compact=True) != text
    assert "+Spa res3" in game.render(mine, 0, compact=True)
    assert game.render(theirs, 0, compact=True) == text
    assert game.render(theirs, 1, compact=True) != game.render(base, 1, compact=True)
    assert game.render(mine, 1, compact=True) == game.render(base, 1, compact=True)
    for name in ("Comedy Night", "Art Auction", "Magic Show"):  # seat 1's hidden hand
        assert name not in text
        assert name not in game.render(theirs, 0, compact=True)


@pytest.mark.parametrize(("phase", "kind"), [("boarding", "families"), ("set_course", "locations")])
def test_own_drawn_cards_change_the_text_and_others_do_not(phase: str, kind: str) -> None:
    game = make(3)
    if kind == "families":
        pool = [i for i, f in enumerate(game.cards.families) if f.start is None]
        names = [f.name for f in game.cards.families]
    else:
        pool = list(range(len(game.cards.locations)))
        names = [c.name for c in game.cards.locations]
    mine, theirs = pool[:2], pool[2:4]

    def seat(p: int, drawn: list[int]) -> dict[str, Any]:
        if kind == "locations":
            return {"drawn": drawn}
        # Drawing families needs an empty cabin: the starting families are satisfied.
        return {"families": [-1, -1, -1], "figures_left": [0, 0, 0], "points_pile": starting(game, p), "drawn": drawn}

    def state_with(drawn0: list[int], drawn1: list[int]) -> DreamCruiseState:
        return position(game, phase=phase, round=2, seats=[seat(0, drawn0), seat(1, drawn1), {}])

    base = state_with(mine, theirs)
    text = game.render(base, 0, compact=True)
    assert all(names[x] in text for x in mine)
    assert not any(names[x] in text for x in theirs)
    assert game.render(state_with([mine[0], pool[5]], theirs), 0, compact=True) != text
    assert game.render(state_with(mine, [theirs[0], pool[5]]), 0, compact=True) == text
    assert game.render(state_with(mine, [theirs[0], pool[5]]), 1, compact=True) != game.render(base, 1, compact=True)


# --- what it says ----------------------------------------------------------------------


def test_a_position_reads_as_documented() -> None:
    game = make(2)
    state = _sail_position(
        game, [ship("Bingo"), ship("Cooking Class"), ship("Sun Deck")], [ship("Comedy Night"), ship("Art Auction")]
    )
    assert state.scores() == [5, 1]
    assert game.render(state, 0, compact=True).split("\n") == [
        "round 3, set sail: seat 0 (you) to act | decks: fam 47, loc 50, ship 65",
        "> seat 0 (you): 5 pts, pile 1, routes 1, hand 3, to place 6, at Invergordon",
        "  seat 1 (start): 1 pt, pile 0, routes 1, hand 2, to place 9, at Open Sea: Gree…",
        "i Adler 3/3 3p spo,cit | o Albers 1/3 3p cul,bea | b Arendt 2/3 3p res,cou",
        "at Invergordon: top cou2[b] | bottom cul2[o] | A1 Theater cul3[o] | 1 free space",
        "routes 1 pt from 2 kept: N.Sea 2",
        "hand 3: Cooking Class res2, Bingo cul2, +Sun Deck res2",
    ]
    seat1 = game.render(state, 1, compact=True).split("\n")
    assert seat1[2] == "  seat 1 (you, start): 1 pt, pile 0, routes 1, hand 2, to place 9, at Open Sea:…"
    assert seat1[4:6] == ["at Open Sea: Greenland Sea: top cul1 | slot 1 Zumba spo2 | 1 free slot", "  2 free spaces"]
    assert seat1[-1] == "hand 2: Comedy Night cul2, Art Auction cul1"
    everyone = game.render(state, None, compact=True).split("\n")  # the seat to act's own parts, named
    assert everyone[-1] == "seat 0 hand 3: Cooking Class res2, Bingo cul2, +Sun Deck res2"


def test_a_seeded_game_names_whose_turn_and_the_scores() -> None:
    game = make(3, sea_ship_draw=True)
    state = game.new_state(seed=11, start_player=2)
    rnd = random.Random(11)
    while not (state.phase == "set_sail" and state.view(0).round == 3):
        state.apply(state.rollout_action(rnd.getrandbits(64)))
    cur, scores = state.current_player, state.scores()
    for player in range(3):
        lines = game.render(state, player, compact=True).split("\n")
        assert lines[0].startswith(f"round 3, set sail: seat {cur}{' (you)' if player == cur else ''} to act")
        for p in range(3):
            assert lines[1 + p].startswith(f"{'>' if p == cur else ' '} seat {p}")
            assert f": {scores[p]} pt" in lines[1 + p]
        hand = [game.cards.ships[x].name for x in state.view(player).hand]
        (at,) = [k for k, line in enumerate(lines) if line.startswith(f"hand {len(hand)}: ")]
        assert all(name in "\n".join(lines[at:]) for name in hand)  # hands this small show whole


def test_the_display_and_the_end() -> None:
    game = make(4)
    state = game.new_state(seed=3)
    rnd = random.Random(3)
    while state.phase != "entertainment":
        state.apply(state.rollout_action(rnd.getrandbits(64)))
    first = state.current_player
    state.apply(state.legal_actions()[-1])  # the last face-up set
    text = game.render(state, state.current_player, compact=True)
    assert "display: 0 face-down (2 cards) | 1 " in text
    assert f"4 taken by seat {first}" in text
    while not state.is_over:
        state.apply(state.rollout_action(rnd.getrandbits(64)))
    (winner,) = state.winners()
    for player in (None, 0):
        lines = check_bounds(game.render(state, player, compact=True))
        assert lines[0] == f"game over after round {state.view(0).round}: seat {winner} wins"
        assert not any(line.startswith(">") for line in lines)
    assert len(game.render(state, None, compact=True).split("\n")) == 5  # the header and the seats


def test_the_solo_game_shows_jana() -> None:
    game = make(1, difficulty=2)
    state = game.new_state(seed=5)
    assert game.render(state, 0, compact=True).split("\n")[2] == "  Jana: pile 2 face down, route 0, 0 locations"
    rnd = random.Random(5)
    while not state.is_over:
        state.apply(state.rollout_action(rnd.getrandbits(64)))
    lines = game.render(state, 0, compact=True).split("\n")
    assert lines[0].endswith("seat 0 beats Jana" if state.winners() else "Jana wins")
    assert lines[2].startswith(f"  Jana: {state.jana_score()} pt")


def test_the_full_text_is_the_default_and_seats_are_checked() -> None:
    game = make(2)
    state = game.new_state(seed=1)
    assert game.render(state, 0, compact=False) == game.render(state, 0)
    assert len(game.render(state, 0).split("\n")) > ROWS
    with pytest.raises(InvalidOptionError):
        game.render(state, 2, compact=True)
