"""Incremental solving: a conjunct shared by several path conditions is translated
and asserted once (as `l ⇒ c`, decided under assumption literals), and the fast paths change no
state that `run` yields."""

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


def test_each_conjunct_is_translated_and_asserted_once():
    """Cousins share their prefix's literals: a query asserts only its new conjuncts."""
    solver = Solver(independence=False)
    prefix = PathCondition.of(*(mixed(k) for k in range(10)))
    left = prefix.extend(Cmp(">", add(Var("a"), Var("b")), Int(0)))
    right = prefix.extend(Cmp("<=", add(Var("a"), Var("b")), Int(0)))
    assert solver.check(left)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.translations) == (11, 11)
    assert solver.check(right)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.translations) == (12, 12)
    deeper = left.extend(mixed(50))
    assert solver.check(deeper)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.translations) == (13, 13)
    # The prefix itself, and an equal conjunct built anew: nothing new asserted.
    assert solver.check(prefix)[0] is Sat.SAT
    again = prefix.extend(Cmp(">", add(Var("a"), Var("b")), Int(0)))
    answer, model = solver.check(again.extend(Cmp("<", Var("a"), Int(-5))))
    assert answer is Sat.SAT and model is not None and model("a") < -5
    assert solver.stats.literals == 14


def test_a_model_holds_only_the_variables_of_its_path_condition():
    """Literals of other paths' conjuncts stay out of a model: a variable this path does not
    mention reads 0 (as with z3's model completion), whatever other conjuncts asked of it."""
    solver = Solver(independence=False)
    assert solver.check(PathCondition.of(Cmp("==", Var("c"), Int(41))))[0] is Sat.SAT
    answer, model = solver.check(PathCondition.of(mixed(0)))
    assert answer is Sat.SAT and model is not None
    assert "c" not in model.as_dict() and model("c") == 0


def test_literals_are_bounded_by_a_new_solver():
    """When the literals fill `cache_size`, the solver starts anew and still decides."""
    solver = Solver(independence=False, cache_size=4)
    base = PathCondition.of(*(mixed(k) for k in range(6)))
    assert solver.check(base)[0] is Sat.SAT
    dead = base.extend(Cmp(">", add(Var("a"), Var("b")), Int(500)))
    assert solver.check(dead)[0] is Sat.UNSAT
    assert solver.check(base.extend(Cmp(">", Var("a"), Int(7))))[0] is Sat.SAT


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


def test_nonlinear_path_conditions_are_decided_on_the_stack():
    """A product of two inputs, `%` by an input or an array read sends its path condition to the
    solver whose stack mirrors one path, never among the literals; linear ones take literals
    only."""
    from symcert.core.terms import mul
    from symcert.lang.syntax import ArrayVar, Mod, Select

    solver = Solver(independence=False)
    linear = PathCondition.of(mixed(0), mixed(1))
    assert solver.check(linear)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.pushes) == (2, 0)
    for c in (Cmp("==", mul(Var("a"), Var("b")), Int(391)),
              Cmp("==", Mod(Var("a"), Var("b")), Int(3))):
        assert solver.pc_nonlinear(linear.extend(c))
        answer, model = solver.check(linear.extend(c).extend(Cmp(">", Var("b"), Int(5))))
        assert answer is Sat.SAT and model is not None and model("b") > 5
    assert solver.stats.literals == 2 and solver.stats.pushes == 6
    assert not solver.pc_nonlinear(PathCondition.of(Cmp("==", Mod(Var("a"), Int(7)), Int(3))))
    read = Cmp("==", Select(ArrayVar("a"), Var("i")), Int(3))  # arrays stay off the literals too
    assert solver.pc_nonlinear(PathCondition.of(read))


def test_a_long_path_that_goes_on_is_decided_on_the_stack():
    """Naming one literal per conjunct costs more than a push on a long path: a path condition
    a step or two from the one asked before it goes to the stack (synced once, then extended),
    while a short cousin, far in proportion, is decided under literals."""
    solver = Solver(independence=False)
    pc = PathCondition.of(*(mixed(k) for k in range(64)))
    assert solver.check(pc)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.pushes) == (64, 0)
    pc = pc.extend(mixed(64))
    assert solver.check(pc)[0] is Sat.SAT  # one step from the last: synced
    assert solver.stats.pushes == 65
    for k in range(65, 70):
        pc = pc.extend(mixed(k))
        assert solver.check(pc)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.pushes, solver.stats.pops) == (64, 70, 0)
    short = PathCondition.of(mixed(0), Cmp(">", Var("a"), Int(3)))
    assert solver.check(short)[0] is Sat.SAT
    assert (solver.stats.literals, solver.stats.pushes) == (65, 70)  # only `a > 3` is new
