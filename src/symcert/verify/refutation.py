"""The search for a concrete run that breaks an annotation (T-I1, T-S1): a counterexample to
induction is not yet a verdict.

A failure on a path through an invariant or a contract (`engine.invariants.Unproved`) whose
own replay did not fail stands for a state that may or may not be reachable. Before a verdict
calls it "maybe unreachable", `refute` looks for a concrete run from the program's inputs that
fails, three ways, cheapest first:

1. sampled concrete runs (`verify.guesses.sample`: small random inputs, every annotation
   checked by the concrete semantics: an invariant at each loop head, a `requires` at each
   call);
2. the accelerated replay (`engine.candidates.replay`, T-A1) of the inputs of the
   counterexamples' models and of the sampled runs too long to end, within `REPLAY_STEPS`;
3. a bounded breadth-first exploration from the entry with loops unrolled and calls inlined
   (`invariants.unrolled`: every path a concrete one, so a failure there is a bug by W-T3.5's
   replay), within `STATES` states.

A run found so is a bug like any other: it ends at a `fail` of the concrete semantics. A wrong
`ensures` is no failing run (the concrete semantics reads a postcondition and does not check
it, docs/procedure-contracts.md): the search then finds what the program as written does, and
the verdict stays undecided with what was tried.
"""

# crosshair: off
# (runs programs concretely and asks z3: nothing for CrossHair to run)

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from symcert.core.concrete import Env
from symcert.engine.bugfinder import Witness
from symcert.engine.candidates import Candidate, Discarded, Source, replay
from symcert.engine.invariants import unrolled
from symcert.engine.verdict import Attempt, Budget, Check, Kind, Observer, Quiet, explored
from symcert.lang.errors import plural
from symcert.lang.syntax import Stmt

REPLAY_STEPS = 4_000_000
"""The most steps (one at a time; checked jumps come on top) a replay may take."""

STATES = 2_000
"""The states of the exploration from the entry (fewer if the check's budget is smaller)."""


@dataclass(frozen=True)
class Refutation:
    """What the search found: a bug (a witness whose run fails), and each method tried."""

    witness: Witness | None
    tried: tuple[Attempt, ...]
    exhaustive: bool = False
    """Whether the exploration from the entry ended: then no run of the program fails."""


def refute(p: Stmt, inputs: Sequence[Env], max_states: int, observer: Observer = Quiet(),
           until: float | None = None) -> Refutation:
    """Look for a concrete run of `p` from its inputs that fails (see the module's text).

    :param inputs: the inputs of the models of the failures that did not replay.
    :param max_states: the check's state budget (the exploration takes `STATES` at most).
    :param until: a `time.perf_counter()` by which the replays stop (None: steps only).
    """
    from symcert.verify import guesses  # z3, when asked

    tried: list[Attempt] = []
    observer.phase("sampling concrete runs")
    samples = guesses.sample(p)
    if samples.failing is not None:
        found = replay(p, Candidate.of(p, samples.failing, Source.SAMPLING), REPLAY_STEPS, until)
        if isinstance(found, Witness):
            return Refutation(found, (Attempt("sampling", "a run fails"),))
    tried.append(Attempt("sampling", "no run fails"))
    candidates = [Candidate.of(p, env, Source.ABSTRACTION) for env in inputs] + \
        [Candidate.of(p, env, Source.SAMPLING) for env in samples.pending]
    discarded = 0
    for candidate in dict.fromkeys(candidates):
        if until is not None and time.perf_counter() > until:
            break
        observer.phase("replaying a candidate input")
        found = replay(p, candidate, REPLAY_STEPS, until)
        if isinstance(found, Witness):
            return Refutation(found, tuple(tried) + (Attempt("replay", "a run fails"),))
        discarded += isinstance(found, Discarded)
    if discarded:
        tried.append(Attempt("replay", "none fails", plural(discarded, "input")))
    observer.phase("exploring from the entry with loops unrolled and calls inlined")
    with unrolled():
        verdict = Check(p, Budget(min(max_states, STATES))).run(observer)
    tried.append(explored("unrolled", verdict))
    return Refutation(verdict.bugs[0] if verdict.kind is Kind.BUG else None, tuple(tried),
                      verdict.kind is Kind.SAFE)
