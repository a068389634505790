"""Minimal witnesses (`engine.shrink`): the smallest input found that still replays to the
bug, input objects renumbered @1, @2, ...; a shrink that does not replay is not reported."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from symcert.core.concrete import Cells, Ending, Env, run_to_end
from symcert.engine.shrink import ShrinkBudget, renumbered, shrink
from symcert.engine.verdict import Budget, Check, check
from symcert.lang.parser import parse, parse_file
from symcert.solver.answers import Sat
from symcert.solver.z3backend import Solver

EX = Path(__file__).resolve().parents[2] / "examples"


def _largest(env: Env) -> int:
    return max([0] + [abs(c) for _, v in env.bindings
                      for c in ([c for _, c in v.cells] if isinstance(v, Cells) else [v])])


def test_the_witness_is_the_value_the_assertion_excludes_and_the_rest_zero():
    p = parse("if x > 7 then if y < x then assert x != 10 else skip fi else skip fi")
    found = check(p).witness
    assert found is not None
    assert found.input == Env.of({"x": 10})  # y = 0


def test_array_witnesses_are_small_and_replay():
    """The solver's model for array_max_buggy has cells near 30,000; the shrunk one is at most
    2, and every shrunk witness ends at its failing statement when run again."""
    for name in ("array_max_buggy", "swap_buggy", "min3_buggy", "divmod_buggy"):
        p = parse_file(str(EX / f"{name}.imp"))
        found = check(p).witness
        assert found is not None
        assert _largest(found.input) <= 2, (name, found.input)
        end = run_to_end(found.input, p, 10_000)
        assert end is not None and end.ending is Ending.FAIL
        assert end.where == found.failing.pos


def test_objects_are_renumbered_in_the_order_of_the_variables():
    env = Env.of({"head": 7, "tail": 3, ".next": Cells.of({7: 3, 3: 0, 9: 7}),
                  ".val": Cells.of({7: 5, 3: 6})})
    out = renumbered(env, frozenset({"head", "tail", ".next"}))
    assert out == Env.of({"head": 1, "tail": 2, ".next": Cells.of({1: 2, 3: 1}),
                          ".val": Cells.of({1: 5, 2: 6})})


def test_a_heap_witness_has_small_values_and_objects_from_1():
    p = parse_file(str(EX / "list_insert_buggy.imp"))
    found = check(p).witness
    assert found is not None
    assert found.input("head") == 1
    assert _largest(found.input) <= 1


@dataclass
class Lying:
    """A solver that answers the shrink's bounded queries with a model that is no model: its
    witnesses do not replay."""

    solver: Solver

    def check(self, pc, parent_model=None):
        return Sat.SAT, Env.of({"x": 0, "y": 0})


def test_a_shrunk_input_that_does_not_replay_falls_back_to_the_original():
    p = parse("assume x > 7; assume y > x + 100; assert x != 8 or y > 200")
    verdict = Check(p, Budget(shrink=False)).run()
    found = verdict.witness
    assert found is not None
    assert shrink(found, Lying(Check(p).solver)) is found  # type: ignore[arg-type]


def test_no_query_no_change():
    p = parse("assume x > 1000; assert x < 1000 or x > 5000")
    check_ = Check(p, Budget(shrink=False))
    found = check_.run().witness
    assert found is not None
    assert shrink(found, check_.solver, ShrinkBudget(queries=0)) is found
    assert shrink(found, check_.solver).input == Env.of({"x": 1001})
