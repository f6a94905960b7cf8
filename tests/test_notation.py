"""Move notation: every move's text reads back (``state.parse_move``, ``game.parse_move``),
also typed loosely as each game page's "Notation" section allows; a text that names no
legal move raises IllegalMoveError saying why, and leaves the state as it was."""

from __future__ import annotations

import functools
import random
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib.atlantic_star import moves as am
from cruiselib.dream_cruise import moves as cm
from cruiselib.dream_islands import moves as im
from cruiselib.sirens import moves as sm

from .support import positions, unchanged_after

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("sirens", {}),
    ("sirens", {"variant": "bow_to_rear"}),
    *[("dream_islands", {"players": n}) for n in (2, 3, 4)],
    *[("atlantic_star", {"players": n}) for n in (2, 3, 4, 5, 6)],
    *[("dream_cruise", {"players": n}) for n in (1, 2, 3, 4)],
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}" for name, opts in CONFIGS]
ONE_PER_GAME = [
    ("sirens", {}),
    ("dream_islands", {"players": 3}),
    ("atlantic_star", {"players": 3}),
    ("dream_cruise", {"players": 2}),
]

# Random games per configuration for the round trip: 150-650 positions each on the compiled
# core (every second decision), half as many on the slower pure-Python one (every fourth).
GAMES = {"sirens": 6, "dream_islands": 5, "atlantic_star": 4, "dream_cruise": 4}


