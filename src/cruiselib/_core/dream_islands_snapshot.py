"""Dream Islands snapshots: checking a decoded snapshot and loading it into a core.

Compiled by Cython like the core (runs as Python too); its ``.pxd`` cimports the core's
classes, so the checks read and the setter writes the core's arrays at C speed. The rules
and rulings I1 ... I16 cited here are in ``docs/dream_islands.md``.

The raw-state pair: the core's ``_get_raw()`` gives the full state as a dict of plain
values, :func:`set_raw` here puts such a dict into a core and derives the rest. It is the
one way a full state goes into a core: :func:`load_checked` (what the core's
``_load_checked``, the contract of ``engine.py``, runs) checks everything a snapshot says,
then builds the raw values and sets them; tests set positions through it as well.

Speed of ``game.load_state(json)`` when the checks left the core (4 seats, positions
after 0, 40 and 130 moves of seeded random play, the min of 15 repeats of CPU time):
compiled 6.9 / 9.0 / 12.4 us before, 8.3 / 10.3 / 13.9 us after (x1.12 .. 1.20; the
decoding is most of it; ``_load`` alone 1.1 -> 2.4 us, the checks and ``set_raw`` passing
over the lists twice); pure 42 / 50 / 53 us before, 50 / 59 / 63 us after (x1.19).
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib.errors import InvalidStateError

from .rng import SPLITMIX64 as _SPLITMIX64

if not cython.compiled:
    # The core's enum constants (its .pxd; compiled, they are C constants cimported from it).
    from cruiselib._core.constants import enum_constants

    globals().update(enum_constants(__name__.rpartition(".")[2].removesuffix("_snapshot")))  # the core's .pxd

MASK64 = _SPLITMIX64[3]
_BAD = "invalid Dream Islands state: "


# ---------------------------------------------------------------------- the setter


def set_raw(core, raw):
    """Put the full state ``raw`` into ``core`` (a state of the same rules): a dict as the
    core's ``_get_raw()`` returns it, every value right for the rules (the loader checks a
    snapshot before it comes here). Derived values are recomputed, never read: the pieces
    per place (all seats, and packed 4 bits a place), the movable pieces, middle points and
    count (I1), mission counts, and the end signal (I7)."""
    n = core.rules.num_players
    small = raw["small"]
    core.players = n
    core.middle_count = 0
    for i in range(3):
        core.small_islands[i] = small[i]
        if small[i] >= 0:
            core.middle_count += 1
    for i in range(NLOC):
        core.place_total[i] = 0
    pieces = raw["pieces"]
    main = raw["main"]
    covered = raw["covered"]
    hands = raw["hands"]
    piles = raw["piles"]
    known = raw["known"]
    done = raw["done"]
    avoids = raw["hand_avoids"]
    ending = False
    for p in range(MAXP):
        if p < n:
            _set_seat(core, p, pieces[p], main[p], covered[p], hands[p], piles[p], known[p], done[p], avoids[p])
            if core.completed_count[p] == NMIS:
                ending = True  # I7: the last mission is done
        else:
            _clear_seat(core, p)
    core.phase = raw["phase"]
    core.current_seat = raw["cur"]
    core.rounds = raw["rounds"]
    core.end_signalled = ending or core.middle_count >= 6  # I7
    core.rng = raw["rng"] & MASK64


def _set_seat(core, p, row, m, covered, hand, pile, known, mask, rows):
    """Seat p's part of the raw state into the core (see :func:`set_raw`)."""
    o = p * NLOC
    cnt = 0
    pk = 0
    for i in range(NLOC):
        c = row[i]
        core.pieces[o + i] = c
        core.place_total[i] += c
        cnt += c
        cu = c
        pk |= cu << (4 * i)
    core.movable_pieces[p] = cnt
    core.packed_pieces[p] = pk
    core.main_island[p] = m
    core.middle_count += m
    pts = m
    for i in range(3):
        if core.small_islands[i] == p:
            pts += 3 if i == 0 else 2
    core.middle_points[p] = pts
    core.covered[p] = covered
    h = len(hand)
    for i in range(h):
        core.hand[p * HAND + i] = hand[i]
    core.hand_size[p] = h
    k = len(pile)
    for i in range(k):
        core.pile[p * NMIS + i] = pile[i]
    core.pile_size[p] = k
    core.under_count[p] = known
    core.completed[p] = mask
    k = 0
    for i in range(NMIS):
        k += (mask >> i) & 1
    core.completed_count[p] = k
    for i in range(HAND):
        core.hand_memory[p * HAND + i] = rows[i] if i < h else 0


