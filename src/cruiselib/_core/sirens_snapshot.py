"""Sirens in Sight: putting a full state into the core, checked or not (compiled by Cython,
runs as Python too).

Two ways in, one way to write:

* :func:`set_raw` writes a raw state (the dict ``SirensCore._get_raw`` returns: plain
  values, nothing derived) into a core and derives the rest (side sums, points, rum
  counts, the crew choice, the play path's bookkeeping). It trusts its input: tests and
  tools hand it states the core itself made.
* :func:`load_checked` is the core's ``_load_checked`` (the contract of ``engine.py``): it
  checks a decoded ``SirensStateData`` (its header checked by the game) section by
  section and writes each section with the same writers :func:`set_raw` is made of, once
  that section's values are known to be in range. Every index is checked before it is
  used, so a tampered state raises InvalidStateError and never reaches the arrays; the
  checks after a section's write read the written core (rulings S1 ... S18 of
  ``docs/sirens.md`` are cited where they apply). The error texts are part of the API.

Types live in ``sirens_snapshot.pxd``, which cimports the core's classes and the helpers
of the play path it needs, so the checks read the core's C fields directly.
Writing each section after its checks costs a second pass over the cards: measured
``game.load_state(json)`` (issue 39; 8 seeded positions per variant, min of 7 repeats,
thread time), compiled 7.6 / 7.9 µs (standard / bow_to_rear) with the checks in the core
before, 8.2 / 8.4 µs here; pure 50 / 63 µs before, 56 / 64 µs.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib.errors import InvalidStateError

from .sirens import CREW_NAMES, PHASES

if not cython.compiled:
    # The core's enum constants (compiled, cimported from sirens.pxd) and its helpers.
    from cruiselib._core.constants import enum_constants

    from .sirens import crew_destination

    globals().update(enum_constants(__name__.rpartition(".")[2].removesuffix("_snapshot")))  # the core's .pxd

_BAD = "invalid Sirens in Sight state: "


# ---------------------------------------------------------------------- the raw state


def set_raw(st, raw):
    """Write ``raw`` (a dict as ``st._get_raw()`` returns it) into ``st`` and derive the
    rest. Unchecked: for states the core made (tests, tools); snapshots go through
    :func:`load_checked`."""
    _put_cards(st, raw["hands"], raw["piles"], raw["sides"], raw["removed"])
    _put_ships(st, raw["ship_status"])
    _put_tokens(st, raw["rum"], raw["octo"], raw["crew"])
    _put_turn(st, raw["phase"], raw["start"], raw["turn"], raw["cur"], raw["passes"])
    _put_picks(st, raw["picks"], raw["pick_floor"])
    _put_pending(st, raw["pending"])
    _finish(st, raw["rng"])


def _put_cards(st, hands, piles, sides, removed):
    """Where every card is: the hands, the draw piles (one in the standard game), each ship
    card's two sides (with their sums) and the removed cards."""
    R = st.rules
    for p in range(2):
        cards = hands[p]
        n = len(cards)
        for i in range(n):
            st.hand[p * HAND + i] = cards[i]
        st.hand_count[p] = n
        st.pile_count[p] = 0
    for p in range(len(piles)):
        cards = piles[p]
        n = len(cards)
        for i in range(n):
            st.pile[p * MAXC + i] = cards[i]
        st.pile_count[p] = n
    for k in range(NSHIP):
        for j in range(2):
            s = 2 * k + j
            cards = sides[k][j]
            n = len(cards)
            total = 0
            for i in range(n):
                c = cards[i]
                st.slot_cards[s * SIDE_MAX + i] = c
                total += R.face_val[R.card_face[c]]
            st.slot_count[s] = n
            st.slot_sum[s] = total
    n = len(removed)
    for i in range(n):
        st.removed[i] = removed[i]
    st.removed_count = n


