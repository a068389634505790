"""A concrete run with accelerated loops (T-A1): many iterations of a loop in one jump, each jump
justified by one symbolic iteration and checked by concrete ones.

A bug behind 10^8 iterations of `while x < 268435455 do x = x + 2 od` is out of reach of the
concrete interpreter's one step at a time (about 170,000 steps a second), and symcert reports a
bug only when a concrete run reaches it. `run` gives the same states as `concrete.trace`, but at
the head of a loop of the main statement it may go `n` iterations ahead in one jump:

1. **One symbolic iteration.** The loop runs once under `→sym` (`explore.expand`, Fig. 7) from
   the identity store, in ghost mode (seed 004) with the concrete state as the ghost ρ, so it
   follows the one path the concrete state takes, until the loop's head comes back. By T-D2 and
   T-D3 that path is exact: every state satisfying its path condition `φ` takes it and ends in
   its store `S`.
2. **A translation.** Read over the variables the body writes (`written`), the others being
   constants, every conjunct of `φ` must be affine without `!=` (`Affine`: `e ≥ 0` or `e = 0`)
   and `S` must add a constant `d_x` to each written variable `x`. The state after `k`
   iterations is then `σ + k·d`, each conjunct an affine function of `k`: holding at `k = 0`, a
   `≥` holds on an interval `0 ≤ k ≤ K` (or for every `k`), an `=` at 0 only unless constant.
   So the first `n = 1 + min K` iterations all take the path, and the `n`-th ends in `σ + n·d`.
3. **Checked twice.** The concrete interpreter runs one iteration first (so a variable the
   body sets to a constant has that value), and steps 1 and 2 start from the state it reaches;
   then it runs the jump's first and last iterations, each of which must take as many steps as
   that one and end in the state the jump claims. The iterations between are checked by a
   second checker that does not read the affine folding (`proved`): z3 proves, in one query
   per jump, that for a symbolic iteration `0 ≤ k < n` the state `σ + k·d` satisfies the
   iteration's path condition `φ` (its terms as `expand` built them, substituted, not folded)
   and that its store `S` takes it to `σ + (k+1)·d`. Only then is the jump taken, with its
   steps counted: `n` times one iteration's.

A loop with an invariant, a body that calls, makes objects or writes arrays, a path that
fails, reads an array or divides by a symbolic value, and a jump of fewer than two iterations
are stepped as usual. So is a loop inside a procedure (`frame`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from symcert.core import terms
from symcert.core.algebra import fold_a, fold_b
from symcert.core.concrete import Env, OutOfSteps, State, costed, head, trace
from symcert.core.state import ID, TRUE_PC, PathCondition, SymState
from symcert.core.terms import COMPARE
from symcert.engine.explore import expand
from symcert.lang.annotations import written
from symcert.lang.syntax import AExpr, BExpr, Bool, Int, Var, While
from symcert.solver.z3backend import Sat, Solver

ITERATION_STEPS = 2_000
"""The most steps one iteration may take, concrete or symbolic."""

RETRY = 10_000
"""Concrete steps before a loop whose jump failed is tried again (its path may change)."""

HORIZON = 10 ** 12
"""How far jumps may take a run, in steps: a loop that never ends is not jumped forever."""


@dataclass(frozen=True, slots=True)
class Affine:
    """`Σ c·x + const` over the written variables, `coeffs` sorted and nonzero."""

    coeffs: tuple[tuple[str, int], ...]
    const: int

    def plus(self, other: Affine, scale: int = 1) -> Affine:
        """`self + scale·other`."""
        out = dict(self.coeffs)
        for x, c in other.coeffs:
            out[x] = out.get(x, 0) + scale * c
        return Affine(tuple(sorted((x, c) for x, c in out.items() if c)),
                      self.const + scale * other.const)

    def times(self, k: int) -> Affine:
        return Affine(tuple((x, c * k) for x, c in self.coeffs if c * k), self.const * k)


@dataclass(frozen=True, slots=True)
class Constraint:
    """`form ≥ 0`, or `form = 0` when `eq`."""

    form: Affine
    eq: bool = False


@dataclass(frozen=True, slots=True)
class Opaque:
    """A value the translation cannot use: not affine, or a condition that is not convex."""


OPAQUE = Opaque()
FALSE = (Constraint(Affine((), -1)),)

Value = Affine | Opaque
Conjuncts = tuple[Constraint, ...] | Opaque


@dataclass(frozen=True, slots=True)
class Reading:
    """The context of the affine fold: the written variables, and the values of the others."""

    moving: frozenset[str]
    env: Env


def _const(a: Value) -> int | None:
    return a.const if isinstance(a, Affine) and not a.coeffs else None


def _cmp(op: str, a: Affine, b: Affine) -> Conjuncts:
    d = a.plus(b, -1)  # a - b
    one = Affine((), 1)
    return {"<": (Constraint(d.times(-1).plus(one, -1)),), "<=": (Constraint(d.times(-1)),),
            ">": (Constraint(d.plus(one, -1)),), ">=": (Constraint(d),),
            "==": (Constraint(d, eq=True),)}.get(op, OPAQUE)


class _Affinity:
    """The algebra of affine forms (core.algebra): `+`, `-` and `*` by a constant stay affine;
    `/`, `%` of constants are computed with Python's floor semantics; anything else is opaque.
    A condition folds to its conjuncts when it is a conjunction of `≤ < ≥ > ==`."""

    def integer(self, ctx: Reading, value: int) -> Value:
        return Affine((), value)

    def var(self, ctx: Reading, name: str) -> Value:
        if name in ctx.moving:
            return Affine(((name, 1),), 0)
        value = ctx.env(name)
        return Affine((), value) if isinstance(value, int) else OPAQUE

    def neg(self, a: Value) -> Value:
        return a.times(-1) if isinstance(a, Affine) else OPAQUE

    def add(self, a: Value, b: Value) -> Value:
        return a.plus(b) if isinstance(a, Affine) and isinstance(b, Affine) else OPAQUE

    def sub(self, a: Value, b: Value) -> Value:
        return a.plus(b, -1) if isinstance(a, Affine) and isinstance(b, Affine) else OPAQUE

    def mul(self, a: Value, b: Value) -> Value:
        ka, kb = _const(a), _const(b)
        if kb is not None and isinstance(a, Affine):
            return a.times(kb)
        return b.times(ka) if ka is not None and isinstance(b, Affine) else OPAQUE

    def div(self, a: Value, b: Value) -> Value:
        ka, kb = _const(a), _const(b)
        return Affine((), ka // kb) if ka is not None and kb else OPAQUE

    def mod(self, a: Value, b: Value) -> Value:
        ka, kb = _const(a), _const(b)
        return Affine((), ka % kb) if ka is not None and kb else OPAQUE

    def array(self, ctx: Reading, name: str) -> Value:
        return OPAQUE

    def select(self, array: Value, index: Value) -> Value:
        return OPAQUE

    def update(self, array: Value, index: Value, value: Value) -> Value:
        return OPAQUE

    def cmp(self, op: str, a: Value, b: Value) -> Conjuncts:
        ka, kb = _const(a), _const(b)
        if ka is not None and kb is not None:  # of constants (variables the body never writes)
            return () if COMPARE[op](ka, kb) else FALSE
        return _cmp(op, a, b) if isinstance(a, Affine) and isinstance(b, Affine) else OPAQUE

    def boolean(self, ctx: Reading, value: bool) -> Conjuncts:
        return () if value else FALSE

    def not_(self, a: Conjuncts) -> Conjuncts:
        if isinstance(a, Opaque) or len(a) != 1 or a[0].eq:
            return () if a == FALSE else FALSE if a == () else OPAQUE
        return (Constraint(a[0].form.times(-1).plus(Affine((), 1), -1)),)  # ¬(e ≥ 0): -e-1 ≥ 0

    def and_(self, a: Conjuncts, b: Callable[[], Conjuncts]) -> Conjuncts:
        right = b()
        return a + right if not isinstance(a, Opaque) and not isinstance(right, Opaque) \
            else OPAQUE

    def or_(self, a: Conjuncts, b: Callable[[], Conjuncts]) -> Conjuncts:
        right = b()
        return () if a == () or right == () else right if a == FALSE else \
            a if right == FALSE else OPAQUE


    def bind(self, ctx: Reading, name: str, value: Value) -> Reading:
        return ctx

    def quantifier(self, universal: bool, name: str, lo: Value, hi: Value,
                   body: Callable[[Value], Conjuncts]) -> Conjuncts:
        return OPAQUE  # X-Q1: no convex condition


AFFINITY = _Affinity()


@dataclass(frozen=True, slots=True)
class Jump:
    """`n` iterations of the loop at the head of a state, one iteration taking `steps` steps
    and adding `delta` to the written variables."""

    n: int
    steps: int
    delta: tuple[tuple[str, int], ...]
    iteration: SymState | None = field(default=None, compare=False, repr=False)
    """The symbolic iteration the jump was read from (step 1), for its second checker."""

    def later(self, state: State, k: int) -> State:
        """The state `k` iterations after `state`, as the jump claims it."""
        values = state.env.as_dict()
        for x, d in self.delta:
            values[x] = values.get(x, 0) + k * d  # type: ignore[operator]
        return replace(state, env=Env.of(values), steps=state.steps + k * self.steps)


def iteration(state: State) -> tuple[SymState, frozenset[str]] | None:
    """The symbolic iteration the concrete `state`, at a loop's head, takes (step 1), and the
    variables the body writes; None when it cannot be used."""
    loop = head(state.prog)
    if state.frame is not None or not isinstance(loop, While) or loop.invariants:
        return None
    w = written(loop.body)
    if w.calls or w.arrays:
        return None
    s = SymState(TRUE_PC, ID, loop, ghost=state.env)
    for _ in range(ITERATION_STEPS):
        taken = [t for t in expand(s) if t.ghost is not None]
        if len(taken) != 1:  # the loop exits, or the path fails
            return None
        s = taken[0]
        if s.prog is loop and s.frame is None:
            return s, w.variables
    return None


def _delta(x: str, t: Value, env: Env) -> int | None:
    """What one iteration adds to `x`, whose term at its end is `t`: a constant `x + d`, or `c`
    when `x` is `c` already (then 0); None otherwise."""
    if not isinstance(t, Affine):
        return None
    if t.coeffs == ((x, 1),):
        return t.const
    return 0 if not t.coeffs and t.const == env(x) else None


def _last(c: Constraint, env: Env, delta: dict[str, int]) -> int | None:
    """The last `k` at which `c` holds at `env + k·delta` (None: every `k ≥ 0`), given that it
    holds at `k = 0`."""
    slope = sum(coef * delta.get(x, 0) for x, coef in c.form.coeffs)
    if slope == 0:
        return None
    if c.eq:
        return 0
    at0 = c.form.const + sum(coef * env(x) for x, coef in c.form.coeffs)  # type: ignore[misc]
    return None if slope > 0 else at0 // -slope


def jump(state: State, per: int, fuel: int) -> Jump | None:
    """The jump from `state` (steps 1 and 2), one iteration taking `per` concrete steps, not
    yet checked; None unless one of at least 2 iterations within `fuel` steps applies."""
    found = iteration(state)
    if found is None:
        return None
    s, moving = found
    reading = Reading(moving, state.env)
    delta: dict[str, int] = {}
    for x in sorted(moving):
        d = _delta(x, fold_a(AFFINITY, reading, s.store(x)), state.env)
        if d is None:
            return None
        delta[x] = d
    limits = [fuel // per]
    for c in s.pc.conjuncts():
        folded = fold_b(AFFINITY, reading, c)
        if isinstance(folded, Opaque):
            return None
        limits += [k + 1 for k in (_last(one, state.env, delta) for one in folded)
                   if k is not None]
    n = min(limits)
    return Jump(n, per, tuple(sorted(delta.items())), s) if n >= 2 else None


ITERATION = Var("#k")
"""The symbolic iteration of a jump's second checker (no program variable has a `#`)."""


