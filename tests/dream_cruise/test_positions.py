"""Dream Cruise positions from descriptions (docs/dream_cruise.md, "Setting up a position"):
positions reached by play described and set up again, whole and as each seat sees them, the
compact text, and hostile descriptions refused with every problem named."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState
from cruiselib.dream_cruise.position import (
    AdditionSpace,
    CabinSeat,
    DisplaySetPosition,
    DreamCruisePosition,
    SeatPosition,
)
from cruiselib.errors import InvalidPositionError
from tests.support import every_configuration, random_game

# The configurations every game is tested in (Dream Cruise's are its seat counts) ...
PLAYERS = tuple(options["players"] for name, options in every_configuration() if name == "dream_cruise")
# ... and the variants whose options change what a description holds.
VARIANTS = (
    {"players": 1, "difficulty": 3},  # Jana starts with three families (C9)
    {"players": 3, "additions": 4, "sea_ship_draw": True},  # four addition spaces (C6); C2's draws
    {"players": 2, "additions": 1, "route_points": (0, 2, 5, 10)},  # one space; another route table (C1)
)


@functools.cache
def game(players: int) -> DreamCruiseGame:
    made = cruiselib.make("dream_cruise", players=players)
    assert isinstance(made, DreamCruiseGame)
    return made


@functools.cache
def played_positions(players: int) -> tuple[DreamCruiseState, ...]:
    """Every 9th position of two seeded random games, their ends included."""
    return tuple(s for seed in (3, 4) for s in random_game(game(players), seed, every=9))


def play_on(state: DreamCruiseState, seed: int, steps: int = 40) -> list[Any]:
    """The actions of up to ``steps`` seeded random moves from ``state`` (a copy), then its
    scores and returns (the result, once the game is over)."""
    state = state.clone()
    rnd = random.Random(seed)
    out = []
    for _ in range(steps):
        if state.is_over:
            break
        action = rnd.choice(state.legal_actions())
        out.append(action)
        state.apply(action)
    return [*out, -1, *state.scores(), *state.returns()]


# ---------------------------------------------------------------------- positions of play


@pytest.mark.parametrize("players", PLAYERS)
def test_whole_table_sets_up_the_position_again(players: int) -> None:
    g = game(players)
    for s in played_positions(players):
        described = g.describe(s)
        assert described.seat is None and described.rng == s._to_data().rng
        assert g.position_problems(described) == []
        rebuilt = g.from_position(described)
        assert rebuilt.to_data() == s._to_data()
        as_json = msgspec.json.decode(msgspec.json.encode(described))  # a mapping, as a client sends it
        assert g.from_position(as_json).to_data() == s._to_data()
        text = g.position_text(s)
        assert "\n" not in text and g.read_position(text) == described
        assert g.from_position(text).to_data() == s._to_data()
        # The generator state came along: the rebuilt game plays on exactly as the original,
        # to the same end.
        assert rebuilt.legal_actions() == s.legal_actions()
        assert play_on(rebuilt, 7, steps=10_000) == play_on(s, 7, steps=10_000)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_view_deals_the_hidden_rest(players: int) -> None:
    g = game(players)
    dealt_differently = False
    for s in played_positions(players)[::3]:
        for seat in range(players):
            view = g.describe(s, seat)
            assert view.seat == seat and view.rng is None
            rebuilt = g.from_position(view, seed=1)
            assert rebuilt.view(seat, recall=True) == s.view(seat, recall=True)
            assert g.describe(rebuilt, seat) == view
            assert g.from_position(g.position_text(s, seat), seed=1).to_data() == rebuilt.to_data()
            other = g.from_position(view, seed=2)
            assert other.view(seat, recall=True) == s.view(seat, recall=True)
            dealt_differently = dealt_differently or other.to_data().ship_deck != rebuilt.to_data().ship_deck
            if rebuilt.current_player == seat:  # the seat's own choices are what it sees
                assert rebuilt.legal_actions() == s.legal_actions()
            play_on(rebuilt, 3, steps=10)
    assert dealt_differently  # the unseen ship deck is dealt anew from the seed


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_variants_set_up_again(options: dict[str, Any]) -> None:
    g = cruiselib.make("dream_cruise", **options)
    assert isinstance(g, DreamCruiseGame)
    for s in random_game(g, 6, every=12):
        assert g.from_position(g.position_text(s)).to_data() == s._to_data()
        for seat in range(g.num_players):
            view = g.describe(s, seat)
            rebuilt = g.from_position(g.position_text(view), seed=3)
            assert rebuilt.view(seat, recall=True) == s.view(seat, recall=True)
            assert g.describe(rebuilt, seat) == view


def test_a_seat_view_hides_what_the_table_hides() -> None:
    g = game(3)
    s = next(x for x in played_positions(3) if x.phase == "entertainment")
    view = g.describe(s, 1)
    assert isinstance(view.seats[0].hand, int) and isinstance(view.seats[1].hand, list)
    assert isinstance(view.family_deck, int) and isinstance(view.ship_deck, int)
    assert isinstance(view.family_box, int) and isinstance(view.location_deck, int)
    face_down = view.display[0]
    assert isinstance(face_down.cards, int) or face_down.taken_by is not None
    # What seat 1 remembers (C26): the cards every seat saw taken face up, its own included.
    assert [seat.known for seat in view.seats] == [
        [g.cards.ships[x].name for x in memory] for memory in s.view(1, recall=True).recall or []
    ]
    text = g.position_text(view)
    assert text.split()[3] == "1" and "?" in text


@functools.cache
def remembered_positions(players: int) -> tuple[DreamCruiseState, ...]:
    """Positions of play where some seat holds hand cards the table saw it take."""
    return tuple(s for s in played_positions(players) if any(seat.known for seat in s._to_data().seats))


@pytest.mark.parametrize("players", [p for p in PLAYERS if p > 1])
def test_a_seat_view_keeps_what_the_seat_remembers(players: int) -> None:
    """C26: a seat's view lists the hand cards it saw the others take face up; the deal
    keeps them in those hands and deals only the rest, so the set-up state's information
    state for that seat is the original's."""
    g = game(players)
    positions = remembered_positions(players)
    assert len(positions) >= 3
    dealt_differently = False
    for s in positions[::2]:
        for seat in range(players):
            view = g.describe(s, seat)
            remembered = s.view(seat, recall=True)
            assert [p.known for p in view.seats] == [
                [g.cards.ships[x].name for x in memory] for memory in remembered.recall or []
            ]
            text = g.position_text(view)
            assert g.read_position(text) == view
            built = g.from_position(text, seed=1)
            assert built.view(seat, recall=True) == remembered
            assert g.describe(built, seat) == view
            other = g.from_position(view, seed=2)
            assert other.view(seat, recall=True) == remembered
            for p in range(players):
                if p != seat:  # the remembered cards stay; the rest of the hand is dealt anew
                    mine, theirs = built._to_data().seats[p], other._to_data().seats[p]
                    assert set(s._to_data().seats[p].known) <= set(mine.hand) & set(theirs.hand)
                    dealt_differently = dealt_differently or mine.hand != theirs.hand
    assert dealt_differently


