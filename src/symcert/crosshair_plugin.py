# crosshair: off
# (this module is CrossHair's plugin, not code to analyse)
"""CrossHair plugin: bounded-depth constructors for the AST and state types, a solver stub.

Registered through the `crosshair.plugin` entry point (pyproject.toml), so a plain
`crosshair check src/` (or `crosshair watch src/`) loads it: no `--extra_plugin` needed.
CrossHair loads it before it imports the code under analysis, so setting `SYMCERT_CONTRACTS`
here (unless the caller set it) switches the runtime contracts on: with them off CrossHair
would find nothing to check. Measured reasons for the rest, from `shared/CROSSHAIR.md`:
CrossHair's own construction of the recursive AST unions recurses until the process dies; z3
inside analysed code makes CrossHair fall back to concrete values; icontract needs its
in-progress set initialised before CrossHair traces the first contracted call. crosshair is a
test dependency: nothing but CrossHair imports this module.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("SYMCERT_CONTRACTS", "1")

import icontract._checkers  # noqa: E402
from crosshair import register_type  # noqa: E402
from crosshair.tracers import ResumedTracing  # noqa: E402

from symcert.concrete import Env  # noqa: E402
from symcert.solver import Sat, Solver  # noqa: E402
from symcert.symbolic import PathCondition, Store, SymState  # noqa: E402
from symcert.syntax import (  # noqa: E402
    Add, AExpr, And, Assert, Assign, BExpr, Bool, Cmp, Fail, If, Int, Neg, Not, Or, Seq, Skip,
    Stmt, Sub, Var, While,
)

NAMES = ("x", "y")
DEPTH = 2
OPS = ("==", "!=", "<", "<=", ">", ">=")


def _name(p: Any) -> str:
    return NAMES[0] if p(bool) else NAMES[1]


def aexpr(p: Any, depth: int = DEPTH) -> AExpr:
    """An arithmetic expression of height at most `depth + 1`."""
    k = p(int)
    if depth <= 0 or k <= 0:
        return Int(p(int)) if p(bool) else Var(_name(p))
    if k == 1:
        return Neg(aexpr(p, depth - 1))
    if k == 2:
        return Add(aexpr(p, depth - 1), aexpr(p, depth - 1))
    return Sub(aexpr(p, depth - 1), aexpr(p, depth - 1))


def bexpr(p: Any, depth: int = DEPTH) -> BExpr:
    """A boolean expression of height at most `depth + 1`."""
    k = p(int)
    if depth <= 0 or k <= 0:
        if p(bool):
            return Bool(p(bool))
        i = p(int)
        op = OPS[0] if i <= 0 else OPS[5] if i >= 5 else OPS[i]
        return Cmp(op, aexpr(p, depth - 1), aexpr(p, depth - 1))
    if k == 1:
        return Not(bexpr(p, depth - 1))
    if k == 2:
        return And(bexpr(p, depth - 1), bexpr(p, depth - 1))
    return Or(bexpr(p, depth - 1), bexpr(p, depth - 1))


def stmt(p: Any, depth: int = DEPTH) -> Stmt:
    """A statement of height at most `depth + 1`."""
    k = p(int)
    if depth <= 0 or k <= 0:
        j = p(int)
        if j <= 0:
            return Assign(_name(p), aexpr(p, 1))
        if j == 1:
            return Assert(bexpr(p, 1))
        return Skip() if j == 2 else Fail()
    if k == 1:
        return Seq(stmt(p, depth - 1), stmt(p, depth - 1))
    if k == 2:
        return If(bexpr(p, 1), stmt(p, depth - 1), stmt(p, depth - 1))
    return While(bexpr(p, 1), stmt(p, depth - 1))


def store(p: Any) -> Store:
    """A store binding a subset of `NAMES` to bounded terms."""
    s = Store()
    for x in NAMES:
        if p(bool):
            s = s.update(x, aexpr(p, 1))
    return s


def env(p: Any) -> Env:
    """A valuation of `NAMES` (every other variable 0)."""
    return Env.of({x: p(int) for x in NAMES})


def path_condition(p: Any) -> PathCondition:
    """A path condition of at most two conjuncts."""
    pc = PathCondition()
    for _ in range(2):
        if p(bool):
            pc = pc.extend(bexpr(p, 1))
    return pc


class UnknownSolver:
    """Stands for `Solver` under analysis: answers UNKNOWN, so nothing is pruned (sound for
    every W lemma, which then speaks of the unpruned semantics)."""

    def check(self, pc: PathCondition, *hint: object) -> tuple[Sat, Env | None]:
        return Sat.UNKNOWN, None


def install() -> None:
    """Register the constructors and initialise icontract's in-progress set."""
    icontract._checkers._IN_PROGRESS.set(set())
    for cls, make in (
        (Int, lambda p: Int(p(int))), (Var, lambda p: Var(_name(p))),
        (Neg, lambda p: Neg(aexpr(p, 1))),
        (Add, lambda p: Add(aexpr(p, 1), aexpr(p, 1))),
        (Sub, lambda p: Sub(aexpr(p, 1), aexpr(p, 1))),
        (Bool, lambda p: Bool(p(bool))),
        (Cmp, lambda p: Cmp("<", aexpr(p, 1), aexpr(p, 1))),
        (Not, lambda p: Not(bexpr(p, 1))),
        (And, lambda p: And(bexpr(p, 1), bexpr(p, 1))),
        (Or, lambda p: Or(bexpr(p, 1), bexpr(p, 1))),
        (Skip, lambda p: Skip()), (Fail, lambda p: Fail()),
        (Assign, lambda p: Assign(_name(p), aexpr(p, 1))),
        (Assert, lambda p: Assert(bexpr(p, 1))),
        (Seq, lambda p: Seq(stmt(p, 1), stmt(p, 1))),
        (If, lambda p: If(bexpr(p, 1), stmt(p, 1), stmt(p, 1))),
        (While, lambda p: While(bexpr(p, 1), stmt(p, 1))),
        (Store, store), (Env, env), (PathCondition, path_condition),
        (SymState, lambda p: SymState(path_condition(p), store(p), stmt(p))),
        (Solver, lambda p: UnknownSolver()),
    ):
        register_type(cls, _traced(make))


def _traced(make: Any) -> Any:
    # Creators run with tracing off; the choices above branch on symbolic values.
    def create(p: Any) -> Any:
        with ResumedTracing():
            return make(p)

    return create


install()

