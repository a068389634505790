"""Symbolic terms (seed 000, Sect. 1.3): expressions over the symbolic inputs, in pure Python.

A term is an IMP expression whose variables name symbolic inputs (the paper's `S : Vars → expr`).
The smart constructors below fold constants, so that a loop counter `i = i + 1` keeps a term of
constant size (`i + 3`, not `((i + 1) + 1) + 1`). Folding preserves the value of a term under
every valuation; compositionality (W-L2.1) is what checks it.

`TERMS` gathers the smart constructors as the symbolic algebra `D^sym` of the expression fold
(algebra.py): folding an expression with the variables read in a store `S` is `⟦e⟧_S` (Fig. 3),
and with any substitution it is `e[σ]` (seed 004).

An array's term is its update sequence (seed 003 §4 "Implementation", §5): the input array
`ArrayVar(a)` under `Update`s. `select` resolves a read along it as far as syntax decides
(B-H3): an update at the same index term gives its value, one at a different integer constant
is skipped; the first undecided update stops it, and the read stays `Select(ρ, i)`, which
denotes B-A1's conditional `if i = j then v else ρ'[i]` for `ρ = Update(ρ', j, v)`.
"""

from __future__ import annotations

import operator
from typing import Callable

from symcert.core.algebra import bound, fold_b
from symcert.lang.syntax import (
    AExpr,
    Add,
    And,
    ArrayExpr,
    ArrayVar,
    BExpr,
    Bool,
    Cmp,
    Div,
    Int,
    Mod,
    Mul,
    Neg,
    Not,
    Or,
    Quant,
    Select,
    Sub,
    Update,
    Var,
    operands,
)

Term = AExpr
Formula = BExpr

COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def add(a: Term, b: Term) -> Term:
    """`a + b`, with constants folded into a trailing `+ c`; `a + a` is `a * 2` (with `mul`'s
    folding, `x = x + x` run n times keeps the term `x * 2^n`, not a DAG n deep: docs/bench.md)."""
    if isinstance(a, Int) and isinstance(b, Int):
        return Int(a.value + b.value)
    if a is b:
        return mul(a, Int(2))
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


def mul(a: Term, b: Term) -> Term:
    """`a * b`, with constants folded into a trailing `* c` and `1 * a = a`, `0 * a = 0`
    (multiplication never fails, so dropping `a` loses no `fail`: the guard of `a` is kept
    apart, guards.py)."""
    if isinstance(a, Int) and isinstance(b, Int):
        return Int(a.value * b.value)
    if isinstance(a, Int):
        a, b = b, a
    if isinstance(b, Int):
        if b.value in (0, 1):
            return b if b.value == 0 else a
        if isinstance(a, Mul) and isinstance(a.right, Int):
            return mul(a.left, Int(a.right.value * b.value))
    return Mul(a, b)