def _clear_seat(core, p):
    """A seat the rules do not seat: nothing of it anywhere."""
    for i in range(NLOC):
        core.pieces[p * NLOC + i] = 0
    core.movable_pieces[p] = 0
    core.packed_pieces[p] = 0
    core.main_island[p] = 0
    core.middle_points[p] = 0
    core.covered[p] = 0
    core.hand_size[p] = 0
    core.pile_size[p] = 0
    core.under_count[p] = 0
    core.completed[p] = 0
    core.completed_count[p] = 0
    for i in range(HAND):
        core.hand_memory[p * HAND + i] = 0


# ---------------------------------------------------------------------- the loader


def load_checked(core, d, history):
    """Check a decoded DreamIslandsStateData and load it into ``core`` (the game checked the
    header: game, players, options). Raises InvalidStateError naming the problem.

    Every value is checked before it is used, so a tampered state never reaches the
    arrays: first everything the snapshot says alone, then the raw values are built and
    set (:func:`set_raw`), then what needs the loaded position. Meant for a fresh state: a
    failed load leaves it half written.

    Two kinds of checks: that the state is consistent in itself (every piece and card
    exactly once, the phase, whose turn, the exchange), and, with ``history``, that the
    turns played so far can have led to it (shells, steps, missions and cards put under
    per turn, when the end was signalled). ``history=False`` is for rule tests that set
    up positions no game reaches.
    """
    R = core.rules
    n = R.num_players
    pieces = d.pieces
    small = d.small_islands
    main = d.main_island
    completed = d.completed
    hands = d.hands
    piles = d.piles
    known = d.known
    avoids = d.hand_avoids
    if (
        len(pieces) != n
        or len(main) != n
        or len(d.covered) != n
        or len(hands) != n
        or len(piles) != n
        or len(known) != n
        or len(avoids) != n
        or len(completed) != n
    ):
        raise InvalidStateError(
            f"{_BAD}pieces, main_island, covered, hands, piles, known, hand_avoids and completed must "
            f"have one entry per seat ({n})"
        )
    _check_small_islands(small, n)
    covered = d.covered
    masks = []
    done = []
    ending = False
    for p in range(n):
        _check_pieces(p, pieces[p], main[p], small)
        masks.append(_covered_mask(p, covered[p]))
        done.append(_check_missions(p, hands[p], piles[p], completed[p]))
        if len(completed[p]) == NMIS:
            ending = True  # I7: the last mission is done
        k = known[p]
        if k < 0 or k > len(piles[p]):
            raise InvalidStateError(f"{_BAD}seat {p} put {k} cards under a pile of {len(piles[p])}")
    if _middle_count(main, small, n) >= 6:
        ending = True  # I7
    phase = _phase(d.phase)
    cur = _check_turn(phase, d.rounds, d.current_player, R.round_limit, n, ending)
    _check_hands(phase, cur, hands, piles, masks, n)
    # The hand memory (I16) is checked from the snapshot alone, but its verdict comes after
    # the check of the mover's hand, which needs the loaded position.
    memory_error = None
    for p in range(n):
        memory_error = _memory_error(p, avoids[p], hands[p], done[p])
        if memory_error is not None:
            avoids = [[0] * len(cards) for cards in hands]  # set, but never kept: the load fails
            break
    raw = {
        "rng": int(d.rng, 16),
        "phase": phase,
        "cur": cur,
        "rounds": d.rounds,
        "pieces": pieces,
        "small": small,
        "main": main,
        "covered": masks,
        "hands": hands,
        "piles": piles,
        "known": known,
        "done": done,
        "hand_avoids": avoids,
    }
    set_raw(core, raw)
    if phase == PH_EXCHANGE:
        _check_mover_hand(core, cur)
    if memory_error is not None:
        raise InvalidStateError(memory_error)
    if history:
        _check_history(core, phase, cur, d.rounds, ending)


def _check_small_islands(small, n):
    """I1: the small islands, in order 3, 2, 2, hold a seat each or nobody (-1)."""
    if len(small) != 3:
        raise InvalidStateError(f"{_BAD}there are three small islands")
    for i in range(3):
        s = small[i]
        if s < -1 or s >= n:
            raise InvalidStateError(f"{_BAD}seat {s} on a small island does not exist")
    if (small[0] < 0 and small[1] >= 0) or (small[1] < 0 and small[2] >= 0):
        raise InvalidStateError(f"{_BAD}the small islands fill in order 3, 2, 2 (I1)")


