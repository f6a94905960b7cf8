"""Sirens in Sight positions from descriptions (docs/sirens.md, "Setting up a position"):
positions reached by play described and set up again, whole and as each seat sees them,
the compact text, and hostile descriptions refused with every problem named.

Copies of a face are interchangeable (S12) and the builder numbers them itself, so a
rebuilt state is compared with the original card by card through the faces (value and
move-crew icon) it puts where, and exactly (ids included) once the builder made it."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

import cruiselib
from cruiselib.bots import make_bot
from cruiselib.errors import InvalidPositionError
from cruiselib.sirens import SirensGame, SirensState
from cruiselib.sirens.position import CrewDecision, SirensPosition
from tests.sirens.helpers import small_set
from tests.support import every_configuration, plays_on_alike, random_game

CONFIGURATIONS = [options for name, options in every_configuration() if name == "sirens"]
IDS = [options.get("variant", "standard") for options in CONFIGURATIONS]
SHIPS = (28, 30, 32, 34, 36)
ENGINE = "the engine refuses it"


@functools.cache
def game(variant: str) -> SirensGame:
    made = cruiselib.make("sirens", variant=variant)
    assert isinstance(made, SirensGame)
    return made


@functools.cache
def played(variant: str) -> tuple[SirensState, ...]:
    """Every 3rd position of three seeded random games, their ends included."""
    return tuple(s for seed in range(3) for s in random_game(game(variant), seed, every=3))


def variants() -> Iterator[str]:
    yield from IDS


def faces(state: Any) -> dict[str, Any]:
    """A state's snapshot with every card id replaced by its face (value, icon): hands and
    the removed cards as sorted lists, the piles and sides in order, an octopus by the
    place of its card; the variant's pick floors out of the pick phase matter to no rule
    (S19) and are left out."""
    data: dict[str, Any] = msgspec.to_builtins(state._to_data())
    cards = state.game.cards

    def face(c: int) -> tuple[int, bool]:
        return cards.cards[c].value, cards.cards[c].crew

    octopus = []
    for c in data["octopus"]:
        octopus.append(
            None
            if c < 0
            else next(
                (k, j, i) for k in range(5) for j in range(2) for i, x in enumerate(data["sides"][k][j]) if x == c
            )
        )
    data["octopus"] = octopus
    data["hands"] = [sorted(map(face, h)) for h in data["hands"]]
    data["removed"] = sorted(map(face, data["removed"]))
    data["piles"] = [sorted(map(face, p)) if data["phase"] == "pick" else [face(c) for c in p] for p in data["piles"]]
    data["sides"] = [[[face(c) for c in side] for side in ship] for ship in data["sides"]]
    if data["phase"] != "pick":
        del data["pick_floor"]
    del data["deal"], data["history"]
    return data


def view_faces(view: Any) -> Any:
    """A view with its cards named by face (ids and emblems left out, S12), hands and the
    removed cards sorted."""

    def strip(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            if "value" in value and "crew" in value and "emblem" in value:
                return (value["value"], value["crew"], value.get("octopus"))
            return {k: strip(v, k) for k, v in value.items()}
        if isinstance(value, list):
            items = [strip(v) for v in value]
            return sorted(items, key=repr) if key in ("hand", "removed", "own_pile") else items
        return value

    return strip(msgspec.to_builtins(view))


# ---------------------------------------------------------------------- the whole table


@pytest.mark.parametrize("variant", IDS)
def test_whole_table_round_trip(variant: str) -> None:
    """A described position sets up the same position (by faces), through the Struct, the
    text and decoded JSON; the builder's own states come back exactly."""
    g = game(variant)
    for state in played(variant):
        described = g.describe(state)
        assert g.position_problems(described) == []
        text = g.position_text(state)
        assert g.read_position(text) == described
        assert g.position_text(described) == text
        rebuilt = g.from_position(described)
        assert faces(rebuilt) == faces(state)
        assert g.describe(rebuilt) == described
        assert faces(g.from_position(text)) == faces(state)
        assert g.describe(g.from_position(msgspec.to_builtins(described))) == described
        again = g.from_position(g.describe(rebuilt))
        assert again.to_data() == rebuilt.to_data()
        assert rebuilt.to_data().history == [] and rebuilt.to_data().deal is None


@pytest.mark.parametrize("variant", IDS)
def test_rebuilt_plays_on_like_the_original(variant: str) -> None:
    """Same legal moves and the same table after each of the same random moves, to the end."""
    g = game(variant)
    for n, state in enumerate(played(variant)[::4]):
        original = state.clone()
        rebuilt = g.from_position(g.position_text(state))
        plays_on_alike(original, rebuilt, n, same=g.describe)