def test_a_view_that_remembers_nothing_still_sets_up() -> None:
    """An older text, or a person who remembers nothing: the memory is empty."""
    g = game(3)
    s = remembered_positions(3)[-1]
    view = g.describe(s, 0)
    assert any(p.known for p in view.seats[1:])
    forgetful = replace(view, seats=[replace(p, known=[]) for p in view.seats])
    text = g.position_text(forgetful)
    assert "!" not in text
    built = g.from_position(text, seed=1)
    assert built.view(0) == s.view(0)
    assert built.view(0, recall=True).recall == [[], [], []]
    assert g.describe(built, 0) == forgetful


def test_hostile_memory_is_refused_by_name() -> None:
    g = game(2)
    s = next(x for x in remembered_positions(2) if x._to_data().seats[1].known and x._to_data().ship_discard)
    view = g.describe(s, 0)
    other = view.seats[1]
    assert isinstance(other.hand, int) and other.known
    first, discarded = other.known[0], view.ship_discard[0]
    assert isinstance(view.ship_deck, int)
    hostile = replace(
        view,
        seats=[
            replace(view.seats[0], known=[*view.seats[0].known, discarded]),
            replace(other, hand=1, known=[first, first, discarded]),
        ],
    )
    assert g.position_problems(hostile) == [
        f"{first} is listed twice in seat 1's known hand cards",
        f"{discarded} is both in seat 1's known hand cards and in the ship discard pile",
        f"seat 0's known card {discarded} is not in its hand",
        "seat 1's hand holds 1 card(s), fewer than the 3 known to be in it (C26)",
        # the hand's unseen card that the short count dropped is in sight nowhere
        f"seat 0's view hides {view.ship_deck} ship cards (the ship deck {view.ship_deck}, seat 1's hand besides "
        f"its known cards 0), but {view.ship_deck + 1} ship cards of the game are not in sight",
    ]
    with pytest.raises(InvalidPositionError) as raised:
        g.from_position(hostile, seed=1)
    assert list(raised.value.problems) == g.position_problems(hostile)
    unnamed = replace(view, seats=[view.seats[0], replace(other, known=[*other.known, "Zzyzx"])])
    assert g.position_problems(unnamed) == [
        "seat 1's known hand cards names 'Zzyzx', which is no ship card of this card set"
    ]
    # More remembered than the hand holds, the memory itself sound: the count is named.
    short = replace(view, seats=[view.seats[0], replace(other, hand=len(other.known) - 1)])
    assert g.position_problems(short) == [
        f"seat 1's hand holds {len(other.known) - 1} card(s), fewer than the {len(other.known)} known to be in it (C26)"
    ]
    # The text: a count stands last, beside known cards only.
    hand = g.position_text(view).split()[4].split("/")[1].split(",")[5]
    assert hand.endswith(".?" + str(other.hand - len(other.known))) and hand.count("!") == len(other.known)
    fields = g.position_text(view).split(" ")
    for bad, problem in (
        (hand.replace("!", "", 1), "beside a count of unseen cards: only known cards (marked '!') are named there"),
        (hand.replace(".?", ".?x", 1), "is not a count of 0..96"),
        (hand.replace(".?", ".?1.?", 1), "'?1': a hand gives one count of unseen cards, last"),
    ):
        text = " ".join([*fields[:4], fields[4].replace(hand, bad), *fields[5:]])
        found = g.position_problems(text)
        assert any(problem in p and p.startswith("seat 1 hand") for p in found), (bad, found)