def _put_ships(st, ships):
    """Each ship card's status (in play, won by a seat, removed), the ship cards in play,
    and the points of the won ones (the crew tokens add theirs in _put_tokens)."""
    st.ships_in_play = 0
    st.points[0] = 0
    st.points[1] = 0
    for k in range(NSHIP):
        v = ships[k]
        st.ship_status[k] = v
        st.mugs_on[k] = 0
        if v == SHIP_IN_PLAY:
            st.ships_in_play += 1
        elif v != SHIP_REMOVED:
            st.points[v] += 1


def _put_tokens(st, rum, octopus, crew):
    """The rum mugs (and how many stand on each ship card), the octopuses, the crew tokens
    (and the points of the won ones)."""
    for p in range(2):
        r = rum[p]
        st.rum_mug[p] = r
        if r >= 0:
            st.mugs_on[r] += 1
        st.octopus[p] = octopus[p]
    for t in range(2):
        v = crew[t]
        st.crew[t] = v
        if v == CREW_WON or v == CREW_WON + 1:
            st.points[v - CREW_WON] += 1


def _put_turn(st, phase, start, turn, cur, passes):
    st.phase = phase
    st.start_player = start
    st.turn = turn
    st.to_decide = cur
    st.passes = passes


def _put_picks(st, picks, floors):
    for p in range(2):
        st.picks[p] = picks[p]
        st.pick_floor[p] = floors[p]


def _put_pending(st, pending):
    """The crew decision waiting in the 'crew' phase, ``(ship, side, source ship or -1,
    draw)``, and its two destinations; or None."""
    st.pending_ship = -1
    st.pending_side = -1
    st.pending_source = -1
    st.pending_draw = 0
    st.pending_token = -1
    if pending is not None:
        k = pending[0]
        st.pending_ship = k
        st.pending_side = pending[1]
        st.pending_source = pending[2]
        st.pending_draw = 1 if pending[3] else 0
        st.pending_token = 0 if st.crew[0] == k else 1
        st.crew_choice[0] = crew_destination(st, k, -1, st.pending_token)
        st.crew_choice[1] = crew_destination(st, k, 1, st.pending_token)


def _finish(st, rng):
    """The generator state, and the bookkeeping the play path keeps up to date."""
    st.rng = rng
    st._derive()


# ---------------------------------------------------------------------- checking a snapshot


def load_checked(st, d, history):
    """Check the decoded SirensStateData ``d`` and load it into the fresh core ``st``
    (``history`` adds nothing: the checks below are all Sirens has).

    Derived values (sums, points, rum counts) are recomputed, not trusted. The sections in
    order, each relying on the ones before: the cards, the ship cards, the tokens and
    points, the removed cards, the turn, the picks, a pending crew decision, the hand
    sizes, and that nothing in play has already scored.
    """
    _check_cards(st, d)
    _put_cards(st, d.hands, d.piles, d.sides, d.removed)
    crew_in_play = _load_tokens(st, d)
    low = _check_removed(st)
    _load_turn(st, d)
    _load_picks(st, d)
    _load_pending(st, d.pending, crew_in_play)
    if st.phase != PH_PICK:
        _check_hand_sizes(st)
    _check_unscored(st, low)
    _finish(st, int(d.rng, 16))


def _zone_name(z):
    """The snapshot field a zone code of _check_cards names."""
    if z <= 2:
        return f"hands[{z - 1}]"
    if z <= 4:
        return f"piles[{z - 3}]"
    if z == 5:
        return "removed"
    return f"sides[{(z - 10) >> 1}][{(z - 10) & 1}]"


def _place_checked(st, card, z):
    """Note that ``card`` is in zone ``z`` (1 + seat: a hand, 3 + pile, 5: removed, 10 +
    slot: a ship card's side): it exists and was seen nowhere else."""
    if card < 0 or card >= st.rules.num_cards:
        raise InvalidStateError(
            f"{_BAD}card {card} in {_zone_name(z)} does not exist "
            f"(the card set has {st.rules.num_cards} cards)")
    if st.load_zone[card] != 0:
        raise InvalidStateError(
            f"{_BAD}card {card} appears twice ({_zone_name(st.load_zone[card])} and {_zone_name(z)})")
    st.load_zone[card] = z
    return 0


