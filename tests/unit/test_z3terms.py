"""The solver's purified translation (X-A1): each `/` and `%` by a non-literal is a name with its
definition, and a path condition so translated is equisatisfiable with the plain translation,
with the models of Python's floor semantics."""

from __future__ import annotations

import sys
from pathlib import Path

import z3
from hypothesis import assume, given, settings

from symcert.core.algebra import fold
from symcert.core.concrete import Env, beval
from symcert.core.state import PathCondition
from symcert.lang.parser import parse
from symcert.core.state import Store
from symcert.core.symbolic import sym_guard
from symcert.lang.syntax import And, Assert, BExpr, Cmp, Div, Int, Mod, Var
from symcert.solver.answers import Sat
from symcert.solver.z3backend import DEFAULT_RLIMIT, Solver
from symcert.solver.z3terms import PURIFIED, Z3, definitions
from symcert.spec.definedness import defined

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from strategies import SHAPE, bexprs, envs  # noqa: E402

SAMPLES = ["x % y == 3 and y == 2", "x / y == -1 and y < 0 and x > 0", "x % y > 0 and y < 0",
           "3 % (1 % x) < 0", "x / y * y + x % y != x", "x % 7 == x / y",
           "x - x / y * y == 5 and y == 3", "3 % (1 % (3 % (1 % x))) == -1",
           "3 % (1 % (3 % (1 % x))) == -5"]
"""Formulas with divisions by variables: each sign of divisor, SAT and UNSAT; each is asked
under its guard (X-A2), as the engine asks its path conditions."""


def condition(text: str) -> BExpr:
    """The condition of `assert text` (the parser's expression)."""
    stmt = parse(f"assert {text}")
    assert isinstance(stmt, Assert)
    return stmt.cond


def guarded(c: BExpr) -> BExpr:
    """`ok ∧ c` for the guard `ok` of `c`: no division by zero is read (X-A2)."""
    return And(sym_guard(Store(), c), c)


def plain(c: BExpr) -> Sat:
    """One z3 check of the plain translation (`Z3Terms`: z3's `div`/`mod` under `ite`s)."""
    s = z3.Solver()
    s.set("rlimit", DEFAULT_RLIMIT)
    s.add(fold(Z3, None, c))
    r = s.check()
    return Sat.SAT if r == z3.sat else Sat.UNSAT if r == z3.unsat else Sat.UNKNOWN


def test_divisions_by_non_literals_are_named_and_defined_once_per_pair():
    x, y = Var("x"), Var("y")
    q, r = fold(PURIFIED, None, Div(x, y)), fold(PURIFIED, None, Mod(x, y))
    assert q.decl().name() == "!div" and r.decl().name() == "!mod"
    assert len(definitions(q + r + fold(PURIFIED, None, Div(x, y)))) == 1
    assert definitions(fold(PURIFIED, None, Div(x, Int(2)))) == []  # a literal divisor: plain
    assert fold(PURIFIED, None, Div(x, Int(2))).eq(fold(Z3, None, Div(x, Int(2))))
    nested = fold(PURIFIED, None, Mod(Int(3), Mod(Int(1), x)))
    assert len(definitions(nested)) == 2


def test_sample_formulas_are_equisatisfiable_with_the_plain_translation():
    for text in SAMPLES:
        c = guarded(condition(text))
        answer, model = Solver(deadline=None).check(PathCondition.of(c))
        assert answer is not Sat.UNKNOWN, text  # the plain translation leaves some UNKNOWN
        assert plain(c) in (answer, Sat.UNKNOWN), text
        if answer is Sat.SAT:
            assert model is not None and defined(lambda: beval(model, c)) is True, text


@settings(max_examples=60, deadline=None)
@given(envs, bexprs)
def test_purified_query_at_an_input_is_python_semantics(v: Env, b: BExpr):
    """With the inputs fixed, the named divisions are determined: the query is SAT exactly
    where Python's `//` and `%` make the formula true."""
    truth = defined(lambda: beval(v, b))
    assume(truth is not None)
    inputs = [Cmp("==", Var(x), Int(v(x))) for x in SHAPE.names]
    answer, _ = Solver(deadline=None).check(PathCondition.of(*inputs, b))
    assert answer is (Sat.SAT if truth else Sat.UNSAT)


@settings(max_examples=60, deadline=None)
@given(bexprs)
def test_generated_formulas_are_equisatisfiable(b: BExpr):
    b = guarded(b)
    answer, _ = Solver(deadline=None).check(PathCondition.of(b))
    expected = plain(b)
    assume(Sat.UNKNOWN not in (answer, expected))
    assert answer is expected
