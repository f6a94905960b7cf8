"""The engine protocol says every move as the seat receiving the reply may know it: a bot's
move that hides something (a card it keeps, puts away or picks face down) reaches the
client that plays another seat by its public text alone, without its action id; the
client's own moves and hints name its own cards; a refused request changes nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.bots import make_bot
from cruiselib.client import EngineClient, EngineError
from cruiselib.protocol import BotReply

from .support import CONFIGURATION_IDS, CONFIGURATIONS

SEATED = [(n, o) for n, o in CONFIGURATIONS if cruiselib.make(n, **o).num_players > 1]
SEATED_IDS = [i for i, (n, o) in zip(CONFIGURATION_IDS, CONFIGURATIONS, strict=True) if (n, o) in SEATED]
MAX_PLY = 400  # a game's first plies are enough to meet its hidden moves


def _hidden(state: Any, action: int) -> bool:
    """Whether the legal ``action`` says more to the seat making it than to everyone."""
    return bool(state.move_text(action) != state.move_text(action, player=state.current_player))


def _hidden_position(name: str, options: dict[str, Any]) -> tuple[Any, list[int]] | None:
    """A position of a random game whose seat to move has legal moves that hide something
    (the first found in a few seeded games), with those moves; None if none is met."""
    key = (name, json.dumps(options, sort_keys=True))
    if key not in _FOUND:
        _FOUND[key] = _find_hidden_position(name, options)
    found = _FOUND[key]
    return None if found is None else (found[0].clone(), found[1])


_FOUND: dict[tuple[str, str], tuple[Any, list[int]] | None] = {}


def _find_hidden_position(name: str, options: dict[str, Any]) -> tuple[Any, list[int]] | None:
    game: Any = cruiselib.make(name, **options)
    for seed in range(3):
        rnd = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(MAX_PLY):
            if state.is_over:
                break
            hidden = [a for a in state.legal_actions() if _hidden(state, a)]
            if hidden:
                return state, hidden
            state.apply(rnd.choice(state.legal_actions()))
    return None


def _raw(reply: Any) -> str:
    """A reply as the JSON its receiver reads (not ASCII-escaped, so texts compare)."""
    return json.dumps(reply if isinstance(reply, dict) else msgspec.to_builtins(reply), ensure_ascii=False)


def _assert_told_as_public(raw: str, state: Any, action: int) -> None:
    """Neither the private text nor the plain text (which names the move whole) of a
    hidden ``action`` is in the reply ``raw``."""
    mover = state.current_player
    private = state.move_text(action, player=mover)
    plain = str(state.game.action_to_move(action))
    public = state.move_text(action)
    assert private not in raw
    if plain != public:
        assert plain not in raw


def _last_action(client: EngineClient, gid: str) -> int:
    """The game's last action, from its record (the harness looks; the seat does not)."""
    record = client.save(gid, snapshot=False).record
    return int(record["actions"][-1])


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(("name", "options"), SEATED, ids=SEATED_IDS)
def test_a_seat_facing_bots_is_told_only_what_it_may_know(name: str, options: dict[str, Any]) -> None:
    """A client plays seat ``human`` (``player``) against random bots: every bot move it is
    told says its public text (and no id when it hides something), its own moves and hints
    say its private texts, ``legal`` is empty on the bots' turns, and an undo of a hidden
    move says it as the bot's reply did."""
    client = EngineClient.local()
    local: Any = cruiselib.make(name, **options).new_state(seed=5)
    human = local.game.num_players - 1
    start = client.new(name, options, seed=5, player=human)
    gid = start.game_id
    assert start.player == human and client.status(gid).player == human
    rnd = random.Random(5)
    hidden_told = 0
    undone_hidden = False
    for ply in range(MAX_PLY):
        if local.is_over:
            break
        mover = local.current_player
        if mover == human:
            legal = client.legal(gid)
            assert legal.actions == local.legal_actions()
            if ply % 7 == 0:
                hint = client.hint(gid, bot="random", seed=ply, count=5)
                for h in hint.hints:
                    assert h.text == local.move_text(h.action, player=human)
            i = rnd.randrange(len(legal.actions))
            action = legal.actions[i]
            done = client.apply(gid, action, seat=human)
            assert (done.action, done.move) == (action, legal.moves[i])
            assert done.text == local.move_text(action, player=human)
            local.apply(action)
            continue
        assert client.legal(gid).actions == []
        before = local.clone()
        line = client.send_line(
            json.dumps({"cmd": "bot", "game_id": gid, "bot": "random", "seed": ply, "apply": True, "seat": mover})
        )
        reply = msgspec.convert(line, BotReply)
        action = _last_action(client, gid)
        assert reply.text == before.move_text(action)
        if _hidden(before, action):
            hidden_told += 1
            assert reply.action is None and reply.move == reply.text
            _assert_told_as_public(_raw(line), before, action)
            if not undone_hidden:  # take it back: said alike, then let the bot play again
                undone_hidden = True
                back = client.undo(gid)
                assert back.undone == [None] and back.moves == [before.move_text(action)]
                _assert_told_as_public(_raw(back), before, action)
                continue
        else:
            assert reply.action == action
        local.apply(action)
    assert hidden_told == 0 or undone_hidden
    hides = _hidden_position(name, options) is not None
    if hides and local.game.num_players == 2:
        # With one bot, which plays every other move, the random bot meets hidden moves.
        assert hidden_told > 0


