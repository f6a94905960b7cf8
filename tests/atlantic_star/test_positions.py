"""Atlantic Star positions from descriptions (docs/atlantic_star.md, "Setting up a position").

Positions reached by play (2 to 6 players) are described, as the whole table and as each
seat sees it, written as compact text, and set up again: the whole table gives back the
very state (without its history), a seat's view a state that seat cannot tell from the
original, neither by what it sees nor by what it remembers (the ships it saw the others
charter, A14). Hostile descriptions are refused with every problem named, and a mutation sweep
shows that a description either has problems or sets up a state that plays: the engine's
own loader never refuses one the problems passed.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame, ShipList
from cruiselib.atlantic_star.position import AtlanticStarPosition, SeaPosition, SeatPosition, VoyagePosition
from cruiselib.bots import make_bot
from tests.support import plays_on_alike, random_game

PLAYERS = (2, 3, 4, 5, 6)


@cache
def game(players: int) -> AtlanticStarGame:
    made = cruiselib.make("atlantic_star", players=players)
    assert isinstance(made, AtlanticStarGame)
    return made


@cache
def played(players: int, seed: int) -> tuple[Any, ...]:
    """Every 9th position of a seeded random game, its end included."""
    return tuple(random_game(game(players), seed, every=9))


# ---------------------------------------------------------------- the whole table


@pytest.mark.parametrize("players", PLAYERS)
def test_a_described_position_sets_up_the_very_state(players: int) -> None:
    g = game(players)
    for state in played(players, 7):
        original = state._to_data()
        described = g.describe(state)
        assert g.from_position(described)._to_data() == original
        as_json = msgspec.json.decode(msgspec.json.encode(described))
        assert g.from_position(as_json)._to_data() == original
        text = g.position_text(state)
        assert "\n" not in text and len(text.split(" ")) == 11
        assert g.read_position(text) == g.describe(state)
        assert g.from_position(text)._to_data() == original
        assert g.pure_twin().from_position(text)._to_data() == original  # both cores agree


@pytest.mark.parametrize("players", PLAYERS)
def test_a_rebuilt_state_plays_on_like_the_original(players: int) -> None:
    g = game(players)
    for state in played(players, 8)[1::2]:
        rebuilt = g.from_position(g.position_text(state))
        plays_on_alike(state.clone(), rebuilt, 5, moves=400)


def test_without_a_generator_state_future_chance_comes_from_the_seed() -> None:
    g = game(4)
    state = played(4, 7)[3]
    described = msgspec.structs.replace(g.describe(state), rng=None)
    one, two = g.from_position(described, seed=1), g.from_position(described, seed=2)
    assert one._to_data().rng != two._to_data().rng
    assert msgspec.structs.replace(one._to_data(), rng="0" * 16) == msgspec.structs.replace(
        state._to_data(), rng="0" * 16
    )


# ---------------------------------------------------------------- a seat's view


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_s_view_sets_up_a_state_that_seat_cannot_tell_apart(players: int) -> None:
    g = game(players)
    dealt_differently = 0
    for state in played(players, 9)[::2]:
        for seat in range(players):
            view = g.describe(state, seat)
            assert view.rng is None and isinstance(view.pack, int)
            assert all(isinstance(s.hand, int) == (p != seat) for p, s in enumerate(view.seats))
            deals = set()
            for seed in (1, 2, 3):
                rebuilt = g.from_position(view, seed=seed)
                assert rebuilt.view(seat) == state.view(seat)
                assert rebuilt.view(seat, recall=True) == state.view(seat, recall=True)
                assert g.describe(rebuilt, seat) == view
                data = rebuilt._to_data()
                deals.add((tuple(map(tuple, data.hands)), tuple(data.deck)))
            text = g.position_text(state, seat)
            assert g.read_position(text) == view
            assert g.from_position(text, seed=1)._to_data() == g.from_position(view, seed=1)._to_data()
            hidden = sum(s.hand for s in view.seats if isinstance(s.hand, int)) + view.pack
            if hidden > 1 and not state.is_over:
                dealt_differently += len(deals) > 1
                assert len(deals) > 1
    assert dealt_differently > 0


def forgetting(state: Any, seed: int) -> Any:
    """``state`` with some held ships no seat knows of (as after a snapshot of schema 1 or
    a position marking them unseen, A14): set up from its whole table with the first ship
    of every other hand marked unseen (all of them known once the game is over)."""
    g = state.game
    whole = g.describe(state)
    if state.is_over:
        return g.from_position(whole)
    seats = [
        msgspec.structs.replace(s, unseen=s.hand[:1]) if p % 2 == seed % 2 and isinstance(s.hand, list) else s
        for p, s in enumerate(whole.seats)
    ]
    return g.from_position(msgspec.structs.replace(whole, seats=seats))


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_s_view_keeps_what_the_seat_remembers(players: int) -> None:
    """The view holds, per hidden hand, the ships the seat saw it charter (A14, A15): set
    up from any seed, the seat's information state is the original's, those ships stay in
    their hands, and only the ships neither seen nor remembered are dealt anew."""
    g = game(players)
    names = [ship.name for ship in g.ships.ships]
    differently = 0
    for k, original in enumerate(played(players, 10)[1::3]):
        state = forgetting(original, k)
        data = state._to_data()
        for seat in range(players):
            view = g.describe(state, seat)
            memory = state.view(seat, recall=True).known
            assert memory is not None
            for p, described in enumerate(view.seats):
                expect = [] if p == seat else [names[c] for c in data.known[p]]
                assert described.known == expect
                assert p == seat or [ship.name for ship in memory[p]] == sorted(expect, key=names.index)
            text = g.position_text(view)
            assert g.read_position(text) == view
            hands = set()
            for seed in (k, k + 1, k + 2):
                built = g.from_position(text, seed=seed)
                assert built.view(seat, recall=True) == state.view(seat, recall=True)
                assert g.describe(built, seat) == view
                dealt = built._to_data()
                for p, described in enumerate(view.seats):
                    assert {names[c] for c in dealt.known[p]} >= set(described.known)
                hands.add(tuple(tuple(h) for p, h in enumerate(dealt.hands) if p != seat))
            forgotten = sum(s.hand - len(s.known) for s in view.seats if isinstance(s.hand, int))
            if forgotten and view.pack:  # ships to deal among the hands and the pack
                differently += 1
                assert len(hands) > 1
            elif not state.is_over:
                assert len(hands) == 1  # every hidden held ship is remembered: only the pack is dealt
    assert differently > 0


def test_a_view_that_remembers_nothing_still_sets_up() -> None:
    """A view without the memory (an older text, or a person who remembers no charter)
    sets up the table as it shows now: every other hand's ships are dealt anew."""
    g = game(4)
    state = played(4, 9)[5]
    for seat in range(4):
        view = g.describe(state, seat)
        assert any(s.known for s in view.seats)
        blank = msgspec.structs.replace(view, seats=[msgspec.structs.replace(s, known=[]) for s in view.seats])
        text = g.position_text(blank)
        assert ":" not in text.split(" ")[4]
        built = g.from_position(text, seed=4)
        assert built.view(seat) == state.view(seat)
        known = built.view(seat, recall=True).known
        assert known is not None and all(not known[p] for p in range(4) if p != seat)
        assert g.describe(built, seat) == blank


