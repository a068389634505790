# crosshair: off
# (it runs programs; its answers are checked like Spacer's, by verify.summaries)
"""Procedure contracts guessed from concrete calls (T-I2: proposed here, checked by
`summaries.check_summaries` with z3 and cvc5 and then by the contract transition T-S1, never
trusted).

Spacer's arithmetic is linear, so it finds no summary for a procedure whose result is a product
of its parameters (multiplication by repeated addition, a recursive sum `n * (n + 1) / 2`). As
`verify.guesses` does for loops, the program runs on small random inputs and every call that
returns is recorded with the values of its parameters at the call and its result; the
candidates of a procedure are then

- `ensures`: the polynomial equalities of degree at most 2 over the parameters and `result`
  that every recorded call satisfies (`guesses.equalities`: the null space of the monomials);
- `requires`: `x >= 0` for each parameter never negative in a recorded call (recursions on a
  natural number), or nothing.

`candidates` gives both sets of contracts, with those preconditions first; a procedure no
recorded call returned from gets `requires true ensures true`.
"""

from __future__ import annotations

import random
import time

from symcert.verify.guesses import RUNS, SAMPLE_SECONDS, STEPS, conjunction, equalities
from symcert.verify.inductive import Contracts
from symcert.core.concrete import Env, State, trace
from symcert.core.frames import scope
from symcert.lang.annotations import RESULT
from symcert.lang.procedures import table_of
from symcert.lang.structure import variables
from symcert.lang.syntax import BExpr, Bool, Cmp, Int, Stmt, Var

CALLS = 300
"""Recorded calls kept per procedure."""


def calls(p: Stmt, seed: int = 0) -> dict[str, set[tuple[int, ...]]]:
    """The calls of each procedure of `p` that returned, in runs on `RUNS` random inputs
    (integers in [-4, 24], as `guesses.sample` draws them): the parameters' values at the call,
    then the result. A call statement, whose result no variable receives, is not recorded."""
    rng = random.Random(seed)
    names = sorted(variables(p))
    seen: dict[str, set[tuple[int, ...]]] = {name: set() for name in table_of(p)}
    deadline = time.process_time() + SAMPLE_SECONDS
    for _ in range(RUNS):
        if time.process_time() > deadline:
            break
        open_calls: list[tuple[int, str, tuple[int, ...], str | None]] = []
        for state in trace(State(Env.of({x: rng.randint(-4, 24) for x in names}), p), STEPS):
            height = 0 if state.frame is None else state.frame.height
            while open_calls and open_calls[-1][0] > height:  # returned
                _, name, args, target = open_calls.pop()
                value = scope(state.frame, state.env)(target) if target else None
                if isinstance(value, int) and len(seen[name]) < CALLS:
                    seen[name].add(args + (value,))
            if state.frame is not None and (not open_calls or open_calls[-1][0] < height):
                q = state.frame.proc
                args = tuple(state.frame.locals(x) for x in q.params)
                if all(isinstance(v, int) for v in args):
                    open_calls.append((height, q.name, args, state.frame.target))  # type: ignore[arg-type]
    return seen


def candidates(p: Stmt, seed: int = 0) -> list[Contracts]:
    """The guessed contracts of every procedure of `p`, with preconditions, then without."""
    found = calls(p, seed)
    table = table_of(p)
    strong: dict[str, tuple[BExpr, BExpr]] = {}
    weak: dict[str, tuple[BExpr, BExpr]] = {}
    for name, rows in found.items():
        params = list(table[name].params)
        ensures = conjunction(equalities(sorted(rows), params + [RESULT])) if rows else Bool(True)
        natural = [Cmp(">=", Var(x), Int(0)) for i, x in enumerate(params)
                   if rows and all(row[i] >= 0 for row in rows)]
        strong[name] = (conjunction(natural), ensures)
        weak[name] = (Bool(True), ensures)
    return [strong, weak] if strong != weak else [weak]
