"""Atlantic Star: putting a full state into the core, checked or not (compiled by Cython,
runs as Python too).

Two ways in, one way to write:

* :func:`set_raw` writes a raw state (the dict ``AtlanticCore._get_raw`` returns: plain
  values, money in thousands) into a core and derives the rest (which class each sea
  holds, the voyages each seat staged and has left, the seas it borrowed in, which held
  ships are known). It trusts its input: tests and tools hand it states the core made.
* :func:`load_checked` is the core's ``_load_checked`` (the contract of ``engine.py``): it
  checks a decoded ``AtlanticStarStateData`` (its header checked by the game) section by
  section and writes each section with the same writers :func:`set_raw` is made of, once
  that section's values are known to be in range. Every index is checked before it is
  used, so a tampered state raises InvalidStateError and never reaches the arrays out of
  range. What the board determines (voyages staged and left, loans taken, the turns each
  seat has had) is derived from it, never read, and the recorded money, phase and seat to
  move must agree with it (docs/atlantic_star.md, "Saved states"; rulings A1 ... A14 are
  cited where they apply). The error texts are part of the API.

Types live in ``atlantic_star_snapshot.pxd``, which cimports the core's classes, so the
checks read the core's C fields and call its play-path helpers (``_value``,
``_max_legs``) directly. Measured ``game.load_state(json)``, the mean over six positions
of seeded random play (4 players, min of 7 repeats, process time, both builds side by
side): compiled 15.6 µs with the checks in the core, 18.0 µs here (1.16x: the checked
sections are written through the setters); pure 227 µs, 229 µs.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib.errors import InvalidStateError

from .atlantic_star import SEA_NAMES

if not cython.compiled:
    # The core's enum constants (compiled, cimported from atlantic_star.pxd).
    from cruiselib._core.constants import enum_constants

    globals().update(enum_constants(__name__.rpartition(".")[2].removesuffix("_snapshot")))  # the core's .pxd

_BAD = "invalid Atlantic Star state: "
_MASK64 = 0xFFFFFFFFFFFFFFFF


# ---------------------------------------------------------------------- the raw state


def set_raw(st, raw):
    """Write ``raw`` (a dict as ``st._get_raw()`` returns it) into ``st`` and derive the
    rest. Unchecked: for states the core made (tests, tools); snapshots go through
    :func:`load_checked`. ``raw["known"]`` may be left out (no held ship is known)."""
    _put_hands(st, raw["hands"], raw.get("known"))
    _put_piles(st, raw["agency"], raw["deck"], raw["discard"])
    seas = raw["seas"]
    _put_seas(st, [sea["class"] for sea in seas], [sea["plaques"] for sea in seas])
    _put_money(st, raw["money"])
    _put_turn(st, raw["phase"], raw["start"], raw["cur"])
    _finish(st, raw["rng"])


def _put_hands(st, hands, known):
    """Each seat's hand (sorted ship ids) and, of it, the ships every seat knows it holds
    (A14; ``known`` None: none)."""
    N = st.rules.num_players
    for p in range(MAXP):
        st.hand_size[p] = 0
        st.known_mask[p] = 0
    for p in range(N):
        cards = hands[p]
        n = len(cards)
        for i in range(n):
            c = cards[i]
            st.hand[p * HMAX + i] = c
            if known is not None and c in known[p]:
                st.known_mask[p] |= 1 << i
        st.hand_size[p] = n


def _put_piles(st, agency, deck, discard):
    """The agency's four spaces (-1 empty), the pack (top last) and the discard pile."""
    for i in range(AGENCY):
        st.agency[i] = agency[i]
    n = len(deck)
    for i in range(n):
        st.deck[i] = deck[i]
    st.deck_size = n
    n = len(discard)
    for i in range(n):
        st.discard[i] = discard[i]
    st.discard_size = n


