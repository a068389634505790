# crosshair: off
# (this module is CrossHair's plugin, not code to analyse)
"""CrossHair plugin: bounded-depth constructors for the AST and state types, a solver stub.

Registered through the `crosshair.plugin` entry point (pyproject.toml), so a plain
`crosshair check src/` (or `crosshair watch src/`) loads it: no `--extra_plugin` needed.
CrossHair loads it before it imports the code under analysis, so setting `SYMCERT_CONTRACTS`
here (unless the caller set it) switches the runtime contracts on: with them off CrossHair
would find nothing to check. Measured reasons for the rest (contracts/README.md):
CrossHair's own construction of the recursive AST unions recurses until the process dies; z3
inside analysed code makes CrossHair fall back to concrete values; icontract needs its
in-progress set initialised before CrossHair traces the first contracted call. crosshair is a
test dependency: nothing but CrossHair imports this module.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("SYMCERT_CONTRACTS", "1")

import icontract._checkers  # noqa: E402
from crosshair import register_type  # noqa: E402
from crosshair.tracers import ResumedTracing  # noqa: E402
from crosshair.util import IgnoreAttempt  # noqa: E402

from symcert.checking import generate  # noqa: E402
from symcert.checking.generate import clamp  # noqa: E402
from symcert.core.concrete import Env  # noqa: E402
from symcert.core.state import PathCondition, Store, SymState  # noqa: E402
from symcert.lang.syntax import (  # noqa: E402
    ArrayVar, Await, Call, Get, New, Quant, Return, Select, Spawn, Update,
)
from symcert.solver.z3backend import Sat, Solver  # noqa: E402

SHAPE = generate.Shape(names=("x", "y"), literal=2**64, value=2**64, aexpr_depth=1,
                       bexpr_depth=1, operand_depth=1, stmt_depth=2, leaves=4, conjuncts=2)
"""What CrossHair builds (generate.py): variables `x` and `y`, integers clamped to ±2^64 (in
effect unbounded), statements two levels above their leaves, whose expressions have one level
of operators or connectives."""
DEPTH = 2
"""Levels above the leaves of an expression or statement CrossHair builds for an argument."""


@dataclass(frozen=True)
class SymbolicChoices:
    """`generate.Choices` from CrossHair: each choice a fresh symbolic integer, clamped into its
    range (the generator branches on it, so CrossHair explores every alternative)."""

    p: Any

    def integer(self, lo: int, hi: int) -> int:
        return clamp(self.p(int), lo, hi)


class UnknownSolver:
    """Stands for `Solver` under analysis: answers UNKNOWN, so nothing is pruned (sound for
    every W lemma, which then speaks of the unpruned semantics)."""

    def check(self, pc: PathCondition, *hint: object) -> tuple[Sat, Env | None]:
        return Sat.UNKNOWN, None


def install() -> None:
    """Register the constructors and initialise icontract's in-progress set."""
    icontract._checkers._IN_PROGRESS.set(set())
    sorts = ((generate.AEXPR_KINDS, generate.aexpr), (generate.BEXPR_KINDS, generate.bexpr),
             (generate.STMT_KINDS, generate.stmt))
    for kinds, make in sorts:
        for kind in kinds:
            register_type(kind, _traced(
                lambda c, make=make, kind=kind: make(c, SHAPE, DEPTH, kind=kind)))
    for cls, build in ((Store, generate.store), (Env, generate.env),
                       (PathCondition, generate.path_condition), (SymState, generate.sym_state)):
        register_type(cls, _traced(lambda c, build=build: build(c, SHAPE)))
    register_type(Solver, lambda p: UnknownSolver())
    for cls in (Call, Return):  # only statements of a program's procedures, never a program
        register_type(cls, _discarded)
    for cls in (ArrayVar, Select, Update, New):  # SHAPE has no arrays nor objects
        register_type(cls, _discarded)
    for cls in (Spawn, Get, Await):  # threads' programs come from generate_threads, not SHAPE
        register_type(cls, _discarded)
    register_type(Quant, _discarded)  # the generator draws no quantifier (X-Q1)


def _discarded(p: Any) -> Any:
    """A call or `return` standing for a whole program is no program (`return` outside a
    procedure, a call of nothing): the attempt is discarded, so CrossHair does not reach
    procedures (docs/lemmas.md says so for B-P1, B-P2, B-T3, B-C3). Arrays are discarded the
    same way: their recursive update sequences are what crashes CrossHair's own constructors
    (contracts/README.md), and B-A1, B-H3 claim no CrossHair check; so is `new`, whose declarations
    table CrossHair filled with symbolic integers (an AttributeError, not a finding)."""
    raise IgnoreAttempt("not built for CrossHair: a call, a `return`, an array or `new`")


def _traced(make: Any) -> Any:
    # Creators run with tracing off; the generator branches on symbolic values.
    def create(p: Any) -> Any:
        with ResumedTracing():
            return make(SymbolicChoices(p))

    return create


install()

