"""Definedness of expressions (X-A2; seed 002 Fig. 4's side condition on division).

`/` and `%` by zero step to `fail`. Symbolically, an expression `e` evaluated in a store `S` is
defined exactly when its *guard* holds: a formula over the symbolic inputs that says every
division the concrete evaluation of `e` reaches has a nonzero divisor. `GUARDS` computes it as an
algebra of the expression fold (algebra.py) whose values are pairs `(term, guard)`: the term is
the symbolic algebra's (terms.py), the guard follows the concrete evaluation order, so the right
operand of `and`/`or` is guarded only where the left one does not decide (`b != 0 and a / b > 1`
is defined everywhere).

A guard is *self-guarded*: read left to right with `and`/`or` short-circuiting, as the concrete
algebra reads it, each division inside it is reached only after its divisor was found nonzero,
so a guard is defined at every valuation at which the store's terms are.

A field access (seed 003 §4) is partial too: `x.f` and `x.f = e` read and write the map `.f` at
`x`, defined when `x != nil`, that is `x != 0`; `select` and `update` on a field's map conjoin
it after the guards of their operands, as a division conjoins its divisor's.
"""

from __future__ import annotations

from typing import Callable

from symcert.core import terms
from symcert.core.algebra import bound
from symcert.core.terms import Formula, Term
from symcert.lang.sharing import ARITY, FIELDS
from symcert.lang.syntax import (
    DIVISIONS, AExpr, And, ArrayVar, Assert, Assign, Assume, BExpr, Bool, Call, If, Int, New,
    Return, Stmt, Update, Var, While, field_of, is_field,
)

TRUE = Bool(True)

Guarded = tuple[Term, Formula]
"""A term and the condition under which computing it divides by no zero."""
GuardedFormula = tuple[Formula, Formula]
"""A formula and the condition under which evaluating it divides by no zero."""

Subst = Callable[[str], Term]


class Guards:
    """The symbolic algebra paired with definedness: each operation builds its term with the
    smart constructors and conjoins its operands' guards, a division adding `divisor != 0`."""

    def integer(self, subst: Subst, value: int) -> Guarded:
        return Int(value), TRUE

    def var(self, subst: Subst, name: str) -> Guarded:
        return subst(name), TRUE

    def neg(self, a: Guarded) -> Guarded:
        return terms.neg(a[0]), a[1]

    def add(self, a: Guarded, b: Guarded) -> Guarded:
        return terms.add(a[0], b[0]), terms.conj(a[1], b[1])

    def sub(self, a: Guarded, b: Guarded) -> Guarded:
        return terms.sub(a[0], b[0]), terms.conj(a[1], b[1])

    def mul(self, a: Guarded, b: Guarded) -> Guarded:
        return terms.mul(a[0], b[0]), terms.conj(a[1], b[1])

    def div(self, a: Guarded, b: Guarded) -> Guarded:
        return terms.div(a[0], b[0]), _nonzero(a, b)

    def mod(self, a: Guarded, b: Guarded) -> Guarded:
        return terms.mod(a[0], b[0]), _nonzero(a, b)

    def array(self, subst: Subst, name: str) -> Guarded:
        return terms.array_term(name, subst(name)), TRUE

    def select(self, a: Guarded, i: Guarded) -> Guarded:
        return (terms.select(a[0], i[0]),  # type: ignore[arg-type]
                _not_nil(a, i, terms.conj(a[1], i[1])))

    def update(self, a: Guarded, i: Guarded, v: Guarded) -> Guarded:
        return (terms.update(a[0], i[0], v[0]),  # type: ignore[arg-type, return-value]
                _not_nil(a, i, terms.conj(terms.conj(a[1], i[1]), v[1])))

    def cmp(self, op: str, a: Guarded, b: Guarded) -> GuardedFormula:
        return terms.cmp(op, a[0], b[0]), terms.conj(a[1], b[1])

    def boolean(self, subst: Subst, value: bool) -> GuardedFormula:
        return Bool(value), TRUE

    def not_(self, a: GuardedFormula) -> GuardedFormula:
        return terms.negate(a[0]), a[1]

    def and_(self, a: GuardedFormula, b: Callable[[], GuardedFormula]) -> GuardedFormula:
        right = b()  # reached only where `a` holds
        return (terms.conj(a[0], right[0]),
                terms.conj(a[1], terms.disj(terms.negate(a[0]), right[1])))

    def or_(self, a: GuardedFormula, b: Callable[[], GuardedFormula]) -> GuardedFormula:
        right = b()  # reached only where `a` does not hold
        return terms.disj(a[0], right[0]), terms.conj(a[1], terms.disj(a[0], right[1]))

    def bind(self, subst: Subst, name: str, value: Guarded) -> Subst:
        return bound(subst, name, value[0])  # a substitution gives terms; `var` pairs them

    def quantifier(self, universal: bool, name: str, lo: Guarded, hi: Guarded,
                   body: Callable[[Guarded], GuardedFormula]) -> GuardedFormula:
        """X-Q1: the bounds' guards, and the body's at every value of the range (a quantifier
        is total, lang/quantifiers.py, so that last is `true` for a program's)."""
        inner = body((Var(name), TRUE))
        every = terms.quant(True, name, lo[0], hi[0], inner[1])
        return (terms.quant(universal, name, lo[0], hi[0], inner[0]),
                terms.conj(terms.conj(lo[1], hi[1]), every))


