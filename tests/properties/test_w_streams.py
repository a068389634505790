"""Stream lemmas on finite prefixes: W-D3.1/W-T3.2, W-T3.3, W-D3.2/W-T3.5, W-T3.7."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from strategies import programs
from symcert.core.state import initial
from symcert.engine.bugfinder import find_bugs_n, witness
from symcert.engine.explore import Strategy, expand, run_n
from symcert.engine.status import BugFound
from symcert.solver.z3backend import DEFAULT_RLIMIT, Sat, Solver
from symcert.spec.bugs import find_bugs_terminates_soundly, find_bugs_valid
from symcert.spec.expansion import run_reachable_from, run_terminates_soundly


@given(programs, st.sampled_from(list(Strategy)), st.booleans())
def test_run_stream_lemmas(p, strategy, prune):
    """W-T3.2: every state is reachable from the worklist; W-T3.3: after None only None."""
    l = [initial(p)]
    result = run_n(l, 60, strategy, Solver() if prune else None)
    assert run_reachable_from(l, result, expand)
    assert run_terminates_soundly(result)


@given(programs)
def test_find_bugs_stream_lemmas(p):
    """W-T3.5: every BugFound is valid (stuck, its model satisfies φ, and the concrete replay
    confirms it) unless its path condition is UNKNOWN to the solver (nonlinear, through `*`,
    `/` and `%`), which is no witness; W-T3.7: after Finished only Finished. (A tenth of the
    default resource limit: a loop that divides by its own variable nests floor divisions,
    and each UNKNOWN costs the whole limit.)"""
    solver = Solver(rlimit=DEFAULT_RLIMIT // 10)
    result = find_bugs_n(p, 60, Strategy.BFS, solver)
    assert find_bugs_valid(result)
    assert find_bugs_terminates_soundly(result)
    for status in result:
        if isinstance(status, BugFound):
            w = witness(p, status, solver)
            if w is None:
                assert solver.check(status.state.pc)[0] is Sat.UNKNOWN
            else:
                assert w.final.prog == status.state.prog
