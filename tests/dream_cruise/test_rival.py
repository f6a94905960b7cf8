"""Jana, the solo game's opponent (C9), is the game's declared rival: her score is known once
the game is over (C23), and the terminal's last line names her."""

from __future__ import annotations

import random

import cruiselib
from cruiselib._terminal import result_line


def _finished(players: int, seed: int) -> cruiselib.State:
    state = cruiselib.make("dream_cruise", players=players).new_state(seed=seed)
    rnd = random.Random(seed)
    assert state.game.rival(state) is None  # her pile is face down until the end (C23)
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def test_solo_rival_is_jana_with_her_final_score() -> None:
    for seed in range(3):
        state = _finished(1, seed)
        view = state.view(0)
        assert view.jana is not None and view.jana.score is not None
        assert state.game.rival(state) == ("Jana", view.jana.score)
        line = result_line(state, 0)
        assert f"Jana {view.jana.score}" in line
        # C9: the player wins only by beating Jana; else the line says Jana wins.
        assert ("seat 0 (you) wins" in line) == bool(state.winners())
        assert ("Jana wins" in line) == (not state.winners())


def test_games_of_several_seats_have_no_rival() -> None:
    state = _finished(2, 1)
    assert state.game.rival(state) is None
    assert "Jana" not in result_line(state, 0)
