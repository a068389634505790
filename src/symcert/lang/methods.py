"""Methods (seed 003 §4): classes with methods, the receiver `this`, bare fields, method calls
with dispatch by class, constructors and `e is C`; the parser's callbacks and static rules.

A method `m` of class `C` is the procedure `C.m` whose first parameter is `this` (a name no
procedure of the program can have, since a procedure's name has no dot), so seed 003 §4's call
and return rules are §3's over the stack of closures: the call binds `τ'(this) = e0θ` and the
parameters to the arguments, `return e` assigns `eθ` in the caller's closure (B-O1, B-O2). In a
method, a field `f` of its class named bare is `this.f` (`xθ = σ(τ(this).x)`), unless a
parameter or local of that name shadows it.

Every object has a class: the map `.class` (syntax.CLASS) holds its number (the classes in
declaration order, from 0), which `new C` writes and an input object's class is an input of
(any declared class: the solver's range, B-O4). `e is C` is `e != nil and .class[e] == k`.
A call `[x =] e.m(ē)` is lowered at the end of the parse to its dispatch (B-O4):

    if e != nil then                        # φ ∧ e0θ ≠ nil, else "call of `m` on nil"
      if .class[e] == 0 then C1.m(e, ē)     # the method of the receiver's class,
      else ... else Cn.m(e, ē) fi           # or "no method `m` in class `Ci`"
    else fail fi

each `if` of which prints back as the call; so every formulation (concrete, symbolic, seed
004, the obligations) runs it with the rules it has for `if`, `fail` and calls. `x = new C(ē)`
is `x = new C` followed by the call `C.init(x, ē)` (footnote 3, B-O3).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from symcert.lang import procedures
from symcert.lang.errors import KindError, NamingError, SourceError, quote
from symcert.lang.lalr import Token
from symcert.lang.structure import children, with_children
from symcert.lang.syntax import (
    CLASS, AExpr, And, ArrayVar, Assign, Await, Call, Cmp, Fail, Get, If, Int, Invoke, New, Nil,
    Node, Pos, Proc, Procedures, Select, Seq, Spawn, Stmt, Update, Var, While,
    field_map, seq_of, spine,
)

THIS = "this"


def _tpos(tok: Token) -> Pos:
    return Pos(tok.line or 0, tok.column or 0)


def is_class(e: AExpr, k: int, decl: Procedures) -> And:
    """`e is C` for the class `C` numbered k (from 0) of `decl`: `e != nil and .class[e] == k` (B-O4)."""
    return And(Cmp("!=", e, Nil(e.pos), e.pos),
               Cmp("==", Select(ArrayVar(CLASS, e.pos, decl), e, e.pos), Int(k), e.pos), e.pos)


def methods_of(procs: Procedures, cls: str) -> dict[str, Proc]:
    """The methods of class `cls` by name."""
    prefix = cls + "."
    return {name[len(prefix):]: q for name, q in procs.items() if name.startswith(prefix)}


class MethodRules:
    """The parser's callbacks for classes with methods, method calls, `new C(ē)` and `is` (a
    base of parser.py's builder, which provides `procs`, `calls` and `_grow`)."""

    if TYPE_CHECKING:
        procs: Procedures
        calls: list[Call]

        def _grow(self, nodes: int, where: Pos | None) -> None: ...
        def _fields(self, cls: Token) -> tuple[str, ...]: ...
        def _fresh(self, name: Token) -> None: ...

    tagged = False
    """Whether the program has methods, method calls or `is`: its objects then carry their
    class (`.class`), and `lower` runs."""

    def class_head(self, c: list[Any]) -> None:
        """`class C(f1, ..., fn)` (seed 003 §4): declared once, each field once, before use;
        declared before its methods, which may create objects of their class."""
        name, fields = str(c[1]), [str(t) for t in c[2:] if t is not None]
        if name in dict(self.procs.classes):
            raise SourceError(f"class {quote(name)} is already defined", _tpos(c[1]), NamingError)
        for i, f in enumerate(fields):
            if f in fields[:i]:
                raise SourceError(f"class {quote(name)} has the field {quote(f)} twice",
                                  _tpos(c[1]), NamingError)
        self.procs.classes += ((name, tuple(fields)),)

    def class_(self, c: list[Any]) -> None:
        if len(c) > 1:  # `begin ... end`, even empty
            self.tagged = True

    def method(self, c: list[Any]) -> None:
        """`proc m(ū) ... begin S end` in class `C`: the procedure `C.m(this, ū)`, its bare
        fields read as `this.f` where no parameter or local shadows them."""
        from symcert.lang import annotations

        cls, fields = self.procs.classes[-1]
        name, body, contract = str(c[1]), c[-1], annotations.contract(c)
        params = [str(t) for t in c[2:] if isinstance(t, Token) and t not in contract]
        where = _tpos(c[1])
        if THIS in params:
            raise SourceError(f"method {quote(name)} has a parameter named `this`, which is "
                              "the receiver's name", where, NamingError)
        full = f"{cls}.{name}"
        if full in self.procs:
            raise SourceError(f"method {quote(name)} is already defined in class {quote(cls)}",
                              where, NamingError)
        q = procedures.declare(full, [THIS, *params], body, where, self.procs, **contract)
        bare = frozenset(fields) - q.locals
        self.procs[full] = replace(
            q, body=_resolve(body, bare, self.procs),  # type: ignore[arg-type]
            requires=None if q.requires is None else _resolve(q.requires, bare, self.procs),
            ensures=None if q.ensures is None else _resolve(q.ensures, bare, self.procs))

    def method_call(self, c: list[Any]) -> Stmt:
        return self._invoke(c[0], c[1:], None, False)

    def method_call_assign(self, c: list[Any]) -> Stmt:
        return self._invoke(c[1], c[2:], sys.intern(str(c[0])), False, _tpos(c[0]))

    def local_method_call(self, c: list[Any]) -> Stmt:
        return self._invoke(c[2], c[3:], sys.intern(str(c[1])), True, _tpos(c[0]))

    def _invoke(self, path: list[Token], args: list[Any], target: str | None, local: bool,
                where: Pos | None = None) -> Stmt:
        self.tagged = True
        receiver = self._path_expr(path[:-1])  # type: ignore[attr-defined]
        self._grow(1, where or receiver.pos)
        return Invoke(receiver, str(path[-1]), tuple(a for a in args if a is not None), target,
                      where or receiver.pos, local)

    def new_init(self, c: list[Any]) -> Stmt:
        made = New(sys.intern(str(c[0])), str(c[2]), self._fields(c[2]), _tpos(c[0]),
                   self.procs)
        return self._init(made, Var(made.name, made.pos), c[3:])

    def local_new_init(self, c: list[Any]) -> Stmt:
        made = New(sys.intern(str(c[1])), str(c[3]), self._fields(c[3]), _tpos(c[0]),
                   self.procs, local=True)
        return self._init(made, Var(made.name, made.pos), c[4:])

    def field_new_init(self, c: list[Any]) -> Stmt:
        target: Select = self._path_expr(c[0])  # type: ignore[attr-defined]
        made = New(target.array.name, str(c[2]), self._fields(c[2]),  # type: ignore[union-attr]
                   target.pos, self.procs, at=target.index)
        return self._init(made, target, c[3:])

    def _init(self, made: New, obj: AExpr, args: list[Any]) -> Stmt:
        """`new C(ē)`: the allocation, then the call `C.init(obj, ē)` (B-O3)."""
        self.tagged = True
        given = tuple(a for a in args if a is not None)
        self._grow(2, made.pos)
        call = Call(f"{made.cls}.init", (obj, *given), None, made.pos, False, self.procs,
                    ctor=True)
        self.calls.append(call)
        return Seq(replace(made, init=given), call, made.pos, self.procs)

    def is_(self, c: list[Any]) -> Any:
        """`e is C` (B-O4): false for nil."""
        self.tagged = True
        names = [name for name, _ in self.procs.classes]
        if str(c[-1]) not in names:
            raise SourceError(f"unknown class {quote(c[-1])} (classes declared: "
                              f"{', '.join(names) or 'none'}; a class is declared before it "
                              "is used)", _tpos(c[-1]), NamingError)
        self._grow(5, c[0].pos)
        return is_class(c[0], names.index(str(c[-1])), self.procs)

    def lower(self, main: Stmt) -> Stmt:
        """The program with its method calls lowered to their dispatch and its objects tagged
        with their class (module docstring), after the static rules of methods."""
        if not self.tagged:
            return main
        _check(main, self.procs)
        self.procs.tagged = True
        lowered = _Lowering(self.procs, self.calls)
        for name, q in list(self.procs.items()):
            self.procs[name] = replace(q, body=lowered.stmt(q.body))
        return lowered.stmt(main)


