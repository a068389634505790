"""C's expressions as IMP statements and expressions (lemmas C-I1 to C-I4, C-U1).

A C expression is translated into statements emitted before it (its side effects, calls,
nondet reads, the checks of undefined behaviour, divisions) and a pure IMP expression over
mathematical integers, its value, which lies in its C type's range (C-I1). Operands are
evaluated left to right (one of the orders C allows): a left operand is copied to a temporary
when the right one emits statements. Each operator is C's, over IMP's:

- `+ - *` on a signed type: the exact result, after a check that it lies in the type's range,
  else undefined behaviour (C-U1); on an unsigned type: the result reduced modulo 2^N (C-I3).
- `/ %`: IMP's `/` floors, so the quotient is corrected toward zero when the remainder is not
  zero and the signs differ, and `a % b` is `a - b * (a / b)` (C-I4); a zero divisor fails in
  IMP's own division (the bug "division by zero"); `INT_MIN / -1` is undefined behaviour.
- `<< >>` by a constant amount `k`: `a * 2^k` (checked as `*` is) and `a / 2^k` (floor: GCC's
  arithmetic shift); an amount outside `[0, N)` or a negative left operand of `<<` is undefined.
- `~a` is `-a - 1` (signed) or `2^N - 1 - a`; `a & m` with `m + 1` a power of two is `a % (m+1)`;
  bitwise operators on two constants are computed; others are refused.
- conversions (assignment, casts, arguments, returns): `types.wrap` (C-I2); to `_Bool`: `!= 0`.
"""

from __future__ import annotations

from typing import Any

from pycparser import c_ast  # type: ignore[import-untyped]

from symcert.lang.c.operators import Operators, _what
from symcert.lang.c.types import INT, IntType, usual
from symcert.lang.c.values import Array, Condition, Scalar, Value, const_of, pos_of
from symcert.lang.syntax import (
    AExpr, Add, And, ArrayVar, Assign, BExpr, Bool, Cmp, If, Int, Mul, Not, Or, Select, Skip,
    Stmt, Update, Var, seq_of,
)


