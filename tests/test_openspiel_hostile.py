"""cruiselib.openspiel against hostile input: serialized states that carry code, belong to
another game or configuration, or are damaged, and parameters out of OpenSpiel's range.

A serialized state is cruiselib's validated JSON snapshot in a small versioned envelope;
nothing that comes in is ever unpickled. Skipped without OpenSpiel."""

from __future__ import annotations

import base64
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cruiselib  # noqa: E402
import cruiselib.openspiel as cos  # noqa: E402
from cruiselib.errors import InvalidOptionError, InvalidStateError  # noqa: E402

from .support import ANY_GAME, player_counts  # noqa: E402

# A surface over the public API: the README's pure-Python run leaves it out (-m "not surface").
pytestmark = pytest.mark.surface

# One configuration per game with its default components, small enough to play out fast.
GAMES: list[tuple[str, dict[str, Any]]] = [
    (name, {"players": min(n for n in player_counts(name) if n >= 2)} if len(player_counts(name)) > 1 else {})
    for name in cruiselib.games()
]


def played(game: Any, seed: int, steps: int = 12) -> Any:
    """A state after up to ``steps`` random actions (not over)."""
    rnd = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        child = state.child(rnd.choice(state.legal_actions()))
        if child.is_terminal():
            break
        state = child
    return state


class WritesMarker:
    """A pickle that writes a file when it is loaded: what a crafted serialized state does."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.marker, "the payload ran"))


def pickled_texts(marker: Path) -> list[str]:
    """The payload as OpenSpiel's own text of a Python state (its attributes pickled and
    base64-encoded), as that base64 alone, and as raw pickle bytes read as Latin-1."""
    raw = pickle.dumps({"_state": WritesMarker(marker)})
    b64 = base64.b64encode(raw).decode()
    return [f"history=\nmove_number=0\n__dict__={b64}", b64, raw.decode("latin-1")]


# --------------------------------------------------------------------------- code execution


def test_a_pickled_payload_is_refused_and_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    game = cos.load_game(ANY_GAME)
    for text in pickled_texts(marker):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(text)
        with pytest.raises(InvalidStateError):
            game.deserialize_state(text.encode("latin-1"))
    assert not marker.exists()


def test_openspiel_game_and_state_text_never_unpickles(tmp_path: Path) -> None:
    """OpenSpiel's C++ loader of a game-and-state text unpickles a Python state's attributes;
    for a cruiselib game it is refused before that (SpielError), and other games still load."""
    marker = tmp_path / "marker"
    payload = pickled_texts(marker)[0]
    for game_string in ("cruiselib_sirens()", "cruiselib_dream_cruise(players=2)"):
        text = f"[Meta]\nVersion: 1\n\n[Game]\n{game_string}\n[State]\n{payload}\n"
        with pytest.raises(pyspiel.SpielError, match="deserialize_state"):
            pyspiel.deserialize_game_and_state(text)
    assert not marker.exists()
    kuhn = pyspiel.load_game("kuhn_poker")
    state = kuhn.new_initial_state().child(0)
    game, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(kuhn, state))
    assert str(game) == str(kuhn) and loaded.history() == state.history()
    # The refusal is for that call only: the same thread deals new states afterwards.
    assert cos.load_game(ANY_GAME).new_initial_state().legal_actions()


def test_the_guard_survives_a_reload(tmp_path: Path) -> None:
    """A reload of the module keeps the games registered first and the guard of their loading."""
    marker = tmp_path / "marker"
    script = f"""
import base64, importlib, pathlib, pickle
import pyspiel
import cruiselib.openspiel as cos
importlib.reload(cos)
class Payload:
    def __reduce__(self):
        return (pathlib.Path.write_text, (pathlib.Path({str(marker)!r}), "ran"))
b64 = base64.b64encode(pickle.dumps({{"_state": Payload()}})).decode()
text = "[Meta]\\nVersion: 1\\n\\n[Game]\\ncruiselib_sirens()\\n[State]\\nhistory=\\nmove_number=0\\n__dict__=" + b64
try:
    pyspiel.deserialize_game_and_state(text)
except pyspiel.SpielError:
    print("refused")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert result.stdout.strip() == "refused", result.stderr
    assert not marker.exists()


