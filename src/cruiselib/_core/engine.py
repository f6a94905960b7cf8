"""The compiled game contract: what every game core implements, and what is written once.

Every game core is a subclass of :class:`CoreRules` (immutable tables of one
configuration) and :class:`CoreState` (one position). A core implements a few C-level
methods, all without Python objects (``noexcept nogil`` when compiled):

==================  ======================================================================
``c_current()``     the seat to decide, -1 once the game is over
``c_legal()``       computes the legal action ids (sorted) into the core's buffer; their count
``c_legal_at(i)``   the i-th of them
``c_check(a)``      0 if action ``a`` (in range) is legal now, else an index into ``reasons``
``c_do(a)``         applies a legal action
``c_score(p)``      seat p's running or final score
``c_winners_mask``  a bit per winning seat once the game is over (0 while running or a draw)
``c_copy_into(d)``  copies the position into ``d``, a state of the same class (with the GIL)
``c_init_arrays``   pure-Python mode only: the lists that stand in for the C arrays
``c_resample(s,k)`` deals anew, from ``self.rng``, everything seat s cannot see (k: recall)
``c_observe(s, o)`` writes seat s's observation tensor into the zeroed float32 buffer o
``_setup(r, s)``    sets up a new game from the generator state r, seat s to start (-1:
                    drawn in the deal; a game whose start seat is fixed ignores it)
==================  ======================================================================

and, for its wrapper (the game's State class), a few Python-level methods, each with one
signature in every core:

=======================  =================================================================
``_view(seat, recall)``  seat's view Struct (``recall``: what perfect recall adds, or
                         ignored where it adds nothing)
``_export()``            the full state as the game's snapshot Struct
``_get_raw()``           the full state as a dict of plain Python values (rendering, tests)
``_load_checked(d, h)``  checks the decoded snapshot ``d`` and loads it, InvalidStateError
                         naming what is wrong (``h``: also that play can have led here)
=======================  =================================================================

and may override ``c_random_action(r)`` with something faster than the default (list the
legal actions, take one uniformly with the 64-bit random value ``r``) and
``c_info_state(s, o)`` where perfect recall of public events knows more than the table
shows (the default is the observation).

Everything else is written once, here, against those methods: ``c_deal``, ``_new_game``
and ``_load`` (the loading template), ``legal_actions``,
``action_mask``, ``is_legal``, ``apply``, ``clone``, ``scores``, ``winners``, the bounded
draw from the state's own generator, and playouts (new games, or from this position)
with the GIL released, which ``Game.playouts`` spreads over threads. This module is
compiled by Cython (types in ``engine.pxd``) and runs unchanged as plain Python.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

import numpy

from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

from .common import action_id, check_signals, illegal_message, query_id
from .rng import SPLITMIX64 as _SPLITMIX64
from .rng import mix64

GOLDEN, _, _, MASK64 = _SPLITMIX64  # the generator's constants have one home: rng.py
# The random choices of a playout come from a stream of their own, derived from the game's
# deal, so each game is reproducible alone (and threads can split a batch anywhere).
CHOICE_SALT = 0x5851F42D4C957F2D
# The same two numbers for Python code that replays a playout step by step.
PLAYOUT_STREAM = (GOLDEN, CHOICE_SALT)
# Games between two looks for Ctrl-C (each look takes the GIL for a moment).
SIGNAL_EVERY = 16
# The most actions a state keeps in its history; a longer game forgets its record (a
# snapshot's history list has this cap, so every state that play reaches still loads).
MAX_HISTORY = 1_000_000
HISTORY_LIMIT = MAX_HISTORY  # the same number, for Python code (MAX_HISTORY is C-only compiled)
# Batches up to this size from a position take the short path of ``playouts``.
SMALL_BATCH = 4096
# The stop flag of a single-threaded batch (nothing ever sets it), and the result dtypes,
# made once: the short path of ``playouts`` then looks nothing up.
_NO_STOP = numpy.zeros(1, dtype=numpy.int8)
_INT16 = numpy.dtype(numpy.int16)
_INT32 = numpy.dtype(numpy.int32)
_INT8 = numpy.dtype(numpy.int8)
_FLOAT32 = numpy.dtype(numpy.float32)


class CoreRules:
    """Immutable tables of one game configuration (a game's rules class extends this).

    ``num_players``, ``num_actions``, ``action_ints`` (the Python ints 0 .. num_actions-1,
    made once so listing legal actions allocates nothing) and ``reasons`` (why an action
    is illegal, indexed by ``c_check``'s result; index 0 is "legal"); ``schema`` and
    ``game_name``, handed in by the game (``_set_schema``).
    """

    def _init_contract(self, num_players, num_actions, reasons, observation=0, info_state=None):
        """Set the fields every configuration has (called by the game's ``__init__``).

        ``observation`` is the seat's observation tensor: its :class:`TensorLayout`
        (``tensor_layout.py``, the convention every core follows: fields declared once,
        offsets, size, ``observation_fields()`` and bounds derived from it), or a bare size
        for a core without tensors. ``info_state`` is the information-state tensor's layout
        where perfect recall knows more than the table shows (None: the same tensor).
        """
        self.num_players = num_players
        self.num_actions = num_actions
        self.action_ints = tuple(range(num_actions))
        self.reasons = tuple(reasons)
        if isinstance(observation, int):
            self.observation_layout = None
            self.observation_size = observation
        else:
            self.observation_layout = observation
            self.observation_size = observation.size
        if info_state is None:
            self.info_state_layout = self.observation_layout
            self.info_state_size = self.observation_size
        elif isinstance(info_state, int):
            self.info_state_layout = None
            self.info_state_size = info_state
        else:
            self.info_state_layout = info_state
            self.info_state_size = info_state.size
        self.distinct_info_state = info_state is not None and (not isinstance(info_state, int) or info_state >= 0)
        self.schema = None
        self.game_name = ""

    def _set_schema(self, schema, game_name):
        """Hand in what the core builds Python objects from (the game's ``_use_core`` calls
        this once): ``schema``, the module (or any namespace) holding the game's snapshot and
        view Struct classes and ``SCHEMA_VERSION``, and ``game_name``, the game's registered
        name, written into snapshots. So the cores import nothing from the game packages
        (which import the cores)."""
        self.schema = schema
        self.game_name = game_name


class CoreState:
    """One position of a game (a game's core state class extends this)."""

    def __init__(self, rules, game=None):
        self.c_init_arrays()
        self.core_rules = rules
        self.game = game
        self.rng = 0
        self._forget_history()

    # ------------------------------------------------------------------ the contract
    # Defaults that make a forgotten override visible instead of silently wrong.

    def c_current(self):
        return -1

    def c_legal(self):
        return 0

    def c_legal_at(self, i):
        return 0

    def c_check(self, action):
        return 1

    def c_do(self, action):
        pass

    def c_copy_into(self, dst):
        pass

    def _setup(self, rng_state, start_player):
        pass

    def c_score(self, seat):
        return 0

    def c_winners_mask(self):
        return 0

    def c_random_action(self, r):
        """A uniformly random legal action from the 64-bit random value r (default path)."""
        n = self.c_legal()
        return self.c_legal_at(((r >> 32) * n) >> 32)

    def c_rollout_action(self, r):
        """The action a search's rollout takes, from the 64-bit random value r: by default
        the uniformly random one. A core whose random playouts say little about who is
        ahead overrides it with a cheap policy of its own (docs/contract.md)."""
        return self.c_random_action(r)

    def c_prior_action(self, r):
        """The move the rollout policy prefers here, without its random moves, for the
        64-bit random value r (a search's prior); -1, the default, where it has none."""
        return -1

    def c_init_arrays(self):
        pass

    def c_resample(self, seat, recall):
        pass  # nothing hidden

    def c_observe(self, seat, out):
        pass

    def c_info_state(self, seat, out):
        """Perfect recall of public events (the default: what the table shows now)."""
        self.c_observe(seat, out)

    # The Python-level half, for the wrapper. No core can do without these: the defaults
    # raise, so a forgotten override fails at once.

    def _view(self, seat, recall):
        """Seat ``seat``'s view (the game's view Struct), ``seat`` checked by the caller;
        with ``recall``, what perfect recall of public events adds (a game whose table
        shows everything ignores it)."""
        raise NotImplementedError(f"{type(self).__name__} has no _view")

    def _export(self):
        """The full state as the game's snapshot Struct (what ``_load`` reads back)."""
        raise NotImplementedError(f"{type(self).__name__} has no _export")

    def _get_raw(self):
        """The full state as a dict of plain Python values (rendering, oracles, tests)."""
        raise NotImplementedError(f"{type(self).__name__} has no _get_raw")

    def _load_checked(self, data, history):
        """The game's half of ``_load``: check the decoded snapshot ``data`` and load it,
        raising InvalidStateError naming the first problem. ``history``: also check that
        play can have led here (a game with no such checks ignores it)."""
        raise NotImplementedError(f"{type(self).__name__} has no _load_checked")

    # ------------------------------------------------------------------ written once

    def c_deal(self, seed):
        """A new game from the 64-bit generator state ``seed``, the start seat drawn in it."""
        self._setup(seed, -1)

    def _new_game(self, rng_state, start_player):
        """Set up a new game from the generator state ``rng_state``; ``start_player`` is
        the seat to start, or -1 to draw it in the deal (checked by the game; a game whose
        start seat is fixed ignores it)."""
        self._setup(rng_state & MASK64, start_player)

    def _load(self, data, history=True):
        """Load the decoded snapshot ``data`` (its header checked by the game) into this
        fresh state; a failed load leaves it half written. The game's checks
        (``_load_checked``) raise InvalidStateError naming the problem; any other error
        they meet (a Struct that skipped msgspec's validation: a wrong type, a list too
        short, a number too large for a C int) becomes an InvalidStateError too.
        ``history=False`` skips the checks that play can have led here, for rule tests
        that set up positions no game reaches."""
        try:
            self._load_checked(data, history)
        except InvalidStateError:
            raise
        except (TypeError, ValueError, OverflowError, IndexError, KeyError, AttributeError) as exc:
            title = "cruiselib" if self.game is None else self.game.title
            raise InvalidStateError(f"invalid {title} state: {exc}") from None

    def c_below(self, n):
        """A uniform draw in [0, n) from the state's own generator (multiply-shift)."""
        self.rng = (self.rng + GOLDEN) & MASK64
        r = mix64(self.rng)
        return ((r >> 32) * n) >> 32

    def c_empty(self):
        """A new state of the same class, rules and game, its position not yet set."""
        cls = type(self)
        new = cls.__new__(cls)
        new.c_init_arrays()
        new.core_rules = self.core_rules
        new.game = self.game
        new.history_root = None  # pure mode: __new__ sets no fields (compiled: None already)
        new.history_tail = None
        new.origin = None
        new.history_count = 0
        return new

    @property
    def current_player(self):
        """The seat to decide now, or -1 once the game is over."""
        return self.c_current()

    @property
    def is_over(self):
        return self.c_current() < 0

    def legal_actions(self):
        """The legal action ids, sorted ascending (empty once the game is over)."""
        n = self.c_legal()
        ints = self.core_rules.action_ints
        return [ints[self.c_legal_at(i)] for i in range(n)]

    def action_mask(self):
        """An int8 array of shape (num_actions,): 1 where the action is legal."""
        mask = numpy.zeros(self.core_rules.num_actions, dtype=numpy.int8)
        mv = mask
        n = self.c_legal()
        for i in range(n):
            mv[self.c_legal_at(i)] = 1
        return mask

    def is_legal(self, action):
        """Whether ``action`` (an action id or a move, as ``apply`` takes) is legal now.

        An id out of range is not legal; an object that is no action raises IllegalMoveError.
        """
        a = query_id(action, self.game, self.core_rules.num_actions)
        return a >= 0 and self.c_check(a) == 0

    def apply(self, action, player=None):
        """Apply an action id or a move. Raises IllegalMoveError and leaves the state as it was.

        ``player``, when given, must be the seat to move (a guard for servers and UIs).
        """
        current = self.c_current()
        a = action_id(action, player, current, self.game, self.core_rules.num_actions)
        code = self.c_check(a)
        if code != 0:
            raise IllegalMoveError(illegal_message(self.game, a, current, self.core_rules.reasons[code]))
        self.c_do(a)
        if self.history_root is not None:
            # One 2-tuple per action, shared by clones: recording never copies the history.
            if self.history_count < MAX_HISTORY:
                self.history_tail = (self.history_tail, self.core_rules.action_ints[a])
                self.history_count += 1
            else:
                self._forget_history()

    def clone(self):
        """An independent copy (same class, same game, same history)."""
        new = self.c_empty()
        self.c_copy_into(new)
        new.origin = self.origin
        new.history_root = self.history_root
        new.history_tail = self.history_tail
        new.history_count = self.history_count
        return new

    # ------------------------------------------------------------------ history
    # ``origin`` says where the history starts: the deal (generator state, start seat) of
    # ``new_state``, or the decoded snapshot a state was loaded from; None for a state made
    # by ``resample`` (no history is kept). ``history_root`` holds the actions loaded with a
    # snapshot, ``history_tail`` the later ones as a chain of (previous, action) pairs.

    def _start_history(self, origin, actions):
        """Keep a history from ``origin`` on, beginning with ``actions`` (a sequence of ints)."""
        self.origin = origin
        self.history_root = tuple(actions)
        self.history_tail = None
        self.history_count = len(self.history_root)

    def _forget_history(self):
        self.origin = None
        self.history_root = None
        self.history_tail = None
        self.history_count = 0

    def _history(self):
        """The actions applied since ``origin``, oldest first ([] when none are kept)."""
        if self.history_root is None:
            return []
        later = []
        node = self.history_tail
        while node is not None:
            later.append(node[1])
            node = node[0]
        later.reverse()
        return list(self.history_root) + later

    def _origin(self):
        return self.origin

    def _assign(self, other):
        """Make this state a copy of ``other`` (same class and game), history included."""
        other.c_copy_into(self)
        self.origin = other.origin
        self.history_root = other.history_root
        self.history_tail = other.history_tail
        self.history_count = other.history_count

    def scores(self):
        """Each seat's score (running while the game goes on, final at the end)."""
        return [self.c_score(p) for p in range(self.core_rules.num_players)]

    def winners(self):
        """The winning seats, ascending; [] while the game runs or after a draw."""
        m = self.c_winners_mask()
        return [p for p in range(self.core_rules.num_players) if (m >> p) & 1]

    def _seat(self, player):
        """``player`` as a seat index (an int or numpy integer in range), else InvalidOptionError."""
        if type(player) is int and 0 <= player < self.core_rules.num_players:
            return player
        return self.game.check_player(player)

    def _resampled(self, seat, rng, recall):
        """A copy whose cards unseen by ``seat`` are dealt anew from the generator state ``rng``."""
        new = self.c_empty()
        self.c_copy_into(new)
        new.rng = rng & MASK64
        with cython.nogil:
            new.c_resample(seat, recall)
        return new

    def observation(self, player, out=None):
        """Seat ``player``'s observation: a float32 array of shape ``game.observation_shape``
        made only from what that seat sees (``game.observation_fields()`` names its parts).

        ``out``, a C-contiguous float32 array of that shape, is filled and returned instead
        of a new array (no allocation, for training loops).
        """
        return self._tensor(player, out, False)

    def information_state(self, player, out=None):
        """Seat ``player``'s information state: the observation plus what perfect recall of
        public events adds (the same as :meth:`observation` where the game's table keeps
        nothing from view; see ``game.information_state_fields()``). ``out`` as there."""
        return self._tensor(player, out, True)

    def _tensor(self, player, out, info):
        seat = self._seat(player)
        size = self.core_rules.info_state_size if info else self.core_rules.observation_size
        fresh = out is None
        if fresh:
            arr = numpy.zeros(size, _FLOAT32)
            buf = arr
        elif cython.compiled and type(out) is numpy.ndarray:
            # Taking the typed view checks dtype, dimensions, contiguity and writeability at once.
            try:
                buf = out
            except (ValueError, TypeError, BufferError):
                raise InvalidOptionError(_bad_out(out, size)) from None
            if buf.shape[0] != size:
                raise InvalidOptionError(_bad_out(out, size))
            arr = out
        else:
            arr = _tensor_buffer(out, size)
            buf = arr
        with cython.nogil:
            if not fresh:
                for i in range(size):
                    buf[i] = 0.0
            if info:
                self.c_info_state(seat, buf)
            else:
                self.c_observe(seat, buf)
        return arr

    def random_action(self, r):
        """The action the core's playouts take for the 64-bit random value ``r`` (uniform
        over the legal actions; the same choice as in ``playouts``)."""
        if self.c_current() < 0:
            raise IllegalMoveError("the game is over: there is no action to take")
        return self.c_random_action(r & MASK64)

    def rollout_action(self, r):
        """The action a search's rollout takes for the 64-bit random value ``r``: the
        game's rollout policy where it has one (Atlantic Star, Dream Cruise), else the same
        choice as ``random_action``. Always a legal action."""
        if self.c_current() < 0:
            raise IllegalMoveError("the game is over: there is no action to take")
        return self.c_rollout_action(r & MASK64)

    def prior_action(self, r):
        """The move the game's rollout policy prefers here, without its random moves, for
        the 64-bit random value ``r`` (a search's prior, ``ISMCTSBot(prior_weight=...)``):
        a legal action, or -1 where the policy has no preference (always in Sirens in Sight
        and Dream Islands, which have no policy)."""
        if self.c_current() < 0:
            raise IllegalMoveError("the game is over: there is no action to take")
        return self.c_prior_action(r & MASK64)

    def playouts(self, n, seed=0, threads=1):
        """Play ``n`` random games on from this position, entirely in the compiled core.

        For Monte Carlo evaluation and search. Each playout starts from a copy of this
        state with its generator reseeded (``mix64(seed_state(seed) + g)``), so later chance
        events vary while the cards already dealt stay where they are (``resample`` first to
        vary what a seat cannot see). ``random_action`` gives the choice a playout makes for
        a random value, so a Python loop can reproduce a playout exactly. The state itself is
        left unchanged; ``threads`` as in ``Game.playouts``. Returns a ``Playouts``.
        """
        if (
            type(n) is int
            and type(seed) is int
            and type(threads) is int
            and threads == 1
            and 0 <= n <= SMALL_BATCH
            and 0 <= seed <= MASK64
        ):
            # The common call of a search loop, without the general path's Python layers:
            # for such seeds seed_state(seed) is mix64(seed).
            players = self.core_rules.num_players
            scores = numpy.empty((n, players), _INT16)
            lengths = numpy.empty(n, _INT32)
            wins = numpy.empty((n, players), _INT8)
            first_seats = numpy.empty(n, _INT8)
            actions = self.c_playouts(
                self.c_empty(), True, 0, n, mix64(seed), scores, lengths, wins, first_seats, _NO_STOP
            )
            return self.game.playouts_type(
                scores=scores, lengths=lengths, wins=wins, actions=actions, first_seats=first_seats
            )
        return self.game._state_playouts(self, n, seed, threads)

    def _reseed(self, rng):
        """Set the generator state (what a playout from this position does first)."""
        self.rng = rng & MASK64

    def c_playouts(self, work, from_here, first, count, seed, scores, lengths, wins, first_seats, stop):
        """Play games ``first .. first+count-1`` of a batch with the GIL released; return the
        number of actions. Game g starts from this position (``from_here``, copied into
        ``work``, its generator reseeded with ``mix64(seed + g)`` so later chance varies) or
        from a new deal ``c_deal(mix64(seed + g))`` in ``work``. Results go to row ``g - first``
        (``first_seats``: the seat to act first in each game, as the core had it).
        A nonzero ``stop[0]`` (set by another thread) ends the batch early.
        """
        total = 0
        with cython.nogil:
            for g in range(first, first + count):
                if stop[0] != 0:
                    break
                if (g - first) % SIGNAL_EVERY == 0:
                    with cython.gil:
                        check_signals()  # Ctrl-C stops a long batch between two games
                r = mix64((seed + g) & MASK64)
                if from_here:
                    with cython.gil:
                        self.c_copy_into(work)
                    work.rng = r
                else:
                    work.c_deal(r)
                total += _play_out(work, mix64(r ^ CHOICE_SALT), g - first, scores, lengths, wins, first_seats)
        return total


def _tensor_buffer(out, size):
    """``out`` checked to be a writeable C-contiguous float32 array of length ``size``."""
    if (
        not isinstance(out, numpy.ndarray)
        or out.dtype != numpy.float32
        or out.shape != (size,)
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise InvalidOptionError(_bad_out(out, size))
    return out


def _bad_out(out, size):
    if isinstance(out, numpy.ndarray):
        what = f"an array of dtype {out.dtype} and shape {out.shape}"
        if out.dtype == numpy.float32 and out.shape == (size,):
            what += " that is not C-contiguous and writeable"
    else:
        what = repr(type(out).__name__)
    return f"out must be a writeable C-contiguous float32 numpy array of shape ({size},), not {what}"


def _play_out(st, r, g, scores, lengths, wins, first_seats):
    """Random actions until the game ends; the result in row g. Returns the actions taken."""
    first_seats[g] = st.c_current()
    steps = 0
    while st.c_current() >= 0:
        r = (r + GOLDEN) & MASK64
        st.c_do(st.c_random_action(mix64(r)))
        steps += 1
    np = st.core_rules.num_players
    m = st.c_winners_mask()
    for p in range(np):
        scores[g, p] = st.c_score(p)
        wins[g, p] = (m >> p) & 1
    lengths[g] = steps
    return steps
