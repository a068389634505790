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
    if ":" in x:
        return quote(x.split(":", 1)[1])
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
    refs = {x for x in names if not x.startswith("return ")
            and kinds.fixed.get(kinds.find(x), (INT,))[0] == REF}
    globals_ = {x for x in names if ":" not in x}
    return frozenset({x for x in refs if ":" not in x}  # a local's bare name, unless a global
                     | {x.split(":", 1)[1] for x in refs if ":" in x} - globals_)


@dataclass(frozen=True)
class _Scope:
    """A name as the kinds know it: a local of procedure `proc` is `proc:x` (locals of
    different procedures, and a local and a global, may have different kinds)."""

    proc: str | None
    locals: frozenset[str]

    def __call__(self, x: str) -> str:
        return f"{self.proc}:{x}" if self.proc is not None and x in self.locals else x


def _at(node: object) -> Pos:
    return getattr(node, "pos", None) or Pos(1, 1)


def _stmt(kinds: _Kinds, s: Stmt, proc: str | None, procs: dict[str, object]) -> None:
    own = procs[proc].locals if proc is not None else frozenset()  # type: ignore[attr-defined]
    ren = _Scope(proc, own)
    todo = [s]
    while todo:
        s = todo.pop()
        where = _at(s)
        match s:
            case Seq(first, second):
                todo += (second, first)
            case If(b, p1, p2):
                _bool(kinds, b, ren)
                todo += (p2, p1)
            case While(b, body, invariants=clauses):
                for c in (b, *clauses):
                    _bool(kinds, c, ren)
                todo.append(body)
            case Assert(b) | Assume(b):
                _bool(kinds, b, ren)
            case New(x, at=at):  # `x = new C`, or `at.f = new C` (x the map `.f`)
                if at is not None:
                    _require(kinds, at, REF, ren)
                kinds.unify(("", ren(x), where), (REF, None, where), where)
            case Assign(x, e):
                written = array_write(s)
                if written is None:
                    kinds.unify(("", ren(x), where), _expr(kinds, e, ren), where)  # type: ignore[arg-type]
                elif is_field(x):
                    _require(kinds, written.index, REF, ren)
                    kinds.unify(("", x, where), _expr(kinds, written.value, ren),
                                _at(written.value))
                else:
                    _require(kinds, written.index, INT, ren)
                    _require(kinds, written.value, INT, ren)
            case Return(e) if proc is not None:
                kinds.unify(("", f"return {proc}", where), _expr(kinds, e, ren), where)
            case Call(name, args, target):
                callee = procs[name]
                for param, arg in zip(callee.params, args):  # type: ignore[attr-defined]
                    kinds.unify(("", _Scope(name, callee.locals)(param), _at(arg)),  # type: ignore[attr-defined]
                                _expr(kinds, arg, ren), _at(arg))
                if target is not None:
                    kinds.unify(("", ren(target), where), ("", f"return {name}", where), where)


def _bool(kinds: _Kinds, b: BExpr, ren: _Scope) -> None:
    match b:
        case Cmp(op, left, right):
            if op in ("==", "!="):
                kinds.unify(_expr(kinds, left, ren), _expr(kinds, right, ren), _at(b))
            else:
                _require(kinds, left, INT, ren)
                _require(kinds, right, INT, ren)
        case Not(a):
            _bool(kinds, a, ren)
        case And(l, r) | Or(l, r):
            _bool(kinds, l, ren)
            _bool(kinds, r, ren)
        case Bool():
            pass


def _require(kinds: _Kinds, e: AExpr, kind: str, ren: _Scope) -> None:
    kinds.unify(_expr(kinds, e, ren), (kind, None, _at(e)), _at(e))


def _expr(kinds: _Kinds, e: AExpr, ren: _Scope) -> Kind:
    where = _at(e)
    match e:
        case Var(x):
            return "", ren(x), where
        case Nil():
            return REF, None, where
        case Int():
            return INT, None, where
        case Select(a, i) if field_of(a) is not None:
            _require(kinds, i, REF, ren)
            return "", a.name, where  # type: ignore[union-attr]
        case Select(_, i):
            _require(kinds, i, INT, ren)
            return INT, None, where
        case Neg(a):
            _require(kinds, a, INT, ren)
            return INT, None, where
        case Add(l, r) | Sub(l, r) | Mul(l, r) | Div(l, r) | Mod(l, r):
            _require(kinds, l, INT, ren)
            _require(kinds, r, INT, ren)
            return INT, None, where
    raise TypeError(f"not an arithmetic expression: {e!r}")