def _check_pieces(p, row, main, small):
    """Seat p's six pieces: on the airplane and islands 1..8 (``row``), ``main`` on the
    main island, and the small islands it holds."""
    if len(row) != NLOC:
        raise InvalidStateError(f"{_BAD}pieces[{p}] lists the airplane and islands 1..8")
    cnt = 0
    for i in range(NLOC):
        c = row[i]
        if c < 0 or c > PIECES:
            raise InvalidStateError(f"{_BAD}pieces[{p}][{i}] must be 0..{PIECES}")
        cnt += c
    m = main
    if m < 0 or m > PIECES:
        raise InvalidStateError(f"{_BAD}main_island[{p}] must be 0..{PIECES}")
    for i in range(3):
        if small[i] == p:
            m += 1
    if cnt + m != PIECES:
        raise InvalidStateError(f"{_BAD}seat {p} has {cnt + m} pieces, not {PIECES}")


def _covered_mask(p, numbers):
    """I2: seat p's numbers under a shell (a set of 2..5, written ascending) as a mask."""
    mask = 0
    for x in numbers:
        if x < 2 or x > MAXN:
            raise InvalidStateError(f"{_BAD}seat {p} covers {x}: the numbers are 2..5")
        b = 1 << (x - 2)
        if mask & b:
            raise InvalidStateError(f"{_BAD}seat {p} covers a number twice")
        if mask >= b:  # a set, written ascending: any other order is not a snapshot
            raise InvalidStateError(f"{_BAD}seat {p}'s covered numbers must be listed in ascending order")
        mask |= b
    return mask


def _check_missions(p, hand, pile, completed):
    """Seat p's 16 missions, each exactly once: in the hand (at most 3), the pile (bottom
    first) or completed (a set, written ascending). One loop for the three places (kind
    0, 1, 2). Returns the completed ones as a mask."""
    seen = 0
    dup = 0
    done = 0
    for kind in range(3):
        cards = hand if kind == 0 else (pile if kind == 1 else completed)
        k = len(cards)
        if kind == 0 and k > HAND:
            raise InvalidStateError(f"{_BAD}seat {p} holds {k} missions, more than {HAND}")
        if kind == 1 and k > NMIS:
            raise InvalidStateError(f"{_BAD}seat {p}'s pile holds more than {NMIS} missions")
        if kind == 2 and k > NMIS:
            raise InvalidStateError(f"{_BAD}seat {p} completed more than {NMIS} missions")
        for i in range(k):
            x = cards[i]
            if x < 0 or x >= NMIS:
                raise InvalidStateError(f"{_BAD}mission {x} does not exist (ids 0..15)")
            b = 1 << x
            dup |= seen & b
            seen |= b
            if kind == 2:
                if done >= b and not dup:  # a set, written ascending
                    raise InvalidStateError(f"{_BAD}seat {p}'s completed missions must be listed in ascending order")
                done |= b
    if dup:
        raise InvalidStateError(
            f"{_BAD}seat {p}'s mission(s) {[j for j in range(NMIS) if (dup >> j) & 1]} appear twice"
        )
    if seen != 0xFFFF:
        raise InvalidStateError(
            f"{_BAD}seat {p}'s mission(s) {[j for j in range(NMIS) if not (seen >> j) & 1]} are nowhere"
        )
    return done


def _middle_count(main, small, n):
    """I1: the pieces in the middle; the main island only after the three small islands."""
    mid_n = 0
    for p in range(n):
        mid_n += main[p]
    if mid_n > 0 and small[2] < 0:
        raise InvalidStateError(f"{_BAD}pieces reach the main island only after the three small islands are taken (I1)")
    for i in range(3):
        if small[i] >= 0:
            mid_n += 1
    return mid_n


def _phase(name):
    """The phase a snapshot names (PHASES)."""
    if name == "move":
        return PH_MOVE
    if name == "exchange":
        return PH_EXCHANGE
    if name == "over":
        return PH_OVER
    raise InvalidStateError(f"{_BAD}phase must be 'move', 'exchange' or 'over', not {name!r}")


