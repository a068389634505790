# crosshair: off
"""What every proof obligation is built from: the `Obligation`, schematic placeholders and
stores, the branch-forking generator `collect` (docs/proofs.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable
import operator

from symcert.verify.smtlib import SMT_TEXT, Script, SymInt, conj, equal, numeral, paths, sbool
from symcert.core.concrete import Env
from symcert.core.frames import Frame
from symcert.core.state import PathCondition, Store, SymState
from symcert.lang.syntax import (
    CMP_OPS,
    Add,
    AExpr,
    Assert,
    Assign,
    Assume,
    BExpr,
    Bool,
    Call,
    Cmp,
    Fail,
    If,
    Int,
    Mul,
    Neg,
    New,
    Not,
    Return,
    Seq,
    Skip,
    Stmt,
    Var,
    While,
)


@dataclass(frozen=True)
class Obligation:
    """One proof obligation: its SMT-LIB script and what to print when a prover refutes it.

    `premises` is the script of its hypotheses alone (VALID there: they contradict each other,
    and the obligation holds vacuously). `state` is the schematic symbolic state it starts from
    and `names` the program variables it compares; `successor` the symbolic successor it is
    about, `value` the symbolic value of an expression it is about.
    """

    name: str
    lemma: str
    rule: str
    text: str
    premises: str
    state: SymState | None = None
    names: tuple[str, ...] = ()
    successor: SymState | None = None
    value: AExpr | BExpr | None = None


@dataclass(frozen=True, eq=False)
class SymNum(SymInt):
    """A schematic integer that also multiplies and divides like an `int`: `//` and `%` by a
    zero raise ZeroDivisionError (generation branches on the divisor), otherwise they are the
    translation `SMT_TEXT.div`/`mod`, which X-A1 proves is Python's floor division and modulo."""

    def smt(self) -> str:
        """Its SMT-LIB term."""
        if self.op in _DIVIDE:
            a, b = (x.smt() if isinstance(x, SymInt) else numeral(x) for x in self.args)  # type: ignore[arg-type]
            return getattr(SMT_TEXT, self.op)(a, b)  # type: ignore[no-any-return]
        return super().smt()

    def value(self, model: dict[str, int | bool]) -> int:
        """Its value under a prover's model (a division by zero reads 0, as no step reads it)."""
        if self.op in _PYTHON:
            a, b = (x.value(model) if isinstance(x, SymInt) else int(x) for x in self.args)  # type: ignore[call-overload]
            return 0 if self.op in _DIVIDE and b == 0 else _PYTHON[self.op](a, b)  # type: ignore[no-any-return]
        return super().value(model)

    def __add__(self, other: object) -> SymNum:
        return _num("+", self, other)

    def __radd__(self, other: object) -> SymNum:
        return _num("+", other, self)

    def __sub__(self, other: object) -> SymNum:
        return _num("-", self, other)

    def __rsub__(self, other: object) -> SymNum:
        return _num("-", other, self)

    def __neg__(self) -> SymNum:
        return SymNum("-", (self,))

    def __mul__(self, other: object) -> SymNum:
        return _num("*", self, other)

    def __rmul__(self, other: object) -> SymNum:
        return _num("*", other, self)

    def __floordiv__(self, other: object) -> SymNum:
        return _num("div", self, other)

    def __rfloordiv__(self, other: object) -> SymNum:
        return _num("div", other, self)

    def __mod__(self, other: object) -> SymNum:
        return _num("mod", self, other)

    def __rmod__(self, other: object) -> SymNum:
        return _num("mod", other, self)


_PYTHON: dict[str, Callable[[int, int], int]] = {
    "*": operator.mul, "div": operator.floordiv, "mod": operator.mod}
_DIVIDE = ("div", "mod")


def _num(op: str, a: object, b: object) -> SymNum:
    """`a op b` as a schematic integer, or NotImplemented for a non-integer operand."""
    if any(isinstance(v, bool) or not isinstance(v, (int, SymInt)) for v in (a, b)):
        return NotImplemented  # type: ignore[no-any-return]
    if op in _DIVIDE and b == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    return SymNum(op, (a, b))


def snum(name: str) -> SymNum:
    """A schematic integer constant that multiplies and divides (`SymNum`)."""
    return SymNum("const", (name,))


X, Y = "x", "y"
"""The program variables of a schematic state: `x`, the one the rule assigns or reads, and `y`,
standing for every other variable."""