def _check(main: Stmt, procs: Procedures) -> None:
    """`this` only in methods; no global named as a field of a class with methods; each
    `new C(ē)` has its `init`; each call names a method some class has with that arity."""
    with_methods = {cls for cls, _ in procs.classes if methods_of(procs, cls)}
    fields = {f: cls for cls, fs in procs.classes if cls in with_methods for f in fs}
    roots = [(main, frozenset[str]())] + [(q.body, q.locals) for q in procs.values()]
    arities = {(n.split(".", 1)[1], len(q.params) - 1) for n, q in procs.items() if "." in n}
    for root, locals_ in roots:
        todo: list[object] = [root]
        in_method = root is not main and THIS in locals_
        while todo:
            node = todo.pop()
            where = getattr(node, "pos", None) or Pos(1, 1)
            named = (node.name if isinstance(node, (Var, Assign)) or
                     isinstance(node, New) and node.at is None
                     else node.target if isinstance(node, (Call, Invoke, Get, Spawn)) else None)
            if named == THIS and not in_method:
                raise SourceError("`this` outside a method: the receiver exists only in a "
                                  "method's body", where, NamingError)
            if named in fields and named not in locals_:
                raise SourceError(f"the global variable {quote(named)} has the name of a field "
                                  f"of class {quote(fields[named])}, which its methods name "
                                  "bare; rename one of them", where, NamingError)
            if isinstance(node, New) and node.init is not None:
                q = procs.get(f"{node.cls}.init")
                if q is None or len(q.params) != len(node.init) + 1:
                    raise SourceError(f"`new {node.cls}(...)` with {len(node.init)} "
                                      f"argument(s) needs a method `init` of class "
                                      f"{quote(node.cls)} taking as many", where, KindError)
            if isinstance(node, Invoke) and (node.method, len(node.args)) not in arities:
                raise SourceError(f"no class has a method {quote(node.method)} taking "
                                  f"{len(node.args)} argument(s)", where, NamingError)
            if isinstance(node, Invoke) and node.receiver == Var(THIS):
                own = next((q.name.split(".")[0] for q in procs.values()
                            if q.body is root), None)
                if own is not None and node.method not in methods_of(procs, own):
                    raise SourceError(f"no method {quote(node.method)} in class {quote(own)}",
                                      where, NamingError)
            if isinstance(node, Invoke):
                todo.extend((node.receiver, *node.args))
            elif isinstance(node, Seq):
                todo.extend(spine(node))
            else:
                todo.extend(children(node))  # type: ignore[arg-type]


