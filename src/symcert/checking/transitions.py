"""m-to-n symbolic transitions over configurations and their concrete meaning (seed 001, T-D1).

A configuration `Cnf` is a set of symbolic states; a transition `(I, O)` with `I ⊆ Cnf` yields
the successor configuration `Cnf \\ I ∪ O` (`successor`). The meaning of a symbolic state
`⟨φ, S, p⟩` from a concrete initial store `σ` is `concr(s, σ)`: empty when `σ ⊭ φ`, otherwise the
final state of the concrete run of `p` from `σ∘S` (W-D2.2). Runs are bounded by a step budget
(`fuel`); a run that exhausts it has no known meaning (None), so the oracles skip it.

The transitions given here, each a function from the input states `I` to the outputs `O`:

- `expand_step`: one `→sym` step by `expand` (Fig. 7; `expand_split` under `--alias split`),
  1-to-n; exhaustive and precise.
- `stream(max_states)`: the transitive closure by the stream `run` (Fig. 6), cut after at most
  `max_states` states; its outputs are the leaves and the unexplored frontier, so it is
  exhaustive and precise even when cut.
- `merged_stream(max_states)`: the same stream with state merging (T-M1), and `merge_rule`,
  the m-to-1 merge of two states itself: exhaustive and precise.
- `unroll(k)`: the stream `run` bounded to enter each `while` at most `k` times in a row; it
  *drops* the paths that would iterate again: precise, not exhaustive (T-X1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from symcert.core.algebra import fold_a, fold_b
from symcert.core.concrete import (
    NO_CELLS, VALUES, Cells, Ending, Env, Final, aeval, run_to_end,
)
from symcert.core.state import (
    PathCondition, SymState, concretize, concretize_frames, initial, rules_of, satisfies,
    state_names,
)
from symcert.core.guards import GUARDS
from symcert.core.terms import TERMS, disj, negate
from symcert.engine.explore import run, successors
from symcert.engine.invariants import unrolled
from symcert.engine.merge import Merging, define, merge, merged, merging, without_symbols
from symcert.lang.procedures import arrays
from symcert.lang.structure import inputs, reads
from symcert.lang.syntax import (
    AExpr, ArrayExpr, ArrayVar, BExpr, Bool, Cmp, Int, Select, Stmt, Update, Var, is_field,
)
from symcert.seed004.interp import concretize_result, exec_symbolic, is_input
from symcert.seed004.natural import ENDINGS, Behaviour
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.definedness import defined

DEFAULT_FUEL = 10_000
"""Concrete steps allowed to one run when computing a concretization."""


Meaning = frozenset[Final] | None
"""A concretization: a set of final states, or None when a run ran out of fuel (undecided)."""

TransitionFn = Callable[[tuple[SymState, ...]], tuple[Any, ...]]


@dataclass(frozen=True)
class Transition:
    """A symbolic transition relation, given as the outputs `O` it produces for inputs `I` (T-D1).

    :param name: how reports call it.
    :param outputs: `I ↦ O`.
    :param meaning: `concr(o, σ, fuel)` for an output `o` (default: `concr` of a `SymState`).
    :param claims: the properties the transition has by construction (T-X1: unrolling is
        precise only; T-I1, T-S1: exhaustive only); a counterexample to another is expected.
    :param note: why, said with such a counterexample.
    :param caveat: under which condition a claimed property holds, said with a counterexample
        to it (T-S1: where every contract holds).
    """

    name: str
    outputs: TransitionFn
    meaning: Callable[[Any, Env, int], Meaning] = field(default=lambda o, sigma, fuel:
                                                        concr(o, sigma, fuel))
    claims: frozenset[str] = frozenset({"exhaustive", "precise"})
    note: str = ""
    caveat: str = ""

    def __call__(self, inputs: tuple[SymState, ...]) -> tuple[Any, ...]:
        return self.outputs(inputs)


def successor(cnf: frozenset[SymState], t: Transition,
              inputs: frozenset[SymState]) -> frozenset[SymState]:
    """The successor configuration `Cnf \\ I ∪ O` of transition `t` on `I ⊆ Cnf` (T-D1).

    :raises ValueError: when `I` is not a subset of `Cnf`.
    """
    if not inputs <= cnf:
        raise ValueError("the inputs of a transition must be states of the configuration")
    return (cnf - inputs) | frozenset(t(tuple(inputs)))


def concr(s: SymState, sigma: Env, fuel: int = DEFAULT_FUEL) -> Meaning:
    """`concr(s, σ)`: the final states of `s` from initial store `σ` (seed 001, T-D1).

    :param s: the symbolic state `⟨φ, S, p⟩`.
    :param sigma: the concrete initial store (the symbolic inputs' values).
    :param fuel: the step budget of the concrete run of `p`.
    :return: `{}` when `σ ⊭ φ` or an `assume` blocks the run (X-U1: it has no final state),
        `{final}` otherwise, None when the run exceeds `fuel`. On a merged path (T-M1) `σ` is
        first extended to the merges' fresh symbols (`merge.define`), which the final state
        does not show.
    """
    if merged(s):
        extended = define(without_symbols(sigma), s.pc)
        if extended is None:
            return frozenset()
        names = state_names(s) | frozenset(sigma.as_dict())
        start = without_symbols(concretize(extended, s.store, names))
        final = run_to_end(start, s.prog, fuel, concretize_frames(extended, s.frame))
    else:
        if not satisfies(sigma, s.pc):
            return frozenset()
        start = concretize(sigma, s.store, state_names(s) | frozenset(sigma.as_dict()))
        final = run_to_end(start, s.prog, fuel, concretize_frames(sigma, s.frame))
    if final is None:
        return None
    return frozenset() if final.ending is Ending.BLOCKED else frozenset({final})


# --- the transitions -------------------------------------------------------------------------


def _expand_outputs(inputs: tuple[SymState, ...]) -> tuple[SymState, ...]:
    out: list[SymState] = []
    for s in inputs:
        # A state no rule applies to stays in the configuration: it is not an input of a step.
        out.extend(successors(invariants=False)(s) if rules_of(s) else [s])
    return tuple(out)


expand_step = Transition("expand (one step)", _expand_outputs)


def run_outputs(inputs_: tuple[SymState, ...], max_states: int,
                solver: Solver | None = None) -> tuple[tuple[SymState, ...], bool]:
    """The configuration the stream `run` reaches from `inputs_` within `max_states` states:
    the leaves, plus the unexplored frontier when cut; and whether the stream ended. Under
    merging (T-M1) a cut run's frontier may hold a successor beside the merged state that
    absorbed it: the configuration stays exhaustive and precise, with a run represented twice."""
    seen: list[SymState] = []
    ended = False
    with unrolled():  # loops unrolled: a havoc's symbols are no input this concretization reads
        for s in run(list(inputs_), solver=solver):
            if s is None:
                ended = True
                break
            seen.append(s)
            if len(seen) >= max_states:
                break
    leaves = [s for s in seen if rules_of(s) == 0]
    if ended:
        return tuple(leaves), True
    explored = set(seen)
    step = successors(invariants=False)
    frontier = [c for s in seen if rules_of(s) for c in step(s) if c not in explored]
    return tuple(leaves + frontier), False


def stream(max_states: int, solver: Solver | None = None) -> Transition:
    """The stream `run` from the inputs, cut after `max_states` states: leaves plus frontier.

    :param max_states: how many stream elements to take at most.
    :param solver: prunes UNSAT states (pruned states have an empty meaning).
    """
    return Transition(f"run (stream, at most {max_states:,} states)",
                      lambda inputs_: run_outputs(inputs_, max_states, solver)[0])


def merged_stream(max_states: int, solver: Solver | None = None) -> Transition:
    """The stream `run` with state merging wherever the rule applies (T-M1, merge.py), cut as
    `stream` is: exhaustive and precise, the merged states meaning what `concr` extends `σ` to.

    :param max_states: how many stream elements to take at most.
    :param solver: prunes UNSAT states.
    """
    def outputs(inputs_: tuple[SymState, ...]) -> tuple[SymState, ...]:
        with merging(Merging.ALL):
            return run_outputs(inputs_, max_states, solver)[0]

    return Transition(f"run with state merging (T-M1, at most {max_states:,} states)", outputs)


merge_rule = Transition("merge (T-M1, m-to-1)", lambda inputs_: (merge(*inputs_),))
"""The merge of two states with the same program and frames, an m-to-1 transition (T-M1)."""


def unroll(k: int, solver: Solver | None = None) -> Transition:
    """Symbolic execution that enters each loop at most `k` times in a row and drops the paths
    that would enter it again: the stream `run` with its unrolling bound, to its leaves.

    :param k: the loop-unrolling threshold.
    :param solver: prunes UNSAT branches when given.
    """
    if k < 0:
        raise ValueError(f"the unrolling threshold must be at least 0: {k}")

    def outputs(inputs_: tuple[SymState, ...]) -> tuple[SymState, ...]:
        leaves = []
        for s in run(list(inputs_), solver=solver, unroll=k):
            if s is None:
                return tuple(leaves)
            if rules_of(s) == 0:
                leaves.append(s)
        raise AssertionError("unreachable: the stream ends with None")

    return Transition(f"unroll (K = {k})", outputs, claims=frozenset({"precise"}),
                      note="expected: unrolling drops the runs that iterate more often (T-X1), "
                      "so it claims precision only")


def meanings(states: Iterable[Any], sigma: Env, fuel: int,
             meaning: Callable[[Any, Env, int], Meaning] | None = None,
             ) -> list[tuple[Any, Meaning]]:
    """Each state with its concretization from `σ` (by `meaning`, default `concr`)."""
    return [(s, concr(s, sigma, fuel) if meaning is None else meaning(s, sigma, fuel))
            for s in states]


@dataclass(frozen=True)
class Result:
    """An output of the seed-004 interpreter: a result state, the program's inputs, those of
    them that are arrays or fields' maps (by the program's static kinds, never by which
    bindings a store happens to hold: an all-0 or all-nil map is no binding of an `Env`), and
    the program."""

    result: Any
    declared: frozenset[str]
    maps: frozenset[str]
    program: Stmt
    reading: Reading = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reading", Reading.of(self.result.pc, self.maps))

    def __str__(self) -> str:
        return f"result {self.result}"


@dataclass(frozen=True)
class Reading:
    """What pinning a result's path condition to an input `σ` needs of it, the same for every
    `σ`: the fresh arrays' definitions (`unfold`), and each cell `a[i]` of an input map that the
    unfolded conjuncts read, with the read's term and the condition where it is undefined (nil's
    field, a division by zero in `i`). Shared terms keep the pins' translations cached."""

    defs: dict[str, ArrayExpr]
    cells: tuple[tuple[str, AExpr, Select, BExpr], ...]

    @staticmethod
    def of(pc: PathCondition, maps: frozenset[str]) -> Reading:
        conjuncts, defs = unfold(pc)
        cells: dict[tuple[str, AExpr], None] = {}
        for name, index in reads(conjuncts):
            if name in maps:
                cells.setdefault((name, index))
        return Reading(defs, tuple(
            (name, index, read, negate(fold_a(GUARDS, Var, read)[1]))
            for name, index in cells for read in (Select(ArrayVar(name), index),)))