def _check_turn(phase, rounds, cur, limit, n, ending):
    """Rounds and whose turn (I7, I9, I15); the seat whose turn it is (the last seat once
    the game is over: it played last)."""
    if rounds < 0 or rounds > limit:
        raise InvalidStateError(
            f"{_BAD}{rounds} rounds played: a game ends after {limit} rounds at the latest (I9, I15)"
        )
    if phase == PH_OVER:
        if cur != -1:
            raise InvalidStateError(f"{_BAD}current_player must be -1 once the game is over")
        if rounds < 1:
            raise InvalidStateError(f"{_BAD}the game ends after a complete round (I7)")
        if not ending and rounds != limit:
            raise InvalidStateError(f"{_BAD}the game ends only after the end was signalled or the round limit (I7, I9)")
        return n - 1
    if cur < 0 or cur >= n:
        raise InvalidStateError(f"{_BAD}current_player must be a seat 0..{n - 1} while the game runs")
    if rounds >= limit:
        raise InvalidStateError(
            f"{_BAD}the round limit is reached ({rounds} of {limit} rounds) but the game runs (I9, I15)"
        )
    return cur


def _check_hands(phase, cur, hands, piles, covered, n):
    """The hands and the exchange (I2, I6, I12)."""
    for p in range(n):
        if phase == PH_EXCHANGE and p == cur:
            if len(hands[p]) == 0:
                raise InvalidStateError(
                    f"{_BAD}no exchange without a card in hand: with an empty hand the draw happens at once (I12)"
                )
        elif len(hands[p]) != HAND and len(piles[p]) > 0:
            raise InvalidStateError(f"{_BAD}seat {p} must hold 3 missions while its pile has cards (I6)")
    if phase == PH_MOVE and covered[cur] == 15:
        raise InvalidStateError(f"{_BAD}all four numbers are covered at the start of a turn: the shells come off (I2)")
    if phase == PH_EXCHANGE and covered[cur] == 0:
        raise InvalidStateError(f"{_BAD}the exchange comes after covering a number (I6)")


def _check_mover_hand(core, cur):
    """I5, I13: in its exchange the mover holds no mission that holds after its move."""
    mask = core._mission_mask(cur)
    for i in range(core.hand_size[cur]):
        x = core.hand[cur * HAND + i]
        if (mask >> x) & 1:
            raise InvalidStateError(
                f"{_BAD}seat {cur} holds '{core.rules.schema.mission_name(x)}', which holds after its move and would "
                "have been completed (I5, I13)"
            )


def _memory_error(p, rows, hand, done):
    """What is wrong with seat p's hand memory (I16), or None: one set (a 16-bit mask) per
    card in its hand, level k + 1 inside level k, no completed mission, and true of the
    hand (k cards outside level k)."""
    h = len(hand)
    if len(rows) != h:
        return f"{_BAD}hand_avoids[{p}] has {len(rows)} set(s): one per card in seat {p}'s hand ({h}) (I16)"
    wider = 0xFFFF
    for k in range(h):
        mask = rows[k]
        if mask != 0:  # (an empty set is always true, and inside any other)
            if mask < 0 or mask > 0xFFFF:
                return f"{_BAD}hand_avoids[{p}][{k}] is a set of missions 0..15, bit m for m"
            if mask & done:
                return f"{_BAD}hand_avoids[{p}][{k}] lists a completed mission: no hand holds one (I16)"
            if mask & ~wider:
                return (
                    f"{_BAD}hand_avoids[{p}][{k}] must be part of hand_avoids[{p}][{k - 1}]: what k + 1 cards "
                    "are not, k of them are not either (I16)"
                )
            free = 0
            for i in range(h):
                x = hand[i]
                if not (mask >> x) & 1:
                    free += 1
            if free <= k:
                return (
                    f"{_BAD}seat {p}'s hand has {free} card(s) outside hand_avoids[{p}][{k}], not {k + 1}: "
                    "the memory of play is not true of it (I16)"
                )
        wider = mask
    return None


# ---------------------------------------------------------------------- history


