"""The expression fold (algebra.py) and its algebras: each agrees with the concrete one.

The concrete algebra is checked against a reference evaluator written here by hand (so a fold
that mis-wires an operator fails), and every other algebra against the concrete one under a
valuation: symbolic terms then valuation, z3 terms evaluated by z3, SMT-LIB text decided by z3,
seed 004's partial evaluation, instantiation.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import pytest
import z3
from hypothesis import assume, given, settings

from symcert.verify import provers
from symcert.checking.obligations import instantiate
from symcert.verify.smtlib import Script, numeral
from symcert.core.algebra import fold, fold_a, fold_b
from symcert.core.concrete import NO_CELLS, VALUES, Cells, Env, Values, aeval, beval
from symcert.core.state import Store, concretize
from symcert.core.symbolic import sym_aeval, sym_beval
from symcert.core.terms import TERMS
from symcert.lang.syntax import (
    Add, AExpr, And, ArrayExpr, ArrayVar, BExpr, Bool, Cmp, Div, Int, Mod, Mul, Neg, Not, Or,
    Select, Sub, Update, Var,
)
from symcert.seed004.natural import Unbound, _value
from symcert.spec.definedness import defined
from symcert.solver.z3terms import Z3

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from strategies import (  # noqa: E402
    ARRAYS, SHAPE, aexprs, array_aexprs, array_bexprs, array_envs, array_stores, bexprs, envs,
    stores,
)

NAMES = SHAPE.names

FEW = settings(max_examples=60, deadline=None)


def ref_a(v: Env, e: AExpr) -> int:
    """`⟦e⟧_V` as seed 000 Fig. 2 writes it, without the fold."""
    match e:
        case Int(n):
            return n
        case Var(x):
            return v(x)
        case Neg(a):
            return -ref_a(v, a)
        case Add(a, b):
            return ref_a(v, a) + ref_a(v, b)
        case Sub(a, b):
            return ref_a(v, a) - ref_a(v, b)
        case Mul(a, b):
            return ref_a(v, a) * ref_a(v, b)
        case Div(a, b):
            return ref_a(v, a) // ref_a(v, b)  # ZeroDivisionError at 0: `fail` (X-A2)
        case Mod(a, b):
            return ref_a(v, a) % ref_a(v, b)
        case Select(a, i):
            return ref_array(v, a)(ref_a(v, i))
    raise TypeError(e)


def ref_array(v: Env, a: ArrayExpr) -> Cells:
    """An array's value (seed 003 §5): the valuation's map, each update one cell changed."""
    match a:
        case ArrayVar(name):
            cells = v(name)
            return cells if isinstance(cells, Cells) else NO_CELLS
        case Update(array, i, x):
            return ref_array(v, array).set(ref_a(v, i), ref_a(v, x))
    raise TypeError(a)


def ref_b(v: Env, b: BExpr) -> bool:
    """`⟦b⟧_V` without the fold."""
    match b:
        case Bool(t):
            return t
        case Cmp(op, l, r):
            x, y = ref_a(v, l), ref_a(v, r)
            return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y,
                    ">=": x >= y}[op]
        case Not(a):
            return not ref_b(v, a)
        case And(l, r):
            return ref_b(v, l) and ref_b(v, r)
        case Or(l, r):
            return ref_b(v, l) or ref_b(v, r)
    raise TypeError(b)


@FEW
@given(envs, aexprs, bexprs)
def test_concrete_algebra_is_fig2(v: Env, e: AExpr, b: BExpr) -> None:
    """Equal values, and a division by zero in the fold exactly where in the reference."""
    assert defined(lambda: aeval(v, e)) == defined(lambda: ref_a(v, e))
    assert defined(lambda: beval(v, b)) == defined(lambda: ref_b(v, b))
    assert defined(lambda: fold(VALUES, v, e)) == defined(lambda: ref_a(v, e))


@FEW
@given(envs, stores(), aexprs, bexprs)
def test_symbolic_algebra_then_valuation_is_concrete(v: Env, s: Store, e: AExpr,
                                                    b: BExpr) -> None:
    """`⟦⟦e⟧_S⟧_V = ⟦e⟧_{V∘S}`, and with the identity substitution `⟦e⟧_V` itself."""
    composed = concretize(v, s, frozenset(NAMES))  # generated stores have no division
    for value, expected in ((lambda: aeval(v, sym_aeval(s, e)), lambda: ref_a(composed, e)),
                            (lambda: beval(v, sym_beval(s, b)), lambda: ref_b(composed, b)),
                            (lambda: aeval(v, fold_a(TERMS, Var, e)), lambda: ref_a(v, e)),
                            (lambda: beval(v, fold_b(TERMS, Var, b)), lambda: ref_b(v, b))):
        wanted = defined(expected)
        assert wanted is None or value() == wanted  # a folded term may drop a division: x * 0


def _z3_value(v: Env, term: z3.ExprRef) -> int | bool:
    pairs = [(z3.Int(x), z3.IntVal(v(x))) for x in NAMES]
    value = z3.simplify(z3.substitute(term, *pairs))
    return value.as_long() if z3.is_int_value(value) else z3.is_true(value)


@FEW
@given(envs, aexprs, bexprs)
def test_z3_algebra_evaluated_by_z3_is_concrete(v: Env, e: AExpr, b: BExpr) -> None:
    """Wherever the reference is defined (X-A1: z3's Euclidean `div` and `mod` translated)."""
    for term, expected in ((fold(Z3, None, e), defined(lambda: ref_a(v, e))),
                           (fold(Z3, None, b), defined(lambda: ref_b(v, b)))):
        assert expected is None or _z3_value(v, term) == expected


@settings(max_examples=20, deadline=None)
@given(envs, aexprs, bexprs)
def test_smtlib_text_decided_by_z3_is_concrete(v: Env, e: AExpr, b: BExpr) -> None:
    s = Script()
    a_text, b_text = s.aexpr(e), s.bexpr(b)
    inputs = [f"(= {s.declare(x, 'Int')} {numeral(v(x))})" for x in NAMES]
    a_value, b_value = defined(lambda: ref_a(v, e)), defined(lambda: ref_b(v, b))
    assume(a_value is not None and b_value is not None)
    goal = f"(and (= {a_text} {numeral(a_value)}) {b_text if b_value else f'(not {b_text})'})"
    assert provers.prove_z3(s.text(inputs, goal), 1_000_000).status == provers.VALID


@FEW
@given(envs, aexprs, bexprs)
def test_partial_and_instance_algebras(v: Env, e: AExpr, b: BExpr) -> None:
    gamma = {x: v(x) for x in NAMES}
    assert defined(lambda: _value(gamma, e)) == defined(lambda: ref_a(v, e))
    assert defined(lambda: _value(gamma, b)) == defined(lambda: ref_b(v, b))
    assert instantiate(e, {}) == e and instantiate(b, {}) == b


class _Reads(Values):
    """The concrete algebra, recording the variables it reads."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def var(self, env: Env, name: str) -> int:  # type: ignore[override]
        self.read.append(name)
        return env(name)


@pytest.mark.parametrize("ctor, left, skipped", [(And, False, True), (And, True, False),
                                                 (Or, True, True), (Or, False, False)])
def test_concrete_and_or_short_circuit_partial_is_strict(
        ctor: Callable[[BExpr, BExpr], BExpr], left: bool, skipped: bool) -> None:
    b = ctor(Cmp("==", Var("x"), Int(1 if left else 0)), Cmp("<", Var("y"), Int(0)))
    spy = _Reads()
    fold_b(spy, Env.of({"x": 1}), b)
    assert spy.read == (["x"] if skipped else ["x", "y"])
    with pytest.raises(Unbound):
        _value({"x": 1}, b)


def test_shared_subterm_is_folded_once() -> None:
    t: AExpr = Var("x")
    for _ in range(60):
        t = Add(t, t)
    spy = _Reads()
    value = fold_a(spy, Env.of({"x": 1}), t)  # not in the assert: pytest would print `t`
    assert value == 2 ** 60 and spy.read == ["x", "x"]  # leaves are not memoised


def _z3_array(cells: object) -> z3.ArrayRef:
    array = z3.K(z3.IntSort(), 0)
    for i, x in cells.cells if isinstance(cells, Cells) else ():  # type: ignore[attr-defined]
        array = z3.Store(array, i, x)
    return array


def _smt_array(cells: object) -> str:
    text = "((as const (Array Int Int)) 0)"
    for i, x in cells.cells if isinstance(cells, Cells) else ():  # type: ignore[attr-defined]
        text = f"(store {text} {numeral(i)} {numeral(x)})"
    return text


@settings(max_examples=40, deadline=None)
@given(array_envs, array_stores, array_aexprs, array_bexprs)
def test_every_algebra_reads_arrays_as_the_reference(v: Env, s: Store, e: AExpr,
                                                     b: BExpr) -> None:
    """Seed 003 §5: with reads `a[e]` in the expressions and writes in the store, the concrete
    algebra is the reference; the symbolic one then valuation is the reference under `V∘S`
    (B-L1's case `a[e]`); z3's arrays, evaluated at `V`, and the SMT-LIB text, decided by z3,
    give the reference's values."""
    names = ARRAYS.names + ARRAYS.arrays
    composed = concretize(v, s, frozenset(names))
    a_value, b_value = defined(lambda: ref_a(v, e)), defined(lambda: ref_b(v, b))
    assert defined(lambda: aeval(v, e)) == a_value and defined(lambda: beval(v, b)) == b_value
    for value, expected in ((lambda: aeval(v, sym_aeval(s, e)), lambda: ref_a(composed, e)),
                            (lambda: beval(v, sym_beval(s, b)), lambda: ref_b(composed, b))):
        wanted = defined(expected)
        assert wanted is None or value() == wanted
    pairs = [(z3.Int(x), z3.IntVal(v(x))) for x in ARRAYS.names]
    pairs += [(z3.Array(x, z3.IntSort(), z3.IntSort()), _z3_array(v(x))) for x in ARRAYS.arrays]
    for term, expected in ((fold(Z3, None, e), a_value), (fold(Z3, None, b), b_value)):
        value = z3.simplify(z3.substitute(term, *pairs))
        assert expected is None or (value.as_long() if z3.is_int_value(value)
                                    else z3.is_true(value)) == expected
    assume(a_value is not None and b_value is not None)
    script = Script()
    a_text, b_text = script.aexpr(e), script.bexpr(b)
    inputs = [f"(= {script.declare(x, 'Int')} {numeral(v(x))})" for x in ARRAYS.names]
    inputs += [f"(= {script.declare(x, '(Array Int Int)')} {_smt_array(v(x))})"
               for x in ARRAYS.arrays]
    goal = f"(and (= {a_text} {numeral(a_value)}) {b_text if b_value else f'(not {b_text})'})"
    assert provers.prove_z3(script.text(inputs, goal), 1_000_000).status == provers.VALID
