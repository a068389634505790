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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import icontract

from symcert.core.concrete import Ending, run_to_end
from symcert.core.concrete import head, is_stuck
from symcert.core.guards import may_fail_at
from symcert.core.state import SymState
from symcert.engine.bugfinder import Witness, witness
from symcert.engine.contracts import roots
from symcert.engine.invariants import Unproved, abstract, confirm
from symcert.engine.explore import RunStats, run, successors
from symcert.engine.shrink import shrink
from symcert.engine.status import BugFound
from symcert.engine.threads import refuse_threads
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
    """One query `φ → {S}b` (or `¬φ` for `fail`) and the solver's answer for its negation."""

    where: Pos | None
    statement: Stmt
    state: SymState
    answer: Sat

    def __str__(self) -> str:
        at = f"{self.where.line}:{self.where.column}: " if self.where else ""
        return f"{at}`{self.statement}` under path condition {self.state.pc}"


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
    (checked on the fixed sample valuations, within a step budget)."""
    if result.verdict.kind is not Kind.SAFE:
        return True
    for sigma in sample_valuations(inputs(p)):
        final = run_to_end(sigma, p, 10_000)
        if final is not None and final.ending is Ending.FAIL:
            return False
    return True


def _obligations(state: SymState, solver: Solver) -> list[tuple[Obligation, SymState]]:
    """The obligations of a state, each with the stuck state it is about: about to run an
    explicit `fail`, `¬φ`; about to run `assert b` or a statement that may divide by zero, one
    per failing successor `φ'` (`φ ∧ ¬{S}b`, `φ ∧ ¬ok`, X-A2), asked as `φ'` unsatisfiable."""
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


def _confirm(p: Stmt, stuck: SymState, solver: Solver) -> Witness | Reason | None:
    """The replayed bug at a satisfiable obligation, or, on a path through the invariant
    transition that no run replays, why the invariant does not prove it (T-I1)."""
    if not abstract(stuck):
        found = witness(p, BugFound(stuck), solver)
        return None if found is None else shrink(found, solver)  # the smallest that replays
    found = confirm(p, stuck, solver)
    if isinstance(found, Unproved):
        return blamed(stuck, found, solver)
    return None if found is None else Witness(replace(stuck, prog=found[1].prog), *found, p)


@icontract.ensure(proof_sound, "T-L2 proofs need exhaustiveness", enabled=CONTRACTS)
def prove(p: Stmt, max_states: int, timeout: float | None = None,
          solver: Solver | None = None) -> Proof:
    """Prove every assertion of `p` from the leaves of its exhaustive symbolic execution (T-L2).

    :param p: the program.
    :param max_states: the exploration budget.
    :param timeout: a wall-clock budget in seconds, or None.
    :param solver: the solver (a fresh default one if None).
    """
    # Not for CrossHair: the wall-clock budget makes two runs on the same arguments take
    # different paths (CrossHair stops with NotDeterministic), and a default Solver is z3.
    # crosshair: off
    refuse_threads(p, "prove")
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
