"""The policy bot (cruiselib.bots.policy): the trained weights each game ships, played with
numpy alone: legal moves to the end, deterministic, the same scores as a forward pass
written apart, clearly stronger than random, and clear errors for a configuration the
weights do not fit and for a tampered weights file."""

from __future__ import annotations

import importlib.util
import io
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib.bots import BOTS, PolicyBot, make_bot
from cruiselib.bots.policy import (
    MAX_WEIGHTS_BYTES,
    PolicyNetwork,
    check_configuration,
    from_file,
    load_weights,
    read_weights,
    shipped_weights,
)
from tests.support import seat_configurations


def _shipped() -> list[tuple[str, dict[str, Any]]]:
    """Every configuration (a seat count of a registered game) that ships weights."""
    out = []
    for name, options in seat_configurations():
        try:
            shipped_weights(cruiselib.make(name, **options))
        except cruiselib.InvalidOptionError:
            continue
        out.append((name, options))
    return out


SHIPPED = _shipped()
IDS = [f"{name}-{options.get('players', 'default')}" for name, options in SHIPPED]
TWO_SEATS = [(name, options) for name, options in SHIPPED if cruiselib.make(name, **options).num_players == 2]


def _file_bytes(network: PolicyNetwork) -> bytes:
    """The bytes of the shipped file ``network`` came from (its source: package/data/file)."""
    package, _, name = network.source.rpartition("/data/")
    return resources.files(package).joinpath("data").joinpath(name).read_bytes()


def _raw(network: PolicyNetwork) -> dict[str, np.ndarray]:
    """The arrays of the file ``network`` came from, read with numpy alone (not the bot's reader)."""
    with np.load(io.BytesIO(_file_bytes(network)), allow_pickle=False) as npz:
        return {key: npz[key] for key in npz.files}


def _tampered(network: PolicyNetwork, **changes: Any) -> bytes:
    """The bytes of ``network``'s file with arrays replaced (None: removed)."""
    arrays = _raw(network)
    for key, value in changes.items():
        if value is None:
            arrays.pop(key)
        else:
            arrays[key] = value
    buffer = io.BytesIO()
    save: Any = np.savez_compressed  # numpy's stubs take no **arrays of a dict
    save(buffer, **arrays)
    return buffer.getvalue()


def test_every_game_ships_weights_that_say_what_made_them() -> None:
    games = {name for name, _ in SHIPPED}
    assert games == set(cruiselib.games())
    # The default configuration of every game is among them: make_bot("policy") plays it.
    for name in cruiselib.games():
        assert shipped_weights(cruiselib.make(name)) is not None
    for name, options in SHIPPED:
        game = cruiselib.make(name, **options)
        network = shipped_weights(game)
        meta = network.meta
        assert meta["label"].startswith("trained weights: engine-authored data")
        assert meta["game"] == name and meta["num_players"] == game.num_players
        assert meta["observation_size"] == game.observation_shape[0]
        assert meta["command"].startswith("python examples/train_ppo.py ")
        assert f"--game {name}" in meta["command"]
        assert isinstance(meta["seed"], int) and meta["steps"] > 0 and meta["example_version"]
        size = len(_file_bytes(network))
        assert size < 512 * 1024, f"{network.source} is {size:,} bytes"


