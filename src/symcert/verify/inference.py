"""Loops proved with invariants nobody wrote (T-I2): the check of `symcert run` when plain
exploration cannot finish.

Breadth-first exploration unrolls a loop bounded by an input forever, so on its own it can find
such a loop's bugs but never prove it. `InferringCheck` first explores as `verdict.Check` does
for a small share of the budget (`PROBE_STATES`: shallow bugs are found there, with their
replay, before any solver is asked for more). When that share runs out on a program with a loop
that carries no written invariant, it asks the CHC solver (`solver.horn`, z3's Spacer) for an
invariant of every such loop (written invariants are read as written: `annotations.unwritten`),
and counts the answer only after two checks of a different formulation agree:

1. `verify.inductive.check_invariants`: initiation, consecution and safety of the invariant
   map, each obligation proved by z3 *and* by cvc5;
2. the invariant transition itself (T-I1, `engine/invariants.py`): the program annotated with
   the invariants is run by the one engine, which must end SAFE (every path ended, every check
   UNSAT); a failure it finds there is a bug only when a concrete run replays it.

Before any solver is asked, the program runs on random small inputs (`verify.guesses.sample`).
An input that may make the program fail is a candidate (`engine.candidates`): a sampled run that
fails, Spacer's counterexample, the model of a failure on a path through an inferred invariant,
and, once inference has not proved the program, the inputs of sampled runs too long to end in
their steps. A candidate is replayed on the concrete semantics within a step budget and a share
of the time left (`REPLAY_SHARE` of `seconds`): a run that fails is a bug, reported with its
input and replay (no symbolic path); one that does not is discarded, and the undecided reason
says so. When Spacer finds no invariant that passes both checks (its arithmetic is linear: a sum's
closed form escapes it), invariants guessed from concrete runs (`verify.guesses`: polynomial
equalities and octagon bounds that every sampled state satisfies, pruned by Houdini) go through
the same two checks. Only then is the verdict SAFE, and the invariants are shown to the user
(who may write them into the program). A rejected or missing answer is never turned into a verdict: exploration goes on
with the whole budget, and an undecided verdict says what inference found.

A program with procedures (recursive ones included), one of which misses a written `requires` or
`ensures`, gets Spacer's procedure summaries instead (only the clauses not written are taken:
`annotations.filled_contract`) (`solver.horn_procs`, `verify.summaries`): each becomes a
contract, with an invariant for each loop, counted only when z3 and cvc5 prove their obligations
(`summaries.check_summaries`) and the annotated program is SAFE under the contract and invariant
transitions (T-S1, T-I1).
"""

# crosshair: off
# (asks z3's Spacer and cvc5 through the solver and the provers: nothing for CrossHair to run)

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterator, Mapping

from symcert.core.concrete import Env
from symcert.engine.candidates import Candidate, Discarded, Source, replay
from symcert.engine.explore import Explorer, run
from symcert.engine.shrink import shrink
from symcert.engine.verdict import (
    Attempt, Budget, Cause, Check, Kind, Observer, Quiet, Reason, Verdict, explored, measure,
)
from symcert.lang.annotations import loops, unwritten, with_invariants
from symcert.lang.errors import plural
from symcert.lang.syntax import BExpr, Stmt
from symcert.verify import summaries
from symcert.verify.inferred import Inferred, answered, spacer_outcome
from symcert.solver.z3backend import Solver, solver_for

if TYPE_CHECKING:
    from symcert.verify.inductive import Contracts

PROBE_STATES = 2_000
"""The states explored before inference is tried (fewer if the budget is smaller)."""

REPLAY_STEPS = 4_000_000
"""The most concrete steps the replay of a candidate input may take (`engine.candidates`)."""

REPLAY_SHARE = 0.5
"""The share of the time left (when the check knows its `seconds`) that the replays of the
candidates found at one point of the check may take together."""

EARLY_SHARE = 0.25
"""The share of the time left for the first unfinished sampled run, replayed before the CHC
solver is asked (`EARLY_STEPS` at most when the check does not know its `seconds`)."""

EARLY_STEPS = 1_000_000
"""The steps of that early replay when the check does not know its `seconds`."""

INFER_MS = 10_000
"""The CHC solver's default share of the time, in milliseconds."""

GUESS_SECONDS = 10.0
"""The share of the time for guessing invariants from concrete runs when the CHC solver
found none that checks (`verify.guesses`)."""