def _put_seas(st, classes, plaques):
    """The board: each sea's class (-1: none yet) and its plaques in rank order, each
    ``(plaque id, value, loan in thousands, ships by leg)``; derives the classes held, and
    per seat the voyages staged per sea, the voyages left and the seas it borrowed in."""
    R = st.rules
    N = R.num_players
    for p in range(MAXP):
        st.voyages_left[p] = NSEA * R.sets if p < N else 0
        for s in range(NSEA):
            st.voyages_staged[p * NSEA + s] = 0
            st.borrowed[p * NSEA + s] = 0
    for c in range(NCLASS):
        st.class_sea[c] = -1
    for s in range(NSEA):
        cls = classes[s]
        st.sea_class[s] = cls
        if cls >= 0:
            st.class_sea[cls] = s
        for i in range(NPL):
            st.plaque_value[s * NPL + i] = 0
            st.plaque_loan[s * NPL + i] = 0
        row = plaques[s]
        n = len(row)
        st.fields_taken[s] = n
        for i in range(n):
            pid, value, loan, ships = row[i]
            st.field_plaque[s * NFIELD + i] = pid
            st.plaque_value[s * NPL + pid] = value
            st.plaque_loan[s * NPL + pid] = loan
            if pid < NPP:
                p = pid >> 1
                st.voyages_staged[p * NSEA + s] += 1
                st.voyages_left[p] -= 1
                if loan > 0:
                    st.borrowed[p * NSEA + s] = 1
                for j in range(len(ships)):
                    st.plaque_ships[(s * NPP + pid) * MAXLEG + j] = ships[j]


def _put_money(st, money):
    """Each seat's money, in thousands of marks."""
    N = st.rules.num_players
    for p in range(MAXP):
        st.money[p] = money[p] if p < N else 0


def _put_turn(st, phase, start, cur):
    """The phase (PH_*), the start seat and the seat to move (the start seat once over)."""
    st.phase = phase
    st.start_seat = start
    st.current = cur


def _finish(st, rng):
    """The generator state; the view's cached seas are stale."""
    st.rng = rng & _MASK64
    st.view_seas_fresh = 0


# ---------------------------------------------------------------------- checking a snapshot


def load_checked(st, d, history):
    """Validate a decoded AtlanticStarStateData ``d`` and load it into ``st``;
    InvalidStateError if it is not a state that play can reach (always checked:
    ``history`` adds nothing). The sections in order, each relying on the ones before:
    the configuration, the ships off the board, the seas, the money, the loans, the turn."""
    _check_configuration(st, d)
    placed = _load_ship_zones(st, d)
    _load_seas(st, d, placed)
    total_left = _load_money(st, d)
    _check_loans(st)
    _load_turn(st, d, total_left)
    _finish(st, int(d.rng, 16))


def _zone_name(z):
    """Where a ship was seen (a zone code Z_*), for error messages."""
    if z < Z_AGENCY:
        return f"hands[{z - Z_HAND}]"
    if z < Z_DECK:
        return f"agency[{z - Z_AGENCY}]"
    if z == Z_DECK:
        return "deck"
    if z == Z_DISC:
        return "discard"
    s = (z - Z_PLAQUE) // NPP
    pid = (z - Z_PLAQUE) % NPP
    return f"the {SEA_NAMES[s]} plaque of seat {pid >> 1} (voyage {pid & 1})"


def _place(st, card, z):
    """Record that ship ``card`` is in zone ``z``: each ship exists and is in one place."""
    if card < 0 or card >= st.rules.num_ships:
        raise InvalidStateError(
            f"{_BAD}ship {card} in {_zone_name(z)} does not exist (the list has {st.rules.num_ships} ships)"
        )
    if st.seen_in[card] != 0:
        raise InvalidStateError(f"{_BAD}ship {card} appears twice ({_zone_name(st.seen_in[card])} and {_zone_name(z)})")
    st.seen_in[card] = z
    return 0


def _check_configuration(st, d):
    """The configuration: players, ship list, board, one hand and purse per seat, the start seat."""
    R = st.rules
    N = R.num_players
    if d.players != N:
        raise InvalidStateError(f"{_BAD}state is for {d.players} players, the game has {N}")
    if d.ship_list != R.digest:
        raise InvalidStateError(
            f"{_BAD}state was made with another ship list ({d.ship_list}, this game uses {R.digest})"
        )
    board = d.board
    if len(board) != NCLASS:
        raise InvalidStateError(f"{_BAD}the board has 5 classes")
    for c in range(NCLASS):
        col = board[c]
        if len(col) != NFIELD:
            raise InvalidStateError(f"{_BAD}a board class has 6 fields")
        for i in range(NFIELD):
            if col[i] != R.board_points[c * NFIELD + i]:
                raise InvalidStateError(f"{_BAD}state was made with another board table (A2)")
    hands = d.hands
    money = d.money
    if len(hands) != N or len(money) != N:
        raise InvalidStateError(f"{_BAD}money and hands list one entry per seat ({N})")
    start = d.start_player
    if start < 0 or start >= N:
        raise InvalidStateError(f"{_BAD}start player {start} is not a seat")


