"""The bot interface and the search bots (ISMCTS in the core), on every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib._core import load, pure_module
from cruiselib._registry import game_class
from cruiselib.bots import (
    BOTS,
    Bot,
    CheatingMCTSBot,
    GreedyBot,
    ISMCTSBot,
    RandomBot,
    RuleBot,
    make_bot,
)
from cruiselib.bots.search import search_defaults
from cruiselib.integration import SearchDefaults

from .support import ANY_GAME, CONFIGURATIONS, configuration_id, player_counts, positions

# Every game's example configurations (what each game declares).
CONFIGS: list[tuple[str, dict[str, Any]]] = CONFIGURATIONS
# The pure-Python core searches about 100 times slower: it checks every other configuration
# (the compiled run checks all, and the two cores build equal trees on each).
SEARCH_CONFIGS = CONFIGS if cruiselib.compiled else CONFIGS[::2]
IDS = [configuration_id(name, opts) for name, opts in SEARCH_CONFIGS]


def search(state: Any, iterations: int = 60, seed: int = 5, **options: Any) -> Any:
    module = load("ismcts")
    tree = module.Search(state, options.get("uct_c", 1.0), options.get("determinize", True), True, seed, iterations + 1)
    tree.run(iterations)
    return tree


# ---------------------------------------------------------------------------- interface


@pytest.mark.parametrize("name", cruiselib.games())
def test_every_bots_analysis_says_each_move_as_the_position_does(name: str) -> None:
    """``Candidate.move`` stays the plain text; ``text`` is ``state.move_text`` for the
    seat to move (its own hidden cards may be named: the analysis is for that seat)."""
    game = cruiselib.make(name)
    for state in positions(game, games=1, seed=3, every=7)[:4]:
        seat = state.current_player
        for bot_name in BOTS:
            options = {"iterations": 30} if bot_name in ("ismcts", "cheating_mcts") else {}
            for c in make_bot(bot_name, seed=1, **options).analyse(state):
                assert c.move == str(game.action_to_move(c.action))
                assert c.text == state.move_text(c.action, player=seat)


def test_make_bot_rejects_unknown_names_and_options() -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=r"unknown bot 'alphazero'.*ismcts"):
        make_bot("alphazero")
    with pytest.raises(cruiselib.InvalidOptionError, match=r"no option depth.*iterations"):
        make_bot("ismcts", depth=3)
    with pytest.raises(cruiselib.InvalidOptionError, match="no option iterations; its options: none"):
        make_bot("random", iterations=3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "iterations must be"),
        ({"iterations": 2.5}, "iterations must be"),
        ({"iterations": None}, "give a budget"),
        ({"seconds": -1}, "seconds must be"),
        ({"seconds": float("nan")}, "seconds must be"),
        ({"uct_c": -0.1}, "uct_c must be"),
        ({"uct_c": float("inf")}, "uct_c must be"),
        ({"final": "best"}, "final must be"),
        ({"seed": 1.5}, "seed must be"),
    ],
)
def test_search_bot_options_are_checked(options: dict[str, Any], message: str) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match=message):
        ISMCTSBot(**options)


def test_no_move_to_choose_once_the_game_is_over() -> None:
    game = cruiselib.make(ANY_GAME)
    state = game.new_state(seed=3)
    rnd = random.Random(3)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    for bot in (ISMCTSBot(iterations=10, seed=1), CheatingMCTSBot(iterations=10, seed=1)):
        with pytest.raises(cruiselib.IllegalMoveError, match="over"):
            bot.choose(state)
        with pytest.raises(cruiselib.IllegalMoveError, match="over"):
            bot.analyse(state)


def test_analysis_of_the_simple_bots() -> None:
    state = cruiselib.make(ANY_GAME, players=2).new_state(seed=4)
    legal = state.legal_actions()
    assert [c.action for c in RandomBot(seed=1).analyse(state)] == legal
    greedy = GreedyBot(seed=1).analyse(state)
    values = [c.value for c in greedy]
    assert sorted(c.action for c in greedy) == legal
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]
    assert GreedyBot(seed=1).choose(state) in [c.action for c in greedy if c.value == values[0]]


# ---------------------------------------------------------------------------- the search tree


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_tree_counts_are_consistent(name: str, options: dict[str, Any]) -> None:
    """One node per iteration; the root's children share its visits; availability >= visits;
    means are returns in [-1, 1]; the state searched is unchanged."""
    game = cruiselib.make(name, **options)
    for state in positions(game, 2, 7, every=9)[:6]:
        before = state.to_json()
        tree = search(state, 80)
        assert tree.iterations == 80 and tree.nodes == 81
        children = tree.children()
        assert sum(v for _, v, _, _ in children) == 80
        legal = set(state.legal_actions())
        for action, visits, avail, mean in children:
            assert action in legal and visits >= 1 and avail >= visits and -1.0 <= mean <= 1.0
        assert tree.best() == max(children, key=lambda c: (c[1], -c[0]))[0]
        assert state.to_json() == before


def test_a_full_tree_stops_and_grows() -> None:
    state = cruiselib.make(ANY_GAME).new_state(seed=1)
    tree = load("ismcts").Search(state, 1.0, True, True, 3, 10)
    assert tree.run(50) == 9 and tree.nodes == 10
    tree.grow(30)
    assert tree.run(50) == 20 and tree.iterations == 29


def test_search_input_is_checked() -> None:
    module = load("ismcts")
    state = cruiselib.make(ANY_GAME).new_state(seed=1)
    with pytest.raises(cruiselib.InvalidOptionError, match="game state"):
        module.Search(ANY_GAME)
    with pytest.raises(cruiselib.InvalidOptionError, match="uct_c"):
        module.Search(state, float("nan"))
    with pytest.raises(cruiselib.InvalidOptionError, match="iterations"):
        module.Search(state).run(-1)


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_compiled_and_pure_search_build_the_same_tree(name: str, options: dict[str, Any]) -> None:
    """The one source runs as C and as Python: the same seed gives the same tree."""
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    state = positions(game, 1, 11, every=7)[2]
    pure_state = twin.load_state(state.to_json())
    tree = search(state, 40, seed=9)
    pure = pure_module("ismcts").Search(pure_state, 1.0, True, True, 9, 41)
    pure.run(40)
    assert tree.children() == pure.children()


# ---------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_ismcts_sees_only_the_view(name: str, options: dict[str, Any]) -> None:
    """Two states with equal views (a state and a resample of it for the seat to move)
    give the same choice and the same analysis for the same seed."""
    game = cruiselib.make(name, **options)
    checked = 0
    for k, state in enumerate(positions(game, 2, 13, every=11)[:8]):
        seat = state.current_player
        other = state.resample(seat, 100 + k, recall=True)
        assert other.view(seat, recall=True) == state.view(seat, recall=True)
        assert ISMCTSBot(iterations=60, seed=k).analyse(state) == ISMCTSBot(iterations=60, seed=k).analyse(other)
        assert ISMCTSBot(iterations=60, seed=k).choose(state) == ISMCTSBot(iterations=60, seed=k).choose(other)
        checked += 1
    assert checked >= 4


# ---------------------------------------------------------------------------- determinism and budgets


def test_same_seed_same_games_and_the_search_counter() -> None:
    game = cruiselib.make(ANY_GAME, players=3)

    def play(seed: int) -> list[int]:
        bots: list[Bot] = [
            ISMCTSBot(iterations=30, seed=seed),
            RandomBot(seed=seed),
            ISMCTSBot(iterations=30, seed=seed + 1),
        ]
        state = game.new_state(seed=seed)
        for _ in range(40):
            if state.is_over:
                break
            state.apply(bots[state.current_player].choose(state))
        return list(state.history)

    assert play(3) == play(3)
    assert play(3) != play(4)
    bot = ISMCTSBot(iterations=30, seed=1)
    state = game.new_state(seed=1)
    first = bot.analyse(state)
    assert bot.searches == 1
    assert ISMCTSBot(iterations=30, seed=1).analyse(state) == first


def test_time_budget() -> None:
    state = cruiselib.make(ANY_GAME, players=3).new_state(seed=2)
    bot = ISMCTSBot(iterations=None, seconds=0.05, seed=1)
    assert state.is_legal(bot.choose(state))
    assert bot.last_iterations > 0
    capped = ISMCTSBot(iterations=100, seconds=30, seed=1)
    capped.choose(state)
    assert capped.last_iterations == 100


def test_final_value_policy_takes_the_best_mean() -> None:
    state = cruiselib.make(ANY_GAME).new_state(seed=6)
    bot = ISMCTSBot(iterations=300, final="value", seed=2)
    choice = bot.choose(state)
    tree = search(state, 300, seed=0)  # a different tree: only the policy is checked on it
    children = tree.children()
    best = max(children, key=lambda c: (c[3], -c[0]))[0]
    assert tree.best(1) == best
    assert state.is_legal(choice)


# ---------------------------------------------------------------------------- returns


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in cruiselib.games() if 2 in player_counts(name)])
def test_ismcts_beats_random(name: str) -> None:
    game = cruiselib.make(name, players=2)
    wins = 0.0
    for g in range(12):
        seats: list[Bot] = [ISMCTSBot(iterations=300, seed=g), RandomBot(seed=g)]
        if g % 2:
            seats.reverse()
        state = game.new_state(seed=g)
        while not state.is_over:
            state.apply(seats[state.current_player].choose(state))
        me = g % 2
        winners = state.winners()
        wins += 1.0 if winners == [me] else (0.5 if not winners else 0.0)
    assert wins >= 9


# ---------------------------------------------------------------------------- the root's shortlist


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_a_restricted_root_weighs_only_its_shortlist(name: str, options: dict[str, Any]) -> None:
    """``restrict`` keeps the root to the moves given (each tried, the rest never); the nodes
    below stay unrestricted; both cores build the same tree."""
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    for state in branching_positions(game, 29):
        legal = state.legal_actions()
        shortlist = [legal[-1], legal[len(legal) // 2]]
        tree = search_restricted(load("ismcts"), state, shortlist)
        children = tree.children()
        assert sorted(a for a, *_ in children) == sorted(shortlist)
        assert sum(v for _, v, _, _ in children) == 80 and tree.nodes == 81  # a node a visit, below too
        assert tree.restricted and tree.best() in shortlist
        pure = search_restricted(pure_module("ismcts"), twin.load_state(state.to_json()), shortlist)
        assert pure.children() == children


def branching_positions(game: Any, seed: int) -> list[Any]:
    """Positions of two seeded random games (two to five) with three legal moves or more."""
    states = [state for state in positions(game, 2, seed, every=7)[:5] if len(state.legal_actions()) >= 3]
    assert len(states) >= 2
    return states


def search_restricted(module: Any, state: Any, shortlist: list[int]) -> Any:
    tree = module.Search(state, 1.0, True, True, 3, 81)
    tree.restrict(shortlist)
    tree.run(80)
    return tree


def unsearched_root() -> tuple[Any, list[int], int]:
    """A fresh search of a game's opening, its legal moves and an illegal one."""
    state = cruiselib.make(ANY_GAME).new_state(seed=1)
    legal = state.legal_actions()
    illegal = next(a for a in range(state.game.num_actions) if a not in legal)
    return load("ismcts").Search(state, 1.0, True, True, 3, 50), legal, illegal


