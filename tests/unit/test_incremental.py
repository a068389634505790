"""The incremental z3 stack (issue 6): shared prefixes are neither re-translated nor re-asserted,
and the fast paths change no state that `run` yields."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from symcert.core.state import PathCondition, initial
from symcert.core.terms import add
from symcert.engine.explore import Strategy, run
from symcert.lang.parser import parse, parse_file
from symcert.lang.syntax import Cmp, Int, Var
from symcert.solver.z3backend import Sat, Solver

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def mixed(k: int) -> Cmp:
    """A conjunct over two variables (never decided by bounds alone)."""
    return Cmp("<", add(Var("a"), Var("b")), Int(100 + k))


def test_cousins_pop_to_the_shared_prefix_only():
    solver = Solver(independence=False)
    prefix = PathCondition.of(*(mixed(k) for k in range(10)))
    left = prefix.extend(Cmp(">", add(Var("a"), Var("b")), Int(0)))
    right = prefix.extend(Cmp("<=", add(Var("a"), Var("b")), Int(0)))
    assert solver.check(left)[0] is Sat.SAT
    assert (solver.stats.pushes, solver.stats.pops, solver.depth) == (11, 0, 11)
    translated = solver.stats.translations
    assert solver.check(right)[0] is Sat.SAT
    assert (solver.stats.pushes, solver.stats.pops, solver.depth) == (12, 1, 11)
    assert solver.stats.translations == translated + 1  # only the new conjunct
    deeper = left.extend(mixed(50))
    assert solver.check(deeper)[0] is Sat.SAT
    assert (solver.stats.pushes, solver.stats.pops, solver.depth) == (14, 2, 12)
    # Back to the prefix itself: a pop, no push, and z3 still agrees.
    assert solver.check(prefix)[0] is Sat.SAT and solver.depth == 10


def test_stack_is_consistent_after_an_unsat_branch():
    solver = Solver(independence=False)
    base = PathCondition.of(mixed(0))
    dead = base.extend(Cmp(">", add(Var("a"), Var("b")), Int(500)))
    alive = base.extend(Cmp(">", add(Var("a"), Var("b")), Int(50)))
    assert solver.check(dead)[0] is Sat.UNSAT
    answer, model = solver.check(alive)
    assert answer is Sat.SAT and model is not None
    assert 50 < model("a") + model("b") < 100


@pytest.mark.parametrize("name, n, strategy", [
    ("gcd_buggy.imp", 300, Strategy.BFS), ("countdown_buggy.imp", 200, Strategy.BFS),
    ("countdown_buggy.imp", 200, Strategy.DFS), ("isqrt.imp", 100, Strategy.BFS),
    ("factorial.imp", 200, Strategy.DFS)])
def test_fast_paths_yield_the_same_states(name, n, strategy):
    program = parse_file(str(EXAMPLES / name))

    def states(solver: Solver) -> list[tuple[object, object]]:
        out = []
        for s in islice(run([initial(program)], strategy, solver), n):
            if s is None:
                break
            out.append((s.pc, s.prog))
        return out

    assert states(Solver()) == states(Solver(independence=False))


def test_counting_loop_bounds_prune_the_impossible_exits():
    program = parse("i = 0; while i < n and i < 50 do i = i + 1 od; assert i <= 50")
    solver = Solver()
    got = [s for s in islice(run([initial(program)], Strategy.BFS, solver), 2000)]
    assert got[-1] is None
    assert solver.stats.intervals > 0 and solver.stats.queries <= 2
