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

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from pycparser import c_ast, c_generator  # type: ignore[import-untyped]

from symcert.lang.c.program import CPos
from symcert.lang.c.types import BOOL, INT, DataModel, IntType, promote, twos, usual, wrap
from symcert.lang.syntax import (
    AExpr, Add, And, ArrayVar, Assert, Assign, BExpr, Bool, Cmp, Div, If, Int, Mul, Neg, Not,
    Or, Pos, Select, Skip, Stmt, Sub, Update, Var, seq_of,
)

_SHOW = c_generator.CGenerator()
NONDET = "__VERIFIER_nondet_"
_NONDET_TYPES = {"int": "int", "uint": "unsigned int", "unsigned": "unsigned int",
                 "long": "long", "ulong": "unsigned long", "longlong": "long long",
                 "ulonglong": "unsigned long long", "char": "char", "uchar": "unsigned char",
                 "short": "short", "ushort": "unsigned short", "bool": "_Bool",
                 "_Bool": "_Bool", "size_t": "unsigned long", "u32": "unsigned int",
                 "u16": "unsigned short", "u8": "unsigned char", "s32": "int", "int128": None}


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
class Array:
    """A C array: its IMP array (global), element type and dimensions (IMP expressions: a
    literal, or the variable that holds a variable length)."""

    imp: str
    elem: IntType
    dims: tuple[AExpr, ...]


def show(node: Any) -> str:
    """The C text of a pycparser node (for messages)."""
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