def test_restrict_is_checked() -> None:
    tree, legal, illegal = unsearched_root()
    for bad, message in (([], "at least one"), ([illegal], "not legal"), ([-1], "not legal"), (["1"], "an int")):
        with pytest.raises(cruiselib.InvalidOptionError, match=message):
            tree.restrict(bad)
    assert not tree.restricted
    tree.run(5)
    with pytest.raises(cruiselib.InvalidOptionError, match="before the search runs"):
        tree.restrict(legal[:1])


# ---------------------------------------------------------------------------- a favoured root move


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_a_favoured_root_move_is_expanded_first_and_leads_the_search(name: str, options: dict[str, Any]) -> None:
    """``favour(a, w)``: the root expands ``a`` first and gives it ``w / (visits + 1)`` more
    in UCB1, so a large weight keeps most visits on it; a weight of 0 only orders the
    expansion; both cores build the same tree."""
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    for state in branching_positions(game, 43):
        legal = state.legal_actions()
        favoured = legal[len(legal) // 2]
        first = search_favouring(load("ismcts"), state, favoured, 0.0, 1)
        assert [a for a, *_ in first.children()] == [favoured]
        tree = search_favouring(load("ismcts"), state, favoured, 1000.0, 80)
        visits = {a: v for a, v, _, _ in tree.children()}
        # Every other move is tried once (untried moves are expanded before any is chosen
        # again); the bonus, over 12 at 80 visits, keeps every later visit on the favoured.
        assert all(v == 1 for a, v in visits.items() if a != favoured)
        assert visits[favoured] == 80 - (len(visits) - 1) and tree.best() == favoured
        assert tree.favoured == favoured and tree.favour_weight == 1000.0
        plain = load("ismcts").Search(state, 1.0, True, True, 5, 81)
        plain.run(80)
        assert {a: v for a, v, _, _ in plain.children()}.get(favoured, 0) < visits[favoured]
        pure = search_favouring(pure_module("ismcts"), twin.load_state(state.to_json()), favoured, 1000.0, 80)
        assert pure.children() == tree.children()


def search_favouring(module: Any, state: Any, action: int, weight: float, iterations: int) -> Any:
    tree = module.Search(state, 1.0, True, True, 5, iterations + 1)
    tree.favour(action, weight)
    tree.run(iterations)
    return tree


def test_favour_is_checked() -> None:
    tree, legal, illegal = unsearched_root()
    for action, weight, message in (
        (illegal, 1.0, "not legal"),
        (-1, 1.0, "not legal"),
        ("1", 1.0, "an int"),
        (legal[0], -1.0, "weight"),
        (legal[0], float("nan"), "weight"),
        (legal[0], float("inf"), "weight"),
        (legal[0], True, "weight"),
    ):
        with pytest.raises(cruiselib.InvalidOptionError, match=message):
            tree.favour(action, weight)
    assert tree.favoured == -1
    tree.run(5)
    with pytest.raises(cruiselib.InvalidOptionError, match="before the search runs"):
        tree.favour(legal[0], 1.0)


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_rule_bias_favours_the_rule_based_bots_best_move(name: str, options: dict[str, Any]) -> None:
    """``ISMCTSBot(rule_bias=B)`` favours the rule-based bot's best root move (analysed from
    the seat's view); the default takes the game's declared ``search.rule_bias``."""
    game = cruiselib.make(name, **options)
    for state in branching_positions(game, 53):
        best = RuleBot(seed=0).analyse(state)[0].action
        budget = len(state.legal_actions()) + 40
        rows = ISMCTSBot(iterations=budget, rule_bias=1000.0, shortlist=0, seed=1).analyse(state)
        assert rows[0].action == best and rows[0].visits == 41 and all(row.visits == 1 for row in rows[1:])
        default = ISMCTSBot(iterations=60, seed=1).analyse(state)
        off = ISMCTSBot(iterations=60, rule_bias=game_class(name).search.rule_bias, seed=1).analyse(state)
        assert default == off


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), True, "2"])
def test_rule_bias_option_is_checked(bad: Any) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="rule_bias must be"):
        ISMCTSBot(rule_bias=bad)