def test_S21_derived_from_history() -> None:
    """What history alone fixes is derived: the cards out of play of a whole table (every
    card not elsewhere); the second pass of a game ended by passes below."""
    g = game("standard")
    state = next(s for s in played("standard") if s.to_data().removed)
    described = g.describe(state)
    assert described.removed
    derived = replace(described, removed=None)
    assert g.position_problems(derived) == []
    assert faces(g.from_position(derived)) == faces(state)
    assert g.position_text(derived).split()[5] == "?"


def test_S20_picks_come_back_exactly() -> None:
    """Where play itself fixes which copy lies where (the picks take the lowest id of a face,
    S12; the sets wait in id order, S15), the builder numbers the copies as play does: a
    position of the pick phase comes back exactly, ids and pick floors included."""
    g = game("bow_to_rear")
    picking = [s for s in played("bow_to_rear") if s.phase_name == "pick"]
    assert len(picking) >= 2
    for state in picking:
        assert g.from_position(g.describe(state)).to_data() == state._to_data()


def test_ended_by_two_passes() -> None:
    """A game over with ship cards in play and no seat at 4 points ended by two passes (S4):
    the builder gives it the second pass; a seat that could still act refutes it. (The
    standard deck cannot end so: 52 cards do not fit beside the ship cards and out of play
    without a side scoring; a set of 8 can.)"""
    g = cruiselib.make("sirens", cards=small_set(8))
    text = "10,9*0|10,9*1/0a,0a|-4a,-4a/-|-/-|-/-|- 30,34 h/h -/- - - 1 over 0 - 0/0 all"
    assert g.position_problems(text) == []
    state = g.from_position(text)
    assert state.is_over and state.to_data().passes == 2
    assert str(g.end_reason(state)).startswith("Two passes in a row ended the game")
    octopus_back = text.replace("9*1", "9")
    assert g.position_problems(octopus_back) == [
        "the game is over with ship cards in play and no seat at 4 points, so both seats passed (S4), "
        "but seat 1 has a card to play or an octopus move"
    ]
    going_on = text.replace(" over ", " main ")
    assert g.position_problems(going_on) == []
    moves = {str(g.action_to_move(a)) for a in g.from_position(going_on).legal_actions()}
    assert moves == {"pass", *(f"rum on ship {ship}" for ship in SHIPS)}  # S4: the mug may still be used


# ---------------------------------------------------------------------- a seat's view


@pytest.mark.parametrize("variant", IDS)
def test_seat_view(variant: str) -> None:
    """A seat's view sets up a state that seat sees exactly as in the original, the hidden
    rest dealt by the seed: different seeds deal it differently where it can differ."""
    g = game(variant)
    dealt_differently = 0
    for state in played(variant)[::3]:
        for seat in (0, 1):
            view = g.describe(state, seat)
            assert g.position_problems(view) == []
            text = g.position_text(state, seat)
            assert g.read_position(text) == view
            rebuilt = [g.from_position(text, seed=k) for k in range(4)]
            for r in rebuilt:
                assert view_faces(r.view(seat)) == view_faces(state.view(seat))
                assert g.describe(r, seat) == view
            # The cards hidden from the seat are the same for every seed (the view fixes
            # them); with two faces among them or more, four seeds deal them differently.
            whole = g.describe(rebuilt[0])
            other = 1 - seat
            hidden = [*whole.hands[other], *whole.piles[other if variant == "bow_to_rear" else 0]]
            deals = {g.position_text(r) for r in rebuilt}
            if len(set(hidden)) > 1 and state.phase_name != "pick":
                assert len(deals) > 1
            dealt_differently += len(deals) > 1
    assert dealt_differently > 10


def test_seat_view_needs_counts() -> None:
    """A seat's view gives what it cannot see as counts, and only that."""
    g = game("standard")
    state = played("standard")[4]
    view = g.describe(state, 0)
    whole = g.describe(state)
    other_hand = whole.hands[1]
    assert isinstance(other_hand, list)
    peeking = replace(view, hands=[view.hands[0], other_hand], piles=whole.piles)
    assert g.position_problems(peeking) == [
        "seat 1's hand is hidden from seat 0: give how many cards it holds",
        "the draw pile is hidden from seat 0: give how many cards it holds",
    ]
    assert isinstance(view.hands[1], int) and isinstance(view.piles[0], int)
    miscounted = replace(view, piles=[view.piles[0] + 1])
    seen = 52 - view.hands[1] - view.piles[0]
    assert g.position_problems(miscounted) == [
        f"seat 0 sees {seen} of the 52 cards, so {52 - seen} are hidden from it, but seat 1's hand and the draw "
        f"pile hold {view.hands[1]} + {view.piles[0] + 1}"
    ]
    assert g.position_problems(replace(view, rng="0123456789abcdef")) == [
        "a seat's view gives no generator state: the hidden cards are dealt anew"
    ]


