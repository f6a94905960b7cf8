"""Engine protocol benchmarks: request -> reply round trips through the Python client.

    pytest benchmarks/test_bench_protocol.py --benchmark-only --benchmark-group-by=group

Each round trip is measured in-process (``EngineClient.local()``: encode, the engine's
``handle_line``, decode) and through a ``cruiselib serve`` subprocess (the same, plus the
pipes and two process switches), the subprocess both polling its pipe before sleeping
(the default) and sleeping at once. ``ping`` is the floor of the subprocess path. The target
is under 50 µs for ``legal`` and ``apply`` through the Python client.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from cruiselib.client import EngineClient

# "subprocess" polls each side's pipe before sleeping (the defaults; docs/protocol.md,
# "Latency"); "subprocess, no polling" sleeps at once on both sides.
TRANSPORTS = ["in-process", "subprocess", "subprocess, no polling"]
_SERVE = [sys.executable, "-m", "cruiselib", "serve"]
GAME = "sirens"
"""The game every row plays: Sirens in Sight, whose mid-game lists about 40 legal moves
(the rows' names and the figures in docs/performance.md are this game's)."""


@pytest.fixture(scope="module", params=TRANSPORTS)
def client(request: pytest.FixtureRequest) -> Iterator[EngineClient]:
    if request.param == "in-process":
        engine = EngineClient.local()
    elif request.param == "subprocess":
        engine = EngineClient.spawn(timeout=60)
    else:
        engine = EngineClient.spawn([*_SERVE, "--poll-us", "0"], timeout=60, poll=0)
    engine.transport_name = request.param  # type: ignore[attr-defined]
    yield engine
    engine.close()


def _midgame(client: EngineClient, seed: int = 3, steps: int = 10) -> str:
    """A Sirens game after ``steps`` random moves (about 40 legal moves to list)."""
    game_id = client.new(GAME, seed=seed).game_id
    rnd = random.Random(seed)
    for _ in range(steps):
        client.apply(game_id, rnd.choice(client.legal(game_id).actions))
    return game_id


def _where(client: EngineClient) -> str:
    return str(getattr(client, "transport_name", "in-process"))


@pytest.mark.benchmark(min_rounds=2000)
def test_ping(benchmark: Any, client: EngineClient) -> None:
    benchmark.group = "protocol: ping round trip"
    benchmark.extra_info["transport"] = _where(client)
    benchmark(client.ping)


@pytest.mark.benchmark(min_rounds=2000)
def test_legal(benchmark: Any, client: EngineClient) -> None:
    """legal: the ids and texts of every legal move (Sirens mid-game)."""
    benchmark.group = "protocol: legal round trip (sirens mid-game)"
    benchmark.extra_info["transport"] = _where(client)
    game_id = _midgame(client)
    reply = benchmark(client.legal, game_id)
    benchmark.extra_info["legal_moves"] = len(reply.actions)
    assert reply.actions and len(reply.moves) == len(reply.actions)


def test_apply(benchmark: Any, client: EngineClient) -> None:
    """apply: one legal action by id; a random game played on, a new one when it ends
    (the legal moves are fetched between rounds, untimed)."""
    benchmark.group = "protocol: apply round trip (sirens)"
    benchmark.extra_info["transport"] = _where(client)
    rnd = random.Random(5)
    game = [client.new(GAME, seed=5).game_id]

    def setup() -> tuple[tuple[str, int], dict[str, Any]]:
        legal = client.legal(game[0])
        if not legal.actions:
            client.close_game(game[0])
            game[0] = client.new(GAME, seed=rnd.randrange(1 << 30)).game_id
            legal = client.legal(game[0])
        return (game[0], rnd.choice(legal.actions)), {}

    benchmark.pedantic(client.apply, setup=setup, rounds=3000, iterations=1, warmup_rounds=50)


def test_apply_by_text(benchmark: Any, client: EngineClient) -> None:
    """apply with a move's text (parsed by state.parse_move)."""
    benchmark.group = "protocol: apply by text round trip (sirens)"
    benchmark.extra_info["transport"] = _where(client)
    rnd = random.Random(6)
    game = [client.new(GAME, seed=6).game_id]

    def setup() -> tuple[tuple[str, str], dict[str, Any]]:
        legal = client.legal(game[0])
        if not legal.actions:
            client.close_game(game[0])
            game[0] = client.new(GAME, seed=rnd.randrange(1 << 30)).game_id
            legal = client.legal(game[0])
        return (game[0], rnd.choice(legal.moves)), {}

    benchmark.pedantic(client.apply, setup=setup, rounds=2000, iterations=1, warmup_rounds=50)