def _load_ship_zones(st, d):
    """Every ship off the board exactly once: hands (and which held ships every seat
    knows, A14), agency, pack, discard pile. The number of ships placed."""
    R = st.rules
    N = R.num_players
    for c in range(R.num_ships):
        st.seen_in[c] = 0
    for p in range(MAXP):
        st.turns[p] = 0
        st.credit[p] = R.start_money if p < N else 0
    placed = _check_hands(st, d.hands)
    _check_known(st, d.hands, d.known)
    _put_hands(st, d.hands, d.known)
    placed += _check_piles(st, d.agency, d.deck, d.discard)
    _put_piles(st, d.agency, d.deck, d.discard)
    return placed


def _check_hands(st, hands):
    """Each hand holds at most HMAX ships, each once, sorted. The ships placed."""
    N = st.rules.num_players
    placed = 0
    for p in range(N):
        cards = hands[p]
        n = len(cards)
        if n > HMAX:
            raise InvalidStateError(f"{_BAD}hands[{p}] holds more than {HMAX} ships")
        prev = -1
        for i in range(n):
            c = cards[i]
            _place(st, c, Z_HAND + p)
            if c <= prev:
                raise InvalidStateError(f"{_BAD}hands[{p}] must be sorted by ship id")
            prev = c
        # Every ship in a hand was chartered, one per turn (the board adds the voyages').
        st.turns[p] = n
        placed += n
    return placed


def _check_known(st, hands, known):
    """Which held ships every seat knows (A14): a part of each (checked) hand."""
    N = st.rules.num_players
    if len(known) != N:
        raise InvalidStateError(f"{_BAD}known lists one entry per seat ({N})")
    for p in range(N):
        cards = known[p]
        hand = hands[p]
        hn = len(hand)
        n = len(cards)
        j = 0
        prev = -1
        for i in range(n):
            c = cards[i]
            if c <= prev:
                raise InvalidStateError(f"{_BAD}known[{p}] must be sorted by ship id, each ship once")
            prev = c
            while j < hn and hand[j] < c:
                j += 1
            if j == hn or hand[j] != c:
                raise InvalidStateError(
                    f"{_BAD}known[{p}]: ship {c} is not in seat {p}'s hand (a seat is known "
                    "to hold only ships it holds, A14)"
                )
            j += 1


def _check_piles(st, agency, deck, discard):
    """The agency's four ships, the pack and the discard pile. The ships placed."""
    if len(agency) != AGENCY:
        raise InvalidStateError(f"{_BAD}the agency has four spaces")
    for i in range(AGENCY):
        x = agency[i]
        if x is None:
            raise InvalidStateError(f"{_BAD}agency space {i} is empty; the agency always offers four ships (A12)")
        _place(st, x, Z_AGENCY + i)
    n = len(deck)
    if n > MAXS:
        raise InvalidStateError(f"{_BAD}the pack is longer than any ship list")
    for i in range(n):
        _place(st, deck[i], Z_DECK)
    m = len(discard)
    if m > MAXS:
        raise InvalidStateError(f"{_BAD}the discard pile is longer than any ship list")
    for i in range(m):
        _place(st, discard[i], Z_DISC)
    return AGENCY + n + m