@functools.cache
def _make(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return cruiselib.make(name, **dict(options))


def make(name: str, **options: Any) -> Any:
    """``cruiselib.make``, one game per configuration for the whole module (a game builds
    its table of move texts once)."""
    return _make(name, tuple(sorted(options.items())))


# --- texts as a person types them ------------------------------------------------------


def loud(text: str) -> str:
    """Upper case, doubled spaces, a tab at the end."""
    return "  " + text.upper().replace(" ", "  ") + "\t"


_ASCII = {"★": "*", "→": "->", "⚓": "a", "ø": "o", "Ø": "O"}


def ascii_typed(text: str) -> str:
    """As typed on a plain keyboard: ``*`` for ``★``, ``->`` for ``→``, ``a`` for ``⚓``,
    ``1000`` for ``1,000``, no accents (``Tromso``, ``Muller``)."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    for symbol, typed in _ASCII.items():
        text = text.replace(symbol, typed)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def reads(state: Any, typed: str, move: Any) -> None:
    """``typed`` reads as the legal ``move`` (as ``legal_moves()`` shows it), both ways."""
    game = state.game
    for got in (state.parse_move(typed), game.parse_move(typed, state)):
        assert got == move and str(got) == str(move), f"{typed!r} read as {str(got)!r}, not {str(move)!r}"
        assert type(got) is type(move)


# --- the round trip ----------------------------------------------------------------------


def _round_trip(
    name: str, options: dict[str, Any], games: int, every: int, per_state: int, loose: int, free: int
) -> int:
    """Every position of ``games`` random games (each ``every``-th decision): ``per_state``
    of its legal moves (all, when fewer) read back from their text with and without the
    state, and in every ``loose``-th position from the text typed loudly or in ascii
    (which compares the texts of every legal move there); ``free`` of the texts naming what
    only the position shows are read without a state (the move, or an error saying a state
    is needed). The number of positions."""
    game = make(name, **options)
    rnd = random.Random(7)
    states = positions(game, games, seed=31, every=every)
    annotated: dict[str, Any] = {}
    for n, state in enumerate(states):
        before = state.to_json()
        actions, moves = state.legal_actions(), state.legal_moves()
        assert len(actions) == len(moves)
        picks = range(len(moves)) if len(moves) <= per_state else rnd.sample(range(len(moves)), per_state)
        for k, i in enumerate(picks):
            move, text = moves[i], str(moves[i])
            reads(state, text, move)
            if n % loose == 0:  # typed loosely: every legal move's texts are compared
                typed = ascii_typed(text) if k % 2 else loud(text)
                got = state.parse_move(typed if typed != text else loud(text))
                assert got == move and str(got) == text, f"{typed!r} read as {str(got)!r}, not {text!r}"
                assert game.move_to_action(got) == actions[i]
            plain = game.action_to_move(actions[i])
            assert game.parse_move(str(plain)) == plain and str(game.parse_move(loud(str(plain)))) == str(plain)
            if str(plain) != text:
                annotated.setdefault(text, plain)
        assert state.to_json() == before
    for text in rnd.sample(sorted(annotated), min(free, len(annotated))):
        try:
            got = game.parse_move(text)
        except IllegalMoveError as e:
            message = str(e)
        else:
            assert got == annotated[text]
            continue
        assert "need the state" in message and repr(text) in message
    return len(states)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_every_legal_move_text_reads_back(name: str, options: dict[str, Any]) -> None:
    every, per_state, loose = (2, 8, 3) if cruiselib.compiled else (4, 2, 2)
    assert _round_trip(name, options, GAMES[name], every, per_state, loose, free=4) >= 280 // every


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_every_legal_move_text_reads_back_long(name: str, options: dict[str, Any]) -> None:
    """Every legal move of every decision of 3 games per configuration."""
    assert _round_trip(name, options, 3, 1, 10_000, 1, free=20) >= 150


def test_a_finished_game_reads_no_move() -> None:
    for name in cruiselib.games():
        game = make(name)
        state = positions(game, 1, seed=2)[-1]
        state.apply(state.legal_actions()[0])
        while not state.is_over:
            state.apply(state.legal_actions()[0])
        text = str(game.action_to_move(0))
        unchanged_after(state, functools.partial(state.parse_move, text), IllegalMoveError, "the game is over")
        assert game.parse_move(text) == game.action_to_move(0)


# --- tolerance, per move kind ------------------------------------------------------------

Typer = Callable[[Any, Any], list[str]]
"""The texts a person may type for a legal move (given the state and the move)."""


def _place(p: int) -> str:
    return {0: "plane", 9: "mid"}.get(p, str(p))


def _next_place(u: int, end: int) -> int:
    """The place a piece on ``u`` reaches first on its way to ``end`` (rules I2)."""
    if u == 8:
        return 9 if end == 9 else 1
    return u + 1


def _cover_typed(state: Any, m: im.Cover) -> list[str]:
    paths = list(m.paths)
    arrows = ", ".join(f"{p.pieces} pieces {im.place_name(p.start)} -> {im.place_name(p.end)}" for p in reversed(paths))
    short = " ".join(
        (f"{p.pieces} pieces " if p.pieces > 1 else "") + f"{_place(p.start)} to {_place(p.end)}" for p in paths
    )
    singles = ", ".join(f"{im.place_name(p.start)}→{im.place_name(p.end)}" for p in paths for _ in range(p.pieces))
    stops = []  # each path through its first stop: another split of the same result (I3)
    for p in paths:
        stop = _next_place(p.start, p.end)
        if stop == p.end:
            stops.append(f"{p.pieces} pieces {_place(p.start)}→{_place(p.end)}")
        else:
            stops += [
                f"{p.pieces} pieces {_place(p.start)}→{_place(stop)}",
                f"{p.pieces} pieces {_place(stop)}→{_place(p.end)}",
            ]
    return [
        f"Cover {m.number}: {arrows}",
        f"COVER {m.number} {short}",
        f"cover {m.number}: {singles}",
        f"cover {m.number}: {', '.join(stops)}",
    ]


def _voyage_alone(state: Any, m: am.Voyage) -> bool:
    """The only legal voyage of its sea and class (so the sea and class name it)."""
    same = [v for v in state.legal_moves() if isinstance(v, am.Voyage) and (v.sea, v.stars) == (m.sea, m.stars)]
    return same == [m]


def _keeps(m: am.Voyage) -> str:
    return f"hand slot{'s' if len(m.keep) > 1 else ''} {', '.join(map(str, reversed(m.keep)))}"


def _bare(activity: str | None) -> str:
    """An activity without its kind in parentheses and without ``Open Sea:``."""
    assert activity is not None
    return activity.rsplit(" (", 1)[0].removeprefix(cm.OPEN_SEA)


SHORT = {"Baltic": "Bal", "Mediterranean": "med", "Atlantic": "ATL", "Pacific": "Pac"}

# (game, options, label, move kind, which moves of the kind, the texts that read as it)
TOLERANCE: list[tuple[str, dict[str, Any], str, type, Callable[[Any, Any], bool], Typer]] = [
    (
        "sirens",
        {},
        "play-crew",
        sm.PlayCard,
        lambda s, m: m.crew,
        lambda s, m: [
            f"PLAY {m.value}⚓ TO SHIP {m.ship}, SEAT {m.side}'S SIDE",
            f"play {m.value}a to {m.ship}, seat {m.side}",
            f"play {m.value} anchor to ship {m.ship} seat {m.side}",
            f"play {m.value} to {m.ship}, seat {m.side}'s side",
            f"play {m.value} to {m.ship} seat {m.side}".replace("-", "\u2212"),
        ],
    ),
    (
        "sirens",
        {},
        "play",
        sm.PlayCard,
        lambda s, m: not m.crew,
        lambda s, m: [
            f"Play {m.value} to {m.ship}, seat {m.side}",
            f"play {m.value} to ship {m.ship} seat {m.side} side",
        ],
    ),
    (
        "sirens",
        {},
        "octopus",
        sm.MoveCard,
        lambda s, m: True,
        lambda s, m: [
            f"move {m.value}{'a' if m.crew else ''} from ship {m.from_ship}/seat {m.from_side} "
            f"to ship {m.to_ship}/seat {m.to_side}",
            f"Octopus move {m.value} from ship {m.from_ship} seat {m.from_side} to ship {m.to_ship} seat {m.to_side}",
        ],
    ),
    (
        "sirens",
        {},
        "rum",
        sm.UseRum,
        lambda s, m: True,
        lambda s, m: [f"rum {m.ship}", f"Rum on {m.ship}", f"rum on the ship {m.ship}."],
    ),
    ("sirens", {}, "end", sm.EndTurn, lambda s, m: True, lambda s, m: ["end", "END TURN", "end the turn"]),
    ("sirens", {"variant": "bow_to_rear"}, "pass", sm.Pass, lambda s, m: True, lambda s, m: ["Pass.", " PASS "]),
    (
        "sirens",
        {},
        "crew",
        sm.MoveCrew,
        lambda s, m: True,
        lambda s, m: [f"crew to {m.to_ship}", f"move crew to {m.to_ship}", f"Move the crew to ship {m.to_ship}"],
    ),
    (
        "sirens",
        {"variant": "bow_to_rear"},
        "pick",
        sm.PickCard,
        lambda s, m: m.crew,
        lambda s, m: [f"pick {m.value}a", f"PICK {m.value} ANCHOR", f"pick {m.value}", f"Pick {m.value}⚓"],
    ),
    (
        "dream_islands",
        {"players": 3},
        "cover",
        im.Cover,
        lambda s, m: (
            len(m.paths) >= 2
            and any(p.pieces > 1 for p in m.paths)
            and any(_next_place(p.start, p.end) != p.end for p in m.paths)
        ),
        _cover_typed,
    ),
    ("dream_islands", {"players": 3}, "cover-one", im.Cover, lambda s, m: len(m.paths) == 1, _cover_typed),
    (
        "dream_islands",
        {"players": 3},
        "put",
        im.PutUnder,
        lambda s, m: True,
        lambda s, m: [
            f"put {im.mission_name(m.mission)}",
            f"PUT '{im.mission_name(m.mission)}' UNDER",
            f"put “{im.mission_name(m.mission)}” under the pile",
        ],
    ),
    ("dream_islands", {"players": 3}, "draw", im.Draw, lambda s, m: True, lambda s, m: ["draw", "Draw up to 3."]),
    (
        "atlantic_star",
        {"players": 3},
        "loan",
        am.Loan,
        lambda s, m: m.voyage == 0,
        lambda s, m: [
            f"loan {m.amount} on the {SHORT[m.sea]}",
            f"LOAN {m.amount // 1000}k ON {m.sea}",
            f"loan {m.amount:,} on the first {m.sea} voyage (value now {m.value})",
            f"loan {m.amount:_} on {m.sea}",
        ],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "loan-second",
        am.Loan,
        lambda s, m: m.voyage == 1,
        lambda s, m: [
            f"loan {m.amount} on the second {SHORT[m.sea]}",
            f"loan {m.amount:,} on the second {m.sea} voyage",
        ],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "refresh",
        am.Refresh,
        lambda s, m: True,
        lambda s, m: ["refresh", "Refresh the agency", "refresh the agency for 2000"],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "charter",
        am.Charter,
        lambda s, m: m.price > 0,
        lambda s, m: [
            f"charter {m.ship.split(' (')[0]}",
            f"CHARTER {m.ship.split(' (')[0]} FOR {m.price}",
            f"charter the ship for {m.price:,}",
            f"charter for {m.price // 1000}k",
        ],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "charter-free",
        am.Charter,
        lambda s, m: m.price == 0,
        lambda s, m: ["charter free", f"charter {m.ship.split(' (')[0].lower()}", "charter the ship free"],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "voyage-keeps",
        am.Voyage,
        lambda s, m: bool(m.kept),
        lambda s, m: [
            f"voyage {SHORT[m.sea]} {m.stars}* with {', '.join(reversed(m.ships))}",
            f"voyage {m.sea} {m.stars} stars keeping {' and '.join(m.kept)}",
            f"voyage {m.sea} {m.stars}★ with {', '.join(m.ships)}: {m.points} points",
            f"voyage {m.sea} {m.stars}* keeping {_keeps(m)}",
        ],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "voyage-alone",
        am.Voyage,
        _voyage_alone,
        lambda s, m: [
            f"voyage {SHORT[m.sea]} {m.stars}*",
            f"voyage {m.sea} {m.stars}☆",
            f"voyage {m.sea} {m.stars} star with {' '.join(m.ships)}",
        ],
    ),
    (
        "atlantic_star",
        {"players": 3},
        "voyage-whole-hand",
        am.Voyage,
        lambda s, m: not m.keep,
        lambda s, m: [
            f"voyage {m.sea} {m.stars}★ with the whole hand",
            f"voyage {SHORT[m.sea]} {m.stars}* keeping nothing",
        ],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "board",
        cm.Board,
        lambda s, m: True,
        lambda s, m: [f"BOARD {ascii_typed(m.name)}", f"board the {m.name.lower()} family".replace(" family", "")],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "keep-sea",
        cm.Keep,
        lambda s, m: m.name.startswith(cm.OPEN_SEA),
        lambda s, m: [
            f"keep {m.name.removeprefix(cm.OPEN_SEA)}",
            f"Keep open sea - {m.name.removeprefix(cm.OPEN_SEA).lower()}",
        ],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "keep",
        cm.Keep,
        lambda s, m: not m.name.startswith(cm.OPEN_SEA),
        lambda s, m: [f"keep {ascii_typed(m.name).lower()}", f"KEEP {m.name.upper()}"],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "take",
        cm.Take,
        lambda s, m: m.set > 0,
        lambda s, m: [
            f"take set {m.set}",
            f"take {' + '.join(reversed(m.cards))}",
            f"Take {' and '.join(m.cards).lower()}",
            f"take set {m.set}: {', '.join(reversed(m.cards))}",
        ],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "take-face-down",
        cm.Take,
        lambda s, m: m.set == 0,
        lambda s, m: ["take facedown", "take the face down set", "take set 0"],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "send",
        cm.Place,
        lambda s, m: True,
        lambda s, m: [
            f"send {m.family} to {_bare(m.activity)}",
            f"send a {m.family} guest to {cm.spot_name(m.spot)}",
            f"send a guest from the {cm.CABIN_NAMES[m.cabin]} cabin to {cm.spot_name(m.spot)}",
            f"send {m.family} to {m.activity}",
        ],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "send-sea",
        cm.Place,
        lambda s, m: (m.activity or "").startswith(cm.OPEN_SEA),
        lambda s, m: [f"send {m.family} to {_bare(m.activity)}"],
    ),
    ("dream_cruise", {"players": 2}, "plan", cm.Plan, lambda s, m: True, lambda s, m: [f"PLAN {m.name.lower()}"]),
    (
        "dream_cruise",
        {"players": 2},
        "build",
        cm.Build,
        lambda s, m: m.replaces is None,
        lambda s, m: [f"build {m.name} paying {m.payment_name}", f"Build {m.name.upper()}, paying {m.payment_name}."],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "build-replacing",
        cm.Build,
        lambda s, m: m.replaces is not None,
        lambda s, m: [
            f"build {m.name} paying {m.payment_name} replacing addition {m.replaces + 1}",
            f"build {m.name}, paying {m.payment_name}, replacing {m.replaced_name.lower()}",
        ],
    ),
    (
        "dream_cruise",
        {"players": 2},
        "captain",
        cm.Captain,
        lambda s, m: True,
        lambda s, m: [
            f"captain to {cm.spot_name(m.spot)}, paying {m.payment_name}",
            f"Captain to {_bare(m.activity)} paying {m.payment_name}",
        ],
    ),
    ("dream_cruise", {"players": 2}, "done", cm.Done, lambda s, m: True, lambda s, m: ["DONE", "end turn", "End."]),
]


def find_move(game: Any, kind: type, which: Callable[[Any, Any], bool], games: int = 200) -> tuple[Any, Any]:
    """The first position of seeded random games with a legal move of ``kind`` that
    ``which(state, move)`` picks, and that move."""
    rnd = random.Random(3)
    for g in range(games):
        state = game.new_state(seed=300 + g)
        while not state.is_over:
            for move in state.legal_moves():
                if isinstance(move, kind) and which(state, move):
                    return state, move
            state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no {kind.__name__} move in {games} games of {game!r}")


@pytest.mark.parametrize(
    ("name", "options", "kind", "which", "typer"), [t[:2] + t[3:] for t in TOLERANCE], ids=[t[2] for t in TOLERANCE]
)
def test_a_move_reads_from_the_texts_its_notation_allows(
    name: str, options: dict[str, Any], kind: type, which: Callable[[Any, Any], bool], typer: Typer
) -> None:
    state, move = find_move(make(name, **options), kind, which)
    before = state.to_json()
    typed = typer(state, move)
    assert len(set(typed)) == len(typed) and str(move) not in typed
    for text in typed:
        reads(state, text, move)
    assert state.to_json() == before


def test_every_move_kind_has_tolerance_examples() -> None:
    kinds = {kind for _, _, _, kind, _, _ in TOLERANCE}
    for game_moves in (sm, im, am, cm):
        assert set(game_moves.MOVE_TYPES) <= kinds


# --- without a state ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("sirens", "play -2a to 28, seat 1", "play -2⚓ to ship 28, seat 1's side"),
        (
            "sirens",
            "Octopus: move 10 from ship 36/seat 0 to ship 28/seat 1",
            "octopus: move 10 from ship 36/seat 0 to ship 28/seat 1",
        ),
        ("sirens", "rum 30", "rum on ship 30"),
        ("sirens", "end", "end turn"),
        ("sirens", "crew to 34", "move crew to ship 34"),
        ("sirens", "pick -3 anchor", "pick -3⚓"),
        ("dream_islands", "cover 3: island 1->3, 1 piece airplane->island 1", "cover 3: 1 piece airplane→island 3"),
        ("dream_islands", "cover 4: 2 pieces 2 to 4", "cover 4: 2 pieces island 2→4"),
        ("dream_islands", "cover 4: 1 piece 2->3, 1 piece 2->3, 2 pieces 3->4", "cover 4: 2 pieces island 2→4"),
        ("dream_islands", "cover 2", "cover 2 (no piece can move)"),
        ("dream_islands", "put majority on island 3", "put 'majority on island 3' under the draw pile"),
        ("dream_islands", "draw", "draw up to 3"),
        ("atlantic_star", "loan 3000 on the second pac", "loan 3,000 on the second Pacific voyage"),
        ("atlantic_star", "refresh", "refresh the agency for 2,000"),
        ("atlantic_star", "charter for 1000", "charter the ship for 1,000"),
        ("atlantic_star", "voyage Med 3* with the whole hand", "voyage Mediterranean 3★ with the whole hand"),
        ("atlantic_star", "voyage pac 2 stars keeping hand slots 1, 0", "voyage Pacific 2★ keeping hand slots 0, 1"),
        ("dream_cruise", "BOARD MULLER", "board Müller"),
        ("dream_cruise", "keep Tromso", "keep Tromsø"),
        ("dream_cruise", "keep reykjavik", "keep Reykjavík"),
        ("dream_cruise", "keep Greenland Sea", "keep Open Sea: Greenland Sea"),
        ("dream_cruise", "take facedown", "take the face-down set"),
        (
            "dream_cruise",
            "send a guest from the balcony cabin to location top",
            "send a guest from the balcony cabin to location top",
        ),
        ("dream_cruise", "plan legs, bums and tums", "plan Legs Bums & Tums"),
        (
            "dream_cruise",
            "build Arcade paying Wine Tasting replacing addition 2",
            "build Arcade, paying Wine Tasting, replacing addition 2",
        ),
        ("dream_cruise", "captain to second sea slot paying zumba", "captain to second sea slot, paying Zumba"),
        ("dream_cruise", "end turn", "done"),
    ],
)
def test_a_text_that_names_the_move_by_itself_needs_no_state(name: str, text: str, expected: str) -> None:
    players = {"dream_islands": 3, "atlantic_star": 3}.get(name)
    game = make(name, **({"players": players} if players else {}))
    move = game.parse_move(text)
    assert str(move) == expected
    assert move == game.action_to_move(game.move_to_action(move))


@pytest.mark.parametrize(
    ("name", "text", "needs"),
    [
        ("atlantic_star", "charter Vesta for 1,000", "a ship"),
        ("atlantic_star", "loan 1,000 on the Baltic voyage (value now 3)", "the value after the loan"),
        ("atlantic_star", "voyage Baltic 2★ with Rhea, Hera: 12 points", "ships or points"),
        ("atlantic_star", "voyage Pacific 4* keeping Juno", "ships or points"),
        ("dream_cruise", "take set 1: Theater + Deck Jogging", "the cards of a set"),
        ("dream_cruise", "send an Adler guest to Livorno top (country for 2)", "a family or an activity"),
        ("dream_cruise", "captain to Livorno top, paying Zumba", "an activity"),
        ("dream_cruise", "build Arcade, paying Zumba, replacing Cinema", "the addition replaced"),
    ],
)
def test_a_text_naming_what_the_position_shows_says_it_needs_the_state(name: str, text: str, needs: str) -> None:
    game = make(name)
    with pytest.raises(IllegalMoveError, match=f"{re.escape(repr(text))} without a position: .*{needs} need the state"):
        game.parse_move(text)


# --- errors ------------------------------------------------------------------------------


def _typo(text: str) -> str:
    """The first word with two different letters after its first swapped (``paly``,
    ``cvoer``), or an x added to it (``rumx``)."""
    word, rest = text.split(" ", 1) if " " in text else (text, "")
    i = next((i for i in range(1, len(word) - 1) if word[i] != word[i + 1] and word[i + 1].isalpha()), None)
    word = word + "x" if i is None else word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return f"{word} {rest}".strip()


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=[n for n, _ in ONE_PER_GAME])
def test_a_typo_lists_close_matches(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    rnd = random.Random(5)
    for state in rnd.sample(positions(game, 2, seed=8), 6):
        move = rnd.choice(state.legal_moves())
        typo = _typo(str(move))
        unchanged_after(
            state,
            functools.partial(state.parse_move, typo),
            IllegalMoveError,
            f"no legal .* move reads {re.escape(repr(typo))}; did you mean .*{re.escape(repr(str(move)))}",
        )
        plain = str(game.action_to_move(game.move_to_action(move)))
        with pytest.raises(IllegalMoveError, match=f"did you mean .*{re.escape(repr(plain))}"):
            game.parse_move(_typo(plain))


def test_a_typo_lists_at_most_three_close_matches() -> None:
    game = make("sirens")
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move("plya 3 to ship 30, seat 1's side")
    hint = str(info.value).split("did you mean ", 1)[1]
    assert hint.count("play ") == 3 and '"play 3 to ship 30, seat 1\'s side"' in hint


def test_an_ambiguous_text_lists_the_moves_it_reads_as() -> None:
    game = make("atlantic_star", players=3)

    def several_voyages(state: Any, move: am.Voyage) -> bool:
        return sum(isinstance(v, am.Voyage) and v.sea == move.sea for v in state.legal_moves()) > 1

    state, move = find_move(game, am.Voyage, several_voyages)
    candidates = [str(v) for v in state.legal_moves() if isinstance(v, am.Voyage) and v.sea == move.sea]
    unchanged_after(
        state,
        lambda: state.parse_move(f"voyage {move.sea}"),
        IllegalMoveError,
        f"'voyage {move.sea}' is ambiguous: it reads as {len(candidates)} legal moves",
    )
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move(f"VOYAGE {move.sea}", state)
    for text in candidates[:6]:
        assert repr(text) in str(info.value)
    # without a state: a sea and class name 37 voyages (the whole hand, or keeping 1 or 2 slots)
    with pytest.raises(
        IllegalMoveError, match=r"'voyage Med 3\*' is ambiguous: it reads as 37 moves, .*\(and 31 more\)"
    ):
        game.parse_move("voyage Med 3*")


def test_an_ambiguous_build_lists_the_additions_it_may_replace() -> None:
    game = make("dream_cruise", players=2)

    def several(state: Any, move: Any) -> bool:
        return (
            move.replaces is not None
            and sum(
                isinstance(b, cm.Build) and (b.addition, b.payment) == (move.addition, move.payment)
                for b in state.legal_moves()
            )
            >= 2
        )

    state, move = find_move(game, cm.Build, several)
    same = [
        str(b)
        for b in state.legal_moves()
        if isinstance(b, cm.Build) and (b.addition, b.payment) == (move.addition, move.payment)
    ]
    text = f"build {move.name}, paying {move.payment_name}"
    with pytest.raises(IllegalMoveError, match=f"is ambiguous: it reads as {len(same)} legal moves") as info:
        state.parse_move(text)
    assert all(repr(t) in str(info.value) for t in same)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_a_move_that_is_not_legal_now_says_so(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    rnd = random.Random(9)
    for state in rnd.sample(positions(game, 1, seed=4), 3):
        legal = set(state.legal_actions())
        for a in rnd.sample([a for a in range(game.num_actions) if a not in legal], 3):
            text = str(game.action_to_move(a))
            for typed in (text, loud(text)):
                unchanged_after(
                    state,
                    functools.partial(state.parse_move, typed),
                    IllegalMoveError,
                    f"^{re.escape(repr(typed))} names the .* move {re.escape(repr(text))}, not legal now",
                )


GARBAGE: list[Any] = [
    "",
    "   ",
    "\t\n",
    "\x00\x01\x1f\x7f",
    "🐙",
    "🐙 ⚓ ★",
    "\u0301\u0301",
    "\u200f\u200e",
    "\ufeff",
    "\ud800",
    "play \udfff",
    "ship 28",
    "-",
    "*",
    "->",
    "1,000",
    "x" * 1000,
    "pass " * 200,
    "x" * 1_000_001,
    "play 3 to ship 28, seat 0's side" * 40,
    None,
    7,
    2.5,
    True,
    b"pass",
    bytearray(b"pass"),
    ["pass"],
    ("pass",),
    {"type": "pass"},
    object(),
]


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=[n for n, _ in ONE_PER_GAME])
def test_garbage_raises_illegal_move_error_and_changes_nothing(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    state = positions(game, 1, seed=6, every=7)[2]
    for text in GARBAGE:
        for call in (
            functools.partial(state.parse_move, text),
            functools.partial(game.parse_move, text, state),
            functools.partial(game.parse_move, text),
        ):
            unchanged_after(state, call, IllegalMoveError, r"\w")
    with pytest.raises(IllegalMoveError, match="a text of 1,000,001 characters"):
        state.parse_move("x" * 1_000_001)
    with pytest.raises(IllegalMoveError, match="is a str, not NoneType"):
        game.parse_move(None)
    with pytest.raises(IllegalMoveError, match="the text has no words"):
        state.parse_move(" \x00 🐙 ")


def test_a_state_of_another_game_is_refused() -> None:
    game = make("atlantic_star", players=3)
    for other in (make("atlantic_star", players=4).new_state(1), make("sirens").new_state(1)):
        with pytest.raises(InvalidOptionError, match="state must be a state of"):
            game.parse_move("refresh", other)
    with pytest.raises(InvalidOptionError):
        game.parse_move("refresh", "a state")
