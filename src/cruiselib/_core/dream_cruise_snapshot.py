"""Dream Cruise snapshots: checking a decoded snapshot and loading it into a core, and the
raw-state setter (compiled by Cython, runs as Python too; types in
``dream_cruise_snapshot.pxd``, which cimports the core's classes to read and write their
arrays at C speed).

One way puts a full state into a core: :func:`set_raw`, the inverse of the core's
``_get_raw()`` (a dict of plain values; the derived counts are recomputed). The loader
(:func:`load_checked`, what ``DreamCruiseCore._load_checked`` calls for the contract's
``_load``) checks every id and count of the decoded snapshot first, builds the raw values,
sets them with :func:`set_raw`, then checks the position on the arrays; tests that set up
positions go through the loader (``state._load(data, history=False)``) or through
:func:`set_raw` with a dict from ``_get_raw()``.

Speed: ``game.load_state`` of 20 seeded random-play positions (1-4 seats), the min of
repeats on a shared machine (noise about 20%), before -> after the loader moved here:
compiled JSON 113 -> 93 µs, msgpack 101 -> 75 µs; pure Python JSON 315 -> 373 µs,
msgpack 327 -> 269 µs. Building the raw dict costs little beside decoding and checking.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib.errors import InvalidStateError

from .dream_cruise import PHASES as _PHASES

if not cython.compiled:
    # The enum constants of the core's .pxd and of this module's (compiled: C constants,
    # cimported); _pop3 is the core's cdef helper (cimported compiled).
    from cruiselib._core.constants import enum_constants

    from .dream_cruise import _pop3

    globals().update(enum_constants(__name__.rpartition(".")[2].removesuffix("_snapshot")))  # the core's .pxd
    globals().update(enum_constants(__name__.rpartition(".")[2]))

_BAD = "invalid Dream Cruise state: "
_KINDS = ("family", "location card", "ship card")


# ---------------------------------------------------------------------- the raw state


def set_raw(core, raw):
    """Write the full state ``raw`` (a dict as the core's ``_get_raw()`` returns it) into
    ``core``: the inverse of ``_get_raw``. The seat to act (``cur``) and the counts the
    rules keep beside the cards (shore and sea cards kept, the points piles' points, hand
    sizes) are derived, not read. Not a check: ``raw`` comes from ``_get_raw`` or from
    :func:`load_checked` after its checks (counts are bounded so the C arrays are safe)."""
    n = core.rules.num_players
    phase = raw["phase"]
    core.seats = n
    core.rng = raw["rng"]
    core.phase_index = phase
    core.round_number = raw["round"]
    core.start_seat = raw["start"]
    core.first_seat = raw["first"]
    core.turn = raw["turn"]
    core.to_act = -1 if phase == PH_OVER else (raw["first"] + raw["turn"]) % n
    core.last_round = bool(raw["final"])
    _clear_seats(core)
    for p in range(n):
        _set_seat(core, raw, p)
    for k in range(MAXSETS):
        core.display_n[k] = 0
        core.display_taken_by[k] = -1
    display = raw["display"]
    _bounded(len(display), MAXSETS)
    for k in range(len(display)):
        core.display_n[k] = _fill(core.display_cards, k * 2, display[k], 2)
        core.display_taken_by[k] = raw["taken"][k]
    core.family_deck_n = _fill(core.family_deck, 0, raw["family_deck"], MAXF)
    core.family_discard_n = _fill(core.family_discard, 0, raw["family_discard"], MAXF)
    core.family_box_n = _fill(core.family_box, 0, raw["family_box"], MAXF)
    core.jana_pile_n = _fill(core.jana_pile, 0, raw["jana_pile"], MAXF)
    core.location_deck_n = _fill(core.location_deck, 0, raw["location_deck"], MAXL)
    core.location_discard_n = _fill(core.location_discard, 0, raw["location_discard"], MAXL)
    core.jana_locations_n = _fill(core.jana_locations, 0, raw["jana_locations"], MAXL)
    core.ship_deck_n = _fill(core.ship_deck, 0, raw["ship_deck"], MAXS)
    core.ship_discard_n = _fill(core.ship_discard, 0, raw["ship_discard"], MAXS)


def _clear_seats(core):
    """Every seat's boards, hands and counts empty (the seats a game does not have too)."""
    for i in range(MAXP * MAXS):
        core.hand[i] = 0
        core.known[i] = 0
    for p in range(MAXP):
        core.hand_n[p] = 0
        core.drawn_n[p] = 0
        core.played_n[p] = 0
        core.points_pile_n[p] = 0
        core.pile_points[p] = 0
        core.sea_cards[p] = 0
        core.location_card[p] = -1
        core.activity_card1[p] = -1
        core.activity_card2[p] = -1
        core.captain_spot[p] = -1
        for i in range(NREG):
            core.region_cards[p * NREG + i] = 0
        for c in range(NCAB):
            core.cabin_family[p * NCAB + c] = -1
            core.cabin_figures[p * NCAB + c] = 0
        for j in range(MAXADD):
            core.addition_card[p * MAXADD + j] = -1
            core.addition_guests[p * MAXADD + j] = 0
        for s in range(3):
            core.location_guests[p * 3 + s] = 0


def _set_seat(core, raw, p):
    """Seat ``p`` of ``raw`` into the arrays, its derived counts recomputed."""
    rules = core.rules
    for c in range(NCAB):
        core.cabin_family[p * NCAB + c] = raw["cabins"][p][c]
        core.cabin_figures[p * NCAB + c] = raw["left"][p][c]
    for j in range(rules.nadd):
        core.addition_card[p * MAXADD + j] = raw["additions"][p][j]
        core.addition_guests[p * MAXADD + j] = raw["addition_guests"][p][j]
    core.location_card[p] = raw["location"][p]
    core.activity_card1[p] = raw["slots"][p][0]
    core.activity_card2[p] = raw["slots"][p][1]
    for s in range(3):
        core.location_guests[p * 3 + s] = raw["location_guests"][p][s]
    core.captain_spot[p] = raw["captain"][p]
    core.played_n[p] = _fill(core.played, p * MAXL, raw["played"][p], MAXL)
    for i in range(core.played_n[p]):
        x = core.played[p * MAXL + i]
        if rules.l_sea[x]:
            core.sea_cards[p] += 1
        else:
            core.region_cards[p * NREG + rules.l_region[x]] += 1
    core.points_pile_n[p] = _fill(core.points_pile, p * MAXF, raw["pile"][p], MAXF)
    for i in range(core.points_pile_n[p]):
        core.pile_points[p] += rules.f_points[core.points_pile[p * MAXF + i]]
    for x in raw["hands"][p]:
        _bounded(x, MAXS - 1)
        core.hand[p * MAXS + x] = 1
        core.hand_n[p] += 1
    for x in raw["known"][p]:
        _bounded(x, MAXS - 1)
        core.known[p * MAXS + x] = 1
    core.drawn_n[p] = _fill(core.drawn, p * MAXDRAWN, raw["drawn"][p], MAXDRAWN)


def _fill(arr, off, cards, room):
    """Copy a list of card ids into arr[off:off + room] (ids below the arrays' sizes); the count."""
    n = 0
    _bounded(len(cards), room)
    for x in cards:
        arr[off + n] = x
        n += 1
    return n


def _bounded(k, most):
    """k within 0 .. most, or ValueError (a raw state that would write outside the arrays)."""
    if not 0 <= k <= most:
        raise ValueError(f"{k} is not within 0..{most}")
    return 0


# ---------------------------------------------------------------------- the loader


def load_checked(core, d, history):
    """Validate a decoded DreamCruiseStateData and load it into ``core`` (the game checked
    the header: game, players, options, card set). Raises InvalidStateError naming the
    problem.

    Every id and count is checked before it is used, so a tampered state never reaches
    the arrays: every card is in exactly one place, every figure count and figure set
    fits its card, the phase, turn and display agree. Derived values (route counts,
    pile points) are recomputed (:func:`set_raw`). With ``history``, also that play can
    have led here (round 1 boarded nobody, the face-down set went to a seat that was not
    the start player ...); ``history=False`` is for rule tests that set up free positions.
    Meant for a fresh state: a failed load leaves this one half written.
    """
    n = core.rules.num_players
    phase = _PHASES.index(d.phase)
    seats = d.seats
    if len(seats) != n:
        raise InvalidStateError(f"{_BAD}{len(seats)} seats for {n} players")
    if not (0 <= d.start_player < n and 0 <= d.first_player < n):
        raise InvalidStateError(f"{_BAD}start_player and first_player are seats 0..{n - 1}")
    if not 0 <= d.turn < n:
        raise InvalidStateError(f"{_BAD}turn {d.turn} is not 0..{n - 1}")
    if history and core.rules.solo and d.start_player != 0:
        raise InvalidStateError(f"{_BAD}in solo the player holds the start-player token")
    if not core.rules.solo and (d.jana_pile or d.jana_locations):
        raise InvalidStateError(f"{_BAD}Jana plays only in the solo game (C9)")
    _check_places(core, d, phase)
    for p in range(n):
        for name, cards in (("hand", seats[p].hand), ("known", seats[p].known)):
            for i in range(1, len(cards)):
                if cards[i - 1] >= cards[i]:
                    raise InvalidStateError(f"{_BAD}seat {p}: the {name} cards are listed in ascending order")
    set_raw(core, _raw_of(core, d, phase))
    for p in range(n):
        k = 0
        for x in d.seats[p].known:
            if not core.hand[p * MAXS + x]:
                raise InvalidStateError(f"{_BAD}seat {p}: known card {x} is not in the hand")
            k += 1
        for x in range(core.rules.ns):
            k -= core.known[p * MAXS + x]
        if k:
            raise InvalidStateError(f"{_BAD}seat {p}: a known card is listed twice")
    _check_position(core, d, phase, history)


def _raw_of(core, d, phase):
    """The raw state (``_get_raw``'s dict) of the snapshot ``d``, whose cards are checked;
    the figure sets become 3-bit sets here (checked: ascending cabins, each once)."""
    n = core.rules.num_players
    seats = d.seats
    rng = int(d.rng, 16)
    addition_guests = []
    location_guests = []
    for p in range(n):
        addition_guests.append([_colour_bits(g) for g in seats[p].addition_guests])
        location_guests.append([_colour_bits(g) for g in seats[p].location_guests])
    return {
        "rng": rng,
        "phase": phase,
        "round": d.round,
        "start": d.start_player,
        "first": d.first_player,
        "turn": d.turn,
        "final": bool(d.final_round),
        "cabins": [s.families for s in seats],
        "left": [s.figures_left for s in seats],
        "additions": [s.additions for s in seats],
        "addition_guests": addition_guests,
        "location": [s.location for s in seats],
        "slots": [s.activity_cards for s in seats],
        "location_guests": location_guests,
        "captain": [s.captain for s in seats],
        "played": [s.played for s in seats],
        "pile": [s.points_pile for s in seats],
        "hands": [s.hand for s in seats],
        "known": [s.known for s in seats],
        "drawn": [s.drawn for s in seats],
        "display": [x.cards for x in d.display],
        "taken": [x.taken_by for x in d.display],
        "family_deck": d.family_deck,
        "family_discard": d.family_discard,
        "family_box": d.family_box,
        "location_deck": d.location_deck,
        "location_discard": d.location_discard,
        "ship_deck": d.ship_deck,
        "ship_discard": d.ship_discard,
        "jana_pile": d.jana_pile,
        "jana_locations": d.jana_locations,
    }


def _check_places(core, d, phase):
    """Each card in exactly one place: ``card_zone`` holds the zone of every card seen so far."""
    n = core.rules.num_players
    for i in range(MAXF + MAXL + MAXS):
        core.card_zone[i] = -1
    _claim(core, 0, d.family_deck, Z_DECK)
    _claim(core, 0, d.family_discard, Z_DISCARD)
    _claim(core, 0, d.family_box, Z_BOX)
    _claim(core, 0, d.jana_pile, Z_JANA)
    _claim(core, MAXF, d.location_deck, Z_DECK)
    _claim(core, MAXF, d.location_discard, Z_DISCARD)
    _claim(core, MAXF, d.jana_locations, Z_JANA)
    _claim(core, MAXF + MAXL, d.ship_deck, Z_DECK)
    _claim(core, MAXF + MAXL, d.ship_discard, Z_DISCARD)
    for k in range(len(d.display)):
        _claim(core, MAXF + MAXL, d.display[k].cards, Z_DISPLAY + k)
    for p in range(n):
        _check_seat_places(core, d.seats[p], p, phase)
    for f in range(core.rules.nf):
        letter = core.rules.f_start[f]
        z = core.card_zone[f]
        if letter < 0:
            if z < 0:
                raise InvalidStateError(f"{_BAD}family {f} is nowhere")
        elif letter >= n:
            if z >= 0:
                raise InvalidStateError(f"{_BAD}starting family {f} is not in a game of {n} (C21)")
        elif not (z // Z_SEAT == letter + 1 and (z % Z_SEAT < Z_CABIN + NCAB or z % Z_SEAT == Z_PILE)):
            raise InvalidStateError(
                f"{_BAD}starting family {f} belongs in a cabin or the points pile of seat {letter} (C21)"
            )
    for x in range(core.rules.nl):
        if core.card_zone[MAXF + x] < 0:
            raise InvalidStateError(f"{_BAD}location card {x} is nowhere")
    for x in range(core.rules.ns):
        if core.card_zone[MAXF + MAXL + x] < 0:
            raise InvalidStateError(f"{_BAD}ship card {x} is nowhere")


def _check_seat_places(core, s, p, phase):
    """The cards of seat ``p``'s boards, piles and hand claimed; the sizes of its lists."""
    z = Z_SEAT + p * Z_SEAT
    if len(s.families) != NCAB or len(s.figures_left) != NCAB:
        raise InvalidStateError(f"{_BAD}seat {p}: three cabins")
    if len(s.additions) != core.rules.nadd or len(s.addition_guests) != core.rules.nadd:
        raise InvalidStateError(f"{_BAD}seat {p}: {core.rules.nadd} addition spaces (C6)")
    if len(s.activity_cards) != 2 or len(s.location_guests) != 3:
        raise InvalidStateError(f"{_BAD}seat {p}: two activity-card places and three location spots")
    for c in range(NCAB):
        f = s.families[c]
        if f >= 0:
            _claim(core, 0, (f,), z + Z_CABIN + c)
            if not 0 <= s.figures_left[c] <= core.rules.f_members[f]:
                raise InvalidStateError(
                    f"{_BAD}seat {p} cabin {c}: {s.figures_left[c]} figures left of {core.rules.f_members[f]}"
                )
        elif s.figures_left[c] != 0:
            raise InvalidStateError(f"{_BAD}seat {p} cabin {c} is empty but has figures")
    _claim(core, 0, s.points_pile, z + Z_PILE)
    _claim(core, MAXF, s.played, z + Z_PLAYED)
    _claim(core, MAXF + MAXL, s.hand, z + Z_HAND)
    for j in range(core.rules.nadd):
        x = s.additions[j]
        if x >= 0:
            _claim(core, MAXF + MAXL, (x,), z + Z_ADDITION + j)
            if not core.rules.s_add[x]:
                raise InvalidStateError(f"{_BAD}seat {p}: ship card {x} on an addition space is no addition")
            if j > 0 and s.additions[j - 1] < 0:
                raise InvalidStateError(f"{_BAD}seat {p}: additions fill the first free space (C17)")
    for x in s.activity_cards:
        if x >= 0:
            _claim(core, MAXF + MAXL, (x,), z + Z_ON_LOCATION)
            if core.rules.s_add[x]:
                raise InvalidStateError(f"{_BAD}seat {p}: ship card {x} on the location card is no activity card")
    if s.drawn:
        if phase == PH_BOARDING:
            _claim(core, 0, s.drawn, z + Z_DRAWN)
        elif phase == PH_SET_COURSE:
            _claim(core, MAXF, s.drawn, z + Z_DRAWN)
        else:
            raise InvalidStateError(f"{_BAD}seat {p} holds drawn cards outside phases 1 and 2")


def _claim(core, base, cards, zone):
    """Mark each card of ``cards`` (kind by ``base``) as in ``zone``; InvalidStateError
    for an id out of range or a card already elsewhere."""
    size = core.rules.nf if base == 0 else (core.rules.nl if base == MAXF else core.rules.ns)
    for x in cards:
        if not 0 <= x < size:
            raise InvalidStateError(f"{_BAD}{_zone_name(base, zone)}: {_KINDS[_kind(base)]} {x} does not exist")
        if core.card_zone[base + x] == zone:
            raise InvalidStateError(f"{_BAD}{_KINDS[_kind(base)]} {x} is listed twice in {_zone_name(base, zone)}")
        if core.card_zone[base + x] >= 0:
            raise InvalidStateError(
                f"{_BAD}{_KINDS[_kind(base)]} {x} is both in "
                f"{_zone_name(base, core.card_zone[base + x])} and in {_zone_name(base, zone)}"
            )
        core.card_zone[base + x] = zone
    return 0


# ---------------------------------------------------------------------- the position


def _check_position(core, d, phase, history):
    """The arrays are loaded and every card is in one place: now the position itself."""
    n = core.seats
    if d.current_player != core.c_current():
        raise InvalidStateError(
            f"{_BAD}current_player {d.current_player} is not the seat whose turn it is ({core.c_current()})"
        )
    for p in range(n):
        _check_seat_board(core, p, d.seats[p].played, history)
    # Phase by phase: who still decides, the display.
    if (len(d.display) != 0) != (phase == PH_ENTERTAINMENT) or (
        phase == PH_ENTERTAINMENT and len(d.display) != core.rules.nsets
    ):
        raise InvalidStateError(f"{_BAD}the display has {core.rules.nsets} sets in phase 3 and none otherwise")
    if phase == PH_ENTERTAINMENT:
        _check_display(core, history)
    for p in range(n):
        _check_seat_phase(core, p, phase, history)
    if phase == PH_OVER and core.turn != 0:
        raise InvalidStateError(f"{_BAD}a finished game has turn 0")
    if phase == PH_OVER and history and not core.last_round:
        raise InvalidStateError(f"{_BAD}the game ended in a round that was not the last (C8)")
    if core.rules.solo and history and core.jana_pile_n < core.rules.difficulty:
        raise InvalidStateError(f"{_BAD}Jana's pile is smaller than the difficulty (C9)")
    if history:
        _check_last_round(core, phase)


def _check_seat_board(core, p, played, history):
    """Seat ``p``'s current location card, its activity cards, the captain and the guests."""
    x = core.location_card[p]
    on_card = core.activity_card1[p] >= 0 or core.activity_card2[p] >= 0 or core.captain_spot[p] >= 0
    for s in range(3):
        on_card = on_card or core.location_guests[p * 3 + s] != 0
    if x >= 0 and (not played or played[len(played) - 1] != x):
        raise InvalidStateError(f"{_BAD}seat {p}: the current location card is the last one kept")
    # C4, C16, C20: each earlier round kept one location card per seat for good (a seat
    # that could draw none would have made that round the last), then this round's own
    # once chosen. So the round follows from the cards kept, and play from a loaded
    # position never runs past the rounds a snapshot can hold.
    if history and len(played) != core.round_number - 1 + (1 if x >= 0 else 0):
        raise InvalidStateError(
            f"{_BAD}seat {p} kept {len(played)} location card(s) by round {core.round_number}: one in each "
            "earlier round, and this round's once chosen (C4, C16, C20)"
        )
    if x < 0 and on_card:
        raise InvalidStateError(f"{_BAD}seat {p}: activity cards, guests or the captain on no location card")
    if x >= 0:
        if not core.rules.l_sea[x] and core.activity_card2[p] >= 0:
            raise InvalidStateError(f"{_BAD}seat {p}: a shore card takes one activity card")
        if core.rules.l_sea[x] and core.activity_card2[p] >= 0 and core.activity_card1[p] < 0:
            raise InvalidStateError(f"{_BAD}seat {p}: activity cards fill the first free slot (C17)")
        if core.captain_spot[p] > 2 or (core.captain_spot[p] >= 0 and core._spot(p, core.captain_spot[p]) < 0):
            raise InvalidStateError(f"{_BAD}seat {p}: the captain stands on no activity (C5)")
    elif core.captain_spot[p] != -1:
        raise InvalidStateError(f"{_BAD}seat {p}: the captain stands on no location card")
    for s in range(core.rules.nspot):
        occ = core.location_guests[p * 3 + s] if s < 3 else core.addition_guests[p * MAXADD + s - 3]
        if occ == 0:
            continue
        v = core._spot(p, s)
        if v < 0:
            raise InvalidStateError(f"{_BAD}seat {p}: guests on spot {s}, which holds no activity")
        if _pop3(occ) > (v >> 4) & 15:
            raise InvalidStateError(f"{_BAD}seat {p}: more guests on spot {s} than it takes")
        for c in range(NCAB):
            if (occ >> c) & 1 and core.cabin_family[p * NCAB + c] < 0:
                raise InvalidStateError(f"{_BAD}seat {p}: a guest of empty cabin {c} on spot {s}")
    for c in range(NCAB):
        f = core.cabin_family[p * NCAB + c]
        if f < 0:
            continue
        out = 0
        for s in range(core.rules.nspot):
            occ = core.location_guests[p * 3 + s] if s < 3 else core.addition_guests[p * MAXADD + s - 3]
            out += (occ >> c) & 1
        if out > core.rules.f_members[f] - core.cabin_figures[p * NCAB + c]:
            raise InvalidStateError(f"{_BAD}seat {p}: more guests of cabin {c} placed than left its card")


def _check_display(core, history):
    """Phase 3: the sets taken, by the seats that chose already (C7)."""
    taken = 0
    for k in range(core.rules.nsets):
        q = core.display_taken_by[k]
        if q >= 0:
            if q >= core.seats or core.display_n[k] != 0:
                raise InvalidStateError(f"{_BAD}display set {k}: a taken set is in a hand")
            if core._turn_of(q) >= core.turn:
                raise InvalidStateError(f"{_BAD}display set {k} taken by seat {q}, who has not chosen yet")
            taken += 1
        elif q != -1:
            raise InvalidStateError(f"{_BAD}display set {k}: taken_by is a seat or -1")
    if taken != core.turn:
        raise InvalidStateError(f"{_BAD}{core.turn} seats chose a set, but {taken} sets are taken")
    if history and not core.rules.solo and core.display_taken_by[0] == core.first_seat:
        raise InvalidStateError(f"{_BAD}the start player took the face-down set (C7)")


def _check_seat_phase(core, p, phase, history):
    """Seat ``p``'s drawn cards and phase 4 play fit the phase and its turn."""
    t = core._turn_of(p)
    if phase == PH_BOARDING:
        if core.drawn_n[p] > 0 and t < core.turn:
            raise InvalidStateError(f"{_BAD}seat {p} boarded already but still holds drawn cards")
        if core.drawn_n[p] > 2 * core._empty_cabins(p) + (2 * NCAB if t == core.turn else 0):
            raise InvalidStateError(f"{_BAD}seat {p} holds more drawn families than it could draw")
        if t == core.turn and (core.drawn_n[p] == 0 or core._empty_cabins(p) == 0):
            raise InvalidStateError(f"{_BAD}seat {p} is to board but has no drawn family or no empty cabin")
        if core.drawn_n[p] > 2 * NCAB:
            raise InvalidStateError(f"{_BAD}seat {p} holds more than six drawn families")
        if core.location_card[p] >= 0:
            raise InvalidStateError(f"{_BAD}seat {p} has a current location card before phase 2")
        if history and core.round_number == 1:
            raise InvalidStateError(f"{_BAD}round 1 has no boarding (C15)")
    elif phase == PH_SET_COURSE:
        if core.drawn_n[p] > 3 or (t < core.turn and core.drawn_n[p] > 0):
            raise InvalidStateError(f"{_BAD}seat {p}: drawn location cards do not fit the turn")
        if t == core.turn and core.drawn_n[p] == 0:
            raise InvalidStateError(f"{_BAD}seat {p} is to keep a location card but drew none")
        if t >= core.turn and core.location_card[p] >= 0:
            raise InvalidStateError(f"{_BAD}seat {p} has a current location card before choosing")
    elif core.drawn_n[p] > 0:
        raise InvalidStateError(f"{_BAD}seat {p} holds drawn cards outside phases 1 and 2")
    if phase != PH_SET_SAIL and phase != PH_OVER:
        if (
            core.captain_spot[p] >= 0
            or core.activity_card1[p] >= 0
            or core.activity_card2[p] >= 0
            or core.location_guests[p * 3]
            or core.location_guests[p * 3 + 1]
            or core.location_guests[p * 3 + 2]
        ):
            raise InvalidStateError(f"{_BAD}seat {p}: phase 4 play outside phase 4")


def _check_last_round(core, phase):
    """Whether this round is the last (``final_round``) follows from the rest of the
    position, and so do the draws that decide it (C8, C16, C20); a flag that disagrees
    would let play run into a round that cannot be (or end a game that goes on).

    Location cards: every earlier round was not the last, so each seat drew three and
    kept one for good (C4); in solo the other two went to Jana (C9), else back to the
    discard pile. So this round's phase 2 found ``avail`` cards in deck and discard
    pile; the seat ``t``-th in turn order drew ``min(3, avail - 3t)`` of them (none
    once they ran out, C14, C16) and keeps one if it drew any; the round is the last
    when ``avail < 3 * seats`` (C20). Family cards: every empty cabin was filled in each
    earlier round, so the cabins emptied by the families now in the points piles drew
    two cards each, and in solo Jana one a round from round 2 (C9, C15); the round is
    the last when those draws ask for more than the deck held (C8, C16); before that
    the deck holds exactly the rest and, once boarded, every cabin is full."""
    n = core.seats
    solo = core.rules.solo
    per_round = 3 if solo else n
    avail = core.rules.nl - per_round * (core.round_number - 1)
    if core.round_number > 1 and avail + per_round < 3 * n:
        raise InvalidStateError(
            f"{_BAD}round {core.round_number - 1} was the last: its phase 2 found {avail + per_round} location "
            f"card(s) for {n} seat(s) drawing three (C16, C20)"
        )
    last = False
    jana = 2 * (core.round_number - 1)
    if phase != PH_BOARDING:  # the location cards of this round are drawn
        last = avail < 3 * n
        for p in range(n):
            t = core._turn_of(p)
            drew = min(3, max(0, avail - 3 * t))
            if phase != PH_SET_COURSE or t < core.turn:
                if (core.location_card[p] >= 0) != (drew > 0):
                    raise InvalidStateError(
                        f"{_BAD}seat {p} drew {drew} location card(s) this round and keeps one if it drew "
                        f"any (C16, C20), but its current location card is {core.location_card[p]}"
                    )
                if solo and drew > 0:
                    jana += drew - 1
            elif core.drawn_n[p] != drew:
                raise InvalidStateError(
                    f"{_BAD}seat {p} holds {core.drawn_n[p]} drawn location card(s); its draw in phase 2 "
                    f"found {drew} (C14, C16)"
                )
        if last and core.location_deck_n != 0:
            raise InvalidStateError(f"{_BAD}location cards left in the deck in the round they ran out (C20)")
    if solo and (core.jana_locations_n != jana or core.location_discard_n != 0):
        raise InvalidStateError(
            f"{_BAD}Jana holds {core.jana_locations_n} location card(s) by round {core.round_number}: "
            "the two the player "
            f"did not keep in each round drawn so far, {jana}, and the discard pile none (C9)"
        )
    if phase == PH_OVER:
        return  # a finished game is in its last round (checked above, C8)
    piles = 0
    for p in range(n):
        piles += core.points_pile_n[p]
    demand = 2 * piles + (core.round_number - 1 if solo else 0)
    if demand > core.rules.deck_size:
        last = True
    else:
        if core.family_deck_n != core.rules.deck_size - demand:
            raise InvalidStateError(
                f"{_BAD}{core.family_deck_n} card(s) in the family deck; the {demand} drawn by round "
                f"{core.round_number} "
                f"leave {core.rules.deck_size - demand} (C8, C16)"
            )
        for p in range(n):
            t = core._turn_of(p)
            e = core._empty_cabins(p)
            if phase == PH_BOARDING and t >= core.turn:
                ok = core.drawn_n[p] == 2 * e if t > core.turn else core.drawn_n[p] >= 2 * e
            else:
                ok = e == 0
            if not ok:
                raise InvalidStateError(
                    f"{_BAD}seat {p}: {e} empty cabin(s) and {core.drawn_n[p]} drawn family card(s) in a round "
                    "whose family deck did not run out: each empty cabin draws two and is filled (C8, C16)"
                )
    if core.last_round != last:
        raise InvalidStateError(
            f"{_BAD}final_round is {bool(core.last_round)}, but round {core.round_number} is "
            f"{'' if last else 'not '}the last: "
            f"its phase 2 {'found' if phase != PH_BOARDING else 'will find'} {avail} location card(s) for {n} "
            f"seat(s) (C20), and its boarding drew {demand} of {core.rules.deck_size} families (C8, C16)"
        )


# ---------------------------------------------------------------------- helpers


def _kind(base):
    return 0 if base == 0 else (1 if base == MAXF else 2)


def _zone_name(base, zone):
    """Where a card is, for an error message (the zones of ``_check_places``)."""
    if zone < Z_SEAT:
        if zone >= Z_DISPLAY:
            return f"display set {zone - Z_DISPLAY}"
        return ("the deck", "the discard pile", "the box", "Jana's cards")[zone]
    p = zone // Z_SEAT - 1
    z = zone % Z_SEAT
    if z < Z_CABIN + NCAB:
        return f"seat {p} cabin {z - Z_CABIN}"
    if Z_ADDITION <= z < Z_ADDITION + MAXADD:
        return f"seat {p} addition space {z - Z_ADDITION}"
    names = {
        Z_PILE: "points pile",
        Z_PLAYED: "play area",
        Z_HAND: "hand",
        Z_ON_LOCATION: "location card",
        Z_DRAWN: "drawn cards",
    }
    return f"seat {p} {names.get(z, 'board')}"


def _colour_bits(cabins):
    """The 3-bit set of a figure list: cabins 0..2, ascending, each once (as exported)."""
    m = 0
    last = -1
    for c in cabins:
        if not last < c < 3:
            raise InvalidStateError(f"{_BAD}a figure set lists cabins 0..2, ascending, each once, not {list(cabins)}")
        m |= 1 << c
        last = c
    return m
