"""`symcert oracle FILE`: test exhaustiveness and precision of the engine's transitions on random
inputs (seed 001, T-D2, T-D3, T-O1).

From `⟨true, id, FILE⟩`, each transition is checked on N random inputs (arrays' cells and input
heaps included, seed 003 §4-5; the solver takes the program's valid heaps): one `expand` step, the
stream `run` (cut after --max-states states; leaves and frontier), the seed-004 interpreter
(results at its loop limit have no known meaning and are skipped), and with --unroll K the
big-step execution that unrolls each loop K times and drops the rest (precise, not exhaustive:
T-X1), and with --merge the stream with state merging (T-M1); on a program with loop invariants
or contracts, the stream with the invariant and contract transitions (T-I1, T-S1: exhaustive,
not precise); a program with threads through its configurations, with and without the
reduction (`checking.concurrency`), and by ghosts over every schedule of the full global step
from the same inputs (seed 004's M-P3 and M-P4, no solver). A counterexample to a property a transition does not claim
(unrolling's exhaustiveness, the summaries' precision) is printed as expected. Exit 1 when a
counterexample to a claimed property is found; 3 (undecided) when some check held on no input
at all (every run was skipped) or the time budget ran out; 0 otherwise.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

from symcert.cli.commands.budget import BudgetExceeded
from symcert.cli.commands.events import emit
from symcert.cli.commands.programs import add_program, read_program, source_name
from symcert.cli.commands.values import text
from symcert.lang.errors import plural

HELP = "test exhaustiveness and precision of symbolic transitions on random inputs"


def configure(parser: argparse.ArgumentParser) -> None:
    add_program(parser)
    parser.add_argument("--unroll", type=int, default=None, metavar="K",
                        help="also check loop unrolling with threshold K (K >= 0)")
    parser.add_argument("--merge", action="store_true",
                        help="also check the stream with state merging (T-M1)")
    parser.add_argument("--runs", type=int, default=100, metavar="N",
                        help="random inputs per check (default: 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed (default: 0)")
    parser.add_argument("--max-states", type=int, default=1000, metavar="N",
                        help="states of the stream `run` before it is cut (default: 1000)")
    parser.add_argument("--loop-limit", type=int, default=10, metavar="N",
                        help="loop limit of the seed-004 interpreter (default: 10)")
    parser.add_argument("--json", action="store_true",
                        help="write JSON events (docs/schema/events.json) instead of text")


def main(args: argparse.Namespace) -> int:
    from symcert.lang.errors import EXIT_UNDECIDED, InputError
    from symcert.checking.oracles import is_probably_exhaustive, is_probably_precise
    from symcert.solver.z3backend import solver_for
    from symcert.lang.structure import inputs
    from symcert.checking.transitions import (
        expand_step, interpreter, merged_stream, stream, unroll,
    )
    from symcert.checking.abstraction import abstracted, annotated

    for flag, value, least in (("--runs", args.runs, 1), ("--max-states", args.max_states, 1),
                               ("--unroll", args.unroll, 0), ("--loop-limit", args.loop_limit, 0)):
        if value is not None and value < least:
            raise InputError(f"symcert oracle: {flag} must be at least {least}: {value}")
    name = source_name(args.file)
    program = read_program(args)
    from symcert.core.threads import is_threaded

    if is_threaded(program):
        return _threads(args, name, program)
    transitions = [expand_step, stream(args.max_states, solver_for(program)),
                   interpreter(args.loop_limit, solver_for(program))]
    if args.unroll is not None:
        transitions.append(unroll(args.unroll, solver_for(program)))
    if args.merge:
        transitions.append(merged_stream(args.max_states, solver_for(program)))
    if annotated(program):
        transitions.append(abstracted(program, args.max_states, solver_for(program)))
    names = ", ".join(sorted(inputs(program))) or "none"
    say = (lambda line: None) if args.json else print
    say(f"{name}: {plural(args.runs, 'random input')} per check (seed {args.seed}); "
        f"inputs: {names}")
    found = False
    vacuous = 0
    try:
        for t in transitions:
            say(f"  {t.name}")
            for prop, test in (("exhaustive", is_probably_exhaustive),
                               ("precise", is_probably_precise)):
                args.budget.enter(f"checking that {t.name} is {prop}")
                verdict = test(t, program, args.runs, args.seed)
                skipped = verdict.tried - verdict.decided
                expected = verdict.counterexample is not None and prop not in t.claims
                if args.json:
                    emit("check", file=name, transition=t.name, property=prop,
                         held=verdict.counterexample is None, decided=verdict.decided,
                         skipped=skipped, counterexample=None if verdict.counterexample is None
                         else text(verdict.counterexample), expected=expected)
                if verdict.counterexample is not None:
                    found = found or not expected
                    why = t.note if expected else t.caveat
                    why = f" ({why})" if why else ""
                    say(f"    {prop}: NO{why}, counterexample: {text(verdict.counterexample)}")
                else:
                    vacuous += verdict.decided == 0
                    note = (f" ({skipped:,} skipped: a run exceeded its step budget or loop "
                            "limit)" if skipped else "")
                    say(f"    {prop}: held on {plural(verdict.decided, 'input')}{note}")
    except BudgetExceeded:
        return _done(args, name, "counterexample" if found else "undecided",
                     args.budget.reason(), "time", 1 if found else EXIT_UNDECIDED)
    if found:
        return _done(args, name, "counterexample", None, None, 1)
    if vacuous:
        return _done(args, name, "undecided", f"{plural(vacuous, 'check')} held on no input: "
                     "every run exceeded its step budget or loop limit", "vacuous",
                     EXIT_UNDECIDED)
    return _done(args, name, "held", None, None, 0)


def _threads(args: argparse.Namespace, name: str, program: object) -> int:
    """With threads: the global step (`run` over configurations, with and without the
    reduction) against every concrete schedule from N random inputs (T-D2) and each leaf's
    model under its schedule (T-D3), `checking.concurrency`'s oracle; exit as above."""
    import random

    from symcert.checking.concurrency import explore, imprecise, missed_at
    from symcert.checking.oracles import random_input
    from symcert.lang.errors import EXIT_UNDECIDED
    from symcert.lang.procedures import arrays, references
    from symcert.lang.structure import inputs
    from symcert.solver.z3backend import solver_for

    say = (lambda line: None) if args.json else print
    say(f"{name}: {plural(args.runs, 'random input')} per check (seed {args.seed}), threads")
    found, vacuous = False, 0
    solver = solver_for(program)  # type: ignore[arg-type]
    for reduce in (False, True):
        transition = f"run over configurations (--por {'on' if reduce else 'off'})"
        say(f"  {transition}")
        args.budget.enter(f"exploring the configurations ({transition})")
        explored = explore(program, solver, reduce, args.max_states)  # type: ignore[arg-type]
        rng = random.Random(args.seed)
        for prop in ("exhaustive", "precise"):
            args.budget.enter(f"checking that {transition} is {prop}")
            wrong, decided = None, 0
            if explored.ended and prop == "exhaustive":
                for _ in range(args.runs):
                    sigma = random_input(inputs(program), rng, arrays(program),  # type: ignore[arg-type]
                                         references(program))  # type: ignore[arg-type]
                    missed = missed_at(program, explored, sigma, reduce)  # type: ignore[arg-type]
                    decided += missed != ""
                    if missed:
                        wrong = f"input {sigma}: the ending {missed} of a schedule is no leaf's"
                        break
            elif explored.ended:
                for leaf in explored.leaves:
                    bad = imprecise(program, leaf, solver)  # type: ignore[arg-type]
                    decided += 1
                    if bad is not None:
                        wrong = f"input {bad[0]}: {bad[1]}"
                        break
            if args.json:
                emit("check", file=name, transition=transition, property=prop,
                     held=wrong is None, decided=decided, skipped=0, counterexample=wrong)
            if wrong is not None:
                found = True
                say(f"    {prop}: NO, counterexample: {wrong}")
            else:
                vacuous += decided == 0
                what = "input" if prop == "exhaustive" else "leaf model"
                say(f"    {prop}: held on {plural(decided, what)}"
                    + ("" if explored.ended else f" (the run did not end in {args.max_states:,}"
                       " states)"))
        if not reduce:
            found = _ghosts(args, name, program, transition, say) or found
    if found:
        return _done(args, name, "counterexample", None, None, 1)
    if vacuous:
        return _done(args, name, "undecided", f"{plural(vacuous, 'check')} held on no input: "
                     "a run did not end, or its schedules were too many to enumerate",
                     "vacuous", EXIT_UNDECIDED)
    return _done(args, name, "held", None, None, 0)