class _NotInteger(Exception):
    """The iteration reads a variable whose value is not an integer."""


def proved(state: State, j: Jump, solver: Solver) -> bool:
    """The second checker of the jump `j` from `state` (T-A1, step 3): whether z3 proves, in
    one query, that every iteration `0 ≤ k < n` takes the path of `j.iteration` and ends
    where the jump says: `0 ≤ k ≤ n - 1 ∧ ¬(φ ∧ ⋀ S(x) = σ_x + (k+1)·d_x)` UNSAT, with each
    written `x` at `σ_x + k·d_x` and every other variable at its value, substituted into the
    terms of `φ` and `S` by the term algebra (never read by the affine folding)."""
    if j.iteration is None:
        return False
    delta = dict(j.delta)

    def start(x: str, k: AExpr) -> AExpr:
        v = state.env(x)
        if not isinstance(v, int):
            raise _NotInteger(x)
        return terms.add(Int(v), terms.mul(Int(delta.get(x, 0)), k))

    at = (lambda x: start(x, ITERATION) if x in delta else start(x, Int(0)))
    try:
        goal: BExpr = Bool(True)
        for c in j.iteration.pc.conjuncts():
            goal = terms.conj(goal, fold_b(terms.TERMS, at, c))
        for x in delta:
            now = fold_a(terms.TERMS, at, j.iteration.store(x))
            goal = terms.conj(goal, terms.cmp("==", now,
                                              start(x, terms.add(ITERATION, Int(1)))))
    except _NotInteger:
        return False
    query = PathCondition.of(terms.cmp("<=", Int(0), ITERATION),
                             terms.cmp("<=", ITERATION, Int(j.n - 1)), terms.negate(goal))
    return solver.check(query)[0] is Sat.UNSAT


