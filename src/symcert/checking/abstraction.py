"""The invariant and contract transitions (T-I1, T-S1) as transitions of the seed-001 oracles.

`abstracted(p)` is the stream `run` from `⟨true, id, p⟩` with T-I1 at every loop with an
invariant and T-S1 at every call of a procedure with a contract, to its leaves (the frontier
too when cut). A leaf on a path through a havoc (`invariants.abstract`) mentions fresh symbols
`x#k`, `a#k`, `result#k`; its meaning from a concrete input `σ` is the set of final states over
*every* value `ρ` of them: `concr(o, σ) = ⋃ {concr(o, σ ∪ ρ) | σ ∪ ρ ⊨ φ}` (seed 001: a summary
stands for more runs than it was built from). That set is infinite, so `Abstracted.meaning`
computes the part of it the oracles ask about:

- **membership** of the concrete run's final state `σ'` (exhaustiveness, T-D2): the solver is
  asked for a `ρ` with `σ ∪ ρ ⊨ φ` whose store gives `σ'` (every variable equal, every array
  equal at each cell that a write names, `σ'` or the input lists, or a read of `φ`, of the
  equations or of the stored arrays names; elsewhere a havocked array takes `σ'`'s cells), and
  the answer counts only once `concr(o, σ ∪ ρ) = {σ'}` is computed concretely: a final state
  is never counted by the solver's word alone;
- **samples** (precision, T-D3): up to `samples` models of `φ` pinned to `σ`, each run
  concretely; a sample no concrete run reaches is an imprecision counterexample, which T-I1
  and T-S1 are allowed (`claims`: exhaustive only).

A leaf on no abstract path has its plain meaning (`concr`); an abstract state of a cut run's
frontier has an unknown one (it would need the runs of its program for every `ρ`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symcert.core.concrete import NO_CELLS, Cells, Env, Final, aeval
from symcert.core.state import PathCondition, SymState, initial, rules_of, state_names
from symcert.core.terms import conj, disj
from symcert.checking.transitions import Meaning, Reading, Transition, concr, pin
from symcert.engine.contracts import contracted
from symcert.engine.explore import run, successors
from symcert.engine.invariants import HAVOC, abstract
from symcert.lang.procedures import arrays, statements, table_of
from symcert.lang.structure import reads
from symcert.lang.syntax import (
    AExpr, ArrayExpr, ArrayVar, BExpr, Bool, Cmp, Int, Select, Stmt, Update, Var, While, is_field,
)
from symcert.solver.z3backend import Sat, Solver

NOTE = ("expected: T-I1 and T-S1 over-approximate, a havoc standing for every value the "
        "invariant or contract allows, so they claim exhaustiveness only")
"""What `symcert oracle` says of an imprecision counterexample of `abstracted`."""
CAVEAT = ("T-S1 is exhaustive where each procedure meets its contract, which the concrete runs "
          "do not check: `symcert run FILE` verifies the bodies")
"""What `symcert oracle` says of an exhaustiveness counterexample of `abstracted`."""


def annotated(p: Stmt) -> bool:
    """Whether `p` has a loop with an invariant or a procedure with a contract."""
    roots = [p, *(q.body for q in table_of(p).values())]
    return any(contracted(q) for q in table_of(p).values()) or any(
        isinstance(s, While) and s.invariants for r in roots for s in statements(r))


def abstracted(p: Stmt, max_states: int, solver: Solver, samples: int = 2) -> Transition:
    """The stream with T-I1 and T-S1 from `⟨true, id, p⟩`, cut after `max_states` states, as a
    transition whose meaning is `Abstracted.meaning`.

    :param p: the program (its concrete runs decide the memberships).
    :param max_states: how many stream elements to take at most.
    :param solver: prunes UNSAT states and finds the values of the fresh symbols.
    :param samples: models drawn per abstract leaf and input for the precision oracle.
    """
    a = Abstracted(p, max_states, solver, samples)
    return Transition(f"run with invariants and contracts (T-I1, T-S1, at most "
                      f"{max_states:,} states)", a.outputs, a.meaning,
                      claims=frozenset({"exhaustive"}), note=NOTE, caveat=CAVEAT)


@dataclass
class Abstracted:
    """The outputs of `abstracted` and their meanings, each computed once."""

    program: Stmt
    max_states: int
    solver: Solver
    samples: int
    kinds: frozenset[str] = frozenset()
    finals: dict[Env, Meaning] = field(default_factory=dict)
    produced: dict[tuple[SymState, ...], tuple[SymState, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.kinds = arrays(self.program)

    def outputs(self, inputs_: tuple[SymState, ...]) -> tuple[SymState, ...]:
        """The leaves of the stream from `inputs_` with T-I1 and T-S1, and its frontier if cut."""
        if inputs_ not in self.produced:
            self.produced[inputs_] = _run(inputs_, self.max_states, self.solver)
        return self.produced[inputs_]

    def meaning(self, o: SymState, sigma: Env, fuel: int) -> Meaning:
        """The final states of `o` from `σ` that the oracles ask about (module docstring)."""
        if not abstract(o):
            return concr(o, sigma, fuel)
        if rules_of(o):
            return None  # a cut run's abstract frontier: unknown
        if sigma not in self.finals:
            self.finals = {sigma: _expected(self.program, sigma, fuel)}
        expected = self.finals[sigma]
        if expected is None:
            return None
        found = set(_sampled(o, sigma, self.kinds, self.solver, self.samples, fuel))
        for final in expected:
            if final not in found and _member(o, sigma, self.kinds, final, self.solver, fuel):
                found.add(final)
        return frozenset(found)


def _run(inputs_: tuple[SymState, ...], max_states: int,
         solver: Solver) -> tuple[SymState, ...]:
    seen: list[SymState] = []
    for s in run(list(inputs_), solver=solver):
        if s is None:
            return tuple(t for t in seen if rules_of(t) == 0)
        seen.append(s)
        if len(seen) >= max_states:
            break
    explored = set(seen)
    step = successors()
    frontier = [c for s in seen if rules_of(s) for c in step(s) if c not in explored]
    return tuple([s for s in seen if rules_of(s) == 0] + frontier)


def _expected(p: Stmt, sigma: Env, fuel: int) -> Meaning:
    """`concr(⟨true, id, p⟩, σ)`: the concrete run's final state."""
    return concr(initial(p), sigma, fuel)


