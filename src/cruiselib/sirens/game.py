"""Sirens in Sight: the :class:`SirensGame` configuration and the :class:`SirensState` position.

The rules themselves live in the compiled core (``cruiselib._core.sirens``), and so do
views, resampling and the observation tensor; this module adds options, typed moves,
serialization with validation and the text picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from cruiselib import _core, serialize
from cruiselib._api import Game, NotationTemplate, State
from cruiselib._core.constants import enum_constants
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError
from cruiselib.sirens import _ending, integrations, schema
from cruiselib.sirens.cards import EMBLEMS, CardSet
from cruiselib.sirens.moves import (
    MOVE_TYPES,
    EndTurn,
    MoveCard,
    MoveCrew,
    Pass,
    PickCard,
    PlayCard,
    SirensMove,
    UseRum,
    notation_templates,
)
from cruiselib.sirens.schema import SCHEMA_VERSION, CardInfo, ShipInfo, SirensStateData, SirensView

__all__ = ["VARIANTS", "SirensGame", "SirensState"]

_core_mod = _core.load("sirens")
_rng = _core.load("rng")

VARIANTS = ("standard", "bow_to_rear")
# The core's constants (its .pxd enum): ship cards, cards a side holds at most (S5), cards
# in a hand (S3), the status of a ship card removed after a tie (S6).
NSHIP, SIDE_MAX, HAND, SHIP_REMOVED = itemgetter("NSHIP", "SIDE_MAX", "HAND", "SHIP_REMOVED")(enum_constants("sirens"))
CREW_NAMES = cast("tuple[Literal['captain'], Literal['mate']]", _core_mod.CREW_NAMES)


if TYPE_CHECKING:
    from cruiselib._core.sirens import SirensCore as _CoreState
else:
    _CoreState = _core_mod.SirensCore


class SirensState(State[SirensMove, SirensStateData, SirensView], _CoreState):
    """A Sirens in Sight position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: SirensGame

    def _to_data(self) -> SirensStateData:
        return self._export()  # type: ignore[no-any-return]

    def view(self, player: int, *, recall: bool = False) -> SirensView:
        """What ``player`` may see: own hand, others' hand sizes, pile sizes, the table.

        ``recall`` changes nothing here: perfect recall of public events knows no more
        than the table shows (docs/sirens.md, "Information state").
        """
        return self._view(self._seat(player), bool(recall))

    def _move_text(self, action: int, private: bool) -> str:
        """The move with what it does to the table: a side's total before and after a
        card and the ship card's threshold (S6), the totals an octopus move changes, the
        threshold a rum mug raises, which crew token moves from where (S5). A card played
        is shown face up by the move; a starting card picked in the variant stays hidden
        from the other seat (S15), so it is named only when ``private``."""
        move = self.game.action_to_move(action)
        view = self.view(self.current_player)  # only the table's public parts are used
        ships = {ship.value: ship for ship in view.ships}
        if isinstance(move, PlayCard):
            ship = ships[move.ship]
            total = ship.totals[move.side]
            crew = f" ({', '.join(ship.crew)})" if ship.crew else ""
            return (
                f"play {_face(move.value, move.crew)} to ship {move.ship}{crew}, seat {move.side}'s side: "
                f"total {total} → {total + move.value}, needs {ship.threshold}"
            )
        if isinstance(move, MoveCard):
            source = ships[move.from_ship].totals[move.from_side]
            target = ships[move.to_ship].totals[move.to_side]
            return f"{move}: totals {source} → {source - move.value} and {target} → {target + move.value}"
        if isinstance(move, UseRum):
            needs = ships[move.ship].threshold
            return f"{move}: needs {needs} → {needs + 3}"
        if isinstance(move, MoveCrew):
            pending = self._to_data().pending
            if pending is None or not view.ships[pending.ship].crew:  # pragma: no cover - never: see c_legal
                return str(move)
            here = view.ships[pending.ship]  # the ship card played on, with the token that moves
            return f"move the {here.crew[0]} from ship {here.value} to ship {move.to_ship}"
        if isinstance(move, PickCard) and not private:
            return "pick a starting card (hidden)"
        return str(move)


