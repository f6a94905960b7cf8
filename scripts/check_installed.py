"""Check the *installed* cruiselib: where it was imported from, which core runs, a smoke game.

Run it with the interpreter of the environment that holds the install, from a directory
that does not contain the source tree::

    python scripts/check_installed.py --expect compiled      # a platform wheel or an sdist build
    python scripts/check_installed.py --expect pure          # the py3-none-any wheel

It fails (exit status 1, one line per problem) when:

* ``cruiselib`` is imported from a source tree instead of the environment's site-packages;
* ``cruiselib.compiled`` differs from ``--expect``, or a core module is not the kind expected
  (an extension module when compiled, a ``.py`` source when pure);
* on a free-threaded interpreter, importing cruiselib turned the GIL back on (some compiled
  module, ours or a dependency's, did not declare itself free-threading safe);
* the version differs from ``--version`` (when given);
* a short seeded game of every registered game breaks a basic API invariant.

It uses only the public API plus ``cruiselib._core.MODULES``, so it stays valid as games land.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import pickle
import random
import sys
import sysconfig
from pathlib import Path


def _is_relative_to(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
    except ValueError:
        return False
    return True


def _smoke(cruiselib: object, games: list[str], seeds: int, max_steps: int) -> list[str]:
    """Play a few seeded random games of each game through the public API."""
    import numpy as np

    problems: list[str] = []
    for name in games:
        game = cruiselib.make(name)  # type: ignore[attr-defined]
        for seed in range(seeds):
            state = game.new_state(seed=seed)
            again = game.new_state(seed=seed)
            if state.to_json() != again.to_json():
                problems.append(f"{name}: same seed {seed} gave different states")
            rnd = random.Random(seed)
            steps = 0
            while not state.is_over and steps < max_steps:
                legal = state.legal_actions()
                mask = state.action_mask()
                if not legal:
                    problems.append(f"{name} seed {seed}: no legal action in a running game")
                    break
                if legal != sorted(legal) or mask.dtype != np.int8:
                    problems.append(f"{name} seed {seed}: legal actions unsorted or mask not int8")
                    break
                if list(np.flatnonzero(mask)) != legal:
                    problems.append(f"{name} seed {seed}: action mask differs from legal actions")
                    break
                if steps % 7 == 0:
                    copy = state.clone()
                    if copy.to_json() != state.to_json():
                        problems.append(f"{name} seed {seed}: clone differs")
                    for restored in (
                        game.load_state(state.to_json()),
                        game.load_state(state.to_msgpack()),
                        pickle.loads(pickle.dumps(state)),
                    ):
                        if restored.to_json() != state.to_json():
                            problems.append(f"{name} seed {seed}: round trip differs")
                            break
                state.apply(rnd.choice(legal))
                steps += 1
            if not state.is_over:
                problems.append(f"{name} seed {seed}: not over after {max_steps} actions")
            elif state.current_player != -1:
                problems.append(f"{name} seed {seed}: current_player is not -1 once over")
        result = game.playouts(20, seed=1)
        if result.games != 20:
            problems.append(f"{name}: playouts(20) reported {result.games} games")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expect", choices=("compiled", "pure", "any"), required=True)
    parser.add_argument("--version", help="the version the install must report")
    parser.add_argument(
        "--source-tree",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="a source tree cruiselib must NOT be imported from (default: this script's repo)",
    )
    parser.add_argument("--seeds", type=int, default=3, help="smoke games per game (0: none)")
    parser.add_argument("--max-steps", type=int, default=5000)
    args = parser.parse_args(argv)

    problems: list[str] = []
    gil_before = getattr(sys, "_is_gil_enabled", lambda: True)()

    import cruiselib
    import cruiselib._core as core

    where = Path(cruiselib.__file__).resolve().parent
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    platlib = Path(sysconfig.get_paths()["platlib"]).resolve()
    source = args.source_tree.resolve() / "src"
    if _is_relative_to(where, source):
        problems.append(f"cruiselib was imported from the source tree ({where})")
    if not (_is_relative_to(where, purelib) or _is_relative_to(where, platlib)):
        problems.append(f"cruiselib is not in this environment's site-packages ({where})")

    pure_env = core.pure_python_requested()
    if args.expect != "any":
        want = args.expect == "compiled"
        if cruiselib.compiled is not want:
            problems.append(
                f"cruiselib.compiled is {cruiselib.compiled}, expected {want}"
                f" (CRUISELIB_PURE_PYTHON={os.environ.get('CRUISELIB_PURE_PYTHON', '')!r})"
            )
        ext_suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        for name in core.MODULES:
            module = core.load(name)
            path = str(getattr(module, "__file__", ""))
            if want and not path.endswith(ext_suffixes):
                problems.append(f"core module {name} is not an extension module: {path}")
            if not want and not path.endswith(".py"):
                problems.append(f"core module {name} is not the Python source: {path}")

    if args.version and cruiselib.__version__ != args.version:
        problems.append(f"version is {cruiselib.__version__}, expected {args.version}")

    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    gil_after = getattr(sys, "_is_gil_enabled", lambda: True)()
    if free_threaded and gil_after and not gil_before:
        problems.append("importing cruiselib re-enabled the GIL (a module is not free-threading safe)")

    games = list(cruiselib.games())
    if not games:
        problems.append("cruiselib.games() is empty")
    if args.seeds > 0:
        try:
            problems += _smoke(cruiselib, games, args.seeds, args.max_steps)
        except Exception as exc:  # report, do not hide, any crash of the smoke games
            problems.append(f"smoke games raised {type(exc).__name__}: {exc}")

    print(
        f"cruiselib {cruiselib.__version__} from {where}\n"
        f"  python {sys.version.split()[0]}{' free-threaded' if free_threaded else ''},"
        f" compiled={cruiselib.compiled}, pure switch={'on' if pure_env else 'off'},"
        f" games={','.join(games)}"
    )
    for problem in problems:
        print(f"  FAIL: {problem}", file=sys.stderr)
    print("  ok" if not problems else f"  {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