def show(o: Any) -> str:
    """An output state as reports print it."""
    if isinstance(o, SymState):
        return f"state with path condition {o.pc} and store {o.store}"
    return str(o)


def interpreter(n: int, solver: Solver | None = None) -> Transition:
    """The seed-004 bounded interpreter `exec_symbolic(p, n)` as a transition from `⟨true, id, p⟩`.

    A result `(σ' | C')_β` means, from `σ`, the stores `ρ∘σ'` for the `ρ ⊨ C'` that agree with
    `σ` on the inputs (the fresh variables are existential), asked to the solver: a first model,
    then any model with another final store. The inputs are pinned to `σ` (`pin`): an integer
    by an equation, an array or a field's map at every cell the constraints read; the model's
    arrays are then replaced by `σ`'s and the fresh ones computed from their definitions
    (`valuation`). LOOP_LIMIT, CALL_LIMIT and UNBOUND_VAR results have no final state: their
    meaning is unknown (None), so they never give a counterexample.

    :param n: the loop limit.
    :param solver: decides the constraints (a fresh default one if None).
    """
    solver = solver if solver is not None else Solver()

    produced: dict[tuple[SymState, ...], tuple[Any, ...]] = {}

    def outputs(inputs_: tuple[SymState, ...]) -> tuple[Any, ...]:
        if inputs_ not in produced:  # the same outputs for each oracle: their meanings are kept
            produced[inputs_] = _outputs(inputs_)
        return produced[inputs_]

    def _outputs(inputs_: tuple[SymState, ...]) -> tuple[Any, ...]:
        out: list[Any] = []
        for s in inputs_:
            if s.pc.length or s.store != initial(s.prog).store:
                raise ValueError("the seed-004 interpreter starts from ⟨true, id, p⟩ only")
            declared = inputs(s.prog)
            maps = frozenset(x for x in declared if is_field(x)) | (declared & arrays(s.prog))
            out.extend(Result(r, declared, maps, s.prog)
                       for r in exec_symbolic(s.prog, n, solver))
        return tuple(out)

    deciding: dict[Env, Solver] = {}
    known: dict[tuple[int, Env], Meaning] = {}  # by output (kept alive in `produced`) and `σ`

    def meaning(o: Any, sigma: Env, fuel: int) -> Meaning:
        if (id(o), sigma) not in known:
            known[id(o), sigma] = _meaning(o, sigma)
        return known[id(o), sigma]

    def _meaning(o: Any, sigma: Env) -> Meaning:
        if not o.maps:
            return _result_meaning(o, sigma, solver)
        if sigma not in deciding:  # the oracles ask every output's meaning at one `σ`, then
            deciding.clear()  # the next: a solver per `σ` does not accumulate the cells'
            deciding[sigma] = solver.fresh()  # pins of every `σ` (measured: 3× slower)
        return _result_meaning(o, sigma, deciding[sigma])

    return Transition(f"seed-004 interpreter (loop limit {n})", outputs, meaning)


