"""The game objects an engine's games are played in: :class:`GameCache` keeps one per
configuration (a game name and its options), shared by the games of one engine or of many
(a server's), with a cap on the configurations alive; :class:`GameConfig` is one of them,
with the plain texts of its moves.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from cruiselib.errors import CruiseError, InvalidOptionError

from .failures import ReplyError
from .limits import _MAX_ALIASES, MAX_CONFIGURATIONS, check_limits

if TYPE_CHECKING:
    from .session import Session

__all__ = ["GameCache", "GameConfig"]

Quota = Callable[["GameConfig | None"], None]
"""An engine's share of a cache: called with the configuration a checkout found (None for
a new one), it raises :class:`ReplyError` to refuse it."""


class GameConfig:
    """One game configuration of a :class:`GameCache`: the game object, the plain texts of
    its moves, the open games that use it (weakly: a game dropped without ``close`` frees it
    too) and the checkouts not yet handed to a game."""

    __slots__ = ("default", "game", "keys", "pins", "plain_texts", "users")

    def __init__(self, game: Any, default: bool = False) -> None:
        self.game = game
        self.default = default  # a game's configuration without options: always kept, not counted
        # ``str(game.action_to_move(a))`` (what records store) by action id, made once each
        # (a game that declares ``annotated_moves`` lists texts that depend on the position:
        # those are made anew each time).
        self.plain_texts: dict[int, str] = {}
        self.users: weakref.WeakSet[Session] = weakref.WeakSet()
        self.pins = 0
        self.keys: list[tuple[str, bytes]] = []

    def in_use(self) -> bool:
        """Whether an open game or a pending checkout holds this configuration."""
        return self.pins > 0 or len(self.users) > 0


def _options_key(name: str, options: Mapping[str, Any]) -> tuple[str, bytes]:
    """The key of a game name and its options as asked for (the options' sorted JSON)."""
    try:
        return name, msgspec.json.encode(dict(options), order="sorted")
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise InvalidOptionError(f"options: {exc}") from None


class GameCache:
    """The game objects of many games, one per configuration (name and options), with their
    move texts: thread-safe, shareable by many engines (a server makes one and gives it to
    every connection's :class:`~cruiselib.protocol.Engine`).

    A game object is costly to make (up to tens of milliseconds) and to keep (a game with its
    own component set may be about a megabyte), so every game of one configuration
    shares one, and at most ``max_configurations`` distinct configurations are alive: when a
    new one would exceed the cap, the least recently used configuration no open game uses
    is dropped; if every one is in use, the new one is refused with ``too_many_configurations``.

    A game's default configuration (asked for with no options) is kept apart: always
    available, never dropped and not counted against the cap (one per game), so that no
    client can lock another out of the default games. ``quota``, which an engine passes to
    :meth:`checkout` and :meth:`adopt`, refuses a configuration new to that engine beyond
    its own share, before the costly make.
    """

    def __init__(self, max_configurations: int = MAX_CONFIGURATIONS) -> None:
        check_limits(max_configurations=max_configurations)
        self.max_configurations = max_configurations
        self._lock = threading.Lock()
        self._by_key: dict[tuple[str, bytes], GameConfig] = {}
        self._configs: OrderedDict[int, GameConfig] = OrderedDict()  # by id(), least recently used first

    def __len__(self) -> int:
        """The number of distinct configurations alive that count against the cap (the
        games' default configurations do not)."""
        with self._lock:
            return self._counted()

    def checkout(self, name: str, options: Mapping[str, Any], quota: Quota | None = None) -> GameConfig:
        """The configuration of this game name and options, pinned until :meth:`release`
        (or until an open game holds it: :meth:`hold`). InvalidOptionError for a bad
        name or options; ``too_many_configurations`` when the cap is reached, or when
        ``quota`` (called with the configuration found, or None for a new one) refuses."""
        from cruiselib._registry import make
        from cruiselib.records import _options

        key = _options_key(name, options)
        default = not options
        with self._lock:
            config = self._by_key.get(key)
        if config is None and not default:
            # Options that spell out the defaults name the default configuration.
            base = self.checkout(name, {})
            self.release(base)
            own = msgspec.to_builtins(base.game.options)
            if all(k in own and type(own[k]) is type(v) and own[k] == v for k, v in options.items()):
                return self.adopt(base.game, key, default=True)
        with self._lock:
            config = self._by_key.get(key)
            if config is not None:
                if quota is not None:
                    quota(config)
                self._touch(config)
                config.pins += 1
                return config
            if not default:  # refuse before the costly make
                if quota is not None:
                    quota(None)
                self._make_room()
        try:
            game = make(name, **_options(name, dict(options)))
        except CruiseError:
            raise
        except (TypeError, ValueError, OverflowError, RecursionError, msgspec.ValidationError) as exc:
            raise InvalidOptionError(f"bad options for {name!r}: {exc}") from None
        return self.adopt(game, key, quota, default=default)

    def adopt(
        self,
        game: Any,
        key: tuple[str, bytes] | None = None,
        quota: Quota | None = None,
        *,
        default: bool = False,
    ) -> GameConfig:
        """The configuration of ``game`` (kept under its own options and under ``key``, the
        options it was asked for), pinned as :meth:`checkout` pins it: an equal game already
        kept is shared and ``game`` dropped. ``default``: ``game`` is its game's default
        configuration (kept apart, not counted)."""
        own = _options_key(game.name, msgspec.to_builtins(game.options))
        with self._lock:
            config = self._by_key.get(own)
            if config is None or config.game != game:
                if not default:
                    if quota is not None:
                        quota(None)
                    self._make_room()
                config = GameConfig(game, default)
                self._configs[id(config)] = config
            elif quota is not None:
                quota(config)
            for k in (own, key or own):
                if self._by_key.get(k) is not config:
                    old = self._by_key.get(k)
                    if old is not None:
                        old.keys.remove(k)
                    self._by_key[k] = config
                    config.keys.append(k)
            while len(config.keys) > _MAX_ALIASES:  # bound the spellings kept of one configuration
                alias = next(k for k in config.keys if k != own)
                config.keys.remove(alias)
                del self._by_key[alias]
            self._touch(config)
            config.pins += 1
            return config

    def release(self, config: GameConfig) -> None:
        """Undo one :meth:`checkout` (or :meth:`adopt`)."""
        with self._lock:
            config.pins -= 1

    def hold(self, config: GameConfig, session: Session) -> None:
        """Mark ``config`` used by ``session`` for as long as the session lives, and release
        the pin of its checkout."""
        with self._lock:
            config.users.add(session)
            config.pins -= 1

    def configs(self, name: str) -> list[GameConfig]:
        """The configurations of game ``name`` alive, most recently used first."""
        with self._lock:
            return [c for c in reversed(self._configs.values()) if c.game.name == name]

    def _touch(self, config: GameConfig) -> None:
        if id(config) in self._configs:
            self._configs.move_to_end(id(config))

    def _counted(self) -> int:
        """Configurations alive that count against the cap. Called with the lock held."""
        return sum(not c.default for c in self._configs.values())

    def _make_room(self) -> None:
        """Drop unused configurations, least recently used first, until one more fits;
        ``too_many_configurations`` if all are in use. Called with the lock held."""
        while (counted := self._counted()) >= self.max_configurations:
            victim = next((c for c in self._configs.values() if not c.default and not c.in_use()), None)
            if victim is None:
                raise ReplyError(
                    "too_many_configurations",
                    f"the server's {counted} game configurations are all in use by open games (the most kept at"
                    " once): use the game's default options, or try again later",
                )
            del self._configs[id(victim)]
            for k in victim.keys:
                del self._by_key[k]
            victim.keys.clear()