def test_solo_view_counts_janas_pile_until_the_end() -> None:
    g = cruiselib.make("dream_cruise", players=1, difficulty=2)
    states = random_game(g, 11, every=15)
    running, finished = states[1], states[-1]
    assert running.view(0).jana is not None
    mid = g.describe(running, 0)
    assert mid.jana is not None and mid.jana.pile == running.view(0).jana.pile_size
    end = g.describe(finished, 0)
    assert end.jana is not None and isinstance(end.jana.pile, list) and len(end.jana.pile) >= 2
    for s in (running, finished):
        assert g.from_position(g.position_text(s, 0), seed=4).view(0) == s.view(0)
        assert g.from_position(g.position_text(s)).to_data() == s._to_data()


def test_both_cores_agree() -> None:
    g = game(2)
    twin = g.pure_twin()
    for s in played_positions(2)[::3]:
        described = g.describe(s)
        assert twin.describe(twin.load_state(s.to_json())) == described
        assert twin.from_position(described).to_data() == g.from_position(described).to_data()
        view = g.describe(s, 1)
        assert twin.from_position(view, seed=9).to_data() == g.from_position(view, seed=9).to_data()
    broken = replace(g.describe(played_positions(2)[2]), to_act=None)
    assert twin.position_problems(broken) == g.position_problems(broken) != []


# ---------------------------------------------------------------------- hostile descriptions


def test_several_problems_at_once_are_all_named() -> None:
    g = game(2)
    s = g.new_state(seed=5)  # round 1, phase 2
    d = g.describe(s)
    seat0 = d.seats[0]
    deck = list(d.ship_deck)
    assert isinstance(deck, list)
    stolen = deck.pop()
    broken = replace(
        d,
        seats=[
            replace(seat0, hand=[stolen], points_pile=[d.family_deck[0]]),
            d.seats[1],
        ],
        ship_deck=[*deck, stolen],
    )
    problems = g.position_problems(broken)
    family = d.family_deck[0]
    assert problems == [
        f"the {family} family is both in seat 0's points pile and in the family deck",
        f"{stolen} is both in seat 0's hand and in the ship deck",
        # a satisfied family in round 1: its cabin would have drawn two from the deck
        "the family deck holds 24 card(s): 2 of its 24 were drawn (two for each satisfied family's cabin), which "
        "leaves 22 (C8, C16)",
    ]
    with pytest.raises(InvalidPositionError) as raised:
        g.from_position(broken)
    assert list(raised.value.problems) == problems
    assert "3 problems" in str(raised.value)


