"""Predicates about the bug finder (Figs. 8-10): its stream (W-T3.5-3.7), witness replay, the
agreement of `BadInput` with `BadInput_sym` (W-T2.4-2.6), and `has_bug` (W-T3.8)."""

from __future__ import annotations

from itertools import islice
from typing import Sequence

from symcert.core.concrete import Env, State, head, run_concrete
from symcert.core.state import SymState, concretize, initial, satisfies
from symcert.engine.explore import Strategy, run
from symcert.engine.status import BugFound, Finished
from symcert.lang.structure import variables
from symcert.lang.syntax import Fail, Stmt
from symcert.solver.z3backend import Sat, Solver
from symcert.spec.concretization import sample_valuations
from symcert.spec.switch import lemma


@lemma("W-T3.7")
def find_bugs_terminates_soundly(result: Sequence[object]) -> bool:
    """`find_bugs(p) ⊨ □(Finished → □Finished)`."""
    flags = [isinstance(s, Finished) for s in result]
    return True not in flags or all(flags[flags.index(True):])


@lemma("W-T3.5", "W-D3.2")
def find_bugs_valid(result: Sequence[object]) -> bool:
    """`find_bugs(p) ⊨ □ValidStatus(p)`: a BugFound state is stuck, and its model, if it has
    one, satisfies its path condition (so its concretization is a reachable error state)."""
    for s in result:
        if isinstance(s, BugFound):
            st = s.state
            if not isinstance(head(st.prog), Fail):
                return False
            if st.model is not None and not satisfies(st.model, st.pc):
                return False
    return True


@lemma("W-T3.5", "W-D3.2", "W-L2.4", "W-T2.2", "W-D2.3")
def replay_reaches_bug(bug_state: SymState, input_env: Env, result: State | None) -> bool:
    """The concrete run from the witness input reaches, in as many steps as the symbolic path,
    a stuck state that corresponds to the bug state: `V = V0∘S`, `⟦φ⟧_{V0}`, same program.
    (None, a replay whose quantifiers need more values than it may evaluate, claims nothing.)"""
    if result is None:
        return True
    names = variables(result.prog) | frozenset(k for k, _ in result.env.bindings)
    expected = concretize(input_env, bug_state.store, names)
    return (
        satisfies(input_env, bug_state.pc)
        and result.steps == bug_state.depth
        and isinstance(head(result.prog), Fail)
        and result.prog == bug_state.prog
        and Env.of({x: result.env(x) for x in names}) == expected
    )


@lemma("W-T2.4/2.5/2.6", "W-D2.7..2.11", "W-T3.6")
def bug_detection_agrees(p: Stmt, v0: Env, k: int, result: Sequence[object]) -> bool:
    """`BadInput` within `k` steps ⇔ `BadInput_sym`: the concrete run from `V0` is stuck within
    `k` steps iff the breadth-first `find_bugs` prefix `result` (no pruning) holds a `BugFound`
    of depth at most `k` whose path condition `V0` satisfies. False when `result` does not
    cover depth `k` (it must reach `Finished` or a state deeper than `k`)."""
    covered = any(isinstance(s, Finished) or s.state.depth > k  # type: ignore[attr-defined]
                  for s in result)
    if not covered:
        return False
    final = run_concrete(State(v0, p), k)
    bad = isinstance(head(final.prog), Fail)
    found = any(isinstance(s, BugFound) and s.state.depth <= k and satisfies(v0, s.state.pc)
                for s in result)
    return bad == found


@lemma("W-T3.8")
def has_bug_sound(p: Stmt, max_states: int, result: object) -> bool:
    """Never a false YES: a YES is backed by a stuck state within the budget whose model, run
    by the concrete interpreter alone, gets stuck at the same depth. A NO is spot-checked: no
    sample input makes the concrete run stuck within `max_states` steps."""
    answer = getattr(result, "value", result)
    if answer == "yes":
        solver = Solver()
        for s in islice(run([initial(p)], Strategy.BFS, solver), max_states + 1):
            if s is None:
                return False
            if not isinstance(head(s.prog), Fail):
                continue
            model = s.model
            if model is None:
                answer_, model = solver.check(s.pc)
                if answer_ is not Sat.SAT or model is None:
                    continue
            final = run_concrete(State(model, p), s.depth)
            if (satisfies(model, s.pc) and final.steps == s.depth
                    and isinstance(head(final.prog), Fail)):
                return True
        return False
    if answer == "no":
        return not any(isinstance(head(run_concrete(State(v, p), max_states).prog), Fail)
                       for v in sample_valuations(variables(p)))
    return True