def test_variant_view_counts_the_other_set() -> None:
    """In the variant a seat knows its own remaining cards (S9); the other seat's hidden
    hand and pile hold what of the other set is out of sight."""
    g = game("bow_to_rear")
    state = next(s for s in played("bow_to_rear") if s.phase_name == "main")
    view = g.describe(state, 1)
    assert isinstance(view.piles[1], list) and isinstance(view.piles[0], int)
    hidden = view.hands[0]
    assert isinstance(hidden, int) and isinstance(view.piles[0], int)
    fewer = replace(view, hands=[hidden - 1, view.hands[1]])
    assert g.position_problems(fewer) == [
        f"{hidden + view.piles[0]} cards of seat 0's set are out of seat 1's sight, but seat 0's hand and draw "
        f"pile hold {hidden - 1} + {view.piles[0]}"
    ]


# ---------------------------------------------------------------------- hostile descriptions


def start_position() -> SirensPosition:
    """The description of a fixed deal: seat 0 to play, nothing on the table."""
    g = game("standard")
    described = g.describe(g.new_state(7, start_player=0))
    assert isinstance(described, SirensPosition)
    return described


def test_every_problem_named_at_once() -> None:
    """A table that breaks several rules is refused with all of them, and nothing is built."""
    g = game("standard")
    start = start_position()
    pile = start.piles[0]
    assert isinstance(pile, list) and "5" in pile
    sides = [[list(side) for side in ship] for ship in start.sides]
    sides[0][1] = ["5"]
    rest = list(pile)
    rest.remove("5")
    broken = replace(
        start,
        ships=["won by seat 1", "in play", "in play", "in play", "in play"],
        sides=sides,
        piles=[rest],
        crew=[32, 32],
        rum=["gone", 28],
        points=[0, 0],
    )
    problems = [
        "ship 28 is out of play (won by seat 1) but has cards beside it",
        "seat 1's rum mug stands on ship 28, which is out of play",
        "the captain and the mate both stand on ship 32",
        "the points are given as 0:0, the table makes them 0:1 (a point per ship card and crew token won, S8)",
        "0 cards are out of play, but the ship cards out of play took between 3 and 10 cards with them (S6)",
    ]
    assert g.position_problems(broken) == problems
    with pytest.raises(InvalidPositionError) as refused:
        g.from_position(broken)
    assert list(refused.value.problems) == problems
    # Cards twice over and nowhere: every face named.
    doubled = replace(start, hands=[["10", "10", "10", "10"], start.hands[1]])
    assert g.position_problems(doubled) == [
        "there are 8 cards 10: the card set has 4",
    ]


def test_bad_sizes_named_at_once() -> None:
    """A Struct made in Python is not checked against its schema: the sizes are problems."""
    g = game("standard")
    start = start_position()
    sides = [[list(side) for side in ship] for ship in start.sides]
    sides[2][0] = ["1"] * 6
    broken = replace(start, sides=sides, hands=[["1"] * 5, 9], points=[0, 7], turn=2)
    assert g.position_problems(broken) == [
        "the turn is 2, not a number from 0 to 1",
        "seat 0's side of ship 32: 6 cards, at most 5 (S5)",
        "seat 0's hand: 5 cards, at most 4 (S3)",
        "seat 1's hidden hand is 9, not a number from 0 to 4",
        "seat 1's points is 7, not a number from 0 to 5",
    ]


def test_crew_decision_problems() -> None:
    g = game("standard")
    start = start_position()
    crew_phase = replace(start, phase="crew", crew_move=CrewDecision(ship=30, side=1))
    assert g.position_problems(crew_phase) == [
        "the crew decision on ship 30: seat 1's side holds no card, so none was placed there"
    ]
    assert g.position_problems(replace(start, crew_move=CrewDecision(ship=30, side=1))) == [
        "a crew decision is given but the phase is 'main': it waits only in the 'crew' phase"
    ]
    assert g.position_problems(replace(start, phase="crew")) == ["the phase is 'crew' but no crew decision is given"]