class _Lowering:
    """Rewrites statements: a call to its dispatch, a `new` to one that records its class."""

    def __init__(self, procs: Procedures, calls: list[Call]) -> None:
        self.procs, self.calls = procs, calls

    def stmt(self, s: Stmt) -> Stmt:
        if isinstance(s, Seq):
            return seq_of([self.stmt(t) for t in spine(s)], s.decl)
        if isinstance(s, Invoke):
            return self.dispatch(s)
        if isinstance(s, New):
            return replace(s, fields=s.fields + (CLASS,))
        if isinstance(s, (If, While, Await)):
            return with_children(s, [self.stmt(c) if isinstance(c, _STMTS) else c  # type: ignore[arg-type,misc]
                                     for c in children(s)])
        return s

    def dispatch(self, s: Invoke) -> Stmt:
        """The dispatch of `s` (B-O1, B-O4): nil fails, else the method of the receiver's
        class, or a failure where that class has no such method."""
        classes = [name for name, _ in self.procs.classes]
        leaves: list[Stmt] = []
        for cls in classes:
            q = self.procs.get(f"{cls}.{s.method}")
            if q is not None and len(q.params) == len(s.args) + 1:
                call = Call(q.name, (s.receiver, *s.args), s.target, s.pos, s.local, self.procs)
                self.calls.append(call)
                leaves.append(call)
            else:
                leaves.append(Fail(s.pos, why=f"no method `{s.method}` in class `{cls}`"))
        chain = leaves[-1]
        for k in range(len(classes) - 2, -1, -1):
            test = Cmp("==", Select(ArrayVar(CLASS, s.pos, self.procs), s.receiver, s.pos),
                       Int(k), s.pos)
            chain = If(test, leaves[k], chain, s.pos, s)
        return If(Cmp("!=", s.receiver, Nil(s.pos), s.pos), chain,
                  Fail(s.pos, why=f"call of `{s.method}` on nil"), s.pos, s)


_STMTS = (Seq, If, While, Await, Invoke, New, Assign, Call, Fail, Get, Spawn)


def _resolve(node: Node, bare: frozenset[str], procs: Procedures) -> Node:
    """`node` with each field in `bare` named bare read and written as `this.f`."""
    if not bare:
        return node
    match node:
        case Var(x) if x in bare:
            this = Var(THIS, node.pos)
            return Select(ArrayVar(field_map(x), node.pos, procs), this, node.pos)
        case Assign(x, e) if x in bare and not node.local:
            m = field_map(x)
            return Assign(m, Update(ArrayVar(m, node.pos, procs), Var(THIS, node.pos),
                                    _resolve(e, bare, procs), node.pos), node.pos)  # type: ignore[arg-type]
        case New(x) if x in bare and node.at is None and not node.local:
            return replace(node, name=field_map(x), at=Var(THIS, node.pos))
        case Call(target=x) | Invoke(target=x) | Get(x) if x in bare and not node.local:  # type: ignore[misc]
            raise SourceError(f"the field {quote(x)} cannot take a call's value directly: "
                              f"assign it to a local first (`var t = ...; {x} = t`)",
                              node.pos or Pos(1, 1), KindError)
        case Invoke():
            return replace(node, receiver=_resolve(node.receiver, bare, procs),
                           args=tuple(_resolve(a, bare, procs) for a in node.args))  # type: ignore[misc]
        case Seq():
            return seq_of([_resolve(t, bare, procs) for t in spine(node)], node.decl)  # type: ignore[misc]
    kids = children(node)
    return with_children(node, [_resolve(k, bare, procs) for k in kids]) if kids else node