def test_counts_that_play_fixes_are_checked() -> None:
    g = game(2)
    d = g.describe(g.new_state(seed=5))
    deck = d.family_deck
    assert isinstance(deck, list)
    short = replace(d, family_deck=deck[:-3], family_box=[*d.family_box, *deck[-3:]])
    assert g.position_problems(short) == [
        "the family deck holds 21 card(s): 0 of its 24 were drawn (two for each satisfied family's cabin), which "
        "leaves 24 (C8, C16)"
    ]
    turned = replace(d, to_act=None)
    assert g.position_problems(turned) == ["the seat to act is missing"]


def test_a_seat_view_needs_a_deal_of_the_rest() -> None:
    g = game(2)
    s = g.new_state(seed=5)
    view = g.describe(s, 0)
    assert isinstance(view.ship_deck, int)
    more = replace(view, ship_deck=view.ship_deck + 1, location_deck=5)
    assert g.position_problems(more) == [
        "seat 0's view hides 8 location cards (the location deck 5, seat 1's drawn cards 3), but 51 location cards "
        "of the game are not in sight",
        "seat 0's view hides 73 ship cards (the ship deck 73, seat 1's hand 0), but 72 ship cards "
        "of the game are not in sight",
    ]
    hidden_shown = replace(view, ship_deck=[], seats=[replace(view.seats[0], hand=0), view.seats[1]])
    assert g.position_problems(hidden_shown) == [
        "seat 0 sees seat 0's hand: its view lists the cards, not a count",
        "seat 0 cannot see the ship deck: its view gives a count, not the cards",
    ]
    assert g.position_problems(replace(g.describe(s), ship_deck=3)) == [
        "the whole table lists the ship deck card by card, not as a count"
    ]
    listed = replace(view, family_deck=[], rng="0123456789abcdef")
    assert g.position_problems(listed) == [
        "a seat's view gives no generator state: what it hides is dealt anew",
        "seat 0 cannot see the family deck: its view gives a count, not the cards",
    ]


def test_structs_built_in_python_are_bounded() -> None:
    g = game(2)
    d = g.describe(g.new_state(seed=5))
    wild = replace(d, seats=[replace(d.seats[0], cabins=[CabinSeat(family="Adler", waiting=99)] * 3), d.seats[1]])
    (problem,) = g.position_problems(wild)
    assert problem.startswith("not a description: Expected `int` <= 6")
    assert g.position_problems(replace(d, seats=d.seats[:1])) == ["the description has 1 seat(s); this game has 2"]
    assert g.position_problems({"phase": "over"}) != []