def _face(value: int, crew: bool) -> str:
    """A card's face: its value and the move-crew icon."""
    return f"{value}{'⚓' if crew else ''}"


class SirensGame(Game[SirensState, SirensMove]):
    """Sirens in Sight for two players.

    Options: ``players`` (must be 2), ``variant`` ("standard" or "bow_to_rear", S9) and
    ``cards`` (a :class:`CardSet` or a path to a card-set JSON file, S10).
    """

    name = "sirens"
    core_module = _core_mod.__name__.rpartition(".")[2]  # the core loaded above: named once
    player_counts = integrations.PLAYER_COUNTS
    example_configurations = integrations.EXAMPLE_CONFIGURATIONS
    rule_bot = "cruiselib.sirens.rulebot:RuleBot"
    search = integrations.SEARCH
    openspiel = integrations.OPENSPIEL
    web = integrations.WEB
    picture = "cruiselib.sirens.picture:draw"
    positions: ClassVar[str | None] = "cruiselib.sirens.position:SirensPositions"
    title = "Sirens in Sight"
    how_to_win = _ending.HOW_TO_WIN
    how_it_ends = _ending.HOW_IT_ENDS
    schema_version = SCHEMA_VERSION
    # Version 1 wrote the generator state as a number; nothing else changed meaning.
    schema_migrations: ClassVar[Mapping[int, serialize.Migration]] = MappingProxyType(
        {1: serialize.upgrade_rng_to_text}
    )
    state_data_type = SirensStateData
    view_type = SirensView
    move_type = SirensMove
    move_classes = MOVE_TYPES
    draws_possible = True  # equal points at the end (S8)
    option_types: ClassVar[Mapping[str, type]] = MappingProxyType({"cards": CardSet})

    def end_reason(self, state: SirensState) -> str | None:
        """Why the finished game ``state`` ended, naming the rule (S4, S8); None while it goes on."""
        return _ending.end_reason(state)

    def __init__(
        self,
        players: int = 2,
        variant: str = "standard",
        cards: CardSet | str | Path | None = None,
    ) -> None:
        self._check_players(players)
        if variant not in VARIANTS:
            raise InvalidOptionError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
        if cards is None:
            card_set = CardSet.standard()
        elif isinstance(cards, CardSet):
            card_set = cards
        elif isinstance(cards, (str, Path)):
            card_set = CardSet.from_file(cards)
        else:
            raise InvalidOptionError(f"cards must be a CardSet or a path, not {type(cards).__name__}")
        if variant == "bow_to_rear":
            card_set.check_variant()
        self.variant = variant
        self.cards = card_set
        self._custom_cards = cards is not None
        self.num_players = 2
        self._ship_index = {v: i for i, v in enumerate(card_set.ships)}
        self._use_core(_core_mod, SirensState)
        self.num_actions = int(self.rules.num_actions)
        self._build_move_table()

    def _use_core(self, module: Any, state_class: type[SirensState]) -> None:
        card_set = self.cards
        faces = card_set.faces
        self._core = module
        self._state_class = state_class
        self.rules = module.SirensRules(
            [f.value for f in faces],
            [f.crew for f in faces],
            [card_set.face_index[card_set.face_of(i)] for i in range(len(card_set.cards))],
            [EMBLEMS.index(c.emblem) for c in card_set.cards],
            list(card_set.ships),
            self.variant == "bow_to_rear",
            card_set.digest,
        )
        # The schema's own game name (a subclass registered under another name writes
        # snapshots of this game: the schema accepts no other).
        self.rules._set_schema(schema, SirensGame.name)

    @property
    def score_bounds(self) -> tuple[float, float]:
        """Victory points: the game ends as soon as a seat has 4 (S8), and a scored ship card
        brings at most 2 (itself and one crew token: the tokens never share a ship card; an
        octopus move scores its source only while its destination left both seats below 4)."""
        return (0, 5)

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"players": 2, "variant": self.variant}
        if self._custom_cards:
            opts["cards"] = self.cards
        return opts

    # ------------------------------------------------------------------ states

    def _deal(self, rng_state: int, start_player: int) -> SirensState:
        """A new game (S3); the start seat is drawn in the deal unless given."""
        state = self._state_class(self.rules, self)
        state._new_game(rng_state, start_player)
        return state

    # ------------------------------------------------------------------ moves

    def _decode_action(self, action: int) -> SirensMove:
        R = self.rules
        ships = self.cards.ships
        faces = self.cards.faces
        F = R.num_faces
        if action < R.a_octo:
            f, slot = divmod(action - R.a_play, 10)
            return PlayCard(faces[f].value, faces[f].crew, ships[slot >> 1], slot & 1)
        if action < R.a_rum:
            r, dst = divmod(action - R.a_octo, 10)
            src, f = divmod(r, F)
            return MoveCard(faces[f].value, faces[f].crew, ships[src >> 1], src & 1, ships[dst >> 1], dst & 1)
        if action < R.a_end:
            return UseRum(ships[action - R.a_rum])
        if action == R.a_end:
            return EndTurn()
        if action == R.a_pass:
            return Pass()
        if action < R.a_pick:
            return MoveCrew(ships[action - R.a_crew])
        f = action - R.a_pick
        return PickCard(faces[f].value, faces[f].crew)

    def _encode_move(self, move: Any) -> int:
        # Every well-formed move is in the move table; explain why this one is not.
        for name in ("ship", "from_ship", "to_ship"):
            value = getattr(move, name, None)
            if value is not None and value not in self._ship_index:
                raise IllegalMoveError(f"{move}: there is no ship card {value!r} (ships: {self.cards.ships})")
        for name in ("side", "from_side", "to_side"):
            value = getattr(move, name, None)
            if value is not None and value not in (0, 1):
                raise IllegalMoveError(f"{move}: side must be seat 0 or 1, not {value!r}")
        if hasattr(move, "value"):
            raise IllegalMoveError(
                f"{move}: the card set has no card {move.value}{' with' if move.crew else ' without'} the crew icon"
            )
        raise IllegalMoveError(f"{move!r} names no action")

    def _notation_templates(self, move: SirensMove) -> Sequence[NotationTemplate]:
        return notation_templates(move)

    # ------------------------------------------------------------------ serialization

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        d: SirensStateData = data
        if d.card_set != CardSet.standard().digest:
            raise InvalidStateError(
                f"this snapshot uses a custom card set ({d.card_set}): load it with that game's load_state"
            )
        return {"variant": d.variant}

    def _from_data(self, data: Any) -> SirensState:
        """Check the header here; the core checks and loads the rest (InvalidStateError)."""
        d: SirensStateData = data
        bad = "invalid Sirens in Sight state: "
        if d.schema_version != SCHEMA_VERSION:
            raise InvalidStateError(
                f"{bad}schema version {d.schema_version} is not supported (this version reads {SCHEMA_VERSION})"
            )
        if d.variant != self.variant:
            raise InvalidStateError(f"{bad}state is of variant {d.variant!r}, the game is {self.variant!r}")
        if d.card_set != self.cards.digest:
            raise InvalidStateError(
                f"{bad}state was made with another card set ({d.card_set}, this game uses {self.cards.digest})"
            )
        if len(d.piles) != (2 if self.variant == "bow_to_rear" else 1):
            expected = "the variant has one pile per seat" if self.variant == "bow_to_rear" else "one shared pile"
            raise InvalidStateError(f"{bad}{expected}, not {len(d.piles)}")
        state = self._state_class(self.rules, self)
        state._load(d)
        return state

    # ------------------------------------------------------------------ text

    #: The short forms of the compact board (docs/sirens.md, "Board text"), an entry
    #: a line, for a reader who meets them first (``cruiselib play``'s ``legend``).
    COMPACT_LEGEND: ClassVar[str] = "\n".join(
        (
            "seat 0 side | ship | seat 1 side: per ship card from bow to rear, each seat's cards on its"
            " side and their sum (=23); - an empty side",
            "a: the move-crew icon; *0, *1: the octopus of seat 0, seat 1",
            "ship: its printed value, +3 rum per rum mug on it (the threshold is the sum), captain or"
            " mate: the crew token on it",
            "the last two lines: each seat's points, its hand (the other seat's only counted), its rum"
            " mug, where its octopus is (on 32/seat 0: seat 0's side of ship card 32)",
        )
    )
    #: The compact board's ``a`` for the move-crew icon, in the moves the terminal says with it.
    COMPACT_SYMBOLS: ClassVar[Mapping[str, str]] = MappingProxyType({"\u2693": "a"})

    def render(self, state: SirensState, player: int | None = None, *, compact: bool = False) -> str:
        """A plain-text table: ships bow to rear, both sides, tokens, hands (as seen by player).

        ``⚓`` marks a card with the move-crew icon, ``*0``/``*1`` the octopus of that seat.
        ``compact=True`` gives the summary of docs/sirens.md, "Board text": at most
        ``COMPACT_COLUMNS`` columns and ``COMPACT_ROWS`` lines, in printable ASCII.
        """
        if compact:
            return _compact_text(state, player)
        data = state._to_data()
        octo = data.octopus

        def card_text(c: int) -> str:
            card = self.cards.cards[c]
            owner = "*0" if octo[0] == c else "*1" if octo[1] == c else ""
            return f"{card.value}{'⚓' if card.crew else ''}{owner}"

        def side_text(cards: list[int]) -> str:
            total = sum(self.cards.cards[c].value for c in cards)
            return f"{' '.join(card_text(c) for c in cards) or '-'} (={total})"

        lines = [f"{'seat 0 side':>30} | {'ship':^24} | seat 1 side"]
        for k in range(NSHIP):
            value = self.cards.ships[k]
            status = data.ships[k]
            if status != -1:
                who = "removed after a tie" if status == SHIP_REMOVED else f"won by seat {status}"
                lines.append(f"{'':>30} | {f'{value}: {who}':^24} |")
                continue
            rum = sum(1 for r in data.rum if r == k)
            tokens = "".join(f" {CREW_NAMES[t]}" for t in range(2) if data.crew[t] == k)
            label = f"{value}{f' (+{3 * rum} rum)' if rum else ''}{tokens}"
            sides = data.sides[k]
            lines.append(f"{side_text(sides[0]):>30} | {label:^24} | {side_text(sides[1])}")
        score = state.scores()
        piles = ", ".join(str(len(p)) for p in data.piles)
        lines.append(f"points {score[0]}:{score[1]} · draw pile{'s' if len(data.piles) > 1 else ''} {piles}")
        for p in range(2):
            mug = "rum mug held" if data.rum[p] == -1 else "rum mug used"
            octopus = "octopus held" if octo[p] == -1 else "octopus on a card"
            if player is None or player == p:
                cards = sorted(data.hands[p], key=lambda c: (self.cards.cards[c].value, c))
                hand = " ".join(card_text(c) for c in cards) or "(empty)"
            else:
                hand = f"{len(data.hands[p])} hidden cards"
            lines.append(f"seat {p}: hand {hand} · {mug} · {octopus}")
        if state.is_over:
            winners = state.winners()
            lines.append("game over: " + (f"seat {winners[0]} wins" if winners else "a draw"))
        else:
            lines.append(f"seat {state.current_player} to decide ({state.phase_name})")
        return "\n".join(lines)


