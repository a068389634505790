"""The concrete twin of seed 004's symbolic interpreter: the natural semantics
`i /Γ ⇓N β/Γ'` (Becker & Marché, Figs. 2-4) run as a big-step interpreter with a *partial*
environment Γ and a loop limit N (M-C1).

Reading is strict: every variable of an expression must be in `dom(Γ)` (VAR-ERR), even one
`and`/`or` would not reach. Values are the data algebra's (`concrete.VALUES`), so a `/` or `%`
by zero fails (X-A2) only where the evaluation reaches it, as in the small-step semantics.

Procedures (seed 003 §3), decisions shared with the symbolic interpreter (interp.py):

- **Where locals live.** Γ holds the globals only (it is what an outcome reports). A call runs
  its procedure in a *local environment* of its own (`_Frame`) that binds all the procedure's
  locals (procedures.py) from the call on: the parameters to the arguments' values (call by
  value, evaluated left to right in the caller's scope), the `var`-declared ones to 0. A
  variable is read in `τ ∪ Γ`: in the frame if it is one of the procedure's locals, else in Γ,
  where an unbound global is UNBOUND_VAR as in the main statement; an assignment (or a call's
  target) writes the frame for a local and Γ otherwise, so a global assigned in a procedure
  becomes bound.
- **How `return` is modelled.** `return e` stores the value of `e` in the frame and ends with
  the internal behaviour RETURN, which, as any behaviour but NORMAL, skips the rest of the
  body, of loops included. The call turns RETURN (with the stored value) and NORMAL (the end of
  the body, value 0) into NORMAL after assigning the value to its target; every other behaviour
  of the body is the call's. RETURN never leaves the outermost call (`return` outside a
  procedure is rejected by the parser and `procedures.link`). A division by zero in an argument
  or in `return`'s expression is FAIL (X-A2), an unbound variable there UNBOUND_VAR.
- **The call limit.** A call made when `CALL_LIMIT` calls are already running does not run:
  the behaviour is CALL_LIMIT in the state before the call (its arguments unevaluated), as a
  loop's limit is checked before its test (Fig. 4 WHILE-LIMIT). Like LOOP_LIMIT it is a budget,
  not an ending of the program: no small-step ending corresponds to it (`ENDINGS`).
"""

from __future__ import annotations

import enum
import sys
from collections import ChainMap
from dataclasses import dataclass
from typing import Mapping

import icontract

