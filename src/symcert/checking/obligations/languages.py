# crosshair: off
"""G-M1 for a language defined by rewrite rules (seed 002 §4.2): the valuation `ϑ` commutes with
each data operation a `.sem` file can write, `ϑ(f^sym(t̄)) = f^D(ϑ(t̄))`.

`f^sym` is the operation's interpretation in `seed002.terms.DATA_OPS`, the one the rewrite
engine runs, applied to schematic arguments (one per shape the smart constructors tell apart,
`common.A_SHAPES`, `B_SHAPES`, and a term as both operands); `f^D` is written here once more,
independently: the SMT-LIB operation for Int and Bool (`/Int`, `%Int` through X-A1's floor
translation), equality of names for Id, and for maps the finite function that `lookup` reads
and `update` overrides, with 0 for an unbound identifier; for the scope `τ ∪ σ` of seed 003 §3
(`lookupIn`, `updateBound`, `updateFree`) the same functions, `τ` first; for arrays (seed 003
§5) SMT-LIB's `select` and `store`, and the arrays of a program a finite function to them whose
unbound names read their input array; `field(f)` (seed 003 §4) is the name `.f`. The operations
over Fol (`∧Fol`, `unsat`) are the derivation's, not a definition's: `unsat` is no homomorphism
(only its soundness is needed, Remark 1), and `∧Fol` is stated by G-C1's contracts.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

from symcert.checking.obligations.common import (
    A_SHAPES, B_SHAPES, X, Y, Draft, Obligation, collect, snum,
)
from symcert.verify.smtlib import SMT_TEXT, Script, conj, equal
from symcert.core.algebra import is_formula
from symcert.lang.structure import variables
from symcert.lang.syntax import AExpr, ArrayExpr, ArrayVar, Cmp, Int, Update, Var
from symcert.seed002.terms import DATA_OPS, FOL, ID, INT, MAP, ArraysValue, Id, MapValue

Map = dict[str, str]
"""`ϑ(M)`: a map's bindings, each value the SMT text of its valuation."""

MEANING: dict[str, Callable[..., Any]] = {
    "+Int": SMT_TEXT.add, "-Int": SMT_TEXT.sub, "*Int": SMT_TEXT.mul,
    "/Int": SMT_TEXT.div, "%Int": SMT_TEXT.mod,
    "<Int": lambda a, b: f"(< {a} {b})", "<=Int": lambda a, b: f"(<= {a} {b})",
    ">Int": lambda a, b: f"(> {a} {b})", ">=Int": lambda a, b: f"(>= {a} {b})",
    "==Int": lambda a, b: f"(= {a} {b})", "=/=Int": lambda a, b: f"(not (= {a} {b}))",
    "notBool": lambda a: f"(not {a})", "andBool": lambda a, b: f"(and {a} {b})",
    "orBool": lambda a, b: f"(or {a} {b})",
    "==Bool": lambda a, b: f"(= {a} {b})", "=/=Bool": lambda a, b: f"(not (= {a} {b}))",
    "==Id": lambda a, b: "true" if a == b else "false",
    "=/=Id": lambda a, b: "false" if a == b else "true",
    "lookup": lambda m, x: m.get(x, "0"),
    "update": lambda m, x, v: {**m, x: v},
    "lookupIn": lambda l, m, x: l[x] if x in l else m.get(x, "0"),
    "updateBound": lambda l, x, v: {**l, x: v} if x in l else l,
    "updateFree": lambda l, m, x, v: m if x in l else {**m, x: v},
    "select": lambda a, i: f"(select {a} {i})",
    "store": lambda a, i, v: f"(store {a} {i} {v})",
    "lookupArray": lambda r, x, input_: r.get(x, input_),
    "updateArray": lambda r, x, a: {**r, x: a},
    "field": lambda f: "." + f,
}
"""`f^D` on valuated arguments: SMT text for Int and Bool, a name for Id, `Map` for maps."""

DEFINABLE = tuple(name for name, op in DATA_OPS.items() if FOL not in (op.result, *op.args))
"""The data operations a `.sem` file can write (Fol is added by the derivation)."""

_MAPS: dict[str, Callable[[], MapValue]] = {
    "bound": lambda: MapValue(((X, Var("?m1")), (Y, Var("?m2")))),
    "unbound": lambda: MapValue(((Y, Var("?m2")),)),
}
"""A map binding `x` (to a term `?m1`) and `y`, or `y` only: the cases `lookup` and `update`
tell apart; the key is always `x`."""
_GLOBALS: dict[str, Callable[[], MapValue]] = {
    "bound": lambda: MapValue(((X, Var("?n1")), (Y, Var("?n2")))),
    "unbound": lambda: MapValue(((Y, Var("?n2")),)),
}
"""The second map of the scope operations (the globals `σ`), as `_MAPS` for `τ`."""
ARRAY_SHAPES: dict[str, ArrayExpr] = {
    "input": ArrayVar("?A"),
    "update-int": Update(ArrayVar("?A"), Int(snum("?k5")), Var("?v5")),  # type: ignore[arg-type]
    "update-term": Update(ArrayVar("?A"), Var("?t5"), Var("?v5")),
}
"""An array: an input, or an update whose index is a literal or a term (`terms.select` and
`terms.update` tell them apart)."""
INDICES: dict[str, Callable[[], AExpr]] = {
    **{k: (lambda f=f: f(1)) for k, f in A_SHAPES.items()}, "same": lambda: Var("?t5")}
