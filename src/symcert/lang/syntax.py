"""IMP abstract syntax (seed 000, Fig. 1), plus `!=`, unary minus, `* / %`, `assert`, `assume`,
the calls, `return` and `var` of procedures (seed 003 §3; declarations in procedures.py), and
arrays (seed 003 §5): `a[e]` is `Select(ArrayVar(a), e)` and the statement `a[e] = e'` is the
assignment `a = Update(ArrayVar(a), e, e')` of seed 003 §5's functional view, where an array
denotes a map ℤ → ℤ and `Update` the map with one cell changed. In a symbolic term an array is
its *update sequence* (seed 003 §4, "Implementation"): the input array under a chain of
`Update`s, which a field of objects will reuse (B-H1, B-A1, B-H3).

Every node is a frozen, slotted dataclass. Source positions live in a `pos` field that is
excluded from comparison, so `parse(str(p)) == p` is a meaningful round-trip property.
`str(node)` prints concrete IMP syntax that parses back to the same node.

Sequences are right-nested (`s1; (s2; s3)`), so a program of 100,000 statements is a long
right spine: `Seq` compares, hashes and prints along that spine with loops, not recursion.

Symbolic terms reuse these nodes and share subterms: after `x = x + x` runs n times the term
of `x` is a DAG of n nodes whose tree has 2^n leaves. Compound expressions therefore hash their
top `HASH_DEPTH` levels only, equality compares each pair of shared nodes once, and every walk
over terms (evaluation, variables, translation, printing) visits each shared node once
(sharing.py). Nothing is cached in a node: a hash stored at construction would be a symbolic
value under CrossHair, which it cannot run (CROSSHAIR.md rule 11).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Union

from symcert.lang.sharing import (
    ARITY, FIELDS, WITH_OP, store_shape, structural_eq, structural_hash,
)

if TYPE_CHECKING:
    from symcert.lang.procedures import Procedures


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
        return f"{self.array}[{show_aexpr(self.index)}]"


ArrayExpr = Union[ArrayVar, Update]
AExpr = Union[Int, Var, Neg, Add, Sub, Mul, Div, Mod, Select]
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


BExpr = Union[Bool, Cmp, Not, And, Or]
ARITY.update({Neg: 1, Not: 1, Add: 2, Sub: 2, Mul: 2, Div: 2, Mod: 2, Cmp: 2, And: 2, Or: 2,
              Select: 2, Update: 3})
FIELDS.update({Select: ("array", "index"), Update: ("array", "index", "value")})
WITH_OP.add(Cmp)

# ---------------------------------------------------------------------------------------------
# Statements  stmt ::= skip | fail | VAR = aexpr | stmt; stmt | if .. fi | while .. od | assert
#                    | assume | [var] VAR = NAME(aexpr, ...) | NAME(aexpr, ...) | return aexpr
#                    | var VAR = aexpr


@dataclass(frozen=True, slots=True)
class Skip:
    """`skip`: the finished program."""

    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Fail:
    """`fail`: the error statement; a state about to run it is stuck (W-F9).

    `origin` is the statement this `fail` replaced, if any: an `assert` whose condition is
    false or, when `by_zero`, a statement that divided by zero (X-A2). `origin` only serves
    error reports (`what`); `by_zero` takes part in equality, so that the failing successors of
    `assert 1 / y > 0` (the assertion's, the division's) are two states, as they are two rules.
    """

    pos: Pos | None = field(default=None, compare=False, repr=False)
    origin: Stmt | None = field(default=None, compare=False, repr=False)
    by_zero: bool = field(default=False, repr=False)

    def __str__(self) -> str:
        return "fail"

    def what(self) -> str:
        """What went wrong, for a bug report."""
        if self.by_zero and self.origin is not None:
            shown = self.origin if isinstance(self.origin, Assign) else _condition(self.origin)
            return f"division by zero in `{shown}`"
        if isinstance(self.origin, Assert):
            return f"assertion `{self.origin.cond}` fails"
        return "`fail` reached"


@dataclass(frozen=True, slots=True)
class Assign:
    """`name = expr`, or `var name = expr` (`local`), which declares `name` a local variable of
    the procedure it is in (seed 003 §3; procedures.py)."""

    name: str
    expr: AExpr | Update
    pos: Pos | None = field(default=None, compare=False, repr=False)
    local: bool = False

    def __str__(self) -> str:
        written = array_write(self)
        if written is not None:
            return f"{self.name}[{show_aexpr(written.index)}] = {show_aexpr(written.value)}"
        return f"{'var ' if self.local else ''}{self.name} = {show_aexpr(self.expr)}"  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Call:
    """`name(args)`, `target = name(args)` or `var target = name(args)` (`local`): a call of
    procedure `name` by value (seed 003 §3), its value assigned to `target` when there is one.
    `procs` is the program's table of procedures, shared by all its calls (procedures.py)."""

    name: str
    args: tuple[AExpr, ...]
    target: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)
    local: bool = False
    procs: Procedures = field(default_factory=dict, compare=False, repr=False)  # type: ignore[assignment]

    def __str__(self) -> str:
        call = f"{self.name}({', '.join(map(show_aexpr, self.args))})"
        if self.target is None:
            return call
        return f"{'var ' if self.local else ''}{self.target} = {call}"