def test_openspiels_pickled_form_of_an_honest_state_is_refused() -> None:
    """The text OpenSpiel's C++ side makes of a Python state is a pickle: it is not ours."""
    name, options = GAMES[0]
    game = cos.load_game(name, **options)
    state = played(game, 1)
    with pytest.raises(InvalidStateError, match="pickle"):
        game.deserialize_state(pyspiel.State.serialize(state))


# --------------------------------------------------------------------------- the text


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_serialized_text_is_a_versioned_snapshot(name: str, options: dict[str, Any]) -> None:
    game = cos.load_game(name, seed=5, **options)
    state = played(game, 2)
    text = state.serialize()
    envelope = json.loads(text)
    assert envelope["format"] == cos.STATE_FORMAT and envelope["version"] == cos.STATE_FORMAT_VERSION
    assert envelope["game"] == cos.short_name(name)
    assert envelope["parameters"] == {**cos.GAME_CLASSES[name].spec.parameters, "seed": 5, **options}
    assert envelope["history"] == [[pa.player, pa.action] for pa in state.full_history()]
    assert envelope["state"] == json.loads(state.cruiselib_state.to_json())
    loaded = game.deserialize_state(text)
    assert loaded.serialize() == text and loaded.move_number() == state.move_number()
    assert game.deserialize_state(text.encode()).serialize() == text  # UTF-8 bytes too


def test_another_seed_loads() -> None:
    """``seed`` only picks the deals of new initial states; a state carries its own generator."""
    name, options = GAMES[0]
    state = played(cos.load_game(name, seed=1, **options), 3)
    loaded = cos.load_game(name, seed=2, **options).deserialize_state(state.serialize())
    assert loaded.cruiselib_state == state.cruiselib_state


# --------------------------------------------------------------------------- foreign states


def test_another_games_state_is_refused() -> None:
    (one, one_options), (other, other_options) = GAMES[:2]
    text = played(cos.load_game(one, **one_options), 1).serialize()
    with pytest.raises(InvalidStateError, match=cos.short_name(one)):
        cos.load_game(other, **other_options).deserialize_state(text)


@pytest.mark.parametrize("name", [name for name in cruiselib.games() if len(player_counts(name)) > 1])
def test_another_player_counts_state_is_refused(name: str) -> None:
    fewest, most = player_counts(name)[0], player_counts(name)[-1]
    larger = played(cos.load_game(name, players=most), 1).serialize()
    with pytest.raises(InvalidStateError, match=rf"players={most}.*players={fewest}"):
        cos.load_game(name, players=fewest).deserialize_state(larger)


def check_another_configurations_state_is_refused(
    name: str, made_with: dict[str, Any], loaded_in: dict[str, Any], differ: str
) -> None:
    """A state of game ``name`` made with options ``made_with`` is refused, naming the option
    ``differ``, by the game of ``loaded_in`` (each game's tests/<game>/test_openspiel_hostile.py
    gives its own options)."""
    text = played(cos.load_game(name, **made_with), 1).serialize()
    with pytest.raises(InvalidStateError, match=differ):
        cos.load_game(name, **loaded_in).deserialize_state(text)


def test_a_relabelled_state_is_refused() -> None:
    """An envelope edited to name this game's configuration still holds the other state:
    cruiselib's own snapshot check refuses it."""
    name = next(name for name in cruiselib.games() if len(player_counts(name)) > 1)
    fewest, most = player_counts(name)[0], player_counts(name)[-1]
    envelope = json.loads(cos.load_game(name, players=most).new_initial_state().serialize())
    envelope["parameters"]["players"] = fewest  # the history is empty: no seat beyond the fewest's in it
    with pytest.raises(InvalidStateError, match=f"{most} players"):
        cos.load_game(name, players=fewest).deserialize_state(json.dumps(envelope))


# --------------------------------------------------------------------------- damaged texts