def test_bots_answer_for_the_seat_whose_view_was_set_up() -> None:
    g = game(4)
    state = played(4, 9)[4]
    seat = state.current_player
    rebuilt = g.from_position(g.position_text(state, seat), seed=3)
    bot = make_bot("ismcts", seed=1, iterations=60)
    assert bot.choose(rebuilt) in rebuilt.legal_actions()


# ---------------------------------------------------------------- hostile descriptions


def refused(g: AtlanticStarGame, position: Any) -> list[str]:
    """The problems of ``position``: the same from the pure core, and what
    ``from_position`` raises."""
    problems = g.position_problems(position)
    assert problems
    assert g.pure_twin().position_problems(position) == problems
    with pytest.raises(cruiselib.InvalidPositionError) as error:
        g.from_position(position)
    assert list(error.value.problems) == problems
    return problems


def test_every_problem_of_a_description_is_named() -> None:
    g = game(4)
    start = g.describe(g.new_state(seed=3, start_player=1))
    agency = start.agency
    pack = list(start.pack) if isinstance(start.pack, list) else []
    voyage = VoyagePosition(seat=0, ships=[*pack[:2], "Titanic"], loan=1000)
    wrong = msgspec.structs.replace(
        start,
        seats=[
            SeatPosition(hand=[agency[0], pack[3]], money=19_000),
            *start.seats[1:3],
        ],
        pack=pack[4:],
        discard=[pack[5]],
        seas=[SeaPosition(stars=3, voyages=[voyage]), SeaPosition(stars=3), SeaPosition(), SeaPosition()],
        to_move=1,
        phase="agency",
    )
    assert refused(g, wrong) == [
        "the description has 3 seats: this game has 4 players",
        f"{agency[0]} is both in seat 0's hand and on the agency's 3,000 space",
        f"{pack[5]} is both in the pack and in the discard pile",
        "no ship is named 'Titanic' (on seat 0's Baltic voyage's plaque)",
        f"{pack[2]} is nowhere: every ship lies in a hand, the agency, the pack, the discard pile or on a plaque",
    ]