def _check_cards(st, d):
    """Every card of the hands, piles, ship sides and removed cards exists, each exactly
    once (S1, S10), and no hand, pile or side is over its size (st.load_zone notes where)."""
    R = st.rules
    variant = R.variant
    for c in range(R.num_cards):
        st.load_zone[c] = 0
    hands = d.hands
    piles = d.piles
    sides = d.sides
    if len(hands) != 2 or len(sides) != NSHIP or len(piles) != (2 if variant else 1):
        raise InvalidStateError(f"{_BAD}wrong number of hands, piles or ships")
    placed = 0
    for p in range(2):
        cards = hands[p]
        n = len(cards)
        if n > HAND:
            raise InvalidStateError(f"{_BAD}hands[{p}] holds more than 4 cards")
        for i in range(n):
            _place_checked(st, cards[i], 1 + p)
        placed += n
    for p in range(len(piles)):
        cards = piles[p]
        n = len(cards)
        if n > R.num_cards:
            raise InvalidStateError(f"{_BAD}piles[{p}] is longer than the card set")
        for i in range(n):
            _place_checked(st, cards[i], 3 + p)
        placed += n
    for k in range(NSHIP):
        if len(sides[k]) != 2:
            raise InvalidStateError(f"{_BAD}sides[{k}] must have two sides")
        for j in range(2):
            cards = sides[k][j]
            n = len(cards)
            if n > SIDE_MAX:
                raise InvalidStateError(f"{_BAD}sides[{k}][{j}] holds more than 5 cards")
            for i in range(n):
                _place_checked(st, cards[i], 10 + 2 * k + j)
            placed += n
    cards = d.removed
    n = len(cards)
    for i in range(n):
        _place_checked(st, cards[i], 5)
    placed += n
    if placed != R.num_cards:
        missing = [c for c in range(R.num_cards) if st.load_zone[c] == 0]
        raise InvalidStateError(f"{_BAD}card(s) {missing[:8]} are nowhere")


def _load_tokens(st, d):
    """Check and load the ship cards, rum mugs, octopuses and crew tokens, and count the
    points; the number of crew tokens on ship cards in play."""
    R = st.rules
    variant = R.variant
    ships = d.ships
    for k in range(NSHIP):
        v = ships[k]
        if v < SHIP_IN_PLAY or v > SHIP_REMOVED:
            raise InvalidStateError(f"{_BAD}ships[{k}] must be -1, 0, 1 or 2")
        if v != SHIP_IN_PLAY and (st.slot_count[2 * k] or st.slot_count[2 * k + 1]):
            raise InvalidStateError(f"{_BAD}ship {k} is out of play but has cards beside it")
    _put_ships(st, ships)
    if variant:
        # S9: a seat only ever holds and draws cards of its own emblem set.
        for c in range(R.num_cards):
            z = st.load_zone[c]
            if z <= 4 and R.card_emblem[c] != (z - 1) % 2:
                raise InvalidStateError(
                    f"{_BAD}{_zone_name(z)} holds card {c} of the other seat's set (S9)")
    for p in range(2):
        r = d.rum[p]
        if r < RUM_SPENT or r >= NSHIP:
            raise InvalidStateError(f"{_BAD}rum[{p}] must be -2, -1 or a ship index")
        if r == RUM_SPENT and st.ships_in_play == NSHIP:
            raise InvalidStateError(
                f"{_BAD}seat {p}'s rum mug left play with a ship card it stood on, "
                "but every ship card is in play (S6)")
        if r >= 0 and st.ship_status[r] != SHIP_IN_PLAY:
            raise InvalidStateError(f"{_BAD}seat {p}'s rum mug is on ship {r}, which is not in play")
        o = d.octopus[p]
        if o < OCTO_HELD or o >= R.num_cards or (o >= 0 and st.load_zone[o] < 10):
            raise InvalidStateError(f"{_BAD}seat {p}'s octopus sits on card {o}, which is not in play")
    o = d.octopus[0]
    if o >= 0 and o == d.octopus[1]:
        raise InvalidStateError(f"{_BAD}both octopuses sit on the same card")
    crew = d.crew
    crew_in_play = 0
    for t in range(2):
        v = crew[t]
        if v < 0 or v > CREW_REMOVED:
            raise InvalidStateError(f"{_BAD}crew[{t}] must be 0..7")
        if v < NSHIP:
            if st.ship_status[v] != SHIP_IN_PLAY:
                raise InvalidStateError(f"{_BAD}the {CREW_NAMES[t]} stands on ship {v}, which is not in play")
            crew_in_play += 1
    if crew[0] < NSHIP and crew[0] == crew[1]:
        raise InvalidStateError(f"{_BAD}captain and mate stand on the same ship card")
    for p in range(2):
        won = (crew[0] == CREW_WON + p) + (crew[1] == CREW_WON + p)
        if won > st.points[p]:  # every won token came with its own won ship card
            raise InvalidStateError(f"{_BAD}seat {p} holds more crew tokens than ship cards")
    _put_tokens(st, d.rum, d.octopus, crew)
    removed_ships = 0
    for k in range(NSHIP):
        removed_ships += st.ship_status[k] == SHIP_REMOVED
    if (st.crew[0] == CREW_REMOVED) + (st.crew[1] == CREW_REMOVED) > removed_ships:
        raise InvalidStateError(f"{_BAD}more crew tokens removed than ship cards removed")
    if (st.points[0] >= 4 and st.points[1] >= 4) or st.points[0] > 5 or st.points[1] > 5:
        raise InvalidStateError(
            f"{_BAD}points {st.points[0]}:{st.points[1]} cannot happen: the game ends as soon as a "
            "seat has 4 (S8), and a scored ship card brings at most 2 (itself and one crew token)")
    return crew_in_play


