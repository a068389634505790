"""IMP's expressions (seed 000, Fig. 1): integers, variables, `-`, `+ - * / %`, comparisons,
`true false not and or`, and arrays (seed 003 §5): `a[e]` is `Select(ArrayVar(a), e)`, and
`Update(a, e, e')` is seed 003 §5's `(a[e] = e')`, the map `a` with one cell changed. In a
symbolic term an array is its *update sequence* (seed 003 §4, "Implementation"): the input array
under a chain of `Update`s. Objects (seed 003 §4) reuse that shape: a field `f` is the global
map `.f` from references to values (`field_map`), so `x.f` is `Select(ArrayVar(".f"), x)`,
printed back as `x.f`, and `nil` is the reference 0 (B-H1, B-A1, B-H3). Every node
is a frozen, slotted dataclass whose `pos` takes no part in equality; `str` prints IMP with the
parentheses the precedence needs. Compound expressions hash and compare as shared terms
(sharing.py). syntax.py adds the statements and re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from symcert.lang.sharing import (
    ARITY, FIELDS, WITH_OP, store_shape, structural_eq, structural_hash,
)


@dataclass(frozen=True, slots=True)
class Pos:
    """A source position: 1-based line and column."""

    line: int
    column: int


def operands(e: AExpr | BExpr | ArrayExpr) -> tuple[AExpr | BExpr | ArrayExpr, ...]:
    """The direct subexpressions of an expression (none for literals and variables)."""
    match e:
        case Select(a, i):
            return (a, i)
        case Update(a, i, v):
            return (a, i, v)
        case Neg(a) | Not(a):
            return (a,)
        case Add(l, r) | Sub(l, r) | Mul(l, r) | Div(l, r) | Mod(l, r):
            return (l, r)
        case Cmp(_, l, r) | And(l, r) | Or(l, r):
            return (l, r)
        case Quant(_, _, lo, hi, body):
            return (lo, hi, body)
    return ()



# ---------------------------------------------------------------------------------------------
# Arithmetic expressions  aexpr ::= INT | VAR | aexpr (+|-|*|/|%) aexpr | - aexpr


@dataclass(frozen=True, slots=True)
class Int:
    """An integer literal."""

    value: int
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Var:
    """A program variable (in a symbolic term: the symbolic input of that name)."""

    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Nil:
    """`nil`, the reference to no object (seed 003 §4); its value is 0 in every algebra."""

    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "nil"


FIELD = "."
"""The first character of a field's map: field `f` is the array variable `.f`, a name no
program variable can have."""


def field_map(name: str) -> str:
    """The name of the global map of field `name` (seed 003 §4, fields as functions)."""
    return FIELD + name


def is_field(name: str) -> bool:
    """Whether an array variable's name is a field's map (or a fresh name seed 004 made of one)."""
    return name[:1] == FIELD


def field_of(a: object) -> str | None:
    """The field whose map `a` is, when `a` is a field's map variable (program syntax)."""
    if type(a) is ArrayVar and is_field(a.name):  # type: ignore[attr-defined]
        return a.name[1:]  # type: ignore[attr-defined]
    return None


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        inner = show_aexpr(self.operand)
        # `-(5)` keeps the parentheses: `-5` would parse as the literal Int(-5).
        if isinstance(self.operand, (Int, *BINARY)):
            return f"-({inner})"
        return f"-{inner}"


@dataclass(frozen=True, slots=True)
class _Binary:
    """A binary arithmetic operator `left op right` (the subclasses below)."""

    left: AExpr
    right: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        return show_aexpr(self)


@dataclass(frozen=True, slots=True, eq=False)
class Add(_Binary):
    """Addition."""


@dataclass(frozen=True, slots=True, eq=False)
class Sub(_Binary):
    """Subtraction."""


@dataclass(frozen=True, slots=True, eq=False)
class Mul(_Binary):
    """Multiplication."""


@dataclass(frozen=True, slots=True, eq=False)
class Div(_Binary):
    """Python's floor division `//`, written `/`: rounds towards minus infinity (`-7 / 2 == -4`).
    A zero divisor steps to `fail` (X-A2)."""


@dataclass(frozen=True, slots=True, eq=False)
class Mod(_Binary):
    """Python's `%`: the remainder of `/`, with the sign of the divisor (`7 % -3 == -2`).
    A zero divisor steps to `fail` (X-A2)."""


@dataclass(frozen=True, slots=True)
class ArrayVar:
    """An array variable (seed 003 §5): a map from all integers to integers; in a symbolic term,
    the input array of that name, the bottom of every update sequence."""

    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False)
    decl: object = field(default=None, compare=False, repr=False)
    """A field's map in a parsed program: the program's table of declarations (its classes,
    procedures.table_of); None elsewhere."""

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Update:
    """`array` with the cell `index` set to `value` (seed 003 §5's `(a[e] = e')`, an update of
    the sequence of §4's "Implementation"). A program writes it only as the statement
    `a[index] = value` (`Assign`); terms print it `a[index := value]`."""

    array: ArrayExpr
    index: AExpr
    value: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        return f"{self.array}[{show_aexpr(self.index)} := {show_aexpr(self.value)}]"


@dataclass(frozen=True, slots=True)
class Select:
    """`array[index]`: the cell `index` of an array (seed 003 §5). Over an update sequence it
    denotes B-A1's conditional: `Update(ρ, j, v)[i]` is `if i = j then v else ρ[i]`."""

    array: ArrayExpr
    index: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        name = field_of(self.array)
        if name is not None:  # `x.f`: a path, or a term in parentheses
            obj = show_aexpr(self.index)
            return f"{obj}.{name}" if type(self.index) in (Var, Select) else f"({obj}).{name}"
        return f"{self.array}[{show_aexpr(self.index)}]"