A_SHAPES: dict[str, Callable[[int], AExpr]] = {
    "int": lambda i: Int(snum(f"?k{i}")),  # type: ignore[arg-type]
    "add-int": lambda i: Add(Var(f"?t{i}"), Int(snum(f"?k{i}"))),  # type: ignore[arg-type]
    "mul-int": lambda i: Mul(Var(f"?t{i}"), Int(snum(f"?k{i}"))),  # type: ignore[arg-type]
    "neg": lambda i: Neg(Var(f"?t{i}")),
    "term": lambda i: Var(f"?t{i}"),
}
"""One arithmetic term per shape the smart constructors of terms.py tell apart (a literal, a sum
ending in a literal, a product ending in a literal, a negation, anything else); `?t`, `?k` stand for an arbitrary term, value."""

B_SHAPES: dict[str, Callable[[int], BExpr]] = {
    "bool": lambda i: Bool(sbool(f"?b{i}")),  # type: ignore[arg-type]
    "not": lambda i: Not(Cmp("<=", Var(f"u{i}"), Var(f"w{i}"))),
    "atom": lambda i: Cmp("<=", Var(f"u{i}"), Var(f"w{i}")),
}
"""One formula per shape `negate`, `conj`, `disj` tell apart (a literal, a negation, anything
else); each is its own symbolic value under the identity store."""

PHI = PathCondition.of(Bool(sbool("?phi")))  # type: ignore[arg-type]
"""The schematic path condition `φ`: one unknown conjunct."""


def _placeholder(name: str) -> Stmt:
    """A statement standing for an arbitrary one (`?P1 = 0`): a rule only carries it along."""
    return Assign(f"?{name}", Int(0))


P1, P2, Q, BODY = (_placeholder(n) for n in ("P1", "P2", "Q", "BODY"))

RULES: dict[type, tuple[str, ...]] = {
    Skip: ("skip",),
    Fail: ("fail",),
    Assign: ("assign", "assign-by-zero"),
    If: ("if-then", "if-else", "if-by-zero"),
    While: ("while-enter", "while-exit", "while-by-zero"),
    Assert: ("assert-pass", "assert-fail", "assert-by-zero"),
    Assume: ("assume-pass", "assume-blocked", "assume-by-zero"),
    Seq: ("seq-skip", "seq"),
    Call: ("call", "call-by-zero"),
    Return: ("return", "return-by-zero"),
    New: ("new", "new-by-zero"),
}
"""The rules of Figs. 2-3 by statement class; `skip` and `fail` name the absence of a step,
`<statement>-by-zero` the step to `fail` of a statement that divides by zero (X-A2),
`assume-blocked` an `assume` whose false condition blocks the run (X-U1); `call` and `return`
are seed 003 §3's procedure call and return (the call pushes a frame, statement or assigned;
`return e` pops it, its value assigned to the call's target); `new` is seed 003 §4's object
creation, `new-by-zero` its step to `fail` when written to a field of nil (`x.f = new C`; a
field's read and write are assignments, `assign` and `assign-by-zero` at nil)."""

FRAME_RULES: dict[type, tuple[str, ...]] = {
    Skip: ("return-end",),
    Assign: ("assign-local", "assign-global", "var"),
}
"""The rules seed 003 §3 adds for a statement run in a procedure (a frame on the stack):
the end of the body returns 0 (`return-end`), an assignment goes to the running procedure's
locals `τ` (`assign-local`, `var` for `var x = e`) or to the globals (`assign-global`)."""

EXPR_CASES: tuple[str, ...] = tuple(
    ["Int", "Var", "Bool", "Nil", "Neg", "Add", "Sub", "Mul", "Div", "Mod", "Select", "Not", "And",
     "Or"]
    + [f"Cmp{op}" for op in CMP_OPS])
"""The cases of the induction on expressions: a base case per leaf, a step per constructor
(an array read's, `Select`, in obligations/arrays.py)."""

Operands = list[Callable[[], Any]]

