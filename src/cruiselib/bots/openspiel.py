"""OpenSpiel's ISMCTS as a cruiselib bot (the ``openspiel`` extra), for matches against
cruiselib's own search: :class:`TimedISMCTS`, also ``cruiselib.openspiel.TimedISMCTS``.

Not one of :data:`cruiselib.bots.BOTS`: it is made for one game (``TimedISMCTS(game, ...)``),
which it wraps as OpenSpiel's. In the arena, a factory taking the game as options makes it
(``benchmarks/strength.py`` has one).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information

from cruiselib._api import Game, State
from cruiselib.errors import IllegalMoveError, InvalidOptionError

if TYPE_CHECKING:
    from cruiselib.openspiel._state import OpenSpielState

__all__ = ["TimedISMCTS"]


class TimedISMCTS:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) as a cruiselib bot:
    ``choose(state)`` and ``analyse(state)`` on cruiselib states, like ``cruiselib.bots``.

    Budget: ``seconds`` per decision, ``iterations``, or both (whichever ends first). Each
    iteration resamples a world (``resample(..., recall=True)``, seeded from the bot's
    generator), walks OpenSpiel's tree and plays ``rollouts`` random rollouts (its
    ``RandomRolloutEvaluator``). ``uct_c`` is OpenSpiel's UCT constant (cruiselib's ISMCTSBot's
    default, 1.0, for like-for-like matches); the move is the most visited (ties at random).
    Deterministic for a seed with an iteration budget. (A game left without a bound OpenSpiel
    needs, such as Dream Islands without ``max_rounds``, is searched as it is; only
    OpenSpiel's length bound is then not exact.)
    """

    name = "openspiel-ismcts"

    def __init__(
        self,
        game: Game[Any],
        seconds: float | None = None,
        iterations: int | None = None,
        *,
        uct_c: float = 1.0,
        rollouts: int = 1,
        seed: int | str | bytes | None = None,
    ) -> None:
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            ismcts,
            mcts,
        )

        # Here, not at the top: cruiselib.openspiel imports this module to offer the bot.
        from cruiselib.openspiel._games import adapter_of_game, wrap
        from cruiselib.openspiel._parameters import of_game

        if seconds is None and iterations is None:
            raise InvalidOptionError("give a budget: seconds, iterations or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise InvalidOptionError(f"iterations must be an int >= 1 or None, not {iterations!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0):
            raise InvalidOptionError(f"seconds must be a number > 0 or None, not {seconds!r}")
        if type(rollouts) is not int or rollouts < 1:
            raise InvalidOptionError(f"rollouts must be an int >= 1, not {rollouts!r}")
        self.seconds = None if seconds is None else float(seconds)
        self.iterations = iterations
        self.last_iterations = 0
        adapter = adapter_of_game(game)
        self.game = wrap(adapter, game, of_game(adapter.spec, game, 0), clamp=True)
        seed_bits = random.Random(seed).getrandbits(32) if seed is not None else random.SystemRandom().getrandbits(32)
        self._rs = np.random.RandomState(seed_bits)
        evaluator = mcts.RandomRolloutEvaluator(rollouts, self._rs)
        top = iterations if iterations is not None else 2**31 - 1
        self._bot = ismcts.ISMCTSBot(self.game, evaluator, float(uct_c), top, random_state=self._rs)
        self._bot.set_resampler(self._resample)

    def _resample(self, state: OpenSpielState, player: int) -> OpenSpielState:
        sampler = pyspiel.UniformProbabilitySampler(int(self._rs.randint(2**31)), 0.0, 1.0)
        return state.resample_from_infostate(player, sampler)

    def _search(self, state: State[Any, Any, Any]) -> Any:
        """One search (OpenSpiel's ``run_search``, with the time budget): the root node."""
        root_state = self.game.state_from(state)
        bot = self._bot
        bot.reset()
        root = bot.create_new_node(root_state)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while self.iterations is None or n < self.iterations:
            bot.run_simulation(bot.sample_root_state(root_state))
            n += 1
            # The first iteration only expands the root: a time budget gets at least one more.
            if deadline is not None and n >= 2 and time.perf_counter() >= deadline:
                break
        self.last_iterations = n
        return root

    def choose(self, state: State[Any, Any, Any]) -> int:
        legal = state.legal_actions()
        if not legal:
            raise IllegalMoveError("the game is over: there is no move to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return int(legal[0])
        root = self._search(state)
        if not root.child_info:  # iterations=1: the root was only expanded
            return int(legal[self._rs.randint(len(legal))])
        most = max(child.visits for child in root.child_info.values())
        best = sorted(a for a, child in root.child_info.items() if child.visits == most)
        return int(best[self._rs.randint(len(best))])

    def analyse(self, state: State[Any, Any, Any]) -> list[Any]:
        """The root's moves, most visited first, as ``cruiselib.bots.Candidate``: visits and
        the mean return of the seat to move after the move."""
        from cruiselib.bots import Candidate

        root = self._search(state)
        rows = sorted(root.child_info.items(), key=lambda item: (-item[1].visits, item[0]))
        moves = state.game.action_to_move
        return [
            Candidate(action=int(a), move=str(moves(a)), visits=int(c.visits), value=float(c.value())) for a, c in rows
        ]

    def __repr__(self) -> str:
        return f"TimedISMCTS(seconds={self.seconds}, iterations={self.iterations})"
