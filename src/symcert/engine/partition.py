"""Breadth-first exploration with the frontier partitioned across workers, kept where it is
stepped, and rebalanced between rounds (Fig. 6).

`partitioned(parts, pool)` is an explorer with `run`'s signature, for `find_bugs` and `Check`.
It steps the first levels here; once a level holds `local` states it cuts it into `parts`
contiguous slices (`Part`) and hands them to the `pool`, which keeps each where it steps it (a
Dask worker: distributed/explore.py; this process: `Here`). Then it goes by rounds: each
part steps the same number of levels (`advance`, as `run` does: `successors`, the call-depth
bound, pruning by the worker's own solver) and sends back only what the verdict reads of
them (`Level`); between rounds, when the parts' frontiers are uneven (a lopsided tree), states
move between neighbouring parts until they are even again (`regroup`: `cut` where a part
lives, `join` where it goes), never more than that.

The order is `run`'s. The descendants at depth `d + j` of a contiguous slice of level `d` are a
contiguous block of level `d + j`, in order, and the slices stay in order through every
regrouping; so level `d + j` is the concatenation of the parts' levels, in part order, and the
stream yields exactly the states of `run`'s breadth-first stream, in its order, ending exactly
when every part's frontier is empty. W-L3.1, W-T3.3 and W-T3.4 carry over from `run`
(docs/lemmas.md). What a state looks like in the stream is what the verdict reads of it: a
failing state (`fail` next) whole, with its path condition and model, for the bug finder to
replay; any other state stood for by a state of its class (`stand_in`: the same depth, next
statement, procedure, stack height and havoc mark, so the same `Check` counts and bounded
claim), since its path condition and store stay on its worker.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

from symcert.core.concrete import head, is_stuck
from symcert.core.valuations import Valuations
from symcert.core.frames import Frame
from symcert.core.state import ID, TRUE_PC, Store, SymState
from symcert.engine.alias import ALIAS, Alias, aliasing
from symcert.engine.explore import RunStats, Strategy, _feasible, _initial_check, successors
from symcert.engine.invariants import HAVOC, INVARIANTS, abstract
from symcert.lang.syntax import Fail, Int, Skip
from symcert.solver.z3backend import Solver

LOCAL = 64
"""A level smaller than this is stepped in the caller's process: handing it out costs more."""

ROUND = 10_000
"""About the states the widest part steps in a round: a round much longer than a task's round
trip (milliseconds), short enough that a first bug stops the workers soon after."""


