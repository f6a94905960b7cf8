"""Reference implementations the core's views and tensors are compared with.

``reference_view`` is the Python view the game had before views moved into the core
(built from ``_get_raw()``); ``KnownTracker`` follows a game move by move and keeps, per
seat, the ships it chartered face up and still holds (A14) without the core's own record;
``reference_observation`` and ``reference_information_state`` encode a view as the docs'
"Observation tensor" section says, from the view Struct alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib.atlantic_star import LEGS, SEAS, AtlanticStarGame, AtlanticStarState
from cruiselib.atlantic_star.moves import PRICES
from cruiselib.atlantic_star.schema import (
    AgencyInfo,
    AtlanticStarView,
    PlaqueInfo,
    SeaInfo,
    ShipInfo,
)

PHASES = ("loan", "agency", "over")
NPP = 12


def ship_info(game: AtlanticStarGame, card: int) -> ShipInfo:
    ship = game.ships.ships[card]
    return ShipInfo(card, ship.name, ship.mail, [str(e) for e in ship.legs])


def reference_view(
    game: AtlanticStarGame,
    state: AtlanticStarState,
    player: int,
    known: list[set[int]] | None = None,
) -> AtlanticStarView:
    """The view as the Python layer built it (and, given ``known``, its recall part)."""
    raw = state._get_raw()
    N = game.num_players
    names = game.ships.ships
    seas = []
    loans = [[0] * 4 for _ in range(N)]
    taken = set()
    voyages_left = [4 * game.sets] * N
    for s in range(4):
        sea = raw["seas"][s]
        cls = sea["class"]
        if cls >= 0:
            taken.add(cls)
        infos = []
        for i, (pid, value, loan, cards) in enumerate(sea["plaques"]):
            if pid < NPP:
                loans[pid >> 1][s] += loan * 1000
                voyages_left[pid >> 1] -= 1
            infos.append(
                PlaqueInfo(
                    field=i + 1,
                    victory_points=game.board[cls][i],
                    seat=pid >> 1 if pid < NPP else None,
                    operator=pid - NPP if pid >= NPP else None,
                    voyage=pid & 1 if pid < NPP else 0,
                    value=value,
                    loan=loan * 1000,
                    ships=[names[c].name for c in cards],
                )
            )
        seas.append(
            SeaInfo(
                name=SEAS[s],
                legs=LEGS[s],
                stars=None if cls < 0 else cls + 1,
                plaques=infos,
                full=len(infos) == 6,
            )
        )
    return AtlanticStarView(
        player=player,
        phase=PHASES[raw["phase"]],  # type: ignore[arg-type]
        current_player=state.current_player,
        money=[m * 1000 for m in raw["money"]],
        hand=[ship_info(game, c) for c in raw["hands"][player]],
        hand_sizes=[len(h) for h in raw["hands"]],
        agency=[AgencyInfo(PRICES[i], None if c < 0 else ship_info(game, c)) for i, c in enumerate(raw["agency"])],
        deck_size=len(raw["deck"]),
        discard=[ship_info(game, c) for c in raw["discard"]],
        seas=seas,
        free_classes=[c + 1 for c in range(5) if c not in taken],
        voyages_left=voyages_left,
        loans=loans,
        scores=state.scores(),
        legal_actions=state.legal_actions() if state.current_player == player else [],
        known=None if known is None else [[ship_info(game, c) for c in sorted(k)] for k in known],
    )


class KnownTracker:
    """Per seat, the ships it is known to hold (A14), kept by watching the moves only:
    a charter adds the ship on the chosen agency space, a voyage keeps the known ships
    that stay in the hand (the played ones are on the new plaque), the end shows all."""

    def __init__(self, game: AtlanticStarGame, known: list[set[int]] | None = None) -> None:
        self.game = game
        self.known: list[set[int]] = known if known is not None else [set() for _ in range(game.num_players)]

    def apply(self, state: AtlanticStarState, action: int) -> None:
        """Apply ``action`` to ``state`` and follow what every seat learns."""
        p = state.current_player
        R = self.game.rules
        charter = R.a_charter <= action < R.a_voyage
        ship = state.to_data().agency[action - R.a_charter] if charter else None
        state.apply(action)
        if ship is not None:
            self.known[p].add(ship)
        if action >= R.a_voyage:  # the played ships left the hand (and are on the board)
            self.known[p] &= set(state.to_data().hands[p])
        if state.is_over:
            self.known = [set(h) for h in state.to_data().hands]


def reference_observation(game: AtlanticStarGame, view: AtlanticStarView) -> npt.NDArray[np.float32]:
    """The observation tensor of ``view`` (docs: "Observation tensor")."""
    N, M, S = game.num_players, len(game.ships.ships), game.sets
    out = np.zeros(game.observation_shape, dtype=np.float64)
    f = game.observation_fields()

    def put(name: str, index: int, value: float = 1.0) -> None:
        part = f[name]
        assert 0 <= index < part.stop - part.start
        out[part.start + index] = value

    put("seat", view.player)
    if view.current_player >= 0:
        put("current_player", view.current_player)
    put("phase", PHASES.index(view.phase))
    for info in view.hand:
        put("hand", info.id)
    for i, space in enumerate(view.agency):
        if space.ship is not None:
            put("agency", i * M + space.ship.id)
    put("deck_size", 0, view.deck_size / M)
    for info in view.discard:
        put("discard", info.id)
    for s, sea in enumerate(view.seas):
        if sea.stars is not None:
            put("sea_class", s * 5 + sea.stars - 1)
        for pl in sea.plaques:
            base = (s * 6 + pl.field - 1) * 8
            owner = pl.seat * S + pl.voyage if pl.seat is not None else N * S + (pl.operator or 0)
            put("plaques", base + owner)
            put("plaques", base + 6, pl.value / 60)
            put("plaques", base + 7, pl.loan / 10_000)
            for name in pl.ships:
                put("board_ships", game.ships.index[name])
    for c in view.free_classes:
        put("free_classes", c - 1)
    for p in range(N):
        put("hand_sizes", p, view.hand_sizes[p] / 8)
        put("money", p, view.money[p] / 76_000)
        for s in range(4):
            put("loans", p * 4 + s, view.loans[p][s] / 10_000)
        put("voyages_left", p, view.voyages_left[p] / (4 * S))
        put("scores", p, view.scores[p] / 100)
    return out.astype(np.float32)


def reference_information_state(game: AtlanticStarGame, view: AtlanticStarView) -> npt.NDArray[np.float32]:
    """The information-state tensor of a view with recall: the observation, then per seat
    the ships it is known to hold."""
    assert view.known is not None
    M = len(game.ships.ships)
    obs = reference_observation(game, view)
    known = np.zeros(game.num_players * M, dtype=np.float32)
    for p, row in enumerate(view.known):
        for info in row:
            known[p * M + info.id] = 1.0
    return np.concatenate([obs, known])


def unseen(state: AtlanticStarState, player: int, recall: bool = False) -> list[int]:
    """The ships ``player`` cannot see (other hands and the pack; with ``recall`` not the
    ships a hand is known to hold), sorted: what resampling deals anew."""
    d: Any = state.to_data()
    out = list(d.deck)
    for p, (hand, known) in enumerate(zip(d.hands, d.known, strict=True)):
        if p != player:
            out += [c for c in hand if not (recall and c in known)]
    return sorted(out)
