"""Ghost interpretations (seed 004, Sect. 3.1-3.2): concrete witnesses that travel with states.

A ghost interpretation `ρ` gives a concrete value to every symbolic variable a state mentions
(M-I1). Started from a concrete input, ghost-mode execution carries `ρ` along the engine's own
steps; it never changes which states are produced. It turns the existential over- and
under-approximation properties (M-P1, M-P2) into checks that need no solver (M-P3, M-P4).

- The main engine (`explore.expand`/`run`) names each symbolic variable after the program input
  it stands for and never introduces others, so its `ρ` is the input `Env` itself, fixed along a
  path; `expand` gives it to the successor whose path condition it satisfies (`SymState.ghost`).
  `check_ghost_run` compares the ghost-carrying states of `run` with the concrete trace, depth
  by depth.
- Objects (seed 003 §4): new objects are the literals `-1, -2, ...` in both semantics, so the
  bijection between fresh symbolic objects and concrete ones (B-T4, B-C4) is the identity,
  which `fresh_objects_distinct` checks along a ghost run from a valid input heap.
- The bounded interpreter (`interp.py`) introduces fresh variables (M-F1), so its `ρ` is an
  `Interpretation`: a partial map with an explicit domain, extended at each assignment (M-E1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import islice
from typing import Mapping, Sequence

import icontract

from symcert.core.concrete import Env, State, aeval
from symcert.core.replays import lockstep
from symcert.core.state import SymState, concretize, concretize_frames, initial, satisfies
from symcert.core.terms import free_vars
from symcert.engine.explore import Strategy, run
from symcert.lang.procedures import references
from symcert.lang.structure import variables
from symcert.lang.syntax import ALLOC, AExpr, Int, Stmt, Var
from symcert.solver.z3backend import Solver
from symcert.spec.switch import CONTRACTS, lemma


@dataclass(frozen=True, slots=True)
class Interpretation:
    """`ρ : SVar ⇀ ℤ`, a partial map with an explicit domain (zeros included)."""

    values: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(values: Mapping[str, int]) -> Interpretation:
        """The interpretation with exactly these bindings."""
        return Interpretation(tuple(sorted(values.items())))

    def dom(self) -> frozenset[str]:
        """`dom(ρ)`."""
        return frozenset(k for k, _ in self.values)

    @icontract.require(lambda self, v: v not in self.dom(), "M-F1 freshness",
                       enabled=CONTRACTS)
    def extend(self, v: str, value: int) -> Interpretation:
        """`ρ[v ← value]` for a fresh `v`."""
        return Interpretation(tuple(sorted(self.values + ((v, value),))))

    def extends(self, other: Interpretation) -> bool:
        """`other ⊑ self`: same values on `dom(other) ⊆ dom(self)`."""
        mine = dict(self.values)
        return all(k in mine and mine[k] == v for k, v in other.values)

    def eval(self, se: AExpr) -> int:
        """`ρ(se)`, defined when `vars(se) ⊆ dom(ρ)`."""
        missing = free_vars(se) - self.dom()
        if missing:
            raise KeyError(f"ρ does not interpret {', '.join(sorted(missing))}")
        return aeval(self.as_env(), se)

    def as_env(self) -> Env:
        """`ρ` as a total valuation (outside `dom(ρ)`: 0)."""
        return Env.of(dict(self.values))

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k} = {v}" for k, v in self.values) + "}"


# ---------------------------------------------------------------------------------------------
# Ghost mode for the main engine.


@lemma("M-I1")
def ghost_interprets(state: SymState, names: frozenset[str]) -> bool:
    """A ghost state mentions only symbolic inputs `ρ` interprets (`names`, the root program's
    variables) and `ρ ⊨ φ`: the branch it is on is the one its input takes."""
    if state.ghost is None:
        return True
    mentioned = frozenset().union(*(free_vars(c) for c in state.pc.conjuncts()),
                                  *(free_vars(t) for _, t in state.store.bindings))
    return mentioned <= names and satisfies(state.ghost, state.pc)


@lemma("M-E1")
def ghost_kept(rho: Env, states: Sequence[SymState]) -> bool:
    """Every ghost a state carries is the initial `ρ` (the main engine has no fresh variables,
    so `ρ ⊑ ρ'` is `ρ' = ρ`)."""
    return all(s.ghost is None or s.ghost == rho for s in states)


def ghost_initial(p: Stmt, rho: Env) -> SymState:
    """The initial state `⟨true, id, p⟩` carrying the input `ρ` (restricted to `p`'s variables)."""
    names = variables(p)
    return replace(initial(p), ghost=Env.of({x: rho(x) for x in names}))


@icontract.require(lambda limit: limit >= 0, enabled=CONTRACTS)
@icontract.ensure(lambda p, result: all(ghost_interprets(s, variables(p)) for s in result),
                  "M-I1 ghost state invariant", enabled=CONTRACTS)
@icontract.ensure(lambda p, rho, result: ghost_kept(ghost_initial(p, rho).ghost, result),
                  "M-E1 interpretations extend", enabled=CONTRACTS)
def ghost_run(p: Stmt, rho: Env, limit: int, strategy: Strategy = Strategy.BFS,
              solver: Solver | None = None) -> list[SymState]:
    """The first `limit` states of `run` from the ghost initial state (fewer if it ends).

    :param p: the program.
    :param rho: the concrete input the ghost follows.
    :param limit: how many states to take from the stream.
    """
    states = islice(run([ghost_initial(p, rho)], strategy, solver), limit)
    return [s for s in states if s is not None]


@lemma("M-P3")
def ghost_over_approximates(concrete: Sequence[State], states: Sequence[SymState],
                            names: frozenset[str], ended: bool = False) -> str | None:
    """Every concrete state `V_d` is matched by a ghost state at depth d with `ρ∘S = V_d` and the
    same program; else a description of the first miss. `states` is a BFS prefix: d ranges over
    its complete levels (all of them if the stream `ended`)."""
    complete = len(concrete) if ended else max((s.depth for s in states), default=-1)
    by_depth = {s.depth: s for s in states if s.ghost is not None}
    for d, c in enumerate(concrete[:complete]):
        g = by_depth.get(d)
        if g is None or not _matches(g, c, names):
            return f"concrete state {c.env} at step {d} has no matching ghost state"
    return None


@lemma("M-P4")
def ghost_under_approximates(concrete: Sequence[State], states: Sequence[SymState],
                             names: frozenset[str]) -> str | None:
    """Every ghost state at depth d concretizes (`ρ∘S`) to the concrete state `V_d`, with the same
    program, and no two share a depth; else a description of the first mismatch."""
    seen: set[int] = set()
    for g in states:
        if g.ghost is None:
            continue
        if g.depth in seen:
            return f"two ghost states at depth {g.depth}"
        seen.add(g.depth)
        if g.depth >= len(concrete):
            return f"ghost state at depth {g.depth}, after the concrete run ended"
        c = concrete[g.depth]
        if not _matches(g, c, names):
            return (f"ghost state at depth {g.depth} concretizes to {_concretize(g, names)}, "
                    f"the concrete state is {c.env}")
    return None


def _matches(g: SymState, c: State, names: frozenset[str]) -> bool:
    """`g` concretizes under its ghost to `c`: same program, `ρ∘S = V` and `ρ∘Σ` = the stack."""
    assert g.ghost is not None
    return (g.prog == c.prog and _concretize(g, names) == _restrict(c.env, names)
            and concretize_frames(g.ghost, g.frame) == c.frame)


def _concretize(g: SymState, names: frozenset[str]) -> Env:
    assert g.ghost is not None
    return concretize(g.ghost, g.store, names)


def _restrict(env: Env, names: frozenset[str]) -> Env:
    return Env.of({x: env(x) for x in names})


@lemma("B-T4", "B-C4")
def fresh_objects_distinct(concrete: Sequence[State], states: Sequence[SymState],
                           references: frozenset[str]) -> str | None:
    """Seed 003 §4's fresh objects, along a ghost run: the symbolic state at depth d made the
    new objects `-1 ... -k` (its `ALLOC`, always a literal) exactly when the concrete state at
    depth d did (the bijection between fresh symbolic and concrete objects is the identity),
    and the input `ρ` names none of them (its references are nil or input objects); else a
    description of the first miss."""
    for g in states:
        if g.ghost is None or g.depth >= len(concrete):
            continue
        if any(isinstance(v, int) and v < 0 for x, v in g.ghost.bindings if x in references):
            return f"the input {g.ghost} names a new object"
        made = g.store(ALLOC)
        if not isinstance(made, Int) and made != Var(ALLOC):
            return f"the new objects at depth {g.depth} are a term, {made}"
        count = made.value if isinstance(made, Int) else 0
        if concrete[g.depth].env(ALLOC) != count:
            return (f"depth {g.depth}: {-count} new objects symbolically, "
                    f"{-concrete[g.depth].env(ALLOC)} concretely")  # type: ignore[operator]
    return None


def check_ghost_run(p: Stmt, rho: Env, limit: int, strategy: Strategy = Strategy.BFS,
                    solver: Solver | None = None) -> str | None:
    """Over- and under-approximation of the main engine, checked with ghosts and no solver:
    None when the ghost states of `ghost_run` are exactly the concrete trace from `ρ`.

    :param limit: how many states of the stream to check.
    """
    names = variables(p)
    states = ghost_run(p, rho, limit, strategy, solver)
    start = ghost_initial(p, rho)
    assert start.ghost is not None
    deepest = max((s.depth for s in states), default=0)
    concrete = list(lockstep(State(start.ghost, p), deepest + 1))
    fresh = fresh_objects_distinct(concrete, states, references(p))
    if strategy is Strategy.DFS:
        # A depth-first prefix is complete along no level: only the under-approximation applies.
        return ghost_under_approximates(concrete, states, names) or fresh
    return (ghost_under_approximates(concrete, states, names)
            or ghost_over_approximates(concrete, states, names, len(states) < limit) or fresh)


def check_ghost_merged(p: Stmt, rho: Env, limit: int, solver: Solver | None = None) -> str | None:
    """Over- and under-approximation under state merging (T-M1, M-P3, M-P4): the ghost states
    of a merging `run`, in the order the stream yields them, are exactly the first states of the
    concrete trace from `ρ`, each with `ρ'∘S = V`, where `ρ'` is `ρ` extended to the merges'
    fresh symbols (a merged state carries the ghost of the one of its states that had it, so
    the ghosts of a merged state are the union of the merged ones'). Depths are not compared:
    a merged state is as deep as the deepest of its paths. None when they match, else the first
    miss.

    :param limit: how many states of the stream to take.
    """
    from symcert.engine.merge import merging, without_symbols

    names = variables(p)
    start = ghost_initial(p, rho)
    assert start.ghost is not None
    with merging():
        states = [s for s in islice(run([start], solver=solver), limit) if s is not None]
    ghosts = [g for g in states if g.ghost is not None]
    concrete = list(lockstep(State(start.ghost, p), len(ghosts)))
    for i, g in enumerate(ghosts):
        assert g.ghost is not None
        if i >= len(concrete):
            return f"ghost state {i} after the concrete run ended"
        c = concrete[i]
        if not satisfies(g.ghost, g.pc):
            return f"ghost state {i}: its ghost {g.ghost} does not satisfy {g.pc}"
        if not (g.prog == c.prog and _concretize(g, names) == _restrict(c.env, names)
                and concretize_frames(g.ghost, g.frame) == c.frame
                and without_symbols(g.ghost) == start.ghost):
            return (f"ghost state {i} concretizes to {_concretize(g, names)}, the concrete "
                    f"state is {c.env}")
    if len(states) < limit and len(concrete) > len(ghosts):  # the stream ended: all of it
        return f"the concrete run goes on after the {len(ghosts)} ghost states"
    return None
