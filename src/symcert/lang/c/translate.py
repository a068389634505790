"""The whole C program as symcert's program (lemma C-T1): each C function reachable from
`main` a procedure (seed 003 §3), the IMP main statement setting the globals (zero, or their
initialisers) and the nondet counters, then calling `main()`; calls, the names and types of C.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from pycparser import c_ast  # type: ignore[import-untyped]

from symcert.lang.c.operators import NONDET, nondet_type
from symcert.lang.c.statements import DONE, ERROR_CALLS, Statements, _walk
from symcert.lang.c.values import Array, Condition, Scalar, Value, pos_of, show
from symcert.lang.c.program import CProgram
from symcert.lang.c.source import UnsupportedC, parse_c, unsupported
from symcert.lang.c.types import INT, DataModel, IntType
from symcert.lang.procedures import Procedures, declare, link
from symcert.lang.syntax import (
    And, ArrayVar, Assert, Assign, Assume, Bool, Call, Cmp, Fail, If, Int, Not, Or, Skip, Stmt,
    Update, Var, seq_of,
)

BEXPRS = (Cmp, And, Or, Not, Bool)


@dataclass(frozen=True, slots=True)
class ArrayParam:
    """The type of an array parameter: its element type and number of dimensions."""

    elem: IntType
    dims: int

GLOBAL_CELLS = 1024
"""The most cells of a global array: each is written at the start."""
_NONDET_NAME = re.compile(r"nondet_\d+_\d+(_n)?$")
_KEYWORDS = frozenset("skip fail assert assume if then else fi while do od invariant var "
                      "return proc begin end macro class new nil spawn get await requires "
                      "ensures not true false and or result".split())


class Translation(Statements):
    """One C file's translation to symcert's syntax tree."""

    def __init__(self, text: str, filename: str, model: DataModel, ast: Any) -> None:
        self.text, self.filename, self.model, self.ast = text, filename, model, ast
        self.out: list[Stmt] = []
        self.in_proc = False
        self._n = 0
        self.sites: list[str] = []
        self.procs = Procedures()
        self.typedefs: dict[str, Any] = {}
        self.defs: dict[str, c_ast.FuncDef] = {}
        self.protos: dict[str, Any] = {}
        self.scopes: list[dict[str, Scalar | Array]] = [{}]
        self.taken: set[str] = {DONE}
        self.targets: list[tuple[str, str | None]] = []
        self.set_flags: set[str] = set()
        self.labels: dict[str, c_ast.Label] = {}
        self.function = ""
        self.returns: IntType | None = None
        self.inlining: set[str] = set()
        self.following: list[Any] = []
        self.recursive: set[str] = set()
        self.main_returns = False
        self.ret_flag: str | None = None
        self.ret_var: str | None = None

    def refuse(self, node: Any, what: str) -> Exception:
        return unsupported(self.text, self.filename, getattr(node, "coord", None), what)

    # -- names and types ------------------------------------------------------------------

    def lookup(self, name: str, node: Any) -> Scalar | Array:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        raise self.refuse(node, f"the identifier `{name}` (undeclared, an enum constant or a "
                                "function used as a value)")

    def imp_name(self, name: str) -> str:
        """An IMP name for the C name `name`, unique in the program (an IMP keyword gets `_`)."""
        base = name + "_" if name in _KEYWORDS or _NONDET_NAME.match(name) else name
        imp, k = base, 1
        while imp in self.taken:
            k += 1
            imp = f"{base}_{k}"
        self.taken.add(imp)
        return imp

    def ctype(self, node: Any, where: Any = None) -> IntType | None:
        """The integer type a declarator's type names (None for `void`), else refused."""
        match node:
            case c_ast.TypeDecl(type=c_ast.IdentifierType(names=names)):
                if len(names) == 1 and names[0] in self.typedefs:
                    return self.ctype(self.typedefs[names[0]].type, where or node)
                if names == ["void"]:
                    return None
                t = self.model.type_of(tuple(names))
                if t is None:
                    floating = {"float", "double", "_Float128", "_Complex"} & set(names)
                    raise self.refuse(where or node, "floating point" if floating
                                      else f"the type `{' '.join(names)}`")
                return t
            case c_ast.TypeDecl(type=c_ast.Struct() | c_ast.Union()):
                raise self.refuse(where or node, "structs and unions")
            case c_ast.TypeDecl(type=c_ast.Enum()):
                raise self.refuse(where or node, "enums")
            case c_ast.PtrDecl():
                raise self.refuse(where or node, "pointers")
            case c_ast.FuncDecl():
                raise self.refuse(where or node, "function pointers")
            case c_ast.ArrayDecl():
                raise self.refuse(where or node, "an array type here")
        raise self.refuse(where or node, f"the type {type(node).__name__}")

    def type_name(self, node: Any) -> IntType | None:
        return self.ctype(node.type, node)

    # -- the program ----------------------------------------------------------------------

    def program(self) -> CProgram:
        init: list[Stmt] = []
        for ext in self.ast.ext:
            match ext:
                case c_ast.Typedef():
                    self.typedefs[ext.name] = ext
                case c_ast.FuncDef():
                    self.defs[ext.decl.name] = ext
                case c_ast.Decl(type=c_ast.FuncDecl()):
                    self.protos[ext.name] = ext
                case c_ast.Decl() if ext.name is None or "extern" in (ext.storage or []):
                    pass  # a struct's or enum's declaration, or an extern (used: refused)
                case c_ast.Decl():
                    with self.emit_to(init):
                        self.global_decl(ext)
        if "main" not in self.defs:
            raise UnsupportedC(self.filename, 1, 1, "no function `main`", self.text.split(
                "\n", 1)[0])
        body: list[Stmt] = []
        reachable = self.reachable()
        self.recursive = {f for f in reachable if f in self.callees(f)}
        for name in reachable:
            if name == "main" or name in self.recursive:
                body += self.translate_function(self.defs[name])
        start = [Assign(site + "_n", Int(0)) for site in dict.fromkeys(self.sites)]
        main = seq_of([*init, *start, *body] or [Skip()], self.procs)
        link(main, self.procs)
        return CProgram(main, self.model.name, tuple(dict.fromkeys(self.sites)))

    def global_decl(self, d: c_ast.Decl) -> None:
        if isinstance(d.type, c_ast.ArrayDecl):
            self.global_array(d)
            return
        ty = self.ctype(d.type, d)
        if ty is None:
            raise self.refuse(d, "a void variable")
        imp = self.imp_name(d.name)
        v = self.initial(d, ty)
        self.scopes[0][d.name] = Scalar(imp, ty, None, True)
        self.assign(imp, v, pos_of(d), local=False)

    def global_array(self, d: c_ast.Decl) -> None:
        """A global array of constant dimensions and at most GLOBAL_CELLS cells: its storage is
        zero-initialised (C11 §6.7.9 ¶10), so the main statement writes every cell, 0 or its
        initialiser's value (a larger one is refused: the cells would be too many updates)."""
        dims: list[Any] = []
        t: Any = d.type
        while isinstance(t, c_ast.ArrayDecl):
            n = self.rvalue(t.dim).expr if t.dim is not None else None
            if not isinstance(n, Int) or n.value <= 0:
                raise self.refuse(d, "a global array whose length is not a positive constant")
            dims.append(n)
            t = t.type
        elem = self.ctype(t, d)
        if elem is None:
            raise self.refuse(d, "an array of void")
        cells = 1
        for n in dims:
            cells *= n.value
        if cells > GLOBAL_CELLS:
            raise self.refuse(d, f"a global array of more than {GLOBAL_CELLS:,} cells (its "
                                 "zero-initialised storage is written cell by cell)")
        arr = Array(self.imp_name(d.name), elem, tuple(dims))
        self.scopes[0][d.name] = arr
        if d.init is not None:
            self.array_init(arr, d)
            return
        for i in range(cells):
            self.emit(Assign(arr.imp, Update(ArrayVar(arr.imp), Int(i), Int(0)), pos_of(d)))

    def initial(self, d: c_ast.Decl, ty: IntType) -> Any:
        if d.init is None:
            return Int(0)
        if isinstance(d.init, c_ast.InitList):
            raise self.refuse(d.init, "an initialiser list for a scalar")
        return self.convert(self.rvalue(d.init), ty, d).expr

    def reachable(self) -> list[str]:
        """The defined functions `main` may call, transitively (`main` first)."""
        seen, todo = ["main"], [self.defs["main"]]
        while todo:
            for call in _calls(todo.pop()):
                name = call.name.name if isinstance(call.name, c_ast.ID) else None
                if name in self.defs and name not in seen and name not in ERROR_CALLS:
                    seen.append(name)
                    todo.append(self.defs[name])
        if any(name == "main" for f in seen for name in _called_names(self.defs[f])):
            raise self.refuse(self.defs["main"], "a call of `main`")
        return seen

    def callees(self, name: str) -> set[str]:
        """The defined functions a call of `name` may lead to, transitively."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            for callee in _called_names(self.defs[todo.pop()]):
                if callee in self.defs and callee not in seen and callee not in ERROR_CALLS:
                    seen.add(callee)
                    todo.append(callee)
        return seen

    def array_param(self, p: c_ast.Decl) -> ArrayParam:
        """An array parameter `T a[]`, `T a[][M]` or `T *a` of integers (C passes the array)."""
        dims, t = 0, p.type
        while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            dims, t = dims + 1, t.type
        elem = self.ctype(t, p)
        if elem is None:
            raise self.refuse(p, "a pointer to void")
        return ArrayParam(elem, dims)

    def signature(self, name: str, node: Any) -> tuple[IntType | None, list[tuple[str, Any]]]:
        """The return type and the parameters of function `name` (its definition)."""
        fd = self.defs[name].decl.type
        ret = self.ctype(fd.type, node)
        params: list[tuple[str, Any]] = []
        given = fd.args.params if fd.args else []
        if name == "main":  # `main(int argc, char *argv[])` whose parameters are never read
            used = {n.name for n in _walk(self.defs[name].body) if isinstance(n, c_ast.ID)}
            read = [p for p in given if getattr(p, "name", None) in used]
            if read:
                raise self.refuse(read[0], "`main`'s parameters (read by its body)")
            given = []
        for p in given:
            if isinstance(p, c_ast.EllipsisParam):
                raise self.refuse(p, "variadic functions")
            if isinstance(p, c_ast.Typename) or p.name is None:
                if self.ctype(p.type, p) is None:
                    continue  # f(void)
                raise self.refuse(p, "an unnamed parameter")
            if isinstance(p.type, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                params.append((p.name, self.array_param(p)))
                continue
            t = self.ctype(p.type, p)
            if t is None:
                raise self.refuse(p, "a void parameter")
            params.append((p.name, t))
        return ret, params

    def translate_function(self, f: c_ast.FuncDef) -> list[Stmt]:
        """A procedure for the function `f`; `main`'s body is returned instead, to be the main
        statement (its locals global, a `return` the flag `DONE` that ends it), so that its
        loops are the main statement's, which loop-invariant inference reads."""
        name = f.decl.name
        self.returns, params = self.signature(name, f.decl)
        self.function, self.in_proc = name, name != "main"
        if any(isinstance(t, ArrayParam) for _, t in params):
            raise self.refuse(f.decl, "array parameters of a recursive function")
        self.ret_flag, self.ret_var = (DONE, None) if name == "main" else (None, None)
        self.labels = {lab.name: lab for lab in _labels(f.body)}
        scope: dict[str, Scalar | Array] = {}
        imp_params = []
        for pname, t in params:
            imp = self.imp_name(pname)
            imp_params.append(imp)
            scope[pname] = Scalar(imp, t)
        self.scopes = [self.scopes[0], scope]
        body: list[Stmt] = []
        with self.emit_to(body):
            self.stmt(f.body)
        self.scopes = [self.scopes[0]]
        if name == "main":
            return ([Assign(DONE, Int(0))] if self.main_returns else []) + body
        self.procs[name] = declare(name, imp_params, seq_of(body or [Skip()]), pos_of(f),
                                   self.procs)
        return []

    # -- calls ----------------------------------------------------------------------------

    def call(self, node: c_ast.FuncCall, want: bool) -> Value | None:
        if not isinstance(node.name, c_ast.ID):
            raise self.refuse(node, "function pointers")
        name = node.name.name
        args = list(node.args.exprs) if node.args is not None else []
        p = pos_of(node)
        zero = Value(Int(0), INT) if want else None
        defined = name in self.defs
        if name in ERROR_CALLS:
            self.emit(Fail(self.cpos(node, f"{name}() is called")))
            return zero
        if name.startswith(NONDET) and not defined:
            t = nondet_type(name, self.model)
            if t is False:
                raise self.refuse(node, f"`{name}` (not an integer type)")
            return self.nondet(node, t)  # type: ignore[arg-type]
        if not defined and name == "__assert_fail":
            self.emit(Fail(self.cpos(node, "__assert_fail() is called")))
            return zero
        if not defined and name in ("abort", "exit", "_Exit"):
            for a in args:
                self.effect(a)
            self.emit(Assume(Bool(False), p))
            return zero
        if not defined and name in ("__VERIFIER_assume", "assume_abort_if_not") and len(args) == 1:
            self.emit(Assume(self.cond(args[0]), p))
            return zero
        if not defined and name in ("assert", "__VERIFIER_assert") and len(args) == 1:
            c = self.cond(args[0])
            self.emit(Assert(c, self.cpos(node, f"assertion `{show(args[0])}` fails")))
            return zero
        if defined:
            return self.user_call(name, args, node, want)
        return self.external(name, args, node, want)

    def user_call(self, name: str, args: list[Any], node: Any, want: bool) -> Value | None:
        ret, params = self.signature(name, node)
        if len(args) != len(params):
            raise self.refuse(node, f"a call of `{name}` with {len(args)} arguments for "
                                    f"{len(params)} parameters")
        values: list[Any] = []
        tests = name not in self.recursive and _only_tests(self.defs[name])
        for a, (_, t) in zip(args, params):
            mark = len(self.out)
            if isinstance(t, ArrayParam):
                values.append(self.array_argument(a, t, name))
                continue
            if tests and _is_condition(a) and t.bits > 1:
                v = Value(self.cond(a), t)  # a BExpr: bound as a Condition by inline
            else:
                v = self.convert(self.rvalue(a), t, a)
            values = [self._held_argument(e, mark) for e in values]
            values.append(v.expr)
        p = pos_of(node)
        if want and ret is None:
            raise self.refuse(node, "the value of a void function")
        if name not in self.recursive:
            return self.inline(name, values, ret, params)
        target = self.fresh("r") if want else None
        self.emit(Call(name, tuple(values), target, p, local=self.in_proc and want,
                       procs=self.procs))
        return Value(Var(target), ret) if target is not None and ret is not None else None

    def array_argument(self, a: Any, t: ArrayParam, name: str) -> Array:
        """The caller's array passed for an array parameter of the inlined function `name`:
        the callee reads and writes it (C passes arrays by their address)."""
        target = self.lookup(a.name, a) if isinstance(a, c_ast.ID) else None
        if name in self.recursive:
            raise self.refuse(a, "an array passed to a recursive function")
        if not isinstance(target, Array) or len(target.dims) != t.dims or target.elem != t.elem:
            raise self.refuse(a, "an argument for an array parameter that is not an array of "
                                 "its element type and dimensions")
        return target

    def _held_argument(self, e: Any, mark: int) -> Any:
        """An earlier argument, copied before a later one's effects (emitted since `mark`);
        a condition is copied as the int it denotes."""
        if isinstance(e, Array):
            return e
        if len(self.out) == mark or not isinstance(e, BEXPRS):
            return self.held(Value(e, INT), mark).expr
        t = self.fresh("t")
        self.out.insert(mark, If(e, Assign(t, Int(1), local=self.in_proc),
                                 Assign(t, Int(0), local=self.in_proc)))
        return Var(t)

    def inline(self, name: str, values: list[Any], ret: IntType | None,
               params: list[tuple[str, IntType]]) -> Value | None:
        """The body of the non-recursive function `name` in place of its call (C-T1): its
        parameters fresh variables set to the arguments, a `return` the assignment of a fresh
        result and a flag that ends the rest of the body; so a program whose functions do not
        recurse is one main statement, with its loops (what loop-invariant inference reads)."""
        f = self.defs[name]
        saved = (self.function, self.returns, self.scopes, self.labels, self.targets,
                 self.set_flags, self.ret_flag, self.ret_var, self.following, self.inlining)
        scope: dict[str, Scalar | Array] = {}
        for (pname, t), v in zip(params, values):
            if isinstance(v, Array):
                scope[pname] = replace(v, param=True)
                continue
            if isinstance(v, BEXPRS):
                scope[pname] = Condition(v, t)
                continue
            imp = self.imp_name(pname)
            self.assign(imp, v, pos_of(f))
            scope[pname] = Scalar(imp, t)
        result = self.fresh("r") if ret is not None else None
        flag = self.fresh("ret")
        self.assign(flag, Int(0), pos_of(f))
        if result is not None:
            self.assign(result, Int(0), pos_of(f))
        self.function, self.returns, self.scopes = name, ret, [self.scopes[0], scope]
        self.labels, self.targets, self.set_flags = {la.name: la for la in _labels(f.body)}, [], set()
        self.ret_flag, self.ret_var, self.inlining = flag, result, set()
        try:
            self.stmt(f.body)
        finally:
            (self.function, self.returns, self.scopes, self.labels, self.targets,
             self.set_flags, self.ret_flag, self.ret_var, self.following, self.inlining) = saved
        return Value(Var(result), ret) if result is not None and ret is not None else None

    def external(self, name: str, args: list[Any], node: Any, want: bool) -> Value | None:
        """A function declared but not defined: its arguments evaluated, its result an input
        of its return type (SV-COMP's rule for external functions)."""
        proto = self.protos.get(name)
        if proto is None:
            raise self.refuse(node, f"a call of `{name}`, which is neither declared nor known")
        for a in args:
            self.effect(a)
        ret = self.ctype(proto.type.type, node)
        if ret is None:
            return None if not want else self.nondet(node, INT)
        return self.nondet(node, ret)


