"""Sirens in Sight: the :class:`SirensGame` configuration and the :class:`SirensState` position.

The rules themselves live in the compiled core (``cruiselib._core.sirens``); this module
adds options, typed moves, serialization with validation, views and resampling.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cruiselib import _core
from cruiselib._api import Game, Playouts, State
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError
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
)
from cruiselib.sirens.schema import (
    SCHEMA_VERSION,
    CardInfo,
    CrewInfo,
    Pending,
    ShipInfo,
    SirensStateData,
    SirensView,
)

__all__ = ["VARIANTS", "SirensGame", "SirensState"]

_core_mod = _core.load("sirens")
_rng = _core.load("rng")

VARIANTS = ("standard", "bow_to_rear")
PHASES = ("pick", "main", "after", "crew", "over")
NSHIP = 5
HAND = 4
SIDE_MAX = 5
CREW_WON = 5
CREW_REMOVED = 7
SHIP_REMOVED = 2
CREW_NAMES: tuple[Literal["captain"], Literal["mate"]] = ("captain", "mate")


class SirensState(State, _core_mod.SirensCore):  # type: ignore[misc]
    """A Sirens in Sight position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: SirensGame

    def _to_data(self) -> SirensStateData:
        return self.game._raw_to_data(self._get_raw())

    def view(self, player: int) -> SirensView:
        """What ``player`` may see: own hand, others' hand sizes, pile sizes, the table."""
        return self.game._view(self, self.game.check_player(player))

    def resample(self, player: int, seed: int | str | bytes | None = None) -> SirensState:
        """A full state consistent with ``view(player)``: the unseen cards dealt anew."""
        return self.game._resample(self, self.game.check_player(player), seed)

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or a running game."""
        win = self.winners()
        if not win:
            return [0.0, 0.0]
        return [1.0 if p in win else -1.0 for p in range(2)]


class SirensGame(Game[SirensState]):
    """Sirens in Sight for two players.

    Options: ``players`` (must be 2), ``variant`` ("standard" or "bow_to_rear", S9) and
    ``cards`` (a :class:`CardSet` or a path to a card-set JSON file, S10).
    """

    name = "sirens"
    title = "Sirens in Sight"
    schema_version = SCHEMA_VERSION
    state_data_type = SirensStateData
    view_type = SirensView
    move_type = SirensMove
    move_classes = MOVE_TYPES
    # Scores are victory points: at most 5 ship cards + 2 crew tokens (the game ends at 4).
    score_bounds = (0, 7)

    def __init__(
        self,
        players: int = 2,
        variant: str = "standard",
        cards: CardSet | str | Path | None = None,
    ) -> None:
        if isinstance(players, bool) or players != 2:
            raise InvalidOptionError(f"Sirens in Sight is a game for 2 players, not {players!r}")
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
        faces = card_set.faces
        self.rules = _core_mod.SirensRules(
            [f.value for f in faces],
            [f.crew for f in faces],
            [card_set.face_index[card_set.face_of(i)] for i in range(len(card_set.cards))],
            [EMBLEMS.index(c.emblem) for c in card_set.cards],
            list(card_set.ships),
            variant == "bow_to_rear",
            card_set.digest,
        )
        self.num_actions = int(self.rules.num_actions)
        self._ship_index = {v: i for i, v in enumerate(card_set.ships)}
        self._build_move_table()

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"players": 2, "variant": self.variant}
        if self._custom_cards:
            opts["cards"] = self.cards
        return opts

    # ------------------------------------------------------------------ states

    def new_state(
        self, seed: int | str | bytes | None = None, start_player: int | None = None
    ) -> SirensState:
        """A new game dealt from ``seed`` (S3). ``start_player`` defaults to a seeded draw."""
        start = -1 if start_player is None else self.check_player(start_player)
        state = SirensState(self.rules, self)
        state._new_game(_rng.seed_state(self._seed_or_random(seed)), start)
        return state

    def playouts(self, n: int, seed: int = 0) -> Playouts:
        """``n`` uniformly random games run entirely in the core (game g is seed-replayable)."""
        scores, lengths, wins = self._new_playout_arrays(n, 2)
        base = _rng.seed_state(self._seed_or_random(seed))
        actions = _core_mod.run_playouts(self.rules, n, base, scores, lengths, wins, -1)
        return Playouts(scores=scores, lengths=lengths, wins=wins, actions=int(actions))

    def playout_seed_state(self, seed: int, game_index: int) -> int:
        """The generator state that dealt game ``game_index`` of ``playouts(n, seed)``."""
        base = _rng.seed_state(seed)
        return int(_rng.mix64((base + game_index) & 0xFFFFFFFFFFFFFFFF))

    # ------------------------------------------------------------------ moves

    def _face_code(self, value: int, crew: bool) -> int:
        from cruiselib.sirens.cards import Face

        return self.cards.face_index[Face(value, crew)]

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
            return MoveCard(
                faces[f].value, faces[f].crew, ships[src >> 1], src & 1, ships[dst >> 1], dst & 1
            )
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
            raise IllegalMoveError(f"{move}: the card set has no card {move.value}{' with' if move.crew else ' without'} the crew icon")
        raise IllegalMoveError(f"{move!r} names no action")

    # ------------------------------------------------------------------ serialization

    def _raw_to_data(self, raw: dict[str, Any]) -> SirensStateData:
        pending = raw["pending"]
        phase = raw["phase"]
        return SirensStateData(
            schema_version=SCHEMA_VERSION,
            game="sirens",
            variant=self.variant,  # type: ignore[arg-type]
            card_set=self.cards.digest,
            rng=raw["rng"],
            phase=PHASES[phase],  # type: ignore[arg-type]
            start_player=raw["start"],
            turn=raw["turn"],
            current_player=-1 if phase == 4 else raw["cur"],
            hands=raw["hands"],
            piles=raw["piles"],
            sides=raw["sides"],
            ships=raw["ship_status"],
            rum=raw["rum"],
            crew=raw["crew"],
            octopus=raw["octo"],
            removed=raw["removed"],
            passes=raw["passes"],
            picks=raw["picks"],
            pick_floor=raw["pick_floor"],
            pending=None if pending is None else Pending(pending[0], pending[1], pending[2], bool(pending[3])),
        )

    def _from_data(self, data: Any) -> SirensState:
        raw = self._validate(data)
        state = SirensState(self.rules, self)
        state._set_raw(raw)
        self._validate_derived(state, data)
        return state

    def _validate(self, d: SirensStateData) -> dict[str, Any]:
        """Semantic checks of a decoded state; raises InvalidStateError naming the problem."""

        def bad(msg: str) -> InvalidStateError:
            return InvalidStateError(f"invalid Sirens in Sight state: {msg}")

        if d.schema_version != SCHEMA_VERSION:
            raise bad(f"schema version {d.schema_version} is not supported (this version reads {SCHEMA_VERSION})")
        if d.rng > 0xFFFFFFFFFFFFFFFF:
            raise bad("the generator state must fit in 64 bits")
        if d.variant != self.variant:
            raise bad(f"state is of variant {d.variant!r}, the game is {self.variant!r}")
        if d.card_set != self.cards.digest:
            raise bad(f"state was made with another card set ({d.card_set}, this game uses {self.cards.digest})")
        variant = self.variant == "bow_to_rear"
        if len(d.piles) != (2 if variant else 1):
            raise bad(f"{'the variant has one pile per seat' if variant else 'the standard game has one shared pile'}, not {len(d.piles)}")
        n_cards = len(self.cards.cards)
        seen: dict[int, str] = {}

        def place(card: int, where: str) -> None:
            if card >= n_cards:
                raise bad(f"card {card} in {where} does not exist (the card set has {n_cards} cards)")
            if card in seen:
                raise bad(f"card {card} appears twice ({seen[card]} and {where})")
            seen[card] = where

        for p, hand in enumerate(d.hands):
            for c in hand:
                place(c, f"hands[{p}]")
        for p, pile in enumerate(d.piles):
            for c in pile:
                place(c, f"piles[{p}]")
        for k, ship_sides in enumerate(d.sides):
            for j, side in enumerate(ship_sides):
                for c in side:
                    place(c, f"sides[{k}][{j}]")
        for c in d.removed:
            place(c, "removed")
        if len(seen) != n_cards:
            missing = sorted(set(range(n_cards)) - set(seen))
            raise bad(f"card(s) {missing[:8]} are nowhere")

        alive = [s == -1 for s in d.ships]
        for k in range(NSHIP):
            if not alive[k] and any(d.sides[k][j] for j in range(2)):
                raise bad(f"ship {k} is out of play but has cards beside it")
        if variant:
            for p in range(2):
                for where, cards in (("hands", d.hands[p]), ("piles", d.piles[p])):
                    for c in cards:
                        if self.cards.cards[c].emblem != EMBLEMS[p]:
                            raise bad(f"{where}[{p}] holds card {c} of the other seat's set (S9)")
        for p in range(2):
            r = d.rum[p]
            if r >= 0 and not alive[r]:
                raise bad(f"seat {p}'s rum mug is on ship {r}, which is not in play")
            o = d.octopus[p]
            if o >= 0 and not seen.get(o, "").startswith("sides"):
                raise bad(f"seat {p}'s octopus sits on card {o}, which is not in play")
        if d.octopus[0] >= 0 and d.octopus[0] == d.octopus[1]:
            raise bad("both octopuses sit on the same card")
        crew = d.crew
        for t in range(2):
            if crew[t] < NSHIP and not alive[crew[t]]:
                raise bad(f"the {CREW_NAMES[t]} stands on ship {crew[t]}, which is not in play")
        if crew[0] < NSHIP and crew[0] == crew[1]:
            raise bad("captain and mate stand on the same ship card")
        for p in range(2):
            won_crew = sum(1 for t in range(2) if crew[t] == CREW_WON + p)
            if won_crew > d.ships.count(p):
                raise bad(f"seat {p} holds more crew tokens than ship cards")
        if sum(1 for t in range(2) if crew[t] == CREW_REMOVED) > d.ships.count(SHIP_REMOVED):
            raise bad("more crew tokens removed than ship cards removed")
        points = [d.ships.count(p) + sum(1 for t in range(2) if crew[t] == CREW_WON + p) for p in range(2)]
        phase = PHASES.index(d.phase)
        finished = not any(alive) or max(points) >= 4 or d.passes == 2
        if (phase == 4) != finished:
            raise bad("the game is over exactly when no ship is in play, a seat has 4 points, or both seats passed (S8)")
        if phase == 4:
            if d.current_player != -1:
                raise bad("current_player must be -1 once the game is over")
        elif d.current_player == -1:
            raise bad("current_player is -1 but the game is not over")
        if (phase == 3) != (d.pending is not None):
            raise bad("a pending crew decision exists exactly in the 'crew' phase")
        if phase in (1, 2) and d.current_player != d.turn:
            raise bad("in the main and after phases the seat to move is the turn player")
        if phase == 2 and d.rum[d.turn] != -1:
            raise bad("the 'after' phase exists only while the turn player holds the rum mug")
        if phase == 0:
            if not variant:
                raise bad("only the 'bow_to_rear' variant has a pick phase")
            if any(d.sides[k][j] for k in range(NSHIP) for j in range(2)) or d.removed:
                raise bad("no card is in play during the pick phase")
            other = 1 - d.start_player
            expected = d.start_player if d.picks[d.start_player] < HAND else other
            if d.picks[other] and d.picks[d.start_player] < HAND:
                raise bad("the start player picks first (S9)")
            if d.current_player != expected or d.turn != d.start_player:
                raise bad("the seat picking must be the start player, then the other seat")
            for p in range(2):
                if d.picks[p] != len(d.hands[p]):
                    raise bad(f"seat {p} picked {d.picks[p]} cards but holds {len(d.hands[p])}")
                faces = [self.rules.face_of(c) for c in d.hands[p]]
                if d.pick_floor[p] != (max(faces) if faces else 0):
                    raise bad(f"seat {p}'s pick floor must be the highest face picked")
            if d.rum != [-1, -1] or d.octopus != [-1, -1] or d.passes:
                raise bad("nothing happens before the picks are done")
            picker = d.current_player
            floor = d.pick_floor[picker]
            left = sum(1 for c in d.piles[picker] if self.rules.face_of(c) >= floor)
            if left < HAND - d.picks[picker]:
                raise bad(f"seat {picker} cannot complete its hand in ascending order")
        else:
            if d.picks != ([HAND, HAND] if variant else [0, 0]):
                raise bad("picks must be [4, 4] in the variant after the pick phase, [0, 0] otherwise")
            if phase in (1, 2, 3):
                for p in range(2):
                    pile = d.piles[p if variant else 0]
                    # During a crew choice the turn player's draw may still be pending (S4).
                    pending_draw = phase == 3 and p == d.turn and d.pending is not None and d.pending.draw
                    if pile and len(d.hands[p]) != HAND - pending_draw:
                        raise bad(f"seat {p} must hold {HAND - pending_draw} cards while its draw pile has cards")
        if d.pending is not None:
            pend = d.pending
            if not alive[pend.ship] or pend.ship not in (crew[0], crew[1]):
                raise bad("the pending crew move needs a crew token on a ship in play")
            if pend.side != d.current_player:
                raise bad("the owner of the played-on side decides the crew move (S5)")
            if pend.source >= 0 and (pend.draw or not alive[pend.source]):
                raise bad("an octopus move draws no card and its source ship is in play")
        if d.passes and phase not in (1, 2, 4):
            raise bad("a pass is only pending in the main or after phase")
        return {
            "rng": d.rng,
            "phase": phase,
            "start": d.start_player,
            "turn": d.turn,
            "cur": d.current_player if d.current_player >= 0 else d.turn,
            "passes": d.passes,
            "hands": d.hands,
            "piles": d.piles,
            "sides": d.sides,
            "ship_status": d.ships,
            "rum": d.rum,
            "crew": crew,
            "octo": d.octopus,
            "removed": d.removed,
            "picks": d.picks,
            "pick_floor": d.pick_floor,
            "pending": None if d.pending is None else (d.pending.ship, d.pending.side, d.pending.source, int(d.pending.draw)),
        }

    def _validate_derived(self, state: SirensState, d: SirensStateData) -> None:
        """Checks that need the derived sums: no ship card in play should already have scored."""
        # While a crew decision is pending, the placement's ships are not scored yet (S5).
        unresolved = () if d.pending is None else (d.pending.ship, d.pending.source)
        for k in range(NSHIP):
            if d.ships[k] == -1 and k not in unresolved and state._side_scores(k):
                raise InvalidStateError(
                    f"invalid Sirens in Sight state: ship {k} is in play but would already have been scored (S6)"
                )
        if d.pending is not None:
            token = 0 if d.crew[0] == d.pending.ship else 1
            a, b = state._crew_options(d.pending.ship, token)
            crew_in_play = sum(1 for t in d.crew if t < NSHIP)
            if a == b or sum(1 for s in d.ships if s == -1) == crew_in_play:
                raise InvalidStateError("invalid Sirens in Sight state: the pending crew move has no choice to make")

    # ------------------------------------------------------------------ views

    def _card_info(self, card: int, octo: list[int] | None = None) -> CardInfo:
        c = self.cards.cards[card]
        owner = None
        if octo is not None:
            owner = 0 if octo[0] == card else 1 if octo[1] == card else None
        return CardInfo(card, c.value, c.crew, c.emblem, owner)

    def _view(self, state: SirensState, player: int) -> SirensView:
        raw = state._get_raw()
        ships = self.cards.ships
        octo = raw["octo"]
        variant = self.variant == "bow_to_rear"
        rum_count = [sum(1 for r in raw["rum"] if r == k) for k in range(NSHIP)]
        crew = raw["crew"]
        ship_infos = []
        for k in range(NSHIP):
            status = raw["ship_status"][k]
            sides = [[self._card_info(c, octo) for c in side] for side in raw["sides"][k]]
            ship_infos.append(
                ShipInfo(
                    value=ships[k],
                    in_play=status == -1,
                    owner=status if status in (0, 1) else None,
                    removed=status == SHIP_REMOVED,
                    rum=rum_count[k],
                    threshold=ships[k] + 3 * rum_count[k],
                    crew=[CREW_NAMES[t] for t in range(2) if crew[t] == k],
                    sides=sides,
                    totals=[sum(ci.value for ci in side) for side in sides],
                )
            )
        crew_infos = [
            CrewInfo(
                name=CREW_NAMES[t],
                ship=ships[crew[t]] if crew[t] < NSHIP else None,
                owner=crew[t] - CREW_WON if crew[t] in (CREW_WON, CREW_WON + 1) else None,
                removed=crew[t] == CREW_REMOVED,
            )
            for t in range(2)
        ]
        pending = raw["pending"]
        choice = None
        if pending is not None:
            token = 0 if crew[0] == pending[0] else 1
            choice = sorted(ships[k] for k in state._crew_options(pending[0], token))
        own_pile = None
        if variant:
            own_pile = [self._card_info(c) for c in sorted(raw["piles"][player])]
        piles = raw["piles"]
        return SirensView(
            player=player,
            variant=self.variant,  # type: ignore[arg-type]
            phase=PHASES[raw["phase"]],  # type: ignore[arg-type]
            current_player=state.current_player,
            turn_player=raw["turn"],
            hand=[self._card_info(c) for c in sorted(raw["hands"][player])],
            hand_sizes=[len(h) for h in raw["hands"]],
            pile_sizes=[len(p) for p in piles],
            own_pile=own_pile,
            ships=ship_infos,
            crew=crew_infos,
            points=state.scores(),
            rum_held=[r == -1 for r in raw["rum"]],
            octopus_held=[o == -1 for o in octo],
            removed=[self._card_info(c) for c in raw["removed"]],
            crew_choice=choice,
            passes=raw["passes"],
            picks=raw["picks"],
            legal_actions=state.legal_actions() if state.current_player == player else [],
        )

    def _resample(self, state: SirensState, player: int, seed: int | str | bytes | None) -> SirensState:
        """Deal every card ``player`` cannot see anew, uniformly, keeping all they can see."""
        raw = state._get_raw()
        new = SirensState(self.rules, self)
        new._new_game(_rng.seed_state(self._seed_or_random(seed)), 0)  # only for its generator
        gen = np.random.default_rng(int(new._get_raw()["rng"]))
        opp = 1 - player
        hands = [list(h) for h in raw["hands"]]
        piles = [list(p) for p in raw["piles"]]
        if self.variant == "bow_to_rear":
            own_pile = piles[player]
            if raw["phase"] != 0:
                gen.shuffle(own_pile)  # known cards, unknown order
            pool = hands[opp] + piles[opp]
            if raw["phase"] == 0:
                k = len(hands[opp])
                picked = [int(c) for c in gen.choice(pool, size=k, replace=False)] if k else []
                hands[opp] = picked
                piles[opp] = sorted(set(pool) - set(picked))  # unshuffled until the picks end
                raw["pick_floor"][opp] = max((self.rules.face_of(c) for c in picked), default=0)
            else:
                gen.shuffle(pool)
                hands[opp] = pool[: len(hands[opp])]
                piles[opp] = pool[len(hands[opp]) :]
        else:
            pool = hands[opp] + piles[0]
            gen.shuffle(pool)
            n = len(hands[opp])
            hands[opp] = [int(c) for c in pool[:n]]
            piles[0] = [int(c) for c in pool[n:]]
        raw["hands"] = [[int(c) for c in h] for h in hands]
        raw["piles"] = [[int(c) for c in p] for p in piles]
        raw["rng"] = new._get_raw()["rng"]
        new._set_raw(raw)
        return new

    # ------------------------------------------------------------------ text

    def render(self, state: SirensState, player: int | None = None) -> str:
        """A plain-text table: ships bow to rear, both sides, tokens, hands (as seen by player)."""
        raw = state._get_raw()
        octo = raw["octo"]
        lines = []
        for k in range(NSHIP):
            value = self.cards.ships[k]
            status = raw["ship_status"][k]
            if status != -1:
                who = "removed (tie)" if status == SHIP_REMOVED else f"won by seat {status}"
                lines.append(f"  ship {value}: {who}")
                continue
            rum = sum(1 for r in raw["rum"] if r == k)
            crew = [CREW_NAMES[t] for t in range(2) if raw["crew"][t] == k]

            def side(cards: list[int]) -> str:
                parts = []
                for c in cards:
                    card = self.cards.cards[c]
                    mark = "🐙" if c in octo else ""
                    parts.append(f"{card.value}{'⚓' if card.crew else ''}{mark}")
                total = sum(self.cards.cards[c].value for c in cards)
                return f"{' '.join(parts) or '-':<22} ={total:>3}"

            extra = (" +rum" * rum) + (f" [{', '.join(crew)}]" if crew else "")
            lines.append(
                f"  {side(raw['sides'][k][0])} | ship {value} (needs {value + 3 * rum}){extra} | {side(raw['sides'][k][1])}"
            )
        header = f"seat 0 side{'':<17}|{'':<26}| seat 1 side"
        score = state.scores()
        status_line = f"points: seat 0 = {score[0]}, seat 1 = {score[1]}; pile(s): {[len(p) for p in raw['piles']]}"
        tokens = (
            f"rum mug: seat 0 {'held' if raw['rum'][0] == -1 else 'used'}, seat 1 {'held' if raw['rum'][1] == -1 else 'used'}; "
            f"octopus: seat 0 {'held' if octo[0] == -1 else 'on a card'}, seat 1 {'held' if octo[1] == -1 else 'on a card'}"
        )
        out = [header, *lines, status_line, tokens]
        for p in range(2):
            if player is None or player == p:
                hand = " ".join(str(self.cards.face_of(c)) for c in sorted(raw["hands"][p], key=lambda c: (self.cards.cards[c].value, c)))
                out.append(f"seat {p} hand: {hand or '(empty)'}")
            else:
                out.append(f"seat {p} hand: {len(raw['hands'][p])} cards")
        return "\n".join(out)


def face_counts(cards: CardSet) -> Counter[tuple[int, bool]]:
    """How many cards of each (value, crew) face a card set has."""
    return Counter((c.value, c.crew) for c in cards.cards)
