"""The static rules of bounded quantifiers (X-Q1): `forall k in lo .. hi :: b` and
`exists k in lo .. hi :: b` are annotations' constructs.

- A quantifier stands only in `assert`, `assume`, `invariant`, `requires` and `ensures`; in the
  test of an `if`, a `while` or an `await` it is an error at the quantifier (an assignment's
  right side is arithmetic, so the grammar already keeps one out of it).
- Its variable is bound in its body only and is no variable of the program (none reads or
  assigns it, so "`k` may not be assigned" holds by construction), nor the variable of a
  quantifier around it. Then no substitution of a program's store, a wp's fresh values or
  seed 004's fresh names can capture it, and every algebra may name it by itself.
- It is total: its bounds and body divide only by nonzero literals and read no field (a field
  of nil fails), so evaluating it over its range never fails (core.guards adds nothing for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, get_args

from symcert.lang.errors import SourceError, quote
from symcert.lang.structure import children, variables
from symcert.lang.syntax import (
    DIVISIONS, ArrayVar, Await, BExpr, If, Int, Node, Pos, Quant, Stmt, While, field_of,
)

if TYPE_CHECKING:
    from symcert.lang.syntax import Procedures

PLACES = "`assert`, `assume`, `invariant`, `requires` and `ensures`"
"""Where a quantifier may stand."""


def quantifiers(root: Node) -> Iterator[Quant]:
    """Every quantifier in `root`, outermost first."""
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, Quant):
            yield node
        todo.extend(children(node))


def check(main: Stmt, procs: Procedures) -> None:
    """The static rules above (SourceError at the offending quantifier)."""
    roots: list[Node] = [main, *(q.body for q in procs.values())]
    roots += [c for q in procs.values() for c in (q.requires, q.ensures) if c is not None]
    names = frozenset().union(*map(variables, roots), *(q.locals for q in procs.values()))
    for root in roots:
        for node in _tests(root):
            found = next(quantifiers(node), None)
            if found is not None:
                raise SourceError(f"a quantifier may stand only in {PLACES}, not in the test of "
                                  "`if`, `while` or `await`", found.pos or Pos(1, 1))
        for q in quantifiers(root):
            _check_one(q, names)


def _tests(root: Node) -> Iterator[BExpr]:
    """The tests of the `if`, `while` and `await` statements of `root`."""
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, (If, While, Await)):
            yield node.cond
        if isinstance(node, _STATEMENTS):
            todo.extend(children(node))


_STATEMENTS = get_args(Stmt)


def _check_one(q: Quant, names: frozenset[str]) -> None:
    """A quantifier's variable is fresh, and the quantifier total."""
    where = q.pos or Pos(1, 1)
    if q.var in names:
        raise SourceError(f"the quantifier's variable {quote(q.var)} is also a variable of the "
                          "program; a bound variable needs a name of its own", where)
    for inner in quantifiers(q.body):
        if inner.var == q.var:
            raise SourceError(f"{quote(q.var)} is bound again inside a quantifier over it; "
                              "give the inner one another name", inner.pos or where)
    todo: list[Node] = [q]
    while todo:
        node = todo.pop()
        if type(node) in DIVISIONS:
            divisor = node.right  # type: ignore[union-attr]
            if not (isinstance(divisor, Int) and divisor.value != 0):
                raise SourceError("a quantifier must be total: it divides only by nonzero "
                                  "literals", node.pos or where)
        if isinstance(node, ArrayVar) and field_of(node) is not None:
            raise SourceError("a quantifier must be total: it reads no field (a field of nil "
                              "fails)", node.pos or where)
        todo.extend(children(node))
