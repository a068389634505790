"""C's statements and local declarations as symcert's statements (lemma C-T1).

Control flow without `goto` is structured by flags: `break` and `continue` set a fresh local
flag of their loop (or `switch`), the statements after one in its block run under `if flag == 0`,
and the loop's condition reads the break flag; `switch` is a sequence of guarded blocks with a
fall-through flag. `return` is IMP's own. `goto L` is read only when the statement labelled `L`
ends the run (`reach_error()`, `abort()`, `exit()`, ...: SV-COMP's `ERROR:` labels): the jump is
that statement. What the translation does not read it refuses (`UnsupportedC`), never guesses.
"""
from __future__ import annotations

from typing import Any

from pycparser import c_ast  # type: ignore[import-untyped]

from symcert.lang.c.expressions import Expressions
from symcert.lang.c.types import IntType, promote
from symcert.lang.c.values import Array, Scalar, pos_of
from symcert.lang.syntax import (
    And, Assign, Bool, Cmp, If, Int, Or, Return, Skip, Stmt, Var, While, seq_of,
)

ERROR_CALLS = ("reach_error", "__VERIFIER_error")
DONE = "__done"
"""The flag a `return` of `main` sets: the rest of the main statement runs while it is 0."""
_ENDING = ("abort", "exit", "_Exit", "__assert_fail", *ERROR_CALLS)


