# crosshair: off
"""Obligations about expressions: B-L1 (substitution, by induction on the expression), G-M1
(valuation commutes with each operation of the symbolic algebra) and W-L2.1 (the store update)."""

from __future__ import annotations

from typing import Any, Callable
import itertools

from symcert.checking.obligations.common import (
    A_SHAPES,
    B_SHAPES,
    OPERATIONS,
    Obligation,
    PHI,
    S_X,
    V0,
    Draft,
    collect,
    env_equal,
    schematic_store,
    snum,
)
from symcert.checking.obligations.common import X
from symcert.checking.obligations.common import Y
from symcert.verify.smtlib import SMT_TEXT, Script, equal, sbool, sint
from symcert.core.algebra import is_formula
from symcert.core.concrete import Env, aeval, beval
from symcert.core.state import ID, Store, SymState, concretize
from symcert.core.symbolic import sym_aeval, sym_beval, sym_update
from symcert.core.terms import TERMS
from symcert.lang.structure import variables
from symcert.lang.syntax import (
    CMP_OPS,
    Add,
    AExpr,
    And,
    Assert,
    Assign,
    BExpr,
    Bool,
    Cmp,
    Div,
    Int,
    Mod,
    Mul,
    Neg,
    Nil,
    Node,
    Not,
    Or,
    Sub,
    Var,
)
from symcert.spec.definedness import defined


def b_l1() -> list[Obligation]:
    """`⟦⟦e⟧_S⟧_{V0} = ⟦e⟧_{V0∘S}`: a base case per leaf, a step per constructor and per shape
    of the sub-expressions' symbolic values, the induction hypothesis as an assumption. For `/`
    and `%`, on the paths where the concrete divisor is not 0 (at 0 there is no value: X-A2)."""
    out: list[Obligation] = []

    def leaf_int() -> list[Draft]:
        s, e = Script(), Int(sint("?k"))  # type: ignore[arg-type]
        value = sym_aeval(ID, e)
        return [Draft("B-L1", "Int", s, [], equal(s.aexpr(value), s.int_value(aeval(Env(), e))),
                       _evaluating(ID, e), (), None, value)]

    def leaf_nil() -> list[Draft]:  # seed 003 §4: `nil` is the reference 0
        s, e = Script(), Nil()
        value = sym_aeval(ID, e)
        return [Draft("B-L1", "Nil", s, [], equal(s.aexpr(value), s.int_value(aeval(Env(), e))),
                       _evaluating(ID, e), (), None, value)]

    def leaf_bool() -> list[Draft]:
        s, e = Script(), Bool(sbool("?b"))  # type: ignore[arg-type]
        value = sym_beval(ID, e)
        return [Draft("B-L1", "Bool", s, [], equal(s.bexpr(value), s.bool_value(beval(Env(), e))),
                       _evaluating(ID, e), (), None, value)]

    def leaf_var(store: Store) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s, e = Script(), Var(X)
            vc = concretize(V0, store, frozenset({X}))
            value = sym_aeval(store, e)
            return [Draft("B-L1", "Var", s, [], equal(s.aexpr(value), s.int_value(aeval(vc, e))),
                           _evaluating(store, e), (X,), None, value)]
        return build

    out += collect("literal", leaf_int) + collect("literal", leaf_bool)
    out += collect("literal", leaf_nil)
    out += collect("bound", leaf_var(S_X)) + collect("unbound", leaf_var(ID))

    def arith(ctor: Callable[..., Node], shapes: tuple[str, ...]) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            slots = [f"?e{i + 1}" for i in range(len(shapes))]
            store = schematic_store(*((slot, A_SHAPES[sh](i + 1)) for i, (slot, sh)
                             in enumerate(zip(slots, shapes))))
            ih = [snum(f"ih{i + 1}") for i in range(len(shapes))]
            vc = Env(tuple(zip(slots, ih)))  # type: ignore[arg-type]
            hyps = [equal(s.int_value(h), s.aexpr(store(slot))) for h, slot in zip(ih, slots)]
            e = ctor(*(Var(slot) for slot in slots))
            if is_formula(e):
                value: AExpr | BExpr = sym_beval(store, e)
                goal = equal(s.bexpr(value), s.bool_value(beval(vc, e)))
            else:
                value = sym_aeval(store, e)  # type: ignore[arg-type]
                concrete = defined(lambda: aeval(vc, e))  # type: ignore[arg-type]
                if concrete is None:
                    return []
                goal = equal(s.aexpr(value), s.int_value(concrete))
            return [Draft("B-L1", _case(e), s, hyps, goal, _evaluating(store, e),  # type: ignore[arg-type]
                           tuple(slots), None, value)]
        return build

    def logic(ctor: Callable[..., Node], shapes: tuple[str, ...]) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            subs = [B_SHAPES[sh](i + 1) for i, sh in enumerate(shapes)]
            ih = [sbool(f"ih{i + 1}") for i in range(len(shapes))]
            hyps = [equal(s.bool_value(h), s.bexpr(sym_beval(ID, b))) for h, b in zip(ih, subs)]
            e = ctor(*subs)
            literal = ctor(*(Bool(h) for h in ih))  # the concrete side sees values only
            value = sym_beval(ID, e)  # type: ignore[arg-type]
            goal = equal(s.bexpr(value), s.bool_value(beval(Env(), literal)))  # type: ignore[arg-type]
            return [Draft("B-L1", _case(e), s, hyps, goal, _evaluating(ID, e),  # type: ignore[arg-type]
                           tuple(sorted(variables(e))), None, value)]
        return build

    for sh in A_SHAPES:
        out += collect(sh, arith(Neg, (sh,)))
        for sh2 in A_SHAPES:
            for ctor in (Add, Sub, Mul, Div, Mod, *(_cmp(op) for op in CMP_OPS)):
                out += collect(f"{sh}+{sh2}", arith(ctor, (sh, sh2)))
    for sh in B_SHAPES:
        out += collect(sh, logic(Not, (sh,)))
        for sh2 in B_SHAPES:
            for ctor in (And, Or):
                out += collect(f"{sh}+{sh2}", logic(ctor, (sh, sh2)))
    return out