GARBAGE = [
    "",
    "1,1,1,1,1,1|-/-|-/-|-/-|-/-|- 30,34 h/h 1,2,3,4,5/?4 ?44 - 0 main 0 - 0/0 0",
    "-|-/-|-/-|-/-|-/-|-",
    "-|-/-|-/-|-/-|-/-|- 30,34 h/h ?4/?4 ?44 - 0 main 0 - 0/0 0 0123456789abcdef extra",
    "-|-/-|-/-|-/-|- 30,34 h/h ?4/?4 ?44 - 0 main 0 - 0/0 0",
    "-|-/-|-/-|-/-|-/-|- 30,34 h/h 11,12,3,4/?4 ?44 - 0 main 0 - 0/0 0",
    "-|-/-|-/-|-/-|-/-|- 30,34 h/h 1,2,3,4/?99999999 ?44 - 0 main 0 - 0/0 0",
    "-|-/-|-/-|-/-|-/-|- 30,99999 h/7 1,2,3,4/?4 ?44 - 2 play 0 maybe 9/0 3",
    "-|-/-|-/-|-/-|-/-|- 30,34 h/h 7b,2,3,4/?4 ?44 - 0 main 0 - 0/0 0",
    "-|-/-|-/-|-/-|-/-|- 30,34 h/h 1,2,3,4/?4 ?44/?3/?2 - 0 crew:32 0 - 0/0 0",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_texts(text: str) -> None:
    """Truncated texts, extra fields, unknown labels and huge numbers: every problem named."""
    g = game("standard")
    with pytest.raises(InvalidPositionError) as refused:
        g.from_position(text)
    problems = list(refused.value.problems)
    assert problems and not any(ENGINE in p for p in problems)
    assert g.position_problems(text) == problems
    with pytest.raises(InvalidPositionError):
        g.read_position(text)


def test_garbage_text_names_every_problem() -> None:
    g = game("standard")
    text = "-|-/-|-/-|-/-|-/-|- 30,99999 h/7 1,2,3,4/?4 ?44 - 2 play 0 maybe 9/0 3"
    assert g.position_problems(text) == [
        "the mate: '99999' is not a number from 1 to 999",
        "the turn: '2' is not a number from 0 to 1",
        "the phase 'play' is none of pick, main, after, over, crew:SHIP/SEAT, crew:SHIP/SEAT:FROM",
        "the passes field is 'pass' (the last turn was a pass) or '-', not 'maybe'",
        "seat 0's points: '9' is not a number from 0 to 5",
        "the seat: '3' is not a number from 0 to 1",
    ]
    # A sound text of the same shape reads; rum 7 names no ship card of the set.
    assert g.position_problems("-|-/-|-/-|-/-|-/-|- 30,34 h/7 1,2,3,4/?4 ?44 - 0 main 0 - 0/0 0") == [
        "seat 1's rum mug stands on ship 7: there is no such ship card"
    ]


def test_variant_implied_by_the_game() -> None:
    """The number of draw piles follows the game's variant: a text that disagrees is refused."""
    standard, variant = game("standard"), game("bow_to_rear")
    text = standard.position_text(played("standard")[0])
    assert variant.position_problems(text)[0] == "the 'bow_to_rear' variant has a draw pile per seat, not 1"
    text = variant.position_text(played("bow_to_rear")[-1])
    assert standard.position_problems(text)[0] == "this game has one shared draw pile, not 2"


def test_hostile_mappings() -> None:
    """Decoded JSON is checked against the description's schema: huge numbers, wrong
    types and unknown fields are refused by name, nothing built."""
    g = game("standard")
    sound = msgspec.to_builtins(start_position())
    assert g.position_problems(sound) == []
    for change in (
        {"points": [0, 10**30]},
        {"hands": [["7"] * 40, 4]},
        {"sides": "everywhere"},
        {"seat": True},
        {"colour": "red"},
        {"phase": "lunch"},
    ):
        hostile = {**sound, **change}
        with pytest.raises(InvalidPositionError) as refused:
            g.from_position(hostile)
        (problem,) = refused.value.problems
        assert problem.startswith("not a description: ")
        assert g.position_problems(hostile) == [problem]


def test_advice_for_a_seat() -> None:
    """A seat's view set up by a seed is a state every bot answers for that seat
    (docs/sirens.md, "Advice for a real table")."""
    g = game("standard")
    text = "9,6|6/4*0|9,3/-|7/-|9*1/7|8 30,34 32/32 0a,8,8,10/?4 ?34 - 0 main 0 - 0/0 0"
    state = g.from_position(text, seed=1)
    assert state.current_player == 0 and g.position_text(state, 0) == text
    candidates = make_bot("ismcts", iterations=200, seed=1).analyse(state)
    assert {c.action for c in candidates} == set(state.legal_actions())
    assert state.move_text(candidates[0].action).startswith(("play ", "octopus: "))


# ---------------------------------------------------------------------- the mutation sweep


def mutations(d: SirensPosition, rnd: random.Random) -> Iterator[SirensPosition]:
    """Descriptions one field away from ``d``: counts, cards moved, duplicated, dropped or
    renamed, octopus marks, scores, phase, turn, seat, ship cards, tokens, the crew move."""
    for p in range(2):
        for step in (-1, 1):
            points = list(d.points)
            points[p] = max(0, min(5, points[p] + step))
            yield replace(d, points=points)
        if isinstance(d.hands[p], int):
            hands = list(d.hands)
            hands[p] = max(0, min(4, d.hands[p] + rnd.choice((-1, 1))))  # type: ignore[operator]
            yield replace(d, hands=hands)
    for i, pile in enumerate(d.piles):
        if isinstance(pile, int):
            piles = list(d.piles)
            piles[i] = max(0, pile + rnd.choice((-1, 1)))
            yield replace(d, piles=piles)
    yield replace(d, phase=rnd.choice([ph for ph in ("pick", "main", "after", "crew", "over") if ph != d.phase]))
    yield replace(d, turn=1 - d.turn)
    yield replace(d, start_player=1 - d.start_player)
    yield replace(d, last_turn_passed=not d.last_turn_passed)
    yield replace(d, seat=rnd.choice([None, 0, 1]))
    ships = list(d.ships)
    k = rnd.randrange(5)
    ships[k] = rnd.choice(["in play", "won by seat 0", "won by seat 1", "removed"])
    yield replace(d, ships=ships)
    crew = list(d.crew)
    crew[rnd.randrange(2)] = rnd.choice([*SHIPS, "won by seat 0", "won by seat 1", "removed"])
    yield replace(d, crew=crew)
    rum = list(d.rum)
    rum[rnd.randrange(2)] = rnd.choice([*SHIPS, "held", "gone"])
    yield replace(d, rum=rum)
    if d.crew_move is None:
        yield replace(d, crew_move=CrewDecision(ship=rnd.choice(SHIPS), side=rnd.randrange(2)))
    else:
        yield replace(d, crew_move=replace(d.crew_move, side=1 - d.crew_move.side))
        yield replace(d, crew_move=replace(d.crew_move, from_ship=None if d.crew_move.from_ship else rnd.choice(SHIPS)))
    zones = card_zones(d)
    for _ in range(12):
        zone = rnd.choice(zones)
        cards = get_zone(d, zone)
        if not cards:
            continue
        i = rnd.randrange(len(cards))
        card = cards[i]
        plain = card.partition("*")[0]
        kind = rnd.choice(("drop", "duplicate", "move", "rename", "octopus"))
        if kind == "drop":
            yield put_zone(d, zone, cards[:i] + cards[i + 1 :])
        elif kind == "duplicate":
            other = rnd.choice(zones)
            yield put_zone(d, other, [*get_zone(d, other), plain])
        elif kind == "move":
            other = rnd.choice(zones)
            if other != zone:
                moved = put_zone(d, zone, cards[:i] + cards[i + 1 :])
                target = get_zone(moved, other)
                target.insert(rnd.randrange(len(target) + 1), card if other[0] == "side" else plain)
                yield put_zone(moved, other, target)
        elif kind == "rename":
            yield put_zone(
                d, zone, [*cards[:i], rnd.choice(("7", "-2a", "0a", "10", "-4", "11", "3a")), *cards[i + 1 :]]
            )
        else:
            yield put_zone(d, zone, [*cards[:i], plain + rnd.choice(("", "*0", "*1")), *cards[i + 1 :]])


Zone = tuple[str, int, int]


def card_zones(d: SirensPosition) -> list[Zone]:
    zones: list[Zone] = [("hand", p, 0) for p in range(2)] + [("pile", i, 0) for i in range(len(d.piles))]
    zones += [("side", k, j) for k in range(5) for j in range(2)]
    return [*zones, ("removed", 0, 0)]


def get_zone(d: SirensPosition, zone: Zone) -> list[str]:
    kind, a, b = zone
    found: Any = d.removed or []
    if kind == "hand":
        found = d.hands[a]
    elif kind == "pile":
        found = d.piles[a]
    elif kind == "side":
        found = d.sides[a][b]
    return [] if isinstance(found, int) else list(found)


def put_zone(d: SirensPosition, zone: Zone, cards: list[str]) -> SirensPosition:
    kind, a, b = zone
    if kind == "hand":
        hands: list[Any] = list(d.hands)
        hands[a] = cards
        return replace(d, hands=hands)
    if kind == "pile":
        piles: list[Any] = list(d.piles)
        piles[a] = cards
        return replace(d, piles=piles)
    if kind == "side":
        sides = [[list(side) for side in ship] for ship in d.sides]
        sides[a][b] = cards
        return replace(d, sides=sides)
    return replace(d, removed=cards)


def check_mutation(g: SirensGame, m: SirensPosition, moves: int = 30) -> bool:
    """Either problems, raised as they are listed, or a state that loads and plays
    ``moves`` random moves (reloaded after each); never the engine's refusal. True: it was
    sound."""
    problems = g.position_problems(m)
    if problems:
        with pytest.raises(InvalidPositionError) as refused:
            g.from_position(m, seed=1)
        assert list(refused.value.problems) == problems
        assert not any(ENGINE in p for p in problems)
        return False
    state = g.from_position(m, seed=1)
    rnd = random.Random(0)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))
        g.load_state(state.to_json())
    return True


