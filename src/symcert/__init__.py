"""symcert: a symbolic-execution bug finder for IMP whose claims are checked.

The library answers what the command line answers::

    from symcert import Budget, check, parse

    verdict = check(parse("if x > 3 then assert x != 5 else skip fi"), Budget(max_states=1000))
    verdict.kind          # Kind.BUG, Kind.SAFE or Kind.UNDECIDED
    verdict.witness       # for a bug: the input, replayed concretely to the failing assert
    verdict.reason        # for undecided: which budget ran out, or the solver's UNKNOWN
    verdict.exit_code     # 1, 0 or 3, as `symcert run`

`prove` proves every assertion from the leaves of an exhaustive exploration (seed 001, T-L2);
`find_bugs`, `has_bug` and `run` are the paper's functions (seed 000, Figs. 6–10). See
docs/library.md.

The API is imported lazily: `import symcert` loads neither z3 nor lark, and `SYMCERT_CONTRACTS`
can still be set (by the command line's `--contracts`) before the contracted modules load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as a type checker sees them; at run time `__getattr__` loads them
    from symcert.bugfinder import Witness, find_bugs, find_bugs_n, witness
    from symcert.status import Answer, BugFound, Finished, Pending
    from symcert.verdict import has_bug
    from symcert.concrete import Env
    from symcert.errors import ParseError, SymcertError
    from symcert.explore import Strategy, expand, run, run_n
    from symcert.parser import parse, parse_file
    from symcert.proof import Proof, prove
    from symcert.solver import Solver
    from symcert.state import initial
    from symcert.verdict import Budget, Cause, Kind, Reason, Stats, Verdict, check

__version__ = "0.1.0"

_EXPORTS = {
    "parse": "symcert.parser",
    "parse_file": "symcert.parser",
    "ParseError": "symcert.errors",
    "SymcertError": "symcert.errors",
    "check": "symcert.verdict",
    "Budget": "symcert.verdict",
    "Verdict": "symcert.verdict",
    "Kind": "symcert.verdict",
    "Reason": "symcert.verdict",
    "Cause": "symcert.verdict",
    "Stats": "symcert.verdict",
    "prove": "symcert.proof",
    "Proof": "symcert.proof",
    "run": "symcert.explore",
    "run_n": "symcert.explore",
    "expand": "symcert.explore",
    "Strategy": "symcert.explore",
    "find_bugs": "symcert.bugfinder",
    "find_bugs_n": "symcert.bugfinder",
    "has_bug": "symcert.verdict",
    "witness": "symcert.bugfinder",
    "Witness": "symcert.bugfinder",
    "Answer": "symcert.status",
    "BugFound": "symcert.status",
    "Pending": "symcert.status",
    "Finished": "symcert.status",
    "Env": "symcert.concrete",
    "Solver": "symcert.solver",
    "initial": "symcert.symbolic",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'symcert' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
