# crosshair: off
# (candidates for `verify.guesses`, which checks them like its others)
"""Quantified loop invariants proposed cell-wise (X-Q2 with inference): the patterns a loop
that walks an array with a counter leaves over the cells it has passed, as Dafny's and Why3's
users write them and as data-driven inference of quantified invariants proposes them
(Garg et al., "ICE", CAV 2014; Fedyukovich et al., FreqHorn, FMCAD 2019, "prefix" and "suffix"
templates).

A loop whose body steps a counter `i` by one (`i = i + 1`, or `i = i - 1`) has passed the
cells from where `i` started up to `i - 1` (down to `i + 1`). Each candidate is a bounded
quantifier over that prefix (suffix), `k` the quantifier's variable:

- `a[k] == e(k)` for each write `a[i] = e` of the body, `e` read at `k` instead of `i`: a
  constant, an expression affine in `i`, a cell `b[i]` of another array (a copy);
- `a[k] <= m`, `a[k] >= m` and `exists k ... :: a[k] == m` for a variable `m` the body sets
  to `a[i]` (a running maximum or minimum);
- `a[k] <= a[k + 1]` for an array the body reads or writes at `i` (a sorted prefix).

The prefix starts at 0 or where the program sets `i` outside the loop. Nothing here is
trusted: `guesses.guess` keeps a candidate only if it holds at every sampled loop head, then
Houdini and the checks of inference decide, as for its other candidates.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from symcert.lang.annotations import loops
from symcert.lang.structure import levels, variables
from symcert.lang.syntax import (
    Add, AExpr, ArrayVar, Assign, BExpr, Cmp, Int, Quant, Select, Stmt, Sub, Update, Var, While,
)


def candidates(p: Stmt) -> dict[int, list[BExpr]]:
    """The quantified candidates of each loop (pre-order index) that steps a counter."""
    names = variables(p)
    k = next(f"k{n}" if n else "k" for n in range(len(names) + 1)
             if (f"k{n}" if n else "k") not in names)
    out: dict[int, list[BExpr]] = {}
    for index, w in enumerate(loops(p)):
        inner = [n for level in levels(w.body) for n in level]
        for i, step in _counters(inner):
            starts = _starts(p, w, i)
            out.setdefault(index, []).extend(
                c for start in starts for c in _cells(inner, i, k, start, step))
    return {index: list(dict.fromkeys(cs)) for index, cs in out.items()}


def _counters(nodes: list[Any]) -> list[tuple[str, int]]:
    """The variables the body steps by `+1` or `-1`, with the step."""
    out = []
    for n in nodes:
        if isinstance(n, Assign) and isinstance(n.expr, (Add, Sub)) \
                and n.expr.left == Var(n.name) and n.expr.right == Int(1):
            out.append((n.name, 1 if isinstance(n.expr, Add) else -1))
    return list(dict.fromkeys(out))


def _starts(p: Stmt, w: While, i: str) -> list[AExpr]:
    """Where the prefix may start: 0, and what `p` assigns to `i` outside the loop `w` (an
    expression that does not read `i`)."""
    inside = {id(n) for level in levels(w) for n in level}
    found: list[AExpr] = [Int(0)]
    for level in levels(p):
        for n in level:
            if isinstance(n, Assign) and n.name == i and id(n) not in inside \
                    and i not in variables(n.expr):
                found.append(n.expr)
    return list(dict.fromkeys(found))


def _cells(nodes: list[Any], i: str, k: str, start: AExpr, step: int) -> list[BExpr]:
    """The candidates over the cells passed from `start`, `k` their variable."""
    def passed(body: BExpr, shorter: int = 0) -> Quant:
        if step > 0:
            return Quant(True, k, start, Sub(Var(i), Int(1 + shorter)), body)
        return Quant(True, k, Add(Var(i), Int(1 + shorter)), start, body)

    at_i, at_k = Var(i), Var(k)
    out: list[BExpr] = []
    arrays: list[str] = []
    for n in nodes:
        if isinstance(n, Assign) and isinstance(n.expr, Update) and n.expr.index == at_i:
            out.append(passed(Cmp("==", Select(ArrayVar(n.name), at_k),
                                  _at(n.expr.value, i, k))))
            arrays.append(n.name)
        if isinstance(n, Select) and isinstance(n.array, ArrayVar) and n.index == at_i:
            arrays.append(n.array.name)
    for n in nodes:
        if isinstance(n, Assign) and isinstance(n.expr, Select) and n.expr.index == at_i \
                and isinstance(n.expr.array, ArrayVar):
            cell, m = Select(n.expr.array, at_k), Var(n.name)
            q = passed(Cmp("<=", cell, m))
            out += [q, replace(q, body=Cmp(">=", cell, m)),
                    replace(q, universal=False, body=Cmp("==", cell, m))]
    for a in dict.fromkeys(arrays):
        out.append(passed(Cmp("<=", Select(ArrayVar(a), at_k),
                              Select(ArrayVar(a), Add(at_k, Int(1)))), shorter=1))
    return out


def _at(e: Any, i: str, k: str) -> Any:
    """`e` with the variable `i` read as `k`."""
    if isinstance(e, Var):
        return Var(k) if e.name == i else e
    if not is_dataclass(e) or isinstance(e, (Int, ArrayVar)):
        return e
    changed = {f.name: _at(getattr(e, f.name), i, k) for f in fields(e)
               if f.compare and is_dataclass(getattr(e, f.name))}
    return replace(e, **changed)