def test_every_problem_of_the_seats_and_the_board_is_named() -> None:
    g = game(4)
    start = g.describe(g.new_state(seed=3, start_player=1))
    pack = list(start.pack) if isinstance(start.pack, list) else []
    baltic = g.voyage_value(pack[:3], "Baltic")
    wrong = msgspec.structs.replace(
        start,
        seats=[
            SeatPosition(hand=[], money=20_000),
            SeatPosition(hand=pack[3:12], money=18_000),
            *start.seats[2:],
        ],
        pack=[*pack[12:], pack[0]],
        seas=[
            SeaPosition(
                stars=3,
                voyages=[
                    VoyagePosition(seat=0, ships=pack[1:3], loan=(baltic[0] + 1) * 1000),
                    VoyagePosition(seat=0, second=True, ships=[]),
                ],
            ),
            SeaPosition(stars=3),
            SeaPosition(),
            SeaPosition(),
        ],
        to_move=0,
        phase="over",
    )
    problems = refused(g, wrong)
    assert problems == [
        "seat 0 has 2 Baltic voyages: with 4 players a seat sails each sea once",
        "seat 0's Baltic voyage has 2 ships: a Baltic voyage has 3 legs, a ship each (A1)",
        "seat 0's second Baltic voyage has 0 ships: a Baltic voyage has 3 legs, a ship each (A1)",
        "the Baltic and the Mediterranean are both in the 3★ class",
        "the Mediterranean has a class (3★) but no voyage: its first voyage chooses it",
        "seat 0 holds 20,000 marks, more than its starting capital and loans (18,000 marks): loans are the only income",
        "seat 1 holds 9 ships: with the Baltic, Mediterranean, Atlantic and Pacific left to sail "
        "it holds at most 8 (A6)",
        "the game is over only when every plaque is on the board, but seat 0, seat 1, seat 2 and seat 3 "
        "still have voyages to stage (A8)",
        "the game is over, so no seat is to move (seat 0 is named)",
        "once the game is over the turns no longer show who started: name the start player",
    ]


def test_the_start_player_is_asked_for_only_where_the_turns_do_not_fix_it() -> None:
    g = game(4)
    state = g.new_state(seed=3, start_player=2)
    described = g.describe(state)
    # Nobody has had a turn: the seat to move is the one that started.
    assert described.start_player is None
    assert g.from_position(described)._to_data().start_player == 2
    wrong = msgspec.structs.replace(described, start_player=0)
    assert refused(g, wrong) == [
        "seat 0 cannot have started: with seat 2 to move and the turns taken "
        "(seat 0: 0, seat 1: 0, seat 2: 0, seat 3: 0), the start player is seat 2 (A9)"
    ]
    # Two players, one of them done: the other plays on, and either may have started.
    g2 = game(2)
    rnd = random.Random(1)
    state = g2.new_state(seed=1)
    while g2.describe(state).start_player is None:
        state.apply(rnd.choice(state.legal_actions()))
    described = g2.describe(state)
    assert not state.is_over and g2.from_position(described)._to_data() == state._to_data()
    assert refused(g2, msgspec.structs.replace(described, start_player=None)) == [
        "the turns taken (seat 0: 44, seat 1: 44) fit seat 0 or seat 1 as the start player: name it"
    ]
    over = played(4, 7)[-1]
    described = g.describe(over)
    assert described.start_player == over._to_data().start_player
    assert refused(g, msgspec.structs.replace(described, start_player=None)) == [
        "once the game is over the turns no longer show who started: name the start player"
    ]