"""An index: each shape of `A_SHAPES`, or `same`, the index term of `update-term`."""
_ARRAYS: dict[str, Callable[[], ArraysValue]] = {
    "bound": lambda: ArraysValue(((X, ArrayVar("?b1")), (Y, ArrayVar("?b2"))), True),
    "unbound": lambda: ArraysValue(((Y, ArrayVar("?b2")),), True),
}
"""The arrays of a program binding `x` and `y`, or `y` only (`x` then its input array)."""
_COMBOS: dict[str, list[tuple[str, ...]]] = {
    "lookupIn": [(m, g) for m in _MAPS for g in _GLOBALS],
    "updateBound": [(m, v) for m in _MAPS for v in A_SHAPES],
    "updateFree": [(m, g, v) for m in _MAPS for g in _GLOBALS for v in A_SHAPES],
    "select": [(a, i) for a in ARRAY_SHAPES for i in INDICES],
    "store": [(a, i) for a in ARRAY_SHAPES for i in INDICES],
    "lookupArray": [(r,) for r in _ARRAYS],
    "updateArray": [(r, a) for r in _ARRAYS for a in ARRAY_SHAPES],
    "field": [("name",)],
}
"""The argument shapes of the operations for procedures and arrays."""


def rule_name(op: str) -> str:
    """The obligation's rule for operation `op`, without `/` (`=/=Int` → `seed002-ne-int`)."""
    for symbol, word in (("=/=", "ne"), ("==", "eq"), ("<=", "le"), (">=", "ge"), ("<", "lt"),
                         (">", "gt"), ("+", "plus"), ("-", "minus"), ("*", "times"),
                         ("/", "div"), ("%", "mod")):
        if op.startswith(symbol):
            return f"seed002-{word}-{op[len(symbol):].lower()}"
    return f"seed002-{op.lower()}"


def g_m1_languages() -> list[Obligation]:
    """`ϑ(f^sym(t̄)) = f^D(ϑ(t̄))` for each operation of `DEFINABLE` and each tuple of argument
    shapes, named `G-M1/seed002-<op>/<shapes>`; `/Int` and `%Int` where the divisor is not 0
    (the rules' conditions keep a zero divisor away)."""
    out: list[Obligation] = []
    for name in DEFINABLE:
        sorts = DATA_OPS[name].args
        combos: list[tuple[str, ...]]
        if name in _COMBOS:
            combos = _COMBOS[name]
        elif MAP in sorts:
            combos = [(m, v) for m in _MAPS for v in A_SHAPES] if name == "update" \
                else [(m,) for m in _MAPS]
        elif sorts[0] == ID:
            combos = [("same",), ("other",)]
        else:
            shapes = A_SHAPES if sorts[0] == INT else B_SHAPES
            combos = list(itertools.product(shapes, repeat=len(sorts)))
            if len(sorts) == 2:
                combos += [(sh, "same") for sh in shapes]
        for combo in combos:
            out.extend(collect("+".join(combo), lambda name=name, combo=combo: _draft(name, combo)))
    return out


def _draft(name: str, combo: tuple[str, ...]) -> list[Draft]:
    op = DATA_OPS[name]
    s = Script()
    if name in ("lookupIn", "updateBound", "updateFree"):
        return [_scope_draft(s, name, combo)]
    if name in ("select", "store", "lookupArray", "updateArray"):
        return [_array_draft(s, name, combo)]
    if MAP in op.args:
        return [_map_draft(s, name, combo)]
    if op.result == ID:
        named = op.fn(None, Id(X))
        return [Draft("G-M1", rule_name(name), s, [],
                      "true" if named == Id(MEANING[name](X)) else "false")]
    if op.args[0] == ID:
        args: list[Any] = [Id(X), Id(X if combo == ("same",) else Y)]
        value = op.fn(None, *args)
        return [Draft("G-M1", rule_name(name), s, [], equal(s.bexpr(value), MEANING[name](
            *(a.name for a in args))), value=value)]
    shapes = A_SHAPES if op.args[0] == INT else B_SHAPES
    args = [shapes[sh](i + 1) for i, sh in enumerate(combo) if sh != "same"]
    args += [args[0]] * (len(combo) - len(args))
    text = s.aexpr if op.args[0] == INT else s.bexpr
    value = op.fn(None, *args)
    goal = equal(s.bexpr(value) if is_formula(value) else s.aexpr(value),
                 MEANING[name](*(text(a) for a in args)))
    hyps = [s.bexpr(Cmp("!=", args[1], Int(0)))] if name in ("/Int", "%Int") else []
    return [Draft("G-M1", rule_name(name), s, hyps, goal, None,
                  tuple(sorted(frozenset().union(*map(variables, args)))), None, value)]


