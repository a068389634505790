# crosshair: off
# (it runs programs and asks z3 through verify.provers; its answers are checked like Spacer's)
"""Loop invariants guessed from concrete runs and pruned by Houdini (T-I2: proposed here,
checked by `verify.inductive` and the invariant transition, never trusted).

Guess and check (Sharma et al., "A Data Driven Approach for Algebraic Loop Invariants", ESOP
2013) with Houdini's pruning (Flanagan and Leino, FME 2001). The program runs on small random
inputs (`core.concrete.trace`) and the integer variables are recorded each time a loop's head is
reached. The candidates of a loop are

- the polynomial equalities of degree at most 2 that every recorded state satisfies: the null
  space of the matrix of monomials, in exact rational arithmetic (`2 * s == i * i - i`, which
  Spacer's linear arithmetic does not find);
- octagon bounds at the extremes observed: `x <= c`, `x >= c`, `x - y <= c`, `x + y >= c`, ...;
- phases of parity, `x < c or x % m == r`, for the literals `c` the program compares `x` with
  and the small literal moduli `m` it takes (a step that changes at a threshold);
- quantified, cell-wise candidates over the prefix or suffix of an array a loop has walked
  (`verify.cells`: `forall k in 0 .. i - 1 :: a[k] == 0`, a copy, a running maximum, a sorted
  prefix), kept when they hold at every sampled loop head (`Samples.heads`).

Houdini then drops each candidate whose initiation or consecution obligation z3 does not prove
(`inductive.obligations` with the invariant split into its conjuncts), until what is left is
inductive. What is left may still be too weak for the asserts: the caller checks it as a whole.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import lcm
from typing import Mapping

from symcert.verify import cells
from symcert.verify.inductive import Obligation, obligations
from symcert.verify.provers import VALID, prove_z3
from symcert.core.concrete import Cells, Env, State, beval, head, is_stuck, trace
from symcert.core.replays import ended
from symcert.lang.annotations import loops
from symcert.lang.structure import inputs, variables
from symcert.lang.syntax import (
    Add, AExpr, And, ArrayVar, BExpr, Bool, Cmp, Int, Mod, Mul, Or, Stmt, Sub, Var,
)

RUNS = 120
"""Concrete runs sampled."""

STEPS = 5_000
"""Steps a sampled run may take."""

SAMPLE_SECONDS = 3.0
"""The CPU time sampling may take (runs stop being started once it has passed; CPU, not wall
clock, so that a loaded machine samples as much)."""

SAMPLES = 300
"""States kept per loop."""

PER_RUN = 12
"""States kept per loop and run (the samples of one run are alike: its inputs are fixed)."""

PENDING = 3
"""The unfinished runs whose inputs are kept (`Samples.pending`)."""

LITERALS = 8
"""The program's literals next to which sampled arrays get cells (`indices`)."""

MAX_VARIABLES = 8
"""Loops over more integer variables get octagon bounds only on the first ones (sorted)."""

RLIMIT = 5_000_000

HEADS = 60
"""Whole states kept per loop for the quantified candidates."""


@dataclass(frozen=True)
class Samples:
    """What the sampled runs saw: the integer variables recorded (sorted, at most
    `MAX_VARIABLES`), the distinct states at each loop's head, and the input of a run that
    failed (then sampling stopped: no invariant proves such a program)."""

    names: tuple[str, ...]
    states: tuple[tuple[tuple[int, ...], ...], ...]
    failing: Env | None = None
    pending: tuple[Env, ...] = ()
    """The inputs of the first runs (at most `PENDING`) that `STEPS` steps did not end:
    candidates for a longer replay (`engine.candidates`)."""
    heads: tuple[tuple[Env, ...], ...] = ()
    """Whole states (arrays too) at each loop's head, at most `HEADS` a loop, when the program
    has arrays: what the quantified candidates are judged on (`verify.cells`)."""