@dataclass(frozen=True, slots=True)
class Return:
    """`return expr`: ends the running procedure with the value of `expr` (seed 003 §3)."""

    expr: AExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"return {show_aexpr(self.expr)}"


@dataclass(frozen=True, slots=True)
class If:
    """`if cond then then_ else else_ fi`."""

    cond: BExpr
    then_: Stmt
    else_: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return show_stmt(self)


@dataclass(frozen=True, slots=True)
class While:
    """`while cond do body od`."""

    cond: BExpr
    body: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return show_stmt(self)


@dataclass(frozen=True, slots=True)
class Assert:
    """`assert cond`: steps to `skip` when cond holds and to `fail` otherwise.

    It behaves as PyWiSE's `if cond then skip else fail fi`, in the same single step.
    """

    cond: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"assert {self.cond}"


@dataclass(frozen=True, slots=True)
class Assume:
    """`assume cond`: steps to `skip` when cond holds; otherwise no rule applies and the run is
    *blocked*, neither finished nor stuck, never a bug (X-U1). Symbolically it has the one
    successor `φ ∧ cond`."""

    cond: BExpr
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"assume {self.cond}"


@dataclass(frozen=True, slots=True, eq=False)
class Seq:
    """`first; second`, right-nested; equality walks the right spine iteratively and the hash
    looks at its first two statements only (a spine of 100,000 statements is never recursed)."""

    first: Stmt
    second: Stmt
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:
        second = self.second
        return hash((Seq, self.first, second.first if isinstance(second, Seq) else second))

    def __eq__(self, other: object) -> bool:
        a: object = self
        b: object = other
        while isinstance(a, Seq) and isinstance(b, Seq):
            if a is b:
                return True
            if a.first != b.first:
                return False
            a, b = a.second, b.second
        if isinstance(a, Seq) or isinstance(b, Seq):
            return False
        return a == b

    def __str__(self) -> str:
        return show_stmt(self)


Stmt = Union[Skip, Fail, Assign, Seq, If, While, Assert, Assume, Call, Return]
Node = Union[AExpr, BExpr, ArrayExpr, Stmt]


def array_write(s: Stmt) -> Update | None:
    """The update of `a[i] = e` (`Assign(a, Update(ArrayVar(a), i, e))`), None for any other
    statement."""
    if isinstance(s, Assign) and isinstance(s.expr, Update):
        return s.expr
    return None


def _condition(s: Stmt) -> object:
    """The condition of an `if`, `while`, `assert` or `assume` (the statement itself otherwise)."""
    return s.cond if isinstance(s, (If, While, Assert, Assume)) else s


def seq_of(stmts: list[Stmt]) -> Stmt:
    """Fold a non-empty list of statements into a right-nested sequence."""
    result = stmts[-1]
    for s in reversed(stmts[:-1]):
        result = Seq(s, result, s.pos)
    return result


def spine(s: Stmt) -> Iterator[Stmt]:
    """Yield the statements of a right-nested sequence, in order."""
    while isinstance(s, Seq):
        yield s.first
        s = s.second
    yield s


# ---------------------------------------------------------------------------------------------
# Printing concrete syntax.  Precedence: or < and < not < comparison < +,- < *,/,% < unary minus.


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


def _bexpr_at(b: BExpr, level: int) -> str:
    """Print `b` in a context of precedence `level` (0 or, 1 and, 2 not)."""
    own = 0 if isinstance(b, Or) else 1 if isinstance(b, And) else 2
    text = str(b)
    return f"({text})" if own < level else text


def show_stmt(s: Stmt, indent: str = "") -> str:
    """Print a statement as IMP source, one statement a line, blocks indented."""
    return ";\n".join(_show_simple(t, indent) for t in spine(s))


def _show_simple(s: Stmt, indent: str) -> str:
    inner = indent + "  "
    match s:
        case If(c, t, e):
            return (
                f"{indent}if {c} then\n{show_stmt(t, inner)}\n"
                f"{indent}else\n{show_stmt(e, inner)}\n{indent}fi"
            )
        case While(c, b):
            return f"{indent}while {c} do\n{show_stmt(b, inner)}\n{indent}od"
        case Seq():  # a sequence nested first in another (the generator builds them)
            return show_stmt(s, indent)
        case _:
            return indent + str(s)


