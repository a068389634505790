"""`symcert prove` with the invariants and contracts `run` infers (T-I2): one pipeline of
proposals, two front doors.

`prove_inferring` proves a program as `verify.inference.InferringCheck` checks it: a probe of
`PROBE_STATES` states; then, for loops without a written invariant, sampled runs, Spacer's
invariants, else invariants guessed from concrete runs (`verify.guesses`), each accepted only
once z3 and cvc5 prove its obligations and `engine.prove` proves the annotated program; for
procedures with a clause not written, Spacer's summaries, else contracts guessed from
concrete calls. So a program `run` proves, `prove` proves, with a certificate.
"""

# crosshair: off
# (asks z3's Spacer and cvc5 through the solver and the provers: nothing for CrossHair to run)

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from symcert.core.concrete import Env
from symcert.engine.candidates import Candidate, Discarded, Source, replay
from symcert.engine.shrink import shrink
from symcert.engine.verdict import (
    Attempt, Budget, Cause, Kind, Quiet, Reason, Verdict, explored,
)
from symcert.lang.annotations import loops, unwritten
from symcert.lang.syntax import BExpr, Stmt
from symcert.verify import summaries
from symcert.verify.inference import (
    GUESS_SECONDS, INFER_MS, PROBE_STATES, REPLAY_STEPS, annotate, answered, applies,
    spacer_outcome,
)
from symcert.solver.z3backend import solver_for

if TYPE_CHECKING:
    from symcert.engine.prove import Proof


