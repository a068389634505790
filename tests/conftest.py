"""Contracts are on in every test: SYMCERT_CONTRACTS is read when symcert's modules are imported.

Marker `slow`: what `make test-fast` leaves out (stress sizes, the case studies, the mutant
runs, the proof replay); `make test` and CI run everything. Every test under `quality/` and
`mutants/` is slow; others carry the marker themselves.
"""

import atexit
import os
import sys
from pathlib import Path

import pytest

os.environ["SYMCERT_CONTRACTS"] = "1"
os.environ.setdefault("SYMCERT_PROGRESS_SECONDS", "0")  # no progress lines in the captured stderr


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """End the test process without finalising z3's global context. After the whole suite
    (CI profile) the context holds the terms of thousands of solvers, and `Z3_del_context` at
    interpreter exit ran for more than eight minutes after the last test had passed (py-spy:
    `Context.__del__`), which CI counts as a hang. The summary is printed by then; the exit
    code is pytest's."""
    atexit.register(_exit_now, int(exitstatus))


def _exit_now(status: int) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)

SLOW_DIRS = ("quality", "mutants")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(item.fspath).resolve().relative_to(here).parts[0] in SLOW_DIRS:
            item.add_marker(pytest.mark.slow)
