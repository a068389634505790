"""State merging (T-M1) over generated programs: merged and unmerged exploration give the same
verdicts and fail the same statements, and ghost runs under merging follow the concrete run.

The programs are the one generator's statements (`generate.stmt`) placed where merging acts:
two to three `if`s in a row (generated conditions, mostly assignments in the branches),
then a generated statement and a generated `assert`,
loops bounded by construction so that both explorations can end. The program is printed and
parsed back, so its statements have the positions the failing set is read from.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import SHAPE, Draws, envs
from symcert import Budget, check
from symcert.checking import generate
from symcert.engine.ghost import check_ghost_merged
from symcert.engine.merge import Merging, merging
from symcert.engine.verdict import Kind, Verdict
from symcert.lang.parser import parse
from symcert.lang.syntax import Assert, Assign, If, Seq, Skip, Stmt
from symcert.solver.z3backend import Solver

JOINS = replace(SHAPE, loop_bound=2, leaves=2, loop_depth=1, aexpr_depth=1, bexpr_depth=1)
"""Small statements (two leaves), at most one loop deep and bounded by construction
(`Shape.loop_bound`)."""
SOLVER = Solver()


def _branch(c: Draws) -> Stmt:
    """An assignment two times in four (the stores then differ), `skip` or any statement."""
    kind = c.integer(0, 3)
    if kind == 0:
        return Skip()
    if kind < 3:
        return Assign(generate.name(c, JOINS), generate.aexpr(c, JOINS))
    return generate.stmt(c, JOINS)


@st.composite
def joins(draw: st.DrawFn) -> Stmt:
    """`if b then S1 else S2 fi; …` two or three times, then a generated statement and a
    generated `assert`, printed and parsed back."""
    c = Draws(draw)
    parts: list[Stmt] = [If(generate.bexpr(c, JOINS), _branch(c), _branch(c))
                         for _ in range(c.integer(2, 3))]
    parts += [generate.stmt(c, JOINS), Assert(generate.bexpr(c, JOINS))]
    p = parts[-1]
    for s in reversed(parts[:-1]):
        p = Seq(s, p)
    return parse(str(p))


def _failing(v: Verdict) -> frozenset[tuple[int, int]]:
    """The failing statements by line and column (`all_bugs` reports a statement once, with
    the failure found first: `assert 1 / x > 0` may fail or divide by zero, in either order)."""
    return frozenset((b.failing.pos.line, b.failing.pos.column) for b in v.bugs
                     if b.failing.pos is not None)


@settings(max_examples=12)
@given(joins(), st.sampled_from([Merging.QCE, Merging.ALL]))
def test_merging_keeps_verdicts_and_failing_statements(p, how):
    """T-M1: with every bug reported (each replayed concretely), merged and unmerged
    exploration never disagree BUG against SAFE, and where both end they give the same verdict
    and the same failing statements."""
    budget = Budget(max_states=150, all_bugs=True)
    plain = check(p, budget, SOLVER)
    with merging(how):
        merged = check(p, budget, SOLVER)
    assert {plain.kind, merged.kind} != {Kind.BUG, Kind.SAFE}
    if plain.exhaustive and merged.exhaustive:
        assert plain.kind is merged.kind
        assert _failing(plain) == _failing(merged)


@settings(max_examples=15)
@given(joins(), envs)
def test_ghost_runs_under_merging_are_the_concrete_run(p, rho):
    """M-P3/M-P4 under T-M1: the ghost states of a merging run, in stream order, are the states
    of the concrete run from the ghost's input (merge.py extends the ghost to the fresh
    symbols)."""
    assert check_ghost_merged(p, rho, 150) is None
