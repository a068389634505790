# crosshair: off
"""What every proof obligation is built from: the `Obligation`, schematic placeholders and
stores, the branch-forking generator `collect` (docs/proofs.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from symcert.checking.smtlib import Script, conj, equal, paths, sbool, sint
from symcert.core.concrete import Env
from symcert.core.state import PathCondition, Store, SymState
from symcert.lang.syntax import (
    CMP_OPS,
    Add,
    AExpr,
    Assert,
    Assign,
    BExpr,
    Bool,
    Cmp,
    Fail,
    If,
    Int,
    Neg,
    Not,
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


X, Y = "x", "y"
"""The program variables of a schematic state: `x`, the one the rule assigns or reads, and `y`,
standing for every other variable."""

A_SHAPES: dict[str, Callable[[int], AExpr]] = {
    "int": lambda i: Int(sint(f"?k{i}")),  # type: ignore[arg-type]
    "add-int": lambda i: Add(Var(f"?t{i}"), Int(sint(f"?k{i}"))),  # type: ignore[arg-type]
    "neg": lambda i: Neg(Var(f"?t{i}")),
    "term": lambda i: Var(f"?t{i}"),
}
"""One arithmetic term per shape the smart constructors of terms.py tell apart (a literal, a sum
ending in a literal, a negation, anything else); `?t`, `?k` stand for an arbitrary term, value."""

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
    Assign: ("assign",),
    If: ("if-then", "if-else"),
    While: ("while-enter", "while-exit"),
    Assert: ("assert-pass", "assert-fail"),
    Seq: ("seq-skip", "seq"),
}
"""The rules of Figs. 2-3 by statement class; `skip` and `fail` name the absence of a step."""

EXPR_CASES: tuple[str, ...] = tuple(
    ["Int", "Var", "Bool", "Neg", "Add", "Sub", "Not", "And", "Or"] + [f"Cmp{op}" for op in CMP_OPS])
"""The cases of the induction on expressions: a base case per leaf, a step per constructor."""


def rule_of(p: Stmt, p2: Stmt) -> str:
    """The rule by which a step goes from program `p` to program `p2`."""
    match p:
        case Assign():
            return "assign"
        case If(_, then_, _):
            return "if-then" if p2 == then_ else "if-else"
        case While():
            return "while-enter" if isinstance(p2, Seq) else "while-exit"
        case Assert():
            return "assert-pass" if isinstance(p2, Skip) else "assert-fail"
        case Seq(Skip(), _):
            return "seq-skip"
        case Seq(p1, _) if isinstance(p2, Seq):
            return "seq/" + rule_of(p1, p2.first)
    return type(p).__name__.lower()


class _Inputs(Env):
    """`V0` as an environment: every input `n` holds the schematic integer `n` (its SMT constant),
    so no input is silently 0."""

    def __call__(self, name: str) -> int:
        return sint(name)  # type: ignore[return-value]


V0 = _Inputs()


def env_equal(s: Script, a: Env, b: Env, names: Iterable[str]) -> str:
    """The SMT formula `a(n) = b(n)` for every name."""
    return conj(equal(s.int_value(a(n)), s.int_value(b(n))) for n in names)


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