def _check_history(core, phase, cur, rounds, ending):
    """What the turns played so far allow (the position loaded, the rest checked).

    Seat p has had t turns (``rounds``, plus the current one if it has moved in this
    round). Every turn covers one number (I2, I3), so the shells follow from t; with a
    movable piece left every turn moved its whole number, so the steps the seat took
    are the numbers it covered (:func:`_check_steps`).
    """
    low = 0
    for p in range(core.players):
        moved = phase != PH_OVER and (p < cur or (p == cur and phase == PH_EXCHANGE))
        t = rounds + 1 if moved else rounds
        # Shells: one per turn; all four come off at the start of the turn after they
        # are all covered (I2), i.e. for the seat to move now when t is a multiple of 4.
        if phase == PH_MOVE and p == cur:
            c = t % 4
        else:
            c = 0 if t == 0 else (t - 1) % 4 + 1
        mask = core.covered[p]
        have = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)
        if have != c:
            raise InvalidStateError(
                f"{_BAD}seat {p} has {have} shell(s) on its board after {t} turn(s), not {c}: every turn "
                "covers one number, all four come off when the next turn starts (I2)"
            )
        if t == 0 and (core.hand_memory[p * HAND] or core.hand_memory[p * HAND + 1] or core.hand_memory[p * HAND + 2]):
            raise InvalidStateError(
                f"{_BAD}seat {p} has not moved yet, so play has shown nothing of its hand: its "
                "hand_avoids must be empty (I16)"
            )
        if core.completed_count[p] > 3 * t:
            raise InvalidStateError(
                f"{_BAD}seat {p} completed {core.completed_count[p]} missions in {t} turn(s): at most the 3 in "
                "hand a turn (I5)"
            )
        _check_under(core, p, t, phase == PH_EXCHANGE and p == cur)
        mid = _check_steps(core, p, t, c)
        # When was the end signalled? Pieces reach the middle and missions are
        # completed only in the owner's own turn, at most 5 pieces a turn.
        if moved:
            if mid > MAXN:
                low += mid - MAXN
        else:
            low += mid
            if ending and phase != PH_OVER and core.completed_count[p] == NMIS:
                raise InvalidStateError(
                    f"{_BAD}seat {p} has not moved in this round but completed its last mission: that was "
                    "in an earlier round, the game would be over (I7)"
                )
    if ending and phase != PH_OVER and low >= 6:
        raise InvalidStateError(
            f"{_BAD}six pieces were in the middle before this round's moves: the end was signalled in an "
            "earlier round, the game would be over (I7)"
        )


def _check_under(core, p, t, exchanging):
    """I6: at most the 3 cards of the hand go under the pile a turn. In the mover's
    exchange every card it puts under leaves its hand, so the cards under its pile and
    those still in its hand are at most 3 a turn together: a tighter bound, and the one
    the rest of its exchange keeps (a state reached by play reloads)."""
    under = core.under_count[p]
    if exchanging:
        under += core.hand_size[p]
    if under > 3 * t:
        if under > core.under_count[p]:
            raise InvalidStateError(
                f"{_BAD}seat {p} put {core.under_count[p]} cards under its pile and holds {core.hand_size[p]} "
                f"in {t} turn(s) of its exchange: at most the 3 in hand a turn (I6)"
            )
        raise InvalidStateError(
            f"{_BAD}seat {p} put {core.under_count[p]} cards under its pile in {t} turn(s): at most the "
            "3 in hand a turn (I6)"
        )


def _check_steps(core, p, t, c):
    """I3, I8: seat p's pieces must be where the numbers it covered in its t turns (c
    shells on its board now) can take them: each piece's path is its shortest one plus
    whole laps of the 8-island ring. Returns the seat's pieces in the middle."""
    o = p * NLOC
    if core.pieces[o] > PIECES - 1:
        raise InvalidStateError(
            f"{_BAD}seat {p} has {core.pieces[o]} pieces on the airplane: its sixth piece starts on "
            f"island {p + 1} and no piece returns to the airplane (I8)"
        )
    # Steps from the airplane: island i is i, the middle 9 (from island 8), plus laps.
    mid = core.main_island[p]
    for i in range(3):
        if core.small_islands[i] == p:
            mid += 1
    dist = 9 * mid
    far = mid > 0
    for i in range(1, NLOC):
        dist += i * core.pieces[o + i]
        if i > p and core.pieces[o + i] > 0:
            far = True
    # The sixth piece started on island p + 1, p + 1 steps ahead: a piece on island
    # p + 1 or beyond (or in the middle) saves p + 1 steps, one behind it 7 - p
    # (it needs a lap less than from the airplane); modulo 8 both are the same.
    need = dist - (p + 1) if far else dist + 7 - p
    cycles = (t - c) // 4
    steps = 14 * cycles  # 2 + 3 + 4 + 5 for every full set of shells
    mask = core.covered[p]
    for i in range(4):
        if (mask >> i) & 1:
            steps += i + 2
    if steps < need or (core.movable_pieces[p] > 0 and (steps - need) % 8 != 0):
        raise InvalidStateError(
            f"{_BAD}seat {p}'s pieces are {need} steps (plus whole laps of the ring) from where they "
            f"started, but the numbers it covered in {t} turn(s) add up to {steps} steps (I3)"
        )
    return mid