def _check_removed(st):
    """Each ship card out of play took its cards with it (S6): at most 5 + 5 per ship card,
    a tie exactly 5 + 5, a won one at least the fewest cards that reach its printed
    value (SirensRules.min_won). The lowest value among the removed cards."""
    R = st.rules
    need = 0
    for k in range(NSHIP):
        if st.ship_status[k] == SHIP_REMOVED:
            need += 2 * SIDE_MAX
        elif st.ship_status[k] != SHIP_IN_PLAY:
            need += R.min_won[k]
    top = 2 * SIDE_MAX * (NSHIP - st.ships_in_play)
    if st.removed_count < need or st.removed_count > top:
        raise InvalidStateError(
            f"{_BAD}{st.removed_count} removed cards do not fit the ship cards out of play: "
            f"they took between {need} and {top} cards with them (S6)")
    low = 1 << 30  # the lowest value among the removed cards
    for i in range(st.removed_count):
        v = R.face_val[R.card_face[st.removed[i]]]
        if v < low:
            low = v
    return low


def _load_turn(st, d):
    """Check and load the phase, whose turn and decision, and the passes, against the end
    of the game (S4, S8, S17)."""
    phase = PHASES.index(d.phase)
    turn = d.turn
    passes = d.passes
    if passes < 0 or passes > 2:
        raise InvalidStateError(f"{_BAD}passes must be 0, 1 or 2")
    cur = d.current_player
    by_points = st.points[0] >= 4 or st.points[1] >= 4
    finished = st.ships_in_play == 0 or by_points or passes == 2
    if (phase == PH_OVER) != finished:
        raise InvalidStateError(
            f"{_BAD}the game is over exactly when no ship is in play, a seat has 4 points, "
            "or both seats passed (S8)")
    if passes == 2 and (st.ships_in_play == 0 or by_points):
        raise InvalidStateError(
            f"{_BAD}a game ended by two passes still had ship cards in play and no seat with 4 points (S4)")
    if passes == 1 and phase != PH_MAIN:
        # S17: a main action resets the count, so one pass is pending only in the main
        # phase of the next seat's turn (a pass ends the turn at once, S13).
        raise InvalidStateError(f"{_BAD}one pending pass exists only in the main phase")
    if phase == PH_OVER:
        if cur != -1:
            raise InvalidStateError(f"{_BAD}current_player must be -1 once the game is over")
        cur = turn
    elif cur == -1:
        raise InvalidStateError(f"{_BAD}current_player is -1 but the game is not over")
    if (phase == PH_CREW) != (d.pending is not None):
        raise InvalidStateError(f"{_BAD}a pending crew decision exists exactly in the 'crew' phase")
    if (phase == PH_MAIN or phase == PH_AFTER) and cur != turn:
        raise InvalidStateError(f"{_BAD}in the main and after phases the seat to move is the turn player")
    if phase == PH_AFTER and st.rum_mug[turn] != RUM_HELD:
        raise InvalidStateError(f"{_BAD}the 'after' phase exists only while the turn player holds the rum mug")
    # S4: a seat passes only without a main action, and nothing but a rum mug can have
    # happened since: the seat(s) that passed still have none.
    if passes >= 1 and st._seat_has_main(1 - turn):
        raise InvalidStateError(
            f"{_BAD}seat {1 - turn} passed but has a card to play or an octopus move (S4)")
    if passes == 2 and st._seat_has_main(turn):
        raise InvalidStateError(
            f"{_BAD}seat {turn} passed but has a card to play or an octopus move (S4)")
    _put_turn(st, phase, d.start_player, turn, cur, passes)