class Expressions(Operators):
    """The values, conditions and places of C expressions (statements.py: the statements)."""

    def rvalue(self, node: Any) -> Value:
        """The value of the C expression `node`, its effects emitted."""
        match node:
            case c_ast.Constant():
                return self.constant(node)
            case c_ast.ID():
                target = self.lookup(node.name, node)
                if isinstance(target, Array):
                    raise self.refuse(node, "an array used as a value")
                if isinstance(target, Condition):
                    return Value(self.as_int(target.cond), target.ty)
                if target.flag is not None:
                    self.ub(Cmp("==", Var(target.flag), Int(1)), node,
                            "read of an uninitialised variable")
                return Value(Var(target.imp, pos_of(node)), target.ty)
            case c_ast.ArrayRef():
                arr, index = self.element(node)
                return Value(Select(ArrayVar(arr.imp), index, pos_of(node)), arr.elem)
            case c_ast.UnaryOp():
                return self.unary(node)
            case c_ast.BinaryOp() if node.op in ("&&", "||", "<", "<=", ">", ">=", "==", "!="):
                return Value(self.as_int(self.cond(node)), INT)
            case c_ast.BinaryOp():
                left = self.rvalue(node.left)
                mark = len(self.out)
                right = self.rvalue(node.right)
                left = self.held(left, mark)
                return self.arith(node.op, left, right, node)
            case c_ast.Assignment():
                return self.assignment(node)
            case c_ast.TernaryOp():
                return self.ternary(node)
            case c_ast.Cast():
                to = self.type_name(node.to_type)
                if to is None:
                    self.effect(node.expr)
                    return Value(Int(0), INT)
                return self.convert(self.rvalue(node.expr), to, node)
            case c_ast.FuncCall():
                found = self.call(node, True)
                assert found is not None
                return found
            case c_ast.ExprList():
                for e in node.exprs[:-1]:
                    self.effect(e)
                return self.rvalue(node.exprs[-1])
        raise self.refuse(node, _what(node))

    def held(self, v: Value, mark: int) -> Value:
        """`v`, copied to a temporary before the statements emitted since `mark` (a later
        operand's effects) when there are any, so that it is read first."""
        if len(self.out) == mark or isinstance(v.expr, Int):
            return v
        t = self.fresh("t")
        self.out.insert(mark, Assign(t, v.expr, local=self.in_proc))
        return Value(Var(t), v.ty)

    def effect(self, node: Any) -> None:
        """Evaluate `node` for its effects only (an expression statement)."""
        match node:
            case c_ast.FuncCall():
                self.call(node, False)
            case c_ast.UnaryOp(op="p++" | "p--" | "++" | "--"):
                self.increment(node, value=False)
            case c_ast.Assignment():
                self.assignment(node)
            case c_ast.Cast(to_type=t) if self.type_name(t) is None:
                self.effect(node.expr)
            case c_ast.TernaryOp():
                cond = self.cond(node.cond)
                yes: list[Stmt] = []
                no: list[Stmt] = []
                with self.emit_to(yes):
                    self.effect(node.iftrue)
                with self.emit_to(no):
                    self.effect(node.iffalse)
                self.emit(If(cond, seq_of(yes or [Skip()]), seq_of(no or [Skip()]), pos_of(node)))
            case c_ast.ExprList():
                for e in node.exprs:
                    self.effect(e)
            case _:
                self.rvalue(node)

    # -- conditions -----------------------------------------------------------------------

    def cond(self, node: Any) -> BExpr:
        """The C expression `node` as an IMP condition (nonzero is true)."""
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            return Not(self.cond(node.expr))
        if isinstance(node, c_ast.ID):
            target = self.lookup(node.name, node)
            if isinstance(target, Condition):
                return target.cond
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            left = self.cond(node.left)
            rest: list[Stmt] = []
            with self.emit_to(rest):
                right = self.cond(node.right)
            if not rest:
                return (And if node.op == "&&" else Or)(left, right)
            t = self.fresh("t")
            local = self.in_proc
            settle = If(right, Assign(t, Int(1), local=local), Assign(t, Int(0), local=local))
            go = seq_of([*rest, settle])
            if node.op == "&&":
                self.emit(If(left, go, Assign(t, Int(0), local=local)))
            else:
                self.emit(If(left, Assign(t, Int(1), local=local), go))
            return Cmp("==", Var(t), Int(1))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("<", "<=", ">", ">=", "==", "!="):
            a = self.rvalue(node.left)
            mark = len(self.out)
            b = self.rvalue(node.right)
            a = self.held(a, mark)
            t = usual(a.ty, b.ty)
            x, y = self.convert(a, t).expr, self.convert(b, t).expr
            cx, cy = const_of(x), const_of(y)
            if cx is not None and cy is not None:
                return Bool({"<": cx < cy, "<=": cx <= cy, ">": cx > cy, ">=": cx >= cy,
                             "==": cx == cy, "!=": cx != cy}[node.op])
            return Cmp(node.op, x, y, pos_of(node))
        v = self.rvalue(node)
        c = const_of(v.expr)
        return Bool(c != 0) if c is not None else Cmp("!=", v.expr, Int(0), pos_of(node))

    # -- places ---------------------------------------------------------------------------

    def element(self, node: c_ast.ArrayRef) -> tuple[Array, AExpr]:
        """The array and the flattened index of `a[i]...[j]`, each index checked against its
        dimension (an access out of bounds is undefined, C-U1)."""
        indices: list[Any] = []
        base: Any = node
        while isinstance(base, c_ast.ArrayRef):
            indices.insert(0, base.subscript)
            base = base.name
        if not isinstance(base, c_ast.ID):
            raise self.refuse(node, "pointers")
        arr = self.lookup(base.name, base)
        if not isinstance(arr, Array) or len(indices) != len(arr.dims):
            raise self.refuse(node, "subscripting other than a whole array element")
        flat: AExpr = Int(0)
        for sub, dim in zip(indices, arr.dims):
            i = self.rvalue(sub).expr
            ci, cd = const_of(i), const_of(dim)
            self.ub(Bool(0 <= ci < cd) if ci is not None and cd is not None else
                    And(Cmp("<=", Int(0), i), Cmp("<", i, dim)), node, "array index out of bounds")
            flat = i if isinstance(flat, Int) and flat.value == 0 else Add(Mul(flat, dim), i)
        return arr, flat

    def assignment(self, node: c_ast.Assignment) -> Value:
        """`lv = e` or `lv op= e`: the value written, converted to the place's type."""
        target = self.place(node.lvalue)
        mark = len(self.out)
        rhs = self.rvalue(node.rvalue)
        if isinstance(target, tuple):
            arr, index = target
            index = self.held(Value(index, INT), mark).expr
            ty, old = arr.elem, Select(ArrayVar(arr.imp), index)
        else:
            ty, old = target.ty, Var(target.imp)
        if node.op != "=":
            if isinstance(target, Scalar) and target.flag is not None:
                self.ub(Cmp("==", Var(target.flag), Int(1)), node.lvalue,
                        "read of an uninitialised variable")
            rhs = self.arith(node.op[:-1], Value(old, ty), rhs, node)
        value = self.convert(rhs, ty, node)
        return self.write(target, value.expr, node)

    def place(self, node: Any) -> Scalar | tuple[Array, AExpr]:
        if isinstance(node, c_ast.ID):
            target = self.lookup(node.name, node)
            if isinstance(target, (Array, Condition)):
                raise self.refuse(node, "an assignment to a whole array")
            return target
        if isinstance(node, c_ast.ArrayRef):
            return self.element(node)
        raise self.refuse(node, "pointers" if isinstance(node, c_ast.UnaryOp) else
                          "an assignment to something other than a variable or an array element")

    def write(self, target: Scalar | tuple[Array, AExpr], e: AExpr, node: Any) -> Value:
        p = pos_of(node)
        if isinstance(target, tuple):
            arr, index = target
            e = self.temp(e, p) if not isinstance(e, (Int, Var)) else e
            self.emit(Assign(arr.imp, Update(ArrayVar(arr.imp), index, e), p))
            return Value(e, arr.elem)
        self.assign(target.imp, e, p, local=not target.glob)
        if target.flag is not None:
            self.assign(target.flag, Int(1), p)
        return Value(Var(target.imp), target.ty)

    def increment(self, node: c_ast.UnaryOp, value: bool) -> Value | None:
        target = self.place(node.expr)
        if isinstance(target, tuple):
            arr, index = target
            ty, old = arr.elem, Select(ArrayVar(arr.imp), index)
        else:
            ty, old = target.ty, Var(target.imp)
            if target.flag is not None:
                self.ub(Cmp("==", Var(target.flag), Int(1)), node.expr,
                        "read of an uninitialised variable")
        before = self.temp(old) if value and node.op.startswith("p") else old
        new = self.arith("+" if "+" in node.op else "-", Value(before, ty), Value(Int(1), INT),
                         node)
        written = self.write(target, self.convert(new, ty).expr, node)
        if not value:
            return None
        return Value(before, ty) if node.op.startswith("p") else written

    def ternary(self, node: c_ast.TernaryOp) -> Value:
        c = self.cond(node.cond)
        yes: list[Stmt] = []
        no: list[Stmt] = []
        with self.emit_to(yes):
            a = self.rvalue(node.iftrue)
        with self.emit_to(no):
            b = self.rvalue(node.iffalse)
        t = usual(a.ty, b.ty)
        r = self.fresh("t")
        with self.emit_to(yes):
            self.assign(r, self.convert(a, t).expr)
        with self.emit_to(no):
            self.assign(r, self.convert(b, t).expr)
        self.emit(If(c, seq_of(yes), seq_of(no), pos_of(node)))
        return Value(Var(r), t)

    def nondet(self, node: c_ast.FuncCall, ty: IntType) -> Value:
        """A fresh input of type `ty` (C-I1): cell k of the call site's input array
        `nondet_L_C` is the value of its k-th call; the counter `nondet_L_C_n` is global."""
        p = pos_of(node)
        site = f"nondet_{p.line}_{p.column}"
        self.sites.append(site)
        t = self.fresh("t")
        self.assign(t, Select(ArrayVar(site), Var(site + "_n")), p)
        self.emit(Assign(site + "_n", Add(Var(site + "_n"), Int(1)), p))
        from symcert.lang.syntax import Assume

        self.emit(Assume(self.in_range(Var(t), ty), p))
        return Value(Var(t), ty)

    sites: list[str]