@dataclass(frozen=True, slots=True)
class Part:
    """One part's frontier: the states of one level, in order, and what `run` reads from its
    context (the aliasing strategy, whether the invariant transition applies, the call-depth
    bound), which a worker in another process does not share."""

    states: tuple[SymState, ...]
    alias: Alias = Alias.TERMS
    invariants: bool = True
    max_call_depth: int | None = None


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a part as the verdict reads it: state `i` is `like[codes[i]]`."""

    like: tuple[SymState, ...]
    codes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """What a round sends back: its levels, what stepping each one counted (pruned, undecided,
    cut successors), how many states the part's frontier holds after it, and the queries its
    solver asked and their seconds."""

    levels: tuple[Level, ...]
    counts: tuple[tuple[int, int, int], ...]
    remaining: int
    queries: int = 0
    solver_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Round:
    """A round's summary and the part's frontier after it (which stays on the worker)."""

    summary: Summary
    frontier: Part


def stand_in(s: SymState) -> SymState:
    """The state that stands for `s` in the stream: `s` itself if it fails next; otherwise its
    depth, next statement, procedure and havoc mark (what `Check` counts), nothing else."""
    if is_stuck(s.prog):
        return s
    frame = (None if s.frame is None
             else Frame(s.frame.proc, ID, None, Skip(), None, s.frame.height))
    return SymState(TRUE_PC, HAVOCKED if abstract(s) else ID, head(s.prog), s.depth,
                    frame=frame)


HAVOCKED = Store(((HAVOC, Int(1)),))
"""The store of a stand-in for a state on a path through a havoc (`invariants.abstract`)."""


def level(states: Sequence[SymState]) -> Level:
    """`states` as the verdict reads them, one stand-in per class of non-failing states (the
    same next statement, procedure and stack height, and havoc mark; every `skip` is one
    statement: a step makes a new one each time)."""
    like: list[SymState] = []
    classes: dict[object, int] = {}
    codes: list[int] = []
    for s in states:
        first = head(s.prog)
        if isinstance(first, Fail):  # `is_stuck`
            codes.append(len(like))
            like.append(s)
            continue
        frame = s.frame
        key = (Skip if isinstance(first, Skip) else id(first),
               None if frame is None else (frame.proc.name, frame.height), abstract(s))
        code = classes.get(key)
        if code is None:
            code = classes[key] = len(like)
            like.append(stand_in(s))
        codes.append(code)
    return Level(tuple(like), tuple(codes))


def advance(part: Part, levels: int, solver: Solver | None) -> Round:
    """Step `part` for `levels` levels (fewer if its frontier empties) as `run` does, keeping
    the successors `solver` does not prove UNSAT (all of them without a solver).

    The objects alive when the round starts (the part's states among them) are frozen for the
    cyclic collector until it ends (`gc.freeze`): states are acyclic, freed by their reference
    counts, and the collector's full passes over the frontier took a fifth to a quarter of a
    round's time on `bench/scaling.py`'s exploration."""
    seen: list[Level] = []
    counts: list[tuple[int, int, int]] = []
    states = part.states
    values = Valuations()
    asked = (solver.stats.queries, solver.stats.z3_seconds) if solver is not None else (0, 0.0)
    token = INVARIANTS.set(part.invariants)
    gc.freeze()
    try:
        with aliasing(part.alias):
            step = successors()
            while states and len(seen) < levels:
                seen.append(level(states))
                stats = RunStats()
                kept: list[SymState] = []
                for state in states:
                    for child in step(state):
                        if (part.max_call_depth is not None and child.frame is not None
                                and child.frame.height > part.max_call_depth):
                            stats.too_deep += 1
                            continue
                        ok = (_feasible(child, state, solver, stats, values)
                              if solver is not None else child)
                        if ok is None:
                            stats.pruned += 1
                        else:
                            kept.append(ok)
                counts.append((stats.pruned, stats.unknown, stats.too_deep))
                states = tuple(kept)
    finally:
        gc.unfreeze()
        INVARIANTS.reset(token)
    now = (solver.stats.queries, solver.stats.z3_seconds) if solver is not None else (0, 0.0)
    return Round(Summary(tuple(seen), tuple(counts), len(states), now[0] - asked[0],
                         now[1] - asked[1]),
                 Part(states, part.alias, part.invariants, part.max_call_depth))


def frontier(step: Round | Part) -> Part:
    """The frontier a round left, or a part not stepped yet."""
    return step.frontier if isinstance(step, Round) else step


def cut(step: Round | Part, start: int, stop: int) -> Part:
    """States `start` to `stop - 1` of a part's frontier (run where the part lives)."""
    part = frontier(step)
    return Part(part.states[start:stop], part.alias, part.invariants, part.max_call_depth)


def join(pieces: Sequence[Part]) -> Part:
    """The pieces' states in order, as one part (run where the new part will live)."""
    first = pieces[0]
    return Part(tuple(s for p in pieces for s in p.states), first.alias, first.invariants,
                first.max_call_depth)


Pieces = list[list[tuple[int, int, int]]]
"""For each new part, the slices `(old part, start, stop)` it is made of, in order."""


def pieces(sizes: Sequence[int]) -> Pieces | None:
    """How to regroup frontiers of `sizes` into as many parts of nearly equal size, keeping
    their order, or None when they are even enough (none over 5/4 of the mean, or fewer
    states than parts)."""
    total, n = sum(sizes), len(sizes)
    if total < n or max(sizes) * 4 <= (total * 5) // n:
        return None
    bounds = [total * j // n for j in range(n + 1)]
    offsets = [sum(sizes[:i]) for i in range(n + 1)]
    out: Pieces = []
    for j in range(n):
        lo, hi = bounds[j], bounds[j + 1]
        out.append([(i, max(lo, offsets[i]) - offsets[i], min(hi, offsets[i + 1]) - offsets[i])
                    for i in range(n) if max(lo, offsets[i]) < min(hi, offsets[i + 1])])
    return out


class Pool(Protocol):
    """Where the parts live and are stepped; a handle names a part's current frontier."""

    ahead: bool
    """Whether a round is started before the last one's states are yielded (workers step
    while the caller reads)."""

    own_solvers: bool
    """Whether the parts are stepped with solvers other than the caller's (whose queries the
    summaries count for `RunStats`)."""

    def advance(self, handles: Sequence[Any], levels: int) -> tuple[list[Any], Any]:
        """Start stepping each part `levels` levels: the new handles, and the summaries to
        come (for `summaries`), in order."""

    def summaries(self, pending: Any) -> list[Summary]:
        """The summaries of a round started by `advance`, once they are there."""

    def regroup(self, handles: Sequence[Any], how: Pieces) -> list[Any]:
        """The new parts made of the old ones' slices."""

    def release(self, handles: Sequence[Any]) -> None:
        """The parts are no longer needed."""


class Here:
    """The pool that keeps and steps the parts in this process, with one solver (nothing
    runs ahead: a round is stepped when the last one's states have been read)."""

    ahead = False
    own_solvers = False

    def __init__(self, solver: Solver | None) -> None:
        self.solver = solver

    def advance(self, handles: Sequence[Any], levels: int) -> tuple[list[Any], Any]:
        rounds = [advance(frontier(h), levels, self.solver) for h in handles]
        return rounds, [r.summary for r in rounds]

    def summaries(self, pending: Any) -> list[Summary]:
        return list(pending)

    def regroup(self, handles: Sequence[Any], how: Pieces) -> list[Any]:
        return [join([cut(handles[i], a, b) for i, a, b in new]) for new in how]

    def release(self, handles: Sequence[Any]) -> None:
        pass


def split(states: Sequence[SymState], parts: int) -> list[Part]:
    """`states` cut into `parts` contiguous slices of nearly equal size (empty when there are
    fewer states than parts), in order, each carrying the context in force."""
    bounds = [len(states) * j // parts for j in range(parts + 1)]
    return [Part(tuple(states[bounds[j]:bounds[j + 1]]), ALIAS.get(), INVARIANTS.get())
            for j in range(parts)]


def partitioned(parts: int, pool: Callable[[Solver | None], Pool] = Here, local: int = LOCAL,
                round_states: int = ROUND) -> Callable[..., Iterator[SymState | None]]:
    """An explorer with `run`'s signature that steps its levels in `parts` parts in the pool
    made from the caller's solver (breadth-first only), once a level holds `local` states,
    by rounds of about `round_states` states a part."""

    def explore(l: Iterable[SymState], strategy: Strategy = Strategy.BFS,
                solver: Solver | None = None, stats: RunStats | None = None,
                max_call_depth: int | None = None) -> Iterator[SymState | None]:
        if strategy is not Strategy.BFS:
            raise ValueError("the partitioned exploration is breadth-first")
        return _rounds(l, parts, pool(solver), solver,
                       stats if stats is not None else RunStats(), max_call_depth, local,
                       round_states)

    return explore


def _rounds(l: Iterable[SymState], parts: int, pool: Pool, solver: Solver | None,
            stats: RunStats, max_call_depth: int | None, local: int,
            round_states: int) -> Iterator[SymState | None]:
    """The states level by level: here while the levels are small, then by rounds in the pool;
    then None forever."""
    here: list[SymState] = []
    for s in l:
        checked = _initial_check(s, solver) if solver is not None else s
        if checked is None:
            stats.pruned += 1
        else:
            here.append(checked)
    while here and len(here) < local:
        for i, state in enumerate(here):
            stats.yielded += 1
            stats.frontier = len(here) - i - 1
            yield state
        stepped = advance(Part(tuple(here), ALIAS.get(), INVARIANTS.get(), max_call_depth), 1,
                          solver)
        _add(stats, stepped.summary.counts[0])
        here = list(stepped.frontier.states)
    if here:
        handles: list[Any] = [Part(p.states, p.alias, p.invariants, max_call_depth)
                              for p in split(here, parts)]
        handles, pending = pool.advance(handles, 1)
        try:
            while pending is not None:
                summaries = pool.summaries(pending)
                if pool.own_solvers:
                    stats.queries += sum(s.queries for s in summaries)
                    stats.solver_seconds += sum(s.solver_seconds for s in summaries)
                if pool.ahead:  # the next round is under way while this one is yielded
                    handles, pending = _next(pool, handles, summaries, round_states)
                yield from _yielded(summaries, stats)
                if not pool.ahead:
                    handles, pending = _next(pool, handles, summaries, round_states)
        finally:
            pool.release(handles)
    stats.frontier = 0
    while True:
        yield None


def _next(pool: Pool, handles: list[Any], summaries: Sequence[Summary],
          round_states: int) -> tuple[list[Any], Any]:
    """The next round started, after a rebalancing if the frontiers are uneven; no round
    (None) when every frontier is empty."""
    sizes = [s.remaining for s in summaries]
    if not any(sizes):
        return handles, None
    how = pieces(sizes)
    if how is not None:
        handles = pool.regroup(handles, how)
    return pool.advance(handles, _next_levels(summaries, round_states))


def _yielded(summaries: Sequence[Summary], stats: RunStats) -> Iterator[SymState]:
    """The levels of a round, each the concatenation of the parts' in order, each followed by
    what stepping it counted."""
    for j in range(max(len(s.levels) for s in summaries)):
        mine = [s.levels[j] for s in summaries if j < len(s.levels)]
        total = sum(len(m.codes) for m in mine)
        for m in mine:
            for code in m.codes:
                stats.yielded += 1
                total -= 1
                stats.frontier = total
                yield m.like[code]
        for s in summaries:
            if j < len(s.counts):
                _add(stats, s.counts[j])


def _add(stats: RunStats, counts: tuple[int, int, int]) -> None:
    stats.pruned += counts[0]
    stats.unknown += counts[1]
    stats.too_deep += counts[2]


def _next_levels(summaries: Sequence[Summary], round_states: int) -> int:
    """The levels the next round steps: as many as keep the widest part near `round_states`
    states if the levels keep growing as they grew in the last round (twice a level after a
    round of one level), and at most twice the last round's levels plus one: a tree that
    takes off later than it grew so far is never planned as one round."""
    done = max(len(s.levels) for s in summaries)
    sizes = [sum(len(s.levels[j].codes) for s in summaries if j < len(s.levels))
             for j in range(done)]
    growth = (2.0 if done < 2 or not sizes[0]
              else max(1.0, (sizes[-1] / sizes[0]) ** (1 / (done - 1))))
    levels, width, planned = 0, float(max(s.remaining for s in summaries)), 0.0
    while (planned + width <= round_states or levels == 0) and levels <= 2 * done:
        planned += width
        width *= growth
        levels += 1
    return levels
