"""Soundness: W-T2.2 and W-L2.4 on prefixes of `run` (seed 000 Thm. 2.2)."""

from __future__ import annotations

from hypothesis import given

from strategies import programs
from symcert.core.concrete import State, run_concrete
from symcert.core.state import initial, satisfies
from symcert.engine.explore import run_n
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.expansion import corresponds, many_step_sound


@given(programs)
def test_run_prefix_is_concretely_reachable(p):
    """W-T2.2: every satisfiable state of a `run` prefix, concretized through a model of its
    path condition, is reached by the concrete semantics in the same number of steps."""
    assert_prefix_reachable(p, 40)


def assert_prefix_reachable(p, n):
    """Each satisfiable state among the first `n` of `run` is reached concretely (W-T2.2)."""
    solver = Solver()
    for s in run_n([initial(p)], n):
        if s is None:
            break
        answer, model = solver.check(s.pc)
        if answer is not Sat.SAT:
            continue
        assert model is not None and satisfies(model, s.pc)
        final = run_concrete(State(model, p), s.depth)
        assert final.steps == s.depth and corresponds(final, model, s)
        assert many_step_sound(p, s, model)
