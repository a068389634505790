"""The concrete twin of seed 004's symbolic interpreter: the natural semantics
`i /Γ ⇓N β/Γ'` (Becker & Marché, Figs. 2-4) run as a big-step interpreter with a *partial*
environment Γ and a loop limit N (M-C1).

Reading is strict: every variable of an expression must be in `dom(Γ)` (VAR-ERR), even one
`and`/`or` would not reach. Values are the data algebra's (`concrete.VALUES`), so a `/` or `%`
by zero fails (X-A2) only where the evaluation reaches it, as in the small-step semantics.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping

import icontract

from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, Ending, Env
from symcert.lang.structure import inputs, variables
from symcert.lang.syntax import (
    AExpr, Assert, Assign, Assume, BExpr, Fail, If, Seq, Skip, Stmt, While, spine,
)
from symcert.spec.switch import CONTRACTS


class Behaviour(enum.Enum):
    """An instruction behaviour `β` (seed 004, Sect. 2.1), plus FAIL for IMP's `fail` and
    BLOCKED for its `assume`."""

    NORMAL = "normal"
    UNBOUND_VAR = "unbound-var"
    LOOP_LIMIT = "loop-limit"
    FAIL = "fail"
    BLOCKED = "blocked"
    """An `assume` whose condition is false (X-U1): no outcome of the program, no bug."""


ENDINGS = {Behaviour.NORMAL: Ending.NORMAL, Behaviour.FAIL: Ending.FAIL,
           Behaviour.BLOCKED: Ending.BLOCKED}
"""How the small-step semantics says a run with each behaviour ended (none for LOOP_LIMIT and
UNBOUND_VAR, which it does not have)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A concrete evaluation result `β/Γ'`; `env` holds the bound variables (unbound read 0)."""

    behaviour: Behaviour
    env: Env


class Unbound(Exception):
    """An expression read a variable outside the environment's domain (Fig. 2, VAR-ERR)."""


def _value(gamma: Mapping[str, int], e: AExpr | BExpr) -> int | bool:
    """`e` in a partial environment Γ (Fig. 2): reading is strict, a variable of `e` outside
    `dom(Γ)` raises `Unbound` (VAR-ERR) even where `and`/`or` would not reach it; the value is
    the data algebra's (`concrete.VALUES`), whose `/` and `%` by zero raise ZeroDivisionError,
    only where they are reached (the behaviour FAIL, X-A2, as in the small-step semantics)."""
    if not variables(e) <= gamma.keys():
        raise Unbound(min(variables(e) - gamma.keys()))
    return fold(VALUES, gamma.__getitem__, e)


def _exec(p: Stmt, gamma: dict[str, int], n: int) -> Behaviour:
    """Run `p` on the imperative environment `gamma` (Listing 2); return its behaviour."""
    for s in spine(p):
        b = _exec_simple(s, gamma, n)
        if b is not Behaviour.NORMAL:
            return b
    return Behaviour.NORMAL


def _exec_simple(s: Stmt, gamma: dict[str, int], n: int) -> Behaviour:
    try:
        match s:
            case Skip():
                return Behaviour.NORMAL
            case Fail():
                return Behaviour.FAIL
            case Assign(x, e):
                gamma[x] = _value(gamma, e)  # type: ignore[assignment]
                return Behaviour.NORMAL
            case Assert(b):
                return Behaviour.NORMAL if _value(gamma, b) else Behaviour.FAIL
            case Assume(b):
                return Behaviour.NORMAL if _value(gamma, b) else Behaviour.BLOCKED
            case If(b, p1, p2):
                return _exec(p1 if _value(gamma, b) else p2, gamma, n)
            case While(b, body):
                count = 0
                while True:
                    if count == n:
                        return Behaviour.LOOP_LIMIT
                    if not _value(gamma, b):
                        return Behaviour.NORMAL
                    inner = _exec(body, gamma, n)
                    if inner is not Behaviour.NORMAL:
                        return inner
                    count += 1
            case Seq():
                return _exec(s, gamma, n)
    except Unbound:
        return Behaviour.UNBOUND_VAR
    except ZeroDivisionError:
        return Behaviour.FAIL
    raise TypeError(f"not a statement: {s!r}")


@icontract.require(lambda n: n >= 0, enabled=CONTRACTS)
def exec_concrete(p: Stmt, env: Env, n: int, declared: frozenset[str] | None = None) -> Outcome:
    """`p /Γ ⇓n β/Γ'` where Γ binds the `declared` variables (default `inputs(p)`) as in `env`.

    :param p: the program.
    :param env: the input values (a declared variable absent from `env` is 0).
    :param n: the loop limit: a loop tested for the (n+1)-th time stops with LOOP_LIMIT.
    :param declared: the variables bound at the start.
    """
    bound = inputs(p) if declared is None else declared
    gamma = {x: env(x) for x in bound}
    behaviour = _exec(p, gamma, n)
    return Outcome(behaviour, Env.of(gamma))