def _only_tests(f: c_ast.FuncDef) -> bool:
    """Whether the body of `f` assigns nothing and calls nothing but the functions that end the
    run (`__VERIFIER_assert`, `assume_abort_if_not`): then a condition passed to it reads the
    same values wherever the body reads it, and may stand for its parameter."""
    for n in _walk(f.body):
        if isinstance(n, (c_ast.Assignment, c_ast.Decl)):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return False
        if isinstance(n, c_ast.FuncCall) and not (
                isinstance(n.name, c_ast.ID) and n.name.name in (*ERROR_CALLS, "abort", "exit")):
            return False
    return True


def _is_condition(node: Any) -> bool:
    """Whether the C expression `node` is a comparison or a logical operator (its value 0/1)."""
    return ((isinstance(node, c_ast.BinaryOp) and node.op in
             ("<", "<=", ">", ">=", "==", "!=", "&&", "||"))
            or (isinstance(node, c_ast.UnaryOp) and node.op == "!"))


def _calls(node: Any) -> list[c_ast.FuncCall]:
    return [n for n in _walk(node) if isinstance(n, c_ast.FuncCall)]


def _called_names(node: Any) -> list[str]:
    return [c.name.name for c in _calls(node) if isinstance(c.name, c_ast.ID)]


def _labels(node: Any) -> list[c_ast.Label]:
    return [n for n in _walk(node) if isinstance(n, c_ast.Label)]


def translate(text: str, filename: str, model: DataModel) -> CProgram:
    """The C program `text` as symcert's syntax tree (lemma C-T1).

    :raises ParseError: when it is not C pycparser reads; `UnsupportedC` for C outside the
        subset (docs/c.md), at the construct's line and column.
    """
    ast = parse_c(text, filename, model)
    return Translation(text, filename, model, ast).program()
