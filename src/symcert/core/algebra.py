"""One fold over expressions, many algebras (seed 002's data algebra `D`, its symbolic extension
`D^sym` and the valuation morphism; seed 000 Figs. 2 and 3).

An expression is evaluated by one fold that walks it and asks an `Algebra` for each operator.
The algebras are the semantics the engine needs:

- `concrete.VALUES`: integers and booleans, `⟦e⟧_V` (seed 000 Fig. 2; seed 004's twin reads
  its variables strictly, then folds with it);
- `terms.TERMS`: symbolic terms through the constant-folding smart constructors, `⟦e⟧_S`
  (Fig. 3: substitution of a store, also seed 004's substitution `e[σ]` in interp.py);
- `guards.GUARDS`: terms paired with the condition under which they divide by no zero (X-A2);
- `solver.Z3`: z3 terms; `smtlib.SMT_TEXT`: SMT-LIB text;
- `obligations.INSTANCES`: expressions whose schematic literals take a prover model's values.

W-L2.1, B-L1 and G-M1 then say that valuation commutes with each operation of `terms.TERMS`:
`obligations.g_m1` states it operation by operation, as proof obligations.

**Context.** Leaves are read in a context the caller passes (`ctx`: an `Env`, a `Store`, a z3
nothing, a `Script` collecting declarations, a prover model), so every algebra is one
module-level object: nothing is allocated per evaluation but the memo.

**Short-circuit.** `and_` and `or_` receive the left value and a *thunk* for the right one: the
concrete algebra calls it only when the left value does not decide (`fail` on a division by zero
in the right operand must not be reached when the left one decides), strict algebras always call
it, term algebras call it and build the node.

**Sharing.** Terms are DAGs (`x = x + x` doubles the tree, not the DAG, syntax.py): a compound
arithmetic node is evaluated once per call, memoised by `id(node)` while the root, which keeps
every node alive, is being evaluated. Algebra values are never None (the memo's "absent").
Boolean nodes are not memoised: formulas come from program conditions, which are trees.

**Arrays** (seed 003 §5, functional view): an array expression (`ArrayVar`, `Update`) folds to
the algebra's array value through `array`, `update`, and `a[i]` through `select`; `fold_a`
takes both kinds, so the statement `a[i] = e`, which assigns `Update(a, i, e)` to `a`, is
folded like any assignment. **Objects** (seed 003 §4) need no operation of their own: a field
is an array variable (its global map, `.f`), `x.f` a `select`, `x.f = e` an `update`, `nil` the
integer 0; what is partial about them (a field of nil) is the algebras' business, as a division
by zero is.

**Binders.** A bounded quantifier (X-Q1) folds its bounds in `ctx`, then hands `quantifier`
its body as a function of the bound variable's value: the fold evaluates the body in
`bind(ctx, k, v)`, with a memo of its own (its nodes mean something else under each binding).
The concrete algebra calls it once per value of the range, a term algebra once with the
variable itself.

**Adding an operator** is one case in `_fold_a` or `_fold_b` and one method in `Algebra` and in
each algebra above (docs/architecture.md, "Adding an expression operator").
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, TypeVar

from symcert.lang.syntax import (
    Add, AExpr, And, ArrayExpr, ArrayVar, BExpr, Bool, Cmp, Div, Int, Mod, Mul, Neg, Nil, Not,
    Or, Quant, Select, Sub, Update, Var,
)

C = TypeVar("C", contravariant=True)
A = TypeVar("A")
B = TypeVar("B")


class Algebra(Protocol[C, A, B]):
    """An interpretation of IMP's expression operators: arithmetic values `A`, boolean values
    `B`, leaves read in a context `C`."""

    def integer(self, ctx: C, value: int) -> A:
        """An integer literal."""
        ...

    def var(self, ctx: C, name: str) -> A:
        """A variable."""
        ...

    def neg(self, a: A) -> A:
        """`-a`."""
        ...

    def add(self, a: A, b: A) -> A:
        """`a + b`."""
        ...

    def sub(self, a: A, b: A) -> A:
        """`a - b`."""
        ...

    def mul(self, a: A, b: A) -> A:
        """`a * b`."""
        ...

    def div(self, a: A, b: A) -> A:
        """`a / b`, Python's floor division (X-A1); a zero `b` is the algebra's to handle
        (the concrete one raises ZeroDivisionError, a term algebra builds the term)."""
        ...

    def mod(self, a: A, b: A) -> A:
        """`a % b`, with the sign of `b` (X-A1); a zero `b` as in `div`."""
        ...

    def array(self, ctx: C, name: str) -> A:
        """An array variable: the map ℤ → ℤ it names in `ctx` (seed 003 §5)."""
        ...

    def select(self, array: A, index: A) -> A:
        """`array[index]`."""
        ...

    def update(self, array: A, index: A, value: A) -> A:
        """`array` with the cell `index` set to `value` (B-A1)."""
        ...

    def cmp(self, op: str, a: A, b: A) -> B:
        """`a op b` for a comparison operator of `terms.COMPARE`."""
        ...

    def boolean(self, ctx: C, value: bool) -> B:
        """A boolean literal."""
        ...

    def not_(self, a: B) -> B:
        """`not a`."""
        ...

    def and_(self, a: B, b: Callable[[], B]) -> B:
        """`a and b`; `b()` evaluates the right operand."""
        ...

    def or_(self, a: B, b: Callable[[], B]) -> B:
        """`a or b`; `b()` evaluates the right operand."""
        ...

    def bind(self, ctx: C, name: str, value: A) -> C:
        """`ctx` with the variable `name` read as `value` (a quantifier's variable, X-Q1)."""
        ...

    def quantifier(self, universal: bool, name: str, lo: A, hi: A,
                   body: Callable[[A], B]) -> B:
        """`forall name in lo .. hi :: body` (`exists` when not `universal`), X-Q1: `body(v)`
        is the body's value with `name` read as `v` (the fold binds it with `bind`)."""
        ...


def bound(ctx: Callable[[str], Any], name: str, value: Any) -> Callable[[str], Any]:
    """`ctx` with `name` read as `value`: `bind` for the algebras whose context is a function
    from names (an `Env`, a store, a substitution)."""
    return lambda n: value if n == name else ctx(n)


def fold_a(algebra: Algebra[C, A, Any], ctx: C, e: AExpr | ArrayExpr,
           memo: dict[int, Any] | None = None) -> A:
    """The value of an arithmetic or array expression in `algebra`.

    :param memo: maps `id(node)` to its value; it may be shared between calls as long as every
        root folded with it stays alive (default: a fresh one).
    """
    kind = type(e)
    if kind is Int:
        return algebra.integer(ctx, e.value)  # type: ignore[union-attr]
    if kind is Var:
        return algebra.var(ctx, e.name)  # type: ignore[union-attr]
    return _fold_a(algebra, ctx, e, {} if memo is None else memo)


def fold_b(algebra: Algebra[C, Any, B], ctx: C, b: BExpr,
           memo: dict[int, Any] | None = None) -> B:
    """The value of a boolean expression in `algebra` (`memo` as in `fold_a`)."""
    return _fold_b(algebra, ctx, b, {} if memo is None else memo)


def fold(algebra: Algebra[C, A, B], ctx: C, e: AExpr | BExpr,
         memo: dict[int, Any] | None = None) -> A | B:
    """The value of an expression of either kind (`memo` as in `fold_a`)."""
    if is_formula(e):
        return fold_b(algebra, ctx, e, memo)  # type: ignore[arg-type]
    return fold_a(algebra, ctx, e, memo)  # type: ignore[arg-type]


def is_formula(e: AExpr | BExpr) -> bool:
    """Whether `e` is a boolean expression."""
    return isinstance(e, (Bool, Cmp, Not, And, Or, Quant))


# Dispatch on the exact class (the expression classes are final): cheaper than `match` on the
# engine's hottest path.

_BINARY = {Add: "add", Sub: "sub", Mul: "mul", Div: "div", Mod: "mod"}
"""Each binary arithmetic operator's method in `Algebra`."""


def _fold_a(algebra: Algebra[C, A, Any], ctx: C, e: AExpr | ArrayExpr,
            memo: dict[int, Any]) -> A:
    kind = type(e)
    if kind is Int:
        return algebra.integer(ctx, e.value)  # type: ignore[union-attr]
    if kind is Var:
        return algebra.var(ctx, e.name)  # type: ignore[union-attr]
    if kind is ArrayVar:
        return algebra.array(ctx, e.name)  # type: ignore[union-attr]
    if kind is Nil:  # the reference 0 (seed 003 §4): an integer in every algebra
        return algebra.integer(ctx, 0)
    key = id(e)
    value = memo.get(key)
    if value is not None:
        return value  # type: ignore[no-any-return]
    operation = _BINARY.get(kind)
    if operation is not None:
        value = getattr(algebra, operation)(
            _fold_a(algebra, ctx, e.left, memo),  # type: ignore[union-attr]
            _fold_a(algebra, ctx, e.right, memo))  # type: ignore[union-attr]
    elif kind is Neg:
        value = algebra.neg(_fold_a(algebra, ctx, e.operand, memo))  # type: ignore[union-attr]
    elif kind is Select:
        value = algebra.select(_fold_a(algebra, ctx, e.array, memo),  # type: ignore[union-attr]
                               _fold_a(algebra, ctx, e.index, memo))  # type: ignore[union-attr]
    elif kind is Update:
        value = algebra.update(_fold_a(algebra, ctx, e.array, memo),  # type: ignore[union-attr]
                               _fold_a(algebra, ctx, e.index, memo),  # type: ignore[union-attr]
                               _fold_a(algebra, ctx, e.value, memo))  # type: ignore[union-attr]
    else:
        raise TypeError(f"not an arithmetic expression: {e!r}")
    memo[key] = value
    return value  # type: ignore[no-any-return]


def _fold_b(algebra: Algebra[C, Any, B], ctx: C, b: BExpr, memo: dict[int, Any]) -> B:
    kind = type(b)
    if kind is Cmp:
        return algebra.cmp(b.op, _fold_a(algebra, ctx, b.left, memo),  # type: ignore[union-attr]
                           _fold_a(algebra, ctx, b.right, memo))  # type: ignore[union-attr]
    if kind is Not:
        return algebra.not_(_fold_b(algebra, ctx, b.operand, memo))  # type: ignore[union-attr]
    if kind is And:
        right = b.right  # type: ignore[union-attr]
        return algebra.and_(_fold_b(algebra, ctx, b.left, memo),  # type: ignore[union-attr]
                            lambda: _fold_b(algebra, ctx, right, memo))
    if kind is Or:
        right = b.right  # type: ignore[union-attr]
        return algebra.or_(_fold_b(algebra, ctx, b.left, memo),  # type: ignore[union-attr]
                           lambda: _fold_b(algebra, ctx, right, memo))
    if kind is Bool:
        return algebra.boolean(ctx, b.value)  # type: ignore[union-attr]
    if kind is Quant:  # X-Q1: the bounds once, then the body under each binding, memo apart
        q: Quant = b  # type: ignore[assignment]
        return algebra.quantifier(
            q.universal, q.var, _fold_a(algebra, ctx, q.lo, memo),
            _fold_a(algebra, ctx, q.hi, memo),
            lambda v: _fold_b(algebra, algebra.bind(ctx, q.var, v), q.body, {}))
    raise TypeError(f"not a boolean expression: {b!r}")