def test_root_moves_depend_on_the_view_alone() -> None:
    """Why a shortlist made from the seat's view fits every determinization: the seat to
    move has the same legal moves in every state consistent with its view."""
    for name, options in CONFIGS:
        game = cruiselib.make(name, **options)
        for k, state in enumerate(positions(game, 2, 31, every=5)[:12]):
            other = state.resample(state.current_player, 300 + k, recall=True)
            assert other.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_the_shortlist_is_the_rule_based_bots_best_moves(name: str, options: dict[str, Any]) -> None:
    """``ISMCTSBot(shortlist=k)`` weighs only the rule-based bot's k best root moves; with
    k = 1 it plays the rule-based bot's first choice; 0 weighs every legal move."""
    game = cruiselib.make(name, **options)
    for state in positions(game, 1, 37, every=9)[:4]:
        legal = state.legal_actions()
        if len(legal) < 4:
            continue
        ranked = [c.action for c in RuleBot(seed=0).analyse(state)]
        shortlisted = {c.action for c in ISMCTSBot(iterations=60, shortlist=2, seed=1).analyse(state)}
        assert shortlisted == set(ranked[:2])
        assert ISMCTSBot(iterations=30, shortlist=1, seed=1).choose(state) == ranked[0]
        unrestricted = {c.action for c in ISMCTSBot(iterations=60, shortlist=0, seed=1).analyse(state)}
        assert not unrestricted <= set(ranked[:2])


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", {"set_sail": -1}, {1: 1}, {"set_sail": 1.0}, [1]])
def test_shortlist_option_is_checked(bad: Any) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="shortlist must be"):
        ISMCTSBot(shortlist=bad)