def _plain(env: Env) -> Env:
    """`env` without the fresh symbols and the store's marks (names with `#`)."""
    return Env.of({x: v for x, v in env.bindings if "#" not in x})


def _symbols(o: SymState) -> frozenset[str]:
    return frozenset(x for x in state_names(o) if "#" in x and x != HAVOC)


def _pinned(o: SymState, kinds: frozenset[str], extra: list[BExpr],
            sigma: Env) -> PathCondition:
    """`φ ∧ extra`, the initial values pinned to `σ` (`transitions.pin`: integers by equations,
    arrays (`kinds`) and fields' maps at every cell those conjuncts read)."""
    pc = o.pc
    for c in extra:
        pc = pc.extend(c)
    declared = frozenset(x for x, _ in sigma.bindings) | frozenset(
        x for x in state_names(o) if "#" not in x)
    maps = frozenset(x for x in declared if is_field(x) or isinstance(sigma(x), Cells)
                     or x in kinds)
    return pin(pc, declared, maps, Reading.of(pc, maps), sigma)


def _valuation(o: SymState, kinds: frozenset[str], model: Env, sigma: Env,
               final: Final | None, conjuncts: list[BExpr]) -> Env:
    """`σ ∪ ρ`, `ρ` the model's values of `o`'s fresh symbols; a fresh array that is the base
    of a variable's term takes `final`'s cells but where `conjuncts` read it."""
    values: dict[str, Any] = dict(sigma.bindings)
    known = Env.of({**values, **dict(model.bindings)})
    bases = {_base(o.store(x)): x for x in kinds | _array_names(o)
             if _base(o.store(x)) is not None}
    read = reads(conjuncts)
    for x in _symbols(o):
        value = model(x)
        if isinstance(value, Cells) or x in bases:
            value = value if isinstance(value, Cells) else NO_CELLS
            target = final.env(bases[x]) if final is not None and x in bases else value
            cells = dict(target.cells if isinstance(target, Cells) else ())
            for name, index in read:
                if name == x:
                    try:
                        i = aeval(known, index)
                    except ZeroDivisionError:
                        continue
                    cells[i] = value(i)
            value = Cells.of(cells, target.default if isinstance(target, Cells) else 0)
        values[x] = value
    return Env.of(values)