def _mutations(d: DreamCruisePosition, rnd: random.Random) -> Iterator[tuple[str, DreamCruisePosition]]:
    """One change at a time: the turn, phase and token, counts, cards moved, duplicated,
    dropped, figures and the captain."""
    n = len(d.seats)
    phases = ["boarding", "set_course", "entertainment", "set_sail", "over"]
    yield "phase", replace(d, phase=rnd.choice([p for p in phases if p != d.phase]))
    yield "to_act", replace(d, to_act=rnd.randrange(n) if d.to_act is None else (d.to_act + 1) % n)
    yield "start", replace(d, start_player=(d.start_player + 1) % n)
    yield "order", replace(d, order_from=(d.start_player + 1) % n)
    if d.seat is None:
        yield "view of the whole", replace(d, seat=0)
    else:
        yield "seat", replace(d, seat=(d.seat + 1) % n)
    p = rnd.randrange(n)
    seat = d.seats[p]

    def with_seat(**changes: Any) -> DreamCruisePosition:
        return replace(d, seats=[replace(seat, **changes) if q == p else s for q, s in enumerate(d.seats)])

    c = rnd.randrange(3)
    cabins = list(seat.cabins)
    cabins[c] = replace(cabins[c], waiting=min(6, cabins[c].waiting + 1))
    yield "waiting+1", with_seat(cabins=cabins)
    cabins = list(seat.cabins)
    cabins[c] = replace(cabins[c], waiting=max(0, cabins[c].waiting - 1))
    yield "waiting-1", with_seat(cabins=cabins)
    cabins = list(seat.cabins)
    cabins[c] = CabinSeat()
    yield "cabin emptied", with_seat(cabins=cabins)
    yield "guest on top", with_seat(top_guests=[*(g for g in seat.top_guests if g != "balcony"), "balcony"])
    yield "captain", with_seat(captain=rnd.choice(["location top", "location bottom", "second sea slot"]))
    yield "location dropped", with_seat(location=None)
    yield "earlier dropped", with_seat(earlier_locations=seat.earlier_locations[1:])
    yield (
        "guest on addition",
        with_seat(additions=[AdditionSpace(card=a.card, guests=["inner"]) for a in seat.additions]),
    )
    if isinstance(seat.hand, list):
        if seat.hand:
            yield "hand card dropped", with_seat(hand=seat.hand[1:])
            yield "hand card doubled", with_seat(hand=[*seat.hand, seat.hand[0]])
            yield (
                "hand card discarded",
                replace(with_seat(hand=seat.hand[1:]), ship_discard=[*d.ship_discard, seat.hand[0]]),
            )
    else:
        yield "hand count+1", with_seat(hand=seat.hand + 1)
        yield "hand count-1", with_seat(hand=max(0, seat.hand - 1))
    if seat.known:  # what the seat remembers (C26): forgotten, or remembered twice
        yield "known forgotten", with_seat(known=seat.known[1:])
        yield "known doubled", with_seat(known=[*seat.known, seat.known[0]])
    if d.ship_discard:  # a card in sight remembered in this hand
        yield "known from the discard pile", with_seat(known=[*seat.known, d.ship_discard[0]])
    if isinstance(seat.drawn, int):
        yield "drawn count+1", with_seat(drawn=min(6, seat.drawn + 1))
    elif seat.drawn:
        yield "drawn dropped", with_seat(drawn=seat.drawn[1:])
    if seat.points_pile:
        yield (
            "pile to discard",
            replace(
                with_seat(points_pile=seat.points_pile[1:]), family_discard=[*d.family_discard, seat.points_pile[0]]
            ),
        )
    for field in ("family_deck", "location_deck", "ship_deck", "family_box"):
        zone = getattr(d, field)
        if isinstance(zone, int):
            yield f"{field} count", replace(d, **{field: zone + rnd.choice((-1, 1)) if zone else 1})
        elif zone:
            yield f"{field} dropped", replace(d, **{field: zone[1:]})
            yield f"{field} doubled", replace(d, **{field: [*zone, zone[0]]})
            if field in ("family_deck", "family_box"):  # a family satisfied without its cabin's draw
                last = replace(d.seats[-1], points_pile=[*d.seats[-1].points_pile, zone[0]])
                yield f"{field} into a pile", replace(d, **{field: zone[1:]}, seats=[*d.seats[:-1], last])
    if d.display:
        k = rnd.randrange(len(d.display))
        taken = d.display[k].taken_by
        sets = list(d.display)
        sets[k] = DisplaySetPosition(cards=[], taken_by=rnd.randrange(n) if taken is None else None)
        yield "display taken", replace(d, display=sets)
    else:
        yield "display added", replace(d, display=[DisplaySetPosition()] * 4)
    if d.jana is not None:
        pile = d.jana.pile
        yield "jana pile", replace(d, jana=replace(d.jana, pile=pile[1:] if isinstance(pile, list) else pile + 1))
        yield "jana locations", replace(d, jana=replace(d.jana, locations=d.jana.locations[1:]))


def _sweep(players: int, every: int) -> tuple[int, int, set[str]]:
    """How many mutations were refused and built, and the names of those built."""
    g = game(players)
    rnd = random.Random(players)
    refused = built = 0
    sound: set[str] = set()
    for s in played_positions(players)[::every]:
        for seat in (None, rnd.randrange(players)):
            for name, mutated in _mutations(g.describe(s, seat), rnd):
                problems = g.position_problems(mutated)
                if problems:
                    assert all(not p.startswith("the engine refuses") for p in problems), (name, problems)
                    with pytest.raises(InvalidPositionError) as raised:
                        g.from_position(mutated, seed=1)
                    assert list(raised.value.problems) == problems, name
                    refused += 1
                    continue
                try:
                    state = g.from_position(mutated, seed=1)
                except InvalidPositionError as exc:  # pragma: no cover - the failure's report
                    raise AssertionError(f"{name}: problems() passed what the engine refuses: {exc}") from None
                play_on(state, 2, steps=15)
                # A sound description is the position it sets up, whole or as its seat sees it.
                # (what the seat remembers, in a seat's view, included)
                same_order = mutated.order_from == mutated.start_player  # None says the same
                assert g.describe(state, mutated.seat) == (
                    replace(mutated, order_from=None) if same_order else mutated
                ), name
                built += 1
                sound.add(name)
    return refused, built, sound


