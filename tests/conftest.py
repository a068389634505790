"""Contracts are on in every test: SYMCERT_CONTRACTS is read when symcert's modules are imported.

Marker `slow`: what `make test-fast` leaves out (stress sizes, the case studies, the mutant
runs, the proof replay); `make test` and CI run everything. Every test under `quality/` and
`mutants/` is slow; others carry the marker themselves.
"""

import os
from pathlib import Path

import pytest

os.environ["SYMCERT_CONTRACTS"] = "1"

SLOW_DIRS = ("quality", "mutants")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(item.fspath).resolve().relative_to(here).parts[0] in SLOW_DIRS:
            item.add_marker(pytest.mark.slow)