@pytest.mark.parametrize(("name", "options"), SHIPPED, ids=IDS)
def test_the_bot_plays_legal_moves_to_the_end(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    bots = [make_bot("policy", seed=1), make_bot("policy", seed=2, temperature=1.0)]
    others = make_bot("random", seed=3)
    for seed in range(2):
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = state.current_player
            bot = bots[seed] if seat == seed % game.num_players else others
            before = state.to_json()
            action = bot.choose(state)
            assert state.to_json() == before  # choose leaves the state as it was
            assert state.is_legal(action)
            state.apply(action)


def test_greedy_play_is_deterministic_and_sampling_follows_the_seed() -> None:
    name, options = TWO_SEATS[0]
    game = cruiselib.make(name, **options)

    def moves(bot: Any) -> list[int]:
        state, out = game.new_state(seed=5), []
        rnd = random.Random(0)
        while not state.is_over:
            action = bot.choose(state) if state.current_player == 0 else rnd.choice(state.legal_actions())
            out.append(action)
            state.apply(action)
        return out

    assert moves(make_bot("policy", seed=1)) == moves(make_bot("policy", seed=2))  # greedy: no draw
    assert moves(make_bot("policy", seed=1, temperature=1.0)) == moves(make_bot("policy", seed=1, temperature=1.0))


@pytest.mark.parametrize(("name", "options"), SHIPPED, ids=IDS)
def test_the_scores_match_a_forward_pass_written_apart(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    network = shipped_weights(game)
    raw = {k: v.astype(np.float64) for k, v in _raw(network).items() if k != "meta"}
    layers = json.loads(str(_raw(network)["meta"]))["layers"]
    bot = PolicyBot(seed=0)
    rnd = random.Random(1)
    state = game.new_state(seed=9)
    checked = 0
    while not state.is_over and checked < 25:
        legal = state.legal_actions()
        obs = state.observation(state.current_player).astype(np.float64)
        # numpy, in float64, layer by layer from the file's own arrays
        h = obs
        for k in range(layers):
            h = np.maximum(np.einsum("i,io->o", h, raw[f"layer{k}.weight"]) + raw[f"layer{k}.bias"], 0)
        query = np.einsum("i,io->o", h, raw["query.weight"]) + raw["query.bias"]
        expected = np.einsum("kd,d->k", raw["actions.embedding"][legal], query) + raw["actions.bias"][legal]
        got = network.scores(state.observation(state.current_player), legal)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
        choice = bot.choose(state)
        top = np.flatnonzero(expected >= expected.max() - 1e-4)
        assert choice in [legal[i] for i in top]
        analysis = bot.analyse(state)
        assert analysis[0].action in [legal[i] for i in top]
        assert sum(c.value or 0.0 for c in analysis) == pytest.approx(1.0, abs=1e-5)
        state.apply(rnd.choice(legal))
        checked += 1
    assert checked > 0


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_the_scores_match_torch() -> None:
    import torch  # type: ignore[import-not-found,unused-ignore]

    name, options = TWO_SEATS[0]
    game = cruiselib.make(name, **options)
    network = shipped_weights(game)
    raw = {k: torch.from_numpy(v.astype(np.float32)) for k, v in _raw(network).items() if k != "meta"}
    state = game.new_state(seed=4)
    legal = state.legal_actions()
    x = torch.from_numpy(state.observation(state.current_player))[None]
    for k in range(len(network.layers)):
        x = torch.relu(torch.nn.functional.linear(x, raw[f"layer{k}.weight"].T, raw[f"layer{k}.bias"]))
    query = torch.nn.functional.linear(x, raw["query.weight"].T, raw["query.bias"])[0]
    ids = torch.tensor(legal)
    expected = torch.nn.functional.embedding(ids, raw["actions.embedding"]) @ query + raw["actions.bias"][ids]
    got = network.scores(state.observation(state.current_player), legal)
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("name", "options"), TWO_SEATS, ids=[n for n, _ in TWO_SEATS])
def test_the_bot_beats_the_random_bot_clearly(name: str, options: dict[str, Any]) -> None:
    # Measured at 98.6% to 100% over 1,000 games (docs/rl.md, "PPO example"); 85 of 100 is
    # far below that (the chance of 85 or fewer at 98.6% is below 1e-9), and the games are
    # seeded anyway.
    game = cruiselib.make(name, **options)
    wins = 0
    for g in range(100):
        seat = g % 2
        bots = {seat: make_bot("policy", seed=g), 1 - seat: make_bot("random", seed=g)}
        state = game.new_state(seed=1000 + g)
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        wins += seat in state.winners()
    assert wins >= 85, f"{wins} of 100"


def test_a_configuration_the_weights_do_not_fit_is_refused_naming_both() -> None:
    shipped = {(name, tuple(sorted(options.items()))) for name, options in SHIPPED}
    other = next(
        (name, options)
        for name, options in seat_configurations()
        if (name, tuple(sorted(options.items()))) not in shipped
    )
    game = cruiselib.make(other[0], **other[1])
    with pytest.raises(cruiselib.InvalidOptionError, match=r"no trained policy of .* fits this configuration") as info:
        make_bot("policy", seed=0).choose(game.new_state(seed=1))
    message = str(info.value)
    assert repr(other[0]) in message and "players" in message and "trained for" in message
    # Weights of one configuration given for another: both named.
    name, options = TWO_SEATS[0]
    network = shipped_weights(cruiselib.make(name, **options))
    with pytest.raises(cruiselib.InvalidOptionError, match="do not fit: trained for") as info:
        check_configuration(network, game)
    assert repr(name) in str(info.value) and repr(other[0]) in str(info.value)


def test_a_weights_file_of_your_own(tmp_path: Path) -> None:
    name, options = TWO_SEATS[0]
    game = cruiselib.make(name, **options)
    network = shipped_weights(game)
    path = tmp_path / "mine.npz"
    path.write_bytes(_tampered(network))
    state = game.new_state(seed=3)
    assert from_file(path).choose(state) == make_bot("policy").choose(state)
    assert make_bot("policy", weights=read_weights(str(path))).choose(state) == make_bot("policy").choose(state)
    with pytest.raises(cruiselib.InvalidOptionError, match="not a regular file"):
        from_file(tmp_path)
    with pytest.raises(cruiselib.InvalidOptionError, match="No such file"):
        read_weights(tmp_path / "missing.npz")
    # A path given as the option is refused, not read: the engine protocol makes bots by
    # name from a client's options, and reads no files.
    with pytest.raises(cruiselib.InvalidOptionError, match="a path is not read here"):
        make_bot("policy", weights=str(path))


def test_a_tampered_weights_file_raises_a_clear_error() -> None:
    name, options = TWO_SEATS[0]
    network = shipped_weights(cruiselib.make(name, **options))
    w0 = _raw(network)["layer0.weight"]
    meta = json.loads(str(_raw(network)["meta"]))
    cases: list[tuple[bytes, str]] = [
        (_tampered(network, **{"layer0.weight": w0[:-3]}), "observation_size"),
        (_tampered(network, **{"layer1.weight": w0}), "layer1"),
        (_tampered(network, **{"actions.bias": np.zeros(7, np.float16)}), "actions.embedding"),
        (_tampered(network, **{"query.bias": None}), "'query.bias' is missing"),
        (_tampered(network, **{"value.weight": np.zeros((w0.shape[1], 2), np.float16)}), "value"),
        (_tampered(network, **{"layer0.bias": np.full(w0.shape[1], np.nan, np.float32)}), "not finite"),
        (_tampered(network, **{"layer0.bias": np.zeros(w0.shape[1], np.int32)}), "float array"),
        (_tampered(network, meta=None), "no meta"),
        (_tampered(network, meta=np.array(json.dumps({**meta, "format_version": 99}))), "format version 99"),
        (_tampered(network, meta=np.array(json.dumps({**meta, "layers": 5}))), "missing"),
        (_tampered(network, meta=np.array("{not json")), "not JSON"),
        (b"PK\x03\x04 not a zip at all", "not a readable .npz"),
        (b"\x00" * (MAX_WEIGHTS_BYTES + 1), "more than a weights file may have"),
    ]
    for data, match in cases:
        with pytest.raises(cruiselib.InvalidOptionError, match=match):
            load_weights(data, "tampered.npz")


def test_the_bot_is_registered_and_checks_its_options() -> None:
    assert BOTS["policy"] is PolicyBot
    for bad in (-1, float("nan"), True, "1"):
        with pytest.raises(cruiselib.InvalidOptionError, match="temperature"):
            make_bot("policy", temperature=bad)
    with pytest.raises(cruiselib.InvalidOptionError, match="weights must be a PolicyNetwork"):
        make_bot("policy", weights=3)
    name, options = TWO_SEATS[0]
    state = cruiselib.make(name, **options).new_state(seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        make_bot("policy").choose(state)
