"""Static kinds of objects (seed 003 §4): each variable, field and procedure value holds
integers or references, never both.

References are inferred, not declared: `nil` and `new C` are references, the object of a field
access `x.f` is one, the two sides of `==` and `!=` have one kind, an assignment gives its
target the kind of its value, a call's arguments the kinds of the parameters and its target
the kind of the procedure's `return`s; arithmetic, orderings, array indices and cells are
integers. Names are unified program-wide (as `procedures.check_kinds` does for arrays); a name
nothing constrains is an integer. Mixing the two is a SourceError at the use that mixes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from symcert.lang.errors import KindError, SourceError, quote
from symcert.lang.expressions import field_of, is_field
from symcert.lang.syntax import (
    Add, AExpr, And, Assert, Assign, Assume, BExpr, Bool, Call, Cmp, Div, If, Int, Mod, Mul, Neg,
    New, Nil, Not, Or, Pos, Return, Select, Seq, Stmt, Sub, Var, While, array_write,
)

INT = "an integer"
REF = "a reference"

Kind = tuple[str, str | None, Pos]
"""What an expression's kind is known to be: `(kind, None, where)` when fixed, or
`("", name, where)` when it is the kind of a name (a variable, a field's map, a procedure's
value)."""


@dataclass
class _Kinds:
    """Union-find over names, each class with the kind it was fixed to and where."""

    parent: dict[str, str] = field(default_factory=dict)
    fixed: dict[str, tuple[str, Pos]] = field(default_factory=dict)

    def find(self, x: str) -> str:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def kind(self, k: Kind) -> tuple[str, Pos] | None:
        """The kind `k` stands for, and where it was fixed; None while unknown."""
        return (k[0], k[2]) if k[1] is None else self.fixed.get(self.find(k[1]))

    def unify(self, a: Kind, b: Kind, where: Pos) -> None:
        """Make `a` and `b` one kind (SourceError when they are two)."""
        ka, kb = self.kind(a), self.kind(b)
        if ka is not None and kb is not None and ka[0] != kb[0]:
            raise SourceError(_mixed(a, ka, kb[0]) if b[1] is None or a[1] is not None
                              else _mixed(b, kb, ka[0]), where, KindError)
        if a[1] is not None and b[1] is not None:
            ra, rb = self.find(a[1]), self.find(b[1])
            if ra != rb:
                self.parent[ra] = rb
                if ka is not None:
                    self.fixed[rb] = ka
        elif a[1] is not None or b[1] is not None:
            name, known = (a[1], kb) if a[1] is not None else (b[1], ka)
            if known is not None:
                self.fixed.setdefault(self.find(name), known)  # type: ignore[arg-type]


def _mixed(k: Kind, known: tuple[str, Pos], wanted: str) -> str:
    what = _name(k[1]) if k[1] is not None else "this value"
    return (f"{what} is {known[0]} (at {known[1].line}:{known[1].column}) but is used here as "
            f"{wanted}; a value is an integer or a reference, never both")


def _name(x: str) -> str:
    if is_field(x):
        return f"field {quote(x[1:])}"
    if x.startswith("return "):
        return f"the value of procedure {quote(x[7:])}"
    return quote(x)


def references(main: Stmt, procs: dict[str, object]) -> frozenset[str]:
    """The names of references of a program (variables and fields' maps `.f`), checked: a name
    used as both an integer and a reference is a SourceError."""
    kinds = _Kinds()
    roots: list[tuple[Stmt, str | None]] = [(q.body, q.name) for q in procs.values()]  # type: ignore[attr-defined]
    for body, name in roots + [(main, None)]:
        _stmt(kinds, body, name, procs)
    names = set(kinds.parent) | set(kinds.fixed)
    return frozenset(x for x in names if not x.startswith("return ")
                     and kinds.fixed.get(kinds.find(x), (INT,))[0] == REF)


def _at(node: object) -> Pos:
    return getattr(node, "pos", None) or Pos(1, 1)


def _stmt(kinds: _Kinds, s: Stmt, proc: str | None, procs: dict[str, object]) -> None:
    todo = [s]
    while todo:
        s = todo.pop()
        where = _at(s)
        match s:
            case Seq(first, second):
                todo += (second, first)
            case If(b, p1, p2):
                _bool(kinds, b)
                todo += (p2, p1)
            case While(b, body, invariants=clauses):
                for c in (b, *clauses):
                    _bool(kinds, c)
                todo.append(body)
            case Assert(b) | Assume(b):
                _bool(kinds, b)
            case New(x, at=at):  # `x = new C`, or `at.f = new C` (x the map `.f`)
                if at is not None:
                    _require(kinds, at, REF)
                kinds.unify(("", x, where), (REF, None, where), where)
            case Assign(x, e):
                written = array_write(s)
                if written is None:
                    kinds.unify(("", x, where), _expr(kinds, e), where)  # type: ignore[arg-type]
                elif is_field(x):
                    _require(kinds, written.index, REF)
                    kinds.unify(("", x, where), _expr(kinds, written.value), _at(written.value))
                else:
                    _require(kinds, written.index, INT)
                    _require(kinds, written.value, INT)
            case Return(e) if proc is not None:
                kinds.unify(("", f"return {proc}", where), _expr(kinds, e), where)
            case Call(name, args, target):
                callee = procs[name]
                for param, arg in zip(callee.params, args):  # type: ignore[attr-defined]
                    kinds.unify(("", param, _at(arg)), _expr(kinds, arg), _at(arg))
                if target is not None:
                    kinds.unify(("", target, where), ("", f"return {name}", where), where)


def _bool(kinds: _Kinds, b: BExpr) -> None:
    match b:
        case Cmp(op, left, right):
            if op in ("==", "!="):
                kinds.unify(_expr(kinds, left), _expr(kinds, right), _at(b))
            else:
                _require(kinds, left, INT)
                _require(kinds, right, INT)
        case Not(a):
            _bool(kinds, a)
        case And(l, r) | Or(l, r):
            _bool(kinds, l)
            _bool(kinds, r)
        case Bool():
            pass


def _require(kinds: _Kinds, e: AExpr, kind: str) -> None:
    kinds.unify(_expr(kinds, e), (kind, None, _at(e)), _at(e))


def _expr(kinds: _Kinds, e: AExpr) -> Kind:
    where = _at(e)
    match e:
        case Var(x):
            return "", x, where
        case Nil():
            return REF, None, where
        case Int():
            return INT, None, where
        case Select(a, i) if field_of(a) is not None:
            _require(kinds, i, REF)
            return "", a.name, where  # type: ignore[union-attr]
        case Select(_, i):
            _require(kinds, i, INT)
            return INT, None, where
        case Neg(a):
            _require(kinds, a, INT)
            return INT, None, where
        case Add(l, r) | Sub(l, r) | Mul(l, r) | Div(l, r) | Mod(l, r):
            _require(kinds, l, INT)
            _require(kinds, r, INT)
            return INT, None, where
    raise TypeError(f"not an arithmetic expression: {e!r}")

