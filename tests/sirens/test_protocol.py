"""Sirens in Sight through the engine protocol (docs/protocol.md): every command on one game
of the bow-to-rear variant, the games' options as ``games`` lists them, and the refusals
that name Sirens' own options and snapshot fields. The protocol's checks common to every
game are in ``tests/test_protocol.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.client import EngineClient, EngineError, PipeTransport

pytestmark = pytest.mark.surface

TIMEOUT = 120.0  # seconds a reply may take before a test fails instead of hanging


@pytest.fixture(scope="module")
def engine() -> Iterator[EngineClient]:
    client = EngineClient.spawn(timeout=TIMEOUT)
    yield client
    client.close()


def alive(client: EngineClient) -> None:
    """The engine still answers, and its process is still running."""
    client.ping()
    transport = client.transport
    assert isinstance(transport, PipeTransport) and transport.process.poll() is None


def test_games_lists_the_sirens_options(engine: EngineClient) -> None:
    games = {g.name: g for g in engine.games()}
    assert games["sirens"].options == {"players": 2, "variant": "standard", "cards": None}


def test_every_command_on_one_game(engine: EngineClient) -> None:
    new = engine.new("sirens", {"variant": "bow_to_rear"}, seed=7)
    gid = new.game_id
    assert new.seed == 7 and new.game == "sirens" and new.options["variant"] == "bow_to_rear"
    assert new.ply == 0 and not new.is_over and new.scores is None and new.winners is None
    local: Any = cruiselib.make("sirens", variant="bow_to_rear").new_state(seed=7)
    assert new.current_player == local.current_player
    assert gid in [g.game_id for g in engine.list_games()]

    # Per-seat views: the seat's own view only.
    for seat in range(2):
        view = engine.view(gid, seat)
        assert view == msgspec.to_builtins(local.view(seat))
        assert view["player"] == seat
    assert engine.view(gid, 0, recall=True) == msgspec.to_builtins(local.view(0, recall=True))

    # Legal moves: ids and texts of the seat to move; none for another seat.
    mover = new.current_player
    legal = engine.legal(gid)
    assert legal.current_player == mover and legal.actions == local.legal_actions()
    assert legal.moves == [str(m) for m in local.legal_moves()]
    assert engine.legal(gid, seat=mover).actions == legal.actions
    other = engine.legal(gid, seat=1 - mover)
    assert other.actions == [] and other.moves == [] and other.current_player == mover

    # Apply by id, then by text (case and spaces do not matter), with the seat guard; the
    # reply's text says the move in its position, to the seat that made it.
    said = local.move_text(legal.actions[3], player=mover)
    done = engine.apply(gid, legal.actions[3], seat=mover)
    local.apply(legal.actions[3])
    assert (done.action, done.move, done.seat) == (legal.actions[3], legal.moves[3], mover)
    assert done.text == said
    assert done.current_player == local.current_player and not done.is_over and done.scores is None
    legal = engine.legal(gid)
    text = legal.moves[-1]
    done = engine.apply(gid, "  " + text.upper().replace(" ", "   ") + " ")
    local.apply(legal.actions[-1])
    assert done.action == legal.actions[-1] and done.move == text

    # A bot's move, without and with playing it; seeded bots repeat themselves.
    choice = engine.bot(gid, "ismcts", seed=3, iterations=100)
    assert not choice.applied and choice.bot == "ismcts" and choice.iterations in (0, 100)
    assert choice.action in engine.legal(gid).actions and engine.status(gid).ply == 2
    again = engine.bot(gid, "ismcts", seed=3, iterations=100, seconds=30)
    assert again.action in engine.legal(gid).actions
    played = engine.bot(gid, "greedy", seed=1, apply=True, seat=local.current_player)
    local.apply(played.action)
    assert played.applied and played.iterations is None and engine.status(gid).ply == 3
    assert engine.bot(gid, "rules", seed=2).action in local.legal_actions()

    # Hints: the top moves of a bot's analysis, best first.
    hint = engine.hint(gid, iterations=300, seed=5)
    assert hint.seat == local.current_player and hint.bot == "ismcts" and 1 <= len(hint.hints) <= 3
    assert all(h.action in local.legal_actions() and -1 <= (h.value or 0) <= 1 for h in hint.hints)
    assert [h.visits for h in hint.hints] == sorted((h.visits for h in hint.hints), reverse=True)
    assert [h.text for h in hint.hints] == [local.move_text(h.action, player=hint.seat) for h in hint.hints]
    assert len(engine.hint(gid, bot="random", count=2).hints) == min(2, len(local.legal_actions()))
    assert len(engine.hint(gid, bot="cheating_mcts", iterations=50, count=50).hints) >= 1

    # Undo: one action, then two.
    undone = engine.undo(gid)
    assert undone.undone == [played.action] and undone.ply == 2
    undone = engine.undo(gid, 2)
    assert undone.ply == 0 and len(undone.undone) == 2 and len(undone.moves) == 2
    fresh: Any = cruiselib.make("sirens", variant="bow_to_rear").new_state(seed=7)
    assert engine.view(gid, 0) == msgspec.to_builtins(fresh.view(0))
    first = engine.legal(gid).actions[0]
    engine.apply(gid, first)

    # Render: a seat's picture or all of it.
    assert engine.render(gid, 0) == fresh.game.render(_after(fresh, first), 0)
    assert "ship" in engine.render(gid)

    # Save and load: the snapshot and the record both give the game back.
    saved = engine.save(gid)
    assert saved.snapshot["game"] == "sirens" and saved.record["actions"] == [first]
    only = engine.save(gid, snapshot=False)
    assert only.snapshot is None and only.record == saved.record
    copy = engine.load(snapshot=saved.snapshot)
    assert copy.game_id != gid and copy.ply == 1 and copy.current_player == engine.status(gid).current_player
    assert engine.view(copy.game_id, 1) == engine.view(gid, 1)
    replayed = engine.load(record=saved.record)
    assert engine.save(replayed.game_id).snapshot == saved.snapshot
    as_text = engine.load(snapshot=json.dumps(saved.snapshot), game="sirens", options={"variant": "bow_to_rear"})
    assert engine.save(as_text.game_id).snapshot == saved.snapshot
    engine.load(record=json.dumps(saved.record))

    # Close: the id is gone.
    for game_id in (gid, copy.game_id, replayed.game_id, as_text.game_id):
        engine.close_game(game_id)
    with pytest.raises(EngineError, match="unknown_game"):
        engine.status(gid)
    alive(engine)


def _after(state: Any, action: int) -> Any:
    state = state.clone()
    state.apply(action)
    return state


def test_refusals_of_sirens_options_and_snapshots(engine: EngineClient) -> None:
    """An unknown variant is ``bad_option``; a snapshot with a card in two hands is
    ``invalid_state``: error replies with the request's id, and the session goes on with
    its game unchanged."""
    running = engine.new("sirens", seed=5)
    before = engine.save(running.game_id).snapshot
    tampered = json.loads(cruiselib.make("sirens").new_state(seed=5).to_json())
    tampered["hands"][0][0] = tampered["hands"][1][0]  # a card in two hands
    cases = [
        ({"cmd": "new", "game": "sirens", "options": {"variant": "upside_down"}, "id": 1}, "bad_option"),
        ({"cmd": "load", "snapshot": json.dumps(tampered), "id": 2}, "invalid_state"),
    ]
    for request, code in cases:
        reply = engine.send_line(json.dumps(request))
        assert reply["ok"] is False and reply["error"]["code"] == code and reply["id"] == request["id"], reply
        assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
        alive(engine)
        assert engine.save(running.game_id).snapshot == before
    engine.close_game(running.game_id)