def unfold(pc: PathCondition) -> tuple[list[BExpr], dict[str, ArrayExpr]]:
    """The conjuncts of `pc` with each fresh array variable (`a#k`, seed 004 M-F1) replaced by
    its definition `a#k == t`, oldest first, and those definitions: every array term then
    stands on the input arrays, whose cells `reads` finds."""
    defs: dict[str, ArrayExpr] = {}
    memo: dict[int, Any] = {}  # a node met before a definition never mentions its variable

    def read(x: str) -> AExpr | ArrayExpr:
        return defs[x] if x in defs else Var(x)

    out: list[BExpr] = []
    for c in pc.conjuncts():
        d = fold_b(TERMS, read, c, memo) if defs else c
        if isinstance(d, Cmp) and d.op == "==" and isinstance(d.left, ArrayVar) \
                and not is_input(d.left.name) and d.left.name not in defs:
            defs[d.left.name] = d.right  # type: ignore[assignment]
        out.append(d)
    return out, defs


def pin(pc: PathCondition, declared: frozenset[str], maps: frozenset[str], reading: Reading,
        sigma: Env) -> PathCondition:
    """`pc` and the inputs' values in `σ`: `x == σ(x)` for an integer input, and for each cell
    `a[i]` of an input array or field's map `a` that the conjuncts read (`reading`: the fresh
    arrays unfolded), `a[i]` equal to `σ(a)` at `i`, as the case split on `i` over the cells
    `σ(a)` lists (every other cell 0), each pin true where the read is undefined (nil's field, a
    division by zero): the constraints then read only the input `σ` gives."""
    for x in sorted(declared - maps):
        pc = pc.extend(Cmp("==", Var(x), Int(sigma(x))))  # type: ignore[arg-type]
    for name, index, read, undefined in reading.cells:
        value = sigma(name)
        table = value if isinstance(value, Cells) else NO_CELLS
        other: BExpr = Cmp("==", read, Int(table.default))
        for i, v in table.cells:
            cell = disj(Cmp("!=", index, Int(i)), Cmp("==", read, Int(v)))
            pc = pc.extend(disj(undefined, cell))
            other = disj(Cmp("==", index, Int(i)), other)
        pc = pc.extend(disj(undefined, other))
    return pc