def _load_picks(st, d):
    """Check and load the picks and pick floors of the 'bow_to_rear' variant (S9, S12, S14,
    S15)."""
    R = st.rules
    for p in range(2):
        n = d.picks[p]
        f = d.pick_floor[p]
        if n < 0 or n > HAND or f < 0 or f >= R.num_faces:
            raise InvalidStateError(f"{_BAD}picks and pick floors out of range")
    _put_picks(st, d.picks, d.pick_floor)
    if st.phase == PH_PICK:
        _check_pick_phase(st)
    else:
        _check_picks_done(st)


def _check_pick_phase(st):
    """During the picks (S9): nothing on the table yet, the start player picks first, each
    hand holds its picks in ascending face order, lowest card id first (S12, S14), the
    sets wait in card id order (S15), and the seat picking can finish its hand."""
    R = st.rules
    cur = st.to_decide
    if not R.variant:
        raise InvalidStateError(f"{_BAD}only the 'bow_to_rear' variant has a pick phase")
    for s in range(NSLOT):
        if st.slot_count[s]:
            raise InvalidStateError(f"{_BAD}no card is in play during the pick phase")
    if st.removed_count:
        raise InvalidStateError(f"{_BAD}no card is in play during the pick phase")
    if st.picks[1 - st.start_player] and st.picks[st.start_player] < HAND:
        raise InvalidStateError(f"{_BAD}the start player picks first (S9)")
    start = st.start_player
    if cur != (start if st.picks[start] < HAND else 1 - start) or st.turn != start:
        raise InvalidStateError(f"{_BAD}the seat picking must be the start player, then the other seat")
    for p in range(2):
        if st.picks[p] != st.hand_count[p]:
            raise InvalidStateError(f"{_BAD}seat {p} picked {st.picks[p]} cards but holds {st.hand_count[p]}")
        top = 0
        for i in range(st.hand_count[p]):
            c = st.hand[p * HAND + i]
            v = R.card_face[c]
            if v > top:
                top = v
            # S14: picks go in ascending face order; S12: each takes the lowest card id
            # of its face still in the set.
            if i > 0 and v < R.card_face[st.hand[p * HAND + i - 1]]:
                raise InvalidStateError(f"{_BAD}seat {p}'s picks are not in ascending face order (S14)")
            for j in range(i + 1, st.hand_count[p]):
                o = st.hand[p * HAND + j]
                if R.card_face[o] == v and o < c:
                    raise InvalidStateError(
                        f"{_BAD}seat {p} picked card {c} before card {o} of the same face (S12)")
            for j in range(st.pile_count[p]):
                o = st.pile[p * MAXC + j]
                if R.card_face[o] == v and o < c:
                    raise InvalidStateError(
                        f"{_BAD}seat {p} picked card {c} while card {o} of the same face was left (S12)")
        if st.pick_floor[p] != top:
            raise InvalidStateError(f"{_BAD}seat {p}'s pick floor must be the highest face picked")
        # S15: the sets wait unshuffled (in card id order) until both seats picked.
        for i in range(1, st.pile_count[p]):
            if st.pile[p * MAXC + i - 1] > st.pile[p * MAXC + i]:
                raise InvalidStateError(f"{_BAD}piles[{p}] must stay in card id order until the picks end")
    if st.rum_mug[0] != RUM_HELD or st.rum_mug[1] != RUM_HELD or st.octopus[0] != OCTO_HELD \
            or st.octopus[1] != OCTO_HELD or st.passes:
        raise InvalidStateError(f"{_BAD}nothing happens before the picks are done")
    if st.picks[cur] < HAND:
        above = 0
        for i in range(st.pile_count[cur]):
            above += R.card_face[st.pile[cur * MAXC + i]] >= st.pick_floor[cur]
        if above < HAND - st.picks[cur]:
            raise InvalidStateError(f"{_BAD}seat {cur} cannot complete its hand in ascending order")