def sample(p: Stmt, seed: int = 0) -> Samples:
    """Run `p` on `RUNS` random inputs (integers in [-4, 24], array cells in [-3, 3] at the
    indices -2 to 39 and next to the program's larger literals, `indices`; fewer if
    `SAMPLE_SECONDS` pass, each run at most `STEPS` steps; one run when `p` reads no input,
    every run being the same) and keep at most `PER_RUN` states a run at each loop's head,
    spread over the run.

    :param seed: the random inputs' seed.
    """
    rng = random.Random(seed)
    whiles = list(loops(p))
    nodes = _nodes(p)
    arrays = frozenset(n.name for n in nodes if isinstance(n, ArrayVar))
    names = tuple(sorted(variables(p) - arrays)[:MAX_VARIABLES])
    index = {id(w): k for k, w in enumerate(whiles)}
    seen: list[set[tuple[int, ...]]] = [set() for _ in whiles]
    heads: list[list[Env]] = [[] for _ in whiles]
    cells = indices(nodes) if arrays else ()
    pending: list[Env] = []
    deadline = time.process_time() + SAMPLE_SECONDS
    for _ in range(RUNS if inputs(p) else 1):  # without inputs every run is the same
        if time.process_time() > deadline:
            break
        env = Env.of({**{x: rng.randint(-4, 24) for x in sorted(variables(p) - arrays)},
                      **{a: Cells.of({i: rng.randint(-3, 3) for i in cells})
                         for a in sorted(arrays)}})  # sorted: the same inputs in every process
        run: list[list[tuple[tuple[int, ...], Env]]] = [[] for _ in whiles]
        last = None
        for last in trace(State(env, p), STEPS):
            k = index.get(id(head(last.prog)))
            if k is not None:
                run[k].append((tuple(last.env(x) for x in names), last.env))  # type: ignore[misc]
        if last is not None and is_stuck(last.prog):
            return Samples(names, (), env)
        if last is not None and last.steps == STEPS and len(pending) < PENDING \
                and not ended(last, STEPS):
            pending.append(env)
        for k, found in enumerate(run):
            stride = max(1, len(found) // PER_RUN)
            for row, whole in found[::stride][:PER_RUN]:
                if len(seen[k]) < SAMPLES:
                    seen[k].add(row)
                if arrays and len(heads[k]) < HEADS:
                    heads[k].append(whole)
    return Samples(names, tuple(tuple(sorted(x)) for x in seen), None, tuple(pending),
                   tuple(map(tuple, heads)))


def indices(nodes: list[object]) -> tuple[int, ...]:
    """The array cells a sampled input sets: -2 to 39, and `c - 1`, `c`, `c + 1` for the
    literals `c` beyond (at most `LITERALS` of them, the smallest first), where a bound or an
    index written in the program makes a far cell matter (`a[150000]` checked after a loop
    that skips it)."""
    near = range(-2, 40)
    far = sorted({n.value for n in nodes if isinstance(n, Int) and n.value not in near},
                 key=abs)[:LITERALS]
    return tuple(sorted(set(near) | {c + d for c in far for d in (-1, 0, 1)}))


def guess(p: Stmt, samples: Samples, seconds: float = 10.0) -> dict[int, BExpr] | None:
    """An inductive invariant per loop without a written one (pre-order index) from the
    candidates above, the written invariants read as written (`obligations`), or None when a
    sampled run failed, no run reached a loop, or the time ran out.

    :param samples: `sample(p)`.
    :param seconds: the budget for pruning.
    """
    start = time.perf_counter()
    names = list(samples.names)
    if samples.failing is not None or not any(samples.states):
        return None
    phases = _phases(p, names)
    whiles = list(loops(p))
    quantified = cells.candidates(p) if any(samples.heads) else {}
    candidates = {k: equalities(list(rows), names) + _octagon(list(rows), names)
                  + [c for c in phases if _holds(c, rows, names)]
                  + [c for c in quantified.get(k, ()) if _judged(c, samples.heads[k])]
                  for k, rows in enumerate(samples.states)
                  if rows and not whiles[k].invariants}  # not reached: true; written: as written
    while time.perf_counter() - start < seconds:
        invariants = {k: conjunction(cs) for k, cs in candidates.items()}
        try:
            split = obligations(p, invariants, parts={k: tuple(cs) for k, cs in
                                                      candidates.items()})
        except ValueError:  # too many paths
            return None
        bad = _refuted(split, start + seconds)
        if bad is None:
            return None
        if not bad:
            return invariants
        candidates = {k: [c for j, c in enumerate(cs) if (k, j) not in bad]
                      for k, cs in candidates.items()}
    return None


def _refuted(split: list[Obligation], deadline: float) -> set[tuple[int, int]] | None:
    """The (loop, conjunct) parts some obligation of which z3 does not prove; None when the
    deadline passes. The parts of one path are asked together first: one query when all
    hold."""
    groups: dict[tuple[str, tuple[BExpr, ...]], list[Obligation]] = {}
    for o in split:
        if o.part is not None:
            groups.setdefault((o.name, o.hypotheses), []).append(o)
    bad: set[tuple[int, int]] = set()
    for (name, hypotheses), group in groups.items():
        if time.perf_counter() > deadline:
            return None
        group = [o for o in group if o.part not in bad]
        while group:
            together = Obligation(name, hypotheses, conjunction([o.goal for o in group]))
            answer = prove_z3(together.smtlib(), RLIMIT)
            if answer.status == VALID:
                break
            falsified = [o for o in group if _false_in(o.goal, answer.model)]
            if not falsified:  # no model to read (unknown, arrays): one query a part
                for o in group:
                    if time.perf_counter() > deadline:  # every query counts against it
                        return None
                    if prove_z3(o.smtlib(), RLIMIT).status != VALID:
                        bad.add(o.part)  # type: ignore[arg-type]
                break
            bad.update(o.part for o in falsified)  # type: ignore[misc]
            group = [o for o in group if o not in falsified]
    return bad


def _false_in(goal: BExpr, model: Mapping[str, int | bool] | None) -> bool:
    """Whether the counterexample `model` (integers only) makes `goal` false."""
    if not model or not variables(goal) <= model.keys():
        return False
    try:
        return not beval(Env.of({x: v for x, v in model.items() if type(v) is int}), goal)
    except (ZeroDivisionError, TypeError, AttributeError):
        return False


def _nodes(p: Stmt) -> list[object]:
    from symcert.lang.structure import levels

    return [node for level in levels(p) for node in level]


def _monomials(n: int) -> list[tuple[int, ...]]:
    """Exponent-free monomials of degree ≤ 2 over n variables: (), (i,), (i, j) with i <= j."""
    return [()] + [(i,) for i in range(n)] + [(i, j) for i in range(n) for j in range(i, n)]


def equalities(rows: list[tuple[int, ...]], names: list[str]) -> list[BExpr]:
    """The null space of the rows' monomial matrix, each basis vector an equality."""
    monos = _monomials(len(names))
    matrix = [[Fraction(reduce(lambda a, i: a * row[i], m, 1)) for m in monos] for row in rows]
    pivots: list[int] = []
    r = 0
    for c in range(len(monos)):
        pivot = next((i for i in range(r, len(matrix)) if matrix[i][c] != 0), None)
        if pivot is None:
            continue
        matrix[r], matrix[pivot] = matrix[pivot], matrix[r]
        lead = matrix[r][c]
        matrix[r] = [v / lead for v in matrix[r]]
        for i in range(len(matrix)):
            if i != r and matrix[i][c] != 0:
                f = matrix[i][c]
                matrix[i] = [a - f * b for a, b in zip(matrix[i], matrix[r])]
        pivots.append(c)
        r += 1
    out = []
    for free in (c for c in range(len(monos)) if c not in pivots):
        vector = {free: Fraction(1)}
        for i, c in enumerate(pivots):
            if matrix[i][free] != 0:
                vector[c] = -matrix[i][free]
        scale = lcm(*(v.denominator for v in vector.values()))
        out.append(_equation({monos[c]: int(v * scale) for c, v in vector.items()}, names))
    return out


def _equation(coefficients: dict[tuple[int, ...], int], names: list[str]) -> BExpr:
    """`Σ c·m == 0` written with the positive terms on the left, the negative on the right."""
    sides: tuple[list[AExpr], list[AExpr]] = ([], [])
    for m, c in sorted(coefficients.items()):
        term: AExpr = reduce(lambda a, i: Mul(a, Var(names[i])), m[1:], Var(names[m[0]])) \
            if m else Int(1)
        term = term if abs(c) == 1 else (Int(abs(c)) if not m else Mul(Int(abs(c)), term))
        sides[0 if c > 0 else 1].append(term)
    left, right = (reduce(Add, side) if side else Int(0) for side in sides)  # type: ignore[arg-type]
    return Cmp("==", left, right)


def _octagon(rows: list[tuple[int, ...]], names: list[str]) -> list[BExpr]:
    """`x >= min`, `x <= max`, and `x - y`, `x + y` between their extremes, over the rows."""
    out: list[BExpr] = []
    terms: list[tuple[AExpr, list[int]]] = [(Var(x), [r[i] for r in rows])
                                             for i, x in enumerate(names)]
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            terms.append((Sub(Var(names[i]), Var(names[j])), [r[i] - r[j] for r in rows]))
            terms.append((Add(Var(names[i]), Var(names[j])), [r[i] + r[j] for r in rows]))
    for term, values in terms:
        out += [Cmp(">=", term, Int(min(values))), Cmp("<=", term, Int(max(values)))]
    return out


def _phases(p: Stmt, names: list[str]) -> list[BExpr]:
    """`x < c or x % m == r`: for each integer variable `x` the program compares with a literal
    `c`, each literal modulus `2 <= m <= 4` of the program and each remainder `r`; the parity
    of a loop whose step changes at a threshold (`x + 1` below `c`, `x + 2` above), which no
    sampled run may reach."""
    nodes = _nodes(p)
    moduli = sorted({n.right.value for n in nodes if isinstance(n, Mod)
                     and isinstance(n.right, Int) and 2 <= n.right.value <= 4})
    bounds = sorted({(n.left.name, n.right.value) for n in nodes if isinstance(n, Cmp)
                     and isinstance(n.left, Var) and isinstance(n.right, Int)
                     and n.left.name in names})
    return [Or(Cmp("<", Var(x), Int(c)), Cmp("==", Mod(Var(x), Int(m)), Int(r)))
            for x, c in bounds for m in moduli for r in range(m)]


def _judged(c: BExpr, heads: tuple[Env, ...]) -> bool:
    """Whether `c` holds in every sampled whole state (some there are)."""
    try:
        return bool(heads) and all(beval(env, c) for env in heads)
    except ZeroDivisionError:
        return False


def _holds(c: BExpr, rows: tuple[tuple[int, ...], ...], names: list[str]) -> bool:
    """Whether `c` holds in every sampled state."""
    return all(beval(Env.of(dict(zip(names, row))), c) for row in rows)


def conjunction(parts: list[BExpr]) -> BExpr:
    return reduce(And, parts) if parts else Bool(True)