# ---------------------------------------------------------------------- compact text


def _compact_card(card: CardInfo) -> str:
    """A card as the compact text shows it: ``a`` for the move-crew icon (the stand-in
    ``parse_move`` reads; ``⚓`` is two columns wide in most terminals), ``*0``/``*1``
    for the octopus on it."""
    octopus = "" if card.octopus is None else f"*{card.octopus}"
    return f"{card.value}{'a' if card.crew else ''}{octopus}"


def _fit_cards(cards: Sequence[str], width: int, tail: str = "") -> str:
    """``cards`` joined by spaces, then ``tail``, in at most ``width`` columns: as many
    cards as fit, then ``...+k`` for the k left out (a side or hand never overflows)."""
    for shown in range(len(cards), -1, -1):
        left_out = len(cards) - shown
        words = [*cards[:shown], *([f"...+{left_out}"] if left_out else [])]
        text = " ".join(words) + tail
        if len(text) <= width:
            return text
    return f"...+{len(cards)}{tail}"[:width]


def _ship_label(ship: ShipInfo) -> str:
    """The middle column: printed value, rum mugs (+3 each, S6) and crew token, or the
    ship card's fate once it left play."""
    if ship.owner is not None:
        return f"{ship.value} won by seat {ship.owner}"
    if ship.removed:
        return f"{ship.value} removed"
    rum = f" +{3 * ship.rum} rum" if ship.rum else ""
    return f"{ship.value}{rum}{''.join(f' {name}' for name in ship.crew)}"