def _check_picks_done(st):
    """After the pick phase: 4 picks each in the variant, none otherwise, and a pick floor
    a fourth pick can have (S14)."""
    R = st.rules
    variant = R.variant
    for p in range(2):
        if st.picks[p] != (HAND if variant else 0):
            raise InvalidStateError(
                f"{_BAD}picks must be [4, 4] in the variant after the pick phase, [0, 0] otherwise")
        if not variant:
            if st.pick_floor[p] != 0:
                raise InvalidStateError(f"{_BAD}pick floors are [0, 0] outside the variant")
            continue
        # The floor is the face of the seat's fourth pick: a face of its own set, with at
        # least 4 of its cards at or below it (S14).
        top = 0
        above = 0
        for c in range(R.num_cards):
            if R.card_emblem[c] == p:
                top += R.card_face[c] == st.pick_floor[p]
                above += R.card_face[c] <= st.pick_floor[p]
        if top == 0 or above < HAND:
            raise InvalidStateError(
                f"{_BAD}seat {p}'s pick floor {st.pick_floor[p]} is no face its fourth pick can have (S14)")


def _load_pending(st, pending, crew_in_play):
    """Check and load the pending crew decision of the 'crew' phase (S5, S6, S7), or none."""
    if pending is None:
        _put_pending(st, None)
        return
    R = st.rules
    k = pending.ship
    if k < 0 or k >= NSHIP or st.ship_status[k] != SHIP_IN_PLAY or (st.crew[0] != k and st.crew[1] != k):
        raise InvalidStateError(f"{_BAD}the pending crew move needs a crew token on a ship in play")
    if pending.side != st.to_decide:
        raise InvalidStateError(f"{_BAD}the owner of the played-on side decides the crew move (S5)")
    src = pending.source
    if src >= NSHIP or src < -1 or (src >= 0 and st.ship_status[src] != SHIP_IN_PLAY):
        raise InvalidStateError(f"{_BAD}the source ship of a pending octopus move is in play")
    if pending.draw != (src < 0):
        raise InvalidStateError(f"{_BAD}a played card draws after the crew move, an octopus move does not (S4)")
    # The placed card is the last one on its side and has the move-crew icon (S5).
    s = 2 * k + pending.side
    if st.slot_count[s] == 0:
        raise InvalidStateError(f"{_BAD}the pending crew move has no placed card")
    c = st.slot_cards[s * SIDE_MAX + st.slot_count[s] - 1]
    if not R.face_crew[R.card_face[c]]:
        raise InvalidStateError(f"{_BAD}card {c}, placed last, has no move-crew icon to move the crew (S5)")
    if src >= 0 and st.octopus[st.turn] != c:
        raise InvalidStateError(f"{_BAD}the turn player's octopus must sit on the card it moved (S7)")
    if src < 0 and (st.octopus[0] == c or st.octopus[1] == c):
        raise InvalidStateError(f"{_BAD}a card just played from the hand carries no octopus")
    # Before the placement the ship card did not score (S6).
    v = R.face_val[R.card_face[c]]
    t = R.ship_val[k] + 3 * st.mugs_on[k]
    if src == k and st.slot_count[s ^ 1] >= SIDE_MAX:
        raise InvalidStateError(f"{_BAD}the moved card cannot have come from a full side (S5 step 1)")
    if st.slot_sum[s] - v >= t or st.slot_sum[s ^ 1] + (v if src == k else 0) >= t:
        raise InvalidStateError(f"{_BAD}ship {k} would have been scored before the pending placement (S6)")
    if src >= 0 and src != k and not _could_lose(st, src, v):
        raise InvalidStateError(
            f"{_BAD}ship {src} cannot be where the moved card came from without having scored before (S6)")
    _put_pending(st, (k, pending.side, src, pending.draw))
    if st.crew_choice[0] == st.crew_choice[1] or st.ships_in_play == crew_in_play:
        raise InvalidStateError(f"{_BAD}the pending crew move has no choice to make")