def valuation(model: Env, pc: PathCondition, maps: frozenset[str], defs: dict[str, ArrayExpr],
              sigma: Env) -> Env | None:
    """The model's integers with `σ`'s input arrays and each fresh array computed from its
    definition `defs` (`unfold`), or None when that valuation does not satisfy `pc` (the
    pinning of `pin` would then have missed a cell)."""
    values = {k: v for k, v in model.bindings if not isinstance(v, Cells)}
    values.update((x, sigma(x)) for x in maps)
    for v, t in defs.items():
        cells = defined(lambda: fold_a(VALUES, Env.of(values), t))
        if cells is None:
            return None
        values[v] = cells
    env = Env.of(values)
    return env if defined(lambda: satisfies(env, pc)) else None


def _written(t: ArrayExpr) -> list[AExpr]:
    """The index and value terms of the update sequence `t`."""
    out: list[AExpr] = []
    while isinstance(t, Update):
        out += [t.index, t.value]
        t = t.array
    return out


def _result_meaning(o: Result, sigma: Env, solver: Solver) -> Meaning:
    r, maps, defs = o.result, o.maps, o.reading.defs
    if r.behaviour is Behaviour.BLOCKED:
        return frozenset()  # X-U1: as `concr`, a blocked run has no final state
    pc = pin(r.pc, o.declared, maps, o.reading, sigma)
    answer, model = solver.check(pc)
    if answer is Sat.UNSAT:
        return frozenset()
    if answer is Sat.UNKNOWN or model is None or r.behaviour not in ENDINGS:
        return None
    rho = valuation(model, r.pc, maps, defs, sigma)
    if rho is None:
        return None
    first = concretize_result(r, rho).env
    finals = {Final(first, ENDINGS[r.behaviour])}
    # Another final store differs in an integer, or writes an array at another index or value.
    other: BExpr = Bool(False)
    for y, v in r.env.bindings:
        if v in defs:
            for t in _written(defs[v]):
                value = defined(lambda: aeval(rho, t))
                if value is not None:
                    other = disj(other, Cmp("!=", t, Int(value)))
        elif not isinstance(first(y), Cells) and y not in maps:
            other = disj(other, Cmp("!=", Var(v), Int(first(y))))  # type: ignore[arg-type]
    answer, model = solver.check(pc.extend(other))
    if answer is Sat.UNKNOWN:
        return None
    if answer is Sat.SAT and model is not None:
        rho = valuation(model, r.pc, maps, defs, sigma)
        if rho is None:
            return None
        finals.add(Final(concretize_result(r, rho).env, ENDINGS[r.behaviour]))
    return frozenset(finals)
