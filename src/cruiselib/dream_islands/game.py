"""Dream Islands: the :class:`DreamIslandsGame` configuration and the :class:`DreamIslandsState`.

The rules themselves live in the compiled core (``cruiselib._core.dream_islands``), and so
do views, resampling and the tensors (declared there, with their ranges); the validation
of loaded states is its twin ``dream_islands_snapshot``. This module adds options, typed
moves and serialization.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from cruiselib import _core, serialize
from cruiselib._api import Game, NotationTemplate, State, normalize_move_text
from cruiselib.dream_islands import _ending, integrations, schema
from cruiselib.dream_islands.moves import (
    MIDDLE,
    MISSIONS,
    MOVE_TYPES,
    Cover,
    Draw,
    DreamIslandsMove,
    Path,
    PutUnder,
    mission_name,
    notation_templates,
    place_name,
)
from cruiselib.dream_islands.schema import (
    ROUND_CAP,
    SCHEMA_VERSION,
    DreamIslandsStateData,
    DreamIslandsView,
)
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = ["DreamIslandsGame", "DreamIslandsState", "paths_of_flow"]

_core_mod = _core.load("dream_islands")
_rng = _core.load("rng")

PHASES = _core_mod.PHASES
NEDGE = _core_mod.LIMITS["edges"]
NMIS = _core_mod.LIMITS["missions"]
SMALL_VALUES = _core_mod.SMALL_VALUES


# A cover's text, normalized (cruiselib._api.normalize_move_text): "cover 3 1 piece island 2
# to 5", its paths in any split and order; "1 piece" and "island" may be left out.
_COVER = re.compile(r"cover ([2-5])(?: (.*))?")
_PATH = re.compile(
    r"(?:([1-6]) pieces? )?(airplane|plane|island [1-8]|[1-8]) to (middle|mid|island [1-8]|[1-8])(?: |$)"
)
_PLACES = {"airplane": 0, "plane": 0, "middle": MIDDLE, "mid": MIDDLE}


def _place(word: str) -> int:
    return _PLACES[word] if word in _PLACES else int(word.rsplit(" ", 1)[-1])


def upgrade_memory(data: dict[str, Any]) -> dict[str, Any]:
    """Schema version 2 to 3: ``hand_avoids`` (I16) is new. A version 2 snapshot kept no
    memory of play, so every hand's memory starts empty (one empty set per card)."""
    hands = data.get("hands")
    memory: list[list[int]] = []
    if isinstance(hands, list):  # anything else fails the typed decode after this step
        memory = [[0] * len(h) if isinstance(h, list) else [] for h in hands]
    return {**data, "schema_version": 3, "hand_avoids": memory}


def _edge(u: int, end: int) -> tuple[int, int]:
    """The edge a piece on place u takes toward ``end``, and the place it reaches."""
    if u == 8:
        return (9, MIDDLE) if end == MIDDLE else (8, 1)
    return u, u + 1


def paths_of_flow(flow: tuple[int, ...]) -> tuple[Path, ...]:
    """A canonical split of an edge flow into paths (I3): sources in board order, each
    piece walking until the first place that still needs an arrival."""
    f = list(flow)
    delta = _core_mod.flow_delta(flow)
    supply = [max(0, -d) for d in delta]
    need = [max(0, d) for d in delta]
    found: Counter[tuple[int, int]] = Counter()
    for s in range(9):
        while supply[s] > 0:
            supply[s] -= 1
            u = s
            while True:
                if u == 8:
                    e, v = (9, MIDDLE) if f[9] > 0 else (8, 1)
                else:
                    e, v = u, u + 1
                f[e] -= 1
                u = v
                if need[u] > 0:
                    need[u] -= 1
                    break
            found[(s, u)] += 1
    return tuple(Path(a, b, k) for (a, b), k in sorted(found.items()))


