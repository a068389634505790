"""The pieces every part of the C translation shares: a translated value (`Value`), the C
variables (`Scalar`, `Array`), and `Emitter`, which emits IMP statements before an expression's
value: temporaries, the checks of undefined behaviour (C-U1) and conversions (C-I2)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from pycparser import c_ast, c_generator  # type: ignore[import-untyped]

from symcert.lang.c.program import CPos
from symcert.lang.c.types import BOOL, DataModel, IntType, wrap
from symcert.lang.syntax import AExpr, And, Assert, Assign, BExpr, Bool, Cmp, If, Int, Pos, Stmt, Var

_SHOW = c_generator.CGenerator()


@dataclass(frozen=True, slots=True)
class Value:
    """A translated C expression: a pure IMP expression and the C type of its value."""

    expr: AExpr
    ty: IntType


@dataclass(frozen=True, slots=True)
class Scalar:
    """A C scalar variable: its IMP name, type, and the flag recording that it was assigned
    (a local declared without initialiser: reading it before is undefined, C-U1)."""

    imp: str
    ty: IntType
    flag: str | None = None
    glob: bool = False


@dataclass(frozen=True, slots=True)
class Condition:
    """A parameter of an inlined function that only tests it, bound to the caller's condition
    (translate.inline): reading it as a condition is that condition, with no `if` to make an
    int of it; `ty` is its parameter's type."""

    cond: BExpr
    ty: IntType


@dataclass(frozen=True, slots=True)
class Array:
    """A C array: its IMP array (global), element type and dimensions (IMP expressions: a
    literal, or the variable that holds a variable length)."""

    imp: str
    elem: IntType
    dims: tuple[AExpr, ...]
    param: bool = False
    """Bound to an array parameter (a pointer in C: `sizeof` is refused)."""


SHOWN_NODES = 40
"""The most nodes of an expression a message quotes whole."""


def show(node: Any) -> str:
    """The C text of a pycparser node (for messages); a larger one than SHOWN_NODES is named
    by its operator alone, so that quoting every subexpression of a long sum stays linear."""
    todo, seen = [node], 0
    while todo and seen <= SHOWN_NODES:
        seen += 1
        todo.extend(child for _, child in todo.pop().children())
    if seen > SHOWN_NODES:
        return f"… {getattr(node, 'op', type(node).__name__)} …"
    try:
        return str(_SHOW.visit(node))
    except Exception:
        return type(node).__name__


def pos_of(node: Any) -> Pos:
    c = getattr(node, "coord", None)
    return Pos(getattr(c, "line", 1) or 1, getattr(c, "column", 1) or 1)


def const_of(e: AExpr) -> int | None:
    """The value of `e` when it is a literal."""
    return e.value if isinstance(e, Int) else None

class Emitter:
    """Emission of IMP statements before a value; `out` is the list they go to."""

    model: DataModel
    filename: str
    out: list[Stmt]
    in_proc: bool
    _n: int
    taken: set[str]

    # provided by translate.Translation
    refuse: Callable[[Any, str], Exception]
    lookup: Callable[[str, Any], Scalar | Array | Condition]
    call: Callable[[c_ast.FuncCall, bool], Value | None]

    def fresh(self, stem: str) -> str:
        """A name no C variable of the program has, nor an earlier fresh one (`taken`)."""
        while True:
            self._n += 1
            name = f"__{stem}{self._n}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def emit(self, s: Stmt) -> None:
        self.out.append(s)

    def assign(self, name: str, e: AExpr, pos: Pos | None = None, local: bool = True) -> None:
        self.emit(Assign(name, e, pos, local=local and self.in_proc))

    def temp(self, e: AExpr, pos: Pos | None = None) -> AExpr:
        """`e` held in a fresh local (a literal or variable needs none)."""
        if isinstance(e, (Int, Var)):
            return e
        t = self.fresh("t")
        self.assign(t, e, pos)
        return Var(t, pos)

    def emitting(self, into: list[Stmt]) -> Iterator[None]:
        """Emit to `into` for the duration of a `with` (a context manager by contextlib)."""
        saved, self.out = self.out, into
        try:
            yield
        finally:
            self.out = saved

    def ub(self, ok: BExpr, node: Any, what: str) -> None:
        """Undefined behaviour unless `ok` (C-U1): an `assert` whose failure is not a bug."""
        if isinstance(ok, Bool) and ok.value:
            return
        self.emit(Assert(ok, self.cpos(node, f"{what} in `{show(node)}`", True)))

    def cpos(self, node: Any, event: str, undefined: bool = False) -> CPos:
        """The C position of `node` for a failing statement: what it means, and its file when
        that is an included header."""
        p = pos_of(node)
        file = getattr(getattr(node, "coord", None), "file", None) or ""
        other = file and os.path.abspath(file) != os.path.abspath(self.filename)
        return CPos(p.line, p.column, event, undefined, file if other else "")

    def in_range(self, e: AExpr, t: IntType) -> BExpr:
        v = const_of(e)
        if v is not None:
            return Bool(t.lo <= v <= t.hi)
        return And(Cmp("<=", Int(t.lo), e), Cmp("<=", e, Int(t.hi)))

    # -- conversions ----------------------------------------------------------------------

    def convert(self, v: Value, to: IntType, node: Any = None) -> Value:
        """`v` converted to `to` (C-I2)."""
        if to.contains(v.ty) and not (to.is_bool and not v.ty.is_bool):
            return Value(v.expr, to)
        if to.is_bool:
            return Value(self.as_int(Cmp("!=", v.expr, Int(0))), BOOL)
        return Value(wrap(v.expr, to), to)

    def as_int(self, c: BExpr) -> AExpr:
        """The int 1 or 0 of a condition (a fresh local set by an `if`)."""
        if isinstance(c, Bool):
            return Int(int(c.value))
        t = self.fresh("t")
        self.emit(If(c, Assign(t, Int(1), local=self.in_proc),
                     Assign(t, Int(0), local=self.in_proc)))
        return Var(t)

    def emit_to(self, into: list[Stmt]) -> Any:
        """Emit to `into` inside a `with` block."""
        return contextmanager(self.emitting)(into)