def _evaluating(store: Store, e: AExpr | BExpr) -> SymState:
    """A state whose next step evaluates `e` (`?r = e`, or `assert e`), to print it as IMP."""
    prog = Assert(e) if is_formula(e) else Assign("?r", e)
    return SymState(PHI, store, prog)  # type: ignore[arg-type]


def _cmp(op: str) -> Callable[[AExpr, AExpr], Cmp]:
    return lambda a, b: Cmp(op, a, b)


def _case(e: Node) -> str:
    return f"Cmp{e.op}" if isinstance(e, Cmp) else type(e).__name__


# --- G-M1 data morphism: valuation commutes with each operation of the symbolic algebra -------


def g_m1() -> list[Obligation]:
    """`V0(f^sym(t1, t2)) = f^D(V0(t1), V0(t2))` for each operation `f` of `terms.TERMS` (the
    smart constructors, which fold constants) and each shape of its arguments: the left side is
    the SMT text of the term `f^sym` builds, the right one `f` applied by `smtlib.SMT_TEXT` to
    the texts of the arguments (and, for a binary `f`, each shape as both operands, one object) (both are read by the provers as `V0` reads them). For `/` and
    `%`, where the divisor is not 0 (a term's value at 0 is never read: X-A2)."""
    out: list[Obligation] = []
    for name, (sorts, apply) in OPERATIONS.items():
        shapes: dict[str, Callable[[int], Any]] = A_SHAPES if sorts[0] == "a" else B_SHAPES
        combos = list(itertools.product(shapes, repeat=len(sorts)))
        if len(sorts) == 2:  # one term as both operands (`add`'s `a + a = a * 2`)
            combos += [(sh, "same") for sh in shapes]
        for combo in combos:
            def build(combo: tuple[str, ...] = combo, shapes: dict[str, Callable[[int], Any]]
                      = shapes, apply: Callable[..., Any] = apply, name: str = name
                      ) -> list[Draft]:
                s = Script()
                args = [shapes[sh](i + 1) for i, sh in enumerate(combo) if sh != "same"]
                args += [args[0]] * (len(combo) - len(args))
                text = s.aexpr if shapes is A_SHAPES else s.bexpr
                value = apply(TERMS, [lambda a=a: a for a in args])
                texts = [text(a) for a in args]
                goal = equal(s.bexpr(value) if is_formula(value) else s.aexpr(value),
                             apply(SMT_TEXT, [lambda t=t: t for t in texts]))
                hyps = [s.bexpr(Cmp("!=", args[1], Int(0)))] if name in ("div", "mod") else []
                return [Draft("G-M1", name, s, hyps, goal, None,
                               tuple(sorted(frozenset().union(*map(variables, args)))), None,
                               value)]
            out.extend(collect("+".join(combo), build))
    return out


# --- W-L2.1 compositionality of the store update ----------------------------------------------

SHAPES_WITH_SELF: dict[str, Callable[[int], AExpr]] = {**A_SHAPES, "self": lambda i: Var(X)}
"""The arithmetic shapes, plus `x` itself (the update that gives back the identity binding)."""


def w_l2_1() -> list[Obligation]:
    """`V0∘(S[x := ⟦e⟧_S]) = (V0∘S)[x := ⟦e⟧_{V0∘S}]` on `x`, on `?e` and on any other `y`,
    per shape of `⟦e⟧_S` and whether `S` binds `x`."""
    out: list[Obligation] = []
    names = (X, Y, "?e")

    def update(store: Store) -> Callable[[], list[Draft]]:
        def build() -> list[Draft]:
            s = Script()
            vc = concretize(V0, store, frozenset(names))
            after = concretize(V0, sym_update(store, X, Var("?e")), frozenset(names))
            expected = vc.update(X, aeval(vc, Var("?e")))
            return [Draft("W-L2.1", "update", s, [], env_equal(s, after, expected, names),
                           SymState(PHI, store, Assign(X, Var("?e"))), names)]
        return build

    for sh, shape in SHAPES_WITH_SELF.items():
        for bound, base in (("bound", S_X), ("unbound", ID)):
            store = Store(tuple(sorted(base.bindings + (("?e", shape(1)),))))
            out += collect(f"{sh}/{bound}", update(store))
    return out
