"""BatchEnv under hostile callers: another thread writing the actions (or the reset mask)
while a call runs, read-only and odd-typed action arrays, output buffers that share memory.

The core steps the envs with the GIL released, so a caller's array could change between the
check and the step; the env copies what it is given before it checks it, and applies exactly
the copy (docs/rl.md, "Threads"). The race runs in a child process, so a crash of the core
fails the test instead of ending the test run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib import IllegalMoveError, InvalidOptionError
from cruiselib.envs import BatchEnv
from tests.support import one_per_game

ONE_PER_GAME = one_per_game()
ONE_PER_GAME_IDS = [name for name, _ in ONE_PER_GAME]
RACE_SECONDS = 1.5

# A writer thread stores out-of-range and negative actions into the array `step` was given
# (and flips the mask `reset` was given) as fast as it can, while the main thread steps the
# env with legal actions. Every step either applies the legal actions or, if the writer won
# before the copy, refuses with IllegalMoveError; then every env's position must still load.
_RACE = textwrap.dedent(
    """
    import json, sys, threading, time
    import numpy as np
    import cruiselib
    from cruiselib.envs import BatchEnv
    from cruiselib.errors import IllegalMoveError

    name, options, seconds = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
    game = cruiselib.make(name, **options)
    n = 64
    env = BatchEnv(game, n, seed=11, threads=2)
    actions = np.zeros(n, np.int64)
    mask = np.zeros(n, bool)
    stop = threading.Event()
    hostile = np.array([game.num_actions + 7, -3, 2**40, game.num_actions], np.int64)

    def writer():
        k = 0
        while not stop.is_set():
            actions[:] = hostile[k % len(hostile)]
            mask[:] = k % 2 == 0
            k += 1

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    applied = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        legal = env.sample_actions()
        actions[:] = legal
        try:
            env.step(actions)
            applied += 1
        except IllegalMoveError:
            refused += 1
        if (applied + refused) % 50 == 0:
            env.reset(seed=applied, mask=mask)
    stop.set()
    thread.join()
    for i in range(n):
        game.load_state(env.state(i).to_json())  # raises if the position no longer loads
    env.step(env.sample_actions())
    print(json.dumps({"applied": applied, "refused": refused}))
    """
)


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_a_thread_writing_the_actions_during_step_is_never_applied(name: str, options: dict[str, Any]) -> None:
    """Finding: the core once applied the caller's array after checking it, so a thread
    writing out-of-range actions between the two crashed the process (SIGSEGV)."""
    import json

    result = subprocess.run(
        [sys.executable, "-c", _RACE, name, json.dumps(options), str(RACE_SECONDS)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    assert result.returncode == 0, f"the race ended with status {result.returncode}:\n{result.stderr[-3000:]}"
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    assert counts["applied"] > 0, counts  # the race ran: some steps went through


@pytest.mark.parametrize(("name", "options"), ONE_PER_GAME, ids=ONE_PER_GAME_IDS)
def test_read_only_and_other_integer_arrays_are_taken(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    envs = [BatchEnv(game, 3, seed=4) for _ in range(4)]
    actions = envs[0].sample_actions()
    frozen = actions.copy()
    frozen.flags.writeable = False
    envs[0].step(frozen)
    envs[1].step(actions.astype(np.int32))
    envs[2].step(actions.astype(np.uint64))
    envs[3].step(np.repeat(actions, 2)[::2])  # strided
    for env in envs[1:]:
        np.testing.assert_array_equal(env.observations, envs[0].observations)
        assert [env.state(i).to_json() for i in range(3)] == [envs[0].state(i).to_json() for i in range(3)]


def test_actions_beyond_int64_are_refused_and_change_nothing() -> None:
    name, options = ONE_PER_GAME[0]
    env = BatchEnv(cruiselib.make(name, **options), 3, seed=4)
    before = [env.state(i).to_json() for i in range(3)]
    actions = env.sample_actions().astype(np.uint64)
    actions[1] = np.uint64(2**64 - 1)
    with pytest.raises(IllegalMoveError, match="out of range"):
        env.step(actions)
    actions[1] = np.uint64(2**63)
    with pytest.raises(IllegalMoveError, match="out of range"):
        env.step(actions)
    assert [env.state(i).to_json() for i in range(3)] == before


def test_buffers_that_share_memory_are_refused() -> None:
    name, options = ONE_PER_GAME[0]
    game = cruiselib.make(name, **options)
    n, size = 2, game.observation_shape[0]
    observations = np.zeros((n, size), np.float32)
    with pytest.raises(InvalidOptionError, match="final_observations and observations share memory"):
        BatchEnv(
            game, n, autoreset="same_step", buffers={"observations": observations, "final_observations": observations}
        )
    flags = np.zeros(n, np.bool_)
    with pytest.raises(InvalidOptionError, match="terminated and truncated share memory"):
        BatchEnv(game, n, buffers={"terminated": flags, "truncated": flags})
    # Overlapping views of one block, with the right shapes: refused too.
    block = np.zeros(3, np.int32)
    with pytest.raises(InvalidOptionError, match="legal_counts and seats share memory"):
        BatchEnv(game, n, buffers={"seats": block[:2], "legal_counts": block[1:]})
    # Disjoint views of one block are buffers of their own.
    block = np.zeros(4, np.int32)
    env = BatchEnv(game, n, seed=3, buffers={"seats": block[:2], "legal_counts": block[2:]})
    assert env.seats.base is block and (block[2:] > 0).all()