ArrayExpr = Union[ArrayVar, Update]
AExpr = Union[Int, Var, Neg, Add, Sub, Mul, Div, Mod, Select, Nil]
BINARY: tuple[type, ...] = (Add, Sub, Mul, Div, Mod)
"""The binary arithmetic operators."""
DIVISIONS: tuple[type, ...] = (Div, Mod)
"""The operators that fail on a zero divisor (X-A2)."""

# ---------------------------------------------------------------------------------------------
# Boolean expressions  bexpr ::= true | false | bexpr (and|or) bexpr | not bexpr | aexpr CMP aexpr

CMP_OPS = ("==", "!=", "<", "<=", ">", ">=")


@dataclass(frozen=True, slots=True)
class Bool:
    """`true` or `false`."""

    value: bool
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "true" if self.value else "false"


@dataclass(frozen=True, slots=True)
class Cmp:
    """A comparison `left op right`, op one of `CMP_OPS`."""

    op: str
    left: AExpr
    right: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        return f"{show_aexpr(self.left)} {self.op} {show_aexpr(self.right)}"


@dataclass(frozen=True, slots=True)
class Not:
    """Negation."""

    operand: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        return f"not {_bexpr_at(self.operand, 2)}"


@dataclass(frozen=True, slots=True)
class And:
    """Conjunction."""

    left: BExpr
    right: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        test = class_test(self)
        if test is not None:  # `e is C` (seed 003 §4)
            return f"{show_aexpr(test[0])} is {test[1]}"
        return f"{_bexpr_at(self.left, 1)} and {_bexpr_at(self.right, 2)}"


@dataclass(frozen=True, slots=True)
class Or:
    """Disjunction."""

    left: BExpr
    right: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    _shape: int = field(init=False, compare=False, repr=False)

    __post_init__ = store_shape
    __hash__ = structural_hash
    __eq__ = structural_eq

    def __str__(self) -> str:
        return f"{_bexpr_at(self.left, 0)} or {_bexpr_at(self.right, 1)}"


@dataclass(frozen=True, slots=True)
class Quant:
    """A bounded quantifier (X-Q1): `forall var in lo .. hi :: body` when `universal`, else
    `exists var in lo .. hi :: body`. `var` ranges over the integers `lo` to `hi` inclusive (none
    when `hi < lo`), `lo` and `hi` evaluated once, before the body; `var` is bound in `body`
    only. An annotation's construct (lang/quantifiers.py says where it may stand). It is no
    shared node of sharing.py (its `universal` and `var` take part in equality): it compares
    and hashes as a plain dataclass, its operands as the shared terms they are."""

    universal: bool
    var: str
    lo: AExpr
    hi: AExpr
    body: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        word = "forall" if self.universal else "exists"
        return (f"{word} {self.var} in {show_aexpr(self.lo)} .. {show_aexpr(self.hi)} :: "
                f"{self.body}")


BExpr = Union[Bool, Cmp, Not, And, Or, Quant]
ARITY.update({Neg: 1, Not: 1, Add: 2, Sub: 2, Mul: 2, Div: 2, Mod: 2, Cmp: 2, And: 2, Or: 2,
              Select: 2, Update: 3})
FIELDS.update({Select: ("array", "index"), Update: ("array", "index", "value")})
WITH_OP.add(Cmp)

# ---------------------------------------------------------------------------------------------
# Printing.  Precedence: quantifier < or < and < not < comparison < +,- < *,/,% < unary minus.


_OPS: dict[type, tuple[str, int]] = {Add: ("+", 1), Sub: ("-", 1), Mul: ("*", 2), Div: ("/", 2),
                                     Mod: ("%", 2)}
"""Each binary operator's symbol and precedence level (all left-associative)."""


def show_aexpr(e: AExpr) -> str:
    """Print an arithmetic expression with the parentheses its structure needs: an operand of
    a lower level, and a right operand of the same level (left associativity)."""
    op = _OPS.get(type(e))
    if op is None:
        return str(e)
    symbol, level = op
    left, right = operands(e)
    shown_l, shown_r = show_aexpr(left), show_aexpr(right)  # type: ignore[arg-type]
    if _OPS.get(type(left), ("", 3))[1] < level:
        shown_l = f"({shown_l})"
    if _OPS.get(type(right), ("", 3))[1] <= level:
        shown_r = f"({shown_r})"
    return f"{shown_l} {symbol} {shown_r}"


def class_test(b: object) -> tuple[AExpr, str] | None:
    """`(e, C)` when `b` is `e is C`: `e != nil and .class[e] == k`, `C` the class numbered k (from 0) of the
    program's table (seed 003 §4, lang/methods.py); None otherwise."""
    if type(b) is not And:
        return None
    left, right = b.left, b.right  # type: ignore[attr-defined]
    if not (type(left) is Cmp and left.op == "!=" and type(left.right) is Nil
            and type(right) is Cmp and right.op == "==" and type(right.left) is Select
            and type(right.right) is Int and type(right.left.array) is ArrayVar
            and right.left.array.name == FIELD + "class" and right.left.index == left.left):
        return None
    classes = getattr(right.left.array.decl, "classes", ())
    k = right.right.value
    return (left.left, classes[k][0]) if 0 <= k < len(classes) else None


def _bexpr_at(b: BExpr, level: int) -> str:
    """Print `b` in a context of precedence `level` (0 or, 1 and, 2 not); a quantifier, whose
    body reaches as far right as it can, is parenthesized wherever an operand is printed."""
    own = -1 if isinstance(b, Quant) else 0 if isinstance(b, Or) else \
        1 if isinstance(b, And) and class_test(b) is None else 2
    text = str(b)
    return f"({text})" if own < level else text