def _check_hand_sizes(st):
    """After the picks a seat holds a full hand while its draw pile has cards (S4)."""
    phase = st.phase
    for p in range(2):
        # During a crew choice the turn player's draw may still be pending (S4); once
        # over, the seat that ended the game by playing a card drew none.
        need = HAND
        if (phase == PH_CREW and p == st.turn and st.pending_draw) or (phase == PH_OVER and p == st.turn):
            need = HAND - 1
        if st.pile_count[p if st.rules.variant else 0] and st.hand_count[p] < need:
            raise InvalidStateError(f"{_BAD}seat {p} must hold {need} cards while its draw pile has cards")


def _check_unscored(st, low):
    """No ship card in play may already have scored (S6); ``low``, the lowest value among
    the removed cards."""
    phase = st.phase
    by_points = st.points[0] >= 4 or st.points[1] >= 4
    # Except in a crew decision the destination and the octopus' source (scored after the
    # crew move, S5 step 3), and once over the source of an octopus move whose
    # destination's scoring ended the game (S5: the source is then not checked).
    o = -1
    for k in range(NSHIP):
        if st.ship_status[k] != SHIP_IN_PLAY or not _side_scores(st, k):
            continue
        if phase == PH_CREW and (k == st.pending_ship or k == st.pending_source):
            continue
        if phase == PH_OVER:
            # The octopus returned when its card's ship card scored; the mover drew
            # nothing; the moved card is a removed one whose leaving raised a side.
            if o >= 0 or not by_points or st.octopus[st.turn] != OCTO_HELD or not _could_lose(st, k, low):
                raise InvalidStateError(
                    f"{_BAD}ship {k} is in play but would already have been scored: only the source of "
                    "the octopus move that ended the game stays unscored (S5, S6)")
            if st.pile_count[st.turn if st.rules.variant else 0] and st.hand_count[st.turn] < HAND:
                raise InvalidStateError(f"{_BAD}an octopus move ended the game: seat {st.turn} drew no card")
            o = k
            continue
        raise InvalidStateError(f"{_BAD}ship {k} is in play but would already have been scored (S6)")


def _could_lose(st, ship, v):
    """Whether ship (in play) could have held one more card of value v on one of its sides
    without scoring (S6), i.e. be the source of an octopus move of that card."""
    thr = st.rules.ship_val[ship] + 3 * st.mugs_on[ship]
    for j in range(2):
        s = 2 * ship + j
        if (st.slot_count[s] < SIDE_MAX and st.slot_sum[s] + v < thr and st.slot_sum[s ^ 1] < thr
                and not (st.slot_count[s] + 1 == SIDE_MAX and st.slot_count[s ^ 1] == SIDE_MAX)):
            return True
    return False


def _side_scores(st, ship):
    """Whether ship (in play) has a side at or over its threshold, or two full sides."""
    thr = st.rules.ship_val[ship] + 3 * st.mugs_on[ship]
    return (st.slot_sum[2 * ship] >= thr or st.slot_sum[2 * ship + 1] >= thr
            or (st.slot_count[2 * ship] == SIDE_MAX and st.slot_count[2 * ship + 1] == SIDE_MAX))
