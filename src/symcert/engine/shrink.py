"""Minimal witnesses: the smallest input found that still reaches a confirmed bug (W-T3.5).

A bug's path condition `φ` usually has many models, and the solver's first one is arbitrary
(`a[0] = 29533`). `shrink` asks the solver for models of `φ ∧ |t| ≤ B` over the inputs `t` of
`φ` (its integer variables and the input-array cells it reads): first one bound `2^k` on all of
them, `k` found by bisection, then one bound on all bisected below `2^k`, then each input's own
bound in turn, the others held: a lexicographic minimum of the absolute values, as far as the
budget of queries and seconds allows. Input objects are then renumbered `@1, @2, …` in the
order the input variables reach them. The smaller input counts only if its concrete run
reaches the same stuck state after as many steps (`bugfinder.replay`'s check); otherwise, or
if no smaller model is found, the original witness stands. With threads the smaller input is
replayed with the witness's schedule and must fail at the same statement (or deadlock). So shrinking never makes a report
less sure, only its input smaller; it needs no new solver code, only `Solver.check`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from symcert.core.concrete import Cells, Env, State, aeval, is_stuck
from symcert.core.replays import REPLAY_VALUES, run_steps
from symcert.core.state import PathCondition, valid_heap, witness_input
from symcert.core.state import Store
from symcert.core.symbolic import sym_guard
from symcert.core.terms import cmp, conj, disj, free_vars, negate
from symcert.engine.merge import merged
from symcert.engine.threads import replay_schedule, same_failure
from symcert.engine.bugfinder import Witness
from symcert.engine.candidates import shrink_replayed
from symcert.lang.procedures import references
from symcert.lang.structure import reads
from symcert.lang.syntax import (
    AExpr, ArrayVar, BExpr, Bool, Int, Select, Stmt, Var, is_field,
)
from symcert.solver.answers import Sat
from symcert.solver.z3backend import Solver


IDENTITY = Store()
"""The identity store: a term read in it is itself (`sym_guard` of a term)."""


@dataclass(frozen=True, slots=True)
class ShrinkBudget:
    """What one witness's shrinking may spend: solver queries and wall-clock seconds (checked
    between queries)."""

    queries: int = 40
    seconds: float = 0.5


def inputs_of(pc: PathCondition) -> list[AExpr]:
    """The inputs a path condition constrains: its integer variables (not the engine's own
    `x#k` names) and the input-array cells it reads, each once, variables first by name."""
    conjuncts = pc.conjuncts()
    cells = reads(conjuncts)
    arrays = {name for name, _ in cells}
    names = set().union(*map(free_vars, conjuncts)) if conjuncts else set()
    out: list[AExpr] = [Var(x) for x in sorted(names - arrays) if "#" not in x]
    seen: set[object] = set()
    for name, index in cells:
        if (name, index) not in seen:
            seen.add((name, index))
            out.append(Select(ArrayVar(name), index))
    return out


def bounded(terms: list[AExpr], bounds: list[int]) -> BExpr:
    """`-b ≤ t ≤ b` for each term `t` and its bound `b`, where `t` is defined (its guard `ok`,
    X-A2: a field of nil has no value): `¬ok ∨ -b ≤ t ≤ b`."""
    out: BExpr = Bool(True)
    for t, b in zip(terms, bounds):
        within = conj(cmp("<=", Int(-b), t), cmp("<=", t, Int(b)))
        out = conj(out, disj(negate(sym_guard(IDENTITY, t)), within))
    return out


def renumbered(env: Env, refs: frozenset[str]) -> Env:
    """`env` with its input objects numbered 1, 2, … in the order the reference variables (by
    name), then the reference fields of the objects found (breadth-first, fields by name), then
    the other objects (by number) reach them; a field's cell at nil, which no run reads
    (seed 003 §4), is dropped."""
    fields = sorted(x for x, _ in env.bindings if is_field(x))
    order: list[int] = []

    def see(v: object) -> None:
        if isinstance(v, int) and v > 0 and v not in order:
            order.append(v)

    for x, v in env.bindings:
        if x in refs and not is_field(x):
            see(v)
    for k in order:  # grows as it goes: breadth-first
        for f in fields:
            cells = env(f)
            if f in refs and isinstance(cells, Cells):
                see(cells(k))
    for f in fields:
        cells = env(f)
        for i, c in cells.cells if isinstance(cells, Cells) else ():
            see(i)
            if f in refs:
                see(c)
    new = {k: n for n, k in enumerate(order, 1)}

    def ref(v: int) -> int:
        return new.get(v, v)

    values: dict[str, int | Cells] = {}
    for x, v in env.bindings:
        if isinstance(v, Cells) and is_field(x):
            values[x] = Cells.of({ref(i): ref(c) if x in refs else c for i, c in v.cells
                                  if i != 0}, v.default)  # nil has no fields: never read
        elif isinstance(v, int) and x in refs:
            values[x] = ref(v)
        else:
            values[x] = v
    return Env.of(values)


def _size(env: Env, terms: list[AExpr]) -> list[int]:
    out = []
    for t in terms:
        try:
            out.append(abs(aeval(env, t)))
        except ZeroDivisionError:  # a cell read behind a short-circuit: no bound from it
            out.append(0)
    return out


@dataclass
class _Search:
    """The bisections of one witness, within its budget."""

    pc: PathCondition
    solver: Solver
    budget: ShrinkBudget
    asked: int = 0
    start: float = 0.0

    def sat(self, terms: list[AExpr], bounds: list[int]) -> Env | None:
        """A model of `pc ∧ |t_i| ≤ b_i`, or None (UNSAT, UNKNOWN or out of budget)."""
        if self.asked >= self.budget.queries or \
                time.perf_counter() - self.start > self.budget.seconds:
            return None
        self.asked += 1
        answer, model = self.solver.check(self.pc.extend(bounded(terms, bounds)))
        return model if answer is Sat.SAT else None

    def spent(self) -> bool:
        """Whether the budget is used up."""
        return (self.asked >= self.budget.queries
                or time.perf_counter() - self.start > self.budget.seconds)

    def least(self, terms: list[AExpr], bounds: list[int], at: int | None, lo: int,
              hi: int, power: bool = False) -> tuple[int, Env | None]:
        """The least bound that holds for term `at` (all terms when None), between `lo` and
        `hi` (which holds), the others held at `bounds`, and its model (None: `hi` itself);
        with `power`, the least exponent `k` of a bound `2^k`, `lo ≤ k ≤ hi`."""
        best = None
        while lo < hi and not self.spent():
            mid = (lo + hi) // 2
            value = 1 << mid if power else mid
            model = self.sat(terms, [value] * len(terms) if at is None else
                             [value if i == at else b for i, b in enumerate(bounds)])
            if model is None:
                lo = mid + 1
            else:
                hi, best = mid, model
        return hi, best

    def smallest(self, terms: list[AExpr], largest: int) -> tuple[list[int], Env | None]:
        """Bounds on each term and their model: one bound `2^k` on all, `k` bisected below
        the largest input's bits, then one bound on all bisected below `2^k`, then each
        term's own bound in turn, the others held."""
        n = len(terms)
        k, model = self.least(terms, [], None, 0, largest.bit_length(), power=True)
        bound, better = self.least(terms, [], None, (1 << k) // 2, 1 << k)
        model = better or model
        bounds = [bound] * n
        for i in range(n):
            bounds[i], better = self.least(terms, bounds, i, 0, bounds[i])
            model = better or model
        return bounds, model


MAX_BITS = 64
"""A witness with an input beyond `2^64` in absolute value is not shrunk: a program that asks
for such a value usually asks for exactly it (`assert x != 10**700`)."""


def shrink(found: Witness, solver: Solver, budget: ShrinkBudget = ShrinkBudget(),
           program: Stmt | None = None) -> Witness:
    """The witness with the smallest input found that replays to the same bug, its objects
    renumbered; `found` itself when nothing smaller replays.

    :param found: a confirmed bug on a concrete path (its path condition is the path's), or
        one found by replaying a candidate input (`engine.candidates.shrink_replayed`).
    :param solver: the solver that confirmed it (its references range over valid heaps).
    :param program: the program, for a witness that does not carry it (with threads: the
        smaller input is replayed with the same schedule).
    """
    if found.found_by is not None:  # no path condition: shrunk by concrete runs alone
        return shrink_replayed(found, seconds=budget.seconds)
    p, pc = found.program or program, found.bug.pc
    if p is None or merged(found.bug):  # a merged path has no one depth to replay to (T-M1)
        return found
    refs = references(p)
    terms = inputs_of(pc)
    sizes = _size(found.input, terms)
    search = _Search(pc, solver, budget, start=time.perf_counter())
    model = (search.smallest(terms, max(sizes))[1]
             if terms and 1 < max(sizes) < 1 << MAX_BITS else None)
    candidate = found.input if model is None else witness_input(model, pc)
    candidate = renumbered(candidate, refs) if refs else candidate
    if candidate == found.input or not valid_heap(candidate, refs):
        return found
    if found.bug.config is not None:  # threads: the same schedule from the smaller input
        reached, steps = replay_schedule(p, found.bug, candidate)
        return (Witness(found.bug, candidate, reached, None, steps)  # type: ignore[arg-type]
                if same_failure(reached, found.bug) else found)
    final = run_steps(State(candidate, p), found.bug.depth, REPLAY_VALUES)  # unasserted
    if final is None or final.steps != found.bug.depth or final.prog != found.bug.prog or \
            not is_stuck(final.prog):
        return found
    return Witness(found.bug, candidate, final, p)
