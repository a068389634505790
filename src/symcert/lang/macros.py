"""PyWiSE's macros: statements with parameters, expanded where they are called, at parse time.

A macro's body mentions only its parameters; an argument replaces each read of its parameter
(shared, not copied), and a parameter the body assigns, or uses as an array (seed 003 §5), must
be given a variable.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from symcert.lang.errors import SourceError, cut, quote
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
    parameter or a body nested deeper than `max_depth` is a SourceError."""
    if len(set(params)) != len(params):
        raise SourceError(f"macro {quote(name)} has a repeated parameter", where)
    reads: Counter[str] = Counter()
    assigned = set()
    count = 0
    for depth, level in enumerate(levels(body), 1):
        if depth > max_depth:
            raise SourceError(too_deep, level[0].pos or where)
        count += len(level)
        for node in level:
            if isinstance(node, Var):
                reads[node.name] += 1
            elif isinstance(node, ArrayVar):
                assigned.add(node.name)
            elif (isinstance(node, (Assign, New))
                  or isinstance(node, Call) and node.target is not None):
                assigned.add(node.target if isinstance(node, Call) else node.name)
    stray = sorted((assigned | reads.keys()) - set(params))
    if stray:
        raise SourceError(f"macro {quote(name)} uses {quote(stray[0])}, which is not one "
                          f"of its parameters ({cut(', '.join(params) or 'none', 80)})", where)
    return Macro(tuple(params), body, count, tuple(reads[p] for p in params))


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
                              f"be a variable, not {shown}", where)
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