def _load_seas(st, d, placed):
    """The board: each sea's class and plaques, in rank order, with the ships of each
    voyage; then every ship is somewhere (``placed`` off the board before)."""
    R = st.rules
    seas = d.seas
    if len(seas) != NSEA:
        raise InvalidStateError(f"{_BAD}the board has four seas")
    classes = []
    rows = []
    taken = 0  # a bit per class some sea holds
    for s in range(NSEA):
        sea = seas[s]
        cls = _check_sea_class(s, sea.stars, len(sea.plaques), taken)
        classes.append(cls)
        if cls < 0:
            rows.append([])
            continue
        taken |= 1 << cls
        row = _check_plaques(st, s, sea.plaques)
        for i in range(len(row)):
            if row[i][0] < NPP:
                placed += R.legs[s]
        rows.append(row)
    if placed != R.num_ships:
        missing = [c for c in range(R.num_ships) if st.seen_in[c] == 0]
        raise InvalidStateError(f"{_BAD}ship(s) {missing[:8]} are nowhere")
    _put_seas(st, classes, rows)


def _check_sea_class(s, stars, n, taken):
    """Sea ``s``'s class index (-1: none), given its ``n`` plaques and the classes ``taken``."""
    if n == 0:
        if stars is not None:
            raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]} has a class but no voyage (the first voyage chooses it)")
        return -1
    if stars is None:
        raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]} has voyages but no class")
    cls = stars - 1
    if cls < 0 or cls >= NCLASS:
        raise InvalidStateError(f"{_BAD}a class has 1 to 5 stars")
    if taken & (1 << cls):
        raise InvalidStateError(f"{_BAD}two seas share the {cls + 1}★ class")
    if n > NFIELD:
        raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]} has more than six plaques")
    return cls


def _check_plaques(st, s, plaques):
    """Sea ``s``'s plaques (its class checked), top first. Its raw rows
    ``(pid, value, loan, ships)``, for :func:`_put_seas`."""
    R = st.rules
    N = R.num_players
    n = len(plaques)
    seen = 0
    n_ops = 0
    n_free = 0
    prev = 0
    prev_seat = 0
    borrowed = 0  # a bit per seat with a loan in this sea
    row = []
    for i in range(n):
        pl = plaques[i]
        value = pl.value
        if value < 0:
            raise InvalidStateError(f"{_BAD}a plaque's value is never negative")
        is_seat = pl.seat is not None
        if not is_seat:
            pid = _check_operator(st, s, i, pl, seen)
            loan = 0
            n_ops += 1
        else:
            pid = _check_voyage(st, s, i, pl, seen)
            p = pid >> 1
            loan = pl.loan // 1000
            if loan == 0:
                n_free += 1
            else:
                if borrowed & (1 << p):
                    raise InvalidStateError(f"{_BAD}seat {p} borrowed twice in the {SEA_NAMES[s]} (once per sea)")
                borrowed |= 1 << p
                st.credit[p] += loan
            st.turns[p] += R.legs[s] + 1  # L charters and the voyage's own turn
        # A7: by value, top first; a package operator stays above an equal value.
        if i > 0 and (value > prev or (value == prev and not is_seat and prev_seat)):
            raise InvalidStateError(
                f"{_BAD}the {SEA_NAMES[s]}'s plaques are not in order of value "
                "(an operator stays above an equal value, A7)"
            )
        seen |= 1 << pid
        prev = value
        prev_seat = is_seat
        row.append((pid, value, loan, pl.ships if is_seat else ()))
    if n_ops != R.num_ops:
        raise InvalidStateError(
            f"{_BAD}the {SEA_NAMES[s]} must show {R.num_ops} package operator plaque(s) once sailed (A3)"
        )
    if n_ops == n:
        raise InvalidStateError(
            f"{_BAD}the {SEA_NAMES[s]} shows package operators but no seat's voyage "
            "(they enter with the first voyage, A3)"
        )
    if n == NFIELD and n_free == 0:
        raise InvalidStateError(
            f"{_BAD}the {SEA_NAMES[s]}: the voyage that filled its class came after "
            "every loan there, so one seat's plaque there carries no loan"
        )
    for p in range(N):
        if (seen & (2 << (2 * p))) and not (seen & (1 << (2 * p))):
            raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]}: seat {p} has a second voyage but no first")
    return row