def _array_names(o: SymState) -> frozenset[str]:
    return frozenset(x for x, t in o.store.bindings if isinstance(t, (ArrayVar, Update)))


def _base(t: Any) -> str | None:
    while isinstance(t, Update):
        t = t.array
    return t.name if isinstance(t, ArrayVar) and "#" in t.name else None


def _meaning_at(o: SymState, valuation: Env, fuel: int) -> frozenset[Final] | None:
    m = concr(o, valuation, fuel)
    return None if m is None else frozenset(Final(_plain(f.env), f.ending, f.where) for f in m)


def _sampled(o: SymState, sigma: Env, kinds: frozenset[str], solver: Solver, samples: int,
             fuel: int) -> list[Final]:
    """Up to `samples` final states of `o` from `σ`, each from a model run concretely."""
    out: list[Final] = []
    other: BExpr = Bool(True)
    for _ in range(samples):
        answer, model = solver.check(_pinned(o, kinds, [other], sigma))
        if answer is not Sat.SAT or model is None:
            break
        valuation = _valuation(o, kinds, model, sigma, None, [*o.pc.conjuncts(), other])
        m = _meaning_at(o, valuation, fuel)
        if not m:
            break
        (final,) = m
        out.append(final)
        differs: BExpr = Bool(False)
        for x, t in o.store.bindings:
            value = final.env(x)
            if "#" not in x and not isinstance(value, Cells) and not isinstance(
                    t, (ArrayVar, Update)):
                differs = disj(differs, Cmp("!=", t, Int(value)))  # type: ignore[arg-type]
        other = conj(other, differs)
    return out


def _member(o: SymState, sigma: Env, kinds: frozenset[str], final: Final, solver: Solver,
            fuel: int) -> bool:
    """Whether some `ρ` gives `final` from `o` at `σ` (the solver finds it, the concrete
    semantics confirms it)."""
    names = (frozenset(x for x, _ in final.env.bindings) | state_names(o)) - _symbols(o)
    equations: list[BExpr] = []
    array_names = kinds | _array_names(o)
    maps: list[tuple[ArrayExpr, Cells]] = []
    for x in sorted(n for n in names if "#" not in n):
        t, value = o.store(x), final.env(x)
        if x in array_names or isinstance(value, Cells):
            maps.append((ArrayVar(x) if isinstance(t, Var) else t,  # type: ignore[arg-type]
                         value if isinstance(value, Cells) else NO_CELLS))
        else:
            equations.append(Cmp("==", t, Int(value)))  # type: ignore[arg-type]
    read = reads([*o.pc.conjuncts(), *equations, *(t for t, _ in maps)])
    for t, cells in maps:
        equations += _same_array(t, cells, read, sigma)
    conjuncts = [*o.pc.conjuncts(), *equations]
    answer, model = solver.check(_pinned(o, kinds, equations, sigma))
    if answer is not Sat.SAT or model is None:
        return False
    valuation = _valuation(o, kinds, model, sigma, final, conjuncts)
    return _meaning_at(o, valuation, fuel) == frozenset({final})


def _same_array(t: ArrayExpr, cells: Cells, read: list[tuple[str, AExpr]],
                sigma: Env) -> list[BExpr]:
    """`t` equals `cells` at every cell a write of `t` names, every cell `cells` or the input
    below `t` lists, and every cell of `t`'s base that `read` lists (the reads of the other
    conjuncts and of the stored arrays: where a model may fix the base)."""
    indices: list[AExpr] = [Int(i) for i, _ in cells.cells]
    base = t
    while isinstance(base, Update):
        indices.append(base.index)
        base = base.array
    assert isinstance(base, ArrayVar)
    below = sigma(base.name)
    if isinstance(below, Cells):
        indices += [Int(i) for i, _ in below.cells]
    indices += [i for name, i in read if name == base.name]
    out: list[BExpr] = []
    for index in dict.fromkeys(indices):
        at = Select(t, index)
        if isinstance(index, Int):
            out.append(Cmp("==", at, Int(cells(index.value))))
            continue
        other: BExpr = Cmp("==", at, Int(cells.default))
        for i, v in cells.cells:
            out.append(disj(Cmp("!=", index, Int(i)), Cmp("==", at, Int(v))))
            other = disj(Cmp("==", index, Int(i)), other)
        out.append(other)
    return out
