"""Test configuration: the suite runs in compiled and in pure-Python mode.

CI runs pytest twice: once as installed (the compiled core), once with
``CRUISELIB_PURE_PYTHON=1`` (the same sources as Python). Set
``CRUISELIB_EXPECT_COMPILED=1`` or ``=0`` to make the run fail unless that mode is
loaded, so a silently missing build cannot pass as the compiled run.
"""

from __future__ import annotations

import os
import signal

import pytest

import cruiselib

# A test run started in the background without job control (``cmd &`` in a script) ignores
# SIGINT, and every process it starts inherits that: the tests that press Ctrl-C on a child
# need SIGINT delivered. A handler (unlike "ignore") is reset to the default in a child.
if hasattr(signal, "SIGINT") and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_report_header(config: pytest.Config) -> str:
    mode = "compiled" if cruiselib.compiled else "pure Python"
    return f"cruiselib {cruiselib.__version__}: {mode} core"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    expected = os.environ.get("CRUISELIB_EXPECT_COMPILED")
    if expected is not None and (expected == "1") != cruiselib.compiled:
        raise pytest.UsageError(f"CRUISELIB_EXPECT_COMPILED={expected} but cruiselib.compiled is {cruiselib.compiled}")


@pytest.fixture(scope="session")
def compiled_mode() -> bool:
    return cruiselib.compiled
