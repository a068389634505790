"""Symbolic terms (seed 000, Sect. 1.3): expressions over the symbolic inputs, in pure Python.

A term is an IMP expression whose variables name symbolic inputs (the paper's `S : Vars → expr`).
The smart constructors below fold constants, so that a loop counter `i = i + 1` keeps a term of
constant size (`i + 3`, not `((i + 1) + 1) + 1`). Folding preserves the value of a term under
every valuation; compositionality (W-L2.1) is what checks it.
"""

from __future__ import annotations

from symcert.syntax import AExpr, Add, And, BExpr, Bool, Cmp, Int, Neg, Not, Or, Sub, Var

Term = AExpr
Formula = BExpr

COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def add(a: Term, b: Term) -> Term:
    """`a + b`, with constants folded into a trailing `+ c`."""
    if isinstance(a, Int) and isinstance(b, Int):
        return Int(a.value + b.value)
    if isinstance(a, Int):
        a, b = b, a
    if isinstance(b, Int):
        if b.value == 0:
            return a
        if isinstance(a, Add) and isinstance(a.right, Int):
            return add(a.left, Int(a.right.value + b.value))
    return Add(a, b)


def sub(a: Term, b: Term) -> Term:
    """`a - b`; subtracting a constant adds its opposite."""
    if isinstance(b, Int):
        return add(a, Int(-b.value))
    if isinstance(a, Int) and a.value == 0:
        return neg(b)
    return Sub(a, b)


def neg(a: Term) -> Term:
    """`-a`."""
    if isinstance(a, Int):
        return Int(-a.value)
    if isinstance(a, Neg):
        return a.operand
    return Neg(a)


def cmp(op: str, a: Term, b: Term) -> Formula:
    """`a op b`, decided when both sides are constants."""
    if isinstance(a, Int) and isinstance(b, Int):
        return Bool(COMPARE[op](a.value, b.value))
    return Cmp(op, a, b)


def conj(a: Formula, b: Formula) -> Formula:
    """`a and b`."""
    if isinstance(a, Bool):
        return b if a.value else a
    if isinstance(b, Bool):
        return a if b.value else b
    return And(a, b)


def disj(a: Formula, b: Formula) -> Formula:
    """`a or b`."""
    if isinstance(a, Bool):
        return a if a.value else b
    if isinstance(b, Bool):
        return b if b.value else a
    return Or(a, b)


def negate(a: Formula) -> Formula:
    """`not a`."""
    if isinstance(a, Bool):
        return Bool(not a.value)
    if isinstance(a, Not):
        return a.operand
    return Not(a)


def free_vars(t: Term | Formula) -> frozenset[str]:
    """The symbolic variables a term mentions."""
    found: set[str] = set()
    todo: list[object] = [t]
    while todo:
        node = todo.pop()
        match node:
            case Var(name):
                found.add(name)
            case Int() | Bool():
                pass
            case Neg(x) | Not(x):
                todo.append(x)
            case Add(l, r) | Sub(l, r) | And(l, r) | Or(l, r) | Cmp(_, l, r):
                todo.append(l)
                todo.append(r)
    return frozenset(found)
