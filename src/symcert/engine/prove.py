"""Proving from the leaves of an exhaustive symbolic execution (seed 001, T-L2).

Exhaustive exploration by the stream `run` (Fig. 6; it prunes only UNSAT-backed branches, M-S1)
reaches every `assert b` of the program under each path `⟨φ, S⟩` leading to it. The proof
obligation there is the validity of `φ → {S}b`, asked as the unsatisfiability of `φ ∧ ¬{S}b`; an
explicit `fail` gives the obligation `¬φ`, a statement that may divide by zero `¬(φ ∧ ¬ok)` for
the guard `ok` of its expression (X-A2). The verdict is the library's (`verdict.decide`):

- SAFE (proved) only when the exploration ended (the stream reported `None`) and every
  obligation is UNSAT-backed: by T-L2 the assertions then hold for every input;
- BUG (a counterexample) when an obligation is SAT: its model is replayed concretely to the
  failing statement (`witness`, which raises `ReplayMismatch` should the engine be wrong);
- UNDECIDED otherwise: a budget ran out, or the solver answered UNKNOWN.

With threads (seed 003 §5) the states are configurations, explored with the partial-order
reduction unless `--por off` (B-X5). At every explored configuration that is not stuck, each
successor where an unfinished thread fails (an `assert`, a `fail`, a division that may be by
zero, a `get` of a non-future; any thread, not only those the reduction steps there) and the
deadlock successor `φ ∧ ⋀ blocked_i` (B-X4) is an obligation, asked UNSAT. A SAT one is a bug
only once its model's input *and* its schedule replay on the concrete configurations
(`core.threads`) to the same failing statement, or to a deadlock.

Why the reduced exploration suffices (B-X5, engine/por.py). A run that fails or deadlocks ends
in a terminal configuration: no thread can step (a failure stops every thread). For every
valuation, the reduction explores a run of the same Mazurkiewicz trace, so ending in the same
configuration (Godefroid 1996, Thm. 4.3 with persistent sets, 6.12 with sleep sets), by
induction on the run's length: at an explored configuration either the run takes a step of the
persistent set explored there, and its first such step commutes to the front, or it takes none,
and then that step, independent of all of the run's and never disabled by them, is still
enabled at the end, which is then not terminal. The choices read only the program text, the
futures' literals and what the path condition entails, so the argument holds for every input
at once. The failing or deadlock step that ends the reduced run leaves an explored
configuration: it is one of that configuration's obligations. All of them UNSAT after an ended
exploration (every pruning UNSAT-backed, M-S1) therefore means that no schedule from any input
fails or deadlocks. Asking every thread's failure, not only the stepped threads', adds
obligations and removes none.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import icontract

from symcert.core.concrete import Ending, run_to_end
from symcert.core.concrete import head, is_stuck
from symcert.core.threads import initial_config, is_threaded, run_schedule, stuck_at, deadlocked
from symcert.core.guards import may_fail_at
from symcert.core.state import SymState
from symcert.engine.bugfinder import Witness, witness
from symcert.engine.contracts import roots
from symcert.engine.invariants import Unproved, abstract, confirm
from symcert.engine.explore import RunStats, run, successors
from symcert.engine.shrink import shrink
from symcert.engine.status import BugFound
from symcert.engine import por
from symcert.engine.verdict import (
    Budget,
    Cause,
    Kind,
    Reason,
    Verdict,
    blamed,
    decide,
    weightier,
    measure,
    state_budget_ran_out,
)
from symcert.lang.structure import inputs
from symcert.lang.syntax import Assert, Call, Fail, Pos, Stmt, While
from symcert.solver.z3backend import Sat, Solver, solver_for
from symcert.spec.concretization import sample_valuations
from symcert.spec.switch import CONTRACTS, lemma


@dataclass(frozen=True, slots=True)
class Obligation:
    """One query `φ → {S}b` (or `¬φ` for `fail`, or for a deadlock) and the solver's answer for
    its negation."""

    where: Pos | None
    statement: Stmt
    state: SymState
    answer: Sat

    def __str__(self) -> str:
        at = f"{self.where.line}:{self.where.column}: " if self.where else ""
        what = f"`{self.statement}`"
        if isinstance(self.state.prog, Fail) and self.state.prog.deadlock:  # B-X4
            what = f"a deadlock (a thread waits at {what})"
        return f"{at}{what} under path condition {self.state.pc}"


@dataclass(frozen=True)
class Proof:
    """What `prove` found.

    :param verdict: SAFE (proved), BUG (with the replayed counterexample) or UNDECIDED.
    :param obligations: how many obligations were asked.
    :param undecided: the obligations the solver could not decide.
    :param proved: the obligations the solver answered UNSAT (a certificate records them).
    """

    verdict: Verdict
    obligations: int
    undecided: tuple[Obligation, ...]
    proved: tuple[Obligation, ...] = ()


@lemma("T-L2")
def proof_sound(p: Stmt, result: Proof) -> bool:
    """A proved program fails on no sampled input: `PROVED ⇒ ∀σ. run(σ, p) does not reach fail`
    (checked on the fixed sample valuations, within a step budget; with threads, neither a
    failure nor a deadlock under the default schedule)."""
    if result.verdict.kind is not Kind.SAFE:
        return True
    for sigma in sample_valuations(inputs(p)):
        if is_threaded(p):
            *_, (_, last) = run_schedule(initial_config(sigma, p), (), 10_000)
            if stuck_at(last.threads) is not None or deadlocked(last) is not None:
                return False
            continue
        final = run_to_end(sigma, p, 10_000)
        if final is not None and final.ending is Ending.FAIL:
            return False
    return True


def _obligations(state: SymState, solver: Solver) -> list[tuple[Obligation, SymState]]:
    """The obligations of a state, each with the stuck state it is about: about to run an
    explicit `fail`, `¬φ`; about to run `assert b` or a statement that may divide by zero, one
    per failing successor `φ'` (`φ ∧ ¬{S}b`, `φ ∧ ¬ok`, X-A2), asked as `φ'` unsatisfiable; at a
    configuration of threads, `_thread_obligations`."""
    if state.config is not None:
        return _thread_obligations(state, solver)
    stmt = head(state.prog)
    if isinstance(stmt, Fail):
        failing = [state] if stmt.origin is None else []  # else asked at its parent
    elif isinstance(stmt, Assert) or may_fail_at(stmt) or (isinstance(stmt, While)
                                                            and bool(stmt.invariants)) or (
            isinstance(stmt, Call) and stmt.procs[stmt.name].requires is not None):
        failing = [t for t in successors()(state) if is_stuck(t.prog)]
    else:
        failing = []
    return [(Obligation(stmt.pos, stmt, t, solver.check(t.pc)[0]), t) for t in failing]


def _thread_obligations(state: SymState, solver: Solver) -> list[tuple[Obligation, SymState]]:
    """The obligations of a configuration: each successor where some unfinished thread fails,
    whichever threads the reduction steps here, and the deadlock (B-X4); a configuration that
    starts stuck is its own (its failing thread's first statement is `fail`)."""
    if is_stuck(state.prog):
        failing = [state] if state.depth == 0 else []  # else asked at its parent
    else:
        with por.reducing(False):  # every unfinished thread steps
            failing = [t for t in successors()(state) if is_stuck(t.prog)]
    out = []
    for t in failing:
        fail = t.prog
        assert isinstance(fail, Fail)
        out.append((Obligation(fail.pos, fail.origin or fail, t, solver.check(t.pc)[0]), t))
    return out


def _confirm(p: Stmt, stuck: SymState, solver: Solver) -> Witness | Reason | None:
    """The replayed bug at a satisfiable obligation, or, on a path through the invariant
    transition that no run replays, why the invariant does not prove it (T-I1)."""
    if not abstract(stuck):
        found = witness(p, BugFound(stuck), solver)
        # the smallest input that replays (with threads, under the same schedule)
        return None if found is None else shrink(found, solver, program=p)
    found = confirm(p, stuck, solver)
    if isinstance(found, Unproved):
        return blamed(stuck, found, solver)
    return None if found is None else Witness(replace(stuck, prog=found[1].prog), *found, p)


@icontract.ensure(proof_sound, "T-L2 proofs need exhaustiveness", enabled=CONTRACTS)
def prove(p: Stmt, max_states: int, timeout: float | None = None,
          solver: Solver | None = None) -> Proof:
    """Prove every assertion of `p` from the leaves of its exhaustive symbolic execution (T-L2);
    with threads, every thread's, and that no schedule deadlocks (B-X4, B-X5).

    :param p: the program.
    :param max_states: the exploration budget.
    :param timeout: a wall-clock budget in seconds, or None.
    :param solver: the solver (a fresh default one if None).
    """
    # Not for CrossHair: the wall-clock budget makes two runs on the same arguments take
    # different paths (CrossHair stops with NotDeterministic), and a default Solver is z3.
    # crosshair: off
    solver = solver if solver is not None else solver_for(p)
    budget = Budget(max_states)
    progress = RunStats()
    start = time.perf_counter()
    states = asked = 0
    undecided: list[Obligation] = []
    proved: list[Obligation] = []
    stopped: Reason | None = None
    for state in run(roots(p), solver=solver, stats=progress):
        if state is None:
            break
        if states >= max_states:
            stopped = state_budget_ran_out(budget)
            break
        if timeout is not None and time.perf_counter() - start > timeout:
            stopped = Reason(Cause.TIME, f"the time budget ({timeout:g} s) ran out")
            break
        states += 1
        for ob, stuck in _obligations(state, solver):
            asked += 1
            if ob.answer is Sat.UNSAT:
                proved.append(ob)
            elif ob.answer is Sat.UNKNOWN:
                undecided.append(ob)
            elif ob.answer is Sat.SAT:
                found = _confirm(p, stuck, solver)
                if isinstance(found, Reason):
                    stopped = weightier(stopped, found) if stopped is None or stopped.cause in (
                        Cause.INVARIANT, Cause.CONTRACT) else stopped
                elif found is None:
                    undecided.append(ob)
                else:
                    verdict = decide(budget, measure(states, progress, solver, start), (found,),
                                     False, None, len(undecided))
                    return Proof(verdict, asked, tuple(undecided), tuple(proved))
    verdict = decide(budget, measure(states, progress, solver, start), (),
                     stopped is None or stopped.cause in (Cause.INVARIANT, Cause.CONTRACT), stopped,
                     len(undecided),
                     solver)
    return Proof(verdict, asked, tuple(undecided), tuple(proved))