@pytest.mark.parametrize(("name", "options"), SEATED, ids=SEATED_IDS)
def test_a_bots_hidden_move_is_said_to_the_seats_that_may_know_it(name: str, options: dict[str, Any]) -> None:
    """In a position where the bot's chosen move hides something: a client that plays
    another seat gets its public text and no id; a client that plays the bot's seat gets
    its private text; a client that said no seat gets the public text and the id."""
    found = _hidden_position(name, options)
    if found is None:
        pytest.skip("no move of this configuration hides anything (the whole-game test covers it)")
    state, hidden = found
    mover = state.current_player
    other = (mover + 1) % state.game.num_players
    seed = next(s for s in range(500) if make_bot("random", seed=s).choose(state.clone()) in hidden)
    action = make_bot("random", seed=seed).choose(state.clone())
    public, private = state.move_text(action), state.move_text(action, player=mover)
    client = EngineClient.local()
    for player, expect_action, expect_text in ((other, None, public), (mover, action, private), (None, action, public)):
        gid = client.load(snapshot=state.to_json(), player=player).game_id
        line = client.send_line(json.dumps({"cmd": "bot", "game_id": gid, "bot": "random", "seed": seed}))
        assert line["ok"] and (line["action"], line["text"]) == (expect_action, expect_text)
        if player == mover:
            assert line["move"] == client.legal(gid).moves[client.legal(gid).actions.index(action)]
        else:
            assert line["move"] == public
            _assert_told_as_public(_raw(line), state, action)
        # The undo of that move, once played, is said alike.
        client.send_line(json.dumps({"cmd": "apply", "game_id": gid, "action": action}))
        if player is not None and player != mover:
            continue  # the player may not play the bot's move: the next test checks the refusal
        back = client.undo(gid)
        assert back.undone == [action]
        assert back.moves == [str(state.game.action_to_move(action)) if player == mover else public]


def test_hidden_moves_are_met_in_some_configuration() -> None:
    """The checks above meet moves that hide something (else they would prove nothing)."""
    assert any(_hidden_position(n, o) is not None for n, o in SEATED)


# --------------------------------------------------------------------------- refusals


def _snapshot(client: EngineClient, gid: str) -> Any:
    return client.save(gid, record=False).snapshot


@pytest.mark.parametrize(("name", "options"), SEATED, ids=SEATED_IDS)
def test_a_refused_request_leaves_the_game_unchanged(name: str, options: dict[str, Any]) -> None:
    """In a game a client plays as one seat, the requests it may not make (another seat's
    move or hint, a seat the game has not, an illegal action) are refused, and the game,
    its ply and its next bot move are as they were."""
    client = EngineClient.local()
    probe: Any = cruiselib.make(name, **options).new_state(seed=9)
    mover = probe.current_player
    other = (mover + 1) % probe.game.num_players
    gid = client.new(name, options, seed=9, player=other).game_id
    before = _snapshot(client, gid)
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"cmd": "apply", "action": probe.legal_actions()[0]}, "wrong_seat"),
        ({"cmd": "apply", "action": probe.legal_actions()[0], "seat": mover}, "wrong_seat"),
        ({"cmd": "apply", "move": str(probe.legal_moves()[0])}, "wrong_seat"),
        ({"cmd": "hint", "bot": "random"}, "wrong_seat"),
        ({"cmd": "hint", "bot": "random", "seat": mover}, "wrong_seat"),
        ({"cmd": "bot", "bot": "random", "seat": other}, "wrong_seat"),
        ({"cmd": "bot", "bot": "wizard"}, "bad_option"),
        ({"cmd": "legal", "seat": 7}, "bad_option"),
    ]
    for request, code in refusals:
        reply = client.send_line(json.dumps({**request, "game_id": gid}))
        assert not reply["ok"] and reply["error"]["code"] == code, (request, reply)
        assert _snapshot(client, gid) == before
    assert client.status(gid).ply == 0
    # Nor are the seat to move's moves listed to it, even when it names that seat.
    assert client.legal(gid, seat=mover).actions == [] and client.legal(gid).moves == []
    # On its own turn, an illegal action is refused too, and the game is unchanged.
    mine = client.new(name, options, seed=9, player=mover).game_id
    illegal = next(a for a in range(probe.game.num_actions) if not probe.is_legal(a))
    mine_before = _snapshot(client, mine)
    with pytest.raises(EngineError, match="illegal_move"):
        client.apply(mine, illegal)
    assert _snapshot(client, mine) == mine_before
    # A player the game has not: no game is opened.
    open_games = len(client.list_games())
    for request in (
        {"cmd": "new", "game": name, "options": options, "player": probe.game.num_players},
        {"cmd": "load", "snapshot": probe.to_json(), "player": probe.game.num_players},
    ):
        reply = client.send_line(json.dumps(request))
        assert reply["error"]["code"] == "bad_option"
    assert len(client.list_games()) == open_games
