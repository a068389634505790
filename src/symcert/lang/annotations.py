"""Annotations: loop invariants (`while b invariant I do S od`) and procedures' contracts
(`proc f(x) requires P ensures Q begin S end`), their static rules, and what a loop's body may
write, the havoc set of the invariant transition (T-I1).

An annotation is total: it divides only by nonzero literals and reads no field (a field of nil
fails), so checking it never fails by itself; calls are statements, never expressions, so no
annotation can call a procedure. `result` names the value a procedure returns and may appear
only in its `ensures`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from symcert.lang.errors import SourceError, quote
from symcert.lang.structure import children
from symcert.lang.syntax import (
    ALLOC, DIVISIONS, And, ArrayVar, Assign, Await, BExpr, Bool, Call, Cmp, Get, If, Int, New,
    Node, Pos, Proc, Seq, Spawn, Stmt, Var, While,
    array_write, field_of, operands, seq_of, spine,
)

if TYPE_CHECKING:
    from symcert.lang.syntax import Procedures

RESULT = "result"
"""The name of a procedure's returned value in its `ensures`."""


def contract(parts: list[object]) -> dict[str, BExpr]:
    """The clauses of a declaration's parts (the parser's children) after its keywords
    `requires` and `ensures`, by keyword: tokens of those types (a parameter may be named
    `requires`: its token is a NAME)."""
    return {str(t): parts[i + 1] for i, t in enumerate(parts)  # type: ignore[misc]
            if getattr(t, "type", None) in ("REQUIRES", "ENSURES")}


def clauses(main: Stmt, procs: Procedures) -> Iterator[tuple[str, BExpr]]:
    """Every annotation of the program, with its kind: `invariant`, `requires`, `ensures`."""
    for root in [main, *(q.body for q in procs.values())]:
        for loop in loops(root):
            for i in loop.invariants:
                yield "invariant", i
    for q in procs.values():
        if q.requires is not None:
            yield "requires", q.requires
        if q.ensures is not None:
            yield "ensures", q.ensures


def loops(root: Stmt) -> Iterator[While]:
    """Every `while` of `root`, nested ones included, in pre-order (a loop before the loops of
    its body, in the order of the text): a loop's index in this order is how inferred
    invariants name it (`solver.horn`, `verify.inductive`)."""
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, While):
            yield node
        if not isinstance(node, (Var, Int)):
            todo.extend(reversed(children(node)))


def with_invariants(s: Stmt, by_node: Mapping[int, BExpr]) -> Stmt:
    """`s` with each loop whose node's `id` `by_node` names given that invariant (in place of
    its own): one level of recursion per nesting of statements, a sequence's spine walked in
    a loop."""
    if isinstance(s, Seq):
        return seq_of([with_invariants(t, by_node) for t in spine(s)])
    if isinstance(s, If):
        return replace(s, then_=with_invariants(s.then_, by_node),
                       else_=with_invariants(s.else_, by_node))
    if isinstance(s, While):
        found = by_node.get(id(s))
        body = with_invariants(s.body, by_node)
        return replace(s, body=body, invariants=s.invariants if found is None else (found,))
    return s


def filled(whiles: Sequence[While], proposed: Mapping[int, BExpr]) -> dict[int, BExpr]:
    """The invariant of every loop of `whiles` (by index) a check of a program with proposed
    invariants reads (T-I2): a written invariant as written, a proposal where none is written
    (a proposal for an annotated loop is ignored: a user's annotation is never replaced or
    strengthened)."""
    out = {k: inv for k, inv in proposed.items() if k < len(whiles) and not whiles[k].invariants}
    out.update((k, w.invariant()) for k, w in enumerate(whiles) if w.invariants)
    return out


def unwritten(whiles: Sequence[While], proposed: Mapping[int, BExpr]) -> dict[int, BExpr]:
    """The proposals of `proposed` for the loops of `whiles` that carry no written invariant:
    what inference adds to the program."""
    return {k: inv for k, inv in proposed.items() if k < len(whiles) and not whiles[k].invariants}


def filled_contract(q: Proc, proposed: tuple[BExpr, BExpr] | None) -> tuple[BExpr, BExpr]:
    """The contract of `q` a check reads: its written `requires` and `ensures` as written, the
    proposal's (else `true`) for a clause not written."""
    pre, post = proposed if proposed is not None else (Bool(True), Bool(True))
    return (pre if q.requires is None else q.requires,
            post if q.ensures is None else q.ensures)


