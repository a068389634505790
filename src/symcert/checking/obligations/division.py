# crosshair: off
"""Obligations about `/` and `%`: X-A1 (the SMT translation is Python's floor division and
modulo) and X-A2 (the guard `ok` of `guards.GUARDS` holds exactly where evaluation divides by
no zero, by induction on the expression, one step per operation of the fold)."""

from __future__ import annotations

from typing import Any, Callable
import itertools

from symcert.checking.obligations.common import (
    A_SHAPES,
    B_SHAPES,
    OPERATIONS,
    S_X,
    V0,
    Draft,
    Obligation,
    case_of,
    collect,
    snum,
)
from symcert.checking.obligations.common import X
from symcert.verify.smtlib import SMT_TEXT, Script, conj, equal, implies, purified, sbool
from symcert.core.algebra import fold, fold_a
from symcert.core.concrete import VALUES, Env, aeval
from symcert.core.guards import GUARDS
from symcert.lang.syntax import Div, Int, Mod, Neg, Nil, Var
from symcert.solver.z3terms import Z3, definition_text
from symcert.spec.definedness import defined

GRID_A = range(-7, 8)
GRID_B = tuple(b for b in range(-4, 5) if b != 0)
"""The sample dividends and divisors on which Python's `//`, `%` meet the translation."""


def x_a1() -> list[Obligation]:
    """`/` and `%` translate to SMT-LIB (`SMT_TEXT.div`/`mod`) as Python's floor division and
    modulo: for every `a` and `b ≠ 0`, `q = a / b` and `r = a % b` satisfy `a = b·q + r` with
    `0 ≤ r < b` (`b > 0`) or `b < r ≤ 0` (`b < 0`), which determines `q` and `r` (`floor`); z3's
    translation (`Z3Terms`) is the same term (`z3`); Python's `//`, `%` (the concrete algebra)
    give the same values on a grid (`concrete`). The solver names each division by a
    non-literal instead (`z3terms.Purified`) and conjoins the names' definition
    (`smtlib.purified`), which for `b ≠ 0` holds of `q`, `r` iff they are the translation's
    quotient and remainder (`purified`): the translation's values meet it (`positive-values`,
    `negative-values`) and it has one solution at most (`unique`, from the nonlinear step
    `unique-core`). So a formula with its divisions named and defined is equisatisfiable with
    the formula, with the same models on its variables; z3's definition is that text
    (`purified-z3`)."""
    out: list[Obligation] = []

    def floor(positive: bool) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            # Every negative divisor is `-c` for a positive `c` (z3 proves `a = b·q + r` so).
            divisor = Var("b") if positive else Neg(Var("c"))
            b = s.aexpr(divisor)
            q, r = s.aexpr(Div(Var("a"), divisor)), s.aexpr(Mod(Var("a"), divisor))
            sign = f"(and (<= 0 {r}) (< {r} {b}))" if positive else f"(and (< {b} {r}) (<= {r} 0))"
            return [Draft("X-A1", "floor", s, ["(> b 0)" if positive else "(> c 0)"],
                          conj([f"(= a (+ (* {b} {q}) {r}))", sign]))]
        return build

    def z3_term(op: type) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s, e = Script(), op(Var("a"), Var("b"))
            return [Draft("X-A1", "z3", s, [], equal(fold(Z3, None, e).sexpr(), s.aexpr(e)))]
        return build

    def grid(op: type) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            cases = [op(Int(a), Int(b)) for a, b in itertools.product(GRID_A, GRID_B)]
            return [Draft("X-A1", "concrete", s, [],
                          conj(equal(s.aexpr(e), s.int_value(aeval(Env(), e))) for e in cases))]
        return build

    def values(positive: bool) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            divisor = Var("b") if positive else Neg(Var("c"))
            quotient = s.aexpr(Div(Var("a"), divisor))
            remainder = s.aexpr(Mod(Var("a"), divisor))
            return [Draft("X-A1", "purified", s, ["(> b 0)" if positive else "(> c 0)"],
                          purified(s.aexpr(Var("a")), s.aexpr(divisor), quotient, remainder))]
        return build

    def unique_core() -> list[Draft]:
        s = Script()
        s.declare("b", "Int"), s.declare("d", "Int")
        return [Draft("X-A1", "purified", s, [], _no_multiple_between("b", "d"))]

    def unique() -> list[Draft]:
        s = Script()
        a, b = s.aexpr(Var("a")), s.aexpr(Var("b"))
        q, r, q2, r2 = (s.declare(n, "Int") for n in ("q", "r", "q2", "r2"))
        return [Draft("X-A1", "purified", s,
                      ["(not (= b 0))", purified(a, b, q, r), purified(a, b, q2, r2),
                       _no_multiple_between(b, f"(- {q} {q2})")],
                      conj([equal(q, q2), equal(r, r2)]))]

    def named_z3() -> list[Draft]:
        s = Script()
        a, b = s.aexpr(Var("a")), s.aexpr(Var("b"))
        q, r = s.declare("q", "Int"), s.declare("r", "Int")
        return [Draft("X-A1", "purified-z3", s, [],
                      equal(definition_text("a", "b", "q", "r"), purified(a, b, q, r)))]

    out += collect("positive", floor(True)) + collect("negative", floor(False))
    out += collect("positive-values", values(True)) + collect("negative-values", values(False))
    out += collect("unique-core", unique_core) + collect("unique", unique)
    out += collect("definition", named_z3)
    for op in (Div, Mod):
        out += collect(op.__name__.lower(), z3_term(op)) + collect(op.__name__.lower(), grid(op))
    return out