def _map_draft(s: Script, name: str, combo: tuple[str, ...]) -> Draft:
    """`lookup(M, x)` compared as an Int; `update(M, x, v)` as a map: the same identifiers
    bound, and the same value at `x` and at `y` (0 where unbound)."""
    m = _MAPS[combo[0]]()
    theta: Map = {k: s.aexpr(v) for k, v in m.bindings}
    if name == "lookup":
        value = DATA_OPS[name].fn(None, m, Id(X))
        return Draft("G-M1", rule_name(name), s, [],
                     equal(s.aexpr(value), MEANING[name](theta, X)), value=value)
    v = A_SHAPES[combo[1]](1)
    after = DATA_OPS[name].fn(None, m, Id(X), v)
    expected: Map = MEANING[name](theta, X, s.aexpr(v))
    same_keys = "true" if {k for k, _ in after.bindings} == set(expected) else "false"
    goal = conj([same_keys, *(equal(s.aexpr(after.lookup(n)), expected.get(n, "0"))
                              for n in (X, Y))])
    return Draft("G-M1", rule_name(name), s, [], goal, names=(X, Y))


def _scope_draft(s: Script, name: str, combo: tuple[str, ...]) -> Draft:
    """`lookupIn(τ, σ, x)` compared as an Int; `updateBound(τ, x, v)` and `updateFree(τ, σ,
    x, v)` as maps, as `_map_draft` compares them."""
    local = _MAPS[combo[0]]()
    maps = [local] + ([_GLOBALS[combo[1]]()] if name != "updateBound" else [])
    theta = [{k: s.aexpr(v) for k, v in m.bindings} for m in maps]
    if name == "lookupIn":
        value = DATA_OPS[name].fn(None, *maps, Id(X))
        return Draft("G-M1", rule_name(name), s, [],
                     equal(s.aexpr(value), MEANING[name](*theta, X)), value=value)
    v = A_SHAPES[combo[-1]](1)
    after = DATA_OPS[name].fn(None, *maps, Id(X), v)
    expected: Map = MEANING[name](*theta, X, s.aexpr(v))
    same_keys = "true" if {k for k, _ in after.bindings} == set(expected) else "false"
    goal = conj([same_keys, *(equal(s.aexpr(after.lookup(n)), expected.get(n, "0"))
                              for n in (X, Y))])
    return Draft("G-M1", rule_name(name), s, [], goal, names=(X, Y))


def _array_draft(s: Script, name: str, combo: tuple[str, ...]) -> Draft:
    """`select(A, i)` compared as an Int, `store(A, i, v)` as an array (SMT-LIB's equality of
    arrays); `lookupArray(R, x)` as an array, `updateArray(R, x, A)` as the arrays of a
    program: the same names bound, the same array at `x` and at `y` (an unbound one its
    input)."""
    op = DATA_OPS[name]
    if name in ("select", "store"):
        a, i = ARRAY_SHAPES[combo[0]], INDICES[combo[1]]()
        args: list[Any] = [a, i] + ([Var("?w1")] if name == "store" else [])
        value = op.fn(None, *args)
        return Draft("G-M1", rule_name(name), s, [], equal(s.aexpr(value), MEANING[name](
            *(s.aexpr(t) for t in args))), value=value if name == "select" else None)
    r = _ARRAYS[combo[0]]()
    theta = {k: s.aexpr(v) for k, v in r.bindings}
    inputs = {n: s.aexpr(ArrayVar(n)) for n in (X, Y)}
    if name == "lookupArray":
        value = op.fn(None, r, Id(X))
        return Draft("G-M1", rule_name(name), s, [],
                     equal(s.aexpr(value), MEANING[name](theta, X, inputs[X])))
    a = ARRAY_SHAPES[combo[1]]
    after = op.fn(None, r, Id(X), a)
    expected = MEANING[name](theta, X, s.aexpr(a))
    same_keys = "true" if {k for k, _ in after.bindings} == set(expected) else "false"
    goal = conj([same_keys, *(equal(s.aexpr(after.lookup(n)), expected.get(n, inputs[n]))
                              for n in (X, Y))])
    return Draft("G-M1", rule_name(name), s, [], goal)
