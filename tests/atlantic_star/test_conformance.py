"""Seeded random games: the shared conformance suite (check_game) for 2-6 players, and an
engine-level sweep of the invariants that hold after every Atlantic Star action."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib.atlantic_star import LEGS

from .helpers import game

PLAYERS = [2, 3, 4, 5, 6]
# 1,000 seeded games per player count, in compiled and in pure mode.
GAMES = 1000


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_check_game(players: int) -> None:
    from cruiselib import testing

    g = game(players)
    # Every step gets the cheap checks; deep checks (round-trips, resample for every seat)
    # every 97th step plus first and last state of each game.
    report = testing.check_game(g, GAMES, seed=players, deep_every=97)
    assert report.games == GAMES


@pytest.mark.parametrize("players", PLAYERS)
def test_check_game_deep(players: int) -> None:
    from cruiselib import testing

    report = testing.check_game(game(players), 30 if cruiselib.compiled else 5, seed=100 + players)
    assert report.deep_checks > 0


def invariants(state: Any, g: Any) -> None:
    d = state.to_data()
    n_ships = len(g.ships.ships)
    ids = [c for h in d.hands for c in h] + list(d.agency) + d.deck + d.discard
    ids += [c for s in d.seas for p in s.plaques for c in p.ships]
    assert sorted(ids) == list(range(n_ships))
    for s, sea in enumerate(d.seas):
        values = [p.value for p in sea.plaques]
        assert values == sorted(values, reverse=True)
        for p in sea.plaques:
            if p.seat is not None:
                assert len(p.ships) == LEGS[s]
                assert 0 <= p.loan <= 10000
    assert all(m >= 0 for m in d.money)
    assert sorted(state.legal_actions()) == state.legal_actions()


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_sweep(players: int) -> None:
    g = game(players)
    n = 300 if cruiselib.compiled else 10
    for i in range(n):
        state: Any = g.new_state(seed=i)
        rnd = random.Random(i)
        steps = 0
        while not state.is_over:
            legal = state.legal_actions()
            assert legal
            assert state.action_mask().sum() == len(legal)
            state.apply(rnd.choice(legal))
            steps += 1
            if steps % 25 == 0:
                invariants(state, g)
        invariants(state, g)
        d = state.to_data()
        assert all(len(s.plaques) == 6 for s in d.seas)
        assert len({s.stars for s in d.seas}) == 4
        assert state.winners()