def _compact_text(state: SirensState, player: int | None) -> str:
    """The compact board text (docs/sirens.md, "Board text"), made from views only, so it
    shows ``player`` nothing its view does not (``None``: both hands)."""
    columns = Game.COMPACT_COLUMNS
    view = state.view(0 if player is None else player)
    hands = {p: state.view(p).hand for p in range(2) if player is None or player == p}

    if state.is_over:
        winners = state.winners()
        status = "game over: " + (f"seat {winners[0]} wins" if winners else "a draw")
    else:
        status = f"seat {view.current_player} to decide ({view.phase}"
        if view.crew_choice is not None:
            status += f": to ship {view.crew_choice[0]} or {view.crew_choice[1]}"
        status += ")"
    piles = ", ".join(map(str, view.pile_sizes))
    status += f"; draw pile{'s' if len(view.pile_sizes) > 1 else ''} {piles}"
    if view.passes == 1 and not state.is_over:
        status += "; the last turn was a pass"

    # The table: seat 0's side right-aligned against the ship, seat 1's side after it.
    labels = [_ship_label(ship) for ship in view.ships]
    sides = [
        [[_compact_card(c) for c in ship.sides[s]] for s in range(2)] if ship.in_play else [None, None]
        for ship in view.ships
    ]
    totals = [ship.totals for ship in view.ships]
    head = ("seat 0 side", "ship", "seat 1 side")
    label_width = max(len(head[1]), *map(len, labels))
    room = columns - label_width - 6  # both sides share what the " | " separators leave

    def side_text(k: int, s: int, width: int) -> str:
        cards = sides[k][s]
        if cards is None:
            return ""
        return _fit_cards(cards, width, f" (={totals[k][s]})") if cards else "-"

    whole = [[side_text(k, s, columns) for s in range(2)] for k in range(NSHIP)]
    wants = [max(len(head[2 * s]), *(len(row[s]) for row in whole)) for s in range(2)]
    if sum(wants) <= room:
        fits = wants
    else:  # a long side: a short column keeps its width, the other takes the rest
        half = room // 2
        if wants[0] <= half:
            fits = [wants[0], room - wants[0]]
        elif wants[1] <= room - half:
            fits = [room - wants[1], wants[1]]
        else:
            fits = [half, room - half]
    rows = [head]
    rows += [(side_text(k, 0, fits[0]), labels[k], side_text(k, 1, fits[1])) for k in range(NSHIP)]
    lines = [status]
    lines += [f"{a:>{fits[0]}} | {b:^{label_width}} | {c}".rstrip() for a, b, c in rows]

    for p in range(2):
        points = f"{view.points[p]} point{'' if view.points[p] == 1 else 's'}"
        rum = "rum mug held" if view.rum_held[p] else "rum mug used"
        # An octopus on the table sits on a card in play: it comes back when the card leaves (S6).
        places = [
            f"{ship.value}/seat {s}"
            for ship in view.ships
            for s in range(2)
            if any(c.octopus == p for c in ship.sides[s])
        ]
        octopus = "octopus held" if view.octopus_held[p] else f"octopus on {places[0] if places else 'the table'}"
        head_text, tail = f"seat {p}: {points}, ", f", {rum}, {octopus}"
        if p in hands:
            cards = [_compact_card(c) for c in sorted(hands[p], key=lambda c: (c.value, c.id))]
            hand = "hand " + (_fit_cards(cards, columns - len(head_text) - len(tail) - 5) if cards else "empty")
        else:
            hand = f"{view.hand_sizes[p]} card{'' if view.hand_sizes[p] == 1 else 's'} in hand"
        lines.append(head_text + hand + tail)
    return "\n".join(lines)
