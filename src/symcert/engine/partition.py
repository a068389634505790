"""Breadth-first exploration with each level's frontier partitioned across workers (Fig. 6).

`partitioned(parts, mapper)` is an explorer with `run`'s signature, for `find_bugs` and
`Check`: it yields the states of the worklist level by level, and between two levels cuts the
frontier into `parts` contiguous slices (`Part`), which `mapper` hands to workers; each worker
steps its slice as `run` does (`successors`, the call-depth bound, pruning by its own solver:
`expand_part`) and returns the kept successors in order (`Level`). The next frontier is the
concatenation of the slices' successors in slice order: exactly the states, in exactly the
order, that `run`'s FIFO queue holds after the level. So the partitioned stream is `run`'s
breadth-first stream (but for the models the workers' solvers choose), and W-L3.1, W-T3.3 and
W-T3.4 carry over from it: every state at depth `d` is yielded before any at depth `d + 1`,
and the stream ends exactly when the frontier is empty (docs/lemmas.md).

States travel as they are: frozen dataclasses of terms, path conditions, stores, frames and
models, all plain Python data that pickles. The mapper decides where slices run: `in_process`
here, or a Dask client (checking/explore_dask.py); the engine never imports Dask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from symcert.core.concrete import Valuations
from symcert.core.state import SymState
from symcert.engine.alias import ALIAS, Alias, aliasing
from symcert.engine.explore import RunStats, Strategy, _feasible, _initial_check, successors
from symcert.engine.invariants import INVARIANTS
from symcert.solver.z3backend import Solver


@dataclass(frozen=True, slots=True)
class Part:
    """One worker's slice of a level: the states to step, and what `run` reads from its
    context (the aliasing strategy, whether the invariant transition applies, the call-depth
    bound), which a worker in another process does not share."""

    states: tuple[SymState, ...]
    alias: Alias = Alias.TERMS
    invariants: bool = True
    max_call_depth: int | None = None


@dataclass(frozen=True, slots=True)
class Level:
    """The kept successors of a part's states, in order, and what stepping them counted."""

    children: tuple[SymState, ...]
    pruned: int = 0
    unknown: int = 0
    too_deep: int = 0


def expand_part(part: Part, solver: Solver | None) -> Level:
    """Step every state of `part` as `run` does, keeping the successors `solver` does not
    prove UNSAT (all of them without a solver)."""
    stats = RunStats()
    values = Valuations()
    kept: list[SymState] = []
    token = INVARIANTS.set(part.invariants)
    try:
        with aliasing(part.alias):
            step = successors()
            for state in part.states:
                for child in step(state):
                    if (part.max_call_depth is not None and child.frame is not None
                            and child.frame.height > part.max_call_depth):
                        stats.too_deep += 1
                        continue
                    ok = (_feasible(child, state, solver, stats, values) if solver is not None
                          else child)
                    if ok is None:
                        stats.pruned += 1
                    else:
                        kept.append(ok)
    finally:
        INVARIANTS.reset(token)
    return Level(tuple(kept), stats.pruned, stats.unknown, stats.too_deep)


Mapper = Callable[[Sequence[Part]], list[Level]]
"""Steps each part, somewhere, and returns their levels in the parts' order."""


def in_process(solver: Solver | None) -> Mapper:
    """The mapper that steps the parts here, one after the other, with `solver`."""
    return lambda parts: [expand_part(p, solver) for p in parts]


def split(states: Sequence[SymState], parts: int) -> list[Part]:
    """`states` cut into at most `parts` contiguous slices of nearly equal size, in order,
    each carrying the context in force."""
    size, extra = divmod(len(states), parts)
    out: list[Part] = []
    start = 0
    for i in range(min(parts, len(states))):
        stop = start + size + (1 if i < extra else 0)
        out.append(Part(tuple(states[start:stop]), ALIAS.get(), INVARIANTS.get()))
        start = stop
    return out


def partitioned(parts: int, mapper: Callable[[Solver | None], Mapper] = in_process
                ) -> Callable[..., Iterator[SymState | None]]:
    """An explorer with `run`'s signature whose levels are stepped in `parts` slices by the
    mapper made from the caller's solver (breadth-first only)."""

    def explore(l: Iterable[SymState], strategy: Strategy = Strategy.BFS,
                solver: Solver | None = None, stats: RunStats | None = None,
                max_call_depth: int | None = None) -> Iterator[SymState | None]:
        if strategy is not Strategy.BFS:
            raise ValueError("the partitioned exploration is breadth-first")
        return _levels(l, parts, mapper(solver), solver,
                       stats if stats is not None else RunStats(), max_call_depth)

    return explore


def _levels(l: Iterable[SymState], parts: int, step: Mapper, solver: Solver | None,
            stats: RunStats, max_call_depth: int | None) -> Iterator[SymState | None]:
    """The states level by level, each next level made by the mapper; then None forever."""
    frontier: list[SymState] = []
    for s in l:
        checked = _initial_check(s, solver) if solver is not None else s
        if checked is None:
            stats.pruned += 1
        else:
            frontier.append(checked)
    while frontier:
        for i, state in enumerate(frontier):
            stats.yielded += 1
            stats.frontier = len(frontier) - i - 1
            yield state
        levels = step([Part(p.states, p.alias, p.invariants, max_call_depth)
                       for p in split(frontier, parts)])
        frontier = [child for level in levels for child in level.children]
        for level in levels:
            stats.pruned += level.pruned
            stats.unknown += level.unknown
            stats.too_deep += level.too_deep
    stats.frontier = 0
    while True:
        yield None