def prove_inferring(p: Stmt, max_states: int,
                    infer_ms: int = INFER_MS,
                    guess_seconds: float = GUESS_SECONDS,
                    phase: Callable[[str], None] = lambda name: None,
                    ) -> tuple[Proof, dict[int, BExpr], Stmt]:
    """`engine.prove`, and, where a probe of `PROBE_STATES` states cannot finish a program with
    a loop that carries no written invariant (the CHC encoding's fragment), `prove` of the
    program annotated with the invariants `run` would use: Spacer's, else those guessed from
    concrete runs (`verify.guesses`), once `check_invariants` (z3 and cvc5) accepts them; for
    procedures with a clause not written, Spacer's summaries or guessed contracts, once
    `summaries.check_summaries` accepts them (T-I2). Only what is not written is filled in:
    written invariants and clauses are checked as written (`annotations.unwritten`,
    `annotations.filled_contract`).

    Candidate inputs (`engine.candidates`) are replayed as `InferringCheck` replays them: that
    of a failing sampled run before Spacer is asked, that of Spacer's counterexample, and, when
    no invariant proved the program, those of the sampled runs too long for the sampling; one
    whose concrete run fails is the proof's counterexample, found by replay with no symbolic
    path. A failure through a written annotation that did not replay is followed by the search
    of `refutation.refute`, as in `run`. The verdict's `tried` names each method and its end;
    `phase` is told each phase as it begins (the CLI's progress line).

    :return: the proof, the inferred invariants it used by index of the main statement's loops,
        and the program it proved (`p`, or `p` with inferred contracts and invariants); a
        rejected or missing answer leaves the plain proof of `p` with the whole budget.
    """
    from symcert.verify import contract_guesses, guesses
    from symcert.verify.inductive import check_invariants
    from symcert.verify.refutation import refute
    from symcert.engine.prove import prove
    from symcert.solver import horn, horn_procs

    tried: list[Attempt] = []

    def done(proof: Proof, invariants: dict[int, BExpr], proved: Stmt,
             found: str = "") -> tuple[Proof, dict[int, BExpr], Stmt]:
        verdict = replace(proof.verdict, tried=tuple(tried))
        if found and verdict.reason is not None:
            verdict = replace(verdict, reason=Reason(verdict.reason.cause,
                                                     f"{verdict.reason.message}; {found}"))
        return replace(proof, verdict=verdict), invariants, proved

    def proved_with(invariants: dict[int, BExpr], how: str) -> Proof | None:
        """The SAFE proof of `p` annotated with the proposal where no invariant is written, or
        the proof of a bug of `p`: where the proposal holds at its loops (initiation and
        consecution proved by both provers) but an obligation of a written annotation or an
        assert does not, the failures of the annotated program's proof are replayed on `p`
        as written (as `InferringCheck` does); else None."""
        invariants = unwritten(list(loops(p)), invariants)
        method = "spacer" if how == "inferred" else "guesses"
        phase(f"checking the {how} loop invariants with z3 and cvc5")
        accepted = check_invariants(p, invariants)
        if not accepted.accepted:
            tried.append(Attempt(method, f"{answered(how)}rejected by z3 and cvc5"))
            if not (invariants and accepted.holds_at(set(invariants))):
                return None
        else:
            tried.append(Attempt(method, f"{answered(how)}accepted by z3 and cvc5"))
        phase("exploring and proving with the loop invariants")
        annotated = prove(annotate(p, invariants), max_states)
        tried.append(explored("annotated", annotated.verdict))
        if accepted.accepted and annotated.verdict.kind is Kind.SAFE:
            return annotated
        return _replayed(p, proof, [w.input for w in annotated.verdict.bugs],
                         Source.ABSTRACTION)

    probe = min(max_states, PROBE_STATES)
    proof = prove(p, probe)
    tried.append(explored("probe", proof.verdict))
    reason = proof.verdict.reason
    if reason is not None and reason.cause in (Cause.INVARIANT, Cause.CONTRACT):
        search = refute(p, (), max_states, _Phases(phase))
        tried.extend(search.tried)
        if search.witness is not None:
            bug = shrink(search.witness, solver_for(p))
            return done(replace(proof, verdict=Verdict(
                Kind.BUG, False, proof.verdict.budget, proof.verdict.stats, (bug,))), {}, p)
        return done(proof, {}, p, "no run of the program as written fails (its exploration "
                    "with loops unrolled and calls inlined ended)" if search.exhaustive else "")
    if not (reason is not None and reason.cause is Cause.STATES):
        return done(proof, {}, p)
    finding = ""
    if applies(p, Budget(max_states)):
        phase("sampling concrete runs")
        samples = guesses.sample(p)
        tried.append(Attempt("sampling", "a run fails" if samples.failing else "no run fails"))
        found = _replayed(p, proof, [samples.failing] if samples.failing else [],
                          Source.SAMPLING)
        if found is not None:
            return done(found, {}, p)
        phase("asking z3's Spacer for loop invariants")
        asked = time.perf_counter()
        answer = horn.infer(p, timeout_ms=infer_ms)
        found = _replayed(p, proof, [answer.input] if isinstance(answer, horn.Unsafe) else [],
                          Source.CHC)
        if found is not None:
            return done(found, {}, p)
        if isinstance(answer, horn.Safe):
            invariants = unwritten(list(loops(p)), {i.index: i.invariant
                                                    for i in answer.invariants})
            proved = proved_with(invariants, "inferred")
            if proved is not None:
                return done(proved, invariants if proved.verdict.kind is Kind.SAFE else {}, p)
        else:
            tried.append(Attempt("spacer", "answered: a counterexample that does not replay"
                                 if isinstance(answer, horn.Unsafe) else spacer_outcome(
                                     answer.reason, time.perf_counter() - asked, infer_ms)))
        phase("guessing loop invariants")
        guessed = guesses.guess(p, samples, guess_seconds)
        if guessed is None:
            tried.append(Attempt("guesses", "none"))
        else:
            proved = proved_with(guessed, "guessed")
            if proved is not None:
                return done(proved, unwritten(list(loops(p)), guessed)
                            if proved.verdict.kind is Kind.SAFE else {}, p)
        found = _replayed(p, proof, samples.pending, Source.SAMPLING)
        if found is not None:
            return done(found, {}, p)
        finding = "no loop invariant inferred or guessed that proves it"
    elif summaries.applies(p):
        phase("asking z3's Spacer for procedure summaries")
        found = horn_procs.infer(p, timeout_ms=infer_ms)
        proposals = [({c.name: (c.requires, c.ensures) for c in found.contracts},
                      {i.index: i.invariant for i in found.invariants}, "inferred")] \
            if isinstance(found, horn_procs.Summaries) else []
        if not proposals:
            tried.append(Attempt("spacer", "answered: a failure through the calls" if isinstance(
                found, horn_procs.Failing) else f"unknown ({found.reason})"))
        for contracts, invariants, how in proposals + [
                (c, {}, "guessed") for c in contract_guesses.candidates(p)]:
            method = "spacer" if how == "inferred" else "contract guesses"
            phase(f"checking the {how} procedure contracts with z3 and cvc5")
            if not summaries.check_summaries(p, contracts, invariants).accepted:
                tried.append(Attempt(method, f"{answered(how)}rejected by z3 and cvc5"))
                continue
            tried.append(Attempt(method, f"{answered(how)}accepted by z3 and cvc5"))
            annotated = summaries.annotate(p, contracts, invariants)
            proved = prove(annotated, max_states)
            tried.append(explored("annotated", proved.verdict))
            if proved.verdict.kind is Kind.SAFE:  # the main statement's loops come first
                return done(proved, unwritten(list(loops(p)), invariants), annotated)
        finding = "no procedure contract inferred or guessed that proves it"
    if probe < max_states:
        phase("exploring and proving")
        proof = prove(p, max_states)
        tried.append(explored("exploration", proof.verdict))
    return done(proof, {}, p, finding if proof.verdict.kind is Kind.UNDECIDED else "")


class _Phases(Quiet):
    """The observer that tells `phase` each phase (`prove_inferring`'s progress)."""

    def __init__(self, phase: Callable[[str], None]) -> None:
        self.told = phase

    def phase(self, name: str) -> None:
        self.told(name)


def _replayed(p: Stmt, probe: Proof, inputs: list[Env] | tuple[Env, ...],
              source: Source) -> Proof | None:
    """The probe's proof with the counterexample of the first candidate of `inputs` (from
    `source`) whose concrete run fails within `REPLAY_STEPS` steps, shrunk as every
    counterexample is; None if none does."""
    for candidate in dict.fromkeys(Candidate.of(p, env, source) for env in inputs):
        found = replay(p, candidate, REPLAY_STEPS)
        if not isinstance(found, Discarded):
            verdict = probe.verdict
            return replace(probe, verdict=Verdict(Kind.BUG, False, verdict.budget,
                                                  verdict.stats, (shrink(found, solver_for(p)),)))
    return None