def check(main: Stmt, procs: Procedures) -> None:
    """The static rules of annotations (SourceError at the offending spot): each is total, and
    no procedure with an `ensures` has a parameter `result` (there it names the returned
    value; elsewhere `result` is an ordinary name, as Dafny's and JML's result designators
    are scoped)."""
    for kind, c in clauses(main, procs):
        where = _partial(c)
        if where is not None:
            raise SourceError(f"the `{kind}` clause must be "
                              "total: it divides by an expression that may be zero or reads a "
                              "field (which fails on nil) here", where)
    for q in procs.values():
        if RESULT in q.params and q.ensures is not None:
            raise SourceError(f"{quote(RESULT)} names a procedure's returned value in `ensures`"
                              "; it cannot be a parameter of a procedure with one",
                              q.pos or Pos(1, 1))


def _partial(e: Node) -> Pos | None:
    """Where `e` divides by something that may be zero or reads a field. A divisor is known
    nonzero when it is a nonzero literal or when a conjunct to the left of it in an `and`
    (evaluated first: `and` short-circuits) says so: `d != 0`, `d > 0`, `d < 0`, `0 < d`, ..."""
    todo: list[tuple[Node, frozenset[object]]] = [(e, frozenset())]
    while todo:
        node, nonzero = todo.pop()
        if type(node) in DIVISIONS:
            divisor = node.right  # type: ignore[union-attr]
            if not (isinstance(divisor, Int) and divisor.value != 0) and divisor not in nonzero:
                return node.pos or e.pos or Pos(1, 1)
        if isinstance(node, ArrayVar) and field_of(node) is not None:
            return node.pos or e.pos or Pos(1, 1)
        if isinstance(node, And):
            todo += [(node.left, nonzero), (node.right, nonzero | _nonzero(node.left))]
        else:
            todo.extend((o, nonzero) for o in operands(node))  # type: ignore[arg-type]
    return None


def _nonzero(b: Node) -> frozenset[object]:
    """The expressions the conjuncts of `b` state to be nonzero."""
    if isinstance(b, And):
        return _nonzero(b.left) | _nonzero(b.right)
    if isinstance(b, Cmp) and b.op in ("!=", "<", ">"):
        if b.right == Int(0):
            return frozenset({b.left})
        if b.left == Int(0):
            return frozenset({b.right})
    return frozenset()


@dataclass(frozen=True, slots=True)
class Written:
    """What a statement may write (T-I1's havoc set): `variables` assigned (in the scope they
    are assigned in), `arrays` with a cell written (fields' maps `.f` included, and the counter
    of new objects `ALLOC`), and `calls`, whether it calls a procedure (which may write any
    global its program's procedures write: `globals_written`)."""

    variables: frozenset[str]
    arrays: frozenset[str]
    calls: bool

    def __str__(self) -> str:
        shown = sorted(self.variables) + [f"{a}[*]" for a in sorted(self.arrays)]
        return ", ".join(shown) + (" and the globals its calls write" if self.calls else "")


def written(body: Stmt) -> Written:
    """The variables, arrays and fields' maps `body` may write, computed on its syntax (an
    over-approximation: every assignment on any path, nested loops included)."""
    names: set[str] = set()
    arrays: set[str] = set()
    calls = False
    todo: list[Stmt] = [body]
    while todo:
        s = todo.pop()
        match s:
            case Seq():
                todo.extend(spine(s))
            case Assign(x):
                (arrays if array_write(s) is not None else names).add(x)
            case New(x, _, maps, at=at):
                names.add(ALLOC)
                arrays.update(maps)
                (names if at is None else arrays).add(x)
            case Call(target=target):
                calls = True
                if target is not None:
                    names.add(target)
            case Get(target=x) | Spawn(target=str() as x):  # threads: `x = get f`, `f = spawn p()`
                names.add(x)
            case Await(_, inner):  # its atomic body
                todo.append(inner)
            case If(_, s1, s2):
                todo += (s1, s2)
            case While(_, inner):
                todo.append(inner)
    return Written(frozenset(names), frozenset(arrays), calls)


def globals_written(procs: Procedures) -> frozenset[str]:
    """The globals (variables and arrays) any procedure of the program may write."""
    out: set[str] = set()
    for q in procs.values():
        w = written(q.body)
        out |= (w.variables | w.arrays) - q.locals
    return frozenset(out)
