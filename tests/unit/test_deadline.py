"""Solver queries where they can be stopped: a forked child with a deadline, whose UNKNOWN on the
deadline makes a check undecided with its cause, never safe nor a bug."""

from __future__ import annotations

import os
import signal
import time

import pytest

from symcert.core.state import PathCondition
from symcert.engine.verdict import Cause, Kind, check
from symcert.lang.parser import parse
from symcert.lang.syntax import Assert, BExpr
from symcert.solver.answers import Sat
from symcert.solver.deadline import ChildFailed, within
from symcert.solver.z3backend import Solver, solver_for

NONLINEAR = "if x * y == 7 then assert x == 1 or x == 7 or x == -1 or x == -7 else skip fi"


def condition(text: str) -> BExpr:
    stmt = parse(f"assert {text}")
    assert isinstance(stmt, Assert)
    return stmt.cond


def test_a_child_that_answers_gives_its_answer():
    assert within(60.0, lambda: sum(range(10))) == 45


def test_a_child_past_its_deadline_is_stopped():
    assert within(0.05, lambda: time.sleep(60)) is None


def test_an_exception_in_the_child_is_raised_in_the_caller():
    with pytest.raises(ChildFailed, match="ValueError: planted"):
        within(60.0, lambda: (_ for _ in ()).throw(ValueError("planted")))


def test_a_nonlinear_query_past_its_deadline_is_unknown():
    solver = Solver(deadline=0.0)
    pc = PathCondition.of(condition("x * y == 7"), condition("x > 7"))
    assert solver.check(pc) == (Sat.UNKNOWN, None)
    assert solver.stats.deadlines == solver.stats.isolated == 1 and solver.stats.unknown == 1


def test_a_linear_query_is_decided_in_process():
    solver = Solver(deadline=0.0)
    answer, model = solver.check(PathCondition.of(condition("x + y == 7"), condition("x > y")))
    assert answer is Sat.SAT and model is not None and model("x") + model("y") == 7
    assert solver.stats.isolated == 0


def test_isolated_queries_agree_with_the_queries_in_process():
    """Along a path, each answer of the child (whose stack pushes the parent repeats) is the
    answer of a solver without deadline, and each model satisfies the path."""
    texts = ["x * y == 12", "x > 1", "y > x", "x / y == 0", "x % 5 == 3", "y * y == x * 8"]
    isolated, direct = Solver(), Solver(deadline=None)
    pc = PathCondition.of()
    for text in texts:
        pc = pc.extend(condition(text))
        mine, model = isolated.check(pc)
        assert mine is direct.check(pc)[0]
        assert mine is not Sat.SAT or (model is not None and model("x") * model("y") == 12)
    assert isolated.stats.isolated == len(texts) and isolated.stats.deadlines == 0
    assert isolated.stats.pushes == len(texts)  # each conjunct pushed once, here too


def test_a_check_whose_query_ran_past_its_deadline_is_undecided_with_the_cause():
    p = parse(NONLINEAR)
    verdict = check(p, solver=solver_for(p, deadline=0.0))
    assert verdict.kind is Kind.UNDECIDED and verdict.reason is not None
    assert verdict.reason.cause is Cause.SOLVER
    assert "per-query deadline of 0 s" in str(verdict.reason)
    assert check(p).kind is Kind.SAFE


def test_a_child_that_dies_without_an_answer_is_an_error():
    with pytest.raises(ChildFailed, match="without an answer"):
        within(60.0, lambda: os.kill(os.getpid(), signal.SIGKILL))