def _check_operator(st, s, i, pl, seen):
    """Plaque ``i`` of sea ``s``, a package operator's (A3): its plaque id."""
    R = st.rules
    N = R.num_players
    if pl.operator is None or pl.loan or len(pl.ships) or pl.voyage:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: a package operator plaque names its set only (no loan, ships or voyage)"
        )
    j = pl.operator
    if j < 0 or j >= R.num_ops:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: with {N} players there are {R.num_ops} package operator set(s) (A3)"
        )
    if pl.value != R.operator_values[j * NSEA + s]:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: operator set {j} is worth "
            f"{R.operator_values[j * NSEA + s]} in the {SEA_NAMES[s]} (A3)"
        )
    pid = NPP + j
    if seen & (1 << pid):
        raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]}: operator set {j} appears twice")
    return pid


def _check_voyage(st, s, i, pl, seen):
    """Plaque ``i`` of sea ``s``, a seat's voyage: its ships (placed), their leg order, its
    value and loan (A5, A10). Its plaque id."""
    R = st.rules
    N = R.num_players
    S = R.sets
    if pl.operator is not None:
        raise InvalidStateError(f"{_BAD}seas[{s}].plaques[{i}]: a plaque belongs to a seat or to an operator, not both")
    p = pl.seat
    k = pl.voyage
    if p < 0 or p >= N:
        raise InvalidStateError(f"{_BAD}seas[{s}].plaques[{i}]: seat {p} does not exist")
    if k < 0 or k >= S:
        raise InvalidStateError(f"{_BAD}seas[{s}].plaques[{i}]: with {N} players a seat sails each sea {S} time(s)")
    pid = p * 2 + k
    if seen & (1 << pid):
        raise InvalidStateError(f"{_BAD}the {SEA_NAMES[s]}: seat {p}'s voyage {k} appears twice")
    ships = pl.ships
    L = R.legs[s]
    if len(ships) != L:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: a {SEA_NAMES[s]} voyage has {L} ships, not {len(ships)}"
        )
    for j in range(L):
        c = ships[j]
        _place(st, c, Z_PLAQUE + s * NPP + pid)
        st.voyage_ships[j] = c
    # A10: the recorded leg order is an optimal assignment (A5).
    staged = st._value(s, L, False)
    raw = 0
    full = 1
    for j in range(L):
        c = st.voyage_ships[j]
        raw += R.worth[(c * NSEA + s) * MAXLEG + j]
        if not (R.suited_legs[c * NSEA + s] & (1 << j)):
            full = 0
    if full:
        raw += L
    if raw != staged:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: the ships are not listed in an optimal leg order (A5, A10)"
        )
    amount = pl.loan
    if amount < 0 or amount > NAMT * 1000 or amount % 1000:
        raise InvalidStateError(f"{_BAD}seas[{s}].plaques[{i}]: a loan is 0 to 10,000 marks in steps of 1,000")
    loan = amount // 1000
    value = pl.value
    if value + loan != staged:
        raise InvalidStateError(
            f"{_BAD}seas[{s}].plaques[{i}]: the ships are worth {staged}; value "
            f"{value} plus the loan's {loan} points must equal that"
        )
    return pid


