"""C's operators over IMP's mathematical integers (lemmas C-I2, C-I3, C-I4, C-U1); the module
docstring of expressions.py says each one's translation."""

from __future__ import annotations

from typing import Any

from pycparser import c_ast  # type: ignore[import-untyped]

from symcert.lang.c.types import INT, DataModel, IntType, promote, twos, usual, wrap
from symcert.lang.c.values import Array, Emitter, Value, const_of, pos_of
from symcert.lang.syntax import (
    AExpr, Add, And, Assign, Bool, Cmp, Div, If, Int, Mod, Mul, Neg, Not, Or, Select, Skip, Sub,
    Var,
)

NONDET = "__VERIFIER_nondet_"
_NONDET_TYPES = {"int": "int", "uint": "unsigned int", "unsigned": "unsigned int",
                 "long": "long", "ulong": "unsigned long", "longlong": "long long",
                 "ulonglong": "unsigned long long", "char": "char", "uchar": "unsigned char",
                 "short": "short", "ushort": "unsigned short", "bool": "_Bool",
                 "_Bool": "_Bool", "size_t": "unsigned long", "u32": "unsigned int",
                 "u16": "unsigned short", "u8": "unsigned char", "s32": "int", "int128": None}


class Operators(Emitter):
    """Constants, unary and binary operators, `sizeof`."""

    rvalue: Any  # expressions.Expressions
    cond: Any

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
        raise NotImplementedError  # translate.Translation

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
            if isinstance(target, Array) and target.param:
                raise self.refuse(node, "sizeof of an array parameter (a pointer)")
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
                # a compound operand is held, so that a chain of checks stays linear in size
                held = r_e if _leaf(x) and _leaf(y) else self.temp(r_e, pos_of(node))
                return Value(held, t)
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
        return Mod(e, Int(m))


def _leaf(e: AExpr) -> bool:
    """A literal, a variable or a read of an array cell at one of those."""
    return isinstance(e, (Int, Var)) or (isinstance(e, Select) and isinstance(e.index, (Int, Var)))


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
