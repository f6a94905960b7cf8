"""``PolicyBot``: a small trained network played with numpy alone (no torch at run time).

The network is the one ``examples/train_ppo.py`` trains (docs/rl.md, "PPO example"): an
MLP torso over the seat's observation tensor, and a head that scores only the legal
actions, each the dot product of the torso's query vector with that action's row of an
embedding table, plus the action's bias. The bot plays the highest-scoring legal action
(``temperature=0``, the default) or samples the softmax of the scores over
``temperature`` from its own seeded generator.

Weights are engine-authored data: trained by the example, not taken from any rulebook.
Each game's package ships weights in its ``data`` folder, ``policy-*.npz``, one file per
configuration they were trained for; the bot finds them through the game's class (its
package) and picks the file whose recorded configuration is the game's, so a game
registered from outside cruiselib brings its own, and a game or configuration without
them is refused by name. :func:`from_file` plays a file of your own, such as one written by
``train_ppo.py --export`` (``weights=`` takes a network read with :func:`read_weights`: never
a path, so the engine protocol, which makes bots by name from a client's options, reads no
files). A weights file
is a ``.npz`` of float arrays and one JSON text, ``meta``, that says what made it and what
it was trained for; a game whose configuration differs is refused with
:class:`cruiselib.InvalidOptionError` naming both.
"""

from __future__ import annotations

import functools
import io
import json
import math
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib._files import read_component_file
from cruiselib.errors import IllegalMoveError, InvalidOptionError

from ._types import Candidate, with_texts

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_WEIGHTS_BYTES",
    "WEIGHTS_FOLDER",
    "PolicyBot",
    "PolicyNetwork",
    "configuration_of",
    "from_file",
    "load_weights",
    "read_weights",
    "shipped_weights",
]

FORMAT = "cruiselib-policy"
"""The ``format`` of a weights file's ``meta``."""
FORMAT_VERSION = 1
"""The layout this module reads (``meta["format_version"]``)."""
WEIGHTS_FOLDER = "data"
"""Where a game's package keeps its trained weights, ``policy*.npz``, one file per
configuration (beside its other data files)."""
MAX_WEIGHTS_BYTES = 16 << 20
"""The largest weights file read (16 MiB), and the most its arrays may unpack to is 4 times that."""

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class PolicyNetwork:
    """A trained policy's arrays, float32, checked against each other when loaded.

    ``layers``: the torso, ``(weight [in, out], bias [out])`` each followed by a ReLU;
    ``query``: the last torso layer's width to the head's; ``actions``: one row per action
    id (``[num_actions, head]``), ``action_bias`` one number per action; ``value``: the
    torso to the value estimate (the expected return of the seat to act, -1 to 1). ``meta``
    is what made the weights (the JSON of the file) and ``source`` where they were read.
    """

    meta: Mapping[str, Any]
    layers: tuple[tuple[Array, Array], ...]
    query: tuple[Array, Array]
    actions: Array
    action_bias: Array
    value: tuple[Array, Array]
    source: str

    @property
    def observation_size(self) -> int:
        """The length of the observation tensor the network reads."""
        return int(self.layers[0][0].shape[0])

    @property
    def num_actions(self) -> int:
        """The size of the action space it was trained on."""
        return int(self.actions.shape[0])

    def features(self, observations: npt.ArrayLike) -> Array:
        """The torso's output for one observation ``[obs]`` or a batch ``[n, obs]``."""
        h = np.asarray(observations, dtype=np.float32)
        for weight, bias in self.layers:
            h = np.maximum(h @ weight + bias, 0.0)
        return h

    def scores(self, observation: npt.ArrayLike, legal: npt.ArrayLike) -> Array:
        """The scores (logits) of the actions ``legal`` (ids) for one observation."""
        ids = np.asarray(legal, dtype=np.intp)
        weight, bias = self.query
        query = self.features(observation) @ weight + bias
        out: Array = self.actions[ids] @ query + self.action_bias[ids]
        return out

    def value_of(self, observation: npt.ArrayLike) -> float:
        """The value head's estimate of the seat's return from this observation."""
        weight, bias = self.value
        return float((self.features(observation) @ weight + bias)[0])