def _load_money(st, d):
    """Hands, money and the discard pile agree with the voyages staged (A6, A12). The
    plaques the seats have left to stage."""
    R = st.rules
    N = R.num_players
    money = d.money
    spent = 0
    total_left = 0
    thousands = []
    for p in range(N):
        if st.voyages_left[p]:
            limit = st._max_legs(p) + 2
        else:
            limit = 2
        if st.hand_size[p] > limit:
            raise InvalidStateError(
                f"{_BAD}seat {p} holds {st.hand_size[p]} ships; at most {limit} fit its voyages (A6)"
            )
        total_left += st.voyages_left[p]
        amount = money[p]
        if amount < 0 or amount % 1000:
            raise InvalidStateError(f"{_BAD}seat {p}'s money is a multiple of 1,000 marks")
        # Loans are the only income: money = starting capital + loans - fees paid.
        if amount > st.credit[p] * 1000:
            raise InvalidStateError(
                f"{_BAD}seat {p} holds {amount:,} marks, more than its starting capital "
                f"and loans ({st.credit[p] * 1000:,})"
            )
        thousands.append(amount // 1000)
        spent += st.credit[p] - amount // 1000
    _put_money(st, thousands)
    # A refresh puts four ships on the discard pile for 2,000; the pack's refill takes
    # the whole pile, and nothing else goes there (A11).
    if st.discard_size % AGENCY:
        raise InvalidStateError(f"{_BAD}the discard pile grows by four ships per refresh, not to {st.discard_size}")
    if (st.discard_size // AGENCY) * 2 > spent:
        raise InvalidStateError(
            f"{_BAD}the discard pile holds {st.discard_size // AGENCY} refreshes' ships, but the "
            f"seats paid only {spent * 1000:,} marks in all (2,000 each)"
        )
    return total_left


def _check_loans(st):
    """A loan needs a turn after its voyage (A9)."""
    R = st.rules
    N = R.num_players
    S = R.sets
    for p in range(N):
        staged = NSEA * S - st.voyages_left[p]
        loan = 0
        for s in range(NSEA):
            loan += st.borrowed[p * NSEA + s]
        if staged and loan == staged and st.voyages_left[p] == 0:
            raise InvalidStateError(
                f"{_BAD}seat {p} borrowed against every voyage, but it took no turn after its last one (A9)"
            )


def _load_turn(st, d, total_left):
    """The phase and whose turn it is, against the turns each seat has had (A8, A9)."""
    R = st.rules
    N = R.num_players
    S = R.sets
    start = d.start_player
    ph = d.phase
    if ph == "loan":
        phase = PH_LOAN
    elif ph == "agency":
        phase = PH_AGENCY
    elif ph == "over":
        phase = PH_OVER
    else:
        raise InvalidStateError(f"{_BAD}unknown phase {ph!r}")
    cur = d.current_player
    if (phase == PH_OVER) != (total_left == 0):
        raise InvalidStateError(f"{_BAD}the game is over exactly when every plaque is on the board (A8)")
    if phase == PH_OVER:
        if cur != -1:
            raise InvalidStateError(f"{_BAD}current_player must be -1 once the game is over")
        for p in range(N):
            if st.known_mask[p] != (1 << st.hand_size[p]) - 1:
                raise InvalidStateError(
                    f"{_BAD}once the game is over every hand is shown: known[{p}] must list "
                    f"all of seat {p}'s hand (A14)"
                )
        cur = start
    else:
        if cur < 0 or cur >= N:
            raise InvalidStateError(f"{_BAD}current_player {cur} is not a seat")
        if st.voyages_left[cur] == 0:
            raise InvalidStateError(f"{_BAD}seat {cur} has staged all its voyages and takes no more turns (A9)")
        if phase == PH_AGENCY:
            any_loan = 0
            for s in range(NSEA):
                any_loan |= st.borrowed[cur * NSEA + s]
            if not any_loan and st.credit[cur] - st.money[cur] < 2:
                raise InvalidStateError(
                    f"{_BAD}the 'agency' phase follows a loan or a refresh in the turn, "
                    f"and seat {cur} has taken neither"
                )
        for p in range(N):
            staged = NSEA * S - st.voyages_left[p]
            loan = 0
            for s in range(NSEA):
                loan += st.borrowed[p * NSEA + s]
            # A seat with an empty hand kept no ship from its last voyage and has not
            # chartered since: only the turn in progress can hold a loan on that voyage.
            if staged and loan == staged and st.hand_size[p] == 0 and (p != cur or phase != PH_AGENCY):
                raise InvalidStateError(
                    f"{_BAD}seat {p} borrowed against every voyage, but has had no turn "
                    "since its last one (its hand is empty)"
                )
        # A9: turns go clockwise from the start player, skipping seats that are done.
        # A seat's turns so far = its hand + the ships it played + its voyages, so the
        # seats before the one to move (from the start player on) have had one more
        # turn than it in this round, the others as many; a finished seat, at most that.
        rt = st.turns[cur]
        pc = (cur - start + N) % N
        for p in range(N):
            expect = rt + 1 if (p - start + N) % N < pc else rt
            if st.turns[p] > expect or (st.voyages_left[p] and st.turns[p] != expect):
                raise InvalidStateError(
                    f"{_BAD}seat {p} has had {st.turns[p]} turns (ships in hand and "
                    f"played, plus voyages) but with seat {start} starting and seat {cur} "
                    f"to move it {'can have had at most' if not st.voyages_left[p] else 'has had'} "
                    f"{expect} (A9)"
                )
    _put_turn(st, phase, start, cur)