# Games whose search declaration gives the root's shortlist per phase.
PHASE_SHORTLISTS = [name for name in cruiselib.games() if isinstance(game_class(name).search.shortlist, dict)]


@pytest.mark.parametrize("name", PHASE_SHORTLISTS)
def test_a_phase_shortlist_plays_the_rule_based_bot_there_and_searches_the_rest(name: str) -> None:
    """The default shortlist per phase (the game's ``search`` declaration): in a phase of
    width 1 the bot plays the rule-based bot's best move without a search; in a phase not
    named it searches every move; ``shortlist=0`` searches every phase, and a mapping sets
    it per phase."""
    widths = game_class(name).search.shortlist
    assert isinstance(widths, dict)
    options = next(o for o in game_class(name).example_configurations if o.get("players", 2) >= 2)
    game = cruiselib.make(name, **options)
    phases: set[str] = set()
    for state in positions(game, 2, 41, every=3)[:60]:
        if len(state.legal_actions()) < 2:
            continue
        phase = state.phase_name
        phases.add(phase)
        bot = ISMCTSBot(iterations=40, seed=1)
        choice = bot.choose(state)
        if widths.get(phase) == 1:
            assert bot.last_iterations == 0
            assert choice == RuleBot(seed=0).analyse(state)[0].action
            searched = ISMCTSBot(iterations=40, shortlist=0, seed=1)
            searched.choose(state)
            assert searched.last_iterations == 40
        elif phase not in widths:
            assert bot.last_iterations == 40
            mapped = ISMCTSBot(iterations=40, shortlist={phase: 1}, seed=1)
            assert mapped.choose(state) == RuleBot(seed=0).analyse(state)[0].action
            assert mapped.last_iterations == 0
    assert set(widths) <= phases and phases - set(widths), f"positions of {name} reach too few phases: {phases}"