OPERATIONS: dict[str, tuple[str, Callable[[Any, Operands], Any]]] = {
    "neg": ("a", lambda alg, a: alg.neg(a[0]())),
    "add": ("aa", lambda alg, a: alg.add(a[0](), a[1]())),
    "sub": ("aa", lambda alg, a: alg.sub(a[0](), a[1]())),
    "mul": ("aa", lambda alg, a: alg.mul(a[0](), a[1]())),
    "div": ("aa", lambda alg, a: alg.div(a[0](), a[1]())),
    "mod": ("aa", lambda alg, a: alg.mod(a[0](), a[1]())),
    **{f"cmp{op}": ("aa", lambda alg, a, op=op: alg.cmp(op, a[0](), a[1]())) for op in CMP_OPS},
    "not": ("b", lambda alg, a: alg.not_(a[0]())),
    "and": ("bb", lambda alg, a: alg.and_(a[0](), a[1])),
    "or": ("bb", lambda alg, a: alg.or_(a[0](), a[1])),
}
"""Each operation of the expression fold (algebra.py) by name: the sorts of its operands (`a`
arithmetic, `b` boolean) and how the fold applies an algebra to them: operands are thunks,
forced left to right, the right one of `and`/`or` only by the algebra."""


def case_of(operation: str) -> str:
    """The case of `EXPR_CASES` an operation of `OPERATIONS` is the step of (`cmp<` → `Cmp<`)."""
    return operation[0].upper() + operation[1:]


def rule_of(p: Stmt, p2: Stmt) -> str:
    """The rule by which a step goes from program `p` to program `p2`."""
    if isinstance(p2, Fail) and p2.by_zero and not isinstance(p, Seq):
        return f"{type(p).__name__.lower()}-by-zero"
    match p:
        case Assign():
            return "assign"
        case If(_, then_, _):
            return "if-then" if p2 == then_ else "if-else"
        case While():
            return "while-enter" if isinstance(p2, Seq) else "while-exit"
        case Assert():
            return "assert-pass" if isinstance(p2, Skip) else "assert-fail"
        case Assume():
            return "assume-pass"
        case Seq(Skip(), _):
            return "seq-skip"
        case Seq(p1, _) if isinstance(p2, Seq):
            return "seq/" + rule_of(p1, p2.first)
    return type(p).__name__.lower()


class _Inputs(Env):
    """`V0` as an environment: every input `n` holds the schematic integer `n` (its SMT constant),
    so no input is silently 0."""

    def __call__(self, name: str) -> int:
        return snum(name)  # type: ignore[return-value]


V0 = _Inputs()


def env_equal(s: Script, a: Env, b: Env, names: Iterable[str]) -> str:
    """The SMT formula `a(n) = b(n)` for every name."""
    return conj(equal(s.int_value(a(n)), s.int_value(b(n))) for n in names)


def frames_equal(s: Script, a: Frame[Env] | None, b: Frame[Env] | None) -> str:
    """The SMT formula: the stacks `a` and `b` (seed 003 §3) have the same closures, frame by
    frame the same procedure, call target, caller's continuation and height (`false` if not),
    and each frame's locals the same values (`true` for two empty stacks)."""
    parts: list[str] = []
    while a is not None and b is not None:
        if (a.proc.name, a.target, a.height) != (b.proc.name, b.target, b.height) \
                or a.caller != b.caller:
            return "false"
        parts.append(env_equal(s, a.locals, b.locals, sorted(a.proc.locals)))
        a, b = a.below, b.below
    return conj(parts) if a is None and b is None else "false"


@dataclass
class Draft:
    """An obligation before its path's branch conditions are added to the hypotheses."""

    lemma: str
    rule: str
    script: Script
    hypotheses: list[str]
    goal: str
    state: SymState | None = None
    names: tuple[str, ...] = ()
    successor: SymState | None = None
    value: AExpr | BExpr | None = None


def collect(variant: str, build: Callable[[], list[Draft]]) -> list[Obligation]:
    """The obligations of every path of `build`, named `lemma/rule/variant#path`."""
    out: list[Obligation] = []
    for bits, facts, constants, drafts in paths(build):
        for d in drafts:  # type: ignore[attr-defined]
            for name, sort in sorted(constants):
                d.script.declare(name, sort)
            name = f"{d.lemma}/{d.rule}/{variant}" + (f"#{bits}" if bits else "")
            text = d.script.text([*facts, *d.hypotheses], d.goal)
            premises = d.script.text([*facts, *d.hypotheses], "false")
            out.append(Obligation(name, d.lemma, d.rule, text, premises, d.state, d.names,
                                  d.successor, d.value))
    return out


def schematic_store(*bindings: tuple[str, AExpr]) -> Store:
    return Store(tuple(sorted(bindings)))


S_X = schematic_store((X, Var("?sx")))
"""A store binding `x` to an arbitrary term `?sx` (and every other variable to itself)."""
