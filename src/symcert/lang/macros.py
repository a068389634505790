"""PyWiSE's macros: statements with parameters, expanded where they are called, at parse time.

A macro's body mentions only its parameters; an argument replaces each read of its parameter
(shared, not copied), and a parameter the body assigns, or uses as an array (seed 003 §5), must
be given a variable.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Callable

from symcert.lang.errors import KindError, NamingError, SourceError, cut, quote
from symcert.lang.structure import children, levels, size, with_children
from symcert.lang.syntax import (
    AExpr, ArrayVar, Assign, Bool, Call, Fail, Int, New, Pos, Seq, Skip, Stmt, Var, seq_of,
    spine,
)


@dataclass(frozen=True, slots=True)
class Macro:
    """A macro: `size` is the body's node count and `reads[i]` how often it reads parameter i,
    which give an expansion's size before it is built."""

    params: tuple[str, ...]
    body: Stmt
    size: int
    reads: tuple[int, ...]


def define(name: str, params: list[str], body: Stmt, where: Pos, max_depth: int,
           too_deep: str) -> Macro:
    """The macro `name`, declared at `where`; a repeated parameter, a variable that is not a
    parameter (a name error at its first use) or a body nested deeper than `max_depth` is a
    SourceError."""
    if len(set(params)) != len(params):
        raise SourceError(f"macro {quote(name)} has a repeated parameter", where)
    reads: Counter[str] = Counter()
    assigned = set()
    first: dict[str, Pos | None] = {}
    count = 0
    for depth, level in enumerate(levels(body), 1):
        if depth > max_depth:
            raise SourceError(too_deep, level[0].pos or where)
        count += len(level)
        for node in level:
            used = None
            if isinstance(node, Var):
                reads[node.name] += 1
                used = node.name
            elif isinstance(node, ArrayVar):
                used = node.name
            elif (isinstance(node, (Assign, New))
                  or isinstance(node, Call) and node.target is not None):
                used = node.target if isinstance(node, Call) else node.name
            if used is not None:
                first.setdefault(used, node.pos)
                if not isinstance(node, Var):
                    assigned.add(used)
    stray = sorted((assigned | reads.keys()) - set(params), key=_place(first))
    if stray:
        raise SourceError(f"macro {quote(name)} uses {quote(stray[0])}, which is not one "
                          f"of its parameters ({cut(', '.join(params) or 'none', 80)})",
                          first[stray[0]] or where, NamingError)
    return Macro(tuple(params), body, count, tuple(reads[p] for p in params))


def _place(first: dict[str, Pos | None]) -> Callable[[str], tuple[int, int, int, str]]:
    """The sort key that puts names in the order of their first use in the source."""
    def key(x: str) -> tuple[int, int, int, str]:
        p = first[x]
        return (0, p.line, p.column, x) if p is not None else (1, 0, 0, x)
    return key


def _start(e: AExpr) -> Pos | None:
    """Where `e` begins in the source: the leftmost position of its nodes (an operator's node
    is placed at the operator)."""
    places = [p for level in levels(e) for n in level if (p := getattr(n, "pos", None))]
    return min(places, key=lambda p: (p.line, p.column), default=None)


def growth(macro: Macro, args: list[AExpr]) -> int:
    """How many nodes expanding `macro` with `args` adds to the program."""
    sizes = [size(a) for a in args]
    return macro.size + sum(n * (s - 1) for n, s in zip(macro.reads, sizes)) - sum(sizes)


def expand(macro: Macro, args: list[AExpr], name: str, where: Pos) -> Stmt:
    """The body of macro `name` with each parameter replaced by its argument (shared, not
    copied); `where` is the call."""
    table = dict(zip(macro.params, args))

    def target(x: str, use: str = "assigns its parameter") -> str:
        arg = table[x]
        if not isinstance(arg, Var):
            shown = quote(arg) if size(arg) <= 50 else "an expression"
            raise SourceError(f"macro {quote(name)} {use} {quote(x)}, so its argument must "
                              f"be a variable, not {shown}", _start(arg) or where, KindError)
        return arg.name

    def sub(node: Any) -> Any:
        match node:
            case Var(x):
                return table[x]
            case ArrayVar(x):
                return replace(node, name=target(x, "uses as an array its parameter"))
            case Int() | Bool() | Skip() | Fail():
                return node
            case Seq():
                return seq_of([sub(s) for s in spine(node)])
            case Assign(x) | New(x):  # `x.f = new C` has the map `.f`: rejected by `define`
                node = replace(node, name=target(x))
            case Call(target=str(x)):
                node = replace(node, target=target(x))
        return with_children(node, [sub(c) for c in children(node)])

    return sub(macro.body)