def _refuse(source: str, why: str) -> InvalidOptionError:
    return InvalidOptionError(f"policy weights {source}: {why}")


def load_weights(data: bytes, source: str = "<bytes>") -> PolicyNetwork:
    """A :class:`PolicyNetwork` from the bytes of a weights file, every array's shape and
    the ``meta`` checked: anything else (not a ``.npz``, another format or version, a
    missing or misshapen array, values that are not finite) raises InvalidOptionError
    naming ``source``. Nothing in the file is unpickled."""
    if len(data) > MAX_WEIGHTS_BYTES:
        raise _refuse(source, f"{len(data):,} bytes, more than a weights file may have ({MAX_WEIGHTS_BYTES:,})")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > 4 * MAX_WEIGHTS_BYTES:
            raise _refuse(source, f"its arrays unpack to {unpacked:,} bytes, more than {4 * MAX_WEIGHTS_BYTES:,}")
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except InvalidOptionError:
        raise
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise _refuse(source, f"not a readable .npz file ({exc})") from None
    meta_array = arrays.pop("meta", None)
    if meta_array is None or meta_array.shape != () or meta_array.dtype.kind != "U":
        raise _refuse(source, "no meta text (a weights file holds one, as a 0-d string array)")
    try:
        meta = json.loads(str(meta_array))
    except ValueError as exc:
        raise _refuse(source, f"its meta is not JSON ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _refuse(source, f"its meta does not say format {FORMAT!r}")
    if meta.get("format_version") != FORMAT_VERSION:
        raise _refuse(source, f"format version {meta.get('format_version')!r}; this cruiselib reads {FORMAT_VERSION}")

    def array(name: str, ndim: int) -> Array:
        value = arrays.get(name)
        if value is None:
            raise _refuse(source, f"array {name!r} is missing")
        if value.ndim != ndim or value.dtype.kind != "f":
            raise _refuse(source, f"array {name!r} is {value.dtype} of shape {value.shape}, not a {ndim}-d float array")
        out = np.ascontiguousarray(value, dtype=np.float32)
        if not np.isfinite(out).all():
            raise _refuse(source, f"array {name!r} holds values that are not finite")
        out.flags.writeable = False
        return out

    def linear(name: str, width: int) -> tuple[Array, Array]:
        weight, bias = array(f"{name}.weight", 2), array(f"{name}.bias", 1)
        if weight.shape[0] != width or bias.shape != (weight.shape[1],):
            raise _refuse(
                source,
                f"{name}: weight {weight.shape} and bias {bias.shape} do not take {width} inputs to one output each",
            )
        return weight, bias

    depth = meta.get("layers")
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 8:
        raise _refuse(source, f"meta 'layers' must be a count of torso layers 1..8, not {depth!r}")
    first = arrays.get("layer0.weight")
    width = int(first.shape[0]) if first is not None and first.ndim == 2 else -1
    if width < 1:
        raise _refuse(source, "array 'layer0.weight' is missing or not 2-d")
    layers = []
    for k in range(depth):
        layers.append(linear(f"layer{k}", width))
        width = int(layers[-1][0].shape[1])
    query = linear("query", width)
    value = linear("value", width)
    if value[0].shape[1] != 1:
        raise _refuse(source, f"value.weight has shape {value[0].shape}: the value head has one output")
    actions, action_bias = array("actions.embedding", 2), array("actions.bias", 1)
    if actions.shape[1] != query[0].shape[1] or action_bias.shape != (actions.shape[0],):
        raise _refuse(
            source,
            f"actions.embedding {actions.shape} and actions.bias {action_bias.shape} do not fit "
            f"the query's {query[0].shape[1]} outputs",
        )
    for key, expected in (("observation_size", layers[0][0].shape[0]), ("num_actions", actions.shape[0])):
        if meta.get(key) != expected:
            raise _refuse(source, f"meta says {key} {meta.get(key)!r}, the arrays {expected}")
    return PolicyNetwork(
        meta=meta,
        layers=tuple(layers),
        query=query,
        actions=actions,
        action_bias=action_bias,
        value=value,
        source=source,
    )


def configuration_of(game: Any) -> dict[str, Any]:
    """What a weights file records of the configuration it was trained for: the game's
    name and its options as JSON values (a component set by its name)."""
    options = {key: getattr(value, "name", value) for key, value in game.options.items()}
    return {"game": str(game.name), "options": json.loads(json.dumps(options, default=str, sort_keys=True))}


def _package_of(game_type: type) -> str:
    module = sys.modules.get(game_type.__module__)
    package = getattr(module, "__package__", None) or game_type.__module__.rpartition(".")[0]
    return str(package)


@functools.cache
def _shipped(package: str) -> tuple[PolicyNetwork, ...]:
    try:
        folder = resources.files(package).joinpath(WEIGHTS_FOLDER)
        files = sorted(
            (f for f in folder.iterdir() if f.name.startswith("policy") and f.name.endswith(".npz")),
            key=lambda f: f.name,
        )
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, OSError):
        return ()
    return tuple(load_weights(f.read_bytes(), f"{package}/{WEIGHTS_FOLDER}/{f.name}") for f in files)