@pytest.mark.parametrize("players", PLAYERS)
def test_mutations_are_refused_by_name_or_play(players: int) -> None:
    refused, built, sound = _sweep(players, every=3)
    assert refused > built > 0  # most single changes break a position reached by play; some are sound
    # A seat may forget a card it saw taken (the memory is its own), never remember one twice
    # or one that lies in sight.
    assert "known doubled" not in sound and "known from the discard pile" not in sound
    if players > 1:
        assert "known forgotten" in sound


@pytest.mark.slow
def test_mutation_sweep_of_more_positions() -> None:
    """The sweep over every sixth position of another game per seat count and per variant
    (the fast test takes every third position of two games per seat count): a single change
    is refused by name, or it sets up a state that plays."""
    for options in [{"players": p} for p in PLAYERS] + list(VARIANTS):
        g = cruiselib.make("dream_cruise", **options)
        rnd = random.Random(100 + g.num_players)
        for s in random_game(g, 21, every=6):
            for seat in (None, rnd.randrange(g.num_players)):
                for name, mutated in _mutations(g.describe(s, seat), rnd):
                    problems = g.position_problems(mutated)
                    if problems:
                        with pytest.raises(InvalidPositionError) as raised:
                            g.from_position(mutated, seed=1)
                        assert list(raised.value.problems) == problems, name
                    else:
                        play_on(g.from_position(mutated, seed=1), 2, steps=15)


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        (
            "",
            [
                "the text has 0 field(s) separated by spaces; a position has 11: phase, seat to act, start player, "
                "whose view, seats, display, families, location cards, ship cards, Jana, generator state"
            ],
        ),
        ("set_sail 0 0 * x", None),
        (
            "dancing 9 0 * -/- - -,-,- -,- -,- - zz",
            [
                "phase: 'dancing' is none of boarding, set_course, entertainment, set_sail, over",
                "seat to act: '9' is not a count of 0..3",
                "seat 0: 1 part(s) separated by ',', not 7",
                "seat 1: 1 part(s) separated by ',', not 7",
                "generator state: 'zz' is not 16 lower-case hex digits",
            ],
        ),
    ],
)
def test_garbage_texts_are_refused(text: str, problems: list[str] | None) -> None:
    g = game(2)
    with pytest.raises(InvalidPositionError) as raised:
        g.from_position(text)
    if problems is not None:
        assert list(raised.value.problems) == problems
    assert g.position_problems(text) == list(raised.value.problems)