def _no_multiple_between(b: str, d: str) -> str:
    """`b ≠ 0 ∧ -|b| < b·d < |b| ⇒ d = 0`: no nonzero multiple of `b` lies strictly between
    `-|b|` and `|b|` (the nonlinear step of the definition's uniqueness, proved alone by
    `X-A1/purified/unique-core` and used as a hypothesis, instantiated, by `.../unique`)."""
    size = f"(ite (> {b} 0) {b} (- {b}))"
    return (f"(=> (and (not (= {b} 0)) (< (- {size}) (* {b} {d})) (< (* {b} {d}) {size})) "
            f"(= {d} 0))")


# --- X-A2: the guard is exact, by induction on the expression ---------------------------------

GUARD_SHAPES = ("bool", "atom")
"""The shapes of an operand's guard: `terms.conj`, `disj` tell a literal from anything else."""


def _value_shapes(operation: str, i: int) -> dict[str, Callable[[int], Any]]:
    """The shapes of operand `i`'s value that the operation's guard tells apart: a literal or
    not for a divisor (`divisor != 0` folds on a literal), every formula shape for the left
    operand of `and`/`or` (the guard negates it), one shape otherwise."""
    sort = OPERATIONS[operation][0][i]
    if operation in ("div", "mod") and i == 1:
        return {sh: A_SHAPES[sh] for sh in ("int", "term")}
    if operation in ("and", "or") and i == 0:
        return B_SHAPES
    return {"term": A_SHAPES["term"]} if sort == "a" else {"atom": B_SHAPES["atom"]}


def x_a2() -> list[Obligation]:
    """`⟦ok⟧_{V0} ⇔ ⟦e⟧_{V0∘S} ≠ fail` for the guard `ok` of `e` (`guards.GUARDS`), by induction
    on `e`. Base cases: a literal or a variable has the guard `true` and always a value. Step,
    per operation of `OPERATIONS`: operand `i` has the symbolic value `R_i` and guard `ok_i`;
    concretely it fails unless `?d_i`, else its value is `ih_i`; the induction hypotheses are
    `?d_i ⇔ ok_i` and `?d_i ⇒ ih_i = R_i` (B-L1 where defined). The operation's guard holds on
    the paths where the concrete operation (`VALUES`, operands forced as the fold forces them)
    has a value, and fails on those where it divides by zero."""
    out: list[Obligation] = []
    leaves: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "Int": (lambda: GUARDS.integer(S_X, snum("?k1")), lambda: VALUES.integer(V0, snum("?k1"))),
        "Var": (lambda: GUARDS.var(S_X, X), lambda: VALUES.var(V0, X)),
        "Bool": (lambda: GUARDS.boolean(S_X, sbool("?b1")), lambda: VALUES.boolean(V0, sbool("?b1"))),
        "Nil": (lambda: fold_a(GUARDS, S_X, Nil()), lambda: fold_a(VALUES, V0, Nil())),
    }
    for case, (guarded, concrete) in leaves.items():
        def leaf(guarded: Callable[[], Any] = guarded, concrete: Callable[[], Any] = concrete
                 ) -> list[Draft]:
            s = Script()
            return [_exact(s, [], guarded()[1], defined(concrete) is not None, case)]
        out += collect("leaf", leaf)
    for name, (sorts, apply) in OPERATIONS.items():
        per_operand = [[(vs, gs) for vs in _value_shapes(name, i) for gs in GUARD_SHAPES]
                       for i in range(len(sorts))]
        for combo in itertools.product(*per_operand):
            def build(name: str = name, sorts: str = sorts, apply: Callable[..., Any] = apply,
                      combo: tuple[tuple[str, str], ...] = combo) -> list[Draft]:
                s = Script()
                hyps: list[str] = []
                symbolic: list[tuple[Any, Any]] = []
                concrete: list[Callable[[], Any]] = []
                for i, (sort, (vs, gs)) in enumerate(zip(sorts, combo)):
                    value = _value_shapes(name, i)[vs](i + 1)
                    ok = B_SHAPES[gs](i + 3)
                    d = sbool(f"?d{i + 1}")
                    ih = snum(f"ih{i + 1}") if sort == "a" else sbool(f"ih{i + 1}")
                    same = (equal(s.int_value(ih), s.aexpr(value)) if sort == "a"
                            else equal(s.bool_value(ih), s.bexpr(value)))
                    hyps += [equal(s.bool_value(d), s.bexpr(ok)), implies(s.bool_value(d), same)]
                    symbolic.append((value, ok))
                    concrete.append(lambda d=d, ih=ih: _operand(d, ih))
                guard = apply(GUARDS, [lambda g=g: g for g in symbolic])[1]
                has_value = defined(lambda: apply(VALUES, concrete)) is not None
                return [_exact(s, hyps, guard, has_value, case_of(name))]
            out += collect("+".join(f"{vs}-ok-{gs}" for vs, gs in combo), build)
    return out


def _operand(d: Any, ih: Any) -> Any:
    """An operand's concrete value `ih`, or a division by zero unless `d`."""
    if not d:
        raise ZeroDivisionError("an operand divides by zero")
    return ih


def _exact(s: Script, hyps: list[str], guard: Any, has_value: bool, case: str) -> Draft:
    """The obligation that `guard` holds iff the evaluation has a value (`has_value`)."""
    text = s.bexpr(guard)
    return Draft("X-A2", case, s, hyps, text if has_value else f"(not {text})", None, (), None,
                 guard)
