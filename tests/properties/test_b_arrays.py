"""Arrays (seed 003 §5): B-A1 and B-H3 against the concrete semantics, on generated programs
whose reads and writes often alias."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import array_envs, array_programs

from symcert.checking.campaign import check_interp, check_main
from symcert.core import terms
from symcert.core.concrete import Cells, Env, aeval
from symcert.lang.structure import inputs
from symcert.lang.syntax import ArrayVar, Int, Var
from symcert.solver.z3backend import Solver

SOLVER = Solver()
INDEX = st.one_of(st.integers(-2, 2).map(Int), st.sampled_from(["x", "y"]).map(Var))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(INDEX, st.integers(-3, 3)), max_size=4), INDEX, array_envs)
def test_resolved_reads_denote_the_substitution(writes, i, v):
    """B-H3: a read resolved along an update sequence (`terms.select` over `terms.update`)
    has, under every valuation, the value of the seed's `ρ̄(b[i])`, defined by induction on
    the sequence: the last write at an index equal to `i`'s value, else the input cell."""
    array = ArrayVar("b")
    for e, value in writes:
        array = terms.update(array, e, Int(value))
    at = aeval(v, i)
    expected = next((value for e, value in reversed(writes) if aeval(v, e) == at), None)
    cells = v("b")
    if expected is None:
        expected = cells(at) if isinstance(cells, Cells) else 0
    assert aeval(v, terms.select(array, i)) == expected


@settings(max_examples=30, deadline=None)
@given(array_programs, st.lists(array_envs, min_size=1, max_size=2))
def test_array_programs_agree_with_the_concrete_interpreter(p, sigmas):
    """B-A1 through the oracles of the campaign: the ghost path of each input concretizes to
    the concrete run (M-P3, M-P4), every leaf's model replays to the leaf, and the seed-004
    interpreter (fresh array variables) agrees with its concrete twin and the small-step run."""
    sigmas = [Env.of({x: s(x) for x in inputs(p)}) for s in sigmas]  # as the campaign's
    assert check_main(p, sigmas, SOLVER) is None
    assert check_interp(p, sigmas, SOLVER) is None