class Statements(Expressions):
    """The statements of a function body (translate.py: the functions and the program)."""

    scopes: list[dict[str, Scalar | Array]]
    targets: list[tuple[str, str | None]]
    set_flags: set[str]
    labels: dict[str, c_ast.Label]
    function: str
    returns: IntType | None
    inlining: set[str]
    following: list[Any]
    defs: dict[str, c_ast.FuncDef]
    protos: dict[str, Any]
    typedefs: dict[str, Any]
    imp_name: Any
    initial: Any
    taken: set[str]
    ret_flag: str | None
    ret_var: str | None
    main_returns: bool

    def items(self, nodes: list[Any], each: Any = None) -> None:
        """Translate a block's items in order; after one that may `break` or `continue`, the
        rest runs only while the flags it may set are 0."""
        each = each or self.stmt
        for k, node in enumerate(nodes):
            saved, self.set_flags = self.set_flags, set()
            self.following = nodes[k + 1:]
            each(node)
            mine, self.set_flags = self.set_flags, saved | self.set_flags
            if mine and k + 1 < len(nodes):
                rest: list[Stmt] = []
                with self.emit_to(rest):
                    self.items(nodes[k + 1:], each)
                if rest:
                    self.emit(If(_all_zero(mine), seq_of(rest), Skip()))
                return

    def stmt(self, node: Any) -> None:
        match node:
            case c_ast.Compound():
                self.scopes.append({})
                self.items(node.block_items or [])
                self.scopes.pop()
            case c_ast.Decl():
                self.local_decl(node)
            case c_ast.DeclList():
                for d in node.decls:
                    self.local_decl(d)
            case c_ast.EmptyStatement() | c_ast.Pragma():
                pass
            case c_ast.If():
                c = self.cond(node.cond)
                yes, no = self.branch(node.iftrue), self.branch(node.iffalse)
                self.emit(If(c, yes, no, pos_of(node)))
            case c_ast.While():
                self.loop(node.cond, node.stmt, None, node)
            case c_ast.DoWhile():
                self.loop(node.cond, node.stmt, None, node, first=True)
            case c_ast.For():
                self.scopes.append({})
                if node.init is not None:
                    self.stmt(node.init) if isinstance(node.init, (c_ast.DeclList, c_ast.Decl)) \
                        else self.effect(node.init)
                self.loop(node.cond, node.stmt, node.next, node)
                self.scopes.pop()
            case c_ast.Break():
                if not self.targets:
                    raise self.refuse(node, "`break` outside a loop or switch")
                self.flag(self.targets[-1][0], node)
            case c_ast.Continue():
                loops = [c for _, c in self.targets if c is not None]
                if not loops:
                    raise self.refuse(node, "`continue` outside a loop")
                self.flag(loops[-1], node)
            case c_ast.Return():
                self.ret(node)
            case c_ast.Switch():
                self.switch(node)
            case c_ast.Label():
                self.stmt(node.stmt)
            case c_ast.Goto():
                self.goto(node)
            case c_ast.Case() | c_ast.Default():
                raise self.refuse(node, "a case label that is not directly in its switch's block")
            case c_ast.Typedef():
                self.typedefs[node.name] = node
            case _:
                self.effect(node)

    def branch(self, node: Any) -> Stmt:
        out: list[Stmt] = []
        if node is not None:
            with self.emit_to(out):
                self.scopes.append({})
                self.stmt(node)
                self.scopes.pop()
        return seq_of(out) if out else Skip()

    def flag(self, name: str, node: Any) -> None:
        self.assign(name, Int(1), pos_of(node))
        self.set_flags.add(name)

    def local_decl(self, d: c_ast.Decl) -> None:
        if isinstance(d.type, c_ast.FuncDecl):
            self.protos[d.name] = d
            return
        if set(d.storage or []) & {"static", "extern"}:
            raise self.refuse(d, f"{'static' if 'static' in d.storage else 'extern'} local "
                                 "variables")
        if isinstance(d.type, c_ast.ArrayDecl):
            self.local_array(d)
            return
        ty = self.ctype(d.type, d)
        if ty is None:
            raise self.refuse(d, "a void variable")
        if d.init is None and not _assigned_first(d.name, self.following):
            flag = self.fresh("def")
            self.assign(flag, Int(0), pos_of(d))
            self.scopes[-1][d.name] = Scalar(self.imp_name(d.name), ty, flag)
            return
        v = self.initial(d, ty) if d.init is not None else Int(0)
        target = Scalar(self.imp_name(d.name), ty)
        self.scopes[-1][d.name] = target
        self.assign(target.imp, v, pos_of(d))

    def local_array(self, d: c_ast.Decl) -> None:
        """A local array of `main` (called once, so its IMP array, global, is fresh): its
        cells unspecified (an input) or set by its initialiser list, the rest 0."""
        if self.function != "main":
            raise self.refuse(d, "a local array outside `main`")
        dims: list[Any] = []
        t: Any = d.type
        while isinstance(t, c_ast.ArrayDecl):
            if t.dim is None:
                raise self.refuse(d, "an array without a length")
            v = self.rvalue(t.dim)
            n = self.temp(v.expr, pos_of(d))
            self.ub(Cmp(">", n, Int(0)) if not isinstance(n, Int) else Bool(n.value > 0),
                    d, "an array length that is not positive")
            dims.append(n)
            t = t.type
        elem = self.ctype(t, d)
        if elem is None:
            raise self.refuse(d, "an array of void")
        arr = Array(self.imp_name(d.name), elem, tuple(dims))
        self.scopes[-1][d.name] = arr
        if d.init is not None:
            self.array_init(arr, d)

    def array_init(self, arr: Array, d: c_ast.Decl) -> None:
        """The cells of `arr` set by the initialiser list of `d`, the rest 0."""
        from symcert.lang.syntax import ArrayVar, Update

        if len(arr.dims) != 1 or not isinstance(arr.dims[0], Int) \
                or not isinstance(d.init, c_ast.InitList) or arr.dims[0].value > 4096:
            raise self.refuse(d.init, "an initialiser other than a list for a one-dimensional "
                                      "array of at most 4096 elements")
        given = d.init.exprs
        if len(given) > arr.dims[0].value or any(isinstance(e, c_ast.NamedInitializer)
                                                  for e in given):
            raise self.refuse(d.init, "designated or excess initialisers")
        for i in range(arr.dims[0].value):
            v = self.convert(self.rvalue(given[i]), arr.elem).expr if i < len(given) else Int(0)
            self.emit(Assign(arr.imp, Update(ArrayVar(arr.imp), Int(i), v), pos_of(d)))

    def loop(self, cond: Any, body: Any, step: Any, node: Any, first: bool = False) -> None:
        """`while`, `for` (with `step`) and `do … while` (`first`: the body runs before the
        condition is first read), with their break and continue flags."""
        brk, cnt = self.fresh("brk"), self.fresh("cnt")
        self.targets.append((brk, cnt))
        saved, self.set_flags = self.set_flags, set()
        body_out: list[Stmt] = []
        with self.emit_to(body_out):
            self.scopes.append({})
            self.stmt(body)
            self.scopes.pop()
        used, self.set_flags = self.set_flags, saved
        self.targets.pop()
        exits = used - {brk, cnt}  # main's return flag: it ends the loop and the rest
        self.set_flags |= exits
        stops = ({brk} & used) | exits
        cond_out: list[Stmt] = []
        with self.emit_to(cond_out):
            c = self.cond(cond) if cond is not None else Bool(True)
        tail: list[Stmt] = []
        with self.emit_to(tail):
            if step is not None:
                self.effect(step)
        tail += cond_out
        p = pos_of(node)
        local = self.in_proc
        if first:  # do … while: go on while the condition holds after each run of the body
            go = self.fresh("go")
            test = seq_of([*tail, If(c, Skip(), Assign(go, Int(0), local=local))])
            after = If(_all_zero(stops), test, Assign(go, Int(0), local=local)) \
                if stops else test
            inner = ([Assign(cnt, Int(0), local=local)] if cnt in used else []) + body_out \
                + [after]
            if brk in used:
                self.assign(brk, Int(0), p)
            self.assign(go, Int(1), p)
            self.emit(While(Cmp("==", Var(go), Int(1)), seq_of(inner), p))
            return
        guard = And(_all_zero(stops), c) if stops else c
        after_body: list[Stmt] = ([If(_all_zero(stops), seq_of(tail), Skip())]
                                  if stops and tail else tail)
        inner = ([Assign(cnt, Int(0), local=local)] if cnt in used else []) + body_out \
            + after_body
        if brk in used:
            self.assign(brk, Int(0), p)
        self.out += cond_out
        self.emit(While(guard, seq_of(inner or [Skip()]), p))

    def ret(self, node: c_ast.Return) -> None:
        p = pos_of(node)
        if self.ret_flag is not None:  # main's, or an inlined function's (translate.inline)
            if node.expr is not None and self.ret_var is not None and self.returns is not None:
                v = self.convert(self.rvalue(node.expr), self.returns, node)
                self.assign(self.ret_var, v.expr, p)
            elif node.expr is not None:
                self.effect(node.expr)
            self.main_returns = self.main_returns or self.ret_flag == DONE
            self.flag(self.ret_flag, node)
            return
        if node.expr is None:
            self.emit(Return(Int(0), p))
            return
        v = self.rvalue(node.expr)
        if self.returns is None:
            self.emit(Return(Int(0), p))
            return
        self.emit(Return(self.convert(v, self.returns, node).expr, p))

    def switch(self, node: c_ast.Switch) -> None:
        v = self.rvalue(node.cond)
        t = promote(v.ty)
        x = self.temp(self.convert(v, t).expr, pos_of(node))
        body = node.stmt.block_items if isinstance(node.stmt, c_ast.Compound) else [node.stmt]
        groups: list[tuple[list[Any], list[Any]]] = []  # (labels, statements)
        for item in body or []:
            if isinstance(item, (c_ast.Case, c_ast.Default)):
                labels, stmts = [item], list(item.stmts or [])
                while len(stmts) == 1 and isinstance(stmts[0], (c_ast.Case, c_ast.Default)):
                    labels.append(stmts[0])
                    stmts = list(stmts[0].stmts or [])
                groups.append((labels, stmts))
            elif not groups:
                raise self.refuse(item, "a statement before the first case label")
            else:
                groups[-1][1].append(item)
        values: list[int] = []
        for labels, _ in groups:
            for lab in labels:
                if isinstance(lab, c_ast.Case):
                    values.append(self.constant_of(lab.expr, t))
        fall, brk = self.fresh("fall"), self.fresh("brk")
        self.targets.append((brk, None))
        out: list[Stmt] = []

        def group(g: tuple[list[Any], list[Any]]) -> None:
            labels, stmts = g
            hits: list[Any] = [Cmp("==", x, Int(self.constant_of(lab.expr, t)))
                               if isinstance(lab, c_ast.Case) else
                               _none_of(x, values) for lab in labels]
            match = hits[0]
            for h in hits[1:]:
                match = Or(match, h)
            inner: list[Stmt] = [Assign(fall, Int(1), local=self.in_proc)]
            with self.emit_to(inner):
                self.scopes.append({})
                self.items(stmts)
                self.scopes.pop()
            self.emit(If(Or(Cmp("==", Var(fall), Int(1)), match), seq_of(inner), Skip()))

        with self.emit_to(out):
            self.items(groups, group)
        self.targets.pop()
        used = brk in self.set_flags
        self.set_flags.discard(brk)
        self.assign(fall, Int(0), pos_of(node))
        if used:
            self.assign(brk, Int(0), pos_of(node))
        self.out += out

    def constant_of(self, node: Any, t: IntType) -> int:
        scratch: list[Stmt] = []
        with self.emit_to(scratch):
            v = self.convert(self.rvalue(node), t)
        if scratch or not isinstance(v.expr, Int):
            raise self.refuse(node, "a case label that is not an integer constant")
        return v.expr.value

    def goto(self, node: c_ast.Goto) -> None:
        target = self.labels.get(node.name)
        if target is None:
            raise self.refuse(node, f"`goto {node.name}` without its label in this function")
        if node.name in self.inlining or not self.ends(target.stmt):
            raise self.refuse(node, "`goto` other than to a label whose statement ends the run "
                                    "(reach_error(), abort(), exit())")
        self.inlining.add(node.name)
        self.scopes.append({})
        self.stmt(target.stmt)
        self.scopes.pop()
        self.inlining.discard(node.name)

    def ends(self, node: Any) -> bool:
        """Whether the statement `node` surely ends the run (its last word a call of
        reach_error, abort, exit or __assert_fail), so that a jump to it is a copy of it."""
        match node:
            case c_ast.FuncCall(name=c_ast.ID(name=name)):
                return name in ERROR_CALLS or (name in _ENDING and name not in self.defs)
            case c_ast.Compound():
                return any(self.ends(i) for i in (node.block_items or []))
            case c_ast.Label():
                return self.ends(node.stmt)
        return False


def _assigned_first(name: str, rest: list[Any]) -> bool:
    """Whether the first of the statements `rest` that mentions `name` assigns it a value that
    does not read it (`x = e;`, or a `for` starting so): then `name` is never read
    uninitialised and needs no flag."""
    for node in rest:
        if isinstance(node, c_ast.For) and node.init is not None:
            node = node.init
        mentions = [n for n in _walk(node) if isinstance(n, c_ast.ID) and n.name == name]
        if not mentions:
            continue
        return (isinstance(node, c_ast.Assignment) and node.op == "="
                and isinstance(node.lvalue, c_ast.ID) and node.lvalue.name == name
                and len(mentions) == 1)
    return False


def _all_zero(flags: set[str]) -> Any:
    conds = [Cmp("==", Var(f), Int(0)) for f in sorted(flags)]
    out = conds[0]
    for c in conds[1:]:
        out = And(out, c)
    return out


def _none_of(x: Any, values: list[int]) -> Any:
    out: Any = Bool(True)
    for v in values:
        c = Cmp("!=", x, Int(v))
        out = c if isinstance(out, Bool) else And(out, c)
    return out


def _walk(node: Any) -> Any:
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(child for _, child in n.children())