def test_a_seat_s_view_is_checked_as_such() -> None:
    g = game(3)
    state = played(3, 9)[3]
    view = g.describe(state, 1)
    assert isinstance(view.pack, int)
    others = [p for p in range(3) if p != 1]
    own = view.seats[1]
    seats = list(view.seats)
    seats[others[0]] = SeatPosition(hand=list(own.hand) if isinstance(own.hand, list) else [], money=0)
    seats[1] = SeatPosition(hand=3, money=own.money)
    wrong = msgspec.structs.replace(view, seats=seats, pack=view.pack + 1, rng="0123456789abcdef")
    problems = refused(g, wrong)
    assert "a seat's view has no generator state (rng): only the whole table does" in problems
    assert f"seat {others[0]}'s hand is listed, but seat 1's view gives the other hands as counts" in problems
    assert "seat 1's own hand is a count (3): a seat sees its own hand" in problems
    assert any(p.startswith("seat 1 cannot see ") for p in problems)


GARBAGE = [
    "",
    "- - - -",
    "-/-/-/- A,B,C,D ?120 - ?0/?0/?0/?0 18k/18k/18k/18k 0 loan - 0 - extra",
    "-/-/-/- Aurora,Hera,Rhea,Zeus ?124 - ?0/-/?0/?0 18k/18k/18k 0 lunch 9 - zz",
    "-/-/-/- Aurora,Hera,Rhea,Athena ?999999999999 - -/?0/?0/?0 18k/18k/18k/18k 0 loan - 0 -",
    "9*:0=Aurora/-/-/- Aurora,Hera,Rhea,Athena ?124 - -/?0/?0/?0 99999999999k/18k/18k/18k 0 loan - 0 -",
    "3*:0=Aurora,Hera,Rhea-99k;x/-/-/- Aurora,Hera,Rhea,Athena ?-1 - -/?0/?0/?0 18k/18k/18k/18k 0 loan - 0 -",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_texts_are_refused_with_their_problems_named(text: str) -> None:
    g = game(4)
    problems = refused(g, text)
    with pytest.raises(cruiselib.InvalidPositionError) as error:
        g.read_position(text)
    assert list(error.value.problems) == problems


def test_garbage_text_problems_are_all_named() -> None:
    g = game(4)
    assert refused(g, GARBAGE[3]) == [
        "no ship is labelled 'Zeus' (the agency)",
        "the text lists 4 hands but 3 seats' money",
        "the phase is 'loan', 'agency' or 'over', not 'lunch'",
        "the start player is a seat 0 to 3 or '-', not '9'",
        "the generator state is '-' or 16 lower-case hex digits, not 'zz'",
    ]
    assert refused(g, "x" * 20_000) == ["the text is 20000 characters, over 16384"]


def test_a_struct_built_with_values_of_the_wrong_types_is_refused() -> None:
    g = game(4)
    start = g.describe(g.new_state(seed=1))
    rep: Any = msgspec.structs.replace
    assert refused(g, rep(start, seats="abc")) == ["not a description: Expected `array`, got `str` - at `$.seats`"]
    assert refused(g, rep(start, to_move="x")) == [
        "not a description: Expected `int | null`, got `str` - at `$.to_move`"
    ]
    assert refused(g, rep(start, seas=[None] * 4)) == [
        "not a description: Expected `object`, got `null` - at `$.seas[0]`"
    ]
    assert refused(g, rep(start, phase=3)) == ["the phase is 'loan', 'agency' or 'over', not 3"]


def test_every_problem_of_a_seat_s_memory_is_named() -> None:
    """A ship remembered where it cannot be: elsewhere on the table, twice, in no hidden
    hand (a listed one, the whole table), more of them than the hand holds, no ship."""
    g = game(4)
    view = g.describe(played(4, 9)[6], 0)  # hands 4, 1, 6 and 1 ships, all remembered
    seats = list(view.seats)
    own = seats[0].hand
    assert isinstance(own, list) and [s.hand for s in seats[1:]] == [1, 6, 1]
    assert [len(s.known) for s in seats[1:]] == [1, 6, 1]
    rep = msgspec.structs.replace
    wrong = rep(
        view,
        seats=[
            rep(seats[0], known=own[:1]),
            rep(seats[1], known=[*seats[1].known, view.agency[1]]),
            rep(seats[2], known=[*seats[2].known[:4], "Titanic", seats[2].known[0]]),
            rep(seats[3], known=[own[1]]),
        ],
    )
    assert refused(g, wrong) == [
        "seat 0's hand is listed, so no ship of it is remembered (known): only a hidden hand in a seat's "
        "view has remembered ships (the whole table marks unseen ones, A14)",
        "seat 0 remembers 2 ships in seat 1's hand, but that hand holds 1",
        "no ship is named 'Titanic' (remembered in seat 2's hand)",
        f"{seats[2].known[0]} is remembered twice in seat 2's hand",
        f"{own[1]} is both in seat 0's hand and remembered in seat 3's hand",
        f"{view.agency[1]} is both remembered in seat 1's hand and on the agency's 2,000 space",
    ]
    # The same in the text, and on the whole table.
    text = g.position_text(view).split(" ")
    text[4] = text[4].replace("?1:", "?1:Titanic,", 1)
    assert refused(g, " ".join(text)) == ["no ship is labelled 'Titanic' (remembered in seat 1's hand)"]
    whole = g.describe(played(4, 9)[6])
    listed = rep(whole.seats[1], known=whole.seats[1].hand)
    hidden = rep(whole.seats[2], hand=6, known=seats[2].known)
    assert refused(g, rep(whole, seats=[whole.seats[0], listed, hidden, whole.seats[3]])) == [
        "seat 1's hand is listed, so no ship of it is remembered (known): only a hidden hand in a seat's "
        "view has remembered ships (the whole table marks unseen ones, A14)",
        "seat 2's hand is a count (6): a whole-table description names every ship",
    ]


def test_truncated_and_oversized_texts_are_refused() -> None:
    g = game(3)
    state = played(3, 7)[5]
    for text in (g.position_text(state), g.position_text(state, 1)):
        for cut in range(0, len(text), 41):
            assert refused(g, text[:cut])
    huge = g.position_text(state, 1).split(" ")
    huge[6] = "12345678901234567890"
    assert refused(g, " ".join(huge)) == ["the seat to move is a seat 0 to 2 or '-', not '12345678901234567890'"]


def test_a_custom_ship_list_and_board_are_described_too() -> None:
    """Ships whose names are no plain word (or equal another's in some case) are written
    by id; the board table comes from the game."""
    listed = msgspec.to_builtins(ShipList.standard())
    listed["name"] = "renamed"
    renamed = {0: "Queen Mary", 1: "St. Louis", 2: "aurora", 3: "AURORA"}
    for ship, name in renamed.items():
        listed["ships"][ship]["name"] = name
    board = [[10 + 3 * c, 9, 8, 7, 3, 0] for c in range(5)]
    g: Any = cruiselib.make(
        "atlantic_star", players=3, ships=ShipList.from_json(msgspec.json.encode(listed)), board=board
    )
    labels = g._position_rules()._labels
    assert labels[:4] == ["Queen_Mary", "#1", "#2", "#3"]
    for state in random_game(g, 3, every=15):
        text = g.position_text(state)
        assert g.from_position(text)._to_data() == state._to_data()
        for seat in range(3):
            assert g.from_position(g.position_text(state, seat), seed=2).view(seat) == state.view(seat)
    start = g.describe(g.new_state(seed=1, start_player=0), 0)
    moved = msgspec.structs.replace(start, agency=["Queen Mary", "St. Louis", "aurora", "AURORA"])
    assert g.read_position(g.position_text(moved)) == moved
    assert g.read_position(g.position_text(moved).replace("Queen_Mary", "queen_mary")) == moved


def mutations(position: AtlanticStarPosition, rnd: random.Random) -> list[AtlanticStarPosition]:
    """Copies of ``position`` with one field changed: counts, ships moved, duplicated or
    dropped, money, loans, classes, voyage order, phase, turn, start player and seat."""
    rep = msgspec.structs.replace
    out = []
    seats = list(position.seats)
    n = len(seats)
    for p, seat in enumerate(seats):
        for money in (seat.money - 1000, seat.money + 1000, seat.money + 2000):
            if money >= 0:
                out.append(rep(position, seats=[*seats[:p], rep(seat, money=money), *seats[p + 1 :]]))
        if isinstance(seat.hand, int):
            for size in (seat.hand - 1, seat.hand + 1):
                out.append(rep(position, seats=[*seats[:p], rep(seat, hand=size), *seats[p + 1 :]]))
        elif seat.hand:
            dropped = rep(seat, hand=seat.hand[1:], unseen=[])
            out.append(rep(position, seats=[*seats[:p], dropped, *seats[p + 1 :]]))
            marked = rep(seat, unseen=seat.hand[:1])
            out.append(rep(position, seats=[*seats[:p], marked, *seats[p + 1 :]]))
            if isinstance(position.pack, list):
                moved = rep(position, seats=[*seats[:p], dropped, *seats[p + 1 :]], pack=[*position.pack, seat.hand[0]])
                out.append(moved)
        extra = rep(seat, hand=[*seat.hand, position.agency[0]]) if isinstance(seat.hand, list) else seat
        out.append(rep(position, seats=[*seats[:p], extra, *seats[p + 1 :]]))
        # What the viewing seat remembers in a hand (A14): less, more, elsewhere, twice.
        remembered = [rep(seat, known=[*seat.known, position.agency[0]])]
        if seat.known:
            remembered += [rep(seat, known=seat.known[1:]), rep(seat, known=[*seat.known, seat.known[0]])]
            if isinstance(seat.hand, int):
                remembered.append(rep(seat, hand=len(seat.known) - 1, known=seat.known))
        elif isinstance(seat.hand, list) and seat.hand:
            remembered.append(rep(seat, known=seat.hand[:1]))
        for changed_seat in remembered:
            out.append(rep(position, seats=[*seats[:p], changed_seat, *seats[p + 1 :]]))
    if isinstance(position.pack, int):
        out += [rep(position, pack=position.pack + 1), rep(position, pack=max(position.pack - 1, 0))]
    elif position.pack:
        out.append(rep(position, pack=position.pack[1:]))
        out.append(rep(position, pack=position.pack[1:], discard=[*position.discard, position.pack[0]]))
        out.append(rep(position, pack=position.pack[1:], agency=[position.pack[0], *position.agency[1:]]))
        taker, held = next((p, s.hand) for p, s in enumerate(seats) if isinstance(s.hand, list))
        if len(held) < 8:
            grown = rep(seats[taker], hand=[*held, position.pack[0]])
            out.append(rep(position, pack=position.pack[1:], seats=[*seats[:taker], grown, *seats[taker + 1 :]]))
    if position.discard:
        out.append(rep(position, discard=position.discard[:-1]))
    for s, sea in enumerate(position.seas):
        seas = list(position.seas)
        for stars in {1, 2, 3, 4, 5, None} - {sea.stars}:
            out.append(rep(position, seas=[*seas[:s], rep(sea, stars=stars), *seas[s + 1 :]]))
        if sea.voyages:
            v = rnd.randrange(len(sea.voyages))
            voyage = sea.voyages[v]
            changed = [
                rep(voyage, loan=voyage.loan + 1000),
                rep(voyage, loan=max(voyage.loan - 1000, 0)),
                rep(voyage, second=not voyage.second),
                rep(voyage, seat=(voyage.seat + 1) % n),
                rep(voyage, ships=list(reversed(voyage.ships))),
            ]
            for other in changed:
                voyages = [*sea.voyages[:v], other, *sea.voyages[v + 1 :]]
                out.append(rep(position, seas=[*seas[:s], rep(sea, voyages=voyages), *seas[s + 1 :]]))
            out.append(rep(position, seas=[*seas[:s], rep(sea, voyages=sea.voyages[::-1]), *seas[s + 1 :]]))
            dropped_voyage = [*sea.voyages[:v], *sea.voyages[v + 1 :]]
            out.append(rep(position, seas=[*seas[:s], rep(sea, voyages=dropped_voyage), *seas[s + 1 :]]))
    for phase in ("loan", "agency", "over"):
        if phase != position.phase:
            out.append(rep(position, phase=phase))
    for seat_index in [None, *range(n)]:
        if seat_index != position.to_move:
            out.append(rep(position, to_move=seat_index))
        if seat_index != position.start_player:
            out.append(rep(position, start_player=seat_index))
    if position.seat is not None:
        out.append(rep(position, seat=(position.seat + 1) % n))
    return out


def sweep(players: int, states: list[Any]) -> None:
    """Every mutation of each state's description (the whole table and one seat's view) is
    refused with the same problems by both cores and by ``from_position``, never by the
    engine's own loader, or sets up a state that plays (and reads back from its text)."""
    g = game(players)
    twin = g.pure_twin()
    rnd = random.Random(players)
    sound = refusals = 0
    for state in states:
        for seat in (None, rnd.randrange(players)):
            for changed in mutations(g.describe(state, seat), rnd):
                problems = g.position_problems(changed)
                assert twin.position_problems(changed) == problems
                if problems:
                    refusals += 1
                    with pytest.raises(cruiselib.InvalidPositionError) as error:
                        g.from_position(changed, seed=1)
                    assert list(error.value.problems) == problems
                    assert not any("engine refuses" in p for p in problems)
                    continue
                sound += 1
                rebuilt = g.from_position(changed, seed=1)
                assert g.read_position(g.position_text(changed)) == changed
                moves = random.Random(2)
                for _ in range(8):  # it plays: every legal action applies
                    if rebuilt.is_over:
                        break
                    rebuilt.apply(moves.choice(rebuilt.legal_actions()))
    assert sound > 0 and refusals > sound


@pytest.mark.parametrize("players", PLAYERS)
def test_a_changed_description_is_refused_or_sets_up_a_state_that_plays(players: int) -> None:
    states = played(players, 11)
    sweep(players, [states[len(states) // 3], states[2 * len(states) // 3]])


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_sweep_changed_descriptions_through_whole_games(players: int) -> None:
    sweep(players, list(played(players, 11)[::4]) + list(played(players, 12)[1::5]))


# ---------------------------------------------------------------- the docs' examples


def test_the_docs_examples_are_what_the_library_prints() -> None:
    """docs/atlantic_star.md, "Setting up a position": the texts read, and the board and
    the problems printed are the library's own output."""
    page = (Path(__file__).parents[2] / "docs" / "atlantic_star.md").read_text()
    section = page.split("## Setting up a position")[1].split("\n## ")[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.S)
    start, view, printed = blocks[0].strip(), blocks[1].strip(), blocks[2].splitlines()
    g = game(4)
    assert g.position_text(g.from_position(start, seed=1), 1) == start
    state = g.from_position(view, seed=7)
    assert g.position_text(state, 2) == view
    board = g.render(state, 2, compact=True).splitlines()
    assert printed[: len(board)] == board
    bad = (
        view.replace("?73", "?70")
        .replace("Silesia/", "Silesia,Tethys/")
        .replace("13k", "40k")
        .replace("agency - 2", "agency 3 2")
        .replace(",Bohemia/", ",Deneb/")
    )
    assert printed[len(board) :] == g.position_problems(bad)
    # The view remembers the other hands: set up from any seed, they hold what it names.
    assert state.view(2, recall=True).known == g.from_position(view, seed=1).view(2, recall=True).known
    assert all(s.known and len(s.known) == s.hand for s in g.read_position(view).seats if isinstance(s.hand, int))
    # The advice printed names moves the seat has.
    advice = [line.rsplit(": ", 1)[0] for line in blocks[3].splitlines()]
    assert set(advice) <= {state.move_text(action) for action in state.legal_actions()}
