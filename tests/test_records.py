"""History, undo, game records, replay and the top-level load_state, for every game."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib import serialize

from .support import ANY_GAME, CONFIGURATION_IDS, CONFIGURATIONS


def _played(name: str, options: dict[str, Any], seed: int, steps: int | None = None) -> Any:
    game = cruiselib.make(name, **options)
    state = game.new_state(seed)
    rnd = random.Random(seed)
    taken: list[int] = []
    while not state.is_over and (steps is None or len(taken) < steps):
        a = rnd.choice(state.legal_actions())
        state.apply(a)
        taken.append(a)
    return game, state, taken


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_history_is_every_applied_action_and_clones_keep_their_own(name: str, options: dict[str, Any]) -> None:
    game, state, taken = _played(name, options, seed=3, steps=25)
    assert state.history == taken
    twin = state.clone()
    assert twin.history == taken
    a = twin.legal_actions()[0]
    twin.apply(a)
    assert twin.history == [*taken, a]
    assert state.history == taken  # the clone's action is not the original's
    b = state.legal_actions()[-1]
    state.apply(b)
    assert state.history == [*taken, b] and twin.history == [*taken, a]
    # Moves count as their actions; a refused action records nothing.
    before = state.history
    with pytest.raises(cruiselib.IllegalMoveError):
        state.apply(game.num_actions)
    assert state.history == before


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_history_is_in_snapshots_and_reloads(name: str, options: dict[str, Any]) -> None:
    game, state, taken = _played(name, options, seed=11, steps=30)
    data = json.loads(state.to_json())
    assert data["history"] == taken
    assert data["deal"] == {"rng": f"{cruiselib._core.load('rng').seed_state(11):016x}", "start_player": -1}
    for snapshot in (state.to_json(), state.to_msgpack(), data):
        again = game.load_state(snapshot)
        assert again == state and again.history == taken
        assert again.to_json() == state.to_json()
    # Playouts and resampled states keep no history: they were never dealt.
    assert state.resample(0, seed=1).history == []
    state.playouts(3, seed=2)
    assert state.history == taken


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_undo_takes_back_one_action_at_a_time(name: str, options: dict[str, Any]) -> None:
    game, state, taken = _played(name, options, seed=5, steps=12)
    earlier = []
    replay = game.new_state(5)
    for a in taken:
        earlier.append(replay.clone())
        replay.apply(a)
    for k in range(len(taken) - 1, -1, -1):
        assert state.undo() == taken[k]
        assert state == earlier[k] and state.history == taken[:k]
    with pytest.raises(cruiselib.IllegalMoveError, match="no action to undo"):
        state.undo()
    assert state == game.new_state(5)


def test_undo_goes_back_to_the_loaded_position_of_a_snapshot_without_history() -> None:
    game, state, _ = _played(ANY_GAME, {}, seed=8, steps=10)
    bare = msgspec.structs.replace(state.to_data(), deal=None, history=[])
    loaded = game.load_state(serialize.encode_json(bare))
    assert loaded.history == []
    a = loaded.legal_actions()[0]
    loaded.apply(a)
    assert loaded.history == [a]
    assert loaded.undo() == a and loaded == state
    with pytest.raises(cruiselib.InvalidStateError, match="deal"):
        loaded.record()


def test_a_history_that_does_not_lead_to_the_state_cannot_be_undone() -> None:
    game, state, taken = _played(ANY_GAME, {}, seed=4, steps=10)
    data = json.loads(state.to_json())
    data["history"][3] = next(a for a in range(game.num_actions) if a != taken[3])
    tampered = game.load_state(data)  # the history is not replayed on load ...
    before = tampered.to_json()
    with pytest.raises(cruiselib.InvalidStateError, match="history does not lead"):
        tampered.undo()  # ... but undo checks it, and leaves the state as it was
    assert tampered.to_json() == before


def _tampered_histories(game: Any, seed: int, history: list[int], rnd: random.Random) -> list[tuple[str, list[int]]]:
    """Edited copies of the ``history`` of ``game.new_state(seed)``: two actions swapped
    (next to each other, and apart), one changed to another action legal at that point,
    one dropped (inside, and the last)."""
    n = len(history)
    out: list[tuple[str, list[int]]] = []
    for i, j in ((k := rnd.randrange(n - 1), k + 1), tuple(sorted(rnd.sample(range(n), 2)))):
        swapped = list(history)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out.append((f"actions {i} and {j} swapped", swapped))
    for i in sorted(rnd.sample(range(n), 2)):
        earlier = game.new_state(seed)
        for a in history[:i]:
            earlier.apply(a)
        others = [a for a in earlier.legal_actions() if a != history[i]]
        if others:
            changed = list(history)
            changed[i] = rnd.choice(others)
            out.append((f"action {i} changed to another legal one", changed))
    for i in (rnd.randrange(n - 1), n - 1):
        out.append((f"action {i} dropped", history[:i] + history[i + 1 :]))
    return [(what, edited) for what, edited in out if edited != history]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_a_record_is_made_only_from_a_history_that_leads_to_the_state(name: str, options: dict[str, Any]) -> None:
    # Loading does not replay a snapshot's history, so an edited one loads; record()
    # replays it and refuses, else the record would replay to another game.
    refused = 0
    for seed, steps in ((31, 12), (32, 40), (33, None)):
        game, state, taken = _played(name, options, seed=seed, steps=steps)
        assert cruiselib.replay(state.record().to_json()) == state  # the honest history
        for what, edited in _tampered_histories(game, seed, taken, random.Random(seed)):
            data = {**json.loads(state.to_json()), "history": edited}
            try:
                loaded = game.load_state(data)
            except cruiselib.InvalidStateError:
                refused += 1
                continue
            before = loaded.to_json()
            refusal = ""
            try:
                record = loaded.record()
            except cruiselib.InvalidStateError as exc:
                refusal = str(exc)
            if refusal:
                assert "history does not lead to it" in refusal, what
                assert loaded.to_json() == before, what
                refused += 1
            else:
                # Only an edit that still leads to this very state (actions that commute)
                # may give a record, and that record replays to it.
                assert cruiselib.replay(record.to_json()) == loaded, what
    assert refused >= 12


def test_the_engine_protocol_saves_no_record_of_an_edited_history() -> None:
    # Load snapshot, save record, load record gave another game; now the save refuses
    # the record, and a save that also asks for the snapshot gives the snapshot alone.
    from cruiselib import protocol

    _, state, taken = _played(ANY_GAME, {}, seed=34, steps=20)
    edited = {**json.loads(state.to_json()), "history": taken[:-1]}
    engine = protocol.Engine()
    gid = engine.handle({"cmd": "load", "snapshot": edited})["game_id"]
    refused = engine.handle({"cmd": "save", "game_id": gid, "snapshot": False})
    assert refused["ok"] is False and refused["error"]["code"] == "invalid_state"
    assert "history does not lead" in refused["error"]["message"]
    both = engine.handle({"cmd": "save", "game_id": gid})
    assert both["ok"] and both.get("record") is None and both["snapshot"] is not None


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"history": [0], "deal": None}, "needs the deal"),
        ({"history": [10**6]}, "beyond"),
        ({"history": [-1]}, "Expected `int` >= 0"),
        ({"deal": {"rng": "0" * 16, "start_player": 7}}, "does not exist"),
        ({"deal": {"rng": "xyz", "start_player": -1}}, "rng"),
    ],
)
def test_bad_history_fields_are_refused(change: dict[str, Any], match: str) -> None:
    game, state, _ = _played(ANY_GAME, {}, seed=2, steps=6)
    data = {**json.loads(state.to_json()), **change}
    with pytest.raises(cruiselib.InvalidStateError, match=match):
        game.load_state(data)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_records_replay_exactly(name: str, options: dict[str, Any]) -> None:
    game, state, taken = _played(name, options, seed=21)
    record = state.record()
    assert record.game == name and record.actions == taken
    assert record.moves == [str(game.action_to_move(a)) for a in taken]
    assert record.result == cruiselib.RecordResult(scores=state.scores(), winners=state.winners())
    text = record.to_json()
    for form in (record, text, text.encode(), json.loads(text)):
        again = cruiselib.replay(form)
        assert again == state and again.history == taken and again.game == game
    # A record of an unfinished game has no result and replays to the same position.
    _, part, _ = _played(name, options, seed=21, steps=7)
    assert part.record().result is None
    assert cruiselib.replay(part.record().to_json()) == part


def test_a_record_keeps_the_start_seat() -> None:
    game = cruiselib.make(ANY_GAME)
    state = game.new_state("a seed", start_player=1)
    state.apply(state.legal_actions()[0])
    record = state.record()
    assert record.start_player == 1
    again = cruiselib.replay(record.to_json())
    assert again == state and again.game == game


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"options": {"players": 9}}, "players"),
        ({"actions": [10**6]}, "illegal"),
        ({"moves": ["nonsense"]}, "record says"),
        ({"result": {"scores": [0, 0], "winners": []}}, "result"),
        ({"deal": "not hex"}, "rng|deal|16"),
        ({"format": "pgn"}, "format"),
    ],
)
def test_bad_records_are_refused(change: dict[str, Any], match: str) -> None:
    _, state, _ = _played(ANY_GAME, {}, seed=9, steps=1)
    record = {**json.loads(state.record().to_json()), **change}
    with pytest.raises(cruiselib.InvalidStateError, match=match):
        cruiselib.replay(record)
    with pytest.raises(cruiselib.InvalidStateError):
        cruiselib.replay(b"\x00 not json")


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_load_state_reads_the_game_and_its_options_from_the_snapshot(name: str, options: dict[str, Any]) -> None:
    game, state, _ = _played(name, options, seed=13, steps=20)
    for snapshot in (state.to_json(), state.to_msgpack(), json.loads(state.to_json())):
        again = cruiselib.load_state(snapshot)
        assert again.game == game and again == state and again.history == state.history


def test_load_state_refuses_what_it_cannot_place() -> None:
    with pytest.raises(cruiselib.InvalidStateError, match="no known game"):
        cruiselib.load_state('{"game": "chess"}')
    with pytest.raises(cruiselib.InvalidStateError, match="not a cruiselib state"):
        cruiselib.load_state(b"[1, 2]")
    with pytest.raises(cruiselib.InvalidStateError):
        cruiselib.load_state(12)  # type: ignore[arg-type]


def test_new_state_is_the_same_for_every_game() -> None:
    for name in cruiselib.games():
        game = cruiselib.make(name)
        assert game.new_state(4) == game.state_from_seed_state(cruiselib._core.load("rng").seed_state(4))
        with pytest.raises(cruiselib.InvalidOptionError):
            game.state_from_seed_state(-1)
        with pytest.raises(cruiselib.InvalidOptionError):
            game.new_state(1, start_player=game.num_players)


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_parse_move_reads_back_every_move_text(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    for move in game._all_moves:
        assert game.parse_move(str(move)) == move
        assert game.parse_move("  " + str(move).upper().replace(" ", "  ") + " ") == move
    with pytest.raises(cruiselib.IllegalMoveError, match="did you mean"):
        game.parse_move("x" + str(game._all_moves[0])[1:])  # a typo (a cut-off ending may still read)
    with pytest.raises(cruiselib.IllegalMoveError, match=r"no .* move reads"):
        game.parse_move("jump into the sea")
    with pytest.raises(cruiselib.IllegalMoveError):
        game.parse_move(7)  # type: ignore[arg-type]