@functools.cache
def _move_table() -> tuple[DreamIslandsMove, ...]:
    # The action layout does not depend on the player count (see the core's docstring).
    rules = _core_mod.DreamIslandsRules(2, 0)
    moves: list[DreamIslandsMove] = []
    for a in range(rules.a_put):
        number = rules.action_number(a)
        if a == rules.cover_action(number):
            moves.append(Cover(number))
        else:
            moves.append(Cover(number, paths_of_flow(rules.action_flow(a))))
    moves.extend(PutUnder(m) for m in range(NMIS))
    moves.append(Draw())
    return tuple(moves)


if TYPE_CHECKING:
    from cruiselib._core.dream_islands import DreamIslandsCore as _CoreState
else:
    _CoreState = _core_mod.DreamIslandsCore


class DreamIslandsState(State[DreamIslandsMove, DreamIslandsStateData, DreamIslandsView], _CoreState):
    """A Dream Islands position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: DreamIslandsGame

    def _to_data(self) -> DreamIslandsStateData:
        data: DreamIslandsStateData = self._export()
        return data

    def view(self, player: int, *, recall: bool = False) -> DreamIslandsView:
        """What ``player`` may see: the board, all counts, the own hand and own bottom cards;
        with ``recall``, also what play has shown everybody of each hand (I16)."""
        view: DreamIslandsView = self._view(self._seat(player), bool(recall))
        return view

    def _move_text(self, action: int, private: bool) -> str:
        """The move with what it shows the table: the missions a cover completes (they go
        face up) and how many cards a draw takes (hand sizes are public). The mission a
        seat puts under its pile stays hidden from the others (I6): named only when
        ``private``."""
        move = self.game.action_to_move(action)
        if isinstance(move, PutUnder):
            return str(move) if private else "put a mission card under the draw pile (hidden)"
        seat = self.current_player
        before = self.view(seat).seats[seat]
        after_state = self.clone()
        after_state.apply(action)
        after = after_state.view(seat).seats[seat]
        if isinstance(move, Draw):
            drawn = after.hand_size - before.hand_size
            return f"{move}: draws {drawn or 'no'} card{'' if drawn == 1 else 's'}"
        done = [m for m in after.completed if m not in before.completed]
        if done:
            missions = ", ".join(f"'{mission_name(m)}'" for m in done)
            return f"{move}; completes {missions}"
        return str(move)


class DreamIslandsGame(Game[DreamIslandsState, DreamIslandsMove]):
    """Dream Islands for 2 to 4 players.

    Options: ``players`` (2, 3 or 4; default 4) and ``max_rounds`` (ruling I9: end the game
    after that many complete rounds, 1 to ``ROUND_CAP``; default None, no limit, as printed,
    but for the round counter's cap, I15).
    """

    name = "dream_islands"
    core_module = _core_mod.__name__.rpartition(".")[2]  # the core loaded above: named once
    player_counts = integrations.PLAYER_COUNTS
    example_configurations = integrations.EXAMPLE_CONFIGURATIONS
    rule_bot = "cruiselib.dream_islands.rulebot:RuleBot"
    search = integrations.SEARCH
    openspiel = integrations.OPENSPIEL
    web = integrations.WEB
    picture = "cruiselib.dream_islands.picture:draw"
    positions = "cruiselib.dream_islands.position:DreamIslandsPositions"
    title = "Dream Islands"
    how_to_win = _ending.HOW_TO_WIN
    how_it_ends = _ending.HOW_IT_ENDS
    schema_version = SCHEMA_VERSION
    schema_migrations: ClassVar[Mapping[int, serialize.Migration]] = {
        1: serialize.upgrade_rng_to_text,
        2: upgrade_memory,
    }
    state_data_type = DreamIslandsStateData
    view_type = DreamIslandsView
    move_type = DreamIslandsMove
    move_classes = MOVE_TYPES
    # 16 missions x 2 + 3 bonus + at most 3 + 2 + 2 + 1 + 1 + 1 for six pieces in the middle.
    score_bounds = (0, _core_mod.LIMITS["score"])

    def end_reason(self, state: DreamIslandsState) -> str | None:
        """Why the finished game ``state`` ended, naming the rule (I7, I9, I15); None while it goes on."""
        return _ending.end_reason(state)

    def __init__(self, players: int = 4, max_rounds: int | None = None) -> None:
        self._check_players(players)
        if max_rounds is not None and (type(max_rounds) is not int or not 1 <= max_rounds <= ROUND_CAP):
            raise InvalidOptionError(
                f"max_rounds must be None or an int from 1 to {ROUND_CAP} (I9, I15), not {max_rounds!r}"
            )
        self.num_players = players
        self.max_rounds = max_rounds
        self._use_core(_core_mod, DreamIslandsState)
        self.num_actions = int(self.rules.num_actions)
        self._all_moves = _move_table()
        self._move_index = {m: a for a, m in enumerate(self._all_moves)}

    def _use_core(self, module: Any, state_class: type[DreamIslandsState]) -> None:
        self._core = module
        self._state_class = state_class
        self.rules = module.DreamIslandsRules(self.num_players, self.max_rounds or 0)
        # The schema's own game name (a subclass registered under another name writes
        # snapshots of this game: the schema accepts no other).
        self.rules._set_schema(schema, DreamIslandsGame.name)

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"players": self.num_players}
        if self.max_rounds is not None:
            opts["max_rounds"] = self.max_rounds
        return opts

    # ------------------------------------------------------------------ states

    def _deal(self, rng_state: int, start_player: int) -> DreamIslandsState:
        """A new game; seat 0 is always the start player (I8)."""
        if start_player not in (-1, 0):
            raise InvalidOptionError(f"in Dream Islands seat 0 always starts (I8), not seat {start_player}")
        state = self._state_class(self.rules, self)
        state._new_game(rng_state, start_player)  # the core ignores the start seat: seat 0 (I8)
        return state

    # ------------------------------------------------------------------ moves

    def _decode_action(self, action: int) -> DreamIslandsMove:
        move: DreamIslandsMove = self._all_moves[action]
        return move

    def _encode_move(self, move: Any) -> int:
        """Any split of a number maps to the action of its result (I3)."""
        if isinstance(move, Cover):
            if not 2 <= move.number <= 5:
                raise IllegalMoveError(f"{move!r}: the numbers are 2, 3, 4 and 5")
            if not move.paths:
                return int(self.rules.cover_action(move.number))
            flow = [0] * NEDGE
            for path in move.paths:
                if not isinstance(path, Path):
                    raise IllegalMoveError(f"{move!r}: a path is a Path, not {path!r}")
                if not (0 <= path.start <= 8 and 1 <= path.end <= 9 and path.start != path.end and path.pieces >= 1):
                    raise IllegalMoveError(f"{move!r}: no piece can go from {path.start!r} to {path.end!r}")
                u = path.start
                while u != path.end:
                    e, u = _edge(u, path.end)
                    flow[e] += path.pieces
            if sum(flow) != move.number:
                raise IllegalMoveError(f"{move}: the paths take {sum(flow)} steps, not {move.number} (I3)")
            return int(self.rules.cover_action(move.number)) + 1 + int(self.rules.flow_rank(flow))
        raise IllegalMoveError(f"{move!r} names no action")

    def _notation_templates(self, move: DreamIslandsMove) -> Sequence[NotationTemplate]:
        return notation_templates(move)

    def _notation_key(self, key: str) -> str:
        """A cover's text as the canonical text of its action (I3: any split of the same
        result is the same move), so its paths may come in any split and order."""
        m = _COVER.fullmatch(key)
        if m is None:
            return key
        number, rest = int(m.group(1)), m.group(2) or ""
        paths: list[Path] = []
        if rest != "no piece can move":
            at = 0
            while at < len(rest):
                p = _PATH.match(rest, at)
                if p is None:
                    return key
                paths.append(Path(_place(p.group(2)), _place(p.group(3)), int(p.group(1) or 1)))
                at = p.end()
        try:
            action = self._encode_move(Cover(number, tuple(paths)))
        except IllegalMoveError:
            return key
        return normalize_move_text(str(self._all_moves[action]))

    # ------------------------------------------------------------------ serialization

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        d: DreamIslandsStateData = data
        return {"players": d.players, "max_rounds": d.max_rounds or None}

    def _from_data(self, data: Any) -> DreamIslandsState:
        """Check the header here; the core checks and loads the rest (InvalidStateError)."""
        d: DreamIslandsStateData = data
        if d.players != self.num_players:
            raise InvalidStateError(
                f"invalid Dream Islands state: state is for {d.players} players, the game for {self.num_players}"
            )
        if d.max_rounds != (self.max_rounds or 0):
            raise InvalidStateError(
                f"invalid Dream Islands state: state has max_rounds {d.max_rounds}, "
                f"the game {self.max_rounds or 0} (I9)"
            )
        state = self._state_class(self.rules, self)
        state._load(d)
        return state

    # ------------------------------------------------------------------ text

    #: The short forms of the compact board (docs/dream_islands.md, "Board text"), an entry
    #: a line, for a reader who meets them first (``cruiselib play``'s ``legend``).
    COMPACT_LEGEND: ClassVar[str] = "\n".join(
        (
            "middle: the small islands worth 3, 2 and 2 with the seat on each (- while free), the"
            " pieces on the main island",
            "> the seat to decide; pts its score; done: missions completed",
            "shells: the numbers under its shells (2.4.: 2 and 4 are covered)",
            "air: pieces on the airplane; 1 to 8: pieces on each island (. none; 8 the heart island);"
            " mid: pieces in the middle",
            "pile: the size of its pile; hand: mission ids, or how many cards it holds (3 hidden)",
        )
    )

    def render(self, state: DreamIslandsState, player: int | None = None, *, compact: bool = False) -> str:
        """A plain-text board: every place with its pieces per seat, shells, missions, hands.

        ``compact=True`` gives the summary of docs/dream_islands.md, "Board text": one row
        per seat, at most ``COMPACT_COLUMNS`` columns and ``COMPACT_ROWS`` lines, in
        printable ASCII.
        """
        if compact:
            return _compact_text(state, player)
        data = state._to_data()  # the snapshot Struct: typed fields, no string keys
        n = self.num_players
        pieces = data.pieces

        def here(place: int) -> str:
            parts = [f"{'ABCD'[p]}{pieces[p][place]}" for p in range(n) if pieces[p][place]]
            return " ".join(parts) or "-"

        if state.is_over:
            head = f"game over after {data.rounds} rounds; winners: {', '.join(map(str, state.winners()))}"
        else:
            head = f"round {data.rounds + 1}, seat {data.current_player} to {data.phase}" + (
                " (last round)" if state.end_triggered else ""
            )
        lines = [head, f"  airplane : {here(0)}"]
        for i in range(1, 9):
            lines.append(f"  island {i}{'♥' if i == 8 else ' '}: {here(i)}")
        small = " ".join(
            f"[{v}:{'ABCD'[s] if s >= 0 else '-'}]" for v, s in zip(SMALL_VALUES, data.small_islands, strict=True)
        )
        main = " ".join(f"{'ABCD'[p]}{data.main_island[p]}" for p in range(n) if data.main_island[p]) or "-"
        lines.append(f"  middle   : {small} main island: {main}")
        scores = state.scores()
        for p in range(n):
            cov = data.covered[p]
            done = len(data.completed[p])
            lines.append(
                f"seat {p} ({'ABCD'[p]}): score {scores[p]}, {done}/16 missions, shells on {cov or '-'}, "
                f"pile {len(data.piles[p])}"
            )
            if player is None or player == p:
                for x in sorted(data.hands[p]):
                    lines.append(f"    hand: [{x}] {MISSIONS[x]}")
            else:
                lines.append(f"    hand: {len(data.hands[p])} cards")
        return "\n".join(lines)

    @staticmethod
    def place_name(place: int) -> str:
        return place_name(place)


# ---------------------------------------------------------------------- compact text

_LETTERS = "ABCD"
# The compact table: a header and one row per seat share these column widths.
_ROW = "{mark}{seat:<4}{score:>4}{done:>5}{shells:>7}{air:>5}{islands}{mid:>5}{pile:>6}  {hand}"


def _count(n: int) -> str:
    """A piece count in the table: ``.`` for none, so the pieces stand out."""
    return str(n) if n else "."


def _compact_text(state: DreamIslandsState, player: int | None) -> str:
    """The compact board text (docs/dream_islands.md, "Board text"), made from views only,
    so it shows ``player`` nothing its view does not (``None``: every hand)."""
    n = state.game.num_players
    view = state.view(0 if player is None else player)
    hands = {p: sorted(state.view(p).hand) for p in range(n) if player is None or player == p}

    if state.is_over:
        winners = [f"{w} ({_LETTERS[w]})" for w in state.winners()]
        who = f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {', '.join(winners)} share the win"
        status = f"game over after {view.rounds} round{'' if view.rounds == 1 else 's'}: {who}"
    else:
        limit = view.max_rounds or ROUND_CAP
        cur = view.current_player
        status = f"round {view.rounds + 1}{f' of {view.max_rounds}' if view.max_rounds else ''}, "
        status += f"seat {cur} ({_LETTERS[cur]}) to {view.phase}"
        if view.end_triggered or view.rounds + 1 >= limit:
            status += " (last round)"

    small = [_LETTERS[s] if s >= 0 else "-" for s in view.small_islands]
    # The main island holds a seat's pieces in the middle that no small island holds.
    main = {seat.seat: seat.middle - view.small_islands.count(seat.seat) for seat in view.seats}
    main_text = " ".join(f"{_LETTERS[p]}{k}" for p, k in sorted(main.items()) if k) or "-"
    free = [v for v, s in zip(SMALL_VALUES, view.small_islands, strict=True) if s < 0]
    middle = f"middle: {' '.join(f'{v}:{w}' for v, w in zip(SMALL_VALUES, small, strict=True))}, "
    middle += f"main island {main_text}"
    if not state.is_over:
        middle += f"; next arrival scores {free[0] if free else 1}"

    head = _ROW.format(
        mark=" ",
        seat="seat",
        score="pts",
        done="done",
        shells="shells",
        air="air",
        islands="".join(f"{i:>3}" for i in range(1, 9)),
        mid="mid",
        pile="pile",
        hand="hand",
    )
    lines = [status, middle, head.rstrip()]
    for seat in view.seats:
        p = seat.seat
        hand = " ".join(map(str, hands[p])) if p in hands else f"{seat.hand_size} hidden"
        row = _ROW.format(
            mark=">" if p == view.current_player else " ",
            seat=f"{p} {_LETTERS[p]}",
            score=seat.score,
            done=len(seat.completed),
            shells="".join(str(x) if x in seat.covered else "." for x in range(2, 6)),
            air=_count(seat.airplane),
            islands="".join(f"{_count(k):>3}" for k in seat.islands),
            mid=_count(seat.middle),
            pile=seat.pile_size,
            hand=hand or "empty",
        )
        lines.append(row.rstrip())
    if player is not None:  # the seat's own missions, spelled out
        own = hands[player]
        lines.append("your hand: " + (f"[{own[0]}] {MISSIONS[own[0]]}" if own else "empty"))
        lines.extend(f"{'':11}[{m}] {MISSIONS[m]}" for m in own[1:])
    return "\n".join(lines)