def applies(p: Stmt, budget: Budget) -> bool:
    """Whether inference may help `p`: it has a loop with no written invariant (inference fills
    in only what is not written; the written invariants are checked as written, never replaced
    or strengthened: `annotations.filled`), in the fragment the CHC encoding supports, and the
    check looks for the first bug only."""
    from symcert.solver.horn import unsupported

    return (any(not w.invariants for w in loops(p)) and not budget.all_bugs
            and unsupported(p) in (None, QUANTIFIED))


QUANTIFIED = "quantifiers are not supported by the CHC encoding"
"""`unsupported`'s answer for a program whose only quantifiers are in its asserts and
assumes: Spacer says so, the guesses (`verify.cells`) still apply."""


def annotate(p: Stmt, invariants: Mapping[int, BExpr]) -> Stmt:
    """`p` with loop number `k` (pre-order, `annotations.loops`) given the invariant
    `invariants[k]` where it has none written.

    :param invariants: loop index → invariant; loops not named, and loops with a written
        invariant, keep theirs.
    """
    whiles = list(loops(p))
    by_node = {id(whiles[k]): inv for k, inv in unwritten(whiles, invariants).items()}
    return with_invariants(p, by_node)


@dataclass
class InferringCheck:
    """One check of `program` with inferred invariants as a fallback; used as `Check` is
    (`run`, then `stopped` if the caller interrupts it).

    :param program: the program.
    :param budget: what the whole check may spend (the probe's states count in it).
    :param start: when the check began (`time.perf_counter()`).
    :param infer_ms: the CHC solver's time.
    :param guess_seconds: the time for guessing from concrete runs.
    """

    program: Stmt
    budget: Budget = Budget()
    start: float = field(default_factory=time.perf_counter)
    infer_ms: int = INFER_MS
    guess_seconds: float = GUESS_SECONDS
    explorer: Explorer = run
    """What each check explores with (`Check.explorer`)."""
    seconds: float | None = None
    """The caller's wall-clock budget for the whole check from `start` (the CLI's `--timeout`),
    of which the replays of candidate inputs take a share; None: their step budget only. It
    does not stop the check: the caller interrupts `run` when it is spent (as the CLI's
    deadline does) and asks `stopped` for the verdict."""
    deferred: list[Candidate] = field(default_factory=list, init=False)
    """Candidates replayed once inference has not proved the program: the inputs of sampled
    runs too long for their steps, models of failures on abstract paths (T-I1)."""
    bug: Verdict | None = field(default=None, init=False)
    """The verdict of a replayed candidate, once reported."""
    stopped_at: dict[Candidate, Discarded] = field(default_factory=dict, init=False)
    """Where the replays that ran out of budget stopped (a later replay goes on from there)."""
    unfinished: dict[Candidate, str] = field(default_factory=dict, init=False)
    """What the undecided reason says of each of those replays."""
    inferred: Inferred | None = field(default=None, init=False)
    """The accepted invariants, when they proved the program."""
    finding: str | None = field(default=None, init=False)
    """What inference found when it did not prove the program (for the undecided reason)."""
    solver: Solver = field(init=False)
    """The solver of every check (`solver_for` the program; the annotated program has the same
    references)."""
    current: Check | None = field(default=None, init=False)
    earlier: int = field(default=0, init=False)
    """The states explored by the checks before `current` (they count in the verdict's)."""
    tried: list[Attempt] = field(default_factory=list, init=False)
    """Each method tried so far and how it ended (`Verdict.tried`)."""
    running: str | None = field(default=None, init=False)
    """The method under way that is not an exploration (a deadline stops it)."""
    exploring: str | None = field(default=None, init=False)
    """The exploration under way (`Attempt.method`), if any."""

    def __post_init__(self) -> None:
        self.solver = solver_for(self.program)

    def run(self, observer: Observer = Quiet()) -> Verdict:
        """The verdict: the probe's if it decided, else the annotated program's if it is SAFE
        (or a replayed bug), else that of the exploration with the whole budget."""
        if self.budget.all_bugs:  # every bug within the budget: the probe is the whole run
            probe = self.budget
        else:
            probe = replace(self.budget, max_states=min(self.budget.max_states, PROBE_STATES))
        verdict = self._explore(self.program, probe, observer, "probe")
        if not (verdict.kind is Kind.UNDECIDED and verdict.reason is not None
                and verdict.reason.cause is Cause.STATES):
            return self._noted(self._refuted(verdict, observer))
        if applies(self.program, self.budget):
            proved = self._infer(observer) or self._replay(self.deferred, observer)
            if proved is not None:
                return proved
        elif summaries.applies(self.program, self.budget.all_bugs):
            observer.phase("inferring procedure summaries")
            proved = self._summarise(observer)
            if proved is not None:
                return proved
        if probe.max_states < self.budget.max_states:
            verdict = self._explore(self.program, self.budget, observer, "exploration")
        return self._noted(self._refuted(verdict, observer))

    def _refuted(self, verdict: Verdict, observer: Observer) -> Verdict:
        """`verdict`, or, when it blames an annotation (a failure through an invariant or a
        contract that did not replay), the bug of a concrete run that `refutation.refute`
        finds from the program's inputs."""
        from symcert.verify.refutation import refute

        reason = verdict.reason
        if (verdict.kind is not Kind.UNDECIDED or reason is None or self.current is None
                or reason.cause not in (Cause.INVARIANT, Cause.CONTRACT)):
            return verdict
        left = None if self.seconds is None else self.seconds - (time.perf_counter() - self.start)
        until = None if left is None else time.perf_counter() + REPLAY_SHARE * max(left, 0.0)
        self.running = "sampling"
        found = refute(self.program, self.current.candidates, self.budget.max_states,
                       observer, until)
        self.running = None
        self.tried += found.tried
        if found.witness is None:
            if found.exhaustive:
                self._found("no run of the program as written fails (its exploration with "
                            "loops unrolled and calls inlined ended)")
            return verdict
        witness = shrink(found.witness, self.solver) if self.budget.shrink else found.witness
        done = self.current
        bug = self._counted(Verdict(Kind.BUG, False, self.budget, measure(
            done.states, done.progress, self.solver, self.start), (witness,)))
        observer.phase("reporting a bug")
        observer.confirmed(witness, bug.stats.states)
        self.bug = bug
        return bug

    def stopped(self, reason: Reason) -> Verdict:
        """The verdict when the caller interrupted `run` for `reason`."""
        if self.current is None:
            raise ValueError("the check has not started")
        if self.bug is not None:
            return self.bug
        verdict = self.current.stopped(reason)
        if self.running is not None:
            self.tried.append(Attempt(self.running, f"stopped: {reason.cause.value} ran out"))
        elif self.exploring is not None:
            self.tried.append(explored(self.exploring, verdict))
        return self._noted(self._counted(verdict))

    def _explore(self, p: Stmt, budget: Budget, observer: Observer, method: str) -> Verdict:
        if self.current is not None:
            self.earlier += self.current.states
        self.current = Check(p, budget, self.solver, self.start, self.explorer)
        self.exploring = method
        verdict = self.current.run(observer)
        self.exploring = None
        self.tried.append(explored(method, verdict))
        return self._counted(verdict)

    def _counted(self, verdict: Verdict) -> Verdict:
        """`verdict` with the states of the earlier checks counted too."""
        return replace(verdict, stats=replace(verdict.stats,
                                              states=verdict.stats.states + self.earlier))

    def _infer(self, observer: Observer) -> Verdict | None:
        """Ask Spacer, else guess from concrete runs; check each proposal and run the
        annotated program. The verdict if it proved the program or found a replayed bug, else
        None with `finding` set."""
        from symcert.verify import guesses  # z3, when asked
        from symcert.solver import horn

        began = time.perf_counter()
        observer.phase("sampling concrete runs")
        self.running = "sampling"
        samples = guesses.sample(self.program)
        self.running = None
        if samples.failing is not None:
            self.tried.append(Attempt("sampling", "a run fails"))
            return self._replay(self._candidates([samples.failing], Source.SAMPLING), observer)
        self.tried.append(Attempt("sampling", "no run fails" + (
            f", {plural(len(samples.pending), 'run')} too long to end" if samples.pending
            else "")))
        self.deferred += self._candidates(samples.pending, Source.SAMPLING)
        early = self._replay(self.deferred[:1], observer, EARLY_SHARE, EARLY_STEPS)
        if early is not None:
            return early
        observer.phase("asking z3's Spacer for loop invariants")
        self.running, asked = "spacer", time.perf_counter()
        answer = horn.infer(self.program, timeout_ms=self.infer_ms)
        self.running = None
        if isinstance(answer, horn.Unsafe):
            self.tried.append(Attempt("spacer", "answered: a counterexample"))
            return self._replay(self._candidates([answer.input], Source.CHC), observer)
        if isinstance(answer, horn.Safe):
            verdict = self._use({i.index: i.invariant for i in answer.invariants}, "inferred",
                                observer, began)
            if verdict is not None:
                return verdict
        else:
            self.tried.append(Attempt("spacer", spacer_outcome(
                answer.reason, time.perf_counter() - asked, self.infer_ms)))
            self.finding = f"no loop invariant inferred ({answer.reason})"
        observer.phase("guessing loop invariants")
        self.running = "guesses"
        guessed = guesses.guess(self.program, samples, self.guess_seconds)
        self.running = None
        if guessed is None:
            self.tried.append(Attempt("guesses", "none"))
            self._found("no loop invariant guessed from concrete runs")
            return None
        return self._use(guessed, "guessed", observer, began)

    def _use(self, invariants: dict[int, BExpr], how: str, observer: Observer,
             began: float) -> Verdict | None:
        """Check a proposal (`how` it was found: inferred or guessed) with both provers, then
        by the invariant transition on the annotated program."""
        from symcert.verify.inductive import check_invariants  # z3 and cvc5, when asked

        invariants = unwritten(list(loops(self.program)), invariants)
        method = "spacer" if how == "inferred" else "guesses"
        observer.phase(f"checking the {how} loop invariants with z3 and cvc5")
        self.running = method
        try:
            accepted = check_invariants(self.program, invariants)
        except ValueError as too_many:  # more paths than the obligations are written for
            self.tried.append(Attempt(method, f"{answered(how)}not checked: {too_many}"))
            self._found(f"the {how} loop invariants were not checked: {too_many}")
            return None
        finally:
            self.running = None
        if not accepted.accepted:
            self.tried.append(Attempt(method, f"{answered(how)}rejected by z3 and cvc5"))
            self._found(f"the {how} loop invariants were rejected (not proved by z3 and "
                        f"cvc5: {', '.join(accepted.failed())})")
            if invariants and accepted.holds_at(set(invariants)):
                return self._written_fails(annotate(self.program, invariants), observer)
            return None
        self.tried.append(Attempt(method, f"{answered(how)}accepted by z3 and cvc5"))
        annotated = annotate(self.program, invariants)
        observer.phase("exploring with the loop invariants")
        verdict = self._explore(annotated, self.budget, observer, "annotated")
        if verdict.kind is Kind.UNDECIDED:
            self._found(f"with the {how} loop invariants: {verdict.reason}")
            if self.current is not None:  # failures on abstract paths that did not replay
                self.deferred += self._candidates(self.current.candidates, Source.ABSTRACTION)
            return None
        if verdict.kind is Kind.SAFE:
            whiles = list(loops(self.program))
            self.inferred = Inferred(tuple((whiles[k], inv) for k, inv in
                                           sorted(invariants.items())),
                                     time.perf_counter() - began, how)
        return verdict

    def _written_fails(self, annotated: Stmt, observer: Observer) -> Verdict | None:
        """Where the proposed invariants hold (initiation and consecution proved by both
        provers) but an obligation of a written annotation or an assert does not: the
        annotated program explored (T-I1), the inputs of its failures replayed on the program
        as written; a bug only when that replay fails (the proof itself stays rejected)."""
        observer.phase("exploring with the loop invariants")
        verdict = self._explore(annotated, self.budget, Quiet(), "annotated")  # not yet ours
        assert self.current is not None
        found = [w.input for w in verdict.bugs] + self.current.candidates
        return self._replay(self._candidates(found, Source.ABSTRACTION), observer)

    def _summarise(self, observer: Observer) -> Verdict | None:
        """Ask Spacer for procedure summaries, else guess contracts from concrete calls
        (`contract_guesses`); check each proposal as contracts with both provers, then run the
        program annotated with it (T-S1). The verdict if SAFE, else None with `finding` set (a
        bug of the annotated program, whose contracts the concrete run checks too, is left to
        exploration of the program as written)."""
        began = time.perf_counter()
        for contracts, invariants, how in self._proposals(observer):
            method = "spacer" if how == "inferred" else "contract guesses"
            observer.phase(f"checking the {how} procedure contracts with z3 and cvc5")
            self.running = method
            try:
                checked = summaries.check_summaries(self.program, contracts, invariants)
            except ValueError as too_many:  # more paths than the obligations are written for
                self.tried.append(Attempt(method, f"{answered(how)}not checked: {too_many}"))
                self._found(f"the {how} procedure contracts were not checked: {too_many}")
                continue
            finally:
                self.running = None
            if not checked.accepted:
                self.tried.append(Attempt(method, f"{answered(how)}rejected by z3 and cvc5"))
                self._found(f"the {how} procedure contracts were rejected (not proved by z3 "
                            f"and cvc5: {', '.join(checked.failed())})")
                continue
            self.tried.append(Attempt(method, f"{answered(how)}accepted by z3 and cvc5"))
            observer.phase("exploring with the procedure contracts")
            verdict = self._explore(summaries.annotate(self.program, contracts, invariants),
                                    self.budget, observer, "annotated")
            if verdict.kind is not Kind.SAFE:
                self._found(f"with the {how} procedure contracts: "
                            f"{verdict.reason or 'a failure the program as written must replay'}")
                continue
            whiles = summaries.loops(self.program)
            self.inferred = Inferred(tuple((whiles[k], inv) for k, inv in
                                           sorted(unwritten(whiles, invariants).items())),
                                     time.perf_counter() - began, how,
                                     contracts=tuple(summaries.shown(self.program, contracts)))
            return verdict
        return None

    def _proposals(self, observer: Observer) -> Iterator[tuple[Contracts, dict[int, BExpr], str]]:
        """Spacer's summaries, if it has some, then the contracts guessed from concrete calls."""
        from symcert.verify import contract_guesses
        from symcert.solver import horn_procs

        observer.phase("asking z3's Spacer for procedure summaries")
        self.running, asked = "spacer", time.perf_counter()
        answer = horn_procs.infer(self.program, timeout_ms=self.infer_ms)
        self.running = None
        if isinstance(answer, horn_procs.Summaries):
            yield ({c.name: (c.requires, c.ensures) for c in answer.contracts},
                   {i.index: i.invariant for i in answer.invariants}, "inferred")
        elif isinstance(answer, horn_procs.Failing):
            self.tried.append(Attempt("spacer", "answered: a failure through the calls"))
            self._found("the CHC solver derives a failure through the calls")
        else:
            self.tried.append(Attempt("spacer", spacer_outcome(
                answer.reason, time.perf_counter() - asked, self.infer_ms)))
            self._found(f"no procedure summary inferred ({answer.reason})")
        observer.phase("guessing procedure contracts")
        self.running = "contract guesses"
        proposed = False
        for contracts in contract_guesses.candidates(self.program):
            self.running, proposed = None, True
            yield contracts, {}, "guessed"
            observer.phase("guessing procedure contracts")
            self.running = "contract guesses"
        self.running = None
        if not proposed:
            self.tried.append(Attempt("contract guesses", "none"))

    def _candidates(self, inputs: list[Env] | tuple[Env, ...], source: Source) -> list[Candidate]:
        return [Candidate.of(self.program, env, source) for env in inputs]

    def _replay(self, candidates: list[Candidate], observer: Observer,
                share: float = REPLAY_SHARE, steps: int = REPLAY_STEPS) -> Verdict | None:
        """Replay each candidate on the original program within `steps` and `share` of the
        time left (the time bounds the steps when the check knows its `seconds`), going on
        where an earlier replay of it stopped: the BUG verdict of the first that fails,
        reported as every bug is (shrunk, then shown to the observer); else None, each
        discarded one noted in `finding`."""
        left = None if self.seconds is None else self.seconds - (time.perf_counter() - self.start)
        until = None if left is None else time.perf_counter() + share * max(left, 0.0)
        for candidate in dict.fromkeys(candidates):
            if until is not None and time.perf_counter() > until:
                break  # the share is spent: the others are not replayed (nor said to be)
            observer.phase("replaying a candidate input")
            self.running = "replay"
            found = replay(self.program, candidate, steps if left is None else REPLAY_STEPS,
                           until, self.stopped_at.get(candidate))
            self.running = None
            if isinstance(found, Discarded) and found.last is not None:
                self.stopped_at[candidate] = found
                self.unfinished[candidate] = found.why()  # said once, however often resumed
                self.tried.append(Attempt("replay", "step or time budget ran out",
                                          f"{found.steps:,} steps"))
                continue
            if isinstance(found, Discarded):
                self.tried.append(Attempt("replay", "discarded: its run does not fail"))
                self._found(found.why())
                continue
            self.tried.append(Attempt("replay", "a run fails"))
            found = shrink(found, self.solver) if self.budget.shrink else found
            assert self.current is not None  # the probe ran
            done = self.current
            verdict = self._counted(Verdict(Kind.BUG, False, self.budget, measure(
                done.states, done.progress, self.solver, self.start), (found,)))
            observer.phase("reporting a bug")
            observer.confirmed(found, verdict.stats.states)
            self.bug = verdict
            return verdict
        return None

    def _found(self, what: str) -> None:
        self.finding = what if self.finding is None else f"{self.finding}; {what}"

    def _noted(self, verdict: Verdict) -> Verdict:
        """`verdict` with what inference found added to its reason."""
        found = "; ".join(([self.finding] if self.finding else []) + list(self.unfinished.values()))
        verdict = replace(verdict, tried=tuple(self.tried))
        if verdict.reason is None or not found:
            return verdict
        return replace(verdict, reason=Reason(verdict.reason.cause,
                                              f"{verdict.reason.message}; {found}"))
