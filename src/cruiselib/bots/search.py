"""Search bots: information-set MCTS, and a perfect-information MCTS for analysis.

Both run the whole search loop in the compiled core (``cruiselib._core.ismcts``): the
determinization by the core's ``resample``, selection, expansion, random rollouts and
backpropagation, with the GIL released.

>>> import cruiselib
>>> from cruiselib.bots import ISMCTSBot
>>> state = cruiselib.make("sirens").new_state(seed=1)
>>> bot = ISMCTSBot(iterations=200, seed=7)
>>> state.is_legal(bot.choose(state))
True
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Mapping
from typing import Any, Literal

from cruiselib._core import compiled as _compiled
from cruiselib._core import load, pure_module
from cruiselib._core.rng import mix64, seed_state
from cruiselib.errors import InvalidOptionError, SearchCancelled
from cruiselib.integration import SearchDefaults

from ._types import Candidate, with_texts
from .rules import RuleBot

__all__ = ["CheatingMCTSBot", "ISMCTSBot", "SearchBot", "search_defaults"]

# The generator's step and 64-bit mask, from the core's rng, their one home (its Python
# source: the compiled module keeps the mask a C constant).
_GOLDEN: int = pure_module("rng").GOLDEN
_MASK64: int = pure_module("rng").MASK64
# Iterations per call into the core: small first, so a short budget is kept; doubled up to
# the largest, and to what the core runs in _CHUNK_SECONDS, so a cancel or a deadline is
# seen within about that time whatever the game and core.
_FIRST_CHUNK = 64
_LARGEST_CHUNK = 8192
_CHUNK_SECONDS = 0.05
# Nodes the tree has room for at first; it doubles as the search needs more, up to the most
# a tree may hold (its node indices are C ints).
_FIRST_CAPACITY = 1 << 12
_MAX_NODES = (1 << 31) - 1
_FINALS = {"visits": load("ismcts").FINAL_VISITS, "value": load("ismcts").FINAL_VALUE}
_ROLLOUTS = ("policy", "random")


def search_defaults(state: Any) -> SearchDefaults:
    """The search defaults the game of ``state`` declares (``Game.search``), which a search
    bot takes for each option left None."""
    defaults = getattr(type(state.game), "search", None)
    if not isinstance(defaults, SearchDefaults):
        raise InvalidOptionError(
            f"the game {state.game.name!r} declares search {defaults!r}: give a cruiselib.integration.SearchDefaults"
        )
    return defaults


def _is_width(value: Any) -> bool:
    return type(value) is int and value >= 0


def _is_bias(value: Any) -> bool:
    """Whether ``value`` is a bias weight: a finite number >= 0 (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value < math.inf


def _is_shortlist(value: Any) -> bool:
    """Whether ``value`` is a shortlist option: None, a width, or phase names to widths."""
    if value is None or _is_width(value):
        return True
    return isinstance(value, Mapping) and all(isinstance(k, str) and _is_width(v) for k, v in value.items())


def _search_module(state: Any) -> Any:
    """The search compiled with the state's core (a pure twin's state gets the pure one)."""
    module = load("ismcts")
    if _compiled and not isinstance(state, load("engine").CoreState):
        return pure_module("ismcts")
    return module


class SearchBot:
    """Monte Carlo tree search in the core; the base of :class:`ISMCTSBot` and
    :class:`CheatingMCTSBot` (which differ only in whether the root is determinized).

    Budget: ``iterations`` per decision, ``seconds`` per decision, or both (the search stops
    at whichever comes first); at least one must be given. ``uct_c`` is the UCB1 exploration
    constant on returns in [-1, 1]. ``final`` picks the move: ``"visits"`` (the most visited
    root child, the robust choice) or ``"value"`` (the best mean return). ``score_weight``
    blends the score margin into the return: ``(1 - w) * win/loss + w * margin``, the margin
    being the seat's score minus the best other over the largest absolute score (a signal
    where rollouts rarely tell a win from a loss). Where an option of the four below is
    None, the bot takes the game's own default, its ``search`` declaration
    (:class:`cruiselib.integration.SearchDefaults`, measured in docs/bots.md; see
    :func:`search_defaults`): here, None takes its ``score_weight``. ``rollout``:
    ``"policy"`` plays rollouts with the game's rollout policy in the core (a game without
    one rolls out uniformly at random either way),
    ``"random"`` uniformly at random. ``prior_weight`` W: in the tree, the move the rollout
    policy prefers at a node gets ``W / (visits + 1)`` more in UCB1 and is expanded first
    (progressive bias: it guides the first visits and fades as results come in); None takes
    the game's ``prior_weight`` (0 with random rollouts), and 0 turns it off. ``shortlist`` k: the root
    weighs only the rule-based bot's k best moves (its analysis of the seat's view), 0 every
    legal move; with k = 1 the bot plays that move without a search. A mapping of phase
    names (``state.phase_name``) to k sets it per phase (0 for a phase not named); None
    takes the game's ``shortlist``.
    ``rule_bias`` B: at the root, the rule-based bot's best move (its analysis of the seat's
    view) gets ``B / (visits + 1)`` more in UCB1 and is expanded first, in place of the
    rollout policy's prior there: the search starts from the rule-based bot's choice and
    leaves it only for a move whose results prove better; None takes the game's
    ``rule_bias``, and 0 turns it off.
    ``seed``: an int, str or bytes, or None for a random one.

    State between calls: the number of searches run so far (one cancelled or interrupted
    does not count). Search k uses the generator
    state ``mix64(seed_state(seed) + k * golden)``, so a bot made with the same seed makes
    the same choices in the same positions in the same order (with an iteration budget;
    a time budget depends on the machine's speed).
    """

    name = "mcts"
    determinize = True

    def __init__(
        self,
        iterations: int | None = 2000,
        seconds: float | None = None,
        *,
        uct_c: float = 1.0,
        final: Literal["visits", "value"] = "visits",
        recall: bool = True,
        score_weight: float | None = None,
        rollout: Literal["policy", "random"] = "policy",
        prior_weight: float | None = None,
        shortlist: int | Mapping[str, int] | None = None,
        rule_bias: float | None = None,
        seed: int | str | bytes | None = None,
    ) -> None:
        if rollout not in _ROLLOUTS:
            raise InvalidOptionError(f"rollout must be 'policy' or 'random', not {rollout!r}")
        if score_weight is not None and (
            isinstance(score_weight, bool) or not isinstance(score_weight, (int, float)) or not (0 <= score_weight <= 1)
        ):
            raise InvalidOptionError(f"score_weight must be a number in [0, 1], not {score_weight!r}")
        for option, weight in (("prior_weight", prior_weight), ("rule_bias", rule_bias)):
            if weight is not None and not _is_bias(weight):
                raise InvalidOptionError(f"{option} must be a finite number >= 0 or None, not {weight!r}")
        if not _is_shortlist(shortlist):
            raise InvalidOptionError(
                f"shortlist must be an int >= 0, a mapping of phase names to such ints, or None, not {shortlist!r}"
            )
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise InvalidOptionError(f"iterations must be an int >= 1 or None, not {iterations!r}")
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds)
            or seconds <= 0
        ):
            raise InvalidOptionError(f"seconds must be a number > 0 or None, not {seconds!r}")
        if iterations is None and seconds is None:
            raise InvalidOptionError("give a budget: iterations, seconds or both")
        if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not (0 <= uct_c < math.inf):
            raise InvalidOptionError(f"uct_c must be a finite number >= 0, not {uct_c!r}")
        if final not in _FINALS:
            raise InvalidOptionError(f"final must be 'visits' or 'value', not {final!r}")
        if not isinstance(recall, bool):
            raise InvalidOptionError(f"recall must be True or False, not {recall!r}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        try:
            self._seed = seed_state(seed)
        except TypeError:
            raise InvalidOptionError(f"seed must be an int, str or bytes, not {seed!r}") from None
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.uct_c = float(uct_c)
        self.final = final
        self.recall = bool(recall)
        self.score_weight = None if score_weight is None else float(score_weight)
        self.rollout = rollout
        self.prior_weight = None if prior_weight is None else float(prior_weight)
        self.shortlist: int | dict[str, int] | None = dict(shortlist) if isinstance(shortlist, Mapping) else shortlist
        self.rule_bias = None if rule_bias is None else float(rule_bias)
        # The shortlist's judge: a rule-based bot, whose analysis depends on the seat's view
        # alone (its generator only breaks ties in ``choose``, which is not used here).
        self._judge = RuleBot(seed=0)
        self.searches = 0
        #: Iterations of the last search (0 when the move was forced).
        self.last_iterations = 0

    def __repr__(self) -> str:
        budget = [f"iterations={self.iterations}"] if self.iterations is not None else []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds}")
        return f"{type(self).__name__}({', '.join(budget)}, uct_c={self.uct_c}, final={self.final!r})"

    def _search(self, state: Any, cancel: threading.Event | None = None) -> Any:
        """Run one search from ``state`` (unchanged) and return the core's search tree.

        The core runs the iterations in chunks, whatever the budget: between two chunks the
        deadline and ``cancel`` are looked at, and the tree grows to what the next chunk
        needs (never to the whole budget up front, which could be gigabytes). A chunk is
        sized to take about ``_CHUNK_SECONDS``, so a cancel or a deadline is kept promptly.
        """
        if cancel is not None and not isinstance(cancel, threading.Event):
            raise InvalidOptionError(f"cancel must be a threading.Event or None, not {cancel!r}")
        module = _search_module(state)
        seed = mix64((self._seed + self.searches * _GOLDEN) & _MASK64)
        budget = self.iterations
        defaults = search_defaults(state)
        weight = self.score_weight if self.score_weight is not None else defaults.score_weight
        prior = self.prior_weight
        if prior is None:
            prior = defaults.prior_weight if self.rollout == "policy" else 0.0
        capacity = _FIRST_CAPACITY if budget is None else min(budget + 1, _FIRST_CAPACITY)
        tree = module.Search(
            state, self.uct_c, self.determinize, self.recall, seed, capacity, weight, self.rollout == "policy", prior
        )
        shortlist = self._shortlist(state)
        if shortlist is not None:
            tree.restrict(shortlist)
        bias = self.rule_bias if self.rule_bias is not None else defaults.rule_bias
        if bias > 0:
            tree.favour(shortlist[0] if shortlist else self._judge._ranked(state)[0].action, bias)
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        chunk = _FIRST_CHUNK
        while budget is None or tree.iterations < budget:
            if cancel is not None and cancel.is_set():
                # Not counted as a search: the bot's next search is the one it would have
                # made had this one never been asked for.
                raise SearchCancelled(f"the search was cancelled after {tree.iterations} iterations")
            step = chunk if budget is None else min(chunk, budget - tree.iterations)
            needed = tree.iterations + step + 1  # one node per iteration, plus the root
            if needed > tree.capacity:
                if tree.capacity >= _MAX_NODES:
                    break  # the tree is as large as a tree may be: the search ends here
                tree.grow(min(max(2 * tree.capacity, needed), _MAX_NODES))
                step = min(step, tree.capacity - 1 - tree.iterations)
            began = time.perf_counter()
            tree.run(step)
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            # The next chunk: twice this one, but no longer than _CHUNK_SECONDS at this pace.
            pace = step / max(now - began, 1e-9)
            chunk = max(1, min(2 * chunk, _LARGEST_CHUNK, int(pace * _CHUNK_SECONDS)))
        self.searches += 1
        self.last_iterations = int(tree.iterations)
        return tree

    def _width(self, state: Any) -> int:
        """The shortlist's width in this position (0: every legal move)."""
        width = self.shortlist if self.shortlist is not None else search_defaults(state).shortlist
        if isinstance(width, Mapping):
            return int(width.get(state.phase_name, 0))
        return width

    def _shortlist(self, state: Any) -> list[int] | None:
        """The root moves the search may weigh: the rule-based bot's best ``_width`` ones,
        or None for every legal move."""
        width = self._width(state)
        if width <= 0 or len(state.legal_actions()) <= width:
            return None
        return [c.action for c in self._judge._ranked(state)[:width]]

    def choose(self, state: Any, *, cancel: threading.Event | None = None) -> int:
        """The action to play for ``state.current_player`` (a forced move, or a shortlist of
        one, without search). ``cancel``: an event another thread may set to stop the search
        (within about 50 ms), which then raises :class:`~cruiselib.errors.SearchCancelled`."""
        legal = state.legal_actions()
        if not legal:
            from cruiselib.errors import IllegalMoveError

            raise IllegalMoveError("the game is over: there is no move to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return int(legal[0])
        if self._width(state) == 1:
            self.last_iterations = 0
            return int(self._judge._ranked(state)[0].action)
        tree = self._search(state, cancel)
        return int(tree.best(_FINALS[self.final]))

    def analyse(self, state: Any, *, cancel: threading.Event | None = None) -> list[Candidate]:
        """Search and return the root's moves, most visited first: visits, and value = the
        mean return of the seat to move after that move, in [-1, 1]. ``cancel`` as in
        :meth:`choose`."""
        tree = self._search(state, cancel)
        game = state.game
        rows = sorted(tree.children(), key=lambda row: (-row[1], row[0]))
        candidates = [
            Candidate(action=action, move=str(game.action_to_move(action)), visits=visits, value=mean)
            for action, visits, _avail, mean in rows
        ]
        return with_texts(state, candidates)


class ISMCTSBot(SearchBot):
    """Information-set MCTS (single observer): every iteration searches a determinization
    of the root, dealt by the core's ``resample`` from what the seat to move may know (its
    ``view``; with ``recall``, its memory of public events too). It never sees hidden cards:
    two positions that look the same to the seat give the same search.
    """

    name = "ismcts"
    determinize = True


class CheatingMCTSBot(SearchBot):
    """MCTS on the true position: it SEES THE HIDDEN CARDS (other hands, deck order).

    Not a fair opponent: an upper bound for analysis (how much would knowing everything be
    worth?). Only later chance events vary between iterations.
    """

    name = "cheating_mcts"
    determinize = False
