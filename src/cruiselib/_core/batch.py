"""Many games of one configuration stepped together: the compiled half of ``BatchEnv``.

A :class:`Batch` holds N positions (states of one game) and the buffers a
reinforcement-learning loop reads: each env's observation, action mask, seat to act,
rewards, end flags and number of legal actions. ``step`` applies one action per env,
plays the compiled opponents (if any) until the learner's turn, settles the end of a game
(rewards, autoreset) and writes the buffers, all with the GIL released, for envs
``lo .. hi-1``: ``cruiselib.envs.BatchEnv`` hands contiguous ranges to threads, so the
result never depends on how the batch is split.

Every env's games are reproducible alone: a game is dealt from a 64-bit generator state
(the env's first from ``seed_state(seed)`` exactly as ``Game.new_state(seed)``, each later
one from ``mix64(previous ^ NEXT_DEAL_SALT)``), and the random choices of the compiled
opponents, of ``sample``, of ``choose`` and of the "random" illegal-action mode come from a
stream of the game's own, started at ``mix64(deal ^ CHOICE_SALT)`` and stepped by the Weyl
constant as in the playouts.

``legal`` lists each env's legal actions as a padded array and ``choose`` picks an action
per env from a policy's scores over them (a softmax with a temperature, or the highest),
both from the legal actions each env remembers, so neither looks at a dense mask row.

The states are held in a Python list; compiled, the stepping loop reaches them through
their addresses (the list keeps them alive) so it never touches a reference count. The
module is compiled by Cython (types in ``batch.pxd``) and runs unchanged as plain Python.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

if not cython.compiled:  # compiled, memset, exp and INFINITY are libc's (cimported in batch.pxd)
    from math import exp
    from math import inf as INFINITY

    memset = None

import numpy

from .engine import CoreState
from .rng import SPLITMIX64 as _SPLITMIX64
from .rng import mix64

GOLDEN, _, _, MASK64 = _SPLITMIX64  # the generator's constants have one home: rng.py
# The streams of a game in a batch: its choices (opponents, sampling), and the next deal.
CHOICE_SALT = 0x9E6C63D0676A9A99
NEXT_DEAL_SALT = 0xD1B54A32D192ED03
# Autoreset modes (Gymnasium's AutoresetMode), opponents, and the check's own error codes
# (a positive code is an index into the game's reasons, from its legality check).
NEXT_STEP = 0
SAME_STEP = 1
DISABLED = 2
NO_OPPONENTS = 0
RANDOM_OPPONENTS = 1
ROLLOUT_OPPONENTS = 2
BAD_RANGE = -1
BAD_ENDED = -2
# What a step does with an env's illegal action: refuse the whole step (BatchEnv raises
# before the core steps), end that env's game as a loss for the seat that acted, or play a
# uniformly random legal action instead (both checked by the core itself, env by env).
ILLEGAL_RAISE = 0
ILLEGAL_LOSE = 1
ILLEGAL_RANDOM = 2
# The same numbers for Python code (the names above are C-only compiled).
AUTORESET_CODES = {"next_step": NEXT_STEP, "same_step": SAME_STEP, "disabled": DISABLED}
OPPONENT_CODES = {None: NO_OPPONENTS, "random": RANDOM_OPPONENTS, "rollout": ROLLOUT_OPPONENTS}
REFUSAL_CODES = {"out_of_range": BAD_RANGE, "ended": BAD_ENDED}
ILLEGAL_CODES = {"raise": ILLEGAL_RAISE, "lose": ILLEGAL_LOSE, "random": ILLEGAL_RANDOM}
# A draw's top 53 bits times this: a double in [0, 1), the same on both cores.
UNIT53 = 1.0 / 9007199254740992.0
# The legal actions an env remembers from its last look (to clear its mask row and sample
# without listing them again); a position with more is listed again.
LEGAL_CACHE = 256
LEGAL_CACHE_SIZE = LEGAL_CACHE  # the same number, for Python code
# Deals tried for a game that the opponents end before the learner's first turn.
SKIP_LIMIT = 64


class Batch:
    """N positions of one game configuration, stepped together (see the module docstring).

    ``states`` are fresh states of one game (their positions are replaced by ``reset``);
    ``learner`` the seat whose turns the caller plays (-1: every seat, self-play), the
    others played by ``opponents`` (``RANDOM_OPPONENTS``: uniformly random legal actions,
    ``ROLLOUT_OPPONENTS``: the game's rollout policy); ``autoreset`` a mode constant;
    ``max_steps`` the actions after which a game is truncated (0: never);
    ``information_state`` writes information-state tensors instead of observations;
    ``illegal_action`` what ``step`` does with an illegal action (an ``ILLEGAL_CODES``
    value: with ``ILLEGAL_RAISE`` the caller runs ``check`` first, in the other modes
    ``step`` checks each env's action itself and flags it in ``illegal``).
    The buffers are handed in by ``bind``.
    """

    def __init__(self, states, learner, opponents, autoreset, max_steps, information_state, illegal_action=0):
        self.states = list(states)
        self.num_envs = len(self.states)
        # The loops cast what they hold to this module's CoreState: nothing else may come in.
        if not self.states or any(type(s) is not type(self.states[0]) for s in self.states):
            raise TypeError("a batch holds one or more states of one class")
        if not isinstance(self.states[0], CoreState):
            raise TypeError(f"{type(self.states[0]).__name__} is not a state of this core")
        rules = self.states[0].core_rules
        self.num_players = rules.num_players
        self.num_actions = rules.num_actions
        self.information_state = information_state
        self.observation_size = rules.info_state_size if information_state else rules.observation_size
        self.learner = learner
        self.opponents = opponents
        self.autoreset = autoreset
        self.max_steps = max_steps
        if illegal_action not in (ILLEGAL_RAISE, ILLEGAL_LOSE, ILLEGAL_RANDOM):
            raise ValueError(f"illegal_action must be one of {sorted(ILLEGAL_CODES.values())}")
        self.illegal_action = illegal_action
        self.moves = 0  # step and reset calls so far: whether positions changed since a look
        self.error_env = -1
        self.error_code = 0
        self.bound = False
        # Compiled, the loops reach each state by its address; the list keeps them alive.
        self.addresses = numpy.array([id(s) for s in self.states], dtype=numpy.intp)

    def bind(
        self,
        observations,
        final_observations,
        masks,
        seats,
        rewards,
        terminated,
        truncated,
        legal_counts,
        deal_states,
        choices,
        steps,
        pending,
        ended,
        legal_ids,
        legal_n,
        illegal=None,
    ):
        """Take the buffers (numpy arrays of the shapes and dtypes ``BatchEnv`` checks;
        the end flags as int8 views of its bool arrays). ``illegal`` (int8, one per env: the
        envs whose action the last step found illegal) is made here if not given."""
        # The loops index without bounds checks: every buffer must fit the batch.
        n = self.num_envs
        rows = {
            "observations": (observations, self.observation_size),
            "masks": (masks, self.num_actions),
            "rewards": (rewards, self.num_players),
        }
        for name, (array, width) in rows.items():
            if tuple(array.shape) != (n, width):
                raise ValueError(f"{name} must have shape ({n}, {width})")
        if legal_ids.shape[0] != n or legal_ids.shape[1] < LEGAL_CACHE:
            raise ValueError(f"legal_ids must have {n} rows of at least {LEGAL_CACHE}")
        finals = 1 if self.autoreset != SAME_STEP else n
        if final_observations.shape[1] != self.observation_size or final_observations.shape[0] < finals:
            raise ValueError("final_observations does not fit the batch")
        if illegal is None:
            illegal = numpy.zeros(n, numpy.int8)
        for array in (
            seats,
            terminated,
            truncated,
            legal_counts,
            deal_states,
            choices,
            steps,
            pending,
            ended,
            legal_n,
            illegal,
        ):
            if tuple(array.shape) != (n,):
                raise ValueError(f"every per-env buffer must have {n} entries")
        self.observations = observations
        self.final_observations = final_observations
        self.masks = masks
        self.seats = seats
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.legal_counts = legal_counts
        self.deal_states = deal_states
        self.choices = choices
        self.steps = steps
        self.pending = pending
        self.ended = ended
        self.legal_ids = legal_ids
        self.legal_n = legal_n
        self.illegal = illegal
        self.bound = True

    def state_at(self, i):
        """Env ``i``'s state object itself (the caller copies it)."""
        return self.states[i]

    # ------------------------------------------------------------------ the Python entries

    def check(self, actions):
        """Whether every env may take its action: -1 if so, else the first env that may not
        (``error_env``), with ``error_code`` saying why (``BAD_RANGE``, ``BAD_ENDED``, or the
        game's reason index). Changes nothing: a refused step leaves every env as it was."""
        self.error_env = -1
        self.error_code = 0
        _check_range(self.bound, 0, self.num_envs, self.num_envs, actions.shape[0])
        with cython.nogil:
            for i in range(self.num_envs):
                if self.pending[i] != 0:
                    continue  # next-step autoreset: this env's action is ignored
                if self.ended[i] != 0:
                    self.error_env = i
                    self.error_code = BAD_ENDED
                    break
                a = _i64(actions[i])
                if a < 0 or a >= self.num_actions:
                    self.error_env = i
                    self.error_code = BAD_RANGE
                    break
                if self.c_remembered(i, a):
                    continue  # among the legal actions listed at the last look
                # Not listed (or too many to remember): the game's check, with its reason.
                if cython.compiled:
                    code = cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])).c_check(a)
                else:
                    code = self.states[i].c_check(a)
                if code != 0:
                    self.error_env = i
                    self.error_code = code
                    break
        return self.error_env

    def step(self, actions, lo, hi):
        """Apply each env's action for envs ``lo .. hi-1``: checked by ``check`` before
        (``ILLEGAL_RAISE``), or here, env by env (the other modes, ``c_step_one``)."""
        _check_range(self.bound, lo, hi, self.num_envs, actions.shape[0])
        if lo == 0:
            self.moves += 1  # once a call: one thread has the range from 0
        with cython.nogil:
            for i in range(lo, hi):
                if cython.compiled:
                    self.c_step_one(
                        cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])), i, actions[i]
                    )
                else:
                    self.c_step_one(self.states[i], i, _i64(actions[i]))

    def reset(self, deal_states, which, every, lo, hi):
        """Deal new games from ``deal_states`` in envs ``lo .. hi-1`` (``every``), or in those
        of them whose ``which`` flag is set."""
        _check_range(self.bound, lo, hi, self.num_envs, deal_states.shape[0])
        if not every:
            _check_range(self.bound, lo, hi, self.num_envs, which.shape[0])
        if lo == 0:
            self.moves += 1
        with cython.nogil:
            for i in range(lo, hi):
                if not every and which[i] == 0:
                    continue
                self.c_clear_rewards(i)
                self.terminated[i] = 0
                self.truncated[i] = 0
                self.illegal[i] = 0
                if cython.compiled:  # memset: the loop is not vectorized through the memoryview
                    memset(cython.address(self.masks[i, 0]), 0, self.num_actions)
                else:
                    self.masks[i] = 0
                if cython.compiled:
                    self.c_new_game(
                        cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])), i, _u64(deal_states[i])
                    )
                    self.c_write(cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])), i, -1, False)
                else:
                    self.c_new_game(self.states[i], i, _u64(deal_states[i]))
                    self.c_write(self.states[i], i, -1, False)

    def sample(self, out, lo, hi):
        """A uniformly random legal action per env into ``out`` (0 for an env that is over),
        from each game's choice stream: the k-th legal action for the stream's next 64-bit
        value r, k = ((r >> 32) * count) >> 32 (the engine's default random action)."""
        _check_range(self.bound, lo, hi, self.num_envs, out.shape[0])
        with cython.nogil:
            for i in range(lo, hi):
                # c_pick's draw written out: no call per env (the plain-Python twin feels it).
                n = _i64(self.legal_n[i])
                if n == 0:
                    out[i] = 0
                    continue
                self.choices[i] = (_u64(self.choices[i]) + GOLDEN) & MASK64
                k = ((mix64(_u64(self.choices[i])) >> 32) * n) >> 32
                if n <= LEGAL_CACHE:
                    out[i] = self.legal_ids[i, k]
                elif cython.compiled:
                    out[i] = _legal_at(cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])), k)
                else:
                    out[i] = _legal_at(self.states[i], k)

    def legal(self, ids, counts, pad, lo, hi):
        """Each env's legal actions, ascending, into its row of ``ids`` (the rest of the row
        ``pad``) and how many into ``counts`` (0 for an env that is over), for envs
        ``lo .. hi-1``. A row narrower than its env's count gets the first ones only: the
        caller refuses that before (``BatchEnv.legal_actions``); this only never writes
        past a row."""
        _check_range(self.bound, lo, hi, self.num_envs, ids.shape[0])
        _check_range(self.bound, lo, hi, self.num_envs, counts.shape[0])
        width = ids.shape[1]
        if width < 1:
            raise ValueError("ids must have a column or more")
        with cython.nogil:
            for i in range(lo, hi):
                if cython.compiled:
                    counts[i] = self.c_list(
                        cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])),
                        i,
                        cython.address(ids[i, 0]),
                        width,
                        pad,
                    )
                else:
                    counts[i] = self.c_list(self.states[i], i, ids[i], width, pad)

    def flat_legal(self, index, stride, lo, hi):
        """Each env's legal actions as indices into a C-contiguous ``[num_envs, stride]``
        array seen flat, for envs ``lo .. hi-1``: ``index[i, k] = i * stride + a``, a its
        k-th legal action (ascending); the rest of the row ``i * stride`` (an entry of the
        env's own row, ignored as padding). A dense policy's scores are gathered by these,
        so only their legal entries are copied. Rows narrower than a count: as ``legal``."""
        _check_range(self.bound, lo, hi, self.num_envs, index.shape[0])
        if stride < self.num_actions:
            raise ValueError(f"a stride of {stride} does not hold {self.num_actions} actions")
        width = index.shape[1]
        if width < 1:
            raise ValueError("index must have a column or more")
        with cython.nogil:
            for i in range(lo, hi):
                if cython.compiled:
                    self.c_list_flat(
                        cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])),
                        i,
                        cython.address(index[i, 0]),
                        width,
                        i * stride,
                    )
                else:
                    self.c_list_flat(self.states[i], i, index[i], width, i * stride)

    def choose(self, scores, temperature, greedy, out, lo, hi):
        """An action per env for envs ``lo .. hi-1`` into ``out`` (0 for an env that is
        over), from its row of ``scores``: entry k scores the env's k-th legal action
        (ascending, as ``legal`` lists them), entries past its count are ignored. Sampled
        from the softmax of ``score / temperature`` with the game's choice stream, or with
        ``greedy`` the highest score's (the lowest action on ties); see ``c_weighted``. The
        rows are scratch: the core overwrites them with the weights (the caller hands in a
        copy of its own)."""
        _check_range(self.bound, lo, hi, self.num_envs, scores.shape[0])
        _check_range(self.bound, lo, hi, self.num_envs, out.shape[0])
        if not 0.0 < temperature < INFINITY:
            raise ValueError("temperature must be positive and finite")
        width = scores.shape[1]
        if width < 1:
            raise ValueError("scores must have a column or more")
        with cython.nogil:
            for i in range(lo, hi):
                if cython.compiled:
                    out[i] = self.c_choose_one(
                        cython.cast(CoreState, cython.cast(cython.p_void, self.addresses[i])),
                        i,
                        cython.address(scores[i, 0]),
                        width,
                        temperature,
                        greedy,
                    )
                else:
                    out[i] = self.c_choose_one(self.states[i], i, scores[i], width, temperature, greedy)

    # ------------------------------------------------------------------ one env, no GIL

    def c_remembered(self, i, a):
        """Whether action ``a`` is among env i's legal actions as listed when its position
        was last written (sorted ascending, so a binary search); False where more were legal
        than are remembered, or the env is over."""
        n = _i64(self.legal_n[i])
        if n == 0 or n > LEGAL_CACHE:
            return False
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.legal_ids[i, mid] < a:
                lo = mid + 1
            else:
                hi = mid
        return lo < n and self.legal_ids[i, lo] == a

    def c_legal_id(self, st, i, k):
        """Env i's k-th legal action (ascending), k below its count."""
        if _i64(self.legal_n[i]) <= LEGAL_CACHE:
            return self.legal_ids[i, k]
        return _legal_at(st, k)

    def c_pick(self, st, i):
        """A uniformly random legal action of env i (0 if it is over) from its game's choice
        stream: the k-th for the stream's next value r, k = ((r >> 32) * count) >> 32."""
        n = _i64(self.legal_n[i])
        if n == 0:
            return 0
        self.choices[i] = (_u64(self.choices[i]) + GOLDEN) & MASK64
        k = ((mix64(_u64(self.choices[i])) >> 32) * n) >> 32
        return self.c_legal_id(st, i, k)

    def c_list(self, st, i, row, width, pad):
        """Env i's legal actions into ``row[0 .. width-1]`` (as ``legal``); its count."""
        n = _i64(self.legal_n[i])
        m = min(n, width)
        if n <= LEGAL_CACHE:
            for k in range(m):
                row[k] = self.legal_ids[i, k]
        else:
            st.c_legal()
            for k in range(m):
                row[k] = st.c_legal_at(k)
        for k in range(m, width):
            row[k] = pad
        return n

    def c_list_flat(self, st, i, row, width, base):
        """Env i's legal actions plus ``base`` into ``row[0 .. width-1]``, padded with
        ``base`` (as ``flat_legal``)."""
        n = _i64(self.legal_n[i])
        m = min(n, width)
        if n <= LEGAL_CACHE:
            for k in range(m):
                row[k] = base + self.legal_ids[i, k]
        else:
            st.c_legal()
            for k in range(m):
                row[k] = base + st.c_legal_at(k)
        for k in range(m, width):
            row[k] = base

    def c_choose_one(self, st, i, row, width, temperature, greedy):
        """Env i's action from its scores ``row`` (as ``choose``); 0 if it is over."""
        n = _i64(self.legal_n[i])
        if n == 0:
            return 0
        k = self.c_weighted(i, row, min(n, width), temperature, greedy)  # min: a safety net
        return self.c_legal_id(st, i, k)

    def c_weighted(self, i, row, n, temperature, greedy):
        """Which of env i's ``n`` legal actions to take, from their scores ``row[0 .. n-1]``.

        A NaN score counts as -inf. ``greedy``: the first highest (no draw). Otherwise the
        weights are exp((score - top) / temperature), top the highest score (so no weight
        overflows and the highest is 1); an +inf top shares its weight among the +inf
        scores, a -inf top (every score -inf or NaN) among all. The weights, rounded to
        float32, are written over ``row``; the stream's next value r gives u = (r >> 11)
        * 2**-53 in [0, 1), and the choice is the first k whose running sum of weights
        passes u * their total. Every step is the same double arithmetic on both cores."""
        best = 0
        top = -INFINITY
        for k in range(n):
            s = _f64(row[k])
            if s > top:  # False for NaN: a NaN never leads
                top = s
                best = k
        if greedy:
            return best
        total = 0.0
        for k in range(n):
            s = _f64(row[k])
            if top == -INFINITY:
                w = 1.0
            elif top == INFINITY:
                w = 1.0 if s == INFINITY else 0.0
            elif s != s:
                w = 0.0
            elif s == top:
                w = 1.0  # exp(0): the call saved
            else:
                w = exp((s - top) / temperature)
            row[k] = w
            total += _f64(row[k])  # the weight as stored (float32), which the walk reads
        self.choices[i] = (_u64(self.choices[i]) + GOLDEN) & MASK64
        target = (mix64(_u64(self.choices[i])) >> 11) * UNIT53 * total
        acc = 0.0
        last = best
        for k in range(n):
            w = _f64(row[k])
            if w > 0.0:
                acc += w
                last = k
                if target < acc:
                    return k
        return last  # rounding left the target at the total: the last weighted action

    def c_allowed(self, st, i, a):
        """Whether env i's seat to act may take action ``a`` (any 64-bit value)."""
        if a < 0 or a >= self.num_actions:
            return False
        n = _i64(self.legal_n[i])
        if n == 0:
            return False
        if n <= LEGAL_CACHE:
            return self.c_remembered(i, a)
        return st.c_check(a) == 0

    def c_step_one(self, st, i, action):
        checking = self.illegal_action != ILLEGAL_RAISE
        if checking and self.ended[i] != 0:
            return  # waits for its reset (refused before the step): never play on
        self.c_clear_rewards(i)
        self.terminated[i] = 0
        self.truncated[i] = 0
        if self.pending[i] != 0:
            # Next-step autoreset: the game ended in the last step; this step deals the next.
            if checking:
                self.illegal[i] = 0
            self.c_new_game(st, i, mix64((_u64(self.deal_states[i]) ^ NEXT_DEAL_SALT) & MASK64))
            self.c_write(st, i, -1, False)
            return
        actor = st.c_current()
        forfeit = False
        if checking:
            # Unchecked by the caller: the core checks it, and never applies an illegal one.
            if self.c_allowed(st, i, action):
                self.illegal[i] = 0
            else:
                self.illegal[i] = 1
                if self.illegal_action == ILLEGAL_RANDOM and _i64(self.legal_n[i]) > 0:
                    action = self.c_pick(st, i)
                else:
                    forfeit = True
        # The mask row holds this position's legal actions and nothing else (c_write's
        # precondition: a zero row): clearing just them beats a memset of a large action
        # space, whose rows of a large batch do not fit in the caches.
        n = _i64(self.legal_n[i])
        if cython.compiled:
            row = cython.address(self.masks[i, 0])
            ids = cython.address(self.legal_ids[i, 0])
        else:
            row = self.masks[i]
            ids = self.legal_ids[i]
        if n <= LEGAL_CACHE:
            for k in range(n):
                row[ids[k]] = 0
        else:
            n = st.c_legal()
            for k in range(n):
                row[st.c_legal_at(k)] = 0
        if forfeit:
            self.c_forfeit(st, i, actor)
            return
        st.c_do(action)
        self.steps[i] += 1
        self.c_opponents(st, i)
        self.c_settle(st, i, actor)

    def c_forfeit(self, st, i, actor):
        """Env i's game ends on an illegal action of ``actor`` (illegal_action "lose"): -1
        for that seat, 0 for the others, terminated, then as any ended game."""
        if actor >= 0:
            self.rewards[i, actor] = -1.0
        self.terminated[i] = 1
        self.c_finish(st, i, self.learner if self.learner >= 0 else actor)

    def c_new_game(self, st, i, deal):
        """Deal env i's next game from ``deal`` and let the opponents move to the learner's
        first turn. A game they end before it (no game of the library does; a registered one
        might) is skipped: the next deal follows, up to ``SKIP_LIMIT`` times."""
        for tries in range(SKIP_LIMIT):
            if tries > 0:
                deal = mix64((deal ^ NEXT_DEAL_SALT) & MASK64)
            st.c_deal(deal)
            self.deal_states[i] = deal
            self.choices[i] = mix64((deal ^ CHOICE_SALT) & MASK64)
            self.steps[i] = 0
            self.pending[i] = 0
            self.ended[i] = 0
            self.c_opponents(st, i)
            if st.c_current() >= 0:
                return

    def c_opponents(self, st, i):
        """The compiled opponents move until the learner's turn or the end (the step cap is
        looked at after them, so a truncated game ends on the learner's turn)."""
        if self.learner < 0 or self.opponents == NO_OPPONENTS:
            return
        while True:
            c = st.c_current()
            if c < 0 or c == self.learner:
                return
            self.choices[i] = (_u64(self.choices[i]) + GOLDEN) & MASK64
            r = mix64(_u64(self.choices[i]))
            if self.opponents == RANDOM_OPPONENTS:
                a = st.c_random_action(r)
            else:
                a = st.c_rollout_action(r)
            st.c_do(a)
            self.steps[i] += 1

    def c_settle(self, st, i, actor):
        """After env i's actions: the rewards and end flags, autoreset, the buffers."""
        current = st.c_current()
        over = current < 0
        done = False
        if over:
            m = st.c_winners_mask()
            # +1 each winner, -1 every other seat; 0 for all after a draw, except in a solo
            # game, where no winner is a loss (C9; State.returns, the search's returns).
            if m != 0 or self.num_players == 1:
                for p in range(self.num_players):
                    self.rewards[i, p] = 1.0 if (m >> p) & 1 else -1.0
            self.terminated[i] = 1
            done = True
        elif self.max_steps > 0 and self.steps[i] >= self.max_steps:
            self.truncated[i] = 1
            done = True
        if self.learner >= 0:
            observer = self.learner
        elif over:
            observer = actor
        else:
            observer = current
        if not done:
            self.c_write(st, i, observer, False)
        else:
            self.c_finish(st, i, observer)

    def c_finish(self, st, i, observer):
        """Env i's game has ended or been cut (its rewards and flags set, its mask row
        clear): autoreset, and the buffers (the last observation, of ``observer``)."""
        if self.autoreset == SAME_STEP:
            # The last observation goes to final_observations; the env starts its next game.
            self.c_observe_into(st, self.final_observations[i], observer)
            self.c_new_game(st, i, mix64((_u64(self.deal_states[i]) ^ NEXT_DEAL_SALT) & MASK64))
            self.c_write(st, i, -1, False)
        else:
            if self.autoreset == NEXT_STEP:
                self.pending[i] = 1
            else:
                self.ended[i] = 1
            self.c_write(st, i, observer, True)

    def c_write(self, st, i, observer, done):
        """Env i's observation (of ``observer``, or of the seat to act for -1), mask, seat
        and legal count, its mask row zero before; ``done``: the game ended or was cut,
        nothing is legal."""
        current = st.c_current()
        if done:
            self.seats[i] = -1
            self.legal_counts[i] = 0
            self.legal_n[i] = 0
        else:
            self.seats[i] = current
            n = st.c_legal()
            if cython.compiled:
                row = cython.address(self.masks[i, 0])
                ids = cython.address(self.legal_ids[i, 0])
            else:
                row = self.masks[i]
                ids = self.legal_ids[i]
            for k in range(n):
                a = st.c_legal_at(k)
                row[a] = 1
                if k < LEGAL_CACHE:
                    ids[k] = a
            self.legal_counts[i] = n
            self.legal_n[i] = n
        if observer < 0:
            observer = current if current >= 0 else max(self.learner, 0)
        self.c_observe_into(st, self.observations[i], observer)

    def c_observe_into(self, st, out, seat):
        if cython.compiled:
            memset(cython.address(out[0]), 0, self.observation_size * cython.sizeof(cython.float))
        else:
            out[:] = 0.0
        if self.information_state:
            st.c_info_state(seat, out)
        else:
            st.c_observe(seat, out)

    def c_clear_rewards(self, i):
        for p in range(self.num_players):
            self.rewards[i, p] = 0.0


def _legal_at(st, k):
    """The k-th legal action of ``st``, listed again."""
    st.c_legal()
    return st.c_legal_at(k)


def _u64(x):
    """``x`` as an unsigned 64-bit number: the identity compiled; a Python int from a numpy
    scalar in plain Python (numpy's fixed-width arithmetic would wrap with warnings)."""
    if cython.compiled:
        return x
    return int(x)


def _i64(x):
    """``x`` as a signed 64-bit number (as ``_u64``)."""
    if cython.compiled:
        return x
    return int(x)


def _f64(x):
    """``x`` as a double (as ``_u64``: a numpy float32 in plain Python would keep its own
    precision in arithmetic with Python floats)."""
    if cython.compiled:
        return x
    return float(x)


def _check_range(bound, lo, hi, n, length):
    """The buffers are bound, envs ``lo .. hi-1`` exist and an argument of ``length``
    entries covers them."""
    if not bound:
        raise ValueError("the batch has no buffers yet (bind)")
    if not (0 <= lo <= hi <= n and length == n):
        raise ValueError(f"envs {lo}..{hi - 1} of {n}, with {length} entries")
