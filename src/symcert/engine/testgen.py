"""Test generation from the leaves of symbolic execution (seed 000, Fig. 6, as KLEE uses it).

Every leaf of the explored tree, a finished state (program `skip`) or a stuck one (next
statement `fail`, Fig. 9), whose path condition has a model gives one concrete input. Its
concrete run (Fig. 2) must end the same way after as many steps as the leaf is deep (W-T2.2
for a finished leaf, W-T3.5 for a stuck one); otherwise the engine is wrong and
`ReplayMismatch` is raised. Coverage is measured on those concrete runs, not read off the tree:
the statements executed, and for each `if` and `while` which of its two branches ran.

With threads (seed 003 §5) a leaf is a configuration where every thread has ended, or one
stuck at a failure or a deadlock (B-X4), explored with the partial-order reduction unless
`--por off` (B-X5: one leaf per trace of independent steps). A test is an input and the leaf's
schedule (the thread of each step): its concrete run on the configurations (`core.threads`)
must take exactly that schedule and end as the leaf does (every thread ended, or the same
failing statement, or a deadlock), else `ReplayMismatch`. Its coverage is that run's: each
step's statement, an `await`'s body included. No branch is claimed unreachable: the reduction
keeps every ending, not every interleaving's prefix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, get_args

from symcert.core.concrete import (Ending, Env, Final, State, beval, final_of, head, is_stuck,
                                   step, trace)
from symcert.core.frames import Frame, scope
from symcert.core.state import SymState, initial, witness_input
from symcert.engine.invariants import unrolled
from symcert.engine.bugfinder import ReplayMismatch
from symcert.engine.explore import RunStats, run
from symcert.core.threads import (Config, ScheduleError, deadlocked, initial_config, is_threaded,
                                  run_schedule, stuck_at)
from symcert.engine.threads import same_failure
from symcert.lang.procedures import references, table_of
from symcert.lang.structure import children, inputs
from symcert.lang.syntax import Await, BExpr, Fail, If, Pos, Seq, Skip, Stmt, While
from symcert.engine.shrink import renumbered
from symcert.engine.trace import taken
from symcert.solver.answers import Sat
from symcert.solver.z3backend import Solver, solver_for

Decision = tuple[Pos, bool]
"""One branch taken: the position of an `if` or `while` and the value of its condition."""


@dataclass(frozen=True)
class Test:
    """One generated test: an input, the path its concrete run takes and how that run ends.

    :param input: the value of each input of the program (every other variable starts at 0).
    :param final: the concrete final state (finished, or stuck at a `fail`).
    :param steps: the length of the concrete run, which is the depth of its leaf.
    :param path: the branches the run took, in order.
    :param failure: for a run stuck at `fail`, what went wrong (`Fail.what`): a bug.
    :param schedule: with threads, the thread of each step (`exec --schedule` runs it again).
    """

    input: Env
    final: Final
    steps: int
    path: tuple[Decision, ...]
    failure: str | None = None
    schedule: tuple[int, ...] = ()


@dataclass(frozen=True)
class Coverage:
    """What the concrete runs of a test suite reached, against what the program has."""

    statements: frozenset[Pos]
    all_statements: frozenset[Pos]
    branches: frozenset[Decision]
    all_branches: frozenset[Decision]

    @staticmethod
    def percent(part: frozenset[object], whole: frozenset[object]) -> float:
        """`part` as a percentage of `whole` (100 for an empty whole)."""
        return 100.0 * len(part) / len(whole) if whole else 100.0


@dataclass(frozen=True)
class Suite:
    """The tests of a program, their coverage and how far exploration went.

    :param exhaustive: every path was explored (no budget cut it).
    :param states: symbolic states explored.
    :param unknown_leaves: leaves whose path condition the solver could not decide (no input).
    :param unreachable: the branches no feasible path takes, proved so by an exhaustive
        exploration whose every pruning was UNSAT (empty unless `exhaustive`).
    """

    tests: tuple[Test, ...]
    coverage: Coverage
    exhaustive: bool
    states: int
    unknown_leaves: int = field(default=0)
    unreachable: frozenset[Decision] = field(default=frozenset())


def statements(p: Stmt) -> Iterator[Stmt]:
    """Every statement of `p` and of its procedures' bodies that has a source position
    (sequences are not statements)."""
    todo = [p, *(q.body for q in table_of(p).values())]
    while todo:
        s = todo.pop()
        if not isinstance(s, Seq) and s.pos is not None:
            yield s
        todo.extend(c for c in children(s) if isinstance(c, get_args(Stmt)))


def branch_points(p: Stmt) -> frozenset[Decision]:
    """Both branches of every `if` and `while` of `p`."""
    return frozenset((s.pos, taken) for s in statements(p) if isinstance(s, (If, While))
                     for taken in (True, False) if s.pos is not None)


def replay_test(p: Stmt, input_env: Env, max_steps: int) -> tuple[State, tuple[Decision, ...],
                                                                  frozenset[Pos]]:
    """The concrete run of `p` from `input_env`, at most `max_steps` steps: its last state, the
    branches it took and the statements it executed (a `fail` it stops at included)."""
    path: list[Decision] = []
    executed: set[Pos] = set()
    last = State(input_env, p)
    for last in trace(State(input_env, p), max_steps):
        _visit(last, path, executed)
    return last, tuple(path), frozenset(executed)


def _visit(state: State, path: list[Decision], executed: set[Pos]) -> None:
    """Record the statement `state` is about to run (a `fail` only when written, not an
    assertion's) and, at an `if` or `while`, the branch its condition chooses."""
    s = head(state.prog)
    if s.pos is not None and (not isinstance(s, Fail) or s.origin is None):
        executed.add(s.pos)
    if isinstance(s, (If, While)) and s.pos is not None:
        try:  # read in the running procedure's scope (seed 003 §3)
            path.append((s.pos, beval(scope(state.frame, state.env), s.cond)))
        except ZeroDivisionError:
            pass  # neither branch: the test steps to `fail` (X-A2)


def _holds(env: Env, frame: Frame[Env] | None, cond: BExpr) -> bool:
    """Whether `cond` holds in the frame's scope (not where it divides by zero)."""
    try:
        return beval(scope(frame, env), cond)
    except ZeroDivisionError:
        return False


def replay_threads(p: Stmt, input_env: Env, schedule: tuple[int, ...]
                   ) -> tuple[Config | None, tuple[Decision, ...], frozenset[Pos]]:
    """The concrete run of the threads of `p` from `input_env` under `schedule`, exactly its
    steps: the last configuration (None where the schedule names a thread that cannot step),
    the branches its threads took and the statements they executed, an `await`'s body
    included (seed 003 §5)."""
    path: list[Decision] = []
    executed: set[Pos] = set()
    last = initial_config(input_env, p)
    try:
        for i, c in run_schedule(last, schedule, len(schedule)):
            if i is not None:
                t = last.threads[i]
                _visit(State(last.env, t.prog, frame=t.frame), path, executed)
                first = head(t.prog)
                if isinstance(first, Await) and _holds(last.env, t.frame, first.cond):
                    for inner in trace(State(last.env, first.body, frame=t.frame), 10_000):
                        _visit(inner, path, executed)  # in the await's step (no loop)
            last = c
    except ScheduleError:
        return None, tuple(path), frozenset(executed)
    failing = stuck_at(last.threads)
    if failing is not None and failing.pos is not None and failing.origin is None:
        executed.add(failing.pos)
    return last, tuple(path), frozenset(executed)


def _is_leaf(s: SymState) -> bool:
    if s.config is not None:  # threads: every one ended, or a failure or deadlock
        return is_stuck(s.prog) or all(t.finished for t in s.config.threads)
    return isinstance(s.prog, Skip) and s.frame is None or is_stuck(s.prog)


def _leaves(p: Stmt, solver: Solver, stats: RunStats, max_states: int,
            reached: set[Decision]) -> Iterator[SymState | None]:
    """The leaves of the exploration of `p` within `max_states` states, then None if it
    ended; `reached` gets the branches of the successors kept (SAT or UNKNOWN), ambiguous
    ones both ways."""

    def watch(parent: SymState, child: SymState, answer: Sat) -> None:
        if parent.config is not None:
            return  # threads: no branch is claimed unreachable
        test = head(parent.prog)
        if answer is not Sat.UNSAT and isinstance(test, (If, While)) and test.pos is not None:
            way = taken(parent.prog, child.prog)
            if way is not None:
                reached.add((test.pos, way))
            elif isinstance(test, If) and test.then_ is test.else_:
                reached.update({(test.pos, True), (test.pos, False)})

    for s in run([initial(p)], solver=solver, stats=stats, watch=watch):
        if s is None:
            yield s
        if s is None or stats.yielded > max_states:
            return
        if _is_leaf(s):
            yield s


def _replayed(p: Stmt, s: SymState, chosen: Env) -> tuple[Test, frozenset[Pos]] | str:
    """The test of leaf `s` from the input `chosen` and the statements its run executed, or
    how its concrete run disagrees with the leaf."""
    if s.config is not None:  # threads: the leaf's schedule, exactly
        schedule = s.config.schedule
        last, path, executed = replay_threads(p, chosen, schedule)
        ends = last is not None and (same_failure(last, s) if is_stuck(s.prog)
                                     else all(t.finished for t in last.threads))
        if last is None or not ends:
            return (f"input {chosen} under the schedule {','.join(map(str, schedule))} does "
                    f"not end as its leaf does (`{head(s.prog)}`)")
        failing = stuck_at(last.threads) or deadlocked(last)
        final = (Final(last.env, Ending.NORMAL) if failing is None
                 else Final(last.env, Ending.FAIL, failing.pos))
        return Test(chosen, final, last.steps, path,
                    None if failing is None else failing.what(), schedule), executed
    final_state, path, executed = replay_test(p, chosen, s.depth)
    going_on = "" if step(final_state) is None else ", which is no end of its run"
    if final_state.steps != s.depth or final_state.prog != s.prog or going_on:
        return (f"input {chosen} is at `{head(final_state.prog)}` after {final_state.steps} "
                f"steps{going_on}, but its leaf is `{head(s.prog)}` at depth {s.depth}")
    failing = head(final_state.prog)
    return Test(chosen, final_of(final_state), final_state.steps, path,
                failing.what() if isinstance(failing, Fail) else None), executed


def generate_tests(p: Stmt, max_states: int, solver: Solver | None = None) -> Suite:
    """One replayed test per leaf of the symbolic execution of `p`, explored breadth-first for
    at most `max_states` states.

    :raises ReplayMismatch: when a concrete run does not end as its leaf does (an engine bug).
    """
    solver = solver if solver is not None else solver_for(p)
    names = inputs(p)
    refs = references(p)
    stats = RunStats()
    tests: list[Test] = []
    reached: set[Pos] = set()
    taken: set[Decision] = set()
    unknown = 0
    feasible: set[Decision] = set()
    with unrolled():  # one test per concrete path: no invariant transition
        leaves = list(_leaves(p, solver, stats, max_states, feasible))
    exhaustive = leaves[-1] is None if leaves else False
    for s in leaves:
        if s is None:
            break
        if s.model is None:
            unknown += 1
            continue
        given = witness_input(s.model, s.pc)
        raw = Env.of({x: given(x) for x in names})
        for chosen in dict.fromkeys((renumbered(raw, refs), raw)):  # objects @1, @2, … first
            found = _replayed(p, s, chosen)
            if not isinstance(found, str):
                break
        else:
            raise ReplayMismatch(found)
        test, executed = found
        tests.append(test)
        reached |= executed
        taken |= set(test.path)
    coverage = Coverage(frozenset(reached), frozenset(st.pos for st in statements(p)
                                                      if st.pos is not None),
                        frozenset(taken), branch_points(p))
    unreachable = (coverage.all_branches - feasible if exhaustive and not is_threaded(p)
                   else frozenset())
    return Suite(tuple(tests), coverage, exhaustive, min(stats.yielded, max_states), unknown,
                 frozenset(unreachable))