def shipped_weights(game: Any) -> PolicyNetwork:
    """The weights that ship with ``game``'s package for its configuration: the
    ``data/policy*.npz`` beside the game's module whose ``meta`` names this configuration
    (read once per package). InvalidOptionError if none ships, or none fits, naming the
    configurations they were trained for."""
    game_type = type(game)
    package = _package_of(game_type)
    title = getattr(game_type, "title", game_type.__name__)
    networks = _shipped(package)
    if not networks:
        raise InvalidOptionError(
            f"no trained policy ships with {title} (no {package}/{WEIGHTS_FOLDER}/policy*.npz); "
            "play a weights file of your own (cruiselib.bots.policy.from_file; "
            "examples/train_ppo.py --export writes one)"
        )
    for network in networks:
        if _misfits(network, game) == []:
            return network
    trained = "; ".join(_said(_trained(n)) for n in networks)
    raise InvalidOptionError(
        f"no trained policy of {title} fits this configuration, {_said(configuration_of(game))}: "
        f"the weights that ship were trained for {trained} "
        "(play a weights file of your own with cruiselib.bots.policy.from_file)"
    )


def read_weights(path: str | Path) -> PolicyNetwork:
    """The :class:`PolicyNetwork` of a weights file: a regular file of at most
    :data:`MAX_WEIGHTS_BYTES`, read as the games read their component files, then checked
    by :func:`load_weights`. InvalidOptionError for anything else."""
    data = read_component_file(path, what="policy weights file", limit=MAX_WEIGHTS_BYTES)
    return load_weights(data, repr(str(path)))


def from_file(path: str | Path, seed: int | None = None, temperature: float = 0.0) -> PolicyBot:
    """A :class:`PolicyBot` that plays the weights file ``path`` (read now): the factory
    the command line and the arena take as ``cruiselib.bots.policy:from_file``, e.g.
    ``cruiselib arena sirens --bot cruiselib.bots.policy:from_file,path=policy.npz --bot rules``."""
    return PolicyBot(seed=seed, temperature=temperature, weights=read_weights(path))


def _trained(network: PolicyNetwork) -> dict[str, Any]:
    return {"game": network.meta.get("game"), "options": network.meta.get("options")}


def _misfits(network: PolicyNetwork, game: Any) -> list[str]:
    problems = []
    here = configuration_of(game)
    if _trained(network) != here:
        problems.append(f"trained for {_said(_trained(network))}, this game is {_said(here)}")
    obs = int(game.observation_shape[0])
    if network.observation_size != obs:
        problems.append(f"observations of {network.observation_size} values, this game's have {obs}")
    if network.num_actions != int(game.num_actions):
        problems.append(f"{network.num_actions} actions, this game has {game.num_actions}")
    return problems


