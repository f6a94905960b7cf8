"""Dream Islands: the observation and information-state tensors (docs/dream_islands.md,
"Observation tensor").

The observation is a function of ``view(seat)`` alone (states with equal views, a state
and its resamples, give equal tensors; different views give different tensors), it reads
back through ``game.observation_fields()``, and ``observation(p, out=buf)`` allocates
nothing. The information state adds the hand memory of I16, a function of
``view(seat, recall=True)``.
"""

from __future__ import annotations

from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt
import pytest

import cruiselib
from cruiselib.dream_islands import DreamIslandsGame, PutUnder
from tests.dream_islands.helpers import build, game
from tests.dream_islands.positions import all_positions
from tests.dream_islands.test_rulings import move
from tests.support import allocation_peak

POSITIONS = list(all_positions(per_config=16, seed=1))


def fields(g: DreamIslandsGame, t: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
    return {name: t[s] for name, s in g.observation_fields().items()}


def test_the_layout_covers_the_tensors_for_every_player_count() -> None:
    for players in (2, 3, 4):
        g = game(players)
        assert g.observation_shape == (38 * players + 54,)
        assert g.information_state_shape == (86 * players + 54,)
        assert g.distinct_information_state
        obs = g.observation_fields()
        info = g.information_state_fields()
        assert list(info)[: len(obs)] == list(obs) and all(info[k] == obs[k] for k in obs)
        assert info["hand_avoids"] == slice(g.observation_shape[0], g.information_state_shape[0])
        state = g.new_state(seed=1)
        assert state.observation(0).shape == g.observation_shape
        assert state.observation(0).dtype == np.float32
        assert state.information_state(1).shape == g.information_state_shape


def test_equal_views_give_equal_tensors() -> None:
    for g, state in POSITIONS:
        for p in range(g.num_players):
            obs = state.observation(p)
            info = state.information_state(p)
            for seed in range(3):
                other = state.resample(p, seed)
                assert other.view(p) == state.view(p)
                assert np.array_equal(other.observation(p), obs)
                recalled = state.resample(p, seed, recall=True)
                assert np.array_equal(recalled.information_state(p), info)


def test_different_views_give_different_tensors() -> None:
    for players in (2, 3, 4):
        seen: dict[bytes, str] = {}
        for g, state in POSITIONS:
            if g.num_players != players or g.max_rounds is not None or state.view(0).rounds >= 32:
                continue
            for p in range(players):
                key = state.observation(p).tobytes()
                view = msgspec.json.encode(state.view(p)).decode()
                assert seen.setdefault(key, view) == view
        assert len(seen) > 20


def test_every_action_changes_what_every_seat_observes() -> None:
    checked = 0
    for g, state in POSITIONS[::4]:
        if state.is_over:
            continue
        for a in state.legal_actions()[:5]:
            after = state.clone()
            after.apply(a)
            for p in range(g.num_players):
                assert not np.array_equal(after.observation(p), state.observation(p))
                checked += 1
    assert checked > 100


def test_the_own_hand_shows_only_in_the_own_tensor() -> None:
    # Seat 0 puts a card under its pile: its hand and bottom cards change for it; the
    # others see one card less in its hand and one more counted under its pile.
    g = game(3)
    state = build(g, hands={0: [0, 1, 2]})
    move(state, 2, (0, 2))
    before = [fields(g, state.observation(p)) for p in range(3)]
    state.apply(PutUnder(1))
    after = [fields(g, state.observation(p)) for p in range(3)]
    assert before[0]["hand"][1] == 1 and after[0]["hand"][1] == 0 and after[0]["under_pile"][1] == 1
    for p in (1, 2):
        assert np.array_equal(after[p]["hand"], before[p]["hand"])  # their own hands only
        assert [m for m in range(16) if after[p]["hand"][m]] == state.view(p).hand
        assert not after[p]["under_pile"].any()
        r = (0 - p) % 3  # seat 0 relative to seat p
        assert after[p]["hand_size"][r] == pytest.approx(2 / 3) and after[p]["under"][r] == pytest.approx(1 / 16)


def test_the_tensor_reads_back_a_known_position() -> None:
    g = game(3)
    state = build(
        g,
        pieces={0: [0, 2, 2, 8], 1: [1, 1, 5], 2: []},
        small=(1, 2, 1),
        main={1: 1},
        hands={0: [5, 6, 7], 1: [0, 1, 2], 2: [4, 5, 6]},
        completed={0: [3], 2: [0, 1, 2, 3]},
        under={1: [3, 4]},
        covered={0: [2, 5], 1: [3]},
        cur=1,
        rounds=4,
    )
    view = state.view(1)
    f = fields(g, state.observation(1))
    order = [1, 2, 0]  # seats in turn order from the observer
    pieces = f["pieces"].reshape(3, 9)
    for r, q in enumerate(order):
        seat = view.seats[q]
        assert list(pieces[r] * 6) == pytest.approx([seat.airplane, *seat.islands])
        assert f["middle"][r] * 6 == pytest.approx(seat.middle)
        assert [n for n in range(2, 6) if f["covered"].reshape(3, 4)[r][n - 2]] == seat.covered
        assert [m for m in range(16) if f["completed"].reshape(3, 16)[r][m]] == seat.completed
        assert f["hand_size"][r] * 3 == pytest.approx(seat.hand_size)
        assert f["pile_size"][r] * 16 == pytest.approx(seat.pile_size)
        assert f["under"][r] * 16 == pytest.approx(seat.under)
        assert f["score"][r] * 45 == pytest.approx(seat.score)
    small = f["small_islands"].reshape(3, 3)  # island x relative seat
    assert [order[int(np.argmax(row))] for row in small] == [1, 2, 1] and small.sum() == 3
    assert [m for m in range(16) if f["hand"][m]] == view.hand == [0, 1, 2]
    # The cards put under the pile, the next drawn first: 1 - i / 16 for the i-th.
    assert view.under_pile == [3, 4]
    assert f["under_pile"][3] == 1.0 and f["under_pile"][4] == pytest.approx(15 / 16)
    assert np.count_nonzero(f["under_pile"]) == 2
    assert [m for m in range(16) if f["pile_unseen"][m]] == view.pile_unseen
    assert list(f["phase"]) == [1, 0, 0]
    assert list(f["current_player"]) == [1, 0, 0]  # the observer is to move
    assert f["end_triggered"][0] == 0 and f["last_round"][0] == 0
    assert f["rounds"][0] == pytest.approx(4 / 32)


def test_phase_turn_and_last_round_over_a_game_with_a_round_limit() -> None:
    g = game(2, max_rounds=2)
    state = g.new_state(seed=4)
    while not state.is_over:
        f = fields(g, state.observation(1))
        v = state.view(1)
        assert list(f["phase"]) == [float(v.phase == ph) for ph in ("move", "exchange", "over")]
        assert f["current_player"][(v.current_player - 1) % 2] == 1
        assert f["last_round"][0] == float(v.end_triggered or v.rounds == 1)
        state.apply(state.legal_actions()[0])
    f = fields(g, state.observation(0))
    assert list(f["phase"]) == [0, 0, 1] and not f["current_player"].any() and f["last_round"][0] == 0


def test_the_information_state_adds_the_hand_memory_of_the_recall_view() -> None:
    nonempty = 0
    for g, state in POSITIONS:
        n = g.num_players
        for p in range(n):
            info = state.information_state(p)
            assert np.array_equal(info[: g.observation_shape[0]], state.observation(p))
            planes = info[g.information_state_fields()["hand_avoids"]].reshape(n, 3, 16)
            recall = state.view(p, recall=True).recall
            assert recall is not None
            for r in range(n):
                memory = recall[(p + r) % n]
                for k in range(3):
                    expected = memory.avoid[k] if k < len(memory.avoid) else []
                    assert [m for m in range(16) if planes[r, k, m]] == expected
                    nonempty += bool(expected)
    assert nonempty > 20


def test_observation_into_a_buffer_allocates_nothing() -> None:
    g, state = next((g, s) for g, s in POSITIONS if g.num_players == 4 and s.phase_name == "move")
    buf = np.zeros(g.observation_shape, dtype=np.float32)
    buf[:] = 7.0  # whatever was in it is overwritten
    assert state.observation(2, out=buf) is buf
    assert np.array_equal(buf, state.observation(2))
    info = np.zeros(g.information_state_shape, dtype=np.float32)
    state.observation(1, out=buf)
    state.information_state(1, out=info)

    def both() -> None:
        state.observation(1, out=buf)
        state.information_state(1, out=info)

    # The least of three counts: tracemalloc also counts the test runner's own threads.
    held, _ = allocation_peak(both, calls=500)
    assert held < 500  # a new array is hundreds of bytes: none was made


@pytest.mark.parametrize(
    "out",
    [
        np.zeros(10, dtype=np.float32),
        np.zeros(206, dtype=np.float64),
        np.zeros((2, 103), dtype=np.float32),
        np.zeros(412, dtype=np.float32)[::2],
        [0.0] * 206,
    ],
)
def test_a_wrong_buffer_is_refused(out: Any) -> None:
    state = game(4).new_state(seed=1)
    with pytest.raises(cruiselib.InvalidOptionError, match="out must be"):
        state.observation(0, out=out)