def _nonzero(a: Guarded, b: Guarded) -> Formula:
    """The guard of `a / b` and `a % b`: both operands defined, then `b != 0`."""
    return terms.conj(terms.conj(a[1], b[1]), terms.cmp("!=", b[0], Int(0)))


def _not_nil(a: Guarded, i: Guarded, ok: Formula) -> Formula:
    """`ok`, and `i != nil` when `a` is a field's map (seed 003 §4)."""
    base = a[0]
    while isinstance(base, Update):
        base = base.array
    if isinstance(base, ArrayVar) and is_field(base.name):
        return terms.conj(ok, terms.cmp("!=", i[0], Int(0)))
    return ok


GUARDS = Guards()


def assuming(ok: Formula, c: Formula) -> Formula:
    """`ok ∧ c`, the condition of a branch of a test that may divide by zero: a conjunction
    unless `ok` is `true`, so the two branches stay distinct where `ok` folds to `false`."""
    return c if ok == TRUE else And(ok, c)


def may_fail_at(s: Stmt) -> bool:
    """Whether the expressions a simple statement evaluates (an assignment's, a test's, a call's
    arguments) may divide by zero: such a statement has one more successor, which fails (X-A2)."""
    match s:
        case Assign(_, e) | If(e) | While(e) | Assert(e) | Assume(e) | Return(e):
            return may_fail(e)
        case Call(_, args):
            return any(map(may_fail, args))
        case New(at=at):  # `at.f = new C` fails where `at` is nil (seed 003 §4)
            return at is not None
    return False


def may_fail(e: AExpr | BExpr) -> bool:
    """Whether `e` has a `/` or `%` whose divisor is not a nonzero literal: the expressions whose
    statements get a `fail` successor (X-A2). Syntactic, so `rule_count` can count it. (A walk
    on the classes, not `operands`' match: `expand` asks it at every test and assignment.)"""
    todo: list[AExpr | BExpr] = [e]
    while todo:
        node = todo.pop()
        arity = ARITY.get(type(node))
        if arity is None:
            continue  # a literal or a variable
        if arity == 1:
            todo.append(node.operand)  # type: ignore[union-attr]
            continue
        named = FIELDS.get(type(node))
        if named is not None:  # an array's select or update; a field's fails on nil
            if field_of(node.array) is not None:  # type: ignore[union-attr]
                return True
            todo.extend(getattr(node, f) for f in named)
            continue
        divisor = node.right  # type: ignore[union-attr]
        if type(node) in DIVISIONS and not (type(divisor) is Int and divisor.value != 0):
            return True
        todo.append(node.left)  # type: ignore[union-attr]
        todo.append(divisor)
    return False