def check_configuration(network: PolicyNetwork, game: Any) -> None:
    """InvalidOptionError unless ``network`` was trained for ``game``'s configuration (the
    same game, options, observation size and action space), naming both."""
    problems = _misfits(network, game)
    if problems:
        raise InvalidOptionError(f"policy weights {network.source} do not fit: " + "; ".join(problems))


def _said(configuration: Mapping[str, Any]) -> str:
    options = configuration.get("options")
    shown = ", ".join(f"{k}={v!r}" for k, v in options.items()) if isinstance(options, dict) else repr(options)
    return f"{configuration.get('game')!r} ({shown})"


class PolicyBot:
    """Plays a trained policy network: the best-scored legal action, or a sample.

    ``temperature``: 0 (the default) plays the highest-scoring legal action (the lowest id
    among equals), deterministic whatever the seed; above 0 samples the softmax of the
    scores divided by it from the bot's ``numpy.random.Generator`` (seeded by ``seed``).
    ``weights``: a :class:`PolicyNetwork` (:func:`read_weights`; :func:`from_file` makes
    the bot from a path); None plays the weights that ship with the game, read at the first
    move of each game configuration and kept. A path is refused: the engine protocol makes
    bots by name with a client's options, and reads no files.
    """

    name = "policy"

    def __init__(self, seed: int | None = None, temperature: float = 0.0, weights: PolicyNetwork | None = None) -> None:
        if (
            isinstance(temperature, bool)
            or not isinstance(temperature, (int, float))
            or not math.isfinite(temperature)
            or not 0 <= temperature <= 100
        ):
            raise InvalidOptionError(f"temperature must be a number from 0 to 100, not {temperature!r}")
        if weights is not None and not isinstance(weights, PolicyNetwork):
            raise InvalidOptionError(
                f"weights must be a PolicyNetwork (cruiselib.bots.policy.read_weights) or None, not {weights!r}; "
                "a path is not read here: cruiselib.bots.policy.from_file(path) makes the bot from a file"
            )
        self.temperature = float(temperature)
        self.weights = weights
        self._rng = np.random.default_rng(seed)
        self._networks: dict[Any, PolicyNetwork] = {}

    def network(self, game: Any) -> PolicyNetwork:
        """The network this bot plays ``game`` with, checked against its configuration."""
        key = (type(game), game.num_players, game.num_actions, repr(game.options))
        network = self._networks.get(key)
        if network is None:
            network = shipped_weights(game) if self.weights is None else self.weights
            check_configuration(network, game)
            self._networks[key] = network
        return network

    def _scored(self, state: Any) -> tuple[npt.NDArray[np.intp], Array]:
        if state.is_over:
            raise IllegalMoveError("the game is over: there is no move to choose")
        seat = state.current_player
        legal = np.asarray(state.legal_actions(), dtype=np.intp)
        network = self.network(state.game)
        return legal, network.scores(state.observation(seat), legal)

    def choose(self, state: Any) -> int:
        legal, scores = self._scored(state)
        if self.temperature == 0 or len(legal) == 1:
            return int(legal[int(np.argmax(scores))])
        z = scores / self.temperature
        p = np.exp(z - z.max())
        return int(legal[int(self._rng.choice(len(legal), p=p / p.sum()))])

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal move with its probability under the policy (at temperature 1), most
        likely first; equal ones by action id."""
        legal, scores = self._scored(state)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        order = sorted(range(len(legal)), key=lambda i: (-float(p[i]), int(legal[i])))
        game = state.game
        candidates = [
            Candidate(action=int(legal[i]), move=str(game.action_to_move(int(legal[i]))), value=float(p[i]))
            for i in order
        ]
        return with_texts(state, candidates)
