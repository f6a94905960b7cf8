"""Toy Duel: the :class:`ToyDuelGame` configuration and the :class:`ToyDuelState`."""

from __future__ import annotations

from typing import Any

from cruiselib import Game, State
from cruiselib.errors import IllegalMoveError
from tests.toy_game import core, integrations, schema
from tests.toy_game.schema import GAME_NAME, SCHEMA_VERSION, Play, ToyDuelMove, ToyDuelStateData, ToyDuelView

__all__ = ["ToyDuelGame", "ToyDuelState"]


class ToyDuelState(State[ToyDuelMove, ToyDuelStateData, ToyDuelView], core.ToyDuelCore):
    """A Toy Duel position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: ToyDuelGame

    def _to_data(self) -> ToyDuelStateData:
        data: ToyDuelStateData = self._export()
        return data

    def view(self, player: int, *, recall: bool = False) -> ToyDuelView:
        """What ``player`` sees (every card played is face up: ``recall`` adds nothing)."""
        view: ToyDuelView = self._view(self._seat(player), bool(recall))
        return view


class ToyDuelGame(Game[ToyDuelState, ToyDuelMove]):
    """Toy Duel for 2 players. Option: ``players`` (2, the default)."""

    name = GAME_NAME
    title = "Toy Duel"
    core_module = "toy_duel"  # no module of cruiselib._core: the core is tests.toy_game.core
    player_counts = integrations.PLAYER_COUNTS
    example_configurations = integrations.EXAMPLE_CONFIGURATIONS
    rule_bot = "tests.toy_game.rulebot:RuleBot"
    search = integrations.SEARCH
    openspiel = integrations.OPENSPIEL
    web = integrations.WEB
    annotated_moves = False
    schema_version = SCHEMA_VERSION
    state_data_type = ToyDuelStateData
    view_type = ToyDuelView
    move_type = ToyDuelMove
    move_classes = (Play,)
    draws_possible = True  # T5: equal points
    score_bounds = (0, core.TOTAL_POINTS)

    def __init__(self, players: int = 2) -> None:
        self.num_players = self._check_players(players)
        self._use_core(core, ToyDuelState)
        self.num_actions = core.CARDS
        self._build_move_table()

    def _use_core(self, module: Any, state_class: type[ToyDuelState]) -> None:
        self._core = module
        self._state_class = state_class
        self.rules = module.ToyDuelRules(self.num_players)
        self.rules._set_schema(schema, self.name)

    def pure_twin(self) -> ToyDuelGame:
        """The game itself: its core is pure Python already."""
        return self

    @property
    def options(self) -> dict[str, Any]:
        return {"players": self.num_players}

    def _deal(self, rng_state: int, start_player: int) -> ToyDuelState:
        state = self._state_class(self.rules, self)
        state._new_game(rng_state, start_player)
        return state

    def _decode_action(self, action: int) -> ToyDuelMove:
        return Play(action)

    def _encode_move(self, move: Any) -> int:
        if isinstance(move, Play) and 0 <= move.card < core.CARDS:
            return move.card
        raise IllegalMoveError(f"{move!r} names no action")

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        return {"players": core.PLAYERS}

    def _from_data(self, data: Any) -> ToyDuelState:
        d: ToyDuelStateData = data
        state = self._state_class(self.rules, self)
        state._load(d)
        return state

    def _observation_layout(self) -> list[tuple[str, int]]:
        """The observation's parts; per-seat parts list the observer first."""
        return list(core.LAYOUT)

    def _observation_ranges(self) -> dict[str, tuple[float, float]]:
        """The range of each part (``Game.observation_bounds`` reads them): 0/1 card planes,
        and points, hand sizes and the stock over the most they can be (T1, T3)."""
        return dict.fromkeys((name for name, _ in core.LAYOUT), (0.0, 1.0))

    def render(self, state: ToyDuelState, player: int | None = None, *, compact: bool = False) -> str:
        """The table, and the hands ``player`` sees (every hand for None); short enough
        for the compact form too."""
        raw = state._get_raw()
        if raw["over"]:
            winners = state.winners()
            head = f"game over: {'seat ' + str(winners[0]) + ' wins' if winners else 'a draw'}"
        else:
            head = f"seat {raw['current_player']} to play"
        led = f"led: {core.value(raw['led'])}" if raw["led"] >= 0 else "no card led"
        lines = [head, f"{led}; stock {len(raw['stock'])}; points {raw['points'][0]}-{raw['points'][1]}"]
        for p in range(core.PLAYERS):
            hand = raw["hands"][p]
            shown = " ".join(str(core.value(k)) for k in hand) if player in (None, p) else f"{len(hand)} hidden"
            lines.append(f"seat {p}: {shown or 'empty'}")
        return "\n".join(lines)