def _iterate(state: State) -> State | None:
    """The concrete state one iteration after `state`, back at its loop's head, or None."""
    for later in trace(state, ITERATION_STEPS):
        if later is not state and later.prog == state.prog and later.frame is None:
            return later
    return None


def checked(state: State, fuel: int, solver: Solver | None = None) -> State | None:
    """The state `1 + n` iterations after `state`, or None: the first iteration is run
    concretely (a variable the body sets to a constant has its value from then on), then a jump
    of `n` (steps 1 and 2) whose first and last iterations the interpreter confirms and whose
    every iteration z3 proves to take the path (`proved`, step 3)."""
    first = _iterate(state)
    if first is None:
        return None
    per = first.steps - state.steps
    j = jump(first, per, fuel - per)
    if j is None or not _same(_iterate(first), j.later(first, 1)):
        return None
    last = j.later(first, j.n)
    if not _same(_iterate(j.later(first, j.n - 1)), last):
        return None
    return last if proved(first, j, solver or Solver()) else None


def _same(a: State | None, b: State) -> bool:
    """Equal states at the same step (`State`'s equality leaves the steps out)."""
    return a is not None and a == b and a.steps == b.steps


def run(state: State, max_steps: int, horizon: int = HORIZON) -> Iterator[State]:
    """The concrete run from `state` as `concrete.trace` gives it, but where a checked jump
    applies at a loop's head the next state is the one after it: at most `max_steps` steps
    taken one at a time, jumps up to `horizon` steps from the start. A loop whose jump fails is
    tried again after `RETRY` steps, then twice as many, and so on."""
    stepped, end = 0, state.steps + horizon
    wait: dict[int, tuple[int, int]] = {}  # id(loop) -> (steps of the next try, the gap)
    solver = Solver()
    yield state
    while stepped < max_steps:
        loop = head(state.prog)
        if isinstance(loop, While) and state.steps >= wait.get(id(loop), (0, 0))[0]:
            after = checked(state, end - state.steps, solver)
            if after is not None:
                state = after
                yield state
                continue
            gap = max(RETRY, 2 * wait.get(id(loop), (0, 0))[1])
            wait[id(loop)] = (state.steps + gap, gap)
        try:
            nxt, cost = costed(state, max_steps - stepped)
        except OutOfSteps:  # its quantifiers need more steps than are left (X-Q1)
            return
        if nxt is None:
            return
        state, stepped = nxt, stepped + cost
        yield state
