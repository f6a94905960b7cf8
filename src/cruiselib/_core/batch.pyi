# Stub for the compiled batch module (batch.py + batch.pxd).
# Keep in step with the Python-visible (def / cpdef / readonly) names of batch.pxd.
from collections.abc import Sequence
from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

from .engine import CoreState

AUTORESET_CODES: Final[dict[str, int]]
OPPONENT_CODES: Final[dict[str | None, int]]
REFUSAL_CODES: Final[dict[str, int]]
ILLEGAL_CODES: Final[dict[str, int]]
LEGAL_CACHE_SIZE: Final[int]

@final
class Batch:
    def __init__(
        self,
        states: Sequence[CoreState],
        learner: int,
        opponents: int,
        autoreset: int,
        max_steps: int,
        information_state: bool,
        illegal_action: int = ...,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def information_state(self) -> bool: ...
    @property
    def learner(self) -> int: ...
    @property
    def opponents(self) -> int: ...
    @property
    def autoreset(self) -> int: ...
    @property
    def max_steps(self) -> int: ...
    @property
    def illegal_action(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def error_env(self) -> int: ...
    @property
    def error_code(self) -> int: ...
    def bind(
        self,
        observations: npt.NDArray[np.float32],
        final_observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: npt.NDArray[np.int32],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.int8],
        truncated: npt.NDArray[np.int8],
        legal_counts: npt.NDArray[np.int32],
        deal_states: npt.NDArray[np.uint64],
        choices: npt.NDArray[np.uint64],
        steps: npt.NDArray[np.int32],
        pending: npt.NDArray[np.int8],
        ended: npt.NDArray[np.int8],
        legal_ids: npt.NDArray[np.int32],
        legal_n: npt.NDArray[np.int32],
        illegal: npt.NDArray[np.int8] | None = None,
    ) -> None: ...
    def check(self, actions: npt.NDArray[np.int64]) -> int: ...
    def step(self, actions: npt.NDArray[np.int64], lo: int, hi: int) -> None: ...
    def reset(
        self, deal_states: npt.NDArray[np.uint64], which: npt.NDArray[np.int8], every: bool, lo: int, hi: int
    ) -> None: ...
    def sample(self, out: npt.NDArray[np.int64], lo: int, hi: int) -> None: ...
    def legal(self, ids: npt.NDArray[np.int32], counts: npt.NDArray[np.int32], pad: int, lo: int, hi: int) -> None: ...
    def flat_legal(self, index: npt.NDArray[np.int64], stride: int, lo: int, hi: int) -> None: ...
    def choose(
        self,
        scores: npt.NDArray[np.float32],
        temperature: float,
        greedy: bool,
        out: npt.NDArray[np.int64],
        lo: int,
        hi: int,
    ) -> None: ...
    def state_at(self, i: int) -> Any: ...