def _ghosts(args: argparse.Namespace, name: str, program: object, transition: str,
            say: Callable[[str], None]) -> bool:
    """Ghost mode over configurations (seed 004's M-P3 and M-P4, `engine.ghost_threads`, no
    solver) from the same random inputs, each once: every schedule of the full global step from
    each, up to `GHOST_PAIRS` pairs of a concrete configuration and its ghost state. Whether it
    failed."""
    import random

    from symcert.checking.concurrency import GHOST_PAIRS
    from symcert.checking.oracles import random_input
    from symcert.engine.ghost_threads import check_ghost_schedules
    from symcert.lang.procedures import arrays, references
    from symcert.lang.structure import inputs

    args.budget.enter(f"following the ghosts of {transition}")
    rng = random.Random(args.seed)
    wrong, every, pairs = None, 0, 0
    sigmas = dict.fromkeys(random_input(inputs(program), rng, arrays(program),  # type: ignore[arg-type]
                                        references(program))  # type: ignore[arg-type]
                           for _ in range(args.runs))
    for sigma in sigmas:
        checked = check_ghost_schedules(program, sigma, max_pairs=GHOST_PAIRS)  # type: ignore[arg-type]
        every += checked.complete
        pairs += checked.pairs
        if checked.miss is not None:
            wrong = f"input {sigma}: {checked.miss}"
            break
    if args.json:
        emit("check", file=name, transition=transition, property="ghosts", held=wrong is None,
             decided=every, skipped=0, counterexample=wrong)
    if wrong is not None:
        say(f"    ghosts: NO, counterexample: {wrong}")
        return True
    cut = "" if every == len(sigmas) else \
        f"; the others' cut at {GHOST_PAIRS:,} configurations"
    say(f"    ghosts (no solver): held on {plural(pairs, 'configuration')}, every schedule "
        f"followed from {every:,} of {plural(len(sigmas), 'distinct input')}{cut}")
    return False


def _done(args: argparse.Namespace, name: str, verdict: str, reason: str | None,
          cause: str | None, code: int) -> int:
    """The end of the report (the `done` event under --json); return `code`."""
    if args.json:
        emit("done", file=name, verdict=verdict, reason=reason, cause=cause,
             seconds=round(time.perf_counter() - args.budget.started, 6))
    elif reason is not None:
        print(f"{name}: undecided: {reason}")
    return code