class Expressions:
    """The expression half of the translation (statements.py has the other half); `out` is the
    list statements are emitted to."""

    model: DataModel
    out: list[Stmt]
    in_proc: bool
    _n: int

    # provided by statements.Translation
    refuse: Callable[[Any, str], Exception]
    lookup: Callable[[str, Any], Scalar | Array]
    call: Callable[[c_ast.FuncCall, bool], Value | None]

    # -- emission -------------------------------------------------------------------------

    def fresh(self, stem: str) -> str:
        self._n += 1
        return f"__{stem}{self._n}"

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
        p = pos_of(node)
        self.emit(Assert(ok, CPos(p.line, p.column, f"{what} in `{show(node)}`", True)))

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

    # -- values ---------------------------------------------------------------------------

    def rvalue(self, node: Any) -> Value:
        """The value of the C expression `node`, its effects emitted."""
        match node:
            case c_ast.Constant():
                return self.constant(node)
            case c_ast.ID():
                target = self.lookup(node.name, node)
                if isinstance(target, Array):
                    raise self.refuse(node, "an array used as a value")
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

    def emit_to(self, into: list[Stmt]) -> Any:
        from contextlib import contextmanager

        return contextmanager(self.emitting)(into)

    def constant(self, node: c_ast.Constant) -> Value:
        text = node.value
        if node.type == "char":
            body = text[1:-1]
            escapes = {"\\n": 10, "\\t": 9, "\\0": 0, "\\\\": 92, "\\'": 39, '\\"': 34,
                       "\\r": 13}
            if len(body) == 1:
                return Value(Int(ord(body)), INT)
            if body in escapes:
                return Value(Int(escapes[body]), INT)
            raise self.refuse(node, f"the character constant {text}")
        if node.type not in ("int", "unsigned int", "long int", "unsigned long int",
                             "long long int", "unsigned long long int"):
            raise self.refuse(node, "floating point" if "double" in node.type or
                              "float" in node.type else "strings" if node.type == "string"
                              else f"a constant of type {node.type}")
        digits = text.rstrip("uUlL")
        suffix = text[len(digits):].lower()
        value = int(digits, 0) if not (digits.startswith("0") and digits[1:2].isdigit()) \
            else int(digits, 8)
        decimal = not digits.lower().startswith("0x") and not (digits.startswith("0")
                                                               and len(digits) > 1)
        longs = suffix.count("l")
        kinds = [k for k in ("int", "long", "long long")
                 if ("long long".count("long") if k == "long long" else k.count("long"))
                 >= longs]
        candidates: list[IntType] = []
        for k in kinds:
            signed, unsigned = self.model.named(k), self.model.named("unsigned " + k)
            if "u" in suffix:
                candidates.append(unsigned)
            else:
                candidates += [signed] if decimal else [signed, unsigned]
        for t in candidates:
            if t.lo <= value <= t.hi:
                return Value(Int(value, pos_of(node)), t)
        raise self.refuse(node, "an integer constant too large for every type")

    def type_name(self, node: Any) -> IntType | None:
        """The integer type of a type name (`(T) e`, `sizeof(T)`); None for `void`."""
        raise NotImplementedError  # statements.Translation

    # -- operators ------------------------------------------------------------------------

    def unary(self, node: c_ast.UnaryOp) -> Value:
        op = node.op
        if op in ("p++", "p--", "++", "--"):
            v = self.increment(node, value=True)
            assert v is not None
            return v
        if op == "sizeof":
            return Value(Int(self.size_of(node.expr)), self.model.size_t)
        if op == "!":
            return Value(self.as_int(Not(self.cond(node.expr))), INT)
        if op in ("&", "*"):
            raise self.refuse(node, "pointers")
        v = self.rvalue(node.expr)
        t = promote(v.ty)
        v = self.convert(v, t)
        if op == "+":
            return v
        if op == "-":
            return self.arith("-", Value(Int(0), t), v, node)
        if op == "~":
            c = const_of(v.expr)
            if c is not None:
                return Value(Int(twos(~c, t)), t)
            return Value(Sub(Neg(v.expr), Int(1)) if t.signed else Sub(Int(t.hi), v.expr), t)
        raise self.refuse(node, f"the operator {op}")

    def size_of(self, node: Any) -> int:
        if isinstance(node, c_ast.Typename):
            t = self.type_name(node)
            if t is None:
                raise self.refuse(node, "sizeof of void")
            return max(t.bits // 8, 1)
        if isinstance(node, c_ast.ID):
            target = self.lookup(node.name, node)
            if isinstance(target, Array):
                n = 1
                for d in target.dims:
                    if const_of(d) is None:
                        raise self.refuse(node, "sizeof of a variable-length array")
                    n *= const_of(d)  # type: ignore[operator]
                return n * max(target.elem.bits // 8, 1)
            return max(target.ty.bits // 8, 1)
        saved = self.out
        self.out = []  # sizeof does not evaluate its operand
        try:
            return max(self.rvalue(node).ty.bits // 8, 1)
        finally:
            self.out = saved

    def arith(self, op: str, a: Value, b: Value, node: Any) -> Value:
        """`a op b` with C's semantics (C-I3, C-I4, C-U1): the operands converted by the usual
        arithmetic conversions (shifts: each promoted alone)."""
        if op in ("<<", ">>"):
            t = promote(a.ty)
            return self.shift(op, self.convert(a, t), self.convert(b, promote(b.ty)), node)
        t = usual(a.ty, b.ty)
        x, y = self.convert(a, t).expr, self.convert(b, t).expr
        cx, cy = const_of(x), const_of(y)
        if op in ("+", "-", "*"):
            build = {"+": Add, "-": Sub, "*": Mul}[op]
            if cx is not None and cy is not None:
                r = {"+": cx + cy, "-": cx - cy, "*": cx * cy}[op]
                if t.signed and not t.lo <= r <= t.hi:
                    self.ub(Bool(False), node, "signed overflow")
                return Value(Int(r if t.signed else r % (1 << t.bits)), t)
            r_e = build(x, y, pos_of(node))
            if t.signed:
                self.ub(self.in_range(r_e, t), node, "signed overflow")
                return Value(r_e, t)
            return Value(wrap(r_e, t), t)
        if op in ("/", "%"):
            return self.divide(op, x, y, t, node)
        if op in ("&", "|", "^"):
            return self.bitwise(op, x, y, t, node)
        raise self.refuse(node, f"the operator {op}")

    def divide(self, op: str, x: AExpr, y: AExpr, t: IntType, node: Any) -> Value:
        """C's `/` and `%` (C-I4): truncation toward zero over IMP's floor division."""
        cx, cy = const_of(x), const_of(y)
        if t.signed and (cy is None or cy == -1):
            self.ub(Not(And(Cmp("==", x, Int(t.lo)), Cmp("==", y, Int(-1))))
                    if cx is None or cy is None else Bool(not (cx == t.lo and cy == -1)),
                    node, "signed overflow")
        if cx is not None and cy is not None and cy != 0:
            q = abs(cx) // abs(cy) * (1 if (cx < 0) == (cy < 0) else -1)
            return Value(Int(q if op == "/" else cx - cy * q), t)
        x, y = self.temp(x), self.temp(y)
        q = self.fresh("q")
        self.assign(q, Div(x, y, pos_of(node)), pos_of(node))
        if t.signed:
            signs = (Cmp("<", x, Int(0)) if cy is not None and cy > 0 else
                     Cmp(">", x, Int(0)) if cy is not None and cy < 0 else
                     Or(And(Cmp("<", x, Int(0)), Cmp(">", y, Int(0))),
                        And(Cmp(">", x, Int(0)), Cmp("<", y, Int(0)))))
            inexact = Cmp("!=", Mul(Var(q), y), x)
            self.emit(If(And(signs, inexact), Assign(q, Add(Var(q), Int(1)), local=self.in_proc),
                         Skip()))
        if op == "/":
            return Value(Var(q), t)
        return Value(Sub(x, Mul(y, Var(q))), t)

    def shift(self, op: str, a: Value, b: Value, node: Any) -> Value:
        t = a.ty
        k = const_of(b.expr)
        if k is None:
            raise self.refuse(node, "a shift by an amount that is not a constant")
        if not 0 <= k < t.bits:
            self.ub(Bool(False), node, "shift out of range")
            return Value(Int(0), t)
        if op == ">>":
            ca = const_of(a.expr)
            if ca is not None:
                return Value(Int(ca >> k), t)
            return Value(Div(a.expr, Int(1 << k)) if k else a.expr, t)
        if t.signed:
            self.ub(Cmp(">=", a.expr, Int(0)) if const_of(a.expr) is None
                    else Bool(const_of(a.expr) >= 0),  # type: ignore[operator]
                    node, "left shift of a negative value")
        return self.arith("*", a, Value(Int(1 << k), t), node)

    def bitwise(self, op: str, x: AExpr, y: AExpr, t: IntType, node: Any) -> Value:
        cx, cy = const_of(x), const_of(y)
        if cx is not None and cy is not None:
            r = {"&": cx & cy, "|": cx | cy, "^": cx ^ cy}[op]
            return Value(Int(twos(r, t)), t)
        if op == "&":
            mask, e = (cy, x) if cy is not None else (cx, y)
            if mask is not None and mask >= 0 and (mask + 1) & mask == 0:
                return Value(self._mod(e, mask + 1), t)
        raise self.refuse(node, f"the bitwise operator {op} unless both operands are constants "
                          "or one is a mask 2^k - 1 of `&`")

    def _mod(self, e: AExpr, m: int) -> AExpr:
        from symcert.lang.syntax import Mod

        return Mod(e, Int(m))

    # -- conditions -----------------------------------------------------------------------

    def cond(self, node: Any) -> BExpr:
        """The C expression `node` as an IMP condition (nonzero is true)."""
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            return Not(self.cond(node.expr))
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
            if isinstance(target, Array):
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


def nondet_type(name: str, model: DataModel) -> IntType | None | bool:
    """The type of `__VERIFIER_nondet_<suffix>` (False: not an integer one)."""
    suffix = name[len(NONDET):]
    if suffix not in _NONDET_TYPES or _NONDET_TYPES[suffix] is None:
        return False
    return model.named(_NONDET_TYPES[suffix])  # type: ignore[arg-type]


def _what(node: Any) -> str:
    kinds = {"StructRef": "structs and unions", "CompoundLiteral": "compound literals",
             "InitList": "initialiser lists here", "Typename": "a type here",
             "GenericSelection": "_Generic"}
    return kinds.get(type(node).__name__, f"the construct {type(node).__name__}")
