"""The bug finder: `display`, `find_bugs` (seed 000, Figs. 8–9) and witnesses.

`find_bugs(p)` maps `display` over `run([⟨true, id, p⟩])`: `BugFound` for a stuck state (its next
statement is `fail`, Fig. 9), `Pending` for any other state, `Finished` forever once the stream
is exhausted (W-T3.7). A BugFound is only a *candidate* until `witness` turns its model into a
concrete input and `replay` runs the concrete interpreter from that input to the same stuck
state; a disagreement there is an engine bug (W-T3.5 at run time) and raises `ReplayMismatch`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Iterator

from symcert.core.concrete import Env, State, head, is_stuck
from symcert.core.replays import REPLAY_VALUES, run_steps
from symcert.core.frames import scope
from symcert.core.refutation import refutation
from symcert.core.state import SymState, valid_heap, witness_input
from symcert.core.terms import free_vars
from symcert.engine.contracts import roots
from symcert.engine.explore import Explorer, RunStats, Strategy, run
from symcert.engine.invariants import unrolled
from symcert.core.threads import gets_futures
from symcert.engine.threads import replay_schedule, same_failure
from symcert.engine.merge import merged, replay_merged, without_symbols
from symcert.engine.status import BugFound, Finished, Pending, Status
from symcert.lang.procedures import classes_of, references
from symcert.lang.syntax import Assert, Fail, Stmt
from symcert.solver.z3backend import Sat, Solver, solver_for
from symcert.spec.bugs import (
    find_bugs_terminates_soundly,
    find_bugs_valid,
    replay_reaches_bug,
)
from symcert.spec.concretization import stuck_means_fail
from symcert.spec.switch import CONTRACTS, icontract, lemma


class ReplayMismatch(Exception):
    """The concrete interpreter disagrees with a reported bug: the engine is wrong."""


@lemma("W-F9", "W-D2.5/2.6")
def display_flags_stuck(s: SymState | None, result: Status) -> bool:
    """`display` reports BugFound exactly for the stuck states, those whose program is not `skip`
    and to which no concrete rule applies: `display(σ̂) = BugFound ⟺ Stuck(σ̂.p)` (Fig. 9)."""
    return s is None or stuck_means_fail(s.prog, isinstance(result, BugFound))


@icontract.ensure(display_flags_stuck, "W-F9 stuck means fail", enabled=CONTRACTS)
def display(s: SymState | None) -> Status:
    """The status message for one element of the state stream (Fig. 8); a state is stuck when
    its next statement is `fail` (`concrete.is_stuck`, Fig. 9).

    :param s: a state of the stream, or None once the stream is exhausted.
    """
    if s is None:
        return Finished()
    return BugFound(s) if is_stuck(s.prog) else Pending(s)


def find_bugs(
    p: Stmt,
    strategy: Strategy = Strategy.BFS,
    solver: Solver | None = None,
    stats: RunStats | None = None,
    max_call_depth: int | None = None,
    explorer: Explorer = run,
) -> Iterator[Status]:
    """The stream of status messages for program `p` (Fig. 8): infinite, `Finished` at the end.
    With T-S1 on, the worklist also verifies the bodies of the contracted procedures (`roots`).

    :param p: the program.
    :param strategy: the search order of the underlying `run`.
    :param solver: prunes UNSAT states; None explores the unpruned symbolic semantics.
    :param stats: counters updated as the stream advances.
    :param max_call_depth: `run`'s bound on the stack of calls (None: unbounded).
    :param explorer: `run`, or a strategy with its signature (`partition.partitioned`).
    """
    for s in explorer(roots(p), strategy, solver, stats, max_call_depth=max_call_depth):
        yield display(s)


@icontract.require(lambda n: n >= 0, enabled=CONTRACTS)
@icontract.require(lambda p: gets_futures(p), "a `get` reads a future (the parser's rule)",
                   enabled=CONTRACTS)
@icontract.ensure(lambda n, result: len(result) == n, enabled=CONTRACTS)
@icontract.ensure(find_bugs_terminates_soundly, "W-T3.7 sound termination of the bug finder",
                  enabled=CONTRACTS)
@icontract.ensure(find_bugs_valid, "W-T3.5 relatively sound bug discovery", enabled=CONTRACTS)
def find_bugs_n(
    p: Stmt, n: int, strategy: Strategy = Strategy.BFS, solver: Solver | None = None
) -> list[Status]:
    """The first `n` status messages of `find_bugs(p)`, eagerly.

    :param p: the program.
    :param n: how many messages to take.
    """
    with unrolled():  # W-T3.5 and W-T3.7 speak of Fig. 8 over `expand`: no invariant transition
        return list(islice(find_bugs(p, strategy, solver), n))


@dataclass(frozen=True)
class Witness:
    """A confirmed bug: the input that triggers it and the concrete run's final state; with
    `program`, the run can be traced again (`engine.trace.walk`); with threads, the final
    configuration, reached by the schedule of `bug.config` (no `program`: a trace and a shrunk
    input are of one thread's runs)."""

    bug: SymState
    input: Env
    final: State
    program: Stmt | None = None
    interleaving: tuple[tuple[int, Stmt], ...] = ()
    """With threads: each step's thread and the statement it ran (the schedule, shown)."""
    found_by: str | None = None
    """For a bug found by the concrete replay of a candidate input, with no symbolic path (its
    `bug` has the path condition `true`): where the input came from (`engine.candidates`)."""
    jumped: int = 0
    """How many of the replay's steps it took in checked jumps over loop iterations
    (`engine.acceleration`, T-A1): 0 for a replay one step at a time."""

    def refutation(self) -> list[tuple[str, int]]:
        """The values of a failed quantified assertion's bound variables at which it is false
        (X-Q1), found by concrete evaluation at the replay's final state; empty without one."""
        origin = self.failing.origin
        if not isinstance(origin, Assert) or not isinstance(self.final, State):
            return []  # a configuration of threads is not read here
        return refutation(scope(self.final.frame, self.final.env), origin.cond)

    def refuted(self) -> str:
        """`refutation()` as a report shows it (`k = 3`), or ''."""
        return ", ".join(f"{k} = {v}" for k, v in self.refutation())

    def fails_at(self) -> dict[str, list[dict[str, object]]]:
        """`refutation()` as a bug event's field (`fails_at`), or nothing when it is empty."""
        found = self.refutation()
        return {"fails_at": [{"variable": k, "value": v} for k, v in found]} if found else {}

    @property
    def failing(self) -> Fail:
        """The `fail` statement reached (its `origin` is the failed `assert`, if any)."""
        failing = head(self.bug.prog)
        assert isinstance(failing, Fail)
        return failing

    def inputs_shown(self) -> list[str]:
        """The inputs a report shows: those the path condition reads (not the engine's own
        `x#k`), or every input of a replayed candidate."""
        if self.found_by is not None:
            return [x for x, _ in self.input.bindings]
        return sorted(x for x in set().union(*map(free_vars, self.bug.pc.conjuncts()))
                      if "#" not in x)

    def describe(self) -> str:
        """`assertion `c` fails`, `division by zero in `s`` or `fail reached` (`Fail.what`)."""
        return self.failing.what()


@icontract.ensure(replay_reaches_bug, "W-T3.5 relatively sound bug discovery (replay)",
                  enabled=CONTRACTS)
def replay(p: Stmt, bug_state: SymState, input_env: Env) -> State | None:
    """Run `p` concretely from `input_env` for as many steps as the symbolic path to the bug;
    None when its quantifiers need more than `REPLAY_VALUES` values (X-Q1).

    :param p: the program.
    :param bug_state: the stuck symbolic state reported by `find_bugs`.
    :param input_env: the concrete input taken from a model of the bug's path condition.
    """
    # Not for CrossHair: its precondition (bug_state reachable from p) is no cheap predicate.
    # crosshair: off
    return run_steps(State(input_env, p), bug_state.depth, REPLAY_VALUES)


def witness(p: Stmt, bug: BugFound, solver: Solver) -> Witness | None:
    """Confirm a BugFound by a model of its path condition and a concrete replay.

    :return: the witness, or None when the solver cannot decide the path condition (UNKNOWN)
        or the replay's quantifiers need more values than `REPLAY_VALUES`.
    :raises ReplayMismatch: when the replay does not reach the same stuck state: an engine bug.
    """
    model = bug.state.model
    if model is None:
        answer, model = solver.check(bug.state.pc)
        if answer is not Sat.SAT or model is None:
            return None
    model = witness_input(model, bug.state.pc)
    if not valid_heap(model, references(p), classes_of(p)):  # a model reused along the path, not z3's
        answer, model = solver_for(p).check(bug.state.pc)
        if answer is not Sat.SAT or model is None:
            return None
        model = witness_input(model, bug.state.pc)
    if bug.state.config is not None:  # threads: the input and the schedule replayed
        reached, steps = replay_schedule(p, bug.state, model)
        if not same_failure(reached, bug.state):
            raise ReplayMismatch(f"input {model} and schedule {bug.state.config.schedule} do "
                                 f"not reach `{bug.state.prog.what()}`")  # type: ignore[union-attr]
        return Witness(bug.state, model, reached, None, steps)  # type: ignore[arg-type]
    if merged(bug.state):  # T-M1: the run takes one of the merged paths, of its own length
        model = without_symbols(model)
        final = replay_merged(p, bug.state, model)
        if final is None:
            return None
        same = is_stuck(final.prog) and final.prog == bug.state.prog
    else:
        final = replay(p, bug.state, model)
        if final is None:
            return None
        same = (final.steps == bug.state.depth and final.prog == bug.state.prog
                and is_stuck(final.prog))
    if not same:
        raise ReplayMismatch(
            f"input {model} reaches `{head(final.prog)}` after {final.steps} steps, but the "
            f"symbolic state at depth {bug.state.depth} is stuck at `fail`"
        )
    return Witness(bug.state, model, final, p)
