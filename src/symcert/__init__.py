"""symcert: a symbolic-execution bug finder for IMP whose claims are checked.

The public API is imported lazily, so that `SYMCERT_CONTRACTS` can still be set (by the
command line's `--contracts`) before the contracted modules load.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "parse": "symcert.parser",
    "parse_file": "symcert.parser",
    "ParseError": "symcert.errors",
    "run": "symcert.explore",
    "run_n": "symcert.explore",
    "expand": "symcert.explore",
    "Strategy": "symcert.explore",
    "find_bugs": "symcert.bugfinder",
    "find_bugs_n": "symcert.bugfinder",
    "has_bug": "symcert.bugfinder",
    "witness": "symcert.bugfinder",
    "Answer": "symcert.bugfinder",
    "BugFound": "symcert.bugfinder",
    "Pending": "symcert.bugfinder",
    "Finished": "symcert.bugfinder",
    "Solver": "symcert.solver",
    "initial": "symcert.symbolic",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'symcert' has no attribute {name!r}")