def test_texts_with_a_wrong_part_name_it() -> None:
    g = game(2)
    s = played_positions(2)[3]
    text = g.position_text(s)
    fields = text.split(" ")
    hand_card = g.describe(s).seats[0].hand
    cases = {
        "unknown label": text.replace(fields[4][:3], "Zzyzx", 1),
        "huge count": g.position_text(s, 0).replace("?", "?99999999", 1),
        "extra field": text + " extra",
        "truncated": text[: len(text) // 2],
        "too many seats": text.replace(fields[4], "/".join([fields[4]] * 3)),
    }
    for name, bad in cases.items():
        problems = g.position_problems(bad)
        assert problems, name
        with pytest.raises(InvalidPositionError):
            g.from_position(bad)
    assert "'Zzyzx" in g.position_problems(cases["unknown label"])[0]
    assert "is not a count" in " ".join(g.position_problems(cases["huge count"]))
    assert isinstance(hand_card, list)


def test_game_options_are_the_game_objects() -> None:
    two = game(2)
    text = two.position_text(two.new_state(seed=1))
    assert game(1).position_problems(text) == [
        "the description has 2 seat(s); this game has 1",
        "the seat to act is seat 1; this game has seats 0..0",
        "the start player is seat 1; this game has seats 0..0",
        "a solo game describes Jana's table (C9)",
    ]
    three_spaces = cruiselib.make("dream_cruise", players=2, additions=3)
    assert three_spaces.position_problems(text) == [
        "seat 0's ship board has 2 addition space(s); this game's have 3 (C6)",
        "seat 1's ship board has 2 addition space(s); this game's have 3 (C6)",
    ]
    assert two.json_schemas()["position"]["$ref"].endswith("DreamCruisePosition")


def test_typos_in_texts_are_refused_by_name_or_set_up() -> None:
    """Characters deleted, inserted or changed in texts of played positions: each text is
    refused naming its problems, or it is a sound position that sets up."""
    rnd = random.Random(8)
    g = game(3)
    built = 0
    for s in played_positions(3)[::4]:
        for seat in (None, 2):
            text = list(g.position_text(s, seat))
            for _ in range(12):
                typo = text.copy()
                typo[rnd.randrange(len(typo))] = rnd.choice("aZ09?-.,:/=*!@+> é")
                problems = g.position_problems("".join(typo))
                if not problems:
                    g.from_position("".join(typo), seed=1)
                    built += 1
                    continue
                with pytest.raises(InvalidPositionError) as raised:
                    g.from_position("".join(typo), seed=1)
                assert list(raised.value.problems) == problems
    assert built < 12 * 2 * len(played_positions(3)[::4]) // 4


def test_description_schema_bounds_hostile_input() -> None:
    schema = msgspec.json.schema(DreamCruisePosition)
    seat = schema["$defs"]["SeatPosition"]["properties"]
    assert seat["hand"]["anyOf"][0]["maxItems"] == 96
    assert schema["$defs"]["CabinSeat"]["properties"]["waiting"]["maximum"] == 6
    assert SeatPosition.__doc__ and DreamCruisePosition.__doc__


def test_the_docs_texts_set_up() -> None:
    """The texts of docs/dream_cruise.md, "Setting up a position", read and write back alike."""
    page = (Path(__file__).parents[2] / "docs" / "dream_cruise.md").read_text()
    section = page[page.index("## Setting up a position") : page.index("## Component data")]
    texts = [line for block in re.findall(r"```text\n(.*?)```", section, re.S) for line in block.splitlines()]
    assert len(texts) == 4
    assert "GameNight!.Bingo!.?0" in texts[3]  # what seat 0 remembers of seat 1's hand
    for text in texts:
        players = len(text.split()[4].split("/"))
        g = game(players)
        assert g.position_problems(text) == []
        assert g.position_text(g.read_position(text)) == text
        g.from_position(text, seed=1)


def test_C30_a_guest_stands_only_where_its_family_may_be() -> None:
    """C30: a guest on an activity its family does not desire, without the captain there,
    is refused (play never puts one there: C5)."""
    g = game(2)
    cards = g.cards
    locations = {card.name: card for card in cards.locations}
    families = {family.name: family for family in cards.families}
    for state in played_positions(2):
        d = g.describe(state)
        for p, seat in enumerate(d.seats):
            if seat.location is None or seat.captain == "location top":
                continue
            top = locations[seat.location].top
            cabin = next(
                (
                    name
                    for name, c in zip(("inner", "oceanview", "balcony"), seat.cabins, strict=True)
                    if c.family is not None and top.type not in families[c.family].wants
                ),
                None,
            )
            if cabin is None:
                continue
            seats = list(d.seats)
            seats[p] = replace(seat, top_guests=[cabin])
            problems = g.position_problems(replace(d, seats=seats))
            assert any("(C5, C30)" in problem and "wants no" in problem for problem in problems), problems
            return
    pytest.fail("no position of play has a family that does not desire its location's top activity")


def test_C31_the_start_player_begins_the_order_until_the_face_down_set_moves_the_token() -> None:
    """C31: in phases 1 and 2 the start player begins the round's turn order; a description
    that starts it from another seat is refused."""
    g = game(3)
    d = next(g.describe(s) for s in played_positions(3) if s.phase in ("boarding", "set_course"))
    moved = replace(d, order_from=(d.start_player + 1) % 3)
    problems = g.position_problems(moved)
    assert any("(C19, C31)" in problem and "turn order" in problem for problem in problems), problems
    assert g.position_problems(d) == []