# ---------------------------------------------------------------------------- bounded searches


def test_a_huge_iteration_budget_grows_the_tree_as_the_search_runs() -> None:
    """A budget of 10**8 iterations once allocated its whole tree (about 1.5 GiB) before the
    first iteration; the tree now grows with the iterations actually run."""
    import tracemalloc

    state = cruiselib.make(ANY_GAME).new_state(seed=1)
    bot = ISMCTSBot(iterations=10**8, seconds=0.2, seed=3)
    tracemalloc.start()
    try:
        assert state.is_legal(bot.choose(state))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0 < bot.last_iterations < 10**8
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB traced for a 0.2 s search"


def test_a_cancelled_search_stops_and_leaves_the_state_and_bot_usable() -> None:
    import threading
    import time

    state = cruiselib.make(ANY_GAME, players=3).new_state(seed=2)
    before = state.to_json()
    bot = ISMCTSBot(iterations=10**8, seed=1)
    cancel = threading.Event()
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    began = time.perf_counter()
    try:
        with pytest.raises(cruiselib.SearchCancelled, match="cancelled after"):
            bot.choose(state, cancel=cancel)
    finally:
        timer.cancel()
    # A hang guard, not a speed claim: without the cancel this search runs for hours.
    assert time.perf_counter() - began < 10
    assert state.to_json() == before
    with pytest.raises(cruiselib.SearchCancelled):
        bot.analyse(state, cancel=cancel)  # already set: stops before the first chunk
    bot.iterations = 50
    assert state.is_legal(bot.choose(state, cancel=threading.Event()))
    assert bot.last_iterations == 50


