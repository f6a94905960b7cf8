"""Information-set Monte Carlo tree search, written once against the game contract.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search"). The tree is open-loop: a node is the sequence of actions from the root, and
chance (which every core resolves inside ``c_do`` from the state's own generator) is not a
node. Each iteration:

1. **determinize**: copy the root into a work state, reseed its generator and deal anew
   everything the searching seat cannot see (``c_resample``); the copy's hidden cards are
   replaced, so the search knows only what ``view(seat)`` shows (with ``recall``, what the
   seat's information state remembers). Without ``determinize`` the true position is
   searched: a perfect-information bound for analysis, not a fair player;
2. **select**: at each node, the children whose actions are legal in this determinization
   are *available*; their availability counts grow by one, and the one with the best
   UCB1 value, ``mean + c * sqrt(ln(availability) / visits)``, is taken, where ``mean`` is
   the mean return of the seat that chose that action; with a ``prior_weight`` W > 0, the
   child the game's rollout policy prefers here (``c_prior_action``, in this
   determinization) gets ``W / (visits + 1)`` more: progressive bias (Chaslot et al. 2008),
   which fades as the child's own results come in;
3. **expand**: the first node with a legal action not yet in the tree gets one child: the
   policy's preferred action if it is untried (with a prior weight), else an untried
   action chosen uniformly;
4. **simulate**: the core's rollout policy (``c_rollout_action``: uniformly random unless
   the game has a policy of its own) to the end of the game; with ``policy`` False,
   uniformly random actions (``c_random_action``);
5. **backpropagate**: every node on the path adds the return of the seat that moved into
   it: +1 for a winner, -1 for the others, 0 for every seat after a draw; in a solo game
   a result with no winner is a loss (-1).

The loop runs with the GIL released; it takes the GIL only to copy the root (the cores'
``c_copy_into`` runs with it) and, every few iterations, to look for Ctrl-C. A search grows
at most one node per iteration; ``run`` stops early when the tree is full, and ``grow``
makes room.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

if not cython.compiled:
    from math import log, sqrt

import numpy

from cruiselib.errors import IllegalMoveError, InvalidOptionError

from .common import check_signals
from .engine import CoreState
from .rng import SPLITMIX64 as _SPLITMIX64
from .rng import mix64

# The Weyl step of every generator stream in the cores (the engine's, which is C-only).
GOLDEN, _, _, MASK64 = _SPLITMIX64  # the generator's constants have one home: rng.py

# Iterations between two looks for Ctrl-C.
SIGNAL_EVERY_ITERATIONS = 256
# A determinization's generator and its rollout's choices come from streams of their own.
DEAL_SALT = 0x2545F4914F6CDD1D
ROLLOUT_SALT = 0x94D049BB133111EB
PRIOR_SALT = 0xD6E8FEB86659FD93
# The final choice: the most visited root child, or the one with the best mean return.
FINAL_VISITS = 0
FINAL_VALUE = 1
_INT32 = numpy.int32


class Search:
    """One search tree from a root position (a copy of it, taken now).

    ``uct_c`` is the exploration constant of UCB1 on returns in [-1, 1]; ``determinize``
    False searches the true position (it sees hidden cards); ``recall`` deals with the
    seat's memory of public events kept (``resample(recall=True)``); ``seed`` a 64-bit
    generator state; ``capacity`` the nodes allotted (one per iteration, plus the root);
    ``score_weight`` the share of the score margin in the return; ``policy`` False rolls
    out uniformly at random even where the game has a rollout policy; ``prior_weight`` the
    progressive bias toward the policy's preferred move (0: none; it changes nothing in a
    game without a policy).
    """

    def __init__(
        self,
        root,
        uct_c=1.0,
        determinize=True,
        recall=True,
        seed=0,
        capacity=4096,
        score_weight=0.0,
        policy=True,
        prior_weight=0.0,
    ):
        if not isinstance(root, CoreState):
            raise InvalidOptionError(f"a search needs a game state, not {type(root).__name__}")
        if root.current_player < 0:
            raise IllegalMoveError("the game is over: there is nothing to search")
        if not (uct_c >= 0.0):  # also rejects NaN
            raise InvalidOptionError(f"uct_c must be a number >= 0, not {uct_c!r}")
        if not (0.0 <= score_weight <= 1.0):
            raise InvalidOptionError(f"score_weight must be a number in [0, 1], not {score_weight!r}")
        if not (0.0 <= prior_weight < 1.0e300):  # also rejects NaN and infinity
            raise InvalidOptionError(f"prior_weight must be a finite number >= 0, not {prior_weight!r}")
        self.score_weight = score_weight
        self.prior_weight = prior_weight
        self.policy = bool(policy)
        self.ret_array = _zeros(root.core_rules.num_players, True)
        self.ret = self.ret_array
        self.root = root.clone()
        self.work = root.clone()  # a position overwritten by every iteration
        self.seat = root.current_player
        self.uct_c = uct_c
        self.determinize = determinize
        self.recall = recall
        self.rng = seed & MASK64
        self.iterations = 0
        self.nodes = 1
        self.generation = 0
        actions = root.core_rules.num_actions
        self.seen_array = _zeros(actions, False)
        self.where_array = _zeros(actions, False)
        self.untried_array = _zeros(actions, False)
        self.seen = self.seen_array
        self.where = self.where_array
        self.untried = self.untried_array
        # The root's shortlist (``restrict``): 1 for a move the search may weigh there.
        self.allowed_array = _zeros(actions, False)
        self.allowed = self.allowed_array
        self.restricted = False
        # The root's favoured move (``favour``) and its bias weight; -1: none.
        self.favoured = -1
        self.favour_weight = 0.0
        self.capacity = 0
        self.first_child_array = self.next_sibling_array = self.action_array = None
        self.mover_array = self.visits_array = self.avail_array = None
        self.path_array = self.total_array = None
        self.grow(max(int(capacity), 2))
        self.first_child[0] = -1
        self.next_sibling[0] = -1
        self.action[0] = -1
        self.mover[0] = -1

    def grow(self, capacity):
        """Make room for ``capacity`` nodes in all (the tree so far is kept)."""
        if capacity <= self.capacity:
            return
        old = self.capacity
        olds = (
            self.first_child_array,
            self.next_sibling_array,
            self.action_array,
            self.mover_array,
            self.visits_array,
            self.avail_array,
            self.path_array,
            self.total_array,
        )
        fields = []
        for k in range(8):
            new = _zeros(capacity, k == 7)
            if old:
                new[:old] = olds[k]
            fields.append(new)
        (
            self.first_child_array,
            self.next_sibling_array,
            self.action_array,
            self.mover_array,
            self.visits_array,
            self.avail_array,
            self.path_array,
            self.total_array,
        ) = fields
        self.first_child = self.first_child_array
        self.next_sibling = self.next_sibling_array
        self.action = self.action_array
        self.mover = self.mover_array
        self.visits = self.visits_array
        self.avail = self.avail_array
        self.path = self.path_array
        self.total = self.total_array
        # UCB1's two factors by count, computed once: no log or sqrt in the selection loop.
        # Only the new counts are computed: a search that doubles its tree as it goes pays
        # for each entry once.
        explore = _zeros(capacity, True)
        inv_sqrt = _zeros(capacity, True)
        if old:
            explore[:old] = self.explore_array
            inv_sqrt[:old] = self.inv_sqrt_array
        self.explore_array = explore
        self.inv_sqrt_array = inv_sqrt
        self.explore = self.explore_array
        self.inv_sqrt = self.inv_sqrt_array
        for k in range(max(old, 1), capacity):
            self.explore[k] = self.uct_c * sqrt(log(k))
            self.inv_sqrt[k] = 1.0 / sqrt(k)
        self.capacity = capacity

    def restrict(self, actions):
        """Weigh only these root moves (a shortlist, e.g. a heuristic's best few): the root
        expands and selects among them alone, while every deeper node stays unrestricted.
        Call it before the first iteration; each action must be legal at the root. In a
        determinization where none of them is legal (a game whose root moves depend on
        hidden cards), that iteration weighs every legal move."""
        if self.iterations:
            raise InvalidOptionError("restrict the root before the search runs")
        chosen = []
        for a in actions:
            if type(a) is not int and not isinstance(a, numpy.integer):
                raise InvalidOptionError(f"a root action must be an int, not {a!r}")
            a = int(a)
            if not self.root.is_legal(a):
                raise InvalidOptionError(f"action {a} is not legal at the root")
            chosen.append(a)
        if not chosen:
            raise InvalidOptionError("restrict needs at least one root action")
        for a in range(self.root.core_rules.num_actions):
            self.allowed[a] = 0
        for a in chosen:
            self.allowed[a] = 1
        self.restricted = True

    def favour(self, action, weight):
        """Bias the root toward one move (e.g. a heuristic's choice): there it gets
        ``weight / (visits + 1)`` more in UCB1 and is expanded before the other untried moves,
        so it leads the first visits and keeps its lead only if its results hold up (in place
        of the rollout policy's prior at the root; deeper nodes are unchanged). Call it before
        the first iteration; the action must be legal at the root, the weight finite, >= 0."""
        if self.iterations:
            raise InvalidOptionError("favour a root move before the search runs")
        if type(action) is not int and not isinstance(action, numpy.integer):
            raise InvalidOptionError(f"a root action must be an int, not {action!r}")
        if not self.root.is_legal(int(action)):
            raise InvalidOptionError(f"action {int(action)} is not legal at the root")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not (0.0 <= weight < 1.0e300):
            raise InvalidOptionError(f"the favour's weight must be a finite number >= 0, not {weight!r}")
        self.favoured = int(action)
        self.favour_weight = float(weight)

    def run(self, iterations):
        """Run up to ``iterations`` more iterations; returns how many ran (fewer only when
        the tree is full, after ``capacity - 1`` iterations in all: ``grow`` it and run again)."""
        if type(iterations) is not int or iterations < 0:
            raise InvalidOptionError(f"iterations must be an int >= 0, not {iterations!r}")
        return self.c_run(iterations)

    def c_run(self, iterations):
        done = 0
        players = self.root.core_rules.num_players
        with cython.nogil:
            # At most one node per iteration, and counts below the capacity (the UCB tables).
            while done < iterations and self.iterations + done < self.capacity - 1:
                if done % SIGNAL_EVERY_ITERATIONS == 0:
                    with cython.gil:
                        check_signals()
                self._iterate(players)
                done += 1
        self.iterations += done
        return done

    def _iterate(self, players):
        """One iteration: determinize, select, expand, simulate, backpropagate."""
        self.rng = (self.rng + GOLDEN) & MASK64
        r = mix64(self.rng)
        with cython.gil:
            self.root.c_copy_into(self.work)
        self.work.rng = mix64(r ^ DEAL_SALT)
        if self.determinize:
            self.work.c_resample(self.seat, self.recall)
        node = 0
        depth = 0
        while True:
            current = self.work.c_current()
            if current < 0:
                break
            # The policy's preferred move, before c_legal (the core's list is shared), from
            # a value of its own: the other draws, and so every game without a policy, are
            # as without a prior.
            prior = -1
            bias = self.prior_weight
            if node == 0 and self.favoured >= 0:
                prior = self.favoured
                bias = self.favour_weight
            elif self.prior_weight > 0.0:
                prior = self.work.c_prior_action(mix64(((r ^ PRIOR_SALT) + depth * GOLDEN) & MASK64))
            prior_open = False  # the prior is legal here (and on the shortlist) but untried
            n = self.work.c_legal()
            self.generation += 1
            if self.generation >= 0x3FFFFFFF:
                self._restamp()
            gen = self.generation
            c = self.first_child[node]
            while c >= 0:
                self.seen[self.action[c]] = gen
                self.where[self.action[c]] = c
                c = self.next_sibling[c]
            # At the root, a shortlist (restrict) leaves out the other moves, unless no move
            # of it is legal in this determinization.
            shortlist = self.restricted and node == 0
            if shortlist:
                shortlist = False
                for i in range(n):
                    if self.allowed[self.work.c_legal_at(i)]:
                        shortlist = True
                        break
            untried = 0
            best = -1
            best_value = -1.0e300
            for i in range(n):
                a = self.work.c_legal_at(i)
                if shortlist and not self.allowed[a]:
                    continue
                if self.seen[a] == gen:
                    c = self.where[a]
                    self.avail[c] += 1
                    visits = self.visits[c]
                    value = self.total[c] / visits + self.explore[self.avail[c]] * self.inv_sqrt[visits]
                    if a == prior:
                        value += bias / (visits + 1)
                    if value > best_value:
                        best_value = value
                        best = c
                else:
                    self.untried[untried] = a
                    untried += 1
                    if a == prior:
                        prior_open = True
            if untried > 0:
                r = mix64((r + GOLDEN) & MASK64)
                if prior_open:
                    a = prior
                else:
                    a = self.untried[((r >> 32) * untried) >> 32]
                c = self._add_child(node, a, current)
                self.work.c_do(a)
                depth += 1
                self.path[depth] = c
                break
            self.work.c_do(self.action[best])
            depth += 1
            self.path[depth] = best
            node = best
        self._simulate_and_back_up(r, depth, players)

    def _add_child(self, node, a, mover):
        """A new child of ``node`` for action ``a`` of seat ``mover``, unvisited, first among
        its siblings; its index."""
        c = self.nodes
        self.nodes += 1
        self.action[c] = a
        self.mover[c] = mover
        self.visits[c] = 0
        self.avail[c] = 1
        self.total[c] = 0.0
        self.first_child[c] = -1
        self.next_sibling[c] = self.first_child[node]
        self.first_child[node] = c
        return c

    def _simulate_and_back_up(self, r, depth, players):
        """Play the work state out with the core's rollout policy (or uniformly random
        actions), from the iteration's value ``r``, and add its returns along the path to
        ``depth``."""
        r = mix64(r ^ ROLLOUT_SALT)
        while self.work.c_current() >= 0:
            r = (r + GOLDEN) & MASK64
            if self.policy:
                self.work.c_do(self.work.c_rollout_action(mix64(r)))
            else:
                self.work.c_do(self.work.c_random_action(mix64(r)))
        self._returns(players)
        self.visits[0] += 1
        for d in range(1, depth + 1):
            c = self.path[d]
            self.visits[c] += 1
            self.total[c] += self.ret[self.mover[c]]

    def _returns(self, players):
        """Each seat's return for the finished work state, into ``ret``: the win/loss return,
        blended with ``score_weight`` of the score margin (the seat's score minus the best
        other, over the largest absolute score, clipped to [-1, 1])."""
        m = self.work.c_winners_mask()
        w = self.score_weight
        scale = 1.0
        if w > 0.0 and players > 1:
            for p in range(players):
                x = self.work.c_score(p)
                if x < 0:
                    x = -x
                if x > scale:
                    scale = x
        for p in range(players):
            r = _reward(m, p, players)
            if w > 0.0 and players > 1:
                best = -1.0e300
                for q in range(players):
                    if q != p and self.work.c_score(q) > best:
                        best = self.work.c_score(q)
                margin = (self.work.c_score(p) - best) / scale
                if margin > 1.0:
                    margin = 1.0
                elif margin < -1.0:
                    margin = -1.0
                r = (1.0 - w) * r + w * margin
            self.ret[p] = r

    def _restamp(self):
        """Start the generation stamps again (after about 10^9 node visits)."""
        for a in range(self.root.core_rules.num_actions):
            self.seen[a] = 0
        self.generation = 1

    def children(self):
        """The root's children, as (action, visits, availability, mean return) tuples in
        ascending action order."""
        out = []
        c = self.first_child[0]
        while c >= 0:
            v = self.visits[c]
            out.append((int(self.action[c]), int(v), int(self.avail[c]), float(self.total[c] / v) if v else 0.0))
            c = self.next_sibling[c]
        out.sort()
        return out

    def best(self, final=FINAL_VISITS):
        """The root action to play: the most visited child (``FINAL_VISITS``) or the best
        mean return (``FINAL_VALUE``); ties to the lower action id. -1 before any iteration."""
        best = -1
        best_key = -1.0e300
        c = self.first_child[0]
        while c >= 0:
            v = self.visits[c]
            if v > 0:
                key = v if final == FINAL_VISITS else self.total[c] / v
                if key > best_key or (key == best_key and self.action[c] < self.action[best]):
                    best_key = key
                    best = c
            c = self.next_sibling[c]
        return -1 if best < 0 else int(self.action[best])


def _zeros(n, real):
    """A zeroed int32 (or float64) array of n entries; in pure-Python mode a list, so the
    cores get Python numbers as they do from each other."""
    if cython.compiled:
        return numpy.zeros(n, numpy.float64 if real else _INT32)
    return [0.0] * n if real else [0] * n


def _reward(winners, seat, players):
    """The return of ``seat`` for a finished game with this winners mask."""
    if winners == 0:
        return -1.0 if players == 1 else 0.0
    return 1.0 if (winners >> seat) & 1 else -1.0
