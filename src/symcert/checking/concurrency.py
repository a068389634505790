"""The campaign's checks of threads (seed 003 §5), on the programs of `generate_threads`.

- `por` (B-X5): the reduced exploration against the full interleaving (`--por off`): the same
  verdict and the same set of failing statements and deadlocks, every bug replayed on the
  concrete configurations under its schedule (`bugfinder.witness`, which fails on a replay that
  does not reach the bug), and at each sampled input the same endings (`symbolic_ending` of the
  leaves the input satisfies: globals at the end, the failing statement, the deadlock). Where
  only one exploration ended, the failing statements the other found (each replayed, so real)
  are among those of the one that ended.
- `threads` (seed 001's T-D2 and T-D3 for the global transition, B-X1 to B-X4): every ending of
  every concrete schedule from each sampled input (`endings`: the configurations where no thread
  can step, every interleaving enumerated) is the ending of a symbolic leaf whose path condition
  the input satisfies (exhaustiveness), and every symbolic leaf's model, run concretely under
  the leaf's schedule, ends as the leaf says (precision); with and without the reduction. With
  it, a failure is matched by its statement only: a persistent singleton may run before
  another thread's failure that it does not affect (engine/por.py), so the reduced run fails at
  the same statement with that singleton's writes done. First, ghosts (seed 004's M-P3 and
  M-P4, engine/ghost_threads.py, no solver): from the first sampled input, every schedule of the
  full global step is followed step by step beside the concrete configurations it reaches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from itertools import islice
from typing import Callable, Hashable

from symcert.checking import independence
from symcert.checking.disagreement import Disagreement
from symcert.core.concrete import Env, head, is_stuck
from symcert.core.state import SymState, concretize, initial, satisfies, witness_input
from symcert.core.threads import (
    Config, deadlocked, enabled, initial_config, is_threaded, step_thread, stuck_at,
)
from symcert.engine import por
from symcert.engine.bugfinder import witness
from symcert.engine.explore import run
from symcert.engine.ghost_threads import check_ghost_schedules
from symcert.engine.status import BugFound
from symcert.engine.threads import replay_schedule
from symcert.lang.parser import parse
from symcert.lang.procedures import show_program
from symcert.lang.syntax import Fail, Stmt
from symcert.solver.z3backend import Sat, Solver

MAX_STATES = 1000
"""The symbolic states an exploration may take; one that does not end within is compared only
where the comparison is sound for a cut run."""
MAX_CONFIGS = 20000
"""The concrete configurations an enumeration of every schedule may visit."""
GHOST_PAIRS = 1000
"""The pairs of a concrete configuration and its ghost state a ghost check may step."""

Failure = tuple[int, int, bool]
"""A failing statement: its line and column, and whether it is a deadlock."""
Ending = tuple[Hashable, ...]
"""How a run ends: `("end", globals)`, `("fail", line, column, by zero?, globals or None)`,
`("deadlock", line, column, globals)`."""


@dataclass(frozen=True)
class Exploration:
    """An exploration of a program with threads: its leaves (ended, stuck or deadlocked
    configurations), its failing statements (the first state of each confirmed by its witness),
    whether it ended within `MAX_STATES`, and whether every failure was decided (the solver
    may answer UNKNOWN on a witness's path condition)."""

    leaves: tuple[SymState, ...]
    failures: frozenset[Failure]
    ended: bool
    decided: bool


_memo: dict[tuple[Stmt, bool, int, int], tuple[Solver, Exploration]] = {}
"""Explorations by program, reduction and solver (kept alive here, so its id is not reused)."""


def explore(p: Stmt, solver: Solver, reduce: bool, max_states: int | None = None) -> Exploration:
    """The exploration of `p` with the reduction or without (`--por off`), at most `max_states`
    states (default `MAX_STATES`), remembered for the current program (the checks share it).

    :raises ReplayMismatch: where a witness's replay does not reach its bug.
    """
    limit = MAX_STATES if max_states is None else max_states
    key = (p, reduce, id(solver), limit)
    if key not in _memo:
        if len(_memo) >= 4:
            _memo.clear()
        _memo[key] = (solver, _explore(p, solver, reduce, limit))
    return _memo[key][1]


def _explore(p: Stmt, solver: Solver, reduce: bool, limit: int) -> Exploration:
    found: set[Failure] = set()
    leaves: list[SymState] = []
    decided = ended = True
    with por.reducing(reduce):
        for s in islice(run([initial(p)], solver=solver), limit + 1):
            if s is None:
                break
            assert s.config is not None
            if all(t.finished for t in s.config.threads):
                leaves.append(s)
            if not is_stuck(s.prog):
                continue
            leaves.append(s)
            fail = head(s.prog)
            assert isinstance(fail, Fail)
            key = (*_at(fail), fail.deadlock)
            if key not in found:
                if witness(p, BugFound(s), solver) is None:
                    decided = False
                else:
                    found.add(key)
        else:
            ended = False
    return Exploration(tuple(leaves), frozenset(found), ended, decided)


def check_por(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The reduced exploration against the full one (module docstring), on the program printed
    and parsed back (whose statements have the positions failures are told apart by)."""
    if not is_threaded(p):
        return None
    source = parse(show_program(p))
    reduced, full = explore(source, solver, True), explore(source, solver, False)
    if not (reduced.decided and full.decided):
        return None
    ours, theirs = reduced.failures, full.failures
    wrong = (ours != theirs if reduced.ended and full.ended
             else not theirs <= ours if reduced.ended
             else not ours <= theirs if full.ended else False)
    if wrong:
        return Disagreement("reduced and full interleavings disagree (B-X5)", p, sigmas[0],
                            f"--por off fails at {_shown(theirs)}"
                            f"{'' if full.ended else ' (cut)'}, --por on at {_shown(ours)}"
                            f"{'' if reduced.ended else ' (cut)'}")
    if not (reduced.ended and full.ended):
        return None
    for sigma in sigmas:
        mine, all_ = _endings_at(reduced, sigma), _endings_at(full, sigma)
        if mine != all_:
            return Disagreement("reduced and full interleavings end differently (B-X5)", p,
                                sigma, f"only --por off: {sorted(map(str, all_ - mine))[:1]}, "
                                f"only --por on: {sorted(map(str, mine - all_))[:1]}")
    return None


def _endings_at(e: Exploration, sigma: Env) -> frozenset[Ending]:
    """How the leaves whose path conditions `sigma` satisfies end at `sigma` (a failure by its
    statement only)."""
    return frozenset(_loose(symbolic_ending(s, sigma)) for s in e.leaves  # type: ignore[arg-type]
                     if satisfies(sigma, s.pc))


def _shown(found: frozenset[Failure]) -> str:
    return ", ".join(f"{line}:{col}{' (deadlock)' if dead else ''}"
                     for line, col, dead in sorted(found)) or "nothing"


def endings(p: Stmt, sigma: Env) -> frozenset[Ending] | None:
    """The endings of every schedule of `p` from `sigma`: each configuration reachable where no
    thread can step, but those blocked at an `assume` (X-U1: no ending); None when more than
    `MAX_CONFIGS` configurations are reachable."""
    start = initial_config(sigma, p)
    seen = {start}
    todo = [start]
    out: set[Ending] = set()
    while todo:
        c = todo.pop()
        ready = enabled(c)
        if not ready:
            ending = concrete_ending(c)
            if ending is not None:
                out.add(ending)
        for i in ready:
            nxt = step_thread(c, i)
            assert nxt is not None
            if nxt not in seen:
                if len(seen) >= MAX_CONFIGS:
                    return None
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(out)


def _globals(env: Env) -> tuple[tuple[str, Hashable], ...]:
    return env.bindings


def concrete_ending(c: Config) -> Ending | None:
    """How the configuration `c`, where no thread can step, ends (None: blocked at an
    `assume`, or not ended)."""
    failing = stuck_at(c.threads)
    if failing is not None:
        return ("fail", *_at(failing), failing.by_zero, _globals(c.env))
    dead = deadlocked(c)
    if dead is not None:
        return ("deadlock", *_at(dead), _globals(c.env))
    if all(t.finished for t in c.threads):
        return ("end", _globals(c.env))
    return None


def symbolic_ending(s: SymState, sigma: Env) -> Ending | None:
    """How the leaf `s` ends at `sigma` (`V∘S` on the names `sigma` or the store binds), None
    for a state that is no leaf."""
    assert s.config is not None
    names = frozenset(x for x, _ in sigma.bindings) | frozenset(x for x, _ in s.store.bindings)
    store = _globals(concretize(sigma, s.store, names))
    if is_stuck(s.prog):
        fail = head(s.prog)
        assert isinstance(fail, Fail)
        if fail.deadlock:
            return ("deadlock", *_at(fail), store)
        return ("fail", *_at(fail), fail.by_zero, store)
    if all(t.finished for t in s.config.threads):
        return ("end", store)
    return None


def _at(fail: Fail) -> tuple[int, int]:
    """Where a `fail` is (0:0 in a program built in code, whose statements have no position)."""
    return (fail.pos.line, fail.pos.column) if fail.pos is not None else (0, 0)


def _loose(e: Ending) -> Ending:
    """A failure's ending without its globals (matched by statement under the reduction)."""
    return e[:-1] + (None,) if e[0] == "fail" else e


def check_threads(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
    """The symbolic global transition against the concrete configurations (module docstring):
    ghosts over every schedule from the first input of `sigmas`, exhaustiveness at each input,
    precision at each leaf's model."""
    if not is_threaded(p):
        return None
    source = parse(show_program(p))
    for sigma in sigmas[:1]:
        miss = check_ghost_schedules(source, sigma, max_pairs=GHOST_PAIRS).miss
        if miss is not None:
            return Disagreement("a ghost configuration is not the concrete one (M-P3/M-P4)", p,
                                sigma, miss)
    for reduce in (False, True):
        flag = "--por on" if reduce else "--por off"
        explored = explore(source, solver, reduce)
        if not explored.ended:
            continue
        for sigma in sigmas:
            missed = missed_at(source, explored, sigma, reduce)
            if missed:
                return Disagreement(f"{flag}: a schedule's ending is no leaf's (T-D2)", p, sigma,
                                    f"missed {missed}")
        for s in explored.leaves:
            wrong = imprecise(source, s, solver)
            if wrong is not None:
                return Disagreement(f"{flag}: a leaf's model does not end there (T-D3)", p,
                                    wrong[0], wrong[1])
    return None


def missed_at(p: Stmt, explored: Exploration, sigma: Env, reduce: bool) -> str | None:
    """An ending of a concrete schedule of `p` from `sigma` that no leaf of the ended
    exploration has at `sigma` (T-D2; a failure by its statement under the reduction), ""
    when there are too many configurations to enumerate, None when every ending is a leaf's."""
    concrete = endings(p, sigma)
    if concrete is None:
        return ""
    covered = {symbolic_ending(s, sigma) for s in explored.leaves if satisfies(sigma, s.pc)}
    if reduce:
        concrete = frozenset(map(_loose, concrete))
        covered = {_loose(e) for e in covered if e is not None}
    missed = concrete - covered
    return sorted(map(str, missed))[0] if missed else None


def imprecise(p: Stmt, s: SymState, solver: Solver) -> tuple[Env, str] | None:
    """A model of leaf `s`'s path condition whose concrete run under `s`'s schedule does not end
    as `s` says (the input and what happened), or None."""
    answer, model = solver.check(s.pc)
    if answer is not Sat.SAT or model is None:
        return None
    sigma = witness_input(model, s.pc)
    final, _ = replay_schedule(p, s, sigma)
    assert s.config is not None
    schedule = s.config.schedule
    if final is None:
        return sigma, f"the schedule {schedule} cannot run"
    if enabled(final):
        return sigma, f"after the schedule {schedule} a thread can still step"
    concrete = concrete_ending(final)
    if concrete is None or concrete != symbolic_ending(s, sigma):
        return sigma, f"the schedule {schedule} ends {concrete}"
    return None


Check = Callable[[Stmt, list[Env], Solver], Disagreement | None]


def one_thread(check: Check) -> Check:
    """`check`, which reads the seed-004 interpreter (the campaign's `interp` and `verdicts`),
    on programs without threads; a program with threads is skipped (None): seed 004's natural
    semantics relates a statement to its final results and has no judgement for interleavings
    of several threads' atomic steps (docs/threads.md, "Not done yet")."""
    @wraps(check)
    def skipping(p: Stmt, sigmas: list[Env], solver: Solver) -> Disagreement | None:
        return None if is_threaded(p) else check(p, sigmas, solver)

    return skipping


THREAD_CHECKS = {"por": check_por, "threads": check_threads, "independence": independence.check}
"""The campaign's checks of threads by name (`symcert campaign --checks por,threads`; and
`independence`, checking/independence.py's oracle of B-X5's premise): they run
on the concurrent programs of `generate_threads`, not beside the other checks."""