from symcert.core.algebra import fold
from symcert.core.concrete import VALUES, Ending, Env
from symcert.lang.structure import inputs, variables
from symcert.lang.syntax import (
    ALLOC, AExpr, Assert, Assign, Assume, BExpr, Call, Fail, If, New, Return, Seq, Skip, Stmt,
    While, allocation, spine,
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
    CALL_LIMIT = "call-limit"
    """A call made `CALL_LIMIT` calls deep: the budget of nested calls ran out (as LOOP_LIMIT)."""
    RETURN = "return"
    """Internal: a procedure's `return` ran, skipping the rest of its body; its call turns it
    into NORMAL. Never the behaviour of a program."""


ENDINGS = {Behaviour.NORMAL: Ending.NORMAL, Behaviour.FAIL: Ending.FAIL,
           Behaviour.BLOCKED: Ending.BLOCKED}
"""How the small-step semantics says a run with each behaviour ended (none for the budgets
LOOP_LIMIT and CALL_LIMIT, nor for UNBOUND_VAR, which it does not have; RETURN is internal)."""

CALL_LIMIT = 200
"""The deepest nest of running calls both seed-004 interpreters allow: a call made when
`CALL_LIMIT` calls are running stops with the behaviour CALL_LIMIT (so a recursion `CALL_LIMIT`
calls deep still runs). Both interpreters recurse in Python once per call and once per
statement nesting level (as before procedures): a level of calls sitting `k` statements deep
in its procedure's body costs about `3 + 2k` Python frames (measured by
tests/unit/test_interp.py), and term folds add the depth of the terms. So 200 levels of calls
nested up to a hundred statements deep stay well below `RECURSION_LIMIT` (Python 3.11 runs
Python-to-Python calls without growing the C stack). The symbolic interpreter's cost also grows
with the limit: a recursion that only the limit stops has a path per level."""

RECURSION_LIMIT = 80_000
"""The recursion limit the interpreters need (`sys.setrecursionlimit`, raised at import as the
parser does), also when the program was built in code and the parser never imported."""
sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


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


@dataclass(slots=True)
class _Frame:
    """A running call's local environment: the procedure's locals (all bound from the call
    on), its depth (1 for a call of the main statement) and the value `return` stored."""

    locals: dict[str, int]
    depth: int
    value: int = 0


def _scope(gamma: dict[str, int], frame: _Frame | None) -> Mapping[str, int]:
    """Where a statement reads: Γ in the main statement, `τ ∪ Γ` in a procedure (a local of
    the procedure is in `τ`, which binds them all, and shadows a global of the same name)."""
    return gamma if frame is None else ChainMap(frame.locals, gamma)


def _set(gamma: dict[str, int], frame: _Frame | None, x: str, value: int) -> None:
    """`x = value`: into the frame if `x` is a local of the running procedure, else into Γ."""
    (frame.locals if frame is not None and x in frame.locals else gamma)[x] = value


def _exec(p: Stmt, gamma: dict[str, int], frame: _Frame | None, n: int) -> Behaviour:
    """Run `p` on the imperative environment `gamma` (Listing 2) in the running call `frame`
    (None: the main statement); return its behaviour."""
    for s in spine(p):
        b = _exec_simple(s, gamma, frame, n)
        if b is not Behaviour.NORMAL:
            return b
    return Behaviour.NORMAL


def _exec_simple(s: Stmt, gamma: dict[str, int], frame: _Frame | None, n: int) -> Behaviour:
    ctx = _scope(gamma, frame)
    try:
        match s:
            case Skip():
                return Behaviour.NORMAL
            case Fail():
                return Behaviour.FAIL
            case Assign(x, e):
                _set(gamma, frame, x, _value(ctx, e))  # type: ignore[arg-type]
                return Behaviour.NORMAL
            case Assert(b):
                return Behaviour.NORMAL if _value(ctx, b) else Behaviour.FAIL
            case Assume(b):
                return Behaviour.NORMAL if _value(ctx, b) else Behaviour.BLOCKED
            case If(b, p1, p2):
                return _exec(p1 if _value(ctx, b) else p2, gamma, frame, n)
            case While(b, body):
                count = 0
                while True:
                    if count == n:
                        return Behaviour.LOOP_LIMIT
                    if s.invariants and not _value(ctx, s.invariant()):  # checked at each head
                        return Behaviour.FAIL
                    if not _value(ctx, b):
                        return Behaviour.NORMAL
                    inner = _exec(body, gamma, frame, n)
                    if inner is not Behaviour.NORMAL:
                        return inner
                    count += 1
            case Seq():
                return _exec(s, gamma, frame, n)
            case Call():
                return _call(s, gamma, frame, n)
            case New():  # seed 003 §4: the next new object, its fields 0 / nil
                for a in allocation(s, gamma.get(ALLOC, 0)):
                    _set(gamma, frame, a.name, _value(_scope(gamma, frame), a.expr))  # type: ignore[arg-type]
                return Behaviour.NORMAL
            case Return(e):
                assert frame is not None, "`return` outside a procedure"
                frame.value = _value(ctx, e)  # type: ignore[assignment]
                return Behaviour.RETURN
    except Unbound:
        return Behaviour.UNBOUND_VAR
    except ZeroDivisionError:
        return Behaviour.FAIL
    raise TypeError(f"not a statement: {s!r}")


def _call(c: Call, gamma: dict[str, int], frame: _Frame | None, n: int) -> Behaviour:
    """A procedure call (seed 003 §3) by value: CALL_LIMIT when `CALL_LIMIT` calls are running;
    else the arguments, left to right in the caller's scope (Unbound or ZeroDivisionError
    propagate to the caller's statement), then the body in a new frame; its value (0 when the
    body ends without `return`) goes to the target, in the caller's scope."""
    depth = 0 if frame is None else frame.depth
    if depth >= CALL_LIMIT:
        return Behaviour.CALL_LIMIT
    ctx = _scope(gamma, frame)
    values = [_value(ctx, a) for a in c.args]
    proc = c.procs[c.name]
    inner = _Frame(dict.fromkeys(proc.locals, 0), depth + 1)
    inner.locals.update(zip(proc.params, values))  # type: ignore[arg-type]
    b = _exec(proc.body, gamma, inner, n)
    if b is Behaviour.NORMAL or b is Behaviour.RETURN:
        if c.target is not None:
            _set(gamma, frame, c.target, inner.value)
        return Behaviour.NORMAL
    return b


@icontract.require(lambda n: n >= 0, enabled=CONTRACTS)
def exec_concrete(p: Stmt, env: Env, n: int, declared: frozenset[str] | None = None) -> Outcome:
    """`p /Γ ⇓n β/Γ'` where Γ binds the `declared` variables (default `inputs(p)`) as in `env`.

    :param p: the program.
    :param env: the input values (a declared variable absent from `env` is 0).
    :param n: the loop limit: a loop tested for the (n+1)-th time stops with LOOP_LIMIT.
    :param declared: the variables bound at the start (globals: a procedure's locals are
        bound by its call).
    """
    bound = inputs(p) if declared is None else declared
    gamma = {x: env(x) for x in bound}
    behaviour = _exec(p, gamma, None, n)
    return Outcome(behaviour, Env.of(gamma))
