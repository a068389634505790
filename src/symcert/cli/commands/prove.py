"""`symcert prove FILE`: prove every assertion from the leaves of an exhaustive symbolic
execution (seed 001, T-L2).

Each `assert b` reached under a path `⟨φ, S⟩` gives the obligation `φ → {S}b`, valid when
`φ ∧ ¬{S}b` is UNSAT. PROVED (exit 0) only when the exploration ended and every obligation is
UNSAT-backed, and z3 and cvc5 both prove it again from its SMT-LIB text; a SAT obligation gives
a counterexample, replayed concretely (exit 1); anything else is undecided (exit 3): a budget ran
out or a solver answered UNKNOWN. With `--certificate FILE`, a PROVED verdict writes its
certificate (`verify.certificate`, docs/certificates.md). With threads, every thread's
failures and the deadlocks are obligations, and a counterexample shows its schedule and
interleaving as `run` does (docs/threads.md).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from symcert.cli.commands.budget import EXIT_INTERNAL, BudgetExceeded, positive
from symcert.cli.commands.events import emit
from symcert.cli.commands.programs import add_program, read_source, source_name
from symcert.cli.commands.traces import jumps
from symcert.cli.commands.values import show_int, text
from symcert.lang.errors import EXIT_UNDECIDED, plural

if TYPE_CHECKING:
    from symcert.verify.certificate import Checked
    from symcert.engine.prove import Proof
    from symcert.lang.syntax import BExpr, Stmt

HELP = "prove every assertion by exhaustive symbolic execution, or give a counterexample"
DEFAULT_MAX_STATES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser, alias=True)
    parser.add_argument("--max-states", type=positive, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"state budget (default: {DEFAULT_MAX_STATES:,})")
    parser.add_argument("--json", action="store_true",
                        help="write JSON events (docs/schema/events.json) instead of text")
    parser.add_argument("--certificate", metavar="CERT",
                        help="when PROVED, write the proof's certificate (JSON) to CERT; "
                             "`symcert check-certificate CERT FILE` re-checks it")
    parser.add_argument("--infer", action=argparse.BooleanOptionalAction, default=True,
                        help="when 2,000 states do not finish a program whose loops have no "
                             "written invariant (or procedures no written contract), prove it "
                             "with invariants (contracts) inferred by z3's Spacer, checked by "
                             "z3 and cvc5 (the default, as in `run`; docs/inference.md); "
                             "--no-infer proves by exploration and written annotations only")


def main(args: argparse.Namespace) -> int:
    from symcert.engine.prove import prove
    from symcert.engine.contracts import unreached
    from symcert.cli.commands.verdicts import tried_line, unchecked
    from symcert.verify.proving import prove_inferring
    from symcert.lang.annotations import loops
    from symcert.core import heap
    from symcert.lang.procedures import arrays, references, table_of
    from symcert.verify.summaries import shown
    from symcert.lang.syntax import is_field
    from symcert.lang.structure import inputs
    from symcert.engine.verdict import Cause, Kind
    from symcert.core.threads import is_threaded
    from symcert.cli.commands.threads import schedule_text

    name = source_name(args.file)
    try:
        source, program = read_source(args)
        args.budget.enter("exploring and proving")
        inferred: dict[int, BExpr] = {}
        proved = program
        if args.infer:
            proof, inferred, proved = prove_inferring(program, args.max_states,
                                                      phase=args.budget.enter)
        else:
            proof = prove(program, args.max_states)
        if proof.verdict.kind is Kind.SAFE:
            args.budget.enter("proving the obligations again with z3 and cvc5")
            proof, engine = _double_checked(program, proof)
            if args.certificate and proof.verdict.kind is Kind.SAFE:
                args.budget.enter("writing the certificate")
                problem = _write(args.certificate, source, proved, engine, inferred)
                if problem is not None:
                    print(f"{name}: {problem}")
                    return EXIT_INTERNAL
    except BudgetExceeded:
        if args.json:
            emit("done", verdict="undecided", exhaustive=False, reason=args.budget.reason(),
                 cause="time", states=None, obligations=None, unknown=None,
                 seconds=round(time.perf_counter() - args.budget.started, 6))
            return EXIT_UNDECIDED
        print(f"{name}: undecided")
        print(f"  not exhaustive: {args.budget.reason()}")
        return EXIT_UNDECIDED
    args.budget.enter("reporting")
    verdict = proof.verdict
    if args.json:
        return _json(name, program, proof, time.perf_counter() - args.budget.started)
    explored = (f"{plural(verdict.stats.states, 'symbolic state')}, "
                f"{plural(proof.obligations, 'obligation')}")
    if verdict.kind is Kind.SAFE:
        print(f"{name}: PROVED: every assertion holds for all inputs"
              + (" and schedules, and no schedule deadlocks" if is_threaded(program) else ""))
        print(f"  exhaustive: {explored}, each one UNSAT for z3 and for cvc5"
              f"{unchecked(unreached(program))}")
        whiles = list(loops(program))
        for k, inv in sorted(inferred.items()):
            pos = whiles[k].pos
            at = f"{pos.line}:{pos.column}" if pos else "?"
            print(f"  with the loop invariant inferred (z3's Spacer, or guessed from concrete "
                  f"runs), checked by z3 and cvc5: the loop at {at}: invariant {inv}")
        filled = {q.name: (q.requires, q.ensures) for q in table_of(proved).values()
                  if proved is not program and q.requires is not None and q.ensures is not None}
        for line in shown(program, filled):  # a written clause is the user's, said so
            print(f"  with the contract inferred (z3's Spacer, or guessed from concrete calls), "
                  f"checked by z3 and cvc5: {line}")
        if args.certificate:
            print(f"  certificate: {args.certificate}")
    elif verdict.kind is Kind.BUG:
        found = verdict.bugs[0]
        pos = found.failing.pos
        where = f"{name}:{pos.line}:{pos.column}" if pos else name
        names = sorted(inputs(program))
        refs = references(program)
        objects: dict[str, dict[str, object]] = {}
        cells: list[tuple[str, object]] = found.input.labelled(names, arrays(program))
        if refs or any(map(is_field, names)):  # seed 003 §4: the input heap as a graph
            values, objects = heap.graph(found.input, names, refs)
            cells = list(values.items())
        shown = ", ".join(f"{x} = {v if isinstance(v, str) else show_int(v)}"  # type: ignore[arg-type]
                          for x, v in cells) or "any (the bug does not depend on the input)"
        print(f"{where}: counterexample: {found.describe()}")
        print(f"  input:  {shown}")
        if found.refuted():  # X-Q1: the quantifier's failing value, evaluated concretely
            print(f"  fails at: {found.refuted()} (its first such value, evaluated concretely)")
        if objects:
            print(f"  heap:   {heap.show({}, objects)[1]}")
        print(f"  replay: the concrete run from this input reaches the failing statement "
              f"after {plural(found.final.steps, 'step')}{jumps(found.jumped)}")
        if found.found_by is not None:
            from symcert.engine.candidates import Source
            print(f"  found by the concrete replay of {Source(found.found_by).what()}; "
                  "no symbolic path")
        print(schedule_text(found), end="")  # with threads: the schedule and interleaving
    else:
        print(f"{name}: undecided")
        if not verdict.exhaustive:
            print(f"  not exhaustive: {verdict.reason}")
        elif verdict.reason is not None and (verdict.reason.cause in (Cause.INVARIANT,
                                                                      Cause.CONTRACT)
                                             or not proof.undecided):
            print(f"  {verdict.reason}")
        for ob in proof.undecided:
            print(f"  solver answered UNKNOWN for {text(ob)}")
        print(f"  no counterexample found; {explored}{tried_line(verdict.tried)}")
    return verdict.exit_code


def _json(name: str, program: Any, proof: Any, seconds: float) -> int:
    """The events of `prove --json`: a `bug` for the replayed counterexample, an `unknown` for
    each obligation the solver could not decide, and `done`."""
    from symcert.cli.commands.events import bug_cause, imp_condition
    from symcert.cli.commands.threads import schedule_json
    from symcert.cli.commands.verdicts import attempts
    from symcert.cli.commands.values import json_int, text
    from symcert.core import heap
    from symcert.lang.procedures import arrays, references
    from symcert.lang.structure import inputs
    from symcert.lang.syntax import is_field

    verdict = proof.verdict
    refs = references(program)
    for found in verdict.bugs[:1]:
        names = sorted(inputs(program))
        cells = found.input.labelled(names, arrays(program))
        objects: dict[str, dict[str, Any]] = {}
        if refs or any(map(is_field, names)):
            values, objects = heap.graph(found.input, names, refs)
            cells = list(values.items())
        pos = found.failing.pos
        emit("bug", file=name, line=pos.line if pos else 0, column=pos.column if pos else 0,
             message=found.describe(), cause=bug_cause(found.failing),
             input={x: v if isinstance(v, str) else json_int(v) for x, v in cells},
             **({"heap": objects} if objects else {}), replay_steps=found.final.steps,
             **found.fails_at(), path_condition=None if found.found_by else imp_condition(found.bug.pc, refs),
             **({"found_by": found.found_by} if found.found_by else {}),
             **({"jumped_steps": found.jumped} if found.jumped else {}), **schedule_json(found),
             states=verdict.stats.states)
    for ob in proof.undecided:
        emit("unknown", file=name, line=ob.where.line if ob.where else 0,
             column=ob.where.column if ob.where else 0, statement=text(ob.statement),
             path_condition=imp_condition(ob.state.pc, refs))
    kind = "proved" if verdict.kind.value == "safe" else verdict.kind.value
    reason = verdict.reason
    emit("done", verdict=kind, exhaustive=verdict.exhaustive and kind != "undecided",
         reason=None if reason is None else reason.message,
         cause=None if reason is None else reason.cause.value, states=verdict.stats.states,
         obligations=proof.obligations, unknown=len(proof.undecided),
         tried=attempts(verdict.tried), seconds=round(seconds, 6))
    return int(verdict.exit_code)


def _double_checked(program: Stmt, proof: Proof) -> tuple[Proof, tuple[Checked, ...]]:
    """`proof`, undecided unless z3 and cvc5 both prove each of its obligations again."""
    from symcert.verify.certificate import double_check
    from symcert.engine.verdict import Cause, Kind, Reason

    engine = double_check(program, proof)
    failed = [c for c in engine if not c.holds]
    if not failed:
        return proof, engine
    reason = Reason(Cause.SOLVER, f"obligation `{failed[0].name}` not proved again: "
                    + "; ".join(failed[0].failures()))
    verdict = replace(proof.verdict, kind=Kind.UNDECIDED, reason=reason)
    return replace(proof, verdict=verdict), engine


def _write(path: str, text: str, program: Stmt, engine: tuple[Checked, ...],
           inferred: dict[int, BExpr]) -> str | None:
    """Write the certificate; what went wrong if the wp calculus refutes the engine's proof.

    :raises SymcertError: when it cannot be written (exit 65).
    """
    from symcert.verify.certificate import certify
    from symcert.verify.provers import INVALID
    from symcert.lang.errors import SymcertError

    cert, wp = certify(text, program, engine, inferred)
    refuted = [c for c in wp if INVALID in (c.z3.status, c.cvc5.status)]
    if refuted:
        return (f"internal error: the engine proved the program but the wp calculus refutes "
                f"`{refuted[0].name}` ({'; '.join(refuted[0].failures())}); no certificate")
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cert.to_json(), f, indent=1)
            f.write("\n")
    except OSError as err:
        raise SymcertError(f"{path}: cannot write the certificate: {err.strerror}") from None
    return None