def div(a: Term, b: Term) -> Term:
    """`a / b` (floor division), folded when both are constants and `b` is not 0; `a / 1 = a`.
    A term is total: its value at a zero divisor is never read, the guard excludes it."""
    if isinstance(b, Int) and b.value != 0:
        if isinstance(a, Int):
            return Int(a.value // b.value)
        if b.value == 1:
            return a
    return Div(a, b)


def mod(a: Term, b: Term) -> Term:
    """`a % b` (the sign of `b`), folded when both are constants and `b` is not 0;
    `a % 1 = a % -1 = 0`."""
    if isinstance(b, Int) and b.value != 0:
        if isinstance(a, Int):
            return Int(a.value % b.value)
        if b.value in (1, -1):
            return Int(0)
    return Mod(a, b)


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


def quant(universal: bool, name: str, lo: Term, hi: Term, body: Formula) -> Formula:
    """`forall name in lo .. hi :: body` (`exists` unless `universal`), X-Q1, decided when the
    range is constant and empty, has one value (the body at it), or the body is a constant:
    `forall` of `true` is `true`, of
    `false` it is `hi < lo` (the range is empty), and dually for `exists`."""
    if isinstance(lo, Int) and isinstance(hi, Int) and hi.value < lo.value:
        return Bool(universal)
    if lo == hi:  # one value: the body at it
        return fold_b(TERMS, bound(Var, name, lo), body)
    if isinstance(body, Bool):
        return Bool(universal) if body.value is universal else \
            cmp("<", hi, lo) if universal else cmp("<=", lo, hi)
    return Quant(universal, name, lo, hi, body)


def select(a: ArrayExpr, i: Term) -> Term:
    """`a[i]`, resolved along the update sequence `a` where syntax decides (B-H3): the value of
    an update at the same index term, past updates at other integer constants."""
    while isinstance(a, Update):
        if a.index == i:
            return a.value
        if not (isinstance(a.index, Int) and isinstance(i, Int)):
            break
        a = a.array
    return Select(a, i)


def update(a: ArrayExpr, i: Term, v: Term) -> ArrayExpr:
    """`a` with cell `i` set to `v` (B-A1); an update at the same index term on top of `a` is
    overwritten, not kept."""
    if isinstance(a, Update) and a.index == i:
        a = a.array
    return Update(a, i, v)


def array_term(name: str, bound: object) -> ArrayExpr:
    """The term of array `name` under a substitution that binds it to `bound`: an array term
    as it is, the array variable `y` for a variable `y` (the identity store's `Var(name)`, a
    seed-004 fresh name), else the input array `name`."""
    if isinstance(bound, (Update, ArrayVar)):
        return bound
    return ArrayVar(bound.name if isinstance(bound, Var) else name)


def variable(name: str, like: Term | ArrayExpr) -> Term | ArrayVar:
    """The symbolic variable `name` of the kind of `like`: an array variable for an array term
    (seed 003 §5), an integer one otherwise."""
    return ArrayVar(name) if isinstance(like, (Update, ArrayVar)) else Var(name)


class Terms:
    """The symbolic algebra: leaves are literals and the terms a substitution gives variables,
    operations are the smart constructors above."""

    def integer(self, subst: Callable[[str], Term], value: int) -> Term:
        return Int(value)

    def var(self, subst: Callable[[str], Term], name: str) -> Term:
        return subst(name)

    def neg(self, a: Term) -> Term:
        return neg(a)

    def add(self, a: Term, b: Term) -> Term:
        return add(a, b)

    def sub(self, a: Term, b: Term) -> Term:
        return sub(a, b)

    def mul(self, a: Term, b: Term) -> Term:
        return mul(a, b)

    def div(self, a: Term, b: Term) -> Term:
        return div(a, b)

    def mod(self, a: Term, b: Term) -> Term:
        return mod(a, b)

    def array(self, subst: Callable[[str], Term], name: str) -> ArrayExpr:
        return array_term(name, subst(name))

    def select(self, a: ArrayExpr, i: Term) -> Term:
        return select(a, i)

    def update(self, a: ArrayExpr, i: Term, v: Term) -> ArrayExpr:
        return update(a, i, v)

    def cmp(self, op: str, a: Term, b: Term) -> Formula:
        return cmp(op, a, b)

    def boolean(self, subst: Callable[[str], Term], value: bool) -> Formula:
        return Bool(value)

    def not_(self, a: Formula) -> Formula:
        return negate(a)

    def and_(self, a: Formula, b: Callable[[], Formula]) -> Formula:
        return conj(a, b())

    def or_(self, a: Formula, b: Callable[[], Formula]) -> Formula:
        return disj(a, b())

    bind = staticmethod(bound)

    def quantifier(self, universal: bool, name: str, lo: Term, hi: Term,
                   body: Callable[[Term], Formula]) -> Formula:
        return quant(universal, name, lo, hi, body(Var(name)))


TERMS = Terms()


NO_VARS: frozenset[str] = frozenset()


def free_vars(t: Term | Formula, memo: dict[int, frozenset[str]] | None = None) -> frozenset[str]:
    """The symbolic variables a term mentions.

    :param memo: maps `id(node)` of a compound node to its variables; shared between calls as
        long as every root given with it stays alive (algebra.fold_a's rule), it makes each
        shared node's variables computed once per run, not once per query.
    """
    if isinstance(t, (Var, ArrayVar)):
        return frozenset((t.name,))
    if not operands(t):
        return NO_VARS
    memo = {} if memo is None else memo
    todo: list[Term | Formula] = [t]
    while todo:
        node = todo[-1]
        if id(node) in memo:
            todo.pop()
            continue
        kids = operands(node)
        missing = [k for k in kids if operands(k) and id(k) not in memo]
        if missing:
            todo.extend(missing)
            continue
        todo.pop()
        found = NO_VARS
        for k in kids:
            mine = (frozenset((k.name,)) if isinstance(k, (Var, ArrayVar))
                    else memo.get(id(k), NO_VARS))
            if not mine <= found:
                found = found | mine
        if type(node) is Quant:  # its variable is bound (X-Q1)
            found = found - {node.var}
        memo[id(node)] = found
    return memo.get(id(t), NO_VARS)


SHOW_LIMIT = 2_000
"""The largest term, in tree nodes, that `show` prints in full."""


def tree_size(t: Term | Formula) -> int:
    """How many nodes `t` has as a tree, i.e. what `str(t)` prints (shared subterms counted
    at every occurrence, each computed once)."""
    sizes: dict[int, int] = {}
    todo: list[Term | Formula] = [t]
    while todo:
        node = todo[-1]
        if id(node) in sizes:
            todo.pop()
            continue
        kids = operands(node)
        missing = [k for k in kids if id(k) not in sizes]
        if missing:
            todo.extend(missing)
            continue
        todo.pop()
        sizes[id(node)] = 1 + sum(sizes[id(k)] for k in kids)
    return sizes[id(t)]


def show(t: Term | Formula) -> str:
    """`str(t)`, or a summary when its tree exceeds `SHOW_LIMIT` nodes (`x = x + x` run 100
    times makes a term of 2^100 leaves: printing it would never end)."""
    size = tree_size(t)
    if size <= SHOW_LIMIT:
        return str(t)
    over = ", ".join(sorted(free_vars(t))) or "no inputs"
    return f"<a term of {size if size < 10**9 else f'{size:.2e}'} nodes over {over}>"


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def interval_of(c: BExpr) -> tuple[str, int | None, int | None] | None:
    """`(x, lo, hi)` when `c` says exactly `lo <= x <= hi` (None: unbounded on that side), for
    `c` a comparison of `x` or `x + k` with a constant, possibly negated; otherwise None."""
    op_neg = False
    if isinstance(c, Not):
        c, op_neg = c.operand, True
    if not isinstance(c, Cmp):
        return None
    op, a, b = c.op, c.left, c.right
    if op_neg:
        op = _NEGATE[op]
    if isinstance(a, Int):
        a, b, op = b, a, _FLIP[op]
    if not isinstance(b, Int):
        return None
    d = b.value
    if isinstance(a, Add) and isinstance(a.right, Int):
        a, d = a.left, d - a.right.value
    if not isinstance(a, Var):
        return None
    match op:
        case "<":
            return a.name, None, d - 1
        case "<=":
            return a.name, None, d
        case ">":
            return a.name, d + 1, None
        case ">=":
            return a.name, d, None
        case "==":
            return a.name, d, d
    return None
