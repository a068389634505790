"""The structure of IMP programs: direct subterms of any node (for generic walks, such as the
campaign's shrinker), the variables a program mentions, and its inputs (the variables it may read
before assigning them)."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Iterator, Sequence, get_args

from symcert.lang.syntax import (
    AExpr,
    ArrayExpr,
    ArrayVar,
    Assert,
    Assign,
    Assume,
    Await,
    BExpr,
    Bool,
    Call,
    Fail,
    Get,
    If,
    Int,
    New,
    Node,
    Return,
    Select,
    Seq,
    Skip,
    Spawn,
    Stmt,
    Update,
    Quant,
    Var,
    While,
    operands,
    spine,
)


_NODES = frozenset(get_args(AExpr) + get_args(BExpr) + get_args(ArrayExpr) + get_args(Stmt))


def children(n: Node) -> tuple[Node, ...]:
    """The direct subterms of a node, in field order: an expression's operands, a statement's
    condition, expression and sub-statements, a call's arguments (none for leaves)."""
    if isinstance(n, (Call, Spawn)):
        return n.args
    if isinstance(n, While):  # and the invariant's clauses
        return (n.cond, n.body, *n.invariants)
    return tuple(getattr(n, f) for f in _child_fields(n))


def with_children(n: Node, new: Sequence[Node]) -> Node:
    """`n` with its direct subterms replaced by `new`, given in `children`'s order."""
    if isinstance(n, (Call, Spawn)):
        return replace(n, args=tuple(new))  # type: ignore[arg-type]
    if isinstance(n, While):
        return replace(n, cond=new[0], body=new[1], invariants=tuple(new[2:]))  # type: ignore[arg-type]
    return replace(n, **dict(zip(_child_fields(n), new)))


def levels(root: Any) -> Iterator[list[Any]]:
    """The nodes of the tree `root` level by level, from 1 (a shared node once per
    occurrence); the statements of a sequence are on the sequence's level."""
    level = [root]
    while level:
        below: list[Any] = []
        for node in level:  # a sequence appends its two parts to the level being walked
            if isinstance(node, Seq):
                level += (node.first, node.second)
            else:
                below += children(node)
        yield level
        level = below


def size(root: Any) -> int:
    """The number of nodes of the tree `root`."""
    return sum(map(len, levels(root)))


_COMPARED: dict[type, tuple[str, ...]] = {}
"""Each node class's fields that take part in equality, in order (found once per class)."""


def _child_fields(n: Node) -> tuple[str, ...]:
    """The names of the fields holding `n`'s direct subterms (positions and the `origin` of a
    `fail` are not subterms: they take no part in equality)."""
    kind = type(n)
    names = _COMPARED.get(kind)
    if names is None:
        names = _COMPARED[kind] = tuple(f.name for f in fields(n) if f.init and f.compare)
    return tuple(f for f in names if type(getattr(n, f)) in _NODES)


def variables(p: Node) -> frozenset[str]:
    """Every variable a program or expression reads or assigns (a call: and every global of its
    program's procedures)."""
    return _variables(p, True)


def _variables(p: Node, callees: bool) -> frozenset[str]:
    found: set[str] = set()
    todo: list[object] = [p]
    seen: set[int] = set()  # shared subterms are visited once
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        match node:
            case Var(x) | ArrayVar(x):
                found.add(x)
            case Assign(x, e):
                found.add(x)
                todo.append(e)
            case New(x, _, maps, at=at):  # and the fields' maps it writes (seed 003 §4)
                found.update((x, *maps))
                todo.extend([at] if at is not None else [])
            case Call(_, args, target):  # and the globals its program's procedures use
                found.update([target] if target is not None else [])
                found.update(_globals(node) if callees else ())
                todo.extend(args)
            case Spawn(_, args, target):  # threads (seed 003 §5), as a call
                found.update([target] if target is not None else [])
                found.update(_globals(node) if callees else ())
                todo.extend(args)
            case Get(x, f):
                found.update((x, f))
            case Await(a, b):
                todo.extend((a, b))
            case Return(e):
                todo.append(e)
            case Int() | Bool() | Skip() | Fail():
                pass
            case Assert(a) | Assume(a):
                todo.append(a)
            case While(a, b, invariants=clauses):
                todo.extend((a, b, *clauses))
            case If(c, a, b):
                todo.extend((c, a, b))
            case Seq():
                todo.extend(spine(node))
            case Quant(_, k, lo, hi, body):  # its variable is bound, no program variable
                found.update(_variables(body, callees) - {k})
                todo.extend((lo, hi))
            case _:
                todo.extend(operands(node))  # an operator
    return frozenset(found)


def reads(roots: Sequence[Node]) -> list[tuple[str, AExpr]]:
    """The cells of input arrays that the terms `roots` read (seed 003 §5): for each `a[i]`
    (`Select`), the name of the input array at the bottom of `a`'s update sequence and the
    index `i`; shared subterms are visited once."""
    found: list[tuple[str, AExpr]] = []
    todo: list[object] = list(roots)
    seen: set[int] = set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Select):
            base = node.array
            while isinstance(base, Update):
                base = base.array
            found.append((base.name, node.index))
        todo.extend(operands(node))  # type: ignore[arg-type]
    return found


def inputs(p: Stmt) -> frozenset[str]:
    """The variables whose initial value `p` may read: read on some path before any assignment."""
    return _inputs(p, frozenset())[0]


def _inputs(p: Stmt, assigned: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(variables read before assigned, variables surely assigned after `p`)."""
    read: frozenset[str] = frozenset()
    for s in spine(p):
        match s:
            case Assign(x, e):
                read |= variables(e) - assigned
                assigned |= {x}
            case New(x, _, maps, at=at):  # its fields' maps keep their other cells
                written = frozenset() if at is None else variables(at) | {x}  # `at.f = new C`
                read |= (frozenset(maps) | written) - assigned
                assigned |= {x}
            case Assert(b) | Assume(b) | Return(b):
                read |= variables(b) - assigned
            case Call(_, args, target):  # the callees may read any global they mention
                read |= (frozenset().union(*map(variables, args)) | _globals(s)) - assigned
                assigned |= {target} if target is not None else set()
            case Spawn(_, args, target):  # a future holds no input: it starts as 0
                read |= (frozenset().union(*map(variables, args)) | _globals(s)) - assigned
                assigned |= {target} if target is not None else set()
            case Get(x, _):
                assigned |= {x}
            case Await(b, body):
                read |= variables(b) - assigned
                r, assigned = _inputs(body, assigned)
                read |= r
            case If(b, p1, p2):
                r1, a1 = _inputs(p1, assigned)
                r2, a2 = _inputs(p2, assigned)
                read |= (variables(b) - assigned) | r1 | r2
                assigned = a1 & a2
            case While(b, body, invariants=clauses):
                read |= (frozenset().union(variables(b), *map(variables, clauses)) - assigned
                         | _inputs(body, assigned)[0])
            case Seq():  # a sequence nested as the first statement of another
                r, assigned = _inputs(s, assigned)
                read |= r
    return read, assigned



def _globals(c: Call | Spawn) -> frozenset[str]:
    """The global variables the procedures of `c`'s program mention (seed 003 §3): in their
    bodies and in their `requires`, which every call checks."""
    return frozenset().union(*(
        (_variables(q.body, False) | (_variables(q.requires, False) if q.requires is not None
                                      else frozenset())) - q.locals for q in c.procs.values()))
