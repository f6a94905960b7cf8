"""The bots on Sirens in Sight: every bot's interface on its opening, the perfect-information
search told apart by the hidden cards, and a search run in chunks at the search settings
Sirens declares (tests/test_bots.py holds what every game shares)."""

from __future__ import annotations

import cruiselib
from cruiselib._core import load
from cruiselib.bots import (
    BOTS,
    Bot,
    Candidate,
    CheatingMCTSBot,
    ISMCTSBot,
    make_bot,
)
from tests.support import positions


def test_every_bot_is_registered_and_meets_the_protocol() -> None:
    state = cruiselib.make("sirens").new_state(seed=2)
    for name in BOTS:
        options = {"iterations": 50} if name in ("ismcts", "cheating_mcts") else {}
        bot = make_bot(name, seed=1, **options)
        assert isinstance(bot, Bot)
        assert bot.name == name
        action = bot.choose(state)
        assert type(action) is int and state.is_legal(action)
        analysis = bot.analyse(state)
        assert analysis and all(isinstance(c, Candidate) for c in analysis)
        assert {c.action for c in analysis} <= set(state.legal_actions())


def test_cheating_mcts_sees_the_hidden_cards() -> None:
    """The perfect-information search is told apart from ISMCTS: on positions that look the
    same to the seat, its analysis differs with the hidden cards."""
    game = cruiselib.make("sirens")
    differ = 0
    for k, state in enumerate(positions(game, 2, 17, every=5)[:10]):
        other = state.resample(state.current_player, 200 + k, recall=True)
        a = CheatingMCTSBot(iterations=60, seed=k).analyse(state)
        b = CheatingMCTSBot(iterations=60, seed=k).analyse(other)
        differ += a != b
    assert differ >= 5


def test_a_search_in_chunks_builds_the_tree_of_one_run() -> None:
    """The bot runs its budget in chunks sized by time; the tree is the one a single run of
    the whole budget builds (each iteration draws from the search's own generator)."""
    from cruiselib._core.rng import mix64, seed_state

    state = cruiselib.make("sirens").new_state(seed=4)
    bot = ISMCTSBot(iterations=3000, seed=11)
    candidates = bot.analyse(state)
    tree = load("ismcts").Search(state, 1.0, True, True, mix64(seed_state(11)), 3001, 0.0, True, 0.0)
    assert tree.run(3000) == 3000
    rows = sorted(tree.children(), key=lambda row: (-row[1], row[0]))
    assert [(c.action, c.visits) for c in candidates] == [(a, v) for a, v, _, _ in rows]
    assert bot.last_iterations == 3000
