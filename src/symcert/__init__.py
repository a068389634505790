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
    from symcert.engine.bugfinder import Witness, find_bugs, find_bugs_n, witness
    from symcert.engine.status import Answer, BugFound, Finished, Pending
    from symcert.engine.verdict import has_bug
    from symcert.core.concrete import Env
    from symcert.lang.errors import ParseError, SymcertError
    from symcert.engine.explore import Strategy, expand, run, run_n
    from symcert.lang.parser import parse, parse_file
    from symcert.engine.prove import Proof, prove
    from symcert.solver.z3backend import Solver
    from symcert.core.state import initial
    from symcert.engine.verdict import Budget, Cause, Kind, Reason, Stats, Verdict, check

__version__ = "0.1.0"

_EXPORTS = {
    "parse": "symcert.lang.parser",
    "parse_file": "symcert.lang.parser",
    "ParseError": "symcert.lang.errors",
    "SymcertError": "symcert.lang.errors",
    "check": "symcert.engine.verdict",
    "Budget": "symcert.engine.verdict",
    "Verdict": "symcert.engine.verdict",
    "Kind": "symcert.engine.verdict",
    "Reason": "symcert.engine.verdict",
    "Cause": "symcert.engine.verdict",
    "Stats": "symcert.engine.verdict",
    "prove": "symcert.engine.prove",
    "Proof": "symcert.engine.prove",
    "run": "symcert.engine.explore",
    "run_n": "symcert.engine.explore",
    "expand": "symcert.engine.explore",
    "Strategy": "symcert.engine.explore",
    "find_bugs": "symcert.engine.bugfinder",
    "find_bugs_n": "symcert.engine.bugfinder",
    "has_bug": "symcert.engine.verdict",
    "witness": "symcert.engine.bugfinder",
    "Witness": "symcert.engine.bugfinder",
    "Answer": "symcert.engine.status",
    "BugFound": "symcert.engine.status",
    "Pending": "symcert.engine.status",
    "Finished": "symcert.engine.status",
    "Env": "symcert.core.concrete",
    "Solver": "symcert.solver.z3backend",
    "initial": "symcert.core.symbolic",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'symcert' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