def sweep(variant: str, positions: tuple[SirensState, ...], seed: int, moves: int = 30) -> tuple[int, int]:
    g = game(variant)
    rnd = random.Random(seed)
    sound = total = 0
    for state in positions:
        for seat in (None, 0, 1):
            for m in mutations(g.describe(state, seat), rnd):
                total += 1
                sound += check_mutation(g, m, moves)
    return sound, total


@pytest.mark.parametrize("variant", IDS)
def test_mutation_sweep(variant: str) -> None:
    sound, total = sweep(variant, played(variant)[::7], 1, moves=8)
    assert total > 300 and 0 < sound < total


@pytest.mark.slow
@pytest.mark.parametrize("variant", IDS)
def test_mutation_sweep_long(variant: str) -> None:
    positions = tuple(s for seed in range(10, 13) for s in random_game(game(variant), seed, every=3))
    sound, total = sweep(variant, positions, 2)
    assert total > 1500 and 0 < sound < total


@pytest.mark.parametrize("variant", IDS)
def test_custom_card_set(variant: str) -> None:
    """A card set of the user's own (S10): ids out of face order, low ship cards that
    score often. Described positions set up again and play on; a mutation sweep."""
    g = cruiselib.make("sirens", variant=variant, cards=small_set(16, ships=(3, 4, 5, 6, 7)))
    assert isinstance(g, SirensGame)
    rnd = random.Random(4)
    sound = total = 0
    for state in (s for seed in range(3) for s in random_game(g, seed, every=3)):
        for seat in (None, 0, 1):
            described = g.describe(state, seat)
            assert g.position_problems(described) == []
            rebuilt = g.from_position(g.position_text(described), seed=2)
            assert g.describe(rebuilt, seat) == described
            if seat is None:
                assert faces(rebuilt) == faces(state)
            for m in list(mutations(described, rnd))[::3]:
                total += 1
                sound += check_mutation(g, m, moves=8)
    assert total > 100 and 0 < sound < total


# ---------------------------------------------------------------------- both cores


@pytest.mark.parametrize("variant", IDS)
def test_both_cores_agree(variant: str) -> None:
    g = game(variant)
    twin = g.pure_twin()
    rnd = random.Random(3)
    for state in played(variant)[::6]:
        for seat in (None, 0, 1):
            described = g.describe(state, seat)
            assert twin.describe(twin.load_state(state.to_json()), seat) == described
            for m in [described, *list(mutations(described, rnd))[:6]]:
                problems = g.position_problems(m)
                assert twin.position_problems(m) == problems
                if not problems:
                    assert twin.from_position(m, seed=5).to_json() == g.from_position(m, seed=5).to_json()


def test_schema() -> None:
    g = game("standard")
    schema = g.json_schemas()["position"]
    assert "SirensPosition" in str(schema)
    decoded = msgspec.json.decode(msgspec.json.encode(g.describe(played("standard")[3])), type=SirensPosition)
    assert g.position_problems(decoded) == []