def test_fuzzed_texts_give_only_invalid_state_errors() -> None:
    """Seeded mutations of every game's text: each is refused with InvalidStateError, or
    loads a state that serializes and loads again to the same state."""
    rnd = random.Random(20240611)
    refused = accepted = 0
    for name, options in GAMES:
        game = cos.load_game(name, **options)
        texts = [played(game, seed, steps=rnd.randrange(0, 30)).serialize().encode() for seed in range(3)]
        for _ in range(1500):
            data = bytearray(rnd.choice(texts))
            for _ in range(rnd.randrange(1, 4)):
                i = rnd.randrange(len(data))
                kind = rnd.randrange(5)
                if kind == 0:
                    data[i] = rnd.randrange(256)
                elif kind == 1:
                    del data[i : i + rnd.randrange(1, 40)]
                elif kind == 2:
                    data[i:i] = rnd.randbytes(rnd.randrange(1, 8))
                elif kind == 3 and chr(data[i]).isdigit():
                    data[i : i + 1] = rnd.choice([b"9" * 25, b"-1", b"1e400", b"0.5", b"7"])
                else:
                    data[i] = rnd.choice(b'0123456789[]{}",:-e ')
            for form in (bytes(data), bytes(data).decode("utf-8", "surrogateescape")):
                try:
                    loaded = game.deserialize_state(form)
                except InvalidStateError:
                    refused += 1
                    continue
                accepted += 1
                again = game.deserialize_state(loaded.serialize())
                assert again.cruiselib_state == loaded.cruiselib_state and again.history() == loaded.history()
    assert refused > 0 and accepted > 0  # about 1% load (a changed digit of the generator state, say)


# --------------------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        # Each game's own options out of range: tests/<game>/test_openspiel_hostile.py.
        (ANY_GAME, {"seed": 2**31}, "seed"),
        (ANY_GAME, {"seed": -(2**31) - 1}, "seed"),
        (ANY_GAME, {"players": 2**70}, "players"),
        (ANY_GAME, {"players": None}, "players"),
        (ANY_GAME, {"players": [2]}, "players"),
        (ANY_GAME, {"players": 2.5}, "players"),
        (ANY_GAME, {"seed": float("nan")}, "seed"),
        (ANY_GAME, {"colour": "blue"}, "colour"),
    ],
)
def test_bad_python_parameters_raise_invalid_option(name: str, params: dict[str, Any], message: str) -> None:
    check_bad_parameter(name, params, message)


def check_bad_parameter(name: str, params: dict[str, Any], message: str) -> None:
    """``cos.load_game(name, **params)`` raises InvalidOptionError matching ``message``."""
    with pytest.raises(InvalidOptionError, match=message):
        cos.load_game(name, **params)


@pytest.mark.parametrize(
    "params",
    [{"seed": 2**31}, {"players": 2**70}, {"players": [2]}],
)
def test_bad_parameters_of_a_game_class_raise_invalid_option(params: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        cos.GAME_CLASSES[ANY_GAME](params)


def test_wrap_game_seed_out_of_range() -> None:
    with pytest.raises(InvalidOptionError, match="seed"):
        cos.wrap_game(cruiselib.make(ANY_GAME), seed=2**40)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("cruiselib_sirens(players=99)", InvalidOptionError),
        ("cruiselib_atlantic_star(players=0)", InvalidOptionError),
        ("cruiselib_dream_islands(max_rounds=-1)", InvalidOptionError),
        ("cruiselib_dream_cruise(additions=-5)", InvalidOptionError),
        ("cruiselib_dream_cruise(route_points=1/3/99999999999999999999999/9)", InvalidOptionError),
        # OpenSpiel's own parser refuses ints beyond its C ints, and values of another type,
        # before the game is made.
        ("cruiselib_sirens(players=abc)", pyspiel.SpielError),
        ("cruiselib_dream_islands(players=99999999999999999999)", pyspiel.SpielError),
        ("cruiselib_sirens(seed=2147483648)", pyspiel.SpielError),
        ("cruiselib_sirens(players=2", pyspiel.SpielError),
    ],
)
def test_bad_game_strings(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        pyspiel.load_game(text)


def test_an_int_beyond_a_c_int_in_a_parameter_dict() -> None:
    """As docs/openspiel.md says: OpenSpiel's binding refuses it with a RuntimeError while it
    converts the dict (cruiselib never sees it); cos.load_game refuses it with
    InvalidOptionError before OpenSpiel does."""
    with pytest.raises(RuntimeError, match="Unable to cast Python instance"):
        pyspiel.load_game(cos.short_name(ANY_GAME), {"players": 2**31})
    with pytest.raises(InvalidOptionError, match="players is an int parameter"):
        cos.load_game(ANY_GAME, players=2**31)