def test_ctrl_c_stops_a_huge_search_at_once() -> None:
    """Ctrl-C (SIGINT) reaches a search with a huge budget within a chunk, even at its start
    (a preallocated tree of 10**8 nodes once ignored it for 6-16 s while it was filled)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if os.name != "posix":
        pytest.skip("SIGINT to a child process is POSIX-only here")
    code = (
        "import cruiselib, sys\n"
        "from cruiselib.bots import ISMCTSBot\n"
        f"state = cruiselib.make({ANY_GAME!r}).new_state(seed=1)\n"
        "print('searching', flush=True)\n"
        "try:\n"
        "    ISMCTSBot(iterations=10**9, seed=1).choose(state)\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(130)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "searching\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        began = time.perf_counter()
        assert child.wait(timeout=30) == 130
        waited = time.perf_counter() - began
    finally:
        child.kill()
        child.wait()
    assert waited < 5, f"Ctrl-C took {waited:.1f} s to stop the search"


def test_a_cancelled_search_does_not_advance_the_bots_sequence() -> None:
    """A seeded bot whose search was cancelled makes, next, the choice it would have made
    had the cancelled search never been asked for (the protocol's failed requests change
    nothing, a kept bot included)."""
    import threading

    state = cruiselib.make(ANY_GAME).new_state(seed=3)
    stopped = threading.Event()
    stopped.set()
    bot = ISMCTSBot(iterations=300, seed=5)
    with pytest.raises(cruiselib.SearchCancelled):
        bot.analyse(state, cancel=stopped)
    assert bot.searches == 0
    fresh = ISMCTSBot(iterations=300, seed=5)
    assert bot.analyse(state) == fresh.analyse(state)


@pytest.mark.parametrize("bad", ["yes", "false", 0, 1, [], None])
def test_recall_must_be_a_bool(bad: Any) -> None:
    with pytest.raises(cruiselib.InvalidOptionError, match="recall must be True or False"):
        ISMCTSBot(recall=bad)


def test_cancel_must_be_an_event() -> None:
    state = cruiselib.make(ANY_GAME).new_state(seed=3)
    with pytest.raises(cruiselib.InvalidOptionError, match=r"cancel must be a threading\.Event"):
        ISMCTSBot(iterations=10, seed=1).choose(state, cancel=1)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- what each game declares


@pytest.mark.parametrize(("name", "options"), SEARCH_CONFIGS, ids=IDS)
def test_a_search_bots_defaults_are_its_games_search_declaration(name: str, options: dict[str, Any]) -> None:
    """A search bot's options left None take the game's ``search`` declaration: the default
    bot searches as one given those values."""
    game = cruiselib.make(name, **options)
    declared = game_class(name).search
    assert search_defaults(game.new_state(seed=1)) is declared
    for state in positions(game, 1, 59, every=11)[:3]:
        if len(state.legal_actions()) < 2:
            continue
        default = ISMCTSBot(iterations=40, seed=3).analyse(state)
        explicit = ISMCTSBot(
            iterations=40,
            seed=3,
            score_weight=declared.score_weight,
            prior_weight=declared.prior_weight,
            shortlist=declared.shortlist,
            rule_bias=declared.rule_bias,
        )
        assert default == explicit.analyse(state)


def test_a_search_bot_reads_the_declaration_of_the_game_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """No table of games: a game that declares a shortlist of one is played by its rule-based
    bot's move without a search, and a game's score weight changes the search's returns."""
    name = cruiselib.games()[0]
    state = next(s for s in positions(cruiselib.make(name), 1, 61) if len(s.legal_actions()) > 2)
    monkeypatch.setattr(game_class(name), "search", SearchDefaults(shortlist=1))
    bot = ISMCTSBot(iterations=40, seed=1)
    assert bot.choose(state) == RuleBot(seed=0).analyse(state)[0].action and bot.last_iterations == 0
    monkeypatch.setattr(game_class(name), "search", SearchDefaults(score_weight=0.0))
    plain = ISMCTSBot(iterations=60, seed=1).analyse(state)
    monkeypatch.setattr(game_class(name), "search", SearchDefaults(score_weight=1.0))
    assert ISMCTSBot(iterations=60, seed=1).analyse(state) != plain


def test_a_game_without_search_defaults_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    name = cruiselib.games()[0]
    state = cruiselib.make(name).new_state(seed=1)
    monkeypatch.setattr(game_class(name), "search", {"score_weight": 0.5})
    with pytest.raises(cruiselib.InvalidOptionError, match=f"{name!r} declares search.*SearchDefaults"):
        ISMCTSBot(iterations=10, seed=1).choose(state)


def test_the_rule_based_bot_is_the_one_the_game_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RuleBot`` hands a position to the class the game's ``rule_bot`` names."""
    name = cruiselib.games()[0]
    state = cruiselib.make(name).new_state(seed=2)
    monkeypatch.setattr(game_class(name), "rule_bot", "cruiselib.bots.basic:RandomBot")
    assert RuleBot(seed=4).choose(state) == RandomBot(seed=4).choose(state)
    assert RuleBot(seed=4).analyse(state) == RandomBot(seed=4).analyse(state)


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        (None, "has no rule-based bot"),
        ("no_colon_here", "give 'package.module:Class'"),
        ("cruiselib.bots.basic:NoSuchBot", "names no class"),
        ("cruiselib.no_such_module:RuleBot", "names no class"),
        ("cruiselib.bots.basic:__name__", "names no class"),
    ],
)
def test_a_game_without_a_rule_based_bot_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, declared: str | None, message: str
) -> None:
    name = cruiselib.games()[0]
    state = cruiselib.make(name).new_state(seed=2)
    monkeypatch.setattr(game_class(name), "rule_bot", declared)
    with pytest.raises(cruiselib.InvalidOptionError, match=f"the game {name!r}.*{message}"):
        RuleBot(seed=1).choose(state)
    # The search bots' shortlist and rule bias ask the same bot.
    with pytest.raises(cruiselib.InvalidOptionError, match=f"the game {name!r}"):
        ISMCTSBot(iterations=10, shortlist=2, seed=1).choose(state)
