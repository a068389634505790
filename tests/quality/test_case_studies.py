"""The case studies of `examples/`: every bug found and replayed by BFS, every
correct version proved safe by exhaustive exploration, and the paper's point about DFS (seed 000,
Sect. 4): depth-first search gets lost in an input-bounded loop that breadth-first search escapes."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from symcert.core.concrete import State, run_concrete
from symcert.engine.bugfinder import find_bugs, witness
from symcert.engine.explore import Strategy
from symcert.engine.status import Answer, BugFound, Finished
from symcert.engine.verdict import has_bug
from symcert.lang.parser import parse_file
from symcert.lang.syntax import Assert, Assign
from symcert.solver.z3backend import solver_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STUDIES = ["factorial", "isqrt", "gcd", "min3", "gcd_mod", "divmod", "power", "mean",
           "fact_rec", "fib_rec", "ackermann", "divsub_rec", "even_odd",
           "swap", "array_max", "binsearch", "list_insert", "list_reverse", "alias_nil"]
# The planted bug of each `_buggy` version: a failing `assert`, a `/` or `%` by zero, or a
# field of nil (seed 003 §4).
BY_ZERO = {"mean"}
NULL = {"alias_nil"}
# The input of the first bug BFS finds where the shallowest failing run has only one input.
FIRST_INPUT = {"countdown": {"n": 3}, "fact_rec": {"k": 0}, "fib_rec": {"k": 2},
               "ackermann": {"i": 1, "j": 0}, "even_odd": {"k": 1}}
BUDGET = 20_000


def first_bug(path: Path, strategy: Strategy, budget: int):
    """The first confirmed witness within `budget` states, or the last status seen."""
    p = parse_file(str(path))
    solver = solver_for(p)
    for status in islice(find_bugs(p, strategy, solver), budget):
        if isinstance(status, Finished):
            return p, status
        if isinstance(status, BugFound):
            w = witness(p, status, solver)
            if w is not None:
                return p, w
    return p, None


@pytest.mark.parametrize("name", STUDIES + ["countdown"])
def test_bfs_finds_the_injected_bug_with_a_replayed_witness(name):
    p, w = first_bug(EXAMPLES / f"{name}_buggy.imp", Strategy.BFS, BUDGET)
    assert w is not None and not isinstance(w, Finished), f"{name}_buggy: no bug found"
    if name in BY_ZERO | NULL:
        assert w.failing.by_zero and isinstance(w.failing.origin, Assign)
        assert w.failing.what().startswith("null dereference in `" if name in NULL
                                           else "division by zero in `")
    else:
        assert not w.failing.by_zero and isinstance(w.failing.origin, Assert)
        assert w.failing.what().startswith("assertion `")
    for x, value in FIRST_INPUT.get(name, {}).items():
        assert w.input(x) == value, f"{name}_buggy: {x} = {w.input(x)}, expected {value}"
    # replay independently of the engine: the input drives the concrete run to that failure
    final = run_concrete(State(w.input, p), 100_000)
    assert final.prog == w.final.prog and final.steps == w.bug.depth


@pytest.mark.parametrize("name", STUDIES)
def test_correct_versions_are_finished_without_a_bug(name):
    p = parse_file(str(EXAMPLES / f"{name}.imp"))
    assert has_bug(p, BUDGET) is Answer.NO


@pytest.mark.parametrize("name", STUDIES)
def test_buggy_versions_have_bug_yes(name):
    assert has_bug(parse_file(str(EXAMPLES / f"{name}_buggy.imp")), BUDGET) is Answer.YES


def test_dfs_misses_the_bug_behind_an_input_bounded_loop_bfs_finds_it():
    path = EXAMPLES / "countdown_buggy.imp"
    _, bfs = first_bug(path, Strategy.BFS, 100)
    assert bfs is not None and bfs.input("n") == 3
    _, dfs = first_bug(path, Strategy.DFS, 2_000)
    assert dfs is None  # still unrolling the loop: neither a bug nor Finished


def test_the_arithmetic_swap_fails_exactly_through_an_aliased_index():
    """Seed 003 §5: the buggy swap's witness makes `i == j` (the cell the three updates share
    ends at 0, so the input's cell is not 0), and the replay needs only that cell."""
    p, w = first_bug(EXAMPLES / "swap_buggy.imp", Strategy.BFS, 100)
    assert w is not None and not isinstance(w, Finished)
    assert w.input("i") == w.input("j")
    cells = w.input("a")
    assert cells.cells == ((w.input("i"), cells(w.input("i"))),) and cells(w.input("i")) != 0
